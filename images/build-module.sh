#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build stress-module/ out of tree against the guest kernel, with W=1.  The
# sources are copied into the build folder first so that no object file
# lands in the git tree.  A compiler warning fails the build.
#
# usage: images/build-module.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -f "$KOUT/Module.symvers" ] || die "no kernel build in ${KOUT#$TOP/} (run images/build-kernel.sh)"

mkdir -p "$MODOUT"
# Mirror the sources; stale copies of removed files go too.
find "$MODOUT" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name Kbuild -o -name Makefile \) -delete
cp "$TOP"/stress-module/{*.c,*.h,Kbuild} "$MODOUT/"

log=$MODOUT/build.log
if ! make -C "$KOUT" M="$MODOUT" ARCH="$ARCH" CC="ccache gcc" W=1 modules >"$log" 2>&1; then
	grep -E -m 20 'error|warning' "$log" >&2 || tail -20 "$log" >&2
	die "stress module: build failed"
fi
if grep -E 'warning:|error:' "$log" >&2; then
	die "stress module: W=1 build has warnings (above)"
fi
say "stress module: built ${MODOUT#$TOP/}/rbstress.ko (W=1, no warnings)"
