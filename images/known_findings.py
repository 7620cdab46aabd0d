# SPDX-License-Identifier: GPL-2.0
"""The open kernel findings of images/findings.json, matched against a
run's structured results.  Imported by verdict.py, faults-table.py and
reproduce.py: no other file spells a finding's signature.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
# RBTS_FINDINGS: another findings file, for the tests
PATH = os.environ.get('RBTS_FINDINGS') or os.path.join(HERE, 'findings.json')
with open(os.path.join(HERE, 'kernel-complaints.pattern')) as _f:
    COMPLAINT = re.compile(_f.read().strip())


def load_all(path=PATH):
    """Every finding, fixed ones too (reproduce.py)."""
    with open(path) as f:
        return json.load(f)['findings']


def load(path=PATH):
    """The open findings: only their signatures make a FAIL known."""
    return [f for f in load_all(path) if f['status'] == 'open']


def _steps(f, line):
    """A finding's log_step: where the line has the two numbers, the second
    is the first plus 'by' (the audit's actual one unit after expected)."""
    step = f.get('log_step')
    m = re.search(step['re'], line) if step else None
    return not m or int(m.group(2)) - int(m.group(1)) == step['by']


def _explains(sig, example, log_values):
    m = re.search(sig['example'], example)
    if not m:
        return False
    if 'max_gap' in sig:
        return 0 < int(m.group(2)) - int(m.group(1)) - 1 <= sig['max_gap']
    if 'same_as_log' in sig:
        # the same number the kernel's own audit printed for it
        return m.group(1) in log_values
    if 'near_log' in sig:
        # a stamp (ns) within max_ms of a kernel log line's time (s)
        ts = int(m.group(1))
        return any(abs(ts - t * 1e9) <= sig['max_ms'] * 1e6 for t in log_values)
    return True


def checker_findings(result, findings=None, log=()):
    """The ids of the findings that explain every FAILing rule of a
    checker's result.json, or [] if some FAIL is not explained.  log: the
    kernel log lines of the same run, for signatures that must agree with
    what the kernel said."""
    findings = load() if findings is None else findings
    failing = [r for r in result.get('rules', []) if r.get('verdict') == 'FAIL']
    if not failing:
        return []
    ids = []
    for r in failing:
        hit = []
        for f in findings:
            sig = f.get('checker')
            if not sig or sig['rule'] != r.get('rule') or not r.get('examples'):
                continue
            values = set()
            if 'same_as_log' in sig:
                pat = re.compile(sig['same_as_log'])
                values = {m.group(1) for line in log for m in [pat.search(line)]
                          if m and _steps(f, line)}
            if 'near_log' in sig:
                pat = re.compile(r'^\[\s*(\d+\.\d+)\].*' + sig['near_log'])
                values = {float(m.group(1)) for line in log for m in [pat.search(line)] if m}
            if all(_explains(sig, e, values) for e in r['examples']):
                hit.append(f['id'])
        if not hit:
            return []
        ids += [i for i in hit if i not in ids]
    return ids


def complaints(lines):
    """The kernel log lines that are complaints."""
    return [line.rstrip() for line in lines if COMPLAINT.search(line)]


def log_findings(bad, scenario=None, findings=None):
    """(ids, unexplained): which findings explain the complaint lines bad
    (of a fault scenario, if given: a finding may be known in some only)."""
    findings = load() if findings is None else findings
    ids, left = [], list(bad)
    for f in findings:
        if 'kernel_log' not in f:
            continue
        if scenario and f.get('scenarios') and scenario not in f['scenarios']:
            continue
        pat = re.compile(f['kernel_log'])
        mine = [line for line in left if pat.search(line) and _steps(f, line)]
        if not mine:
            continue
        ids.append(f['id'])
        follow = re.compile(f['follow_on']) if f.get('follow_on') else None
        left = [line for line in left if line not in mine and not (follow and follow.search(line))]
    return ids, left


def title(fid, findings=None):
    findings = load_all() if findings is None else findings
    for f in findings:
        if f['id'] == fid:
            return '%s (%s, %s)' % (f['title'], f['status'], f['doc'])
    return fid
