# SPDX-License-Identifier: GPL-2.0
"""Compare the ftracetest results of two kernels, case by case.

Reads OUT/A/selftests.tsv and OUT/B/selftests.tsv (CASE<TAB>RESULT[,RESULT],
written by the guest's selftests job), prints the table and writes it to
OUT/table.md.  Identical means: the same cases, each with the same results
(PASS, FAIL, UNSUPPORTED, UNRESOLVED, UNTESTED, XFAIL, TIMEOUT, NORESULT).
A case that fails on both kernels is listed as failing on both.

usage: python3 -m rbts.selftests_compare OUT A B        exit 0 identical, 1 not, 2 bad input
"""
import os
import sys


def load(path):
    rows = {}
    order = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[0] or not parts[1]:
                raise ValueError("%s:%d: not CASE<TAB>RESULT: %r" % (path, n, line))
            if parts[0] in rows:
                raise ValueError("%s:%d: %s twice" % (path, n, parts[0]))
            rows[parts[0]] = parts[1]
            order.append(parts[0])
    return rows, order


def bad(results):
    return any(r not in ("PASS", "UNSUPPORTED", "XFAIL") for r in results.split(","))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out, a, b = argv
    try:
        ra, order = load(os.path.join(out, a, "selftests.tsv"))
        rb, order_b = load(os.path.join(out, b, "selftests.tsv"))
    except (OSError, ValueError) as e:
        print("selftests-compare: %s" % e, file=sys.stderr)
        return 2
    order += [c for c in order_b if c not in ra]
    lines = ["| ftracetest case | %s | %s | |" % (a, b), "|---|---|---|---|"]
    differ, both_bad = [], []
    for c in order:
        x, y = ra.get(c, "(not run)"), rb.get(c, "(not run)")
        mark = "same"
        if x != y:
            mark = "**DIFFERS**"
            differ.append(c)
        elif bad(x):
            mark = "same (not a pass on either)"
            both_bad.append(c)
        lines.append("| %s | %s | %s | %s |" % (c, x, y, mark))
    for k in (a, b):
        comp = os.path.join(out, k, "kernel-complaints.txt")
        if os.path.exists(comp):
            with open(comp) as f:
                first = f.readline().strip()
            lines.append("")
            lines.append("kernel '%s' complained during the tests: %s" % (k, first))
    lines.append("")
    counts = {}
    for c in order:
        for r in ra.get(c, "").split(","):
            if r:
                counts[r] = counts.get(r, 0) + 1
    lines.append("%d cases (%s on %s); %d differ%s" % (
        len(order), ", ".join("%d %s" % (n, r) for r, n in sorted(counts.items())), a,
        len(differ), ": " + ", ".join(differ) if differ else ""))
    if both_bad:
        lines.append("not a pass on either kernel (not caused by the series): " + ", ".join(both_bad))
    verdict = "FAIL" if differ else "PASS"
    lines.append("VERDICT: %s  (%s and %s give %s results)" % (
        verdict, a, b, "different" if differ else "identical"))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
