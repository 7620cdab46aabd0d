#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ./run.sh's own command line: each bad flag must exit 2 with a line that
# says what is wrong (and where to look), before anything is built or booted.
#
# usage: images/test-run-cli.sh        output: TAP lines
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/tap.sh"

# bad PATTERN ARGS...: exit 2, the first stderr line matches PATTERN
bad() {
	local pattern=$1 rc err
	shift
	rc=0
	err=$(timeout 60 "$top/run.sh" "$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" = 2 ] && echo "$err" | head -n1 | grep -qE -- "^run.sh: .*$pattern"; then
		ok "run.sh $*: exit 2, says '$pattern'"
	else
		not_ok "run.sh $*: exit $rc, expected 2 and '$pattern': $(echo "$err" | head -n2 | tr '\n' ' ')"
	fi
}

bad "unknown command 'frob'" frob
bad "unknown option '--frob'" --frob
bad "--cpus must be 1 to 8, not '9'" --cpus 9
bad "--accel must be auto, kvm or tcg, not 'xen'" --accel xen
bad "--duration must be a whole number" --duration 1x
bad "--clock must be" --clock wallclock
bad "--job must be stress, params, rmmod, faults or drain, not 'nap'" --job nap
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
