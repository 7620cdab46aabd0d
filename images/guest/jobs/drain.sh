#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The writers as for stress, but the sub-buffers go to the host: rbdrain
# reads every CPU's trace_pipe_raw into the raw capture /out/drain, with the
# formats and the path counters; the host's rbcheck verifies it.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

start_writers || return
start_phases
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
stop_phases
sleep 1
kill "$tailer" 2>/dev/null
# 0: the capture is complete; the verdict is the host's.  Else: set-up.
[ "$rc" = 0 ] && echo drained > /out/job-exit || echo 2 > /out/job-exit
[ "$rc" = 0 ] || grep -m1 '^rbdrain:' /out/drain.log > /out/error.txt
echo 0 > "$I/events/rbstress/enable"
cat "$D/settings" > /out/module-settings.txt
cat "$D/stats" > /out/module-stats.txt
rmmod rbstress
rmdir "$I"
