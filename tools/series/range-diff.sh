#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# range-diff: how the series changed since an earlier revision of this
# repository, the way a reviewer reads a v2: the old kernel-overlay/ is
# applied on 'base' in the steps worktree (tools/lib/lib.sh), then git
# range-diff compares it with TREE's HEAD; TREE stays as it is.
#
# usage: range-diff.sh TREE OLD
set -eu
STAGE=range-diff
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

tree=$1
old=$2

[ -n "$old" ] || die "usage: make range-diff OLD=<revision of this repository>"
git -C "$top" rev-parse -q --verify "$old^{commit}" > /dev/null ||
	die "OLD=$old is not a commit of this repository"

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'
steps=$top/build/steps/linux
steps_tree "$tree" base "$steps"

git -C "$top" archive "$old" kernel-overlay | tar -x -C "$tmp" ||
	die "$old has no kernel-overlay/"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$tmp/kernel-overlay/series" |
while read -r p; do
	git -C "$steps" am -q "$tmp/kernel-overlay/$p" > /dev/null 2>&1 ||
		die "$p of $old does not apply to base"
done
old_tip=$(git -C "$steps" rev-parse HEAD)
git -C "$tree" range-diff "base..$old_tip" "base..HEAD"
