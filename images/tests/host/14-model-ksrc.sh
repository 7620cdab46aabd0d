#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: ./run.sh model --reserve --ksrc DIR on any tree: each line's tree as DIR holds at depth 2, 2 events and shows finding (a) with its fix reversed; a tree the extractor cannot follow, a missing file or directory and bad option mixes exit 2 with what is wrong, in under a second for the cheap ones
#
# DIR is given only the two files the model reads (ring_buffer.c and
# ring_buffer.h) of the tree the suite prepared, as a maintainer's branch
# would have them; asserts on rbreserve's --json.
. "$(dirname "$0")/../lib.sh"

field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$j" "$1" 2>/dev/null; }

# mini LINE DIR: a tree of the line's two files the model reads
mini() {
	kspec_load "$1:ours:default:x86_64"
	mkdir -p "$2/kernel/trace" "$2/include/linux"
	cp "$SRC/kernel/trace/ring_buffer.c" "$2/kernel/trace/" &&
		cp "$SRC/include/linux/ring_buffer.h" "$2/include/linux/"
}

# refused WHAT WANT ARGS...: exit 2 with WANT in its one line
refused() {
	local what=$1 want=$2 out rc=0 t0
	shift 2
	t0=$(date +%s%N)
	out=$("$TOP/run.sh" model "$@" 2>&1 > /dev/null) || rc=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if [ "$rc" = 2 ] && printf '%s' "$out" | grep -qF -- "$want"; then
		ok "$what: exit 2, '$(printf '%s' "$out" | head -n1)' ($ms ms)"
	else
		not_ok "$what: exit 2 with '$want' (exit $rc: $(printf '%s' "$out" | head -n1))"
	fi
}

refused "--ksrc of a directory that does not exist" "no such directory" --reserve --ksrc /nonexistent/tree
mkdir -p "$tmp/empty"
refused "--ksrc of a directory that is not a kernel tree" "no kernel/trace/ring_buffer.c: not a kernel tree" --reserve --ksrc "$tmp/empty"
refused "--ksrc without --reserve" "--ksrc goes with --reserve" --ksrc "$tmp/empty"
refused "--ksrc with --kernel" "--ksrc names the tree" --reserve --kernel 6.12 --ksrc "$tmp/empty"

for line in $(kspec_lines); do
	d=$tmp/tree-$line
	if ! mini "$line" "$d"; then
		not_ok "$line: the prepared tree's ring_buffer.c and ring_buffer.h (./run.sh build --kernel $line)"
		continue
	fi
	j=$tmp/$line.json rc=0
	"$TOP/run.sh" model --reserve --ksrc "$d" --depth 2 --ops 2 --json "$j" > "$LOGS/model-ksrc-$line.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] && [ "$(field verdict)" = pass ] &&
		ok "$line: our tree given as --ksrc holds at depth 2, 2 events ($(field executions) executions)" ||
		not_ok "$line: our tree given as --ksrc holds at depth 2, 2 events (exit $rc, $(field verdict); $LOGS/model-ksrc-$line.log)"

	# finding (a) back: the fix of fixes/0005 reversed on the same files
	fix=$(compgen -G "$TOP/kernel-patches/$line/fixes/0005-*.patch")
	cp -r "$d" "$d-a"
	if patch -d "$d-a" -p1 -R -s < "$fix" > /dev/null 2>&1; then
		j=$tmp/$line-a.json rc=0
		"$TOP/run.sh" model --reserve --ksrc "$d-a" --depth 2 --ops 2 --json "$j" > "$LOGS/model-ksrc-$line-a.log" 2>&1 || rc=$?
		[ "$rc" = 1 ] && [ "$(field verdict)" = counterexample ] &&
			ok "$line: with ${fix##*/} reversed, --ksrc finds finding (a): counterexample in $(field executions) executions" ||
			not_ok "$line: with ${fix##*/} reversed, --ksrc finds finding (a) (exit $rc, $(field verdict))"
	else
		not_ok "$line: ${fix##*/} reverses on the prepared tree's files"
	fi

	# a tree whose reserve path is not where the extractor looks
	cp -r "$d" "$d-x"
	sed -i 's/^__rb_reserve_next(/__rb_reserve_next_v2(/' "$d-x/kernel/trace/ring_buffer.c"
	refused "$line: a tree whose __rb_reserve_next() is renamed" "cannot find func __rb_reserve_next" --reserve --ksrc "$d-x"
done
