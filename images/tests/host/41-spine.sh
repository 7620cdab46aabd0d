#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test: the spine (images/rbts/): Plans from options as JSON, bad options refused before anything is spent, the results layout declares every file the guest and the host write, collect verifies drained captures
. "$(dirname "$0")/../lib.sh"
export PYTHONPATH=$TOP/images

# A Plan's JSON (what --plan writes and matrix --lava reads) from options,
# in-process: EXPR over p (the JSON) must be true.
plan_is() {	# WHAT EXPR OPTIONS...
	local what=$1 expr=$2 got
	shift 2
	got=$(python3 - "$expr" "$@" <<'PY' 2>&1
import sys
from rbts import plan
p = plan.Plan('run').parse(sys.argv[2:]).to_json()
print(eval(sys.argv[1], {'p': p}) or 'not so: %s' % p)
PY
)
	[ "$got" = True ] && ok "plan: $what" || not_ok "plan: $what: $got"
}
plan_is "the default kernel is the first line of lines.table" \
	"p['kspec'] == '$KSPEC_DEFAULT_LINE:ours:default:x86_64'"
plan_is "--kernel 6.12 --debug: its kernel, panic_on_warn, 600 s of slack" \
	"p['kspec'] == '6.12:ours:debug:x86_64' and 'panic_on_warn=1' in p['cmdline'] and p['timeout'] == 60 + 2 + 600" \
	--kernel 6.12 --debug
plan_is "--arch i386: job drain on a stream disk, no capture" \
	"p['job'] == 'drain' and p['boot_extra'] == ['--stream-disk', '64G'] and 'rbts.capture=0' in p['cmdline']" \
	--arch i386
plan_is "--faults: every scenario's time in the limit" \
	"p['job'] == 'faults' and p['timeout'] == 20 * 2 + 180" --faults resize,clock --duration 20
plan_is "--singlestep: TCG, acpi=noirq" \
	"p['boot_extra'] == ['--singlestep'] and p['cmdline'].endswith('acpi=noirq')" --singlestep

