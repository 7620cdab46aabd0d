#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: reproduce: a finding's runs judged hit or clean, its rates and exit
#
# Tests of images/rbts/reproduce.py on made-up runs, one TAP line each: each
# kind of hit a finding names (a rule of the checker, of its fault
# scenario; entries left after the drain; a kernel complaint) is seen, an
# open finding's signature takes a failure away from another finding, a
# run that did not finish is neither hit nor clean, and the exit says
# whether the fix holds.  The options of a run: the fix left out by its
# number in each line's series.
. "$(dirname "$0")/../lib.sh"
py() { PYTHONPATH=$TOP/images python3 -m rbts.reproduce "$@"; }

# run DIR RULE:VERDICT... [entries_left JSON] [dmesg]: a made-up stress/drain run
run() {
	local d=$1 rules= r
	mkdir -p "$d"
	for r in $2; do
		rules="$rules${rules:+,}{\"rule\":\"${r%%:*}\",\"verdict\":\"${r#*:}\",\"examples\":[]}"
	done
	printf '{"verdict":"PASS","rules":[%s],"entries_left":%s}\n' "$rules" "${3:-[0,0]}" > "$d/result.json"
	printf '%b' "${4:-}" > "$d/dmesg.txt"
}
judge() {	# FINDING LINE 'KERNEL DIR RC'...: sets $rc, $out, $sum (summary.json)
	local f=$1 l=$2 d
	shift 2
	d=$(mktemp -d -p "$tmp")
	printf '%s\n' "$@" > "$d/runs.txt"
	rc=0
	out=$(py judge "$f" "$l" "$d" 2>&1) || rc=$?
	sum=$d/summary.json
}
field() { python3 -c "import json, sys; s = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$sum" "$1" 2>/dev/null; }
expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] && ok "$1" || not_ok "$1: want '$3', got '$2'"
}

# (b): entries left after the drain are its mark (never counted read nor
# lost); a sequence FAIL with nothing left is another mechanism, not (b)
run "$tmp/seq" "sequence:FAIL monotonic:PASS"
run "$tmp/left" "sequence:PASS" "[2,0]"
run "$tmp/clean" "sequence:PASS monotonic:PASS"
run "$tmp/other" "monotonic:FAIL"
run "$tmp/both" "sequence:FAIL" "[0,3]"
judge b 6.12 "before $tmp/seq 1" "before $tmp/left 0" "after $tmp/clean 0" "after $tmp/gone 3" "before $tmp/both 1"
expect "b: a sequence FAIL with nothing left after the drain is not (b)" "$(field "s['runs'][0]['outcome']")" clean
expect "b: entries left after the drain are a hit" "$(field "s['runs'][1]['why']")" "cpu0: 2 entries left after the drain"
expect "b: a clean run is clean" "$(field "s['runs'][2]['outcome']")" clean
expect "b: a run that did not finish is an error" "$(field "s['runs'][3]['outcome']")" error
expect "b: a sequence FAIL with entries left is a hit" "$(field "s['runs'][4]['why']")" "cpu1: 3 entries left after the drain"
expect "b: the rate before is 2 of 3" "$(field "'%d of %d' % (s['rates']['before']['hits'], s['rates']['before']['runs'])")" "2 of 3"
expect "b: an error is not one of the runs" "$(field "'%d of %d, %d' % (s['rates']['after']['hits'], s['rates']['after']['runs'], s['rates']['after']['errors'])")" "0 of 1, 1"
expect "b: on 6.12 the fix left out is fixes/0004" "$(field "s['rates']['before']['without']")" 0004
expect "b: the fix holds: exit 0" "$rc" 0

judge b 6.1 "before $tmp/other 1" "after $tmp/clean 0"
expect "b: a rule it does not name is no hit" "$(field "s['runs'][0]['outcome']")" clean
expect "b: never hit before the fix: exit 4" "$rc" 4
judge b 6.1 "before $tmp/left 1" "after $tmp/left 0"
expect "b: a hit after the fix: exit 1" "$rc" 1
judge b 6.1 "vanilla $tmp/left 1" "vanilla $tmp/clean 0"
expect "b: the natural rate is its own, 1 of 2" "$(field "'%d of %d' % (s['rates']['vanilla']['hits'], s['rates']['vanilla']['runs'])") $(field "sorted(s['rates'])")" "1 of 2 ['vanilla']"
expect "b: the natural rate alone: exit 0" "$rc" 0

# (i): the filter scenario's rules; (a)'s signature takes its own-clock FAIL
mkdir -p "$tmp/f4/faults" "$tmp/fa/faults"
run "$tmp/f4/faults/filter" "monotonic:FAIL"
run "$tmp/fa/faults/filter" "own-clock:FAIL"
python3 - "$tmp/fa/faults/filter/result.json" <<'PY'
import json, sys
p = sys.argv[1]
r = json.load(open(p))
r['rules'][0]['examples'] = ['cpu1: time stamp is 1 ns before the clock read just before the tracepoint call (pre_clock 50368072541)\n'
                             '      event  nmi#1 ts=50368072540 at sub-buffer 2 +0x30, after 1 padding of delta 1']
json.dump(r, open(p, 'w'))
PY
printf '%s\n' '[ 1.0] [CPU: 1]TIME DOES NOT MATCH expected:50368072540 actual:50368072541 delta:0 before:50368072541 after:50368072541' \
	'[ 1.0]   [50368072500] PAGE TIME STAMP' '[ 1.0]   [50368072501] delta:1 PADDING' > "$tmp/fa/faults/filter/dmesg.txt"
