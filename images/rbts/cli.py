# SPDX-License-Identifier: GPL-2.0
"""The commands of ./run.sh, every one: run.sh only dispatches here
(`python3 -m rbts COMMAND ...` with images/ on PYTHONPATH is the same).
Those that boot a guest make a Plan from their options (plan.py: checked
before anything is spent) and hand it to a Run (run.py); bench, selftests
and model check their own options first too (bench.py, selftests.py,
model.py).  Each command's help is a file of its own: images/help/CMD.txt.

exit: the Run's (images/rbts/verdict.py: 0 PASS, 1 FAIL, 2 ERROR, 3 HUNG,
4 PASS incomplete); 2 for a bad option, with one line saying which.
"""
import contextlib
import datetime
import io
import os
import re
import signal
import subprocess
import sys

from rbts import bench, kspec, model, plan as planmod, results, run as runmod, selftests, series

IMAGES = kspec.IMAGES


def help_text(topic):
    """A command's help: images/help/TOPIC.txt, its lists filled in from
    the guest's settings."""
    with open(os.path.join(IMAGES, 'help', topic.replace(' ', '-') + '.txt')) as f:
        text = f.read()
    return (text.replace('@FAULTS@', ' '.join(planmod.guest_values('faults')))
            .replace('@CLOCKS@', ' '.join(planmod.guest_values('clock'))))


def usage_error(topic, message):
    sys.stderr.write('run.sh: %s\n' % message)
    sys.stderr.write("run.sh: see '%s --help'\n" % ' '.join(['./run.sh'] + topic.split()))
    return 2


def make_plan(command, argv, setup=None):
    """COMMAND's Plan of ARGV, or an exit status: 0 after --help, 2 after
    a bad option."""
    p = planmod.Plan(command)
    if setup:
        setup(p)
    try:
        return p.parse(argv)
    except planmod.HelpWanted:
        sys.stdout.write(help_text(command))
        return 0
    except planmod.PlanError as e:
        return usage_error(command, str(e))


def dry_run(p):
    print(p.describe())
    if p.plan_file:
        try:
            p.write(p.plan_file)
        except planmod.PlanError as e:
            print('error: %s' % e, file=sys.stderr)
            return 2
    return 0


def execute(p):
    if p.dry_run:
        return dry_run(p)
    return runmod.Run(p).execute()


def cmd_run(argv):
    p = make_plan('run', argv)
    return p if isinstance(p, int) else execute(p)


def cmd_faults(argv):
    """Every fault scenario in turn, each verified live while it is injected."""
    def setup(p):
        p.duration = '20'
    p = make_plan('faults', ['--job', 'faults'] + list(argv), setup)
    return p if isinstance(p, int) else execute(p)


def cmd_soak(argv):
    """A long run that stops at the first violation (--keep-going: does
    not), and stops cleanly on Ctrl-C (boot.sh's stop button)."""
    keep_going, args, argv = False, [], list(argv)
    while argv:
        a = argv.pop(0)
        if a == '--keep-going':
            keep_going = True
        elif a == '--faults':
            # all of them, interleaved, unless a list follows
            args += ['--faults', argv.pop(0) if argv and not argv[0].startswith('-') else 'mixed']
        else:
            args.append(a)

    def setup(p):
        p.duration = '600'
        p.settings.append('keepfailing=1')
        if not keep_going:
            p.settings.append('stoponfail=1')
        p.warn_is_fatal = not keep_going
        p.boot_extra.append('--stop-button')
    p = make_plan('soak', args, setup)
    if isinstance(p, int):
        return p
    if p.dry_run:
        return dry_run(p)
    r = runmod.Run(p)
    rc = r.execute()
    if r.out:
        subprocess.run([os.path.join(IMAGES, 'plot-deltas.sh'), r.out])
    return rc


BUILD_VALUE = ('--kernel', '--arch', '--without', '--seed-fault', '--ksrc', '--apply')
BUILD_FLAG = ('--rb-time-32', '--debug', '--vanilla')


def cmd_build(argv):
    """build takes the kernel options of run, and nothing else."""
    args, argv = [], list(argv)
    while argv:
        a = argv.pop(0)
        if a in BUILD_VALUE:
            if not argv:
                return usage_error('build', '%s needs a value' % a)
            args += [a, argv.pop(0)]
        elif a in BUILD_FLAG:
            args.append(a)
        elif a in ('-h', '--help'):
            sys.stdout.write(help_text('build'))
            return 0
        else:
            return usage_error('build', "build: unknown option '%s' (it takes %s)"
                               % (a, ', '.join(('--kernel', '--rb-time-32', '--debug', '--arch', '--without',
                                                '--seed-fault', '--vanilla', '--ksrc', '--apply'))))
    p = make_plan('build', args)
    if isinstance(p, int):
        return p
    try:
        runmod.Run(p).build()
    except runmod.BuildError as e:
        print('error: build: %s' % e, file=sys.stderr)
        return 2
    return 0


