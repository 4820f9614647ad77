#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of make rebase (tools/series/rebase.sh) on tiny stand-ins for three
# linux-source-6.1 versions, already "downloaded" under a VERSIONS_DIR of
# their own, with a fake apt-cache that offers them: a rebase that needs
# the three-way merge, the way back, a conflict named with its patch,
# file and hunk, rebase-continue after resolving it, rebase-abort, and
# the refusals that protect work in the scratch tree.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

g() { git -c user.name=t -c user.email=t@t "$@"; }

# Version $1 of the stand-in: kernel/bpf.c of ten lines, line $2 replaced
# by $3 (none when $2 is 0), as linux-source.sh leaves an unpacked .deb.
export VERSIONS_DIR="$tmp/versions"
# The cache of imported bases: this test's own, never the user's
export BPF_CI_CACHE="$tmp/cache"
version() {
	src=$tmp/src-$1/linux-source-6.1
	mkdir -p "$src/kernel" "$VERSIONS_DIR/$1/usr/src"
	printf 'int %s;\n' a b c d e f g h i j |
		awk -v n="$2" -v l="$3" 'NR == n { print l; next } { print }' > "$src/kernel/bpf.c"
	printf 'VERSION = 6\n' > "$src/Makefile"
	printf '*.o\n/*\n!/debian/\n' > "$src/.gitignore"
	tar -cJf "$VERSIONS_DIR/$1/usr/src/linux-source-6.1.tar.xz" -C "$tmp/src-$1" linux-source-6.1
}
version 1.0-1 0 ""
# 2.0-1 changes the context of the first patch: it applies only three-way.
version 2.0-1 4 "int d2;"
# 3.0-1 changes the line the first patch changes: a conflict.
version 3.0-1 1 "int a_renamed;"

# apt-cache madison as the apt sources that offer the three.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/apt-cache" << 'EOF'
#!/bin/sh
for v in 3.0-1 2.0-1 1.0-1; do
	echo "linux-source-6.1 |      $v | http://deb.example/debian bookworm/main amd64 Packages"
done
EOF
chmod +x "$tmp/bin/apt-cache"
PATH=$tmp/bin:$PATH

# The overlay: a cover letter and two patches made against 1.0-1.
overlay=$tmp/overlay
mkdir -p "$overlay" "$tmp/mk"
tar -xJf "$VERSIONS_DIR/1.0-1/usr/src/linux-source-6.1.tar.xz" -C "$tmp/mk" --strip-components=1
g -C "$tmp/mk" init -q
g -C "$tmp/mk" add -A -f
g -C "$tmp/mk" commit -q -m base
sed -i 's/int a;/int a = 1;/' "$tmp/mk/kernel/bpf.c"
g -C "$tmp/mk" commit -q -am "bpf: first"
sed -i 's/int j;/int j = 10;/' "$tmp/mk/kernel/bpf.c"
g -C "$tmp/mk" commit -q -am "bpf: second"
g -C "$tmp/mk" format-patch -q --zero-commit --no-signature --cover-letter -o "$overlay" HEAD~2
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/Two patches/; s/\*\*\* BLURB HERE \*\*\*/Why./' \
	"$overlay/0000-cover-letter.patch"
(cd "$overlay" && ls -- 0001-*.patch 0002-*.patch) > "$overlay/series"
echo 1.0-1 > "$overlay/base-version"

tree=$tmp/linux
rb() { "$top/tools/series/rebase.sh" "$@"; }

expect needs_version 1 "make rebase VERSION=.*offer: 3.0-1 2.0-1 1.0-1" rb start "$tree" "$overlay" ""
expect unknown_version 1 "9.9-9 is not in the apt sources" rb start "$tree" "$overlay" 9.9-9
expect unknown_version_leaves_no_tree 0 "^none$" sh -c "[ -e '$tree' ] || echo none"

# Onto 2.0-1: the series is first put on its pinned base, then moved.
expect rebase_three_way 0 "now based on linux-source-6.1 2.0-1" rb start "$tree" "$overlay" 2.0-1
expect rebase_names_merged_patch 0 "^  bpf: first$" cat "$tmp/last"
expect base_version_updated 0 "^2.0-1$" cat "$overlay/base-version"
expect base_tag_moved 0 "^linux-source-6.1 2.0-1$" git -C "$tree" tag -l --format='%(contents:subject)' base
expect series_on_new_base 0 "^2$" git -C "$tree" rev-list --count base..main
expect new_base_kept 0 "int d2;" cat "$tree/kernel/bpf.c"
expect patches_kept 0 "int j = 10;" cat "$tree/kernel/bpf.c"
expect orig_main_kept 0 "bpf: second" git -C "$tree" log -1 --format=%s refs/rebase/orig-main
expect orig_base_is_old 0 "1.0-1" git -C "$tree" log -1 --format=%s refs/rebase/orig-main~2
expect exported_context 0 "^ int d2;$" cat "$overlay"/0001-*.patch

