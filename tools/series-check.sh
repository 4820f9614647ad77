#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# series-check: the gate that keeps the series bisectable. For 'base' and
# every commit after it, in order: an incremental build, checkpatch
# --strict on the commit, and a boot running the tests that exist at that
# commit (tools/step.sh). A table at the end; fails if a commit does not
# build or a test fails at a commit where it exists. The commits are those
# of TREE's HEAD, checked out in the steps worktree (tools/lib.sh): TREE,
# with what you have not committed, and the tip's build stay as they are.
#
# usage: series-check.sh TREE
set -eu
STAGE=series-check
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

tree=$1
# make series-check KCONFIG=debug: the debug kernel, results apart
out=$top/build/series-check${KCONFIG:+-$KCONFIG}

steps=$top/build/steps/linux
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	note "$tree has uncommitted changes: they are not checked, its commits are"
tip=$(git -C "$tree" rev-parse HEAD)
steps_tree "$tree" "$tip" "$steps"
rm -rf "$out"
mkdir -p "$out"

# checkpatch --strict's report on commit $1, in $out/$1.checkpatch
checkpatch() {
	# Debian's python3 has the ply module spdxcheck.py wants.
	(cd "$steps" && git format-patch --stdout -1 "$1" |
		PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict - 2>&1) \
		> "$out/$1.checkpatch" || true
}

# series.json (docs/contracts.md): per commit, its checkpatch counts and
# what step.sh found (its step.json); the table and the job summary are
# made from it (tools/results.py).
failed=0
for c in $(git -C "$tree" rev-parse --short base) \
	 $(git -C "$tree" rev-list --reverse --abbrev-commit "base..$tip"); do
	git -C "$steps" checkout -q --detach "$c"
	subject=$(git -C "$tree" log -1 --format=%s "$c" | cut -c1-60)
	start=$(date +%s)
	if [ "$(git -C "$tree" rev-parse "$c")" = "$(git -C "$tree" rev-parse base)" ]; then
		cp=-
	else
		checkpatch "$c"
		cp=$out/$c.checkpatch
	fi
	summary=$("$top/tools/step.sh" "$out/$c") || failed=1
	[ -f "$out/$c/step.json" ] ||
		die "step.sh wrote no $out/$c/step.json: $summary"
	python3 "$top/tools/results.py" series-add "$out/series.json" "$c" "$subject" \
		"$cp" "$(($(date +%s) - start))" "$out/$c/step.json"
	note "$c $subject: $summary"
done

python3 "$top/tools/results.py" series-table "$out/series.json"
echo "checkpatch reports: $out/<commit>.checkpatch"
[ $failed -eq 0 ] || die "a commit does not build or its tests fail: the series is not bisectable"
