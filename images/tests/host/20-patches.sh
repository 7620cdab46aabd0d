#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: kernel-patches/LINE/ of every kernel line: subjects, bodies, Signed-off-by, checkpatch --strict with the line's own tree
#
# Check each line's series (images/kernel/lines.table) the way a
# maintainer's inbox would: every patch in 'series' exists, has a
# "subsystem: Summary" subject, a body, a Signed-off-by, and passes that
# line's own scripts/checkpatch.pl --strict.  Prints one TAP line per check.
#
# checkpatch.pl runs on copies in a temporary directory with --no-tree, as
# on a maintainer's machine: inside this repository it sees a git tree that
# is not a kernel and reads each .patch as plain text (which is why no line
# of a patch may end in whitespace, checked below).  Needs the extracted
# tree for the script (./run.sh build).
set -uo pipefail
. "$(dirname "$0")/../../common.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$TOP/images/tap.sh"

check_line() {	# LINE: its series, with its own tree's checkpatch
	kspec_load "$1:ours:default:x86_64"
	checkpatch=$SRC/scripts/checkpatch.pl
	series=$PATCHES/series
	rel=${PATCHES#$TOP/}
	if [ ! -x "$checkpatch" ]; then
		not_ok "line $1: checkpatch.pl found at ${checkpatch#$TOP/} (run ./run.sh build --kernel $1)"
		return
	fi

	n=0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		f=$PATCHES/$p
		p=$rel/$p
		if [ ! -f "$f" ]; then
			not_ok "$p: listed in series but missing"
			continue
		fi
		mkdir -p "$tmp/$rel"
		cp "$f" "$tmp/$p"
		# Subject: may be folded over several lines (RFC 5322)
		subj=$(awk '/^Subject:/ { s = 1; l = $0; next }
			s && /^[ \t]/ { l = l $0; next } s { exit } END { print l }' "$f" |
			sed 's/^Subject: \[PATCH[^]]*\] //; s/[ \t]\+/ /g')
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
		grep -qE '^Signed-off-by: .+ <[^>]+@[^>]+>$' "$f" && ok "$p: Signed-off-by" ||
			not_ok "$p: no Signed-off-by"
		# A Fixes: tag names an upstream commit; outside a kernel git
		# tree with its history checkpatch cannot look it up and calls
		# every id unknown.  The tag's form is still checked (below and
		# by checkpatch's GIT_COMMIT_ID); whether the id exists is the
		# maintainer's tree's to say.
		if grep -q '^Fixes:' "$f"; then
			grep '^Fixes:' "$f" | grep -qvE '^Fixes: [0-9a-f]{12,40} \("[^"]+"\)$' &&
				not_ok "$p: a Fixes: tag not of the form 'Fixes: <12+ hex> (\"subject\")'" ||
				ok "$p: Fixes: $(grep -m1 '^Fixes:' "$f" | cut -c8-)"
		fi
		if out=$(cd "$tmp" && "$checkpatch" --strict --no-tree --show-types --ignore UNKNOWN_COMMIT_ID "$p" 2>&1); then
			ok "$p: checkpatch --strict: $(echo "$out" | grep -m1 '^total:')"
		else
			not_ok "$p: checkpatch --strict: $(echo "$out" | grep -m1 -E '^(ERROR|WARNING|CHECK)')"
		fi
	done < "$series"
	[ "$n" -gt 0 ] && ok "$rel/series lists $n patches" || not_ok "$rel/series lists no patch"
}

for line in $(kspec_lines); do
	check_line "$line"
done
