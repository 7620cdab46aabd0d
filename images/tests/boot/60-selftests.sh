#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the kernel's ftracetest subset gives the same results on vanilla and on our series
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
src=0
"$TOP/run.sh" selftests > "$LOGS/selftests.log" 2>&1 || src=$?
sres=$(ls -d "$TOP"/results/selftests-* 2>/dev/null | tail -n1)
[ "$src" = 0 ] && ok "vanilla and series give identical ftracetest results (exit 0)" ||
	not_ok "vanilla and series give identical ftracetest results (exit $src, see $sres/table.md)"
n=$(grep -c '^| [0-9a-z]*/' "$sres/table.md" 2>/dev/null)
[ "${n:-0}" -ge 20 ] && ok "$n ftracetest cases compared" || not_ok "ftracetest cases compared: ${n:-none}"
p=$(grep -c '^| .* | PASS[A-Z,]* | PASS[A-Z,]* | same |$' "$sres/table.md" 2>/dev/null)
[ "${p:-0}" -ge 10 ] && ok "$p of them PASS on both" || not_ok "cases that PASS on both: ${p:-0}"
grep -E '^(not a pass on either|kernel .* complained)' "$sres/table.md" 2>/dev/null | sed 's/^/# /'
