#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbts - prove that the ring buffer gives nested events true time stamps.
# The one entry point; the work is done by the scripts under images/ and by
# the programs they build.  See README.md and ./run.sh --help.
set -euo pipefail
TOP=$(cd "$(dirname "$0")" && pwd)
. "$TOP/images/common.sh"

# Each command's help is a file of its own: images/help/COMMAND.txt.
# The lists in them (@FAULTS@, @CLOCKS@) come from the guest's settings.
help_of() {
	sed -e "s/@FAULTS@/$("$TOP/images/guest-args.py" --values faults)/" \
	    -e "s/@CLOCKS@/$("$TOP/images/guest-args.py" --values clock)/" "$TOP/images/help/$1.txt"
}

usage_error() {
	echo "run.sh: $*" >&2
	echo "run.sh: see './run.sh ${help_topic:-} --help'" | tr -s ' ' >&2
	exit 2
}

cmd_setup() {
	"$TOP/images/install-deps.sh"
}

cmd_build() {
	cmd_setup
	[ -z "$seed" ] || "$TOP/images/kernel/seed-patch.sh" "$kline" "$seed" "$PATCHES"
	"$TOP/images/prepare-tree.sh"
	"$TOP/images/build-kernel.sh"
	"$TOP/images/build-module.sh"
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	[ "$ARCH" != i386 ] ||
		make -s -C "$TOP/userspace-checker" O="$GUESTOUT" GUEST_CFLAGS=-m32 "$GUESTOUT/rbdrain"
	"$TOP/images/build-initramfs.sh"
}

