#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the real rbcheck on real failing captures: the legacy control's kept sub-buffers FAIL nested-delta and own-clock with their counts, and a stamp seeded 1 ns past its own clock read FAILs own-clock alone
#
# Every other capture fixture is a PASS.  legacy-raw/ is what a legacy
# soak kept at its first violation (images/tests/data/README.md); the
# seeded capture is made here from raw/, one event's clock field set to
# its stamp - 1.  Asserted on the JSON report.
. "$(dirname "$0")/../lib.sh"
rb=$CHECKOUT/rbcheck

# rules JSON: "rule:verdict:violations ..." in the report's order
rules() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["verdict"], d["events"], " ".join("%s:%s:%d" % (r["rule"], r["verdict"], r["violations"])
                                           for r in d["rules"] + d["generic"]["rules"]))' "$1" 2>&1
}

# judged NAME DIR WANT WHAT: rbcheck verify DIR exits 1 with the rules WANT
judged() {
	local rc=0 got
	"$rb" verify "$2" --json "$tmp/$1.json" > "$tmp/$1.txt" 2>&1 || rc=$?
	got=$(rules "$tmp/$1.json")
	[ "$rc" = 1 ] && [ "$got" = "$3" ] && ok "$4" || not_ok "$4: exit $rc, '$got', expected '$3'"
}

judged legacy "$FIXTURES/legacy-raw" \
	"FAIL 1288 monotonic:PASS:0 nested-delta:FAIL:252 own-clock:FAIL:282 A-C:PASS:0 sequence:PASS:0 counters:SKIP:0 order:PASS:0 distinct:SKIP:0 subbuf-stamp:PASS:0" \
	"legacy control: exit 1, nested-delta FAIL 252 and own-clock FAIL 282 of 1288 events, the rest PASS"
grep -q "irq#2 reserved inside normal#1's window but is stamped 721 ns before that window's clock read: the same time stamp (delta 0)" \
	"$tmp/legacy.txt" && ok "legacy control: the first example is the nested zero delta the seed removed" ||
	not_ok "legacy control: the first nested-delta example: $(grep -m1 'reserved inside' "$tmp/legacy.txt")"

cp -r "$FIXTURES/raw" "$tmp/seeded"
python3 - "$tmp/seeded/cpu0.raw" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
# record length (4), sub-buffer time stamp (8) and commit (8), the first
# event's header (4, delta 0): its payload; the clock field at offset 8
ts = struct.unpack_from('<Q', b, 4)[0]
struct.pack_into('<Q', b, 4 + 16 + 4 + 8, ts - 1)
open(sys.argv[1], 'wb').write(b)
PY
judged seeded "$tmp/seeded" \
	"FAIL 5280 monotonic:PASS:0 nested-delta:PASS:0 own-clock:FAIL:1 A-C:PASS:0 sequence:PASS:0 counters:SKIP:0 order:PASS:0 distinct:SKIP:0 subbuf-stamp:PASS:0" \
	"seeded: a stamp 1 ns after its own clock read FAILs own-clock alone (exit 1)"
grep -q "cpu0: time stamp is 1 ns after the clock read in TP_fast_assign" "$tmp/seeded.txt" &&
	ok "seeded: the example says by how much and where the clock was read" ||
	not_ok "seeded: the example: $(grep -m1 'cpu0: time stamp' "$tmp/seeded.txt")"
