# SPDX-License-Identifier: GPL-2.0
"""./run.sh series: our fixes as the one who sends them mails them.

The mailable parts are kernel-patches/mainline/ (the fixes against
mainline, the primary series) and each line's kernel-patches/LINE/fixes/
(their backports to Debian's trees).  They are committed with no identity
that could go out: every From: is the project's placeholder (PLACEHOLDER)
and no patch has a Signed-off-by.  A patch must be signed by whoever sends
it (Documentation/process/submitting-patches.rst, "Sign your work"), so

  export --from 'Name <mail>'  writes the copy a sender mails: the sender's
                               From: on every mail, his Signed-off-by: as
                               the last trailer of each patch, his name on
                               the cover letter's shortlog; a part's RFC
                               mails (rfc-*.mail: questions, no patch) get
                               his From: only
  check DIR                    checks such a copy (identity, numbering,
                               a cover letter that stands on its own, the
                               groups of kernel-patches/groups; checkpatch
                               and git am are host/series-export's)

Without a sender, or with a placeholder one, nothing is written: one line,
exit 2.  The identity itself is never committed.
"""
import os
import re
import shutil
import sys

from rbts import kspec, patchfile

TOP = kspec.TOP
PATCHES = os.path.join(TOP, 'kernel-patches')
PLACEHOLDER_NAME = 'rbts developers'
PLACEHOLDER_MAIL = 'rbts@localhost'
PLACEHOLDER = '%s <%s>' % (PLACEHOLDER_NAME, PLACEHOLDER_MAIL)
# Names that can never receive mail (RFC 2606, RFC 6761) and the
# placeholders of tools (git's user@host guess, noreply addresses).
RESERVED_DOMAINS = ('localhost', 'localdomain', 'invalid', 'test', 'example', 'local')
RESERVED_HOSTS = ('example.com', 'example.net', 'example.org')


class SeriesError(Exception):
    """A bad option or a series that cannot be exported: one line."""


def parse_sender(text):
    """TEXT as 'Name <local@domain>', or SeriesError saying what is wrong."""
    m = re.fullmatch(r'\s*([^<>@"]*[^<>@"\s])\s*<([^<>@\s]+)@([^<>@\s]+)>\s*', text or '')
    if not m:
        raise SeriesError("--from must be 'Full Name <address@domain>', not %r" % (text or ''))
    name, local, domain = m.group(1), m.group(2), m.group(3).lower()
    ident = '%s <%s@%s>' % (name, local, m.group(3))
    if placeholder_reason(ident):
        raise SeriesError('--from %r: %s; a patch is signed by the one who sends it'
                          % (ident, placeholder_reason(ident)))
    if '.' not in domain:
        raise SeriesError('--from %r: %s is no mail domain' % (ident, domain))
    return ident


def placeholder_reason(ident):
    """Why IDENT could not go out (a placeholder), or None."""
    m = re.fullmatch(r'(.*?)\s*<([^<>]*)>', ident.strip())
    if not m:
        return 'not of the form Name <address>'
    name, mail = m.group(1), m.group(2).lower()
    if name.lower() == PLACEHOLDER_NAME or mail == PLACEHOLDER_MAIL:
        return "it is the project's placeholder"
    domain = mail.rpartition('@')[2]
    labels = domain.split('.')
    if labels[-1] in RESERVED_DOMAINS or domain in RESERVED_HOSTS or \
            domain.endswith(tuple('.' + h for h in RESERVED_HOSTS)):
        return '%s can never receive mail' % domain
    if 'noreply' in domain or 'no-reply' in mail:
        return '%s is a no-reply address' % mail
    return None


def parts():
    """(name, directory) of every mailable part: mainline first."""
    out = [('mainline', os.path.join(PATCHES, 'mainline'))]
    for r in kspec.lines.rows():
        out.append((r.line, os.path.join(r.series, 'fixes')))
    return out


def series_files(d):
    """The cover letter and the patches of a part, in order."""
    names = [l.strip() for l in open(os.path.join(d, 'series'))
             if l.strip() and not l.startswith('#')]
    return ['0000-cover-letter.patch'] + names


