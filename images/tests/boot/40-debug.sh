#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the debug kernel (lockdep, KASAN, UBSAN, panic_on_warn) PASSes the stress
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
build_kernel --debug
boot --debug --duration 30
must_pass "debug kernel stress run PASSes"
RBTS_KERNEL=6.1:ours:debug:x86_64 . "$TOP/images/common.sh"
for opt in CONFIG_PROVE_LOCKING CONFIG_KASAN CONFIG_UBSAN CONFIG_DEBUG_ATOMIC_SLEEP \
	   CONFIG_DEBUG_PREEMPT CONFIG_RING_BUFFER_STARTUP_TEST; do
	grep -q "^$opt=y" "$KOUT/.config" 2>/dev/null &&
		ok "the debug kernel has $opt=y" || not_ok "the debug kernel has $opt=y"
done
grep -q "Kernel command line:.*panic_on_warn=1" "$(rfile dmesg.txt)" 2>/dev/null &&
	ok "booted with panic_on_warn=1" || not_ok "booted with panic_on_warn=1"
[ "$(check_verdict startup-test)" = PASS ] && ok "the ring buffer startup test PASSed" ||
	not_ok "the ring buffer startup test PASSed: $(check_verdict startup-test)"
[ "$(check_verdict kernel-log)" = PASS ] && ok "kernel log clean: no lockdep, KASAN, UBSAN or WARN report" ||
	not_ok "kernel log clean: $(head -n 3 "$(rfile kernel-complaints.txt)" 2>/dev/null | tr '\n' ' ')"
