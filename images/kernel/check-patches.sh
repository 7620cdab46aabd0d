# SPDX-License-Identifier: GPL-2.0
# The checks of a line's series as a maintainer's inbox would make them
# (host/patches runs them on kernel-patches/, host/patches-violations on
# copies with a violation put in each).  Sourced, not run; needs
# common.sh and tap.sh sourced and $tmp, a scratch directory.  Each check
# prints one TAP line.
#
# checkpatch.pl runs on copies in $tmp with --no-tree, as on a
# maintainer's machine: inside this repository it sees a git tree that
# is not a kernel and reads each .patch as plain text (which is why no line
# of a patch may end in whitespace, checked below).  Needs the extracted
# tree for the script (./run.sh build).

check_line() {	# LINE: its series, with its own tree's checkpatch
	kspec_load "$1:ours:default:x86_64"
	checkpatch=$SRC/scripts/checkpatch.pl
	if [ ! -x "$checkpatch" ]; then
		not_ok "line $1: checkpatch.pl found at ${checkpatch#$TOP/} (run ./run.sh build --kernel $1)"
		return
	fi
	grep -qxE 'fixes/series' "$PATCHES/series" && grep -qxE 'test/series' "$PATCHES/series" &&
		[ "$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series" | paste -sd' ')" = "fixes/series test/series" ] &&
		ok "${PATCHES#$TOP/}/series: the fixes part, then the test part" ||
		not_ok "${PATCHES#$TOP/}/series: the fixes part, then the test part (have: $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series" | paste -sd' '))"
	check_part "$1" fixes
	check_part "$1" test
	check_pristine "$1"
}

# subject FILE: its Subject: line, unfolded (RFC 5322), with the [PATCH] prefix
subject() {
	awk '/^Subject:/ { s = 1; l = $0; next }
		s && /^[ \t]/ { l = l $0; next } s { exit } END { print l }' "$1" |
		sed 's/^Subject: //; s/[ \t]\+/ /g'
}

