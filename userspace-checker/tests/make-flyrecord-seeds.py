#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seeds of the trace.dat fuzz target: the smallest version 7
files rb_flyrecord.c streams, around real sub-buffers of the guest
(tests/fuzz-corpus/), one zstd-compressed and one not.

usage: tests/make-flyrecord-seeds.py OUT-DIR
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PSIZE = 4096


def v7(pages, zstd):
    comp = b'zstd\0' + b'1.5.4\0' if zstd else b'none\0' + b'\0'
    head = b'\x17\x08\x44tracing7\0' + bytes([0, 8]) + struct.pack('<I', PSIZE) + comp
    opts_at = len(head) + 8
    # one options section: BUFFER, then DONE (no next section)
    data_at = 4096
    if zstd:
        raw = b''.join(pages)
        z = subprocess.run(['zstd', '-q', '-c'], input=raw, stdout=subprocess.PIPE,
                           check=True).stdout
        cpu = struct.pack('<I', 1) + struct.pack('<II', len(z), len(raw)) + z
        size = len(cpu) - 4     # the size does not count the chunk count
    else:
        cpu = b''.join(pages)
        size = len(cpu)
    buf = (struct.pack('<Q', data_at) + b'\0' + b'global\0' + struct.pack('<II', PSIZE, 1) +
           struct.pack('<IQQ', 0, data_at, size))
    opts = struct.pack('<HI', 3, len(buf)) + buf + struct.pack('<HI', 0, 8) + struct.pack('<Q', 0)
    section = struct.pack('<HHIQ', 0, 0, 0, len(opts)) + opts
    out = head + struct.pack('<Q', opts_at) + section
    return out + b'\0' * (data_at - len(out)) + cpu


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    corpus = os.path.join(HERE, 'fuzz-corpus')
    pages = [open(os.path.join(corpus, n), 'rb').read() for n in sorted(os.listdir(corpus))]
    for name, zstd in (('v7-zstd', True), ('v7-plain', False)):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(v7(pages[:2], zstd))


if __name__ == '__main__':
    main()
