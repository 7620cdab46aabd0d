# SPDX-License-Identifier: GPL-2.0
"""./run.sh matrix (python3 -m rbts.matrix): the soak matrix, run here one cell at a time, or
written as LAVA jobs for a lab (docs/lab.md).

A matrix file names axes, one per line: an axis and its values.  Every
combination of values is a cell, and a cell is one ./run.sh run (the axes
are its options: AXES below).  Locally each cell runs in turn and the
matrix prints one table (cell, verdict, events, nested, violations, kernel
complaints, results directory) and writes results/matrix-<stamp>/.  With
--lava DIR it writes one LAVA job per cell instead (DIR/jobs/), with the
artifacts the jobs deploy (DIR/artifacts/, or served at --artifacts URL)
and the device configuration of this machine (DIR/devices/); --validate
runs each job through lava-run --validate, --lava-run runs each here under
lava-run (the dispatcher alone, no server) and reads its test cases back.

A cell's test cases are images/guest/cases.sh's: the guest prints them on
the console for LAVA, the host makes them from the results directory, so
a lab's results and ours are the same cases by construction.

Exit: 0 every cell PASS (or every job valid), 1 a cell FAILed, 2 bad
input or a run that did not finish.
"""
import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time

from rbts import kspec, plan as planmod, results, run as runmod

HERE = kspec.IMAGES     # images/: the guest's cases, the complaints, lava/
TOP = kspec.TOP
CASES = os.path.join(HERE, 'guest', 'cases.sh')
PATTERN = os.path.join(HERE, 'kernel-complaints.pattern')
DEVICES = os.path.join(HERE, 'lava')

# axis -> (what it is, the ./run.sh run options of a value)
AXES = {
    'kernel': ('kernel line', lambda v: ['--kernel', v]),
    'variant': ('default, debug or rb-time-32', lambda v: [] if v == 'default' else ['--' + v]),
    'clock': ('trace clock', lambda v: ['--clock', v]),
    'cpus': ('guest CPUs', lambda v: ['--cpus', v]),
    'arch': ('x86_64 or i386', lambda v: ['--arch', v]),
    'faults': ('none, or fault scenarios (a,b,...)', lambda v: [] if v == 'none' else ['--faults', v]),
    'duration': ('seconds verified (90s, 30m, 1h)', lambda v: ['--duration', v]),
    'legacy': ('no, or yes: the negative control', lambda v: ['--legacy-nested-ts'] if v == 'yes' else []),
}
VALUES = {'variant': {'default', 'debug', 'rb-time-32'}, 'legacy': {'no', 'yes'}}

CASE_RE = re.compile(r'^rbts: case (\S+) (pass|fail|skip)$')


class MatrixError(Exception):
    """Bad input: one line saying what and where."""


def parse(path):
    """[(axis, [values])] in the file's order."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise MatrixError('%s: cannot read: %s' % (path, e.strerror))
    axes = []
    for n, line in enumerate(lines, 1):
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        axis, values = words[0].rstrip(':'), words[1:]
        where = '%s:%d' % (path, n)
        if axis not in AXES:
            raise MatrixError('%s: unknown axis "%s" (have: %s)' % (where, axis, ', '.join(AXES)))
        if any(a == axis for a, _ in axes):
            raise MatrixError('%s: axis "%s" given twice' % (where, axis))
        if not values:
            raise MatrixError('%s: axis "%s" has no values' % (where, axis))
        bad = [v for v in values if axis in VALUES and v not in VALUES[axis]]
        if bad:
            raise MatrixError('%s: %s: "%s" is not one of %s' % (
                where, axis, bad[0], ', '.join(sorted(VALUES[axis]))))
        if len(set(values)) != len(values):
            raise MatrixError('%s: axis "%s" repeats a value' % (where, axis))
        axes.append((axis, values))
    if not axes:
        raise MatrixError('%s: no axes: nothing to run' % path)
    return axes


def cells(axes):
    """Every combination, named by the values of the axes that vary."""
    out = []
    for combo in itertools.product(*[v for _, v in axes]):
        cell = dict(zip([a for a, _ in axes], combo))
        def word(a):
            return {'cpus': '%scpu' % cell[a],
                    'legacy': 'legacy' if cell[a] == 'yes' else 'fixed'}.get(a, cell[a])
        name = '-'.join(word(a) for a, v in axes if len(v) > 1) or '-'.join(word(a) for a, _ in axes)
        out.append({'name': re.sub(r'[^A-Za-z0-9._-]', '_', name), 'axes': cell,
                    'options': [o for a, _ in axes for o in AXES[a][1](cell[a])]})
    return out


def cell_plan(cell, extra=()):
    """The cell's Plan (its options as ./run.sh run takes them): the
    Plan's own error if not."""
    try:
        return planmod.Plan('run').parse(cell['options'] + list(extra))
    except planmod.PlanError as e:
        raise MatrixError('cell %s: %s' % (cell['name'], e))


