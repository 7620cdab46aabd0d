#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Performance comparison between kernels, in one run.  Builds each kernel
# (tree + series + config variant, cached like the others), then boots them
# in turn, repetition after repetition (A B C A B C ...), so that a noisy
# moment of this shared machine is spread over all of them.  Each boot runs
# the guest's "bench" job (the stress module's timed writers, then the
# kernel's ring_buffer_benchmark) and leaves bench.txt; bench-compare.py
# turns them into the table, report.md and the chart.
#
# usage: images/bench-kernels.sh OUT-DIR REPS DURATION ICOUNT THRESHOLD KERNEL...
#   KERNEL: NAME=SPEC (a kernel spec, images/kernel/spec.sh; the first is the baseline)
#   ICOUNT: '' for wall-clock time, or a QEMU -icount shift
#   THRESHOLD: '' or a percentage (exit 1 if a kernel is slower by more)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$1 reps=$2 dur=$3 icount=$4 threshold=$5
shift 5
[ $# -ge 2 ] || die "bench-kernels.sh: at least two kernels to compare"
kernels=("$@")
mkdir -p "$out"

# Run a command for one kernel (NAME=SPEC).
with_kernel() {
	local k=$1
	shift
	RBTS_KERNEL=${k#*=} "$@"
}

for k in "${kernels[@]}"; do
	name=${k%%=*}
	info "bench: building kernel '$name'"
	if ! with_kernel "$k" "$TOP/images/build-guest.sh" > "$out/build-$name.log" 2>&1; then
		tail -n 5 "$out/build-$name.log" | sed 's/^/  | /' >&2
		die "bench: kernel '$name' does not build (see ${out#$TOP/}/build-$name.log)"
	fi
	grep -E '^(kernel|kernel tree|stress module):' "$out/build-$name.log" | sed 's/^/  /'
done

accel=tcg cpus=2
mode="wall-clock ns (TCG, 2 vCPUs, guest time follows the host)"
if [ -n "$icount" ]; then
	# Here a 2-vCPU guest under -icount hangs at kernel entry (as under
	# KVM); one vCPU boots, without the NMI writer (it needs another CPU).
	cpus=1
	mode="icount ns (QEMU -icount shift=$icount, 1 vCPU: guest time counts instructions, 2^$icount ns each)"
fi
echo "$mode" > "$out/mode.txt"
: > "$out/runs.tsv"
for rep in $(seq "$reps"); do
	for k in "${kernels[@]}"; do
		name=${k%%=*}
		run=$out/$name-$rep
		rc=0
		with_kernel "$k" "$TOP/images/boot.sh" --accel "$accel" --cpus "$cpus" --out "$run" \
			--quiet ${icount:+--icount "$icount"} --timeout $(( 4 * dur + 300 )) \
			--append "$("$TOP/images/guest-args.py" job=bench duration="$dur" clock=global)" || rc=$?
		if [ "$rc" != 0 ] || [ ! -s "$run/bench.txt" ]; then
			tail -n 5 "$run/console.log" 2>/dev/null | sed 's/^/  | /' >&2
			die "bench: kernel '$name', repetition $rep: no result (see ${run#$TOP/}/console.log)"
		fi
		# what the kernel complains with: the one list (verdict.py reads it too)
		grep -qE "$(cat "$TOP/images/kernel-complaints.pattern")" "$run/dmesg.txt" 2>/dev/null &&
			say "  warning: kernel '$name' complained during the benchmark (${run#$TOP/}/dmesg.txt)"
		awk -v k="$name" -v r="$rep" '{ print k "\t" r "\t" $1 "\t" $2 }' "$run/bench.txt" >> "$out/runs.tsv"
		say "  repetition $rep/$reps, $name: $(awk '/_ns |_ns_per_/ { printf "%s=%s ", $1, $2 }' "$run/bench.txt")"
	done
done

python3 "$TOP/images/bench-compare.py" "$out" "${threshold:-}"
