#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbts - prove that the ring buffer gives nested events true time stamps.
# The one entry point; the work is done by the scripts under images/ and by
# the programs they build.  See README.md and ./run.sh --help.
set -euo pipefail
TOP=$(cd "$(dirname "$0")" && pwd)
. "$TOP/images/common.sh"

usage() {
	cat <<USAGE
usage: ./run.sh [COMMAND] [OPTIONS]

commands:
  run      (default) build what is needed, boot the patched kernel in QEMU,
           stress it, verify the nested time stamps, print the verdict
  soak     a long run: like run, with --duration in s, m or h (default 10m),
           a live progress line, Ctrl-C that still writes the summary, the
           first violation's sub-buffers kept (results/<id>/violation-raw
           and violation.dat), stop there unless --keep-going, and a PNG
           of the nested deltas; --faults [LIST]: the faults of LIST (default
           all, interleaved in random order) injected all along
  faults [--faults LIST] [options of run]
           inject faults while the writers record and the checker verifies
           live: each scenario of LIST (default: all, one after the other,
           --duration seconds each, default 20) gets its own live check; a
           table says how often each was injected, how many events were
           verified across it, and the evidence it acted; see docs/faults.md
  test [--full]
           the test suite: checker unit and CLI tests, the model checker,
           then boots of the real kernel (a PASS run and a negative control
           that must FAIL, soaks, faults, the debug kernel, the 32-bit
           rb_time_t, a real i386 kernel verified on the host, the
           ftracetest subset on vanilla and on the series); --full also
           runs the debug kernel's faults and bench kernels
  bench kernels [--reps N] [--duration SEC] [--icount SHIFT] [--threshold P]
                [--series DIR]
           compare vanilla 6.1.192 with our series (64- and 32-bit rb_time_t),
           or with the series in DIR: ring_buffer_benchmark and the stress
           writers' time per event, fast path and nested, repetitions
           interleaved; medians, spread, ratios, report.md and a chart in
           results/bench-kernels-<id>/; --icount: deterministic guest time;
           --threshold P: exit 1 if a kernel is slower by more than P%
  bench checker [--duration SEC] [--reps N] [--recapture]
           time 'rbcheck verify' against 'trace-cmd report' on one large
           trace.dat recorded in the guest (kept in build/bench/; the
           capture runs --duration seconds, default 240: about 5M events)
  selftests [--timeout SEC]
           the kernel's own ftrace selftests as a regression suite: the
           curated ftracetest subset (images/ftracetest/subset.list) on
           vanilla 6.1.192 and on our series, each case at most SEC seconds
           (default 120); FAIL unless both give the same result per case;
           table in results/selftests-<id>/table.md
  model [--depth D] [--ops K] [--variant tree|article|...] [rbmodel options]
           check the 32-bit rb_time_t exhaustively: every program of K
           operations per context, every nesting of D contexts, every
           interrupt point; on the tree's own code (default D=4, K=4)
  report [RUN-ID]
           inspect a run's trace.dat: trace-cmd report (fields decoded),
           trace-cmd report --ts-check, and the nesting stacks; the default
           run is the latest
  build    set up and build only (kernel, module, checker, initramfs)
  setup    install the Debian packages the project needs
  help     this text

options of run:
  --accel auto|kvm|tcg   how QEMU runs the guest (default auto: KVM if a
                         probe guest boots with it, else TCG)
  --cpus N               guest CPUs (default 2)
  --duration SEC         how long the checker verifies live (default 60)
  --clock NAME           trace clock: local, global, counter, perf, mono,
                         mono_raw, boot (default global; under counter the
                         own-clock rule is SKIP: a module cannot read it)
  --mod PARAMS           extra rbstress parameters, e.g. task_window_us=100,irq_period_us=500
  --capture SEC          length of the trace.dat capture (default 2, 0: none)
  --rb-time-32           use a kernel built with the 32-bit rb_time_t
                         (CONFIG_RING_BUFFER_RB_TIME_32; built on first use)
  --debug                use the debug kernel (lockdep, KASAN, UBSAN, atomic
                         sleep and preemption checks, the ring buffer's startup
                         test; images/config/debug.config), booted with
                         panic_on_warn=1 oops=panic: any kernel complaint FAILs
  --faults LIST          the faults job (see 'faults'): resize, clock, hotplug,
                         instances, tracing-on, overwrite, no-overwrite, filter,
                         reload, or mixed (all interleaved), comma-separated
  --legacy-nested-ts     boot with ring_buffer_legacy_nested_ts: nested events
                         get delta 0 as before 2020; the verdict must be FAIL
  --save-raw             keep the sub-buffers the live checker read (results/<id>/raw)
                         and verify them again on the host: the verdicts must agree
  --arch x86_64|i386     the guest's architecture (default x86_64); i386 is a
                         real 32-bit kernel (native 32-bit rb_time_t, 4-byte
                         longs in the sub-buffers) with Debian's i386 busybox:
                         it runs no checker, but drains every sub-buffer to the
                         host (rbdrain), where rbcheck verifies them (job drain)
  --singlestep           TCG only: one guest instruction per translation block,
                         so that interrupts and NMIs can land between any two
                         instructions (TCG takes them between blocks only: the
                         few instructions of rb_time_set() are never cut);
                         several times slower
  --job stress|params|rmmod|faults|drain
                         what the guest does (default stress); params loads the
                         module with every case of images/module-params.table,
                         rmmod unloads it under full load (both used by the
                         tests); drain: the sub-buffers are verified on the host

