#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: every fault scenario, injected under the live checker, with evidence that it acted; a FAIL only on a known finding is its TODO
# rbts-test: lines all
# rbts-test: full other-lines
. "$(dirname "$0")/../lib.sh"
# every scenario one by one: the default of images/guest/settings.table
faults=${RBTS_FAULTS:-$(PYTHONPATH=$TOP/images python3 -m rbts.settings --default faults)}
boot --kernel "$LINE" --faults "$faults" --duration "${RBTS_FAULT_SECONDS:-15}"
faults_tap
n=$(faults_tap | wc -l)
[ "$n" -ge "$(echo "$faults" | tr , "\n" | wc -l)" ] && ok "$LINE: all $n scenarios ran" ||
	not_ok "$LINE: all scenarios ran: $n rows in $res/faults/faults.json"
must_pass "$LINE: faults run PASSes, kernel log clean"