def rfc_mails(d):
    """The RFC mails of a part (rfc-*.mail): questions sent on their own,
    no patch, so no Signed-off-by and no place in the series."""
    return sorted(f for f in os.listdir(d) if f.startswith('rfc-') and f.endswith('.mail'))


def groups():
    """kernel-patches/groups: [(name, [patch numbers], text)]."""
    out = []
    with open(os.path.join(PATCHES, 'groups')) as f:
        for l in f:
            l = l.split('#', 1)[0].strip()
            if not l:
                continue
            name, _, nums = l.partition(':')
            out.append((name.strip(), nums.split()))
    return out


def _headers_end(s):
    return s.index('\n\n')


def sign(text, sender, cover):
    """A mail of the committed part, as SENDER sends it."""
    end = _headers_end(text)
    head, body = text[:end], text[end:]
    # From: may be folded (RFC 5322) when the name is long
    head, n = re.subn(r'(?m)^From: [^\n]*(\n[ \t][^\n]*)*', lambda m: 'From: ' + sender, head, count=1)
    if not n:
        raise SeriesError('no From: header')
    name = sender.split(' <')[0]
    if cover:
        body = re.sub(r'(?m)^%s \((\d+)\):$' % re.escape(PLACEHOLDER_NAME),
                      lambda m: '%s (%s):' % (name, m.group(1)), body)
        return head + body
    if re.search(r'(?m)^Signed-off-by:', body.split('\n---\n', 1)[0]):
        raise SeriesError('already has a Signed-off-by: the committed part carries none')
    msg, sep, rest = body.partition('\n---\n')
    if not sep:
        raise SeriesError('no --- after the changelog')
    return head + msg.rstrip('\n') + '\nSigned-off-by: ' + sender + '\n' + sep + rest


def export(sender, out, which=None):
    """Write each mailable part (or WHICH) signed by SENDER under OUT/NAME/."""
    chosen = [(n, d) for n, d in parts() if which in (None, 'all', n)]
    if not chosen:
        raise SeriesError('--line must be one of %s or all, not %r'
                          % (', '.join(n for n, _ in parts()), which))
    done = []
    for name, d in chosen:
        dest = os.path.join(out, name)
        tmp = dest + '.new'
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        for f in series_files(d) + rfc_mails(d):
            with open(os.path.join(d, f)) as fh:
                text = fh.read()
            try:
                # a cover letter or an RFC mail: the sender's From: only
                text = sign(text, sender, f.startswith(('0000-', 'rfc-')))
            except SeriesError as e:
                shutil.rmtree(tmp, ignore_errors=True)
                raise SeriesError('%s: %s' % (os.path.relpath(os.path.join(d, f), TOP), e))
            with open(os.path.join(tmp, f), 'w') as fh:
                fh.write(text)
        shutil.copy(os.path.join(d, 'series'), tmp)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(tmp, dest)
        done.append((name, dest, len(series_files(d)) - 1, len(rfc_mails(d))))
    return done


def mail_from(text):
    """The From: header of a mail, unfolded ('' without one)."""
    return patchfile.header(text[:_headers_end(text)], 'From')


def subject(text):
    """The Subject: header, with its [PATCH ...] prefix."""
    return patchfile.header(text, 'Subject')


# A cover letter that sends the reader elsewhere for what it should say
# itself: another series' cover letter, a file of ours.
POINTS_OUTSIDE = re.compile(r'cover letter of the|in the cover letter of|see docs/|docs/[a-z-]+\.md',
                            re.I)


