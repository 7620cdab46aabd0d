#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck on 6.12 captures: a trace-cmd capture and a raw capture of 16 KiB sub-buffers verify; the latter cut or with a bad size is refused, with where
#
# The committed fixtures of images/tests/data/6.12/ (its README says how they
# were made), so that the offline readers are tested on the second line
# without a boot.  Asserted on rbcheck's JSON, not its text.
. "$(dirname "$0")/../lib.sh"
rbcheck=$CHECKOUT/rbcheck
d=$FIXTURES/6.12
field() {	# JSON KEY.KEY...
	python3 - "$@" <<'PY' 2>/dev/null
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    v = v[k]
print(v)
PY
}

rc=0; "$rbcheck" verify "$d/trace.dat" --json "$tmp/dat.json" > "$tmp/dat.out" 2>&1 || rc=$?
[ "$rc" = 0 ] && [ "$(field "$tmp/dat.json" verdict)" = PASS ] && [ "$(field "$tmp/dat.json" events)" = 3183 ] &&
	ok "6.12 trace.dat: PASS, 3183 rbstress events" ||
	not_ok "6.12 trace.dat: exit $rc, $(field "$tmp/dat.json" verdict), $(field "$tmp/dat.json" events) events"

rc=0; "$rbcheck" verify "$d/raw-16k" --json "$tmp/raw.json" > "$tmp/raw.out" 2>&1 || rc=$?
[ "$rc" = 0 ] && [ "$(field "$tmp/raw.json" verdict)" = PASS ] && [ "$(field "$tmp/raw.json" events)" = 3260 ] &&
	ok "6.12 raw capture of 16 KiB sub-buffers: PASS, 3260 events" ||
	not_ok "6.12 raw capture: exit $rc, $(field "$tmp/raw.json" verdict), $(field "$tmp/raw.json" events) events"
[ "$(field "$tmp/raw.json" records.subbuf_size)" = 16384 ] && [ "$(field "$tmp/raw.json" records.subbufs)" = 20 ] &&
	ok "6.12 raw capture: 20 sub-buffers of 16384 bytes walked" ||
	not_ok "6.12 raw capture: $(field "$tmp/raw.json" records.subbufs) sub-buffers of $(field "$tmp/raw.json" records.subbuf_size) bytes"

[ "$(field "$tmp/raw.json" entries_left)" = None ] &&
	ok "6.12 raw capture without stats: entries_left is null (not known, not 0)" ||
	not_ok "6.12 raw capture without stats: entries_left $(field "$tmp/raw.json" entries_left)"

# The kernel still holding events after the last drain (the stats rbdrain
# keeps): events lost with no loss report, said in the JSON and the summary.
cp -r "$d/raw-16k" "$tmp/left"
printf 'entries: 2\noverrun: 0\ndropped events: 0\n' > "$tmp/left/cpu0.stats-after"
printf 'entries: 0\noverrun: 0\ndropped events: 0\n' > "$tmp/left/cpu1.stats-after"
"$rbcheck" verify "$tmp/left" --json "$tmp/left.json" > "$tmp/left.out" 2>&1
[ "$(field "$tmp/left.json" entries_left)" = "[2, 0]" ] && grep -q "NOTE: cpu0: after the last drain.* 2 event(s)" "$tmp/left.out" &&
	ok "events the kernel still holds after the drain: entries_left [2, 0] and a NOTE for cpu0" ||
	not_ok "entries_left: $(field "$tmp/left.json" entries_left)"

# Cut in the middle of its last 16 KiB sub-buffer: refused, saying where --
# by meta's byte count, and, in an older capture without one, by the walk.
cp -r "$d/raw-16k" "$tmp/cut" && truncate -s -5000 "$tmp/cut/cpu1.raw"
rc=0; err=$("$rbcheck" verify "$tmp/cut" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -qE "cpu1.raw: truncated: [0-9]+ bytes, meta says 163200" &&
	ok "a 16 KiB raw capture cut mid sub-buffer: exit 2, short of meta's byte count" ||
	not_ok "a 16 KiB raw capture cut mid sub-buffer: exit $rc: $err"
sed -i '/^cpus \|_bytes /d' "$tmp/cut/meta"
rc=0; err=$("$rbcheck" verify "$tmp/cut" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -qE "cpu1.raw: truncated: sub-buffer [0-9]+" &&
	ok "the same cut without meta's sizes: exit 2, the sub-buffer it ends in" ||
	not_ok "a 16 KiB raw capture cut mid sub-buffer, no sizes: exit $rc: $err"

# Its meta claiming 4 KiB sub-buffers: the 16 KiB records do not fit.
cp -r "$d/raw-16k" "$tmp/small" && sed -i 's/^page_size 16384$/page_size 4096/' "$tmp/small/meta"
rc=0; err=$("$rbcheck" verify "$tmp/small" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q "cpu0.raw" && echo "$err" | grep -q "4096 bytes at most" &&
	ok "a capture whose sub-buffers exceed meta's page_size: exit 2, says which" ||
	not_ok "sub-buffers larger than meta's page_size: exit $rc: $err"
