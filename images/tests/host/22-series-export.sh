#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: ./run.sh series export: refused without a sender or with a placeholder one (exit 2, nothing written); with one, every mail of every mailable part (mainline, each line's fixes) carries the sender's From: and Signed-off-by:, passes 'series check' and checkpatch --strict; 'series check' catches a placeholder identity, a missing sign-off, a misnumbered patch, a mainline cover letter that points outside itself, an RFC mail (of (d)) not from the sender or not marked [RFC]; each group of kernel-patches/groups applies alone with git am to its pristine tree
#
# The committed series carries no identity that could go out (host/patches
# checks that); the copy a sender mails is written by `./run.sh series
# export --from` (images/rbts/series.py).  This checks that copy the way a
# maintainer's inbox would, and that each group of fixes stands alone: the
# files the fixes touch, from the line's pristine tarball, committed in a
# scratch git repository, and `git am` of the group's exported patches on
# that commit, without the other groups.  The mainline base is Debian's
# linux-source-7.2 from sid, which the suite does not download: where it
# is not in /usr/src or build/, the mainline groups are a SKIP.
. "$(dirname "$0")/../lib.sh"

series() { rbts series "$@"; }
sender='Tess Sender <tess.sender@kernel-mail.net>'
mail=$tmp/mail

# Refusals: one line, exit 2, nothing written
for bad in "" "rbts developers <rbts@localhost>" "Tess <tess@example.org>" \
	"Tess <tess@localhost>" "tess.sender@kernel-mail.net" "Tess <tess@host.invalid>"; do
	if [ -z "$bad" ]; then
		out=$(series export --out "$mail" 2>&1); rc=$?
	else
		out=$(series export --from "$bad" --out "$mail" 2>&1); rc=$?
	fi
	[ "$rc" = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [ ! -e "$mail" ] &&
		ok "export --from '${bad:-(none)}': refused, exit 2, nothing written ($out)" ||
		not_ok "export --from '${bad:-(none)}': exit $rc, $(echo "$out" | wc -l) line(s), $( [ -e "$mail" ] && echo 'wrote' || echo 'nothing written'): $out"
done
out=$(series export --from "$sender" --line 5.10 --out "$mail" 2>&1); rc=$?
[ "$rc" = 2 ] && [ ! -e "$mail" ] && ok "export --line 5.10: refused, exit 2 ($out)" ||
	not_ok "export --line 5.10: exit $rc: $out"

# The export
out=$(series export --from "$sender" --out "$mail" 2>&1); rc=$?
[ "$rc" = 0 ] && ok "export --from '$sender': exit 0" || { not_ok "export: exit $rc: $out"; exit 0; }
parts=$(python3 -c 'from rbts import series; print(" ".join(n for n, _ in series.parts()))' 2>/dev/null ||
	PYTHONPATH=$TOP/images python3 -c 'from rbts import series; print(" ".join(n for n, _ in series.parts()))')
for part in $parts; do
	d=$mail/$part
	out=$(series check "$d" 2>&1) && ok "series check $part: $out" || not_ok "series check $part: $out"
	n=$(grep -L "^From: $sender$" "$d"/0*.patch $(ls "$d"/rfc-*.mail 2>/dev/null) | wc -l)
	[ "$n" = 0 ] && ok "$part: every mail is From: the sender" || not_ok "$part: $n mail(s) not From: the sender"
done

# checkpatch --strict on the exported copy, with the newest line's script
newest=$(kspec_lines | tr ' ' '\n' | tail -n1)
kspec_load "$newest:ours:default:x86_64"
checkpatch=$SRC/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	not_ok "checkpatch.pl found at ${checkpatch#$TOP/} (run ./run.sh build --kernel $newest)"
else
	for part in $parts; do
		bad=
		for f in "$mail/$part"/000[1-9]*.patch; do
			ignore=UNKNOWN_COMMIT_ID
			# checkpatch's hint that a fix for stable may need a Fixes:
			# tag is answered below --- when the fix says why it has none
			sed -n '/^---$/,/^diff /p' "$f" | grep -q 'No Fixes: tag' && ignore=$ignore,MISSING_FIXES_TAG
			o=$(cd "$(dirname "$f")" && "$checkpatch" --strict --no-tree --show-types --ignore "$ignore" "$(basename "$f")" 2>&1) ||
				bad="$bad $(basename "$f"): $(echo "$o" | grep -m1 -E '^(ERROR|WARNING|CHECK)')"
		done
		[ -z "$bad" ] && ok "$part: checkpatch --strict on every exported patch: clean" ||
			not_ok "$part: checkpatch --strict:$bad"
	done
fi

# 'series check' fed each violation
violation() {	# NAME EXPECT SED-SCRIPT FILE-GLOB
	rm -rf "$tmp/v"; cp -r "$mail/mainline" "$tmp/v"
	sed -i "$3" $(ls "$tmp/v"/$4 | head -n1)
	out=$(series check "$tmp/v" --line mainline 2>&1); rc=$?
	[ "$rc" = 1 ] && out_has -- "$2" && ok "series check catches $1 (exit 1: $(grep -m1 -- "$2" <<< "$out" | cut -c1-120))" ||
		not_ok "series check does not catch $1 (exit $rc): $out"
}
violation "a placeholder From:" "the project's placeholder" "s/^From: $sender$/From: rbts developers <rbts@localhost>/" '0003-*'
violation "a missing Signed-off-by" "no Signed-off-by" '/^Signed-off-by:/d' '0004-*'
violation "a sign-off that is not the sender's" "is not the sender" "s/^Signed-off-by: .*/Signed-off-by: Other Person <other@kernel-mail.net>/" '0005-*'
violation "a patch numbered differently from its place" "not 2/9 as its place" 's/^Subject: \[PATCH 2\/9\]/Subject: [PATCH 3\/9]/' '0002-*'
ls "$mail"/mainline/rfc-*.mail > /dev/null 2>&1 && ok "mainline: the RFC mail of (d) is exported with the series" ||
	not_ok "mainline: no rfc-*.mail exported (kernel-patches/mainline/rfc-discarded-delta-of-one.mail)"
violation "an RFC mail from the placeholder" "the project's placeholder" "s/^From: $sender$/From: rbts developers <rbts@localhost>/" 'rfc-*'
violation "an RFC mail not marked [RFC]" "is not marked \\[RFC\\]" 's/^Subject: \[RFC\] /Subject: /' 'rfc-*'
violation "a cover letter that points outside itself" "points outside itself" 's/^Base: /See the cover letter of the 6.12 series. Base: /' '0000-*'

# Each group alone on its pristine tree
group_am() {	# PART DIR TARBALL
	local part=$1 d=$2 tarball=$3 files top repo name nums p
	files=$(sed -n 's|^+++ b/||p' "$d"/000[1-9]*.patch | sort -u)
	top=$(tar -tf "$tarball" 2>/dev/null | head -n1 | cut -d/ -f1)
	repo=$tmp/am-$part
	rm -rf "$repo"; mkdir -p "$repo"
	# shellcheck disable=SC2086
	if ! tar -xf "$tarball" -C "$repo" --strip-components=1 $(printf "$top/%s " $files) 2>/dev/null; then
		not_ok "$part: the files the fixes touch, from $(basename "$tarball")"
		return
	fi
	git -C "$repo" init -q && git -C "$repo" add -A &&
		git -C "$repo" -c user.name=base -c user.email=base@kernel-mail.net commit -qm base
	while read -r name nums; do
		git -C "$repo" reset -q --hard HEAD && git -C "$repo" checkout -q -f --detach master 2>/dev/null ||
			git -C "$repo" checkout -q -f --detach main
		p=$(for n in $nums; do ls "$d"/"$n"-*.patch; done)
		# shellcheck disable=SC2086
		if out=$(git -C "$repo" -c user.name=x -c user.email=x@kernel-mail.net am -q $p 2>&1); then
			ok "$part: group $name ($nums) applies alone with git am to pristine $(basename "$tarball")"
		else
			git -C "$repo" am --abort 2>/dev/null
			not_ok "$part: group $name ($nums) does not apply alone: $(echo "$out" | head -n2 | tr '\n' ' ')"
		fi
	done < <(PYTHONPATH=$TOP/images python3 -c '
from rbts import series
for name, nums in series.groups():
    print(name, " ".join(nums))')
}
for line in $(kspec_lines); do
	kspec_load "$line:ours:default:x86_64"
	group_am "$line" "$mail/$line" "$KERNEL_TARBALL"
done
t72=
for f in /usr/src/linux-source-7.2.tar.xz "$BUILD"/sid/deb/usr/src/linux-source-7.2.tar.xz; do
	[ -f "$f" ] && t72=$f && break
done
if [ -n "$t72" ]; then
	group_am mainline "$mail/mainline" "$t72"
else
	ok "mainline: the groups on pristine v7.2.13 # SKIP linux-source-7.2 (sid) is not on this machine (docs/kernel-patches.md: how to get it)"
fi
