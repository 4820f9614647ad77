#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench: the project's figures, each taken side by side in one run, since
# these machines are too noisy for absolutes.
#
# 1. What the hooks cost: the kernel at 'base' and the tip, built from
#    the same config, boot one after the other (base, tip, base, tip)
#    under QEMU's instruction-counted virtual time (-icount, one vCPU),
#    where a measurement repeats within a few percent (two rounds),
#    then once each
#    under the usual accelerator for wall-clock rates. Each boot runs
#    bpf-bench (initramfs/bench/) instead of the tests. The rates of both
#    kernels' boots go to build/bench/hooks.csv; the table gives the tip's
#    rate over stock's for the same call and caller. The boots with no
#    policy also time the creation of every map type, as root in a
#    memory cgroup (caller "memcg"). The tip's boots with policy
#    "token" time the same calls made by a BPF token's holder with no
#    capability (caller "token"), beside the granting policy's
#    unprivileged caller.
# 2. The harness's own: one bisect step (tools/series/step.sh running one test,
#    in the steps worktree at TREE's HEAD) with nothing changed, after a
#    one-file edit of kernel/bpf/syscall.c (a compile ccache has not
#    seen), and after reverting it (a hit).
# 3. Boot to verdict with the whole suite, under TCG and KVM where it
#    works, and the stage times of the last make ci.
# 4. A cold make ci, by stage: a clone of this repository's HEAD (what is
#    committed) with an empty build directory and caches.
# 5. The floor under its kernel stage: the same tree built from scratch
#    with tinyconfig alone (tools/measure/kernel-cost.sh floor), right after it;
#    make kernel-cost gives what each part of the config costs.
# 6. Each stage against its own floor, side by side: import (cold, and
#    from the cache of imported bases) against tar -x of the same
#    tarball; the kernel through the warm ccache into an empty object
#    directory against make kernel with nothing changed (kbuild's walk
#    and the link); a boot running each test once to its verdict against
#    the same kernel and initramfs booting to an init that powers off at
#    once (ci.run=true); with each test's seconds in the guest, from that
#    boot's results.json. build/bench/floors/times: "NAME SECONDS" lines.
#
# build/bench/hooks.csv, comma-separated, with a header line:
#   kernel (base, tip), clock (icount, wall), round, call, policy (none,
#   alloc, defer, grant, token), caller (root, unpriv, memcg, token),
#   result, median, min, max (calls per second), reps, iters
# build/bench/ratios.csv, the table below, comma-separated, no header:
#   clock, call, caller, kernel, policy, result, stock/s, rate/s,
#   rate/stock
# where stock is the base kernel with no policy, each rate the mean of
# the rounds' medians, and rate/stock "-" where the call's result differs
# (stock refuses what the tip's policy grants).
# build/bench/bench.json: every figure of the run (docs/contracts.md),
#   checked against docs/measurements.md's table of ratios at the end.
#
# The shell builds, boots and times; tools/measure/bench_report.py makes the
# rows, tables, ratios and bench.json of the files here
# (tests/bench-report.sh tests it on a recorded run).
#
# BENCH_PARTS (default: all of them) names the parts to run, of: hooks
# (1), steps (2), suite (3), cold (4), floor (5), floors (6); bench.json
# has null for the others.
#
# usage: bench.sh TREE
set -eu
STAGE=bench
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

tree=$1
out=$top/build/bench
test=smoke/root_creates_array
file=kernel/bpf/syscall.c
base_bzimage=$top/build/base/kernel/arch/x86/boot/bzImage
tip_bzimage=$top/build/kernel/arch/x86/boot/bzImage
report=$top/tools/measure/bench_report.py

parts=${BENCH_PARTS:-hooks steps suite cold floor floors}
for p in $parts; do
	case $p in
	hooks | steps | suite | cold | floor | floors) ;;
	*) die "BENCH_PARTS: no part '$p'; the parts are hooks, steps, suite, cold, floor, floors" ;;
	esac
done
# part NAME: whether BENCH_PARTS has it
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }

rm -rf "$out"
mkdir -p "$out"

# Both kernels and the initramfs, as make ci and make ci-base build them
(cd "$top" && make --no-print-directory kernel initramfs kernel-base) \
	> "$out/build.log" 2>&1 ||
	die "building the two kernels failed; see $out/build.log"

