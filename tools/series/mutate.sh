#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutate: how well the tests pin the series down. Each file of mutants/
# breaks the tip's kernel code in one small way (a check dropped, a
# capability swapped, a condition inverted). For each, in order: apply it
# to the steps worktree at main (tools/lib/lib.sh), build and run the whole
# suite (tools/series/step.sh), put the worktree back; TREE and the tip's kernel
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
# SHARD=i/N (tools/series/shards.py): run only shard i of N's share of the
# mutants (after MUTANTS), mutant k of the list to shard k mod N + 1, into
# build/mutate-shards/i-of-N/ instead of build/mutate/; each shard runs
# the unmutated tip first too. make mutate-merge makes build/mutate's
# results.tsv and table.txt from every shard's directory: the same as one
# run of all of them. LIST_ONLY=1: print the mutants this run (or shard)
# takes, one a line, and stop; nothing is built or written. CHECK_ONLY=1:
# check that each mutant has its header and applies to the tip, and stop
# (make mutants-apply, which make check runs: a mutant the series left
# behind fails there, not hours into the scheduled run).
#
# Each mutant's result is OUTDIR/<mutant>/mutant.json (docs/contracts.md),
# and OUTDIR/shard.json says which run it belongs to; the table is made
# from them (tools/series/shards.py mutate-merge), for one run as for shards.
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
# usage: [SHARD=i/N] [LIST_ONLY=1] mutate.sh TREE [PREFIX...]
#   PREFIX: run only the mutants whose file names start with one of these
set -eu
STAGE=mutate
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -ge 1 ] || die "usage: mutate.sh TREE [PREFIX...]"
tree=$1
shift
dir=$top/mutants
shard=${SHARD:-}
if [ -n "$shard" ]; then
	out=$top/build/mutate-shards/${shard%%/*}-of-${shard#*/}
else
	out=$top/build/mutate
fi
shards="python3 $top/tools/series/shards.py"

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
# This shard's share of them (all of them without SHARD)
# shellcheck disable=SC2086 # $run: file names, no white space (checked above)
mine=$($shards pick round-robin "$shard" $run) ||
	die "tools/series/shards.py cannot pick shard '$shard' of the mutants (its reason is above): SHARD is i/N, 1 <= i <= N"
if [ -n "${LIST_ONLY:-}" ]; then
	[ -z "$mine" ] || echo "$mine" | sed 's/\.patch$//'
	exit 0
fi

git -C "$tree" rev-parse -q --verify main > /dev/null 2>&1 ||
	die "$tree has no branch main; run make import first"

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
if [ -n "${CHECK_ONLY:-}" ]; then
	note "all $(echo "$run" | wc -w) mutants apply to the tip ($(git -C "$tree" log --oneline -1 main))"
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
# shellcheck disable=SC2046,SC2086 # $run: file names, no white space
$shards manifest "$out/shard.json" mutate round-robin "$shard" "$tip" \
	$(printf '%s\n' $run | sed 's/\.patch$//') ||
	die "tools/series/shards.py cannot write $out/shard.json (its reason is above); rerun: make mutate"
if [ -z "$mine" ]; then
	note "shard $shard has no mutant: there are fewer than shards"
else
	start=$(date +%s)
	result=$("$top/tools/series/step.sh" "$out/tip") ||
		die "the unmutated tip fails ($result; see $out/tip/); make it pass first (make ci)"
	note "unmutated tip: $result, $(($(date +%s) - start)) s"
fi

for n in $mine; do
	name=${n%.patch}
	patch=$(field "$dir/$n" Patch)
	require_clean "$steps"
	start=$(date +%s)
	git -C "$(target "$dir/$n")" apply "$dir/$n" ||
		die "mutants/$n does not apply to $(target "$dir/$n"); update mutants/$n to the tip"
	result=$("$top/tools/series/step.sh" "$out/$name") && status=0 || status=$?
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
	*)	die "tools/series/step.sh exited $status on $name (see $out/$name/); fix that, then run again" ;;
	esac
	secs=$(($(date +%s) - start))
	$shards mutant-write "$out/$name/mutant.json" "$name" "$patch" "$r" "$secs" \
		"$out/$name/step.json" || die "no result for $name (see $out/$name/)"
	note "$name (patch $patch): $r, $secs s ($result)"
done

# The table and the score, from the mutant.json files (tools/series/shards.py);
# a shard's are its share's, until make mutate-merge
status=0
merge_results mutate "$out" "make mutate-merge (build/mutate-shards/*/ into build/mutate/)" ||
	status=$?
echo "results: $out/results.tsv, table.txt; logs: $out/<mutant>/"
exit "$status"