# And back: the same patches as at the start.
# (relative paths, as make passes them)
expect rebase_back 0 "now based on linux-source-6.1 1.0-1" sh -c "cd '$tmp' && '$top/tools/series/rebase.sh' start linux overlay 1.0-1"
g -C "$tmp/mk" format-patch -q --zero-commit --no-signature -o "$tmp/orig" HEAD~2
expect back_patches_identical 0 "^same$" sh -c "diff '$tmp/orig/0001-bpf-first.patch' '$overlay/0001-bpf-first.patch' &&
	diff '$tmp/orig/0002-bpf-second.patch' '$overlay/0002-bpf-second.patch' && echo same"

# Refusals: nothing in the tree is lost.
echo "int k;" >> "$tree/kernel/bpf.c"
expect refuses_dirty_tree 1 "uncommitted changes" rb start "$tree" "$overlay" 2.0-1
expect dirty_work_kept 0 "int k;" cat "$tree/kernel/bpf.c"
expect dirty_version_kept 0 "^1.0-1$" cat "$overlay/base-version"
g -C "$tree" commit -q -am "bpf: third"
expect refuses_unexported_commit 1 "1 commit\(s\) on main after 'base' that .* lacks; run 'make export KSRC=" \
	rb start "$tree" "$overlay" 2.0-1
expect unexported_commit_kept 0 "bpf: third" git -C "$tree" log -1 --format=%s main
g -C "$tree" reset -q --hard HEAD~1

# Onto 3.0-1: the first patch conflicts. The run names patch, file and
# hunk, and leaves the git am for the developer.
expect conflict_named 1 "patch 0001-bpf-first.patch \(1 of 2\) does not apply to linux-source-6.1 3.0-1: conflicts in kernel/bpf.c" \
	rb start "$tree" "$overlay" 3.0-1
expect conflict_hunk_shown 0 "^kernel/bpf.c:1: <<<<<<< " cat "$tmp/last"
expect conflict_how_to_continue 0 "make rebase-continue KSRC=" cat "$tmp/last"
expect conflict_keeps_version 0 "^1.0-1$" cat "$overlay/base-version"
expect conflict_am_in_progress 0 "rebase-apply" sh -c "ls -d '$tree'/.git/rebase-apply"
expect refuses_second_rebase 1 "a rebase onto linux-source-6.1 3.0-1 is in progress" rb start "$tree" "$overlay" 2.0-1
expect continue_needs_add 1 "still has unmerged paths \(kernel/bpf.c\)" rb continue "$tree" "$overlay"
sed -i '/^<<<<<<< /,/^>>>>>>> /c int a_renamed = 1;' "$tree/kernel/bpf.c"
git -C "$tree" add kernel/bpf.c
expect continue_finishes 0 "now based on linux-source-6.1 3.0-1" rb continue "$tree" "$overlay"
expect continued_version 0 "^3.0-1$" cat "$overlay/base-version"
expect continued_patch 0 "^\+int a_renamed = 1;$" cat "$overlay"/0001-*.patch
expect continue_twice 1 "no rebase in progress" rb continue "$tree" "$overlay"

# Back to 1.0-1 conflicts the other way; abort puts the tree back.
expect conflict_back 1 "patch 0001-bpf-first.patch .* conflicts in kernel/bpf.c" rb start "$tree" "$overlay" 1.0-1
expect abort 0 "back on main as it was .*3.0-1" rb abort "$tree" "$overlay"
expect abort_tree 0 "int a_renamed = 1;" cat "$tree/kernel/bpf.c"
expect abort_base 0 "^linux-source-6.1 3.0-1$" git -C "$tree" tag -l --format='%(contents:subject)' base
expect abort_clean 0 "^clean$" sh -c "[ -z \"\$(git -C '$tree' status --porcelain)\" ] && [ ! -d '$tree/.git/rebase-apply' ] && echo clean"
expect abort_version_kept 0 "^3.0-1$" cat "$overlay/base-version"

# The pinned version gone from the archive and from the tree: the rebase
# goes on without the three-way merge's old files, and says so.
rm -rf "$tree"
cat > "$tmp/bin/apt-cache" << 'EOF'
#!/bin/sh
echo "linux-source-6.1 |      2.0-1 | http://deb.example/debian bookworm/main amd64 Packages"
EOF
mv "$VERSIONS_DIR/3.0-1" "$tmp/gone"
expect pinned_gone 1 "3.0-1, the series' base, is neither in .* nor in the apt sources" \
	rb start "$tree" "$overlay" 2.0-1
expect pinned_gone_patch_named 0 "patch 0001-bpf-first.patch \(1 of 2\) does not apply to linux-source-6.1 2.0-1: conflicts in kernel/bpf.c" cat "$tmp/last"
expect pinned_gone_hunk_shown 0 "^kernel/bpf.c: @@ -1,4 \+1,4 @@" cat "$tmp/last"

summary
