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

# checkpatch's verdict on commit $1: clean, or its error/warning/check counts
checkpatch() {
	# Debian's python3 has the ply module spdxcheck.py wants.
	(cd "$steps" && git format-patch --stdout -1 "$1" |
		PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict - 2>&1) \
		> "$out/$1.checkpatch" || true
	sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p' \
		"$out/$1.checkpatch" | {
		read -r e w c || { echo "none"; return; }
		if [ "$e$w$c" = 000 ]; then echo clean; else echo "${e}E ${w}W ${c}C"; fi
	}
}

failed=0
: > "$out/table"
for c in $(git -C "$tree" rev-parse --short base) \
	 $(git -C "$tree" rev-list --reverse --abbrev-commit "base..$tip"); do
	git -C "$steps" checkout -q --detach "$c"
	subject=$(git -C "$tree" log -1 --format=%s "$c" | cut -c1-60)
	start=$(date +%s)
	if [ "$(git -C "$tree" rev-parse "$c")" = "$(git -C "$tree" rev-parse base)" ]; then
		cp=-
	else
		cp=$(checkpatch "$c")
	fi
	result=$("$top/tools/step.sh" "$out/$c") && status=0 || status=$?
	case $status:$result in
	0:*) build=ok tests=pass ;;
	125:*kernel*) build=FAIL tests=-; failed=1 ;;
	*) build=ok tests=FAIL; failed=1 ;;
	esac
	counts=$(verdict_json "$out/$c/results.json" counts 2> /dev/null || true)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$subject" "$build" "$cp" \
		"$tests${counts:+ ($counts)}" "$(($(date +%s) - start)) s" >> "$out/table"
	note "$c $subject: build $build, checkpatch $cp, tests $tests ($result)"
done

printf '\n%-12s %-60s %-5s %-11s %s\n' commit subject build checkpatch tests
awk -F'\t' '{ printf "%-12s %-60s %-5s %-11s %s, %s\n", $1, $2, $3, $4, $5, $6 }' "$out/table"
echo "checkpatch reports: $out/<commit>.checkpatch"
[ $failed -eq 0 ] || die "a commit does not build or its tests fail: the series is not bisectable"
