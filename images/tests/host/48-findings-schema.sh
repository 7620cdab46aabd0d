#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: findings.json holds to its schema (images/rbts/findings_schema.py): the committed file and the test fixture validate, and each violation of the signature language fed to it is caught
#
# The schema checks a finding's names where they are defined: a rule
# against the checker's tables, a scenario against settings.table, a fix
# against the lines' series.  Each case below breaks one thing in a copy of
# the committed file and must find it in problems()'s list.
. "$(dirname "$0")/../lib.sh"

for f in "$TOP/images/findings.json" "$FIXTURES/findings-signatures.json"; do
	out=$(PYTHONPATH=$TOP/images python3 -m rbts.findings_schema "$f" 2>&1) &&
		ok "$(basename "$f") holds to the schema" ||
		not_ok "$(basename "$f") holds to the schema: $(head -n3 <<< "$out" | tr '\n' ' ')"
done

PYTHONPATH=$TOP/images python3 - "$TOP/images" <<'PY'
import copy, json, os, sys
from rbts import findings_schema as s

base = json.load(open(os.path.join(sys.argv[1], 'findings.json')))
by = {f['label']: f for f in base['findings']}

def case(what, want, change):
    d = copy.deepcopy(base)
    f = {x['label']: x for x in d['findings']}
    change(d, f)
    got = s.problems(d)
    hit = [p for p in got if want in p]
    print('%s - %s: %s' % ('ok' if hit else 'not ok', what,
                           hit[0] if hit else 'not caught (%s)' % (got or 'no problem')))

case('a label that is a patch number', 'label: not a letter',
     lambda d, f: f['i'].update(label='0004'))
case('two findings with one id', "id 'discard-delta-on-partial-read' is also",
     lambda d, f: f['j'].update(id=f['i']['id']))
case('a hit rule the checker does not have', "'bogus' is not a checker rule",
     lambda d, f: f['i']['reproducer']['hit'].update(rules=['bogus']))
case('a hit scenario that is no fault', "'bogus' is not a fault scenario",
     lambda d, f: f['i']['reproducer']['hit'].update(scenario='bogus'))
case('a fix no series has', "'ring-buffer-Nothing' is not a patch",
     lambda d, f: f['i'].update(fix='ring-buffer-Nothing'))
case("a checker example that is not a regular expression", 'example: not a regular expression',
     lambda d, f: f['c']['checker'].update(example='(unclosed'))
case('a checker signature of an unknown rule', "'orderly' is not a checker rule",
     lambda d, f: f['d']['checker'][0].update(rule='orderly'))
case('an open finding without a signature', 'open, but no signature',
     lambda d, f: [f['c'].pop(k) for k in s.SIGNATURE if k in f['c']])
case('a fixed finding with a signature', 'fixed, but has a signature',
     lambda d, f: f['i'].update(kernel_log='TIME DOES NOT MATCH'))
case('a fixed finding without its fix', 'fixed, but names no fix',
     lambda d, f: f['i'].pop('fix'))
case('an unknown key', "unknown key 'signatur'",
     lambda d, f: f['i'].update(signatur='x'))
case('a model bound out of range', 'depth: not a whole number from 1 to 4',
     lambda d, f: f['m1']['model'].update(depth=9))
case('a finding without its title', 'has no title',
     lambda d, f: f['i'].pop('title'))
case('a near_log without max_ms', 'near_log: has no max_ms',
     lambda d, f: f['c']['near_log'].pop('max_ms'))
case('a status nobody reads', "'closed' is not a status",
     lambda d, f: f['i'].update(status='closed'))
PY

echo '{"findings": [' > "$tmp/bad.json"
rc=0
PYTHONPATH=$TOP/images python3 -m rbts.findings_schema "$tmp/bad.json" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && ok "a findings file that is not JSON: exit 2" || not_ok "a findings file that is not JSON: exit $rc"
