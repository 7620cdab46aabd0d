#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbdrain (the i386 guest's drainer) on the host, against a tracefs
# look-alike made from a real raw capture: it must copy every sub-buffer
# so that rbcheck verify sees the same events; a cut page and bad options
# are refused with one line; and the path counters it keeps reach the
# counters rule offline (a capture whose counters claim more A-C paths
# than the events show FAILs).
#
# usage: test_rbdrain.sh RBDRAIN RBCHECK RAW-DIR      output: TAP lines
set -u
rbdrain=$1 rbcheck=$2 raw=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }

# usage NAME PATTERN ARGS...: exit 2, one line on stderr matching PATTERN
usage_case() {
	local name=$1 pattern=$2 rc
	shift 2
	"$rbdrain" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "$pattern" "$tmp/err" && [ "$(grep -vc 'see .*--help' "$tmp/err")" = 1 ]; then
		ok "$name"
	else
		not_ok "$name: exit $rc: $(head -c 200 "$tmp/err")"
	fi
}
usage_case "no options: says what is required" "--instance, --duration and --out are required"
usage_case "--duration 0 is refused" "--duration must be 1 to 1000000 seconds, not '0'" -i x -o "$tmp/o" -d 0
usage_case "--duration abc is refused" "not 'abc'" -i x -o "$tmp/o" -d abc
usage_case "--event without a system is refused" "--event takes SYSTEM/NAME" -e foo -i x -o "$tmp/o" -d 1
usage_case "an unknown option is refused" "unrecognized option|see" --frob
usage_case "a missing instance names where it looked" "$tmp/no-tracefs/instances/x: no such tracefs instance" \
	-t "$tmp/no-tracefs" -i x -o "$tmp/o" -d 1

# A 32-bit guest's capture (tests/data/i386-raw: two sub-buffers of the
# i386 soak and an empty one, 12 bytes with a 4-byte commit word): read with
# the capture's long size, not the host's.
rc=0
"$rbcheck" verify "$here/data/i386-raw" > "$tmp/i386.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -q "verdict PASS" "$tmp/i386.txt" &&
	ok "an i386 capture with an empty 12-byte sub-buffer verifies (4-byte longs)" ||
	not_ok "an i386 capture with an empty sub-buffer: exit $rc: $(tail -n1 "$tmp/i386.txt")"

if [ -z "$raw" ] || [ ! -s "$raw/meta" ]; then
	not_ok "drains a made-up tracefs: no raw capture given (usage: RBDRAIN RBCHECK RAW-DIR)"
	exit 0
fi
fake=$tmp/tracefs
"$here/make-fake-tracefs.py" "$raw" "$fake" rbstress || { not_ok "make the tracefs look-alike"; exit 0; }
rc=0
"$rbdrain" -t "$fake" -i rbstress -d 1 -p 0 -o "$tmp/cap" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ "$rc" = 0 ] && ok "drains every CPU of a tracefs look-alike (exit 0)" || not_ok "drains (exit $rc: $(head -c 200 "$tmp/err"))"
[ "$(cat "$fake/instances/rbstress/tracing_on")" = 0 ] && ok "it turned the instance's tracing off at the end" ||
	not_ok "it turned the instance's tracing off at the end"
"$rbcheck" verify "$raw" > "$tmp/src.txt" 2>&1
"$rbcheck" verify "$tmp/cap" > "$tmp/cap.txt" 2>&1
rc=$?
src=$(grep -o '[0-9]* rbstress events' "$tmp/src.txt")
got=$(grep -o '[0-9]* rbstress events' "$tmp/cap.txt")
[ -n "$src" ] && [ "$src" = "$got" ] && ok "rbcheck verify sees the same events in the drained capture: $got" ||
	not_ok "the same events in the drained capture: ${got:-none} vs ${src:-none}"
grep -q "verdict PASS" "$tmp/src.txt" && [ "$rc" = 0 ] && ok "and the same verdict (PASS)" ||
	not_ok "the same verdict: exit $rc: $(tail -n1 "$tmp/cap.txt")"
grep -q "^  time stamp path (kernel)" "$tmp/cap.txt" && ok "the capture's path counters reach the coverage table" ||
	not_ok "the capture's path counters reach the coverage table"