# A bad option is refused by the Plan, one line, before anything is
# extracted or built: an empty build directory stays empty.
empty=$tmp/build
mkdir -p "$empty"
for args in "--depth@model --depth abc" "subbufkb=8@--subbuf-kb 8" "bogus_param@--mod bogus_param=5 --dry-run" \
	    "--cpus@soak --cpus 9" "5.4@build --kernel 5.4" "--duration@faults --duration 0"; do
	want=${args%%@*}
	rc=0
	err=$(RBTS_BUILD=$empty "$TOP/run.sh" ${args#*@} 2>&1 >/dev/null) || rc=$?
	left=$(find "$empty" -mindepth 1 -maxdepth 1 ! -name model-args | wc -l)
	[ "$rc" = 2 ] && [ "$(echo "$err" | head -n1 | grep -c -- "$want")" = 1 ] && [ "$left" = 0 ] &&
		ok "run.sh ${args#*@}: exit 2, one line, nothing extracted or built" ||
		not_ok "run.sh ${args#*@}: exit $rc, $left file(s) in the build directory: $err"
done

# --ksrc: a tree that is not one, or one built in place, or with our
# series' options, is refused by the Plan; a tree's line is its version's.
fake=$tmp/tree
mkdir -p "$fake/kernel/trace"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 99\n' > "$fake/Makefile"
: > "$fake/kernel/trace/ring_buffer.c"
plan_is "--ksrc: a 6.12 tree is built with 6.12's fragments, as it is" \
	"p['kspec'] == '6.12:@$fake:default:x86_64' and '/ksrc-tree-' in p['kernel']" --ksrc "$fake"
printf 'VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 1\n' > "$tmp/Makefile.5"
mkdir -p "$tmp/old/kernel/trace"; cp "$tmp/Makefile.5" "$tmp/old/Makefile"; : > "$tmp/old/kernel/trace/ring_buffer.c"
mkdir -p "$tmp/built/kernel/trace"; cp "$fake/Makefile" "$tmp/built/"; : > "$tmp/built/kernel/trace/ring_buffer.c"; : > "$tmp/built/.config"
for args in "no such directory@--ksrc $tmp/none" "is not a kernel tree@--ksrc $tmp" \
	    "say --kernel LINE@--ksrc $tmp/old" "make mrproper@--ksrc $tmp/built" \
	    "not with --vanilla@--ksrc $fake --vanilla" "none of our test parameters@--ksrc $fake --legacy-nested-ts" \
	    "--ksrc: kernel tree .* no such directory@bench kernels --reps 1 --ksrc $tmp/none" \
	    "--apply goes with --ksrc@--apply ours" "--apply $tmp: not ours@--ksrc $fake --apply $tmp" \
	    "--apply needs a series@--ksrc $fake --apply"; do
	want=${args%%@*}
	rc=0
	a=${args#*@}; case "$a" in bench*|*--apply) ;; *) a="$a --dry-run" ;; esac
	err=$(RBTS_BUILD=$empty "$TOP/run.sh" $a 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 2 ] && [ "$(echo "$err" | head -n1 | grep -c -- "$want")" = 1 ] &&
		ok "run.sh ${args#*@}: exit 2, says '$want'" || not_ok "run.sh ${args#*@}: exit $rc: $err"
done

# --ksrc DIR --apply SERIES: the series goes on a copy of the tree, made
# again from it each run; a patch that does not apply is the tree's answer,
# exit 2 before anything is built; the tree itself is never written.
plan_is "--ksrc --apply ours: our series (and its test parameters) on a copy of the tree" \
	"p['kspec'] == '6.12:@$fake+ours:default:x86_64' and 'ring_buffer_legacy_nested_ts' in p['cmdline']" \
	--ksrc "$fake" --apply ours --legacy-nested-ts
plan_is "--ksrc --apply DIR: that series directory" \
	"p['kspec'] == '6.12:@$fake+$TOP/kernel-patches/mainline:default:x86_64'" \
	--ksrc "$fake" --apply "$TOP/kernel-patches/mainline"
echo 'int ring_buffer;' > "$fake/kernel/trace/ring_buffer.c"
for s in good bad; do
	mkdir -p "$tmp/series-$s"
	echo "0001-$s.patch" > "$tmp/series-$s/series"
done
cat > "$tmp/series-good/0001-good.patch" <<'P'
--- a/kernel/trace/ring_buffer.c
+++ b/kernel/trace/ring_buffer.c
@@ -1 +1 @@
-int ring_buffer;
+int ring_buffer_patched;
P
sed 's/^-int ring_buffer;/-int no_such_line;/' "$tmp/series-good/0001-good.patch" > "$tmp/series-bad/0001-bad.patch"
sum=$(cd "$fake" && find . -type f | sort | xargs md5sum | md5sum)
src() { python3 -c 'import sys; from rbts import kspec; print(kspec.Kernel(sys.argv[1]).src)' "6.12:@$fake+$1:default:x86_64"; }
rc=0
RBTS_BUILD=$tmp/b rbts build --ksrc "$fake" --apply "$tmp/series-bad" > "$tmp/bad.log" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "0001-bad.patch does not apply to the tree $fake" "$tmp/bad.log" &&
	[ -z "$(find "$tmp/b" -name 'kernel-*' 2>/dev/null)" ] &&
	ok "--apply: a patch that does not apply to the tree: exit 2, says which, nothing built" ||
	not_ok "--apply: a patch that does not apply: exit $rc: $(grep -m1 error "$tmp/bad.log")"
RBTS_BUILD=$tmp/b rbts build --ksrc "$fake" --apply "$tmp/series-good" > "$tmp/good.log" 2>&1
copy=$(RBTS_BUILD=$tmp/b src "$tmp/series-good")
[ "$(cat "$copy/kernel/trace/ring_buffer.c" 2>/dev/null)" = "int ring_buffer_patched;" ] &&
	[ "$sum" = "$(cd "$fake" && find . -type f | sort | xargs md5sum | md5sum)" ] &&
	ok "--apply: the series is on a copy (${copy#$tmp/}), the tree is as it was" ||
	not_ok "--apply: the copy or the tree: $(cat "$copy/kernel/trace/ring_buffer.c" 2>&1) ($(grep -m1 error "$tmp/good.log"))"

# Every file the guest writes into /out is declared by the results layout
# (images/rbts/results.py): a reader can look up who writes it.
undeclared=$(grep -rhoE '/out/[A-Za-z0-9_-]+[A-Za-z0-9_.-]*[A-Za-z0-9]' "$TOP/images/guest" "$TOP/images/build-initramfs.sh" |
	sed 's|^/out/||' | sort -u | python3 -c '
import sys
from rbts import results
print(" ".join(n for n in sys.stdin.read().split() if n not in results.FILES))')
[ -z "$undeclared" ] && ok "results layout: declares every file the guest writes" ||
	not_ok "results layout: the guest writes files it does not declare: $undeclared"
# What the host adds (images/rbts/collect.py) goes through the layout: a
# drained capture verified on the host, its exit status beside the guest's
# job-exit (not over it); a damaged one leaves one line in error.txt.
for case in good damaged; do
	d=$tmp/collect-$case; mkdir -p "$d"
	echo drained > "$d/job-exit"; cp -r "$FIXTURES/raw" "$d/drain"; cp "$FIXTURES/trace.dat" "$d/"
	[ $case = damaged ] && head -c 1000 "$FIXTURES/raw/cpu0.raw" > "$d/drain/cpu0.raw"
	rc=0; python3 -m rbts.collect "$d" > "$d.out" 2>&1 || rc=$?
	got="rc=$rc job-exit=$(cat "$d/job-exit") verify=$(cat "$d/drain-verify-exit" 2>/dev/null)"
	got="$got json=$([ -s "$d/result.json" ] && echo y) offline=$([ -s "$d/offline.json" ] && echo y)"
	got="$got error=$(cat "$d/error.txt" 2>/dev/null | wc -l | grep -v "^0$")"
	case $case in
	good) want="rc=0 job-exit=drained verify=0 json=y offline=y error=" ;;
	damaged) want="rc=0 job-exit=drained verify=2 json= offline=y error=1" ;;
	esac
	[ "$got" = "$want" ] && ok "collect: a $case drained capture: $want" ||
		not_ok "collect: a $case drained capture: $got (want $want): $(tail -n2 "$d.out")"
done
python3 -m rbts.results --markdown | diff -u "$TOP/docs/results.md" - > "$tmp/results-md.diff" &&
	ok "docs/results.md is the layout's table (python3 -m rbts.results --markdown)" ||
	not_ok "docs/results.md differs from the layout: $(grep -m2 '^[-+][^-+]' "$tmp/results-md.diff" | tr '\n' ' ')"
# every file the host's report writes into a run (images/report-run.sh)
undeclared=$(grep -ohE '\$dir/[A-Za-z0-9_.-]+' "$TOP/images/report-run.sh" | sed 's|^\$dir/||' | sort -u |
	python3 -c 'import sys; from rbts import results; print(" ".join(n for n in sys.stdin.read().split() if n not in results.FILES))')
[ -z "$undeclared" ] && ok "results layout: declares every file ./run.sh report writes" ||
	not_ok "results layout: report writes files it does not declare: $undeclared"
rc=0; python3 -c 'from rbts import results; results.path("/x", "no-such-file")' 2>/dev/null || rc=$?
[ "$rc" != 0 ] && ok "results layout: a file it does not declare is an error" ||
	not_ok "results layout: a file it does not declare is an error"

# A fault is one file (images/guest/faults/): the run options take it
# from there, and its evidence, where it has one, is not there in a run
# that left none.
got=$(python3 - <<'PY' 2>&1
import contextlib, io
from rbts import faults, settings


def said(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        settings.main(list(argv))
    return out.getvalue()


fs = faults.load()
values = said('--values', 'faults').split()
default = said('--default', 'faults').strip()
bad = [f.name for f in fs if f.evidence != 'True' and faults.judge(f, {}, {}, 16)[1]]
print(values == [f.name for f in fs] + ['mixed'] and default == ','.join(f.name for f in fs)
      and len(fs) >= 9 and not bad or (values, default, bad))
PY
)
[ "$got" = True ] && ok "faults: each a file of images/guest/faults/; the options and the default list are theirs; no evidence without a trace of it" ||
	not_ok "faults: $got"

# The shell's kernel paths are the spine's (spec.sh asks kspec.py).
for spec in 6.1:ours:default:x86_64 6.12:vanilla:debug:x86_64 6.1:ours:rb-time-32:i386; do
	sh=$(RBTS_KERNEL=$spec bash -c '. "$0/images/common.sh"; echo "$SRC $KOUT $INITRAMFS ${KCONFIGS[*]}"' "$TOP")
	py=$(python3 -c 'import sys; from rbts import kspec; k = kspec.Kernel(sys.argv[1]); print(k.src, k.kout, k.initramfs, " ".join(k.kconfigs))' "$spec")
	[ "$sh" = "$py" ] && ok "kspec $spec: the shell's paths are kspec.py's" ||
		not_ok "kspec $spec: shell '$sh', Python '$py'"
done
