#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the guest.  What to do comes from the kernel command line: the
# rbts.KEY=VALUE words of /etc/rbts/settings.table (images/guest/
# settings.table: each key, its type, its default and what it does; the
# host's images/guest-args.py has checked them).  rbts.job says which job
# runs: stress (default): load rbstress, verify live, capture a trace.dat;
# probe: print the marker and power off; params: load rbstress with every
# line of /etc/rbts/module-params.table; rmmod: unload it under full load,
# several times; capture: only trace-cmd record; faults: for each scenario
# of rbts.faults, verify live while rbts-faults injects it (results in
# /out/faults/SCENARIO/); drain: no checker in the guest (i386): rbdrain
# copies the sub-buffers into /out/drain, which the host verifies; bench:
# the timed writers and ring_buffer_benchmark; selftests: the ftracetest
# cases of /etc/rbts/ftracetest.list, each under a timeout.
#
# A second disk (/dev/vdb), if present, is the host's stop button: when it
# reads STOP, the live checker is interrupted and still writes its summary.
# A third (/dev/vdc), if present, is where job drain streams the sub-buffers.
#
# Everything for the host goes to /out, which is written as a tar stream to
# the raw disk /dev/vda at the end; the host unpacks it into results/<run-id>.

export PATH=/bin:/usr/bin
/bin/busybox mkdir -p /proc /sys /dev /tmp /out
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
/bin/busybox --install -s /bin
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing
mount -t debugfs nodev /sys/kernel/debug
echo "rbts: guest up: $(nproc) CPU(s), $(uname -r)"

# Every setting starts at its default, then takes the command line's value.
while read -r key type default what; do
	case "$key" in ""|"#"*) continue ;; esac
	[ "$default" != - ] || default=
	eval "$key=\$default"
done < /etc/rbts/settings.table
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	rbts.*=*)
		key=${arg%%=*} key=${key#rbts.}
		# only the table's keys: a value is assigned, never evaluated
		grep -q "^$key[[:space:]]" /etc/rbts/settings.table && eval "$key=\${arg#*=}" ;;
	esac
done
# Lists are comma-separated on the command line, space-separated here.
mod=$(echo "$mod" | tr ',' ' ')
faults=$(echo "$faults" | tr ',' ' ')

finish() {
	dmesg > /out/dmesg.txt
	tar cf /dev/vda -C /out . && sync
	echo "rbts: results written, powering off"
	poweroff -f
}

if [ "$job" = probe ]; then
	echo "RBTS-PROBE-OK"
	poweroff -f
fi

T=/sys/kernel/tracing
I=$T/instances/rbstress
D=/sys/kernel/debug/rbstress
echo "$job" > /out/job

# Each case of the table: TAP lines in /out/params.tap, verdict 0 if all pass.
job_params() {
	n=0 bad=0
	while read -r expect params; do
		case "$expect" in reject|accept) ;; *) continue ;; esac
		n=$((n + 1))
		dmesg -c > /dev/null
		# shellcheck disable=SC2086 # a list of parameters
		if insmod /lib/modules/rbstress.ko $params 2>/tmp/insmod.err; then got=accept; else got=reject; fi
		# A rejection must come with an error-level (<3>) line naming it.
		if [ "$got" = reject ]; then
			msg=$(dmesg -r | grep -m1 '^<3>.*rbstress' | sed 's/^<3>\[[^]]*\] //')
		else
			msg=$(dmesg | grep -m1 'rbstress: loaded' | sed 's/^\[[^]]*\] //')
		fi
		if [ "$got" = accept ]; then
			rmmod rbstress || bad=$((bad + 1))
		fi
		first=${params%% *}
		if [ "$got" != "$expect" ]; then
			echo "not ok $n - $expect '$params': was ${got}ed ($msg)"
			bad=$((bad + 1))
		elif [ "$got" = reject ] && ! echo "$msg" | grep -q "${first%%=*}"; then
			echo "not ok $n - reject '$params': the error does not name ${first%%=*} ($msg)"
			bad=$((bad + 1))
		elif [ "$got" = reject ] && [ -d /sys/module/rbstress ]; then
			echo "not ok $n - reject '$params': something stayed loaded"
			bad=$((bad + 1))
		else
			echo "ok $n - $expect '$params'${msg:+: $msg}"
		fi
	done < /etc/rbts/module-params.table > /out/params.tap
	cat /out/params.tap
	[ "$bad" = 0 ] && echo 0 > /out/verdict || echo 1 > /out/verdict
}

