#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the guest kernel of the spec (RBTS_KERNEL) out of tree:
# tinyconfig + the spec's fragments under images/config/ (KCONFIGS, from
# images/kernel/spec.sh), merged with the tree's own merge_config.sh.  Every option a fragment asks for must survive
# olddefconfig, or the build stops and names it.  The build is skipped when
# the tree, the fragments and this script are unchanged (build/.../.rbts-stamp),
# and compiles go through ccache, so a changed patch rebuilds little.
#
# usage: images/build-kernel.sh [EXTRA-FRAGMENT...]
set -euo pipefail
. "$(dirname "$0")/common.sh"

frags=("${KCONFIGS[@]}" "$@")
for f in "${frags[@]}"; do [ -f "$f" ] || die "config fragment $f: no such file"; done
[ -f "$TREE_STAMP" ] || die "no prepared tree in $SRC (run images/prepare-tree.sh)"

stamp=$(hash_files "$TREE_STAMP" "${frags[@]}" "$0")
bz=$KOUT/arch/x86/boot/bzImage
if [ -f "$bz" ] && [ -f "$KOUT/.rbts-stamp" ] && [ "$(cat "$KOUT/.rbts-stamp")" = "$stamp" ]; then
	say "kernel: up to date, not rebuilding (${bz#$TOP/})"
	exit 0
fi

kmake() { make -s -C "$SRC" O="$KOUT" ARCH="$ARCH" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

info "configuring kernel: tinyconfig + $(for f in "${frags[@]}"; do printf '%s ' "$(basename "$f")"; done)"
mkdir -p "$KOUT"
rm -f "$KOUT/.rbts-stamp"
kmake tinyconfig >/dev/null
"$SRC/scripts/kconfig/merge_config.sh" -m -O "$KOUT" "$KOUT/.config" "${frags[@]}" >"$KOUT/merge_config.log"
kmake olddefconfig >/dev/null

# Check that what the fragments ask for is what .config has.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		if ! grep -qx -- "$line" "$KOUT/.config"; then
			got=$(grep -E "^(# )?${line%%=*}[= ]" "$KOUT/.config" || echo "absent")
			printf 'error: %s did not survive olddefconfig (have: %s)\n' "$line" "$got" >&2
			missing=1
		fi ;;
	esac
done < <(cat "${frags[@]}")
[ "$missing" = 0 ] || exit 1

# A tree given as it is (--ksrc): does the stress module fit its kernel?
# Compiled against the configured tree (modules_prepare: a minute, not the
# build's ten), so that a tree it does not fit is told so before a half
# build: exit 2 with the compiler's first error.
if [ -n "$KSRC" ]; then
	info "checking that the stress module fits $SRC"
	kmake -j"$NPROC" modules_prepare > "$KOUT/modules_prepare.log" 2>&1 ||
		die "the tree $SRC does not prepare for modules: $(grep -m1 -E 'error|Error' "$KOUT/modules_prepare.log")"
	fit=$KOUT/module-fit
	rm -rf "$fit"
	mkdir -p "$fit"
	cp "$TOP"/stress-module/{*.c,*.h,Kbuild} "$fit/"
	if ! make -C "$KOUT" M="$fit" ARCH="$ARCH" CC="ccache gcc" KBUILD_MODPOST_WARN=1 modules > "$fit/build.log" 2>&1; then
		die "the stress module does not build against $SRC: $(grep -m1 -E 'error' "$fit/build.log" | sed "s|^$fit/||")"
	fi
	say "stress module: fits $SRC"
fi

info "building kernel $(kspec_describe) with $NPROC jobs (ccache: $CCACHE_DIR)"
start=$(date +%s)
# A cold build is ten minutes of silence otherwise: every 30 s, how many
# objects there are and how many ccache served (the tree's own count of
# the objects to come is not known before Kbuild has walked it).
progress() {
	local base n hits
	base=$(ccache -s 2>/dev/null | awk '/^ *Hits:/ { print $2; exit }')
	while sleep 30; do
		n=$(find "$KOUT" -name '*.o' -newer "$KOUT/.config" 2>/dev/null | wc -l)
		hits=$(ccache -s 2>/dev/null | awk '/^ *Hits:/ { print $2; exit }')
		say "  kernel build: $(( $(date +%s) - start ))s, $n objects compiled${hits:+ (ccache hits since the start, any build: $(( hits - ${base:-0} )))}"
	done
}
progress &
ticker=$!
trap 'kill $ticker 2>/dev/null || true' EXIT
kmake -j"$NPROC" bzImage modules
kill $ticker 2>/dev/null || true
echo "$stamp" > "$KOUT/.rbts-stamp"
say "kernel: built ${bz#$TOP/} in $(( $(date +%s) - start ))s"
