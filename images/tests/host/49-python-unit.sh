#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the host program's unit tests, in-process (images/rbts/rbts_test.py, unittest): the Plan's options and refusals, the settings, the results layout and exit statuses, the verdict of saved results, the matrix's cells; one TAP line per test
. "$(dirname "$0")/../lib.sh"
export PYTHONPATH=$TOP/images

rc=0
python3 -m unittest -v rbts.rbts_test > "$LOGS/python-unit.log" 2>&1 || rc=$?
# "test_x (rbts.rbts_test.PlanTest.test_x) ... ok", or FAIL / ERROR
n=0
while read -r name verdict; do
	n=$((n + 1))
	[ "$verdict" = ok ] && ok "$name" || not_ok "$name: $verdict (see $LOGS/python-unit.log)"
done < <(sed -n 's/^\(test_[a-z0-9_]*\) (rbts\.rbts_test\.\([A-Za-z]*\)\.[a-z0-9_]*) \.\.\. \(ok\|FAIL\|ERROR\)$/\2.\1 \3/p' "$LOGS/python-unit.log")
[ "$n" -gt 0 ] && [ "$rc" = 0 ] && ok "unittest: $n tests, exit 0" ||
	not_ok "unittest: $n tests read, exit $rc: $(tail -n 3 "$LOGS/python-unit.log" | tr '\n' ' ')"
