# SPDX-License-Identifier: GPL-2.0
"""Put back the git notes that `git am` drops: each patch's `Notes:`
block below its `---` (rbts/export_series.py wrote it with --notes) becomes the
note of the commit `git am` made from that patch.

usage: python3 -m rbts.restore_notes GITDIR BASE PART_DIR

  GITDIR    the git tree the part was applied to with git am
  BASE      the commit the part was applied on (a tag or commit)
  PART_DIR  kernel-patches/LINE/fixes (or test, or mainline): its `series`
            names the patches in the order git am applied them

The commits after BASE are matched to the series in order, by subject; a
subject that differs stops with both, exit 2.
"""
import os
import re
import subprocess
import sys

from rbts import patchfile


def die(msg):
    print('restore-notes: %s' % msg, file=sys.stderr)
    sys.exit(2)


def git(gitdir, *args, stdin=None):
    p = subprocess.run(['git', '-C', gitdir] + list(args), input=stdin,
                       capture_output=True, text=True)
    if p.returncode:
        die('git %s in %s: %s' % (args[0], gitdir, (p.stderr.strip().splitlines() or ['failed'])[-1]))
    return p.stdout


def series(part):
    if not os.path.isfile(os.path.join(part, 'series')):
        die('%s: no series file (a part of kernel-patches/LINE/)' % part)
    with open(os.path.join(part, 'series')) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith('#')]


def subject_and_notes(path):
    with open(path) as f:
        s = f.read()
    got = patchfile.subject(s)
    if not got:
        die('%s: no Subject: line' % path)
    subject = got[0]
    n = re.search(r'^---\n\nNotes:\n((?:    .*\n|\n)*?)\n [^ \n].*\|', s, re.M)
    notes = None
    if n:
        notes = '\n'.join(ln[4:] for ln in n.group(1).rstrip('\n').split('\n')) + '\n'
    return subject, notes


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        sys.exit(2)
    gitdir, base, part = sys.argv[1:]
    commits = git(gitdir, 'rev-list', '--reverse', base + '..HEAD').split()
    patches = series(part)
    if len(commits) < len(patches):
        die('%d commits after %s, %s names %d patches' % (len(commits), base, part, len(patches)))
    for c, p in zip(commits, patches):
        subject, notes = subject_and_notes(os.path.join(part, p))
        have = git(gitdir, 'log', '-1', '--format=%s', c).strip()
        if have != subject:
            die('%s is "%s", %s is "%s"' % (c[:12], have, p, subject))
        if notes:
            git(gitdir, 'notes', 'add', '-f', '-F', '-', c, stdin=notes)
            print('%s %s: note restored' % (c[:12], p))


if __name__ == '__main__':
    main()
