# SPDX-License-Identifier: GPL-2.0
# TAP result lines for the test scripts.  Sourced, not run.  The suite
# (images/tests/runner.py) numbers them, so these do not.
ok()     { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; }

# out_has [GREP-OPTIONS] PATTERN: whether the test's $out has a line that
# matches.  Not 'echo "$out" | grep -q': grep leaves at its first match,
# and under pipefail a long $out makes echo's write fail (SIGPIPE) and
# the check fail although the line is there.
out_has() { grep -q "$@" <<< "$out"; }
