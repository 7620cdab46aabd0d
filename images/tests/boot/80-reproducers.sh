#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the reproducers of findings (b), (a), (j) and (k), widened by their test-only delays: they hit our series without the fixes (the expected result) and not our series
# rbts-test: lines all
# rbts-test: full other-lines
#
# One run of each deterministic reproducer (images/findings.json) on our
# series without the fixes (one kernel for all: --without every number)
# and one on our series, judged by images/rbts/reproduce.py as ./run.sh
# reproduce judges them.  Hitting the kernel without the fix is the
# expected result, shown as such; the same hit with the fix fails.  Here
# are the findings whose test-only delay makes them hit every run (10 of
# 10 on both lines, docs/findings.md): (b) with the reader delay, (a) with
# the discard delay, (j) with the shrink delay, (k) with the clock delay.
# ((i) needs no delay, but its filter scenario is (a)'s too: without both
# fixes a hit would not say whose it is.)
. "$(dirname "$0")/../lib.sh"
line=$LINE
py() { PYTHONPATH=$TOP/images python3 -m rbts.reproduce "$@"; }

fixes=
findings="b a j k"
for f in $findings; do
	fixes=$fixes${fixes:+,}$(py fix "$f" "$line")
done

# reproduce FINDING KERNEL: one run of its reproducer; sets $outcome, $why
reproduce() {
	local f=$1 kernel=$2 args d
	mapfile -t args < <(py args "$f" "$line" after)
	[ "$kernel" = after ] || args+=(--without "$fixes")
	boot "${args[@]}"
	d=$(mktemp -d -p "$tmp")
	echo "$kernel $res $rc" > "$d/runs.txt"
	py judge "$f" "$line" "$d" > "$d/summary.txt" 2>&1
	outcome=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]; print(r["outcome"] + "\t" + r["why"])' "$d/summary.json" 2>/dev/null)
	why=${outcome#*$'\t'} outcome=${outcome%%$'\t'*}
}

for f in $findings; do
	reproduce "$f" before
	[ "$outcome" = hit ] && ok "$line ($f): without its fix (--without $fixes) the reproducer hits, as expected: $why" ||
		not_ok "$line ($f): without its fix the reproducer hits: ${outcome:-no result} (exit $rc, $res)"
	reproduce "$f" after
	[ "$outcome" = clean ] && ok "$line ($f): with the fix the reproducer does not hit (exit $rc)" ||
		not_ok "$line ($f): with the fix the reproducer does not hit: ${outcome:-no result}: $why ($res)"
done
