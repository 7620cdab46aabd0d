#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stray int3 of multi-threaded TCG, alone (issue 43, docs/reliability.md):
# no module, no checker.  Every CPU is kept busy with tasks that switch and
# timers that raise softirqs, while this job turns the sched, irq and
# timer events on and off as fast as the kernel patches their calls (each
# write is a text_poke_bp() of the call sites of every event of the
# subsystem: as the capture and pin_tracepoints did when guests died).  The kernel handles an int3 it meets while a site is being
# patched (poke_int3_handler()); one met after the patching ended is the
# "int3: 0000 [#1]" the stress job's guests died of.  The count of flips
# goes to /out/textpoke.txt; a guest that dies of it is boot.sh's retry,
# counted in verdict.json (retries).
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

ncpu=$(grep -c '^processor' /proc/cpuinfo)
pids=
i=0
while [ "$i" -lt $((2 * ncpu)) ]; do
	# two busy tasks per CPU: the scheduler switches between them at each tick
	( while :; do :; done ) &
	pids="$pids $!"
	i=$((i + 1))
done
flips=0
end=$(( $(cut -d. -f1 /proc/uptime) + duration ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	for s in sched irq timer; do
		echo 1 > "$T/events/$s/enable"
	done
	for s in sched irq timer; do
		echo 0 > "$T/events/$s/enable"
	done
	flips=$((flips + 6))
done
# shellcheck disable=SC2086
kill $pids 2>/dev/null
echo "flips $flips cpus $ncpu seconds $duration" > /out/textpoke.txt
echo "rbts: textpoke: $flips subsystem switches (sched, irq, timer) in ${duration}s on $ncpu CPU(s), no stray int3"
echo 0 > /out/job-exit