# Parse the options of 'run' into globals; unknown ones are an error.
# settings: the guest's (images/guest/settings.table), KEY=VALUE each;
# kernel_args: the guest kernel's own parameters.
accel=auto cpus=2 duration=60 clock=global mod= capture=2 kernel_args= job=stress boot_extra=
debug=0 faults= arch=x86_64 variant=default kline=$KSPEC_DEFAULT_LINE dry_run=0 settings=() without= vanilla=0 plan_file=
seed=
guest_values() { "$TOP/images/guest-args.py" --values "$1"; }
# use_line LINE: this kernel line's paths from now on (common.sh again).
use_line() {
	local why
	why=$(kspec_check "$1:ours:default:x86_64")
	[ -z "$why" ] || usage_error "--kernel: $why"
	export RBTS_KERNEL=$1:ours:default:x86_64
	. "$TOP/images/common.sh"
}
parse_run_opts() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--accel)	accel=${2:-}; shift 2 || usage_error "--accel needs a value" ;;
		--cpus)		cpus=${2:-}; shift 2 || usage_error "--cpus needs a value" ;;
		--duration)	duration=$(parse_duration "${2:-}"); shift 2 || usage_error "--duration needs a value" ;;
		--clock)	clock=${2:-}; shift 2 || usage_error "--clock needs a value" ;;
		--mod)		mod=${2:-}; shift 2 || usage_error "--mod needs a value" ;;
		--capture)	capture=${2:-}; shift 2 || usage_error "--capture needs a value" ;;
		--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))" ;;
		--rb-time-32)	[ "$debug" = 0 ] || usage_error "--rb-time-32 and --debug cannot be combined"
				variant=rb-time-32; shift ;;
		--debug)	[ "$variant" = default ] ||
					usage_error "--rb-time-32 and --debug cannot be combined"
				debug=1; variant=debug
				# as syzkaller boots its kernels: the first warning is fatal.
				# acpi=noirq: under KASAN, lockdep and TCG the AML interpreter
				# cannot run the PCI _PRT method within ACPICA's 30 s loop
				# limit, and virtio gets no IRQ; the PIRQ router does it.
				kernel_args="$kernel_args panic_on_warn=1 acpi=noirq"; shift ;;
		--faults)	faults=${2:-}; job=faults; shift 2 || usage_error "--faults needs a list of scenarios" ;;
		--legacy-nested-ts) kernel_args="$kernel_args ring_buffer_legacy_nested_ts"; shift ;;
		--reader-delay-us|--discard-delay-us|--shrink-delay-us|--clock-delay-us|--nest-delay-us)
				# the test-only waits of our series: ring_buffer_{reader,discard,shrink,clock,nest}_delay_us
				[[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] && [ "$2" -le 10000 ] ||
					usage_error "$1 must be 1 to 10000 microseconds, not '${2:-}'"
				local which=${1#--}
				kernel_args="$kernel_args ring_buffer_${which%-delay-us}_delay_us=$2"; shift 2 ;;
		--tsc-unstable)	# sched_clock in its unstable mode, as a guest whose vCPUs' TSCs
				# looked unsynchronized gets by chance: per CPU, held to the
				# tick, so that the global clock often returns a stamp again
				kernel_args="$kernel_args tsc=unstable"; shift ;;
		--vanilla)	vanilla=1; shift ;;
		--without)	without=${2:-}; shift 2 || usage_error "--without needs fix numbers (0004 or 0004,0005: kernel-patches/LINE/fixes/)"
				[[ "$without" =~ ^[0-9]{4}(,[0-9]{4})*$ ]] ||
					usage_error "--without takes fix numbers like 0004 or 0004,0005, not '$without'" ;;
		--seed-fault)	seed=${2:-}; shift 2 || usage_error "--seed-fault needs a fault (./run.sh model --reserve --list)" ;;
		--job)		job=${2:-}; shift 2 || usage_error "--job needs a value" ;;
		--save-raw)	settings+=(saveraw=1); shift ;;
		--phases)	settings+=("phases=${2:-}"); shift 2 || usage_error "--phases needs a list" ;;
		--discard)	settings+=("discard=${2:-}"); shift 2 || usage_error "--discard needs a mask" ;;
		--subbuf-kb)	settings+=("subbufkb=${2:-}"); shift 2 || usage_error "--subbuf-kb needs a size in KiB" ;;
		--arch)		arch=${2:-}; shift 2 || usage_error "--arch needs a value" ;;
		--singlestep)	boot_extra="$boot_extra --singlestep"
				# as under --debug: too slow for the AML _PRT method
				kernel_args="$kernel_args acpi=noirq"; shift ;;
		--dry-run)	dry_run=1; shift ;;
		--plan)		plan_file=${2:-}; dry_run=1; shift 2 || usage_error "--plan needs a file"
				[ -d "$(dirname "$plan_file")" ] ||
					usage_error "--plan $plan_file: no directory $(dirname "$plan_file")" ;;
		--ktap-console)	settings+=(ktapconsole=1); shift ;;
		-h|--help)	help_of "$help_topic"; exit 0 ;;
		*)		usage_error "unknown option '$1'" ;;
		esac
	done
	case "$accel" in auto|kvm|tcg) ;; *) usage_error "--accel must be auto, kvm or tcg, not '$accel'" ;; esac
	case " $boot_extra " in *" --singlestep "*)
		[ "$accel" != kvm ] || usage_error "--singlestep is a TCG mode: not with --accel kvm"
		accel=tcg ;;
	esac
	[[ "$cpus" =~ ^[1-8]$ ]] || usage_error "--cpus must be 1 to 8, not '$cpus'"
	[[ "$duration" =~ ^[0-9]+$ ]] && [ "$duration" -ge 1 ] || usage_error "--duration must be a whole number >= 1 of seconds, or with s, m or h (90s, 30m, 6h), not '$duration'"
	[[ "$capture" =~ ^[0-9]+$ ]] || usage_error "--capture must be a whole number of seconds, not '$capture'"
	case "$job" in stress|params|rmmod|faults|drain) ;; *) usage_error "--job must be stress, params, rmmod, faults or drain, not '$job'" ;; esac
	# job drain streams the sub-buffers to a sparse disk of the host's
	[ "$job" != drain ] || boot_extra="$boot_extra --stream-disk 64G"
	case "$arch" in
	x86_64)	;;
	i386)	# No rbcheck or trace-cmd in the 32-bit guest: its sub-buffers
		# are drained to the host and verified there.
		[ "$job" != faults ] || usage_error "--arch i386: the fault scenarios need the live checker (x86_64 guests only)"
		[ "$variant" = default ] ||
			usage_error "--arch i386 cannot be combined with --rb-time-32 (native there) or --debug (no KASAN on i386)"
		if [ "$job" = stress ]; then
			job=drain
			boot_extra="$boot_extra --stream-disk 64G"
		fi
		case " ${settings[*]} " in *" saveraw=1 "*)
			usage_error "--arch i386: --save-raw is a live checker option; the i386 guest's sub-buffers all go to the host anyway" ;;
		esac
		capture=0 ;;
	*)	usage_error "--arch must be x86_64 or i386, not '$arch'" ;;
	esac
	if [ "$job" = faults ]; then
		[ -n "$faults" ] || faults=$("$TOP/images/guest-args.py" --default faults)
		local f
		for f in ${faults//,/ }; do
			case " $(guest_values faults) " in
			*" $f "*) ;;
			*) usage_error "--faults: unknown scenario '$f' (have: $(guest_values faults))" ;;
			esac
		done
		settings+=("faults=$faults")
		capture=0
	fi
	case " $(guest_values clock) " in *" $clock "*) ;;
	*) usage_error "--clock must be one of: $(guest_values clock); not '$clock'" ;; esac
	case " $(kspec_lines) " in *" $kline "*) ;;
	*) usage_error "--kernel: no line '$kline' (have: $(kspec_lines))" ;; esac
	local why series=ours
	if [ "$vanilla" = 1 ]; then
		[ -z "$without" ] || usage_error "--vanilla has no patches to go --without"
		case "$kernel_args " in *" ring_buffer_"*)
			usage_error "--vanilla: the kernel has none of our test parameters (--legacy-nested-ts, --reader-delay-us, --discard-delay-us, --shrink-delay-us, --clock-delay-us, --nest-delay-us)" ;;
		esac
		[ "$variant" = default ] || usage_error "--vanilla builds the default config only (the variants need our series)"
		series=vanilla
	elif [ -n "$without" ]; then
		[ -z "$seed" ] || usage_error "--seed-fault goes on our series, not --without"
		series=$(kspec_series_without "$kline" "$without" 2>&1) || usage_error "--without: $series"
	fi
	if [ -n "$seed" ]; then
		[ "$vanilla" = 0 ] || usage_error "--seed-fault goes on our series, not --vanilla"
		series=$(kspec_series_seeded "$kline" "$seed" 2>&1) || usage_error "--seed-fault: $series"
	fi
	why=$(kspec_check "$kline:$series:$variant:$arch")
	[ -z "$why" ] || usage_error "$why"
	why=$(guest_words 2>&1 >/dev/null) || usage_error "${why#guest-args: }"
	# common.sh was read before the options: take this kernel's paths now.
	export RBTS_KERNEL=$kline:$series:$variant:$arch
	. "$TOP/images/common.sh"
}

