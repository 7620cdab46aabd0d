#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel-patches/LINE/{fixes,test}/ of every kernel line: subjects, bodies, Signed-off-by, checkpatch --strict with the line's own tree; each part one format-patch run (cover letter, numbering); every fix has a Fixes: tag or says below --- why not; the fixes apply alone to the pristine tree
#
# Check each line's series (images/kernel/lines.table) the way a
# maintainer's inbox would: the line's series is its fixes part (the
# mailable one) and then its test part, each from one `git format-patch
# --cover-letter` run (docs/kernel-patches.md).  Every patch in a part's
# 'series' exists, is numbered [PATCH i/N] in order under a cover letter
# [PATCH 0/N], has a "subsystem: Summary" subject, a body, a
# Signed-off-by, and passes that line's own scripts/checkpatch.pl
# --strict.  A fix carries a Fixes: tag or says below its --- why it has
# none, and the fixes apply in order to the pristine tree, without the
# test part.  Prints one TAP line per check.
# The checks are images/kernel/check-patches.sh's.
set -uo pipefail
. "$(dirname "$0")/../../common.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$TOP/images/tap.sh"
. "$TOP/images/kernel/check-patches.sh"

for line in $(kspec_lines); do
	check_line "$line"
done

# The mainline port (docs/kernel-patches.md): the same checks with the
# newest line's checkpatch; it is checked by the model, not applied here.
PATCHES=$TOP/kernel-patches
if [ -x "${checkpatch:-}" ]; then
	check_part mainline mainline
fi
