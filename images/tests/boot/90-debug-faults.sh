#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: every fault scenario on the debug kernel (panic_on_warn)
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
build_kernel --debug
boot --debug --faults "$(PYTHONPATH=$TOP/images python3 -m rbts.settings --default faults)" --duration 20
faults_tap
must_pass "debug faults run PASSes, kernel log clean"
