#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the import and export stages on a tiny stand-in for the kernel
# tarball: a fresh import, an up-to-date re-run, the refusals that protect
# work in the scratch tree, a patch that does not apply, and an export
# round trip.
set -eu

# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# A two-file "kernel" tarball and an overlay of two patches made against it.
mkdir -p "$tmp/src/linux-source-6.1/kernel"
printf 'int a;\nint b;\nint c;\n' > "$tmp/src/linux-source-6.1/kernel/bpf.c"
printf 'VERSION = 6\n' > "$tmp/src/linux-source-6.1/Makefile"
# Debian's .gitignore ignores every top-level path; import must undo that
printf '*.o\n/*\n!/debian/\n.gitignore\n' > "$tmp/src/linux-source-6.1/.gitignore"
tar -cJf "$tmp/linux.tar.xz" -C "$tmp/src" linux-source-6.1
export KERNEL_TARBALL="$tmp/linux.tar.xz"
# The cache of imported bases: this test's own, never the user's
export BPF_CI_CACHE="$tmp/cache"
tree=$tmp/linux
overlay=$tmp/overlay
mkdir -p "$overlay"

git init -q "$tmp/mk"
cp -r "$tmp/src/linux-source-6.1/." "$tmp/mk/"
git -C "$tmp/mk" add -A -f
git -C "$tmp/mk" -c user.name=t -c user.email=t@t commit -q -m base
sed -i 's/int a;/int a = 1;/' "$tmp/mk/kernel/bpf.c"
git -C "$tmp/mk" -c user.name=t -c user.email=t@t commit -q -am "bpf: first"
sed -i 's/int c;/int c = 3;/' "$tmp/mk/kernel/bpf.c"
git -C "$tmp/mk" -c user.name=t -c user.email=t@t commit -q -am "bpf: second"
git -C "$tmp/mk" format-patch -q -o "$overlay" HEAD~2
(cd "$overlay" && ls -- *.patch) > "$overlay/series"

imp() { "$top/tools/stages/import.sh" "$tree" "$overlay"; }
exp() { "$top/tools/stages/export.sh" "$tree" "$overlay"; }

expect fresh_import 0 "applied 2 patch" imp
expect base_tagged 0 "^Import linux-source-6.1" \
	git -C "$tree" log -1 --format=%s base
expect one_commit_per_patch 0 "^2$" git -C "$tree" rev-list --count base..HEAD
expect rerun_up_to_date 0 "up to date" imp

