#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bisect.sh stopped half-way must leave build/linux as it found it:
# on its branch, no edit in the work tree, no cherry-pick in progress, no
# throw-away branch. Two ways to stop it: its commit refused by a
# pre-commit hook (the tree is dirty then, as when git has no identity),
# and SIGTERM while it bisects, after something dirtied the tree.
# Needs build/linux imported; builds and boots nothing.
set -eu
STAGE=tests/bisect-interrupted.sh
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/lib.sh
. "$top/tools/lib.sh"

tree=$top/build/linux
git -C "$tree" rev-parse -q --verify base > /dev/null ||
	die "$tree is not imported; run make import"
require_clean "$tree"
back=$(current_head "$tree")

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'

mkdir "$tmp/hooks" "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' > "$tmp/hooks/pre-commit"
# make, as tests/bisect.sh calls it: dirty the tree, then stop the caller.
cat > "$tmp/bin/make" <<MAKE
#!/bin/sh
: > '$tmp/make-ran'
echo '/* interrupted */' >> '$tree/kernel/bpf/syscall.c'
kill -TERM \$PPID
exit 1
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
	! git -C "$tree" rev-parse -q --verify CHERRY_PICK_HEAD > /dev/null ||
		why="$why; a cherry-pick is in progress"
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
PATH=$tmp/bin:$PATH "$top/tests/bisect.sh" > "$tmp/log" 2>&1 || status=$?
# It must have got as far as the bisect, past its commits and cherry-picks.
[ -f "$tmp/make-ran" ] || status=0
check $status sigterm_leaves_tree_clean
echo "$((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
