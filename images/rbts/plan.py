# SPDX-License-Identifier: GPL-2.0
"""A Plan: what one guest run is, made from the options of ./run.sh run
(soak, faults and build take the same) and checked as it is made: the
kernel spec (kspec.Kernel), the guest's settings (images/rbts/settings.py
against images/guest/settings.table), the guest kernel's own parameters
and the boot's.  Nothing is extracted, built or booted here, so a bad
option costs nothing: PlanError, one line, exit 2.

A Plan's serialisation is the JSON of --plan FILE (to_json): what a
program that boots the guest another way needs (./run.sh matrix --lava).
"""
import json
import os
import re

from rbts import settings as guest_args
from rbts import kspec

IMAGES = kspec.IMAGES
TOP = kspec.TOP
# The kernel command line every guest boots with, before its rbts.* words
# (images/boot.sh here, a LAVA job's image_arg in a lab: images/rbts/matrix.py).
GUEST_CMDLINE = 'console=ttyS0 loglevel=5 panic=-1 oops=panic'
JOBS = ('stress', 'params', 'rmmod', 'faults', 'drain', 'textpoke')
# The test-only waits of our series: ring_buffer_{which}_delay_us
DELAYS = ('reader', 'discard', 'shrink', 'clock', 'nest')


class PlanError(Exception):
    """A bad option: the one line run.sh prints after 'run.sh: '."""




def guest_values(key):
    return guest_args.load()[key][0].partition(':')[2].split(',')


def guest_default(key):
    return guest_args.load()[key][1]


def guest_words(line, settings):
    """The rbts.* words of SETTINGS (KEY=VALUE each) for kernel LINE, or
    PlanError with the settings' own line."""
    rows = guest_args.load()
    features = guest_args.line_features(line)
    words = []
    for arg in settings:
        key, eq, value = arg.partition('=')
        if not eq or key not in rows:
            raise PlanError('%r is not a setting (have: %s)' % (arg, ' '.join(rows)))
        why = guest_args.check(key, value, rows[key][0])
        if why:
            raise PlanError('%s=%s: %s %s' % (key, value, key, why))
        need = guest_args.NEEDS.get(key)
        if need and value != rows[key][1] and need not in features:
            raise PlanError('%s=%s: kernel line %s has no %s (only %s=%s); lines with it: %s'
                            % (key, value, line, need, key, rows[key][1],
                               ' '.join(l for l in guest_args.all_lines()
                                        if need in guest_args.line_features(l)) or 'none'))
        words.append('rbts.%s=%s' % (key, value))
    return ' '.join(words)


def value_options(argv, values, needs, who):
    """Options that each take a value (bench kernels, selftests): ARGV's
    into VALUES, which holds their defaults; NEEDS says what each takes.
    An unknown option or a missing value is PlanError."""
    args = list(argv)
    while args:
        a = args.pop(0)
        if a not in values:
            raise PlanError("%s: unknown option '%s'" % (who, a))
        if not args:
            raise PlanError('%s needs %s' % (a, needs[a]))
        values[a] = args.pop(0)
    return values


def parse_duration(text):
    """90s, 30m, 6h or plain seconds -> seconds; else the text, unchanged,
    for the check to refuse."""
    m = re.fullmatch(r'([0-9]{1,7})([smh]?)', text or '')
    if not m:
        return text
    return str(int(m.group(1)) * {'': 1, 's': 1, 'm': 60, 'h': 3600}[m.group(2)])


