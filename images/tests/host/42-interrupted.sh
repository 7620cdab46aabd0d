#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: a run stopped by Ctrl-C or SIGTERM before its verdict: its results directory says INTERRUPTED and where (boot, collect, judge), never a verdict, and results/latest stays on the last judged run; a judged run moves it
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
