#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Decide the accelerator for --accel auto: KVM only if /dev/kvm is usable
# *and* a KVM guest actually reaches /init within a few seconds (on nested
# setups it may hang at kernel entry); otherwise TCG.  The answer is cached
# per machine and kernel build in build/accel-probe.
#
# usage: images/probe-accel.sh   (prints "kvm" or "tcg", and one line on stderr)
set -euo pipefail
. "$(dirname "$0")/common.sh"

cache=$BUILD/accel-probe
key="$(hostname) $(uname -r) $(cat "$KOUT/.rbts-stamp" 2>/dev/null)"
if [ -f "$cache" ] && [ "$(head -n1 "$cache")" = "$key" ]; then
	res=$(sed -n 2p "$cache")
	echo "accel: $res (cached probe result, $cache)" >&2
	echo "$res"
	exit 0
fi

res=tcg why="/dev/kvm is not usable"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	dir=$(mktemp -d)
	if "$TOP/images/boot.sh" --accel kvm --cpus 1 --timeout 8 --out "$dir" \
		--append "$("$TOP/images/guest-args.py" job=probe)" --quiet 2>/dev/null &&
		grep -q RBTS-PROBE-OK "$dir/console.log"; then
		res=kvm why="a KVM guest reached /init"
	else
		why="a KVM guest did not reach /init within 8s"
	fi
	rm -rf "$dir"
fi
printf '%s\n%s\n' "$key" "$res" > "$cache"
echo "accel: $res ($why)" >&2
echo "$res"
