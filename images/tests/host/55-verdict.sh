#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: verdict.py: each way a run fails, fed to it in made-up results, is caught
#
# Every check of images/rbts/verdict.py gets its violation: a guest that died
# with a splat or without, one that hung, a set-up error, a checker FAIL
# (unexplained, and by a known finding's signature), a kernel complaint,
# a missing startup test, an offline FAIL, live and offline disagreeing, a
# faults table with a FAIL or a KNOWN row, a time stamp path expected and
# not reached (coverage).  Asserted on verdict.json.
. "$(dirname "$0")/../lib.sh"
# Every kind of known-finding signature, on a fixture: the project's own
# findings may all be fixed (images/tests/data/findings-signatures.json).
export RBTS_FINDINGS=$FIXTURES/findings-signatures.json

# The clean result of the committed capture: the base of every case.
# Without it every case below would judge an empty result: stop here.
if ! "$CHECKOUT/rbcheck" verify "$FIXTURES/raw" --json "$tmp/pass.json" > "$tmp/base.out" 2>&1 ||
   [ ! -s "$tmp/pass.json" ]; then
	not_ok "the base of every case: rbcheck verify PASSes the committed raw capture: $(tail -n1 "$tmp/base.out")"
	exit 0
fi

# mk NAME: a run whose guest finished and PASSed; the case then damages it.
mk() {
	d=$tmp/$1
	mkdir -p "$d"
	echo 0 > "$d/job-exit"
	cp "$tmp/pass.json" "$d/result.json"
	echo "[    1.0] rbts: guest up" > "$d/console.log"
	echo "[    1.0] rbts: guest up" > "$d/dmesg.txt"
}
# fail_rules JSON-RULES: result.json with these rules
fail_rules() {
	python3 - "$d/result.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r['rules'] = json.loads('[' + sys.argv[2] + ']')
r['verdict'] = 'FAIL'
json.dump(r, open(sys.argv[1], 'w'))
PY
}
# expect WHAT VERDICT EXIT [FIELD=VALUE...] -- ARGS: verdict.py on $d
expect() {
	local what=$1 want=$2 wexit=$3 rc got kv field value bad=
	shift 3
	local args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	[ $# -eq 0 ] || shift
	rc=0
	PYTHONPATH=$TOP/images python3 -m rbts.verdict "$d" "$@" > "$d/out.txt" 2>&1 || rc=$?
	res=$d
	got=$(verdict_field verdict)
	[ "$got" = "$want" ] || bad="verdict $got, expected $want"
	[ "$rc" = "$wexit" ] || bad="$bad exit $rc, expected $wexit"
	for kv in ${args[@]+"${args[@]}"}; do
		case $kv in
		*'~='*)	# FIELD~=TEXT: the field has TEXT in it
			field=${kv%%~=*} value=${kv#*~=}
			[[ "$(verdict_field "$field")" == *"$value"* ]] ||
				bad="$bad $field is '$(verdict_field "$field")', expected it to have '$value'" ;;
		*)	field=${kv%%=*} value=${kv#*=}
			[ "$(verdict_field "$field")" = "$value" ] ||
				bad="$bad $field is '$(verdict_field "$field")', expected '$value'" ;;
		esac
	done
	[ -z "$bad" ] && ok "$what: $want, exit $wexit" || not_ok "$what: $bad"
}

mk pass; mkdir -p "$d/raw"; cp "$tmp/pass.json" "$d/offline-raw.json"
expect "a clean run" PASS 0 "known=" "unexplained="

mk dead; rm "$d/job-exit" "$d/dmesg.txt"
printf '[    9.1] WARNING: CPU: 1 PID: 7 at kernel/trace/ring_buffer.c:3700 rb_commit+0x1/0x2\n[    9.2] Kernel panic - not syncing: panic_on_warn set ...\n' >> "$d/console.log"
expect "a guest dead of panic_on_warn" FAIL 1
grep -q "WARNING: CPU: 1 PID: 7 at kernel/trace/ring_buffer.c:3700" "$d/out.txt" &&
	ok "the dead guest's splat is quoted" || not_ok "the dead guest's splat is quoted: $(cat "$d/out.txt")"

# The debug kernel (panic_on_warn=1) dies of open finding (a)'s warning:
# known, nothing unexplained.
mk dead-known; rm "$d/job-exit" "$d/dmesg.txt"
printf '[ 50.36] WARNING: CPU: 1 PID: 492 at ../linux-6.1.192/kernel/trace/ring_buffer.c:3534 check_buffer+0x131/0x24b\n[ 50.37] [CPU: 1]TIME DOES NOT MATCH expected:1 actual:2\n[ 50.38] Kernel panic - not syncing: panic_on_warn set ...\n' >> "$d/console.log"
expect "a debug guest dead of a known finding's warning" FAIL 1 "known=check-buffer-time-mismatch" "unexplained="

mk silent; rm "$d/job-exit"
expect "a guest that wrote no verdict and no splat" ERROR 2

mk hung
expect "a guest that hung" HUNG 3 -- --hung 300

mk setup; echo "rbstress: insmod failed" > "$d/error.txt"
expect "a set-up error in the guest" ERROR 2

# A guest without a checker drains; the host's verify is the checker's word.
mk drained; echo drained > "$d/job-exit"; echo 0 > "$d/drain-verify-exit"
expect "drained, the host's verify PASSed" PASS 0 "checks.1.verdict=PASS"
mk drained-fail; echo drained > "$d/job-exit"; echo 1 > "$d/drain-verify-exit"
fail_rules '{"rule":"monotonic","verdict":"FAIL","violations":1,"examples":["cpu0: time went backwards"]}'
expect "drained, the host's verify FAILed" FAIL 1 "checks.1.verdict=FAIL"
mk drained-none; echo drained > "$d/job-exit"
expect "drained, never verified on the host" ERROR 2 "checks.1.verdict=ERROR" "checks.1.detail~=did not verify"

mk checker; echo 1 > "$d/job-exit"
fail_rules '{"rule":"monotonic","verdict":"FAIL","violations":1,"examples":["cpu0: time went backwards"]}'
expect "a checker FAIL" FAIL 1 "known=" "checks.1.verdict=FAIL"

mk gap; echo 1 > "$d/job-exit"
fail_rules '{"rule":"sequence","verdict":"FAIL","violations":1,"examples":["cpu0: nmi seq jumped from 5 to 8 with no lost events reported here"]}'
expect "a checker FAIL by the lost-event finding (b, fixed: not known)" FAIL 1 "known="

mk complaint; echo "[    3.0] BUG: KASAN: use-after-free in rb_commit" >> "$d/dmesg.txt"
expect "a kernel complaint beside a checker PASS" FAIL 1 "known=" "checks.2.name=kernel-log"

mk cbuf
printf '[ 1.0] WARNING: CPU: 1 PID: 8 at kernel/trace/ring_buffer.c:3523 check_buffer+0x131/0x24b\n[ 1.0] [CPU: 1]TIME DOES NOT MATCH expected:1 actual:2\n' >> "$d/dmesg.txt"
expect "check_buffer's audit only" FAIL 1 "known=check-buffer-time-mismatch" "unexplained="
# As a guest built out of tree through ccache prints it: the source path
# relative to the build directory (a real run's line, the filter fault).
mk cbuf-path
printf '[   50.368998] WARNING: CPU: 1 PID: 492 at ../linux-6.1.192/kernel/trace/ring_buffer.c:3534 check_buffer+0x131/0x24b\n[   50.372157] [CPU: 1]TIME DOES NOT MATCH expected:50368072540 actual:50368209450 delta:278901 before:50367930549 after:50367930549\n' >> "$d/dmesg.txt"
expect "check_buffer's audit, the source path printed relative" FAIL 1 "known=check-buffer-time-mismatch" "unexplained="

# Finding (a) caught by the checker itself: a stamp before its pre_clock,
# the very stamp check_buffer() printed as expected.  A different stamp
# is not explained by it.
own='{"rule":"own-clock","verdict":"FAIL","violations":1,"examples":["cpu1: time stamp is 135306 ns before the clock read just before the tracepoint call (pre_clock 50368207846): stamped before its reservation began\n      event  nmi#6961 ts=50368072540 (delta 278901) clock=50388073177 depth=1"]}'
audit='[ 50.37] [CPU: 1]TIME DOES NOT MATCH expected:50368072540 actual:50368209450 delta:278901 before:50367930549 after:50367930549\n'
mk own-clock-a; echo 1 > "$d/job-exit"; fail_rules "$own"; printf "$audit" >> "$d/dmesg.txt"
expect "own-clock FAIL on the stamp check_buffer() called wrong" FAIL 1 "known=check-buffer-time-mismatch" "unexplained="
mk own-clock-other; echo 1 > "$d/job-exit"; fail_rules "$own"
printf "${audit/expected:50368072540/expected:50368072541}" >> "$d/dmesg.txt"
expect "own-clock FAIL on another stamp than the audit's: not explained" FAIL 1 "known=check-buffer-time-mismatch" "checks.0.verdict=PASS"
[ -n "$(verdict_field unexplained)" ] && ok "the other stamp's FAIL stays unexplained" ||
	not_ok "the other stamp's FAIL stays unexplained"
# The same example under a rule the finding's signature does not name: the
# signature is of own-clock, so a nested-delta FAIL stays unexplained.
mk other-rule; echo 1 > "$d/job-exit"; fail_rules "${own/\"rule\":\"own-clock\"/\"rule\":\"nested-delta\"}"
printf "$audit" >> "$d/dmesg.txt"
expect "the audit's stamp FAILing another rule than the signature's" FAIL 1 "known=check-buffer-time-mismatch"
[[ "$(verdict_field unexplained)" == *nested-delta* ]] && ok "a signature explains only the rule it names: nested-delta unexplained" ||
	not_ok "a signature explains only the rule it names: unexplained is '$(verdict_field unexplained)'"

# Finding (c): the global clock stepped back as sched_clock was marked
# unstable (real runs' lines): known within 50 ms of that log line, not a
# second away.  Both sides of the step: an NMI's stamp before its own
# pre-clock (a 6.12 rehearsal), and the buffer keeping the last stamp
# (delta 0), after the event's own clock read (a vanilla 6.12 clock
# scenario).
# near_far NAME EXAMPLE MARK-TIME WHAT: the marking at MARK-TIME, then a second later
near_far() {
	local t
	for t in "$3" "$(awk -v t="$3" 'BEGIN { printf "%.6f", t + 1 }')"; do
		mk "$1-$t"; echo 1 > "$d/job-exit"
		fail_rules '{"rule":"own-clock","verdict":"FAIL","violations":1,"examples":["'"$2"'"]}'
		echo "[    $t] sched_clock: Marking unstable (2212343944, 6945027)<-(2257957305, -38600953)" >> "$d/dmesg.txt"
		if [ "$t" = "$3" ]; then
			expect "own-clock FAIL, $4, near 'sched_clock: Marking unstable'" FAIL 1 \
				"known=clock-global-back-at-unstable" "unexplained="
		else
			expect "own-clock FAIL, $4, a second from it: not explained" FAIL 1 "known="
		fi
	done
}
near_far own-clock-c 'cpu0: time stamp is 39993 ns before the clock read just before the tracepoint call (pre_clock 2220458560): stamped before its reservation began\n      event  nmi#1504 ts=2220418567 (delta 7113) clock=2220418567 depth=1' \
	2.220338 "a stamp before its pre-clock"
near_far own-clock-c2 'cpu0: time stamp is 13506 ns after the clock read in TP_fast_assign\n      event  irq#7916 ts=7659479319 (delta 0) clock=7659465813 depth=0' \
	7.659430 "a stamp after its own clock read"
# The same step seen by the ring buffer itself: an event stamped after the
# step reads a clock behind before_stamp == write_stamp (a CI run of 6.12,
# 8 KiB sub-buffers, the global clock): known near the marking only.
back='[    2.754067] Ring buffer clock went backwards: 2755997940 -> 2755952634'
mark='[    2.752106] sched_clock: Marking unstable (2744251545, -35480818)<-(2745449038, -36595462)'
mk back-c; printf '%s\n%s\n' "$mark" "$back" >> "$d/dmesg.txt"
expect "'clock went backwards' 2 ms after 'sched_clock: Marking unstable'" FAIL 1 \
	"known=clock-global-back-at-unstable" "unexplained=" "checks.2.name=kernel-log"
mk back-c-far; printf '%s\n%s\n' "${mark/2.752106/1.752106}" "$back" >> "$d/dmesg.txt"
expect "'clock went backwards' a second after it: not explained" FAIL 1 "known=" \
	"checks.2.verdict=FAIL"
mk back-c-none; printf '%s\n' "$back" >> "$d/dmesg.txt"
expect "'clock went backwards' with no marking in the log: not explained" FAIL 1 "known="

# Finding (d), in the project's own list (not the fixture): check_buffer()'s
# audit one unit off, after a page whose dump shows a padding with delta 1
# (a discarded event's delta 1, which the audit reads as none), and
# own-clock FAILs one unit early after such a padding are known; the same line with a
# real step is (a)'s form, and (a) is fixed: unexplained.
own_d='{"rule":"own-clock","verdict":"FAIL","violations":1,"examples":["cpu0: time stamp is 1 ns before the clock read just before the tracepoint call (pre_clock 7001): stamped before its reservation began\n      event  irq#15 ts=7000 (delta 0) clock=7001 depth=1 idx=9 pre=8 end=9 at sub-buffer 3 +0x1c4, after 1 padding of delta 1"]}'
# dump_d [PADDING-DELTA]: the audit line of 6.1 and its page dump
dump_d() {
	printf '%s\n' "[    7.1] [CPU: 0]TIME DOES NOT MATCH expected:7000 actual:7001 delta:0 before:7001 after:7001" \
		"[    7.1]   [6990] PAGE TIME STAMP" "[    7.1]   [6990] delta:0" \
		"[    7.1]   [6991] delta:${1:-1} PADDING" "[    7.1]   [6999] delta:8" >> "$d/dmesg.txt"
}
mk own-clock-d; echo 1 > "$d/job-exit"; fail_rules "$own_d"; dump_d
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d): the audit's delta:0 line, a padding of delta 1 in its dump, own-clock on its stamp" FAIL 1 "known=discard-delta-one" "unexplained="
# (d)'s one unit also puts a nested event before its outer window's clock read
nested_d='{"rule":"nested-delta","verdict":"FAIL","violations":1,"examples":["cpu0: irq#6639 reserved inside softirq#2705'"'"'s window but is stamped 1 ns before that window'"'"'s clock read: the same time stamp (delta 0)\n      outer  softirq#2705 ts=804 (delta n/a 0) clock=805 depth=0 idx=27297 pre=27296 end=27298 at sub-buffer 911 +0xd8, after 1 padding of delta 1\n      event  irq#6639 ts=804 (delta 0) clock=805 depth=1 idx=27298 pre=27297 end=27298 at sub-buffer 911 +0x13c, after 1 padding of delta 1"]}'
mk nested-d; echo 1 > "$d/job-exit"; fail_rules "$own_d,$nested_d"; dump_d
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d): nested-delta one unit before the window's clock read after a padding of delta 1, with own-clock" FAIL 1 "known=discard-delta-one" "unexplained="
mk nested-d-nopad; echo 1 > "$d/job-exit"; fail_rules "$own_d,${nested_d//, after 1 padding of delta 1/}"; dump_d
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d)'s nested-delta FAIL without the padding: not (d)" FAIL 1 "unexplained~=nested-delta (1)"
mk own-clock-d-nopad; echo 1 > "$d/job-exit"; fail_rules "$own_d"; dump_d 4
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d)'s audit line, but no padding of delta 1 on the dumped page: not (d)" FAIL 1 \
		"unexplained~=kernel-log: the kernel complained: [    7.1] [CPU: 0]TIME DOES NOT MATCH"
