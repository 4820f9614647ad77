#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# import: unpack Debian's linux-source-6.1 into a scratch git tree, tag the
# import 'base', and apply kernel-overlay/ on top with git am, one commit per
# patch. Work in the scratch tree is never thrown away: a dirty tree, or
# commits that are not in the overlay, make it refuse.
#
# The version is the installed package's (/usr/src), or another one's,
# fetched under build/versions/ by tools/stages/linux-source.sh, when
# LINUX_SOURCE_VERSION names it (make import VERSION=...). A tree imported
# from one version and asked for another is imported again in place: its
# git repository, and so the files of the base and series it had, stay,
# for a three-way merge of the series onto the new base (make rebase).
# IMPORT_BASE_ONLY=1 stops after the base: main is left at 'base'.
#
# The base outlives the clone: BPF_CI_CACHE (the Makefile's, in the
# user's cache directory) keeps each import in base/KEY.git, a bare
# repository whose tag 'base' is the import, and base/KEY.tree, its tree
# id; KEY is the package's version, the tarball's SHA-256, and
# the version of this recipe. A tree imported again from there is fetched
# (git's index-pack hashes every object: a damaged or truncated cache
# fails), and its tree and tag compared with those recorded; a cache that
# fails is named, removed and made again from the tarball, never used,
# and another user's is left alone. Without BPF_CI_CACHE, no cache.
#
# usage: import.sh TREE OVERLAY_DIR
set -eu
STAGE=import
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

tree=$1
overlay=$(realpath "$2")
package=linux-source-6.1
want=${LINUX_SOURCE_VERSION:-}
base_only=${IMPORT_BASE_ONLY:-}

[ -f "$overlay/series" ] ||
	die "$overlay/series is missing; it lists the overlay's patches in apply order (it may be empty)"

pinned=$(cat "$overlay/base-version" 2> /dev/null || true)
if [ -n "$want" ]; then
	version=$want
else
	version=$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || echo unknown)
	[ -z "$pinned" ] || [ "$pinned" = "$version" ] ||
		note "the installed $package is $version, but the series is based on $pinned ($overlay/base-version): install that (make deps), or import it without installing: make import VERSION=$pinned"
fi

# The tarball to unpack, found only when one must be unpacked: a tree
# already at the version needs none.
find_tarball() {
	if [ -n "${KERNEL_TARBALL:-}" ]; then
		tarball=$KERNEL_TARBALL
	elif [ -n "$want" ]; then
		tarball=$("$(dirname "$0")/linux-source.sh" "$want") ||
			die "no tarball of $package $want (see above)"
	else
		tarball=/usr/src/$package.tar.xz
	fi
	[ -f "$tarball" ] ||
		die "$tarball is missing; install it with: apt-get install $package (or run make deps)"
}

# Patch ids of an mbox on stdin, in its order.
patch_ids() {
	git patch-id --stable | cut -d' ' -f1
}

# What import_base() makes of a tarball: bump when it makes another tree
# or commit of the same one, so that the cache's older imports go unused
recipe=2

