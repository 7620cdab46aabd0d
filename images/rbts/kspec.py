# SPDX-License-Identifier: GPL-2.0
"""A kernel spec: one value, LINE:SERIES:VARIANT:ARCH, turned into every path
of that kernel here and nowhere else (the shell's images/kernel/spec.sh asks
this module: `python3 -m rbts.kspec shell SPEC`).

  LINE     a line of images/kernel/lines.table (its first row by default)
  SERIES   ours (the line's series in the checkout), vanilla (none), the
           absolute path of a directory with a 'series' file, or @DIR: the
           kernel tree at DIR as it is (--ksrc: a maintainer's branch; no
           series, nothing written into it: its builds go to build/ksrc-*),
           or @DIR+SERIES: a copy of that tree (in build/ksrc-*) with SERIES
           applied, ours or a series directory (--ksrc DIR --apply SERIES)
  VARIANT  default, rb-time-32 or debug (images/config/VARIANT.config)
  ARCH     x86_64 or i386

Example: 6.1:ours:debug:x86_64.  Empty fields take the defaults.

The tree is the line's source with a series applied; a kernel is a tree
built for an arch with a variant's config.  Another series than ours gets a
directory of its own for its tree and its builds, laid out as build/ is:
the source path relative to every build directory is then ../linux-VERSION
for all of them, and ccache (preprocessor mode) serves each file the series
does not touch from any kernel's build, across clones too.

usage: kspec.py shell SPEC          the spec's paths as shell assignments
       kspec.py describe SPEC       one line for people: what this kernel is
       kspec.py check SPEC          nothing if valid, else what is wrong
       kspec.py lines|default-line|bench-default
       kspec.py packages            every line's Debian source package
       kspec.py variants|features LINE
       kspec.py patches SERIES-DIR  the patches a series names, in order
       kspec.py without LINE NUMS   our series less those fixes: its dir
       kspec.py seeded LINE FAULT   our series plus a seeded fault: its dir
exit:  0, 1 (check: invalid; without/seeded: refused, why on stderr), 2 usage
"""
import glob
import hashlib
import os
import re
import shlex
import subprocess
import sys

IMAGES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = os.path.dirname(IMAGES)
from rbts import lines  # noqa: E402

VARIANTS = ('default', 'rb-time-32', 'debug')
ARCHES = ('x86_64', 'i386')
QEMU = {'x86_64': 'qemu-system-x86_64', 'i386': 'qemu-system-i386'}
CONFIG = os.path.join(IMAGES, 'config')


class SpecError(Exception):
    """A spec, a fix number or a fault that is not ours: one line."""


def build_dir():
    return os.environ.get('RBTS_BUILD') or os.path.join(TOP, 'build')


def default_line():
    """The default line: the first row of lines.table, written nowhere else."""
    return lines.names()[0]


def bench_default():
    """The kernels ./run.sh bench kernels compares by default, as its
    --kernels list: each line vanilla and with our series, and the series
    with the 32-bit rb_time_t where the line builds it."""
    out = []
    for row in lines.rows():
        out += ['vanilla-' + row.line, 'series-' + row.line]
        if 'rb-time-32' in row.variants:
            out.append('series-%s-32' % row.line)
    return ','.join(out)


def split(spec):
    """SPEC's four fields, the empty ones defaulted."""
    fields = spec.split(':')
    if len(fields) > 4:
        raise SpecError("kernel spec '%s' has more than LINE:SERIES:VARIANT:ARCH" % spec)
    fields += [''] * (4 - len(fields))
    defaults = (default_line(), 'ours', 'default', 'x86_64')
    return [f or d for f, d in zip(fields, defaults)]


