#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/stages/hardening.sh on a small program built as bpf-grant is
# (initramfs/Makefile: Debian's hardening flags, -static-pie): it passes
# with every flag, and fails naming what is missing when one flag is
# taken away.
set -eu
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

cat > "$tmp/toy.c" << 'C'
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", argv[0]);
	printf("%s %d\n", buf, argc);
	return strlen(buf) > 1000;
}
C

# result NAME OK WHY: one TAP line; the output behind a failure
result() {
	if [ "$2" = yes ]; then
		pass=$((pass + 1))
		echo "ok $((pass + fail)) $1"
	else
		fail=$((fail + 1))
		echo "not ok $((pass + fail)) $1 ($3)"
		cat "$tmp/cc" "$tmp/out" 2> /dev/null | sed 's/^/# /'
	fi
}

# check NAME WANT-EXIT WANT-MESSAGE FLAGS...: build the toy with FLAGS,
# run the checker on it
check() {
	name=$1 want=$2 msg=$3
	shift 3
	got=0
	rm -f "$tmp/cc" "$tmp/out"
	if ! gcc -o "$tmp/toy" "$tmp/toy.c" "$@" 2> "$tmp/cc"; then
		got=cc
	elif ! "$top/tools/stages/hardening.sh" "$tmp/toy" toy.c > "$tmp/out" 2>&1; then
		got=1
	fi
	ok=no
	[ "$got" != "$want" ] || ! grep -q -- "$msg" "$tmp/out" || ok=yes
	result "$name" $ok "exit $got, wanted $want and '$msg'"
}

check every_flag 0 "PIE, RELRO, BIND_NOW, stack protector, _FORTIFY_SOURCE" \
	-g -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE -Wl,-z,relro -Wl,-z,now -static-pie
check no_pie 1 "not PIE (ELF type EXEC)" \
	-g -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wl,-z,relro -Wl,-z,now -static
check no_relro 1 "no RELRO" \
	-g -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE -Wl,-z,norelro -Wl,-z,now -static-pie
check no_bind_now 1 "no BIND_NOW" \
	-g -O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE -Wl,-z,relro -static-pie
check no_stack_protector 1 "toy.c without -fstack-protector-strong" \
	-g -O2 -fno-stack-protector -D_FORTIFY_SOURCE=2 -fPIE -Wl,-z,relro -Wl,-z,now -static-pie
check no_fortify 1 "built without _FORTIFY_SOURCE" \
	-g -O2 -fstack-protector-strong -fPIE -Wl,-z,relro -Wl,-z,now -static-pie
check no_debug_info 1 "no compile unit for toy.c" \
	-O2 -fstack-protector-strong -D_FORTIFY_SOURCE=2 -fPIE -Wl,-z,relro -Wl,-z,now -static-pie
rm -f "$tmp/cc"
if "$top/tools/stages/hardening.sh" "$tmp/nosuch" toy.c > "$tmp/out" 2>&1; then got=0; else got=1; fi
ok=no
[ $got != 1 ] || ! grep -q "nosuch is missing" "$tmp/out" || ok=yes
result missing_binary $ok "exit $got, wanted 1 and 'nosuch is missing'"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
