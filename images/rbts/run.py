# SPDX-License-Identifier: GPL-2.0
"""A Run: one Plan built, booted, collected and judged, into one results
directory (images/rbts/results.py says what each file of it is).

  build    the kernel spec's tree, kernel, stress module, checker and
           initramfs (images/prepare-tree.sh, build-kernel.sh,
           build-module.sh, build-initramfs.sh: each skips what is up to
           date)
  boot     images/boot.sh: QEMU, the guest's job, its /out brought back
  collect  images/rbts/collect.py: what the host verifies again
  judge    rbts/verdict.py: verdict.json, and the run's exit status

Every guest boot of the project goes through Guest.boot() here (a Run's,
the bench's, the selftests', the accelerator probe's); the steps are the
scripts, run with the kernel's spec in RBTS_KERNEL.  Output goes to LOG (a
file object; default: this process's stdout and stderr).
"""
import contextlib
import ctypes
import datetime
import errno
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile

from rbts import collect, faults_table, kspec, model_verdict, plan as planmod, results
from rbts import verdict as verdictmod

IMAGES = kspec.IMAGES
TOP = kspec.TOP


def die_with_parent(parent):
    """In a step's child, before exec: SIGTERM when run.sh (PARENT) dies,
    even of SIGKILL, so that no build or guest outlives it (boot.sh takes
    SIGTERM as Ctrl-C: the guest is stopped or killed).  Linux's
    PR_SET_PDEATHSIG; elsewhere nothing.  A parent already gone before
    it was set: the child ends at once."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)     # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(128 + signal.SIGTERM)


class DiskFull(Exception):
    """The device of a run's results is full: the run cannot be written
    whole, and no verdict is given on what was.  What was written stays."""

    def __init__(self, out, free):
        Exception.__init__(self, '%s: no space left on its device (%d KiB free): the run '
                           'could not be written whole and has no verdict; what was '
                           'written is kept' % (os.path.relpath(out, TOP), free // 1024))


# Below this, a results directory's device is full (root may write the
# blocks reserved for it: ENOSPC comes with a little left).
FULL_BYTES = 1 << 20
# A run is not started with less: its console, captures and the guest's
# disk need tens of MiB at the least.
NEED_BYTES = 64 << 20


def free_bytes(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


class BuildError(Exception):
    def __init__(self, what, rc):
        super().__init__(what)
        self.rc = rc


class Guest:
    """One kernel's steps: build it, boot it, judge what a boot left."""

    def __init__(self, kernel, log=None):
        self.kernel = kernel
        self.log = log

    def say(self, text):
        f = self.log or sys.stdout
        f.write(text + '\n')
        f.flush()

    def call(self, argv, check=True, capture=False, stop_button=False):
        """Run one step; a failed one is BuildError if CHECK.  STOP_BUTTON:
        Ctrl-C is the step's to take (boot.sh asks the guest to stop), not
        this process's, which waits for the results."""
        old = None
        if stop_button:
            old = signal.signal(signal.SIGINT, signal.SIG_IGN)

        parent = os.getpid()

        def child():
            if stop_button:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
            die_with_parent(parent)
        try:
            p = subprocess.run(argv, env=dict(os.environ, RBTS_KERNEL=self.kernel.spec),
                               stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE if capture else self.log,
                               stderr=self.log, text=True, preexec_fn=child)
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
        if check and p.returncode != 0:
            raise BuildError('%s failed (exit %d)' % (os.path.relpath(argv[0], TOP), p.returncode),
                             p.returncode)
        return p.stdout.strip() if capture else p.returncode

    def script(self, name, *args, **kw):
        return self.call([os.path.join(IMAGES, name)] + list(args), **kw)

    # -- build -------------------------------------------------------------
    def build(self, seed=None):
        """Everything the guest needs, each part only if out of date."""
        k = self.kernel
        self.script('install-deps.sh')
        if seed:
            self.script('kernel/seed-patch.sh', k.line, seed, k.patches)
        self.script('prepare-tree.sh')
        self.script('build-kernel.sh')
        self.script('build-module.sh')
        self.checker()
        if k.arch == 'i386':
            self.call(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker'), 'O=' + k.guestout,
                       'GUEST_CFLAGS=-m32', os.path.join(k.guestout, 'rbdrain')])
        self.script('build-initramfs.sh')

    def checker(self):
        self.call(['make', '-s', '-C', os.path.join(TOP, 'userspace-checker'),
                   'O=' + os.path.join(kspec.build_dir(), 'checker')])

    # -- boot --------------------------------------------------------------
    def boot(self, out, append, accel='tcg', cpus=2, timeout=300, extra=(), quiet=False,
             stop_button=False):
        """images/boot.sh: the guest with the rbts.* words and kernel
        parameters APPEND after the command line every guest has, its /out
        brought back into OUT; its status (0: the guest powered off in
        time)."""
        argv = ['boot.sh', '--accel', accel, '--cpus', str(cpus), '--out', out, '--timeout',
                str(timeout), '--append', planmod.GUEST_CMDLINE + ' ' + append] + list(extra)
        if quiet:
            argv.append('--quiet')
        return self.script(*argv, check=False, stop_button=stop_button)

    def probe_accel(self):
        """KVM only if /dev/kvm is usable *and* a KVM guest reaches /init
        within a few seconds (on nested setups it may hang at kernel
        entry); otherwise TCG.  Cached per machine and kernel build in
        build/accel-probe."""
        cache = os.path.join(kspec.build_dir(), 'accel-probe')
        try:
            with open(os.path.join(self.kernel.kout, '.rbts-stamp')) as f:
                stamp = f.read().strip()
        except OSError:
            stamp = ''
        key = '%s %s %s' % (socket.gethostname(), os.uname().release, stamp)
        try:
            with open(cache) as f:
                cached = f.read().splitlines()
            if len(cached) == 2 and cached[0] == key:
                self.say('accel: %s (cached probe result, %s)' % (cached[1], cache))
                return cached[1]
        except OSError:
            pass
        res, why = 'tcg', '/dev/kvm is not usable'
        if os.access('/dev/kvm', os.R_OK | os.W_OK):
            with tempfile.TemporaryDirectory() as d:
                ok = self.boot(d, planmod.guest_words(self.kernel.line, ['job=probe']), accel='kvm',
                               cpus=1, timeout=8, quiet=True) == 0
                console = results.path(d, 'console.log')
                if ok and os.path.exists(console) and 'RBTS-PROBE-OK' in open(console, errors='replace').read():
                    res, why = 'kvm', 'a KVM guest reached /init'
                else:
                    why = 'a KVM guest did not reach /init within 8s'
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, 'w') as f:
            f.write('%s\n%s\n' % (key, res))
        self.say('accel: %s (%s)' % (res, why))
        return res

    # -- judge -------------------------------------------------------------
    def judge(self, out, hung=None):
        """The verdict of OUT (rbts/verdict.py, in-process): verdict.json,
        and its exit status.  What it prints goes where the steps' output
        goes.  A verdict that breaks is an ERROR (2), never a FAIL."""
        args = [out]
        if hung is not None:
            args += ['--hung', str(hung)]
        elif results.config_has(self.kernel.config, 'CONFIG_RING_BUFFER_STARTUP_TEST=y'):
            args.append('--startup-test')
        where = self.log or sys.stdout
        try:
            with contextlib.redirect_stdout(where), contextlib.redirect_stderr(self.log or sys.stderr):
                return verdictmod.main(args)
        except OSError:
            raise       # a full disk: the run says so (DiskFull)
        except Exception as e:      # noqa: BLE001 - one line, not a traceback
            self.say('run.sh: the verdict of %s broke: %s: %s' % (out, type(e).__name__, e))
            return results.EXIT['ERROR']


