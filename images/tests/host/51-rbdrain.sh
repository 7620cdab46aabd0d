#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: rbdrain (the i386 guest's drainer) on a tracefs look-alike
. "$(dirname "$0")/../lib.sh"
"$TOP/userspace-checker/tests/test_rbdrain.sh" "$CHECKOUT/rbdrain" "$CHECKOUT/rbcheck" "$FIXTURES/raw"
