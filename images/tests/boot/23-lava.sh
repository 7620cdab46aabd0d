#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: LAVA: every job of the default matrix passes lava-run --validate, one missing its artifacts does not, and jobs run under lava-run give the test cases ./run.sh matrix gives for the same cells, the negative control's FAIL included
#
# The dispatcher alone (lava-run, no server; installed with apt-get when
# missing).  The fixed kernel and the legacy mode (images/tests/data/
# matrix-lava) run twice: as ./run.sh matrix runs them here, and as LAVA
# jobs, whose test cases come from the guest's console (docs/lab.md).
. "$(dirname "$0")/../lib.sh"

# field JSON EXPR: a Python expression over a JSON file (j)
field() {
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

rc=0
rbts matrix "$TOP/images/matrix.default" --lava "$tmp/all" --validate \
	> "$LOGS/lava-validate.log" 2>&1 || rc=$?
v=$tmp/all/lava-validate.json
[ "$rc" = 0 ] && [ "$(field "$v" 'len(j["jobs"])')" = 4 ] &&
	[ "$(field "$v" 'all(x["job"] == "pass" for x in j["jobs"])')" = True ] &&
	ok "the default matrix: 4 jobs, each valid under lava-run --validate" ||
	not_ok "the default matrix's jobs are valid (exit $rc: $(tail -n2 "$LOGS/lava-validate.log" | paste -sd' '))"

rc=0
rbts matrix "$FIXTURES/matrix-lava" --lava "$tmp/bad" --no-build \
	--artifacts "file://$tmp/nowhere" --validate > "$tmp/bad.log" 2>&1 || rc=$?
[ "$rc" = 2 ] && [ "$(field "$tmp/bad/lava-validate.json" 'j["jobs"][0]["job"]')" = fail ] &&
	grep -q "does not exist" "$tmp/bad/lava-validate.json" &&
	ok "a job whose artifacts are missing is not valid: exit 2" ||
	not_ok "a job without its artifacts is refused (exit $rc: $(tail -n1 "$tmp/bad.log"))"

# The same two cells here and under lava-run.
rc_local=0
rbts matrix "$FIXTURES/matrix-lava" > "$LOGS/lava-local.log" 2>&1 || rc_local=$?
mine=$TOP/$(sed -n 's/^matrix: .*; \(results\/matrix-[0-9-]*\)\/matrix.json$/\1/p' "$LOGS/lava-local.log")/matrix.json
rc_lava=0
rbts matrix "$FIXTURES/matrix-lava" --lava "$tmp/run" --lava-run \
	> "$LOGS/lava-run.log" 2>&1 || rc_lava=$?
theirs=$tmp/run/lava-results.json
if [ "$rc_lava" != 1 ]; then
	# what lava-run saw, kept past the test's scratch directory, and the
	# last lines of each guest's console for the reader of the failure
	rm -rf "$LOGS/lava-out" && cp -r "$tmp/run/lava-out" "$LOGS/" 2>/dev/null
	for l in "$tmp"/run/lava-out/*.log; do
		python3 - "$l" <<'PY' 2>/dev/null | sed "s|^|# $(basename "$l"): |"
import json, sys
lines = []
for row in open(sys.argv[1], errors='replace'):
    try:
        m = json.loads(row)
    except ValueError:
        continue
    if m.get('lvl') in ('target', 'error'):
        lines.append('%s %s' % (m['lvl'], str(m.get('msg'))[:200]))
print('\n'.join(lines[-6:]))
PY
	done
fi
[ "$rc_local" = 1 ] && [ "$(field "$mine" '[c["verdict"] for c in j["cells"]]')" = "['PASS', 'FAIL']" ] &&
	ok "here: the fixed kernel PASS, the legacy mode FAIL (exit 1)" ||
	not_ok "here: fixed PASS, legacy FAIL (exit $rc_local, $(field "$mine" '[c["verdict"] for c in j["cells"]]'))"
[ "$rc_lava" = 1 ] && [ "$(field "$theirs" '[c["verdict"] for c in j["jobs"]]')" = "['PASS', 'FAIL']" ] &&
	ok "under lava-run: the fixed kernel PASS, the legacy mode FAIL (exit 1)" ||
	not_ok "under lava-run: fixed PASS, legacy FAIL (exit $rc_lava, $(field "$theirs" '[c["verdict"] for c in j["jobs"]]'): $(tail -n3 "$LOGS/lava-run.log" | paste -sd' '))"
for i in 0 1; do
	cell=$(field "$mine" "j['cells'][$i]['cell']")
	a=$(field "$mine" "sorted(j['cells'][$i].get('cases', {}).items())")
	c=$(field "$mine" "sorted(j['cells'][$i].get('console_cases', {}).items())")
	[ -n "$a" ] && [ "$a" != "[]" ] && [ "$a" = "$c" ] &&
		ok "$cell, one boot: the cases the guest printed for a lab are those of its results: $c" ||
		not_ok "$cell, one boot: console cases $c, results' $a"
done
# Two boots of the fixed kernel: every rule PASSes (or SKIPs) in both.
a=$(field "$mine" "sorted(j['cells'][0].get('cases', {}).items())")
b=$(field "$theirs" "sorted(j['jobs'][0]['cases'].items())")
[ -n "$a" ] && [ "$a" != "[]" ] && [ "$a" = "$b" ] &&
	ok "fixed: LAVA's test cases are ours: $b" || not_ok "fixed: LAVA's test cases $b, ours $a"
# The legacy mode's FAILs vary from boot to boot but for the one it is for.
[ "$(field "$theirs" 'sorted(j["jobs"][1]["cases"])')" = "$(field "$mine" 'sorted(j["cells"][1]["cases"])')" ] &&
	[ "$(field "$theirs" 'j["jobs"][1]["cases"].get("nested-delta")')" = fail ] &&
	[ "$(field "$mine" 'j["cells"][1]["cases"].get("nested-delta")')" = fail ] &&
	ok "legacy: the same cases, and nested-delta FAILs in the lab's results as in ours" ||
	not_ok "legacy: LAVA's cases $(field "$theirs" 'j["jobs"][1]["cases"]'), ours $(field "$mine" 'j["cells"][1]["cases"]')"