mk own-clock-d-nopad-checker; echo 1 > "$d/job-exit"; fail_rules "${own_d/, after 1 padding of delta 1/}"; dump_d
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d)'s audit line and dump, but own-clock one unit early with no padding of delta 1 before it: not (d)" FAIL 1 \
		"unexplained~=checker: FAIL on own-clock"
mk own-clock-d-2units; echo 1 > "$d/job-exit"; fail_rules "${own_d/is 1 ns before/is 2 ns before}"; dump_d
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d)'s audit line and dump, but own-clock two units early: not (d)" FAIL 1 \
		"unexplained~=checker: FAIL on own-clock"
# Under the counter clock every delta is 1: the audited event's too (a
# 6.1 run, results/20261205-103814-2730: the run's only discard left as
# padding; 6.1 warns first), every checker rule PASS.
mk counter-d; printf '%s\n' \
	"[   14.410203] WARNING: CPU: 1 PID: 52 at ../linux-6.1.192/kernel/trace/ring_buffer.c:3831 check_buffer+0x131/0x24b" \
	"[   14.425100] [CPU: 1]TIME DOES NOT MATCH expected:63591 actual:63592 delta:1 before:63591 after:63591" \
	"[   14.425100]   [63415] PAGE TIME STAMP" "[   14.425100]   [63501] delta:1" \
	"[   14.425100]   [63502] delta:1 PADDING" "[   14.425100]   [63508] delta:6" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d) under the counter clock: delta:1, the padding in the dump, the WARNING with it" FAIL 1 "known=discard-delta-one" "unexplained="
