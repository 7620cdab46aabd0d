#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbreserve on each line's reserve path: our tree holds at depth 2, 2 events; every seeded fault is caught in the default bounds (a clock jump and the path oracle included) and replays; hashing, the reduction and --jobs give the same verdicts, also with page switches; the unmodified tree shows finding (a); finding (m1) shows on the unmodified tree and replays, and our tree holds; the model's findings (h), (p), (q), (r) replay without their fixes and not with them; the default bound ends; the extraction names what it misses
#
# Asserts on rbreserve's --json result, not on its text.  The bounds are
# the smallest that show each thing (docs/model.md has the times).
. "$(dirname "$0")/../lib.sh"

# reserve NAME ARGS...: rbreserve ARGS --json; sets $rc and the JSON file
# $j (one per call, kept in $tmp).  The first call of a tree goes through
# ./run.sh model --reserve (which builds it); the others run what it built.
reserve() {
	j=$tmp/$1.json
	shift
	rc=0
	"$@" --json "$j" > "$LOGS/reserve-model.log" 2>&1 || rc=$?
}
field() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$j" "$1" 2>/dev/null; }
# the bound's --ops argument: the events of each level, outermost first
ops_arg() { python3 -c 'import json, sys; print(",".join(map(str, json.load(open(sys.argv[1]))["ops_per_level"])))' "$j" 2>/dev/null; }
# --clock-jump if the bound had one
jump_arg() { [ "$(field clock_jump)" = True ] && echo --clock-jump; }
summary() { echo "$(field verdict) at depth $(field depth), events $(ops_arg), $(field page_size)-byte sub-buffers$([ "$(field clock_jump)" = True ] && echo ' with a clock jump'), $(field executions) executions, $(field seconds) s"; }