# 90s, 30m, 6h or plain seconds -> seconds; anything else is passed on
# unchanged for parse_run_opts to refuse.
parse_duration() {
	if [[ "$1" =~ ^([0-9]{1,7})([smh]?)$ ]]; then
		case "${BASH_REMATCH[2]}" in
		m) echo $(( 10#${BASH_REMATCH[1]} * 60 )) ;;
		h) echo $(( 10#${BASH_REMATCH[1]} * 3600 )) ;;
		*) echo $(( 10#${BASH_REMATCH[1]} )) ;;
		esac
	else
		echo "$1"
	fi
}

# The guest's settings as rbts.* words (images/guest-args.py checks them
# against images/guest/settings.table; parse_run_opts has called it once).
guest_words() {
	"$TOP/images/guest-args.py" --line "$kline" job="$job" duration="$duration" clock="$clock" \
		capture="$capture" ${mod:+mod="$mod"} ${settings[@]+"${settings[@]}"}
}

# The guest's command line and the boot's time limit, from the options.
boot_append() {
	echo "$(guest_words)$kernel_args"
}
boot_timeout() {
	local runs=1 slack=180
	[ "$job" != faults ] || runs=$(echo "${faults//,/ }" | wc -w)
	[ "$debug" = 0 ] || slack=600	# KASAN and lockdep under TCG, the startup test
	case " $boot_extra " in *" --singlestep "*) slack=600 ;; esac
	echo $(( duration * runs + capture + slack ))
}

# --dry-run: what would be built and booted, and exit 0.
print_plan() {
	local f
	echo "plan: ./run.sh $help_topic (nothing is installed, built or booted)"
	echo "  kernel      $KSPEC: $(kspec_describe)"
	echo "  config      tinyconfig + $(for f in "${KCONFIGS[@]}"; do printf '%s ' "$(basename "$f")"; done)"
	for f in "source:$KERNEL_TARBALL" "series:$PATCHES/series" "tree:$SRC" \
		 "kernel:$KOUT/arch/x86/boot/bzImage" "module:$MODOUT/rbstress.ko" \
		 "initramfs:$INITRAMFS" "checker:$CHECKOUT/rbcheck"; do
		printf '  %-11s %s (%s)\n' "${f%%:*}" "${f#*:}" "$([ -e "${f#*:}" ] && echo present || echo "to be made")"
	done
	echo "  boot        $QEMU, accel $accel, $cpus CPU(s), at most $(boot_timeout)s${boot_extra:+, boot.sh$boot_extra}"
	echo "  guest       $(boot_append)"
	echo "  results     results/<run-id>/ (results/latest)"
	[ -z "$plan_file" ] || write_plan "$plan_file"
}

# --plan FILE: the same, as JSON, for a program that boots the guest
# another way (./run.sh matrix --lava: a LAVA job per cell).
write_plan() {
	python3 - "$1" kspec="$KSPEC" arch="$ARCH" qemu="$QEMU" cpus="$cpus" \
		kernel="$KOUT/arch/x86/boot/bzImage" initramfs="$INITRAMFS" \
		cmdline="$GUEST_CMDLINE $(boot_append)" timeout="$(boot_timeout)" \
		job="$job" boot_extra="$boot_extra" <<'PY' 2>/dev/null || die "--plan: cannot write '$1'"
import json, sys
plan = dict(a.split('=', 1) for a in sys.argv[2:])
for k in ('cpus', 'timeout'):
    plan[k] = int(plan[k])
plan['boot_extra'] = plan['boot_extra'].split()
with open(sys.argv[1], 'w') as f:
    json.dump(plan, f, indent=1)
PY
}

# Boot one guest with the current options into results/<run-id> (also in
# $run_out, and written to $RBTS_RUN_ID_FILE when set: results/latest is
# whichever run started last, another's when runs overlap); print the verdict.
run_out=
boot_and_verify() {
	local id out rc
	id=$(date +%Y%m%d-%H%M%S)-$$
	out=$TOP/results/$id
	mkdir -p "$out"
	run_out=$out
	[ -z "${RBTS_RUN_ID_FILE:-}" ] || echo "$id" > "$RBTS_RUN_ID_FILE"
	# Which kernel this run is of (verdict.json "kernel"): spec and version.
	printf 'spec %s\nline %s\nversion %s\n' "$KSPEC" "$KLINE" "$KERNEL_VERSION" > "$out/kernel"
	ln -sfn "$id" "$TOP/results/latest"
	# The reserve-path model of the very tree booted (model.json), and the
	# rb_time_t model if the kernel uses the 32-bit one: seconds once per
	# tree's code, then kept.
	"$TOP/images/model-verdict.py" "$SRC" "$out" --config "$KOUT/.config" ||
		echo "run.sh: images/model-verdict.py failed: the verdict will say the model was skipped" >&2
	[ "$accel" = auto ] && accel=$("$TOP/images/probe-accel.sh")
	info "booting: $accel, $cpus CPU(s), clock $clock, kernel $(kspec_describe)${kernel_args:+,$kernel_args}${settings[0]:+, ${settings[*]}}, verifying for ${duration}s"
	rc=0
	"$TOP/images/boot.sh" --accel "$accel" --cpus "$cpus" --out "$out" $boot_extra \
		--timeout "$(boot_timeout)" --append "$(boot_append)" || rc=$?
	if [ "$rc" != 0 ]; then
		"$TOP/images/verdict.py" "$out" --hung "$(boot_timeout)"
		return
	fi
	"$TOP/images/collect-results.sh" "$out"
	if [ "$job" = faults ] && [ -d "$out/faults" ]; then
		echo
		echo "fault scenarios (each verified live while the fault was injected):"
		"$TOP/images/faults-table.py" "$out" || true
	fi
	# The one verdict, from the structured results (verdict.json).
	"$TOP/images/verdict.py" "$out" \
		$(grep -qs "^CONFIG_RING_BUFFER_STARTUP_TEST=y" "$KOUT/.config" && echo --startup-test)
}

cmd_run() {
	parse_run_opts "$@"
	[ "$dry_run" = 0 ] || { print_plan; return 0; }
	cmd_build
	boot_and_verify
}

cmd_soak() {
	local keep_going=0 args=() rc=0
	duration=600
	while [ $# -gt 0 ]; do
		case "$1" in
		--keep-going)	keep_going=1; shift ;;
		--faults)	# all of them, interleaved, unless a list follows
				if [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; then
					args+=(--faults "$2"); shift 2
				else
					args+=(--faults mixed); shift
				fi ;;
		*)		args+=("$1"); shift ;;
		esac
	done
	parse_run_opts ${args[@]+"${args[@]}"}
	settings+=(keepfailing=1)
	[ "$keep_going" = 1 ] || settings+=(stoponfail=1)
	boot_extra="$boot_extra --stop-button"
	[ "$dry_run" = 0 ] || { print_plan; return 0; }
	cmd_build
	boot_and_verify || rc=$?
	"$TOP/images/plot-deltas.sh" "$run_out" || true
	return $rc
}

# Every fault scenario in turn, each verified live while it is injected.
cmd_faults() {
	duration=20
	parse_run_opts --job faults "$@"
	[ "$dry_run" = 0 ] || { print_plan; return 0; }
	cmd_build
	boot_and_verify
}

# The suite: images/tests/runner.py finds the tests, builds what they
# need and writes KTAP; ./run.sh test --help.
cmd_test() {
	case " $* " in *" --list "*|*" -h "*|*" --help "*) ;; *) cmd_setup ;; esac
	exec python3 "$TOP/images/tests/runner.py" "$@"
}