# 6.12 dumps with offsets; another message inside the dump does not end
# it, the next audit line does.
mk d-612; printf '%s\n' \
	"[    3.0] [CPU: 0]TIME DOES NOT MATCH expected:500 actual:501 delta:1 before:500 after:500 context:." \
	"[    3.0]   [400] PAGE TIME STAMP" "[    3.0]  0x10:  [401] delta:1 PADDING" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d) in 6.12's dump form" FAIL 1 "known=discard-delta-one" "unexplained="
mk d-interleaved; printf '%s\n' \
	"[    3.0] [CPU: 0]TIME DOES NOT MATCH expected:500 actual:501 delta:1 before:500 after:500 context:." \
	"[    3.0]   [400] PAGE TIME STAMP" "[    3.0] INFO: NMI handler (rbs_nmi_handler [rbstress]) took too long to run: 5.858 msecs" \
	"[    3.0]  0x10:  [401] delta:1 PADDING" "[    3.0] expected end:0x83c last event actually ended at:0x83c" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(d)'s dump with another message inside: still (d)" FAIL 1 "known=discard-delta-one" "unexplained="
mk d-next-audit; printf '%s\n' \
	"[    3.0] [CPU: 0]TIME DOES NOT MATCH expected:500 actual:501 delta:1 before:500 after:500 context:." \
	"[    3.0]   [400] PAGE TIME STAMP" "[    3.0] expected end:0x20 last event actually ended at:0x20" \
	"[    3.1] [CPU: 1]TIME DOES NOT MATCH expected:900 actual:950 delta:40 before:910 after:910 context:." \
	"[    3.1]  0x10:  [901] delta:1 PADDING" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "a padding in the next audit's dump is not this one's: not (d)" FAIL 1 \
		"unexplained~=expected:500 actual:501"