exit status: 0 PASS, 1 FAIL (model: a counterexample), 2 usage or set-up error,
             3 the guest hung or crashed
results: results/<run-id>/ (summary.txt, result.ktap, result.json, verdict.txt,
         console.log, dmesg.txt, trace.dat, offline.txt, module-stats.txt);
         results/latest points to the last run
USAGE
}

usage_error() {
	echo "run.sh: $*" >&2
	echo "run.sh: see './run.sh --help'" >&2
	exit 2
}

cmd_setup() {
	"$TOP/images/install-deps.sh"
}

cmd_build() {
	cmd_setup
	"$TOP/images/prepare-tree.sh"
	"$TOP/images/build-kernel.sh"
	"$TOP/images/build-module.sh"
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	[ "$ARCH" != i386 ] ||
		make -s -C "$TOP/userspace-checker" O="$GUESTOUT" GUEST_CFLAGS=-m32 "$GUESTOUT/rbdrain"
	"$TOP/images/build-initramfs.sh"
}

# Parse the options of 'run' into globals; unknown ones are an error.
accel=auto cpus=2 duration=60 clock=global mod= capture=2 extra_append= job=stress boot_extra=
debug=0 faults= arch=${RBTS_ARCH:-x86_64}
all_faults="resize clock hotplug instances tracing-on overwrite no-overwrite filter reload"
parse_run_opts() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--accel)	accel=${2:-}; shift 2 || usage_error "--accel needs a value" ;;
		--cpus)		cpus=${2:-}; shift 2 || usage_error "--cpus needs a value" ;;
		--duration)	duration=$(parse_duration "${2:-}"); shift 2 || usage_error "--duration needs a value" ;;
		--clock)	clock=${2:-}; shift 2 || usage_error "--clock needs a value" ;;
		--mod)		mod=${2:-}; shift 2 || usage_error "--mod needs a value" ;;
		--capture)	capture=${2:-}; shift 2 || usage_error "--capture needs a value" ;;
		--rb-time-32)	[ "$debug" = 0 ] || usage_error "--rb-time-32 and --debug cannot be combined"
				export RBTS_VARIANT=rb-time-32; shift ;;
		--debug)	[ "${RBTS_VARIANT:-default}" = default ] ||
					usage_error "--rb-time-32 and --debug cannot be combined"
				debug=1; export RBTS_VARIANT=debug
				# as syzkaller boots its kernels: the first warning is fatal.
				# acpi=noirq: under KASAN, lockdep and TCG the AML interpreter
				# cannot run the PCI _PRT method within ACPICA's 30 s loop
				# limit, and virtio gets no IRQ; the PIRQ router does it.
				extra_append="$extra_append panic_on_warn=1 acpi=noirq"; shift ;;
		--faults)	faults=${2:-}; job=faults; shift 2 || usage_error "--faults needs a list of scenarios" ;;
		--legacy-nested-ts) extra_append="$extra_append ring_buffer_legacy_nested_ts"; shift ;;
		--job)		job=${2:-}; shift 2 || usage_error "--job needs a value" ;;
		--save-raw)	extra_append="$extra_append rbts.saveraw=1"; shift ;;
		--arch)		arch=${2:-}; shift 2 || usage_error "--arch needs a value" ;;
		--singlestep)	boot_extra="$boot_extra --singlestep"
				# as under --debug: too slow for the AML _PRT method
				extra_append="$extra_append acpi=noirq"; shift ;;
		-h|--help)	usage; exit 0 ;;
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
		[ "${RBTS_VARIANT:-default}" = default ] ||
			usage_error "--arch i386 cannot be combined with --rb-time-32 (native there) or --debug (no KASAN on i386)"
		if [ "$job" = stress ]; then
			job=drain
			boot_extra="$boot_extra --stream-disk 64G"
		fi
		case " $extra_append " in *" rbts.saveraw=1 "*)
			usage_error "--arch i386: --save-raw is a live checker option; the i386 guest's sub-buffers all go to the host anyway" ;;
		esac
		capture=0 ;;
	*)	usage_error "--arch must be x86_64 or i386, not '$arch'" ;;
	esac
	export RBTS_ARCH=$arch
	if [ "$job" = faults ]; then
		[ -n "$faults" ] || faults=${all_faults// /,}
		local f
		for f in ${faults//,/ }; do
			case " $all_faults mixed " in
			*" $f "*) ;;
			*) usage_error "--faults: unknown scenario '$f' (have: $all_faults mixed)" ;;
			esac
		done
		extra_append="$extra_append rbts.faults=$faults"
		capture=0
	fi
	case "$clock" in local|global|counter|perf|mono|mono_raw|boot) ;;
	*) usage_error "--clock must be local, global, counter, perf, mono, mono_raw or boot, not '$clock'" ;; esac
	[[ "$mod" =~ ^[a-z_0-9=,]*$ ]] || usage_error "--mod takes name=value[,name=value...], not '$mod'"
	# common.sh was read before the options: take the variant's paths now.
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

