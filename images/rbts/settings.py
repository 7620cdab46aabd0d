# SPDX-License-Identifier: GPL-2.0
"""The guest's kernel command line, from settings checked against
images/guest/settings.table: every rbts.KEY=VALUE a boot passes is made
here, so that a setting is typed, documented and validated in one place.

usage: python3 -m rbts.settings [--line LINE] KEY=VALUE...
                                          print the rbts.* words (defaults
                                          are left to the guest); with a
                                          kernel line, a setting its ring
                                          buffer cannot have is refused
       python3 -m rbts.settings --values KEY         print the values a KEY may take
       python3 -m rbts.settings --default KEY        print a KEY's default
       python3 -m rbts.settings --table              print the table, its lists made
                                          (@faults: the fault files of
                                          images/guest/faults/, in order)
exit:  0, or 2 with one line saying which setting is wrong and why
"""
import os
import re
import sys

from rbts import faults, kspec
from rbts import lines as kernel_lines

TABLE = os.path.join(kspec.IMAGES, 'guest', 'settings.table')
# A setting that only some kernel lines have: any value but its default
# needs the line's feature (images/kernel/lines.table's last column).
NEEDS = {'subbufkb': 'subbuf-size'}


def line_features(line):
    """The features of kernel LINE, or None if there is no such line."""
    row = kernel_lines.get(line)
    return row.features if row else None


def module_params():
    """The rbstress module's parameters, from its source (module_param())."""
    names = set()
    src = os.path.join(kspec.TOP, 'stress-module')
    for name in os.listdir(src):
        if name.endswith('.c'):
            with open(os.path.join(src, name)) as f:
                names.update(re.findall(r'\bmodule_param(?:_named)?\(\s*(\w+)', f.read()))
    return names


def all_lines():
    return kernel_lines.names()


def made(text):
    """A table cell with its lists made: @faults is the fault files' names."""
    return text.replace('@faults', ','.join(faults.names()))


def load():
    rows = {}
    with open(TABLE) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            key, typ, default, what = re.split(r'\s+', line.strip(), maxsplit=3)
            rows[key] = (made(typ), made(default), what)
    return rows


def check(key, value, typ):
    """Why VALUE is not a KEY of type TYP, or None."""
    kind, _, arg = typ.partition(':')
    if kind == 'uint':
        lo, hi = (int(x) for x in arg.split('-'))
        if not re.fullmatch(r'\d{1,10}', value) or not lo <= int(value) <= hi:
            return 'must be a whole number from %d to %d' % (lo, hi)
    elif kind == 'bool':
        if value not in ('0', '1'):
            return 'must be 0 or 1'
    elif kind == 'one':
        if value not in arg.split(','):
            return 'must be one of %s' % arg.replace(',', ', ')
    elif kind == 'list':
        bad = [v for v in value.split(',') if v not in arg.split(',')]
        if not value or bad:
            return 'takes items of %s, not %r' % (arg.replace(',', ', '), bad[0] if bad else '')
    elif kind == 'params':
        if not re.fullmatch(r'[a-z_0-9]+=[a-z_0-9]+(,[a-z_0-9]+=[a-z_0-9]+)*', value):
            return 'takes NAME=VALUE[,NAME=VALUE...]'
        known = module_params()
        bad = [p.split('=')[0] for p in value.split(',') if p.split('=')[0] not in known]
        if bad:
            return 'names no rbstress parameter %r (have: %s)' % (bad[0], ' '.join(sorted(known)))
    return None


def main(argv):
    rows = load()
    if argv == ['--table']:
        with open(TABLE) as f:
            for line in f:
                print(line.rstrip('\n') if line.startswith('#') or not line.strip() else
                      '\t'.join([made(c) for c in re.split(r'\s+', line.strip(), maxsplit=3)[:3]] +
                                 re.split(r'\s+', line.strip(), maxsplit=3)[3:]))
        return 0
    if len(argv) == 2 and argv[0] in ('--values', '--default'):
        if argv[1] not in rows:
            print('settings: no setting %r in %s' % (argv[1], TABLE), file=sys.stderr)
            return 2
        typ, default = rows[argv[1]][:2]
        print(default if argv[0] == '--default' else typ.partition(':')[2].replace(',', ' '))
        return 0
    words, features, line = [], None, None
    if len(argv) >= 2 and argv[0] == '--line':
        line, argv = argv[1], argv[2:]
        features = line_features(line)
        if features is None:
            print('settings: no kernel line %r in %s' % (line, kernel_lines.table()), file=sys.stderr)
            return 2
    for arg in argv:
        key, eq, value = arg.partition('=')
        if not eq or key not in rows:
            print('settings: %r is not a setting (have: %s)' % (arg, ' '.join(rows)), file=sys.stderr)
            return 2
        why = check(key, value, rows[key][0])
        if why:
            print('settings: %s=%s: %s %s' % (key, value, key, why), file=sys.stderr)
            return 2
        need = NEEDS.get(key)
        if features is not None and need and value != rows[key][1] and need not in features:
            print('settings: %s=%s: kernel line %s has no %s (only %s=%s); lines with it: %s'
                  % (key, value, line, need, key, rows[key][1],
                     ' '.join(l for l in all_lines() if need in line_features(l)) or 'none'),
                  file=sys.stderr)
            return 2
        words.append('rbts.%s=%s' % (key, value))
    print(' '.join(words))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