def check(d, name):
    """Problems of an exported part in D (one line each); [] when it can go out."""
    problems = []
    files = series_files(d)
    total = len(files) - 1
    for i, f in enumerate(files):
        p = os.path.join(d, f)
        if not os.path.exists(p):
            problems.append('%s: listed in series but missing' % f)
            continue
        text = open(p).read()
        sender = mail_from(text)
        why = placeholder_reason(sender) if sender else 'no From:'
        if why:
            problems.append('%s: From: %s: %s' % (f, sender, why))
        subj = subject(text)
        m = re.match(r'\[PATCH[^\]]*?\s0*(\d+)/0*(\d+)\]', subj)
        if not m or (int(m.group(1)), int(m.group(2))) != (i, total):
            problems.append('%s: numbered %s, not %d/%d as its place in the series'
                            % (f, m.group(0) if m else 'not at all', i, total))
        if i == 0:
            if name == 'mainline' and POINTS_OUTSIDE.search(text):
                problems.append('%s: points outside itself: %r'
                                % (f, POINTS_OUTSIDE.search(text).group(0)))
            continue
        msg = text.split('\n---\n', 1)[0]
        sobs = re.findall(r'(?m)^Signed-off-by: (.*)$', msg)
        if not sobs:
            problems.append('%s: no Signed-off-by' % f)
        elif sobs[-1].strip() != sender:
            problems.append('%s: the last Signed-off-by (%s) is not the sender (%s)'
                            % (f, sobs[-1].strip(), sender))
        for s in sobs:
            if placeholder_reason(s):
                problems.append('%s: Signed-off-by: %s: %s' % (f, s, placeholder_reason(s)))
    for f in rfc_mails(d):
        text = open(os.path.join(d, f)).read()
        sender = mail_from(text)
        why = placeholder_reason(sender) if sender else 'no From:'
        if why:
            problems.append('%s: From: %s: %s' % (f, sender, why))
        if not re.match(r'\[RFC[\] ]', subject(text)):
            problems.append('%s: subject %r is not marked [RFC]' % (f, subject(text)))
        if POINTS_OUTSIDE.search(text):
            problems.append('%s: points outside itself: %r' % (f, POINTS_OUTSIDE.search(text).group(0)))
    return problems


USAGE = """usage: ./run.sh series export --from 'Name <mail>' [--line mainline|LINE|all] [--out DIR]
       ./run.sh series check DIR [--line mainline|LINE]
"""


def main(argv):
    """The command line: 0 done, 1 a check failed, 2 a bad option."""
    if not argv or argv[0] in ('-h', '--help'):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    what, argv = argv[0], argv[1:]
    if what == 'placeholder':	# for the shell's checks of the committed parts
        print(PLACEHOLDER)
        return 0
    opts = {'--from': None, '--line': None, '--out': None}
    pos = []
    i = 0
    try:
        while i < len(argv):
            a = argv[i]
            key, eq, val = a.partition('=')
            if key in opts:
                if not eq:
                    if i + 1 >= len(argv):
                        raise SeriesError('%s needs a value' % key)
                    i += 1
                    val = argv[i]
                opts[key] = val
            elif a.startswith('-'):
                raise SeriesError('unknown option %s' % a)
            else:
                pos.append(a)
            i += 1
        if what == 'export':
            if pos:
                raise SeriesError('export takes no arguments, only options: %s' % ' '.join(pos))
            if opts['--from'] is None:
                raise SeriesError("export needs a sender: --from 'Name <mail>' "
                                  '(a patch is signed by the one who sends it)')
            sender = parse_sender(opts['--from'])
            out = opts['--out'] or os.path.join(kspec.build_dir(), 'mail')
            for name, dest, n, rfcs in export(sender, out, opts['--line']):
                print('%s: %d patches and a cover letter%s from %s'
                      % (dest, n, ', %d RFC mail%s' % (rfcs, 's' * (rfcs > 1)) if rfcs else '',
                         sender))
            return 0
        if what == 'check':
            if len(pos) != 1 or not os.path.isdir(pos[0]):
                raise SeriesError('check needs the directory of one exported part')
            name = opts['--line'] or os.path.basename(os.path.normpath(pos[0]))
            problems = check(pos[0], name)
            for p in problems:
                print('%s: %s' % (pos[0], p))
            if not problems:
                print('%s: can go out' % pos[0])
            return 1 if problems else 0
        raise SeriesError("say what to do: 'export' or 'check', not %r" % what)
    except SeriesError as e:
        sys.stderr.write('run.sh: series: %s\n' % e)
        return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
