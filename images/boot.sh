#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the guest kernel and initramfs in QEMU and bring its results back.
#
# usage: images/boot.sh --accel kvm|tcg --cpus N --timeout SEC --out DIR [--append CMDLINE]
#                       [--mem SIZE] [--disk SIZE] [--stop-button] [--icount SHIFT]
#                       [--singlestep] [--single-thread] [--stream-disk SIZE]
#
# --icount SHIFT: deterministic guest time, derived from the instructions
# executed (2^SHIFT ns each), for benchmarks; TCG only, single-threaded.
#
# --singlestep: TCG translates one guest instruction per block.  TCG takes
# interrupts (NMIs too) only between blocks, so a window of a few
# straight-line instructions, such as rb_time_set()'s cnt/top/bottom
# stores, is never interrupted otherwise.  Slower, but an NMI can land
# between any two instructions, as on hardware.
#
# --single-thread: TCG runs all vCPUs round-robin in one host thread
# (thread=single) instead of one thread each: the vCPUs never execute at
# the same time, so code one vCPU patches is never run stale by another.
#
# --stream-disk SIZE: a third disk (sparse, SIZE at most) where the guest's
# job drain writes the sub-buffers as they come; the host cuts it at the
# length the guest wrote (drain/meta: stream_bytes) into drain/stream.raw.
# The second disk, the stop button, is then always there (vdb), so that
# the stream is vdc.
#
# --stop-button: Ctrl-C does not kill the guest but asks it to stop (STOP on
# a second disk, which the guest polls): the checker ends its run early and
# the results still come back.  A second Ctrl-C kills the guest.
#
# The serial console goes to DIR/console.log (lines starting "rbts:" or
# "rbcheck:" are echoed as they come); a raw disk carries /out of the guest
# back as a tar stream, unpacked into DIR.  A guest that does not power off
# within --timeout seconds is killed: exit 3, with the console's tail shown.
#
# A guest that died of a stray int3 (multi-threaded TCG runs code another
# vCPU is patching stale: docs/reliability.md, "A stray int3") is booted
# once more; its console is kept as console-stray-int3.log and the second
# boot's is the run's (the verdict counts the retry: verdict.json
# 'retries', a NOTE line).  A second one is the run's result.  6.1 prints
# "int3: 0000 [#1]", 6.12 "Oops: int3: 0000 [#1]".
set -euo pipefail
. "$(dirname "$0")/common.sh"

accel=tcg cpus=2 timeout=300 out= append= quiet=0 mem=1G disksize=512M stop_button=0 icount=
singlestep=0 single_thread=0 stream_disk=
while [ $# -gt 0 ]; do
	case "$1" in
	--accel)	accel=$2; shift 2 ;;
	--cpus)		cpus=$2; shift 2 ;;
	--timeout)	timeout=$2; shift 2 ;;
	--out)		out=$2; shift 2 ;;
	--append)	append=$2; shift 2 ;;
	--quiet)	quiet=1; shift ;;
	--mem)		mem=$2; shift 2 ;;
	--disk)		disksize=$2; shift 2 ;;
	--stop-button)	stop_button=1; shift ;;
	--icount)	icount=$2; shift 2 ;;
	--singlestep)	singlestep=1; shift ;;
	--single-thread) single_thread=1; shift ;;
	--stream-disk)	stream_disk=$2; shift 2 ;;
	*)		die "boot.sh: unknown argument '$1'" ;;
	esac
done
[ -n "$out" ] || die "boot.sh: --out DIR is required"
# A 32-bit kernel without HIGHMEM maps at most 896 MiB.
[ "$ARCH" != i386 ] || [ "$mem" != 1G ] || mem=768M
bz=$KOUT/arch/x86/boot/bzImage
[ -f "$bz" ] && [ -f "$INITRAMFS" ] || die "no kernel or initramfs built (run ./run.sh build)"

case "$accel" in
kvm)	accel_args=(-accel kvm -cpu host) ;;
tcg)	accel_args=(-accel tcg,thread=multi -cpu max)
	# qemu-system-i386's "max" says AuthenticAMD family 6, an Athlon, and
	# the 32-bit kernel WARNs that such a pair is no SMP machine.
	[ "$ARCH" != i386 ] || accel_args=(-accel tcg,thread=multi -cpu max,vendor=GenuineIntel) ;;
*)	die "boot.sh: --accel must be kvm or tcg, not '$accel'" ;;
esac
if [ -n "$icount" ]; then
	[[ "$icount" =~ ^[0-9]$ ]] || die "boot.sh: --icount takes a shift of 0 to 9, not '$icount'"
	[ "$accel" = tcg ] || die "boot.sh: --icount needs TCG"
	accel_args=(-accel tcg,thread=single -cpu max -icount "shift=$icount,sleep=on")
