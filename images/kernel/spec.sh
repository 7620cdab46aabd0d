# SPDX-License-Identifier: GPL-2.0
# A kernel spec, LINE:SERIES:VARIANT:ARCH, for the shell scripts: every
# answer comes from images/rbts/kspec.py (the one place a kernel's paths
# are made; its docstring says what a spec is).  Sourced (by
# images/common.sh).  After kspec_load SPEC: KLINE KERNEL_VERSION
# KERNEL_PACKAGE KERNEL_TARBALL SERIES PATCHES VARIANT ARCH QEMU SRC KOUT
# MODOUT INITRAMFS GUESTOUT, KCONFIGS (the config fragments, in order) and
# KSPEC, the spec in full.

kspec() { PYTHONPATH="$TOP/images${PYTHONPATH:+:$PYTHONPATH}" python3 -m rbts.kspec "$@"; }
# a missing lines.table: one line, exit 2 (RBTS_LINES_TABLE: another table)
KSPEC_DEFAULT_LINE=$(kspec default-line) || exit 2
kspec_default() { echo "$KSPEC_DEFAULT_LINE:ours:default:x86_64"; }
kspec_lines() { kspec lines; }
kspec_line_variants() { kspec variants "$1"; }
kspec_line_features() { kspec features "$1"; }
kspec_bench_default() { kspec bench-default; }
# kspec_check SPEC: empty output if it is valid, else what is wrong (one line).
kspec_check() { kspec check "$1" || true; }
kspec_load() {
	local sh
	sh=$(kspec shell "$1" 2>&1) || { printf 'error: %s\n' "$sh" >&2; exit 2; }
	eval "$sh"
}
# The empty series of a vanilla kernel, made where kspec_load points.
kspec_make_vanilla() {
	[ "$SERIES" = vanilla ] || return 0
	mkdir -p "$PATCHES"
	echo "# vanilla $KERNEL_PACKAGE $KERNEL_VERSION: no patches" > "$PATCHES/series"
}
# One line for people: what this kernel is.
kspec_describe() { kspec describe "$KSPEC"; }
# kspec_series_without LINE NUMBERS: our series less those fixes, as a
# series directory of its own; prints it (kspec.py series_without).
kspec_series_without() { kspec without "$1" "$2"; }
