# SPDX-License-Identifier: GPL-2.0
"""python3 -m rbts COMMAND [OPTIONS]: see rbts/cli.py."""
import os
import sys

from rbts import cli

try:
    rc = cli.main(sys.argv[1:])
    sys.stdout.flush()
except BrokenPipeError:
    # the reader went away (./run.sh --dry-run | head): not an error of ours
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    rc = 0
sys.exit(rc)
