# SPDX-License-Identifier: GPL-2.0
# A kernel spec: one value, LINE:SERIES:VARIANT:ARCH, turned into every path
# of that kernel here and nowhere else.  Sourced (by images/common.sh).
#
#   LINE     a line of images/kernel/lines.table (its first row by default)
#   SERIES   ours (the line's series in the checkout), vanilla (none), or
#            the absolute path of a directory with a 'series' file
#   VARIANT  default, rb-time-32 or debug (images/config/VARIANT.config)
#   ARCH     x86_64 or i386
#
# Example: 6.1:ours:debug:x86_64.  Empty fields take the defaults
# (kspec_default).  After kspec_load SPEC: KLINE KERNEL_VERSION
# KERNEL_PACKAGE KERNEL_TARBALL SERIES PATCHES VARIANT ARCH QEMU SRC KOUT
# MODOUT INITRAMFS GUESTOUT, KCONFIGS (the config fragments, in order) and
# KSPEC, the spec in full.

# RBTS_LINES_TABLE: another table, for the tests that add a line to a copy
KSPEC_LINES=${RBTS_LINES_TABLE:-$TOP/images/kernel/lines.table}
[ -f "$KSPEC_LINES" ] || { echo "error: no kernel line table $KSPEC_LINES" >&2; exit 2; }
KSPEC_VARIANTS="default rb-time-32 debug"
KSPEC_ARCHES="x86_64 i386"

# The default line: the first row of lines.table, written nowhere else.
KSPEC_DEFAULT_LINE=$(awk '$1 ~ /^[0-9]/ { print $1; exit }' "$KSPEC_LINES")
kspec_default() { echo "$KSPEC_DEFAULT_LINE:ours:default:x86_64"; }

# The known lines, space-separated.
kspec_lines() { awk '!/^#/ && NF { printf "%s%s", s, $1; s = " " } END { print "" }' "$KSPEC_LINES"; }

# The variants LINE can build, space-separated (its row's sixth column).
kspec_line_variants() { awk -v l="$1" '!/^#/ && $1 == l { gsub(",", " ", $6); print $6 }' "$KSPEC_LINES"; }
# The features of LINE's ring buffer, space-separated (its last column; '-': none).
kspec_line_features() { awk -v l="$1" '!/^#/ && $1 == l { gsub(",", " ", $7); sub(/^-$/, "", $7); print $7 }' "$KSPEC_LINES"; }

# The kernels ./run.sh bench kernels compares by default, as its --kernels
# list: each line vanilla and with our series, and the series with the
# 32-bit rb_time_t where the line builds it.
kspec_bench_default() {
	local line list=
	for line in $(kspec_lines); do
		list+=${list:+,}vanilla-$line,series-$line
		case " $(kspec_line_variants "$line") " in *" rb-time-32 "*) list+=,series-$line-32 ;; esac
	done
	echo "$list"
}