def check_options(cell):
    cell_plan(cell, ['--dry-run'])


def cases(out):
    """A results directory's test cases: {name: pass|fail|skip} (cases.sh)."""
    p = subprocess.run(['sh', CASES, out, PATTERN], capture_output=True, text=True)
    return dict(m.groups() for m in map(CASE_RE.match, p.stdout.splitlines()) if m)


def console_cases(path):
    """The cases a guest printed on its console (rbts.ktapconsole=1)."""
    try:
        with open(path, errors='replace') as f:
            return dict(m.groups() for m in (CASE_RE.match(line.strip()) for line in f) if m)
    except OSError:
        return {}


def numbers(out):
    """events, nested, violations of every checker result, and complaints."""
    n = {'events': 0, 'nested': 0, 'violations': 0, 'complaints': 0}
    faults = results.path(out, 'faults')
    dirs = [out] + sorted(os.path.join(faults, d) for d in
                          (os.listdir(faults) if os.path.isdir(faults) else []))
    pat = re.compile(open(PATTERN).read().strip())
    for d in dirs:
        try:
            with open(results.path(d, 'result.json')) as f:
                r = json.load(f)
            n['events'] += r.get('events', 0)
            n['nested'] += sum(c.get('nested', 0) for cpu in r.get('cpus', [])
                               for c in cpu.get('contexts', []))
            n['violations'] += sum(x.get('violations', 0) for x in r.get('rules', []))
        except (OSError, ValueError):
            pass
        try:
            with open(results.path(d, 'dmesg.txt'), errors='replace') as f:
                n['complaints'] += sum(1 for line in f if pat.search(line))
        except OSError:
            pass
    return n


def table(rows, cols):
    w = [max(len(c), *(len(str(r.get(c, ''))) for r in rows)) for c in cols]
    out = ['  '.join(c.ljust(x) for c, x in zip(cols, w))]
    out += ['  '.join(str(r.get(c, '')).ljust(x) for c, x in zip(cols, w)) for r in rows]
    return '\n'.join(line.rstrip() for line in out)


def run_local(cs, path):
    stamp = time.strftime('%Y%m%d-%H%M%S')
    out = os.path.join(TOP, 'results', 'matrix-%s' % stamp)
    os.makedirs(out)
    rows, worst = [], 0
    for i, c in enumerate(cs, 1):
        print('matrix: cell %d of %d: %s: ./run.sh run %s' % (i, len(cs), c['name'], ' '.join(c['options'])),
              flush=True)
        log = os.path.join(out, c['name'] + '.log')
        with open(log, 'w') as f:
            r = runmod.Run(cell_plan(c, ['--ktap-console']), log=f)
            rc = r.execute()
        res = r.out or ''
        rid = os.path.basename(res) if res else ''
        # a cell that PASSed but did not reach every path is INCOMPLETE,
        # one whose guest hung HUNG: neither is a set-up error
        verdict = results.verdict_of_exit(rc)
        row = dict(cell=c['name'], options=' '.join(c['options']), verdict=verdict, exit=rc,
                   results='results/' + rid if rid else '(none: see %s)' % os.path.relpath(log, TOP))
        if res:
            row.update(numbers(res))
            row['cases'] = cases(res)
            # what the guest printed for a lab, from the same boot
            row['console_cases'] = console_cases(results.path(res, 'console.log'))
        rows.append(row)
        worst = max(worst, {0: 0, 1: 1}.get(rc, 2))
        print('matrix: cell %d of %d: %s %s (%s)' % (i, len(cs), c['name'], verdict, row['results']),
              flush=True)
    text = table(rows, ['cell', 'verdict', 'events', 'nested', 'violations', 'complaints', 'results'])
    with open(os.path.join(out, 'matrix.json'), 'w') as f:
        json.dump({'matrix': os.path.abspath(path), 'cells': rows}, f, indent=1)
    with open(os.path.join(out, 'matrix.txt'), 'w') as f:
        f.write(text + '\n')
    print('\n' + text + '\n\nmatrix: %d cell(s), %s; results/matrix-%s/matrix.json' % (
        len(rows), 'all PASS' if worst == 0 else 'not all PASS', stamp))
    return worst


