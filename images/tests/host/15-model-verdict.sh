#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: every run's model check (images/rbts/model_verdict.py, then verdict.py): each line's tree holds at the default bounds and is modelled once (kept by its code); a tree with a seeded fault FAILs the verdict with a replay command that replays it; a tree the model cannot read is a SKIP that says why; a kernel with the 32-bit rb_time_t gets the rb_time_t model too (our 6.1 tree PASSes, a torn read put into it FAILs with its replay), one without it does not
#
# What run.sh does for each boot, on the trees the suite prepared, without
# a boot: model.json is asserted on, and verdict.py's check on a results
# directory whose live checks all PASSed.
. "$(dirname "$0")/../lib.sh"

mv_py() { PYTHONPATH=$TOP/images python3 -m rbts.model_verdict "$@"; }
# field DIR KEY: one key of DIR/model.json
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1/model.json" "$2" 2>/dev/null; }
# results NAME: a results directory whose guest and checker PASSed
results() {
	r=$tmp/$1
	mkdir -p "$r"
	echo 0 > "$r/verdict"
	: > "$r/dmesg.txt"
}
# check_of DIR [NAME]: the model check (or check NAME) of verdict.py on
# DIR: "VERDICT DETAIL"
check_of() {
	PYTHONPATH=$TOP/images python3 -m rbts.verdict "$1" > /dev/null 2>&1
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["name"] == sys.argv[2]:
        print(c["verdict"], c["detail"])' "$1/verdict.json" "${2:-model}" 2>/dev/null
}
# rb_field DIR KEY: one key of DIR/model.json's rb_time
rb_field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["rb_time"][sys.argv[2]])' "$1/model.json" "$2" 2>/dev/null; }

for line in $(kspec_lines); do
	kspec_load "$line:ours:default:x86_64"
	if [ ! -f "$SRC/kernel/trace/ring_buffer.c" ]; then
		not_ok "$line: the prepared tree (./run.sh build --kernel $line)"
		continue
	fi
	results "$line"
	mv_py "$SRC" "$r" > "$r/out.txt" 2>&1
	[ "$(field "$r" verdict)" = pass ] && [[ "$(check_of "$r")" == "PASS reserve-path model: every rule holds"* ]] &&
		ok "$line: our tree holds at the default bounds ($(field "$r" executions) executions, $(field "$r" seconds) s): the model check PASSes" ||
		not_ok "$line: our tree holds at the default bounds: $(field "$r" verdict) $(field "$r" why) ($(cat "$r/out.txt"))"
	results "$line-again"
	t0=$(date +%s%N)
	mv_py "$SRC" "$r" > "$r/out.txt" 2>&1
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$(field "$r" cached)" = True ] && [ "$(field "$r" verdict)" = pass ] &&
		ok "$line: the same code again: the result kept, not explored again ($ms ms)" ||
		not_ok "$line: the same code again: the result kept (cached $(field "$r" cached))"

	# the fault nobody else catches, put into the tree's ring_buffer.c
	seeded=$tmp/seeded-$line
	if ! (cd "$TOP/userspace-checker/models/reserve" &&
	      python3 extract-reserve.py --seed "$SRC" "$seeded" f-always-delta-zero); then
		not_ok "$line: f-always-delta-zero put into a copy of the tree"
		continue
	fi
	results "$line-seeded"
	mv_py "$seeded" "$r" > "$r/out.txt" 2>&1
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

# The 32-bit rb_time_t: the kernel's config says whether the kernel uses it
kspec_load "6.1:ours:default:x86_64"
printf 'CONFIG_64BIT=y\nCONFIG_RING_BUFFER_RB_TIME_32=y\n' > "$tmp/rb-time-32.config"
printf 'CONFIG_64BIT=y\n' > "$tmp/64.config"
results rb-time-32
mv_py "$SRC" "$r" --config "$tmp/rb-time-32.config" > "$r/out.txt" 2>&1
check=$(check_of "$r" rb-time-model)
[ "$(rb_field "$r" verdict)" = pass ] && [[ "$check" == "PASS rb_time_t model: every rule holds"*"depth 2, 4 operations"* ]] &&
	ok "6.1 with CONFIG_RING_BUFFER_RB_TIME_32: the rb_time_t model runs on the tree and PASSes ($(rb_field "$r" executions) executions)" ||
	not_ok "6.1 with CONFIG_RING_BUFFER_RB_TIME_32: the rb_time_t model PASSes ($check; $(cat "$r/out.txt"))"
