# SPDX-License-Identifier: GPL-2.0
"""The verdict of one run, decided here and nowhere else, from what the
run left as structured results in RESULTS-DIR:

  guest       'job-exit' (the guest job's exit status in the guest, or
              "drained": then 'drain-verify-exit', the host's verify of the
              drained sub-buffers, rbts/collect.py), 'error.txt' (set-up
              error in the guest); neither: the guest died
  checker     result.json (the rules; a FAIL only by an open finding's
              signature is known, images/findings.json)
  kernel log  console.log and dmesg.txt against
              images/kernel-complaints.pattern (for a faults run: what came
              before the scenarios and after; rbts/faults_table.py judges each
              scenario's own log); the ring buffer's startup test when the
              kernel has it (--startup-test)
  offline     offline.json: the guest's trace.dat verified on the host
  raw         offline-raw.json: the live run's own sub-buffers verified on
              the host; must agree with result.json
  faults      faults/faults.json (images/rbts/faults_table.py)
  model       model.json: the reserve-path model of the tree the run booted
              (images/rbts/model_verdict.py); a counterexample FAILs the run
  rb-time-model  model.json's rb_time: the rb_time_t model of that tree's
              32-bit rb_time_t, for a kernel that uses it (--rb-time-32, a
              32-bit 6.1); a counterexample FAILs the run
  path-counters  the kernel's path counters are its line's (one set of A-C
              outcomes; read_failed only with a 32-bit rb_time_t)
  coverage    the kernel's path counters (result.json) against
              images/coverage.table, with the run's settings (settings,
              module-settings.txt, phases): a path expected and not reached
              leaves a PASS incomplete

Writes verdict.json (verdict, exit, checks with their reasons, known
findings, unexplained failures) and verdict.txt, prints what a person
needs, and exits with the run's status.

usage: python3 -m rbts.verdict RESULTS-DIR [--startup-test] [--hung SECONDS]
       (a Run calls main() in-process)
exit:  0 PASS, 1 FAIL, 2 ERROR (set-up), 3 HUNG (the guest hung or crashed),
       4 PASS but incomplete (a time stamp path expected and not reached)
"""
import argparse
import json
import os
import sys

from rbts import known_findings, kspec, results
from rbts import lines as kernel_lines

# The outcomes of an interruption between A and C, as each line's code
# counts them (our series' counters): 6.1 two, 6.12 three.  A kernel counts
# one set, whole.
A_TO_C_SETS = ({'A-C', 'A-C,C-F_delta_0'}, {'B-C', 'A-B_delta_0', 'C-F_delta_0'})

EXIT = {v: n for v, n in results.EXIT.items() if v != 'INCOMPLETE'}
EXIT_INCOMPLETE = results.EXIT['INCOMPLETE']
# Coverage is judged on runs at least this long (the default run's length).
COVERAGE_MIN_SECONDS = 60


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return None


