#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: sub-buffers larger than a page (lines.table feature subbuf-size): 8 and 16 KiB verify live and offline where the line has them; a line without them refuses --subbuf-kb before a build
# rbts-test: lines all
. "$(dirname "$0")/../lib.sh"
case " $(kspec_line_features "$LINE") " in
*" subbuf-size "*)
	# buffer_subbuf_size_kb: read and verified whole, live and again on
	# the host from the raw capture.
	for kb in 16 8; do
		boot --kernel "$LINE" --subbuf-kb $kb --duration $((kb == 16 ? 20 : 10)) --capture 0 --save-raw
		must_pass "$LINE: $kb KiB sub-buffers PASS"
		sz=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["records"]["subbuf_size"])' "$(rfile result.json)" 2>/dev/null)
		[ "$sz" = $((kb * 1024)) ] && ok "$LINE: the checker read sub-buffers of $sz bytes" ||
			not_ok "$LINE: the checker read sub-buffers of ${sz:-?} bytes, not $((kb * 1024))"
		[ "$(check_verdict live-vs-offline)" = PASS ] && ok "$LINE: $kb KiB: live and offline verdicts agree" ||
			not_ok "$LINE: $kb KiB: live and offline verdicts agree: $(check_verdict live-vs-offline)"
	done ;;
*)
	# Page-sized sub-buffers only: a clear error before anything is built
	# or booted, not a silent 4 KiB run.  The guest refuses it too
	# (images/guest/lib.sh), for a command line made elsewhere (a lab's).
	rc=0
	out=$(rbts run --kernel "$LINE" --subbuf-kb 8 --duration 5 --capture 0 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 2 ] && grep -q "kernel line $LINE has no subbuf-size" <<< "$out" &&
		ok "$LINE: --subbuf-kb 8 is refused before a build (exit 2, says why)" ||
		not_ok "$LINE: --subbuf-kb 8: exit $rc, $(head -n1 <<< "$out")" ;;
esac
