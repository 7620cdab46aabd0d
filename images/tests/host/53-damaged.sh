#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck verify on hundreds of damaged copies of the committed capture (version 7 with zstd and without, version 6): every truncation and bad header field is refused with exit 2 and one line naming the file, a flipped byte never crashes or hangs, with both readers; a FIFO and a device are refused at once
#
# The corpus is made here from the fixture (userspace-checker/tests/damaged.py),
# nothing of it is committed.  trace-cmd convert makes the version 6 and the
# uncompressed version 7 copies; without it the test fails (the package is
# one of the suite's dependencies).
. "$(dirname "$0")/../lib.sh"

rb=$CHECKOUT/rbcheck
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
	while IFS=$'\t' read -r case want; do
		for reader in default libtracecmd; do
			args=(verify)
			[ "$reader" = default ] || args+=(-R libtracecmd)
			rc=0
			timeout 30 "$rb" "${args[@]}" "$d/$case" > /dev/null 2> "$tmp/err" < /dev/null || rc=$?
			printf '%s\t%s\t%s\t%s\t%s\n' "$case" "$reader" "$rc" \
				"$(head -n1 "$tmp/err" | tr '\t' ' ')" "$(wc -l < "$tmp/err")" >> "$res"
		done
	done < "$d/cases.tsv"
	# the judge prints a not ok per case that missed, then one summary line
	python3 "$gen" judge "$d" "$res" | sed "s/^\(\(not \)\?ok - \)/\1$name: /"
done

# not a regular file: refused at once, never a hang on an open()
mkfifo "$tmp/fifo"
for f in "$tmp/fifo" /dev/null; do
	rc=0
	out=$(timeout 10 "$rb" verify "$f" 2>&1 < /dev/null) || rc=$?
	[ "$rc" = 2 ] && echo "$out" | grep -q "not a regular file" &&
		ok "$f: refused, '$out'" || not_ok "$f: refused as not a regular file, exit 2 (exit $rc: $out)"
done