# kspec_check SPEC: empty output if it is valid, else what is wrong (one line).
kspec_check() {
	local line series variant arch extra
	IFS=: read -r line series variant arch extra <<< "$1"
	[ -z "$extra" ] || { echo "kernel spec '$1' has more than LINE:SERIES:VARIANT:ARCH"; return; }
	line=${line:-$KSPEC_DEFAULT_LINE} series=${series:-ours} variant=${variant:-default} arch=${arch:-x86_64}
	case " $(kspec_lines) " in *" $line "*) ;;
	*) echo "kernel line '$line' is not in images/kernel/lines.table (have: $(kspec_lines))"; return ;; esac
	case "$series" in
	ours|vanilla) ;;
	/*)	[ -f "$series/series" ] || { echo "series directory '$series' has no 'series' file"; return; } ;;
	*)	echo "series must be ours, vanilla or an absolute directory, not '$series'"; return ;;
	esac
	case " $KSPEC_VARIANTS " in *" $variant "*) ;;
	*) echo "variant must be one of: $KSPEC_VARIANTS; not '$variant'"; return ;; esac
	case " $(kspec_line_variants "$line") " in *" $variant "*) ;;
	*) echo "kernel line $line has no $variant variant (it builds: $(kspec_line_variants "$line"))"; return ;; esac
	case " $KSPEC_ARCHES " in *" $arch "*) ;;
	*) echo "arch must be one of: $KSPEC_ARCHES; not '$arch'"; return ;; esac
}

kspec_load() {
	local why row name
	why=$(kspec_check "$1")
	[ -z "$why" ] || { printf 'error: %s\n' "$why" >&2; exit 2; }
	IFS=: read -r KLINE SERIES VARIANT ARCH <<< "$1"
	KLINE=${KLINE:-$KSPEC_DEFAULT_LINE} SERIES=${SERIES:-ours} VARIANT=${VARIANT:-default} ARCH=${ARCH:-x86_64}
	KSPEC=$KLINE:$SERIES:$VARIANT:$ARCH
	row=$(awk -v l="$KLINE" '$1 == l' "$KSPEC_LINES")
	read -r _ KERNEL_VERSION KERNEL_PACKAGE PATCHES line_config _ <<< "$row"
	KERNEL_TARBALL=/usr/src/$KERNEL_PACKAGE.tar.xz
	case "$SERIES" in
	ours)		PATCHES=$TOP/$PATCHES name= ;;
	vanilla)	PATCHES=$BUILD/series-vanilla/patches-$KLINE name=vanilla ;;
	*)		PATCHES=$SERIES
			name=$(basename "$SERIES" | tr -c 'a-zA-Z0-9_.\n-' '_') ;;
	esac
	case "$ARCH" in
	x86_64)	QEMU=qemu-system-x86_64 ;;
	i386)	QEMU=qemu-system-i386 ;;
	esac
	# The tree is the line's source with a series applied; a kernel is a
	# tree built for an arch with a variant's config.  Another series than
	# ours gets a directory of its own for its tree and its builds, laid
	# out as build/ is: the source path relative to every build directory
	# is then ../linux-VERSION for all of them, and ccache (preprocessor
	# mode) serves each file the series does not touch from any kernel's
	# build, across clones too.
	local top=$BUILD${name:+/series-$name}
	SRC=$top/linux-$KERNEL_VERSION
	FLAVOUR=$KLINE-$ARCH
	[ "$VARIANT" = default ] || FLAVOUR=$FLAVOUR-$VARIANT
	KOUT=$top/kernel-$FLAVOUR
	MODOUT=$top/stress-module-$FLAVOUR
	INITRAMFS=$top/initramfs-$FLAVOUR.cpio.gz
	# What runs in the guest besides the kernel: the host's own binaries on
	# x86_64; on i386 a static rbdrain built -m32.
	GUESTOUT=$BUILD/guest-$ARCH
	# The config: tinyconfig, then these fragments in order (a later one
	# wins): what every guest needs, the arch's, the tracing under test,
	# the NMI sources, the line's own, our series' options, the variant's.
	local c=$TOP/images/config
	KCONFIGS=("$c/base.config" "$c/$ARCH.config" "$c/tracing.config" "$c/nmi.config")
	[ "${line_config:--}" = - ] || KCONFIGS+=("$c/$line_config")
	if [ "$SERIES" = ours ]; then
		KCONFIGS+=("$c/series.config")
	elif [ -f "$SERIES/series.config" ]; then
		KCONFIGS+=("$SERIES/series.config")
	fi
	[ "$VARIANT" = default ] || KCONFIGS+=("$c/$VARIANT.config")
}

# The empty series of a vanilla kernel, made where kspec_load points.
kspec_make_vanilla() {
	[ "$SERIES" = vanilla ] || return 0
	mkdir -p "$PATCHES"
	echo "# vanilla $KERNEL_PACKAGE $KERNEL_VERSION: no patches" > "$PATCHES/series"
}

# kspec_series_without LINE NUMBERS: our series of LINE without the fixes
# whose numbers in its fixes part (0005 for fixes/0005-*.patch,
# comma-separated) are given, as a series directory of its own
# (build/without-LINE-NUMBERS: a 'series' naming the checkout's patches by
# their paths, and our series.config), so that a fix can be measured
# against the same kernel without it.  The test hooks stay.  Prints the
# directory.
kspec_series_without() {
	local line=$1 nums=$2 dir pdir n p drop=
	pdir=$TOP/$(awk -v l="$line" '!/^#/ && $1 == l { print $4 }' "$KSPEC_LINES")
	dir=$BUILD/without-$line-${nums//,/-}
	for n in ${nums//,/ }; do
		p=$(compgen -G "$pdir/fixes/$n-*.patch") && [[ "$n" =~ ^[0-9]{4}$ ]] && [ "$n" != 0000 ] ||
			{ echo "no fix $n in ${pdir#$TOP/}/fixes (have: $(cd "$pdir/fixes" && ls 0*.patch | grep -v '^0000-' | cut -c1-4 | paste -sd' '))" >&2; return 1; }
		drop=$drop$'\n'$p
	done
	mkdir -p "$dir"
	{
		echo "# our $line series without fix(es) ${nums//,/, } (./run.sh --without)"
		series_patches "$pdir" | grep -vxF -e "${drop#$'\n'}"
	} > "$dir/series.new"
	mv "$dir/series.new" "$dir/series"
	cp "$TOP/images/config/series.config" "$dir/series.config"
	echo "$dir"
}

# kspec_series_seeded LINE FAULT: our series of LINE with one seeded fault
# of the reserve-path model (userspace-checker/reserve-model/
# extract-reserve.py: ./run.sh model --reserve --list) added as a last
# patch, as a series directory of its own (build/seeded-LINE-FAULT), so
# that a run shows which check catches the fault: a live rule, the
# kernel's audit, the model.  The patch itself is made from our tree by
# images/kernel/seed-patch.sh, before the tree is prepared (it needs ours).
# Prints the directory.
kspec_series_seeded() {
	local line=$1 fault=$2 pdir dir names
	names=$(cd "$TOP/userspace-checker/reserve-model" && python3 extract-reserve.py --faults)
	case " $(echo $names) " in *" $fault "*) ;;
	*) echo "no seeded fault '$fault' (have: $(echo $names))" >&2; return 1 ;; esac
	pdir=$TOP/$(awk -v l="$line" '!/^#/ && $1 == l { print $4 }' "$KSPEC_LINES")
	dir=$BUILD/seeded-$line-$fault
	mkdir -p "$dir"
	{
		echo "# our $line series with the seeded fault $fault (./run.sh --seed-fault)"
		series_patches "$pdir"
		echo "$dir/seeded-$fault.patch"
	} > "$dir/series.new"
	mv "$dir/series.new" "$dir/series"
	cp "$TOP/images/config/series.config" "$dir/series.config"
	echo "$dir"
}

# One line for people: what this kernel is.
kspec_describe() {
	local s=$SERIES
	case "$s" in ours) s="our series" ;; vanilla) s=vanilla ;; *) s="series ${s#$TOP/}" ;; esac
	echo "$KERNEL_VERSION ($KLINE), $s, $VARIANT config, $ARCH"
}
