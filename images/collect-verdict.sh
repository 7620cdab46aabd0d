#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn what a guest brought back into the run's verdict: the live checker's
# exit status (for a guest that drained its sub-buffers to the host: that of
# rbcheck verify of them here), then the kernel's own complaints in the
# console and dmesg (a WARN, BUG or the ring buffer's "TIME DOES NOT MATCH"
# fails the run whatever the checker said), then the offline check of the
# trace.dat.
# Writes verdict.txt and prints the summary.
#
# usage: images/collect-verdict.sh RESULTS-DIR
# exit:  0 PASS, 1 FAIL, 2 set-up error in the guest
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: collect-verdict.sh RESULTS-DIR}

# The kernel's own word, first: a debug kernel booted with panic_on_warn
# dies on its first complaint and brings no verdict back.  The patterns
# (images/kernel-complaints.pattern): WARN/BUG splats (lockdep's are
# WARNINGs, KASAN's and sleeping-in-atomic are BUGs), UBSAN reports,
# lockdep switching itself off, the ring buffer's time stamp audit
# (CONFIG_RING_BUFFER_VALIDATE_TIME_DELTAS) and startup test, and NMIs no
# handler claimed (the module's NMI writer must claim every NMI it sends).
pattern=$(cat "$TOP/images/kernel-complaints.pattern")
kernel_log() {
	local logs=() f
	local files=("$out/console.log" "$out/dmesg.txt")
	# A faults run keeps the kernel log of each scenario with it, for
	# images/faults-table.py to judge; here only what came before them
	# and after the last (the console has it all, and is read only if the
	# guest died before it could sort the log out).
	[ ! -f "$out/dmesg-before-faults.txt" ] || [ ! -f "$out/verdict" ] ||
		files=("$out/dmesg-before-faults.txt" "$out/dmesg.txt")
	# A guest that died has a console but no dmesg.txt: read what exists
	# (a missing file would make grep fail, and pipefail hide the match).
	for f in "${files[@]}"; do [ -f "$f" ] && logs+=("$f"); done
	{ [ ${#logs[@]} -eq 0 ] || grep -E -h "$pattern" "${logs[@]}" || true; } |
		sort -u > "$out/kernel-complaints.txt"
	if [ -s "$out/kernel-complaints.txt" ]; then
		kernel=FAIL
		echo
		echo "kernel log: FAIL, the kernel complained:"
		head -n 10 "$out/kernel-complaints.txt" | sed 's/^/  | /'
	else
		rm -f "$out/kernel-complaints.txt"
		kernel=PASS
		echo "kernel log: PASS (no WARN, BUG, lockdep, KASAN, UBSAN or time stamp audit message)"
	fi
	# The debug kernel's ring buffer startup test must have run and passed.
	if grep -q "^CONFIG_RING_BUFFER_STARTUP_TEST=y" "$KOUT/.config" 2>/dev/null; then
		if grep -q "Ring buffer PASSED" "$out/console.log" "$out/dmesg.txt" 2>/dev/null; then
			echo "ring buffer startup test (CONFIG_RING_BUFFER_STARTUP_TEST): PASS"
		else
			echo "ring buffer startup test (CONFIG_RING_BUFFER_STARTUP_TEST): FAIL (no 'Ring buffer PASSED!')"
			kernel=FAIL
		fi
	fi
}

if [ ! -f "$out/verdict" ]; then
	kernel_log
	if [ "$kernel" = FAIL ]; then
		echo FAIL > "$out/verdict.txt"
		echo
		echo "VERDICT: FAIL  (the kernel complained and the guest died; results in ${out#$TOP/})"
		exit 1
	fi
	echo "error: the guest wrote no verdict (see $out/console.log)" >&2
	exit 2
fi

# A guest without a checker (job drain: i386) brought its sub-buffers back:
# the host verifies them, with the guest's long size and byte order, and
# its word is the run's.
if [ "$(cat "$out/verdict")" = drained ]; then
	rc=0
	"$CHECKOUT/rbcheck" verify --require-nested --ktap "$out/result.ktap" \
		--json "$out/result.json" "$out/drain" > "$out/summary.txt" 2> "$out/verify.err" || rc=$?
	if [ "$rc" -ge 2 ]; then
		echo "rbcheck verify ${out#$TOP/}/drain: $(head -n1 "$out/verify.err")" > "$out/error.txt"
	fi
	echo "$rc" > "$out/verdict"
	echo "(the guest's sub-buffers, verified on the host: $(sed -n 's/^machine //p' "$out/drain/meta"), long size $(sed -n 's/^long_size //p' "$out/drain/meta"))"
fi
live=$(cat "$out/verdict")
[ -f "$out/summary.txt" ] && cat "$out/summary.txt"
for tap in "$out"/*.tap; do [ -f "$tap" ] && cat "$tap"; done
if [ -f "$out/error.txt" ]; then
	echo "error: in the guest: $(cat "$out/error.txt")" >&2
	echo "ERROR" > "$out/verdict.txt"
	exit 2
fi
kernel_log

offline=SKIP
if [ -s "$out/trace.dat" ]; then
	if "$CHECKOUT/rbcheck" verify "$out/trace.dat" > "$out/offline.txt" 2>&1; then
		offline=PASS
	else
		case $? in 1) offline=FAIL ;; *) offline=ERROR ;; esac
	fi
	echo "trace.dat (verified offline on the host): $offline ($(grep -m1 -o '[0-9]* rbstress events' "$out/offline.txt" || tail -n1 "$out/offline.txt"))"
fi

# The same sub-buffers the live checker read, verified again on the host.
agree=SKIP
if [ -d "$out/raw" ]; then
	if "$CHECKOUT/rbcheck" verify "$out/raw" --json "$out/offline-raw.json" > "$out/offline-raw.txt" 2>&1 ||
	   [ $? = 1 ]; then
		if "$TOP/images/compare-live-offline.py" "$out/result.json" "$out/offline-raw.json" \
			> "$out/live-vs-offline.txt" 2>&1; then
			agree=PASS
		else
			agree=FAIL
		fi
	else
		echo "live-vs-offline: rbcheck verify raw failed: $(tail -n1 "$out/offline-raw.txt")" > "$out/live-vs-offline.txt"
		agree=FAIL
	fi
	echo "raw capture (the live run's sub-buffers, verified on the host): $agree: $(cat "$out/live-vs-offline.txt")"
fi

case "$live" in
0) verdict=PASS ;;
1) verdict=FAIL ;;
*) verdict=ERROR ;;
esac
[ "$kernel" = FAIL ] && verdict=FAIL
[ "$offline" = FAIL ] && [ "$verdict" = PASS ] && verdict=FAIL
[ "$agree" = FAIL ] && [ "$verdict" = PASS ] && verdict=FAIL
echo "$verdict" > "$out/verdict.txt"
echo
echo "VERDICT: $verdict  (results in ${out#$TOP/})"
case "$verdict" in
PASS)	exit 0 ;;
FAIL)	exit 1 ;;
*)	exit 2 ;;
esac
