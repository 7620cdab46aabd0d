#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the offline readers fuzzed (libFuzzer, ASan, UBSan): past findings, then a bounded run
#
# Past findings must stay fixed; then a bounded run from the kept corpus.
# A new finding is left in build/fuzz-findings/: add it to
# userspace-checker/tests/fuzz-crashes/ with the fix.
. "$(dirname "$0")/../lib.sh"
fuzz_secs=${RBTS_FUZZ_SECONDS:-30}
if ! make -s -C "$TOP/userspace-checker" O="$CHECKOUT" fuzz > "$LOGS/fuzz-build.log" 2>&1; then
	not_ok "fuzz targets build: $(tail -n1 "$LOGS/fuzz-build.log")"
	exit 0
fi
crashes=("$TOP"/userspace-checker/tests/fuzz-crashes/*)
if "$CHECKOUT/fuzz_subbuf" -timeout=10 "${crashes[@]}" > "$LOGS/fuzz-regress.log" 2>&1; then
	ok "${#crashes[@]} past fuzz findings stay fixed"
else
	not_ok "past fuzz findings stay fixed: $(grep -m1 -E 'SUMMARY|ERROR' "$LOGS/fuzz-regress.log")"
fi
# Each target from its kept corpus (build/) and the seeds in the tree.
for t in subbuf:fuzz-corpus flyrecord:fuzz-flyrecord-corpus; do
	name=${t%%:*} seeds=${t#*:}
	mkdir -p "$BUILD/fuzz-$name-corpus" "$BUILD/fuzz-findings"
	if "$CHECKOUT/fuzz_$name" -max_total_time="$fuzz_secs" -timeout=10 \
		-artifact_prefix="$BUILD/fuzz-findings/$name-" "$BUILD/fuzz-$name-corpus" \
		"$TOP/userspace-checker/tests/$seeds" > "$LOGS/fuzz-$name.log" 2>&1; then
		ok "fuzz_$name ${fuzz_secs}s: $(grep -m1 -o 'Done [0-9]* runs' "$LOGS/fuzz-$name.log"), no finding"
	else
		not_ok "fuzz_$name found: $(grep -m1 -E 'SUMMARY|ERROR' "$LOGS/fuzz-$name.log") (input in build/fuzz-findings/)"
	fi
done
