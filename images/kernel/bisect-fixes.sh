#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the kernel after each patch of a line's fixes part, applied alone,
# in order, to the line's pristine Debian tree (RBTS_KERNEL's line): the
# part a maintainer would take must be bisectable without our test hooks.
# The config is the line's guest kernel's (build it first), less what
# only our test hooks define (olddefconfig drops it).  One TAP line per
# patch; the tree and its build live in build/bisect-LINE/ and are
# reused (ccache serves what did not change).
#
# usage: images/kernel/bisect-fixes.sh
set -uo pipefail
. "$(dirname "$0")/../common.sh"
. "$TOP/images/tap.sh"

kspec_load "$KLINE:ours:default:x86_64"
cfg=$KOUT/.config
[ -f "$cfg" ] || die "no guest kernel config at ${cfg#$TOP/} (./run.sh build --kernel $KLINE first)"
[ -f "$KERNEL_TARBALL" ] || die "$KERNEL_TARBALL missing (apt-get install $KERNEL_PACKAGE)"
dir=$BUILD/bisect-$KLINE
src=$dir/src out=$dir/out log=$dir/build.log
mapfile -t fixes < <(series_patches "$PATCHES/fixes")
[ "${#fixes[@]}" -gt 0 ] || die "${PATCHES#$TOP/}/fixes/series lists no patch"

# A fresh pristine tree each time: the patches are applied in place.
info "bisect $KERNEL_VERSION: extracting a pristine tree into ${dir#$TOP/}"
rm -rf "$src"
mkdir -p "$src" "$out"
tar -xf "$KERNEL_TARBALL" -C "$src" --strip-components=1 || die "cannot extract $KERNEL_TARBALL"
cp "$cfg" "$out/.config"
kmake() { make -s -C "$src" O="$out" ARCH="$ARCH" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }
kmake olddefconfig > "$log" 2>&1 || die "olddefconfig failed (see ${log#$TOP/})"

for p in "${fixes[@]}"; do
	name=${p#$TOP/}
	if ! patch -d "$src" -p1 --batch --forward --no-backup-if-mismatch < "$p" >> "$log" 2>&1; then
		not_ok "$name applies to the pristine $KERNEL_VERSION after the fixes before it"
		break
	fi
	start=$(date +%s)
	if kmake -j"$NPROC" vmlinux >> "$log" 2>&1; then
		ok "$name: $KERNEL_VERSION with the fixes up to it builds ($(( $(date +%s) - start ))s)"
	else
		not_ok "$name: $KERNEL_VERSION with the fixes up to it builds: $(grep -m1 -E 'error|Error' "$log")"
		break
	fi
done
