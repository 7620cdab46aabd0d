# SPDX-License-Identifier: GPL-2.0
# what: the reader stalled (SIGSTOP) on a small buffer: the kernel overwrites, and reports the loss to the reader
# evidence: lost > 0
# says: {lost} events lost, reported by the buffer
stall_reader 1
