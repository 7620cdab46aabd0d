#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make damaged copies of a valid trace.dat and judge rbcheck on them.

usage: damaged.py make SRC.dat OUTDIR        write the corpus and OUTDIR/cases.tsv
       damaged.py judge OUTDIR RESULTS.tsv EVENTS
                                             TAP: each case's exit and message

Each case is one file and what it must get:
  refuse   exit 2, one line on stderr naming the file ("PATH: ...") and
           then saying what is wrong (cases.tsv's third column, a
           regular expression matched there): the file is truncated or
           its header or layout does not add up
  read     exit 0 or 1 and nothing on stderr: the file is whole (a v7
           file that ends with its last options section, no strings,
           as trace-cmd restore writes it)
  any      exit 0, 1 or 2, and no crash or hang: a flipped byte inside
           the data may or may not be detectable, but never a signal; and
           a PASS (exit 0) only with every event of SRC.dat read (EVENTS,
           rbcheck's count of the undamaged file: events and other
           events of its JSON), not one more or less

Truncations are made at every byte of the header, at each section's
start, just inside it and at its end (the layout walked here the way
rb_tracedat_check.c walks it), at evenly spaced offsets and in the last
bytes; header fields are zeroed and maxed, and so are the top-level
BUFFER option's (page size, CPU count, a CPU's id and size) and an
options section's size; bytes flipped at fixed seeds.
Nothing of the corpus is committed: it is made from the fixtures.
"""
import os
import random
import re
import struct
import sys


# what a cut says: the file, or the CPU whose data it cuts, is truncated
CUT = r'(cpu\d+: )?truncated: '


def layout_v7(b):
    """Offsets of the section boundaries of a version 7 file, where its
    last options section ends (the strings start there), and the fields
    to damage: {name: (offset, size)}."""
    marks = set()
    fields = {}
    last_end = 0
    comp_end = b.index(b'\0', 18) + 1
    ver_end = b.index(b'\0', comp_end) + 1
    marks.update((18, comp_end, ver_end, ver_end + 8))
    off = struct.unpack_from('<Q', b, ver_end)[0]
    seen = 0
    while off and off + 16 <= len(b) and seen < 64:
        seen += 1
        size = struct.unpack_from('<Q', b, off + 8)[0]
        fields.setdefault('options-size', (off + 8, 8))
        marks.update((off, off + 16, off + 16 + size))
        last_end = max(last_end, off + 16 + size)
        flags = struct.unpack_from('<H', b, off + 2)[0]
        nxt = 0
        p, end = off + 16, off + 16 + size
        while not flags & 1 and p + 6 <= end:
            oid, olen = struct.unpack_from('<HI', b, p)
            p += 6
            marks.add(p)
            if oid == 0:
                nxt = struct.unpack_from('<Q', b, p)[0] if olen >= 8 else 0
                break
            if 16 <= oid <= 21 and olen >= 8:
                at = struct.unpack_from('<Q', b, p)[0]
                if at + 16 <= len(b):
                    marks.update((at, at + 16, at + 16 + struct.unpack_from('<Q', b, at + 8)[0]))
            if oid == 3 and olen >= 8:
                top = b[p + 8] == 0     # the top-level buffer has no name
                q = b.index(b'\0', p + 8) + 1
                q = b.index(b'\0', q) + 1
                cpus = struct.unpack_from('<I', b, q + 4)[0]
                if top and 'buffer-psize' not in fields:
                    fields.update({'buffer-psize': (q, 4), 'buffer-cpus': (q + 4, 4),
                                   'buffer-cpu-id': (q + 8, 4),
                                   'buffer-cpu-size': (q + 8 + 12, 8)})
                    fields['cpu-data'] = []
                for c in range(cpus):
                    _, at, sz = struct.unpack_from('<IQQ', b, q + 8 + 20 * c)
                    marks.update((at, at + sz))
                    if top:
                        fields['cpu-data'].append((at, sz))
            p += olen
        off = nxt
    return marks, last_end, fields


def layout_v6(b):
    """Offsets of the section boundaries of a version 6 file, and each
    CPU's data ({'cpu-data': [(offset, size)]})."""
    marks = set()

    def block(off, width):
        """[size][data] at off: its bounds marked; the offset after it"""
        size = struct.unpack_from('<Q' if width == 8 else '<I', b, off)[0]
        marks.update((off, off + width, off + width + size))
        return off + width + size

    def counted(off):
        """[count 4] blocks of [size 8][data]; the offset after them"""
        n = struct.unpack_from('<I', b, off)[0]
        off += 4
        for _ in range(n):
            off = block(off, 8)
        return off

    off = 18
    for _ in range(2):      # header_page, header_event: a name, then a block
        off = block(b.index(b'\0', off) + 1, 8)
    off = counted(off)      # ftrace formats
    systems = struct.unpack_from('<I', b, off)[0]
    off += 4
    for _ in range(systems):
        off = counted(b.index(b'\0', off) + 1)
    for width in (4, 4, 8):  # kallsyms, printk, command lines
        off = block(off, width)
    marks.add(off)
    cpus = struct.unpack_from('<I', b, off)[0]
    off += 4
    while b[off:off + 10] == b'options  \0':
        off += 10
        while True:
            oid = struct.unpack_from('<H', b, off)[0]
            off += 2
            if not oid:
                break
            off += 4 + struct.unpack_from('<I', b, off)[0]
    fields = {}
    if b[off:off + 10] == b'flyrecord\0':
        off += 10
        fields['cpu-data'] = [struct.unpack_from('<QQ', b, off + 16 * c) for c in range(cpus)]
        fields['cpu-size-at'] = off + 8
    return marks, None, fields