grep -q "^machine $(uname -m)$" "$tmp/cap/meta" && ok "meta names the machine" || not_ok "meta names the machine"
# the instance's trace_clock says "[local]": a reader judges by it
grep -q "^trace_clock local$" "$tmp/cap/meta" && ok "meta names the instance's trace clock (local)" ||
	not_ok "meta names the instance's trace clock: '$(grep trace_clock "$tmp/cap/meta")'"
# What a reader checks completeness against: the CPU count, each CPU's bytes.
want="cpus 2"
for c in 0 1; do want="$want cpu${c}_bytes $(stat -c %s "$tmp/cap/cpu$c.raw" 2>/dev/null)"; done
got=$(grep -E "^(cpus|cpu[0-9]+_bytes) " "$tmp/cap/meta" | tr '\n' ' ')
[ "$got" = "$want " ] && ok "meta has the CPU count and each CPU file's size: $want" ||
	not_ok "meta has the CPU count and each CPU file's size: '$got', expected '$want'"

# Counters that claim 10^9 A-C paths on CPU 0: more than the events show.
cp -r "$tmp/cap" "$tmp/lie"
sed -i 's/^ts path A-C: .*/ts path A-C: 1000000000/' "$tmp/lie/cpu0.stats-after"
rc=0
"$rbcheck" verify "$tmp/lie" > "$tmp/lie.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -qE "^ +counters +FAIL" "$tmp/lie.txt" &&
	ok "offline counters rule: more A-C paths than interrupted events FAILs" ||
	not_ok "offline counters rule FAILs on made-up counters (exit $rc)"

# A trace_pipe_raw that ends in the middle of a page.
truncate -s -100 "$fake/instances/rbstress/per_cpu/cpu0/trace_pipe_raw"
echo 1 > "$fake/instances/rbstress/tracing_on"
rc=0
"$rbdrain" -t "$fake" -i rbstress -d 1 -p 0 -o "$tmp/cut" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "per_cpu/cpu0/trace_pipe_raw: read [0-9]* bytes, not a sub-buffer" "$tmp/err" &&
	[ "$(wc -l < "$tmp/err")" = 1 ] && ok "a cut page: exit 1, one line naming the CPU" ||
	not_ok "a cut page: exit $rc: $(head -c 200 "$tmp/err")"

# --stream: every CPU's records in one file (the guest's third disk), cut
# by the host at meta's stream_bytes; rbcheck reads it as stream.raw.
"$here/make-fake-tracefs.py" "$raw" "$tmp/tracefs2" rbstress
truncate -s 1G "$tmp/disk.img"
rc=0
"$rbdrain" -t "$tmp/tracefs2" -i rbstress -d 1 -p 0 -o "$tmp/scap" --stream "$tmp/disk.img" \
	> "$tmp/out" 2> "$tmp/err" || rc=$?
bytes=$(sed -n 's/^stream_bytes //p' "$tmp/scap/meta" 2>/dev/null)
if [ "$rc" = 0 ] && [ -n "$bytes" ] && ! ls "$tmp/scap"/cpu*.raw > /dev/null 2>&1; then
	ok "--stream: one stream of $bytes bytes, no cpuN.raw"
else
	not_ok "--stream: exit $rc, stream_bytes '${bytes:-none}': $(head -c 200 "$tmp/err")"
fi
truncate -s "${bytes:-0}" "$tmp/disk.img" && mv "$tmp/disk.img" "$tmp/scap/stream.raw"
"$rbcheck" verify "$tmp/scap" > "$tmp/scap.txt" 2>&1
rc=$?
got=$(grep -o '[0-9]* rbstress events' "$tmp/scap.txt")
[ "$rc" = 0 ] && [ "$got" = "$src" ] && ok "the stream verifies to the same events and verdict: $got" ||
	not_ok "the stream verifies to the same events: exit $rc, ${got:-none} vs $src"
cp -r "$tmp/scap" "$tmp/smeta" && sed -i 's/^cpu0_bytes .*/cpu0_bytes 8/' "$tmp/smeta/meta"
rc=0
"$rbcheck" verify "$tmp/smeta" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "stream.raw: cpu0's records hold [0-9]* bytes, meta says 8" "$tmp/err" &&
	ok "a stream whose CPU's records do not add up to meta's count: exit 2, says which CPU" ||
	not_ok "a stream whose records do not add up to meta: exit $rc: $(head -c 200 "$tmp/err")"
