#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The default job: the writers in our own instance, rbcheck live on every
# CPU's trace_pipe_raw for rbts.duration seconds (stopping at the first
# violation and keeping its sub-buffers if asked), then a trace.dat of
# rbts.capture seconds with trace-cmd record for the host's offline check.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

[ "$capture" = 0 ] || pin_tracepoints
start_writers || return 0
start_phases
echo "rbts: rbstress writers: $(tr '\n' ' ' < "$D/settings")"

echo "rbts: verifying live for ${duration}s"
opts=
[ "$saveraw" = 1 ] && opts="$opts --save-raw /out/raw"
[ "$stoponfail" = 1 ] && opts="$opts --stop-on-fail"
[ "$keepfailing" = 1 ] && opts="$opts --keep-failing /out/violation-raw"
[ -f /out/filter-seq-mask ] && opts="$opts --filter-seq-mask $discard"
# shellcheck disable=SC2086 # $opts is a list of options
rbcheck live --instance rbstress --duration "$duration" --progress 5 --require-nested \
	--ktap /out/result.ktap --json /out/result.json $opts > /out/summary.txt &
checker=$!
stop_button "$checker"
wait "$checker"
echo $? > /out/job-exit
stop_phases
echo 0 > "$I/events/rbstress/enable"
save_kernel_stats /out/kernel-stats.txt
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
	# And one of the kernel's own events alone, under the same clock,
	# while the stress's interrupts run: rbcheck verify judges any
	# capture by its rules over every event (and its input tests need
	# a capture without rbstress events).  nmi_handler is recorded in
	# NMI context, for each of the stress's NMIs: the kernel's own
	# events then nest at every level.
	(cd /tmp && trace-cmd record -q -C "$clock" -e sched -e irq -e timer -e nmi \
		-o /out/other.dat sleep 1 >> /out/trace-cmd.log 2>&1) || true
fi

rmmod rbstress
rmdir "$I"
unpin_tracepoints
