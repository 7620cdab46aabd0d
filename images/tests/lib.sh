# SPDX-License-Identifier: GPL-2.0
# What the test files under images/tests/ share.  Sourced, not run.  A test
# prints TAP result lines; images/tests/runner.py numbers them.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
. "$TOP/images/tap.sh"

FIXTURES=$TOP/images/tests/data
LOGS=$BUILD/test-logs
# The kernel line a boot test is for: the runner sets it for a test with
# "# rbts-test: lines all" (one test per row of lines.table).
LINE=${RBTS_LINE:-$KSPEC_DEFAULT_LINE}
mkdir -p "$LOGS"
# A scratch directory of the test's own, gone when it ends.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A boot: a Run of the spine with the options of ./run.sh run, ARGS; sets
# $rc, $res (the results directory) and $log (what it printed); the
# checker's summary goes out as diagnostics.
boots=0
boot() {
	log=$LOGS/$(basename "$0" .sh).log
	rc=0
	# the test names the run's results directory (results/latest is
	# another run's when runs overlap)
	boots=$((boots + 1))
	res=$TOP/results/$(date +%Y%m%d-%H%M%S)-$$-$boots
	rbts run --out "$res" "$@" > "$log" 2>&1 || rc=$?
	sed -n '/^rbcheck: rbstress/,$p' "$log" | sed 's/^/#   /'
}

# Build the kernel the options name (those of ./run.sh build); a failure
# shows in the boot that follows.
build_kernel() {
	rbts build "$@" > "$LOGS/$(basename "$0" .sh)-build.log" 2>&1 ||
		tail -n 5 "$LOGS/$(basename "$0" .sh)-build.log" | sed 's/^/# build: /'
}

# Where the last boot's file NAME is: the results layout
# (images/rbts/results.py) says, and refuses a name it does not declare.
rfile() {	# NAME
	PYTHONPATH=$TOP/images python3 -m rbts.results path "$res" "$1"
}

# One field of the last boot's verdict.json (images/rbts/verdict.py), e.g.
# verdict_field verdict, verdict_field checks.1.name; a list is given
# comma-separated; empty if there is none.
verdict_field() {
	python3 - "$(rfile verdict.json)" "$1" <<'PY' 2>/dev/null
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    v = v[k] if isinstance(v, dict) else v[int(k)]
print(','.join(map(str, v)) if isinstance(v, list) else v if not isinstance(v, dict) else json.dumps(v))
PY
}

# WHAT must PASS (exit 0).  A FAIL that verdict.json calls known (only an
# open kernel finding of images/findings.json, nothing else) is that
# finding's TODO; anything else fails.
must_pass() {
	local known
	if [ "$rc" = 0 ]; then
		ok "$1 (exit 0)"
	elif [ "$rc" = 1 ] && known=$(verdict_field known) && [ -n "$known" ] &&
	     [ -z "$(verdict_field unexplained)" ]; then
		not_ok "$1: FAIL only on a known finding: $known, see $res # TODO"
	else
		not_ok "$1 (exit $rc, see $res)"
	fi
}

# One TAP line per interrupting context: it nested in a lower one.
nested_taps() {	# PREFIX  (uses $res of the last boot)
	local ctx nested
	for ctx in softirq irq nmi; do
		nested=$(python3 - "$(rfile result.json)" "$ctx" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(c['nested'] for cpu in r['cpus'] for c in cpu['contexts'] if c['context'] == sys.argv[2]))
PY
)
		[ "${nested:-0}" -gt 0 ] && ok "$1$ctx events nested in lower contexts: $nested" ||
			not_ok "$1$ctx events nested in lower contexts: ${nested:-none}"
	done
}

# Total of one time stamp path counter of the last boot (result.json).
path_total() {	# NAME
	python3 - "$(rfile result.json)" "$1" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
print(sum(cpu.get(sys.argv[2], 0) for cpu in r['path_counters'] or []))
PY
}

# The slow path "interrupted between A and C", all of its endings: the
# delta taken after the fact and delta 0 (6.1: A-C and A-C,C-F_delta_0;
# 6.12: B-C, A-B_delta_0 and C-F_delta_0; a kernel has one set).  On a
# loaded host the vCPUs stall in the window, and an event may always end
# with delta 0: the path is hit all the same.
a_to_c_total() {
	local p n total=0
	for p in A-C A-C,C-F_delta_0 B-C A-B_delta_0 C-F_delta_0; do
		n=$(path_total "$p")
		total=$(( total + ${n:-0} ))
	done
	echo "$total"
}

# The verdict of one rule in the last boot's result.json: PASS, FAIL, SKIP.
rule_verdict() {
	python3 - "$(rfile result.json)" "$1" <<'PY' 2>/dev/null
import json, sys
for r in json.load(open(sys.argv[1])).get('rules', []):
    if r.get('rule') == sys.argv[2]:
        print(r.get('verdict'))
PY
}

# The verdict of one check of the last boot's verdict.json (guest, checker,
# kernel-log, startup-test, offline, live-vs-offline, faults).
check_verdict() {
	python3 - "$(rfile verdict.json)" "$1" <<'PY' 2>/dev/null
import json, sys
for c in json.load(open(sys.argv[1]))['checks']:
    if c['name'] == sys.argv[2]:
        print(c['verdict'])
PY
}