def yaml(v, ind=0):
    """YAML of dicts, lists and scalars; strings double-quoted (JSON's)."""
    pad = '  ' * ind
    if isinstance(v, dict):
        return ''.join('%s%s:%s' % (pad, k, (' ' + yaml(x).strip() + '\n') if not isinstance(x, (dict, list))
                                     else '\n' + yaml(x, ind + 1)) for k, x in v.items())
    if isinstance(v, list):
        out = ''
        for x in v:
            body = yaml(x, ind + 1)
            out += '%s- %s' % (pad, body.lstrip() if isinstance(x, (dict, list)) else body.strip() + '\n')
        return out
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return str(v)
    return json.dumps(v)


def lava_job(c, plan, url):
    """One cell as a LAVA job: deploy to tmpfs, boot QEMU, read the cases."""
    art = '%s/%s' % (url.rstrip('/'), plan['kspec'].replace(':', '_'))
    minutes = -(-(plan['timeout'] + 60) // 60)
    return {
        'device_type': 'qemu',
        'job_name': 'rbts %s: ./run.sh run %s' % (c['name'], ' '.join(c['options'])),
        # The monitor waits for the cases as long as the run may take.
        'timeouts': {'job': {'minutes': minutes + 10}, 'action': {'minutes': 5},
                     'connections': {'lava-test-monitor': {'minutes': minutes}}},
        'priority': 'medium',
        'visibility': 'public',
        # A lab's qemu device type reads these; ours (images/lava) has them.
        'context': {'arch': 'amd64', 'no_kvm': True, 'memory': 1024,
                    'extra_options': ['-cpu max', '-accel tcg,thread=multi', '-no-reboot']},
        'actions': [
            {'deploy': {'to': 'tmpfs', 'timeout': {'minutes': 5}, 'images': {
                'kernel': {'image_arg': '-kernel {kernel} -smp %d -append "%s"' % (
                    plan['cpus'], plan['cmdline']),
                           'url': art + '/bzImage'},
                'ramdisk': {'image_arg': '-initrd {ramdisk}', 'url': art + '/initramfs.cpio.gz'}}}},
            {'boot': {'method': 'qemu', 'media': 'tmpfs', 'timeout': {'minutes': 2}}},
            {'test': {'timeout': {'minutes': minutes}, 'monitors': [{
                'name': 'rbts-' + c['name'],
                'start': 'rbts: cases begin',
                'end': 'rbts: cases end',
                'pattern': r'rbts: case (?P<test_case_id>\S+) (?P<result>pass|fail|skip)'}]}},
        ],
    }


def write_lava(cs, out, url, build):
    os.makedirs(os.path.join(out, 'jobs'), exist_ok=True)
    os.makedirs(os.path.join(out, 'devices'), exist_ok=True)
    for f in os.listdir(DEVICES):
        if f.endswith('.yaml'):
            shutil.copy(os.path.join(DEVICES, f), os.path.join(out, 'devices', f))
    url = url or 'file://' + os.path.abspath(os.path.join(out, 'artifacts'))
    index = []
    for i, c in enumerate(cs, 1):
        if c['axes'].get('arch', 'x86_64') != 'x86_64':
            raise MatrixError('cell %s: --arch i386 drains its sub-buffers to the host through a '
                              'disk: no LAVA job (x86_64 cells only)' % c['name'])
        cp = cell_plan(c, ['--ktap-console', '--dry-run'])
        plan = cp.to_json()
        if build:
            print('matrix: cell %d of %d: %s: kernel %s' % (i, len(cs), c['name'], plan['kspec']), flush=True)
            with open(os.path.join(out, c['name'] + '-build.log'), 'w') as f:
                try:
                    runmod.Run(cp, log=f).build()
                except runmod.BuildError as e:
                    raise MatrixError('cell %s: build failed: %s (%s)' % (c['name'], e, f.name))
            art = os.path.join(out, 'artifacts', plan['kspec'].replace(':', '_'))
            os.makedirs(art, exist_ok=True)
            shutil.copy(plan['kernel'], os.path.join(art, 'bzImage'))
            shutil.copy(plan['initramfs'], os.path.join(art, 'initramfs.cpio.gz'))
        job = os.path.join('jobs', c['name'] + '.yaml')
        with open(os.path.join(out, job), 'w') as f:
            f.write('# %s\n# ./run.sh run %s\n' % (c['name'], ' '.join(c['options'])))
            f.write(yaml(lava_job(c, plan, url)))
        index.append({'cell': c['name'], 'options': ' '.join(c['options']), 'job': job,
                      'device': 'devices/rbts-qemu-%s.yaml' % plan['arch'], 'kspec': plan['kspec'],
                      'cmdline': plan['cmdline'], 'cpus': plan['cpus'],
                      'kernel': '%s/%s/bzImage' % (url.rstrip('/'), plan['kspec'].replace(':', '_'))})
    with open(os.path.join(out, 'jobs.json'), 'w') as f:
        json.dump({'artifacts': url, 'jobs': index}, f, indent=1)
    print('matrix: %d LAVA job(s) in %s/jobs, artifacts %s' % (len(index), out, url))
    return index


def lava_run(out, index, validate):
    """Each job under lava-run here; its results cases back as {case: result}."""
    if subprocess.run([os.path.join(HERE, 'install-deps.sh'), 'lava']).returncode != 0 or \
            not shutil.which('lava-run'):
        raise MatrixError('lava-run not found and not installed (apt-get install lava-dispatcher)')
    rows, worst = [], 0
    for i, j in enumerate(index, 1):
        what = 'validating' if validate else 'running'
        print('matrix: job %d of %d: %s %s under lava-run' % (i, len(index), what, j['cell']), flush=True)
        od = os.path.join(out, 'lava-out', j['cell'])
        shutil.rmtree(od, ignore_errors=True)
        log = os.path.join(out, 'lava-out', j['cell'] + ('.validate' if validate else '') + '.log')
        os.makedirs(os.path.dirname(log), exist_ok=True)
        cmd = ['lava-run', '--job-id', str(i), '--output-dir', od, '--device',
               os.path.join(out, j['device'])] + (['--validate'] if validate else []) + \
            [os.path.join(out, j['job'])]
        with open(log, 'w') as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=out).returncode
        res, lava, errors = {}, {}, []
        with open(log, errors='replace') as f:
            for line in f:
                try:
                    m = json.loads(line)
                except ValueError:
                    continue
                msg = m.get('msg')
                if m.get('lvl') == 'results' and isinstance(msg, dict):
                    if msg.get('definition') == 'lava':
                        lava[msg.get('case')] = msg.get('result')
                        if msg.get('error_msg'):
                            errors.append(msg['error_msg'].strip())
                    else:
                        # LAVA's case id is lower case, '_' for '-': ours is kept in extra
                        res[(msg.get('extra') or {}).get('test_case_id', msg.get('case'))] = \
                            msg.get('result')
        ok = rc == 0 and lava.get('job') == 'pass'
        row = {'cell': j['cell'], 'exit': rc, 'job': 'pass' if ok else 'fail',
               'log': os.path.relpath(log, out), 'cases': res, 'errors': errors}
        if not validate:
            row['verdict'] = 'PASS' if ok and res and all(r != 'fail' for r in res.values()) else 'FAIL'
        rows.append(row)
        worst = max(worst, 0 if ok and row.get('verdict', 'PASS') == 'PASS' else (1 if ok else 2))
        print('matrix: job %d of %d: %s: %s%s' % (
            i, len(index), j['cell'], row.get('verdict', 'valid' if ok else 'INVALID'),
            ('; ' + errors[0].splitlines()[0]) if errors else ''), flush=True)
    name = 'lava-validate.json' if validate else 'lava-results.json'
    with open(os.path.join(out, name), 'w') as f:
        json.dump({'jobs': rows}, f, indent=1)
    print('matrix: %s/%s' % (out, name))
    return worst


