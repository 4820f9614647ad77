#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpf-grant's parsing of its counts, paths and type lists, and of
# memory.max (policy/grant_args.c), on the host: no guest, no root.
# tests/bpf-grant-args.c holds it to a table and to random inputs; built
# with AddressSanitizer and UndefinedBehaviorSanitizer where the compiler
# has them and they run here, so that any read or write out of bounds
# fails the test.
#
# usage: tests/bpf-grant-args.sh [ROUNDS [SEED]]	(default: 5000, fixed)
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. tests/lib.sh

cc=${CC:-gcc}
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
printf 'int main(void) { return 0; }\n' > "$tmp/probe.c"
# shellcheck disable=SC2086 # $san is a list of flags
if $cc $san -o "$tmp/probe" "$tmp/probe.c" 2> /dev/null &&
	"$tmp/probe" 2> /dev/null; then
	echo "# built with $san"
else
	echo "# $cc cannot build or run with $san here: built without"
	san=
fi
# shellcheck disable=SC2086 # $san is a list of flags
$cc -O1 -g -Wall -Werror -Ipolicy $san -o "$tmp/bpf-grant-args" \
	tests/bpf-grant-args.c policy/grant_args.c
"$tmp/bpf-grant-args" "$@"
