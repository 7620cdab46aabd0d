#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks, for ./run.sh bench kernels: /out/bench.txt, "NAME VALUE" lines.
#  1. the stress module's writers at fixed rates, windows of 0: the module
#     times every recorded event (reserve to commit), flat and nested;
#     and the bytes per event the buffer holds;
#  2. the reader side: ns per event to read what they left, through the
#     iterator ('trace') and consuming ('trace_pipe');
#  3. the kernel's ring_buffer_benchmark: its producer's ns per entry.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

mkdir "$I"
echo "$clock" > "$I/trace_clock"
# shellcheck disable=SC2086 # $mod is a list of parameters
insmod /lib/modules/rbstress.ko clock="$clock" task_window_us=0 softirq_window_us=0 \
	irq_window_us=0 nmi_window_us=0 task_gap_us=20 $mod || { echo 2 > /out/job-exit; return 0; }
echo 1 > "$I/events/rbstress/enable"
sleep "$duration"
echo 0 > "$I/events/rbstress/enable"
cat "$D/stats" > /out/module-stats.txt
# Bytes per event in the buffer: headers, time extends, full stamps and
# padding included; a deterministic figure where time under TCG is not.
cat "$I"/per_cpu/cpu*/stats > /out/buffer-stats.txt
awk '/^bytes:/ { b += $2 } /^entries:/ { e += $2 }
     END { if (e) printf "buffer_bytes_per_event %.2f\n", b / e }' /out/buffer-stats.txt > /tmp/bytes.txt
entries=$(awk '/^entries:/ { e += $2 } END { print e + 0 }' /out/buffer-stats.txt)
# The reader side: the events the writers left, read through the iterator
# (the 'trace' file: rb_iter_peek()) and then consumed (trace_pipe:
# rb_buffer_peek(), rb_get_reader_page()), where the reader-side fixes
# live.  Each read is timed by markers in the top-level buffer: busybox
# has no finer timer than 10 ms, the trace clock has microseconds in text.
# trace_pipe ends at the first empty buffer once it has read something and
# tracing is off, so it only runs on a buffer that holds events.
if [ "$entries" -gt 0 ]; then
	echo 0 > "$I/tracing_on"
	echo 0 > "$T/tracing_on"; echo > "$T/trace"; echo 1 > "$T/tracing_on"
	echo "rbbench iter" > "$T/trace_marker"
	cat "$I/trace" > /dev/null
	echo "rbbench pipe" > "$T/trace_marker"
	cat "$I/trace_pipe" > /dev/null
	echo "rbbench end" > "$T/trace_marker"
	echo 0 > "$T/tracing_on"
	awk -v n="$entries" '/tracing_mark_write: rbbench / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t[$NF] = substr($i, 1, length($i) - 1)
	} END {
		if (("iter" in t) && ("pipe" in t) && ("end" in t)) {
			printf "reader_iter_ns_per_event %.1f\n", (t["pipe"] - t["iter"]) * 1e9 / n
			printf "reader_pipe_ns_per_event %.1f\n", (t["end"] - t["pipe"]) * 1e9 / n
			printf "reader_events %d\n", n
		}
	}' "$T/trace" > /tmp/reader.txt
fi
rmmod rbstress
rmdir "$I"
# Sum over CPUs: "stress_<ctx>_<flat|nested>_ns" (mean ns per event) and
# _n, the contexts in the module's order (rbts/bench_compare.py keeps it).
awk '$3 == "cost" {
	if (!(($2 "_flat") in n)) order[++m] = $2
	n[$2 "_flat"] += $5; ns[$2 "_flat"] += $6
	n[$2 "_nested"] += $8; ns[$2 "_nested"] += $9
} END {
	for (i = 1; i <= m; i++) for (j = 0; j < 2; j++) {
		k = order[i] (j ? "_nested" : "_flat")
		if (n[k] > 0) printf "stress_%s_ns %.1f\nstress_%s_n %d\n", k, ns[k] / n[k], k, n[k]
	}
}' /out/module-stats.txt > /out/bench.txt
cat /tmp/bytes.txt >> /out/bench.txt
[ ! -f /tmp/reader.txt ] || cat /tmp/reader.txt >> /out/bench.txt
if [ -f /lib/modules/ring_buffer_benchmark.ko ]; then
	echo 0 > "$T/tracing_on"; echo > "$T/trace"; echo 1 > "$T/tracing_on"
	insmod /lib/modules/ring_buffer_benchmark.ko
	# One round: the producer hammers for 10 s, then reports.
	for _ in $(seq 60); do
		grep -q "ns per entry" "$T/trace" && break
		sleep 1
	done
	rmmod ring_buffer_benchmark
	grep -v '^#' "$T/trace" > /out/ring_buffer_benchmark.txt
	awk '/ns per entry/ { for (i = 1; i <= NF; i++) if ($i == "ns") { print "rbbench_ns_per_entry", $(i - 1); exit } }' \
		/out/ring_buffer_benchmark.txt >> /out/bench.txt
	awk '/Entries per millisec/ { print "rbbench_entries_per_ms", $NF; exit }' \
		/out/ring_buffer_benchmark.txt >> /out/bench.txt
fi
cat /out/bench.txt
[ -s /out/bench.txt ] && echo 0 > /out/job-exit || echo 1 > /out/job-exit
