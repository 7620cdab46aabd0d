#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: names: the contexts and clocks are the module's, nowhere copied
#
# The module defines the context and clock names once (RBS_CTX_SYMBOLS,
# RBS_CLOCK_SYMBOLS in stress-module/rbstress.h) and its event's format
# carries them; rbcheck reads them there.  The one other list is the
# clocks a run may ask for (images/guest/settings.table): it must be the
# module's, and the checker must hold no list of its own.
. "$(dirname "$0")/../lib.sh"

# symbols NAME: the names of one of rbstress.h's lists, sorted
symbols() {
	sed -n "/^#define $1/,/^\$/p" "$TOP/stress-module/rbstress.h" |
		grep -o '"[a-z_0-9]*"' | tr -d '"' | sort | paste -sd' '
}
module_clocks=$(symbols RBS_CLOCK_SYMBOLS)
table_clocks=$(awk '$1 == "clock" { sub("^one:", "", $2); gsub(",", "\n", $2); print $2 }' \
	"$TOP/images/guest/settings.table" | sort | paste -sd' ')
[ -n "$module_clocks" ] && [ "$module_clocks" = "$table_clocks" ] &&
	ok "the clocks a run may ask for are the module's ($module_clocks)" ||
	not_ok "settings.table's clocks '$table_clocks' are the module's '$module_clocks'"
[ "$(symbols RBS_CTX_SYMBOLS)" = "irq nmi normal softirq" ] &&
	ok "the module names its four contexts in RBS_CTX_SYMBOLS" ||
	not_ok "RBS_CTX_SYMBOLS names the contexts: '$(symbols RBS_CTX_SYMBOLS)'"
# The kernel's trace clocks (what a trace_clock file or -C may name) are
# another fact, listed once in rb_trace_clocks.c: every clock the module
# can read must be one of them.
kernel_clocks=$(sed -n '/^static const char \*const clocks/,/^};/p' "$TOP/userspace-checker/rb_trace_clocks.c" |
	grep -o '"[a-z_0-9-]*"' | tr -d '"')
missing=
for n in $module_clocks; do
	grep -qx "$n" <<< "$kernel_clocks" || missing="$missing $n"
done
[ -n "$kernel_clocks" ] && [ -z "$missing" ] &&
	ok "every clock the module reads is a kernel trace clock of rb_trace_clocks.c" ||
	not_ok "clocks of the module that rb_trace_clocks.c does not list:${missing:- (no list found)}"
# The checker's sources: no string literal that is a context's or a clock's
# name (messages build them from rb_ctx_name() and rb_clock_name()), but
# for the kernel's list.
copies=
for n in $module_clocks $(symbols RBS_CTX_SYMBOLS); do
	[ "$n" = counter ] && continue	# the counter clock is a kind, named as such
	f=$(grep -l "\"$n\"" "$TOP"/userspace-checker/*.c "$TOP"/userspace-checker/*.h 2>/dev/null |
		grep -v '/rb_trace_clocks\.c$' | xargs -r -n1 basename)
	[ -z "$f" ] || copies="$copies $n:$(echo $f | tr ' ' ',')"
done
[ -z "$copies" ] && ok "the checker spells no context or clock name of its own" ||
	not_ok "the checker spells names of its own:$copies"
# The format of a module built from this tree, as the kernel writes it,
# names both lists; rbcheck reads its capture's names from there.
fmt=$TOP/userspace-checker/tests/data/rbstress_event.format
grep -q '__print_symbolic(REC->ctx, { 0, "normal" }' "$fmt" &&
	grep -q '__print_symbolic(REC->clock_id, { 0, "counter" }' "$fmt" &&
	ok "the checker's format fixture carries both lists, with their values" ||
	not_ok "the checker's format fixture carries both lists"
