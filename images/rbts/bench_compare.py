# SPDX-License-Identifier: GPL-2.0
"""Compare the kernels of one ./run.sh bench kernels run.

Reads OUT/runs.tsv (kernel, repetition, metric, value; the first kernel is
the baseline) and OUT/mode.txt, prints a table of medians with their spread
(min-max over the repetitions) and the ratio of each kernel's median to the
baseline's, writes OUT/report.md and OUT/bench.png (gnuplot), and with a
threshold P exits 1 when a kernel is slower than the baseline by more than
P percent on any workload whose spread does not overlap the baseline's.
OUT/compare.json holds the same figures for programs (and the tests).

usage: rbts/bench_compare.py OUT-DIR [THRESHOLD-PERCENT]
"""
import json
import os
import re
import statistics
import subprocess
import sys

# Workloads whose time per event is compared (lower is better), in order,
# and the buffer's bytes per event: deterministic, so a change that makes
# events larger shows without timing noise.  The stress writers' rows,
# stress_<context>_<flat|nested>_ns, follow in the order the guest wrote
# them (the module's contexts): their names are the module's, not ours.
LABELS = [
    ("buffer_bytes_per_event", "bytes per event in the buffer (rbstress)"),
    ("rbbench_ns_per_entry", "ring_buffer_benchmark, producer ns/entry"),
    ("reader_iter_ns_per_event", "reader, iterator ('trace') ns/event"),
    ("reader_pipe_ns_per_event", "reader, consuming ('trace_pipe') ns/event"),
]
STRESS = re.compile(r"^stress_(\w+)_(flat|nested)_ns$")
MIN_EVENTS = 50		# fewer timed events in a repetition: too few to compare


def die(msg):
    sys.stderr.write("bench-compare: %s\n" % msg)
    sys.exit(2)