def check(spec):
    """None if SPEC is valid, else what is wrong (one line)."""
    try:
        line, series, variant, arch = split(spec)
    except SpecError as e:
        return str(e)
    row = lines.get(line)
    if row is None:
        return ("kernel line '%s' is not in images/kernel/lines.table (have: %s)"
                % (line, ' '.join(lines.names())))
    if series.startswith('@'):
        tree, apply = split_ksrc(series)
        why = check_tree(tree)
        if why:
            return why
        if apply and apply != 'ours' and not (apply.startswith('/') and
                                              os.path.isfile(os.path.join(apply, 'series'))):
            return "a tree's series must be ours or a directory with a 'series' file, not '%s'" % apply
        if variant == 'rb-time-32' and apply != 'ours':
            return 'the rb-time-32 variant needs our series (a tree as it is has no RB_TIME_32 option)'
    elif series.startswith('/'):
        if not os.path.isfile(os.path.join(series, 'series')):
            return "series directory '%s' has no 'series' file" % series
    elif series not in ('ours', 'vanilla'):
        return "series must be ours, vanilla, an absolute directory or @TREE, not '%s'" % series
    if variant not in VARIANTS:
        return 'variant must be one of: %s; not \'%s\'' % (' '.join(VARIANTS), variant)
    if variant not in row.variants:
        return ('kernel line %s has no %s variant (it builds: %s)'
                % (line, variant, ' '.join(v for v in VARIANTS if v in row.variants)))
    if arch not in ARCHES:
        return 'arch must be one of: %s; not \'%s\'' % (' '.join(ARCHES), arch)
    return None


def split_ksrc(series):
    """@TREE or @TREE+SERIES: (TREE, SERIES or '')."""
    tree, _, apply = series[1:].partition('+')
    return tree, apply


