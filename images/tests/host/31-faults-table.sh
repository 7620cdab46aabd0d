#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: faults: the table's verdicts and their evidence, on made-up runs
#
# Tests of rbts/faults_table.py on made-up fault runs, one TAP line each: a
# scenario PASSes only with the checker's PASS, injections and its evidence;
# each missing piece of evidence, a checker failure, a kernel complaint in
# the scenario's log FAIL it; the open check_buffer finding under the filter
# is KNOWN, and still fails the run.
. "$(dirname "$0")/../lib.sh"
# Every kind of known-finding signature, on a fixture: the project's own
# findings may all be fixed (images/tests/data/findings-signatures.json).
export RBTS_FINDINGS=$FIXTURES/findings-signatures.json
export PYTHONPATH=$TOP/images
here=$TOP/images

# scenario DIR NAME RC INJECTED JSON-FAULTS LOST [EXTRA-LINES] [DMESG] [JSON-RULES]
scenario() {
	local d=$1/faults/$2
	mkdir -p "$d"
	echo "$3" > "$d/job-exit"
	printf 'injected %s\nnot_injected 0\n%b' "$4" "${7:-}" > "$d/injected.txt"
	printf '{"events":1000,"lost_events":%s,"faults":{%s},"cpus":[],"rules":[%s]}\n' \
		"$6" "$5" "${9:-}" > "$d/result.json"
	printf '%b' "${8:-}" > "$d/dmesg.txt"
}
table() {	# DIR: sets $rc, $out
	rc=0
	out=$(python3 -m rbts.faults_table "$1" 2>&1) || rc=$?
}
row() { echo "$out" | awk -v n="$1" '$1 == n { print $NF }'; }
expect() {	# WHAT SCENARIO VERDICT
	local got
	got=$(row "$2")
	[ "$got" = "$3" ] && ok "$1: $2 is $3" || not_ok "$1: $2 is $3, got '${got:-no row}'"
}

good=$tmp/good
scenario "$good" clock 0 5 '"buffer_resets":10' 0
scenario "$good" overwrite 0 5 '' 100
scenario "$good" no-overwrite 0 5 '' 0 'dropped 500\nrefused 503\n'
scenario "$good" filter 0 5 '"filtered":7' 0
scenario "$good" reload 0 5 '"module_reloads":2' 0
scenario "$good" resize 0 5 '' 0
table "$good"
[ "$rc" = 0 ] && ok "a run with every scenario's evidence PASSes (exit 0)" || not_ok "a good run PASSes (exit $rc: $out)"

bad=$tmp/bad
scenario "$bad" clock 0 5 '"buffer_resets":0' 0
scenario "$bad" overwrite 0 5 '' 0
scenario "$bad" no-overwrite 0 5 '' 0 'dropped 500\nrefused 900\n'
scenario "$bad" filter 0 5 '"filtered":0' 0
scenario "$bad" reload 0 5 '"module_reloads":0' 0
scenario "$bad" resize 1 5 '' 0
scenario "$bad" instances 0 0 '' 0
scenario "$bad" tracing-on 0 5 '' 0 '' '[ 9.1] BUG: KASAN: use-after-free in rb_commit\n'
table "$bad"
[ "$rc" = 1 ] && ok "a run with failing scenarios exits 1" || not_ok "a run with failing scenarios exits 1 (exit $rc)"
expect "a clock switch the checker never noticed" clock FAIL
expect "no loss reported under a stalled reader" overwrite FAIL
expect "refused calls the kernel did not count as dropped" no-overwrite FAIL
expect "a filter that filtered nothing" filter FAIL
expect "a reload the checker never saw" reload FAIL
expect "the checker's FAIL" resize FAIL
expect "a fault never injected" instances FAIL
expect "a KASAN report in the scenario's log" tracing-on FAIL

known=$tmp/known
scenario "$known" filter 0 5 '"filtered":7' 0 '' \
	'[ 1.0] WARNING: CPU: 1 PID: 8 at kernel/trace/ring_buffer.c:3523 check_buffer+0x131/0x24b\n[ 1.0] [CPU: 1]TIME DOES NOT MATCH expected:1 actual:2\n'
