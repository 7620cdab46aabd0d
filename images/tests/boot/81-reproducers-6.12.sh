#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12: the reproducers of findings (b) and (a) hit our series without their fixes (expected) and not our series
# rbts-test: line 6.12
# rbts-test: full
REPRODUCERS_LINE=6.12 exec bash "$(dirname "$0")/80-reproducers.sh"
