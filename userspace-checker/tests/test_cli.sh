#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbcheck's command line and bad input: each case must give one clear line
# on stderr and exit 2, never a crash or a PASS.  On a real trace.dat and
# raw capture (the committed fixtures: a guest run's, with events of
# another system, zstd-compressed) also: they verify, and damaged copies
# are refused.  A tool this needs that fails is a failed case, not a skip.
#
# usage: test_cli.sh RBCHECK TRACE.DAT RAW-DIR     output: TAP lines
set -u
if [ $# != 3 ] || [ ! -s "$2" ] || [ ! -f "$3/meta" ]; then
	echo "usage: test_cli.sh RBCHECK TRACE.DAT RAW-DIR (a trace.dat and a raw capture)" >&2
	exit 2
fi
rbcheck=$1 dat=$2 raw=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# expect NAME STATUS [GREP] -- ARGS...: exit status STATUS, stderr matching GREP
expect() {
	local name=$1 want=$2 pattern=$3 rc
	shift 4
	n=$((n + 1))
	"$rbcheck" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "not ok $n - $name: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/err"; then
		echo "not ok $n - $name: stderr does not match '$pattern': $(head -c 300 "$tmp/err")"
	elif [ "$want" = 2 ] && [ "$(wc -l < "$tmp/err")" != 1 ]; then
		echo "not ok $n - $name: expected one line on stderr, got $(wc -l < "$tmp/err")"
	else
		echo "ok $n - $name"
	fi
}

expect "no command is a usage error" 2 "no command" --
expect "unknown command is a usage error" 2 "unknown command 'frob'" -- frob
expect "a file given as the command says to verify it" 2 "is a file, not a command: rbcheck verify FILE" -- "$0"
expect "unknown option is a usage error" 2 "unknown option '--frob'" -- verify --frob x.dat
expect "an option without its value is a usage error" 2 "needs a value" -- live --duration
expect "bad --duration is a usage error" 2 "--duration 'abc'" -- live --duration abc
expect "bad --quiet-ms is a usage error" 2 "--quiet-ms '10001': a number of milliseconds, 0 to 10000" -- live --quiet-ms 10001
expect "negative --clock-bound-us is a usage error" 2 "clock-bound-us" -- verify -b -5 x.dat
expect "verify without a file is a usage error" 2 "verify takes exactly one" -- verify
expect "verify with two files is a usage error" 2 "exactly one" -- verify a b
expect "missing file names the file" 2 "$tmp/none.dat: No such file" -- verify "$tmp/none.dat"
mkdir "$tmp/dir"
expect "a directory is refused" 2 "is a directory, neither" -- verify "$tmp/dir"
: > "$tmp/empty.dat"
expect "an empty file is refused" 2 "not a trace-cmd data file" -- verify "$tmp/empty.dat"
echo "hello, not a trace" > "$tmp/text.dat"
expect "a text file is refused" 2 "not a trace-cmd data file" -- verify "$tmp/text.dat"
if [ "$(id -u)" != 0 ]; then
	cp "$tmp/text.dat" "$tmp/noread.dat" && chmod 000 "$tmp/noread.dat"
	expect "an unreadable file is refused" 2 "Permission denied" -- verify "$tmp/noread.dat"
fi
n=$((n + 1))
if "$rbcheck" --help | grep -q "exit status: 0 PASS, 1 FAIL, 2"; then
	echo "ok $n - --help documents the exit status"
else
	echo "not ok $n - --help documents the exit status"
fi

expect "a guest trace.dat verifies" 0 "" -- verify "$dat"
n=$((n + 1))
if "$rbcheck" verify "$dat" --json - 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["other_events"] > 0 and d["events"] > 0, (d["other_events"], d["events"])' 2>"$tmp/err"; then
	echo "ok $n - events of other systems are skipped and counted"
else
	echo "not ok $n - events of other systems are skipped and counted: $(tail -n1 "$tmp/err")"
fi
other=$(dirname "$dat")/other.dat
if [ -s "$other" ]; then
	# any capture gets a verdict: the rules over every event, the rbstress
	# ones said not to apply
	n=$((n + 1))
	if "$rbcheck" verify "$other" --json - 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = d["generic"]
assert d["verdict"] == "PASS" and d["events"] == 0, d["verdict"]
assert g["events"] > 0 and not g["rbstress_rules_apply"], g
assert [r["rule"] for r in g["rules"]] == ["order", "distinct", "subbuf-stamp"], g["rules"]
assert [r["verdict"] for r in g["rules"]][:2] == ["PASS", "SKIP"], g["rules"]
assert g["rules"][2]["verdict"] == "PASS" or "hands out events" in g["rules"][2]["skip_reason"], g["rules"][2]' 2>>"$tmp/err"; then
		echo "ok $n - a trace without rbstress events gets the verdict of the rules over every event"
	else
		echo "not ok $n - a trace without rbstress events gets the verdict of the rules over every event: $(tail -n1 "$tmp/err")"
	fi
	n=$((n + 1))
	if "$rbcheck" verify --override-clock counter "$other" --json - 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["generic"]["rules"][1]
assert r["rule"] == "distinct" and r["verdict"] == "PASS" and r["checked"] > 0, r
assert "--override-clock" in d["input_note"] and "global" in d["input_note"], d.get("input_note")' 2>>"$tmp/err"; then
		echo "ok $n - --override-clock counter: the distinct rule is judged, and the report says the file said global"
	else
		echo "not ok $n - --override-clock counter: the distinct rule is judged: $(tail -n1 "$tmp/err")"
	fi
	expect "dump of a capture without rbstress events says there is nothing to show" 2 \
		"other.dat: no rbstress:rbstress_event events: nothing to show" -- dump "$other"
	expect "--trace-clock is an option of verify" 2 "option of verify" -- dump --trace-clock counter "$other"
	expect "--override-clock is an option of verify" 2 "option of verify" -- stacks --override-clock counter "$other"
fi
# One verdict per file: its own clock, whichever reader, whatever -C says.
n=$((n + 1))
clocks=""
for r in auto libtracecmd; do
	clocks="$clocks $("$rbcheck" verify -R "$r" "$dat" --json - 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%s:%s:%s" % (d["generic"]["clock"], d["verdict"], d["events"]))' 2>/dev/null)"
