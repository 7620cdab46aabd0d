# SPDX-License-Identifier: GPL-2.0
"""The language of images/findings.json, as a schema, and its check.

usage: python3 -m rbts.findings_schema [FILE...]   check each findings file (default:
                                      images/findings.json); one line per
                                      problem, "FILE: finding LABEL: KEY: why"
exit:  0 every file holds to the schema, 1 a problem, 2 a file unreadable

SCHEMA below is the signature language that rbts/known_findings.py reads (what
each key means is in the _comment of findings.json and in
docs/findings.md); every name a finding uses is checked against where the
name is defined: a checker rule against the checker's own tables
(userspace-checker/rb_verify.c, rb_generic.c), a fault scenario against
images/guest/settings.table, a fix against each kernel line's series, a
label against the rule that findings are named by letters (never by a
patch's number, which changes when a series is renumbered).
"""
import json
import os
import re
import sys

from rbts import faults, kspec
from rbts import lines as kernel_lines

HERE = kspec.IMAGES
TOP = kspec.TOP


def _rule_names():
    """The checker's rule names, from its C tables."""
    names = set()
    for src in ('rb_verify.c', 'rb_generic.c'):
        with open(os.path.join(TOP, 'userspace-checker', src)) as f:
            names.update(re.findall(r'\[RB_(?:RULE|GEN)_\w+\]\s*=\s*"([^"]+)"', f.read()))
    return names


def _fault_names():
    """The fault scenarios: every fault file, and mixed (images/rbts/faults.py)."""
    return set(faults.names()) | {'mixed'}


def _fix_names():
    """Every patch of every line's series, without its number."""
    names = set()

    def read(series):
        """A series file: its patches, and the series files it names."""
        with open(series) as f:
            for p in f:
                p = p.strip()
                if not p or p.startswith('#'):
                    continue
                path = os.path.join(os.path.dirname(series), p)
                if os.path.basename(p) == 'series':
                    read(path)
                elif p.endswith('.patch'):
                    names.add(re.sub(r'^\d{4}-', '', os.path.basename(p))[:-len('.patch')])

    for row in kernel_lines.rows():
        series = os.path.join(row.series, 'series')
        if os.path.exists(series):
            read(series)
    return names


def _regex(v):
    if not isinstance(v, str):
        return 'not a string'
    try:
        re.compile(v)
    except re.error as e:
        return 'not a regular expression (%s)' % e
    return None


def _of(kind):
    """A check that V is of Python type KIND."""
    return lambda v: None if isinstance(v, kind) and not isinstance(v, bool) or \
        (kind is bool and isinstance(v, bool)) else 'not a %s' % kind.__name__


def _int(lo, hi):
    return lambda v: None if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi \
        else 'not a whole number from %d to %d' % (lo, hi)


def _one_of(names, what):
    return lambda v: None if v in names() else '%r is not %s (have: %s)' % (
        v, what, ' '.join(sorted(names())))


def _list_of(check):
    def run(v):
        if not isinstance(v, list) or not v:
            return 'not a list of at least one'
        for item in v:
            why = check(item)
            if why:
                return why
        return None
    return run


def _dict(fields, required=()):
    """A check of a dict with these FIELDS (name: check), the REQUIRED ones."""
    def run(v):
        if not isinstance(v, dict):
            return 'not an object'
        for k in required:
            if k not in v:
                return 'has no %s' % k
        for k, val in v.items():
            if k not in fields:
                return 'unknown key %r (have: %s)' % (k, ' '.join(sorted(fields)))
            why = fields[k](val)
            if why:
                return '%s: %s' % (k, why)
        return None
    return run


RULE = _one_of(_rule_names, 'a checker rule')
CHECKER = _dict({'rule': RULE, 'example': _regex, 'max_gap': _int(1, 1000000),
                 'same_as_log': _regex}, required=('rule',))

