#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: run.sh: bare and --dry-run plans, every --help, bad flags exit 2
#
# ./run.sh's own command line: each bad flag must exit 2 with a line that
# says what is wrong (and where to look), before anything is built or booted.
#
# output: TAP lines
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)

. "$top/images/tap.sh"

# bad PATTERN ARGS...: exit 2, the first stderr line matches PATTERN
bad() {
	local pattern=$1 rc err
	shift
	rc=0
	err=$(timeout 60 "$top/run.sh" "$@" 2>&1 >/dev/null) || rc=$?
	# the first line, without a pipe: under pipefail 'echo | head' can die
	# of SIGPIPE and fail a match that succeeded
	if [ "$rc" = 2 ] && grep -qE -- "^run.sh: .*$pattern" <<< "${err%%$'\n'*}"; then
		ok "run.sh $*: exit 2, says '$pattern'"
	else
		not_ok "run.sh $*: exit $rc, expected 2 and '$pattern': $(echo "$err" | head -n2 | tr '\n' ' ')"
	fi
}

bad "unknown command 'frob'" frob
bad "unknown option '--frob'" --frob
# a seeded fault is checked before a tree is prepared or a kernel built
bad "--seed-fault: no seeded fault 'bogus'" --seed-fault bogus --dry-run
bad "--seed-fault goes on our series, not --vanilla" --seed-fault f-always-delta-zero --vanilla --dry-run
bad "--seed-fault needs a fault" --seed-fault
bad "detection: unknown option '--frob'" detection --frob
bad "detection: --faults: no seeded fault 'bogus'" detection --faults bogus
bad "detection: --duration must be 1 to 3600 seconds, not '0'" detection --duration 0
bad "detection: argument --kernel: expected one argument" detection --kernel
bad "--cpus must be 1 to 8, not '9'" --cpus 9
bad "--accel must be auto, kvm or tcg, not 'xen'" --accel xen
bad "--single-thread is a TCG mode: not with --accel kvm" --single-thread --accel kvm
bad "--duration must be a whole number" --duration 1x
bad "--clock must be one of: local global counter perf mono mono_raw boot uptime; not 'wallclock'" --clock wallclock
bad "--job must be stress, params, rmmod, faults, drain, textpoke, not 'nap'" --job nap
bad "--faults: unknown scenario 'flood'" --faults resize,flood
bad "--arch must be x86_64 or i386, not 'arm64'" --arch arm64
bad "--arch i386: the fault scenarios need the live checker" --arch i386 --faults resize
bad "--arch i386 cannot be combined with --rb-time-32" --arch i386 --debug
bad "--arch i386: --save-raw is a live checker option" --arch i386 --save-raw
bad "--singlestep is a TCG mode: not with --accel kvm" --singlestep --accel kvm
bad "--rb-time-32 and --debug cannot be combined" --rb-time-32 --debug
bad "--timeout must be 1 to 9999 seconds, not '0'" selftests --timeout 0
bad "selftests: unknown option '--frob'" selftests --frob
bad "report: no run 'no-such-run'" report no-such-run
bad "bench: say what to bench" bench
bad "test: unknown option '--quick'" test --quick
bad "test: -t needs a test name" test -t
# ... and refused before the package step: a dpkg-query or apt-get here
# would leave its mark (issue 43: a fresh machine's first two commands)
fake=$(mktemp -d)
for n in dpkg-query apt-get dpkg; do
	printf '#!/bin/sh\ntouch "%s/touched"\nexit 1\n' "$fake" > "$fake/$n"
	chmod +x "$fake/$n"
done
for args in "-t" "-t no-such-test" "--quick" "--kernel 5.4"; do
	# shellcheck disable=SC2086
	rc=0; PATH="$fake:$PATH" timeout 60 "$top/run.sh" test $args >/dev/null 2>&1 || rc=$?
	if [ "$rc" = 2 ] && [ ! -e "$fake/touched" ]; then
		ok "run.sh test $args: exit 2 before the package manager is asked"
	else
		not_ok "run.sh test $args: exit $rc, package manager touched: $([ -e "$fake/touched" ] && echo yes || echo no)"
	fi
	rm -f "$fake/touched"