# The audit's WARNING alone says nothing of which finding it is.
mk d-warn-only; printf '%s\n' \
	"[   14.410203] WARNING: CPU: 1 PID: 52 at ../linux-6.1.192/kernel/trace/ring_buffer.c:3831 check_buffer+0x131/0x24b" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "check_buffer()'s WARNING with no audit line: not (d)" FAIL 1 "known="
mk own-clock-a; echo 1 > "$d/job-exit"; fail_rules "$own_d"
echo "[    7.1] [CPU: 0]TIME DOES NOT MATCH expected:7000 actual:7050 delta:40 before:7010 after:7010" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(a)'s form of the audit line, with (a) fixed: not explained" FAIL 1 \
		"unexplained~=kernel-log: the kernel complained: [    7.1] [CPU: 0]TIME DOES NOT MATCH"
# (a) can print delta:0 too (the event it audits took delta 0), but with its
# stamp milliseconds off, not (d)'s one unit (a real 6.1 hit, without 0010).
mk own-clock-a0; echo 1 > "$d/job-exit"; fail_rules "$own_d"
echo "[    7.1] [CPU: 1]TIME DOES NOT MATCH expected:7000 actual:2210746 delta:0 before:2210746 after:2210746" >> "$d/dmesg.txt"
RBTS_FINDINGS=$TOP/images/findings.json \
	expect "(a)'s audit line with delta:0 but 2.2 ms off: not (d)" FAIL 1 \
		"unexplained~=kernel-log: the kernel complained: [    7.1] [CPU: 1]TIME DOES NOT MATCH"

