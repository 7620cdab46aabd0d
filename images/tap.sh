# SPDX-License-Identifier: GPL-2.0
# TAP result lines for the test scripts.  Sourced, not run.  The suite
# (images/tests/runner.py) numbers them, so these do not.
ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; }
