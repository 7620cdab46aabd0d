#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patch of a seeded fault (kspec_series_seeded, images/kernel/spec.sh):
# our series' tree of LINE prepared, the fault put into a copy of its
# ring_buffer.c by the reserve model's extractor (the very edit the model
# checks as --variant FAULT), the difference written as the series' last
# patch.  Rewritten only when it changes, so that the seeded tree and its
# build are reused.
#
# usage: images/kernel/seed-patch.sh LINE FAULT SERIES-DIR
set -euo pipefail
line=${1:?usage: seed-patch.sh LINE FAULT SERIES-DIR} fault=${2:?} dir=${3:?}
RBTS_KERNEL=$line:ours:default:x86_64
export RBTS_KERNEL
. "$(dirname "$0")/../common.sh"

"$TOP/images/prepare-tree.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$TOP/userspace-checker/models/reserve" && python3 extract-reserve.py --seed "$SRC" "$tmp/b" "$fault")
mkdir -p "$tmp/a/kernel/trace"
cp "$SRC/kernel/trace/ring_buffer.c" "$tmp/a/kernel/trace/"
what=$(cd "$TOP/userspace-checker/models/reserve" && python3 extract-reserve.py --faults-what "$fault")
{
	printf 'Subject: [TEST ONLY] ring-buffer: seeded fault %s\n\n' "$fault"
	printf '%s\n' "$what" | fold -s -w 72 | sed 's/ *$//'
	printf '\nNot for merging: a fault put back so that ./run.sh shows which check\ncatches it (docs/model.md).\n---\n'
	(cd "$tmp" && diff -u --label a/kernel/trace/ring_buffer.c --label b/kernel/trace/ring_buffer.c \
		a/kernel/trace/ring_buffer.c b/kernel/trace/ring_buffer.c) || [ $? = 1 ]
} > "$tmp/patch"
if ! cmp -s "$tmp/patch" "$dir/seeded-$fault.patch"; then
	mv "$tmp/patch" "$dir/seeded-$fault.patch"
	say "seeded fault $fault: ${dir#$TOP/}/seeded-$fault.patch"
fi