def tree_version(tree):
    """VERSION.PATCHLEVEL.SUBLEVEL of the kernel tree at TREE, or None."""
    v = {}
    try:
        with open(os.path.join(tree, 'Makefile')) as f:
            for row in f:
                m = re.match(r'(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)', row)
                if m:
                    v[m.group(1)] = m.group(2)
                if len(v) == 3:
                    break
    except OSError:
        return None
    return '%s.%s.%s' % (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL']) if len(v) == 3 else None


def check_tree(tree):
    """None if TREE is a kernel tree this harness can build out of it as it
    is, else why not (one line)."""
    if not tree.startswith('/') or not os.path.isdir(tree):
        return "kernel tree '%s': no such directory" % tree
    if tree_version(tree) is None or not os.path.isfile(os.path.join(tree, 'kernel', 'trace',
                                                                   'ring_buffer.c')):
        return "'%s' is not a kernel tree (no Makefile with VERSION, or no kernel/trace/ring_buffer.c)" % tree
    # Kbuild builds out of a tree (O=) only when the tree itself is clean
    for f in ('.config', os.path.join('include', 'config', 'auto.conf')):
        if os.path.exists(os.path.join(tree, f)):
            return ("kernel tree '%s' has been configured or built in place (%s): Kbuild builds "
                    "out of it only when it is clean (make mrproper)" % (tree, f))
    return None


def line_of_tree(tree):
    """The line of lines.table whose version is the tree's VERSION.PATCHLEVEL,
    or None."""
    v = tree_version(tree)
    if not v:
        return None
    major = '.'.join(v.split('.')[:2])
    return next((r.line for r in lines.rows() if '.'.join(r.version.split('.')[:2]) == major), None)


class Kernel:
    """Every path of one kernel spec (the names are spec.sh's variables)."""

    def __init__(self, spec):
        why = check(spec)
        if why:
            raise SpecError(why)
        self.line, self.series, self.variant, self.arch = split(spec)
        self.spec = ':'.join((self.line, self.series, self.variant, self.arch))
        row = lines.get(self.line)
        self.row = row
        self.version = row.version
        self.package = row.package
        self.tarball = '/usr/src/%s.tar.xz' % row.package
        build = build_dir()
        self.ksrc = self.series.startswith('@')
        self.tree, self.apply = '', ''
        if self.ksrc:
            tree, self.apply = split_ksrc(self.series)
            self.tree = tree
            self.version = tree_version(tree)
            top = os.path.join(build, 'ksrc-%s-%s' % (
                re.sub(r'[^a-zA-Z0-9_.-]', '_', os.path.basename(tree.rstrip('/'))),
                hashlib.sha1(self.series[1:].encode()).hexdigest()[:8]))
            # The tree is not ours to write: its stamp lives with its
            # builds, and a series asked for goes on a copy of it, named as
            # every tree of ours is (../linux-VERSION from its builds: ccache
            # serves what the series does not touch).
            self.patches = {'': '', 'ours': row.series}.get(self.apply, self.apply)
            self.src = os.path.join(top, 'linux-' + self.version) if self.apply else tree
            self.stamp = os.path.join(top, '.rbts-series')
        elif self.series == 'ours':
            self.patches, name = row.series, ''
        elif self.series == 'vanilla':
            self.patches, name = os.path.join(build, 'series-vanilla', 'patches-' + self.line), 'vanilla'
        else:
            self.patches = self.series
            name = re.sub(r'[^a-zA-Z0-9_.-]', '_', os.path.basename(self.series.rstrip('/')))
        if not self.ksrc:
            top = os.path.join(build, 'series-' + name) if name else build
            self.src = os.path.join(top, 'linux-' + self.version)
            self.stamp = os.path.join(self.src, '.rbts-series')
        # where this kernel's tree (but for --ksrc) and builds live
        self.top = top
        self.flavour = '%s-%s' % (self.line, self.arch)
        if self.variant != 'default':
            self.flavour += '-' + self.variant
        self.kout = os.path.join(top, 'kernel-' + self.flavour)
        self.modout = os.path.join(top, 'stress-module-' + self.flavour)
        self.initramfs = os.path.join(top, 'initramfs-%s.cpio.gz' % self.flavour)
        # What runs in the guest besides the kernel: the host's own binaries
        # on x86_64; on i386 a static rbdrain built -m32.
        self.guestout = os.path.join(build, 'guest-' + self.arch)
        self.qemu = QEMU[self.arch]
        self.bzimage = os.path.join(self.kout, 'arch', 'x86', 'boot', 'bzImage')
        self.config = os.path.join(self.kout, '.config')
        # The config: tinyconfig, then these fragments in order (a later one
        # wins): what every guest needs, the arch's, the tracing under test,
        # the NMI sources, the line's own, our series' options, the variant's.
        self.kconfigs = [os.path.join(CONFIG, f) for f in
                         ('base.config', self.arch + '.config', 'tracing.config', 'nmi.config')]
        if row.config:
            self.kconfigs.append(os.path.join(CONFIG, row.config))
        if self.patches == row.series:
            self.kconfigs.append(os.path.join(CONFIG, 'series.config'))
        elif self.patches and os.path.isfile(os.path.join(self.patches, 'series.config')):
            self.kconfigs.append(os.path.join(self.patches, 'series.config'))
        if self.variant != 'default':
            self.kconfigs.append(os.path.join(CONFIG, self.variant + '.config'))

    def describe(self):
        """One line for people: what this kernel is."""
        s = {'ours': 'our series', 'vanilla': 'vanilla'}.get(self.series)
        def named(d):
            return 'series ' + (os.path.relpath(d, TOP) if d.startswith(TOP + '/') else d)
        if self.ksrc:
            s = 'the tree %s %s' % (self.tree, {'': 'as it is', 'ours': 'with our series'}.get(
                self.apply, 'with ' + named(self.apply)))
        elif s is None:
            s = named(self.series)
        return '%s (%s), %s, %s config, %s' % (self.version, self.line, s, self.variant, self.arch)

    def shell(self):
        """The paths as the shell assignments of spec.sh's variables."""
        v = {'KLINE': self.line, 'SERIES': self.series, 'VARIANT': self.variant,
             'ARCH': self.arch, 'KSPEC': self.spec, 'KERNEL_VERSION': self.version,
             'KERNEL_PACKAGE': self.package, 'KERNEL_TARBALL': self.tarball,
             'PATCHES': self.patches, 'QEMU': self.qemu, 'SRC': self.src,
             'FLAVOUR': self.flavour, 'KOUT': self.kout, 'MODOUT': self.modout,
             'INITRAMFS': self.initramfs, 'GUESTOUT': self.guestout,
             'KSRC': '1' if self.ksrc else '', 'KSRC_TREE': self.tree,
             'TREE_STAMP': self.stamp}
        out = ['%s=%s' % (k, shlex.quote(x)) for k, x in v.items()]
        out.append('KCONFIGS=(%s)' % ' '.join(shlex.quote(c) for c in self.kconfigs))
        return '\n'.join(out)


def series_patches(sdir):
    """The patches named by a series directory's series file, in order, as
    paths.  A line naming another series file (fixes/series) includes its
    patches: our series is the fixes part, then the test part
    (docs/kernel-patches.md); an absolute path is a patch of another series
    (series_without)."""
    path = os.path.join(sdir, 'series')
    if not os.path.isfile(path):
        raise SpecError('%s: no such file' % path)
    out = []
    with open(path) as f:
        for row in f:
            p = row.split('#', 1)[0].strip()
            if not p:
                continue
            if p.startswith('/'):
                out.append(p)
            elif p == 'series' or p.endswith('/series'):
                out += series_patches(os.path.join(sdir, os.path.dirname(p)))
            else:
                out.append(os.path.join(sdir, p))
    return out


def _write_series(d, head, patches):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'series.new'), 'w') as f:
        f.write(head + '\n' + ''.join(p + '\n' for p in patches))
    os.replace(os.path.join(d, 'series.new'), os.path.join(d, 'series'))
    with open(os.path.join(CONFIG, 'series.config')) as src, \
            open(os.path.join(d, 'series.config'), 'w') as dst:
        dst.write(src.read())
    return d


