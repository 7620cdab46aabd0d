#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12: the ftracetest subset gives the same results on vanilla 6.12 and on our 6.12 series
# rbts-test: line 6.12
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
selftests_taps 6.12
