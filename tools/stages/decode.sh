#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# decode: the first kernel report's trace in a serial log, decoded to file
# and line by the tree's scripts/decode_stacktrace.sh with vmlinux. make
# verdict runs it when a run fails on a kernel report.
#
# The trace taken is the lines around the first "Call Trace:" or "cut
# here" marker (20 before, 80 after); OUT holds them decoded, and the lines
# that gained a file and line are printed.
#
# usage: decode.sh SRCTREE VMLINUX LOG OUT
set -eu
STAGE=decode
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 4 ] || die "usage: decode.sh SRCTREE VMLINUX LOG OUT"
src=$(realpath "$1")
vmlinux=$2
log=$3
out=$4
script=$src/scripts/decode_stacktrace.sh
[ -x "$script" ] || die "$script is missing; run make import"
[ -f "$vmlinux" ] || die "$vmlinux is missing: no trace decoded (build the kernel that ran)"
command -v addr2line > /dev/null || die "addr2line is missing; apt-get install binutils"

at=$(grep -anE 'Call Trace:|cut here' "$log" | head -n 1 | cut -d: -f1)
if [ -z "$at" ]; then
	note "no 'Call Trace:' in $log: nothing to decode"
	exit 0
fi
from=$((at > 20 ? at - 20 : 1))
sed -n "${from},$((at + 80))p" "$log" | "$script" "$vmlinux" "$src" > "$out" 2> /dev/null ||
	die "decode_stacktrace.sh failed on $log"
echo "--- the first kernel report's trace, decoded (all of it: $out):"
grep -aE '\([^ ()]+:[0-9]+\)' "$out" | head -n 40 | sed 's/^/    /'