class Plan:
    """One guest run.  command: run, soak, faults or build."""

    def __init__(self, command='run'):
        self.command = command
        self.accel, self.cpus, self.duration, self.clock = 'auto', '2', '60', 'global'
        self.mod, self.capture, self.job = '', '2', 'stress'
        self.kernel_args, self.boot_extra, self.settings = [], [], []
        # The debug kernel, as syzkaller boots its kernels: the first
        # warning is fatal.  soak --keep-going clears it: the kernel goes on
        # past a warning as the checker goes on past a violation, and the
        # verdict still FAILs on every complaint of the log that no known
        # finding explains (finding (d)'s audit warning disables recording
        # on one CPU only: the hour goes on).
        self.warn_is_fatal = True
        self.debug, self.variant, self.arch = False, 'default', 'x86_64'
        self.line = kspec.default_line()
        self.faults, self.without, self.seed = '', '', ''
        self.vanilla, self.dry_run, self.plan_file = False, False, ''
        self.ksrc, self.apply, self.line_given = '', '', False
        self.out = None
        self.kernel = None

    # -- the options -------------------------------------------------------
    def parse(self, argv):
        """Take run's options (PlanError on a bad one); -h is HelpWanted."""
        args = list(argv)

        def value(opt, need):
            if not args or args[0] is None:
                raise PlanError(need)
            return args.pop(0)

        while args:
            a = args.pop(0)
            if a == '--accel':
                self.accel = value(a, '--accel needs a value')
            elif a == '--cpus':
                self.cpus = value(a, '--cpus needs a value')
            elif a == '--duration':
                self.duration = parse_duration(value(a, '--duration needs a value'))
            elif a == '--clock':
                self.clock = value(a, '--clock needs a value')
            elif a == '--mod':
                self.mod = value(a, '--mod needs a value')
            elif a == '--capture':
                self.capture = value(a, '--capture needs a value')
            elif a == '--kernel':
                self.line = value(a, '--kernel needs a line (have: %s)' % ' '.join(kspec.lines.names()))
                self.line_given = True
            elif a == '--ksrc':
                self.ksrc = value(a, '--ksrc needs a kernel tree (a directory)')
            elif a == '--apply':
                self.apply = value(a, "--apply needs a series: ours, or a directory with a 'series' file")
            elif a == '--rb-time-32':
                if self.debug:
                    raise PlanError('--rb-time-32 and --debug cannot be combined')
                self.variant = 'rb-time-32'
            elif a == '--debug':
                if self.variant != 'default':
                    raise PlanError('--rb-time-32 and --debug cannot be combined')
                self.debug, self.variant = True, 'debug'
                # acpi=noirq: under KASAN, lockdep and TCG the AML interpreter
                # cannot run the PCI _PRT method within ACPICA's 30 s loop
                # limit, and virtio gets no IRQ; the PIRQ router does it.
                # panic_on_warn=1 is added by append() (warn_is_fatal).
                self.kernel_args.append('acpi=noirq')
            elif a == '--faults':
                self.faults = value(a, '--faults needs a list of scenarios')
                self.job = 'faults'
            elif a == '--legacy-nested-ts':
                self.kernel_args.append('ring_buffer_legacy_nested_ts')
            elif a.startswith('--') and a.endswith('-delay-us') and a[2:-9] in DELAYS:
                n = args.pop(0) if args else ''
                if not re.fullmatch(r'[0-9]+', n) or not 1 <= int(n) <= 10000:
                    raise PlanError("%s must be 1 to 10000 microseconds, not '%s'" % (a, n))
                self.kernel_args.append('ring_buffer_%s_delay_us=%s' % (a[2:-9], n))
            elif a == '--tsc-unstable':
                # sched_clock in its unstable mode, as a guest whose vCPUs'
                # TSCs looked unsynchronized gets by chance: per CPU, held to
                # the tick, so that the global clock often returns a stamp again
                self.kernel_args.append('tsc=unstable')
            elif a == '--vanilla':
                self.vanilla = True
            elif a == '--without':
                self.without = value(a, '--without needs fix numbers (0004 or 0004,0005: '
                                        'kernel-patches/LINE/fixes/)')
                if not re.fullmatch(r'[0-9]{4}(,[0-9]{4})*', self.without):
                    raise PlanError("--without takes fix numbers like 0004 or 0004,0005, not '%s'"
                                    % self.without)
            elif a == '--seed-fault':
                self.seed = value(a, '--seed-fault needs a fault (./run.sh model --reserve --list)')
            elif a == '--job':
                self.job = value(a, '--job needs a value')
            elif a == '--save-raw':
                self.settings.append('saveraw=1')
            elif a == '--phases':
                self.settings.append('phases=' + value(a, '--phases needs a list'))
            elif a == '--discard':
                self.settings.append('discard=' + value(a, '--discard needs a mask'))
            elif a == '--subbuf-kb':
                self.settings.append('subbufkb=' + value(a, '--subbuf-kb needs a size in KiB'))
            elif a == '--arch':
                self.arch = value(a, '--arch needs a value')
            elif a == '--singlestep':
                self.boot_extra.append('--singlestep')
                # as under --debug: too slow for the AML _PRT method
                self.kernel_args.append('acpi=noirq')
            elif a == '--single-thread':
                self.boot_extra.append('--single-thread')
            elif a == '--dry-run':
                self.dry_run = True
            elif a == '--plan':
                self.plan_file = value(a, '--plan needs a file')
                self.dry_run = True
                d = os.path.dirname(self.plan_file) or '.'
                if not os.path.isdir(d):
                    raise PlanError('--plan %s: no directory %s' % (self.plan_file, d))
            elif a == '--out':
                self.out = value(a, '--out needs a directory')
                if not os.path.isdir(os.path.dirname(os.path.abspath(self.out))):
                    raise PlanError('--out %s: no directory %s'
                                    % (self.out, os.path.dirname(os.path.abspath(self.out))))
            elif a == '--ktap-console':
                self.settings.append('ktapconsole=1')
            elif a in ('-h', '--help'):
                raise HelpWanted()
            else:
                raise PlanError("unknown option '%s'" % a)
        return self.check()

    def check(self):
        """Everything the options say, checked against each other and
        against the kernel line, before anything is spent."""
        if self.accel not in ('auto', 'kvm', 'tcg'):
            raise PlanError("--accel must be auto, kvm or tcg, not '%s'" % self.accel)
        for mode in ('--singlestep', '--single-thread'):
            if mode in self.boot_extra:
                if self.accel == 'kvm':
                    raise PlanError('%s is a TCG mode: not with --accel kvm' % mode)
                self.accel = 'tcg'
        if not re.fullmatch(r'[1-8]', self.cpus):
            raise PlanError("--cpus must be 1 to 8, not '%s'" % self.cpus)
        if not re.fullmatch(r'[0-9]+', self.duration) or int(self.duration) < 1:
            raise PlanError("--duration must be a whole number >= 1 of seconds, or with s, m or h "
                            "(90s, 30m, 6h), not '%s'" % self.duration)
        if not re.fullmatch(r'[0-9]+', self.capture):
            raise PlanError("--capture must be a whole number of seconds, not '%s'" % self.capture)
        if self.job not in JOBS:
            raise PlanError("--job must be %s, not '%s'" % (', '.join(JOBS), self.job))
        # job drain streams the sub-buffers to a sparse disk of the host's
        if self.job == 'drain':
            self.boot_extra += ['--stream-disk', '64G']
        if self.arch == 'i386':
            # No rbcheck or trace-cmd in the 32-bit guest: its sub-buffers
            # are drained to the host and verified there.
            if self.job == 'faults':
                raise PlanError('--arch i386: the fault scenarios need the live checker '
                                '(x86_64 guests only)')
            if self.variant != 'default':
                raise PlanError('--arch i386 cannot be combined with --rb-time-32 (native there) '
                                'or --debug (no KASAN on i386)')
            if self.job == 'stress':
                self.job = 'drain'
                self.boot_extra += ['--stream-disk', '64G']
            if 'saveraw=1' in self.settings:
                raise PlanError('--arch i386: --save-raw is a live checker option; the i386 '
                                "guest's sub-buffers all go to the host anyway")
            self.capture = '0'
        elif self.arch != 'x86_64':
            raise PlanError("--arch must be x86_64 or i386, not '%s'" % self.arch)
        if self.job == 'faults':
            self.faults = self.faults or guest_default('faults')
            have = guest_values('faults')
            for f in self.faults.split(','):
                if f not in have:
                    raise PlanError("--faults: unknown scenario '%s' (have: %s)" % (f, ' '.join(have)))
            self.settings.append('faults=' + self.faults)
            self.capture = '0'
        if self.clock not in guest_values('clock'):
            raise PlanError("--clock must be one of: %s; not '%s'"
                            % (' '.join(guest_values('clock')), self.clock))
        if self.line not in kspec.lines.names():
            raise PlanError("--kernel: no line '%s' (have: %s)"
                            % (self.line, ' '.join(kspec.lines.names())))
        series = 'ours'
        if self.apply and not self.ksrc:
            raise PlanError('--apply goes with --ksrc DIR (the series for a tree you give)')
        if self.ksrc:
            series = self.check_ksrc()
        elif self.vanilla:
            if self.without:
                raise PlanError('--vanilla has no patches to go --without')
            if any(a.startswith('ring_buffer_') for a in self.kernel_args):
                raise PlanError('--vanilla: the kernel has none of our test parameters '
                                '(--legacy-nested-ts, --reader-delay-us, --discard-delay-us, '
                                '--shrink-delay-us, --clock-delay-us, --nest-delay-us)')
            if self.variant != 'default':
                raise PlanError('--vanilla builds the default config only (the variants need our series)')
            series = 'vanilla'
        elif self.without:
            if self.seed:
                raise PlanError('--seed-fault goes on our series, not --without')
            try:
                series = kspec.series_without(self.line, self.without)
            except kspec.SpecError as e:
                raise PlanError('--without: %s' % e)
        if self.seed:
            if self.vanilla:
                raise PlanError('--seed-fault goes on our series, not --vanilla')
            try:
                series = kspec.series_seeded(self.line, self.seed)
            except kspec.SpecError as e:
                raise PlanError('--seed-fault: %s' % e)
        spec = '%s:%s:%s:%s' % (self.line, series, self.variant, self.arch)
        why = kspec.check(spec)
        if why:
            raise PlanError(why)
        self.kernel = kspec.Kernel(spec)
        self.words = guest_words(self.line, self.guest_settings())
        return self

    def check_ksrc(self):
        """--ksrc DIR: a tree as it is, built with the config fragments of
        its line (--kernel, or the line of its VERSION.PATCHLEVEL); with
        --apply SERIES, a copy of it with that series."""
        tree = os.path.abspath(self.ksrc)
        why = kspec.check_tree(tree)
        if why:
            raise PlanError('--ksrc: ' + why)
        if '+' in tree or ':' in tree:
            raise PlanError("--ksrc %s: a tree's path may not hold '+' or ':' (they part a kernel spec)"
                            % self.ksrc)
        apply = self.apply
        if apply and apply != 'ours':
            apply = os.path.abspath(apply)
            if not os.path.isfile(os.path.join(apply, 'series')) or '+' in apply or ':' in apply:
                raise PlanError("--apply %s: not ours, nor a directory with a 'series' file" % self.apply)
        ours = apply == 'ours'
        for opt, given in (('--vanilla', self.vanilla), ('--without', self.without),
                           ('--seed-fault', self.seed),
                           ('--rb-time-32', self.variant == 'rb-time-32' and not ours)):
            if given:
                raise PlanError('--ksrc %s: not with %s (that is a change to our series)' % (self.ksrc, opt))
        if any(a.startswith('ring_buffer_') for a in self.kernel_args) and not ours:
            raise PlanError('--ksrc: a tree without our series (--apply ours) has none of our test '
                            'parameters (--legacy-nested-ts, --*-delay-us)')
        if not self.line_given:
            line = kspec.line_of_tree(tree)
            if not line:
                raise PlanError('--ksrc %s: a %s tree, and no line of images/kernel/lines.table is '
                                'of its version: say --kernel LINE for the config fragments to use'
                                % (self.ksrc, kspec.tree_version(tree)))
            self.line = line
        return '@' + tree + ('+' + apply if apply else '')

    # -- what the options make ---------------------------------------------
    def guest_settings(self):
        s = ['job=' + self.job, 'duration=' + self.duration, 'clock=' + self.clock,
             'capture=' + self.capture]
        if self.mod:
            s.append('mod=' + self.mod)
        return s + self.settings

    def append(self):
        """The guest's command line after GUEST_CMDLINE: rbts.* words, then
        the kernel's own parameters."""
        fatal = ['panic_on_warn=1'] if self.debug and self.warn_is_fatal else []
        return ' '.join([self.words] + fatal + self.kernel_args)

    def timeout(self):
        """The boot's time limit: the runs, the capture, and slack."""
        runs = len(self.faults.split(',')) if self.job == 'faults' else 1
        slack = 180
        if self.debug or '--singlestep' in self.boot_extra:
            slack = 600	# KASAN and lockdep under TCG, the startup test
        return int(self.duration) * runs + int(self.capture) + slack

    def describe(self):
        """--dry-run: what would be built and booted."""
        k = self.kernel
        out = ['plan: ./run.sh %s (nothing is installed, built or booted)' % self.command,
               '  kernel      %s: %s' % (k.spec, k.describe()),
               '  config      tinyconfig + %s ' % ' '.join(os.path.basename(f) for f in k.kconfigs)]
        parts = [('tree', k.src)] if k.ksrc else \
            [('source', k.tarball), ('series', os.path.join(k.patches, 'series')), ('tree', k.src)]
        parts += [('kernel', k.bzimage), ('module', os.path.join(k.modout, 'rbstress.ko')),
                  ('initramfs', k.initramfs),
                  ('checker', os.path.join(kspec.build_dir(), 'checker', 'rbcheck'))]
        for what, path in parts:
            out.append('  %-11s %s (%s)' % (what, path, 'present' if os.path.exists(path) else 'to be made'))
        extra = ', boot.sh ' + ' '.join(self.boot_extra) if self.boot_extra else ''
        out.append('  boot        %s, accel %s, %s CPU(s), at most %ds%s'
                   % (k.qemu, self.accel, self.cpus, self.timeout(), extra))
        out.append('  guest       ' + self.append())
        out.append('  results     %s' % (self.out or 'results/<run-id>/ (results/latest)'))
        return '\n'.join(out)

    def to_json(self):
        """The Plan for a program that boots the guest another way."""
        k = self.kernel
        return {'kspec': k.spec, 'arch': k.arch, 'qemu': k.qemu, 'cpus': int(self.cpus),
                'kernel': k.bzimage, 'initramfs': k.initramfs,
                'cmdline': GUEST_CMDLINE + ' ' + self.append(), 'timeout': self.timeout(),
                'job': self.job, 'boot_extra': list(self.boot_extra)}

    def write(self, path):
        try:
            with open(path, 'w') as f:
                json.dump(self.to_json(), f, indent=1)
        except OSError:
            raise PlanError("--plan: cannot write '%s'" % path)


class HelpWanted(Exception):
    """-h or --help among the options."""


def from_options(command, argv, duration=None):
    """The Plan of COMMAND's options (soak and faults have their own
    default length)."""
    p = Plan(command)
    if duration:
        p.duration = duration
    return p.parse(argv)
