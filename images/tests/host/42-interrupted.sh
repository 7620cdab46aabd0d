#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: a run stopped by Ctrl-C, SIGTERM or SIGKILL before its verdict: its results directory says INTERRUPTED and where (boot, collect, judge; for SIGKILL the next run writes it), never a verdict; no step's child outlives it; results/latest stays on the last judged run; a judged run moves it
#
# In-process, with the guest played (no kernel is built or booted): the
# steps of rbts.run.Run are replaced by stubs that raise where a signal
# would land.  TOP is a scratch directory, so the real results/latest is
# never touched.
. "$(dirname "$0")/../lib.sh"
export PYTHONPATH=$TOP/images

got=$(cd "$tmp" && python3 - "$tmp" 2>&1 <<'PY'
import json, os, sys
from rbts import collect, plan as planmod, run as runmod

top = sys.argv[1]
runmod.TOP = top
os.makedirs(os.path.join(top, 'results'), exist_ok=True)


def stop(why):
    e = KeyboardInterrupt()
    e.why = why
    raise e


class Played(runmod.Guest):
    where = None      # 'boot', 'collect' or 'judge': where the signal lands

    def script(self, name, *args, **kw):
        return 0

    def probe_accel(self):
        return 'tcg'

    def boot(self, out, *args, **kw):
        if Played.where == 'boot':
            stop(Played.why)
        return 0

    def judge(self, out, hung=None):
        if Played.where == 'judge':
            stop(Played.why)
        with open(os.path.join(out, 'verdict.json'), 'w') as f:
            json.dump({'verdict': 'PASS'}, f)
        return 0


def played_collect(out, say):
    if Played.where == 'collect':
        stop(Played.why)


collect.collect = played_collect
runmod.collect.collect = played_collect


def one(where, why, n):
    Played.where, Played.why = where, why
    out = os.path.join(top, 'results', 'run-%d' % n)
    p = planmod.Plan('run').parse(['--out', out])
    r = runmod.Run(p)
    r.guest = Played(p.kernel, log=open(os.devnull, "w"))
    try:
        rc = r.boot_collect_judge()
    except KeyboardInterrupt:
        rc = 'interrupted'
    latest = os.path.join(top, 'results', 'latest')
    mark = os.path.join(out, 'interrupted')
    return '%s:%s:%s:%s:%s' % (
        where or 'none', rc,
        open(mark).read().strip() if os.path.exists(mark) else '-',
        'verdict' if os.path.exists(os.path.join(out, 'verdict.json')) else 'no-verdict',
        os.readlink(latest) if os.path.islink(latest) else '-')


print(one(None, '', 1))
print(one('boot', 'Ctrl-C', 2))
print(one('collect', 'SIGTERM', 3))
print(one('judge', 'Ctrl-C', 4))
print(one(None, '', 5))
PY
)
# want N LINE WHAT: the Nth case printed LINE (where:exit:interrupted:verdict:latest)
want() {
	local got_n
	got_n=$(sed -n "${1}p" <<< "$got")
	[ "$got_n" = "$2" ] && ok "$3" || not_ok "$3: '$got_n' (all: $got)"
}
want 1 "none:0:-:verdict:run-1" "a judged run: a verdict, and results/latest points at it"
want 2 "boot:interrupted:INTERRUPTED in boot, Ctrl-C: no verdict:no-verdict:run-1" \
	"Ctrl-C in the boot: INTERRUPTED in boot, no verdict, latest still the judged run"
want 3 "collect:interrupted:INTERRUPTED in collect, SIGTERM: no verdict:no-verdict:run-1" \
	"SIGTERM in collect: INTERRUPTED in collect, no verdict, latest unmoved"
want 4 "judge:interrupted:INTERRUPTED in judge, Ctrl-C: no verdict:no-verdict:run-1" \
	"Ctrl-C in the judge: INTERRUPTED in judge, latest unmoved"
want 5 "none:0:-:verdict:run-5" "the next run after them works and becomes latest, nothing cleaned by hand"

# SIGTERM of ./run.sh itself: the exit status says which signal (128 + 15)
rc=0
PYTHONPATH=$TOP/images timeout 30 python3 -c '
import os, signal, sys
from rbts import cli
cli.COMMANDS["run"] = lambda argv: os.kill(os.getpid(), signal.SIGTERM) or 0
sys.exit(cli.main([]))' > /dev/null 2>&1 || rc=$?
[ "$rc" = 143 ] && ok "SIGTERM of run.sh: exit 143, not a traceback" || not_ok "SIGTERM of run.sh: exit $rc"

# SIGKILL of run.sh in each phase: it cannot say so itself.  A child
# process plays the run (the step of that phase starts a real child,
# 'sleep', as boot.sh or make would be, and says it is there), the test
# kills the run with SIGKILL, then: the step's child is gone too (no build
# or guest outlives run.sh), the next run marks the killed run's directory
# INTERRUPTED (or there is none: killed in the build, before it was made),
# results/latest stays on the judged run, and the next run works.
killed=$tmp/killed
mkdir -p "$killed/results"
cat > "$tmp/played.py" <<'PY'
import json, os, sys, time
from rbts import collect, plan as planmod, run as runmod

top, where, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runmod.TOP = top


class Played(runmod.Guest):
    def step(self, phase):
        if phase == where:
            # a real child of the step, as boot.sh or make; then wait to be killed
            self.call(['sh', '-c', 'echo $$ > %s/child; exec sleep 120' % top])

    def build(self, seed=None):
        self.step('build')

    def script(self, name, *args, **kw):
        return 0

    def probe_accel(self):
        return 'tcg'

    def boot(self, out, *args, **kw):
        self.step('boot')
        return 0

    def judge(self, out, hung=None):
        self.step('judge')
        with open(os.path.join(out, 'verdict.json'), 'w') as f:
            json.dump({'verdict': 'PASS'}, f)
        return 0


