#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: matrix: matrix files are read or refused with file and line, cells expand, LAVA jobs are written per cell, and a results directory becomes test cases
#
# Without a boot: rbts/matrix.py on matrix files good and bad, --lava
# --no-build (jobs.json is asserted on), and images/guest/cases.sh on made-up
# results directories (the one mapping of our results to a lab's cases).
# boot/lava runs the jobs.
. "$(dirname "$0")/../lib.sh"

# refuse NAME TEXT WANT [ARGS...]: the matrix TEXT is refused: exit 2, WANT in its one line
refuse() {
	local name=$1 text=$2 want=$3 out rc=0
	shift 3
	printf '%s\n' "$text" > "$tmp/$name"
	out=$("$TOP/run.sh" matrix "$tmp/$name" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ "$out" == *"$want"* ]] &&
		ok "refused, one line: $out" ||
		not_ok "$name: exit $rc, '$out', expected exit 2 and '$want'"
}
refuse unknown-axis $'kernel 6.1\nflavour x' "$tmp/unknown-axis:2: unknown axis \"flavour\""
refuse twice $'clock global\n# a comment\nclock counter' "$tmp/twice:3: axis \"clock\" given twice"
refuse empty-axis 'cpus' "$tmp/empty-axis:1: axis \"cpus\" has no values"
refuse bad-variant 'variant fast' "$tmp/bad-variant:1: variant: \"fast\" is not one of debug, default, rb-time-32"
refuse repeated 'kernel 6.1 6.1' 'repeats a value'
refuse no-axes '# nothing' 'no axes: nothing to run'
refuse bad-line 'kernel 6.1 7.0' "cell 7.0: --kernel: no line '7.0'"
refuse bad-combo $'variant debug\narch i386' 'cell debug-i386: --arch i386 cannot be combined'
refuse bad-option 'kernel 6.1' 'unknown option "--bogus"' --bogus
refuse lava-only 'kernel 6.1' '--validate and --lava-run go with --lava DIR' --validate
refuse i386-lava 'arch i386' 'cell i386: --arch i386 drains its sub-buffers' --lava "$tmp/i386" --no-build
rc=0; out=$("$TOP/run.sh" matrix "$tmp/nonexistent" 2>&1) || rc=$?
[ "$rc" = 2 ] && [[ "$out" == "matrix: error: $tmp/nonexistent: cannot read"* ]] &&
	ok "a missing matrix file: exit 2, '$out'" || not_ok "a missing matrix file: exit $rc, '$out'"

# The default matrix as LAVA jobs, no artifacts built: 4 cells, a job each.
rc=0
"$TOP/run.sh" matrix "$TOP/images/matrix.default" --lava "$tmp/lava" --no-build \
	--artifacts http://lab.example/rbts > "$tmp/lava.log" 2>&1 || rc=$?
python3 - "$tmp/lava" <<'PY' > "$tmp/jobs.txt"
import json, os, sys
d = sys.argv[1]
j = json.load(open(os.path.join(d, 'jobs.json')))
for x in j['jobs']:
    text = open(os.path.join(d, x['job'])).read()
    print(x['cell'], x['kernel'], x['cpus'], 'ktapconsole' if 'rbts.ktapconsole=1' in x['cmdline'] else '-',
          'in-job' if x['cmdline'] in text.replace('\\"', '"') else 'not-in-job',
          'device' if os.path.exists(os.path.join(d, x['device'])) else 'no-device')
PY
want='6.1-global http://lab.example/rbts/6.1_ours_default_x86_64/bzImage 2 ktapconsole in-job device
6.1-counter http://lab.example/rbts/6.1_ours_default_x86_64/bzImage 2 ktapconsole in-job device
6.12-global http://lab.example/rbts/6.12_ours_default_x86_64/bzImage 2 ktapconsole in-job device
6.12-counter http://lab.example/rbts/6.12_ours_default_x86_64/bzImage 2 ktapconsole in-job device'
[ "$rc" = 0 ] && [ "$(cat "$tmp/jobs.txt")" = "$want" ] &&
	ok "the default matrix: 4 LAVA jobs, each with its kernel's URL, the guest's command line asking for the cases, the device file" ||
	not_ok "the default matrix as LAVA jobs (exit $rc): $(tr '\n' ';' < "$tmp/jobs.txt") $(tail -n1 "$tmp/lava.log")"

