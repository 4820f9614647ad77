#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tree-test-progs: the kernel tree's own test_progs, built at REV with the
# tree's tools/testing/selftests/bpf Makefile as a bpf maintainer builds it
# (its libbpf and bpftool, Debian's clang), statically linked, and an
# initramfs that runs the series' selftests (initramfs/kernel-tests) with
# it under the harness's init. Each test is /tests/NAME, a wrapper that
# runs "test_progs -a NAME" and prints the KTAP result line the init
# wants: ok when test_progs exits 0 and its summary has at least one test
# passed, none skipped and none failed.
#
# usage: tree-test-progs.sh TREE REV VMLINUX OUT
#
# Files in OUT:
#   src/             REV's tools/ and what its build reads besides
#   obj/             the build (the Makefile's OUTPUT); obj/test_progs
#   build.log        the build's output
#   initramfs.cpio   busybox, the harness's init, /tree (test_progs and
#                    the files it loads), /tests (the wrappers and order)
#
# What the 6.1 Makefile needs that it does not say, done here:
#   - bpf_testmod.ko is built against a configured kernel tree; the guest
#     kernel loads no module, so the Makefile is told the file is there
#     (make -o), and test_progs skips the tests that need it;
#   - urandom_read links liburandom_read.so by a path relative to the
#     selftests directory, which is wrong when OUTPUT is elsewhere: a
#     symbolic link there points at OUTPUT's;
#   - the .bpf.o files and test data are copied with rsync (make deps).
set -eu
STAGE="tree-test-progs"
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || die "usage: tree-test-progs.sh TREE REV VMLINUX OUT"
tree=$1
rev=$2
vmlinux=$(realpath "$3" 2> /dev/null) || die "$3 is missing; run make kernel first"
out=$4
top=$(cd "$(dirname "$0")/.." && pwd)
for tool in rsync clang ld.lld busybox; do
	command -v "$tool" > /dev/null ||
		die "$tool is missing; run make deps (as root) to install it"
done
git -C "$tree" rev-parse -q --verify "$rev^{commit}" > /dev/null ||
	die "$tree has no commit '$rev'; run make import first"

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src
obj=$out/obj
sel=$src/tools/testing/selftests/bpf

# The sources of REV, replaced only when REV changed: the build is
# incremental on the same sources.
want=$(git -C "$tree" rev-parse "$rev^{tree}")
if [ "$(cat "$out/src.tree" 2> /dev/null)" != "$want" ]; then
	rm -rf "$src" "$out/src.tree"
	mkdir -p "$src"
	git -C "$tree" archive "$rev" tools scripts include/uapi \
		arch/x86/include/uapi kernel/bpf/disasm.c kernel/bpf/disasm.h |
		tar -x -C "$src"
	echo "$want" > "$out/src.tree"
fi
mkdir -p "$obj"
[ -e "$obj/bpf_testmod.ko" ] || : > "$obj/bpf_testmod.ko"
ln -sf "$obj/liburandom_read.so" "$sel/liburandom_read.so"

echo "tree-test-progs: building test_progs at $(git -C "$tree" log -1 --format='%h %s' "$rev") (log: $out/build.log)"
if ! make -C "$sel" -j"$(nproc)" OUTPUT="$obj" VMLINUX_BTF="$vmlinux" \
	SAN_CFLAGS=-static -o "$obj/bpf_testmod.ko" test_progs \
	> "$out/build.log" 2>&1; then
	grep -E '(error|Error)[: ]' "$out/build.log" | head -n 20 >&2 || true
	die "the tree's test_progs does not build at $rev (see $out/build.log)"
fi

# The initramfs: the harness's init runs /tests/NAME for each name in
# /tests/order.
root=$out/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/tree" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp"
cp "$(command -v busybox)" "$root/bin/busybox"
cp "$top/initramfs/init" "$root/init"
# test_progs and what it loads from its working directory
find "$obj" -maxdepth 1 -type f \( -name test_progs -o -name '*.bpf.o' \
	-o -name 'btf_dump_test_case_*.c' -o -name '*.so' \) \
	-exec cp {} "$root/tree/" \;
tests=$(sed 's/#.*//' "$top/initramfs/kernel-tests")
: > "$root/tests/order"
for t in $tests; do
	[ -f "$sel/prog_tests/$t.c" ] ||
		die "initramfs/kernel-tests names $t, which $rev's tree has no prog_tests/$t.c for"
	echo "$t" >> "$root/tests/order"
	cp "$top/initramfs/tree-test-progs-wrapper" "$root/tests/$t"
	chmod +x "$root/tests/$t"
done
(cd "$root" && find . | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible -R 0:0) > "$out/initramfs.cpio"
echo "tree-test-progs: $out/initramfs.cpio runs $(tr '\n' ' ' < "$root/tests/order")with the tree's test_progs"