def read_json(path):
    text = read(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def comparable(d):
    """A result.json without what only a live run can read, and without the
    rules over every event, which only rbcheck verify applies (live reads
    the rbstress events alone)."""
    d = dict(d)
    for key in ('source', 'path_counters', 'entries_left', 'fast_path', 'settings', 'verdict',
                'generic'):
        d.pop(key, None)
    d['rules'] = [r for r in d.get('rules', []) if r['rule'] != 'counters']
    return d


class Run:
    def __init__(self, out):
        self.out = out
        self.checks = []	# {name, verdict, detail}
        self.known = []
        self.unexplained = []

    def check(self, name, verdict, detail, known=()):
        self.checks.append({'name': name, 'verdict': verdict, 'detail': detail,
                            'known': list(known)})
        for k in known:
            if k not in self.known:
                self.known.append(k)
        if verdict in ('FAIL', 'ERROR') and not known:
            self.unexplained.append('%s: %s' % (name, detail))

    def path(self, name):
        """Every file is read and written by its name in the results
        layout (images/rbts/results.py)."""
        return results.path(self.out, name)


def check_guest(run, hung):
    if hung is not None:
        run.check('guest', 'HUNG', 'the guest did not finish within %ss or QEMU failed '
                  '(console.log)' % hung)
        return None
    err = read(run.path('error.txt'))
    if err:
        run.check('guest', 'ERROR', 'set-up error in the guest: ' + err.strip().splitlines()[0])
        return None
    rc = read(run.path('job-exit'))
    if rc is None:
        # Died of a known finding (panic_on_warn on its warning)?
        lines = (read(run.path('console.log')) or '').splitlines()
        bad = known_findings.complaints(lines)
        ids, left = known_findings.log_findings(bad, log=lines)
        run.check('guest', 'ERROR', 'the guest wrote no verdict: it died (console.log)',
                  ids if bad and not left else ())
        return None
    run.check('guest', 'PASS', 'the guest finished its job')
    if rc.strip() == 'drained':
        # the checker ran on the host (rbts/collect.py)
        rc = read(run.path('drain-verify-exit'))
        if rc is None:
            run.check('checker', 'ERROR', 'the guest drained its sub-buffers, but the host '
                      'did not verify them (no drain-verify-exit)')
            return None
    return rc.strip()


def check_checker(run, rc, faults):
    res = read_json(run.path('result.json'))
    if rc not in ('0', '1'):
        run.check('checker', 'ERROR', 'the checker exited %s (summary.txt)' % rc)
        return
    if rc == '0':
        run.check('checker', 'PASS', 'every rule PASSed' if res else 'the job PASSed')
        return
    if faults:
        # Each scenario's checker is judged by the faults table: a FAIL
        # there that every row explains is as known as the rows are.
        rows = (read_json(run.path(os.path.join('faults', 'faults.json'))) or {}).get('scenarios')
        if rows and not any(r['verdict'] == 'FAIL' for r in rows):
            known = [k for r in rows for k in r.get('known', [])]
            run.check('checker', 'FAIL', 'FAIL in the fault scenarios: ' + ', '.join(
                r['scenario'] for r in rows if r['verdict'] == 'KNOWN'),
                sorted(set(known)))
            return
    failing = [r for r in (res or {}).get('rules', []) if r.get('verdict') == 'FAIL']
    detail = ', '.join('%s (%d)' % (r['rule'], r.get('violations', 0)) for r in failing) \
        or 'the job FAILed'
    if failing and failing[0].get('examples'):
        detail += ': ' + failing[0]['examples'][0].splitlines()[0]
    known = known_findings.checker_findings(res, log=kernel_logs(run, faults)) if res else []
    run.check('checker', 'FAIL', 'FAIL on ' + detail, known)


def kernel_logs(run, faults):
    files = ['console.log', 'dmesg.txt']
    # A faults run keeps each scenario's log with it, for rbts/faults_table.py;
    # here only what came before the scenarios and after the last (the
    # console has it all, and is read only if the guest died).
    if faults and os.path.exists(run.path('dmesg-before-faults.txt')) and \
            os.path.exists(run.path('job-exit')):
        files = ['dmesg-before-faults.txt', 'dmesg.txt']
    lines = []
    for f in files:
        text = read(run.path(f))
        if text:
            lines += text.splitlines()
    return lines


def check_kernel(run, faults, startup_test):
    lines = kernel_logs(run, faults)
    bad = sorted(set(known_findings.complaints(lines)))
    with open(run.path('kernel-complaints.txt'), 'w') as f:
        f.write(''.join(line + '\n' for line in bad))
    if bad:
        ids, left = known_findings.log_findings(bad, log=lines)
        run.check('kernel-log', 'FAIL', 'the kernel complained: ' + (left or bad)[0].strip(),
                  ids if not left else ())
    else:
        run.check('kernel-log', 'PASS', 'no WARN, BUG, lockdep, KASAN, UBSAN or time '
                  'stamp audit message')
    if startup_test:
        if any('Ring buffer PASSED' in line for line in lines):
            run.check('startup-test', 'PASS', "CONFIG_RING_BUFFER_STARTUP_TEST: 'Ring buffer PASSED!'")
        else:
            run.check('startup-test', 'FAIL', "CONFIG_RING_BUFFER_STARTUP_TEST: no 'Ring buffer PASSED!'")


def check_offline(run):
    if not os.path.exists(run.path('trace.dat')) or not os.path.getsize(run.path('trace.dat')):
        return
    res = read_json(run.path('offline.json'))
    if res is None:
        text = (read(run.path('offline.txt')) or '').strip().splitlines()
        run.check('offline', 'ERROR', 'rbcheck verify trace.dat: ' + (text[-1] if text else 'no result'))
        return
    known = known_findings.checker_findings(res) if res['verdict'] == 'FAIL' else []
    run.check('offline', res['verdict'], 'trace.dat verified on the host: %s (%d rbstress events)'
              % (res['verdict'], res.get('events', 0)), known)


def check_raw(run):
    if not os.path.isdir(run.path('raw')):
        return
    live, off = read_json(run.path('result.json')), read_json(run.path('offline-raw.json'))
    if live is None or off is None:
        run.check('live-vs-offline', 'FAIL', 'the raw capture could not be verified on the host '
                  '(offline-raw.txt)')
        return
    a, b = comparable(live), comparable(off)
    diffs = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if diffs:
        run.check('live-vs-offline', 'FAIL', 'live and offline differ in: ' + ', '.join(diffs))
    else:
        run.check('live-vs-offline', 'PASS', 'live and offline agree: %d events, %s' % (
            a['events'], ', '.join('%s %s' % (r['rule'], r['verdict']) for r in a['rules'])))


def check_faults(run):
    table = read_json(run.path(os.path.join('faults', 'faults.json')))
    if table is None:
        run.check('faults', 'ERROR', 'no faults table (faults/faults.json)')
        return
    rows = table['scenarios']
    bad = [r for r in rows if r['verdict'] in ('FAIL', 'KNOWN')]
    known = [k for r in bad for k in r.get('known', [])]
    unknown = [r for r in bad if r['verdict'] == 'FAIL']
    if not bad:
        run.check('faults', 'PASS', '%d scenario(s), each PASS or SKIP' % len(rows))
    else:
        run.check('faults', 'FAIL', '%s: %s' % (', '.join(r['scenario'] for r in bad),
                                                bad[0]['evidence']),
                  known if not unknown else ())


def key_values(text, sep):
    out = {}
    for line in (text or '').splitlines():
        k, _, v = line.partition(sep)
        if k.strip():
            out[k.strip()] = v.strip()
    return out


def coverage_table():
    rows = []
    path = os.path.join(kspec.IMAGES, 'coverage.table')
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            words = line.rstrip('\n').split('\t')
            words = [w for w in words if w]
            rows.append({'path': words[0], 'when': words[1], 'seen_as': words[2],
                         'why': words[3] if len(words) > 3 else ''})
    return rows


def check_coverage(run):
    """Which time stamp paths the kernel took, against what the run was
    expected to reach (images/coverage.table).  Returns the table rows."""
    settings = key_values(read(run.path('settings')), '=')
    res = read_json(run.path('result.json'))
    counters = (res or {}).get('path_counters')
    if not settings or res is None:
        return []
    if not counters:
        run.check('coverage', 'SKIP', 'no path counters in this kernel (not our series)')
        return []
    records = res.get('records') or {}
    module = key_values(read(run.path('module-settings.txt')), ' ')
    entered = [p for p in (read(run.path('phases')) or '').split('\n') if p]
    duration = int(settings.get('duration', '0') or 0)
    stopped = os.path.exists(run.path('stopped'))
    judged = settings.get('job') in ('stress', 'drain') and \
        duration >= COVERAGE_MIN_SECONDS and not stopped
    not_judged = ('stopped early from the host: it ran less than it was asked to' if stopped else
                  'only jobs stress and drain of %d s or more are judged' % COVERAGE_MIN_SECONDS)
    every = int(module.get('quiet_every_ms', '0') or 0)
    rows = []
    for t in coverage_table():
        total = sum(c.get(t['path'], 0) for c in counters)
        when, why, expected, because = t['when'], t['why'], False, 'every run takes it'
        if not any(t['path'] in c for c in counters):
            when, why = 'never', 'this kernel does not count it (a path of another line\'s code)'
        if when == 'always':
            expected = True
        elif when == 'quiet':
            expected = every > 0 and duration * 1000 >= 2 * every
            because = 'quiet periods every %d ms' % every
            why = why or ('no quiet periods (quiet_every_ms=0)' if not every else
                          'the run is shorter than two quiet intervals')
        elif when.startswith('phase:'):
            name = when[len('phase:'):]
            expected = name in entered
            because = 'phase %s ran %d times' % (name, entered.count(name))
            why = why or ('phase %s: the guest could not enter it' % name
                          if name + ' unavailable' in entered else
                          'phase %s was not run (rbts.phases)' % name)
        if total:
            verdict, why = 'reached', ''
        elif not expected:
            verdict = 'n/a'
        elif not judged:
            verdict = 'not judged'
            why = not_judged
        else:
            verdict = 'NOT REACHED'
            why = 'expected (%s), but the kernel counted none' % because
        rows.append({'path': t['path'], 'kernel': total,
                     'in_buffer': records.get(t['seen_as']) if t['seen_as'] != '-' else None,
                     'seen_as': t['seen_as'], 'expected': expected,
                     'verdict': verdict, 'why': why})
    missing = [r['path'] for r in rows if r['verdict'] == 'NOT REACHED']
    if not judged:
        run.check('coverage', 'SKIP', 'not judged: ' + not_judged)
    elif missing:
        run.check('coverage', 'INCOMPLETE', ', '.join(missing) + ' not reached')
    else:
        run.check('coverage', 'PASS', 'every expected time stamp path reached (%s)' % ', '.join(
            '%s %d' % (r['path'], r['kernel']) for r in rows if r['expected']))
    return rows


def executions(n):
    return '%.2f M executions' % (n / 1e6) if n >= 1e6 else '{:,} executions'.format(n)


def model_summary(res):
    """One line of a model.json (images/rbts/model_verdict.py)."""
    if res['verdict'] == 'error':
        return 'not modelled: ' + res['why']
    kept = ', kept from an earlier run' if res.get('cached') else ''
    if res['verdict'] == 'pass':
        return 'every rule holds in %s (bounds: %s; %.1f s%s)' % (
            executions(res['executions']), res['bounds'], res['seconds'], kept)
    return '%s at %s, in %s (%.1f s%s): %s; replay: %s' % (
        'COUNTEREXAMPLE' if res['verdict'] == 'counterexample' else 'LEFT THE MODEL',
        res['bounds'], executions(res['executions']), res['seconds'], kept, res['why'],
        res.get('replay_command', ''))


def check_path_counters(run):
    """The kernel's path counters are its line's: one set of A-C outcomes,
    and read_failed only where the line has the 32-bit rb_time_t (a
    counter of another line's code, or a missing one, is a series that
    does not fit the kernel it was applied to)."""
    res = read_json(run.path('result.json'))
    counters = (res or {}).get('path_counters')
    line = key_values(read(run.path('kernel')), ' ').get('line')
    row = kernel_lines.get(line) if line else None
    if not counters or not row:
        return
    names = set().union(*(set(c) for c in counters)) - {'cpu'}
    whole = [s for s in A_TO_C_SETS if s <= names]
    part = [s for s in A_TO_C_SETS if s & names]
    rb32 = 'rb-time-32' in row.variants
    why = []
    if len(whole) != 1 or len(part) != 1:
        why.append('A-C outcomes counted: %s (one set of %s)' % (
            ', '.join(sorted(names & set().union(*A_TO_C_SETS))) or 'none',
            ' or '.join('{%s}' % ', '.join(sorted(s)) for s in A_TO_C_SETS)))
    if ('read_failed' in names) != rb32:
        why.append('read_failed %s, and line %s has %s 32-bit rb_time_t'
                   % ('counted' if 'read_failed' in names else 'not counted', line,
                      'a' if rb32 else 'no'))
    if why:
        run.check('path-counters', 'FAIL', 'the kernel\'s path counters are not line %s\'s: %s'
                  % (line, '; '.join(why)))
    else:
        run.check('path-counters', 'PASS', 'the kernel counts line %s\'s paths: %s%s' % (
            line, ', '.join(sorted(whole[0])), ', read_failed' if rb32 else ''))


def check_model(run):
    """The reserve-path model of the tree this run booted: a counterexample
    FAILs the run, whatever the live stress saw."""
    res = read_json(run.path('model.json'))
    if res is None:
        run.check('model', 'SKIP', 'no model.json: the tree was not modelled (a bench, '
                  'selftests or capture boot, or a run of before the model was in the verdict)')
    elif res.get('verdict') == 'counterexample':
        run.check('model', 'FAIL', 'reserve-path model: ' + model_summary(res))
    elif res.get('verdict') == 'pass':
        run.check('model', 'PASS', 'reserve-path model: ' + model_summary(res))
    else:
        # a tree whose code the extractor cannot follow, or an execution
        # the model does not cover (overwrite mode): nothing was proven
        run.check('model', 'SKIP', 'reserve-path model: ' + model_summary(res))
    rb_time = (res or {}).get('rb_time')
    if rb_time:
        verdict = {'pass': 'PASS', 'counterexample': 'FAIL'}.get(rb_time['verdict'], 'SKIP')
        run.check('rb-time-model', verdict, 'rb_time_t model: ' + model_summary(rb_time))


def check_boot_retries(run):
    """A boot that died of a stray int3 and was booted again (boot.sh):
    never silent.  The run's verdict is the second boot's; the count is in
    verdict.json ('retries') and a NOTE line, which decides nothing."""
    n = 1 if os.path.exists(run.path('console-stray-int3.log')) else 0
    if n:
        run.check('boot-retry', 'NOTE', '%d boot died of a stray int3 (multi-threaded TCG, '
                  'docs/reliability.md) and was booted again: console-stray-int3.log; '
                  'this verdict is the next boot\'s' % n)
    return n


def decide(run):
    verdicts = [c['verdict'] for c in run.checks]
    if 'HUNG' in verdicts:
        return 'HUNG'
    if 'ERROR' in verdicts and not any(c['verdict'] == 'FAIL' for c in run.checks
                                       if c['name'] in ('kernel-log', 'guest')):
        return 'ERROR'
    if 'FAIL' in verdicts or 'ERROR' in verdicts:
        return 'FAIL'
    return 'PASS'


def main(argv=None):
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument('out')
    ap.add_argument('--startup-test', action='store_true')
    ap.add_argument('--hung', type=int)
    try:
        a = ap.parse_args(argv)
    except SystemExit:
        print(next(l for l in __doc__.splitlines() if l.startswith('usage:')), file=sys.stderr)
        return 2
    if not os.path.isdir(a.out):
        print('verdict.py: %s: no such results directory' % a.out, file=sys.stderr)
        return 2
    run = Run(a.out)
    faults = os.path.isdir(run.path('faults'))
    rc = check_guest(run, a.hung)
    if rc is not None:
        check_checker(run, rc, faults)
    if a.hung is None:
        check_kernel(run, faults, a.startup_test)
        check_offline(run)
        check_raw(run)
        if faults and rc is not None:
            check_faults(run)
    coverage = check_coverage(run) if a.hung is None else []
    check_model(run)
    check_path_counters(run)
    retries = check_boot_retries(run)
    verdict = decide(run)
    incomplete = [r['path'] for r in coverage if r['verdict'] == 'NOT REACHED']
    status = EXIT[verdict]
    said = verdict
    if incomplete:
        said += ' (incomplete: %s not reached)' % ', '.join(incomplete)
        if verdict == 'PASS':
            status = EXIT_INCOMPLETE
    stopped = os.path.exists(run.path('stopped'))
    doc = {'verdict': verdict, 'exit': status, 'incomplete': incomplete,
           'kernel': key_values(read(run.path('kernel')), ' ') or None,
           'checks': run.checks, 'coverage': coverage,
           'model': read_json(run.path('model.json')),
           'known': run.known, 'unexplained': run.unexplained, 'stopped_early': stopped,
           'retries': retries}
    with open(run.path('verdict.json'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    with open(run.path('verdict.txt'), 'w') as f:
        f.write(said + '\n')

    print()
    for c in run.checks:
        print('%-16s %-5s %s' % (c['name'], c['verdict'], c['detail']))
        if c['name'] == 'kernel-log' and c['verdict'] == 'FAIL':
            # what the kernel said, as it said it (kernel-complaints.txt has all)
            for line in (read(run.path('kernel-complaints.txt')) or '').splitlines()[:10]:
                print('  | ' + line)
    for r in coverage:
        if r['verdict'] not in ('reached',):
            print('  path %-26s %-11s %s' % (r['path'], r['verdict'], r['why']))
    for k in run.known:
        print('known finding: %s' % known_findings.title(k))
    if stopped:
        print('(stopped early from the host: the verdict covers what was read)')
    top = kspec.TOP
    where = os.path.abspath(a.out)
    if where.startswith(top + os.sep):
        where = os.path.relpath(where, top)
    print('VERDICT: %s  (results in %s)' % (said, where))
    return status


if __name__ == '__main__':
    sys.exit(main())
