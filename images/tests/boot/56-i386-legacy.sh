#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: negative control on i386: legacy nested time stamps must FAIL on the host
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
build_kernel --arch i386
boot --arch i386 --duration 15 --legacy-nested-ts
[ "$rc" = 1 ] && ok "i386 legacy run is reported as FAIL (exit 1)" || not_ok "i386 legacy run is reported as FAIL (exit $rc)"
[ "$(rule_verdict nested-delta)" = FAIL ] && ok "it FAILs on nested-delta" ||
	not_ok "it FAILs on nested-delta: $(rule_verdict nested-delta)"
