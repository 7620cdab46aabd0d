#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reserve-path model on any kernel tree (./run.sh model --reserve
# --ksrc DIR): an extracted tree or a git checkout, mainline or a
# maintainer's branch, used as it is (no series applied).  Only
# kernel/trace/ring_buffer.c and include/linux/ring_buffer.h (and 7.x's
# ring_buffer_types.h) are read.
# A tree whose reserve path the extractor cannot follow is refused with
# what it missed, exit 2, before anything is built; the model is built
# once per content of those two files (images/model-build.sh).
#
# usage: images/model-ksrc.sh DIR [rbreserve options]
set -euo pipefail
. "$(dirname "$0")/common.sh"

refuse() { printf 'run.sh: model --ksrc %s: %s\n' "$ksrc" "$*" >&2; exit 2; }

ksrc=${1:-}
shift || true
out=$("$TOP/images/model-build.sh" "$ksrc" 2>&1) || refuse "$out"
[ -z "$ksrc" ] || ksrc=$(cd "$ksrc" && pwd)
say "rbreserve: the reserve path of $ksrc (as it is, no series applied)"
exec "${out##*$'\n'}/rbreserve" "$@"
