#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own ftrace selftests, the curated subset: one ftracetest run
# per case, under busybox's timeout.  Each result line of ftracetest
# ("[N] description [PASS]"; a case flagged "instance" runs a second time,
# "(instance)") becomes "CASE<TAB>RESULT[,RESULT]" in /out/selftests.tsv.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

ft=/usr/share/ftracetest
n=0
: > /out/selftests.tsv
mkdir -p /out/ftracetest-logs
while read -r t _; do
	case "$t" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	log=/out/ftracetest-logs/$(echo "$t" | tr '/' '_' | sed 's/\.tc$//')
	start=$(date +%s)
	timeout "$fttimeout" "$ft/ftracetest" -k -l "$log.logs" "$ft/test.d/$t" > "$log.out" 2>&1
	rc=$?
	res=$(sed -n 's/^\[[0-9]*\] .*\[\([A-Z]*\)\]$/\1/p' "$log.out" | paste -s -d, -)
	# timeout kills with SIGTERM: 143
	[ "$rc" = 143 ] && res=${res:+$res,}TIMEOUT
	[ -n "$res" ] || res="NORESULT(exit $rc)"
	printf '%s\t%s\n' "$t" "$res" >> /out/selftests.tsv
	echo "rbts: ftracetest $n $t: $res ($(( $(date +%s) - start ))s)"
done < /etc/rbts/ftracetest.list
echo 0 > /out/job-exit
