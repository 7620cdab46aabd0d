# SPDX-License-Identifier: GPL-2.0
# what: the same with options/overwrite 0: the kernel drops new events and counts them ("dropped events", or "commit overrun" while the commit page is the reader's)
# evidence: inj['dropped'] > 0 and abs(inj['refused'] - inj['dropped']) <= INFLIGHT
# says: {inj[dropped]} dropped by the kernel ({inj[commit_overruns]} of them commit overruns), {inj[refused]} refused calls
stall_reader 0
