#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test suite behind './run.sh test': finds the tests, runs them, and
writes KTAP (images/help/test.txt says how to use it).

A test is one executable file under images/tests/host/ (no kernel is
booted) or images/tests/boot/ (a guest is).  Its name is GROUP/STEM with
the file's order prefix dropped: images/tests/boot/20-legacy.sh is
boot/legacy.  Its header may say

    # test: one line saying what it checks      (shown by --list)
    # rbts-test: full                           (only with --full)
    # rbts-test: timeout SECONDS                (default 1800, boot 3600)
    # rbts-test: line LINE                      (boot: the kernel line it
                                                  boots, default the first
                                                  of lines.table)
    # rbts-test: lines all                      (boot: one test per line of
                                                  lines.table, RBTS_LINE set:
                                                  NAME on the first line,
                                                  NAME-LINE on the others)
    # rbts-test: full other-lines               (with lines all: only the
                                                  first line's is in the
                                                  default suite)
    # rbts-test: requires NAME                  (with lines all: only the
                                                  lines that have NAME, a
                                                  variant or a feature of
                                                  lines.table, as ftracetest's
                                                  "# requires:")

It prints TAP result lines ("ok - what", "not ok - what", "# SKIP" and
"# TODO" directives, "# ..." diagnostics); the runner numbers them and
makes each file a KTAP subtest, as kunit.py parse reads it.  A file that
prints no result, or exits non-zero without a "not ok", fails.

Before the tests, the checker and every line's tree are made; while the
host tests run, the default kernel of every line a boot test boots is
built beside them (niced; build/test-logs/prebuild.log), and the first
boot test waits for it.

The last line is "N passed, N failed, N skipped".  A "not ok ... # TODO"
(a known, open kernel finding: images/findings.json) is counted
apart and fails nothing.
exit: 0 nothing failed, 1 a test failed, 2 usage or set-up error
"""
import argparse
import atexit
import copy
import datetime
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
try:
    from rbts import lines
except ImportError:
    # ./run.sh test puts images/ on PYTHONPATH, as for every command
    print('runner.py: no rbts package: run ./run.sh test, or PYTHONPATH=%s'
          % os.path.join(TOP, 'images'), file=sys.stderr)
    sys.exit(2)
GROUPS = ('host', 'boot')
RESULT = re.compile(r'^(ok|not ok)\b(?: +\d+)?(?: +-)? *(.*)$')
PLAN = re.compile(r'^1\.\.(\d+)$')
DIRECTIVE = re.compile(r'#\s*(SKIP|TODO)\b', re.I)


class Test:
    def __init__(self, group, path):
        self.group = group
        self.path = path
        stem = os.path.splitext(os.path.basename(path))[0]
        self.name = group + '/' + re.sub(r'^\d+-', '', stem)
        self.what = ''
        self.full = False
        self.full_other_lines = False
        self.every_line = False
        self.requires = None
        # the kernel line a boot test boots (--kernel selects by it)
        self.line = kernel_lines()[0] if group == 'boot' else None
        self.env = {}
        # a boot test may build a kernel cold first (ten minutes and more)
        self.timeout = 3600 if group == 'boot' else 1800
        with open(path, errors='replace') as f:
            for line in f:
                if not line.startswith('#'):
                    break
                m = re.match(r'#\s*test:\s*(.*)', line)
                if m:
                    self.what = m.group(1).strip()
                m = re.match(r'#\s*rbts-test:\s*(\w+)\s*(\S*)', line)
                if m and m.group(1) == 'full' and m.group(2) == 'other-lines':
                    self.full_other_lines = True
                elif m and m.group(1) == 'full':
                    self.full = True
                elif m and m.group(1) == 'timeout':
                    self.timeout = int(m.group(2))
                elif m and m.group(1) == 'line':
                    self.line = m.group(2)
                elif m and m.group(1) == 'lines' and m.group(2) == 'all':
                    self.every_line = True
                elif m and m.group(1) == 'requires':
                    self.requires = m.group(2)

    def on_lines(self):
        """The test itself, or with 'lines all' one test per kernel line:
        a new row of lines.table gets it with no other edit."""
        if not self.every_line:
            return [self]
        out = []
        have = [r.line for r in lines.rows()
                if not self.requires or self.requires in r.variants | r.features]
        for i, line in enumerate(have):
            t = copy.copy(self)
            t.line = line
            t.env = {'RBTS_LINE': line}
            if i:
                t.name = '%s-%s' % (self.name, line)
                t.full = self.full or self.full_other_lines
                t.what = 'kernel line %s: %s' % (line, self.what)
            out.append(t)
        return out


def discover(tests_dir):
    tests = []
    for group in GROUPS:
        d = os.path.join(tests_dir, group)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if f.endswith('.sh') and os.access(p, os.X_OK):
                tests += Test(group, p).on_lines()
    return tests


def kernel_lines():
    """The kernel lines of images/kernel/lines.table."""
    return lines.names()


def select(tests, names, host_only, full, line=None):
    """The tests to run: a --full test only with --full or by its name;
    with a kernel line, the host tests and that line's boot tests."""
    if host_only:
        tests = [t for t in tests if t.group == 'host']
    if line:
        tests = [t for t in tests if t.line in (None, line)]
    if not names:
        return [t for t in tests if full or not t.full]
    out = []
    for n in names:
        hit = [t for t in tests if n in (t.name, t.name.split('/', 1)[1]) or
               (n == t.group and (full or not t.full))]
        if not hit:
            raise ValueError("-t %s: no such test (./run.sh test --list%s)"
                             % (n, ' --full' if not full else ''))
        out += [t for t in hit if t not in out]
    return out


