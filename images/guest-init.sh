#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the guest.  What to do comes from the kernel command line:
#
#   rbts.job=stress|probe   stress (default): load rbstress, verify live, capture
#                           a trace.dat; probe: print the marker and power off
#   rbts.duration=SEC       how long the live checker reads (default 60)
#   rbts.clock=NAME         trace clock of the instance and the module (global)
#   rbts.bufkb=KB           per-CPU buffer size of the instance (default 4096)
#   rbts.capture=SEC        length of the trace.dat capture (default 2, 0: none)
#   rbts.mod=a=1,b=2        extra rbstress module parameters
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
echo "rbts: guest up: $(nproc) CPU(s), $(uname -r)"

job=stress duration=60 clock=global bufkb=4096 capture=2 mod=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	rbts.job=*)		job=${arg#*=} ;;
	rbts.duration=*)	duration=${arg#*=} ;;
	rbts.clock=*)		clock=${arg#*=} ;;
	rbts.bufkb=*)		bufkb=${arg#*=} ;;
	rbts.capture=*)		capture=${arg#*=} ;;
	rbts.mod=*)		mod=$(echo "${arg#*=}" | tr ',' ' ') ;;
	esac
done

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
echo "$job" > /out/job

# The instance under test: our own, so nothing else writes into it.
mkdir "$I"
if ! echo "$clock" > "$I/trace_clock" 2>/dev/null; then
	echo "rbts: error: trace clock '$clock' is not available" | tee /out/error.txt
	echo 2 > /out/verdict
	finish
fi
echo "$bufkb" > "$I/buffer_size_kb"

# shellcheck disable=SC2086 # $mod is a list of parameters
if ! insmod /lib/modules/rbstress.ko clock="$clock" $mod 2>/out/insmod.txt; then
	echo "rbts: error: insmod rbstress failed: $(cat /out/insmod.txt)" | tee /out/error.txt
	echo 2 > /out/verdict
	finish
fi
echo 1 > "$I/events/rbstress/enable"

echo "rbts: verifying live for ${duration}s"
rbcheck live --instance rbstress --duration "$duration" --progress 5 --require-nested \
	> /out/summary.txt
echo $? > /out/verdict
echo 0 > "$I/events/rbstress/enable"

if [ "$capture" != 0 ]; then
	echo "rbts: capturing ${capture}s with trace-cmd record"
	(cd /tmp && trace-cmd record -q -C "$clock" -e rbstress -o /out/trace.dat \
		sleep "$capture" > /out/trace-cmd.log 2>&1) ||
		echo "rbts: warning: trace-cmd record failed (see trace-cmd.log)"
fi

rmmod rbstress
rmdir "$I"
finish
