#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: every fault scenario, injected under the live checker, with evidence that it acted
. "$(dirname "$0")/../lib.sh"
# every scenario one by one: the default of images/guest/settings.table
boot --faults "${RBTS_FAULTS:-$("$TOP/images/guest-args.py" --default faults)}" \
	--duration "${RBTS_FAULT_SECONDS:-15}"
faults_tap
n=$(faults_tap | wc -l)
[ "$n" -ge "$(echo "${RBTS_FAULTS:-$("$TOP/images/guest-args.py" --default faults)}" | tr , "\n" | wc -l)" ] && ok "all $n scenarios ran" || not_ok "all scenarios ran: $n rows in $res/faults/faults.json"
must_pass "faults run PASSes, kernel log clean"
