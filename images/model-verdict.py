#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The reserve-path model's result for the tree a run booted: rbreserve
(userspace-checker/reserve-model) on the tree's own ring_buffer.c, at the
default bounds, written to RESULTS-DIR/model.json for images/verdict.py.

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

usage: model-verdict.py TREE RESULTS-DIR
exit:  0 written (whatever the verdict), 2 usage
"""
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import verdict  # noqa: E402


def rel(path):
    return os.path.relpath(path, TOP) if path.startswith(TOP + os.sep) else path


def file_hash(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def model(tree):
    """rbreserve's result on TREE at the default bounds, run or kept."""
    build = subprocess.run([os.path.join(HERE, 'model-build.sh'), tree],
                           capture_output=True, text=True)
    if build.returncode:
        why = (build.stderr.strip().splitlines() or ['the model could not be built'])[-1]
        return {'verdict': 'error', 'why': why}
    out = build.stdout.strip().splitlines()[-1]
    binary = os.path.join(out, 'rbreserve')
    kept = os.path.join(out, 'default-%s.json' % file_hash(binary))
    tmp = '%s.%d.tmp' % (kept, os.getpid())
    cached = os.path.exists(kept)
    if not cached:
        t0 = time.time()
        with open(os.path.join(out, 'default.txt'), 'w') as log:
            rc = subprocess.run([binary, '--json', tmp], stdout=log,
                                stderr=subprocess.STDOUT).returncode
        if rc not in (0, 1) or not os.path.exists(tmp):
            return {'verdict': 'error', 'why': 'rbreserve exited %d after %.0f s (%s)'
                    % (rc, time.time() - t0, rel(os.path.join(out, 'default.txt')))}
        os.replace(tmp, kept)
    with open(kept) as f:
        res = json.load(f)
    res['cached'] = cached
    if res.get('reproduce'):
        res['replay_command'] = './run.sh model --reserve --ksrc %s %s' % (
            rel(os.path.join(out, 'src')), res['reproduce'])
    return res


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write('usage: model-verdict.py TREE RESULTS-DIR (an existing directory)\n')
        return 2
    tree, results = argv
    res = model(tree)
    res['tree'] = rel(os.path.abspath(tree))
    with open(os.path.join(results, 'model.json'), 'w') as f:
        json.dump(res, f, indent=1)
        f.write('\n')
    print('model: the reserve path of %s: %s' % (res['tree'], verdict.model_summary(res)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
