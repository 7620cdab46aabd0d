#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A run's trace.dat through the host's trace-cmd, for './run.sh report':
# the first events with the module's fields decoded, trace-cmd report
# --ts-check (its "went backwards" warnings counted, ts-check.txt kept in
# the run), the drops the buffer reported, and rbcheck's nesting stacks.
#
# usage: images/report-run.sh RESULTS-DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=${1:?usage: report-run.sh RESULTS-DIR}
dat=$dir/trace.dat
info "trace-cmd report ${dat#$TOP/} (first events; full output: trace-cmd report $dat)"
# awk reads to the end, so trace-cmd never dies of SIGPIPE under pipefail
trace-cmd report "$dat" 2>/dev/null | awk 'NR <= 12' || true
info "trace-cmd report --ts-check (warns where a CPU's time stamps go backwards)"
trace-cmd report --ts-check "$dat" > "$dir/ts-check.txt" 2>&1 || true
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