def run_one(test, env):
    """Run one test file: its result lines (ok, text) and its log."""
    start = time.time()
    try:
        p = subprocess.run([test.path], env=dict(env, **test.env), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           timeout=test.timeout, errors='replace', text=True)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        out += '\nnot ok - %s did not finish within %ss # TIMEOUT\n' % (test.name, test.timeout)
        rc = -1
    results, diag, plans = [], [], []
    for line in out.splitlines():
        m = RESULT.match(line)
        p = PLAN.match(line)
        if p:
            plans.append(int(p.group(1)))
        elif m:
            results.append((m.group(1) == 'ok', m.group(2)))
        elif line.startswith('#'):
            results.append((None, line))
        elif line.strip():
            diag.append(line)
    leaves = [r for r in results if r[0] is not None]
    if not leaves:
        results.append((False, '%s printed no test result (exit %d)%s' %
                        (test.name, rc, ': ' + diag[-1][:200] if diag else '')))
    elif rc not in (0, 1) and all(ok for ok, _ in leaves):
        results.append((False, '%s exited with status %d' % (test.name, rc)))
    # A program that states its plan (TAP "1..N", a test_rules) must keep
    # it: fewer results is a crash half-way, more is text taken for results.
    if plans and sum(plans) != len(leaves):
        results.append((False, '%s printed %d results, its plan says %d' %
                        (test.name, len(leaves), sum(plans))))
    return results, time.time() - start


class Counts:
    def __init__(self):
        self.passed = self.failed = self.skipped = self.todo = 0

    def add(self, ok, text):
        d = DIRECTIVE.search(text)
        kind = d.group(1).upper() if d else ''
        if ok and kind == 'SKIP':
            self.skipped += 1
        elif ok:
            self.passed += 1
        elif kind == 'TODO':
            self.todo += 1
        else:
            self.failed += 1


class _Parser(argparse.ArgumentParser):
    """One line on a bad option, not argparse's usage with the internal ones."""

    def error(self, message):
        if message.startswith('argument -t'):
            message = '-t needs a test name (./run.sh test --list)'
        print('run.sh: test: %s' % message, file=sys.stderr)
        print("run.sh: see './run.sh test --help'", file=sys.stderr)
        raise SystemExit(2)


