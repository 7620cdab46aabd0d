#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12 on a real i386 kernel: 64-bit stamps on a 32-bit machine (6.12 has no 32-bit rb_time_t), verified on the host
# rbts-test: line 6.12
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
build_kernel --kernel 6.12 --arch i386
boot --kernel 6.12 --arch i386 --duration "${RBTS_I386_SECONDS:-40}"
must_pass "6.12 i386 run PASSes"
RBTS_KERNEL=6.12:ours:default:i386 . "$TOP/images/common.sh"
grep -q "^CONFIG_X86_32=y" "$KOUT/.config" 2>/dev/null && ! grep -q "^CONFIG_64BIT=y" "$KOUT/.config" &&
	ok "6.12: the kernel is 32-bit (CONFIG_X86_32=y, no CONFIG_64BIT)" || not_ok "6.12: the kernel is 32-bit"
grep -q "^long_size 4$" "$res/drain/meta" 2>/dev/null &&
	ok "6.12: the guest's sub-buffers have 4-byte longs" || not_ok "6.12: the guest's sub-buffers have 4-byte longs"
nested_taps "6.12 i386: "
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "6.12 i386: slow path A-C hit (B-C, A-B_delta_0, C-F_delta_0): $t" ||
	not_ok "6.12 i386: slow path A-C hit: none"
