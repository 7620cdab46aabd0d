#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the live checker's result.json with the offline verification of
the raw capture of the same run (rbcheck verify raw/ --json -).  Both read
the same sub-buffers, so everything must agree but the kernel's path
counters, which only a live run can read.

usage: compare-live-offline.py LIVE.json OFFLINE.json     exit 0 if they agree
"""
import json
import sys


def comparable(d):
    d = dict(d)
    for key in ("source", "path_counters", "settings"):
        d.pop(key, None)
    d["rules"] = [r for r in d["rules"] if r["rule"] != "counters"]
    # the overall verdict may differ only through the counters rule
    d.pop("verdict", None)
    return d


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        live = comparable(json.load(f))
    with open(sys.argv[2]) as f:
        offline = comparable(json.load(f))
    diffs = [k for k in sorted(set(live) | set(offline)) if live.get(k) != offline.get(k)]
    if diffs:
        print("live and offline differ in: " + ", ".join(diffs))
        return 1
    print("live and offline agree: %d events, %s" % (
        live["events"], ", ".join("%s %s" % (r["rule"], r["verdict"]) for r in live["rules"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
