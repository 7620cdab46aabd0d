# SPDX-License-Identifier: GPL-2.0
"""What the host adds to a guest's results before the verdict: the drained
sub-buffers of a guest without a checker (job drain: i386) verified here,
the guest's trace.dat verified offline (offline.json), the live run's own
sub-buffers verified again (offline-raw.json).  Prints the checker's
summary for people.  Decides nothing: images/rbts/verdict.py does, from these
files.  Every file goes through the results layout (rbts.results).
"""
import os
import subprocess

from rbts import kspec, results


def rbcheck():
    return os.path.join(kspec.build_dir(), 'checker', 'rbcheck')


def _read(out, name):
    try:
        with open(results.path(out, name), errors='replace') as f:
            return f.read()
    except OSError:
        return None


def _verify(argv, stdout, stderr=None):
    """rbcheck verify ARGV, its output into the file STDOUT and its errors
    into STDERR (or STDOUT too): its exit status."""
    with open(stdout, 'w') as o, open(stderr or os.devnull, 'w') as e:
        return subprocess.run([rbcheck(), 'verify'] + argv, stdin=subprocess.DEVNULL, stdout=o,
                              stderr=e if stderr else subprocess.STDOUT).returncode


def _meta(out, key):
    for row in (_read(out, 'drain/meta') or '').splitlines():
        if row.startswith(key + ' '):
            return row[len(key) + 1:]
    return '?'


def collect(out, say):
    """Verify on the host what the guest in OUT left; SAY prints for people."""
    job_exit = _read(out, 'job-exit')
    if job_exit is None:
        return		# the guest died: verdict.py reads its console
    def p(name):
        return results.path(out, name)
    # The guest's event filter (rbts.discard): which seq gaps it made.
    mask = (_read(out, 'filter-seq-mask') or '').strip()
    flt = ['--filter-seq-mask', mask] if mask else []

    # A guest without a checker (job drain: i386) brought its sub-buffers
    # back (its job-exit says "drained"): the host verifies them, with the
    # guest's long size and byte order.  The exit status goes to
    # drain-verify-exit (job-exit is the guest's) and is the checker's word
    # for the run.
    if job_exit.strip() == 'drained':
        rc = _verify(['--require-nested'] + flt + ['--ktap', p('result.ktap'), '--json', p('result.json'),
                                                   p('drain')], p('summary.txt'), p('verify.err'))
        if rc >= 2:
            err = (_read(out, 'verify.err') or '').split('\n', 1)[0]
            with open(p('error.txt'), 'w') as f:
                f.write('rbcheck verify %s/drain: %s\n' % (os.path.relpath(out, kspec.TOP), err))
        with open(p('drain-verify-exit'), 'w') as f:
            f.write('%d\n' % rc)
        say("(the guest's sub-buffers, verified on the host: %s, long size %s)"
            % (_meta(out, 'machine'), _meta(out, 'long_size')))
    for name in ['summary.txt'] + sorted(n for n in results.FILES if n.endswith('.tap')):
        text = _read(out, name)
        if text:
            say(text.rstrip('\n'))

    if os.path.isfile(p('trace.dat')) and os.path.getsize(p('trace.dat')):
        _verify([p('trace.dat'), '--json', p('offline.json')], p('offline.txt'))
    if os.path.isdir(p('raw')):
        _verify(flt + [p('raw'), '--json', p('offline-raw.json')], p('offline-raw.txt'))


if __name__ == '__main__':
    import sys
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print('usage: python3 -m rbts.collect RESULTS-DIR (a run\'s results directory)', file=sys.stderr)
        sys.exit(2)
    collect(os.path.abspath(sys.argv[1]), print)
