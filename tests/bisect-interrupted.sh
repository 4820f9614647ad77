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
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/lib.sh
. "$top/tools/lib.sh"

tree=$top/build/linux
steps=$top/build/steps/linux
git -C "$tree" rev-parse -q --verify base > /dev/null ||
	die "$tree is not imported; run make import"
require_clean "$tree"
back=$(current_head "$tree")

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'

mkdir "$tmp/hooks" "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' > "$tmp/hooks/pre-commit"
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

n=0
failed=0
check() {
	n=$((n + 1))
	why=
	[ "$1" -ne 0 ] || why="$why; it was stopped, yet exited 0"
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		why="$why; the work tree has changes"
	[ "$(current_head "$tree")" = "$back" ] ||
		why="$why; HEAD is $(current_head "$tree"), not $back"
	! git -C "$tree" rev-parse -q --verify refs/heads/bisect-proof > /dev/null ||
		why="$why; branch bisect-proof is left"
	[ ! -f "$(git -C "$steps" rev-parse --git-dir)/BISECT_LOG" ] ||
		why="$why; $steps is still bisecting"
	if [ -z "$why" ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2${why}"
		failed=$((failed + 1))
		restore_tree "$tree" "$back"
		git -C "$tree" branch -q -D bisect-proof 2> /dev/null || true
	fi
}

echo "1..2"
status=0
GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0="$tmp/hooks" \
	"$top/tests/bisect.sh" > "$tmp/log" 2>&1 || status=$?
check $status commit_refused_leaves_tree_clean
status=0
# A process group of its own, as a shell gives a command: kill 0 reaches
# it all, and not this script.
PATH=$tmp/bin:$PATH setsid -w "$top/tests/bisect.sh" > "$tmp/log" 2>&1 || status=$?
# It must have got as far as a bisect step, past its commits.
[ -f "$tmp/make-ran" ] || status=0
check $status ctrl_c_leaves_tree_clean
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
