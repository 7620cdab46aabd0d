#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: negative control: legacy nested time stamps (delta 0) must FAIL, on nested-delta, explained by no known finding
# rbts-test: lines all
. "$(dirname "$0")/../lib.sh"
boot --kernel "$LINE" --duration 15 --legacy-nested-ts --capture 0
[ "$rc" = 1 ] && ok "$LINE: legacy run is reported as FAIL (exit 1)" ||
	not_ok "$LINE: legacy run is reported as FAIL (exit $rc)"
[ "$(rule_verdict nested-delta)" = FAIL ] && ok "$LINE: it FAILs on nested-delta" ||
	not_ok "$LINE: it FAILs on nested-delta: $(rule_verdict nested-delta)"
[ "$(check_verdict checker)" = FAIL ] && [ -n "$(verdict_field unexplained)" ] &&
	ok "$LINE: verdict.json: the checker FAILs, explained by no known finding" ||
	not_ok "$LINE: verdict.json: the checker FAILs, explained by no known finding (known: $(verdict_field known))"
grep -q "(delta 0)" "$(rfile result.json)" 2>/dev/null &&
	ok "$LINE: the zero-delta nested events are shown" || not_ok "$LINE: the zero-delta nested events are shown"
