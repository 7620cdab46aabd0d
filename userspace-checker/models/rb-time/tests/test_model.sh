#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of rbmodel, one TAP line each.  The oracle must catch every seeded
# fault; the findings on the tree's and the article's code must stay
# reproducible; state hashing must not change a verdict; the extraction
# must name what it cannot find.
#
# usage: test_model.sh RBMODEL RING_BUFFER_C
set -uo pipefail
rbmodel=${1:?usage: test_model.sh RBMODEL RING_BUFFER_C}
ringbuf=${2:?usage: test_model.sh RBMODEL RING_BUFFER_C}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../../../../images/tap.sh"

# run NAME EXPECTED-EXIT ARGS...: sets $out and $rc
run() {
	rc=0
	out=$("$rbmodel" "$@" 2>&1) || rc=$?
}
line() { echo "$out" | grep -m1 "$1" | sed 's/^rbmodel: //'; }

# 1. every seeded fault is caught
for v in fault-read-nocnt fault-set-noretry fault-cmpxchg-nocnt; do
	run --variant "$v"
	if [ "$rc" = 1 ] && out_has COUNTEREXAMPLE; then
		ok "seeded fault $v is caught: $(line 'COUNTEREXAMPLE')"
	else
		not_ok "seeded fault $v is caught (exit $rc)"
	fi
done

# 2. the findings, reproducible (docs/rb-time-model.md)
run --variant tree
if [ "$rc" = 1 ] && out_has "returned .*(top of V2, bottom of V1)"; then
	ok "tree, default bound: the torn read stays found: $(line 'depth .*COUNTEREXAMPLE')"
else
	not_ok "tree, default bound: the torn read stays found (exit $rc: $(line 'COUNTEREXAMPLE\|all requirements'))"
fi
seq=$(echo "$out" | sed -n 's/.* --replay \([0-9a-z]*\)$/\1/p')
run --variant tree --depth 3 --ops 2 --replay "$seq"
[ "$rc" = 1 ] && out_has "COUNTEREXAMPLE: read() in irq returned" &&
	ok "its --replay string replays the counterexample step by step" ||
	not_ok "its --replay string replays the counterexample (exit $rc)"
run --variant tree --depth 2 --ops 4
[ "$rc" = 0 ] && ok "tree: all requirements hold with two levels, 4 operations each" ||
	not_ok "tree: all requirements hold with two levels (exit $rc: $(line COUNTEREXAMPLE))"
run --variant article --depth 2 --ops 2
[ "$rc" = 1 ] && out_has "cmpxchg(.*) in .* failed, but it interrupted no write" &&
	ok "article: a failed cmpxchg leaves cnt out of step: $(line 'depth .*COUNTEREXAMPLE')" ||
	not_ok "article: the cmpxchg finding stays found (exit $rc)"
run --variant article --no-cmpxchg --depth 3 --ops 2
[ "$rc" = 1 ] && out_has "returned .*(top of V., bottom of V.)" &&
	ok "article, reads and sets only: the same torn read at depth 3" ||
	not_ok "article, reads and sets only: the torn read stays found (exit $rc)"
run --variant article --depth 2 --ops 2 --strict-cmpxchg
[ "$rc" = 1 ] && out_has "same value landed while it ran" &&
	ok "--strict-cmpxchg: the article's cmpxchg fails when a write of the same value lands" ||
	not_ok "--strict-cmpxchg finds the same-value failure (exit $rc)"

# 3. pruning at known states changes no verdict
for b in "--depth 2 --ops 3" "--depth 3 --ops 2"; do
	# shellcheck disable=SC2086 # $b is a list of options
	run --variant tree --exact $b
	a=$rc
	# shellcheck disable=SC2086
	run --variant tree --exact --no-hash $b
	[ "$a" = "$rc" ] && ok "tree $b: the same verdict with and without state hashing (exit $rc)" ||
		not_ok "tree $b: hashing changed the verdict ($a with, $rc without)"
done

# 4. bad input: one line, exit 2
for args in "--ops 0" "--depth 6" "--variant nosuch" "--bogus" "--replay X!" "--value -1" "--value 0x1ffffffffffffffff" "--value 12abc"; do
	# shellcheck disable=SC2086
	run $args
	n=$(echo "$out" | grep -c '^rbmodel: .*see rbmodel --help')
	[ "$rc" = 2 ] && [ "$n" = 1 ] && ok "rbmodel $args: usage error, one line" ||
		not_ok "rbmodel $args: usage error (exit $rc)"
done

# 4b. RB_TIME_NONE ((u64)-1, the before_stamp no time stamp equals, set by
# the slow path since fixes/0007 of our series) survives the tree's split
# form: msb carries the four bits above top's 30 and bottom's 30.  The
# article's three-field form (no msb) does not keep it: the control that
# the check can fail.
for b in "2 4" "3 1" "4 1"; do
	run --variant tree --depth "${b% *}" --ops "${b#* }" --exact --value 0xffffffffffffffff
	[ "$rc" = 0 ] && out_has "V2=0xffffffffffffffff" && out_has "all requirements hold" &&
		ok "tree: RB_TIME_NONE set and read back whole at depth ${b% *}, ${b#* } operations: $(line 'executions, all')" ||
		not_ok "tree: RB_TIME_NONE set and read back whole at depth ${b% *}, ${b#* } operations (exit $rc: $(line COUNTEREXAMPLE:))"
done
run --variant article --depth 1 --ops 1 --value 0xffffffffffffffff
[ "$rc" = 1 ] && out_has COUNTEREXAMPLE &&
	ok "article (60 bits, no msb): RB_TIME_NONE does not survive: $(line 'COUNTEREXAMPLE:')" ||
	not_ok "article (60 bits, no msb): RB_TIME_NONE does not survive (exit $rc)"

# 5. the extraction names what it cannot find
sed 's/\brb_time_set(/rb_time_store(/' "$ringbuf" > "$tmp/ring_buffer.c"
rc=0
msg=$(python3 "$here/extract-rb-time.py" "$tmp/ring_buffer.c" "$tmp/out.c" 2>&1) || rc=$?
[ "$rc" = 1 ] && echo "$msg" | grep -q "cannot find function rb_time_set()" &&
	ok "extraction from a changed tree names the missing function" ||
	not_ok "extraction from a changed tree names the missing function (exit $rc: $msg)"
rc=0
python3 "$here/extract-rb-time.py" "$ringbuf" "$tmp/out.c" > /dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -q "rb_time_set" "$tmp/out.c" &&
	ok "extraction from the tree: $(grep -c '^static' "$tmp/out.c") functions" ||
	not_ok "extraction from the tree (exit $rc)"
