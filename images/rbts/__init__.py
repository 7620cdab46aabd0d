# SPDX-License-Identifier: GPL-2.0
"""rbts: the harness's spine.  kspec (a kernel spec's paths), plan (the
options of a run, checked), run (build, boot, collect, judge), results (the
layout of a results directory), cli (the commands that boot a guest).
docs/design.md has the picture."""
