#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# export: write the scratch tree's commits after 'base' back into
# kernel-overlay/ as git format-patch files, and the series file in order.
#
# usage: export.sh TREE OVERLAY_DIR
set -eu
STAGE=export
. "$(dirname "$0")/lib.sh"

tree=$1
overlay=$2

git -C "$tree" rev-parse -q --verify base > /dev/null 2>&1 ||
	die "$tree has no 'base' tag; run make import first"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit them first (git -C $tree commit)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --zero-commit and --no-signature keep the files stable across exports,
# so that re-exporting an unchanged series changes nothing in git.
git -C "$tree" format-patch -q --zero-commit --no-signature \
	-o "$tmp" base..HEAD
rm -f "$overlay"/*.patch
for p in "$tmp"/*.patch; do
	[ -e "$p" ] || continue
	cp "$p" "$overlay"/
done
(cd "$tmp" && ls -1 | grep '\.patch$' || true) > "$overlay/series"
note "exported $(wc -l < "$overlay/series") patch(es) from $tree into $overlay"