# Unload under full load, several times; the kernel log must stay clean.
job_rmmod() {
	mkdir "$I"
	echo "$clock" > "$I/trace_clock"
	bad=0
	for i in 1 2 3 4 5; do
		insmod /lib/modules/rbstress.ko clock="$clock" || bad=$((bad + 1))
		echo 1 > "$I/events/rbstress/enable"
		sleep 2
		if rmmod rbstress && [ ! -d /sys/module/rbstress ]; then
			echo "ok $i - rmmod under load"
		else
			echo "not ok $i - rmmod under load"
			bad=$((bad + 1))
		fi
	done > /out/rmmod.tap
	cat /out/rmmod.tap
	[ -d "$I/events/rbstress" ] && { echo "not ok - events/rbstress outlived the module" >> /out/rmmod.tap; bad=$((bad + 1)); }
	rmdir "$I"
	[ "$bad" = 0 ] && echo 0 > /out/verdict || echo 1 > /out/verdict
}

# A plain trace-cmd capture of the stress, for benchmarks: no live checker.
job_capture() {
	# shellcheck disable=SC2086 # $mod is a list of parameters
	insmod /lib/modules/rbstress.ko clock="$clock" $mod || { echo 2 > /out/verdict; return; }
	echo "rbts: recording ${duration}s with trace-cmd record"
	(cd /tmp && trace-cmd record -q -C "$clock" -b "$bufkb" -e rbstress -o /out/trace.dat \
		sleep "$duration" > /out/trace-cmd.log 2>&1)
	echo $? > /out/verdict
	rmmod rbstress
}

# Benchmarks, for ./run.sh bench kernels: /out/bench.txt, "NAME VALUE" lines.
#  1. the stress module's writers at fixed rates, windows of 0: the module
#     times every recorded event (reserve to commit), flat and nested;
#  2. the kernel's ring_buffer_benchmark: its producer's ns per entry.
job_bench() {
	mkdir "$I"
	echo "$clock" > "$I/trace_clock"
	# shellcheck disable=SC2086 # $mod is a list of parameters
	insmod /lib/modules/rbstress.ko clock="$clock" task_window_us=0 softirq_window_us=0 \
		irq_window_us=0 nmi_window_us=0 task_gap_us=20 $mod || { echo 2 > /out/verdict; return; }
	echo 1 > "$I/events/rbstress/enable"
	sleep "$duration"
	echo 0 > "$I/events/rbstress/enable"
	cat "$D/stats" > /out/module-stats.txt
	rmmod rbstress
	rmdir "$I"
	# Sum over CPUs: "stress_<ctx>_<flat|nested>_ns" (mean ns per event) and _n.
	awk '$3 == "cost" {
		n[$2 "_flat"] += $5; ns[$2 "_flat"] += $6
		n[$2 "_nested"] += $8; ns[$2 "_nested"] += $9
	} END {
		for (k in n) if (n[k] > 0) printf "stress_%s_ns %.1f\nstress_%s_n %d\n", k, ns[k] / n[k], k, n[k]
	}' /out/module-stats.txt | sort > /out/bench.txt
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
	[ -s /out/bench.txt ] && echo 0 > /out/verdict || echo 1 > /out/verdict
}

# The host's stop button: STOP written to the second disk (Ctrl-C there)
# interrupts the checker $1, which still writes its summary.
stop_button() {
	[ -b /dev/vdb ] || return 0
	(
		while kill -0 "$1" 2>/dev/null; do
			if dd if=/dev/vdb bs=512 count=1 iflag=direct 2>/dev/null | grep -q STOP; then
				echo "rbts: stop requested by the host"
				echo stopped > /out/stopped
				kill -INT "$1"
				break
			fi
			sleep 1
		done
	) &
}

