# SPDX-License-Identifier: GPL-2.0
# what: the filter 'seq & 7' set and cleared: events are discarded after their reservation when nested (below the per-CPU filter buffer's user)
# evidence: faults['filtered'] > 0
# says: {faults[filtered]} filtered out, {faults[stamped_at_commit]} stamped at commit
echo 'seq & 7' > "$I/events/rbstress/rbstress_event/filter"; pause 0.5
echo 0 > "$I/events/rbstress/rbstress_event/filter"; pause 0.3
