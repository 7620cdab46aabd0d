#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: bad module parameters are refused with -EINVAL and a pr_err, good ones load
. "$(dirname "$0")/../lib.sh"
boot --job params
sed -e 's/^\(\(not \)\?ok\) [0-9]* \(- \)\?/\1 - /' "$(rfile params.tap)" 2>/dev/null
[ "$rc" = 0 ] && ok "every parameter case as expected, kernel log clean" ||
	not_ok "every parameter case as expected, kernel log clean (exit $rc, see $res)"
