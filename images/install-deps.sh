#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install with apt-get whatever of the project's Debian packages is missing,
# with the kernel source package of every kernel line (each row of
# images/kernel/lines.table names one): the suite and bench kernels use
# them all, and one is a few hundred MB.  Quiet when everything is there
# already.  (gcc-multilib: rbdrain for the i386 guest is built with
# -m32; its busybox: images/fetch-i386-busybox.sh.)
#
# usage: images/install-deps.sh [lava]
#
# lava: LAVA's dispatcher alone (lava-run, lavacli: ./run.sh matrix --lava
# with --validate or --lava-run), some 150 packages, systemd among them:
# only when asked.
set -euo pipefail
. "$(dirname "$0")/common.sh"

case "${1:-}" in
"")	mapfile -t line_pkgs < <(kspec packages)
	pkgs=("${line_pkgs[@]}" qemu-system-x86 busybox-static libtracefs-dev
	      libtraceevent-dev libtracecmd-dev trace-cmd build-essential bc flex bison
	      libelf-dev libssl-dev cpio ccache pkg-config file python3
	      clang libclang-rt-14-dev time gnuplot-nox libzstd-dev
	      gcc-multilib kmod rsync) ;;
lava)	pkgs=(lava-dispatcher lavacli) ;;
*)	die "install-deps.sh: unknown set '$1' (none, or lava)" ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || { echo "error: missing packages (${missing[*]}) and not root to install them" >&2; exit 2; }
echo "==> installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Another apt-get or dpkg (a second ./run.sh started at once, the
# machine's own updates) holds the package manager's lock: wait for it,
# saying so, rather than fail with apt-get's exit 100 and its words.
waited=0
busy() { for n in apt-get apt dpkg unattended-upgr; do pgrep -x "$n"; done | xargs; }
while pids=$(busy) && [ -n "$pids" ]; do
	[ $waited = 0 ] && echo "==> waiting for the package manager: another apt-get or dpkg runs (pid $pids)"
	[ $waited -ge 600 ] && die "the package manager is still busy after 600 s (pid $pids): try again when it is done"
	sleep 5
	waited=$((waited + 5))
done
apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}" >/dev/null
