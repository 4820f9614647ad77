#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# export: write the scratch tree's commits after 'base' back into
# kernel-overlay/ as git format-patch files, the series file in order, and
# a cover letter (0000-cover-letter.patch) with a current shortlog and
# diffstat. The cover letter's subject and text are kept from the one in
# kernel-overlay/, or taken from the branch description
# (git branch --edit-description) when there is none yet.
#
# usage: export.sh TREE OVERLAY_DIR
set -eu
STAGE="export"
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

tree=$1
overlay=$2
cover=$overlay/0000-cover-letter.patch

git -C "$tree" rev-parse -q --verify base > /dev/null 2>&1 ||
	die "$tree has no 'base' tag; run make import first"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit them first (git -C $tree commit)"
branch=$(git -C "$tree" symbolic-ref -q --short HEAD) ||
	die "$tree is on a detached HEAD; check out the series' branch (git -C $tree checkout main)"

# The subject (unfolded, without "[PATCH 0/N] ") and the text of a cover
# letter, before its shortlog, as a branch description.
cover_description() {
	awk '
	/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
	insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
	insubj { insubj = 0 }
	!body && /^$/ && subj != "" { body = 1; print subj; print ""; next }
	body && /^[^ ].* \([0-9]+\):$/ { exit }
	body { print }
	' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

if [ -z "$(git -C "$tree" rev-list base..HEAD)" ]; then
	rm -f "$overlay"/*.patch
	: > "$overlay/series"
	note "no commits after base: kernel-overlay/ is empty"
	exit 0
fi

if [ -f "$cover" ]; then
	git -C "$tree" config "branch.$branch.description" "$(cover_description "$cover")"
fi
git -C "$tree" config "branch.$branch.description" > /dev/null ||
	die "no cover letter yet: write one with: git -C $tree branch --edit-description (subject, blank line, text)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --zero-commit and --no-signature keep the files stable across exports,
# so that re-exporting an unchanged series changes nothing in git.
git -C "$tree" format-patch -q --zero-commit --no-signature --cover-letter \
	--cover-from-description=subject -o "$tmp" base..HEAD
rm -f "$overlay"/*.patch
cp "$tmp"/*.patch "$overlay"/
for p in "$tmp"/*.patch; do
	case ${p##*/} in 0000-cover-letter.patch) ;; *) echo "${p##*/}" ;; esac
done > "$overlay/series"
note "exported $(wc -l < "$overlay/series") patch(es) and the cover letter from $tree into $overlay"
