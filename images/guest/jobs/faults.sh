#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each fault scenario in turn: a live check of its own while rbts-faults
# injects the fault until the check ends.  /out/faults/SCENARIO/ gets the
# checker's summary, JSON, exit status, and the injector's counts.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

start_writers || return
# The kernel log per scenario, so that a complaint is laid at its door.
dmesg -c > /out/dmesg-before-faults.txt
bad=0
for s in $faults; do
	d=/out/faults/$s
	mkdir -p "$d"
	echo 1 > "$I/tracing_on"
	opts=
	case "$s" in filter|mixed) opts="--filter-seq-mask 7" ;; esac
	[ "$saveraw" = 1 ] && opts="$opts --save-raw $d/raw"
	echo "rbts: fault '$s': injecting it for ${duration}s while the checker verifies"
	# shellcheck disable=SC2086 # $opts is a list of options
	rbcheck live --instance rbstress --duration "$duration" --progress 10 \
		--require-nested --ktap "$d/result.ktap" --json "$d/result.json" \
		--keep-failing "$d/violation-raw" $opts \
		> "$d/summary.txt" &
	checker=$!
	stop_button "$checker"
	I=$I BUFKB=$bufkb CLOCK=$clock MODPARAMS=$mod rbts-faults "$s" "$checker" > "$d/injected.txt"
	wait "$checker"
	rc=$?
	echo "$rc" > "$d/job-exit"
	[ "$rc" = 0 ] || bad=1
	cat "$D/stats" > "$d/module-stats.txt" 2>/dev/null
	dmesg -c > "$d/dmesg.txt"
	echo "rbts: fault '$s': checker exit $rc, $(grep -m1 '^injected' "$d/injected.txt")"
	[ ! -f /out/stopped ] || break
done
echo 0 > "$I/events/rbstress/enable"
rmmod rbstress
rmdir "$I"
echo "$bad" > /out/job-exit