results rb-time-64
mv_py "$SRC" "$r" --config "$tmp/64.config" > "$r/out.txt" 2>&1
[ -z "$(check_of "$r" rb-time-model)" ] && ! grep -q rb_time "$r/model.json" &&
	ok "6.1 on 64 bits: no rb_time_t model (its stamps are local64_t)" ||
	not_ok "6.1 on 64 bits: no rb_time_t model ($(check_of "$r" rb-time-model))"
kspec_load "6.12:ours:default:x86_64"
results rb-time-6.12
printf '# CONFIG_64BIT is not set\n' > "$tmp/32.config"
mv_py "$SRC" "$r" --config "$tmp/32.config" > "$r/out.txt" 2>&1
[ -z "$(check_of "$r" rb-time-model)" ] && [ "$(field "$r" verdict)" = pass ] &&
	ok "6.12 on 32 bits: no rb_time_t model (6.8 removed the 32-bit rb_time_t)" ||
	not_ok "6.12 on 32 bits: no rb_time_t model ($(check_of "$r" rb-time-model))"
# a torn read let through: __rb_time_read() without its counter check
kspec_load "6.1:ours:default:x86_64"
mkdir -p "$tmp/torn/kernel/trace" "$tmp/torn/include/linux"
cp "$SRC/include/linux/ring_buffer.h" "$tmp/torn/include/linux/"
sed '/if (\*cnt != rb_time_cnt(msb) || \*cnt != rb_time_cnt(bottom))/,+1d' \
	"$SRC/kernel/trace/ring_buffer.c" > "$tmp/torn/kernel/trace/ring_buffer.c"
results rb-time-torn
mv_py "$tmp/torn" "$r" --config "$tmp/rb-time-32.config" > "$r/out.txt" 2>&1
check=$(check_of "$r" rb-time-model) replay=$(rb_field "$r" replay_command) rc=0
(cd "$TOP" && $replay) > "$tmp/replay.out" 2>&1 || rc=$?
if [ "$(rb_field "$r" verdict)" = counterexample ] && [[ "$check" == "FAIL rb_time_t model: COUNTEREXAMPLE"* ]] &&
   [ "$rc" = 1 ] && grep -q "^rbmodel: COUNTEREXAMPLE" "$tmp/replay.out"; then
	ok "__rb_time_read() without its counter check: the rb_time_t model FAILs the run, and its replay command replays it"
else
	not_ok "__rb_time_read() without its counter check: FAIL with a replay ($check; replay '$replay' exit $rc)"
fi

# a tree whose reserve path is not where the extractor looks: nothing proven
mkdir -p "$tmp/x/kernel/trace" "$tmp/x/include/linux"
cp "$SRC/kernel/trace/ring_buffer.c" "$tmp/x/kernel/trace/"
cp "$SRC/include/linux/ring_buffer.h" "$tmp/x/include/linux/"
sed -i 's/^__rb_reserve_next(/__rb_reserve_next_v2(/' "$tmp/x/kernel/trace/ring_buffer.c"
results unreadable
mv_py "$tmp/x" "$r" > "$r/out.txt" 2>&1
check=$(check_of "$r")
[ "$(field "$r" verdict)" = error ] && [[ "$check" == "SKIP "*"cannot find func __rb_reserve_next"* ]] &&
	ok "a tree the model cannot read: the check SKIPs and says what it missed" ||
	not_ok "a tree the model cannot read: SKIP with what it missed ($check)"

rc=0; mv_py "$tmp/x" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && ok "rbts/model_verdict.py without a results directory: exit 2" ||
	not_ok "rbts/model_verdict.py without a results directory: exit $rc"
