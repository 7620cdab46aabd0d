#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: boot.sh boots a guest that died of a stray int3 (multi-threaded TCG) once more, keeps the first console apart, and gives up after the second: with a QEMU that plays the guest
#
# No guest runs: a qemu-system-x86_64 of our own, first on PATH, writes
# the console and the results disk as a guest would (the oops of the
# stray int3 seen in CI: results/20261206-064801-17786 of a clone).  The
# kernel and initramfs must exist, as boot.sh checks them (boot/stress
# built them).
. "$(dirname "$0")/../lib.sh"
mkdir -p "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
# plays a guest: $FAKE_PLAN is one word per boot, int3 or ok
console= disk=
for a in "$@"; do
	case $a in
	file:*) console=${a#file:} ;;
	file=*.results.img,*) disk=${a#file=}; disk=${disk%%,*} ;;
	esac
done
n=$(( $(cat "$FAKE_DIR/boots" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$FAKE_DIR/boots"
what=$(echo "$FAKE_PLAN" | cut -d' ' -f"$n")
echo "rbts: guest up: 2 CPU(s), fake" > "$console"
if [ "$what" = int3 ]; then
	printf '[    2.191180] int3: 0000 [#1] SMP\n[    2.194324] Kernel panic - not syncing: Fatal exception in interrupt\n' >> "$console"
elif [ "$what" = int3-612 ]; then	# 6.12's form of the same oops
	printf '[    1.704311] Oops: int3: 0000 [#1] PREEMPT SMP\n[    1.706020] Kernel panic - not syncing: Fatal exception in interrupt\n' >> "$console"
else
	echo 0 > "$FAKE_DIR/job-exit"
	tar -cf "$disk" -C "$FAKE_DIR" job-exit
fi
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"

fake_boot() {	# PLAN: boot.sh with the fake QEMU; sets rc, o
	o=$tmp/out-${1// /-}
	rm -rf "$tmp/fake"; mkdir -p "$tmp/fake"
	rc=0
	PATH=$tmp/bin:$PATH FAKE_DIR=$tmp/fake FAKE_PLAN=$1 RBTS_KERNEL=6.1:ours:default:x86_64 \
		"$TOP/images/boot.sh" --accel tcg --quiet --timeout 60 --out "$o" > "$tmp/boot.out" 2>&1 || rc=$?
}

fake_boot "int3 ok"
[ "$rc" = 0 ] && [ "$(cat "$tmp/fake/boots")" = 2 ] && [ "$(cat "$o/job-exit" 2>/dev/null)" = 0 ] &&
	grep -q "int3: 0000" "$o/console-stray-int3.log" && ! grep -q "int3" "$o/console.log" &&
	grep -q "rbts: the guest died of a stray int3 .*booting it again" "$tmp/boot.out" &&
	ok "a stray int3, then a good boot: booted twice, the second's results, the first console kept apart" ||
	not_ok "a stray int3, then a good boot: exit $rc, $(cat "$tmp/fake/boots") boot(s), verdict '$(cat "$o/job-exit" 2>/dev/null)': $(tail -n2 "$tmp/boot.out")"
fake_boot "int3-612 ok"
[ "$rc" = 0 ] && [ "$(cat "$tmp/fake/boots")" = 2 ] && [ "$(cat "$o/job-exit" 2>/dev/null)" = 0 ] &&
	grep -q "Oops: int3: 0000" "$o/console-stray-int3.log" &&
	ok "6.12's form of it (Oops: int3:), then a good boot: booted twice" ||
	not_ok "6.12's form of a stray int3: exit $rc, $(cat "$tmp/fake/boots") boot(s): $(tail -n2 "$tmp/boot.out")"
fake_boot "int3 int3 ok"
[ "$rc" = 0 ] && [ "$(cat "$tmp/fake/boots")" = 2 ] && [ ! -f "$o/job-exit" ] && grep -q "int3: 0000" "$o/console.log" &&
	ok "two stray int3s: no third boot, the second's console is the run's (no results: the run FAILs)" ||
	not_ok "two stray int3s: exit $rc, $(cat "$tmp/fake/boots") boot(s)"
fake_boot "ok"
[ "$rc" = 0 ] && [ "$(cat "$tmp/fake/boots")" = 1 ] && [ ! -f "$o/console-stray-int3.log" ] &&
	ok "a good boot: booted once" || not_ok "a good boot: exit $rc, $(cat "$tmp/fake/boots") boot(s)"
