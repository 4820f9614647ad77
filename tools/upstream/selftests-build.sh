#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# selftests-build: the series' selftests (initramfs/kernel-tests) compiled
# as the tree's selftests Makefile compiles a test of prog_tests/: against
# that commit's own test_progs.h and tools/ headers (libbpf's from
# tools/lib), with the Makefile's flags (-O0 -Wall -Werror), at every
# commit of the series that has one, not only at the tip. make ci runs
# these tests with the harness's runner, whose test_progs.h is another:
# this is what shows that a bpf maintainer's build of test_progs would
# take them. The skeletons are the ones make guest-tests generated at the
# tip (SKELS).
#
# Not the whole of test_progs: the tree's other BPF programs need kernel
# types (conntrack, tunnels, ...) that the guest's config leaves out, so
# its vmlinux.h cannot build them.
#
# usage: selftests-build.sh TREE SKELS OUT
set -eu
STAGE="selftests-build"
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 3 ] || die "usage: selftests-build.sh TREE SKELS OUT"
tree=$1
skels=$(realpath "$2" 2> /dev/null) || die "$2 is missing; run make guest-tests first"
out=$3
tests=$(sed 's/#.*//' "$top/initramfs/kernel-tests")
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

failed=0
for c in $(git -C "$tree" rev-list --reverse base..main); do
	src=$out/src
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$tree" archive "$c" tools/testing/selftests/bpf tools/include \
		tools/lib/bpf tools/arch/x86/include | tar -x -C "$src"
	sel=$src/tools/testing/selftests/bpf
	line=
	for t in $tests; do
		[ -f "$sel/prog_tests/$t.c" ] || continue
		if (cd "$sel" && gcc -g -O0 -Wall -Werror -I. -I../../../include \
			-I../../../lib -I../../../include/uapi -I"$skels" \
			-c "prog_tests/$t.c" -o "$out/$t.o") > "$out/$c-$t.log" 2>&1; then
			line="$line $t ok"
		else
			line="$line $t FAILED ($out/$c-$t.log)"
			failed=$((failed + 1))
		fi
	done
	[ -z "$line" ] || echo "$(git -C "$tree" log -1 --format='%h %s' "$c"):$line"
done
rm -rf "$out/src"
[ "$failed" -eq 0 ] ||
	die "$failed selftest build(s) failed against the tree's test_progs.h (see the logs named above)"
