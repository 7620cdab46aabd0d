# SPDX-License-Identifier: GPL-2.0
"""./run.sh model: rbmodel on a tree's own 32-bit rb_time_t code, or with
--reserve rbreserve on a tree's reserve path (--vanilla: the line's
unmodified tree; --ksrc DIR: any tree, as it is); both are extracted from
the tree's ring_buffer.c at build time.  The model's own options are
checked first by its command line check alone (built without a tree),
before a tree is extracted and patched: one line, exit 2.
"""
import os
import subprocess
import sys

from rbts import kspec, run as runmod

IMAGES = kspec.IMAGES
TOP = kspec.TOP


class ModelError(Exception):
    """A bad option: one line."""


def check_args(folder, prog, args):
    """PROG's command line check of ARGS (ModelError with its line)."""
    out = os.path.join(kspec.build_dir(), 'model-args')
    if subprocess.run(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker', folder),
                       'O=' + out, 'args'], stdout=subprocess.DEVNULL).returncode:
        raise runmod.BuildError("cannot build %s's command line check" % prog, 2)
    p = subprocess.run([os.path.join(out, prog + '-args')] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        why = p.stdout.strip().splitlines()[0] if p.stdout.strip() else 'bad options'
        why = why[len(prog) + 2:] if why.startswith(prog + ': ') else why
        raise ModelError('model: ' + why.split(' (see ')[0])


def reserve_model(line, series, args, log=None):
    """rbreserve with ARGS on LINE's tree (SERIES: ours or vanilla): its
    exit status.  For the command and for programs (rbts/detection.py)."""
    k = kspec.Kernel('%s:%s:default:x86_64' % (line, series))
    g = runmod.Guest(k, log)
    g.script('install-deps.sh')
    check_args('models/reserve', 'rbreserve', args)
    g.script('prepare-tree.sh')
    out = os.path.join(kspec.build_dir(), 'reserve-model', '%s-%s' % (k.line, k.series))
    g.call(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker', 'models', 'reserve'),
            'O=' + out, 'KSRC=' + k.src], capture=True)
    return g.call([os.path.join(out, 'rbreserve')] + list(args), check=False)


def model(argv):
    """The model command: its exit status (ModelError for a bad option)."""
    line, reserve, series, ksrc, args = '', False, 'ours', '', list(argv)
    while args:
        a = args[0]
        if a == '--reserve':
            reserve = True
        elif a == '--vanilla':
            series = 'vanilla'
        elif a in ('--kernel', '--ksrc'):
            if len(args) < 2:
                raise ModelError('--kernel needs a line (have: %s)' % ' '.join(kspec.lines.names())
                                 if a == '--kernel' else '--ksrc needs a kernel tree')
            if a == '--kernel':
                line = args[1]
            else:
                ksrc = args[1]
            args.pop(0)
        else:
            break
        args.pop(0)
    if not reserve and series != 'ours':
        raise ModelError('model: --vanilla goes with --reserve (the 32-bit rb_time_t is the same '
                         'in both trees)')
    if ksrc:
        if not reserve:
            raise ModelError('model: --ksrc goes with --reserve')
        if line or series != 'ours':
            raise ModelError('model: --ksrc names the tree; --kernel and --vanilla name one of ours')
        check_args('models/reserve', 'rbreserve', args)
        os.execv(os.path.join(IMAGES, 'model-ksrc.sh'), ['model-ksrc.sh', ksrc] + args)
    if reserve:
        why = kspec.check('%s:ours:default:x86_64' % (line or kspec.default_line()))
        if why:
            raise ModelError('model: ' + why)
        return reserve_model(line or kspec.default_line(), series, args)
    spec = '%s:ours:default:x86_64' % (line or kspec.default_line())
    if line:
        why = kspec.check('%s:ours:rb-time-32:x86_64' % line)
        if why:
            raise ModelError('model: %s: the model checks the 32-bit rb_time_t, which only 6.1 has '
                             '(6.8 removed it)' % why)
    k = kspec.Kernel(spec)
    g = runmod.Guest(k)
    g.script('install-deps.sh')
    check_args('models/rb-time', 'rbmodel', args)
    g.script('prepare-tree.sh')
    out = os.path.join(kspec.build_dir(), 'model')
    g.call(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker', 'models', 'rb-time'), 'O=' + out, 'KSRC=' + k.src])
    sys.stdout.flush()
    return subprocess.run([os.path.join(out, 'rbmodel')] + args).returncode
