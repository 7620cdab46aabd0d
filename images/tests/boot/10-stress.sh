#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the default stress on the patched kernel PASSes complete: nested four deep, every time stamp path reached, verified live and offline; ./run.sh report on it
. "$(dirname "$0")/../lib.sh"
# The default length: coverage is judged from 60 s on (images/coverage.table).
boot --save-raw
must_pass "stress run PASSes, complete (not 'PASS (incomplete)', exit 4)"
coverage_taps
left=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fast_path"]["left_fast_path"])' \
	"$res/result.json" 2>/dev/null)
[ "$left" = 0 ] && ok "every event that interrupted nobody's time update kept the fast path" ||
	not_ok "events that interrupted nobody's time update left the fast path: ${left:-unknown}"
nested_taps ""
deep=$(result_field four_deep)
[ "${deep:-0}" -gt 0 ] && ok "four-deep stacks (nmi in irq in softirq in normal): $deep" ||
	not_ok "four-deep stacks (nmi in irq in softirq in normal): ${deep:-none}"
src=$(awk '$1 == "nmi_source" { print $2 }' "$res/module-stats.txt" 2>/dev/null)
[ -n "$src" ] && [ "$src" != none ] && ok "NMI source in use: $src" || not_ok "NMI source in use: ${src:-unknown}"
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "kernel slow path A-C hit (either ending): $t" || not_ok "kernel slow path A-C hit: none"
t=$(path_total "before_stamp!=write_stamp")
[ "${t:-0}" -gt 0 ] && ok "kernel path 'before_stamp!=write_stamp' hit: $t" ||
	not_ok "kernel path 'before_stamp!=write_stamp' hit: ${t:-no counter}"
[ -s "$res/trace.dat" ] && ok "trace.dat captured in the guest" || not_ok "trace.dat captured in the guest"
[ "$(check_verdict offline)" = PASS ] && ok "trace.dat verifies offline on the host" ||
	not_ok "trace.dat verifies offline on the host: $(check_verdict offline)"
[ "$(check_verdict live-vs-offline)" = PASS ] && ok "live and offline verdicts agree on the same sub-buffers" ||
	not_ok "live and offline verdicts agree on the same sub-buffers: $(check_verdict live-vs-offline)"
other_dat_taps "global clock: "
[ -s "$res/result.ktap" ] && head -n1 "$res/result.ktap" | grep -q "^KTAP version 1" &&
	ok "result.ktap written" || not_ok "result.ktap written"

# ./run.sh report on that run: trace-cmd's view of the same capture.
rrc=0
"$TOP/run.sh" report > "$LOGS/report.log" 2>&1 || rrc=$?
[ "$rrc" = 0 ] && ok "report exits 0" || not_ok "report exits 0 (exit $rrc)"
grep -qE 'rbstress_event: +ctx=(normal|softirq|irq|nmi) ' "$LOGS/report.log" &&
	ok "trace-cmd report decodes the module's fields (ctx by name)" ||
	not_ok "trace-cmd report decodes the module's fields (ctx by name)"
grep -q "^ts-check: PASS" "$LOGS/report.log" &&
	ok "trace-cmd report --ts-check finds no time stamp going backwards" ||
	not_ok "trace-cmd report --ts-check: $(grep -m1 '^ts-check' "$LOGS/report.log")"
grep -qE '^ +(softirq|irq|nmi)#[0-9]+ +ts .* ns after ' "$LOGS/report.log" &&
	ok "nesting stacks are printed with their deltas" ||
	not_ok "nesting stacks are printed with their deltas"
