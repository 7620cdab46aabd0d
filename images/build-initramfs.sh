#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox-static, /init, the stress module,
# rbcheck and trace-cmd with the shared libraries they need (as the host
# has them: the guest runs the host's userland binaries).
#
# usage: images/build-initramfs.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

stage=$BUILD/initramfs-$FLAVOUR
ko=$MODOUT/rbstress.ko
for f in /bin/busybox "$ko" "$CHECKOUT/rbcheck" /usr/bin/trace-cmd; do
	[ -f "$f" ] || die "initramfs: $f is missing (build it first)"
done
file /bin/busybox | grep -q 'statically linked' || die "/bin/busybox is not static (apt-get install busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,usr/bin,lib/modules,etc/rbts,proc,sys,dev,tmp,out}

# A binary and, at the same paths as on the host, the libraries it loads.
add_binary() {
	local bin=$1 dest=$2 lib
	install -m 0755 "$bin" "$stage/$dest"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] || cp -L --parents "$lib" "$stage"
	done
}

install -m 0755 /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
install -m 0755 "$TOP/images/guest-init.sh" "$stage/init"
install -m 0755 "$TOP/images/guest-faults.sh" "$stage/bin/rbts-faults"
install -m 0644 "$ko" "$stage/lib/modules/rbstress.ko"
# The kernel's own ring buffer benchmark, for ./run.sh bench kernels.
rbb=$KOUT/kernel/trace/ring_buffer_benchmark.ko
[ ! -f "$rbb" ] || install -m 0644 "$rbb" "$stage/lib/modules/ring_buffer_benchmark.ko"
install -D -m 0644 "$TOP/images/module-params.table" "$stage/etc/rbts/module-params.table"
add_binary "$CHECKOUT/rbcheck" usr/bin/rbcheck
add_binary /usr/bin/trace-cmd usr/bin/trace-cmd

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$INITRAMFS.new"
mv "$INITRAMFS.new" "$INITRAMFS"
say "initramfs: ${INITRAMFS#$TOP/} ($(du -h "$INITRAMFS" | cut -f1))"
