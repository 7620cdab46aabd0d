#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each case of the table: TAP lines in /out/params.tap, verdict 0 if all pass.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

n=0 bad=0
while read -r expect params; do
	case "$expect" in reject|accept) ;; *) continue ;; esac
	n=$((n + 1))
	dmesg -c > /dev/null
	# shellcheck disable=SC2086 # a list of parameters
	if insmod /lib/modules/rbstress.ko $params 2>/tmp/insmod.err; then got=accept; else got=reject; fi
	# A rejection must come with an error-level (<3>) line naming it.
	if [ "$got" = reject ]; then
		msg=$(dmesg -r | grep -m1 '^<3>.*rbstress' | sed 's/^<3>\[[^]]*\] //')
	else
		msg=$(dmesg | grep -m1 'rbstress: loaded' | sed 's/^\[[^]]*\] //')
	fi
	if [ "$got" = accept ]; then
		rmmod rbstress || bad=$((bad + 1))
	fi
	first=${params%% *}
	if [ "$got" != "$expect" ]; then
		echo "not ok $n - $expect '$params': was ${got}ed ($msg)"
		bad=$((bad + 1))
	elif [ "$got" = reject ] && ! echo "$msg" | grep -q "${first%%=*}"; then
		echo "not ok $n - reject '$params': the error does not name ${first%%=*} ($msg)"
		bad=$((bad + 1))
	elif [ "$got" = reject ] && [ -d /sys/module/rbstress ]; then
		echo "not ok $n - reject '$params': something stayed loaded"
		bad=$((bad + 1))
	else
		echo "ok $n - $expect '$params'${msg:+: $msg}"
	fi
done < /etc/rbts/module-params.table > /out/params.tap
cat /out/params.tap
[ "$bad" = 0 ] && echo 0 > /out/job-exit || echo 1 > /out/job-exit
