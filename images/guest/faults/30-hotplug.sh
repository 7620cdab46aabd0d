# SPDX-License-Identifier: GPL-2.0
# what: the last CPU offline and online again (the writers follow)
# evidence: True
# says:
# skip-when: inj['injected'] == 0 and inj['not_injected'] > 0
# skip-says: no CPU can go offline
cpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | sort -V | tail -n 1)
[ -f "$cpu/online" ] || return 1
echo 0 > "$cpu/online" || return 1
pause 0.5
echo 1 > "$cpu/online" || return 1
pause 0.5
