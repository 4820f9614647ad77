#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutate: how well the tests pin the series down. Each file of mutants/
# breaks the tip's kernel code in one small way (a check dropped, a
# capability swapped, a condition inverted). For each, in order: apply it
# to the steps worktree at main (tools/lib.sh), build and run the whole
# suite (tools/step.sh), put the worktree back; TREE and the tip's kernel
# build stay as they are (a mutant of policy/ is applied here, in this
# repository's policy/, and checked back out: the next make ci rebuilds
# bpf-grant). A mutant the tests fail on is killed; one they pass with
# survived: a behaviour of the series that no test checks. The unmutated
# tip runs first: when its tests fail, no mutant's result means anything.
#
# A mutant file is a header, then a diff that git apply takes on branch
# main of TREE (git apply skips the text before the first "diff --git"),
# or, for a mutant of the policy tool, on this repository's policy/:
#   Mutant: what it breaks, one line
#   Patch: the series patch whose hunk it mutates, e.g. 0003, or policy
#   Equivalent: why no test can kill it (optional; continuation lines
#     start with white space)
#
# build/mutate/results.tsv, one line a mutant, tab-separated, no header:
#   1 mutant   its file name without .patch, e.g. 004-map-sysctl-dropped
#   2 patch    its Patch: field
#   3 result   killed (a test failed), survived (the suite passed),
#              equivalent (the suite passed and the mutant has an
#              Equivalent: field) or no-build (the kernel or the tests
#              did not build)
#   4 seconds  apply, build, boot and verdict
# The logs of each mutant are in build/mutate/<mutant>/, as step.sh left
# them; those of the unmutated tip in build/mutate/tip/.
#
# Exit status 1 when a mutant survived without an Equivalent: field, or
# any mutant did not build.
#
# usage: mutate.sh TREE [PREFIX...]
#   PREFIX: run only the mutants whose file names start with one of these
set -eu
STAGE=mutate
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: mutate.sh TREE [PREFIX...]"
tree=$1
shift
dir=$top/mutants
out=$top/build/mutate

git -C "$tree" rev-parse -q --verify main > /dev/null 2>&1 ||
	die "$tree has no branch main; run make import first"

# Field $2 of the header of mutant file $1, empty when it has none
field() {
	sed -n -e '/^diff --git /q' -e "s/^$2:[[:space:]]*//p" "$1" | head -n 1
}

all=
for f in "$dir"/*.patch; do
	[ -f "$f" ] || continue
	n=${f##*/}
	# Names go through word splitting below.
	echo "$n" | grep -qE '^[0-9]{3}-[a-z0-9-]+\.patch$' ||
		die "mutants/$n: name it NNN-short-name.patch (digits, lower case, dashes)"
	all="$all $n"
done
[ -n "$all" ] || die "no mutants/*.patch; add one (see README.md)"

# The mutants to run, in the order of mutants/; no PREFIX is all of them.
[ $# -gt 0 ] || set -- ""
run=
for n in $all; do
	for p in "$@"; do
		case $n in "$p"*) run="$run $n"; break ;; esac
	done
done
for p in "$@"; do
	case "$run" in *" $p"*) ;; *)
		die "MUTANTS: no file of mutants/ starts with '$p'" ;;
	esac
done

steps=$top/build/steps/linux
# Where mutant $1 applies: this repository for policy/, else the worktree
target() {
	if grep -q '^diff --git a/policy/' "$1"; then echo "$top"; else echo "$steps"; fi
}

git -C "$top" diff --quiet HEAD -- policy ||
	die "policy/ has changes that are not committed; commit or stash them first"
tip=$(git -C "$tree" rev-parse main)
steps_tree "$tree" "$tip" "$steps"
on_exit 'git -C "$top" checkout -q -- policy'

# Every mutant first, so that a stale one stops the run before a build.
for n in $run; do
	[ -n "$(field "$dir/$n" Mutant)" ] ||
		die "mutants/$n has no 'Mutant:' line; say what it breaks"
	[ -n "$(field "$dir/$n" Patch)" ] ||
		die "mutants/$n has no 'Patch:' line; name the series patch it mutates"
	# restore_tree would leave a new file behind.
	! grep -q '^--- /dev/null' "$dir/$n" ||
		die "mutants/$n creates a file; make it change existing files only"
	git -C "$(target "$dir/$n")" apply --check "$dir/$n" ||
		die "mutants/$n does not apply to $(target "$dir/$n"); update mutants/$n to the tip"
done

rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
result=$("$top/tools/step.sh" "$out/tip") ||
	die "the unmutated tip fails ($result; see $out/tip/); make it pass first (make ci)"
note "unmutated tip: $result, $(($(date +%s) - start)) s"

: > "$out/results.tsv"
for n in $run; do
	name=${n%.patch}
	patch=$(field "$dir/$n" Patch)
	require_clean "$steps"
	start=$(date +%s)
	git -C "$(target "$dir/$n")" apply "$dir/$n" ||
		die "mutants/$n does not apply to $(target "$dir/$n"); update mutants/$n to the tip"
	result=$("$top/tools/step.sh" "$out/$name") && status=0 || status=$?
	restore_tree "$steps" "$tip"
	git -C "$top" checkout -q -- policy
	case $status in
	0)	if [ -n "$(field "$dir/$n" Equivalent)" ]; then
			r=equivalent
		else
			r=survived
		fi ;;
	1)	r=killed ;;
	125)	r=no-build ;;
	*)	die "tools/step.sh exited $status on $name (see $out/$name/); fix that, then run again" ;;
	esac
	secs=$(($(date +%s) - start))
	printf '%s\t%s\t%s\t%s\n' "$name" "$patch" "$r" "$secs" >> "$out/results.tsv"
	note "$name (patch $patch): $r, $secs s ($result)"
done

echo
awk -F'\t' 'NR == FNR { if (length($1) > w) w = length($1); next }
	FNR == 1 { f = "%-" w "s  %-6s %-11s %s\n"
		printf f, "mutant", "patch", "result", "seconds" }
	{ printf f, $1, $2, $3, $4 }' "$out/results.tsv" "$out/results.tsv"
# The mutants whose result is $1, on one line
with() {
	awk -F'\t' -v r="$1" '$3 == r { printf "%s ", $1 }' "$out/results.tsv"
}
killed=$(with killed)
survived=$(with survived)
equivalent=$(with equivalent)
nobuild=$(with no-build)
count() {
	echo $#
}
# shellcheck disable=SC2086 # each is a list of words to count
echo "mutation score: $(count $killed) killed of $(count $run) ($(count $equivalent) equivalent, $(count $nobuild) no-build)"
echo "results: $out/results.tsv; logs: $out/<mutant>/"

[ -z "$nobuild" ] ||
	note "no-build, counted neither killed nor survived: ${nobuild% }; make them build (see $out/<mutant>/kernel.log, tests.log)"
[ -z "$survived" ] ||
	die "survived: ${survived% }; add a test that fails on each, or an Equivalent: line saying why none can"
[ -z "$nobuild" ] || exit 1
