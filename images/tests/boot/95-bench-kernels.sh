#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: bench kernels measures both lines in one run: vanilla and series of 6.1 and 6.12, 6.1's 32-bit rb_time_t
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
brc=0
rbts bench kernels --reps 1 --duration 5 > "$LOGS/bench.log" 2>&1 || brc=$?
bres=$(ls -d "$TOP"/results/bench-kernels-* 2>/dev/null | tail -n1)
[ "$brc" = 0 ] && ok "bench kernels runs (exit 0)" || not_ok "bench kernels runs (exit $brc, see $LOGS/bench.log)"
for k in vanilla-6.1 series-6.1 series-6.1-32 vanilla-6.12 series-6.12; do
	grep -q "^$k	1	rbbench_ns_per_entry" "$bres/runs.tsv" 2>/dev/null &&
		ok "$k: ring_buffer_benchmark measured" || not_ok "$k: ring_buffer_benchmark measured"
	grep -q "^$k	1	stress_normal_flat_ns" "$bres/runs.tsv" 2>/dev/null &&
		ok "$k: the stress writers' cost measured" || not_ok "$k: the stress writers' cost measured"
done
[ -s "$bres/report.md" ] && [ -s "$bres/bench.png" ] && ok "report.md and bench.png" ||
	not_ok "report.md and bench.png"
