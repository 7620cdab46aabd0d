# SPDX-License-Identifier: GPL-2.0
"""The layout of one run's results directory, results/<id>/: every file,
who writes it, who reads it, what it holds.  A writer writes only its own
files; the guest's are never rewritten on the host.

`python3 -m rbts.results` prints the table; `--markdown` prints
docs/results.md (host/spine checks that the two agree);
`python3 -m rbts.results path DIR NAME` prints where NAME of the run in DIR
is (shell readers: images/tests/lib.sh), or refuses an undeclared NAME.
"""
import os
import sys

# name: (writer, readers, what it holds).  The writers: guest (images/guest/,
# brought back by boot.sh), boot (images/boot.sh), run (images/rbts/run.py),
# model (images/rbts/model_verdict.py), collect (images/rbts/collect.py),
# faults (images/rbts/faults_table.py), verdict (images/rbts/verdict.py), report
# (images/report-run.sh, ./run.sh report).
FILES = {
    'kernel': ('run', 'verdict, report',
               'which kernel: spec, line, version (verdict.json "kernel")'),
    'model.json': ('model', 'verdict',
                   'the reserve-path model (and rb_time model) of the booted tree'),
    'console.log': ('boot', 'verdict, people', "the guest's serial console"),
    'console-stray-int3.log': ('boot', 'people',
                               'the console of a first boot that died of a stray int3'),
    'qemu.log': ('boot', 'people', "QEMU's own output"),
    'stopped': ('guest', 'verdict', 'the run was stopped early from the host (soak)'),
    'job-exit': ('guest', 'collect, verdict, faults',
                "the guest job's exit status (stress: the checker's), or 'drained' (job drain: the host verifies)"),
    'error.txt': ('guest, collect', 'verdict', 'a set-up error: one line'),
    'job': ('guest', 'people', 'the job the guest ran'),
    'settings': ('guest', 'verdict', 'the rbts.* settings the guest read'),
    'module-settings.txt': ('guest', 'verdict', "the stress module's parameters"),
    'module-stats.txt': ('guest', 'verdict, tests', "the stress module's counters"),
    'insmod.txt': ('guest', 'people', 'insmod of the stress module'),
    'kernel-stats.txt': ('guest', 'verdict', "the ring buffer's path counters (our series)"),
    'phases': ('guest', 'verdict', 'the phases the stress visited (discard)'),
    'filter-seq-mask': ('guest', 'collect', "the event filter's seq mask (rbts.discard)"),
    'dmesg.txt': ('guest', 'verdict', "the guest kernel's log"),
    'dmesg-before-faults.txt': ('guest', 'verdict', 'the log before the fault scenarios'),
    'result.json': ('guest, collect', 'verdict, tests', "rbcheck's rules (live, or the drain's)"),
    'result.ktap': ('guest, collect', 'people, CI', "rbcheck's rules as KTAP"),
    'summary.txt': ('guest, collect', 'people', "rbcheck's summary"),
    'raw': ('guest', 'collect', 'the sub-buffers the live checker read (--save-raw)'),
    'violation-raw': ('guest', 'people', 'the sub-buffers around a violation'),
    'violation.dat': ('guest', 'people', 'trace.dat around a violation'),
    'restore.log': ('guest', 'people', "trace-cmd restore's output (violation.dat)"),
    'trace.dat': ('guest', 'collect, report', 'the trace-cmd capture'),
    'trace-cmd.log': ('guest', 'people', "trace-cmd record's output"),
    'other.dat': ('guest', 'tests', "the kernel's own events under the run's clock"),
    'drain': ('guest, boot', 'collect', "job drain: the sub-buffers and the guest's meta"),
    'drain.log': ('guest', 'people', "job drain's output"),
    'faults': ('guest, faults', 'faults, verdict', 'one directory per fault scenario; faults.json'),
    'params.tap': ('guest', 'collect', 'job params: TAP'),
    'rmmod.tap': ('guest', 'collect', 'job rmmod: TAP'),
    'textpoke.txt': ('guest', 'people', 'job textpoke: the tracepoint switches made, CPUs, seconds'),
    'bench.txt': ('guest', 'bench', 'job bench: rbstress events per second'),
    'ring_buffer_benchmark.txt': ('guest', 'bench', "the kernel's ring buffer benchmark"),
    'buffer-stats.txt': ('guest', 'bench', 'the per-CPU buffer stats'),
    'selftests.tsv': ('guest', 'selftests', 'job selftests: each ftracetest case and its result'),
    'ftracetest-logs': ('guest', 'people', "ftracetest's own logs"),
    'drain-verify-exit': ('collect', 'verdict', 'job drain: the host verify of the drained sub-buffers'),
    'verify.err': ('collect', 'people', "that verify's stderr"),
    'offline.json': ('collect', 'verdict', 'trace.dat verified on the host'),
    'offline.txt': ('collect', 'people', "that verify's output"),
    'offline-raw.json': ('collect', 'verdict', "the live run's sub-buffers verified on the host"),
    'offline-raw.txt': ('collect', 'people', "that verify's output"),
    'kernel-complaints.txt': ('verdict', 'people', 'what the kernel log said that it should not'),
    'verdict.json': ('verdict', 'tests, matrix, reproduce, detection, people',
                     'the verdict: checks, coverage, known findings, exit'),
    'verdict.txt': ('verdict', 'people', 'the verdict in one line'),
    'interrupted': ('run', 'people', 'the run was stopped by a signal before its verdict: where, and why'),
    'deltas.png': ('soak', 'people', 'the nested deltas (images/plot-deltas.sh)'),
    'ts-check.txt': ('report', 'people', "trace-cmd report --ts-check of trace.dat (./run.sh report)"),
}

