#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: inject one kind of fault into the instance under test, over
# and over, while the writers record and the live checker verifies, until
# the checker exits.  Prints "injected N" at the end, plus the scenario's
# own evidence as "name value" lines.
#
# usage: rbts-faults SCENARIO CHECKER-PID
#   SCENARIO      a fault of /etc/rbts/faults/ (images/guest/faults/NN-NAME.sh:
#                 each fault's one entry, its injector and its evidence), or
#   mixed         all of them, one at a time, in random order
# Environment: I (instance dir), BUFKB, CLOCK, MODPARAMS.
scenario=$1 checker=$2
n=0

# Sum of one "name: value" line of every CPU's per_cpu stats.
sum_stat() {
	cat "$I"/per_cpu/cpu*/stats | awk -F: -v k="$1" '$1 == k { n += $2 } END { print n + 0 }'
}

# Calls to the tracepoint that recorded nothing (module stats, all CPUs).
refused() {
	awk '$9 == "refused" { n += $10 } END { print n + 0 }' /sys/kernel/debug/rbstress/stats 2>/dev/null
}

pause() { sleep "$1" 2>/dev/null || true; }

# The kernel's dropped events and the module's refused calls, summed over
# the stalls during which the instance kept recording: in no-overwrite
# mode every refused call must be an event the kernel dropped, which it
# counts as "dropped events" (the next page is the head page) or as a
# "commit overrun" (rb_move_tail(): the commit page is still the reader
# page the stalled reader took, or a whole lap behind).  Both are read
# with the writers stopped (debugfs control), so that no call is in flight.
dropped=0 refused=0 overruns=0
counters() {	# "dropped refused overruns", the writers held still
	local o
	echo stop > /sys/kernel/debug/rbstress/control
	o=$(sum_stat "commit overrun")
	echo "$(($(sum_stat "dropped events") + o)) $(refused) $o"
	echo start > /sys/kernel/debug/rbstress/control
}
stall_reader() {	# $1: overwrite mode 1 or 0
	echo "$1" > "$I/options/overwrite"
	echo 64 > "$I/buffer_size_kb"
	# A resize refuses writes while it runs: count between the resizes.
	set -- $(counters)
	d0=$1 r0=$2 o0=$3
	kill -STOP "$checker" 2>/dev/null
	pause 0.6
	kill -CONT "$checker" 2>/dev/null
	pause 0.4
	set -- $(counters)
	d1=$1 r1=$2 o1=$3
	echo "$BUFKB" > "$I/buffer_size_kb"
	echo 1 > "$I/options/overwrite"
	# After the checker's end, tracing is off: those calls are refused too.
	if kill -0 "$checker" 2>/dev/null; then
		dropped=$((dropped + d1 - d0))
		refused=$((refused + r1 - r0))
		overruns=$((overruns + o1 - o0))
	fi
}

# One injection of fault $1: its file, sourced here with the helpers above
# (its 'return 1': it could not be injected).
inject() {
	[ -f "/etc/rbts/faults/$1.sh" ] || return 1
	. "/etc/rbts/faults/$1.sh"
}

# every scenario but mixed, in order (the files' order, build-initramfs.sh)
all=$(cat /etc/rbts/faults/order)
# Start once the checker reads the buffers: it has opened trace_pipe_raw
# (a loaded machine has been seen to switch the clock before the checker
# had read trace_clock, which it then found differing from the module's).
for _ in $(seq 300); do
	ls -l "/proc/$checker/fd" 2>/dev/null | grep -q trace_pipe_raw && break
	pause 0.1
done
failed=0
while kill -0 "$checker" 2>/dev/null; do
	s=$scenario
	if [ "$s" = mixed ]; then
		set -- $all
		shift $(( $(od -An -N1 -tu1 /dev/urandom) % $# ))
		s=$1
	fi
	if inject "$s"; then
		n=$((n + 1))
		[ "$scenario" = mixed ] && eval "n_$(echo "$s" | tr - _)=\$(( \${n_$(echo "$s" | tr - _):-0} + 1 ))"
	else
		failed=$((failed + 1))
		echo "rbts: fault $s could not be injected"
		[ "$failed" -ge 3 ] && break
		pause 1
	fi
done
echo "injected $n"
echo "not_injected $failed"
echo "dropped $dropped"
echo "refused $refused"
echo "commit_overruns $overruns"
if [ "$scenario" = mixed ]; then
	for s in $all; do
		eval "echo \"injected_$s \${n_$(echo "$s" | tr - _):-0}\""
	done
fi
exit 0