mk startup
expect "a debug kernel without 'Ring buffer PASSED'" FAIL 1 -- --startup-test
echo "[    0.5] Ring buffer PASSED!" >> "$d/dmesg.txt"
expect "a debug kernel whose startup test PASSed" PASS 0 -- --startup-test

mk offline; cp "$FIXTURES/trace.dat" "$d/trace.dat"
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['verdict'] = 'FAIL'; json.dump(r, open('$d/offline.json', 'w'))"
expect "trace.dat FAILing offline" FAIL 1
rm "$d/offline.json"
expect "trace.dat that could not be verified offline" ERROR 2 "checks.3.verdict=ERROR"

mk raw; mkdir -p "$d/raw"
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['events'] += 1; json.dump(r, open('$d/offline-raw.json', 'w'))"
expect "live and offline disagreeing on the same sub-buffers" FAIL 1
grep -q "live and offline differ in: events" "$d/out.txt" && ok "the disagreement names the field" ||
	not_ok "the disagreement names the field: $(grep live-vs "$d/out.txt")"
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['path_counters'] = [{'cpu': 0}]; json.dump(r, open('$d/offline-raw.json', 'w'))"
expect "live and offline differing only in what a live run alone reads" PASS 0
# The stats after the last drain: the live checker reads them, a raw
# capture it saved has none (null), and that is no disagreement.
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['entries_left'] = [0, 0]; json.dump(r, open('$d/result.json', 'w'))"
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['entries_left'] = None; json.dump(r, open('$d/offline-raw.json', 'w'))"
expect "live entries_left against the raw capture's null: no disagreement" PASS 0
# rbcheck verify judges every event too ("generic"); live reads rbstress alone
python3 -c "import json; r = json.load(open('$tmp/pass.json')); r['generic'] = {'verdict': 'PASS'}; json.dump(r, open('$d/offline-raw.json', 'w'))"
expect "the raw capture's rules over every event, which live has not: no disagreement" PASS 0

