# SPDX-License-Identifier: GPL-2.0
"""Write a kernel line's series from a git tree: kernel-patches/LINE/fixes/
and kernel-patches/LINE/test/, each one `git format-patch --cover-letter`
run with its own `series` file.

usage: python3 -m rbts.export_series LINE GITDIR BASE FIXES TEST [--fixes-blurb F] [--test-blurb F]
       python3 -m rbts.export_series mainline GITDIR BASE FIXES [--fixes-blurb F]

  GITDIR  a git repository of the line's Debian tree (the extracted tarball
          committed as BASE), with our fixes on top up to FIXES and our
          test hooks on top of those up to TEST (commits or tags)

For mainline (a port of the fixes, checked by the model, not booted
here) there is one part, kernel-patches/mainline/ itself.  The fixes are
the mailable part: their cover letter is addressed to the
recipients the tree's own scripts/get_maintainer.pl names for the files
they touch, and the notes of each commit (git notes: how its Fixes: tag was
found, or why it has none) go below its ---.  A cover letter's subject and
text (the first line, a blank line, the rest) come from a blurb file, or
else from the part's existing 0000-cover-letter.patch, so that exporting
again keeps them.  Commit ids are zeroed (--zero-commit) and no signature
is written, so that an unchanged commit exports to the same bytes.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from rbts import patchfile
from rbts.series import PLACEHOLDER_MAIL, PLACEHOLDER_NAME


def git(gitdir, *args):
    # The committed series carries no identity that could go out: the
    # cover letter's From: (git's own identity) is the placeholder too;
    # ./run.sh series export puts the sender's in (rbts/series.py).
    env = dict(os.environ, GIT_COMMITTER_NAME=PLACEHOLDER_NAME, GIT_COMMITTER_EMAIL=PLACEHOLDER_MAIL)
    return subprocess.run(['git', '-C', gitdir] + list(args), check=True, env=env,
                          capture_output=True, text=True).stdout


def blurb_from_cover(path):
    """Subject and text of an exported cover letter (between the Subject:
    header and the shortlog), as a blurb: subject, blank line, text."""
    with open(path) as f:
        s = f.read()
    got = patchfile.subject(s)
    if not got:
        sys.exit('%s: no Subject: line' % path)
    subject, end = got
    body = s[s.index('\n\n', end - 1) + 2:]
    # the shortlog: "Name (N):" after the text
    body = re.split(r'\n\n[^\n]+ \(\d+\):\n', body, maxsplit=1)[0]
    return subject + '\n\n' + body.rstrip('\n') + '\n'


def recipients(gitdir, files):
    """To: the maintainers, Cc: reviewers and lists, as the tree's
    get_maintainer.pl names them for FILES; and its lines, roles and all."""
    roles = subprocess.run(['perl', 'scripts/get_maintainer.pl', '--nogit',
                            '--nogit-fallback', '-f'] + files,
                           cwd=gitdir, capture_output=True, text=True, check=True).stdout
    to, cc = [], []
    for l in roles.splitlines():
        who = l.split(' (')[0].strip()
        (to if '(maintainer' in l else cc).append(who)
    return to, cc, roles.strip()


def export(line, gitdir, base, end, part, blurb, mail):
    outdir = os.path.join(TOP, 'kernel-patches', line, *([part] if part else []))
    cover = os.path.join(outdir, '0000-cover-letter.patch')
    if blurb is None:
        if not os.path.exists(cover):
            sys.exit('%s: no cover letter to keep; give --%s-blurb' % (cover, part or 'fixes'))
        blurb = blurb_from_cover(cover)
    files = sorted(set(git(gitdir, 'diff', '--name-only', base, end).split()))
    args = ['--cover-letter', '--zero-commit', '--no-signature',
            '--notes', '--cover-from-description=subject']
    if mail:
        to, cc, roles = recipients(gitdir, files)
        blurb = blurb.replace('{recipients}', '\n'.join('  ' + r for r in roles.splitlines()))
        args += ['--to=' + t for t in to] + ['--cc=' + c for c in cc]
        # a Debian line's fixes are backports of the mainline series
        if line != 'mainline':
            args += ['--subject-prefix=PATCH ' + line]
    else:
        args += ['--subject-prefix=PATCH rbts-test']
    # the blurb reaches the cover letter as the branch's description
    branch = 'rbts-export-%s' % (part or line)
    git(gitdir, 'branch', '-f', branch, end)
    git(gitdir, 'config', 'branch.%s.description' % branch, blurb)
    os.makedirs(os.path.dirname(outdir), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='export-', dir=os.path.dirname(outdir))
    try:
        git(gitdir, 'format-patch', '-o', tmp, '--base=' + base, *args,
            '%s..%s' % (base, branch))
        names = sorted(n for n in os.listdir(tmp) if n.endswith('.patch'))
        # --base= names a commit of our local tree, which means nothing to anyone else
        for n in names:
            p = os.path.join(tmp, n)
            with open(p) as f:
                s = f.read()
            s = re.sub(r'\nbase-commit: [0-9a-f]+\n', '\n', s)
            # format-patch writes a blank context line as " "; checkpatch,
            # run on the file as text, calls that trailing whitespace.
            # patch, git apply and git am take the trimmed form the same.
            s = re.sub(r'(?m)^ $', '', s)
            with open(p, 'w') as f:
                f.write(s)
        with open(os.path.join(tmp, 'series'), 'w') as f:
            f.write('# %s: applied in order (images/prepare-tree.sh); exported by\n'
                    '# images/rbts/export_series.py, see docs/kernel-patches.md.\n'
                    % ('Our fixes, the mailable part' if mail else
                       'Our test hooks, applied after ../fixes'))
            for n in names:
                if not n.startswith('0000-'):
                    f.write(n + '\n')
        if os.path.isdir(outdir):
            shutil.rmtree(outdir)
        os.rename(tmp, outdir)
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp)
        git(gitdir, 'branch', '-D', branch)
    print('%s: %d patch(es) and a cover letter' % (os.path.relpath(outdir, TOP), len(names) - 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('line')
    ap.add_argument('gitdir')
    ap.add_argument('base')
    ap.add_argument('fixes')
    ap.add_argument('test', nargs='?')
    ap.add_argument('--fixes-blurb')
    ap.add_argument('--test-blurb')
    a = ap.parse_args()
    read = lambda p: open(p).read() if p else None
    if a.test is None:
        if a.line != 'mainline':
            ap.error('a kernel line has a test part: give TEST')
        export(a.line, a.gitdir, a.base, a.fixes, None, read(a.fixes_blurb), True)
        return
    export(a.line, a.gitdir, a.base, a.fixes, 'fixes', read(a.fixes_blurb), True)
    export(a.line, a.gitdir, a.fixes, a.test, 'test', read(a.test_blurb), False)


if __name__ == '__main__':
    main()
