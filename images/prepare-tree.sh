#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kernel spec's Debian linux-source into the build folder and
# apply its series in order (RBTS_KERNEL; images/kernel/spec.sh).  The tree is reused as long as the series
# (names and contents) is unchanged; otherwise it is extracted afresh, so a
# removed patch really is removed.
#
# usage: images/prepare-tree.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 0 ] || die "prepare-tree.sh takes no arguments (the kernel is RBTS_KERNEL)"

# The series' patches, in order, each one there (sets patches).
load_series() {
	mapfile -t patches < <(series_patches "$PATCHES")
	for p in ${patches[@]+"${patches[@]}"}; do
		[ -f "$p" ] || die "${PATCHES#$TOP/}/series names $(basename "$p"), which does not exist"
	done
}

# Apply them to DIR; on the first that does not apply, its output and its
# name (the caller says what that means), status 1.
apply_series() {	# DIR
	local out
	for p in ${patches[@]+"${patches[@]}"}; do
		say "  applying ${p#$PATCHES/}"
		if ! out=$(patch -d "$1" -p1 --batch --forward --no-backup-if-mismatch < "$p" 2>&1); then
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			failed=${p#$TOP/}
			return 1
		fi
	done
}
if [ -n "$KSRC" ] && [ -z "$PATCHES" ]; then
	# A tree given as it is (--ksrc): nothing extracted, nothing applied,
	# nothing written into it.  Its stamp changes every time, so that the
	# kernel build always runs make on it (which rebuilds what changed).
	mkdir -p "$(dirname "$TREE_STAMP")"
	echo "ksrc $SRC $(date +%s%N)" > "$TREE_STAMP"
	say "kernel tree: $SRC, as it is (no series applied)"
	exit 0
fi
if [ -n "$KSRC" ]; then
	# A tree given with a series asked for (--ksrc DIR --apply SERIES): the
	# series goes on a copy, the tree is not written.  rsync makes the copy
	# the tree again (only what differs: the files the last run patched,
	# what changed in the tree since), so every run applies the series to
	# the tree as it is now.  A patch that does not apply is the tree's
	# answer: exit 2 before anything is built.
	load_series
	info "copying $KSRC_TREE into ${SRC#$TOP/} for its series (the tree itself is not written)"
	mkdir -p "$SRC"
	rsync -a --delete --exclude=/.git "$KSRC_TREE/" "$SRC/"
	apply_series "$SRC" || die "$failed does not apply to the tree $KSRC_TREE"
	echo "ksrc $KSRC_TREE $(date +%s%N)" > "$TREE_STAMP"
	say "kernel tree: a copy of $KSRC_TREE with ${#patches[@]} patch(es) of ${PATCHES#$TOP/}"
	exit 0
fi
kspec_make_vanilla
[ -f "$KERNEL_TARBALL" ] || die "$KERNEL_TARBALL missing (apt-get install $KERNEL_PACKAGE)"

load_series
stamp=$(hash_files "$KERNEL_TARBALL" "$PATCHES/series" ${patches[@]+"${patches[@]}"})

if [ -f "$TREE_STAMP" ] && [ "$(cat "$TREE_STAMP")" = "$stamp" ]; then
	say "kernel tree: reusing $SRC (series unchanged)"
	exit 0
fi

info "extracting $(basename "$KERNEL_TARBALL") into ${SRC#$TOP/}"
rm -rf "$SRC.new"
mkdir -p "$SRC.new"
tar -xf "$KERNEL_TARBALL" -C "$SRC.new" --strip-components=1
grep -q "^SUBLEVEL = ${KERNEL_VERSION##*.}$" "$SRC.new/Makefile" ||
	die "$KERNEL_TARBALL is not $KERNEL_VERSION ($(grep -m1 ^SUBLEVEL "$SRC.new/Makefile"))"

if ! apply_series "$SRC.new"; then
	rm -rf "$SRC.new"
	printf 'error: %s does not apply to %s %s\n' "$failed" "$KERNEL_PACKAGE" "$KERNEL_VERSION" >&2
	exit 1
fi

rm -rf "$SRC"
mv "$SRC.new" "$SRC"
echo "$stamp" > "$TREE_STAMP"
say "kernel tree: ready with ${#patches[@]} patch(es)"
