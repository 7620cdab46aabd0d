# SPDX-License-Identifier: GPL-2.0
# what: another instance created, written to and destroyed
# evidence: True
# says:
side=/sys/kernel/tracing/instances/rbts-side
mkdir "$side" || return 1
echo 16 > "$side/buffer_size_kb"
echo "rbts: a marker in the side instance" > "$side/trace_marker"
echo local > "$side/trace_clock"
pause 0.1
rmdir "$side" || return 1
pause 0.1
