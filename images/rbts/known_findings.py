# SPDX-License-Identifier: GPL-2.0
"""The open kernel findings of images/findings.json, matched against a
run's structured results.  Imported by verdict.py, rbts/faults_table.py and
rbts/reproduce.py: no other file spells a finding's signature.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # images/
# RBTS_FINDINGS: another findings file, for the tests
PATH = os.environ.get('RBTS_FINDINGS') or os.path.join(HERE, 'findings.json')
with open(os.path.join(HERE, 'kernel-complaints.pattern')) as _f:
    COMPLAINT = re.compile(_f.read().strip())


def load_all(path=PATH):
    """Every finding, fixed ones too (rbts/reproduce.py)."""
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


# A line of check_buffer()'s dump of the page it audited, after its
# "TIME DOES NOT MATCH" line: 6.1 "  [63502] delta:1 PADDING", 6.12
# " 0x1c:  [63502] delta:1 PADDING" (the kernel log's time in front).
DUMP_LINE = re.compile(r'^(\[\s*\d+\.\d+\])?\s*(0x[0-9a-f]+:)?\s*\[-?\d+\] ')


# What ends a dump: 6.12's last line, the next audit line, or this many
# lines in a row that are not the dump's (a dump is never interleaved with
# another: check_buffer() reports one at a time, but other messages, an NMI
# handler's "took too long" say, may come in between its lines).
DUMP_END = re.compile(r'expected end:|TIME DOES NOT MATCH|ABSOLUTE TIME WENT BACKWARDS')
DUMP_GAP = 3


def _dump_shows(f, line, log):
    """A finding's log_dump: the page check_buffer() dumped right after the
    audit line shows a line matching it (for (d): the padding whose delta 1
    the audit skipped)."""
    want = f.get('log_dump')
    if not want:
        return True
    for i, seen in enumerate(log):
        if seen.rstrip() != line.rstrip():
            continue
        gap = 0
        for after in log[i + 1:]:
            if DUMP_END.search(after):
                break
            if not DUMP_LINE.search(after.strip('\n')):
                gap += 1
                if gap > DUMP_GAP:
                    break
                continue
            gap = 0
            if re.search(want, after):
                return True
    return False


def _line_time(line):
    """A kernel log line's time (s), or None."""
    m = re.match(r'\[\s*(\d+\.\d+)\]', line.strip())
    return float(m.group(1)) if m else None


def _near_times(f, log):
    """The times (s) of the log lines a finding's near_log names."""
    pat = re.compile(f['near_log']['re'])
    return [t for line in log if pat.search(line) for t in [_line_time(line)] if t is not None]


def _near(f, t, times):
    """Whether t (s) lies within the finding's near_log max_ms of one of times."""
    return any(abs(t - n) <= f['near_log']['max_ms'] / 1e3 for n in times)


def _audit_follows(f, mine, lines):
    """A finding's follow_audit: the ring buffer's audit reacting to one of
    the finding's own lines (mine).  A 'TIME DOES NOT MATCH' line is the
    finding's only if expected - actual is exactly the step the clock went
    back by in a line of mine, within max_ms of it; the check_buffer()
    WARNING only within max_ms of such an audit line."""
    fa = f.get('follow_audit')
    if not fa:
        return []
    window = fa['max_ms'] / 1e3
    steps = {}
    for line in mine:
        m, t = re.search(fa['step'], line), _line_time(line)
        if m and t is not None:
            steps.setdefault(int(m.group(1)) - int(m.group(2)), []).append(t)
    audits = []
    for line in lines:
        m, t = re.search(fa['audit'], line), _line_time(line)
        if m and t is not None and any(abs(t - s) <= window for s in
                                       steps.get(int(m.group(1)) - int(m.group(2)), [])):
            audits.append(line)
    times = [_line_time(line) for line in audits]
    warns = [line for line in lines if line not in audits and re.search(fa['warn'], line) and
             _line_time(line) is not None and
             any(abs(_line_time(line) - t) <= window for t in times)]
    return audits + warns


def _explains(f, sig, example, log_values):
    m = re.search(sig['example'], example)
    if not m:
        return False
    if 'max_gap' in sig:
        return 0 < int(m.group(2)) - int(m.group(1)) - 1 <= sig['max_gap']
    if 'same_as_log' in sig:
        # the same number the kernel's own audit printed for it
        return m.group(1) in log_values
    if 'near_log' in f:
        # the example's stamp (ns) near a kernel log line's time (s)
        return _near(f, int(m.group(1)) / 1e9, log_values)
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
            # one signature per rule the finding makes FAIL (a list, or one)
            sigs = f.get('checker') or []
            for sig in sigs if isinstance(sigs, list) else [sigs]:
                if sig['rule'] != r.get('rule') or not r.get('examples'):
                    continue
                values = set()
                if 'same_as_log' in sig:
                    pat = re.compile(sig['same_as_log'])
                    values = {m.group(1) for line in log for m in [pat.search(line)]
                              if m and _steps(f, line) and _dump_shows(f, line, log)}
                if 'near_log' in f:
                    values = _near_times(f, log)
                if all(_explains(f, sig, e, values) for e in r['examples']):
                    hit.append(f['id'])
                    break
        if not hit:
            return []
        ids += [i for i in hit if i not in ids]
    return ids


def complaints(lines):
    """The kernel log lines that are complaints."""
    return [line.rstrip() for line in lines if COMPLAINT.search(line)]


def log_findings(bad, scenario=None, findings=None, log=()):
    """(ids, unexplained): which findings explain the complaint lines bad
    (of a fault scenario, if given: a finding may be known in some only).
    log: the whole kernel log of the run, for a near_log signature (a
    complaint explained only close to another line: a clock's step)."""
    findings = load() if findings is None else findings
    ids, left = [], list(bad)
    for f in findings:
        if 'kernel_log' not in f:
            continue
        if scenario and f.get('scenarios') and scenario not in f['scenarios']:
            continue
        pat = re.compile(f['kernel_log'])
        times = _near_times(f, log) if 'near_log' in f else None
        mine = [line for line in left if pat.search(line) and _steps(f, line) and
                _dump_shows(f, line, log) and
                (times is None or _line_time(line) is not None and
                 _near(f, _line_time(line), times))]
        if not mine:
            continue
        mine += _audit_follows(f, mine, [line for line in left if line not in mine])
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