mk faults; mkdir -p "$d/faults"
echo '{"scenarios":[{"scenario":"resize","verdict":"PASS","evidence":"","known":[]},{"scenario":"clock","verdict":"FAIL","evidence":"never injected","known":[]}]}' > "$d/faults/faults.json"
expect "a faults run with a FAIL row" FAIL 1 "known="
echo '{"scenarios":[{"scenario":"filter","verdict":"KNOWN","evidence":"kernel: check-buffer-time-mismatch","known":["check-buffer-time-mismatch"]}]}' > "$d/faults/faults.json"
expect "a faults run with a KNOWN row only" FAIL 1 "known=check-buffer-time-mismatch" "unexplained="
rm "$d/faults/faults.json"
expect "a faults run without its table" ERROR 2

# Coverage: the kernel's path counters against images/coverage.table.
# cover NAME [PATH=N...]: a default-length stress run whose 6.1 kernel took
# every path (read_failed aside) but those given; LINE=6.12 cover ...: a
# 6.12 kernel's counters (no read_failed, the A-C outcomes split).
cover() {
	mk "$1"; shift
	printf 'job=stress\nduration=60\nphases=discard,absolute\n' > "$d/settings"
	printf 'quiet_every_ms 5000\nquiet_ms 200\n' > "$d/module-settings.txt"
	printf 'discard\nabsolute\ndiscard\n' > "$d/phases"
	python3 - "$d/result.json" "${LINE:-6.1}" "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a_to_c = ('A-C', 'A-C,C-F_delta_0') if sys.argv[2] == '6.1' else ('B-C', 'A-B_delta_0', 'C-F_delta_0')
c = {p: 7 for p in ('first_subbuf', 'before_stamp!=write_stamp') + a_to_c +
     ('time_extend', 'absolute', 'discard_removed', 'discard_padding')}
if sys.argv[2] == '6.1':
    c['read_failed'] = 0
for kv in sys.argv[3:]:
    k, v = kv.split('=')
    c[k] = int(v)
r['path_counters'] = [dict(c, cpu=0)]
json.dump(r, open(sys.argv[1], 'w'))
PY
}
cover covered
expect "every expected path reached" PASS 0 "incomplete=" "checks.3.name=coverage" "checks.3.verdict=PASS"
# The kernel's counters are its line's (results/<id>/kernel names the line).
echo "line 6.1" > "$d/kernel"
expect "6.1's counters on a 6.1 kernel: path-counters PASS" PASS 0 "checks.5.name=path-counters" "checks.5.verdict=PASS"
LINE=6.12 cover counters-6.12
echo "line 6.12" > "$d/kernel"
expect "6.12's counters on a 6.12 kernel: path-counters PASS" PASS 0 "checks.5.verdict=PASS"
echo "line 6.1" > "$d/kernel"
expect "6.12's counters on a 6.1 kernel: FAIL" FAIL 1 "checks.5.name=path-counters" "checks.5.verdict=FAIL" \
	"checks.5.detail~=read_failed not counted"
