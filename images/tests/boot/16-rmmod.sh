#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the module unloads under full load, several times, with a clean kernel log
. "$(dirname "$0")/../lib.sh"
boot --job rmmod
sed -e 's/^\(\(not \)\?ok\) [0-9]* \(- \)\?/\1 - /' "$(rfile rmmod.tap)" 2>/dev/null
[ "$rc" = 0 ] && ok "unloads under load leave the kernel log clean" ||
	not_ok "unloads under load leave the kernel log clean (exit $rc, see $res)"