# Every key of a finding: its check.  What each means: findings.json's
# _comment.  A signature key is one that makes a FAIL known (rbts/known_findings.py).
SCHEMA = {
    'id': lambda v: None if isinstance(v, str) and re.fullmatch(r'[a-z0-9]+(-[a-z0-9]+)*', v)
    else 'not a name of lower-case words joined by -',
    # letters (and a digit after them: m1), never a patch's number
    'label': lambda v: None if isinstance(v, str) and re.fullmatch(r'[a-z][a-z0-9]{0,3}', v)
    else 'not a letter (a, m1): findings are not named by patch numbers',
    'title': _of(str),
    'status': _one_of(lambda: {'open', 'fixed', 'explained'}, 'a status'),
    'doc': lambda v: None if isinstance(v, str) and re.fullmatch(r'docs/[\w.-]+\.md(#.*)?', v)
    else 'not a docs/*.md page',
    'fix': _one_of(_fix_names, "a patch of a line's series (its name without its number)"),
    'also_without': _list_of(_one_of(_fix_names, "a patch of a line's series")),
    'note': _of(str),
    'reproducer': _dict({
        'args': _list_of(_of(str)),
        'hit': _dict({'scenario': _one_of(_fault_names, 'a fault scenario'),
                      'rules': _list_of(RULE), 'kernel_log': _regex,
                      'entries_left': _of(bool)}),
    }, required=('args', 'hit')),
    'model': _dict({'depth': _int(1, 4), 'ops': _int(1, 4), 'page_size': _int(32, 4096),
                    'clock_jump': _of(bool),
                    'replay': lambda v: None if isinstance(v, str) and re.fullmatch(r'[0-9a-z]+', v)
                    else 'not a choice string'}, required=('depth', 'ops', 'replay')),
    'checker': lambda v: (_list_of(CHECKER) if isinstance(v, list) else CHECKER)(v),
    'kernel_log': _regex,
    'near_log': _dict({'re': _regex, 'max_ms': _int(1, 60000)}, required=('re', 'max_ms')),
    'follow_audit': _dict({'step': _regex, 'audit': _regex, 'warn': _regex,
                           'max_ms': _int(1, 60000)}, required=('step', 'audit', 'max_ms')),
    'log_step': _dict({'re': _regex, 'by': _int(1, 1 << 30)}, required=('re', 'by')),
    'log_dump': _regex,
    'follow_on': _regex,
    'scenarios': _list_of(_one_of(_fault_names, 'a fault scenario')),
}
REQUIRED = ('id', 'label', 'title', 'status', 'doc')
SIGNATURE = ('checker', 'kernel_log', 'near_log', 'follow_audit', 'log_step', 'log_dump',
             'follow_on', 'scenarios')


def problems(findings):
    """What is wrong with a findings file's contents: a list of lines."""
    out = []
    if not isinstance(findings, dict) or not isinstance(findings.get('findings'), list):
        return ['not an object with a list "findings"']
    seen = {'id': {}, 'label': {}}
    for i, f in enumerate(findings['findings']):
        name = f.get('label', '#%d' % i) if isinstance(f, dict) else '#%d' % i
        if not isinstance(f, dict):
            out.append('finding %s: not an object' % name)
            continue
        for k in REQUIRED:
            if k not in f:
                out.append('finding %s: has no %s' % (name, k))
        for k, v in f.items():
            if k not in SCHEMA:
                out.append('finding %s: unknown key %r' % (name, k))
                continue
            why = SCHEMA[k](v)
            if why:
                out.append('finding %s: %s: %s' % (name, k, why))
        for k in ('id', 'label'):
            if k in f and f[k] in seen[k]:
                out.append('finding %s: %s %r is also finding %s\'s' % (name, k, f[k], seen[k][f[k]]))
            seen[k].setdefault(f.get(k), name)
        sig = [k for k in SIGNATURE if k in f]
        if f.get('status') == 'open' and not sig:
            out.append('finding %s: open, but no signature (%s): a run it fails would be a '
                       'plain FAIL' % (name, ', '.join(SIGNATURE)))
        if f.get('status') != 'open' and sig:
            out.append('finding %s: %s, but has a signature (%s): seen again, it must FAIL'
                       % (name, f.get('status'), ', '.join(sig)))
        if f.get('status') == 'fixed' and 'fix' not in f:
            out.append('finding %s: fixed, but names no fix' % name)
    return out


def main(argv):
    paths = argv or [os.path.join(HERE, 'findings.json')]
    bad = False
    for path in paths:
        try:
            with open(path) as fh:
                data = json.load(fh)
        except (OSError, ValueError) as e:
            print('findings_schema: %s: %s' % (path, e), file=sys.stderr)
            return 2
        for line in problems(data):
            print('%s: %s' % (path, line))
            bad = True
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