def series_without(line, nums):
    """Our series of LINE without the fixes whose numbers in its fixes part
    are given (0005 for fixes/0005-*.patch; comma-separated), as a series
    directory of its own (build/without-LINE-NUMBERS: a 'series' naming the
    checkout's patches by their paths, and our series.config), so that a
    fix can be measured against the same kernel without it.  The test hooks
    stay.  Returns the directory."""
    row = lines.get(line)
    if row is None:
        raise SpecError("kernel line '%s' is not in images/kernel/lines.table" % line)
    fixes = os.path.join(row.series, 'fixes')
    have = sorted(os.path.basename(p)[:4] for p in glob.glob(os.path.join(fixes, '0*.patch'))
                  if not os.path.basename(p).startswith('0000-'))
    drop = set()
    for n in nums.split(','):
        hit = glob.glob(os.path.join(fixes, n + '-*.patch'))
        if not re.fullmatch(r'\d{4}', n) or n == '0000' or not hit:
            raise SpecError('no fix %s in %s (have: %s)'
                            % (n, os.path.relpath(fixes, TOP), ' '.join(have)))
        drop.add(hit[0])
    d = os.path.join(build_dir(), 'without-%s-%s' % (line, nums.replace(',', '-')))
    return _write_series(d, '# our %s series without fix(es) %s (./run.sh --without)'
                         % (line, nums.replace(',', ', ')),
                         [p for p in series_patches(row.series) if p not in drop])


def seeded_faults():
    """The seeded faults of the reserve-path model (its extractor's list)."""
    out = subprocess.run([sys.executable, 'extract-reserve.py', '--faults'], stdout=subprocess.PIPE,
                         cwd=os.path.join(TOP, 'userspace-checker', 'models', 'reserve'),
                         text=True, check=True).stdout
    return out.split()


def series_seeded(line, fault):
    """Our series of LINE with one seeded fault of the reserve-path model
    (./run.sh model --reserve --list) added as a last patch, as a series
    directory of its own (build/seeded-LINE-FAULT), so that a run shows
    which check catches the fault: a live rule, the kernel's audit, the
    model.  The patch itself is made from our tree by
    images/kernel/seed-patch.sh, before the tree is prepared (it needs
    ours).  Returns the directory."""
    names = seeded_faults()
    if fault not in names:
        raise SpecError("no seeded fault '%s' (have: %s)" % (fault, ' '.join(names)))
    row = lines.get(line)
    d = os.path.join(build_dir(), 'seeded-%s-%s' % (line, fault))
    return _write_series(d, '# our %s series with the seeded fault %s (./run.sh --seed-fault)'
                         % (line, fault),
                         series_patches(row.series) + [os.path.join(d, 'seeded-%s.patch' % fault)])


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ('', [])
    try:
        if cmd == 'shell' and len(args) == 1:
            print(Kernel(args[0]).shell())
        elif cmd == 'describe' and len(args) == 1:
            print(Kernel(args[0]).describe())
        elif cmd == 'check' and len(args) == 1:
            why = check(args[0])
            if why:
                print(why)
                return 1
        elif cmd == 'lines' and not args:
            print(' '.join(lines.names()))
        elif cmd == 'packages' and not args:
            print('\n'.join(r.package for r in lines.rows()))
        elif cmd == 'default-line' and not args:
            print(default_line())
        elif cmd == 'bench-default' and not args:
            print(bench_default())
        elif cmd in ('variants', 'features') and len(args) == 1:
            row = lines.get(args[0])
            have = getattr(row, cmd) if row else set()
            order = VARIANTS if cmd == 'variants' else sorted(have)
            print(' '.join(v for v in order if v in have))
        elif cmd == 'patches' and len(args) == 1:
            sys.stdout.write(''.join(p + '\n' for p in series_patches(args[0])))
        elif cmd == 'without' and len(args) == 2:
            print(series_without(*args))
        elif cmd == 'seeded' and len(args) == 2:
            print(series_seeded(*args))
        else:
            print('kspec.py: usage: see its docstring', file=sys.stderr)
            return 2
    except SpecError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