# Boot kernel $1 (base or tip) with clock $2 (icount or wall) as round $3,
# bpf-bench measuring policy $4; its bench lines go to hooks.csv.
bench_boot() {
	policy=$4
	case $1 in
	base) bz=$base_bzimage ;;
	*) bz=$tip_bzimage ;;
	esac
	log=$out/$1-$4-$2-$3.log
	if [ "$2" = icount ]; then
		set -- "$1" "$2" "$3" "$4" ACCEL=tcg SMP=1 QEMU_EXTRA="-icount shift=0,sleep=off"
	fi
	kernel=$1 clock=$2 round=$3
	shift 4
	env "$@" "$top/ci/boot.sh" "$bz" "$top/build/initramfs.cpio" "$log" \
		ci.bench="$policy" > "$out/boot.log" 2>&1 ||
		die "the $kernel kernel's $clock boot failed; see $out/boot.log and $log"
	grep -q "^# ci-init: bpf-bench exited with status 0" "$log" ||
		die "bpf-bench failed in the $kernel kernel's $clock boot; see $log"
	python3 "$report" rows "$kernel" "$clock" "$round" "$log" >> "$out/hooks.csv.tmp" ||
		die "no bench lines in $log; see the console there"
	grep "^# bpf-bench" "$log" | head -n 1 || true
}

if part hooks; then
	: > "$out/hooks.csv.tmp"
	# base has no grant hooks and no token: none and alloc only
	for round in 1 2; do
		for policy in none alloc defer grant token; do
			case $policy in none | alloc) bench_boot base icount "$round" "$policy" ;; esac
			bench_boot tip icount "$round" "$policy"
		done
	done
	# the token's rows are read under icount only
	for policy in none alloc defer grant; do
		case $policy in none | alloc) bench_boot base wall 1 "$policy" ;; esac
		bench_boot tip wall 1 "$policy"
	done
	{
		echo "kernel,clock,round,call,policy,caller,result,median,min,max,reps,iters"
		cat "$out/hooks.csv.tmp"
	} > "$out/hooks.csv"
	rm "$out/hooks.csv.tmp"

	# The table, the targets and the granting policy's unprivileged calls
	python3 "$report" hooks "$out/hooks.csv" "$out/ratios.csv" \
		"$(cat "$top/build/qemu-accel" 2> /dev/null || echo auto)" || die "no table made of $out/hooks.csv"
fi

# 2. One bisect step
step() {
	"$top/tools/series/step.sh" "$out/$1" "$test" > /dev/null ||
		die "the $1 step failed; see $out/$1"
}

if part steps; then
	steps=$top/build/steps/linux
	steps_tree "$tree" "$(git -C "$tree" rev-parse HEAD)" "$steps"
	step warmup
	step unchanged
	echo "/* bench: $(date +%s%N) */" >> "$steps/$file"
	step edited
	git -C "$steps" checkout -q -- "$file"
	step reverted
	exec 9>&-	# the steps worktree's lock: what follows does not use it

	python3 "$report" steps "$out" || die "no table made of the steps' times in $out"
fi
# 3. Boot to verdict with the whole suite, under each accelerator here
if part suite; then
	echo
	accels=tcg
	if [ "$(cat "$top/build/qemu-accel" 2> /dev/null)" = kvm ]; then
		accels="kvm tcg"
	else
		echo "boot to verdict under KVM: not measured, KVM does not work here (build/qemu-accel)"
	fi
	for a in $accels; do
		t0=$(date +%s.%N)
		(cd "$top" && make --no-print-directory boot verdict ACCEL="$a" \
			CI_O="$out/suite-$a" SERIAL_LOG="$out/suite-$a/serial.log") \
			> "$out/suite-$a.log" 2>&1 || die "the whole suite failed under $a; see $out/suite-$a.log"
		echo "$a $(echo "$(date +%s.%N) - $t0" | bc)" > "$out/suite-$a.time"
		python3 "$report" suite "$out/suite-$a.time"
		cat "$out/suite-$a.time" >> "$out/suite-times"
	done
	[ -s "$top/build/ci/times" ] &&
		echo "the last make ci's stages, seconds: $(tr '\n' ' ' < "$top/build/ci/times")"