scenario "$known" clock 0 5 '"buffer_resets":4' 0 '' '[ 1.0] [CPU: 1]TIME DOES NOT MATCH expected:1 actual:2\n'
table "$known"
expect "check_buffer's open finding under the filter" filter KNOWN
expect "the same complaint outside the filter" clock FAIL
[ "$rc" = 1 ] && ok "a KNOWN scenario still fails the run (exit 1)" || not_ok "a KNOWN scenario still fails the run (exit $rc)"

# (c) in a scenario: its own-clock FAIL and the ring buffer's "clock went
# backwards" are explained by the marking line in that scenario's own log,
# which is no complaint (the table must read the whole log, not only the
# complaints); the same FAIL in a scenario whose log lacks it is not.
own_c='{"rule":"own-clock","verdict":"FAIL","violations":1,"examples":["cpu0: time stamp is 39993 ns before the clock read just before the tracepoint call (pre_clock 2220458560): stamped before its reservation began\n      event  nmi#1504 ts=2220418567 (delta 7113) clock=2220418567 depth=1"]}'
mark='[    2.220338] sched_clock: Marking unstable (2212343944, 6945027)<-(2257957305, -38600953)\n'
back='[    2.221000] Ring buffer clock went backwards: 2221040000 -> 2221000000\n'
step=$tmp/step
scenario "$step" resize 1 5 '' 0 '' "$mark$back" "$own_c"
scenario "$step" reload 1 5 '"module_reloads":2' 0 '' "$back" "$own_c"
table "$step"
expect "(c)'s own-clock FAIL and complaint by the marking in the scenario's log" resize KNOWN
expect "(c)'s own-clock FAIL and complaint without the marking" reload FAIL

# Events missing with no loss reported: finding (b), fixed in our series
# (images/findings.json has no signature for it), so it excuses nothing.
gap='{"rule":"sequence","verdict":"FAIL","violations":1,"examples":["cpu0: nmi seq jumped from 5 to 8 with no lost events reported here"]}'
shrink='{"rule":"sequence","verdict":"FAIL","violations":1,"examples":["cpu0: normal seq jumped from 3040 to 3506 with no lost events reported here"]}'
mono='{"rule":"monotonic","verdict":"FAIL","violations":1,"examples":["cpu0: time went backwards"]}'
other='{"rule":"sequence","verdict":"FAIL","violations":1,"examples":["cpu0: nmi seq went back from 8 to 5"]}'
gaps=$tmp/gaps
scenario "$gaps" filter 1 5 '"filtered":7' 0 '' '' "$gap"
scenario "$gaps" mixed 1 5 '"filtered":7' 0 '' '' "$gap,$mono"
scenario "$gaps" resize 1 5 '' 0 '' '' "$shrink"
scenario "$gaps" tracing-on 1 5 '' 0 '' '' "$gap"
table "$gaps"
expect "seqs missing with no loss report under the filter (b, fixed)" filter FAIL
expect "the same beside another rule's FAIL" mixed FAIL
expect "465 seqs missing (a shrink's unreported pages, 0005)" resize FAIL
expect "a few seqs missing in another scenario (b, fixed)" tracing-on FAIL
[ "$rc" = 1 ] && ok "the seq gaps fail the run (exit 1)" || not_ok "the seq gaps fail the run (exit $rc)"
scenario "$tmp/gaps2" filter 1 5 '"filtered":7' 0 '' '' "$other"
table "$tmp/gaps2"
expect "another sequence violation under the filter" filter FAIL

# The findings' signatures themselves (images/rbts/known_findings.py), as
# verdict.py uses them for a whole run.
kf() {
	printf '{"rules":[%s]}\n' "$1" > "$tmp/kf.json"
	python3 -c "import sys, json; from rbts import known_findings as k
print(','.join(k.checker_findings(json.load(open('$tmp/kf.json')))) or 'none')"
}
[ "$(kf "$gap")" = none ] && ok "known findings: a few seqs lost with no report is none of them (b is fixed)" ||
	not_ok "known findings: a few seqs lost: $(kf "$gap")"