def make(src, out):
    b = open(src, 'rb').read()
    os.makedirs(out, exist_ok=True)
    version = b[10:11]
    marks, unnamed, fields = layout_v7(b) if version == b'7' else layout_v6(b)
    cuts = set(range(0, 64))
    for m in marks:
        cuts.update((m - 1, m, m + 1))
    cuts.update(len(b) * k // 40 for k in range(1, 40))
    cuts.update(len(b) - k for k in (1, 2, 7, 16, 100))
    cases = []

    def write(name, data, want, says=''):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
        cases.append((name, want, says))

    for c in sorted(x for x in cuts if 0 <= x < len(b)):
        # Cut where the strings begin, the file is as trace-cmd restore
        # writes it (no strings at all): whole, and read.
        if c == unnamed:
            write('cut-%d.dat' % c, b[:c], 'read')
        else:
            write('cut-%d.dat' % c, b[:c], 'refuse',
                  'not a trace-cmd data file' if c < 12 else CUT)
    for name, at, val, says in (
            ('endian-2', 12, b'\x02', 'offset 12: endian byte'),
            ('long-0', 13, b'\x00', 'offset 13: long size'),
            ('long-3', 13, b'\x03', 'offset 13: long size'),
            ('long-16', 13, b'\x10', 'offset 13: long size'),
            ('page-0', 14, struct.pack('<I', 0), 'offset 14: page size'),
            ('page-1', 14, struct.pack('<I', 1), 'offset 14: page size'),
            ('page-4097', 14, struct.pack('<I', 4097), 'offset 14: page size'),
            ('page-max', 14, struct.pack('<I', 0xffffffff), 'offset 14: page size'),
            ('page-2m', 14, struct.pack('<I', 2 << 20), 'offset 14: page size'),
            ('version-8', 10, b'8', "trace.dat format version '8'"),
            ('magic', 0, b'\x18', 'not a trace-cmd data file')):
        d = bytearray(b)
        d[at:at + len(val)] = val
        write('hdr-%s.dat' % name, bytes(d), 'refuse', says)
    # the layout's own fields, zeroed and maxed where that cannot be right
    page = struct.unpack_from('<I', b, 14)[0]
    for name, val, says in (
            ('options-size', 1 << 62, 'truncated: an options section at offset'),
            ('buffer-psize', page * 2, 'the top-level BUFFER option at offset'),
            ('buffer-cpus', 0xffffffff, 'a BUFFER option at offset'),
            ('buffer-cpu-id', 300, 'the top-level BUFFER option at offset'),
            ('buffer-cpu-size', len(b), CUT)):
        if name not in fields:
            continue
        at, size = fields[name]
        d = bytearray(b)
        d[at:at + size] = val.to_bytes(size, 'little')
        write('field-%s.dat' % name, bytes(d), 'refuse', says)
    # A sub-buffer's commit word (the length of its data, two flags), in
    # plain data: a value no kernel writes is refused, naming the CPU and
    # the sub-buffer.  0 and a length moved by a record's 4 bytes look
    # like a sub-buffer: trace-cmd's reader (ring_buffer_read_page())
    # zeroes what follows the data, so the bytes they drop are seen, and
    # a record they add runs past the data; refused too.
    plain = version == b'6' or b[18:b.index(b'\0', 18)] == b'none'
    lsize = b[13]
    data = [(at, sz) for at, sz in fields.get('cpu-data', []) if sz >= 2 * page]
    if plain and data:
        at = data[0][0] + page + 8      # sub-buffer 1 of the first CPU with two
        commit = int.from_bytes(b[at:at + lsize], 'little')
        for name, val, want in (
                ('ones', (1 << 8 * lsize) - 1, 'refuse'),
                ('7fffffff', 0x7fffffff, 'refuse'),
                ('65536', 65536, 'refuse'),
                ('2p40', 1 << 40 if lsize == 8 else 1 << 28, 'refuse'),
                ('1', 1, 'refuse'),
                ('7', 7, 'refuse'),
                ('0', 0, 'refuse'),
                ('plus4', commit + 4, 'refuse'),
                ('minus8', commit - 8, 'refuse'),
                # what a kernel writes when events were lost before the
                # sub-buffer: RB_MISSED_EVENTS, an int (1 << 31), added to
                # a 64-bit commit sets its upper half too: read, not refused
                ('missed-signext', commit | ((0xffffffff80000000 if lsize == 8 else 0x80000000)),
                 'read')):
            d = bytearray(b)
            d[at:at + lsize] = val.to_bytes(lsize, 'little')
            write('commit-%s.dat' % name, bytes(d), want, r'cpu\d+ sub-buffer 1[: ]' if want == 'refuse' else '')
        # a sub-buffer repeated: sub-buffer 1 copied over the one after it
        first = data[0][0]
        if data[0][1] >= 3 * page:
            d = bytearray(b)
            d[first + 2 * page:first + 3 * page] = b[first + page:first + 2 * page]
            write('subbuf-repeated.dat', bytes(d), 'refuse',
                  r'cpu\d+ sub-buffer 2: the same bytes as its sub-buffer 1')
    # version 6: the header's page size is the sub-buffers' size; a larger
    # one than the data's is seen in its first sub-buffer (the next
    # page's header after the data) or in a CPU's size
    if version == b'6' and plain:
        for k in (2, 4, 256):
            d = bytearray(b)
            d[14:18] = struct.pack('<I', page * k)
            write('v6-page-x%d.dat' % k, bytes(d), 'refuse',
                  r'cpu\d+( sub-buffer \d+ offset 0x[0-9a-f]+: non-zero byte after the data'
                  r'|: \d+ bytes of data at offset \d+ are not a whole number of)')
    # a CPU's data that does not end on a sub-buffer: its table is damaged
    size_at = fields.get('cpu-size-at', fields.get('buffer-cpu-size', (None,))[0])
    if plain and size_at is not None:
        d = bytearray(b)
        size = int.from_bytes(b[size_at:size_at + 8], 'little')
        if size > 100:
            d[size_at:size_at + 8] = (size - 100).to_bytes(8, 'little')
            write('cpu-size-rest.dat', bytes(d), 'refuse',
                  r'cpu\d+: \d+ bytes of data at offset \d+ are not a whole number of')
    rnd = random.Random(20261206)
    for i in range(100):
        d = bytearray(b)
        at = rnd.randrange(len(b))
        d[at] ^= 1 << rnd.randrange(8)
        write('flip-%02d-at-%d.dat' % (i, at), bytes(d), 'any')
    with open(os.path.join(out, 'cases.tsv'), 'w') as f:
        for case in cases:
            f.write('\t'.join(case) + '\n')
    print('%s: %d cases from %s (version %s, %d bytes)' % (out, len(cases), src,
                                                        version.decode(), len(b)))


def judge(out, results, events):
    """results: NAME<TAB>READER<TAB>EXIT<TAB>FIRST STDERR LINE<TAB>STDERR LINES
    <TAB>EVENTS READ (from its --json; - if none was written)"""
    want, says = {}, {}
    for l in open(os.path.join(out, 'cases.tsv')):
        name, want[name], says[name] = l.rstrip('\n').split('\t')
    n = bad = 0
    for line in open(results):
        name, reader, rc, first, lines, read = line.rstrip('\n').split('\t')
        path = os.path.join(out, name)
        rc = int(rc)
        n += 1
        what = '%s (%s reader)' % (name, reader)
        if want[name] == 'refuse':
            msg = first.split('rbcheck: ', 1)[-1]
            ok = rc == 2 and lines == '1' and msg.startswith(path + ': ') and \
                re.match(says[name], msg[len(path) + 2:]) is not None
            why = 'exit 2 and one line naming the file' if ok else \
                'exit %d, %s line(s), not "%s: %s...": %s' % (rc, lines, name, says[name],
                                                             first[:200])
        elif want[name] == 'read':
            ok = rc in (0, 1) and lines == '0'
            why = 'read (exit %d)' % rc if ok else 'exit %d: %s' % (rc, first[:200])
        elif rc == 0 and read != str(events):
            ok = False
            why = 'PASS on %s of the %s events' % (read, events)
        else:
            ok = rc in (0, 1, 2)
            why = 'exit %d, no crash' % rc if ok else 'exit %d: %s' % (rc, first[:200])
        if not ok:
            bad += 1
            print('not ok - %s: %s' % (what, why))
    print('%s - %d runs of %d cases: %d as expected%s' % (
        'ok' if not bad else 'not ok', n, len(want), n - bad,
        '' if not bad else ', %d not' % bad))
    return 1 if bad else 0


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'make':
        make(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == 'judge':
        sys.exit(judge(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        sys.exit(__doc__.split('\n\n')[1])
