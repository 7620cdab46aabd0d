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
# Every CPU's per_cpu/cpuN/stats of the instance into FILE, once the
# writers are stopped: what the checker read at its end may still miss an
# event whose writer was open then ('entries' and 'read events' tell).
save_kernel_stats() {
	for c in "$I"/per_cpu/cpu*; do
		echo "${c##*/}"
		cat "$c/stats"
	done > "$1" 2>/dev/null
}

# Enabling an event while the writers' interrupts run rewrites its call
# sites (text_poke_bp(): a static key at 0->1 probes, the tracepoint's
# static call at 1->2), and under multi-threaded TCG a vCPU now and then
# traps on an int3 the patching CPU already removed and the guest dies
# (docs/reliability.md, "A stray int3"; once in boot/stress, in
# trace_sched_wakeup, as trace-cmd record enabled sched events).  So the
# kernel events the capture records get two probes each here, before the
# writers start, in two instances that record nothing (tracing_on 0): a
# third probe, or its removal, changes no code.
pin_tracepoints() {
	local p s
	for p in rbts-pin-a rbts-pin-b; do
		mkdir -p "$T/instances/$p" 2>/dev/null || return 0
		echo 0 > "$T/instances/$p/tracing_on"
		for s in sched irq timer nmi; do
			[ -e "$T/instances/$p/events/$s/enable" ] &&
				echo 1 > "$T/instances/$p/events/$s/enable"
		done
	done
}

unpin_tracepoints() {
	local p
	for p in rbts-pin-a rbts-pin-b; do
		[ -d "$T/instances/$p" ] || continue
		echo 0 > "$T/instances/$p/events/enable"
		rmdir "$T/instances/$p"
	done
}

start_writers() {
	mkdir "$I"
	if ! echo "$clock" > "$I/trace_clock" 2>/dev/null; then
		echo "rbts: error: trace clock '$clock' is not available" | tee /out/error.txt
		echo 2 > /out/job-exit
		return 1
	fi
	# Sub-buffers larger than a page: 6.6 and later only (6.1 has no file).
	if [ "$subbufkb" != 4 ]; then
		if [ ! -e "$I/buffer_subbuf_size_kb" ]; then
			echo "rbts: error: rbts.subbufkb=$subbufkb: this kernel has page-sized sub-buffers only (no buffer_subbuf_size_kb)" | tee /out/error.txt
			echo 2 > /out/job-exit
			return 1
		fi
		echo "$subbufkb" > "$I/buffer_subbuf_size_kb"
	fi
	echo "$bufkb" > "$I/buffer_size_kb"
	# shellcheck disable=SC2086 # $mod is a list of parameters
	if ! insmod /lib/modules/rbstress.ko clock="$clock" $mod 2>/out/insmod.txt; then
		echo "rbts: error: insmod rbstress failed: $(cat /out/insmod.txt)" | tee /out/error.txt
		echo 2 > /out/job-exit
		return 1
	fi
	echo 1 > "$I/events/rbstress/enable"
}

# Jobs stress and drain visit, in turns, paths the plain stress never
# takes, for 1 s of every 10 s each (rbts.phases; /out/phases counts them):
#   discard   the event filter "seq & N" (rbts.discard).  An outermost event
#             is then built in the per-CPU filter buffer and copied in only
#             if it passes, so the ring buffer discards nested events:
#             removed when nothing came after them (rb_try_to_discard()),
#             left as padding with their delta when something did.
# No phase asks for absolute time stamps: nothing in 6.1 sets the buffer's
# absolute mode (ring_buffer_set_time_stamp_abs() has no caller), and a
# hist trigger on common_timestamp sets the instance's clock, which resets
# the buffer.  /out/filter-seq-mask tells the checkers (here and on the
# host) which seq gaps the filter made.
phase_on() {
	case "$1" in
	discard) echo "seq & $discard" > "$I/events/rbstress/rbstress_event/filter" ;;
	esac
}
phase_off() {
	echo 0 > "$I/events/rbstress/rbstress_event/filter"
}
# The phases in the background until stop_phases; each ends before the next.
start_phases() {
	phases=$(echo "$phases" | tr ',' ' ')
	[ "$phases" != none ] || return 0
	echo "$discard" > /out/filter-seq-mask
	: > /out/phases
	(
		while :; do
			for p in $phases; do
				sleep 9
				if phase_on "$p"; then
					echo "$p" >> /out/phases
				else
					echo "$p unavailable" >> /out/phases
				fi
				sleep 1
				phase_off "$p"
			done
		done
	) &
	phaser=$!
}
# Stop them, whatever they were doing, and leave no phase on.  (A stop
# file was tried: the i386 guest's busybox touch fails there, and the
# wait for the loop hung the guest.)
stop_phases() {
	[ -n "${phaser:-}" ] || return 0
	kill "$phaser" 2>/dev/null
	wait "$phaser" 2>/dev/null
	for p in $phases; do
		phase_off "$p"
	done
	phaser=
}
