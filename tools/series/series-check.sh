#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# series-check: the gate that keeps the series bisectable. For 'base' and
# every commit after it, in order: an incremental build, checkpatch
# --strict on the commit, and a boot running the tests that exist at that
# commit (tools/series/step.sh). A table at the end; fails if a commit does not
# build or a test fails at a commit where it exists. The commits are those
# of TREE's HEAD, checked out in the steps worktree (tools/lib/lib.sh): TREE,
# with what you have not committed, and the tip's build stay as they are.
#
# SHARD=i/N (tools/series/shards.py): run only shard i of N's share, a run of
# consecutive commits (each commit builds incrementally on the one before
# it), into build/series-check-shards/i-of-N/ instead of
# build/series-check/; make series-check-merge makes build/series-check's
# series.json and table from every shard's directory, the same as one run.
# LIST_ONLY=1: print the commits this run (or shard) takes, one a line,
# and stop; nothing is built or written.
# RESUME=1: keep each commit's passing result from an earlier run (or
# shard) of this machine, the same KCONFIG's, in build/series-check*/: a
# run that stopped goes on, and a series that grew checks only its new
# commits. A result is the commit id's: an id names the commit's tree and
# all its ancestors, so the kernel built is the same; the tests are those
# of the harness that ran it (run without RESUME to check every commit
# with today's). The commits with no passing result run.
#
# usage: [SHARD=i/N] [LIST_ONLY=1] [RESUME=1] series-check.sh TREE
set -eu
STAGE=series-check
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 1 ] || die "usage: series-check.sh TREE"
tree=$1
shard=${SHARD:-}
# make series-check KCONFIG=debug: the debug kernel, results apart
out=$top/build/series-check${KCONFIG:+-$KCONFIG}
[ -z "$shard" ] || out=$out-shards/${shard%%/*}-of-${shard#*/}
shards="python3 $top/tools/series/shards.py"

tip=$(git -C "$tree" rev-parse -q --verify HEAD) ||
	die "$tree has no commits; run make import first"
# Ids of a fixed length: git's default grows with the repository, and two
# shards run an hour apart listed the same commits with 7 and 9 digits
base=$(git -C "$tree" rev-parse -q --verify --short=12 "base^{commit}") ||
	die "$tree has no tag base; run make import first"
commits="$base $(git -C "$tree" rev-list --reverse --abbrev=12 --abbrev-commit "base..$tip")"
# This shard's share (all of them without SHARD)
# shellcheck disable=SC2086 # $commits: short ids
mine=$($shards pick contiguous "$shard" $commits) ||
	die "tools/series/shards.py cannot pick shard '$shard' of the commits (its reason is above): SHARD is i/N, 1 <= i <= N"
if [ -n "${LIST_ONLY:-}" ]; then
	[ -z "$mine" ] || echo "$mine"
	exit 0
fi

steps=$top/build/steps/linux
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	note "$tree has uncommitted changes: they are not checked, its commits are"
steps_tree "$tree" "$tip" "$steps"
mkdir -p "${out%/*}"
# The run's directory is made aside, in $next, and then put in the place
# of $out: a run stopped before that leaves $out as it was.
runs=$top/build/series-check${KCONFIG:+-$KCONFIG}
next=$runs-next
rm -rf "$next"
mkdir -p "$next"
# shellcheck disable=SC2086 # $commits: short ids
$shards manifest "$next/shard.json" series-check contiguous "$shard" "$tip" $commits ||
	die "tools/series/shards.py cannot write $next/shard.json (its reason is above); rerun: make series-check"
# RESUME=1: each commit's passing result from an earlier run, this one's
# first; a failure runs again
passed() {
	python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["step"]["result"] != "pass")' "$1" 2> /dev/null
}
if [ -n "${RESUME:-}" ]; then
	for c in $mine; do
		for d in "$out" "$runs" "$runs"-shards/*; do
			passed "$d/$c/commit.json" || continue
			cp -R "$d/$c" "$next/"
			[ ! -f "$d/$c.checkpatch" ] || cp "$d/$c.checkpatch" "$next/"
			break
		done
	done
	note "RESUME=1: $(find "$next" -name commit.json | wc -l) commits' results kept from earlier runs"
fi
rm -rf "$runs-old"
[ ! -d "$out" ] || mv "$out" "$runs-old"
mv "$next" "$out"
rm -rf "$runs-old"

# checkpatch --strict's report on commit $1, in $out/$1.checkpatch
checkpatch() {
	# Debian's python3 has the ply module spdxcheck.py wants.
	(cd "$steps" && git format-patch --stdout -1 "$1" |
		PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict - 2>&1) \
		> "$out/$1.checkpatch" || true
}

# Per commit, $out/COMMIT/commit.json (docs/contracts.md): its checkpatch
# counts and what step.sh found (its step.json); series.json, the table
# and the job summary are made from them (tools/series/shards.py series-merge).
for c in $mine; do
	if [ -f "$out/$c/commit.json" ]; then
		note "$c: kept from an earlier run (RESUME=1)"
		continue
	fi
	git -C "$steps" checkout -q --detach "$c"
	subject=$(git -C "$tree" log -1 --format=%s "$c" | cut -c1-60)
	start=$(date +%s)
	if [ "$c" = "$base" ]; then
		cp=-
	else
		checkpatch "$c"
		cp=$out/$c.checkpatch
	fi
	summary=$("$top/tools/series/step.sh" "$out/$c") || true
	[ -f "$out/$c/step.json" ] ||
		die "step.sh wrote no $out/$c/step.json: $summary"
	$shards commit-write "$out/$c/commit.json" "$c" "$subject" \
		"$cp" "$(($(date +%s) - start))" "$out/$c/step.json" ||
		die "tools/series/shards.py cannot write $out/$c/commit.json from $out/$c/step.json (its reason is above); rerun: make series-check"
	note "$c $subject: $summary"
done

status=0
merge_results series "$out" "make series-check-merge (${out%/*}/*/ into ${out%-shards/*}/)" ||
	status=$?
echo "checkpatch reports: $out/<commit>.checkpatch"
[ "$status" -eq 0 ] ||
	die "a commit does not build or its tests fail: the series is not bisectable; the table is $out/table.txt, each commit's logs in $out/<commit>/"
