#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: host/patches' checks, each fed its violation: a copy of 6.1's fixes part with a cover letter gone, a patch misnumbered, a subject without its subsystem, a Signed-off-by, a Fixes: tag or its form lost, a line ending in whitespace, a patch missing and one that no longer applies to the pristine tree: each caught by its check, the clean copy by none
. "$(dirname "$0")/../lib.sh"
. "$TOP/images/kernel/check-patches.sh"

kspec_load "6.1:ours:default:x86_64"
checkpatch=$SRC/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	not_ok "checkpatch.pl found at ${checkpatch#$TOP/} (run ./run.sh build)"
	exit 0
fi
real=$PATCHES

# run_checks DIR: the checks of the fixes part in DIR/fixes (its TAP lines)
run_checks() {
	PATCHES=$1
	rel=
	check_part 6.1 fixes
	check_pristine 6.1
	PATCHES=$real
}
copy() {	# NAME: a fresh copy of the fixes part under $tmp/NAME
	rm -rf "$tmp/$1"
	mkdir -p "$tmp/$1"
	cp -r "$real/fixes" "$tmp/$1/"
	d=$tmp/$1/fixes
}
# caught NAME PATTERN WHAT: the checks on $tmp/NAME say "not ok" matching PATTERN
caught() {
	local out
	out=$(run_checks "$tmp/$1" 2>&1)
	echo "$out" | grep -q "^not ok .*$2" &&
		ok "$3: caught ($(echo "$out" | grep -m1 "^not ok .*$2" | cut -c1-160))" ||
		not_ok "$3: not caught (no 'not ok' matching '$2'; $(echo "$out" | grep -c '^not ok') other failures)"
}
patch_of() { ls "$d"/"$1"-*.patch; }

copy clean
out=$(run_checks "$tmp/clean" 2>&1)
[ -z "$(echo "$out" | grep '^not ok')" ] && [ "$(echo "$out" | grep -c '^ok')" -gt 50 ] &&
	ok "the clean copy: $(echo "$out" | grep -c '^ok') checks, none fails" ||
	not_ok "the clean copy: $(echo "$out" | grep -m1 '^not ok')"

copy cover; rm "$d/0000-cover-letter.patch"
caught cover "a filled-in cover letter" "no cover letter"
# the part's numbering as format-patch wrote it: "2/9", or "02/10"
copy number; f=$(patch_of 0002)
# [PATCH i/N], or [PATCH 6.1 i/N] (a Debian line's backports)
tag=$(sed -n 's/^Subject: \[PATCH \([0-9.]* \)\?\([0-9]*\/[0-9]*\)\].*/\2/p' "$f") n=${tag#*/}
sed -i "0,/^\(Subject: \[PATCH [0-9. ]*\)${tag/\//\\/}\]/s//\13\/$n]/" "$f"
caught number "0002-.*: numbered $((10#${tag%%/*}))/$n in its part" "a patch misnumbered"
copy subj; sed -i '0,/^\(Subject: \[PATCH [^]]*\]\) ring-buffer: Do/s//\1 Do/' "$(patch_of 0008)"
caught subj "0008-.*is not 'subsystem: Summary'" "a subject without its subsystem"
copy sob; sed -i '0,/^---$/s//Signed-off-by: A Sender <a.sender@kernel-test.net>\n---/' "$(patch_of 0007)"
caught sob "0007-.*: carries a Signed-off-by" "a committed fix with a Signed-off-by (the sender's comes at export)"
copy from; sed -i 's/^From: rbts developers <rbts@localhost>$/From: A Sender <a.sender@kernel-test.net>/' "$(patch_of 0002)"
caught from "0002-.*: From: is not the placeholder" "a committed fix with an identity of its own"
copy fixes; sed -i '/^Fixes:/d' "$(patch_of 0005)"
caught fixes "0005-.*neither a Fixes: tag nor a reason" "a fix without a Fixes: tag or a reason"
copy form; sed -i 's/^Fixes: \([0-9a-f]*\) ("\(.*\)")$/Fixes: \1 \2/' "$(patch_of 0006)"
caught form "0006-.*a Fixes: tag not of the form" "a Fixes: tag without its (\"subject\")"
copy ws; f=$(patch_of 0006); sed -i "$(grep -n '^+.*[^ ]$' "$f" | sed -n 2p | cut -d: -f1)s/\$/ /" "$f"
caught ws "0006-.*ends in whitespace" "a line ending in whitespace"
copy gone; rm "$(patch_of 0003)"
caught gone "0003-.*listed in series but missing" "a patch the series lists, missing"
# a context line of the last fix that the pristine tree does not have
copy apply; f=$(patch_of 0009)
at=$(awk '/^@@/ { h = 1 } h && /^ ./ { print NR; exit }' "$f")
sed -i "${at}s/^ .*/ \/* a line pristine 6.1 does not have *\//" "$f"
caught apply "0009-.*applies cleanly to pristine" "a fix that no longer applies to the pristine tree"
