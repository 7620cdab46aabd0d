# SPDX-License-Identifier: GPL-2.0
"""./run.sh selftests: the kernel's own ftrace selftests as a regression
suite for our series.  The curated subset (images/ftracetest/subset.list)
on the line's vanilla tree and on the tree with our series, same config,
same guest; each boot gets a verdict.json (images/rbts/verdict.py: the guest
finished, the kernel's log), and images/rbts/selftests_compare.py compares the
cases: the same result on both, or the command FAILs.  A case that fails
on vanilla too is listed as such: the comparison is the verdict, not the
PASS count.

exit: 0 identical, 1 a case differs, 2 set-up error, 3 a guest hung
"""
import datetime
import os
import re
import sys

from rbts import kspec, plan as planmod, results, run as runmod, selftests_compare

IMAGES = kspec.IMAGES
TOP = kspec.TOP


class SelftestsError(planmod.PlanError):
    """A bad option: one line."""


def parse(argv):
    """selftests' options: (line, timeout)."""
    o = {'--timeout': '120', '--kernel': kspec.default_line()}
    planmod.value_options(argv, o, {'--timeout': 'a value', '--kernel': 'a line (have: %s)'
                                    % ' '.join(kspec.lines.names())}, 'selftests')
    if not re.fullmatch(r'[1-9][0-9]{0,3}', o['--timeout']):
        raise SelftestsError("--timeout must be 1 to 9999 seconds, not '%s'" % o['--timeout'])
    why = kspec.check('%s:ours:default:x86_64' % o['--kernel'])
    if why:
        raise SelftestsError('--kernel: %s' % why)
    return o['--kernel'], int(o['--timeout'])


def cases():
    with open(os.path.join(IMAGES, 'ftracetest', 'subset.list')) as f:
        return sum(1 for row in f if row.strip() and not row.startswith('#'))


def selftests(line, timeout):
    out = os.path.join(TOP, 'results', 'selftests-' + datetime.datetime.now().strftime('%Y%m%d-%H%M%S'))
    os.makedirs(out, exist_ok=True)
    n = cases()
    # NAME, kernel: the same line, arch and config, with and without our series.
    kernels = [(name, kspec.Kernel('%s:%s:default:x86_64' % (line, series)))
               for name, series in (('vanilla', 'vanilla'), ('series', 'ours'))]
    for name, k in kernels:
        print("==> selftests: building kernel '%s'" % name, flush=True)
        log = os.path.join(out, 'build-%s.log' % name)
        with open(log, 'w') as f:
            try:
                runmod.Guest(k, f).build()
                failed = False
            except runmod.BuildError:
                failed = True
        if failed:
            text = open(log, errors='replace').read().splitlines()
            sys.stderr.write(''.join('  | %s\n' % t for t in text[-5:]))
            sys.stderr.write("error: selftests: kernel '%s' does not build (see %s)\n"
                             % (name, os.path.relpath(log, TOP)))
            return 2
    for name, k in kernels:
        print("==> selftests: %d ftracetest cases on '%s' (at most %ds each)" % (n, name, timeout),
              flush=True)
        run = os.path.join(out, name)
        limit = n * (timeout + 10) + 120
        with open(run + '.log', 'w') as log:
            g = runmod.Guest(k, log)
            # --single-thread: under multi-threaded TCG both kernels die now
            # and then of a stray int3 in __schedule() while the sched
            # tracepoints' static calls are patched (text_poke_bp; vanilla 1
            # boot in 8, the series 2 in 3): a vCPU runs patched code stale.
            # With the vCPUs taking turns in one thread: 0 in 4
            # (docs/reliability.md).
            rc = g.boot(run, planmod.guest_words(line, ['job=selftests', 'fttimeout=%d' % timeout]),
                        'tcg', 2, limit, ['--single-thread'])
            g.judge(run, hung=limit if rc else None)
        if rc != 0 or not os.path.isfile(results.path(run, 'selftests.tsv')):
            sys.stderr.write("selftests: kernel '%s': the guest hung or crashed (see %s)\n"
                             % (name, os.path.relpath(results.path(run, 'console.log'), TOP)))
            return 3
        complaints = results.path(run, 'kernel-complaints.txt')
        if os.path.exists(complaints) and not os.path.getsize(complaints):
            os.unlink(complaints)
    return selftests_compare.main([out, 'vanilla', 'series'])