done
rm -rf "$fake"
bad "--plan /nonexistent/x.json: no directory /nonexistent" --plan /nonexistent/x.json
bad "build: unknown option '--frob'" build --frob
bad "--kernel: no line '5.4'" --kernel 5.4
bad "report: unknown option '--frob'" report --frob
bad "--kernel: no line '5.4'" report --kernel 5.4
bad "kernel line 6.12 has no rb-time-32 variant" --kernel 6.12 --rb-time-32
bad "model: kernel line 6.12 has no rb-time-32 variant" model --kernel 6.12
# the models' own options, checked before a tree is extracted and patched
bad "model: --depth: not a number from 1 to 5: 'abc'\$" model --depth abc
bad "model: --jobs: not a number from 1 to 64: '99'" model --reserve --jobs 99
bad "model: --ops: one number per level, but --depth says '3'" model --reserve --ops 1,2 --depth 3
bad "model: unknown option '--frob'" model --reserve --frob
bad "--kernel: kernel line '5.4' is not in images/kernel/lines.table" selftests --kernel 5.4
bad "--kernels: 'foo' is not NAME=SPEC, vanilla-LINE, series-LINE, series-LINE-32 or without-LINE-NNNN" bench kernels --kernels vanilla-6.1,foo
bad "--kernels without-6.1-9999: no fix 9999 in kernel-patches/6.1/fixes" bench kernels --kernels series-6.1,without-6.1-9999
bad "--kernels: 'without-6.1' is not without-LINE-NNNN" bench kernels --kernels series-6.1,without-6.1
bad "--kernels series-6.12-32: kernel line 6.12 has no rb-time-32 variant" bench kernels --kernels vanilla-6.1,series-6.12-32
bad "--kernels: at least two kernels to compare" bench kernels --kernels vanilla-6.12
bad "subbufkb=12: subbufkb must be one of" --subbuf-kb 12
bad "subbufkb=8: kernel line 6.1 has no subbuf-size \\(only subbufkb=4\\); lines with it: 6.12" --subbuf-kb 8
bad "--reader-delay-us must be 1 to 10000 microseconds, not '0'" --reader-delay-us 0
bad "--reader-delay-us must be 1 to 10000 microseconds, not '20000'" --reader-delay-us 20000
bad "--discard-delay-us must be 1 to 10000 microseconds, not 'x'" --discard-delay-us x
bad "--shrink-delay-us must be 1 to 10000 microseconds, not '10001'" --shrink-delay-us 10001
bad "--without takes fix numbers like 0004 or 0004,0005, not '8'" --without 8
bad "--without: no fix 0042 in kernel-patches/6.12/fixes" --kernel 6.12 --without 0042
bad "--vanilla has no patches to go --without" --vanilla --without 0004
bad "--vanilla: the kernel has none of our test parameters" --vanilla --reader-delay-us 100
bad "--vanilla: the kernel has none of our test parameters" --vanilla --discard-delay-us 100
bad "--vanilla: the kernel has none of our test parameters" --vanilla --shrink-delay-us 100
bad "--clock-delay-us must be 1 to 10000 microseconds, not '-1'" --clock-delay-us -1
bad "--nest-delay-us must be 1 to 10000 microseconds, not '10001'" --nest-delay-us 10001
bad "reproduce needs a FINDING" reproduce
bad "reproduce: unknown option '--frob'" reproduce b --frob
bad "--only must be before or after, not 'x'" reproduce b --only x

# The README's first command is bare ./run.sh: it must mean run.  Its plan
# (--dry-run: nothing installed, built or booted) says so and exits 0.
plan() {	# WHAT PATTERN ARGS...: exit 0 and the plan matches PATTERN
	local what=$1 pattern=$2 rc out
	shift 2
	rc=0
	out=$(timeout 60 "$top/run.sh" "$@" 2>&1) || rc=$?
	# the plan as one line: PATTERN may span its lines
	if [ "$rc" = 0 ] && echo "$out" | tr '\n' ' ' | grep -qE -- "$pattern"; then
		ok "run.sh $*: $what"
	else
		not_ok "run.sh $*: $what: exit $rc: $(echo "$out" | head -n 3 | tr '\n' ' ')"
	fi
}
plan "bare run.sh is run: its plan boots the stress job" "^plan: ./run.sh run.*guest +rbts.job=stress " --dry-run
plan "the default kernel is 6.1 with our series" "kernel +6.1:ours:default:x86_64: 6.1.192" --dry-run
plan "--kernel 6.12: 6.12.118 with its own series" "kernel +6.12:ours:default:x86_64: 6.12.118 .*kernel-patches/6.12/series" --kernel 6.12 --dry-run
plan "--subbuf-kb reaches the guest" "rbts.subbufkb=16" --kernel 6.12 --subbuf-kb 16 --dry-run
plan "--debug names the debug kernel and panic_on_warn" "kernel-6.1-x86_64-debug/.*panic_on_warn=1" --debug --dry-run
plan "--arch i386 drains to the host" "6.1:ours:default:i386.*rbts.job=drain" --arch i386 --dry-run
plan "--without: our series less that fix, in a tree of its own" "kernel +6.12:.*/build/without-6.12-0004:default:x86_64" --kernel 6.12 --without 0004 --dry-run
plan "--reader-delay-us reaches the kernel" "ring_buffer_reader_delay_us=500" --reader-delay-us 500 --dry-run
plan "--discard-delay-us reaches the kernel" "ring_buffer_discard_delay_us=700" --discard-delay-us 700 --dry-run
plan "--shrink-delay-us reaches the kernel" "ring_buffer_shrink_delay_us=900" --shrink-delay-us 900 --dry-run
plan "--clock-delay-us reaches the kernel" "ring_buffer_clock_delay_us=5000" --clock-delay-us 5000 --dry-run
plan "--nest-delay-us reaches the kernel" "ring_buffer_nest_delay_us=10000" --nest-delay-us 10000 --dry-run
plan "--tsc-unstable reaches the kernel" "tsc=unstable" --tsc-unstable --dry-run
plan "--vanilla: the line's tree without our series" "kernel +6.1:vanilla:default:x86_64" --vanilla --dry-run
plan "soak stops at the first violation" "rbts.stoponfail=1" soak --dry-run
plan "soak --debug stops at the first kernel warning" "panic_on_warn=1" soak --debug --dry-run
# soak --keep-going goes on past a kernel warning as past a violation: the
# verdict judges the whole log (a warning no known finding explains FAILs)
out=$(timeout 60 "$top/run.sh" soak --debug --keep-going --dry-run 2>&1)
if grep -q "acpi=noirq" <<< "$out" && ! grep -q "panic_on_warn" <<< "$out"; then
	ok "run.sh soak --debug --keep-going: no panic_on_warn"
