# SPDX-License-Identifier: GPL-2.0
"""What our tools read of a `git format-patch` file or a mail: its
headers, unfolded (rbts.series, rbts.export_series, rbts.restore_notes)."""
import re

SUBJECT = re.compile(r'^Subject: \[[^]]*\] (.*(?:\n .*)*)\n', re.M)


def subject(text):
    """(subject unfolded and without its [PATCH ...] prefix, the offset
    after the Subject: header), or None without one."""
    m = SUBJECT.search(text)
    if not m:
        return None
    return ' '.join(m.group(1).split()), m.end()


def header(text, name):
    """The header NAME of a mail, unfolded ('' without one)."""
    m = re.search(r'(?m)^%s: ([^\n]*(?:\n[ \t][^\n]*)*)' % re.escape(name), text)
    return re.sub(r'\s+', ' ', m.group(1)).strip() if m else ''
