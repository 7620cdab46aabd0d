#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reserve-path model on any kernel tree (./run.sh model --reserve
# --ksrc DIR): an extracted tree or a git checkout, mainline or a
# maintainer's branch, used as it is (no series applied).  Only
# kernel/trace/ring_buffer.c and include/linux/ring_buffer.h (and 7.x's
# ring_buffer_types.h) are read.
# A tree whose reserve path the extractor cannot follow is refused with
# what it missed, exit 2, before anything is built; the model is built
# once per content of those two files (build/reserve-model/ksrc-HASH).
#
# usage: images/model-ksrc.sh DIR [rbreserve options]
set -euo pipefail
. "$(dirname "$0")/common.sh"

refuse() { printf 'run.sh: model --ksrc %s: %s\n' "$ksrc" "$*" >&2; exit 2; }

ksrc=${1:-}
[ -n "$ksrc" ] || refuse "no tree given"
shift
[ -d "$ksrc" ] || refuse "no such directory"
ksrc=$(cd "$ksrc" && pwd)
for f in kernel/trace/ring_buffer.c include/linux/ring_buffer.h; do
	[ -r "$ksrc/$f" ] || refuse "no $f: not a kernel tree"
done
model=$TOP/userspace-checker/reserve-model
# 7.x keeps part of the event layout in ring_buffer_types.h: read too
files=("$ksrc/kernel/trace/ring_buffer.c" "$ksrc/include/linux/ring_buffer.h")
[ ! -f "$ksrc/include/linux/ring_buffer_types.h" ] || files+=("$ksrc/include/linux/ring_buffer_types.h")
out=$BUILD/reserve-model/ksrc-$(hash_files "${files[@]}")
mkdir -p "$out"
rm -f "$out/build.log"

# Can the extractor follow this tree's code?  Its one line says which
# function or definition it missed and what it expected.
if ! why=$(cd "$model" && python3 extract-reserve.py "$ksrc" "$out/code-probe.c" 2>&1); then
	refuse "the reserve-path model cannot read this tree: ${why#extract-reserve: }"
fi
# The tree alone: the seeded faults are edits of our trees' code.
if ! log=$(make -s -C "$model" O="$out" KSRC="$ksrc" VARIANTS=tree 2>&1); then
	printf '%s\n' "$log" > "$out/build.log"
	refuse "the extracted code does not build against the model's shim ($(printf '%s\n' "$log" | grep -m1 -E 'error|Error' || echo 'see build log')); log: ${out#$TOP/}/build.log"
fi
say "rbreserve: the reserve path of $ksrc (as it is, no series applied)"
exec "$out/rbreserve" "$@"
