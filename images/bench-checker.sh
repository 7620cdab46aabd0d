#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How fast is rbcheck against trace-cmd report on the same large trace.dat?
# Both read the whole file; rbcheck also verifies every rule.  Repetitions
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

events=$("$CHECKOUT/rbcheck" verify "$dat" --json - 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])' || echo 0)
say "bench checker: $(du -h "$dat" | cut -f1) trace.dat, $events rbstress events, $reps repetitions each"

# One timed run: prints "seconds max-rss-kb".
timed() { /usr/bin/time -f '%e %M' -o "$out/.time" "$@" > /dev/null 2>&1 || true; cat "$out/.time"; }

: > "$out/runs.txt"
for i in $(seq "$reps"); do
	echo "report $(timed trace-cmd report "$dat")" >> "$out/runs.txt"
	echo "rbcheck $(timed "$CHECKOUT/rbcheck" verify "$dat")" >> "$out/runs.txt"
	say "  repetition $i: $(tail -n2 "$out/runs.txt" | tr '\n' ' ')"
done

python3 - "$out/runs.txt" "$events" "$out/report.md" <<'PY'
import statistics, sys
runs, events, md = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = {"report": [], "rbcheck": []}
m = {"report": [], "rbcheck": []}
for line in open(runs):
    tool, secs, rss = line.split()
    t[tool].append(float(secs)); m[tool].append(int(rss))
rows = []
for tool, name in (("report", "trace-cmd report"), ("rbcheck", "rbcheck verify")):
    med = statistics.median(t[tool])
    rows.append("| %s | %.2f | %.2f-%.2f | %.0f | %d |" % (
        name, med, min(t[tool]), max(t[tool]),
        events / med / 1e6 if med else 0, max(m[tool]) // 1024))
ratio = statistics.median(t["report"]) / statistics.median(t["rbcheck"])
text = ["| tool | median s | min-max s | M events/s | peak RSS MiB |",
        "|---|---|---|---|---|"] + rows + [
        "", "rbcheck verify is %.1fx faster than trace-cmd report on %d events "
        "(target: >= 10x); both in one run, interleaved." % (ratio, events)]
open(md, "w").write("\n".join(text) + "\n")
print("\n".join(text))
PY