# The instance under test (our own, so nothing else writes into it), the
# module loaded and its event enabled there.  On failure: the error in
# /out/error.txt, verdict 2, return 1.
start_writers() {
	mkdir "$I"
	if ! echo "$clock" > "$I/trace_clock" 2>/dev/null; then
		echo "rbts: error: trace clock '$clock' is not available" | tee /out/error.txt
		echo 2 > /out/verdict
		return 1
	fi
	echo "$bufkb" > "$I/buffer_size_kb"
	# shellcheck disable=SC2086 # $mod is a list of parameters
	if ! insmod /lib/modules/rbstress.ko clock="$clock" $mod 2>/out/insmod.txt; then
		echo "rbts: error: insmod rbstress failed: $(cat /out/insmod.txt)" | tee /out/error.txt
		echo 2 > /out/verdict
		return 1
	fi
	echo 1 > "$I/events/rbstress/enable"
}

# Each fault scenario in turn: a live check of its own while rbts-faults
# injects the fault until the check ends.  /out/faults/SCENARIO/ gets the
# checker's summary, JSON, exit status, and the injector's counts.
job_faults() {
	start_writers || return
	# The kernel log per scenario, so that a complaint is laid at its door.
	dmesg -c > /out/dmesg-before-faults.txt
	bad=0
	for s in $faults; do
		d=/out/faults/$s
		mkdir -p "$d"
		echo 1 > "$I/tracing_on"
		opts=
		case "$s" in filter|mixed) opts="--filter-seq-mask 7" ;; esac
		[ "$saveraw" = 1 ] && opts="$opts --save-raw $d/raw"
		echo "rbts: fault '$s': injecting it for ${duration}s while the checker verifies"
		# shellcheck disable=SC2086 # $opts is a list of options
		rbcheck live --instance rbstress --duration "$duration" --progress 10 \
			--require-nested --ktap "$d/result.ktap" --json "$d/result.json" \
			--keep-failing "$d/violation-raw" $opts \
			> "$d/summary.txt" &
		checker=$!
		stop_button "$checker"
		I=$I BUFKB=$bufkb CLOCK=$clock MODPARAMS=$mod rbts-faults "$s" "$checker" > "$d/injected.txt"
		wait "$checker"
		rc=$?
		echo "$rc" > "$d/verdict"
		[ "$rc" = 0 ] || bad=1
		cat "$D/stats" > "$d/module-stats.txt" 2>/dev/null
		dmesg -c > "$d/dmesg.txt"
		echo "rbts: fault '$s': checker exit $rc, $(grep -m1 '^injected' "$d/injected.txt")"
		[ ! -f /out/stopped ] || break
	done
	echo 0 > "$I/events/rbstress/enable"
	rmmod rbstress
	rmdir "$I"
	echo "$bad" > /out/verdict
}

# The writers as for stress, but the sub-buffers go to the host: rbdrain
# reads every CPU's trace_pipe_raw into the raw capture /out/drain, with the
# formats and the path counters; the host's rbcheck verifies it.
job_drain() {
	start_writers || return
	echo "rbts: rbstress writers: $(tr '\n' ' ' < "$D/settings")"
	echo "rbts: draining the sub-buffers for ${duration}s (verified on the host)"
	# A third disk, if the host gave one, takes the sub-buffers as they
	# come: /out is in the guest's memory, the disk is as big as the host's.
	stream=
	[ -b /dev/vdc ] && stream="--stream /dev/vdc"
	# shellcheck disable=SC2086 # $stream is an option and its value
	rbdrain --instance rbstress --duration "$duration" --out /out/drain $stream \
		> /out/drain.log 2>&1 &
	drainer=$!
	stop_button "$drainer"
	# its progress lines, as they come, for the host's console
	tail -f /out/drain.log 2>/dev/null &
	tailer=$!
	wait "$drainer"
	rc=$?
	sleep 1
	kill "$tailer" 2>/dev/null
	# 0: the capture is complete; the verdict is the host's.  Else: set-up.
	[ "$rc" = 0 ] && echo drained > /out/verdict || echo 2 > /out/verdict
	[ "$rc" = 0 ] || grep -m1 '^rbdrain:' /out/drain.log > /out/error.txt
	echo 0 > "$I/events/rbstress/enable"
	cat "$D/settings" > /out/module-settings.txt
	cat "$D/stats" > /out/module-stats.txt
	rmmod rbstress
	rmdir "$I"
}