judge i 6.1 "before $tmp/f4 1" "before $tmp/fa 1" "after $tmp/clean 0"
expect "(i): monotonic FAIL in the filter scenario is a hit" "$(field "s['runs'][0]['outcome']")" hit
expect "(i): a FAIL open finding (d) explains is not a hit" "$(field "s['runs'][1]['outcome']")" clean
expect "(i): on 6.1 the fix left out is fixes/0001 (the label is the fix's number in the old 6.1 series)" "$(field "s['rates']['before']['without']")" 0001
# (a): its kernel complaint, with a real step (one unit after a padding of
# delta 1 is (d)'s)
cp -r "$tmp/fa" "$tmp/fa2"
printf '[ 1.0] [CPU: 1]TIME DOES NOT MATCH expected:50368072540 actual:50368209450 delta:278901 before:50367930549 after:50367930549\n' > "$tmp/fa2/faults/filter/dmesg.txt"
judge a 6.1 "before $tmp/fa2 1" "before $tmp/fa 1"
expect "a: TIME DOES NOT MATCH in the scenario's log is a hit" "$(field "s['runs'][0]['outcome']")" hit
expect "a: the line one unit off after a padding of delta 1 is open finding (d)'s, not a hit" "$(field "s['runs'][1]['outcome']")" clean
expect "a: only runs before the fix: those rates only" "$(field "sorted(s['rates'])")" "['before']"

# (k): "clock went backwards" is its hit, unless open finding (c) explains
# the line (near a sched_clock marking: the clock itself stepped back)
back='[    7.650483] Ring buffer clock went backwards: 7659479319 -> 7659465813\n'
run "$tmp/c6/faults/clock" "" "" "$back"
run "$tmp/c6m/faults/clock" "" "" "[    7.659430] sched_clock: Marking unstable (7689545781, -43061951)<-(7761173973, -114685617)\n$back"
judge k 6.1 "vanilla $tmp/c6 1" "vanilla $tmp/c6m 1"
expect "(k): 'clock went backwards' in the clock scenario is a hit" "$(field "s['runs'][0]['outcome']")" hit
expect "(k): the same line 9 ms from a sched_clock marking is open finding (c)'s, not a hit" "$(field "s['runs'][1]['outcome']")" clean

# The options of a run
out=$(py args b 6.1 before | tr '\n' ' ')
expect "args: before is our series without the fix" "$out" "--job drain --duration 20 --reader-delay-us 1000 --kernel 6.1 --without 0004 "
out=$(py args m1 6.12 before | tr '\n' ' ')
expect "args: (m1)'s before goes without fixes/0006 alone (its group stands alone)" "$out" "--duration 20 --clock uptime --phases none --nest-delay-us 10000 --kernel 6.12 --without 0006 "
out=$(py args b 6.12 after | tr '\n' ' ')
expect "args: after is our series" "$out" "--job drain --duration 20 --reader-delay-us 1000 --kernel 6.12 "
# a finding with no fix: our series only
printf '{"findings":[{"id":"x","label":"x","title":"t","status":"open","doc":"d","reproducer":{"args":["--job","drain"],"hit":{"entries_left":true}}}]}\n' > "$tmp/nofix.json"
rc=0; out=$(RBTS_FINDINGS=$tmp/nofix.json py args x 6.1 after 2>&1) || rc=$?
expect "args: a finding with no fix has no after kernel (exit 2)" "$rc: $out" "2: reproduce: x: the kernel is one of before vanilla, not 'after'"
out=$(RBTS_FINDINGS=$tmp/nofix.json py args x 6.1 before | tr '\n' ' ')
expect "args: before a finding with no fix is our series" "$out" "--job drain --kernel 6.1 "
out=$(py args a 6.12 before | tr '\n' ' ')
expect "args: (a)'s reproducer runs the filter scenario with the discard delay, without fixes/0005 on 6.12" "$out" "--faults filter --duration 15 --discard-delay-us 1000 --tsc-unstable --kernel 6.12 --without 0005 "
out=$(py args a 6.12 vanilla | tr '\n' ' ')
expect "args: the natural rate is the vanilla kernel without the test-only delay" "$out" "--faults filter --duration 15 --tsc-unstable --kernel 6.12 --vanilla "
out=$(RBTS_FINDINGS=$tmp/nofix.json py args x 6.1 vanilla | tr '\n' ' ')
expect "args: an open finding has a natural rate too" "$out" "--job drain --kernel 6.1 --vanilla "
printf '{"findings":[{"id":"y","label":"y","title":"t","status":"open","doc":"docs/model.md"}]}\n' > "$tmp/norepro.json"
rc=0; out=$(RBTS_FINDINGS=$tmp/norepro.json py args y 6.1 before 2>&1) || rc=$?
expect "args: a finding the model found and no run reproduces yet is refused, and says where it is found" "$rc: $out" "2: reproduce: y has no live reproducer (docs/model.md says how it is found)"
rc=0; out=$(py args nosuch 6.1 before 2>&1) || rc=$?
expect "args: an unknown finding is a usage error" "$rc ${out:0:40}" "2 reproduce: no finding 'nosuch' in images"
rc=0; out=$("$TOP/run.sh" reproduce b --runs 0 2>&1) || rc=$?
expect "run.sh reproduce --runs 0 is a usage error" "$rc: $(echo "$out" | head -1)" "2: run.sh: --runs must be 1 to 999, not '0'"
