#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: negative control: legacy nested time stamps (delta 0) must FAIL, on nested-delta
. "$(dirname "$0")/../lib.sh"
boot --duration 15 --legacy-nested-ts
[ "$rc" = 1 ] && ok "legacy run is reported as FAIL (exit 1)" || not_ok "legacy run is reported as FAIL (exit $rc)"
[ "$(rule_verdict nested-delta)" = FAIL ] && ok "it FAILs on nested-delta" ||
	not_ok "it FAILs on nested-delta: $(rule_verdict nested-delta)"
[ "$(verdict_field checks.1.verdict)" = FAIL ] && [ -n "$(verdict_field unexplained)" ] &&
	ok "verdict.json: the checker FAILs, explained by no known finding" ||
	not_ok "verdict.json: the checker FAILs, explained by no known finding"
grep -q "(delta 0)" "$res/result.json" 2>/dev/null &&
	ok "the zero-delta nested events are shown" || not_ok "the zero-delta nested events are shown"
