#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the default stress on our series PASSes complete: the line's own kernel, nested four deep, every time stamp path the line counts reached (coverage.table), verified live and offline; ./run.sh report on it
# rbts-test: lines all
. "$(dirname "$0")/../lib.sh"
kspec_load "$LINE:ours:default:x86_64"
# The default length: coverage is judged from 60 s on (images/coverage.table).
boot --kernel "$LINE" --save-raw
must_pass "$LINE: stress run PASSes, complete (not 'PASS (incomplete)', exit 4)"
[ "$(verdict_field kernel.version)" = "$KERNEL_VERSION" ] &&
	grep -q "Linux version $KERNEL_VERSION " "$(rfile dmesg.txt)" 2>/dev/null &&
	ok "$LINE: the guest ran $KERNEL_VERSION (verdict.json and its dmesg)" ||
	not_ok "$LINE: the guest ran $KERNEL_VERSION: verdict.json says '$(verdict_field kernel.version)'"
coverage_taps
# A line's series counts the A-C outcomes of its own code, and read_failed
# only where the line has the 32-bit rb_time_t (verdict.py: path-counters).
[ "$(check_verdict path-counters)" = PASS ] &&
	ok "$LINE: the kernel counts its line's paths (verdict.json path-counters)" ||
	not_ok "$LINE: the kernel's path counters are its line's: $(check_verdict path-counters)"
left=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fast_path"]["left_fast_path"])' \
	"$(rfile result.json)" 2>/dev/null)
[ "$left" = 0 ] && ok "$LINE: every event that interrupted nobody's time update kept the fast path" ||
	not_ok "$LINE: events that interrupted nobody's time update left the fast path: ${left:-unknown}"
nested_taps "$LINE: "
deep=$(result_field four_deep)
[ "${deep:-0}" -gt 0 ] && ok "$LINE: four-deep stacks (nmi in irq in softirq in normal): $deep" ||
	not_ok "$LINE: four-deep stacks (nmi in irq in softirq in normal): ${deep:-none}"
src=$(awk '$1 == "nmi_source" { print $2 }' "$(rfile module-stats.txt)" 2>/dev/null)
[ -n "$src" ] && [ "$src" != none ] && ok "$LINE: NMI source in use: $src" ||
	not_ok "$LINE: NMI source in use: ${src:-unknown}"
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "$LINE: kernel slow path A-C hit (every ending): $t" || not_ok "$LINE: kernel slow path A-C hit: none"
t=$(path_total "before_stamp!=write_stamp")
[ "${t:-0}" -gt 0 ] && ok "$LINE: kernel path 'before_stamp!=write_stamp' hit: $t" ||
	not_ok "$LINE: kernel path 'before_stamp!=write_stamp' hit: ${t:-no counter}"
[ -s "$(rfile trace.dat)" ] && ok "$LINE: trace.dat captured in the guest" || not_ok "$LINE: trace.dat captured in the guest"
[ "$(check_verdict offline)" = PASS ] && ok "$LINE: trace.dat verifies offline on the host" ||
	not_ok "$LINE: trace.dat verifies offline on the host: $(check_verdict offline)"
[ "$(check_verdict live-vs-offline)" = PASS ] && ok "$LINE: live and offline verdicts agree on the same sub-buffers" ||
	not_ok "$LINE: live and offline verdicts agree on the same sub-buffers: $(check_verdict live-vs-offline)"
other_dat_taps "$LINE, global clock: "
[ -s "$(rfile result.ktap)" ] && head -n1 "$(rfile result.ktap)" | grep -q "^KTAP version 1" &&
	ok "$LINE: result.ktap written" || not_ok "$LINE: result.ktap written"

# ./run.sh report on that run: trace-cmd's view of the same capture.
rrc=0
rbts report "$(basename "$res")" > "$LOGS/report-$LINE.log" 2>&1 || rrc=$?
[ "$rrc" = 0 ] && ok "$LINE: report exits 0" || not_ok "$LINE: report exits 0 (exit $rrc)"
grep -qE 'rbstress_event: +ctx=(normal|softirq|irq|nmi) ' "$LOGS/report-$LINE.log" &&
	ok "$LINE: trace-cmd report decodes the module's fields (ctx by name)" ||
	not_ok "$LINE: trace-cmd report decodes the module's fields (ctx by name)"
grep -q "^ts-check: PASS" "$LOGS/report-$LINE.log" &&
	ok "$LINE: trace-cmd report --ts-check finds no time stamp going backwards" ||
	not_ok "$LINE: trace-cmd report --ts-check: $(grep -m1 '^ts-check' "$LOGS/report-$LINE.log")"
grep -qE '^ +(softirq|irq|nmi)#[0-9]+ +ts .* ns after ' "$LOGS/report-$LINE.log" &&
	ok "$LINE: nesting stacks are printed with their deltas" ||
	not_ok "$LINE: nesting stacks are printed with their deltas"
