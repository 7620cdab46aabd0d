#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A finding's rate before and after its fix: RUNS runs of its reproducer
# (images/findings.json) on each kernel, one ./run.sh each, then judged by
# images/reproduce.py into OUT/summary.json.  The kernels: our series
# without the fix (before) and our series (after); a finding with no
# kernel fix (open, or explained: the harness's own) has only our series.
#
# usage: images/reproduce.sh FINDING LINE RUNS OUT [before|after|vanilla]
#        (vanilla: only the natural rate, on the line's vanilla kernel)
# exit:  0 the fix holds (after: 0 hits) and, before it, the reproducer
#        hit; 1 a run after the fix hit; 4 the reproducer never hit
#        before the fix (not reproduced); a finding with no kernel fix: 0
#        once its runs are done, whatever they found; 2 usage
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 4 ] && [ $# -le 5 ] || die "usage: reproduce.sh FINDING LINE RUNS OUT [before|after|vanilla]"
finding=$1 line=$2 runs=$3 out=$4 only=${5:-}
py=$TOP/images/reproduce.py
kernels=$("$py" kernels "$finding") || exit 2
if [ -n "$only" ]; then
	case " $kernels vanilla " in *" $only "*) kernels=$only ;;
	*) printf 'error: finding %s has no %s kernel (it has: %s)\n' "$finding" "$only" "$kernels" >&2; exit 2 ;;
	esac
fi
mkdir -p "$out"
: > "$out/runs.txt"

for kernel in $kernels; do
	mapfile -t args < <("$py" args "$finding" "$line" "$kernel")
	[ ${#args[@]} -gt 0 ] || exit 2
	echo "./run.sh ${args[*]}" > "$out/command-$kernel"
	for i in $(seq 1 "$runs"); do
		case $kernel in
		vanilla) what="vanilla (natural rate)" ;;
		*) [ "$kernels" = before ] && what="our series (no kernel fix)" || what="$kernel the fix" ;;
		esac
		info "reproduce $finding on $line, $what: run $i of $runs: ./run.sh ${args[*]}"
		# The run names its own results directory: results/latest may be
		# another run's, when runs overlap on this machine.
		rc=0
		rm -f "$out/run-id"
		RBTS_RUN_ID_FILE=$out/run-id "$TOP/run.sh" run "${args[@]}" > "$out/$kernel-$i.log" 2>&1 || rc=$?
		# none: a run that stopped before it had a results directory
		id=$(cat "$out/run-id" 2>/dev/null || echo none)
		tail -n 1 "$out/$kernel-$i.log" | sed 's/^/  /'
		echo "$kernel $id $rc" >> "$out/runs.txt"
	done
done

rc=0
"$py" judge "$finding" "$line" "$out" > "$out/summary.txt" || rc=$?
cat "$out/summary.txt"
exit $rc
