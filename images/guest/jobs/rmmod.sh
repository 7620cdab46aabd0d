#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload under full load, several times; the kernel log must stay clean.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

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
[ "$bad" = 0 ] && echo 0 > /out/job-exit || echo 1 > /out/job-exit
