#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stray int3 of multi-threaded TCG, alone (issue 43, docs/reliability.md):
# no module, no checker.  Every CPU is kept busy with tasks that switch and
# timers that raise softirqs, while this job turns the sched_switch and
# softirq_entry tracepoints on and off as fast as the kernel patches their
# calls (each write is a text_poke_bp() of every call site of the event's
# static call).  The kernel handles an int3 it meets while a site is being
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
	for n in 1 2 3 4 5 6 7 8 9 10; do
		echo 1 > "$T/events/sched/sched_switch/enable"
		echo 1 > "$T/events/irq/softirq_entry/enable"
		echo 0 > "$T/events/sched/sched_switch/enable"
		echo 0 > "$T/events/irq/softirq_entry/enable"
	done
	flips=$((flips + 40))
done
# shellcheck disable=SC2086
kill $pids 2>/dev/null
echo "flips $flips cpus $ncpu seconds $duration" > /out/textpoke.txt
echo "rbts: textpoke: $flips tracepoint switches in ${duration}s on $ncpu CPU(s), no stray int3"
echo 0 > /out/job-exit
