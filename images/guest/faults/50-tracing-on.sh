# SPDX-License-Identifier: GPL-2.0
# what: the instance's tracing_on off and on
# evidence: True
# says:
echo 0 > "$I/tracing_on"; pause 0.2
echo 1 > "$I/tracing_on"; pause 0.3
