# SPDX-License-Identifier: GPL-2.0
# what: buffer_size_kb down to 1/64 and back up, the reader stalled before the shrink (it removes unread events)
# evidence: True
# says:
#
# The reader stalls first and goes on just before the shrink, so that the
# pages the shrink removes (those after the tail, the oldest) hold events it
# has not read: their loss must be reported at the gap, before the reader
# passes it (the fix "Report the events a shrink removes before ...").
# The sequence rule is the evidence.
kill -STOP "$checker" 2>/dev/null; pause 0.3
kill -CONT "$checker" 2>/dev/null
echo $((BUFKB / 64 > 16 ? BUFKB / 64 : 16)) > "$I/buffer_size_kb"; pause 0.3
echo "$BUFKB" > "$I/buffer_size_kb"; pause 0.3