def new_results_dir(out=None, prefix=''):
    """A run's results directory: OUT, or results/PREFIX<date>-<pid>.
    results/latest moves to it only once it has a verdict (point_latest)."""
    if out:
        out = os.path.abspath(out)
    else:
        rid = '%s%s-%d' % (prefix, datetime.datetime.now().strftime('%Y%m%d-%H%M%S'), os.getpid())
        out = os.path.join(TOP, 'results', rid)
    os.makedirs(out, exist_ok=True)
    return out


def point_latest(out):
    """results/latest: the last run of results/ that was judged.  A run
    killed before its verdict never becomes it, so `./run.sh report` and
    the tests never read a half-written run as the latest."""
    if os.path.dirname(out) != os.path.join(TOP, 'results') or \
            not os.path.exists(results.path(out, 'verdict.json')):
        return
    latest = os.path.join(TOP, 'results', 'latest')
    tmp = latest + '.new'
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    os.symlink(os.path.basename(out), tmp)
    os.replace(tmp, latest)


def mark_interrupted(out, phase, why):
    """The results directory of a run stopped by a signal before its
    verdict says so (results.FILES 'interrupted'): never a PASS."""
    with open(results.path(out, 'interrupted'), 'w') as f:
        f.write('INTERRUPTED %s, %s: no verdict\n' % (phase, why))


