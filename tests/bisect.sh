#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Proof that make bisect finds a bad commit and is not misled on the
# way: a throw-away branch of patches 1-3, then a commit that makes the
# test fail on the first try of each step (a flaky test: with TRIES=2 its
# step passes on the second), a commit that changes a comment, a commit
# that does not build and one that fixes it (that step must be skipped,
# not called bad), and a commit that drops the unprivileged_bpf_disabled
# check of map creation; that commit must be named as the first bad
# commit for smoke/unpriv_refused_hash, and the steps at the flaky and the
# unbuildable commits must have said so (git bisect visits both, in this
# order of commits). The
# branch stops there: the later patches change include/linux/security.h,
# and with a cold ccache each step through them rebuilt most of the
# kernel (17 minutes for the proof, in a make check of 45). Needs
# build/linux imported (make import). The branch is made in the steps
# worktree (tools/lib.sh), where make bisect runs too: build/linux is
# never touched, and however the proof ends, no throw-away branch is left
# (tests/bisect-interrupted.sh checks).
set -eu
STAGE=tests/bisect.sh
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/lib.sh
. "$top/tools/lib.sh"

tree=$top/build/linux
branch=bisect-proof
break_subject="BREAK: ignore unprivileged_bpf_disabled in map creation"
nobuild_subject="NOBUILD: a commit that does not build"
flaky_subject="FLAKY: map creation unchecked on the first try of a step"

git -C "$tree" rev-parse -q --verify base > /dev/null ||
	die "$tree is not imported; run make import"
! git -C "$tree" rev-parse -q --verify "refs/heads/$branch" > /dev/null ||
	die "$tree has a branch $branch left by an older harness; delete it: git -C $tree branch -D $branch"
back=$(current_head "$tree")
changes=$(git -C "$tree" status --porcelain --untracked-files=no)
# The series as the tree has it checked out, on whatever branch
third=$(git -C "$tree" rev-list --reverse "base..$back" | sed -n 3p)
[ -n "$third" ] || die "the series ($back) has fewer than 3 commits"

on_exit 'git -C "$tree" branch -q -D "$branch" 2> /dev/null || true'

# The throw-away branch, as commits on a detached HEAD in the worktree
steps=$top/build/steps/linux
steps_tree "$tree" "$third" "$steps"
syscall=$steps/kernel/bpf/syscall.c
sed -i '/^static int map_create_check_perms/,/^{/{
	/^{/a\
	if (strstr(saved_command_line, "ci.try=1"))\
		return 0;
}' "$syscall"
harness_git -C "$steps" commit -q -a -m "$flaky_subject"
echo '/* bisect proof: a comment */' >> "$syscall"
harness_git -C "$steps" commit -q -a -m "COMMENT: a comment"
echo '#error bisect proof: this commit does not build' >> "$syscall"
harness_git -C "$steps" commit -q -a -m "$nobuild_subject"
sed -i '$d' "$syscall"
harness_git -C "$steps" commit -q -a -m "FIX: build again"
sed -i '/^static int map_create_check_perms/,/^}/{
	/sysctl_unprivileged_bpf_disabled && !bpf_capable()/{N;d}
}' "$syscall"
harness_git -C "$steps" commit -q -a -m "$break_subject"
git -C "$tree" branch "$branch" "$(git -C "$steps" rev-parse HEAD)"
# make bisect takes the worktree's lock (fd 9) itself.
exec 9>&-

start=$(date +%s)
make -C "$top" --no-print-directory bisect GOOD=base BAD="$branch" \
	TEST=smoke/unpriv_refused_hash TRIES=2 > "$top/build/bisect-proof.log" 2>&1 || true
cat "$top/build/bisect-proof.log"
echo "# bisect took $(($(date +%s) - start)) s"
log=$top/build/bisect-proof.log
if grep -q "^first bad commit: [0-9a-f]* $break_subject$" "$log" &&
   grep -q "^  [0-9a-f]* $nobuild_subject: untestable: the kernel does not build" "$log" &&
   grep -q "^  [0-9a-f]* $flaky_subject: PASS (on try 2 of 2: flaky)$" "$log" &&
   [ "$(current_head "$tree")" = "$back" ] &&
   [ "$(git -C "$tree" status --porcelain --untracked-files=no)" = "$changes" ]; then
	echo "ok 1 bisect_names_breaking_commit"
	echo "1 passed, 0 failed"
else
	echo "not ok 1 bisect_names_breaking_commit"
	echo "0 passed, 1 failed"
	exit 1
fi