# Boot one guest with the current options into results/<run-id>; print the verdict.
boot_and_verify() {
	local id out rc
	id=$(date +%Y%m%d-%H%M%S)-$$
	out=$TOP/results/$id
	mkdir -p "$out"
	ln -sfn "$id" "$TOP/results/latest"
	[ "$accel" = auto ] && accel=$("$TOP/images/probe-accel.sh")
	info "booting: $accel, $cpus CPU(s), clock $clock, kernel ${RBTS_VARIANT:-default}${extra_append:+, $extra_append}, verifying for ${duration}s"
	local runs=1 slack=180
	[ "$job" != faults ] || runs=$(echo "${faults//,/ }" | wc -w)
	[ "$debug" = 0 ] || slack=600	# KASAN and lockdep under TCG, the startup test
	case " $boot_extra " in *" --singlestep "*) slack=600 ;; esac
	rc=0
	"$TOP/images/boot.sh" --accel "$accel" --cpus "$cpus" --out "$out" $boot_extra \
		--timeout $(( duration * runs + capture + slack )) \
		--append "rbts.job=$job rbts.duration=$duration rbts.clock=$clock rbts.capture=$capture ${mod:+rbts.mod=$mod} $extra_append" || rc=$?
	if [ "$rc" != 0 ]; then
		echo "VERDICT: FAIL (the guest hung or crashed; results in ${out#$TOP/})"
		echo FAIL > "$out/verdict.txt"
		return 3
	fi
	rc=0
	"$TOP/images/collect-verdict.sh" "$out" || rc=$?
	if [ "$job" = faults ] && [ "$rc" -le 1 ]; then
		echo
		echo "fault scenarios (each verified live while the fault was injected):"
		"$TOP/images/faults-table.py" "$out" || { [ $? = 1 ] && rc=1 || rc=2; }
		[ "$rc" = 0 ] && echo PASS > "$out/verdict.txt" || echo FAIL > "$out/verdict.txt"
		echo "VERDICT: $(cat "$out/verdict.txt")  (faults and kernel log; table in ${out#$TOP/}/faults/faults.md)"
	fi
	[ ! -f "$out/stopped" ] || echo "(stopped early from the host: the verdict covers what was read)"
	return $rc
}

cmd_run() {
	parse_run_opts "$@"
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
	extra_append="$extra_append rbts.keepfailing=1"
	[ "$keep_going" = 1 ] || extra_append="$extra_append rbts.stoponfail=1"
	boot_extra="$boot_extra --stop-button"
	cmd_build
	boot_and_verify || rc=$?
	"$TOP/images/plot-deltas.sh" "$TOP/results/latest" || true
	return $rc
}

# Every fault scenario in turn, each verified live while it is injected.
cmd_faults() {
	duration=20
	parse_run_opts --job faults "$@"
	cmd_build
	boot_and_verify
}

cmd_test() {
	local full=0
	while [ $# -gt 0 ]; do
		case "$1" in
		--full)		full=1; shift ;;
		-h|--help)	echo "usage: ./run.sh test [--full]"; exit 0 ;;
		*)		usage_error "test: unknown option '$1'" ;;
		esac
	done
	cmd_build
	RBTS_FULL=$full "$TOP/images/run-tests.sh"
}