p = planmod.Plan('run').parse([])
r = runmod.Run(p)
# what the next run says goes to stdout, the test reads it
r.guest = Played(p.kernel, log=sys.stdout if where == 'none' else open(os.devnull, 'w'))
runmod.collect.collect = lambda out, say: r.guest.step('collect')
sys.exit(r.execute())
PY
# the judged run first: results/latest
PYTHONPATH=$TOP/images timeout 60 python3 "$tmp/played.py" "$killed" none 0 > /dev/null 2>&1
first=$(readlink "$killed/results/latest" 2>/dev/null)
[ -n "$first" ] && ok "SIGKILL: a judged run first ($first)" || not_ok "SIGKILL: the judged run made no results/latest"
for phase in build boot collect judge; do
	rm -f "$killed/child"
	PYTHONPATH=$TOP/images python3 "$tmp/played.py" "$killed" "$phase" 1 > /dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -s "$killed/child" ] && break; sleep 0.1; done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	child=$(cat "$killed/child" 2>/dev/null)
	for _ in $(seq 50); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
	if [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null; then
		ok "SIGKILL in $phase: the step's child died with run.sh"
	else
		not_ok "SIGKILL in $phase: the step's child (${child:-never started}) outlived run.sh"
		kill "$child" 2>/dev/null
	fi
	dir=$(ls -d "$killed/results/"*-"$pid" 2>/dev/null)
	# the next run: marks it, works, becomes latest
	rc=0
	PYTHONPATH=$TOP/images timeout 60 python3 "$tmp/played.py" "$killed" none 2 > "$tmp/next.out" 2>&1 || rc=$?
	latest=$(readlink "$killed/results/latest")
	if [ "$phase" = build ]; then
		[ -z "$dir" ] && ok "SIGKILL in the build: no results directory was made" ||
			not_ok "SIGKILL in the build: a results directory $dir"
	elif [ -n "$dir" ] && grep -q "^INTERRUPTED before its verdict, killed: its process $pid is gone" "$dir/interrupted" 2>/dev/null &&
	     [ ! -e "$dir/verdict.json" ] && grep -q "$(basename "$dir") was killed before its verdict" "$tmp/next.out"; then
		ok "SIGKILL in $phase: the next run marks its directory INTERRUPTED and says so"
	else
		not_ok "SIGKILL in $phase: dir '${dir:-none}': $(cat "$dir/interrupted" 2>/dev/null) / $(head -c 200 "$tmp/next.out")"
	fi
	[ "$rc" = 0 ] && [ "$latest" != "$(basename "${dir:-x}")" ] && [ -e "$killed/results/$latest/verdict.json" ] &&
		ok "SIGKILL in $phase: the next run works, latest is a judged run ($latest)" ||
		not_ok "SIGKILL in $phase: next run exit $rc, latest '$latest'"
done
# a run beside, alive: never marked
mkdir -p "$killed/results/20260101-000000-$$"
PYTHONPATH=$TOP/images python3 -c 'import sys; from rbts import run; print(run.mark_killed(sys.argv[1]))' "$killed" > "$tmp/marked"
[ ! -e "$killed/results/20260101-000000-$$/interrupted" ] && ok "a run whose process lives is not marked" ||
	not_ok "a live run was marked: $(cat "$tmp/marked")"

# A full disk under results/: one line, exit 2, what was written kept; and
# a device with too little room is refused before the guest boots.
full=$tmp/full
mkdir -p "$full/results"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=80m tmpfs "$full/results" 2>/dev/null; then
	cat > "$tmp/filling.py" <<'PY'
import json, os, sys
from rbts import cli, run as runmod

top, fill = sys.argv[1], sys.argv[2]
runmod.TOP = top


class Filling(runmod.Guest):
    def script(self, name, *args, **kw):
        return 0

    def build(self, seed=None):
        pass

    def probe_accel(self):
        return 'tcg'

    def boot(self, out, *args, **kw):
        # as boot.sh: the console fills the device, the step fails
        return self.call(['sh', '-c', 'head -c %s /dev/zero > %s/console.log' % (fill, out)],
                         check=False)

    def judge(self, out, hung=None):
        with open(os.path.join(out, 'verdict.json'), 'w') as f:
            json.dump({'verdict': 'PASS'}, f)
        return 0


runmod.Guest = Filling
sys.exit(cli.main([]))
PY
	rc=0
	PYTHONPATH=$TOP/images timeout 60 python3 "$tmp/filling.py" "$full" 200000000 > /dev/null 2> "$tmp/err" || rc=$?
	dir=$(ls -d "$full/results/"2* 2>/dev/null | head -n1)
	# (the step's own complaint may come first: run.sh's line is the last)
	if [ "$rc" = 2 ] && tail -n1 "$tmp/err" | grep -q "^run.sh: results/2.*: no space left on its device" &&
	   [ -s "$dir/console.log" ] && [ ! -e "$full/results/latest" ]; then
		ok "a full disk under results/: exit 2, one line, the console kept, latest not moved"
	else
		not_ok "a full disk: exit $rc, $(head -c 300 "$tmp/err"), console $(stat -c %s "$dir/console.log" 2>/dev/null)"
	fi
	# the device now has less room than a run needs: refused before the boot
	rc=0
	PYTHONPATH=$TOP/images timeout 60 python3 "$tmp/filling.py" "$full" 0 > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "no space left" "$tmp/err" && ok "too little room: refused, exit 2" ||
		not_ok "too little room: exit $rc, $(head -c 300 "$tmp/err")"
	umount "$full/results"
else
	ok "a full disk under results/ # SKIP needs root to mount a small tmpfs"
fi