[ "$(kf "$shrink")" = none ] && ok "known findings: 465 seqs lost is none of them" || not_ok "known findings: 465 seqs lost: $(kf "$shrink")"
[ "$(kf "$gap,$mono")" = none ] && ok "known findings: a gap and a monotonic FAIL is none of them" ||
	not_ok "known findings: a gap and a monotonic FAIL: $(kf "$gap,$mono")"
[ "$(kf '')" = none ] && ok "known findings: no failing rule is none of them" || not_ok "known findings: no failing rule: $(kf '')"
kl() {
	python3 -c "import sys; from rbts import known_findings as k
ids, left = k.log_findings(sys.argv[1:])
print(','.join(ids) + '/' + str(len(left)))" "$@"
}
cb='[ 1.0] WARNING: CPU: 1 PID: 8 at kernel/trace/ring_buffer.c:3523 check_buffer+0x131/0x24b'
[ "$(kl "$cb" "[ 1.1] Kernel panic - not syncing: panic_on_warn set ...")" = check-buffer-time-mismatch/0 ] &&
	ok "known findings: check_buffer's WARN and the panic it causes are explained" ||
	not_ok "known findings: check_buffer's WARN and its panic: $(kl "$cb" "[ 1.1] Kernel panic - not syncing: panic_on_warn set ...")"
[ "$(kl "$cb" "[ 1.1] BUG: KASAN: use-after-free in rb_commit")" = check-buffer-time-mismatch/1 ] &&
	ok "known findings: a KASAN report beside check_buffer's WARN stays unexplained" ||
	not_ok "known findings: a KASAN report beside it: $(kl "$cb" "[ 1.1] BUG: KASAN: use-after-free in rb_commit")"
[ "$(kl "[ 1.1] Kernel panic - not syncing: panic_on_warn set ...")" = /1 ] &&
	ok "known findings: a panic alone is not explained" || not_ok "known findings: a panic alone"

# (c) and the audit after it: the clock steps back as the TSC is marked
# unstable, and check_buffer() finds the stamp short by exactly that step
# (the 6.12 default run of a CI rehearsal); the same audit short by
# another amount, or far from the step, is not (c)'s.
klog() {	# LINES...: every line is the log, the complaints among them judged by (c)
	python3 -c "import sys; from rbts import known_findings as k
c = [f for f in k.load() if f['label'] == 'c']
ids, left = k.log_findings(k.complaints(sys.argv[1:]), findings=c, log=sys.argv[1:])
print(','.join(ids) + '/' + str(len(left)))" "$@"
}
tsc="[    2.186627] clocksource: timekeeping watchdog on CPU1: Marking clocksource 'tsc' as unstable because the skew is too large:"
cback='[    2.193469] Ring buffer clock went backwards: 2193423535 -> 2193415270'
caudit='[    2.194807] [CPU: 0]TIME DOES NOT MATCH expected:2194591588 actual:2194583323 delta:81723 before:2194501600 after:2194501600 context:Nh'
cwarn='[    2.196079] WARNING: CPU: 0 PID: 57 at ../linux-6.12.118/kernel/trace/ring_buffer.c:4628 check_buffer+0x1c3/0x1e5'
got=$(klog "$tsc" "$cback" "$caudit" "$cwarn")
[ "$got" = clock-global-back-at-unstable/0 ] && ok "known findings: (c)'s step back and the audit short by that step are (c)'s" ||
	not_ok "known findings: (c)'s step back and its audit: $got"
got=$(klog "$tsc" "$cback" "${caudit/actual:2194583323/actual:2194583324}" "$cwarn")
[ "${got#*/}" != 0 ] && ok "known findings: an audit short by another amount stays unexplained ($got)" ||
	not_ok "known findings: an audit short by another amount: $got"
got=$(klog "$tsc" "$cback" "${caudit/2.194807/3.194807}" "${cwarn/2.196079/3.196079}")
[ "$got" = clock-global-back-at-unstable/2 ] && ok "known findings: the same audit a second after the step stays unexplained" ||
	not_ok "known findings: the audit a second later: $got"

table "$tmp/none"
[ "$rc" = 2 ] && ok "no fault results: exit 2" || not_ok "no fault results: exit 2 (exit $rc)"
