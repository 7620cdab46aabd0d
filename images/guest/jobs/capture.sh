#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A plain trace-cmd capture of the stress, for benchmarks: no live checker.
#
# Sourced by /init (images/guest/init.sh) with the settings and
# /etc/rbts/lib.sh; /init writes the results back when it returns.

# shellcheck disable=SC2086 # $mod is a list of parameters
insmod /lib/modules/rbstress.ko clock="$clock" $mod || { echo 2 > /out/job-exit; return 0; }
echo "rbts: recording ${duration}s with trace-cmd record"
(cd /tmp && trace-cmd record -q -C "$clock" -b "$bufkb" -e rbstress -o /out/trace.dat \
	sleep "$duration" > /out/trace-cmd.log 2>&1)
echo $? > /out/job-exit
rmmod rbstress
