#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: plot: deltas.png is drawn for any result, even one with no delta above 0
#
# A legacy soak stops at its first violation: its pairs may hold only delta 0
# (the signature itself) or none at all, and a log axis has no 0.  Each such
# result must still get its picture, and a missing result.json must not.
. "$(dirname "$0")/../lib.sh"
plot=$TOP/images/plot-deltas.sh

# result NAME PAIRS-JSON
result() {
	mkdir -p "$tmp/$1"
	printf '{"events":10,"verdict":"FAIL","pairs":[%s]}\n' "$2" > "$tmp/$1/result.json"
}
pair() { printf '{"inner":"%s","outer":"normal","count":%s,"histogram":[%s]}' "$1" "$2" "$3"; }

result mixed "$(pair irq 3 '{"le_ns":0,"count":3}'),$(pair nmi 1 '{"le_ns":81919,"count":1}')"
result zero-only "$(pair irq 3 '{"le_ns":0,"count":3}')"
result none ""
for r in mixed zero-only none; do
	rc=0
	"$plot" "$tmp/$r" > "$tmp/$r.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] && [ -s "$tmp/$r/deltas.png" ] && ok "$r: deltas.png drawn (exit 0)" ||
		not_ok "$r: deltas.png drawn (exit $rc: $(tail -n1 "$tmp/$r.log"))"
done
grep -q '^1 3$' "$tmp/zero-only/deltas.dat" && ok "delta 0 is plotted (at x = 1, labelled 0)" ||
	not_ok "delta 0 is plotted (at x = 1, labelled 0)"

mkdir -p "$tmp/empty"
rc=0
"$plot" "$tmp/empty" > "$tmp/empty.log" 2>&1 || rc=$?
[ "$rc" != 0 ] && [ "$(wc -l < "$tmp/empty.log")" = 1 ] && grep -q "no result.json" "$tmp/empty.log" &&
	ok "no result.json: one line saying so, exit $rc" || not_ok "no result.json: one line saying so (exit $rc)"