for line in $(kspec_lines); do
	bin=$BUILD/reserve-model/$line-ours/rbreserve
	reserve "$line-tree" rbts model --reserve --kernel "$line" --depth 2 --ops 2
	if [ "$rc" = 0 ] && [ "$(field verdict)" = pass ]; then
		ok "$line: our tree's reserve path holds: $(summary)"
	else
		not_ok "$line: our tree's reserve path holds at depth 2, 2 events (exit $rc: $(field why); see $LOGS/reserve-model.log)"
	fi

	# every seeded fault, in the default bound (no bound given): caught,
	# and its counterexample replays with the bound the JSON names
	src=$(RBTS_KERNEL=$line:ours:default:x86_64 bash -c ". '$TOP/images/common.sh'; echo \$SRC")
	faults=$(python3 "$TOP/userspace-checker/models/reserve/extract-reserve.py" --faults "$src")
	# (two jobs: the same verdicts, host/reserve-model checks it below,
	# in half the time on an idle machine of two cores)
	for f in $faults; do
		reserve "$line-$f" "$bin" --variant "$f" --jobs 2
		case $f in
		f-no-after-lt-ts|slow-path-stale-write-stamp)
			# redundant under a monotonic clock, or undone by our
			# series' own write_stamp update (docs/model.md): the
			# model must see no difference, or the docs are wrong
			if [ "$rc" = 0 ]; then
				ok "$line: seeded fault $f changes nothing the model sees, as documented: $(summary)"
			else
				not_ok "$line: seeded fault $f was thought to change nothing, but: $(field why)"
			fi
			continue ;;
		came-after-write-only)
			# finding (g): since (p)'s fix spells its own tail page
			# test out at F, only D and the end of the slow path ask
			# rb_event_came_after(), and (g) lies past the default
			# bounds.  A known gap of the model's depth, not hidden:
			if [ "$rc" = 1 ]; then
				ok "$line: seeded fault $f ((g)) is caught in the default bound: $(field why)"
			else
				not_ok "$line: seeded fault $f ((g)) is not caught in the default bound since F spells out (p)'s test # TODO issue 44: default bounds deep enough for (g)"
			fi
			continue ;;
		esac
		why=$(field why) picks=$(field replay) rc2=0
		if [ "$rc" = 1 ] && [ "$(field verdict)" = counterexample ]; then
			# shellcheck disable=SC2046 # jump_arg: no option or one word
			out=$("$bin" --variant "$f" --depth "$(field depth)" --ops "$(ops_arg)" \
				--page-size "$(field page_size)" $(jump_arg) --replay "$picks" 2>&1) || rc2=$?
		fi
		if [ "$rc" = 1 ] && [ "$rc2" = 1 ] && out_has -F "COUNTEREXAMPLE: $why"; then
			ok "$line: seeded fault $f is caught in the default bound and replays: $(summary): $why"
		else
			not_ok "$line: seeded fault $f is caught in the default bound and replays (exit $rc, verdict $(field verdict), replay exit $rc2)"
		fi
	done

	# finding (a) on the unmodified tree: a counterexample that needs a
	# discard (without discards the same bound holds), where our tree holds
	reserve "$line-vanilla" rbts model --reserve --vanilla --kernel "$line" --depth 2 --ops 2
	why=$(field why) a=$(summary)
	vbin=$BUILD/reserve-model/$line-vanilla/rbreserve
	reserve "$line-vanilla-nodiscard" "$vbin" --depth 2 --ops 2 --no-discard
	if [ -n "$why" ] && [ "$(field verdict)" = pass ]; then
		ok "$line: the unmodified tree shows finding (a), after a discard: $a: $why"
	else
		not_ok "$line: the unmodified tree shows finding (a) after a discard (with discards: $a; without: $(summary))"
	fi

	# finding (m1): three contexts and a clock that stands still; the
	# unmodified tree shows it, ours (with its fix) holds at that bound
	reserve "$line-m1" "$vbin" --depth 3 --ops 1 --exact
	why=$(field why) picks=$(field replay)
	if [ "$rc" = 1 ] && echo "$why" | grep -q 'outside \['; then
		ok "$line: the unmodified tree shows finding (m1): $(summary): $why"
	else
		not_ok "$line: the unmodified tree shows finding (m1) (exit $rc: $why)"
	fi
	rc=0
	out=$("$vbin" --depth 3 --ops 1 --replay "$picks" 2>&1) || rc=$?
	if [ "$rc" = 1 ] && out_has -F "COUNTEREXAMPLE: $why"; then
		ok "$line: its --replay $picks gives the same counterexample, step by step ($(echo "$out" | grep -c '^ *[0-9]') steps)"
	else
		not_ok "$line: --replay $picks gives the same counterexample (exit $rc)"
	fi
	reserve "$line-m1-fixed" "$bin" --depth 3 --ops 1 --exact
	if [ "$rc" = 0 ] && [ "$(field verdict)" = pass ]; then
		ok "$line: our tree, with the fix for (m1), holds at that bound: $(summary)"
	else
		not_ok "$line: our tree holds at depth 3, 1 event (exit $rc: $(field why))"
	fi
	# the model's findings (images/findings.json): our tree with the fix's
	# patch reversed (and the later ones its also_without names, which
	# change the same lines: last first) fails on the finding's --replay,
	# and our tree meets every rule on the same picks (the whole bounds
	# take minutes: docs/model.md)
	while read -r label fixes md mk mp mj mpicks; do
		mjump=()
		[ "$mj" = True ] && mjump=(--clock-jump)
		h=$tmp/$label-$line patchfiles=()
		for fix in ${fixes//,/ }; do
			for p in "$TOP/kernel-patches/$line"/fixes/[0-9][0-9][0-9][0-9]-"$fix".patch; do
				[ -f "$p" ] && patchfiles+=("$p")
			done
		done
		patchfile=${patchfiles[0]:-}
		mkdir -p "$h/kernel/trace" "$h/include/linux"
		cp "$src/include/linux/ring_buffer.h" "$h/include/linux/"
		cp "$src/kernel/trace/ring_buffer.c" "$h/kernel/trace/"
		: > "$LOGS/reserve-model-$label.log"
		rc=0 rc2=0
		if [ -z "$patchfile" ]; then
			rc="no-patch"
		elif ! (for p in $(printf '%s\n' "${patchfiles[@]}" | sort -r); do
				patch -s -R -p1 -d "$h" < "$p" >> "$LOGS/reserve-model-$label.log" 2>&1 || exit 1
			done); then
			rc=unpatch
		elif ! make -s -C "$TOP/userspace-checker/models/reserve" O="$h/out" KSRC="$h" VARIANTS=tree \
			>> "$LOGS/reserve-model-$label.log" 2>&1; then
			rc=build
		else
			out=$("$h/out/rbreserve" --depth "$md" --ops "$mk" --page-size "$mp" "${mjump[@]}" \
				--replay "$mpicks" 2>&1) || rc=$?
			"$bin" --depth "$md" --ops "$mk" --page-size "$mp" "${mjump[@]}" --replay "$mpicks" \
				>> "$LOGS/reserve-model-$label.log" 2>&1 || rc2=$?
		fi
		if [ "$rc" = 1 ] && out_has 'COUNTEREXAMPLE: ' && [ "$rc2" = 0 ]; then
			ok "$line: finding ($label): without its fix (${patchfile##*/} reversed${patchfiles[1]:+, and ${patchfiles[1]##*/}}), depth $md, $mk events, $mp-byte sub-buffers${mjump:+, a clock jump}: $(echo "$out" | grep -m1 'COUNTEREXAMPLE'); with it, the same picks meet every rule"
		else
			not_ok "$line: finding ($label) replays without its fix and not with it (without: $rc, with: $rc2; see $LOGS/reserve-model-$label.log)"
		fi
	done < <(python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    m = f.get("model")
    if m:
        print(f["label"], ",".join([f["fix"]] + f.get("also_without", [])),
              m["depth"], m["ops"], m.get("page_size", 4096),
              m.get("clock_jump", False), m["replay"])' "$TOP/images/findings.json")

	# no bound given: depth 2 with 2 events, depth 3 with 1, depth 2
	# with 1 and 3, depth 2 with 2 events on 32-byte sub-buffers, then
	# depth 3 with 1 and a clock jump (the last bound explored is the one
	# the JSON names), and it ends
	reserve "$line-default" "$bin" --jobs 2
	if [ "$rc" = 0 ] && [ "$(field verdict)" = pass ] &&
	   [ "$(field depth)/$(ops_arg)/$(field page_size)/$(field clock_jump)" = 3/1,1,1/4096/True ]; then
		ok "$line: with no bound, the default ones are explored and hold: $(summary)"
	else
		not_ok "$line: the default bounds end at depth 3, 1 event with a clock jump and hold (exit $rc, $(field depth)/$(ops_arg)/$(field page_size)/$(field clock_jump): $(field why))"
	fi

	# state hashing and the reduction (an interrupt after a load it
	# leaves as found is the one before the load) change no verdict: a
	# cross-check at a small bound; the reduction does prune there
	# (and with page switches: 32-byte sub-buffers, VARIANT@32)
	for vp in tree@4096 f-no-write-check@4096 tree@32 f-no-tail-check@32; do
		v=${vp%@*} ps=${vp#*@}
		name=$v
		[ "$ps" = 4096 ] || name="$v on $ps-byte sub-buffers"
		b2=(--variant "$v" --depth 2 --ops 2 --page-size "$ps")
		reserve "$line-hash-$v-$ps" "$bin" "${b2[@]}" --exact
		a=$(field verdict) commuted=$(field commuted) n=$(field executions)
		reserve "$line-nohash-$v-$ps" "$bin" "${b2[@]}" --exact --no-hash --no-reduce
		if [ -n "$a" ] && [ "$a" = "$(field verdict)" ]; then
			ok "$line: $name: the same verdict with and without state hashing and the reduction ($a)"
		else
			not_ok "$line: $name: the same verdict with and without state hashing and the reduction ($a, then $(field verdict))"
		fi
		# two jobs, each exploring its share of the subtrees: the same
		# verdict, and a counterexample that replays on its own
		reserve "$line-jobs-$v-$ps" "$bin" "${b2[@]}" --exact --jobs 2
		picks=$(field replay) rc2=0
		if [ "$a" = counterexample ] && [ -n "$picks" ]; then
			"$bin" "${b2[@]}" --replay "$picks" > /dev/null 2>&1 || rc2=$?
		fi
		if [ -n "$a" ] && [ "$a" = "$(field verdict)" ] && { [ "$a" = pass ] || [ "$rc2" = 1 ]; }; then
			ok "$line: $name: the same verdict with --jobs 2 ($a, $(field executions) executions)${picks:+; its replay $picks fails again}"
		else
			not_ok "$line: $name: the same verdict with --jobs 2 ($a, then $(field verdict); replay exit $rc2)"
		fi
		if [ "$vp" = tree@4096 ]; then
			reserve "$line-noreduce-$v" "$bin" --depth 2 --ops 2 --exact --no-reduce
			if [ "${commuted:-0}" -gt 0 ] && [ "$(field commuted)" = 0 ] &&
			   [ "$n" -lt "$(field executions)" ]; then
				ok "$line: the reduction prunes $commuted of $n executions; without it $(field executions)"
			else
				not_ok "$line: the reduction prunes (with: $commuted of $n; without: $(field commuted) of $(field executions))"
			fi
		fi
	done
done

# --json where nothing can be written: refused before any exploring
rc=0; out=$("$BUILD/reserve-model/$KSPEC_DEFAULT_LINE-ours/rbreserve" --json /nonexistent/x.json 2>&1) || rc=$?
[ "$rc" = 2 ] && [[ "$out" == "rbreserve: --json: cannot write '/nonexistent/x.json'"* ]] &&
	ok "--json to a directory that is not there: one line, exit 2, nothing explored" ||
	not_ok "--json to a directory that is not there: exit $rc: '$out'"

# The extraction names what it cannot find, and a fault whose text is gone.
extract=$TOP/userspace-checker/models/reserve/extract-reserve.py
src=$(RBTS_KERNEL=6.1:ours:default:x86_64 bash -c ". '$TOP/images/common.sh'; echo \$SRC")
mkdir -p "$tmp/t/kernel/trace" "$tmp/t/include/linux"
cp "$src/include/linux/ring_buffer.h" "$tmp/t/include/linux/"
sed 's/^__rb_reserve_next(/__rb_reserve_next_renamed(/' "$src/kernel/trace/ring_buffer.c" \
	> "$tmp/t/kernel/trace/ring_buffer.c"
rc=0
msg=$(python3 "$extract" "$tmp/t" "$tmp/out.c" 2>&1) || rc=$?
if [ "$rc" = 1 ] && echo "$msg" | grep -q 'cannot find func __rb_reserve_next'; then
	ok "the extraction stops and names what is missing: ${msg#extract-reserve: }"
else
	not_ok "the extraction stops and names what is missing (exit $rc: $msg)"
fi
sed 's/info->before != info->after/info->after != info->before/' "$src/kernel/trace/ring_buffer.c" \
	> "$tmp/t/kernel/trace/ring_buffer.c"
rc=0
msg=$(python3 "$extract" "$tmp/t" "$tmp/out.c" --fault fast-path-always 2>&1) || rc=$?
if [ "$rc" = 1 ] && echo "$msg" | grep -q 'fault fast-path-always: its text occurs 0 times'; then
	ok "a seeded fault whose text is gone stops the build: ${msg#extract-reserve: }"
else
	not_ok "a seeded fault whose text is gone stops the build (exit $rc: $msg)"
fi

# Bad options are usage errors.
for args in "--page-size 48" "--page-size 16" "--page-size 8192" "--depth 9" "--ops 0" "--ops 1,5" "--ops 1,,3" "--ops 1,3," "--depth 3 --ops 1,3" "--variant nope" "--replay 0x!" "--estimate 0" "--estimate x" "--jobs 0" "--jobs 65" "--bogus"; do
	rc=0
	# shellcheck disable=SC2086
	msg=$("$BUILD/reserve-model/6.1-ours/rbreserve" $args 2>&1) || rc=$?
	if [ "$rc" = 2 ]; then
		ok "rbreserve $args: exit 2: $(echo "$msg" | grep -m1 "see rbreserve --help")"
	else
		not_ok "rbreserve $args: exit 2 (got $rc)"
	fi
done
