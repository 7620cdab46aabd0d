#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract the RB_TIME_32 code of a kernel tree's kernel/trace/ring_buffer.c.

The model checker must test the tree's own code, not a copy that drifts:
this pulls the 32-bit rb_time_t struct, its constants and its functions
out of the #ifdef RB_TIME_32 block, verbatim, into a C file compiled
against rbm_shim.h.  Anything missing is named, and the build stops.

usage: extract-rb-time.py RING_BUFFER_C OUT_C
"""
import re
import sys

DEFINES = ["RB_TIME_SHIFT", "RB_TIME_VAL_MASK", "RB_TIME_MSB_SHIFT"]
FUNCS = ["rb_time_cnt", "rb_time_val", "__rb_time_read", "rb_time_read",
         "rb_time_val_cnt", "rb_time_split", "rb_time_val_set", "rb_time_set"]
# Removed from later trees (the ring buffer stopped needing it); modelled
# when present.
OPTIONAL = ["rb_time_read_cmpxchg", "rb_time_cmpxchg"]


def die(path, msg):
    sys.stderr.write("extract-rb-time: %s: %s (the tree changed?)\n" % (path, msg))
    sys.exit(1)


def function(block, name):
    m = re.search(r"^static[^;{}]*?\b%s\s*\(" % re.escape(name), block, re.M)
    if not m:
        return None
    open_brace = block.index("{", m.end())
    end = re.compile(r"^}\n", re.M).search(block, open_brace)
    if not end:
        return None
    return m.start(), block[m.start():end.end()]


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__.split("\n\n")[-1].strip() + "\n")
        sys.exit(2)
    path, out = sys.argv[1], sys.argv[2]
    try:
        src = open(path).read()
    except OSError as e:
        die(path, "cannot read: %s" % e.strerror)

    struct = re.search(r"#ifdef RB_TIME_32\s*\n\s*(struct rb_time_struct \{.*?\n\};)",
                       src, re.S)
    if not struct or "cnt;" not in struct.group(1):
        die(path, "no 32-bit 'struct rb_time_struct' after '#ifdef RB_TIME_32'")

    start = re.search(r"^#define RB_TIME_SHIFT\b", src, re.M)
    if not start:
        die(path, "no '#define RB_TIME_SHIFT'")
    stop = re.compile(r"^#else", re.M).search(src, start.start())
    if not stop:
        die(path, "no '#else' closing the RB_TIME_32 functions")
    block = src[start.start():stop.start()]

    parts = []
    for name in DEFINES:
        m = re.search(r"^#define %s\b.*$" % name, block, re.M)
        if not m:
            die(path, "cannot find '#define %s' in the RB_TIME_32 block" % name)
        parts.append((m.start(), m.group(0) + "\n"))
    found = []
    for name in FUNCS + OPTIONAL:
        f = function(block, name)
        if not f:
            if name in OPTIONAL:
                continue
            die(path, "cannot find function %s() in the RB_TIME_32 block" % name)
        found.append(name)
        parts.append((f[0], f[1] + "\n"))
    parts.sort()

    with open(out, "w") as o:
        o.write("/* Generated from %s by extract-rb-time.py: do not edit. */\n" % path)
        o.write('#include "rbm_shim.h"\n\n')
        o.write(struct.group(1) + "\ntypedef struct rb_time_struct rb_time_t;\n\n")
        for _, text in parts:
            o.write(text)
        if "rb_time_cmpxchg" in found:
            o.write("#define RBM_TREE_HAS_CMPXCHG 1\n")
    print("extract-rb-time: %s: %s" % (path, ", ".join(found)))


if __name__ == "__main__":
    main()