# bench kernels: vanilla 6.1.192, our series (64- and 32-bit rb_time_t), or
# vanilla against another series; see images/bench-kernels.sh.
cmd_bench_kernels() {
	local reps=3 dur=10 icount= threshold= series= id out name
	while [ $# -gt 0 ]; do
		case "$1" in
		--reps)		reps=${2:-}; shift 2 || usage_error "--reps needs a value" ;;
		--duration)	dur=${2:-}; shift 2 || usage_error "--duration needs a value" ;;
		--icount)	icount=${2:-}; shift 2 || usage_error "--icount needs a shift (0-9)" ;;
		--threshold)	threshold=${2:-}; shift 2 || usage_error "--threshold needs a percentage" ;;
		--series)	series=${2:-}; shift 2 || usage_error "--series needs a directory" ;;
		*)		usage_error "bench kernels: unknown option '$1'" ;;
		esac
	done
	[[ "$reps" =~ ^[1-9][0-9]?$ ]] || usage_error "--reps must be 1 to 99, not '$reps'"
	[[ "$dur" =~ ^[1-9][0-9]{0,3}$ ]] || usage_error "--duration must be 1 to 9999 seconds, not '$dur'"
	[ -z "$icount" ] || [[ "$icount" =~ ^[0-9]$ ]] || usage_error "--icount takes a shift of 0 to 9, not '$icount'"
	[ -z "$threshold" ] || [[ "$threshold" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
		usage_error "--threshold must be a percentage, not '$threshold'"
	if [ -n "$series" ]; then
		[ -f "$series/series" ] || usage_error "--series $series: no 'series' file there"
		series=$(cd "$series" && pwd)
	fi
	cmd_setup
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	local kernels=("vanilla:vanilla:$(vanilla_series):default")
	if [ -n "$series" ]; then
		name=$(basename "$series" | tr -c 'a-zA-Z0-9_.\n-' '_')
		case "$name" in series*) ;; *) name=series-$name ;; esac
		[ "$name" != series-64 ] && [ "$name" != series-32 ] || name=$name-candidate
		kernels+=("$name:$name:$series:default")
	else
		kernels+=("series-64::$TOP/kernel-patches:default" "series-32::$TOP/kernel-patches:rb-time-32")
	fi
	id=$(date +%Y%m%d-%H%M%S)
	out=$TOP/results/bench-kernels-$id
	info "bench kernels: ${kernels[*]%%:*}; $reps repetition(s), ${dur}s of stress each${icount:+, -icount shift=$icount}"
	"$TOP/images/bench-kernels.sh" "$out" "$reps" "$dur" "$icount" "$threshold" "${kernels[@]}"
}

cmd_bench() {
	local what=${1:-} dur=240 reps=3 recapture=0 dat id out rc
	case "$what" in
	kernels)	shift; cmd_bench_kernels "$@"; return ;;
	checker)	;;
	*)		usage_error "bench: say what to bench: 'checker' or 'kernels'" ;;
	esac
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		--duration)	dur=${2:-}; shift 2 || usage_error "--duration needs a value" ;;
		--reps)		reps=${2:-}; shift 2 || usage_error "--reps needs a value" ;;
		--recapture)	recapture=1; shift ;;
		*)		usage_error "bench checker: unknown option '$1'" ;;
		esac
	done
	[[ "$dur" =~ ^[0-9]+$ ]] && [ "$dur" -ge 1 ] || usage_error "--duration must be a number of seconds"
	[[ "$reps" =~ ^[1-9][0-9]*$ ]] || usage_error "--reps must be a positive number"
	cmd_build
	dat=$BUILD/bench/trace.dat
	id=$(date +%Y%m%d-%H%M%S)
	if [ ! -s "$dat" ] || [ "$recapture" = 1 ]; then
		[ "$accel" = auto ] && accel=$("$TOP/images/probe-accel.sh")
		out=$TOP/results/bench-capture-$id
		info "recording ${dur}s of stress with trace-cmd in the guest (once; kept in ${dat#$TOP/})"
		rc=0
		"$TOP/images/boot.sh" --accel "$accel" --cpus "$cpus" --out "$out" --mem 4G --disk 3G \
			--timeout $(( dur + 300 )) --append "rbts.job=capture rbts.duration=$dur rbts.bufkb=16384" || rc=$?
		[ "$rc" = 0 ] && [ -s "$out/trace.dat" ] || die "bench capture failed (see ${out#$TOP/}/console.log)"
		mkdir -p "$BUILD/bench"
		mv "$out/trace.dat" "$dat"
	fi
	"$TOP/images/bench-checker.sh" "$dat" "$TOP/results/bench-checker-$id" "$reps"
}