# The base outlives the tree: a second tree is imported from the cache,
# the same commit and files; a damaged cache (objects cut short, a byte
# changed, its tag moved to another tree) is named, never used, and made
# again from the tarball.
imp_to() { "$top/tools/stages/import.sh" "$tmp/$1" "$overlay"; }
same_base() {
	[ "$(git -C "$tmp/$1" rev-parse base)" = "$(git -C "$tree" rev-parse base)" ] &&
		diff -r -x .git "$tree" "$tmp/$1" > /dev/null && echo same
}
cached=$(echo "$BPF_CI_CACHE"/base/*.git)
expect base_cached 0 "^ok$" sh -c "test -d '$cached' && test -s '${cached%.git}.tree' && echo ok"
expect import_from_cache 0 "from the cache" imp_to linux2
expect cache_same_base 0 "^same$" same_base linux2
find "$cached/objects" -type f ! -name '*.idx' -exec truncate -s 20 {} +
expect cut_cache_named 0 "cached import .* is damaged" imp_to linux3
expect cut_cache_unpacked 0 "unpacking" cat "$tmp/last"
expect cut_cache_same_base 0 "^same$" same_base linux3
expect cache_made_again 0 "from the cache" imp_to linux4
find "$cached/objects" -type f ! -name '*.idx' -exec sh -c 'for f; do
	printf x | dd of="$f" bs=1 seek=5 conv=notrunc 2> /dev/null; done' sh {} +
expect flipped_cache_named 0 "cached import .* is damaged" imp_to linux5
expect flipped_cache_same_base 0 "^same$" same_base linux5
other=$(git -C "$cached" -c user.name=t -c user.email=t@t commit-tree -m other "$(git -C "$cached" mktree < /dev/null)")
git -C "$cached" tag -f base "$other" > /dev/null
expect moved_tag_named 0 "cached import .* is damaged" imp_to linux6
expect moved_tag_same_base 0 "^same$" same_base linux6
if [ "$(id -u)" = 0 ]; then
	imp_to linux7 > /dev/null 2>&1	# made again, this user's
	chown -R 65534 "$cached"
	expect others_cache_named 0 "is another user's: not used" imp_to linux7b
	expect others_cache_kept 0 "^kept$" sh -c "test -d '$cached' && echo kept"
	expect others_cache_same_base 0 "^same$" same_base linux7b
	chown -R 0 "$cached"
fi
rm -rf "$tmp"/linux[2-7]*
touch "$tree/newfile.c"
expect new_files_not_ignored 0 "newfile.c" git -C "$tree" status --porcelain
rm "$tree/newfile.c"

echo "int d;" >> "$tree/kernel/bpf.c"
expect refuses_dirty_tree 1 "uncommitted changes" imp
expect dirty_work_kept 0 "int d;" cat "$tree/kernel/bpf.c"
git -C "$tree" -c user.name=t -c user.email=t@t commit -q -am "bpf: third"
expect refuses_unexported_commit 1 "commits after 'base' that kernel-overlay/ lacks" imp
expect unexported_commit_kept 0 "bpf: third" git -C "$tree" log -1 --format=%s

expect export_needs_cover_text 1 "no cover letter yet" exp
git -C "$tree" config branch.main.description "$(printf 'The subject\n\nWhy this series.')"
expect export_writes_series 0 "exported 3 patch" exp
expect cover_letter_subject 0 "^Subject: \[PATCH 0/3\] The subject$" cat "$overlay/0000-cover-letter.patch"
expect cover_letter_shortlog 0 "^  bpf: third$" cat "$overlay/0000-cover-letter.patch"
expect series_lacks_cover 0 "^0$" sh -c "grep -c cover '$overlay/series' || true"
git -C "$tree" config --unset branch.main.description
expect cover_text_kept 0 "^Why this series.$" sh -c "'$top/tools/stages/export.sh' '$tree' '$overlay' >/dev/null 2>&1; cat '$overlay/0000-cover-letter.patch'"
expect series_has_three 0 "^3$" sh -c "grep -c patch '$overlay/series'"
cat "$overlay"/* > "$tmp/before"
exp > /dev/null 2>&1
expect export_is_stable 0 "^same$" sh -c "cat '$overlay'/* | diff '$tmp/before' - && echo same"
expect import_after_export 0 "up to date" imp
# A message edited in the tree alone (its patch id unchanged) is work too
git -C "$tree" -c user.name=t -c user.email=t@t commit -q --amend -m "bpf: third" -m "Why it is."
expect refuses_unexported_message 1 "whose messages kernel-overlay/ lacks" imp
exp > /dev/null 2>&1
expect message_exported_up_to_date 0 "up to date" imp

# The ids do not depend on where the tarball sits, nor on the cache: the
# same tarball elsewhere, with no cache, gives the same base.
cp "$KERNEL_TARBALL" "$tmp/elsewhere.tar.xz"
expect base_id_path_free 0 "^same$" sh -c "KERNEL_TARBALL='$tmp/elsewhere.tar.xz' BPF_CI_CACHE= \
	'$top/tools/stages/import.sh' '$tmp/linux-elsewhere' '$overlay' > /dev/null 2>&1 &&
	[ \"\$(git -C '$tmp/linux-elsewhere' rev-parse base)\" = \"\$(git -C '$tree' rev-parse base)\" ] && echo same"

# A Fixes: tag naming a patch of the series must give that patch's id in
# an import: one made in a tree of one's own is named, with the right one.
first=$(git -C "$tree" log --abbrev=12 --format=%h -1 --grep='^bpf: first$')
fixes_overlay() {
	rm -rf "$tmp/fx" "$tmp/linux-fx"
	git -C "$tmp/mk" checkout -q -B fx HEAD
	sed -i 's/int b;/int b = 2;/' "$tmp/mk/kernel/bpf.c"
	git -C "$tmp/mk" -c user.name=t -c user.email=t@t commit -q -am \
		"$(printf 'bpf: fourth\n\nFixes: %s ("bpf: first")\nFixes: 1234567890ab ("bpf: upstream")' "$1")"
	git -C "$tmp/mk" format-patch -q -o "$tmp/fx" HEAD~3
	(cd "$tmp/fx" && ls -- *.patch) > "$tmp/fx/series"
	git -C "$tmp/mk" checkout -q - && git -C "$tmp/mk" branch -q -D fx
	"$top/tools/stages/import.sh" "$tmp/linux-fx" "$tmp/fx"
}
expect fixes_id_of_own_tree_named 1 "names \"bpf: first\", which is $first in every import; write Fixes: $first " \
	fixes_overlay "$(git -C "$tmp/mk" log --abbrev=12 --format=%h -1 --grep='^bpf: first$')"
# and the tree is left at base: a second import refuses again
expect fixes_id_refused_again 1 "names \"bpf: first\", which is $first in every import" \
	"$top/tools/stages/import.sh" "$tmp/linux-fx" "$tmp/fx"
# A base other than the pinned one has other ids: the tags are not
# checked against it, and the run says so.
echo 0.0-other > "$tmp/fx/base-version"
expect fixes_id_other_base_noted 0 "Fixes: tags not checked: their ids are those of an import of 0.0-other" \
	sh -c "rm -rf '$tmp/linux-fx' && '$top/tools/stages/import.sh' '$tmp/linux-fx' '$tmp/fx'"
rm "$tmp/fx/base-version"
expect fixes_id_of_import_kept 0 "applied 3 patch" fixes_overlay "$first"

# A patch that no longer applies: the run stops and names patch and file.
sed -i 's/^-int c;/-int c_gone;/' "$overlay"/0002-*.patch
git -C "$tree" reset -q --hard base
expect broken_patch_named 1 "patch 0002-bpf-second.patch does not apply to kernel/bpf.c" imp
expect tree_left_at_good_patch 0 "bpf: first" git -C "$tree" log -1 --format=%s

rm -rf "$tree"
mkdir -p "$tree" && echo x > "$tree/file"
expect refuses_foreign_dir 1 "not an imported tree" imp

expect missing_tarball 1 "apt-get install linux-source-6.1" \
	env KERNEL_TARBALL="$tmp/none.tar.xz" "$top/tools/stages/import.sh" "$tmp/linux-new" "$overlay"

summary
