#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck verify, built with AddressSanitizer and UBSan, on hundreds of damaged copies of the committed capture (version 7 with zstd and without, version 6): every truncation and bad header field is refused with exit 2 and one line naming the file, a flipped byte never crashes, hangs or trips a sanitizer, with both readers; a FIFO and a device are refused at once
#
# The corpus is made here from the fixture (userspace-checker/tests/damaged.py),
# nothing of it is committed.  trace-cmd convert makes the version 6 and the
# uncompressed version 7 copies; without it the test fails (the package is
# one of the suite's dependencies).  A sanitizer report, in our code or in
# a library on an input we let through, exits 98 (UBSan) or 99 (ASan):
# not 0, 1 or 2, so the case fails, and its first lines are kept in LOGS.
. "$(dirname "$0")/../lib.sh"

if ! make -s -C "$TOP/userspace-checker" O="$BUILD/checker" asan > "$LOGS/damaged-asan-build.log" 2>&1; then
	not_ok "rbcheck builds with the sanitizers (see $LOGS/damaged-asan-build.log)"
	exit 0
fi
rb=$BUILD/checker/asan/rbcheck
# libtracecmd's leaks on its error paths are not ours to judge; the rest is
export ASAN_OPTIONS=detect_leaks=0:exitcode=99 UBSAN_OPTIONS=print_stacktrace=1:exitcode=98
: > "$LOGS/damaged-sanitizer.log"
gen=$TOP/userspace-checker/tests/damaged.py
src=$FIXTURES/trace.dat

declare -A from=([v7-zstd]="$src")
for v in "v6 --file-version 6 --compression none" "v7-none --file-version 7 --compression none"; do
	name=${v%% *}
	if trace-cmd convert -i "$src" -o "$tmp/$name.dat" ${v#* } > "$LOGS/damaged-convert-$name.log" 2>&1; then
		from[$name]=$tmp/$name.dat
	else
		not_ok "trace-cmd convert made the $name copy of the fixture (see $LOGS/damaged-convert-$name.log)"
	fi
done

for name in "${!from[@]}"; do
	d=$tmp/$name res=$tmp/$name.res
	python3 "$gen" make "${from[$name]}" "$d" > /dev/null
	: > "$res"
	# every event of the undamaged file: a PASS must have read them all
	timeout 60 "$rb" verify --json "$tmp/base.json" "${from[$name]}" > /dev/null 2>&1
	events=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["events"] + j["other_events"])' "$tmp/base.json" 2>/dev/null || echo unknown)
	while IFS=$'\t' read -r case _ _; do
		for reader in default libtracecmd; do
			args=(verify)
			[ "$reader" = default ] || args+=(-R libtracecmd)
			rc=0
			rm -f "$tmp/case.json"
			timeout 60 "$rb" "${args[@]}" --json "$tmp/case.json" "$d/$case" > /dev/null 2> "$tmp/err" < /dev/null || rc=$?
			if grep -q "Sanitizer\|runtime error" "$tmp/err"; then
				{ echo "== $name/$case ($reader): exit $rc"; head -n 30 "$tmp/err"; } \
					>> "$LOGS/damaged-sanitizer.log"
			fi
			read=-
			# only a PASS is judged by its count: the rest need no python
			[ "$rc" = 0 ] && [ -s "$tmp/case.json" ] && read=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["events"] + j["other_events"])' "$tmp/case.json" 2>/dev/null || echo -)
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$case" "$reader" "$rc" \
				"$(head -n1 "$tmp/err" | tr '\t' ' ')" "$(wc -l < "$tmp/err")" "$read" >> "$res"
		done
	done < "$d/cases.tsv"
	# the judge prints a not ok per case that missed, then one summary line
	python3 "$gen" judge "$d" "$res" "$events" | sed "s/^\(\(not \)\?ok - \)/\1$name: /"
done

# --mapped: a capture from a reader that leaves stale bytes after the data
# (a memory-mapped one) is read as its commit words say, not refused
if [ -f "$tmp/v6/commit-0.dat" ]; then
	rc=0
	"$rb" verify --mapped "$tmp/v6/commit-0.dat" > /dev/null 2> "$tmp/err" || rc=$?
	[ "$rc" -le 1 ] && [ ! -s "$tmp/err" ] && ok "--mapped reads bytes after a sub-buffer's data as stale (exit $rc)" ||
		not_ok "--mapped: exit $rc: $(head -c 200 "$tmp/err")"
fi

[ ! -s "$LOGS/damaged-sanitizer.log" ] && ok "no sanitizer report on any case" ||
	not_ok "sanitizer reports (see $LOGS/damaged-sanitizer.log): $(grep -c '^== ' "$LOGS/damaged-sanitizer.log") case(s)"

# not a regular file: refused at once, never a hang on an open()
mkfifo "$tmp/fifo"
for f in "$tmp/fifo" /dev/null; do
	rc=0
	out=$(timeout 10 "$rb" verify "$f" 2>&1 < /dev/null) || rc=$?
	[ "$rc" = 2 ] && echo "$out" | grep -q "not a regular file" &&
		ok "$f: refused, '$out'" || not_ok "$f: refused as not a regular file, exit 2 (exit $rc: $out)"
done