# bench_kernel ITEM: NAME=SPEC for one item of --kernels: NAME=SPEC as it
# is, or a short name: vanilla-LINE, series-LINE, series-LINE-32,
# without-LINE-NNNN (our series less fix NNNN of its fixes part: what a fix costs).
bench_kernel() {
	local item=$1 name spec why line nums dir
	case "$item" in
	*=*)		name=${item%%=*} spec=${item#*=} ;;
	vanilla-*)	name=$item spec=${item#vanilla-}:vanilla:default:x86_64 ;;
	series-*-32)	name=$item spec=${item#series-}; spec=${spec%-32}:ours:rb-time-32:x86_64 ;;
	series-*)	name=$item spec=${item#series-}:ours:default:x86_64 ;;
	without-*)	[[ "$item" =~ ^without-([0-9.]+)-([0-9]{4}(-[0-9]{4})*)$ ]] ||
				usage_error "--kernels: '$item' is not without-LINE-NNNN (e.g. without-6.1-0004)"
			line=${BASH_REMATCH[1]} nums=${BASH_REMATCH[2]//-/,}
			why=$(kspec_check "$line:ours:default:x86_64")
			[ -z "$why" ] || usage_error "--kernels $item: $why"
			dir=$(kspec_series_without "$line" "$nums" 2>&1) || usage_error "--kernels $item: $dir"
			name=$item spec=$line:$dir:default:x86_64 ;;
	*)		usage_error "--kernels: '$item' is not NAME=SPEC, vanilla-LINE, series-LINE, series-LINE-32 or without-LINE-NNNN" ;;
	esac
	[[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || usage_error "--kernels: '$name' is not a name (letters, digits, . _ -)"
	why=$(kspec_check "$spec")
	[ -z "$why" ] || usage_error "--kernels $item: $why"
	echo "$name=$spec"
}

# bench kernels: any set of kernels by spec (default: both lines, vanilla
# and our series, and 6.1's 32-bit rb_time_t), or vanilla against another
# series; see images/bench-kernels.sh.
cmd_bench_kernels() {
	local reps=3 dur=10 icount= threshold= series= id out name kline=$KSPEC_DEFAULT_LINE list= item
	local default_list
	default_list=$(kspec_bench_default)
	while [ $# -gt 0 ]; do
		case "$1" in
		--kernels)	list=${2:-}; shift 2 || usage_error "--kernels needs a list" ;;
		--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))" ;;
		--reps)		reps=${2:-}; shift 2 || usage_error "--reps needs a value" ;;
		--duration)	dur=$(parse_duration "${2:-}"); shift 2 || usage_error "--duration needs a value" ;;
		--icount)	icount=${2:-}; shift 2 || usage_error "--icount needs a shift (0-9)" ;;
		--threshold)	threshold=${2:-}; shift 2 || usage_error "--threshold needs a percentage" ;;
		--series)	series=${2:-}; shift 2 || usage_error "--series needs a directory" ;;
		-h|--help)	help_of bench-kernels; exit 0 ;;
		*)		usage_error "bench kernels: unknown option '$1'" ;;
		esac
	done
	[[ "$reps" =~ ^[1-9][0-9]?$ ]] || usage_error "--reps must be 1 to 99, not '$reps'"
	[[ "$dur" =~ ^[1-9][0-9]{0,3}$ ]] || usage_error "--duration must be 1 to 9999 seconds, not '$dur'"
	[ -z "$icount" ] || [[ "$icount" =~ ^[0-9]$ ]] || usage_error "--icount takes a shift of 0 to 9, not '$icount'"
	[ -z "$threshold" ] || [[ "$threshold" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
		usage_error "--threshold must be a percentage, not '$threshold'"
	[ -z "$list" ] || [ -z "$series" ] || usage_error "--kernels and --series cannot be combined (name the series in the list: NAME=$kline:DIR)"
	if [ -n "$series" ]; then
		[ -f "$series/series" ] || usage_error "--series $series: no 'series' file there"
		series=$(cd "$series" && pwd)
	fi
	# NAME=SPEC each (images/kernel/spec.sh); the first is the baseline.
	local kernels=()
	if [ -n "$series" ]; then
		name=$(basename "$series" | tr -c 'a-zA-Z0-9_.\n-' '_')
		case "$name" in series*) ;; *) name=series-$name ;; esac
		[ "$name" != "series-$kline" ] || name=$name-candidate
		kernels=("$(bench_kernel "vanilla-$kline")" "$(bench_kernel "$name=$kline:$series:default:x86_64")")
	else
		IFS=, read -r -a items <<< "${list:-$default_list}"
		for item in "${items[@]}"; do
			kernels+=("$(bench_kernel "$item")") || exit 2
		done
		[ ${#kernels[@]} -ge 2 ] || usage_error "--kernels: at least two kernels to compare"
	fi
	cmd_setup
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	id=$(date +%Y%m%d-%H%M%S)
	out=$TOP/results/bench-kernels-$id
	info "bench kernels: ${kernels[*]%%=*}; $reps repetition(s), ${dur}s of stress each${icount:+, -icount shift=$icount}"
	"$TOP/images/bench-kernels.sh" "$out" "$reps" "$dur" "$icount" "$threshold" "${kernels[@]}"
}

cmd_bench() {
	local what=${1:-} dur=240 reps=3 recapture= dat
	case "$what" in
	kernels)	shift; help_topic="bench kernels"; cmd_bench_kernels "$@"; return ;;
	checker)	help_topic="bench checker" ;;
	-h|--help)	help_of bench; exit 0 ;;
	*)		usage_error "bench: say what to bench: 'checker' or 'kernels'" ;;
	esac
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		--duration)	dur=$(parse_duration "${2:-}"); shift 2 || usage_error "--duration needs a value" ;;
		--reps)		reps=${2:-}; shift 2 || usage_error "--reps needs a value" ;;
		--recapture)	recapture=--recapture; shift ;;
		-h|--help)	help_of bench-checker; exit 0 ;;
		*)		usage_error "bench checker: unknown option '$1'" ;;
		esac
	done
	[[ "$dur" =~ ^[0-9]+$ ]] && [ "$dur" -ge 1 ] ||
		usage_error "--duration must be a whole number >= 1 of seconds, or with s, m or h, not '$dur'"
	[[ "$reps" =~ ^[1-9][0-9]*$ ]] || usage_error "--reps must be a positive number"
	cmd_build
	dat=$("$TOP/images/bench-capture.sh" "$dur" "$accel" "$cpus" $recapture)
	"$TOP/images/bench-checker.sh" "$dat" "$TOP/results/bench-checker-$(date +%Y%m%d-%H%M%S)" "$reps"
}

