#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: selftests: the vanilla/series comparison, on made-up results
#
# Tests of rbts/selftests_compare.py on made-up ftracetest results, one TAP line
# each: identical results PASS (a case failing on both is listed, not
# hidden); a case whose result differs, a case run on one kernel only, a
# timeout on one side FAIL; a malformed result file is an error naming it.
. "$(dirname "$0")/../lib.sh"
here=$TOP/images

# results DIR KERNEL LINES...
results() {
	mkdir -p "$1/$2"
	local d=$1/$2
	shift 2
	printf '%b\n' "$@" > "$d/selftests.tsv"
}
compare() {	# DIR: sets $rc, $out
	rc=0
	out=$(PYTHONPATH=$TOP/images python3 -m rbts.selftests_compare "$1" vanilla series 2>&1) || rc=$?
}

base=('00basic/basic1.tc\tPASS' '00basic/basic2.tc\tPASS,PASS' 'event/trace_printk.tc\tFAIL'
      '00basic/snapshot.tc\tUNSUPPORTED,UNSUPPORTED')

d=$tmp/same
results "$d" vanilla "${base[@]}"
results "$d" series "${base[@]}"
compare "$d"
[ "$rc" = 0 ] && ok "identical results: exit 0" || not_ok "identical results: exit 0 (exit $rc: $out)"
out_has "VERDICT: PASS" && ok "identical results: VERDICT PASS" || not_ok "identical results: VERDICT PASS"
out_has "not a pass on either kernel.*event/trace_printk.tc" &&
	ok "a case failing on both kernels is listed as such" || not_ok "a case failing on both kernels is listed as such: $out"
[ -s "$d/table.md" ] && ok "table.md written" || not_ok "table.md written"

d=$tmp/differ
results "$d" vanilla "${base[@]}"
results "$d" series '00basic/basic1.tc\tPASS' '00basic/basic2.tc\tPASS,FAIL' 'event/trace_printk.tc\tFAIL' \
	'00basic/snapshot.tc\tUNSUPPORTED,UNSUPPORTED'
compare "$d"
[ "$rc" = 1 ] && ok "one result differs (the instance run): exit 1" || not_ok "one result differs: exit 1 (exit $rc)"
out_has "00basic/basic2.tc | PASS,PASS | PASS,FAIL | \*\*DIFFERS\*\*" &&
	ok "the differing case is marked" || not_ok "the differing case is marked: $out"

d=$tmp/missing
results "$d" vanilla "${base[@]}"
results "$d" series "${base[@]:0:3}"
compare "$d"
[ "$rc" = 1 ] && out_has "snapshot.tc | UNSUPPORTED,UNSUPPORTED | (not run)" &&
	ok "a case run on one kernel only FAILs" || not_ok "a case run on one kernel only FAILs (exit $rc)"

d=$tmp/timeout
results "$d" vanilla "${base[@]}"
results "$d" series '00basic/basic1.tc\tTIMEOUT' "${base[@]:1}"
compare "$d"
[ "$rc" = 1 ] && ok "a timeout on one kernel FAILs" || not_ok "a timeout on one kernel FAILs (exit $rc)"

d=$tmp/bad
results "$d" vanilla "${base[@]}"
results "$d" series 'no tab here'
compare "$d"
[ "$rc" = 2 ] && out_has "series/selftests.tsv:1: not CASE<TAB>RESULT" &&
	ok "a malformed result file: exit 2, file and line named" ||
	not_ok "a malformed result file: exit 2, file and line named (exit $rc: $out)"
d=$tmp/none
mkdir -p "$d"
compare "$d"
[ "$rc" = 2 ] && ok "no result files: exit 2" || not_ok "no result files: exit 2 (exit $rc)"
