#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: each line's fixes part applied alone to Debian's pristine tree builds after every patch (bisectable without our test hooks)
# rbts-test: full
# rbts-test: timeout 5400
. "$(dirname "$0")/../lib.sh"

for line in $(kspec_lines); do
	build_kernel --kernel "$line"
	RBTS_KERNEL=$line "$TOP/images/kernel/bisect-fixes.sh" 2> "$LOGS/fixes-bisect-$line.err" ||
		not_ok "$line: bisect-fixes.sh ran: $(tail -n1 "$LOGS/fixes-bisect-$line.err")"
done
