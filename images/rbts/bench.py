# SPDX-License-Identifier: GPL-2.0
"""./run.sh bench: benchmarks, never timed assertions (the machine is shared
and noisy: ratios within one run).

  bench kernels   kernels compared, the first the baseline: each built
                  (cached like the others), then booted in turn, repetition
                  after repetition (A B C A B C ...), so that a noisy moment
                  of this machine is spread over all of them.  Each boot
                  runs the guest's job bench (the stress module's timed
                  writers, then the kernel's ring_buffer_benchmark), leaves
                  bench.txt and gets a verdict.json (images/rbts/verdict.py: a
                  kernel that complains is said so); images/rbts/bench_compare.py
                  makes the table, report.md and the chart.
  bench checker   rbcheck against trace-cmd report on one large trace.dat,
                  recorded once in the guest (job capture) and kept in
                  build/bench/ (images/bench-checker.sh).
"""
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

from rbts import bench_compare, kspec, plan as planmod, results, run as runmod

IMAGES = kspec.IMAGES
TOP = kspec.TOP


class BenchError(planmod.PlanError):
    """A bad option: one line."""


def kernel_item(item):
    """NAME=SPEC of one item of --kernels: NAME=SPEC as it is, or a short
    name: vanilla-LINE, series-LINE, series-LINE-32, without-LINE-NNNN
    (our series less fix NNNN of its fixes part: what a fix costs)."""
    if '=' in item:
        name, spec = item.split('=', 1)
    elif item.startswith('without-'):
        m = re.fullmatch(r'without-([0-9.]+)-([0-9]{4}(-[0-9]{4})*)', item)
        if not m:
            raise BenchError("--kernels: '%s' is not without-LINE-NNNN (e.g. without-6.1-0004)" % item)
        line, nums = m.group(1), m.group(2).replace('-', ',')
        why = kspec.check('%s:ours:default:x86_64' % line)
        if why:
            raise BenchError('--kernels %s: %s' % (item, why))
        try:
            d = kspec.series_without(line, nums)
        except kspec.SpecError as e:
            raise BenchError('--kernels %s: %s' % (item, e))
        name, spec = item, '%s:%s:default:x86_64' % (line, d)
    elif item.startswith('series-') and item.endswith('-32'):
        name, spec = item, item[len('series-'):-3] + ':ours:rb-time-32:x86_64'
    elif item.startswith('series-'):
        name, spec = item, item[len('series-'):] + ':ours:default:x86_64'
    elif item.startswith('vanilla-'):
        name, spec = item, item[len('vanilla-'):] + ':vanilla:default:x86_64'
    else:
        raise BenchError("--kernels: '%s' is not NAME=SPEC, vanilla-LINE, series-LINE, "
                         "series-LINE-32 or without-LINE-NNNN" % item)
    if not re.fullmatch(r'[A-Za-z0-9_.-]+', name):
        raise BenchError("--kernels: '%s' is not a name (letters, digits, . _ -)" % name)
    why = kspec.check(spec)
    if why:
        raise BenchError('--kernels %s: %s' % (item, why))
    return name, kspec.Kernel(spec)


