# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the scripts under images/.  Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${RBTS_BUILD:-$TOP/build}
# The kernel this process works on: one spec, LINE:SERIES:VARIANT:ARCH
# (images/kernel/spec.sh turns it into the tree, build and initramfs
# paths).  The scripts pass it on in RBTS_KERNEL.
. "$TOP/images/kernel/spec.sh"
kspec_load "${RBTS_KERNEL:-$(kspec_default)}"
export RBTS_KERNEL=$KSPEC
CHECKOUT=$BUILD/checker
NPROC=$(nproc)

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Paths below the checkout count as relative: a fresh clone elsewhere (CI)
# hits the cache the last one filled.  Kbuild passes the source tree's
# absolute path in -fmacro-prefix-map, only to strip it from __FILE__:
# leave it out of the hash, or every object of a new clone is a miss.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_IGNOREOPTIONS=${CCACHE_IGNOREOPTIONS:--fmacro-prefix-map=*}

# The spine (images/rbts/): run, soak, faults and build, each a Plan and a
# Run (python3 -m rbts COMMAND OPTIONS; ./run.sh COMMAND is the same).
rbts() { PYTHONPATH="$TOP/images${PYTHONPATH:+:$PYTHONPATH}" python3 -m rbts "$@"; }

say()  { printf '%s\n' "$*"; }
info() { printf '==> %s\n' "$*"; }
die()  { printf 'error: %s\n' "$*" >&2; exit 2; }

# Hash of the files given, in order: the build stamps are made of these.
hash_files() { cat "$@" | sha256sum | cut -c1-16; }

# The patches named by a series directory's series file (the spec's
# PATCHES by default), in order, as paths (images/rbts/kspec.py).
series_patches() {
	kspec patches "${1:-$PATCHES}" || die "cannot read the series of ${1:-$PATCHES}"
}
