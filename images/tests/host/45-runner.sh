#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the test runner: discovery, -t, --list, counts, exit status, KTAP that kunit.py parse reads
#
# The runner on a made-up tests directory: a passing test, a failing one, a
# skipped one, a known finding (TODO), one that prints nothing, one that
# dies with a status, one only for --full.  It must count each right, fail
# the run for the failures only, and write KTAP the tree's own parser
# (tools/testing/kunit/kunit.py parse) reads with the same counts.
. "$(dirname "$0")/../lib.sh"
mkdir -p "$tmp/t/host" "$tmp/t/boot"
mk() {	# FILE BODY
	printf '#!/bin/bash\n# test: %s\n%b\n' "${1##*/}" "$2" > "$tmp/t/$1"
	chmod +x "$tmp/t/$1"
}
mk host/10-good.sh 'echo "ok - one"\necho "# a diagnostic"\necho "ok 7 - two, numbered by the test"'
mk host/20-bad.sh 'echo "ok - fine"\necho "not ok - broken"'
mk host/30-skip.sh 'echo "ok - not here # SKIP no such thing"'
mk host/40-todo.sh 'echo "not ok - an open finding # TODO known"\necho "ok - the rest"'
mk host/50-silent.sh 'echo "just text"'
mk host/60-dies.sh 'echo "ok - started"\nexit 3'
mk boot/10-long.sh '# rbts-test: full\necho "ok - long"'
sed -i '2a # rbts-test: full' "$tmp/t/boot/10-long.sh"
runner() { python3 "$TOP/images/tests/runner.py" --tests-dir "$tmp/t" --no-setup "$@"; }

out=$(runner --list)
[ "$(echo "$out" | wc -l)" = 6 ] && out_has "^host/good " && ! out_has boot/long &&
	ok "--list: every test by its name, the --full one left out" || not_ok "--list: $(echo "$out" | tr '\n' ' ')"
[ "$(runner --list --full | grep -c boot/long)" = 1 ] && ok "--list --full lists the --full test" ||
	not_ok "--list --full lists the --full test"
# A boot test of another line, for these checks only.
mk boot/20-other-line.sh 'echo "ok - on 6.12"'
sed -i '2a # rbts-test: line 6.12' "$tmp/t/boot/20-other-line.sh"
out=$(runner --list --full --kernel 6.12)
out_has "^boot/other-line " && ! out_has boot/long && out_has "^host/good " &&
	ok "--kernel 6.12: the host tests and that line's boot tests only" || not_ok "--kernel 6.12: $(echo "$out" | tr '\n' ' ')"
out=$(runner --list --full --kernel 6.1)
out_has "^boot/long " && ! out_has boot/other-line &&
	ok "--kernel 6.1: a boot test without a line tag is 6.1's" || not_ok "--kernel 6.1: $(echo "$out" | tr '\n' ' ')"
rm "$tmp/t/boot/20-other-line.sh"
# A boot test on every line: one test each, RBTS_LINE set; with "full
# other-lines" only the first line's in the default suite.
mk boot/30-each.sh 'echo "ok - on $RBTS_LINE"'
sed -i '2a # rbts-test: lines all\n# rbts-test: full other-lines' "$tmp/t/boot/30-each.sh"
first=$(awk '!/^#/ && NF { print $1; exit }' "$TOP/images/kernel/lines.table")
second=$(awk '!/^#/ && NF { n++ } n == 2 { print $1; exit }' "$TOP/images/kernel/lines.table")
a=$(runner --list | grep -c '^boot/each') b=$(runner --list --full | grep -o '^boot/each[^ ]*' | tr '\n' ' ')
runner -t "each-$second" --ktap "$tmp/each.ktap" > "$tmp/each.out" 2>&1
if [ "$a" = 1 ] && [ "$b" = "boot/each boot/each-$second " ] && grep -q "ok 1 - on $second" "$tmp/each.out"; then
	ok "lines all: boot/each on $first (default suite), boot/each-$second with --full, RBTS_LINE=$second in it"
else
	not_ok "lines all: default $a, --full '$b', -t each-$second: $(grep -m1 ' - ' "$tmp/each.out")"
fi
rm "$tmp/t/boot/30-each.sh"
rc=0; runner --list --kernel 9.9 > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "no line '9.9'" "$tmp/err" && ok "--kernel of an unknown line: exit 2, says so" ||
	not_ok "--kernel of an unknown line: exit $rc: $(cat "$tmp/err")"