def parse_kernels(argv):
    """bench kernels' options: (kernels [(name, Kernel)], reps, duration,
    icount, threshold)."""
    o = {'--kernels': '', '--kernel': kspec.default_line(), '--reps': '3', '--duration': '10',
         '--icount': '', '--threshold': '', '--series': '', '--ksrc': ''}
    need = {'--kernels': 'a list', '--kernel': 'a line (have: %s)' % ' '.join(kspec.lines.names()),
            '--reps': 'a value', '--duration': 'a value', '--icount': 'a shift (0-9)',
            '--threshold': 'a percentage', '--series': 'a directory',
            '--ksrc': 'a kernel tree (a directory)'}
    planmod.value_options(argv, o, need, 'bench kernels')
    reps, dur = o['--reps'], planmod.parse_duration(o['--duration'])
    if not re.fullmatch(r'[1-9][0-9]?', reps):
        raise BenchError("--reps must be 1 to 99, not '%s'" % reps)
    if not re.fullmatch(r'[1-9][0-9]{0,3}', dur):
        raise BenchError("--duration must be 1 to 9999 seconds, not '%s'" % dur)
    if o['--icount'] and not re.fullmatch(r'[0-9]', o['--icount']):
        raise BenchError("--icount takes a shift of 0 to 9, not '%s'" % o['--icount'])
    if o['--threshold'] and not re.fullmatch(r'[0-9]+(\.[0-9]+)?', o['--threshold']):
        raise BenchError("--threshold must be a percentage, not '%s'" % o['--threshold'])
    line, series, ksrc = o['--kernel'], o['--series'], o['--ksrc']
    if o['--kernels'] and series:
        raise BenchError('--kernels and --series cannot be combined (name the series in the '
                         'list: NAME=%s:DIR)' % line)
    if ksrc and (series or o['--kernels']):
        raise BenchError('--ksrc compares a tree with its line\'s vanilla kernel: not with '
                         '--kernels or --series (name it in the list: NAME=LINE:@DIR)')
    if ksrc:
        tree = os.path.abspath(ksrc)
        why = kspec.check_tree(tree)
        if why:
            raise BenchError('--ksrc: ' + why)
        if '--kernel' not in argv:
            line = kspec.line_of_tree(tree)
            if not line:
                raise BenchError('--ksrc %s: no line of images/kernel/lines.table is of its version '
                                 '%s: say --kernel LINE' % (ksrc, kspec.tree_version(tree)))
        kernels = [kernel_item('vanilla-' + line), kernel_item('ksrc=%s:@%s:default:x86_64' % (line, tree))]
    elif series:
        if not os.path.isfile(os.path.join(series, 'series')):
            raise BenchError("--series %s: no 'series' file there" % series)
        series = os.path.abspath(series)
        name = re.sub(r'[^a-zA-Z0-9_.-]', '_', os.path.basename(series))
        if not name.startswith('series'):
            name = 'series-' + name
        if name == 'series-' + line:
            name += '-candidate'
        kernels = [kernel_item('vanilla-' + line), kernel_item('%s=%s:%s:default:x86_64'
                                                                % (name, line, series))]
    else:
        kernels = [kernel_item(i) for i in (o['--kernels'] or kspec.bench_default()).split(',')]
        if len(kernels) < 2:
            raise BenchError('--kernels: at least two kernels to compare')
    return kernels, int(reps), int(dur), o['--icount'], o['--threshold']


def say(text):
    print(text, flush=True)


