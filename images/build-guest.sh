#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Everything one guest needs, for the kernel RBTS_KERNEL names (a spec,
# images/kernel/spec.sh): the tree, the kernel, the stress module and the
# initramfs.  For the scripts
# that compare kernels (bench-kernels.sh, selftests-kernels.sh).  Each
# step is skipped when its inputs are unchanged.
#
# usage: images/build-guest.sh
set -euo pipefail
here=$(dirname "$0")
"$here/prepare-tree.sh"
"$here/build-kernel.sh"
"$here/build-module.sh"
"$here/build-initramfs.sh"