rc=0; runner --list -t nope > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "no such test" "$tmp/err" && ok "-t of an unknown test: exit 2, says so" ||
	not_ok "-t of an unknown test: exit $rc"
rc=0; runner --frob > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "unknown option '--frob'" "$tmp/err" && ok "an unknown option: exit 2, says so" ||
	not_ok "an unknown option: exit $rc: $(cat "$tmp/err")"

rc=0; runner -t good -t skip --ktap "$tmp/ok.ktap" > "$tmp/ok.out" 2>&1 || rc=$?
[ "$rc" = 0 ] && tail -n1 "$tmp/ok.out" | grep -qx "2 passed, 0 failed, 1 skipped" &&
	ok "-t twice runs those two: exit 0, '2 passed, 0 failed, 1 skipped'" ||
	not_ok "-t twice: exit $rc, '$(tail -n1 "$tmp/ok.out")'"

rc=0; runner --ktap "$tmp/all.ktap" > "$tmp/all.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && ok "a failing test fails the run (exit 1)" || not_ok "a failing test fails the run (exit $rc)"
last=$(tail -n1 "$tmp/all.out")
# good 2, bad 1+1, skip 1, todo 1 pass + 1 TODO, silent 1 fail, dies 1 pass + 1 fail
[ "$last" = "5 passed, 3 failed, 1 skipped" ] && ok "counted: '$last'" ||
	not_ok "counted: '$last', expected '5 passed, 3 failed, 1 skipped'"
grep -q "^# 1 known failure(s) (TODO)" "$tmp/all.out" && ok "the TODO is counted apart" || not_ok "the TODO is counted apart"
grep -q "^    not ok 1 - host/silent printed no test result" "$tmp/all.ktap" &&
	ok "a test that prints no result fails" || not_ok "a test that prints no result fails"
grep -q "^    not ok 2 - host/dies exited with status 3" "$tmp/all.ktap" &&
	ok "a test that dies with a status fails" || not_ok "a test that dies with a status fails"
head -n2 "$tmp/all.ktap" | tr '\n' ' ' | grep -qx "KTAP version 1 1..6 " &&
	grep -q "^    # Subtest: host/good$" "$tmp/all.ktap" && grep -q "^    ok 2 - two, numbered by the test$" "$tmp/all.ktap" &&
	grep -q "^not ok 4 host/todo # TODO" "$tmp/all.ktap" &&
	ok "KTAP: version, plan, subtests renumbered, a TODO directive" || not_ok "KTAP layout: $(head -n 8 "$tmp/all.ktap" | tr '\n' '|')"

kunit=$SRC/tools/testing/kunit/kunit.py
if [ -f "$kunit" ]; then
	python3 "$kunit" parse "$tmp/ok.ktap" > "$tmp/kp.txt" 2>&1
	grep -q "Ran 3 tests: passed: 2, skipped: 1" "$tmp/kp.txt" &&
		ok "kunit.py parse reads a passing run: $(grep -o 'Ran .*' "$tmp/kp.txt")" ||
		not_ok "kunit.py parse reads a passing run: $(tail -n 3 "$tmp/kp.txt" | tr '\n' ' ')"
	python3 "$kunit" parse "$tmp/all.ktap" > "$tmp/kp.txt" 2>&1
	# kunit.py knows no TODO: the known finding is one of its failures
	grep -q "Ran 10 tests: passed: 5, failed: 4, skipped: 1" "$tmp/kp.txt" && ! grep -qi "crashed\|missing" "$tmp/kp.txt" &&
		ok "kunit.py parse reads a failing run: $(grep -o 'Ran .*' "$tmp/kp.txt")" ||
		not_ok "kunit.py parse reads a failing run: $(tail -n 3 "$tmp/kp.txt" | tr '\n' ' ')"
else
	not_ok "kunit.py parse reads the KTAP: no kunit.py at ${kunit#$TOP/} (the set-up prepares the tree)"
fi

