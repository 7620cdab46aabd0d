#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the guest's jobs share.  Sourced by /init after the settings.

T=/sys/kernel/tracing
I=$T/instances/rbstress
D=/sys/kernel/debug/rbstress

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
