#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: an x86_64 guest drained to the host (the offline path i386 uses) PASSes
. "$(dirname "$0")/../lib.sh"
boot --job drain --duration 15
must_pass "drained x86_64 run PASSes on the host"
grep -q "^long_size 8$" "$(rfile drain/meta)" 2>/dev/null && ok "the capture says long size 8" ||
	not_ok "the capture says long size 8"
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "path counters read offline: A-C hit $t times" || not_ok "path counters read offline: A-C none"
[ "$(rule_verdict counters)" = PASS ] && ok "the counters rule ran offline" ||
	not_ok "the counters rule ran offline: $(rule_verdict counters)"