done
if [ "$clocks" = " global:PASS:12921 global:PASS:12921" ]; then
	echo "ok $n - both readers judge by the file's clock (global), with the same verdict and events"
else
	echo "not ok $n - both readers judge by the file's clock: '$clocks'"
fi
expect "-C against the file's own clock is a usage error" 2 \
	"recorded with trace clock 'global', not 'counter'.*--override-clock counter" -- verify -C counter "$dat"
expect "-C naming the file's own clock is accepted" 0 "" -- verify -C global "$dat"
expect "-C with an unknown clock is a usage error" 2 "--trace-clock 'bogusclock': not a trace clock" -- verify -C bogusclock "$dat"
expect "--override-clock with an unknown clock is a usage error" 2 "--override-clock 'x': not a trace clock" -- verify --override-clock x "$dat"
expect "-C and --override-clock together is a usage error" 2 "give one" -- verify -C counter --override-clock counter "$dat"
expect "--override-clock counter on a global capture judges distinct: FAIL" 1 "" -- verify --override-clock counter "$dat"
# The top-level BUFFER option's clock, its 'b' made a quote: not a name.
at=$(grep -obUa 'global' "$dat" | tail -n1 | cut -d: -f1)
cp "$dat" "$tmp/clockname.dat"
printf '"' | dd of="$tmp/clockname.dat" bs=1 seek=$((at + 3)) conv=notrunc status=none
expect "a file whose clock is not a clock's name is refused, with where" 2 \
	"clockname.dat: offset [0-9]+: the trace clock 'glo\"al' is not a clock's name" -- verify "$tmp/clockname.dat"
cp "$dat" "$tmp/version.dat"
# After the magic (3 bytes) and "tracing" comes the format version string.
printf '9' | dd of="$tmp/version.dat" bs=1 seek=10 conv=notrunc status=none
expect "a trace.dat of an unknown format version is refused" 2 "version.dat: trace.dat format version .9. is not 6 or 7" -- verify "$tmp/version.dat"
n=$((n + 1))
if "$rbcheck" verify "$dat" --json - 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "PASS" and d["events"] > 0 and len(d["rules"]) == 6
assert d["generic"]["verdict"] == "PASS" and d["generic"]["rbstress_rules_apply"]' 2>"$tmp/err"; then
	echo "ok $n - --json - is one valid JSON object with the verdict"
