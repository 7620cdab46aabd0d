#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: a run on our series with the seeded fault that no live rule catches (f-always-delta-zero, ./run.sh --seed-fault) FAILs by the model check of the tree it booted, with the command that replays the counterexample
#
# The fault is in the booted kernel (the patch seed-patch.sh made from the
# model's own edit), and the verdict says which checks caught it: the
# model must; what the live rules and the kernel's audit said is shown.
. "$(dirname "$0")/../lib.sh"
fault=f-always-delta-zero
boot --seed-fault "$fault" --duration 20
case "$rc" in
0|1|4)	;;
*)	not_ok "the seeded run ends with a verdict (exit $rc; $log)"; exit 0 ;;
esac
patch=$BUILD/seeded-6.1-$fault/seeded-$fault.patch
grep -qx "+			info->delta = 0;" "$patch" 2>/dev/null &&
	ok "the booted series has the fault's patch (delta 0 at F: ${patch#$TOP/})" ||
	not_ok "the booted series has the fault's patch (${patch#$TOP/})"
checks=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (c["name"], c["verdict"]) for c in d["checks"]))' "$(rfile verdict.json)" 2>/dev/null)
echo "# checks: $checks"
[ "$(verdict_field verdict)" = FAIL ] && [[ " $checks " == *" model=FAIL "* ]] &&
	ok "the run FAILs by its model check ($checks)" ||
	not_ok "the run FAILs by its model check (verdict $(verdict_field verdict): $checks)"
replay=$(verdict_field model.replay_command)
rc=0
(cd "$TOP" && $replay) > "$tmp/replay.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "^rbreserve: COUNTEREXAMPLE" "$tmp/replay.out" &&
	ok "verdict.json's replay command replays the counterexample: $replay" ||
	not_ok "verdict.json's replay command replays the counterexample (exit $rc: '$replay')"