# A test program that states its plan is held to it: one that stops
# half-way, or whose failure text starts a line with "ok", is caught.
mk host/70-short.sh 'echo "1..3"\necho "ok 1 - a"\necho "ok 2 - b"'
mk host/71-kept.sh 'echo "1..2"\necho "ok 1 - a"\necho "ok 2 - b"'
mk host/72-extra.sh 'echo "1..1"\necho "not ok 1 - a failure whose message goes on"\necho "ok this line is message text"'
rc=0; runner -t short -t kept -t extra --ktap "$tmp/plan.ktap" > "$tmp/plan.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "^    not ok 3 - host/short printed 2 results, its plan says 3" "$tmp/plan.ktap" &&
	grep -q "^ok 2 host/kept$" "$tmp/plan.ktap" &&
	grep -q "^    not ok 3 - host/extra printed 2 results, its plan says 1" "$tmp/plan.ktap" &&
	ok "a test's own plan is kept: short and extra fail, kept passes" ||
	not_ok "a test's own plan: exit $rc: $(grep 'plan says\|host/kept' "$tmp/plan.ktap" | tr '\n' '|')"

# A kernel line is a table row: a line added to a copy of lines.table (and
# nothing else) is in the plan of ./run.sh --kernel, gets every boot test
# that runs on all lines, is in the default bench list, and a guest
# setting its features allow is accepted.
{ cat "$TOP/images/kernel/lines.table"
  printf '9.9\t9.9.1\tlinux-source-9.9\tkernel-patches/mainline\t-\tdefault,debug\tsubbuf-size\n'; } > "$tmp/lines.table"
export RBTS_LINES_TABLE=$tmp/lines.table
plan=$("$TOP/run.sh" --kernel 9.9 --subbuf-kb 8 --dry-run 2>&1)
tests=$(python3 "$TOP/images/tests/runner.py" --list --full --kernel 9.9)
# (the all-lines tests but those that require what 9.9 has not: rb-time-32)
every=$(grep -l '^# rbts-test: lines all' "$TOP"/images/tests/boot/*.sh |
	xargs grep -L '^# rbts-test: requires \(rb-time-32\)$' | wc -l)
bench=$(TOP=$TOP bash -c '. "$TOP/images/common.sh"; kspec_bench_default')
if echo "$plan" | grep -q "build/linux-9.9.1 " && echo "$plan" | grep -q "rbts.subbufkb=8" &&
   [ "$(echo "$tests" | grep -c '^boot/.*-9\.9 ')" = "$every" ] && [ "$every" -gt 0 ] &&
   [[ ",$bench," == *,vanilla-9.9,series-9.9,* ]]; then
	ok "a line added to lines.table alone: in the plan, on its $every all-lines boot tests, in the bench list ($bench)"
else
	not_ok "a line added to lines.table alone: plan '$(echo "$plan" | grep -m1 'tree\|9.9')', $(echo "$tests" | grep -c '^boot/.*-9\.9 ') of $every tests, bench '$bench'"
fi
# A test that requires a variant or a feature runs on every line that has
# it, and on no other: boot/rb-time-32 on 9.9 once its row says rb-time-32.
sed -i 's/^\(9\.9\t.*\t\)default,debug\t/\1default,rb-time-32,debug\t/' "$tmp/lines.table"
with=$(python3 "$TOP/images/tests/runner.py" --list --full | grep -o '^boot/rb-time-32[^ ]*' | tr '\n' ' ')
without=$(echo "$tests" | grep -o '^boot/rb-time-32[^ ]*' | tr '\n' ' ')
[ "$with" = "boot/rb-time-32 boot/rb-time-32-9.9 " ] && [ -z "$without" ] &&
	ok "rbts-test: requires rb-time-32: on the lines whose row has it ($with), not on 9.9 without it" ||
	not_ok "rbts-test: requires rb-time-32: with it '$with', without it '$without'"
unset RBTS_LINES_TABLE
# A table that is not there: one line and exit 2, from the shell and Python readers
rc=0; out=$(RBTS_LINES_TABLE=$tmp/none "$TOP/run.sh" --dry-run 2>&1) || rc=$?
rc2=0; out2=$(RBTS_LINES_TABLE=$tmp/none python3 "$TOP/images/tests/runner.py" --list 2>&1) || rc2=$?
[ "$rc" = 2 ] && [ "$rc2" = 2 ] && [ "$out" = "error: no kernel line table $tmp/none" ] && [ "$out2" = "$out" ] &&
	ok "a missing lines.table: one line, exit 2 (run.sh and runner.py)" ||
	not_ok "a missing lines.table: exit $rc/$rc2: '$out' / '$out2'"
