# SPDX-License-Identifier: GPL-2.0
"""The reserve-path model's result for the tree a run booted: rbreserve
(userspace-checker/models/reserve) on the tree's own ring_buffer.c, at the
default bounds, written to RESULTS-DIR/model.json for images/rbts/verdict.py.

A live run sees the interleavings its minute happened to produce; the
model sees every one within its bounds, on the same code.  The same code
gives the same result: the model is built once per content of the files
it reads (images/model-build.sh) and its result is kept there, by the
built model's own hash (a change of the model's code or oracle runs it
again), so a tree is modelled once however many runs boot it.

model.json: rbreserve's --json (verdict pass, counterexample or
unmodelled; executions, seconds, bounds, why, replay, reproduce) and
  replay_command  the ./run.sh command that replays a counterexample, on
                  the copy of the tree's files model-build.sh keeps
  cached          true when the result was kept from an earlier run
  tree            the tree modelled
or {"verdict": "error", "why": ...} when the model cannot read or build
the tree's code (a tree not ours; verdict.py reports the check skipped).

With --config, the booted kernel's .config: if that kernel keeps its
before_stamp and write_stamp in the 32-bit rb_time_t (6.1 with
CONFIG_RING_BUFFER_RB_TIME_32, or a 32-bit kernel of a tree that still has
RB_TIME_32), the rb_time_t model (rbmodel) of the tree's code runs too, at
RB_TIME_BOUND, and its result is model.json's "rb_time" (the same keys).

usage: python3 -m rbts.model_verdict TREE RESULTS-DIR [--config KERNEL-CONFIG]
exit:  0 written (whatever the verdict), 2 usage
"""
import hashlib
import json
import os
import subprocess
import sys
import time

from rbts import kspec, verdict

HERE = kspec.IMAGES     # images/: model-build.sh
TOP = kspec.TOP


def rel(path):
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path


def file_hash(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


# The rb_time_t model's bound in a run's verdict: depth 2, every program
# of 4 operations (1.26 M executions, 2 s).  Depth 3 reaches its finding 1
# (docs/rb-time-model.md: the 2-bit counter wraps inside one interrupted
# set, a torn read that the ring buffer's equality checks turn into a full
# stamp), known and explained, so a bound there would FAIL every run.
RB_TIME_BOUND = ['--depth', '2', '--ops', '4']


def run_model(tree, prog, build_args, args):
    """PROG's --json result on TREE (built by model-build.sh BUILD_ARGS),
    run with ARGS or kept from an earlier run of the same built model."""
    build = subprocess.run([os.path.join(HERE, 'model-build.sh')] + build_args + [tree],
                           capture_output=True, text=True)
    if build.returncode:
        why = (build.stderr.strip().splitlines() or ['the model could not be built'])[-1]
        return {'verdict': 'error', 'why': why}, None
    out = build.stdout.strip().splitlines()[-1]
    binary = os.path.join(out, prog)
    kept = os.path.join(out, 'default-%s.json' % file_hash(binary))
    tmp = '%s.%d.tmp' % (kept, os.getpid())
    cached = os.path.exists(kept)
    if not cached:
        t0 = time.time()
        with open(os.path.join(out, 'default.txt'), 'w') as log:
            rc = subprocess.run([binary] + args + ['--json', tmp], stdout=log,
                                stderr=subprocess.STDOUT).returncode
        if rc not in (0, 1) or not os.path.exists(tmp):
            return {'verdict': 'error', 'why': '%s exited %d after %.0f s (%s)'
                    % (prog, rc, time.time() - t0,
                       rel(os.path.join(out, 'default.txt')))}, None
        os.replace(tmp, kept)
    with open(kept) as f:
        res = json.load(f)
    res['cached'] = cached
    return res, out


def model(tree):
    """rbreserve's result on TREE at the default bounds, run or kept."""
    res, out = run_model(tree, 'rbreserve', [], [])
    if res.get('reproduce'):
        res['replay_command'] = './run.sh model --reserve --ksrc %s %s' % (
            rel(os.path.join(out, 'src')), res['reproduce'])
    return res


def rb_time_32(tree, config):
    """Does the kernel built with CONFIG from TREE keep its stamps in the
    32-bit rb_time_t?"""
    try:
        with open(config) as f:
            conf = set(line.strip() for line in f)
        with open(os.path.join(tree, 'kernel/trace/ring_buffer.c')) as f:
            has_32 = '#ifdef RB_TIME_32' in f.read()
    except OSError:
        return False
    return has_32 and ('CONFIG_RING_BUFFER_RB_TIME_32=y' in conf or
                       'CONFIG_64BIT=y' not in conf)


def rb_time_model(tree):
    """rbmodel's result on TREE's RB_TIME_32 code at RB_TIME_BOUND."""
    res, out = run_model(tree, 'rbmodel', ['--rb-time'], RB_TIME_BOUND)
    if res.get('reproduce'):
        res['replay_command'] = '%s %s' % (rel(os.path.join(out, 'rbmodel')), res['reproduce'])
    if res['verdict'] != 'error':
        res['bounds'] += ' (below depth 3: finding 1 of docs/rb-time-model.md, known)'
    return res


def main(argv):
    config = None
    if len(argv) == 4 and argv[2] == '--config':
        config = argv[3]
        argv = argv[:2]
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write('usage: python3 -m rbts.model_verdict TREE RESULTS-DIR (an existing directory) '
                         '[--config KERNEL-CONFIG]\n')
        return 2
    tree, results = argv
    res = model(tree)
    res['tree'] = rel(os.path.abspath(tree))
    if config and rb_time_32(tree, config):
        res['rb_time'] = rb_time_model(tree)
    with open(os.path.join(results, 'model.json'), 'w') as f:
        json.dump(res, f, indent=1)
        f.write('\n')
    print('model: the reserve path of %s: %s' % (res['tree'], verdict.model_summary(res)))
    if 'rb_time' in res:
        print('model: the 32-bit rb_time_t of %s: %s'
              % (res['tree'], verdict.model_summary(res['rb_time'])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