cover both-sets B-C=3
echo "line 6.1" > "$d/kernel"
expect "both lines' A-C outcomes counted: FAIL" FAIL 1 "checks.5.verdict=FAIL" "checks.5.detail~=one set of"
cover rf-on-6.12
echo "line 6.12" > "$d/kernel"
expect "read_failed on a line without the 32-bit rb_time_t: FAIL" FAIL 1 "checks.5.verdict=FAIL" \
	"checks.5.detail~=line 6.12 has no 32-bit"
cover no-extend time_extend=0
expect "time_extend expected and not reached" PASS 4 "incomplete=time_extend" "checks.3.verdict=INCOMPLETE"
[ "$(cat "$d/verdict.txt")" = "PASS (incomplete: time_extend not reached)" ] &&
	ok "verdict.txt says PASS (incomplete: time_extend not reached)" ||
	not_ok "verdict.txt says: $(cat "$d/verdict.txt")"
cover no-discards discard_removed=0 discard_padding=0 A-C=0
expect "three paths not reached" PASS 4 "incomplete=A-C,discard_removed,discard_padding"
cover fail-and-incomplete A-C=0; echo 1 > "$d/job-exit"
fail_rules '{"rule":"monotonic","verdict":"FAIL","violations":1,"examples":["cpu0: time went backwards"]}'
expect "a FAIL that is also incomplete: the FAIL's exit" FAIL 1 "incomplete=A-C"
cover short time_extend=0; printf 'job=stress\nduration=20\n' > "$d/settings"
expect "a 20 s run: coverage not judged" PASS 0 "incomplete=" "checks.3.verdict=SKIP"
cover stopped time_extend=0; echo stopped > "$d/stopped"
expect "a run stopped early from the host: coverage not judged" PASS 0 "incomplete=" "checks.3.verdict=SKIP"
cover no-quiet time_extend=0; echo 'quiet_every_ms 0' > "$d/module-settings.txt"
expect "no quiet periods: time_extend not applicable" PASS 0 "incomplete=" "coverage.7.verdict=n/a"
cover no-absolute absolute=0
expect "absolute: never expected on 6.1 (nothing sets the mode)" PASS 0 "incomplete=" "coverage.8.verdict=n/a"
cover unavailable discard_removed=0 discard_padding=0; printf 'discard unavailable\n' > "$d/phases"
expect "a phase the kernel could not enter: its paths not applicable" PASS 0 "incomplete=" "coverage.9.verdict=n/a"
cover no-phases absolute=0 discard_removed=0 discard_padding=0; : > "$d/phases"
expect "phases none: the discard paths not applicable" PASS 0 "incomplete="
cover read-failed read_failed=3
expect "a path reached that is not expected counts as reached" PASS 0 "coverage.11.verdict=reached"
LINE=6.12 cover line-6.12
expect "6.12: 6.1's A-C paths and read_failed not counted there, n/a" PASS 0 "incomplete=" \
	"coverage.2.verdict=n/a" "coverage.3.verdict=n/a" "coverage.11.verdict=n/a" "coverage.4.verdict=reached"
