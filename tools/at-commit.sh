#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run a command with the scratch tree checked out at another commit, then
# put the tree back where it was (branch or detached HEAD), whatever the
# command's outcome. Refuses to touch a tree with uncommitted changes.
#
# usage: at-commit.sh TREE REV CMD...
set -eu
STAGE=at-commit
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

tree=$1
rev=$2
shift 2

require_clean "$tree"
git -C "$tree" rev-parse -q --verify "$rev^{commit}" > /dev/null ||
	die "$rev is not a commit of $tree"
# shellcheck disable=SC2034 # read by the on_exit command
back=$(current_head "$tree")
on_exit 'restore_tree "$tree" "$back"'

git -C "$tree" checkout -q --detach "$rev"
"$@"
