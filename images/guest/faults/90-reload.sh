# SPDX-License-Identifier: GPL-2.0
# what: rbstress unloaded and loaded again under load
# evidence: faults['module_reloads'] > 0
# says: {faults[module_reloads]} reloads seen (all CPUs)
rmmod rbstress || return 1
# shellcheck disable=SC2086 # a list of parameters
insmod /lib/modules/rbstress.ko clock="$CLOCK" $MODPARAMS || return 1
echo 1 > "$I/events/rbstress/enable"
pause 1.5
