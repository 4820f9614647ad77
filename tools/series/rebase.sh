#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rebase: move the series onto another version of Debian's
# linux-source-6.1 (make rebase VERSION=...), with a three-way merge.
#
# The scratch tree is first brought to the series on its pinned base
# (kernel-overlay/base-version), so that its repository holds the files
# the patches were made against; the new version is then imported in
# place as the new 'base' and the overlay applied on it in one
# git am -3. On success kernel-overlay/base-version names the new version
# and the patches are exported. At the first patch that does not apply
# the run stops, naming the patch, the files and the conflicting hunks,
# and leaves the tree in the middle of the git am for the developer:
# resolve, git add, then 'continue' (make rebase-continue); or 'abort'
# (make rebase-abort) to put the tree back as it was.
#
# It never loses work: it refuses a tree with uncommitted changes, a git
# am of its own in progress, or commits on main (or HEAD) that the
# overlay lacks; the tree's main and base from before are kept as
# refs/rebase/orig-main and refs/rebase/orig-base.
#
# usage: rebase.sh start TREE OVERLAY_DIR VERSION
#        rebase.sh continue TREE OVERLAY_DIR
#        rebase.sh abort TREE OVERLAY_DIR
set -eu
STAGE=rebase
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -ge 3 ] || die "usage: $0 start|continue|abort TREE OVERLAY_DIR [VERSION]"
cmd=$1 tree=$2 version=${4:-}
overlay=$(realpath "$3")
package=linux-source-6.1
[ -f "$overlay/series" ] ||
	die "$overlay/series is missing; it lists the overlay's patches in apply order"
pinned=$(cat "$overlay/base-version") ||
	die "$overlay/base-version is missing; it names the $package version the series is based on"

# How to name the make targets for this tree: KSRC= only when it is not
# the default one.
make_args=
[ "$tree" = build/linux ] || make_args=" KSRC=$tree"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

is_imported() {
	git -C "$tree" rev-parse -q --verify base > /dev/null 2>&1
}

base_version() {
	git -C "$tree" tag -l --format='%(contents:subject)' base | sed "s/^$package //"
}

# The file that says a rebase of the series is in progress in the tree,
# and onto which version.
state_file() {
	echo "$(git -C "$tree" rev-parse --absolute-git-dir)/overlay-rebase"
}

am_in_progress() {
	[ -d "$(git -C "$tree" rev-parse --absolute-git-dir)/rebase-apply" ]
}

# Stop unless every commit from base to $1 (a branch or HEAD) is one of
# the overlay's patches (by patch id).
require_exported() {
	git -C "$tree" rev-parse -q --verify "$1" > /dev/null || return 0
	git -C "$tree" format-patch --stdout "base..$1" | git patch-id --stable |
		cut -d' ' -f1 | sort > "$tmp/tree.ids"
	extra=$(comm -23 "$tmp/tree.ids" "$tmp/overlay.ids" | wc -l)
	[ "$extra" = 0 ] ||
		die "$tree has $extra commit(s) on $1 after 'base' that $overlay lacks; run 'make export${make_args}' to keep them (and commit kernel-overlay/), then make rebase again"
}

# Nothing in the tree that a re-import would lose.
require_safe() {
	if am_in_progress; then
		die "$tree has a git am in progress; finish it (git -C $tree am --continue) or abort it (git -C $tree am --abort) first"
	fi
	[ -z "$(git -C "$tree" status --porcelain)" ] ||
		die "$tree has uncommitted changes; commit them and run 'make export${make_args}', or stash them, then make rebase again"
	overlay_patches "$overlay" | xargs -r cat | git patch-id --stable | cut -d' ' -f1 |
		sort > "$tmp/overlay.ids"
	require_exported main
	require_exported HEAD
}

# The subjects of the patches that git am's log ($1) says it merged
# three-way: they apply, but their context moved; a refreshed export
# carries the new context.
merged_three_way() {
	awk '/^Applying: / { sub(/^Applying: /, ""); cur = $0 }
	     /^Falling back to patching base and 3-way merge/ { print "  " cur }' "$1"
}

