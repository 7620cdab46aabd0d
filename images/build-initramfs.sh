#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox-static, /init, the stress module,
# rbcheck, rbdrain and trace-cmd with the shared libraries they need (as the
# host has them: the x86_64 guest runs the host's userland binaries); for
# i386, Debian's i386 busybox-static and a 32-bit rbdrain only.
#
# usage: images/build-initramfs.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

stage=${INITRAMFS%.cpio.gz}
ko=$MODOUT/rbstress.ko
# The x86_64 guest runs the host's own busybox, rbcheck and trace-cmd; the
# i386 guest Debian's i386 busybox-static and rbdrain (built -m32), and its
# sub-buffers are verified on the host.
if [ "$ARCH" = i386 ]; then
	busybox=$("$TOP/images/fetch-i386-busybox.sh")
	bins=("$GUESTOUT/rbdrain")
else
	busybox=/bin/busybox
	bins=("$CHECKOUT/rbcheck" "$CHECKOUT/rbdrain" /usr/bin/trace-cmd)
fi
for f in "$busybox" "$ko" "${bins[@]}"; do
	[ -f "$f" ] || die "initramfs: $f is missing (build it first)"
done
file "$busybox" | grep -q 'statically linked' || die "$busybox is not static (apt-get install busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,usr/bin,lib/modules,etc/rbts,proc,sys,dev,tmp,out}

# A binary and, at the same paths as on the host, the libraries it loads.
add_binary() {
	local bin=$1 dest=$2 lib
	install -m 0755 "$bin" "$stage/$dest"
	file "$bin" | grep -q 'statically linked' && return
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] || cp -L --parents "$lib" "$stage"
	done
}

install -m 0755 "$busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
# /init, what its jobs share, one script per job (images/guest/)
install -m 0755 "$TOP/images/guest/init.sh" "$stage/init"
install -D -m 0644 "$TOP/images/guest/lib.sh" "$stage/etc/rbts/lib.sh"
mkdir -p "$stage/etc/rbts/jobs"
install -m 0644 "$TOP"/images/guest/jobs/*.sh "$stage/etc/rbts/jobs/"
install -m 0755 "$TOP/images/guest/faults.sh" "$stage/bin/rbts-faults"
# each fault's injector as NAME.sh, and their order (images/rbts/faults.py)
mkdir -p "$stage/etc/rbts/faults"
for f in "$TOP"/images/guest/faults/[0-9]*-*.sh; do
	n=$(basename "$f" .sh)
	install -m 0644 "$f" "$stage/etc/rbts/faults/${n#*-}.sh"
	echo "${n#*-}"
done > "$stage/etc/rbts/faults/order"
install -m 0644 "$ko" "$stage/lib/modules/rbstress.ko"
# The kernel's own ring buffer benchmark, for ./run.sh bench kernels.
rbb=$KOUT/kernel/trace/ring_buffer_benchmark.ko
[ ! -f "$rbb" ] || install -m 0644 "$rbb" "$stage/lib/modules/ring_buffer_benchmark.ko"
install -D -m 0644 "$TOP/images/module-params.table" "$stage/etc/rbts/module-params.table"
# the settings table with its lists made (@faults: the fault files)
PYTHONPATH="$TOP/images" python3 -m rbts.settings --table > "$stage/etc/rbts/settings.table"
install -m 0644 "$TOP/images/guest/cases.sh" "$TOP/images/kernel-complaints.pattern" "$stage/etc/rbts/"
# The trace_printk sample, where ftracetest's modprobe finds it.
tpk=$KOUT/samples/trace_printk/trace-printk.ko
if [ -f "$tpk" ]; then
	rel=$(cat "$KOUT/include/config/kernel.release")
	mdir=$stage/lib/modules/$rel
	install -D -m 0644 "$tpk" "$mdir/kernel/samples/trace_printk/trace-printk.ko"
	# What depmod reads besides the modules (it warns when they are
	# missing): the kernel's list of built-in modules, and the order of
	# the one module installed here.
	for f in modules.builtin modules.builtin.modinfo; do
		[ ! -f "$KOUT/$f" ] || install -m 0644 "$KOUT/$f" "$mdir/$f"
	done
	echo kernel/samples/trace_printk/trace-printk.ko > "$mdir/modules.order"
	/sbin/depmod -b "$stage" "$rel"
fi
# The kernel's ftrace selftests, from the tree under test, and our subset.
mkdir -p "$stage/usr/share"
cp -r "$SRC/tools/testing/selftests/ftrace" "$stage/usr/share/ftracetest"
install -m 0644 "$TOP/images/ftracetest/subset.list" "$stage/etc/rbts/ftracetest.list"
for b in "${bins[@]}"; do
	add_binary "$b" "usr/bin/$(basename "$b")"
done

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$INITRAMFS.new"
mv "$INITRAMFS.new" "$INITRAMFS"
say "initramfs: ${INITRAMFS#$TOP/} ($(du -h "$INITRAMFS" | cut -f1))"
