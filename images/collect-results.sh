#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the host adds to a guest's results before the verdict: the drained
# sub-buffers of a guest without a checker (job drain: i386) verified
# here, the guest's trace.dat verified offline (offline.json), the live
# run's own sub-buffers verified again (offline-raw.json).  Prints the
# checker's summary for people.  Decides nothing: images/verdict.py does,
# from these files.
#
# usage: images/collect-results.sh RESULTS-DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: collect-results.sh RESULTS-DIR}
[ -f "$out/job-exit" ] || exit 0	# the guest died: verdict.py reads its console
# The guest's event filter (rbts.discard): which seq gaps it made.
filter=()
[ -s "$out/filter-seq-mask" ] && filter=(--filter-seq-mask "$(cat "$out/filter-seq-mask")")

# A guest without a checker (job drain: i386) brought its sub-buffers back
# (its 'job-exit' says "drained"): the host verifies them, with the guest's
# long size and byte order, and its exit status, in 'drain-verify-exit'
# (the guest's file is the guest's), is the checker's word for the run.
if [ "$(cat "$out/job-exit")" = drained ]; then
	rc=0
	"$CHECKOUT/rbcheck" verify --require-nested "${filter[@]}" --ktap "$out/result.ktap" \
		--json "$out/result.json" "$out/drain" > "$out/summary.txt" 2> "$out/verify.err" || rc=$?
	if [ "$rc" -ge 2 ]; then
		echo "rbcheck verify ${out#$TOP/}/drain: $(head -n1 "$out/verify.err")" > "$out/error.txt"
	fi
	echo "$rc" > "$out/drain-verify-exit"
	echo "(the guest's sub-buffers, verified on the host: $(sed -n 's/^machine //p' "$out/drain/meta"), long size $(sed -n 's/^long_size //p' "$out/drain/meta"))"
fi
[ -f "$out/summary.txt" ] && cat "$out/summary.txt"
for tap in "$out"/*.tap; do [ -f "$tap" ] && cat "$tap"; done

if [ -s "$out/trace.dat" ]; then
	"$CHECKOUT/rbcheck" verify "$out/trace.dat" --json "$out/offline.json" > "$out/offline.txt" 2>&1 || true
fi
if [ -d "$out/raw" ]; then
	"$CHECKOUT/rbcheck" verify "${filter[@]}" "$out/raw" --json "$out/offline-raw.json" > "$out/offline-raw.txt" 2>&1 || true
fi
exit 0
