#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A PNG of the nested deltas of a run: one histogram line per context pair
# (inner in outer), from result.json, with gnuplot.
#
# usage: images/plot-deltas.sh RESULTS-DIR     writes RESULTS-DIR/deltas.png
#        (a faults run: RESULTS-DIR/faults/SCENARIO/deltas.png, each)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: plot-deltas.sh RESULTS-DIR}
if [ ! -s "$out/result.json" ] && compgen -G "$out/faults/*/result.json" > /dev/null; then
	# a faults run (soak --faults) has a result per scenario
	rc=0
	for json in "$out"/faults/*/result.json; do
		"$0" "$(dirname "$json")" || rc=$?
	done
	exit $rc
fi
json=$out/result.json
[ -s "$json" ] || die "$json: no result.json to plot"
command -v gnuplot > /dev/null || die "gnuplot is missing (apt-get install gnuplot-nox)"

python3 - "$json" "$out/deltas.dat" <<'PY' > "$out/deltas.plot"
import json, sys
d = json.load(open(sys.argv[1]))
# A log axis has no 0, yet delta 0 is the one bucket that matters most
# (the pre-2020 nested signature): it is drawn at x = 1 and labelled "0".
blocks, titles = [], []
for p in d["pairs"]:
    blocks.append("\n".join("%d %d" % (max(b["le_ns"], 1), b["count"]) for b in p["histogram"] if b["count"] > 0))
    titles.append("%s in %s (%d)" % (p["inner"], p["outer"], p["count"]))
open(sys.argv[2], "w").write("\n\n\n".join(blocks) + "\n")
print('set terminal png size 1000,600')
print('set output "%s/deltas.png"' % sys.argv[1].rsplit("/", 1)[0])
print('set title "Nested events: delta to the outer event (%d events, verdict %s)"' % (d["events"], d["verdict"]))
if not any(blocks):
    # a run that stopped before any nested event still gets its picture
    print('set label "no nested events recorded" at graph 0.5, 0.5 center')
    print('plot [0:1] [0:1] NaN notitle')
    sys.exit(0)
print('set logscale x; set logscale y; set xlabel "delta, ns (log; 0 drawn at 1)"; set ylabel "events per bucket"')
print('set xtics add ("0" 1); set xrange [0.5:*]; set yrange [0.5:*]; set pointsize 1.5')
print('set key outside right; set grid')
print("plot " + ", ".join('"%s" index %d with linespoints title "%s"' % (sys.argv[2], i, t)
                          for i, t in enumerate(titles) if blocks[i]))
PY
gnuplot "$out/deltas.plot"
say "plot: ${out#$TOP/}/deltas.png"