LINE=6.12 cover line-6.12-no-c-f C-F_delta_0=0
expect "6.12: C-F_delta_0 expected and not reached" PASS 4 "incomplete=C-F_delta_0"
cover line-6.1-no-b-c
expect "6.1: 6.12's A-C outcomes not counted there, n/a" PASS 0 "incomplete=" \
	"coverage.4.verdict=n/a" "coverage.5.verdict=n/a" "coverage.6.verdict=n/a"
cover vanilla
python3 -c "import json; r = json.load(open('$d/result.json')); r['path_counters'] = None; json.dump(r, open('$d/result.json', 'w'))"
expect "a kernel without the counters: coverage SKIP" PASS 0 "checks.3.verdict=SKIP"

# The reserve-path model of the booted tree (model.json, rbts/model_verdict.py):
# a counterexample FAILs a run whose live checks all PASSed.
model() {
	printf '{"verdict": "%s", "executions": %s, "seconds": 7.1, "bounds": "%s", "why": "%s", "replay": "%s", "reproduce": "", "replay_command": "%s", "cached": false, "tree": "build/linux-6.1.192"}\n' \
		"$@" > "$d/model.json"
}
mk model-none
expect "a run without model.json: the model check SKIPs" PASS 0 "checks.3.name=model" "checks.3.verdict=SKIP" "model=None"
mk model-pass; model pass 1624238 "depth 2, 2 events" "" "" ""
expect "the model holds: PASS" PASS 0 "checks.3.verdict=PASS" "checks.3.detail~=1.62 M executions" "model.executions=1624238"
mk model-cex; model counterexample 89 "depth 2, 1 event" "event 0 (normal) has time stamp 1010" 0000000001011 \
	"./run.sh model --reserve --ksrc build/reserve-model/ksrc-x/src --variant tree --depth 2 --ops 1 --replay 0000000001011"
expect "a counterexample, the live checks all PASS: FAIL with the replay command" FAIL 1 "checks.3.verdict=FAIL" \
	"checks.3.detail~=replay: ./run.sh model --reserve --ksrc build/reserve-model/ksrc-x/src" "unexplained~=model: " "known="
mk model-error; printf '{"verdict": "error", "why": "the reserve-path model cannot read this tree: no func x"}\n' > "$d/model.json"
expect "a tree the model cannot read: SKIP, said why" PASS 0 "checks.3.verdict=SKIP" "checks.3.detail~=cannot read this tree"
mk model-unmodelled; model unmodelled 12 "depth 2, 1 event" "overwrite mode" "" ""
expect "an execution outside the model: SKIP, said why" PASS 0 "checks.3.verdict=SKIP" "checks.3.detail~=LEFT THE MODEL"

# a boot that died of a stray int3 and was booted again (boot.sh): counted, never silent
mk retry; echo "[    2.1] int3: 0000 [#1] SMP" > "$d/console-stray-int3.log"
expect "a run booted twice (a stray int3): counted, NOTE, the verdict the second boot's" PASS 0 \
	"retries=1" "checks.4.name=boot-retry" "checks.4.verdict=NOTE" "checks.4.detail~=console-stray-int3.log"
mk no-retry
expect "a run booted once: no retry counted" PASS 0 "retries=0"

rc=0; PYTHONPATH=$TOP/images python3 -m rbts.verdict "$tmp/no-such-dir" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && ok "no such results directory: exit 2" || not_ok "no such results directory: exit $rc"