fi

if [ "$single_thread" = 1 ]; then
	[ "$accel" = tcg ] || die "boot.sh: --single-thread needs TCG"
	accel_args[1]=tcg,thread=single
fi
if [ "$singlestep" = 1 ]; then
	[ "$accel" = tcg ] || die "boot.sh: --singlestep needs TCG"
	accel_args+=(-singlestep)
fi

mkdir -p "$out"
disk=$out/.results.img
console=$out/console.log

# The guest's own lines; on a terminal the checker's progress line is
# redrawn in place, in a log it is one line per update.
show_progress() {
	if [ -t 1 ]; then
		awk '/^rbcheck: +[0-9]+s\// { printf "\r%s\033[K", $0; p = 1; fflush(); next }
		     { if (p) printf "\n"; p = 0; print; fflush() }'
	else
		cat
	fi
}

stopping=0
on_interrupt() {
	if [ "$stop_button" = 1 ] && [ "$stopping" = 0 ]; then
		stopping=1
		printf 'STOP' | dd of="$out/.control.img" conv=notrunc status=none
		printf '\nrbts: stopping: the guest finishes its summary (Ctrl-C again to kill it)\n'
		deadline=$(( SECONDS + 120 ))
	else
		kill -KILL $qpid 2>/dev/null || true
	fi
}

# One boot, fresh disks, until the guest powers off or --timeout: sets rc
# (3: killed at the timeout, else QEMU's status).
boot_once() {
	local ctl=()

	rm -f "$disk"
	truncate -s "$disksize" "$disk"
	: > "$console"
	if [ "$stop_button" = 1 ] || [ -n "$stream_disk" ]; then
		truncate -s 1M "$out/.control.img"
		ctl=(-drive file="$out/.control.img",format=raw,if=virtio)
	fi
	if [ -n "$stream_disk" ]; then
		rm -f "$out/.stream.img"
		truncate -s "$stream_disk" "$out/.stream.img"
		ctl+=(-drive file="$out/.stream.img",format=raw,if=virtio)
	fi

	# Its own session: a Ctrl-C on the terminal is ours to handle, not QEMU's.
	setsid "$QEMU" "${accel_args[@]}" -smp "$cpus" -m "$mem" \
		-kernel "$bz" -initrd "$INITRAMFS" \
		-append "$append" \
		-drive file="$disk",format=raw,if=virtio "${ctl[@]}" \
		-nographic -no-reboot -monitor none -serial file:"$console" -nic none \
		>"$out/qemu.log" 2>&1 &
	qpid=$!
	if [ "$quiet" = 0 ]; then
		tail -n +1 -F --pid=$qpid "$console" 2>/dev/null |
			grep --line-buffered -E '^(rbts|rbcheck):' | show_progress &
	fi

	rc=0
	# $SECONDS, not $(date): no subshell in the loop for a Ctrl-C to land in
	deadline=$(( SECONDS + timeout ))
	while kill -0 $qpid 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			kill -KILL $qpid 2>/dev/null || true
			rc=3
			break
		fi
		sleep 0.2 || true	# a Ctrl-C reaches sleep too: not a failure
	done
	wait $qpid 2>/dev/null || { [ $rc = 3 ] || rc=$?; }
	sleep 0.3 || true	# let the console echo catch up
}

trap on_interrupt INT TERM
boot_once
if [ "$rc" = 0 ] && [ "$stopping" = 0 ] && grep -q '^\[[ 0-9.]*\] \(Oops: \)\?int3: 0000 \[#' "$console"; then
	mv "$console" "$out/console-stray-int3.log"
	printf 'rbts: the guest died of a stray int3 (multi-threaded TCG, docs/reliability.md): booting it again\n'
	boot_once
fi

if [ "$rc" = 3 ]; then
	printf 'error: guest did not finish within %ss; console tail:\n' "$timeout" >&2
	tail -n 25 "$console" | sed 's/^/  | /' >&2
	exit 3
fi
if [ "$rc" != 0 ]; then
	printf 'error: qemu exited with %s: %s\n' "$rc" "$(tail -n 3 "$out/qemu.log")" >&2
	exit 3
fi
tar -xf "$disk" -C "$out" 2>/dev/null || true
rm -f "$disk" "$out/.control.img"
if [ -n "$stream_disk" ]; then
	bytes=$(sed -n 's/^stream_bytes \([0-9]*\)$/\1/p' "$out/drain/meta" 2>/dev/null)
	if [ -n "$bytes" ]; then
		truncate -s "$bytes" "$out/.stream.img"
		mv "$out/.stream.img" "$out/drain/stream.raw"
	fi
	rm -f "$out/.stream.img"
fi
exit 0