def bench_kernels(kernels, reps, dur, icount, threshold):
    out = os.path.join(TOP, 'results', 'bench-kernels-' + datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    os.makedirs(out, exist_ok=True)
    say('==> bench kernels: %s; %d repetition(s), %ds of stress each%s'
        % (' '.join(n for n, _ in kernels), reps, dur, ', -icount shift=%s' % icount if icount else ''))
    for name, k in kernels:
        say("==> bench: building kernel '%s'" % name)
        log = os.path.join(out, 'build-%s.log' % name)
        built = True
        with open(log, 'w') as f:
            try:
                runmod.Guest(k, f).build()
            except runmod.BuildError:
                built = False
        with open(log, errors='replace') as fh:
            text = fh.read().splitlines()
        if not built:
            sys.stderr.write(''.join('  | %s\n' % t for t in text[-5:]))
            sys.stderr.write("error: bench: kernel '%s' does not build (see %s)\n"
                             % (name, os.path.relpath(log, TOP)))
            return 2
        for t in text:
            if re.match(r'(kernel|kernel tree|stress module):', t):
                say('  ' + t)
    cpus, mode = 2, 'wall-clock ns (TCG, 2 vCPUs, guest time follows the host)'
    extra = []
    if icount:
        # Here a 2-vCPU guest under -icount hangs at kernel entry (as under
        # KVM); one vCPU boots, without the NMI writer (it needs another CPU).
        cpus, extra = 1, ['--icount', icount]
        mode = ('icount ns (QEMU -icount shift=%s, 1 vCPU: guest time counts instructions, '
                '2^%s ns each)' % (icount, icount))
    with open(os.path.join(out, 'mode.txt'), 'w') as f:
        f.write(mode + '\n')
    tsv = open(os.path.join(out, 'runs.tsv'), 'w')
    for rep in range(1, reps + 1):
        for name, k in kernels:
            run = os.path.join(out, '%s-%d' % (name, rep))
            with open(run + '.log', 'w') as log:
                g = runmod.Guest(k, log)
                rc = g.boot(run, planmod.guest_words(k.line, ['job=bench', 'duration=%d' % dur,
                                                               'clock=global']),
                            'tcg', cpus, 4 * dur + 300, extra, quiet=True)
                bench = results.path(run, 'bench.txt')
                console = results.path(run, 'console.log')
                if rc != 0 or not os.path.exists(bench) or not os.path.getsize(bench):
                    if os.path.exists(console):
                        sys.stderr.write(''.join('  | %s\n' % t for t in
                                                 open(console, errors='replace').read().splitlines()[-5:]))
                    sys.stderr.write("error: bench: kernel '%s', repetition %d: no result (see %s)\n"
                                     % (name, rep, os.path.relpath(console, TOP)))
                    return 2
                # the one judge of what a kernel said (verdict.json)
                g.judge(run)
            if kernel_log_verdict(run) == 'FAIL':
                say("  warning: kernel '%s' complained during the benchmark (%s)"
                    % (name, os.path.relpath(results.path(run, 'kernel-complaints.txt'), TOP)))
            figures = []
            with open(bench) as f:
                for row in f:
                    cols = row.split()
                    if len(cols) >= 2:
                        tsv.write('%s\t%d\t%s\t%s\n' % (name, rep, cols[0], cols[1]))
                        if '_ns ' in cols[0] + ' ' or '_ns_per_' in cols[0]:
                            figures.append('%s=%s' % (cols[0], cols[1]))
            tsv.flush()
            say('  repetition %d/%d, %s: %s' % (rep, reps, name, ' '.join(figures)))
    tsv.close()
    try:
        return bench_compare.main([out, threshold or ''])
    except SystemExit as e:     # its usage or input errors, as on its command line
        return e.code


def kernel_log_verdict(run):
    try:
        with open(results.path(run, 'verdict.json')) as f:
            return next((c['verdict'] for c in json.load(f)['checks'] if c['name'] == 'kernel-log'), None)
    except (OSError, ValueError):
        return None


def capture(guest, dur, accel, cpus, recapture):
    """The large trace.dat bench checker reads: DUR seconds of the stress
    recorded with trace-cmd in the guest (job capture), once, kept in
    build/bench/trace.dat; again only with RECAPTURE."""
    dat = os.path.join(kspec.build_dir(), 'bench', 'trace.dat')
    if os.path.exists(dat) and os.path.getsize(dat) and not recapture:
        return dat
    if accel == 'auto':
        accel = guest.probe_accel()
    out = runmod.new_results_dir(prefix='bench-capture-')
    say('==> recording %ds of stress with trace-cmd in the guest (once; kept in %s)'
        % (dur, os.path.relpath(dat, TOP)))
    rc = guest.boot(out, planmod.guest_words(guest.kernel.line, ['job=capture', 'duration=%d' % dur,
                                                                 'bufkb=16384']),
                    accel, cpus, dur + 300, ['--mem', '4G', '--disk', '3G'])
    guest.judge(out, hung=dur + 300 if rc else None)
    got = results.path(out, 'trace.dat')
    if rc != 0 or not os.path.exists(got) or not os.path.getsize(got):
        raise runmod.BuildError('bench capture failed (see %s)'
                                % os.path.relpath(results.path(out, 'console.log'), TOP), 2)
    os.makedirs(os.path.dirname(dat), exist_ok=True)
    shutil.move(got, dat)
    return dat


def parse_checker(argv):
    o = {'--duration': '240', '--reps': '3', '--recapture': False}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == '--recapture':
            o[a] = True
        elif a in ('--duration', '--reps'):
            if not args:
                raise BenchError('%s needs a value' % a)
            o[a] = args.pop(0)
        else:
            raise BenchError("bench checker: unknown option '%s'" % a)
    dur = planmod.parse_duration(o['--duration'])
    if not re.fullmatch(r'[0-9]+', dur) or int(dur) < 1:
        raise BenchError("--duration must be a whole number >= 1 of seconds, or with s, m or h, "
                         "not '%s'" % dur)
    if not re.fullmatch(r'[1-9][0-9]*', o['--reps']):
        raise BenchError('--reps must be a positive number')
    return int(dur), o['--reps'], o['--recapture']


def bench_checker(dur, reps, recapture):
    guest = runmod.Guest(kspec.Kernel(kspec.default_line()))
    try:
        guest.build()
        dat = capture(guest, dur, 'auto', 2, recapture)
    except runmod.BuildError as e:
        print('error: %s' % e, file=sys.stderr)
        return 2
    out = os.path.join(TOP, 'results', 'bench-checker-' + datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    return subprocess.run([os.path.join(IMAGES, 'bench-checker.sh'), dat, out, reps]).returncode