fi

# 4. A cold make ci: its caches (ccache, the imported base) empty, in the
# clone. Both are set: this script's make exported its own.
if part cold; then
	cold=$out/cold
	rm -rf "$cold"
	git clone -q "$top" "$cold" || die "cannot clone $top into $cold"
	(cd "$cold" && BPF_CI_CACHE="$cold/build/cache" CCACHE_DIR="$cold/build/cache/ccache" \
		make --no-print-directory ci) \
		> "$out/cold.log" 2>&1 || die "the cold make ci failed; see $out/cold.log"
	cp "$cold/build/ci/times" "$out/cold-times"
	rm -rf "$cold"
	python3 "$report" cold "$out/cold-times" | tee "$out/cold-stages"
fi

# 5. The floor
if part floor; then
	"$top/tools/measure/kernel-cost.sh" "$tree" "$out/kernel-cost" "$top/ci/kernel.config" -- floor \
		> "$out/kernel-cost.log" 2>&1 || die "the floor's build failed; see $out/kernel-cost.log"
	cold_times=
	part cold && cold_times=$out/cold-times
	# shellcheck disable=SC2086 # no cold make ci: no argument
	python3 "$report" kernel-cost "$out/kernel-cost/kernel-cost.csv" $cold_times
fi

# 6. Each stage against its floor
# timed NAME CMD...: run CMD (its output in floors/NAME.log), its seconds
# as NAME's line of floors/times
timed() {
	name=$1
	shift
	t0=$(date +%s.%N)
	"$@" > "$floors/$name.log" 2>&1 || die "floors: $name failed; see $floors/$name.log"
	echo "$name $(echo "$(date +%s.%N) - $t0" | bc)" >> "$floors/times"
}

if part floors; then
	floors=$out/floors
	rm -rf "$floors"
	mkdir -p "$floors/tar"
	tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
	[ -f "$tarball" ] || die "floors: $tarball is missing; run make deps"
	timed tar tar -xJf "$tarball" -C "$floors/tar"
	rm -rf "$floors/tar"
	# import.sh with a cache of this part's own: empty, then what it made
	for c in import_cold import_cached; do
		timed "$c" env BPF_CI_CACHE="$floors/cache" KERNEL_TARBALL="$tarball" \
			"$top/tools/stages/import.sh" "$floors/linux" "$top/kernel-overlay"
		rm -rf "$floors/linux"
	done
	rm -rf "$floors/cache"
	timed relink make -C "$top" --no-print-directory kernel
	# beside build/kernel, as every tree's build is: the same ccache entries
	kobj=build/floors-kernel
	rm -rf "${top:?}/$kobj"
	timed kernel_warm make -C "$top" --no-print-directory kernel KOBJ="$kobj"
	rm -rf "${top:?}/$kobj"
	timed boot_floor "$top/ci/boot.sh" "$tip_bzimage" "$top/build/initramfs.cpio" \
		"$floors/floor-serial.log" ci.run="$(printf true | base64)"
	grep -q "^ci-run-exit 0" "$floors/floor-serial.log" ||
		die "floors: the boot to an init that powers off did not run it; see $floors/floor-serial.log"
	timed boot_tests make -C "$top" --no-print-directory boot verdict REPEAT=1 \
		CI_O="$floors/tests" SERIAL_LOG="$floors/tests/serial.log"
	python3 "$report" floors "$floors" || die "no table made of $floors/times"
fi

# Every figure above, in bench.json (docs/contracts.md); and whether
# docs/measurements.md quotes this run
python3 "$report" json "$out" "$(cat "$top/build/qemu-accel" 2> /dev/null || echo auto)" \
	> "$out/bench.json" || die "cannot write $out/bench.json"
echo
status=0
python3 "$report" doc-check "$out/bench.json" "$top/docs/measurements.md" > "$out/doc-check" ||
	status=$?
case $status in
0) echo "docs/measurements.md quotes this run's ratios" ;;
1) echo "docs/measurements.md quotes another run: $(wc -l < "$out/doc-check") figures differ (see $out/doc-check)" ;;
*) echo "docs/measurements.md: its figures could not be read (see above)" ;;
esac
echo "results: $out/bench.json, $out/hooks.csv, $out/ratios.csv; logs: $out/"