else
	not_ok "run.sh soak --debug --keep-going: no panic_on_warn: $(grep -o 'panic_on_warn[^ ]*' <<< "$out")"
fi
plan "faults plans every scenario" "rbts.faults=$(PYTHONPATH=$top/images python3 -m rbts.settings --default faults) " faults --dry-run

# Every command answers --help with its own usage, and exit 0.
for cmd in "" run soak faults test "bench" "bench kernels" "bench checker" selftests model report build setup detection; do
	rc=0
	out=$(timeout 60 "$top/run.sh" $cmd --help 2>&1) || rc=$?
	want="usage: ./run.sh${cmd:+ $cmd}"
	[ -n "$cmd" ] || want="usage: ./run.sh \[COMMAND\]"
	[ "$cmd" != run ] || want="usage: ./run.sh \[run\]"
	if [ "$rc" = 0 ] && grep -qE -- "^$want" <<< "${out%%$'\n'*}"; then
		ok "run.sh ${cmd:+$cmd }--help: its own usage, exit 0"
	else
		not_ok "run.sh ${cmd:+$cmd }--help: exit $rc, first line '$(echo "$out" | head -n1)'"
	fi
done

# The guest's settings are checked against images/guest/settings.table.
bad "mod=foo: mod takes NAME=VALUE" --mod foo
bad "mod=bogus_param=5: mod names no rbstress parameter 'bogus_param'" --mod bogus_param=5 --dry-run
bad "capture=9999: capture must be a whole number from 0 to 3600" --capture 9999
ga() { PYTHONPATH=$top/images python3 -m rbts.settings "$@"; }
[ "$(ga job=faults faults=resize,mixed saveraw=1)" = "rbts.job=faults rbts.faults=resize,mixed rbts.saveraw=1" ] &&
	ok "settings: settings become rbts.* words" || not_ok "settings: settings become rbts.* words"
for arg in job=nap duration=0 clock=wall saveraw=2 faults=flood faults= bufkb=x fttimeout=10000 nope=1 job; do
	rc=0; err=$(ga "$arg" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 2 ] && [ "$(echo "$err" | wc -l)" = 1 ] && ok "settings: '$arg' refused in one line: $err" ||
		not_ok "settings: '$arg': exit $rc: $err"
done
[ "$(ga --values clock)" = "local global counter perf mono mono_raw boot uptime" ] &&
	ok "settings: the clock names come from the table" || not_ok "settings: --values clock: $(ga --values clock)"

# The guest's contract: every job the settings table allows has its script
# in images/guest/jobs/, and every script there is an allowed job.
jobs_table=$(ga --values job | tr ' ' '\n' | sort | tr '\n' ' ')
jobs_files=$(ls "$top/images/guest/jobs" | sed 's/\.sh$//' | sort | tr '\n' ' ')
[ "$jobs_table" = "$jobs_files" ] && ok "guest jobs: the table's and images/guest/jobs/ agree: $jobs_table" ||
	not_ok "guest jobs: the table says '$jobs_table', images/guest/jobs/ has '$jobs_files'"
