# SPDX-License-Identifier: GPL-2.0
"""images/kernel/lines.table, read once for every Python tool (rbts.lines) (the shell's
reader is images/kernel/spec.sh).  RBTS_LINES_TABLE names another table:
the tests that add a line to a copy use it.

Each row is a Line: line, version, package, series (the checkout's path of
our series), config (a fragment, or None), variants, features (sets).
"""
import collections
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
Line = collections.namedtuple('Line', 'line version package series config variants features')


def table():
    """The path of the table in use; a missing one: one line, exit 2."""
    path = os.environ.get('RBTS_LINES_TABLE') or os.path.join(TOP, 'images', 'kernel', 'lines.table')
    if not os.path.isfile(path):
        sys.stderr.write('error: no kernel line table %s\n' % path)
        sys.exit(2)
    return path


def rows():
    """Every line, in the table's order (the first is the default)."""
    out = []
    with open(table()) as f:
        for row in f:
            cols = row.split()
            if not cols or cols[0].startswith('#'):
                continue
            cols += ['-'] * (7 - len(cols))
            out.append(Line(cols[0], cols[1], cols[2], os.path.join(TOP, cols[3]),
                            None if cols[4] == '-' else cols[4],
                            set(cols[5].split(',')) - {'-'}, set(cols[6].split(',')) - {'-'}))
    return out


def names():
    return [r.line for r in rows()]


def get(line):
    """LINE's row, or None."""
    return next((r for r in rows() if r.line == line), None)
