#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck's rules, each fed its violation and a clean stream (test_rules)
. "$(dirname "$0")/../lib.sh"
# its results, diagnostics and plan: the runner holds it to the plan
"$CHECKOUT/test_rules" | grep -E '^(not )?ok |^#|^1\.\.[0-9]+$'