# The kernel's ftrace selftests (curated subset) on vanilla and on our
# series: identical results, case by case; see images/selftests-kernels.sh.
cmd_selftests() {
	local timeout=120 out kline=$KSPEC_DEFAULT_LINE
	while [ $# -gt 0 ]; do
		case "$1" in
		--timeout)	timeout=${2:-}; shift 2 || usage_error "--timeout needs a value" ;;
		--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))" ;;
		-h|--help)	help_of selftests; exit 0 ;;
		*)		usage_error "selftests: unknown option '$1'" ;;
		esac
	done
	[[ "$timeout" =~ ^[1-9][0-9]{0,3}$ ]] || usage_error "--timeout must be 1 to 9999 seconds, not '$timeout'"
	use_line "$kline"
	cmd_setup
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	out=$TOP/results/selftests-$(date +%Y%m%d-%H%M%S)
	"$TOP/images/selftests-kernels.sh" "$out" "$timeout"
}

# rbmodel on the tree's own RB_TIME_32 code, or with --reserve rbreserve on
# the tree's reserve path (--vanilla: the unmodified tree); both extracted
# from ring_buffer.c at build time.
# model_args DIR PROG ARGS...: the model's own command line check (built
# without a tree), before a tree is extracted and patched; exit 2 if bad.
model_args() {
	local dir=$1 prog=$2 why
	shift 2
	make -s -C "$TOP/userspace-checker/$dir" O="$BUILD/model-args" args > /dev/null ||
		die "cannot build $prog's command line check"
	why=$("$BUILD/model-args/$prog-args" "$@" 2>&1) || {
		why=${why#"$prog: "}
		usage_error "model: ${why% (see * --help)}"
	}
}

cmd_model() {
	local kline= why reserve= series=ours out ksrc=
	case "${1:-}" in -h|--help) help_of model; exit 0 ;; esac
	while :; do
		case "${1:-}" in
		--reserve)	reserve=1; shift ;;
		--vanilla)	series=vanilla; shift ;;
		--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))" ;;
		--ksrc)		ksrc=${2:-}; shift 2 || usage_error "--ksrc needs a kernel tree" ;;
		*)		break ;;
		esac
	done
	[ -n "$reserve" ] || [ "$series" = ours ] || usage_error "model: --vanilla goes with --reserve (the 32-bit rb_time_t is the same in both trees)"
	if [ -n "$ksrc" ]; then
		[ -n "$reserve" ] || usage_error "model: --ksrc goes with --reserve"
		[ -z "$kline" ] && [ "$series" = ours ] || usage_error "model: --ksrc names the tree; --kernel and --vanilla name one of ours"
		model_args reserve-model rbreserve "$@"
		exec "$TOP/images/model-ksrc.sh" "$ksrc" "$@"
	fi
	if [ -n "$reserve" ]; then
		why=$(kspec_check "${kline:-$KSPEC_DEFAULT_LINE}:ours:default:x86_64")
		[ -z "$why" ] || usage_error "model: $why"
		export RBTS_KERNEL=${kline:-$KSPEC_DEFAULT_LINE}:$series:default:x86_64
		. "$TOP/images/common.sh"
		cmd_setup
		model_args reserve-model rbreserve "$@"
		"$TOP/images/prepare-tree.sh"
		out=$BUILD/reserve-model/$KLINE-$SERIES
		make -s -C "$TOP/userspace-checker/reserve-model" O="$out" KSRC="$SRC" > /dev/null
		exec "$out/rbreserve" "$@"
	fi
	if [ -n "$kline" ]; then
		why=$(kspec_check "$kline:ours:rb-time-32:x86_64")
		[ -z "$why" ] || usage_error "model: $why: the model checks the 32-bit rb_time_t, which only 6.1 has (6.8 removed it)"
		use_line "$kline"
	fi
	cmd_setup
	model_args model rbmodel "$@"
	"$TOP/images/prepare-tree.sh"
	make -s -C "$TOP/userspace-checker/model" O="$BUILD/model" KSRC="$SRC"
	"$BUILD/model/rbmodel" "$@"
}