def main(argv=None):
    """The exit status; a usage error or bad input is SystemExit(2)
    (die), as from the command line."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (1, 2):
        die("usage: python3 -m rbts.bench_compare OUT-DIR [THRESHOLD-PERCENT]")
    out = argv[0]
    threshold = None
    if len(argv) == 2 and argv[1] != "":
        try:
            threshold = float(argv[1])
        except ValueError:
            die("threshold '%s' is not a number" % argv[1])
    try:
        mode = open(os.path.join(out, "mode.txt")).read().strip()
        lines = open(os.path.join(out, "runs.tsv")).read().split("\n")
    except OSError as e:
        die("%s: %s" % (e.filename, e.strerror))

    kernels, metrics, vals = [], [], {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        f = line.split("\t")
        if len(f) != 4:
            die("runs.tsv line %d: expected 4 tab-separated fields, got %d" % (n, len(f)))
        k, _, metric, v = f
        try:
            v = float(v)
        except ValueError:
            die("runs.tsv line %d: value '%s' is not a number" % (n, v))
        if k not in kernels:
            kernels.append(k)
        if metric not in metrics:
            metrics.append(metric)
        vals.setdefault((k, metric), []).append(v)
    if len(kernels) < 2:
        die("runs.tsv: need a baseline and at least one other kernel, have %s" % (kernels or "none"))
    base = kernels[0]

    def enough(k, metric):
        if not metric.startswith("stress_"):
            return True
        counts = vals.get((k, metric[:-3] + "_n"), [])
        return bool(counts) and min(counts) >= MIN_EVENTS

    labels = list(LABELS)
    for metric in metrics:
        m = STRESS.match(metric)
        if m:
            labels.append((metric, "rbstress %s, %s" % (
                m.group(1), "flat (fast path)" if m.group(2) == "flat" else "nested")))

    rows, slower, table = [], [], []
    for metric, label in labels:
        if (base, metric) not in vals:
            continue
        b = vals[(base, metric)]
        bmed = statistics.median(b)
        entry = {"metric": metric, "label": label,
                 "kernels": {base: {"median": bmed, "min": min(b), "max": max(b)}}}
        table.append(entry)
        row = [label, ("%.2f [%.2f-%.2f]" if metric.startswith("buffer_") else
                       "%.0f [%.0f-%.0f]") % (bmed, min(b), max(b))]
        for k in kernels[1:]:
            v = vals.get((k, metric))
            if not v:
                row.append("-")
                continue
            med = statistics.median(v)
            ratio = med / bmed if bmed else float("nan")
            overlap = min(v) <= max(b) and min(b) <= max(v)
            note = ""
            if not (enough(base, metric) and enough(k, metric)):
                note = " (few events)"
            elif overlap:
                note = " (within spread)"
            fmt = "%.2f [%.2f-%.2f] x%.3f%s" if metric.startswith("buffer_") else \
                "%.0f [%.0f-%.0f] x%.2f%s"
            row.append(fmt % (med, min(v), max(v), ratio, note))
            entry["kernels"][k] = {"median": med, "min": min(v), "max": max(v),
                                   "ratio": ratio, "decides": not note,
                                   "note": note.strip(" ()")}
            if (threshold is not None and not note and
                    ratio > 1 + threshold / 100.0):
                slower.append("%s is %.1f%% %s than %s on %s" %
                              (k, (ratio - 1) * 100,
                               "larger" if metric.startswith("buffer_") else "slower",
                               base, label))
        rows.append((metric, row))
    if not rows:
        die("runs.tsv: no workload of the baseline '%s' to compare" % base)

    head = ["workload (%s)" % mode.split(" (")[0]] + \
        ["%s (baseline)" % base] + ["%s, ratio to %s" % (k, base) for k in kernels[1:]]
    reps = max(len(v) for v in vals.values())
    md = ["Mode: %s. Median [min-max] of %d repetition(s), interleaved." % (mode, reps), "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(r) + " |" for _, r in rows]
    verdict = "no threshold given"
    if threshold is not None:
        verdict = ("FAIL: " + "; ".join(slower)) if slower else \
            "PASS: no kernel is more than %g%% slower than %s" % (threshold, base)
        md += ["", "Threshold %g%%: %s" % (threshold, verdict)]
    open(os.path.join(out, "report.md"), "w").write("\n".join(md) + "\n")
    with open(os.path.join(out, "compare.json"), "w") as f:
        json.dump({"mode": mode, "baseline": base, "kernels": kernels,
                   "repetitions": reps, "threshold": threshold,
                   "verdict": "none" if threshold is None else "FAIL" if slower else "PASS",
                   "slower": slower, "workloads": table}, f, indent=1)
        f.write("\n")
    print("\n".join(md))

    # The chart: each kernel's median relative to the baseline, per workload.
    dat = os.path.join(out, "bench.dat")
    with open(dat, "w") as f:
        f.write("workload " + " ".join(kernels) + "\n")
        for metric, _ in rows:
            bmed = statistics.median(vals[(base, metric)])
            f.write(metric.replace("stress_", "").replace("_ns", "")
                    .replace("rbbench_per_entry", "rbbench").replace("_", "-"))
            for k in kernels:
                v = vals.get((k, metric))
                f.write(" %.3f" % (statistics.median(v) / bmed if v and bmed else 0))
            f.write("\n")
    plot = ['set terminal png size 1100,500', 'set output "%s"' % os.path.join(out, "bench.png"),
            'set title "Time (and bytes) per event relative to %s (%s)"' % (
                base, mode.split(" (")[0]),
            'set style data histograms', 'set style histogram clustered gap 1',
            'set style fill solid 0.8 border -1', 'set xtics rotate by -30', 'set grid ytics',
            'set key outside right', 'set yrange [0:*]',
            'plot ' + ", ".join('"%s" using %d:xtic(1) title columnheader' % (dat, i + 2)
                                for i in range(len(kernels)))]
    try:
        subprocess.run(["gnuplot"], input="\n".join(plot), text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except (OSError, subprocess.CalledProcessError) as e:
        print("bench-compare: no chart (gnuplot: %s)" % e)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
