#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: a real i386 kernel: nested NMI events, verified on the host; where the line has the 32-bit rb_time_t, its read failure and the rb_time_t model in the verdict; where not, 64-bit stamps on a 32-bit machine
# rbts-test: lines all
# rbts-test: full
#
# --singlestep on a line with the 32-bit rb_time_t: only then can an NMI
# cut rb_time_set() and rb_time_read() fail (TCG takes interrupts between
# translation blocks).
. "$(dirname "$0")/../lib.sh"
rb32=
case " $(kspec_line_variants "$LINE") " in *" rb-time-32 "*) rb32=1 ;; esac
build_kernel --kernel "$LINE" --arch i386
boot --kernel "$LINE" --arch i386 ${rb32:+--singlestep} --duration "${RBTS_I386_SECONDS:-40}"
must_pass "$LINE: i386 run PASSes"
RBTS_KERNEL=$LINE:ours:default:i386 . "$TOP/images/common.sh"
grep -q "^CONFIG_X86_32=y" "$KOUT/.config" 2>/dev/null && ! grep -q "^CONFIG_64BIT=y" "$KOUT/.config" &&
	ok "$LINE: the kernel is 32-bit (CONFIG_X86_32=y, no CONFIG_64BIT)" || not_ok "$LINE: the kernel is 32-bit"
grep -q "^long_size 4$" "$(rfile drain/meta)" 2>/dev/null && grep -q "^machine i[3-6]86$" "$(rfile drain/meta)" &&
	ok "$LINE: the guest's sub-buffers have 4-byte longs ($(sed -n 's/^machine //p' "$(rfile drain/meta)"))" ||
	not_ok "$LINE: the guest's sub-buffers have 4-byte longs"
nested_taps "$LINE i386: "
t=$(a_to_c_total)
[ "$t" -gt 0 ] && ok "$LINE i386: slow path A-C hit (every ending): $t" || not_ok "$LINE i386: slow path A-C hit: none"
if [ -n "$rb32" ]; then
	t=$(path_total read_failed)
	if [ "${t:-0}" -gt 0 ]; then
		ok "$LINE i386: the 32-bit read-failure path (rb_time_read() false) hit: $t"
	elif grep -q "NOTE: rb_time_read() never failed" "$(rfile summary.txt)" 2>/dev/null; then
		ok "$LINE i386: read_failed not hit, and the summary says so plainly"
	else
		not_ok "$LINE i386: read_failed neither hit nor reported as not hit"
	fi
	[ "$(check_verdict rb-time-model)" = PASS ] &&
		ok "$LINE i386: the verdict has the rb_time_t model of the booted tree: PASS" ||
		not_ok "$LINE i386: the verdict has the rb_time_t model: '$(check_verdict rb-time-model)'"
else
	[ -z "$(check_verdict rb-time-model)" ] &&
		ok "$LINE i386: no rb_time_t model in the verdict (the line's stamps are 64-bit on any machine)" ||
		not_ok "$LINE i386: an rb_time_t model check on a line without the 32-bit rb_time_t: $(check_verdict rb-time-model)"
fi