# results/<date>-<time>-<pid>: new_results_dir's name of a run
RUN_ID = re.compile(r'^\d{8}-\d{6}-(\d+)$')


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def mark_killed(top=None):
    """Runs killed outright (SIGKILL, the OOM killer, a machine that went
    down) cannot say so themselves: the next run finds each results
    directory of results/ that has neither a verdict nor the file
    interrupted, and whose process is gone, and writes that file for it.
    A run whose process lives (one running beside) is left alone.  The
    names marked, for the caller to say."""
    where = os.path.join(top or TOP, 'results')
    marked = []
    try:
        names = sorted(os.listdir(where))
    except FileNotFoundError:
        return marked
    for name in names:
        m = RUN_ID.match(name)
        out = os.path.join(where, name)
        if not m or os.path.islink(out) or not os.path.isdir(out) or \
                os.path.exists(results.path(out, 'verdict.json')) or \
                os.path.exists(results.path(out, 'interrupted')) or pid_alive(int(m.group(1))):
            continue
        try:
            mark_interrupted(out, 'before its verdict', 'killed: its process %s is gone '
                             '(found by the next run)' % m.group(1))
        except OSError:
            continue    # not ours to write (another user's, a read-only copy)
        marked.append(name)
    return marked


class Run:
    def __init__(self, plan, log=None):
        self.plan = plan
        self.kernel = plan.kernel
        self.guest = Guest(plan.kernel, log)
        self.out = None

    def build(self):
        self.guest.build(self.plan.seed)

    def boot_collect_judge(self):
        """Boot the built kernel into a new results directory; the run's
        exit status (rbts/verdict.py's)."""
        p, k, g = self.plan, self.kernel, self.guest
        for name in mark_killed():
            g.say('run.sh: results/%s was killed before its verdict: marked INTERRUPTED '
                  '(its file interrupted)' % name)
        out = self.out = new_results_dir(p.out)
        if free_bytes(out) < NEED_BYTES:
            raise DiskFull(out, free_bytes(out))
        self.phase = 'boot'
        try:
            rc = self._boot_collect_judge(p, k, g, out)
        except OSError as e:
            if e.errno in (errno.ENOSPC, errno.EDQUOT):
                raise DiskFull(out, free_bytes(out)) from e
            raise
        except KeyboardInterrupt as e:
            mark_interrupted(out, 'in ' + self.phase, getattr(e, 'why', 'Ctrl-C'))
            g.say('run.sh: interrupted in %s: %s has no verdict (its file interrupted says so)'
                  % (self.phase, os.path.relpath(out, TOP)))
            raise
        # A step that met a full disk (boot.sh, verdict.py) fails as it
        # can: no verdict, or one judged from half-written files.
        if free_bytes(out) < FULL_BYTES:
            raise DiskFull(out, free_bytes(out))
        point_latest(out)
        return rc

    def _boot_collect_judge(self, p, k, g, out):
        results.write_kernel(out, k)
        # The reserve-path model of the very tree booted (model.json), and
        # the rb_time_t model if the kernel uses the 32-bit one: seconds once
        # per tree's code, then kept.
        try:
            with contextlib.redirect_stdout(g.log or sys.stdout), \
                    contextlib.redirect_stderr(g.log or sys.stderr):
                mrc = model_verdict.main([k.src, out, '--config', k.config])
        except OSError:
            raise       # a full disk: the run says so (DiskFull)
        except Exception as e:      # noqa: BLE001 - the verdict reports the model skipped
            g.say('run.sh: the model check broke: %s: %s' % (type(e).__name__, e))
            mrc = 1
        if mrc:
            g.say('run.sh: the model check failed: the verdict will say the model was skipped')
        accel = p.accel if p.accel != 'auto' else g.probe_accel()
        extra = ', ' + ' '.join(p.settings) if p.settings else ''
        g.say('==> booting: %s, %s CPU(s), clock %s, kernel %s%s%s, verifying for %ss'
              % (accel, p.cpus, p.clock, k.describe(),
                 ',' + ' '.join([''] + p.kernel_args) if p.kernel_args else '', extra, p.duration))
        rc = g.boot(out, p.append(), accel, p.cpus, p.timeout(), p.boot_extra,
                    stop_button='--stop-button' in p.boot_extra)
        if rc != 0:
            self.phase = 'judge'
            return g.judge(out, hung=p.timeout())
        self.phase = 'collect'
        collect.collect(out, g.say)
        if p.job == 'faults' and os.path.isdir(results.path(out, 'faults')):
            g.say('\nfault scenarios (each verified live while the fault was injected):')
            with contextlib.redirect_stdout(g.log or sys.stdout):
                faults_table.main([out])
        # The one verdict, from the structured results (verdict.json).
        self.phase = 'judge'
        return g.judge(out)

    def execute(self):
        """Build, boot, collect, judge: the exit status; self.out is the
        results directory (None if the build failed)."""
        try:
            self.build()
        except BuildError as e:
            self.guest.say('error: build: %s' % e)
            return 2
        return self.boot_collect_judge()


def run_options(options, log=None, out=None):
    """One `./run.sh run OPTIONS`, in-process: (exit status, results
    directory or None).  A bad option is plan.PlanError."""
    p = planmod.Plan('run').parse(list(options) + (['--out', out] if out else []))
    r = Run(p, log=log)
    return r.execute(), r.out