# The cache of imported bases, an absolute path (git -C would take a
# relative one from the tree); none without BPF_CI_CACHE
cache=
case ${BPF_CI_CACHE:-} in
'') ;;
/*) cache=$BPF_CI_CACHE/base ;;
*) cache=$(pwd)/$BPF_CI_CACHE/base ;;
esac

# Tag 'base' and its tree from the cache's import $1 ($cache/KEY.git): 0,
# or 1 when there is none; a damaged one is removed (1 too), one of
# another user's is left and not used (nor written: key is emptied).
base_from_cache() {
	repo=$cache/$1.git
	[ -d "$repo" ] || return 1
	if [ ! -O "$repo" ]; then
		note "the cached import $repo is another user's: not used"
		key=
		return 1
	fi
	recorded=$(cat "$cache/$1.tree" 2> /dev/null || true)
	if git -C "$tree" fetch -q --no-tags "$repo" "+refs/tags/base:refs/tags/base" 2> "$tmp/fetch.log" &&
		[ -n "$recorded" ] &&
		[ "$(git -C "$tree" rev-parse -q --verify 'base^{tree}')" = "$recorded" ] &&
		[ "$(base_version)" = "$package $version" ]; then
		return 0
	fi
	note "the cached import $repo is damaged ($(head -n 1 "$tmp/fetch.log" 2> /dev/null || true)${recorded:+, or not the tree $recorded of $package $version}): removing it and unpacking the tarball again"
	rm -rf "$repo" "$cache/$1.tree"
	git -C "$tree" tag -d base > /dev/null 2>&1 || true
	return 1
}

# Keep the import of 'base' in the cache as $1: a repository made apart and
# renamed into place, so that a run stopped half way leaves none. Packed
# without deltas: a later fetch copies it rather than computes one.
base_to_cache() {
	new=$cache/.$1.$$
	if ! { rm -rf "$new.git" &&
		git init -q --bare "$new.git" &&
		git -C "$new.git" config pack.window 0 &&
		git -C "$tree" -c pack.window=0 push -q "$new.git" "refs/tags/base:refs/tags/base" &&
		git -C "$tree" rev-parse 'base^{tree}' > "$new.tree" &&
		rm -rf "$cache/$1.git" && mv -T "$new.git" "$cache/$1.git" &&
		mv "$new.tree" "$cache/$1.tree"; }; then
		note "could not keep the import in $cache (the next import unpacks the tarball again)"
	fi
	rm -rf "$new.git" "$new.tree"
}

# Unpack the tarball as a new root commit, tagged 'base', with main on it,
# or fetch that commit from the cache. A tree imported before keeps its
# repository (its worktrees too); the caller checked that it had nothing
# that is not in the overlay.
import_base() {
	find_tarball
	# One import at a time reads or writes the cache (fd 8; lib.sh's
	# steps lock is 9), until this function returns.
	key=
	if [ -n "$cache" ]; then
		key=$version-$(sha256sum "$tarball" | cut -d' ' -f1)-$recipe
		if ! { mkdir -p "$cache" && exec 8> "$cache/.lock" && flock 8; }; then
			note "cannot lock $cache/.lock: the cache of imported bases is not used"
			key=
		fi
	fi
	if [ -d "$tree/.git" ]; then
		git -C "$tree" checkout -q --detach
		find "$tree" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
		git -C "$tree" read-tree --empty
	else
		rm -rf "$tree"
		mkdir -p "$tree"
		git -C "$tree" init -q -b main
	fi
	if [ -n "$key" ] && base_from_cache "$key"; then
		note "$package $version from the cache: $cache/$key.git"
		git -C "$tree" checkout -q -f -B main base
		exec 8>&-
		return
	fi
	note "unpacking $tarball ($package $version) into $tree"
	tar -xJf "$tarball" -C "$tree" --strip-components=1
	# Debian's top-level .gitignore ignores every path ("/*") because its
	# packaging repository holds only debian/. Drop those lines, or every
	# new file of the series would be ignored by git.
	[ ! -f "$tree/.gitignore" ] ||
		sed -i '\|^/\*$|d; \|^!/debian/$|d' "$tree/.gitignore"
	git -C "$tree" add -A -f
	commit=$(harness_git -C "$tree" commit-tree "$(git -C "$tree" write-tree)" \
		-m "Import $package $version" \
		-m "Unpacked from the package's tarball by tools/stages/import.sh, with the
Debian packaging lines \"/*\" and \"!/debian/\" taken out of .gitignore
so that git sees new files.")
	git -C "$tree" tag -f -a -m "$package $version" base "$commit" > /dev/null
	git -C "$tree" checkout -q -B main base
	[ -z "$key" ] || base_to_cache "$key"
	exec 8>&-
}

base_version() {
	git -C "$tree" tag -l --format='%(contents:subject)' base
}

# Is the scratch tree safe to rewind to 'base'? Only when it is clean and
# every commit after 'base' is also a patch of the overlay.
check_no_lost_work() {
	if [ -n "$(git -C "$tree" status --porcelain)" ]; then
		die "$tree has uncommitted changes; commit them and run 'make export', or stash them, then run make import again (make test builds and boots the tree as it is)"
	fi
	if [ -d "$tree/.git/rebase-apply" ]; then
		die "$tree has a git am in progress; finish it (git am --continue) or abort it (git am --abort)"
	fi
	local_only=$(git -C "$tree" format-patch --stdout base..HEAD | patch_ids |
		sort | comm -23 - "$tmp/overlay.sorted")
	if [ -n "$local_only" ]; then
		die "$tree has commits after 'base' that kernel-overlay/ lacks; run 'make export' to keep them, or reset them away yourself (git -C $tree reset --hard base)"
	fi
	# A message edited in the tree (a Fixes: id, a reword) leaves the
	# patch id as it was: compare the messages too.
	for c in $(git -C "$tree" rev-list base..HEAD); do
		git -C "$tree" log -1 --format='%s%n%n%b' "$c" | git stripspace | sha1sum
	done | sort > "$tmp/tree.msgs"
	while read -r f; do
		git -C "$tree" mailinfo "$tmp/msg" "$tmp/diff" < "$f" > "$tmp/info"
		{ sed -n 's/^Subject: //p' "$tmp/info"; echo; cat "$tmp/msg"; } |
			git stripspace | sha1sum
	done < "$tmp/list" | sort > "$tmp/overlay.msgs"
	if [ -n "$(comm -23 "$tmp/tree.msgs" "$tmp/overlay.msgs")" ]; then
		die "$tree has commits after 'base' whose messages kernel-overlay/ lacks; run 'make export' to keep them, or reset them away yourself (git -C $tree reset --hard base)"
	fi
}

apply_overlay() {
	git -C "$tree" checkout -q -B main base
	overlay_patches "$overlay" > "$tmp/list"
	n=0
	while read -r p; do
		n=$((n + 1))
		if ! git -C "$tree" am -q --keep-cr "$p" > "$tmp/am.log" 2>&1; then
			file=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist in index/\1/p' \
				"$tmp/am.log" | head -n 1)
			cat "$tmp/am.log" >&2
			git -C "$tree" am --abort 2> /dev/null || true
			die "patch ${p##*/} does not apply${file:+ to $file}; $tree is left at the patch before it: fix the patch there (git am, edit, git am --continue), then run make export"
		fi
	done < "$tmp/list"
	note "applied $n patch(es) from $overlay/series on top of base"
}