else
	echo "not ok $n - --json - is one valid JSON object with the verdict: $(tail -n1 "$tmp/err")"
fi
n=$((n + 1))
"$rbcheck" verify "$dat" --ktap "$tmp/out.ktap" --json "$tmp/out.json" > "$tmp/out.txt" 2>&1
if head -n1 "$tmp/out.ktap" | grep -q "^KTAP version 1$" && grep -q "^1\.\.9$" "$tmp/out.ktap" &&
   ! grep -q "^not ok" "$tmp/out.ktap" && [ -s "$tmp/out.json" ] && grep -q "verdict PASS" "$tmp/out.txt"; then
	echo "ok $n - --ktap FILE --json FILE write both beside the text summary"
else
	echo "not ok $n - --ktap FILE --json FILE write both beside the text summary"
fi
expect "--ktap - and --json - together is a usage error" 2 "cannot both" -- verify --ktap - --json - "$dat"
expect "an unwritable --json file is an error" 2 "/nonexistent/x.json" -- verify --json /nonexistent/x.json "$dat"
n=$((n + 1))
[ ! -s "$tmp/out" ] && echo "ok $n - and it fails before the report is printed (nothing on stdout)" ||
	echo "not ok $n - an unwritable --json file fails before the report: $(wc -l < "$tmp/out") line(s) on stdout"
expect "dump --cpu of a CPU without events is an error" 2 "--cpu 99: no rbstress events on that CPU \(2 CPU\(s\) have some\)" -- dump --cpu 99 "$dat"
expect "dump --cpu 1 shows CPU 1" 0 "" -- dump --cpu 1 "$dat"
n=$((n + 1))
if grep -q "^cpu1 " "$tmp/out" && ! grep -q "^cpu0 " "$tmp/out"; then
	echo "ok $n - dump --cpu 1: only CPU 1's events ($(grep -c '^cpu1 ' "$tmp/out") lines)"
else
	echo "not ok $n - dump --cpu 1: only CPU 1's events: $(head -n3 "$tmp/out")"
fi
size=$(stat -c %s "$dat")
head -c $((size / 2)) "$dat" > "$tmp/half.dat"
expect "a trace.dat cut in half is refused" 2 "half.dat" -- verify "$tmp/half.dat"
head -c 200 "$dat" > "$tmp/head.dat"
expect "a trace.dat cut in its headers is refused" 2 "head.dat" -- verify "$tmp/head.dat"
expect "--reader takes auto or libtracecmd" 2 "--reader 'fast'" -- verify --reader fast "$dat"
# The streamed reader (version 7) and libtracecmd must see the same events.
# Only the streamed reader walks the sub-buffers' records (libtracecmd hands
# out events): its line of them and the sub-buffers' stamps (subbuf-stamp)
# are the differences.
n=$((n + 1))
"$rbcheck" verify --reader auto "$dat" 2>&1 | grep -v "^  in the verified sub-buffers\|subbuf-stamp" > "$tmp/auto.txt"
"$rbcheck" verify --reader libtracecmd "$dat" 2>&1 | grep -v "subbuf-stamp" > "$tmp/lib.txt"
if [ -s "$tmp/auto.txt" ] && cmp -s "$tmp/auto.txt" "$tmp/lib.txt"; then
	echo "ok $n - the streamed reader and libtracecmd give the same report"
else
	echo "not ok $n - the streamed reader and libtracecmd give the same report: $(diff "$tmp/auto.txt" "$tmp/lib.txt" | head -c 300)"
