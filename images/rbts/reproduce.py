# SPDX-License-Identifier: GPL-2.0
"""A finding's reproducer (images/findings.json): the run.sh options of one
run on a kernel line, before its fix (our series without the fixing patch)
or after it (our series), and the judging of the runs' results: hit or not.

  python3 -m rbts.reproduce args FINDING LINE before|after|vanilla
      the options of ./run.sh, one a line; vanilla: the natural rate, on
      the line's Debian kernel without our series and so without the
      test-only delays (the reproducer's --*-delay-us options go)
  python3 -m rbts.reproduce fix FINDING LINE
      the number of its fix in LINE's series
  python3 -m rbts.reproduce labels
      the findings that have a reproducer, by label
  python3 -m rbts.reproduce kernels FINDING
      the kernels it has: 'before after', or 'before' (a finding with no kernel fix: open or explained)
  python3 -m rbts.reproduce run FINDING LINE RUNS DIR [before|after|vanilla]
      RUNS runs of the reproducer on each of its kernels (or that one), each
      a Run of the spine (images/rbts/run.py) logged in DIR, then judged
      (./run.sh reproduce)
  python3 -m rbts.reproduce judge FINDING LINE DIR
      DIR/runs.txt has one 'KERNEL RUN-ID EXIT' line per run (KERNEL:
      before or after); writes DIR/summary.json and prints the summary

FINDING is an id or a label (b, i).  A run hits when what the finding's
reproducer names is in its results: a checker rule that FAILs (of its
fault scenario, if given), entries left in a CPU's buffer after the drain,
or a kernel complaint matching its kernel_log, and an open finding's
signature does not explain it instead (0004's filter scenario also meets
open finding (a)).  A run that did not finish (exit 2 or 3) is an error,
neither hit nor clean.

exit (run, judge): 0 the fix holds (after: no hit) and the reproducer hit before
      it, or an open finding's runs are judged; 1 a run after the fix hit;
      4 the reproducer never hit before the fix.  2 usage (an unknown
      finding, line or kernel)
"""
import json
import os
import re
import sys

from rbts import known_findings, kspec, results
from rbts import lines as kernel_lines

TOP = kspec.TOP


def fail(msg):
    sys.stderr.write('reproduce: %s\n' % msg)
    sys.exit(2)


def finding(name):
    for f in known_findings.load_all():
        if name in (f['id'], f.get('label')):
            return f
    fail("no finding '%s' in images/findings.json (have: %s)" % (name, ', '.join(
        '%s (%s)' % (f['label'], f['id']) for f in known_findings.load_all() if 'reproducer' in f)))


def series_dir(line):
    row = kernel_lines.get(line)
    if not row:
        fail("no kernel line '%s' in images/kernel/lines.table" % line)
    return row.series


def fix_number(f, line):
    """The number(s) in LINE's fixes part of the finding's fix, from its
    name, and of the fixes that use its code and must go with it
    (also_without: fixes/0009 changes the condition fixes/0007 changes), comma
    separated as --without takes them."""
    if 'fix' not in f:
        return None
    with open(os.path.join(series_dir(line), 'fixes', 'series')) as s:
        names = [p.split('#')[0].strip() for p in s]
    nums = []
    for fix in [f['fix']] + f.get('also_without', []):
        hit = [p[:4] for p in names if re.fullmatch(r'\d{4}-' + re.escape(fix) + r'\.patch', p)]
        if not hit:
            fail('%s: its fix %s is not in the %s series' % (f['label'], fix, line))
        nums.append(hit[0])
    return ','.join(nums)