# The kernel's ftrace selftests (curated subset) on vanilla and on our
# series: identical results, case by case; see images/selftests-kernels.sh.
cmd_selftests() {
	local timeout=120 out
	while [ $# -gt 0 ]; do
		case "$1" in
		--timeout)	timeout=${2:-}; shift 2 || usage_error "--timeout needs a value" ;;
		-h|--help)	usage; exit 0 ;;
		*)		usage_error "selftests: unknown option '$1'" ;;
		esac
	done
	[[ "$timeout" =~ ^[1-9][0-9]{0,3}$ ]] || usage_error "--timeout must be 1 to 9999 seconds, not '$timeout'"
	cmd_setup
	make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	out=$TOP/results/selftests-$(date +%Y%m%d-%H%M%S)
	"$TOP/images/selftests-kernels.sh" "$out" "$timeout"
}

# rbmodel on the tree's own RB_TIME_32 code: extracted at build time.
cmd_model() {
	case "${1:-}" in -h|--help) usage; exit 0 ;; esac
	cmd_setup
	"$TOP/images/prepare-tree.sh"
	make -s -C "$TOP/userspace-checker/model" O="$BUILD/model" KSRC="$SRC"
	"$BUILD/model/rbmodel" "$@"
}

cmd_report() {
	local id=${1:-latest} dir dat
	[ $# -le 1 ] || usage_error "report takes one RUN-ID"
	dir=$TOP/results/$id
	[ -d "$dir" ] || usage_error "report: no run '$id' in results/ (have: $(ls "$TOP/results" 2>/dev/null | tail -n 3 | tr '\n' ' '))"
	dat=$dir/trace.dat
	[ -s "$dat" ] || die "report: run '$id' has no trace.dat (runs with --capture 0 or --job other than stress have none)"
	cmd_setup
	[ -x "$CHECKOUT/rbcheck" ] || make -s -C "$TOP/userspace-checker" O="$CHECKOUT"
	info "trace-cmd report ${dat#$TOP/} (first events; full output: trace-cmd report $dat)"
	# awk reads to the end, so trace-cmd never dies of SIGPIPE under pipefail
	trace-cmd report "$dat" 2>/dev/null | awk 'NR <= 12' || true
	info "trace-cmd report --ts-check (warns where a CPU's time stamps go backwards)"
	trace-cmd report --ts-check "$dat" > "$dir/ts-check.txt" 2>&1 || true
	local warn drops events
	# trace-cmd prints one "WARNING: Record on cpu N went backwards" line
	# per offence; every other line is an event (of any system) or header.
	warn=$(grep -c 'went backwards' "$dir/ts-check.txt" || true)
	events=$(grep -c 'rbstress_event' "$dir/ts-check.txt" || true)
	drops=$(awk 'match($0, /[0-9]+ EVENTS DROPPED/) { n += substr($0, RSTART, RLENGTH) + 0 }
		END { print n + 0 }' "$dir/ts-check.txt")
	if [ "${warn:-0}" -gt 0 ]; then
		echo "ts-check: FAIL, $warn warning(s):"
		awk '/went backwards/ && n++ < 5' "$dir/ts-check.txt"
	else
		echo "ts-check: PASS, no time stamp went backwards ($events rbstress events)"
	fi
	echo "events dropped during the capture (reported by the buffer): $drops"
	info "nesting stacks (rbcheck stacks; each outer event, then what landed in its window)"
	"$CHECKOUT/rbcheck" stacks --max 4 "$dat" || true
	echo
	echo "To browse it: apt-get install kernelshark; kernelshark ${dat#$TOP/}"
}

sub=${1:-run}
case "$sub" in
-*)		sub=run ;;
*)		shift ;;
esac
case "$sub" in
run)		cmd_run "$@" ;;
soak)		cmd_soak "$@" ;;
faults)		cmd_faults "$@" ;;
test)		cmd_test "$@" ;;
bench)		cmd_bench "$@" ;;
report)		cmd_report "$@" ;;
selftests)	cmd_selftests "$@" ;;
model)		cmd_model "$@" ;;
build)		[ $# -eq 0 ] || usage_error "build takes no options"; cmd_build ;;
setup)		[ $# -eq 0 ] || usage_error "setup takes no options"; cmd_setup ;;
help)		usage ;;
*)		usage_error "unknown command '$sub'" ;;
esac
