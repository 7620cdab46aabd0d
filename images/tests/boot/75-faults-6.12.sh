#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12: every fault scenario, injected under the live checker; a FAIL only on a known finding is its TODO
# rbts-test: line 6.12
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
boot --kernel 6.12 --faults "$("$TOP/images/guest-args.py" --default faults)" --duration 15
faults_tap
n=$(faults_tap | wc -l)
[ "$n" -ge "$("$TOP/images/guest-args.py" --default faults | tr , "\n" | wc -l)" ] &&
	ok "6.12: all $n scenarios ran" || not_ok "6.12: all scenarios ran: $n rows in $res/faults/faults.json"
must_pass "6.12: faults run PASSes, kernel log clean"