def args(f, line, kernel):
    if 'reproducer' not in f:
        fail('%s has no live reproducer (%s says how it is found)' % (f['label'], f['doc']))
    out = list(f['reproducer']['args']) + ['--kernel', line]
    if kernel not in kernels(f) + ['vanilla']:
        fail("%s: the kernel is one of %s, not '%s'" % (
            f['label'], ' '.join(kernels(f) + ['vanilla']), kernel))
    if kernel == 'vanilla':
        # The test-only waits are our series' (run.sh --*-delay-us N):
        # a vanilla kernel has none, and its rate is the natural one.
        natural, skip = [], False
        for a in out:
            if skip:
                skip = False
            elif re.fullmatch(r'--[a-z]+-delay-us', a):
                skip = True
            else:
                natural.append(a)
        return natural + ['--vanilla']
    n = fix_number(f, line)
    if kernel == 'before' and n:
        out += ['--without', n]
    return out


def kernels(f):
    """before: our series without the fix (a finding with no kernel fix,
    open or explained: our series); after: our series, with it."""
    return ['before', 'after'] if 'fix' in f else ['before']


def read_json(path):
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None



def judge_run(f, run):
    """(hit, what): whether the run's results show the finding, and why."""
    hit = f['reproducer']['hit']
    where = os.path.join(run, 'faults', hit['scenario']) if 'scenario' in hit else run
    res = read_json(results.path(where, 'result.json')) or {}
    logs = results.read_lines(results.path(where, 'dmesg.txt')) + \
        (results.read_lines(results.path(run, 'console.log')) if 'scenario' not in hit else [])
    # The other open findings: what they explain is theirs, not this one's.
    others = [o for o in known_findings.load() if o['id'] != f['id']]
    # Each kind of evidence counts unless another open finding explains it:
    # a run may show two findings, the checker one and the kernel another.
    why, explained = [], False
    failing = [r['rule'] for r in res.get('rules', []) if r.get('verdict') == 'FAIL']
    mine = [r for r in failing if r in hit.get('rules', [])]
    if mine and known_findings.checker_findings(res, others, logs):
        explained = True
    else:
        why += ['%s FAIL' % r for r in mine]
    if hit.get('entries_left'):
        left = [(cpu, n) for cpu, n in enumerate(res.get('entries_left') or []) if n]
        why += ['cpu%d: %d entries left after the drain' % c for c in left]
    if hit.get('kernel_log'):
        pat = re.compile(hit['kernel_log'])
        seen = [line for line in known_findings.complaints(logs) if pat.search(line)]
        left = known_findings.log_findings(seen, findings=others, log=logs)[1]
        explained = explained or len(left) < len(seen)
        if left:
            why.append('kernel: ' + left[0].strip()[:100])
    if not why:
        return False, 'explained by an open finding instead' if explained else ''
    return True, '; '.join(why)


def judge(f, line, out):
    runs = []
    for row in results.read_lines(os.path.join(out, 'runs.txt')):
        kernel, rid, rc = row.split()
        run = rid if os.path.isabs(rid) else os.path.join(TOP, 'results', rid)
        if rc in ('2', '3') or not os.path.isdir(run):
            runs.append({'kernel': kernel, 'run': rid, 'exit': int(rc), 'outcome': 'error',
                         'why': 'the run did not finish (exit %s)' % rc})
            continue
        hit, why = judge_run(f, run)
        runs.append({'kernel': kernel, 'run': rid, 'exit': int(rc),
                     'outcome': 'hit' if hit else 'clean', 'why': why})
    summary = {'finding': f['id'], 'label': f['label'], 'line': line,
               'reproducer': f['reproducer']['args'], 'runs': runs, 'rates': {}}
    for kernel in ('before', 'after', 'vanilla'):
        mine = [r for r in runs if r['kernel'] == kernel]
        if not mine:
            continue
        rate = {'hits': sum(r['outcome'] == 'hit' for r in mine),
                'runs': sum(r['outcome'] != 'error' for r in mine),
                'errors': sum(r['outcome'] == 'error' for r in mine)}
        summary['rates'][kernel] = rate
        rate['without'] = fix_number(f, line) if kernel == 'before' else None
    with open(os.path.join(out, 'summary.json'), 'w') as fh:
        json.dump(summary, fh, indent=1)
        fh.write('\n')
    print('finding %s (%s) on %s: %s' % (f['label'], f['id'], line, f['title']))
    for kernel, rate in summary['rates'].items():
        what = 'our series' if not rate['without'] else 'our series without %s' % rate['without']
        if kernel == 'vanilla':
            what = 'vanilla %s, no test-only delay: the natural rate' % line
        if kernel == 'before' and 'fix' not in f:
            what += (': not the ring buffer (the harness, fixed there)'
                     if f['status'] == 'explained' else ': no fix yet')
        print('  %-6s (%s): %d of %d runs hit%s' % (
            kernel, what, rate['hits'], rate['runs'],
            ', %d did not finish' % rate['errors'] if rate['errors'] else ''))
    for r in runs:
        print('    %-6s %s %-5s %s' % (r['kernel'], r['run'], r['outcome'], r['why']))
    rates = summary['rates']
    if 'after' not in rates:
        return 0	# an open finding, or the natural rate alone
    if rates['after']['hits']:
        return 1
    return 4 if 'before' in rates and not rates['before']['hits'] else 0


