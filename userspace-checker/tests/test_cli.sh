#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rbcheck's command line and bad input: each case must give one clear line
# on stderr and exit 2, never a crash or a PASS.  With a real trace.dat
# (from a guest run) also: it verifies, and damaged copies are refused.
#
# usage: test_cli.sh RBCHECK [TRACE.DAT]     output: TAP lines
set -u
rbcheck=$1 dat=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# expect NAME STATUS [GREP] -- ARGS...: exit status STATUS, stderr matching GREP
expect() {
	local name=$1 want=$2 pattern=$3 rc
	shift 4
	n=$((n + 1))
	"$rbcheck" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "not ok $n - $name: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
	elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/err"; then
		echo "not ok $n - $name: stderr does not match '$pattern': $(head -c 300 "$tmp/err")"
	elif [ "$want" = 2 ] && [ "$(wc -l < "$tmp/err")" != 1 ]; then
		echo "not ok $n - $name: expected one line on stderr, got $(wc -l < "$tmp/err")"
	else
		echo "ok $n - $name"
	fi
}

expect "no command is a usage error" 2 "no command" --
expect "unknown command is a usage error" 2 "unknown command 'frob'" -- frob
expect "unknown option is a usage error" 2 "unknown option '--frob'" -- verify --frob x.dat
expect "an option without its value is a usage error" 2 "needs a value" -- live --duration
expect "bad --duration is a usage error" 2 "--duration 'abc'" -- live --duration abc
expect "negative --clock-bound-us is a usage error" 2 "clock-bound-us" -- verify -b -5 x.dat
expect "verify without a file is a usage error" 2 "exactly one" -- verify
expect "verify with two files is a usage error" 2 "exactly one" -- verify a b
expect "missing file names the file" 2 "$tmp/none.dat: No such file" -- verify "$tmp/none.dat"
mkdir "$tmp/dir"
expect "a directory is refused" 2 "is a directory" -- verify "$tmp/dir"
: > "$tmp/empty.dat"
expect "an empty file is refused" 2 "not a trace-cmd data file" -- verify "$tmp/empty.dat"
echo "hello, not a trace" > "$tmp/text.dat"
expect "a text file is refused" 2 "not a trace-cmd data file" -- verify "$tmp/text.dat"
if [ "$(id -u)" != 0 ]; then
	cp "$tmp/text.dat" "$tmp/noread.dat" && chmod 000 "$tmp/noread.dat"
	expect "an unreadable file is refused" 2 "Permission denied" -- verify "$tmp/noread.dat"
fi
n=$((n + 1))
if "$rbcheck" --help | grep -q "exit status: 0 PASS, 1 FAIL, 2"; then
	echo "ok $n - --help documents the exit status"
else
	echo "not ok $n - --help documents the exit status"
fi

if [ -z "$dat" ] || [ ! -s "$dat" ]; then
	echo "ok $((n + 1)) - a guest trace.dat verifies # SKIP no trace.dat given"
	exit 0
fi
expect "a guest trace.dat verifies" 0 "" -- verify "$dat"
size=$(stat -c %s "$dat")
head -c $((size / 2)) "$dat" > "$tmp/half.dat"
expect "a trace.dat cut in half is refused" 2 "half.dat" -- verify "$tmp/half.dat"
head -c 200 "$dat" > "$tmp/head.dat"
expect "a trace.dat cut in its headers is refused" 2 "head.dat" -- verify "$tmp/head.dat"