# Name the patch git am stopped at, its files and the conflicting hunks,
# from git am's log ($1); then stop.
report_conflict() {
	gitdir=$(git -C "$tree" rev-parse --absolute-git-dir)
	n=$(cat "$gitdir/rebase-apply/next" 2> /dev/null || echo 0)
	total=$(cat "$gitdir/rebase-apply/last" 2> /dev/null || echo "?")
	overlay_patches "$overlay" > "$tmp/list"
	patch=
	[ "$n" -gt 0 ] 2> /dev/null && patch=$(sed -n "${n}p" "$tmp/list")
	patch=${patch##*/}
	if [ -z "$patch" ]; then
		cat "$1" >&2
		die "git am failed before its first patch (see above); $tree is left as it is: make rebase-abort${make_args} puts it back"
	fi
	grep -E '^(error|CONFLICT|Patch failed|Applying|Falling back|fatal)' "$1" >&2 || cat "$1" >&2
	unmerged=$(git -C "$tree" diff --name-only --diff-filter=U)
	if [ -n "$unmerged" ]; then
		files=$(echo "$unmerged" | paste -s -d ' ' -)
		note "the conflicting hunks (ours: $package $(base_version) with the patches before it; theirs: $patch):"
		for f in $unmerged; do
			awk -v f="$f" '/^<<<<<<< / { on = 1 }
				on { printf "%s:%d: %s\n", f, NR, $0 }
				/^>>>>>>> / { on = 0; print "" }' "$tree/$f" >&2
		done
		how="resolve the conflicts there (edit the files, git -C $tree add FILE...)"
	else
		# No three-way merge was possible (the files the patch was made
		# against are not in the repository): the hunks git apply refuses.
		git -C "$tree" am --show-current-patch=diff > "$tmp/current.patch" 2> /dev/null || true
		git -C "$tree" apply --check "$tmp/current.patch" > "$tmp/apply.log" 2>&1 || true
		files=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist in index/\1/p; s/^error: \([^:]*\): No such file or directory/\1/p' \
			"$tmp/apply.log" | sort -u | paste -s -d ' ' -)
		note "the hunks that do not apply (from $patch):"
		sed -n 's/^error: patch failed: \([^:]*\):\([0-9]*\)$/\1 \2/p' "$tmp/apply.log" |
		while read -r f line; do
			awk -v f="$f" -v l="$line" '
			/^diff --git / { infile = ($3 == "a/" f); on = 0 }
			infile && /^@@ / { split($2, a, ","); on = (substr(a[1], 2) == l) }
			on { printf "%s: %s\n", f, $0 }' "$tmp/current.patch" >&2
		done
		how="apply the patch by hand there (git -C $tree am --show-current-patch=diff shows it; edit, git -C $tree add FILE...)"
	fi
	die "patch $patch ($n of $total) does not apply to $package $(base_version)${files:+: conflicts in $files}.
$tree is left in the middle of git am: $how, then run make rebase-continue${make_args}; or put the tree back as it was with make rebase-abort${make_args}"
}

# The tree holds the whole series on the new base: pin the version,
# export the patches.
finish() {
	v=$(base_version)
	[ "$v" = "$(cat "$(state_file)")" ] ||
		die "$tree's base is $package $v, not the $(cat "$(state_file)") the rebase was onto; make rebase-abort${make_args}"
	! am_in_progress ||
		die "$tree is still in the middle of git am: finish it (git -C $tree am --continue), then make rebase-continue${make_args}"
	[ "$(current_head "$tree")" = main ] ||
		die "$tree is not on main; check it out (git -C $tree checkout main), then make rebase-continue${make_args}"
	"$top/tools/stages/export.sh" "$tree" "$overlay"
	echo "$v" > "$overlay/base-version"
	rm -f "$(state_file)"
	note "the series is now based on $package $v: $overlay/base-version and the patches are updated (git diff $overlay); the tree from before is refs/rebase/orig-main in $tree"
}

start() {
	[ -n "$version" ] ||
		die "no version: make rebase VERSION=<debian version>; the apt sources offer: $("$top/tools/stages/linux-source.sh" --list | paste -s -d ' ' -)"
	if is_imported && [ -f "$(state_file)" ]; then
		die "a rebase onto $package $(cat "$(state_file)") is in progress in $tree: make rebase-continue${make_args}, or make rebase-abort${make_args}"
	fi
	if is_imported; then
		require_safe
	elif [ -e "$tree" ] && [ -n "$(ls -A "$tree")" ]; then
		die "$tree exists but is not an imported tree (no 'base' tag); move it away or remove it"
	fi
	# Fetched before the tree is touched: a version that cannot be had
	# stops here.
	"$top/tools/stages/linux-source.sh" "$version" > /dev/null

	# The series on its pinned base: the files git am -3 merges from.
	if { is_imported && [ "$(base_version)" = "$pinned" ]; } ||
	   "$top/tools/stages/linux-source.sh" --available "$pinned"; then
		LINUX_SOURCE_VERSION=$pinned "$top/tools/stages/import.sh" "$tree" "$overlay"
	else
		note "$package $pinned, the series' base, is neither in $tree nor in the apt sources: git am -3 lacks the files the patches were made against, so a patch that does not apply as it is stops the rebase"
	fi
	if [ "$version" = "$pinned" ]; then
		note "the series is already based on $package $version"
		return
	fi
	if is_imported; then
		git -C "$tree" update-ref refs/rebase/orig-main main
		git -C "$tree" update-ref refs/rebase/orig-base refs/tags/base
	fi

	IMPORT_BASE_ONLY=1 LINUX_SOURCE_VERSION=$version "$top/tools/stages/import.sh" "$tree" "$overlay"
	echo "$version" > "$(state_file)"
	note "rebasing $(overlay_patches "$overlay" | wc -l) patch(es) from $package $pinned onto $version (git am -3)"
	overlay_patches "$overlay" > "$tmp/list"
	# shellcheck disable=SC2046 # one path a line, no spaces
	if ! git -C "$tree" am -3 --keep-cr $(cat "$tmp/list") > "$tmp/am.log" 2>&1; then
		report_conflict "$tmp/am.log"
	fi
	three=$(merged_three_way "$tmp/am.log")
	[ -z "$three" ] || note "merged three-way (their context moved):
$three"
	finish
}

continue_() {
	if ! is_imported || [ ! -f "$(state_file)" ]; then
		die "no rebase in progress in $tree; start one with make rebase VERSION=<debian version>${make_args}"
	fi
	if am_in_progress; then
		if ! git -C "$tree" am --continue > "$tmp/am.log" 2>&1; then
			grep -q 'still have unmerged paths' "$tmp/am.log" &&
				die "$tree still has unmerged paths ($(git -C "$tree" diff --name-only --diff-filter=U | paste -s -d ' ' -)): git -C $tree add each file you resolved, then make rebase-continue${make_args}"
			report_conflict "$tmp/am.log"
		fi
	fi
	finish
}

abort() {
	[ -f "$(state_file)" ] || am_in_progress ||
		die "no rebase in progress in $tree"
	git -C "$tree" am --abort > /dev/null 2>&1 || true
	if git -C "$tree" rev-parse -q --verify refs/rebase/orig-main > /dev/null; then
		git -C "$tree" update-ref refs/tags/base "$(git -C "$tree" rev-parse refs/rebase/orig-base)"
		git -C "$tree" checkout -q -f -B main refs/rebase/orig-main
		note "$tree is back on main as it was before the rebase ($package $(base_version))"
	else
		note "$tree had no series before the rebase: run make import${make_args} to put it on $package $pinned"
	fi
	rm -f "$(state_file)"
}

case $cmd in
start) start ;;
continue) continue_ ;;
abort) abort ;;
*) die "usage: $0 start|continue|abort TREE OVERLAY_DIR [VERSION]" ;;
esac
