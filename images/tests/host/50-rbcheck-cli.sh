#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbcheck's command line and bad input, on the committed capture
. "$(dirname "$0")/../lib.sh"
"$TOP/userspace-checker/tests/test_cli.sh" "$CHECKOUT/rbcheck" "$FIXTURES/trace.dat" "$FIXTURES/raw"
