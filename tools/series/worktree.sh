#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# worktree: keep DIR a git worktree of the scratch tree TREE, checked out
# (detached) at REV, so that building another commit there leaves TREE and
# the tip's build as they are: no file of TREE changes, so the next make ci
# recompiles nothing. A worktree left behind by an older import (its
# metadata gone with the old TREE) is made again.
#
# usage: worktree.sh TREE REV DIR
set -eu
STAGE=worktree
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 3 ] || die "usage: worktree.sh TREE REV DIR"
tree=$1 rev=$2 dir=$3
git -C "$tree" rev-parse -q --verify "$rev^{commit}" > /dev/null ||
	die "$rev is not a commit of $tree; run make import"
commit=$(git -C "$tree" rev-parse "$rev^{commit}")

if [ -e "$dir" ] && ! { is_worktree "$tree" "$dir" &&
	git -C "$dir" rev-parse -q --verify HEAD > /dev/null 2>&1; }; then
	note "$dir is not a worktree of $tree any more (an older import?): making it again"
	rm -rf "$dir"
fi
git -C "$tree" worktree prune
if [ ! -e "$dir" ]; then
	git -C "$tree" worktree add -q --detach "$(realpath -m "$dir")" "$commit" ||
		die "git worktree add $dir failed"
elif [ "$(git -C "$dir" rev-parse HEAD)" != "$commit" ] ||
     [ -n "$(git -C "$dir" status --porcelain --untracked-files=no)" ]; then
	# Nobody edits this tree: it follows REV.
	git -C "$dir" checkout -q -f --detach "$commit" ||
		die "cannot check $dir out at $rev"
fi
