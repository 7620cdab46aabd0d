# SPDX-License-Identifier: GPL-2.0
"""What our tools read of a `git format-patch` file: its subject."""
import re

SUBJECT = re.compile(r'^Subject: \[[^]]*\] (.*(?:\n .*)*)\n', re.M)


def subject(text):
    """(subject unfolded and without its [PATCH ...] prefix, the offset
    after the Subject: header), or None without one."""
    m = SUBJECT.search(text)
    if not m:
        return None
    return ' '.join(m.group(1).split()), m.end()
