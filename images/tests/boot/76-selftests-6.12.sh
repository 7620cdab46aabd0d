#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel line 6.12: the ftracetest subset gives the same results on vanilla 6.12 and on our 6.12 series
# rbts-test: line 6.12
# rbts-test: full
. "$(dirname "$0")/../lib.sh"
src=0
"$TOP/run.sh" selftests --kernel 6.12 > "$LOGS/selftests-6.12.log" 2>&1 || src=$?
sres=$(ls -d "$TOP"/results/selftests-* 2>/dev/null | tail -n1)
[ "$src" = 0 ] && ok "6.12: vanilla and series give identical ftracetest results (exit 0)" ||
	not_ok "6.12: vanilla and series give identical ftracetest results (exit $src, see $sres/table.md)"
n=$(grep -c '^| [0-9a-z]*/' "$sres/table.md" 2>/dev/null)
[ "${n:-0}" -ge 20 ] && ok "6.12: $n ftracetest cases compared" || not_ok "6.12: ftracetest cases compared: ${n:-none}"
p=$(grep -c '^| .* | PASS[A-Z,]* | PASS[A-Z,]* | same |$' "$sres/table.md" 2>/dev/null)
[ "${p:-0}" -ge 10 ] && ok "6.12: $p of them PASS on both" || not_ok "6.12: cases that PASS on both: ${p:-0}"
grep -E '^(not a pass on either|kernel .* complained)' "$sres/table.md" 2>/dev/null | sed 's/^/# /'
