#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck's rules, each fed its violation and a clean stream (test_rules)
. "$(dirname "$0")/../lib.sh"
"$CHECKOUT/test_rules" | grep -E '^(not )?ok |^#'