def setup():
    """What the project needs from apt (images/install-deps.sh)."""
    return subprocess.run([os.path.join(IMAGES, 'install-deps.sh')]).returncode


def cmd_setup(argv):
    if argv[:1] in (['-h'], ['--help']):
        sys.stdout.write(help_text('setup'))
        return 0
    if argv:
        return usage_error('setup', 'setup takes no options')
    return setup()


def cmd_test(argv):
    """The suite: images/tests/runner.py finds the tests, builds what they
    need and writes KTAP.  Its options are checked before the packages
    are installed: a bad one costs nothing."""
    runner = [sys.executable, os.path.join(IMAGES, 'tests', 'runner.py')]
    if not set(argv) & {'--list', '-h', '--help'}:
        rc = subprocess.run(runner + ['--check-options'] + list(argv)).returncode
        if rc:
            return rc
        rc = setup()
        if rc:
            return rc
    os.execv(sys.executable, runner + list(argv))


def wants_help(argv, topic):
    if set(argv) & {'-h', '--help'}:
        sys.stdout.write(help_text(topic))
        return True
    return False


def cmd_report(argv):
    """A run's trace.dat through trace-cmd (images/report-run.sh)."""
    args, line = list(argv), None
    if args[:1] in (['-h'], ['--help']):
        sys.stdout.write(help_text('report'))
        return 0
    if args[:1] == ['--kernel']:
        if len(args) < 2:
            return usage_error('report', '--kernel needs a line (have: %s)' % ' '.join(kspec.lines.names()))
        line = args[1]
        args = args[2:]
        if line not in kspec.lines.names():
            return usage_error('report', "--kernel: no line '%s' (have: %s)"
                               % (line, ' '.join(kspec.lines.names())))
    elif args[:1] and args[0].startswith('-'):
        return usage_error('report', "report: unknown option '%s'" % args[0])
    if len(args) > 1:
        return usage_error('report', 'report takes one RUN-ID, or --kernel LINE')
    if line and args:
        return usage_error('report', 'report: a RUN-ID or --kernel LINE, not both')
    top = os.path.join(kspec.TOP, 'results')
    rid = args[0] if args else 'latest'
    if line:
        # The newest run of that line with a capture (results/<id>/kernel).
        rid = None
        for d in sorted(os.listdir(top) if os.path.isdir(top) else [], reverse=True):
            k = os.path.join(top, d, 'kernel')
            dat = os.path.join(top, d, 'trace.dat')
            if os.path.isfile(k) and 'line %s' % line in open(k).read().splitlines() and \
                    os.path.exists(dat) and os.path.getsize(dat):
                rid = d
                break
        if not rid:
            print('error: report: no run of kernel line %s with a trace.dat in results/' % line,
                  file=sys.stderr)
            return 2
    d = os.path.join(top, rid)
    if not os.path.isdir(d):
        have = sorted(os.listdir(top))[-3:] if os.path.isdir(top) else []
        return usage_error('report', "report: no run '%s' in results/ (have: %s )" % (rid, ' '.join(have)))
    dat = results.path(d, 'trace.dat')
    if not os.path.exists(dat) or not os.path.getsize(dat):
        print("error: report: run '%s' has no trace.dat (runs with --capture 0 or --job other than "
              "stress have none)" % rid, file=sys.stderr)
        return 2
    rc = setup()
    if rc:
        return rc
    g = runmod.Guest(kspec.Kernel(kspec.default_line()))
    if not os.access(os.path.join(kspec.build_dir(), 'checker', 'rbcheck'), os.X_OK):
        g.checker()
    return subprocess.run([os.path.join(IMAGES, 'report-run.sh'), d]).returncode