fi
# Damage the first zstd chunk of CPU 0: libtracecmd is not asked, we say where.
off=$(trace-cmd dump --flyrecord "$dat" 2>/dev/null | awk '$1 == "0" && /data offset and size/ { print $2; exit }')
if [ -n "$off" ] && trace-cmd dump --summary "$dat" 2>/dev/null | grep -q "zstd"; then
	cp "$dat" "$tmp/chunk.dat"
	printf 'XXXXXXXXXXXXXXXX' | dd of="$tmp/chunk.dat" bs=1 seek=$((off + 4 + 8 + 8)) conv=notrunc status=none
	expect "a corrupt zstd chunk is refused, with CPU, chunk and offset" 2 "chunk.dat: cpu0: chunk 0 at offset $((off + 4)) does not decompress" -- verify "$tmp/chunk.dat"
	cp "$dat" "$tmp/count.dat"
	printf '\xff\xff\xff\x00' | dd of="$tmp/count.dat" bs=1 seek="$off" conv=notrunc status=none
	expect "a chunk count past the CPU's data is refused, with where" 2 "count.dat: cpu0: chunk [0-9]+ of 16777215 at offset [0-9]+ is past" -- verify "$tmp/count.dat"
else
	echo "not ok $((n + 1)) - corrupt zstd chunks are refused: trace-cmd dump found no zstd chunks of cpu0 in $dat"
	n=$((n + 1))
fi

# Damage inside the ring buffer data itself, where trace-cmd report reads
# on: the same trace uncompressed (trace-cmd convert), then bits flipped in
# a sub-buffer header and in an event header, and the file cut mid-data.
# rbcheck must name the CPU, the sub-buffer and the offset, and exit 2.
plain=$tmp/plain.dat
if trace-cmd convert -i "$dat" -o "$plain" --file-version 7 --compression none >/dev/null 2>&1 &&
   off=$(trace-cmd dump --options "$plain" 2>/dev/null |
	 awk '$1 == "0" && /data offset and size/ { print $2; exit }') && [ -n "$off" ]; then
	n=$((n + 1))
	"$rbcheck" verify "$dat" 2>&1 | sed "s|$dat|FILE|" > "$tmp/orig.txt"
	"$rbcheck" verify "$plain" 2>&1 | sed "s|$plain|FILE|" > "$tmp/plain.txt"
	if [ -s "$tmp/orig.txt" ] && cmp -s "$tmp/orig.txt" "$tmp/plain.txt"; then
		echo "ok $n - the uncompressed copy gives the same report as the original"
	else
		echo "not ok $n - the uncompressed copy gives the same report as the original: $(diff "$tmp/orig.txt" "$tmp/plain.txt" | head -c 300)"
	fi
	page=$((off + 2 * 4096))	# cpu0, sub-buffer 2
	cp "$plain" "$tmp/subbuf.dat"
	printf '\xff\xff\xff\x07' | dd of="$tmp/subbuf.dat" bs=1 seek=$((page + 8)) conv=notrunc status=none
	expect "flipped bits in a sub-buffer header are refused, with where" 2 \
		"subbuf.dat: cpu0 sub-buffer 2: header claims" -- verify "$tmp/subbuf.dat"
	cp "$plain" "$tmp/event.dat"
	# the first event: type_len 0 (length in the next word), length 0x7ff0
	printf '\x00\xf0\x7f\x00\x00' | dd of="$tmp/event.dat" bs=1 seek=$((page + 16)) conv=notrunc status=none
	printf '\x00\x00\x00\x00' | dd of="$tmp/event.dat" bs=1 seek=$((page + 16)) conv=notrunc status=none
	printf '\xf0\x7f\x00\x00' | dd of="$tmp/event.dat" bs=1 seek=$((page + 20)) conv=notrunc status=none
	expect "flipped bits in an event header are refused, with where" 2 \
		"event.dat: cpu0 sub-buffer 2 offset 0x10: event of [0-9]+ bytes runs past" -- verify "$tmp/event.dat"
	head -c $((page + 100)) "$plain" > "$tmp/cut.dat"
	expect "a trace.dat cut inside a CPU's data is refused, saying where it ends" 2 \
		"cut.dat: truncated: the file ends at offset $((page + 100)), before the options" \
		-- verify "$tmp/cut.dat"
	# What trace-cmd report makes of the same damage: said, not required.
	for f in subbuf event; do
		if trace-cmd report "$tmp/$f.dat" >/dev/null 2>&1; then
			echo "# trace-cmd report exits 0 on $f.dat (the damage goes unreported)"
		else
			echo "# trace-cmd report exits non-zero on $f.dat"
		fi
	done
