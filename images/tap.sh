# SPDX-License-Identifier: GPL-2.0
# TAP result lines for the test scripts.  Sourced, not run.  The suite
# (run-tests.sh) counts them; it numbers nothing, so neither do these.
ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; }