cmd_report() {
	local id=latest dir dat kline= d
	case "${1:-}" in
	-h|--help)	help_of report; exit 0 ;;
	--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))"
			case " $(kspec_lines) " in *" $kline "*) ;;
			*) usage_error "--kernel: no line '$kline' (have: $(kspec_lines))" ;; esac ;;
	-*)		usage_error "report: unknown option '$1'" ;;
	esac
	[ $# -le 1 ] || usage_error "report takes one RUN-ID, or --kernel LINE"
	[ -z "$kline" ] || [ $# = 0 ] || usage_error "report: a RUN-ID or --kernel LINE, not both"
	if [ -n "$kline" ]; then
		# The newest run of that line with a capture (results/<id>/kernel).
		id=
		for d in $(ls -d "$TOP"/results/*/ 2>/dev/null | sort -r); do
			if grep -qx "line $kline" "$d/kernel" 2>/dev/null && [ -s "$d/trace.dat" ]; then
				id=$(basename "$d"); break
			fi
		done
		[ -n "$id" ] || die "report: no run of kernel line $kline with a trace.dat in results/"
	fi
	id=${1:-$id}
	dir=$TOP/results/$id
	[ -d "$dir" ] || usage_error "report: no run '$id' in results/ (have: $(ls "$TOP/results" 2>/dev/null | tail -n 3 | tr '\n' ' '))"
	dat=$dir/trace.dat
	[ -s "$dat" ] || die "report: run '$id' has no trace.dat (runs with --capture 0 or --job other than stress have none)"
	cmd_setup
	[ -x "$CHECKOUT/rbcheck" ] || make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	"$TOP/images/report-run.sh" "$dir"
}

# A finding's reproducer, RUNS times on each kernel (before and after its
# fix): images/reproduce.sh, findings in images/findings.json.
cmd_reproduce() {
	local finding= kline=$KSPEC_DEFAULT_LINE runs=10 only= out
	while [ $# -gt 0 ]; do
		case "$1" in
		--kernel)	kline=${2:-}; shift 2 || usage_error "--kernel needs a line (have: $(kspec_lines))" ;;
		--runs)		runs=${2:-}; shift 2 || usage_error "--runs needs a number" ;;
		--only)		only=${2:-}; shift 2 || usage_error "--only needs before or after" ;;
		--vanilla)	only=vanilla; shift ;;
		-h|--help)	help_of reproduce; exit 0 ;;
		-*)		usage_error "reproduce: unknown option '$1'" ;;
		*)		[ -z "$finding" ] || usage_error "reproduce takes one FINDING"
				finding=$1; shift ;;
		esac
	done
	[ -n "$finding" ] || usage_error "reproduce needs a FINDING (a label of images/findings.json: $("$TOP/images/reproduce.py" labels))"
	[[ "$runs" =~ ^[1-9][0-9]{0,2}$ ]] || usage_error "--runs must be 1 to 999, not '$runs'"
	case "$only" in ''|before|after|vanilla) ;; *) usage_error "--only must be before or after, not '$only'" ;; esac
	use_line "$kline"
	"$TOP/images/reproduce.py" kernels "$finding" > /dev/null || exit 2
	cmd_setup
	out=$TOP/results/reproduce-$finding-$kline${only:+-$only}-$(date +%Y%m%d-%H%M%S)
	"$TOP/images/reproduce.sh" "$finding" "$kline" "$runs" "$out" $only
}

# build takes the kernel options of run, and nothing else.
cmd_build_only() {
	local args=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--kernel|--arch|--without|--seed-fault) [ $# -ge 2 ] || usage_error "$1 needs a value"
				args+=("$1" "$2"); shift 2 ;;
		--rb-time-32|--debug|--vanilla) args+=("$1"); shift ;;
		-h|--help)	help_of build; exit 0 ;;
		*)		usage_error "build: unknown option '$1' (it takes --kernel, --rb-time-32, --debug, --arch, --without, --seed-fault, --vanilla)" ;;
		esac
	done
	parse_run_opts ${args[@]+"${args[@]}"}
	cmd_build
}

# The command, then its options; with none, or only options, it is run.
sub=run
if [ $# -gt 0 ]; then
	case "$1" in
	-h|--help)	help_of main; exit 0 ;;
	-*)		;;
	*)		sub=$1; shift ;;
	esac
fi
help_topic=$sub
case "$sub" in
run)		cmd_run "$@" ;;
soak)		cmd_soak "$@" ;;
faults)		cmd_faults "$@" ;;
test)		cmd_test "$@" ;;
bench)		cmd_bench "$@" ;;
report)		cmd_report "$@" ;;
selftests)	cmd_selftests "$@" ;;
model)		cmd_model "$@" ;;
reproduce)	cmd_reproduce "$@" ;;
build)		cmd_build_only "$@" ;;
detection)	case " $* " in *" -h "*|*" --help "*) help_of detection; exit 0 ;; esac
		# each run and model it starts sets up what it needs: a bad
		# option costs nothing
		exec "$TOP/images/detection-table.py" "$@" ;;
matrix)		case " $* " in *" -h "*|*" --help "*) help_of matrix; exit 0 ;; esac
		exec "$TOP/images/matrix.py" "$@" ;;
setup)		case "${1:-}" in -h|--help) help_of setup; exit 0 ;; esac
		[ $# -eq 0 ] || usage_error "setup takes no options"; cmd_setup ;;
help)		help_of main ;;
*)		help_topic=; usage_error "unknown command '$sub'" ;;
esac
