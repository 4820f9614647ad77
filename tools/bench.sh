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
#    rate over stock's for the same call and caller.
# 2. The harness's own: one bisect step (tools/step.sh running one test,
#    in the steps worktree at TREE's HEAD) with nothing changed, after a
#    one-file edit of kernel/bpf/syscall.c (a compile ccache has not
#    seen), and after reverting it (a hit).
# 3. Boot to verdict with the whole suite, under TCG and KVM where it
#    works, and the stage times of the last make ci.
# 4. A cold make ci, by stage: a clone of this repository's HEAD (what is
#    committed) with an empty build directory and ccache.
#
# build/bench/hooks.csv, comma-separated, with a header line:
#   kernel (base, tip), clock (icount, wall), round, call, policy (none,
#   alloc, defer, grant), caller (root, unpriv), result, median, min, max (calls
#   per second), reps, iters
# build/bench/ratios.csv, the table below, comma-separated, no header:
#   clock, call, caller, kernel, policy, result, stock/s, rate/s,
#   rate/stock
# where stock is the base kernel with no policy, each rate the mean of
# the rounds' medians, and rate/stock "-" where the call's result differs
# (stock refuses what the tip's policy grants).
#
# usage: bench.sh TREE
set -eu
STAGE=bench
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

tree=$1
out=$top/build/bench
test=smoke/root_creates_array
file=kernel/bpf/syscall.c
base_bzimage=$top/build/base/kernel/arch/x86/boot/bzImage
tip_bzimage=$top/build/kernel/arch/x86/boot/bzImage

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
	lines=$(grep -c "^bench	" "$log" || true)
	[ "$lines" -gt 0 ] || die "no bench lines in $log; see the console there"
	tr -d '\r' < "$log" | awk -F'\t' -v OFS=, -v k="$kernel" -v c="$clock" -v r="$round" '
		$1 == "bench" && NF == 10 { $1 = k OFS c OFS r; print }' >> "$out/hooks.csv.tmp"
	grep "^# bpf-bench" "$log" | head -n 1 || true
}

: > "$out/hooks.csv.tmp"
# base has no grant hooks: none and alloc only
for round in 1 2; do
	for policy in none alloc defer grant; do
		case $policy in none | alloc) bench_boot base icount "$round" "$policy" ;; esac
		bench_boot tip icount "$round" "$policy"
	done
done
for policy in none alloc defer grant; do
	case $policy in none | alloc) bench_boot base wall 1 "$policy" ;; esac
	bench_boot tip wall 1 "$policy"
done
{
	echo "kernel,clock,round,call,policy,caller,result,median,min,max,reps,iters"
	cat "$out/hooks.csv.tmp"
} > "$out/hooks.csv"
rm "$out/hooks.csv.tmp"

# The table: per clock, call, caller and policy, the tip's median rate
# (the mean of its rounds) over stock's with no policy and the same caller.
echo
echo "What the hooks cost (calls per second; icount: virtual time, wall: $(cat "$top/build/qemu-accel" 2> /dev/null || echo auto))"
awk -F, 'NR > 1 {
	k = $2 "," $4 "," $6 "," $5
	sum[$1 "," k] += $8; n[$1 "," k]++; res[$1 "," k] = $7
	if ($1 == "tip" || $5 == "alloc") keys[$1 "," k] = 1
}
END {
	for (k in keys) {
		# kernel, clock, call, caller, policy
		split(k, f, ",")
		stock = "base," f[2] "," f[3] "," f[4] ",none"
		if (!n[stock]) continue
		s = sum[stock] / n[stock]; t = sum[k] / n[k]
		# a refused call against a granted one compares nothing
		r = res[k] == res[stock] ? sprintf("%.3f", t / s) : "-"
		printf "%s,%s,%s,%s,%s,%s,%.0f,%.0f,%s\n", f[2], f[3], f[4], f[1],
			f[5], res[k], s, t, r
	}
}' "$out/hooks.csv" | sort -t, -k1,1 -k2,2 -k3,3r -k4,4 -k5,5r > "$out/ratios.csv"
awk -F, '{ printf "%-6s %-20s %-6s %-6s %-6s %-7s %9s %9s %7s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' \
	"$out/ratios.csv" |
	sed '1i clock  call                 caller kernel policy result    stock/s    rate/s  /stock'

# The targets, from the icount rows
echo
awk -F, '$9 == "-" || $4 != "tip" { next }
$1 == "icount" && $5 == "none" && $9 < 0.99 {
	printf "target missed: %s %s with no policy at %.3f of stock (target 0.99)\n", $2, $3, $9; m = 1 }
$1 == "icount" && $5 == "defer" && $2 ~ /^map_create/ && $9 < 0.90 {
	printf "target missed: %s %s with a deferring policy at %.3f of stock (target 0.90)\n", $2, $3, $9; m = 1 }
END { if (!m) print "targets met: no policy >= 0.99 of stock, deferring map creation >= 0.90" }' \
	"$out/ratios.csv"
# A granting policy's unprivileged calls against stock's root
awk -F, 'NR > 1 && $2 == "icount" {
	k = $4
	if ($1 == "base" && $5 == "none" && $6 == "root") { s[k] += $8; sn[k]++ }
	if ($1 == "tip" && $5 == "grant" && $6 == "unpriv") { t[k] += $8; tn[k]++ }
}
END {
	for (k in s) if (tn[k]) {
		r = (t[k] / tn[k]) / (s[k] / sn[k])
		target = ""
		if (k ~ /^map_create/)
			target = r < 0.90 ? " (target 0.90): target missed" : " (target 0.90)"
		printf "%s: granted unprivileged at %.3f of stock root%s\n", k, r, target
	}
}' "$out/hooks.csv" | sort

# 2. One bisect step
step() {
	"$top/tools/step.sh" "$out/$1" "$test" > /dev/null ||
		die "the $1 step failed; see $out/$1"
}

steps=$top/build/steps/linux
steps_tree "$tree" "$(git -C "$tree" rev-parse HEAD)" "$steps"
step warmup
step unchanged
echo "/* bench: $(date +%s%N) */" >> "$steps/$file"
step edited
git -C "$steps" checkout -q -- "$file"
step reverted
exec 9>&-	# the steps worktree's lock: what follows does not use it

echo
echo "One bisect step ($test), seconds"
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
# 3. Boot to verdict with the whole suite, under each accelerator here
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
	printf 'boot to verdict, whole suite, %s: %.1f s\n' "$a" "$(echo "$(date +%s.%N) - $t0" | bc)"
done
[ -s "$top/build/ci/times" ] &&
	echo "the last make ci's stages, seconds: $(tr '\n' ' ' < "$top/build/ci/times")"

# 4. A cold make ci. CCACHE_DIR is set: this script's make exported its own.
cold=$out/cold
rm -rf "$cold"
git clone -q "$top" "$cold" || die "cannot clone $top into $cold"
(cd "$cold" && CCACHE_DIR="$cold/build/ccache" make --no-print-directory ci) \
	> "$out/cold.log" 2>&1 || die "the cold make ci failed; see $out/cold.log"
echo
echo "Cold make ci (a clone of HEAD, empty build/ and ccache), seconds"
awk '{ printf "%-10s %6d\n", $1, $2; sum += $2 } END { printf "%-10s %6d\n", "total", sum }' \
	"$cold/build/ci/times" | tee "$out/cold-stages"
rm -rf "$cold"
echo "results: $out/hooks.csv, $out/ratios.csv; logs: $out/"
