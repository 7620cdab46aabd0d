#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the kernel's ftracetest subset gives the same results on vanilla and on our series
# rbts-test: lines all
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
selftests_taps "$LINE"