# rbcheck verify FILE [ARGS] --json: sets $grc and $gj, for gfield.
generic() {
	local f=$1
	shift
	gj=$tmp/$(basename "$f").json
	grc=0
	"$CHECKOUT/rbcheck" verify "$f" "$@" --json "$gj" > "$tmp/verify.log" 2>&1 || grc=$?
}

# A Python expression over that JSON's rules over every event: g is its
# "generic" object, r its rules by name (r["order"]["verdict"]).
gfield() {
	python3 - "$gj" "$1" <<'PY' 2>/dev/null
import json, sys
g = json.load(open(sys.argv[1]))["generic"]
r = {x["rule"]: x for x in g["rules"]}
print(eval(sys.argv[2], {"g": g, "r": r}))
PY
}

# The kernel's own events of the last boot (other.dat: sched, irq, timer
# and nmi under the run's clock, rbstress not recorded) by the rules over
# every event, and NMI context among them.
other_dat_taps() {
	generic "$(rfile other.dat)"
	if [ "$grc" = 0 ] && [ "$(gfield 'g["rbstress_rules_apply"]')" = False ] &&
	   [ "$(gfield 'r["order"]["verdict"]')" = PASS ] && [ "$(gfield 'r["distinct"]["verdict"]')" != FAIL ]; then
		ok "$1the kernel's own events (other.dat, $(gfield 'g["events"]') events) PASS the rules over every event (distinct: $(gfield 'r["distinct"]["verdict"]'))"
	else
		not_ok "$1the kernel's own events (other.dat) PASS the rules over every event (exit $grc: $(tail -n1 "$tmp/verify.log"))"
	fi
	local nmi
	nmi=$(gfield 'sum(n for c, n in g["contexts"].items() if c.startswith("NMI"))')
	[ "${nmi:-0}" -gt 0 ] 2>/dev/null &&
		ok "$1the kernel's own events include $nmi in NMI context (nmi:nmi_handler, by common_flags)" ||
		not_ok "$1the kernel's own events include NMI context (nmi:nmi_handler): ${nmi:-no other.dat}"
}

# One field of the last boot's result.json (the checker's), e.g. four_deep.
result_field() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' \
		"$(rfile result.json)" "$1" 2>/dev/null
}

# One TAP line per time stamp path of the last boot's coverage
# (verdict.json, images/coverage.table): an expected path must be reached,
# one not applicable is a SKIP with its reason.
coverage_taps() {
	python3 - "$(rfile verdict.json)" <<'PY' 2>/dev/null || echo "not ok - coverage: no verdict.json coverage"
import json, sys
rows = json.load(open(sys.argv[1]))['coverage']
if not rows:
    print('not ok - coverage: not judged or no path counters')
for r in rows:
    seen = '' if r['in_buffer'] is None else ', %d %s in the verified sub-buffers' % (
        r['in_buffer'], r['seen_as'])
    line = 'path %s: kernel %d%s' % (r['path'], r['kernel'], seen)
    if r['verdict'] == 'reached':
        print('ok - ' + line)
    elif r['verdict'] == 'n/a':
        print('ok - %s # SKIP %s' % (line, r['why']))
    else:
        print('not ok - %s: %s (%s)' % (line, r['verdict'], r['why']))
PY
}

# One TAP line per row of a faults run's table (faults/faults.json).
faults_tap() {
	python3 - "$(rfile faults/faults.json)" <<'PY' 2>/dev/null
import json, sys
for r in json.load(open(sys.argv[1]))['scenarios']:
    line = '%s: injected %s, %s events verified%s' % (
        r['scenario'], r['injected'], r['events'], ', ' + r['evidence'] if r['evidence'] else '')
    if r['verdict'] == 'PASS':
        print('ok - fault ' + line)
    elif r['verdict'] == 'SKIP':
        print('ok - fault %s # SKIP %s' % (line, r['evidence']))
    elif r['verdict'] == 'KNOWN':
        print('not ok - fault %s # TODO open kernel finding %s' % (line, ','.join(r['known'])))
    else:
        print('not ok - fault ' + line)
PY
}

# ./run.sh selftests on one kernel line: the ftracetest subset on its
# vanilla tree and on our series must give the same results, case by case.
selftests_taps() {	# LINE
	local src=0 sres n p
	rbts selftests --kernel "$1" > "$LOGS/selftests-$1.log" 2>&1 || src=$?
	sres=$(ls -d "$TOP"/results/selftests-* 2>/dev/null | tail -n1)
	[ "$src" = 0 ] && ok "$1: vanilla and series give identical ftracetest results (exit 0)" ||
		not_ok "$1: vanilla and series give identical ftracetest results (exit $src, see $sres/table.md)"
	n=$(grep -c '^| [0-9a-z]*/' "$sres/table.md" 2>/dev/null)
	[ "${n:-0}" -ge 20 ] && ok "$1: $n ftracetest cases compared" || not_ok "$1: ftracetest cases compared: ${n:-none}"
	p=$(grep -c '^| .* | PASS[A-Z,]* | PASS[A-Z,]* | same |$' "$sres/table.md" 2>/dev/null)
	[ "${p:-0}" -ge 10 ] && ok "$1: $p of them PASS on both" || not_ok "$1: cases that PASS on both: ${p:-0}"
	grep -E '^(not a pass on either|kernel .* complained)' "$sres/table.md" 2>/dev/null | sed 's/^/# /'
}
