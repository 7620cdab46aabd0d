#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: bench kernels: the comparison and its threshold, on made-up runs
#
# Tests of rbts/bench_compare.py on made-up runs, one TAP line each: a kernel
# slower beyond the threshold must fail it, one within the spread must not,
# too few timed events never decide, and a broken runs.tsv is refused.
. "$(dirname "$0")/../lib.sh"
here=$TOP/images

# runs KERNEL:SCALE... > runs.tsv: three repetitions, a little noise
runs() {
	local rep k
	for rep in 1 2 3; do
		for k in "$@"; do
			awk -v k="${k%%:*}" -v s="${k#*:}" -v r="$rep" 'BEGIN {
				printf "%s\t%d\trbbench_ns_per_entry\t%.1f\n", k, r, (200 + r) * s
				printf "%s\t%d\tstress_irq_flat_ns\t%.1f\n", k, r, (800 + 10 * r) * s
				printf "%s\t%d\tstress_irq_flat_n\t5000\n", k, r
				printf "%s\t%d\tstress_nmi_nested_ns\t%.1f\n", k, r, 900 * s * 3
				printf "%s\t%d\tstress_nmi_nested_n\t7\n", k, r
			}'
		done
	done
}
compare() {	# DIR THRESHOLD: sets $rc, $out
	rc=0
	out=$(PYTHONPATH=$TOP/images python3 -m rbts.bench_compare "$@" 2>&1) || rc=$?
}
# cj DIR EXPR: a Python expression over DIR/compare.json (as d), printed
cj() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1] + "/compare.json")); print(eval(sys.argv[2]))' "$@" 2>&1
}

mkdir -p "$tmp/slow" "$tmp/same" "$tmp/bad" "$tmp/one"
for d in slow same bad one; do echo "wall-clock ns (test)" > "$tmp/$d/mode.txt"; done
runs vanilla:1 series-64:1.01 series-32:1.5 > "$tmp/slow/runs.tsv"
compare "$tmp/slow" 10
[ "$rc" = 1 ] && [ "$(cj "$tmp/slow" 'd["verdict"], sorted(set(s.split()[0] for s in d["slower"]))')" = "('FAIL', ['series-32'])" ] &&
	out_has "FAIL: series-32 is 5[0-9].[0-9]% slower than vanilla on ring_buffer_benchmark" &&
	ok "a kernel 50% slower fails --threshold 10 and is named" ||
	not_ok "a kernel 50% slower fails --threshold 10 (exit $rc)"
echo "$out" | grep "^Threshold" | grep -q "nested" &&
	not_ok "too few timed events never decide" || ok "too few timed events never decide (nested NMI: 7 per run)"
[ -s "$tmp/slow/report.md" ] && [ -s "$tmp/slow/bench.png" ] &&
	ok "report.md and bench.png written" || not_ok "report.md and bench.png written"
grep -q "Mode: wall-clock ns (test)" "$tmp/slow/report.md" &&
	ok "the report says which mode produced the figures" || not_ok "the report states its mode"

runs vanilla:1 series-64:1.005 > "$tmp/same/runs.tsv"
compare "$tmp/same" 10
[ "$rc" = 0 ] && out_has "PASS: no kernel is more than 10% slower" &&
	ok "a kernel within the threshold passes" || not_ok "a kernel within the threshold passes (exit $rc)"
compare "$tmp/same" 0
[ "$rc" = 0 ] && out_has "within spread" &&
	ok "a difference within the repetitions' spread does not fail even --threshold 0" ||
	not_ok "a difference within the spread does not fail --threshold 0 (exit $rc)"

runs vanilla:1 series-64:1 > "$tmp/bad/runs.tsv"
printf 'series-64\t4\tstress_irq_flat_ns\tfast\n' >> "$tmp/bad/runs.tsv"
compare "$tmp/bad" 10
[ "$rc" = 2 ] && out_has "runs.tsv line 31: value 'fast' is not a number" &&
	ok "a corrupt runs.tsv is refused with its line" || not_ok "a corrupt runs.tsv is refused (exit $rc: $out)"
