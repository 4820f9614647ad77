#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bisect.sh stopped half-way must leave build/linux as it found it
# (on its branch, no edit in the work tree), no throw-away branch, and no
# bisect in progress in the steps worktree. Two ways to stop it: its
# commit refused by a pre-commit hook (the worktree is dirty then, as when
# git has no identity), and Ctrl-C (SIGINT to its whole process group)
# while make bisect builds a step, after something dirtied the worktree.
# Needs build/linux imported; builds and boots nothing.
set -eu
STAGE=tests/bisect-interrupted.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

tree=$top/build/linux
steps=$top/build/steps/linux
git -C "$tree" rev-parse -q --verify base > /dev/null ||
	die "$tree is not imported; run make import"
back=$(current_head "$tree")
# What you have not committed in the tree stays as it is.
changes=$(git -C "$tree" status --porcelain --untracked-files=no)

# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

mkdir "$tmp/hooks" "$tmp/bin"
printf '#!/bin/sh\n: > "%s/hook-ran"\nexit 1\n' "$tmp" > "$tmp/hooks/pre-commit"
# make, as a bisect step calls it to build the kernel: dirty the worktree,
# then press Ctrl-C; any other make is the real one.
real_make=$(command -v make)
cat > "$tmp/bin/make" <<MAKE
#!/bin/sh
case " \$* " in
*" kernel "*)
	: > '$tmp/make-ran'
	echo '/* interrupted */' >> '$steps/kernel/bpf/syscall.c'
	kill -INT 0
	exit 1 ;;
esac
exec '$real_make' "\$@"
MAKE
chmod +x "$tmp/hooks/pre-commit" "$tmp/bin/make"

# check STATUS NAME EXPECTED-STATUS MARKER: MARKER is the file in $tmp
# that says the stop happened where it should
check() {
	why=
	[ -f "$tmp/$4" ] ||
		why="$why; it stopped before it got there: $(tail -n 1 "$tmp/log")"
	[ "$1" -eq "$3" ] || why="$why; it exited $1, not $3"
	[ "$(git -C "$tree" status --porcelain --untracked-files=no)" = "$changes" ] ||
		why="$why; the work tree's changes differ"
	[ "$(current_head "$tree")" = "$back" ] ||
		why="$why; HEAD is $(current_head "$tree"), not $back"
	! git -C "$tree" rev-parse -q --verify refs/heads/bisect-proof > /dev/null ||
		why="$why; branch bisect-proof is left"
	[ ! -f "$(git -C "$steps" rev-parse --git-dir)/BISECT_LOG" ] ||
		why="$why; $steps is still bisecting"
	[ -z "$why" ] || git -C "$tree" branch -q -D bisect-proof 2> /dev/null || true
	result "$2" "${why#; }"
}

echo "1..2"
status=0
GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0="$tmp/hooks" \
	"$top/tests/bisect.sh" > "$tmp/log" 2>&1 || status=$?
# It must get as far as its first commit.
check $status commit_refused_leaves_tree_clean 1 hook-ran
status=0
# A process group of its own, as a shell gives a command, so that kill 0
# reaches it all and not this script; SIGINT as a terminal delivers it,
# even when make check was started with it ignored (a background job of a
# script), which no shell can undo. Stopped, it exits 130.
PATH=$tmp/bin:$PATH python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execv(sys.argv[1], sys.argv[1:])' "$top/tests/bisect.sh" > "$tmp/log" 2>&1 || status=$?
# It must get as far as a bisect step, past its commits.
check $status ctrl_c_leaves_tree_clean 130 make-ran
summary
