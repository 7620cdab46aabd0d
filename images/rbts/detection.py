# SPDX-License-Identifier: GPL-2.0
"""./run.sh detection: which check catches which seeded fault.

The reserve model's seeded faults (userspace-checker/models/reserve/
extract-reserve.py: historical bugs of this code put back, and faults of
the same kind) are the project's own yardstick of detection power.  For
each fault that applies to the line's tree:

  model   rbreserve --variant FAULT at the default bounds (./run.sh model
          --reserve): counterexample or not, in how many executions
  live    one ./run.sh run --seed-fault FAULT (our series with the fault as
          a last patch) per clock asked for: which checks FAILed (the
          checker's rules, the kernel's log and audit, and the model check
          of the tree it booted) and the verdict

Writes results/detection-LINE-STAMP/detection.json and detection.md (the
table, with the command that made it: docs/detection.md is a copy), and
prints the table.  Each seeded tree is removed after its run unless
--keep-trees (1.5 GB each).

usage: rbts/detection.py [--kernel LINE] [--faults A,B] [--clocks C,D]
                          [--duration S] [--model-only] [--keep-trees]
exit:  0 the table is written, every fault caught by something; 1 a
       fault nothing caught; 2 bad input
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from rbts import kspec, model as modelmod, results, run as runmod
from rbts import lines as kernel_lines

HERE = kspec.IMAGES
TOP = kspec.TOP
MODEL = os.path.join(TOP, 'userspace-checker', 'models', 'reserve')
BUILD = os.environ.get('RBTS_BUILD', os.path.join(TOP, 'build'))


class Usage(Exception):
    """Bad input: one line saying what."""


def line_versions():
    """images/kernel/lines.table: each line and its kernel version, in order."""
    return {r.line: r.version for r in kernel_lines.rows()}


def lines():
    return kernel_lines.names()


def fault_names(ksrc=None):
    out = subprocess.run(['python3', 'extract-reserve.py', '--faults'] + ([ksrc] if ksrc else []),
                         cwd=MODEL, capture_output=True, text=True, check=True).stdout
    return out.split()


def fault_what(name):
    return subprocess.run(['python3', 'extract-reserve.py', '--faults-what', name], cwd=MODEL,
                          capture_output=True, text=True, check=True).stdout.strip()


def model_row(line, fault, out):
    """rbreserve on the fault (none: the tree), at the default bounds."""
    j = os.path.join(out, 'model-%s.json' % fault)
    with open(os.path.join(out, 'model-%s.txt' % fault), 'w') as log:
        try:
            rc = modelmod.reserve_model(line, 'ours', ['--variant', 'tree' if fault == 'none' else fault,
                                                       '--json', j], log=log)
        except (modelmod.ModelError, runmod.BuildError) as e:
            log.write('error: %s\n' % e)
            rc = 2
    try:
        with open(j) as f:
            res = json.load(f)
    except (OSError, ValueError):
        return {'verdict': 'error', 'why': 'rbreserve exited %d (model-%s.txt)' % (rc, fault)}
    return {'verdict': res['verdict'], 'executions': res['executions'],
            'bounds': res.get('bounds', ''), 'seconds': res['seconds']}


def live_row(line, fault, clock, duration, out):
    """One run of our series with the fault: the checks that FAILed."""
    log = os.path.join(out, 'live-%s-%s.log' % (fault, clock))
    seed = ['--seed-fault', fault] if fault != 'none' else []
    with open(log, 'w') as f:
        rc, res = runmod.run_options(['--kernel', line, '--clock', clock,
                                      '--duration', str(duration)] + seed, log=f)
    try:
        rid = os.path.basename(res or '')
        with open(results.path(res or '', 'verdict.json')) as f:
            v = json.load(f)
    except (OSError, ValueError):
        return {'verdict': 'ERROR', 'exit': rc, 'caught_by': [], 'run': None,
                'why': 'no verdict (%s)' % os.path.relpath(log, TOP)}
    caught = []
    for c in v['checks']:
        if c['verdict'] not in ('FAIL', 'ERROR', 'HUNG'):
            continue
        if c['name'] == 'coverage':
            continue	# a path not reached is not a fault caught
        if c.get('known'):
            caught.append('%s [known: %s]' % (c['name'], ', '.join(c['known'])))
        elif c['name'] in ('checker', 'offline'):
            try:
                with open(results.path(res, 'result.json' if c['name'] == 'checker'
                                       else 'offline.json')) as f:
                    got = json.load(f)
                rules = [r['rule'] for r in got.get('rules', []) if r.get('verdict') == 'FAIL']
                rules += [r['rule'] for r in got.get('generic', {}).get('rules', [])
                          if r.get('verdict') == 'FAIL']
            except (OSError, ValueError, AttributeError):
                rules = []
            caught.append('%s (%s)' % (c['name'], ', '.join(rules)) if rules else c['name'])
        elif c['name'] == 'kernel-log' and 'TIME DOES NOT MATCH' in (c['detail'] or ''):
            caught.append('kernel-log (audit)')
        else:
            caught.append(c['name'])
    return {'verdict': v['verdict'], 'exit': rc, 'caught_by': caught, 'run': rid,
            'known': v.get('known', [])}


def table(doc):
    clocks = doc['clocks']
    head = ['fault', 'model (default bounds)'] + ['live, %s clock: caught by' % c for c in clocks]
    rows = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for r in doc['faults']:
        m = r['model']
        cells = ['`%s`' % r['fault'],
                 ('**counterexample** (%s executions, %s)' % ('{:,}'.format(m['executions']),
                                                              m['bounds'])
                  if m['verdict'] == 'counterexample' else m['verdict'])]
        for c in clocks:
            lv = r.get('live', {}).get(c)
            if lv is None:
                cells.append('not run')
            else:
                cells.append('%s: %s' % (lv['verdict'], ', '.join(lv['caught_by']) or 'nothing'))
        rows.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows) + '\n'


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(message)


def parse(argv):
    ap = Parser(prog='./run.sh detection', add_help=False)
    ap.add_argument('--kernel', default=lines()[0])
    ap.add_argument('--faults')
    ap.add_argument('--clocks', default='global,counter')
    ap.add_argument('--duration', default='60')
    ap.add_argument('--model-only', action='store_true')
    ap.add_argument('--keep-trees', action='store_true')
    a, rest = ap.parse_known_args(argv)
    if rest:
        raise Usage("unknown option '%s'" % rest[0])

    if a.kernel not in lines():
        raise Usage("--kernel: no line '%s' (have: %s)" % (a.kernel, ' '.join(lines())))
    if not a.duration.isdigit() or not 1 <= int(a.duration) <= 3600:
        raise Usage("--duration must be 1 to 3600 seconds, not '%s'" % a.duration)
    a.clocks = a.clocks.split(',')
    for c in a.clocks:
        if c not in ('global', 'counter', 'local', 'mono', 'uptime', 'perf', 'mono_raw', 'boot'):
            raise Usage("--clocks: unknown clock '%s'" % c)
    known = fault_names()
    a.faults = a.faults.split(',') if a.faults else None
    for f in a.faults or []:
        if f not in known:
            raise Usage("--faults: no seeded fault '%s' (have: %s)" % (f, ' '.join(known)))
    return a


def main(argv):
    try:
        a = parse(argv)
    except Usage as e:
        print('run.sh: detection: %s' % e, file=sys.stderr)
        return 2
    out = os.path.join(TOP, 'results', 'detection-%s-%s' % (a.kernel, time.strftime('%Y%m%d-%H%M%S')))
    os.makedirs(out)
    # the faults that apply to our tree of the line (one edits our series)
    tree = os.path.join(BUILD, 'linux-' + line_versions()[a.kernel])
    faults = a.faults or fault_names(tree if os.path.isdir(tree) else None)
    doc = {'line': a.kernel, 'clocks': [] if a.model_only else a.clocks,
           'duration': int(a.duration), 'command': './run.sh detection ' + ' '.join(argv),
           'faults': []}
    # "none": our series as it is, the control: what FAILs there (open
    # findings, e.g. (d) under the counter clock) is not a fault's doing
    faults = ['none'] + faults
    for n, fault in enumerate(faults):
        print('detection: %d/%d %s' % (n, len(faults) - 1, fault), flush=True)
        row = {'fault': fault, 'what': fault_what(fault) if fault != 'none' else
               'our series as it is (the control)', 'model': model_row(a.kernel, fault, out)}
        print('  model: %s' % row['model']['verdict'], flush=True)
        if not a.model_only:
            row['live'] = {}
            for clock in a.clocks:
                lv = live_row(a.kernel, fault, clock, a.duration, out)
                row['live'][clock] = lv
                print('  live, %s clock: %s, caught by %s (results/%s)' % (
                    clock, lv['verdict'], ', '.join(lv['caught_by']) or 'nothing', lv['run']),
                    flush=True)
            if not a.keep_trees and fault != 'none':
                shutil.rmtree(os.path.join(BUILD, 'series-seeded-%s-%s' % (a.kernel, fault)),
                              ignore_errors=True)
        doc['faults'].append(row)
        with open(os.path.join(out, 'detection.json'), 'w') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')
    md = table(doc)
    with open(os.path.join(out, 'detection.md'), 'w') as f:
        f.write('Made by `%s` (%s, %s).\n\n' % (doc['command'].strip(), a.kernel,
                                                 time.strftime('%Y-%m-%d')) + md)
    print()
    print(md, end='')
    print('detection: %s' % os.path.relpath(out, TOP))
    missed = [r['fault'] for r in doc['faults'] if r['fault'] != 'none' and
              r['model']['verdict'] != 'counterexample' and
              not any(c for lv in r.get('live', {}).values() for c in lv['caught_by']
                      if '[known' not in c)]
    if missed:
        print('detection: caught by nothing: %s' % ', '.join(missed))
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
