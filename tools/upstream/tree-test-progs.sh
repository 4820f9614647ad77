#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tree-test-progs: the kernel tree's own test_progs, built at REV with the
# tree's tools/testing/selftests/bpf Makefile as a bpf maintainer builds it
# (its libbpf and bpftool, Debian's clang) with its libraries, and an
# initramfs that runs the series' selftests (initramfs/kernel-tests) with
# it under the harness's init. Each test is /tests/NAME, a wrapper that
# runs "test_progs -a NAME" and prints the KTAP result line the init
# wants: ok when test_progs exits 0 and its summary has at least one test
# passed, none skipped and none failed.
#
# usage: tree-test-progs.sh TREE REV VMLINUX OUT
#
# The build, and the check of its arguments, is
# tools/upstream/tree-test-progs-build.sh's (its files in OUT: src/,
# obj/, build.log, tree/). Files in OUT besides:
#   initramfs.cpio   busybox, the harness's init, /tree (test_progs and
#                    the files it loads: OUT/tree), /tests (the wrappers
#                    and order)
set -eu
STAGE="tree-test-progs"
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 4 ] || die "usage: tree-test-progs.sh TREE REV VMLINUX OUT"
tree=$1 rev=$2 out=$4
command -v busybox > /dev/null ||
	die "busybox is missing; run make deps (as root) to install it"
"$top/tools/upstream/tree-test-progs-build.sh" "$tree" "$rev" "$3" "$out"
out=$(cd "$out" && pwd)
sel=$out/src/tools/testing/selftests/bpf

# The initramfs: the harness's init runs /tests/NAME for each name in
# /tests/order.
root=$out/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/tests" "$root/tree" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp"
cp "$(command -v busybox)" "$root/bin/busybox"
cp "$top/initramfs/init" "$root/init"
# test_progs and what it loads from its working directory
cp -pR "$out/tree/." "$root/tree/"
cp -pR "$out/libs/." "$root/"
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
