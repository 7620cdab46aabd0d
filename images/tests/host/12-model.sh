#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbmodel on the tree's own RB_TIME_32 code: seeded faults, findings
. "$(dirname "$0")/../lib.sh"
if make -s -C "$TOP/userspace-checker/model" O="$BUILD/model" KSRC="$SRC" > "$LOGS/model-build.log" 2>&1; then
	ok "rbmodel builds from the tree's RB_TIME_32 code"
	"$TOP/userspace-checker/model/tests/test_model.sh" "$BUILD/model/rbmodel" "$SRC/kernel/trace/ring_buffer.c"
else
	not_ok "rbmodel builds: $(tail -n1 "$LOGS/model-build.log")"
fi