def run(f, line, runs, out, only=None):
    """RUNS runs of F's reproducer on each of its kernels, in-process
    through the spine (images/rbts/run.py), then judged."""
    from rbts import run as runmod
    have = kernels(f)
    if only:
        if only not in have + ['vanilla']:
            fail('finding %s has no %s kernel (it has: %s)' % (f['label'], only, ' '.join(have)))
        have = [only]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'runs.txt'), 'w'):
        pass
    for kernel in have:
        opts = args(f, line, kernel)
        with open(os.path.join(out, 'command-' + kernel), 'w') as fh:
            fh.write('./run.sh %s\n' % ' '.join(opts))
        what = {'vanilla': 'vanilla (natural rate)'}.get(
            kernel, 'our series (no kernel fix)' if have == ['before'] else kernel + ' the fix')
        for i in range(1, runs + 1):
            print('==> reproduce %s on %s, %s: run %d of %d: ./run.sh %s'
                  % (f['label'], line, what, i, runs, ' '.join(opts)), flush=True)
            log = os.path.join(out, '%s-%d.log' % (kernel, i))
            with open(log, 'w') as fh:
                try:
                    rc, res = runmod.run_options(opts, log=fh)
                except runmod.planmod.PlanError as e:
                    fail('%s: its reproducer is not a run: %s' % (f['label'], e))
            tail = results.read_lines(log)
            print('  ' + (tail[-1] if tail else ''), flush=True)
            # none: a run that stopped before it had a results directory
            with open(os.path.join(out, 'runs.txt'), 'a') as fh:
                fh.write('%s %s %d\n' % (kernel, os.path.basename(res) if res else 'none', rc))
    return judge(f, line, out)


def labels():
    """The findings that have a reproducer, by label."""
    return [f['label'] for f in known_findings.load_all() if 'reproducer' in f]


def main(argv):
    if len(argv) in (5, 6) and argv[0] == 'run':
        f = finding(argv[1])
        series_dir(argv[2])
        if not re.fullmatch(r'[1-9][0-9]{0,2}', argv[3]):
            fail('RUNS must be 1 to 999, not %r' % argv[3])
        return run(f, argv[2], int(argv[3]), argv[4], argv[5] if len(argv) == 6 else None)
    if len(argv) == 4 and argv[0] == 'args':
        print('\n'.join(args(finding(argv[1]), argv[2], argv[3])))
    elif len(argv) == 4 and argv[0] == 'judge':
        f = finding(argv[1])
        series_dir(argv[2])
        return judge(f, argv[2], argv[3])
    elif len(argv) == 3 and argv[0] == 'fix':
        n = fix_number(finding(argv[1]), argv[2])
        if not n:
            fail('%s has no fix' % argv[1])
        print(n)
    elif argv == ['labels']:
        print(' '.join(labels()))
    elif len(argv) == 2 and argv[0] == 'kernels':
        print(' '.join(kernels(finding(argv[1]))))
    else:
        fail('usage: python3 -m rbts.reproduce args FINDING LINE before|after|vanilla | judge FINDING LINE DIR')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
