#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tree-test-progs-build: the kernel tree's own test_progs, built at REV
# with the tree's tools/testing/selftests/bpf Makefile as a bpf maintainer
# builds it (its libbpf and bpftool, Debian's clang), linked against
# Debian's shared libraries as upstream's is (uprobe tests attach to the
# libc test_progs calls), against VMLINUX's types. The build of make tree-test-progs
# (tools/upstream/tree-test-progs.sh) and of make upstream-selftests
# (tools/upstream/upstream-selftests.sh); both then copy OUT/tree/ and OUT/libs/
# into their initramfs.
#
# usage: tree-test-progs-build.sh TREE REV VMLINUX OUT
#
# Files in OUT:
#   src/             REV's tools/ and what its build reads besides
#   obj/             the build (the Makefile's OUTPUT); obj/test_progs
#   build.log        the build's output
#   tree/            test_progs and the files it reads from its working
#                    directory (the .bpf.o files, btf_dump's test cases,
#                    urandom_read and its library, the scripts), to copy
#                    into an initramfs as they are; no bpf_testmod.ko
#   libs/            the shared libraries tree/'s programs need, at their
#                    paths on this machine (the dynamic linker's too)
#
# What the 6.1 Makefile needs that it does not say, done here:
#   - bpf_testmod.ko is built against a configured kernel tree, which this
#     build has not: the Makefile is told the file is there (make -o), and
#     the stand-in is not copied into tree/ (make upstream-selftests builds
#     the module for each kernel by itself);
#   - urandom_read links liburandom_read.so by a path relative to the
#     selftests directory, which is wrong when OUTPUT is elsewhere: a
#     symbolic link there points at OUTPUT's;
#   - the .bpf.o files and test data are copied with rsync (make deps).
set -eu
STAGE="tree-test-progs-build"
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 4 ] || die "usage: tree-test-progs-build.sh TREE REV VMLINUX OUT"
tree=$1 rev=$2 out=$4
vmlinux=$(realpath "$3" 2> /dev/null) || die "$3 is missing; run make kernel first"
for tool in rsync clang ld.lld; do
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
# A build linked otherwise (statically, before) starts over: make does
# not see a change of flags.
link=shared
if [ "$(cat "$out/link" 2> /dev/null)" != "$link" ]; then
	rm -rf "$obj"
	echo "$link" > "$out/link"
fi
mkdir -p "$obj"
[ -e "$obj/bpf_testmod.ko" ] || : > "$obj/bpf_testmod.ko"
ln -sf "$obj/liburandom_read.so" "$sel/liburandom_read.so"

echo "$STAGE: building test_progs at $(git -C "$tree" log -1 --format='%h %s' "$rev") (log: $out/build.log)"
if ! make -C "$sel" -j"$(nproc)" OUTPUT="$obj" VMLINUX_BTF="$vmlinux" \
	-o "$obj/bpf_testmod.ko" test_progs \
	> "$out/build.log" 2>&1; then
	grep -E '(error|Error)[: ]' "$out/build.log" | head -n 20 >&2 || true
	die "the tree's test_progs does not build at $rev (see $out/build.log)"
fi

# What test_progs reads from its working directory: the Makefile's
# TRUNNER_EXTRA_FILES (but the stand-in module) and the BPF objects.
rm -rf "$out/tree"
mkdir -p "$out/tree"
find "$obj" -maxdepth 1 -type f \( -name test_progs -o -name '*.bpf.o' \
	-o -name 'btf_dump_test_case_*.c' -o -name '*.so' \
	-o -name urandom_read -o -name xdp_synproxy -o -name sign-file \
	-o -name '*.sh' \) -exec cp -p {} "$out/tree/" \;
[ -x "$out/tree/test_progs" ] || die "the build left no $obj/test_progs"
# core_reloc_btfgen runs ./bpftool, the bootstrap build the Makefile
# links there (a link this copy would not follow)
cp -p "$obj/tools/build/bpftool/bootstrap/bpftool" "$out/tree/"

# ldd names each library a program needs by the path it resolved to;
# glibc loads libgcc_s at run time, for pthread_exit() and cancellation
# (map_lock, spinlock and bpf_iter's threads abort without it).
rm -rf "$out/libs"
mkdir -p "$out/libs"
{
	for f in "$out/tree/test_progs" "$out/tree/urandom_read" "$out/tree/bpftool" \
		"$out/tree/"*.so; do
		[ -f "$f" ] || continue
		ldd "$f" | grep -o '/[^ ]*' || true
	done
	echo "/lib/$(gcc -dumpmachine)/libgcc_s.so.1"
} | sort -u | while read -r lib; do
	case $lib in
	"$out"/*) ;;
	*) cp --parents -L "$lib" "$out/libs/" ;;
	esac
done