# Bytes per event: the same on every repetition (no timing in it), so a
# kernel whose events grow is caught even by a small threshold.
mkdir -p "$tmp/bytes"; echo "wall-clock ns (test)" > "$tmp/bytes/mode.txt"
runs vanilla:1 series-64:1 > "$tmp/bytes/runs.tsv"
for rep in 1 2 3; do
	printf 'vanilla\t%d\tbuffer_bytes_per_event\t40.00\n' "$rep"
	printf 'series-64\t%d\tbuffer_bytes_per_event\t44.00\n' "$rep"
done >> "$tmp/bytes/runs.tsv"
compare "$tmp/bytes" 5
[ "$rc" = 1 ] && out_has "series-64 is 10.0% larger than vanilla on bytes per event" &&
	ok "events 10% larger in the buffer fail --threshold 5 and are named" ||
	not_ok "events 10% larger in the buffer fail --threshold 5 (exit $rc: $(echo "$out" | tail -n 1))"
out_has "^| bytes per event in the buffer (rbstress) | 40.00 \[40.00-40.00\] | 44.00 \[44.00-44.00\] x1.100 |" &&
	ok "the table shows bytes per event with two decimals" ||
	not_ok "the table shows bytes per event: $(echo "$out" | grep bytes)"

# The reader side's rows, and the stress writers' contexts as the guest
# named them, in its order: a context the module adds needs no change here.
mkdir -p "$tmp/reader"; echo "icount ns (test)" > "$tmp/reader/mode.txt"
for rep in 1 2 3; do
	for k in vanilla:1 fixed:1.05; do
		awk -v k="${k%%:*}" -v s="${k#*:}" -v r="$rep" 'BEGIN {
			printf "%s\t%d\tstress_task_flat_ns\t%.1f\n", k, r, 500 + r
			printf "%s\t%d\tstress_task_flat_n\t900\n", k, r
			printf "%s\t%d\tstress_hrtimer_nested_ns\t%.1f\n", k, r, 700 + r
			printf "%s\t%d\tstress_hrtimer_nested_n\t900\n", k, r
			printf "%s\t%d\treader_pipe_ns_per_event\t%.1f\n", k, r, (3000 + r) * s
		}'
	done
done > "$tmp/reader/runs.tsv"
compare "$tmp/reader" 2
[ "$rc" = 1 ] && [ "$(cj "$tmp/reader" '[w["metric"] for w in d["workloads"]]')" = \
	"['reader_pipe_ns_per_event', 'stress_task_flat_ns', 'stress_hrtimer_nested_ns']" ] &&
	ok "the reader's rows come first, the writers' contexts in the guest's order" ||
	not_ok "the reader's and the contexts' rows (exit $rc): $(cj "$tmp/reader" '[w["metric"] for w in d["workloads"]]')"
r=$(cj "$tmp/reader" '[round(w["kernels"]["fixed"]["ratio"], 2) for w in d["workloads"] if w["metric"].startswith("reader")]')
[ "$r" = "[1.05]" ] && [ "$(cj "$tmp/reader" 'd["slower"][0].split(" on ")[1]')" = "reader, consuming ('trace_pipe') ns/event" ] &&
	ok "a reader 5% slower fails --threshold 2, named by its workload" ||
	not_ok "a reader 5% slower fails --threshold 2: ratio $r, $(cj "$tmp/reader" 'd["slower"]')"

runs vanilla:1 > "$tmp/one/runs.tsv"
compare "$tmp/one"
[ "$rc" = 2 ] && out_has "need a baseline and at least one other kernel" &&
	ok "one kernel alone is refused" || not_ok "one kernel alone is refused (exit $rc)"
compare "$tmp/same" ten
[ "$rc" = 2 ] && ok "a threshold that is not a number is refused" || not_ok "a bad threshold is refused (exit $rc)"