# The kernel's own ftrace selftests, the curated subset: one ftracetest run
# per case, under busybox's timeout.  Each result line of ftracetest
# ("[N] description [PASS]"; a case flagged "instance" runs a second time,
# "(instance)") becomes "CASE<TAB>RESULT[,RESULT]" in /out/selftests.tsv.
job_selftests() {
	ft=/usr/share/ftracetest
	n=0
	: > /out/selftests.tsv
	mkdir -p /out/ftracetest-logs
	while read -r t _; do
		case "$t" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		log=/out/ftracetest-logs/$(echo "$t" | tr '/' '_' | sed 's/\.tc$//')
		start=$(date +%s)
		timeout "$fttimeout" "$ft/ftracetest" -k -l "$log.logs" "$ft/test.d/$t" > "$log.out" 2>&1
		rc=$?
		res=$(sed -n 's/^\[[0-9]*\] .*\[\([A-Z]*\)\]$/\1/p' "$log.out" | paste -s -d, -)
		# timeout kills with SIGTERM: 143
		[ "$rc" = 143 ] && res=${res:+$res,}TIMEOUT
		[ -n "$res" ] || res="NORESULT(exit $rc)"
		printf '%s\t%s\n' "$t" "$res" >> /out/selftests.tsv
		echo "rbts: ftracetest $n $t: $res ($(( $(date +%s) - start ))s)"
	done < /etc/rbts/ftracetest.list
	echo 0 > /out/verdict
}

case "$job" in
selftests)	job_selftests; finish ;;
drain)		job_drain; finish ;;
faults)		job_faults; finish ;;
params)		job_params; finish ;;
rmmod)		job_rmmod; finish ;;
capture)	job_capture; finish ;;
bench)		job_bench; finish ;;
esac

start_writers || finish
echo "rbts: rbstress writers: $(tr '\n' ' ' < "$D/settings")"

echo "rbts: verifying live for ${duration}s"
opts=
[ "$saveraw" = 1 ] && opts="$opts --save-raw /out/raw"
[ "$stoponfail" = 1 ] && opts="$opts --stop-on-fail"
[ "$keepfailing" = 1 ] && opts="$opts --keep-failing /out/violation-raw"
# shellcheck disable=SC2086 # $opts is a list of options
rbcheck live --instance rbstress --duration "$duration" --progress 5 --require-nested \
	--ktap /out/result.ktap --json /out/result.json $opts > /out/summary.txt &
checker=$!
stop_button "$checker"
wait "$checker"
echo $? > /out/verdict
echo 0 > "$I/events/rbstress/enable"
cat "$D/settings" > /out/module-settings.txt
cat "$D/stats" > /out/module-stats.txt

# The sub-buffers around the first violation, also as a trace.dat that
# trace-cmd report (and rbcheck verify) read: a header made from this
# system's formats, then the pages.
if [ -f /out/violation-raw/cpu0.pages ]; then
	echo "$clock" > "$T/trace_clock"	# the header records the top level's clock
	(cd /tmp && trace-cmd restore -c -o /tmp/head.dat > /out/restore.log 2>&1 &&
		trace-cmd restore -i /tmp/head.dat -o /out/violation.dat \
			/out/violation-raw/cpu*.pages >> /out/restore.log 2>&1) &&
		rm -f /out/violation-raw/cpu*.pages ||
		echo "rbts: warning: trace-cmd restore failed (see restore.log)"
fi

if [ "$capture" != 0 ]; then
	echo "rbts: capturing ${capture}s with trace-cmd record"
	# With another system's event beside ours: the checker must skip it.
	(cd /tmp && trace-cmd record -q -C "$clock" -b "$bufkb" -e rbstress \
		-e sched:sched_switch -o /out/trace.dat sleep "$capture" > /out/trace-cmd.log 2>&1) ||
		echo "rbts: warning: trace-cmd record failed (see trace-cmd.log)"
	# And one without any rbstress event, for the checker's input tests.
	(cd /tmp && trace-cmd record -q -e sched:sched_switch -o /out/other.dat \
		sleep 1 >> /out/trace-cmd.log 2>&1) || true
fi

rmmod rbstress
rmdir "$I"
finish
