#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: every run's model check (images/model-verdict.py, then verdict.py): each line's tree holds at the default bounds and is modelled once (kept by its code); a tree with a seeded fault FAILs the verdict with a replay command that replays it; a tree the model cannot read is a SKIP that says why
#
# What run.sh does for each boot, on the trees the suite prepared, without
# a boot: model.json is asserted on, and verdict.py's check on a results
# directory whose live checks all PASSed.
. "$(dirname "$0")/../lib.sh"

mv_py=$TOP/images/model-verdict.py
# field DIR KEY: one key of DIR/model.json
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1/model.json" "$2" 2>/dev/null; }
# results NAME: a results directory whose guest and checker PASSed
results() {
	r=$tmp/$1
	mkdir -p "$r"
	echo 0 > "$r/verdict"
	: > "$r/dmesg.txt"
}
# check_of DIR: the model check of verdict.py on DIR: "VERDICT DETAIL"
check_of() {
	"$TOP/images/verdict.py" "$1" > /dev/null 2>&1
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["name"] == "model":
        print(c["verdict"], c["detail"])' "$1/verdict.json" 2>/dev/null
}

for line in $(kspec_lines); do
	kspec_load "$line:ours:default:x86_64"
	if [ ! -f "$SRC/kernel/trace/ring_buffer.c" ]; then
		not_ok "$line: the prepared tree (./run.sh build --kernel $line)"
		continue
	fi
	results "$line"
	"$mv_py" "$SRC" "$r" > "$r/out.txt" 2>&1
	[ "$(field "$r" verdict)" = pass ] && [[ "$(check_of "$r")" == "PASS reserve-path model: every rule holds"* ]] &&
		ok "$line: our tree holds at the default bounds ($(field "$r" executions) executions, $(field "$r" seconds) s): the model check PASSes" ||
		not_ok "$line: our tree holds at the default bounds: $(field "$r" verdict) $(field "$r" why) ($(cat "$r/out.txt"))"
	results "$line-again"
	t0=$(date +%s%N)
	"$mv_py" "$SRC" "$r" > "$r/out.txt" 2>&1
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$(field "$r" cached)" = True ] && [ "$(field "$r" verdict)" = pass ] &&
		ok "$line: the same code again: the result kept, not explored again ($ms ms)" ||
		not_ok "$line: the same code again: the result kept (cached $(field "$r" cached))"

	# the fault nobody else catches, put into the tree's ring_buffer.c
	seeded=$tmp/seeded-$line
	if ! (cd "$TOP/userspace-checker/reserve-model" &&
	      python3 extract-reserve.py --seed "$SRC" "$seeded" f-always-delta-zero); then
		not_ok "$line: f-always-delta-zero put into a copy of the tree"
		continue
	fi
	results "$line-seeded"
	"$mv_py" "$seeded" "$r" > "$r/out.txt" 2>&1
	replay=$(field "$r" replay_command)
	check=$(check_of "$r")
	[ "$(field "$r" verdict)" = counterexample ] && [[ "$check" == "FAIL "*"replay: ./run.sh model --reserve --ksrc "* ]] &&
		ok "$line: f-always-delta-zero in the tree: the model check FAILs the run, with its replay command" ||
		not_ok "$line: f-always-delta-zero in the tree: the model check FAILs the run ($check)"
	rc=0
	(cd "$TOP" && $replay) > "$tmp/replay.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q "^rbreserve: COUNTEREXAMPLE" "$tmp/replay.out" &&
		ok "$line: the verdict's replay command replays the counterexample (exit 1)" ||
		not_ok "$line: the verdict's replay command replays the counterexample: exit $rc, '$replay'"
done

# a tree whose reserve path is not where the extractor looks: nothing proven
mkdir -p "$tmp/x/kernel/trace" "$tmp/x/include/linux"
cp "$SRC/kernel/trace/ring_buffer.c" "$tmp/x/kernel/trace/"
cp "$SRC/include/linux/ring_buffer.h" "$tmp/x/include/linux/"
sed -i 's/^__rb_reserve_next(/__rb_reserve_next_v2(/' "$tmp/x/kernel/trace/ring_buffer.c"
results unreadable
"$mv_py" "$tmp/x" "$r" > "$r/out.txt" 2>&1
check=$(check_of "$r")
[ "$(field "$r" verdict)" = error ] && [[ "$check" == "SKIP "*"cannot find func __rb_reserve_next"* ]] &&
	ok "a tree the model cannot read: the check SKIPs and says what it missed" ||
	not_ok "a tree the model cannot read: SKIP with what it missed ($check)"

rc=0; "$mv_py" "$tmp/x" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && ok "model-verdict.py without a results directory: exit 2" ||
	not_ok "model-verdict.py without a results directory: exit $rc"
