#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fuzz: build ci/verdict_fuzz.c (with ci/splats.c) with libFuzzer, ASan and UBSan, and fuzz
# the verdict parser for FUZZ_SECONDS (60 by default), seeded from
# ci/fuzz-corpus/ and the recorded logs of ci/fixtures/. What it learns
# stays in OUT/corpus for the next run; a crash leaves OUT/crash-* and
# fails. The whole libFuzzer output is in OUT/fuzz.log.
#
# usage: fuzz.sh OUT
set -eu
STAGE=fuzz
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

out=${1:?usage: fuzz.sh OUT}
seconds=${FUZZ_SECONDS:-60}
case $seconds in
'' | *[!0-9]*) die "FUZZ_SECONDS='$seconds' is not a number of seconds" ;;
esac

command -v clang >/dev/null 2>&1 ||
	die "clang is missing; install it with: sudo apt-get install -y clang (or make deps)"
major=$(clang -dumpversion | cut -d. -f1)
rt=$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a
[ -f "$rt" ] ||
	die "clang's libFuzzer runtime ($rt) is missing; install it with: sudo apt-get install -y libclang-rt-$major-dev (or make deps)"

mkdir -p "$out/corpus"
bin=$out/verdict-fuzz
clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Wall -Wextra -Werror \
	-o "$bin" "$top/ci/verdict_fuzz.c" "$top/ci/splats.c" ||
	die "building $bin failed (see above)"
for log in "$top"/ci/fixtures/*.log; do
	[ -e "$out/corpus/fixture-${log##*/}" ] ||
		cp "$log" "$out/corpus/fixture-${log##*/}"
done

note "fuzzing the verdict parser for $seconds s; output in $out/fuzz.log"
rc=0
VERDICT_SPLATS=$top/ci/splats "$bin" -max_total_time="$seconds" \
	-timeout=10 -max_len=16384 -print_final_stats=1 \
	-dict="$top/ci/fuzz.dict" -artifact_prefix="$out/" \
	"$out/corpus" "$top/ci/fuzz-corpus" >"$out/fuzz.log" 2>&1 || rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
if [ "$rc" != 0 ]; then
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$out/fuzz.log" >&2 || true
	# shellcheck disable=SC2012 # the newest of the fuzzer's own file names
	die "the fuzzer failed after ${runs:-?} executions (exit $rc): see $out/fuzz.log; the input is $(ls -t "$out"/crash-* "$out"/timeout-* "$out"/oom-* "$out"/leak-* 2>/dev/null | head -n 1); replay it with: $bin FILE"
fi
note "$runs executions in $seconds s, no crash; corpus: $(find "$out/corpus" -type f | wc -l) inputs"