def main(argv=None):
    ap = argparse.ArgumentParser(prog='./run.sh matrix', add_help=False)
    ap.add_argument('file', nargs='?')
    ap.add_argument('--lava')
    ap.add_argument('--artifacts')
    ap.add_argument('--no-build', action='store_true')
    ap.add_argument('--validate', action='store_true')
    ap.add_argument('--lava-run', action='store_true')
    try:
        a, rest = ap.parse_known_args(argv)
        if rest:
            raise MatrixError('unknown option "%s"' % rest[0])
        if not a.file:
            raise MatrixError('which matrix? ./run.sh matrix FILE (the default: images/matrix.default)')
        if (a.artifacts or a.no_build or a.validate or a.lava_run) and not a.lava:
            raise MatrixError('--artifacts, --no-build, --validate and --lava-run go with --lava DIR')
        if a.validate and a.lava_run:
            raise MatrixError('--validate or --lava-run, not both')
        cs = cells(parse(a.file))
        for c in cs:
            check_options(c)
        if not a.lava:
            return run_local(cs, a.file)
        index = write_lava(cs, os.path.abspath(a.lava), a.artifacts, not a.no_build)
        if a.validate or a.lava_run:
            return lava_run(os.path.abspath(a.lava), index, a.validate)
        return 0
    except MatrixError as e:
        print('matrix: error: %s' % e, file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
