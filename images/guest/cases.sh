#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cases.sh OUT PATTERN: a run's results as test cases, one line each:
#
#   rbts: case NAME pass|fail|skip
#
# NAME is a checker rule of the stress job's KTAP (OUT/result.ktap) or
# kernel-log (fail if OUT/dmesg.txt has a line matching PATTERN, a file of
# one extended regex: images/kernel-complaints.pattern); a fault scenario's
# are SCENARIO.RULE and SCENARIO.kernel-log (OUT/faults/SCENARIO/).
#
# The one mapping from our results to a lab's test cases: the guest prints
# it on the console when rbts.ktapconsole=1 (LAVA's monitors read only the
# console: docs/lab.md), and the host runs it on a results directory
# (./run.sh matrix), so the two are the same cases by construction.
out=$1 pattern=$2
echo "rbts: cases begin"
for d in "$out" "$out"/faults/*; do
	[ -d "$d" ] || continue
	prefix=${d#"$out"}
	prefix=${prefix#/faults/}
	[ -z "$prefix" ] || prefix=$prefix.
	# Only the top level of the KTAP: a rule's line, not its per-CPU subtests.
	[ ! -f "$d/result.ktap" ] || awk -v p="$prefix" '/^(not )?ok [0-9]+ / {
		if ($1 == "not") { r = "fail"; n = $4 } else { r = / # SKIP/ ? "skip" : "pass"; n = $3 }
		print "rbts: case " p n " " r
	}' "$d/result.ktap"
	if [ -f "$d/dmesg.txt" ]; then
		grep -Eq -f "$pattern" "$d/dmesg.txt" && r=fail || r=pass
		echo "rbts: case ${prefix}kernel-log $r"
	fi
done
echo "rbts: cases end"