else
	echo "not ok $((n + 1)) - damage inside the ring buffer data is refused: trace-cmd convert or dump failed on $dat"
	n=$((n + 1))
fi

expect "--save-raw belongs to live" 2 "option of live" -- verify --save-raw "$tmp/x" "$dat"
expect "--mapped is not an option of live" 2 "--mapped is an option of verify" -- live --mapped
cp -r "$raw" "$tmp/raw"
expect "a raw capture verifies" 0 "" -- verify "$tmp/raw"
n=$((n + 1))
if "$rbcheck" verify "$tmp/raw" --json - 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "PASS" and "input_note" not in d, d.get("input_note")' 2>"$tmp/err"; then
	echo "ok $n - a raw capture whose meta has its sizes is checked whole: no note"
else
	echo "not ok $n - a raw capture whose meta has its sizes is checked whole: $(tail -n1 "$tmp/err")"
fi
# Completeness: meta's cpus (at the start) and cpuN_bytes (at the end).
cp -r "$raw" "$tmp/gone" && rm "$tmp/gone/cpu0.raw"
expect "a CPU's file deleted is refused" 2 "gone/cpu0.raw: missing: meta says it has [0-9]+ bytes" -- verify "$tmp/gone"
cp -r "$raw" "$tmp/empty" && : > "$tmp/empty/cpu0.raw"
expect "a CPU's file emptied is refused" 2 "empty/cpu0.raw: truncated: 0 bytes, meta says [0-9]+" -- verify "$tmp/empty"
cp -r "$raw" "$tmp/cut" && truncate -s -100 "$tmp/cut/cpu0.raw"
expect "a CPU's file cut short is refused, with its size" 2 "cut/cpu0.raw: truncated: [0-9]+ bytes, meta says" -- verify "$tmp/cut"
cp -r "$raw" "$tmp/long" && head -c 100 "$raw/cpu0.raw" >> "$tmp/long/cpu0.raw"
expect "a CPU's file with bytes added is refused" 2 "long/cpu0.raw: too long" -- verify "$tmp/long"
cp -r "$raw" "$tmp/swap" && mv "$tmp/swap/cpu0.raw" "$tmp/swap/x" &&
	mv "$tmp/swap/cpu1.raw" "$tmp/swap/cpu0.raw" && mv "$tmp/swap/x" "$tmp/swap/cpu1.raw"
expect "two CPUs' files swapped are refused" 2 "swap/cpu0.raw: too long|swap/cpu0.raw: truncated" -- verify "$tmp/swap"
cp -r "$raw" "$tmp/extra" && cp "$raw/cpu1.raw" "$tmp/extra/cpu7.raw"
expect "a file of a CPU meta does not name is refused" 2 "extra/cpu7.raw: extra: meta says 2 CPU" -- verify "$tmp/extra"
cp -r "$raw" "$tmp/unfinished" && grep -v "_bytes" "$raw/meta" > "$tmp/unfinished/meta"
expect "a capture whose writer never finished is refused" 2 "unfinished/meta: not finished, with 2 CPU\(s\), has no cpu0_bytes" -- verify "$tmp/unfinished"
cp -r "$raw" "$tmp/cpus0" && sed -i 's/^cpus .*/cpus 0/' "$tmp/cpus0/meta"
expect "a CPU count of 0 is refused" 2 "cpus0/meta: 'cpus' is not a CPU count" -- verify "$tmp/cpus0"
cp -r "$raw" "$tmp/badnum" && sed -i 's/^cpu1_bytes .*/cpu1_bytes 12x/' "$tmp/badnum/meta"
expect "a byte count that is not a number is refused" 2 "badnum/meta: a bad number" -- verify "$tmp/badnum"
# A capture from before meta had the sizes: read, with a note saying so.
cp -r "$raw" "$tmp/old" && grep -v "^cpus \|_bytes " "$raw/meta" > "$tmp/old/meta"
n=$((n + 1))
if "$rbcheck" verify "$tmp/old" --json - 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["verdict"] == "PASS", d["verdict"]
assert "no CPU count" in d["input_note"] and "not checked" in d["input_note"], d.get("input_note")' 2>"$tmp/err" &&
   "$rbcheck" verify "$tmp/old" 2>&1 | grep -q "^rbcheck: NOTE: .*old/meta has no CPU count"; then
	echo "ok $n - an older raw capture without sizes verifies, with a note that completeness was not checked"
