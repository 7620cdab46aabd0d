#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The large trace.dat that './run.sh bench checker' reads: SECONDS of the
# stress recorded with trace-cmd in the guest (job capture), once, kept in
# build/bench/trace.dat; again only with --recapture.
#
# usage: images/bench-capture.sh SECONDS ACCEL CPUS [--recapture]
#        prints the trace.dat's path
set -euo pipefail
. "$(dirname "$0")/common.sh"

dur=$1 accel=$2 cpus=$3 recapture=${4:-}
dat=$BUILD/bench/trace.dat
if [ -s "$dat" ] && [ "$recapture" != --recapture ]; then
	echo "$dat"
	exit 0
fi
[ "$accel" != auto ] || accel=$("$TOP/images/probe-accel.sh")
out=$TOP/results/bench-capture-$(date +%Y%m%d-%H%M%S)
info "recording ${dur}s of stress with trace-cmd in the guest (once; kept in ${dat#$TOP/})" >&2
rc=0
"$TOP/images/boot.sh" --accel "$accel" --cpus "$cpus" --out "$out" --mem 4G --disk 3G \
	--timeout $(( dur + 300 )) \
	--append "$("$TOP/images/guest-args.py" job=capture duration="$dur" bufkb=16384)" >&2 || rc=$?
[ "$rc" = 0 ] && [ -s "$out/trace.dat" ] || die "bench capture failed (see ${out#$TOP/}/console.log)"
mkdir -p "$BUILD/bench"
mv "$out/trace.dat" "$dat"
echo "$dat"
