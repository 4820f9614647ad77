#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# range-diff: how the series changed since an earlier revision of this
# repository, the way a reviewer reads a v2: the old kernel-overlay/ is
# applied on 'base' in the scratch tree, then git range-diff compares it
# with the scratch tree's branch.
#
# usage: range-diff.sh TREE OLD
set -eu
STAGE=range-diff
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

tree=$1
old=$2
top=$(cd "$(dirname "$0")/.." && pwd)

[ -n "$old" ] || die "usage: make range-diff OLD=<revision of this repository>"
git -C "$top" rev-parse -q --verify "$old^{commit}" > /dev/null ||
	die "OLD=$old is not a commit of this repository"
require_clean "$tree"

tmp=$(mktemp -d)
back=$(current_head "$tree")
on_exit 'restore_tree "$tree" "$back"; rm -rf "$tmp"'

git -C "$top" archive "$old" kernel-overlay | tar -x -C "$tmp" ||
	die "$old has no kernel-overlay/"
git -C "$tree" checkout -q --detach base
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$tmp/kernel-overlay/series" |
while read -r p; do
	git -C "$tree" am -q "$tmp/kernel-overlay/$p" > /dev/null 2>&1 ||
		die "$p of $old does not apply to base"
done
old_tip=$(git -C "$tree" rev-parse HEAD)
git -C "$tree" checkout -q "$back"
git -C "$tree" range-diff "base..$old_tip" "base..$back"