else
	echo "not ok $n - an older raw capture without sizes verifies, with a note: $(tail -n1 "$tmp/err")"
fi
# The clock: meta's trace_clock (rbdrain and live --save-raw write it) is
# the capture's own, as a trace.dat's is; the fixture is from before it.
cp -r "$raw" "$tmp/clock" && echo "trace_clock global" >> "$tmp/clock/meta"
n=$((n + 1))
if "$rbcheck" verify "$tmp/clock" --json - 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["generic"]["clock"] == "global" and d["verdict"] == "PASS", (d["generic"]["clock"], d["verdict"])
assert "input_note" not in d, d["input_note"]' 2>>"$tmp/err"; then
	echo "ok $n - a raw capture is judged by the trace clock its meta names"
else
	echo "not ok $n - a raw capture is judged by the trace clock its meta names: $(tail -n1 "$tmp/err")"
fi
expect "-C against a raw capture's own clock is a usage error" 2 \
	"clock: recorded with trace clock 'global', not 'counter'" -- verify -C counter "$tmp/clock"
cp -r "$raw" "$tmp/badclock" && echo "trace_clock bogus" >> "$tmp/badclock/meta"
expect "a raw capture naming an unknown clock is refused" 2 \
	"badclock/meta: trace_clock 'bogus' is not one of the kernel's trace clocks" -- verify "$tmp/badclock"
cp -r "$tmp/clock" "$tmp/switched" && echo "trace_clock_switched 1" >> "$tmp/switched/meta"
n=$((n + 1))
if "$rbcheck" verify "$tmp/switched" --json - 2>"$tmp/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["generic"]["clock"] is None, d["generic"]["clock"]
assert "switched while capturing" in d["input_note"], d.get("input_note")' 2>>"$tmp/err"; then
	echo "ok $n - a raw capture whose clock was switched names no clock, with a note"
else
	echo "not ok $n - a raw capture whose clock was switched names no clock: $(tail -n1 "$tmp/err")"
fi
cp -r "$tmp/old" "$tmp/oldcut" && truncate -s -100 "$tmp/oldcut/cpu0.raw"
expect "an older raw capture cut mid sub-buffer is refused, with where" 2 "cpu0.raw: truncated: sub-buffer [0-9]+" -- verify "$tmp/oldcut"
cp -r "$raw" "$tmp/reclen"
printf '\xff\xff\xff\x7f' | dd of="$tmp/reclen/cpu0.raw" bs=1 seek=0 conv=notrunc status=none
expect "an impossible record length is refused, with where" 2 "cpu0.raw: sub-buffer 0: record length" -- verify "$tmp/reclen"
cp -r "$raw" "$tmp/commit"
# After the record's 4-byte length and the sub-buffer's 8-byte time stamp
# comes its commit field: claim far too much data.
printf '\xff\xff\x00\x00' | dd of="$tmp/commit/cpu0.raw" bs=1 seek=12 conv=notrunc status=none
expect "a sub-buffer header claiming too much data is refused, with where" 2 "cpu0 sub-buffer 0: header claims" -- verify "$tmp/commit"
cp -r "$raw" "$tmp/meta" && echo "garbage" > "$tmp/meta/meta"
expect "a raw capture with a bad meta is refused" 2 "meta: not an rbcheck-raw" -- verify "$tmp/meta"
cp -r "$raw" "$tmp/badfmt" && sed -i 's/field:u64 clock;/field:u64 clockx;/' "$tmp/badfmt/format"
expect "a raw capture whose format lacks a field is refused, naming the file" 2 "badfmt/format: rbstress:rbstress_event has no field 'clock'" -- verify "$tmp/badfmt"
cp -r "$raw" "$tmp/nofmt" && rm "$tmp/nofmt/format"
expect "a raw capture without its format is refused" 2 "not a complete raw capture" -- verify "$tmp/nofmt"