def cmd_reproduce(argv):
    """A finding's reproducer, RUNS times on each kernel (before and after
    its fix): rbts/reproduce.py, findings in images/findings.json."""
    finding, line, runs, only, args = None, kspec.default_line(), '10', '', list(argv)
    while args:
        a = args.pop(0)
        if a in ('--kernel', '--runs', '--only'):
            if not args:
                return usage_error('reproduce', '%s needs %s' % (a, {
                    '--kernel': 'a line (have: %s)' % ' '.join(kspec.lines.names()),
                    '--runs': 'a number', '--only': 'before or after'}[a]))
            v = args.pop(0)
            if a == '--kernel':
                line = v
            elif a == '--runs':
                runs = v
            else:
                only = v
        elif a == '--vanilla':
            only = 'vanilla'
        elif a in ('-h', '--help'):
            sys.stdout.write(help_text('reproduce'))
            return 0
        elif a.startswith('-'):
            return usage_error('reproduce', "reproduce: unknown option '%s'" % a)
        elif finding:
            return usage_error('reproduce', 'reproduce takes one FINDING')
        else:
            finding = a
    from rbts import reproduce

    def call(*argv):
        # rbts/reproduce.py says what is wrong and exits 2 (fail()), as on its command line
        try:
            return reproduce.main(list(argv))
        except SystemExit as e:
            return e.code
    if not finding:
        return usage_error('reproduce', 'reproduce needs a FINDING (a label of images/findings.json: %s)'
                           % ' '.join(reproduce.labels()))
    if not re.fullmatch(r'[1-9][0-9]{0,2}', runs):
        return usage_error('reproduce', "--runs must be 1 to 999, not '%s'" % runs)
    if only not in ('', 'before', 'after', 'vanilla'):
        return usage_error('reproduce', "--only must be before or after, not '%s'" % only)
    why = kspec.check('%s:ours:default:x86_64' % line)
    if why:
        return usage_error('reproduce', '--kernel: ' + why)
    with contextlib.redirect_stdout(io.StringIO()):
        if call('kernels', finding):
            return 2
    rc = setup()
    if rc:
        return rc
    out = os.path.join(kspec.TOP, 'results', 'reproduce-%s-%s%s-%s' % (
        finding, line, '-' + only if only else '', datetime.datetime.now().strftime('%Y%m%d-%H%M%S')))
    return call('run', finding, line, runs, out, *([only] if only else []))


def cmd_selftests(argv):
    if wants_help(argv, 'selftests'):
        return 0
    try:
        line, timeout = selftests.parse(argv)
    except planmod.PlanError as e:
        return usage_error('selftests', str(e))
    return selftests.selftests(line, timeout)


def cmd_bench(argv):
    what = argv[0] if argv else ''
    if what in ('-h', '--help'):
        sys.stdout.write(help_text('bench'))
        return 0
    if what not in ('kernels', 'checker'):
        return usage_error('bench', "bench: say what to bench: 'checker' or 'kernels'")
    topic = 'bench ' + what
    if wants_help(argv[1:], topic):
        return 0
    try:
        if what == 'kernels':
            return bench.bench_kernels(*bench.parse_kernels(argv[1:]))
        return bench.bench_checker(*bench.parse_checker(argv[1:]))
    except planmod.PlanError as e:
        return usage_error(topic, str(e))


def cmd_model(argv):
    if argv[:1] in (['-h'], ['--help']):
        sys.stdout.write(help_text('model'))
        return 0
    try:
        return model.model(argv)
    except model.ModelError as e:
        return usage_error('model', str(e))


def tool(script, topic):
    """A command that is a program of its own under images/: each run and
    model it starts checks what it needs, so a bad option costs nothing."""
    def cmd(argv):
        if wants_help(argv, topic):
            return 0
        os.execv(os.path.join(IMAGES, script), [script] + list(argv))
    return cmd


def cmd_detection(argv):
    """Which check catches which seeded fault, in-process (rbts/detection.py)."""
    if wants_help(argv, 'detection'):
        return 0
    from rbts import detection
    return detection.main(list(argv))


def cmd_matrix(argv):
    """A matrix of runs, in-process (rbts/matrix.py)."""
    if wants_help(argv, 'matrix'):
        return 0
    from rbts import matrix
    return matrix.main(list(argv))


def cmd_series(argv):
    if argv[:1] in (['-h'], ['--help']) or not argv:
        sys.stdout.write(help_text('series'))
        return 0 if argv else 2
    return series.main(argv)


def cmd_help(argv):
    sys.stdout.write(help_text('main'))
    return 0


COMMANDS = {'run': cmd_run, 'soak': cmd_soak, 'faults': cmd_faults, 'build': cmd_build,
            'test': cmd_test, 'bench': cmd_bench, 'report': cmd_report, 'selftests': cmd_selftests,
            'model': cmd_model, 'series': cmd_series, 'reproduce': cmd_reproduce, 'setup': cmd_setup, 'help': cmd_help,
            'detection': cmd_detection, 'matrix': cmd_matrix}


def _terminated(signum, frame):
    e = KeyboardInterrupt()
    e.signum, e.why = signum, 'SIGTERM'
    raise e


def main(argv):
    """The command, then its options; with none, or only options, it is run."""
    if argv[:1] in (['-h'], ['--help']):
        return cmd_help([])
    cmd = 'run'
    if argv and not argv[0].startswith('-'):
        cmd, argv = argv[0], argv[1:]
        if cmd not in COMMANDS:
            return usage_error('', "unknown command '%s'" % cmd)
    # SIGTERM (a CI's timeout, kill) ends a run as Ctrl-C does: its
    # results directory says it was interrupted, and latest stays put
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return COMMANDS[cmd](argv)
    except (kspec.SpecError, runmod.BuildError) as e:
        print('error: %s' % e, file=sys.stderr)
        return 2
    except runmod.DiskFull as e:
        print('run.sh: %s' % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        return 128 + getattr(e, 'signum', signal.SIGINT)
