#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbmodel on the tree's own RB_TIME_32 code: seeded faults, findings
. "$(dirname "$0")/../lib.sh"
if make -s -C "$TOP/userspace-checker/models/rb-time" O="$BUILD/model" KSRC="$SRC" > "$LOGS/model-build.log" 2>&1; then
	ok "rbmodel builds from the tree's RB_TIME_32 code"
	"$TOP/userspace-checker/models/rb-time/tests/test_model.sh" "$BUILD/model/rbmodel" "$SRC/kernel/trace/ring_buffer.c"
else
	not_ok "rbmodel builds: $(tail -n1 "$LOGS/model-build.log")"
fi
# --json where nothing can be written: refused before any exploring
# (rbm_json_writable(); host/reserve-model asks rbreserve the same)
rc=0; out=$("$BUILD/model/rbmodel" --json /nonexistent/x.json 2>&1) || rc=$?
[ "$rc" = 2 ] && [[ "$out" == "rbmodel: --json: cannot write '/nonexistent/x.json'"* ]] &&
	ok "--json to a directory that is not there: one line, exit 2, nothing explored" ||
	not_ok "--json to a directory that is not there: exit $rc: '$out'"
