#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: --ksrc: a Debian tree extracted outside build/ builds as it is, boots and is judged (no counters, as on vanilla; the verdict FAILs by the model: the tree has finding (a), which our series fixes); with --apply ours, a copy of it PASSes; nothing written into it; a tree the stress module does not fit is refused before its kernel is built
# rbts-test: full
# rbts-test: timeout 5400
#
# A tree outside the checkout is a cold build for ccache (its absolute
# paths are new): some 11 minutes on 2 cores, so --full.
. "$(dirname "$0")/../lib.sh"
export PYTHONPATH=$TOP/images
kspec_load "$LINE:vanilla:default:x86_64"
tree=$tmp/linux
mkdir -p "$tree"
tar -xf "$KERNEL_TARBALL" -C "$tree" --strip-components=1
before=$(find "$tree" -newer "$tree/Makefile" | wc -l)

boot --ksrc "$tree" --duration 60
# The tree as it is has the bugs our fixes fix: the model finds (a) in
# its reserve path every time (host/reserve-model: "the unmodified tree
# shows finding (a)"), the live checker now and then (its natural rate).
[ "$rc" = 1 ] && [ "$(check_verdict guest)" = PASS ] && [ "$(check_verdict kernel-log)" = PASS ] &&
	[ "$(check_verdict model)" = FAIL ] &&
	ok "a $KERNEL_VERSION tree given as --ksrc boots and is judged: FAIL by the model, the tree's finding (a) (checker: $(check_verdict checker))" ||
	not_ok "a $KERNEL_VERSION tree given as --ksrc boots and is judged: exit $rc, guest $(check_verdict guest), kernel-log $(check_verdict kernel-log), model $(check_verdict model) (see $res)"
[ "$(verdict_field kernel.spec)" = "$LINE:@$tree:default:x86_64" ] &&
	ok "the verdict names the tree it booted: $(verdict_field kernel.spec)" ||
	not_ok "the verdict names the tree it booted: '$(verdict_field kernel.spec)'"
[ "$(rule_verdict counters)" = SKIP ] && ok "a tree as it is has no path counters: counters SKIP" ||
	not_ok "a tree as it is has no path counters: counters '$(rule_verdict counters)'"

# The same tree with our series asked for (--apply ours): the series goes
# on a copy (named as our own trees are, so ccache serves it), and the
# fixes it carries make the same tree PASS, counters and all.
boot --ksrc "$tree" --apply ours --duration 60
must_pass "the same tree with --apply ours PASSes: the fixes on a copy of it"
[ "$(check_verdict model)" = PASS ] && [ "$(rule_verdict counters)" = PASS ] &&
	ok "with our series: the model holds, the counters are read (model PASS, counters PASS)" ||
	not_ok "with our series: model $(check_verdict model), counters $(rule_verdict counters)"
[ "$(verdict_field kernel.spec)" = "$LINE:@$tree+ours:default:x86_64" ] &&
	ok "the verdict names the tree and its series: $(verdict_field kernel.spec)" ||
	not_ok "the verdict names the tree and its series: '$(verdict_field kernel.spec)'"

after=$(find "$tree" -newer "$tree/Makefile" | wc -l)
[ "$after" = "$before" ] && [ ! -e "$tree/.config" ] && ok "nothing was written into the tree (either run)" ||
	not_ok "the builds wrote into the tree: $((after - before)) new file(s)"

# A tree whose headers lack what the module calls: hard links but for the
# header changed, so that the copy costs nothing.
bad=$tmp/linux-bad
cp -al "$tree" "$bad"
h=$bad/include/linux/hrtimer.h
sed 's/\bhrtimer_start\b/hrtimer_start_renamed/g' "$h" > "$h.new" && rm "$h" && mv "$h.new" "$h"
rc=0
rbts build --ksrc "$bad" --kernel "$LINE" > "$LOGS/ksrc-bad.log" 2>&1 || rc=$?
top() { python3 -c 'import sys; from rbts import kspec; print(kspec.Kernel(sys.argv[1]).top)' "$LINE:@$1:default:x86_64"; }
k=$(top "$bad")/kernel-$LINE-x86_64/arch/x86/boot/bzImage
[ "$rc" = 2 ] && grep -q "the stress module does not build against $bad" "$LOGS/ksrc-bad.log" && [ ! -e "$k" ] &&
	ok "a tree the module does not fit: exit 2 before its kernel is built ($(grep -m1 'does not build' "$LOGS/ksrc-bad.log" | cut -c1-160))" ||
	not_ok "a tree the module does not fit: exit $rc, $(tail -n1 "$LOGS/ksrc-bad.log")"
# each run's trees are new ones: their builds go with them
rm -rf "$(top "$tree")" "$(top "$tree+ours")" "$(top "$bad")"
