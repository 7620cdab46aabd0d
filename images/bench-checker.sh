#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How fast is rbcheck against trace-cmd report, and report --ts-check (its
# only time stamp check: never backwards), on the same large trace.dat?
# All read the whole file; rbcheck also verifies every rule.  Repetitions
# are interleaved (report, verify, report, verify, ...) so that a noisy
# moment of this shared machine hits both; medians and spread are printed,
# and the peak memory of each.
#
# usage: images/bench-checker.sh TRACE.DAT OUT-DIR [REPS]
set -euo pipefail
. "$(dirname "$0")/common.sh"

dat=${1:?usage: bench-checker.sh TRACE.DAT OUT-DIR [REPS]}
out=${2:?usage: bench-checker.sh TRACE.DAT OUT-DIR [REPS]}
reps=${3:-3}
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (apt-get install time)"
mkdir -p "$out"

# trace-cmd record compresses (file version 7, zstd) when it can; libtracecmd
# then decompresses every CPU's data in memory.  The same trace converted to
# an uncompressed version 6 file shows what the reading costs without that.
raw=${dat%.dat}-v6.dat
if [ ! -s "$raw" ] || [ "$raw" -ot "$dat" ]; then
	trace-cmd convert -i "$dat" -o "$raw" --file-version 6 --compression none > /dev/null 2>&1 ||
		die "trace-cmd convert to an uncompressed file failed"
fi

events=$("$CHECKOUT/rbcheck" verify "$dat" --json - 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])' || echo 0)
say "bench checker: $(du -h "$dat" | cut -f1) trace.dat (compressed; $(du -h "$raw" | cut -f1) uncompressed), $events rbstress events, $reps repetitions each"

# One timed run: prints "seconds max-rss-kb".
timed() { /usr/bin/time -f '%e %M' -o "$out/.time" "$@" > /dev/null 2>&1 || true; cat "$out/.time"; }

: > "$out/runs.txt"
for i in $(seq "$reps"); do
	echo "report zstd $(timed trace-cmd report "$dat")" >> "$out/runs.txt"
	echo "tscheck zstd $(timed trace-cmd report --ts-check "$dat")" >> "$out/runs.txt"
	echo "rbcheck zstd $(timed "$CHECKOUT/rbcheck" verify "$dat")" >> "$out/runs.txt"
	echo "report none $(timed trace-cmd report "$raw")" >> "$out/runs.txt"
	echo "tscheck none $(timed trace-cmd report --ts-check "$raw")" >> "$out/runs.txt"
	echo "rbcheck none $(timed "$CHECKOUT/rbcheck" verify "$raw")" >> "$out/runs.txt"
	say "  repetition $i: $(tail -n6 "$out/runs.txt" | tr '\n' ' ')"
done

python3 - "$out/runs.txt" "$events" "$out/report.md" <<'PY'
import statistics, sys
runs, events, md = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t, m = {}, {}
for line in open(runs):
    tool, comp, secs, rss = line.split()
    t.setdefault((tool, comp), []).append(float(secs))
    m.setdefault((tool, comp), []).append(int(rss))
text = ["| file | tool | median s | min-max s | M events/s | peak RSS MiB |",
        "|---|---|---|---|---|---|"]
ratios = []
for comp, fname in (("zstd", "version 7, zstd (as recorded)"), ("none", "version 6, uncompressed")):
    for tool, name in (("report", "trace-cmd report"),
                       ("tscheck", "trace-cmd report --ts-check"), ("rbcheck", "rbcheck verify")):
        v = t[(tool, comp)]
        med = statistics.median(v)
        text.append("| %s | %s | %.2f | %.2f-%.2f | %.2f | %d |" % (
            fname, name, med, min(v), max(v), events / med / 1e6 if med else 0,
            max(m[(tool, comp)]) // 1024))
    ratios.append("%.1fx (--ts-check: %.1fx) on the %s file" % (
        statistics.median(t[("report", comp)]) / statistics.median(t[("rbcheck", comp)]),
        statistics.median(t[("tscheck", comp)]) / statistics.median(t[("rbcheck", comp)]), fname))
text += ["", "rbcheck verify (every rule, the rules over every event too) against trace-cmd "
         "report and report --ts-check (time never goes back), %d events, in one run, "
         "interleaved: %s (target: >= 10x)." % (events, "; ".join(ratios))]
open(md, "w").write("\n".join(text) + "\n")
print("\n".join(text))
PY
