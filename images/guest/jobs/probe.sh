#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The accel probe (Guest.probe_accel, images/rbts/run.py): the guest reached /init.  No
# results: it powers off at once.

echo "RBTS-PROBE-OK"
poweroff -f
