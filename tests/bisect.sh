#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Proof that make bisect finds a bad commit and is not misled on the
# way. A throw-away branch of patches 1-3, then, in this order:
#   COMMENT x2   harmless commits (a comment)
#   FLAKY        the test fails on the first try of each step: with
#                TRIES=2 its step must pass, on the second try
#   COMMENT x2
#   NOBUILD      does not build: its step must be skipped, not called bad
#   FIX          builds again
#   BREAK        drops the unprivileged_bpf_disabled check of map
#                creation: the first bad commit
#   HARMLESS x2  harmless commits after it, so that git bisect must build,
#                boot and judge a failing step (exit 1) before it can
#                name BREAK: when BREAK is BAD itself, git never boots it
# Two bisects of it, both with TRIES=2: base..branch with
# TEST=smoke/unpriv_refused_hash, and FIX..branch with no TEST (the whole
# suite).
# Both must name BREAK, and the steps git visits (fixed by the shape of
# the branch) must each have said what they are: FLAKY passed on try 2,
# NOBUILD untestable, FIX passed on try 2 (it has FLAKY's change), BREAK
# and HARMLESS 1 failed. The branch stops at patch 3: the later patches change
# include/linux/security.h, and with a cold ccache each step through them
# rebuilt most of the kernel. Needs build/linux imported (make import).
# The branch is made in the steps worktree (tools/lib/lib.sh), where make
# bisect runs too: build/linux is never touched, and however the proof
# ends, no throw-away branch is left (tests/bisect-interrupted.sh checks).
set -eu
STAGE=tests/bisect.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

tree=$top/build/linux
branch=bisect-proof
break_subject="BREAK: ignore unprivileged_bpf_disabled in map creation"
nobuild_subject="NOBUILD: a commit that does not build"
flaky_subject="FLAKY: map creation unchecked on the first try of a step"
fix_subject="FIX: build again"
harmless_subject="HARMLESS: a comment after the breaking commit"

git -C "$tree" rev-parse -q --verify base > /dev/null ||
	die "$tree is not imported; run make import"
! git -C "$tree" rev-parse -q --verify "refs/heads/$branch" > /dev/null ||
	die "$tree has a branch $branch left by an older harness; delete it: git -C $tree branch -D $branch"
back=$(current_head "$tree")
changes=$(git -C "$tree" status --porcelain --untracked-files=no)
# The series as the tree has it checked out, on whatever branch
third=$(git -C "$tree" rev-list --reverse "base..$back" | sed -n 3p)
[ -n "$third" ] || die "the series ($back) has fewer than 3 commits"

on_exit 'rm -rf "$tmp"; git -C "$tree" branch -q -D "$branch" 2> /dev/null || true'

# The throw-away branch, as commits on a detached HEAD in the worktree
steps=$top/build/steps/linux
steps_tree "$tree" "$third" "$steps"
syscall=$steps/kernel/bpf/syscall.c
comment() {
	echo "/* bisect proof: $1 */" >> "$syscall"
	harness_git -C "$steps" commit -q -a -m "$1"
}
comment "COMMENT: a comment"
comment "COMMENT: another comment"
sed -i '/^static int map_create_check_perms/,/^{/{
	/^{/a\
	if (strstr(saved_command_line, "ci.try=1"))\
		return 0;
}' "$syscall"
harness_git -C "$steps" commit -q -a -m "$flaky_subject"
comment "COMMENT: a third comment"
comment "COMMENT: a fourth comment"
echo '#error bisect proof: this commit does not build' >> "$syscall"
harness_git -C "$steps" commit -q -a -m "$nobuild_subject"
sed -i '$d' "$syscall"
harness_git -C "$steps" commit -q -a -m "$fix_subject"
fix=$(git -C "$steps" rev-parse HEAD)
sed -i '/^static int map_create_check_perms/,/^}/{
	/sysctl_unprivileged_bpf_disabled && !bpf_capable()/{N;d}
}' "$syscall"
harness_git -C "$steps" commit -q -a -m "$break_subject"
comment "$harmless_subject 1"
comment "$harmless_subject 2"
git -C "$tree" branch "$branch" "$(git -C "$steps" rev-parse HEAD)"
# make bisect takes the worktree's lock (fd 9) itself.
exec 9>&-

# bisect NAME GOOD TRIES [TEST]: run make bisect; its output in
# build/bisect-proof-NAME.log, which the checks read
bisect() {
	log=$top/build/bisect-proof-$1.log
	start=$(date +%s)
	make -C "$top" --no-print-directory bisect GOOD="$2" BAD="$branch" \
		TRIES="$3" TEST="${4:-}" > "$log" 2>&1 || true
	sed 's/^/# /' "$log"
	echo "# bisect $1 took $(($(date +%s) - start)) s"
	why=
}
# in_log PATTERN WHAT: the bisect's output has a line matching PATTERN
in_log() {
	grep -q "$1" "$log" || why="$why; $2"
}
# judge NAME: the bisect named in the log, and build/linux as it was
judge() {
	[ "$(current_head "$tree")" = "$back" ] ||
		why="$why; build/linux is on $(current_head "$tree"), not $back"
	[ "$(git -C "$tree" status --porcelain --untracked-files=no)" = "$changes" ] ||
		why="$why; build/linux's uncommitted changes differ"
	result "$1" "${why#; }"
}

c='[0-9a-f]*'
bisect test base 2 smoke/unpriv_refused_hash
in_log "^first bad commit: $c $break_subject\$" "BREAK was not named"
in_log "^  $c $flaky_subject: PASS (on try 2 of 2: flaky)\$" \
	"the FLAKY step did not pass on its second try"
in_log "^  $c $nobuild_subject: untestable: the kernel does not build" \
	"the NOBUILD step was not called untestable"
# FLAKY's change is in every later commit
in_log "^  $c $fix_subject: PASS (on try 2 of 2: flaky)\$" \
	"the FIX step did not pass on its second try"
in_log "^  $c $break_subject: FAIL: .* (all 2 tries failed)\$" \
	"the BREAK step was not judged failed (exit 1) after 2 tries"
judge bisect_with_test_names_breaking_commit

bisect suite "$fix" 2
in_log "^first bad commit: $c $break_subject\$" "BREAK was not named"
in_log "^  $c $harmless_subject 1: FAIL: .* (all 2 tries failed)\$" \
	"the HARMLESS 1 step was not judged failed (exit 1)"
in_log "^  $c $break_subject: FAIL: .* (all 2 tries failed)\$" \
	"the BREAK step was not judged failed (exit 1)"
judge bisect_whole_suite_names_breaking_commit

summary
