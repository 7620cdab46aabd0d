#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The i386 guest's shell and tools: Debian's busybox-static for i386,
# downloaded through multiarch and unpacked into the build folder (not
# installed on the host: the host keeps its own busybox).
#
# usage: images/fetch-i386-busybox.sh       prints the path of the busybox
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$BUILD/i386-userland
bb=$dir/root/bin/busybox
if [ -x "$bb" ]; then
	echo "$bb"
	exit 0
fi
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	[ "$(id -u)" = 0 ] || die "the i386 guest needs Debian's i386 packages: run as root (dpkg --add-architecture i386)"
	info "adding the i386 architecture to apt (for busybox-static:i386)" >&2
	dpkg --add-architecture i386
	apt-get update -q >/dev/null
fi
rm -rf "$dir"
mkdir -p "$dir"
# (apt warns that it downloads unsandboxed as root: not an error)
if ! (cd "$dir" && apt-get download -q busybox-static:i386 >/dev/null 2>"$dir/apt.log"); then
	cat "$dir/apt.log" >&2
	die "cannot download busybox-static:i386 (apt-get download busybox-static:i386)"
fi
dpkg-deb -x "$dir"/busybox-static_*_i386.deb "$dir/root"
file "$bb" | grep -q 'ELF 32-bit.*Intel 80386.*statically linked' ||
	die "$bb is not a static i386 program: $(file -b "$bb")"
echo "$bb"
