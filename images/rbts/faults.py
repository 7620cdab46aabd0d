# SPDX-License-Identifier: GPL-2.0
"""The fault scenarios of job faults: each one file, images/guest/faults/
NN-NAME.sh, its one entry.  The file's body is the injector (sourced by
the guest's rbts-faults, images/guest/faults.sh, with I, BUFKB, CLOCK,
MODPARAMS, $checker and the helpers pause and stall_reader; 'return 1':
it could not be injected), and its header says the rest:

  # what:       what the fault does (the help, docs)
  # evidence:   a Python expression over faults (result.json's "faults"
                counters), inj (the injector's counts, injected.txt), lost
                (the events the buffer reported lost) and INFLIGHT: true
                when the fault left the evidence that it acted
  # says:       the evidence in words, str.format() over the same names
  # skip-when:  (optional) an expression: the scenario could not run here
  # skip-says:  why

NN orders them: the default list of job faults (images/guest/settings.table
says @faults) is every file in that order; 'mixed' is all of them
interleaved, the injector's own.  images/rbts/faults_table.py judges each
scenario's evidence from here.
"""
import collections
import os
import re

DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'guest', 'faults')
Fault = collections.namedtuple('Fault', 'name path what evidence says skip_when skip_says')
KEYS = ('what', 'evidence', 'says', 'skip-when', 'skip-says')


class FaultError(Exception):
    """A fault file that does not say what it must: one line."""


def load():
    """Every fault, in order."""
    out = []
    for f in sorted(os.listdir(DIR)):
        m = re.fullmatch(r'\d+-([a-z][a-z-]*)\.sh', f)
        if not m:
            continue
        head = {}
        with open(os.path.join(DIR, f)) as fh:
            for row in fh:
                k = re.match(r'#\s*([a-z-]+):\s?(.*)$', row)
                if k and k.group(1) in KEYS:
                    head[k.group(1)] = k.group(2).strip()
        for need in ('what', 'evidence'):
            if not head.get(need):
                raise FaultError('%s: no "# %s:" line' % (os.path.join(DIR, f), need))
        out.append(Fault(m.group(1), os.path.join(DIR, f), head['what'], head['evidence'],
                         head.get('says', ''), head.get('skip-when'), head.get('skip-says', '')))
    return out


def names():
    return [f.name for f in load()]


def get(name):
    return next((f for f in load() if f.name == name), None)


def judge(fault, res, inj, inflight):
    """(skip, ok, says) of one scenario's results: SKIP when its skip-when
    holds, else whether its evidence does."""
    names = {'faults': collections.defaultdict(int, res.get('faults') or {}),
             'inj': collections.defaultdict(int, inj), 'lost': res.get('lost_events', 0),
             'INFLIGHT': inflight}
    if fault.skip_when and eval(fault.skip_when, {}, names):
        return True, True, fault.skip_says
    ok = bool(eval(fault.evidence, {}, names))
    return False, ok, fault.says.format(**names) if fault.says else ''
