#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench: the cost of one bisect step (tools/step.sh running one test), by
# phase, measured side by side in one run: a step with nothing changed, a
# step after a one-file edit of kernel/bpf/syscall.c (a compile ccache has
# not seen), and a step after reverting it (a ccache hit). Ratios are to
# the unchanged step, since these machines are too noisy for absolutes.
#
# usage: bench.sh TREE
set -eu
STAGE=bench
. "$(dirname "$0")/lib.sh"

tree=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
test=smoke/root_creates_array
file=kernel/bpf/syscall.c

require_clean "$tree"
on_exit 'git -C "$tree" checkout -q -- "$file"'
rm -rf "$out"

step() {
	"$top/tools/step.sh" "$out/$1" "$test" > /dev/null ||
		die "the $1 step failed; see $out/$1"
}

step warmup
step unchanged
echo "/* bench: $(date +%s%N) */" >> "$tree/$file"
step edited
git -C "$tree" checkout -q -- "$file"
step reverted

printf '%-10s %10s %10s %10s %10s\n' step kernel tests boot total
for s in unchanged edited reverted; do
	awk -v s=$s '{ t[$1] = $2; sum += $2 }
	END { printf "%-10s %9.1fs %9.1fs %9.1fs %9.1fs\n", s, t["kernel"], t["tests"], t["boot"], sum }' \
		"$out/$s/times"
done
awk '{ sum += $2 } END { print sum }' "$out/unchanged/times" > "$out/base"
for s in edited reverted; do
	awk -v s=$s -v b="$(cat "$out/base")" '{ sum += $2 }
	END { printf "%s step / unchanged step: %.1f\n", s, sum / b }' "$out/$s/times"
done
