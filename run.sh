#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbts - prove that the ring buffer gives nested events true time stamps.
# The one entry point.  It only dispatches: every command is in the spine,
# images/rbts/ (cli.py: the commands; plan.py: a run's options, checked
# before anything is spent; run.py: build, boot, collect, judge).  See
# README.md and ./run.sh --help.
TOP=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH="$TOP/images${PYTHONPATH:+:$PYTHONPATH}"
exec python3 -m rbts "$@"