def main():
    ap = _Parser(prog='./run.sh test', add_help=False)
    ap.add_argument('--host-only', action='store_true')
    ap.add_argument('--full', action='store_true')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('-t', dest='names', action='append', default=[])
    ap.add_argument('--ktap')
    ap.add_argument('--kernel')
    ap.add_argument('--tests-dir', default=HERE)	# the runner's own tests
    ap.add_argument('--no-setup', action='store_true')
    # run.sh test asks this first, before it installs anything: a bad
    # option is refused before the package manager is touched.
    ap.add_argument('--check-options', action='store_true')
    ap.add_argument('-h', '--help', action='store_true')
    try:
        args, rest = ap.parse_known_args()
    except SystemExit:
        return 2
    if args.help:
        with open(os.path.join(TOP, 'images', 'help', 'test.txt')) as f:
            sys.stdout.write(f.read())
        return 0
    if rest:
        print("run.sh: test: unknown option '%s'" % rest[0], file=sys.stderr)
        print("run.sh: see './run.sh test --help'", file=sys.stderr)
        return 2
    if args.kernel is not None and args.kernel not in kernel_lines():
        print("run.sh: test: --kernel: no line '%s' (have: %s)" % (args.kernel, ' '.join(kernel_lines())),
              file=sys.stderr)
        return 2
    try:
        tests = select(discover(args.tests_dir), args.names, args.host_only, args.full, args.kernel)
    except ValueError as e:
        print('run.sh: test: %s' % e, file=sys.stderr)
        return 2
    if args.list:
        for t in tests:
            print('%-28s %s%s%s' % (t.name, t.what, ' (--full)' if t.full else '',
                                    ' [%s]' % t.line if t.line else ''))
        return 0
    if not tests:
        print('run.sh: test: no test selected', file=sys.stderr)
        return 2
    if args.check_options:
        return 0

    env = dict(os.environ, RBTS_FULL='1' if args.full else '0')
    if not args.no_setup:
        # What every test may use: the checker and the prepared tree of
        # every line (its checkpatch.pl for host/patches, ring_buffer.c for
        # the model).  Boot tests build their kernels through ./run.sh, cached.
        cmds = [(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker'),
                  'O=' + os.path.join(os.environ.get('RBTS_BUILD', os.path.join(TOP, 'build')), 'checker')], {})]
        cmds += [([os.path.join(TOP, 'images', 'prepare-tree.sh')],
                  {'RBTS_KERNEL': line + ':ours:default:x86_64'}) for line in kernel_lines()]
        for cmd, extra in cmds:
            if subprocess.run(cmd, env=dict(env, **extra)).returncode != 0:
                print('run.sh: test: set-up failed: %s' % ' '.join(cmd), file=sys.stderr)
                return 2

    # The boot tests' kernels, built while the host tests run: those are
    # single-threaded mostly, and a cold kernel build is ten minutes of two
    # cores.  Niced, logged apart; the first boot test waits for it (and
    # builds again, visibly, whatever it did not).
    prebuild = None
    boot_lines = [l for l in kernel_lines() if any(t.group == 'boot' and t.line == l for t in tests)]
    if boot_lines and not args.no_setup:
        logs = os.path.join(os.environ.get('RBTS_BUILD', os.path.join(TOP, 'build')), 'test-logs')
        os.makedirs(logs, exist_ok=True)
        cmd = ' && '.join('nice -n 10 python3 -m rbts build --kernel %s' % l for l in boot_lines)
        prebuild = subprocess.Popen(['sh', '-c', cmd], stdin=subprocess.DEVNULL,
                                    stdout=open(os.path.join(logs, 'prebuild.log'), 'w'),
                                    stderr=subprocess.STDOUT,
                                    env=dict(env, PYTHONPATH=os.path.join(TOP, 'images')))
        atexit.register(lambda p=prebuild: p.poll() is None and p.terminate())

    ktap_path = args.ktap
    if not ktap_path:
        os.makedirs(os.path.join(TOP, 'results'), exist_ok=True)
        ktap_path = os.path.join(TOP, 'results', 'test-%s.ktap' %
                                 datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    ktap = open(ktap_path, 'w')

    def emit(line):
        print(line, flush=True)
        ktap.write(line + '\n')

    total = Counts()
    emit('KTAP version 1')
    emit('1..%d' % len(tests))
    for i, t in enumerate(tests, 1):
        if t.group == 'boot' and prebuild is not None:
            print('# waiting for the boot tests\' kernels (%s): build/test-logs/prebuild.log'
                  % ', '.join(boot_lines), flush=True)
            prebuild.wait()
            prebuild = None
        print('# %s: running (%s)' % (t.name, t.what or os.path.relpath(t.path, TOP)), flush=True)
        results, secs = run_one(t, env)
        mine = Counts()
        emit('    KTAP version 1')
        emit('    # Subtest: %s' % t.name)
        emit('    1..%d' % sum(1 for ok, _ in results if ok is not None))
        n = 0
        for ok, text in results:
            if ok is None:
                emit('    ' + text)
                continue
            n += 1
            mine.add(ok, text)
            emit('    %s %d - %s' % ('ok' if ok else 'not ok', n, text))
        total.passed += mine.passed
        total.failed += mine.failed
        total.skipped += mine.skipped
        total.todo += mine.todo
        if mine.failed:
            status = 'not ok %d %s' % (i, t.name)
        elif mine.todo:
            status = 'not ok %d %s # TODO %d known finding(s)' % (i, t.name, mine.todo)
        elif mine.passed == 0 and mine.skipped:
            status = 'ok %d %s # SKIP' % (i, t.name)
        else:
            status = 'ok %d %s' % (i, t.name)
        emit(status)
        print('# %s: %d passed, %d failed, %d skipped in %ds' %
              (t.name, mine.passed, mine.failed, mine.skipped, secs), flush=True)
    ktap.close()
    print('# KTAP in %s' % os.path.relpath(ktap_path, TOP))
    if total.todo:
        print('# %d known failure(s) (TODO): open kernel findings, see images/findings.json'
              % total.todo)
    print('%d passed, %d failed, %d skipped' % (total.passed, total.failed, total.skipped))
    return 1 if total.failed else 0


if __name__ == '__main__':
    sys.exit(main())