check_part() {	# LINE PART
	local part=$2 dir=$PATCHES/$2 total i n p f subj cover placeholder
	placeholder=$(PYTHONPATH=$TOP/images python3 -m rbts.series placeholder)
	series=$dir/series
	rel=${dir#$TOP/}
	[ -f "$series" ] || { not_ok "$rel/series exists"; return; }
	total=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series" | wc -l)
	cover=$dir/0000-cover-letter.patch
	if [ -f "$cover" ] && subject "$cover" | grep -qE "^\[PATCH[^]]* 0*0/$total\] [^*]" &&
		! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE' "$cover"; then
		ok "$rel: a cover letter '$(subject "$cover")'"
	else
		not_ok "$rel: a filled-in cover letter [PATCH 0/$total] (have: $( [ -f "$cover" ] && subject "$cover" || echo none))"
	fi
	if [ "$part" != test ] && [ -f "$cover" ]; then
		grep -q '^To: ' "$cover" && ok "$rel: the cover letter is addressed (To: $(sed -n 's/^To: //p' "$cover"))" ||
			not_ok "$rel: the cover letter names its recipients (get_maintainer.pl)"
	fi
	i=0
	n=0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		f=$dir/$p
		p=$rel/$p
		if [ ! -f "$f" ]; then
			not_ok "$p: listed in series but missing"
			continue
		fi
		mkdir -p "$tmp/$rel"
		cp "$f" "$tmp/$p"
		subject "$f" | grep -qE "^\[PATCH[^]]* 0*$n/$total\] " &&
			ok "$p: numbered $n/$total in its part" ||
			not_ok "$p: numbered $n/$total in its part (have: $(subject "$f" | cut -d']' -f1)])"
		subj=$(subject "$f" | sed 's/^\[PATCH[^]]*\] //')
		body=$(awk '/^Subject:/ { s = 1; next } s && /^$/ { b = 1; next }
			b && /^(Signed-off-by|---$)/ { exit } b && NF { n++ } END { print n + 0 }' "$f")
		if echo "$subj" | grep -qE '^[a-z0-9_-]+: [A-Z]'; then
			ok "$p: subject '$subj'"
		else
			not_ok "$p: subject '$subj' is not 'subsystem: Summary'"
		fi
		[ "$body" -ge 3 ] && ok "$p: has a body ($body lines)" ||
			not_ok "$p: body has $body lines (explain why, not just what)"
		ws=$(grep -n '[[:space:]]$' "$f" | head -n1 | cut -d: -f1)
		[ -z "$ws" ] && ok "$p: no line ends in whitespace" ||
			not_ok "$p: line $ws ends in whitespace (see docs/kernel-patches.md)"
		# The mailable parts carry no identity that could go out: the
		# sender's From: and Signed-off-by: come at export (./run.sh
		# series export, host/series-export checks that copy).  The
		# test part is not mailed and keeps the project's sign-off.
		if [ "$part" = test ]; then
			grep -qE '^Signed-off-by: .+ <[^>]+@[^>]+>$' "$f" && ok "$p: Signed-off-by" ||
				not_ok "$p: no Signed-off-by"
		elif grep -q '^Signed-off-by:' "$f"; then
			not_ok "$p: carries a Signed-off-by (the sender's comes at export: ./run.sh series export)"
		elif ! grep -qx "From: $placeholder" "$f"; then
			not_ok "$p: From: is not the placeholder $placeholder (the sender's comes at export)"
		else
			ok "$p: no identity of its own: From: the placeholder, no Signed-off-by"
		fi
		# A Fixes: tag names an upstream commit; outside a kernel git
		# tree with its history checkpatch cannot look it up and calls
		# every id unknown.  The tag's form is still checked (below and
		# by checkpatch's GIT_COMMIT_ID); whether the id exists is the
		# maintainer's tree's to say.
		if [ "$part" != test ] && ! grep -q '^Fixes:' "$f"; then
			sed -n '/^---$/,/^diff /p' "$f" | grep -q 'No Fixes: tag' &&
				ok "$p: no Fixes: tag, and says why below ---" ||
				not_ok "$p: a fix with neither a Fixes: tag nor a reason below --- for none"
		fi
		if grep -q '^Fixes:' "$f"; then
			grep '^Fixes:' "$f" | grep -qvE '^Fixes: [0-9a-f]{12,40} \("[^"]+"\)$' &&
				not_ok "$p: a Fixes: tag not of the form 'Fixes: <12+ hex> (\"subject\")'" ||
				ok "$p: Fixes: $(grep -m1 '^Fixes:' "$f" | cut -c8-)"
		fi
		# Unsigned until export; checkpatch's hint that a patch for
		# stable may need a Fixes: tag is answered below --- when a fix
		# says why it has none (checked above).
		ignore=UNKNOWN_COMMIT_ID
		[ "$part" = test ] || ignore=$ignore,MISSING_SIGN_OFF,NO_AUTHOR_SIGN_OFF
		sed -n '/^---$/,/^diff /p' "$f" | grep -q 'No Fixes: tag' && ignore=$ignore,MISSING_FIXES_TAG
		if out=$(cd "$tmp" && "$checkpatch" --strict --no-tree --show-types --ignore "$ignore" "$p" 2>&1); then
			ok "$p: checkpatch --strict: $(echo "$out" | grep -m1 '^total:')"
		else
			not_ok "$p: checkpatch --strict: $(echo "$out" | grep -m1 -E '^(ERROR|WARNING|CHECK)')"
		fi
	done < "$series"
	[ "$n" -gt 0 ] && ok "$rel/series lists $n patches" || not_ok "$rel/series lists no patch"
}

# The fixes alone, in order, on the files they touch of the pristine
# tarball: what a maintainer's `git am` of the fixes part meets.
check_pristine() {	# LINE
	local d=$tmp/pristine-$1 files top p cache
	mapfile -t fixes < <(series_patches "$PATCHES/fixes")
	files=$(sed -n 's|^+++ b/||p' "${fixes[@]}" | sort -u)
	# The pristine files, extracted once per tarball and file list: reading
	# the whole .tar.xz for them takes some 12 s, and host/patches-violations
	# asks for them once per violation.
	cache=$BUILD/pristine/$1-$({ stat -c '%s %Y' "$KERNEL_TARBALL"; echo "$files"; } | sha256sum | cut -c1-16)
	if [ ! -d "$cache" ]; then
		top=$(tar -tf "$KERNEL_TARBALL" 2>/dev/null | head -n1 | cut -d/ -f1)
		rm -rf "$cache.new"
		mkdir -p "$cache.new"
		# shellcheck disable=SC2086
		if ! tar -xf "$KERNEL_TARBALL" -C "$cache.new" --strip-components=1 $(printf "$top/%s " $files) 2>/dev/null; then
			rm -rf "$cache.new"
			not_ok "line $1: the files the fixes touch extracted from $(basename "$KERNEL_TARBALL")"
			return
		fi
		mv "$cache.new" "$cache" 2>/dev/null || rm -rf "$cache.new"
	fi
	rm -rf "$d"
	cp -r "$cache" "$d"
	for p in "${fixes[@]}"; do
		if ! out=$(patch -d "$d" -p1 --batch --forward --dry-run < "$p" 2>&1) ||
			echo "$out" | grep -qE 'fuzz|offset'; then
			not_ok "${p#$TOP/}: applies cleanly to pristine $KERNEL_VERSION after the fixes before it: $(echo "$out" | grep -m1 -E 'FAILED|fuzz|offset')"
			return
		fi
		patch -d "$d" -p1 --batch --forward -s < "$p" > /dev/null
	done
	ok "line $1: the ${#fixes[@]} fixes apply cleanly, in order, to pristine $KERNEL_VERSION without the test part"
}
