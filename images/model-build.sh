#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the reserve-path model (rbreserve) of one kernel tree's code, once
# per content of the files it reads: kernel/trace/ring_buffer.c and
# include/linux/ring_buffer.h (and 7.x's ring_buffer_types.h).  The build
# goes to build/reserve-model/ksrc-HASH, with a copy of those files in its
# src/, so that a counterexample can be replayed there later whatever
# becomes of the tree (./run.sh model --reserve --ksrc .../src).
# With --rb-time: the rb_time_t model (rbmodel) of the tree's RB_TIME_32
# code instead, in build/rb-time-model/ksrc-HASH (ring_buffer.c alone).
#
# Prints the build directory.  A tree the extractor cannot follow, or
# whose extracted code does not build against the model's shim: one line
# on stderr saying what, exit 2, before anything is built.
#
# usage: images/model-build.sh [--rb-time] DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"

refuse() { printf '%s\n' "$*" >&2; exit 2; }

rb_time=
[ "${1:-}" != --rb-time ] || { rb_time=1; shift; }
ksrc=${1:-}
[ -n "$ksrc" ] || refuse "no tree given"
[ -d "$ksrc" ] || refuse "no such directory"
ksrc=$(cd "$ksrc" && pwd)
rels=(kernel/trace/ring_buffer.c include/linux/ring_buffer.h)
[ -z "$rb_time" ] || rels=(kernel/trace/ring_buffer.c)
for f in "${rels[@]}"; do
	[ -r "$ksrc/$f" ] || refuse "no $f: not a kernel tree"
done
# 7.x keeps part of the event layout in ring_buffer_types.h: read too
[ -n "$rb_time" ] || [ ! -f "$ksrc/include/linux/ring_buffer_types.h" ] ||
	rels+=(include/linux/ring_buffer_types.h)
if [ -n "$rb_time" ]; then
	model=$TOP/userspace-checker/models/rb-time
	out=$BUILD/rb-time-model/ksrc-$(cd "$ksrc" && hash_files "${rels[@]}")
else
	model=$TOP/userspace-checker/models/reserve
	out=$BUILD/reserve-model/ksrc-$(cd "$ksrc" && hash_files "${rels[@]}")
fi
mkdir -p "$out/src"
rm -f "$out/build.log"
for f in "${rels[@]}"; do
	[ -f "$out/src/$f" ] || { mkdir -p "$out/src/$(dirname "$f")" && cp "$ksrc/$f" "$out/src/$f"; }
done

if [ -n "$rb_time" ]; then
	# Has this tree the 32-bit rb_time_t (6.1; 6.8 removed it)?
	if ! why=$(cd "$model" && python3 extract-rb-time.py "$out/src/kernel/trace/ring_buffer.c" \
			"$out/code-probe.c" 2>&1); then
		why=${why#extract-rb-time: }
		refuse "the rb_time_t model cannot read this tree: ${why//"$out/src"/$ksrc}"
	fi
	if ! log=$(make -s -C "$model" O="$out" KSRC="$out/src" 2>&1); then
		printf '%s\n' "$log" > "$out/build.log"
		refuse "the extracted rb_time_t code does not build against the model's shim; log: ${out#$TOP/}/build.log"
	fi
	echo "$out"
	exit 0
fi

# Can the extractor follow this tree's code?  Its one line says which
# function or definition it missed and what it expected.
if ! why=$(cd "$model" && python3 extract-reserve.py "$out/src" "$out/code-probe.c" 2>&1); then
	why=${why#extract-reserve: }
	refuse "the reserve-path model cannot read this tree: ${why//"$out/src"/$ksrc}"
fi
# The tree alone: the seeded faults are edits of our trees' code.
if ! log=$(make -s -C "$model" O="$out" KSRC="$out/src" VARIANTS=tree 2>&1); then
	printf '%s\n' "$log" > "$out/build.log"
	refuse "the extracted code does not build against the model's shim ($(printf '%s\n' "$log" | grep -m1 -E 'error|Error' || echo 'see build log')); log: ${out#$TOP/}/build.log"
fi
echo "$out"
