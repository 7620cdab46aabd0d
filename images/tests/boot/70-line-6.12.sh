#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12: the default stress PASSes complete, nested four deep; the legacy control FAILs on nested-delta; 8 and 16 KiB sub-buffers verify live and offline; 6.1 refuses them before a build
# rbts-test: line 6.12
. "$(dirname "$0")/../lib.sh"

# The default run of the second line, as long as coverage is judged.
boot --kernel 6.12 --save-raw
must_pass "6.12: stress run PASSes, complete (not 'PASS (incomplete)', exit 4)"
[ "$(verdict_field kernel.version)" = 6.12.118 ] && grep -q "Linux version 6.12.118 " "$res/dmesg.txt" 2>/dev/null &&
	ok "6.12: the guest ran 6.12.118 (verdict.json and its dmesg)" ||
	not_ok "6.12: the guest ran 6.12.118: verdict.json says '$(verdict_field kernel.version)'"
coverage_taps
nested_taps "6.12: "
deep=$(result_field four_deep)
[ "${deep:-0}" -gt 0 ] && ok "6.12: four-deep stacks (nmi in irq in softirq in normal): $deep" ||
	not_ok "6.12: four-deep stacks: ${deep:-none}"
for p in B-C A-B_delta_0 C-F_delta_0; do
	t=$(path_total "$p")
	[ "${t:-0}" -gt 0 ] && ok "6.12: A-C outcome '$p' counted: $t" || not_ok "6.12: A-C outcome '$p' counted: ${t:-none}"
done
[ -z "$(path_total read_failed | grep -v '^0$')" ] &&
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["path_counters"]; sys.exit(any("read_failed" in c or "A-C" in c for c in r))' \
		"$res/result.json" 2>/dev/null &&
	ok "6.12: no read_failed or 6.1 A-C counter (not 6.12's paths)" ||
	not_ok "6.12: counters of 6.1's code found in result.json"
[ "$(check_verdict live-vs-offline)" = PASS ] && ok "6.12: live and offline verdicts agree on the same sub-buffers" ||
	not_ok "6.12: live and offline verdicts agree: $(check_verdict live-vs-offline)"
[ "$(check_verdict offline)" = PASS ] && ok "6.12: trace.dat (trace-cmd record) verifies offline" ||
	not_ok "6.12: trace.dat verifies offline: $(check_verdict offline)"
other_dat_taps "6.12, global clock: "

# The negative control on 6.12: it must be caught, for the right reason.
boot --kernel 6.12 --duration 15 --legacy-nested-ts --capture 0
[ "$rc" = 1 ] && ok "6.12: legacy run is reported as FAIL (exit 1)" || not_ok "6.12: legacy run is reported as FAIL (exit $rc)"
[ "$(rule_verdict nested-delta)" = FAIL ] && ok "6.12: it FAILs on nested-delta" ||
	not_ok "6.12: it FAILs on nested-delta: $(rule_verdict nested-delta)"
[ -n "$(verdict_field unexplained)" ] && ok "6.12: explained by no known finding" ||
	not_ok "6.12: the legacy FAIL was taken for a known finding: $(verdict_field known)"

# Sub-buffers larger than a page (buffer_subbuf_size_kb): read and verified
# whole, live and again on the host from the raw capture.
for kb in 16 8; do
	boot --kernel 6.12 --subbuf-kb $kb --duration $((kb == 16 ? 20 : 10)) --capture 0 --save-raw
	must_pass "6.12: $kb KiB sub-buffers PASS"
	sz=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["records"]["subbuf_size"])' "$res/result.json" 2>/dev/null)
	[ "$sz" = $((kb * 1024)) ] && ok "6.12: the checker read sub-buffers of $sz bytes" ||
		not_ok "6.12: the checker read sub-buffers of ${sz:-?} bytes, not $((kb * 1024))"
	[ "$(check_verdict live-vs-offline)" = PASS ] && ok "6.12: $kb KiB: live and offline verdicts agree" ||
		not_ok "6.12: $kb KiB: live and offline verdicts agree: $(check_verdict live-vs-offline)"
done

# 6.1 has page-sized sub-buffers only: a clear error before anything is
# built or booted (lines.table: 6.1 has no subbuf-size), not a silent 4 KiB
# run.  The guest refuses it too (images/guest/lib.sh), for a command line
# made elsewhere (a lab's).
rc=0
out=$("$TOP/run.sh" run --subbuf-kb 8 --duration 5 --capture 0 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && grep -q "kernel line 6.1 has no subbuf-size" <<< "$out" &&
	ok "6.1: --subbuf-kb 8 is refused before a build (exit 2, says why)" ||
	not_ok "6.1: --subbuf-kb 8: exit $rc, $(head -n1 <<< "$out")"
