#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: soak: the legacy kernel stops at the first violation and keeps its sub-buffers
. "$(dirname "$0")/../lib.sh"
log=$LOGS/soak-legacy.log
rc=0
rbts soak --duration 120 --legacy-nested-ts > "$log" 2>&1 || rc=$?
res=$(readlink -f "$TOP/results/latest")
[ "$rc" = 1 ] && ok "legacy soak is reported as FAIL (exit 1)" || not_ok "legacy soak is reported as FAIL (exit $rc, see $res)"
grep -q "stopping at the first violation" "$(rfile console.log)" 2>/dev/null &&
	ok "it stopped at the first violation" || not_ok "it stopped at the first violation"
if [ -s "$(rfile violation-raw/meta)" ]; then
	vrc=0
	"$CHECKOUT/rbcheck" verify "$(rfile violation-raw)" > "$LOGS/violation.log" 2>&1 || vrc=$?
	[ "$vrc" = 1 ] && ok "the kept sub-buffers FAIL again offline: $(grep -m1 'FAIL' "$LOGS/violation.log" | tr -s ' ')" ||
		not_ok "the kept sub-buffers FAIL again offline (exit $vrc)"
else
	not_ok "the sub-buffers around the violation are kept in violation-raw/"
fi
vrc=0
"$CHECKOUT/rbcheck" verify "$(rfile violation.dat)" > "$LOGS/violation.log" 2>&1 || vrc=$?
[ "$vrc" = 1 ] && ok "violation.dat (trace-cmd restore of those sub-buffers) FAILs offline" ||
	not_ok "violation.dat FAILs offline (exit $vrc: $(tail -n1 "$LOGS/violation.log"))"
trace-cmd report "$(rfile violation.dat)" > "$LOGS/violation-report.txt" 2>/dev/null
grep -qE 'rbstress_event: +ctx=' "$LOGS/violation-report.txt" &&
	ok "trace-cmd report decodes violation.dat" || not_ok "trace-cmd report decodes violation.dat"
for f in summary.txt result.json result.ktap verdict.json console.log deltas.png; do
	[ -s "$(rfile "$f")" ] && ok "soak wrote $f" || not_ok "soak wrote $f"
done
