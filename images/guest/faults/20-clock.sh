# SPDX-License-Identifier: GPL-2.0
# what: trace_clock local <-> global (the kernel resets the buffer)
# evidence: faults['buffer_resets'] > 0
# says: {faults[buffer_resets]} buffer resets followed
echo local > "$I/trace_clock"; pause 0.8
echo "$CLOCK" > "$I/trace_clock"; pause 0.8
