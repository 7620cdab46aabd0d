# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the scripts under images/.  Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${RBTS_BUILD:-$TOP/build}
# The guest's architecture: x86_64, or i386 (./run.sh --arch i386: a real
# 32-bit kernel; its userland is Debian's i386 busybox-static and rbdrain).
ARCH=${RBTS_ARCH:-x86_64}
case "$ARCH" in
x86_64)	QEMU=qemu-system-x86_64 ;;
i386)	QEMU=qemu-system-i386 ;;
*)	printf 'error: RBTS_ARCH must be x86_64 or i386, not %s\n' "$ARCH" >&2; exit 2 ;;
esac
KERNEL_TARBALL=/usr/src/linux-source-6.1.tar.xz
KERNEL_VERSION=6.1.192
# A variant is the same tree with extra config fragments (images/config/
# VARIANT.config), built in a directory of its own: "default" or "rb-time-32".
VARIANT=${RBTS_VARIANT:-default}
# A tree is the kernel source with a patch series applied: ours
# (kernel-patches/, the default) or another one for benchmarks, named by
# RBTS_TREE ("vanilla": none) with its series in RBTS_PATCHES.
TREE=${RBTS_TREE:-}
PATCHES=${RBTS_PATCHES:-$TOP/kernel-patches}
FLAVOUR=$ARCH${TREE:+-$TREE}
[ "$VARIANT" = default ] || FLAVOUR=$FLAVOUR-$VARIANT
SRC=$BUILD/linux-$KERNEL_VERSION${TREE:+-$TREE}
KOUT=$BUILD/kernel-$FLAVOUR
MODOUT=$BUILD/stress-module-$FLAVOUR
CHECKOUT=$BUILD/checker
# What runs in the guest: the host's own binaries on x86_64; on i386 the
# static rbdrain built -m32 and Debian's i386 busybox-static.
GUESTOUT=$BUILD/guest-$ARCH
INITRAMFS=$BUILD/initramfs-$FLAVOUR.cpio.gz
NPROC=$(nproc)

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Paths below the checkout count as relative: a fresh clone elsewhere (CI)
# hits the cache the last one filled.  Kbuild passes the source tree's
# absolute path in -fmacro-prefix-map, only to strip it from __FILE__:
# leave it out of the hash, or every object of a new clone is a miss.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_IGNOREOPTIONS=${CCACHE_IGNOREOPTIONS:--fmacro-prefix-map=*}

say()  { printf '%s\n' "$*"; }
info() { printf '==> %s\n' "$*"; }
die()  { printf 'error: %s\n' "$*" >&2; exit 2; }

# Hash of the files given, in order: the build stamps are made of these.
hash_files() { cat "$@" | sha256sum | cut -c1-16; }

# An empty series: vanilla linux-source (RBTS_TREE=vanilla RBTS_PATCHES=it).
vanilla_series() {
	mkdir -p "$BUILD/series-vanilla"
	echo "# vanilla linux-source $KERNEL_VERSION: no patches" > "$BUILD/series-vanilla/series"
	echo "$BUILD/series-vanilla"
}

# The patches named by kernel-patches/series, in order, as paths.
series_patches() {
	local series=${1:-$TOP/kernel-patches}/series
	[ -f "$series" ] || die "$series: no such file"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series" |
		while read -r p; do printf '%s\n' "$(dirname "$series")/$p"; done
}