# A fault cell is a job too: the faults job, its time limit per scenario.
rc=0
printf 'faults resize,filter\nduration 15\n' > "$tmp/faults.matrix"
"$TOP/run.sh" matrix "$tmp/faults.matrix" --lava "$tmp/lava-faults" --no-build > "$tmp/lf.log" 2>&1 || rc=$?
got=$(python3 -c 'import json, sys; x = json.load(open(sys.argv[1]))["jobs"][0]; print(x["cell"], "rbts.job=faults" in x["cmdline"], "rbts.faults=resize,filter" in x["cmdline"])' \
	"$tmp/lava-faults/jobs.json" 2>&1)
[ "$rc" = 0 ] && [ "$got" = "resize_filter-15 True True" ] &&
	ok "a fault cell: a LAVA job of the faults job with its scenarios" ||
	not_ok "a fault cell as a LAVA job (exit $rc): $got $(tail -n1 "$tmp/lf.log")"

# cases.sh: a results directory's test cases.
r=$tmp/res
mkdir -p "$r/faults/filter" "$r/faults/clock"
printf 'KTAP version 1\n1..3\n  KTAP version 1\n  not ok 1 cpu0\nnot ok 1 monotonic # violations=3\nok 2 own-clock # SKIP counter clock\nok 3 A-C # checked=5\n' > "$r/result.ktap"
printf '[ 1.0] rbts: guest up\n' > "$r/dmesg.txt"
printf 'KTAP version 1\n1..1\nok 1 sequence\n' > "$r/faults/filter/result.ktap"
printf '[ 2.0] [CPU: 0]TIME DOES NOT MATCH expected:1 actual:2\n' > "$r/faults/filter/dmesg.txt"
printf 'KTAP version 1\n1..1\nnot ok 1 counters\n' > "$r/faults/clock/result.ktap"
got=$(sh "$TOP/images/guest/cases.sh" "$r" "$TOP/images/kernel-complaints.pattern" | paste -sd';')
want='rbts: cases begin;rbts: case monotonic fail;rbts: case own-clock skip;rbts: case A-C pass;rbts: case kernel-log pass;rbts: case clock.counters fail;rbts: case filter.sequence pass;rbts: case filter.kernel-log fail;rbts: cases end'
[ "$got" = "$want" ] &&
	ok "cases.sh: a rule each (fail, skip, pass; not the per-CPU subtests), each scenario's as SCENARIO.RULE, kernel-log from each dmesg.txt" ||
	not_ok "cases.sh: got '$got'"

# A cell's verdict is its run's exit status as rbts.results names it: a
# run that PASSed but left a path unreached is INCOMPLETE, a hung guest
# HUNG; neither is a set-up ERROR.  Each cell's run is played (no guest).
got=$(cd "$tmp" && PYTHONPATH=$TOP/images python3 - 2>&1 <<'PY'
import io, json, os, sys, contextlib
from rbts import matrix as m
class Played:
    rcs = iter((0, 1, 3, 4, 2, 7))
    def __init__(self, plan, log=None):
        self.out = None
    def execute(self):
        return next(Played.rcs)
m.runmod.Run = Played
m.cell_plan = lambda c, extra=(): None
m.TOP = os.getcwd()
cells = [{'name': 'c%d' % i, 'options': []} for i in range(6)]
with contextlib.redirect_stdout(io.StringIO()):
    m.run_local(cells, 'played.matrix')
out = [d for d in os.listdir('results') if d.startswith('matrix-')][0]
print(' '.join(c['verdict'] for c in json.load(open(os.path.join('results', out, 'matrix.json')))['cells']))
PY
)
[ "$got" = "PASS FAIL HUNG INCOMPLETE ERROR ERROR" ] &&
	ok "a cell's verdict from its exit: 0 PASS, 1 FAIL, 3 HUNG, 4 INCOMPLETE, 2 and others ERROR" ||
	not_ok "a cell's verdict from its exit: got '$got'"
