#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: a real i386 kernel: nested NMI events and the 32-bit read failure, verified on the host
# rbts-test: full
#
# --singlestep: only then can an NMI cut rb_time_set() and rb_time_read()
# fail (TCG takes interrupts between translation blocks).
. "$(dirname "$0")/../lib.sh"
build_kernel --arch i386
boot --arch i386 --singlestep --duration "${RBTS_I386_SECONDS:-40}"
must_pass "i386 run PASSes"
RBTS_KERNEL=6.1:ours:default:i386 . "$TOP/images/common.sh"
grep -q "^CONFIG_X86_32=y" "$KOUT/.config" 2>/dev/null && ! grep -q "^CONFIG_64BIT=y" "$KOUT/.config" &&
	ok "the kernel is 32-bit (CONFIG_X86_32=y, no CONFIG_64BIT)" || not_ok "the kernel is 32-bit"
grep -q "^long_size 4$" "$res/drain/meta" 2>/dev/null && grep -q "^machine i[3-6]86$" "$res/drain/meta" &&
	ok "the guest's sub-buffers have 4-byte longs ($(sed -n 's/^machine //p' "$res/drain/meta"))" ||
	not_ok "the guest's sub-buffers have 4-byte longs"
nested_taps "i386: "
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "i386: slow path A-C hit: $t" || not_ok "i386: slow path A-C hit: none"
t=$(path_total read_failed)
if [ "${t:-0}" -gt 0 ]; then
	ok "i386: the 32-bit read-failure path (rb_time_read() false) hit: $t"
elif grep -q "NOTE: rb_time_read() never failed" "$res/summary.txt" 2>/dev/null; then
	ok "i386: read_failed not hit, and the summary says so plainly"
else
	not_ok "i386: read_failed neither hit nor reported as not hit"
fi