sed -i 's/^cpus .*/cpus 1/; /^cpu1_bytes/d' "$tmp/smeta/meta"
sed -i "s/^cpu0_bytes .*/$(grep '^cpu0_bytes' "$tmp/scap/meta")/" "$tmp/smeta/meta"
rc=0
"$rbcheck" verify "$tmp/smeta" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "stream.raw: byte [0-9]*: a record of cpu1, but meta says 1 CPU" "$tmp/err" &&
	ok "a stream record of a CPU meta does not name: exit 2, says where" ||
	not_ok "a stream record of a CPU meta does not name: exit $rc: $(head -c 200 "$tmp/err")"
head -c $(( ${bytes:-8} - 8 )) "$tmp/scap/stream.raw" > "$tmp/cut.raw" && mv "$tmp/cut.raw" "$tmp/scap/stream.raw"
rc=0
"$rbcheck" verify "$tmp/scap" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "stream.raw: truncated at byte [0-9]*: no end record" "$tmp/err" &&
	ok "a stream without its end record: exit 2, says where" ||
	not_ok "a stream without its end record: exit $rc: $(head -c 200 "$tmp/err")"
printf '\007\000\000\000\377\377\000\000' > "$tmp/scap/stream.raw"
rc=0
"$rbcheck" verify "$tmp/scap" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "stream.raw: byte 0: not a record (cpu 7, length 65535" "$tmp/err" &&
	ok "a stream record longer than a sub-buffer: exit 2, says where" ||
	not_ok "a stream record longer than a sub-buffer: exit $rc: $(head -c 200 "$tmp/err")"
"$rbdrain" -t "$tmp/tracefs2" -i rbstress -d 1 -p 0 -o "$tmp/x" --stream "$tmp/no/such/disk" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q -- "--stream $tmp/no/such/disk: No such file" "$tmp/err" &&
	ok "--stream to a missing file: exit 1, names it" || not_ok "--stream to a missing file: exit $rc: $(cat "$tmp/err")"

# A writer still in flight when tracing_on is cleared: its page is there
# 0.3 s later (cpu0's last sub-buffer appended, its stats moved).  The
# capture has it when rbdrain waits for 1.5 s of quiet; it does not when
# it stops at the first empty read (--quiet-ms 0: the drain before).
psize=$(sed -n 's/^page_size //p' "$raw/meta")
late_writer() {	# late_writer TRACEFS: hold back cpu0's last page until tracing is off
	local cpu0=$1/instances/rbstress/per_cpu/cpu0 i
	tail -c "$psize" "$cpu0/trace_pipe_raw" > "$tmp/late.page"
	truncate -s "-$psize" "$cpu0/trace_pipe_raw"
	(
		for i in $(seq 3000); do
			grep -q '^0' "$1/instances/rbstress/tracing_on" && break
			sleep 0.01
		done
		sleep 0.3
		cat "$tmp/late.page" >> "$cpu0/trace_pipe_raw"
		echo "entries: 1" >> "$cpu0/stats"
	) &
}
for quiet in 1500 0; do
	"$here/make-fake-tracefs.py" "$raw" "$tmp/tracefs-$quiet" rbstress
	late_writer "$tmp/tracefs-$quiet"
	rc=0
	"$rbdrain" -t "$tmp/tracefs-$quiet" -i rbstress -d 1 -p 0 -q "$quiet" -o "$tmp/late-$quiet" \
		> /dev/null 2> "$tmp/err" || rc=$?
	wait
	"$rbcheck" verify "$tmp/late-$quiet" > "$tmp/late-$quiet.txt" 2>&1
	got=$(grep -o '[0-9]* rbstress events' "$tmp/late-$quiet.txt")
	if [ "$quiet" != 0 ]; then
		[ "$rc" = 0 ] && [ -n "$got" ] && [ "$got" = "$src" ] &&
			grep -q "^entries: 1" "$tmp/late-$quiet/cpu0.stats-after" &&
			ok "a page committed 0.3 s after tracing was off is read (--quiet-ms $quiet): $got" ||
			not_ok "a page committed late is read: exit $rc, ${got:-none} vs $src: $(head -c 200 "$tmp/err")"
	else
		[ "$rc" = 0 ] && [ -n "$got" ] && [ "$got" != "$src" ] &&
			ok "without waiting for quiet it is missed ($got of $src): the test can fail" ||
			not_ok "without waiting for quiet the late page is missed: exit $rc, ${got:-none} vs $src"
	fi
done
usage_case "--quiet-ms 10001 is refused" "--quiet-ms must be 0 to 10000 milliseconds, not '10001'" \
	-i x -o "$tmp/o" -d 1 -q 10001