# Each "Fixes: ID (\"SUBJECT\")" that names a patch of the series by its
# subject must give the id that patch has in an import, the same in every
# one (lib.sh fixes the committer and the date): an id taken from a tree
# where commits were made by hand, at other dates, names nothing for
# anyone else. Upstream commits, subjects not in the series, are not
# checked.
check_fixes_ids() {
	if [ -n "$pinned" ] && [ "$(base_version)" != "$package $pinned" ]; then
		note "Fixes: tags not checked: their ids are those of an import of $pinned ($overlay/base-version), and base is $(base_version)"
		return
	fi
	git -C "$tree" log --reverse --abbrev=12 --format='%h%x09%s' base..HEAD > "$tmp/subjects"
	for c in $(git -C "$tree" rev-list --reverse base..HEAD); do
		git -C "$tree" log -1 --format=%B "$c" |
			sed -n "s/^Fixes: \([0-9a-f]\{8,40\}\) (\"\(.*\)\")\$/$c\t\1\t\2/p"
	done > "$tmp/fixes"
	while IFS="$(printf '\t')" read -r c id subject; do
		want=$(awk -F '\t' -v s="$subject" '$2 == s { print $1; exit }' "$tmp/subjects")
		# one id a prefix of the other: a tag may give more digits
		[ -z "$want" ] || [ "${want#"$id"}" != "$want" ] || [ "${id#"$want"}" != "$id" ] || {
			# back to base: a second import must apply and refuse again,
			# not call this tree up to date
			git -C "$tree" checkout -q -B main base
			die "$(git -C "$tree" log -1 --format='%s' "$c"): its tag 'Fixes: $id' names \"$subject\", which is $want in every import; write Fixes: $want (\"$subject\") in kernel-overlay/ (ids of commits made by hand in a tree differ from an import's)"
		}
	done < "$tmp/fixes"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
overlay_patches "$overlay" > "$tmp/list"
xargs -r cat < "$tmp/list" | patch_ids > "$tmp/overlay.ids"
sort "$tmp/overlay.ids" > "$tmp/overlay.sorted"

if git -C "$tree" rev-parse -q --verify base > /dev/null 2>&1; then
	check_no_lost_work
	if [ "$(base_version)" != "$package $version" ]; then
		how=installed
		[ -z "$want" ] || how="asked for"
		note "base is '$(base_version)' but $package $version is $how: importing again"
		import_base
	fi
	if [ -n "$base_only" ]; then
		git -C "$tree" checkout -q -B main base
		exit 0
	fi
	if [ "$(git -C "$tree" format-patch --stdout base..HEAD | patch_ids)" = \
	     "$(cat "$tmp/overlay.ids")" ]; then
		note "$tree is up to date with $overlay"
		exit 0
	fi
else
	[ ! -e "$tree" ] || [ -z "$(ls -A "$tree")" ] ||
		die "$tree exists but is not an imported tree (no 'base' tag); move it away or remove it"
	import_base
	[ -z "$base_only" ] || exit 0
fi
apply_overlay
check_fixes_ids
