#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the stress on the 32-bit rb_time_t (the article's cnt/top/bottom) PASSes, and its verdict has the rb_time_t model of the tree it booted
# rbts-test: lines all
# rbts-test: requires rb-time-32
. "$(dirname "$0")/../lib.sh"
build_kernel --kernel "$LINE" --rb-time-32
boot --kernel "$LINE" --duration 20 --rb-time-32
must_pass "32-bit rb_time_t run PASSes"
kspec_load "$LINE:ours:rb-time-32:x86_64"
grep -q "CONFIG_RING_BUFFER_RB_TIME_32=y" "$KOUT/.config" 2>/dev/null &&
	ok "the kernel has CONFIG_RING_BUFFER_RB_TIME_32=y" || not_ok "the kernel has CONFIG_RING_BUFFER_RB_TIME_32=y"
[ "$(check_verdict rb-time-model)" = PASS ] && [ "$(check_verdict model)" = PASS ] &&
	ok "the verdict has the rb_time_t model of the booted tree, and the reserve-path model: both PASS" ||
	not_ok "the verdict has the rb_time_t model: '$(check_verdict rb-time-model)', reserve-path model '$(check_verdict model)'"
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "kernel slow path A-C hit on rb_time_32: $t" || not_ok "kernel slow path A-C hit on rb_time_32: none"