# A run's exit status and the verdict it stands for (images/rbts/verdict.py
# writes it, ./run.sh exits with it, the matrix names each cell by it).
EXIT = {'PASS': 0, 'FAIL': 1, 'ERROR': 2, 'HUNG': 3, 'INCOMPLETE': 4}


def verdict_of_exit(rc):
    """The verdict a run's exit status stands for ('ERROR' for any other:
    a set-up error, a crash of the harness)."""
    return next((v for v, n in EXIT.items() if n == rc), 'ERROR')


def path(out, name):
    """NAME of the run in OUT (or a file below a declared directory,
    faults/faults.json); a name the layout does not declare is a bug."""
    if name.split(os.sep)[0] not in FILES:
        raise KeyError('results layout: no file %r (images/rbts/results.py)' % name)
    return os.path.join(out, name)


def read_lines(path):
    """A text file of a run as lines ([] if it is not there), undecodable
    bytes replaced: a kernel log may hold anything."""
    try:
        with open(path, errors='replace') as f:
            return f.read().splitlines()
    except OSError:
        return []


def write_kernel(out, kernel):
    """Which kernel the run is of (verdict.json "kernel")."""
    with open(path(out, 'kernel'), 'w') as f:
        f.write('spec %s\nline %s\nversion %s\n' % (kernel.spec, kernel.line, kernel.version))


def config_has(config, line):
    try:
        with open(config) as f:
            return any(row.rstrip('\n') == line for row in f)
    except OSError:
        return False


def markdown():
    """docs/results.md: the table for people."""
    out = ['# One run\'s results: results/<id>/',
           '',
           'Every file a run leaves, who writes it, who reads it, what it holds.',
           'Made by `python3 -m rbts.results --markdown` from `images/rbts/results.py`,',
           'the one place the layout is declared: readers and writers name a file',
           'through `results.path()`, which refuses a name not in it (shell readers:',
           '`python3 -m rbts.results path DIR NAME`). How to read a run:',
           'docs/report.md; the verdict\'s checks: docs/checker.md.',
           '',
           '| file | written by | read by | what it holds |',
           '|---|---|---|---|']
    out += ['| `%s` | %s | %s | %s |' % (name, writer, readers, what.replace('|', '\\|'))
            for name, (writer, readers, what) in FILES.items()]
    return '\n'.join(out) + '\n'


def main(argv):
    if argv[:1] == ['path'] and len(argv) == 3:
        try:
            print(path(argv[1], argv[2]))
        except KeyError as e:
            print('error: %s' % e.args[0], file=sys.stderr)
            return 2
        return 0
    if argv == ['--markdown']:
        sys.stdout.write(markdown())
        return 0
    if argv:
        print('usage: python3 -m rbts.results [--markdown | path DIR NAME]', file=sys.stderr)
        return 2
    for name, (writer, readers, what) in FILES.items():
        print('%-26s %-15s %-30s %s' % (name, writer, readers, what))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
