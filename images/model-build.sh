#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the reserve-path model (rbreserve) of one kernel tree's code, once
# per content of the files it reads: kernel/trace/ring_buffer.c and
# include/linux/ring_buffer.h (and 7.x's ring_buffer_types.h).  The build
# goes to build/reserve-model/ksrc-HASH, with a copy of those files in its
# src/, so that a counterexample can be replayed there later whatever
# becomes of the tree (./run.sh model --reserve --ksrc .../src).
#
# Prints the build directory.  A tree the extractor cannot follow, or
# whose extracted code does not build against the model's shim: one line
# on stderr saying what, exit 2, before anything is built.
#
# usage: images/model-build.sh DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"

refuse() { printf '%s\n' "$*" >&2; exit 2; }

ksrc=${1:-}
[ -n "$ksrc" ] || refuse "no tree given"
[ -d "$ksrc" ] || refuse "no such directory"
ksrc=$(cd "$ksrc" && pwd)
rels=(kernel/trace/ring_buffer.c include/linux/ring_buffer.h)
for f in "${rels[@]}"; do
	[ -r "$ksrc/$f" ] || refuse "no $f: not a kernel tree"
done
# 7.x keeps part of the event layout in ring_buffer_types.h: read too
[ ! -f "$ksrc/include/linux/ring_buffer_types.h" ] || rels+=(include/linux/ring_buffer_types.h)
model=$TOP/userspace-checker/reserve-model
out=$BUILD/reserve-model/ksrc-$(cd "$ksrc" && hash_files "${rels[@]}")
mkdir -p "$out/src"
rm -f "$out/build.log"
for f in "${rels[@]}"; do
	[ -f "$out/src/$f" ] || { mkdir -p "$out/src/$(dirname "$f")" && cp "$ksrc/$f" "$out/src/$f"; }
done

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
