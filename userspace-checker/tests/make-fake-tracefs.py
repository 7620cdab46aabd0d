#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a tracefs look-alike from a raw capture, for rbdrain's tests.

Each cpuN.raw record becomes a whole page of instances/NAME/per_cpu/cpuN/
trace_pipe_raw (zero-padded, as the kernel hands them out), with the
capture's header_page and format where tracefs has them, a stats file of
path counters, and tracing_on.  rbdrain reads regular files the way it
reads tracefs: page after page, until there is no more.

usage: make-fake-tracefs.py RAW-DIR OUT-DIR INSTANCE
"""
import os
import struct
import sys


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    raw, out, inst = sys.argv[1:4]
    meta = dict(l.split(" ", 1) for l in open(os.path.join(raw, "meta")).read().splitlines()[1:])
    psize = int(meta["page_size"])
    os.makedirs(os.path.join(out, "events/rbstress/rbstress_event"), exist_ok=True)
    for src, dst in (("header_page", "events/header_page"),
                     ("format", "events/rbstress/rbstress_event/format")):
        with open(os.path.join(raw, src), "rb") as f, open(os.path.join(out, dst), "wb") as g:
            g.write(f.read())
    top = os.path.join(out, "instances", inst)
    os.makedirs(top, exist_ok=True)
    with open(os.path.join(top, "tracing_on"), "w") as f:
        f.write("1\n")
    # the clock the capture says, else the kernel's default
    with open(os.path.join(top, "trace_clock"), "w") as f:
        clock = meta.get("trace_clock", "local")
        f.write(" ".join("[%s]" % c if c == clock else c
                         for c in ("local", "global", "counter", "uptime", "perf")) + "\n")
    cpu = 0
    while os.path.exists(os.path.join(raw, "cpu%d.raw" % cpu)):
        d = os.path.join(top, "per_cpu/cpu%d" % cpu)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(raw, "cpu%d.raw" % cpu), "rb") as f, \
             open(os.path.join(d, "trace_pipe_raw"), "wb") as g:
            while True:
                head = f.read(4)
                if len(head) < 4:
                    break
                (n,) = struct.unpack("<I", head)
                g.write(f.read(n).ljust(psize, b"\0"))
        with open(os.path.join(d, "stats"), "w") as f:
            f.write("entries: 0\noverrun: 0\nts path read_failed: 0\n"
                    "ts path A-C: 0\nts path A-C,C-F_delta_0: 0\n")
        cpu += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
