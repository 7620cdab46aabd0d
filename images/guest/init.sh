#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the guest: mount what the jobs need, take the settings, run the
# job, write the results back.  The settings are the rbts.KEY=VALUE words
# of the kernel command line, as /etc/rbts/settings.table defines them
# (images/guest/settings.table: each key, its type, its default and what
# it does; the host's images/rbts/settings.py has checked them).  rbts.job
# names the job: /etc/rbts/jobs/JOB.sh (images/guest/jobs/), one script
# each, sourced here with the settings and /etc/rbts/lib.sh.
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
# What this run ran with, for the host's verdict: every key, as given.
while read -r key type default what; do
	case "$key" in ""|"#"*) continue ;; esac
	eval "echo \"$key=\$$key\""
done < /etc/rbts/settings.table > /out/settings
mod=$(echo "$mod" | tr ',' ' ')
faults=$(echo "$faults" | tr ',' ' ')

finish() {
	dmesg > /out/dmesg.txt
	# A lab that reads only the console (LAVA) gets the results there.
	[ "$ktapconsole" != 1 ] ||
		sh /etc/rbts/cases.sh /out /etc/rbts/kernel-complaints.pattern
	if [ -b /dev/vda ]; then
		tar cf /dev/vda -C /out . && sync
		echo "rbts: results written, powering off"
	else
		echo "rbts: no results disk, powering off"
	fi
	poweroff -f
}

. /etc/rbts/lib.sh
echo "$job" > /out/job
if [ -f "/etc/rbts/jobs/$job.sh" ]; then
	. "/etc/rbts/jobs/$job.sh"
else
	echo "rbts: error: no job '$job' in this initramfs" | tee /out/error.txt
	echo 2 > /out/job-exit
fi
finish
