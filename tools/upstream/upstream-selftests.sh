#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests: the kernel tree's own BPF selftests on the kernel at
# base and on the tip of the series, side by side: test_verifier (with its
# unprivileged runs), test_maps, and every test of the tree's whole
# test_progs, each run on its own ("test_progs -a NAME" for each NAME of
# "test_progs -l") under a timeout. test_verifier and test_maps are built
# from REV's tools/ with Debian's toolchain (initramfs/upstream-Makefile),
# test_progs by the tree's own Makefile (tools/upstream/tree-test-progs-build.sh,
# the build of make tree-test-progs, in TP_OUT), and bpf_testmod.ko for
# each kernel from REV's tools/testing/selftests/bpf/bpf_testmod against
# that kernel's build (make M=), next to test_progs, which loads it. Each
# kernel boots once with them (initramfs/upstream-init). A test_progs test
# whose results differ between the kernels runs again UPSTREAM_REPEAT times on both
# (a second boot of each, with only those tests); one the tip then fails
# more often than base, but not by enough to tell from chance, runs
# ESCALATE times more on both (a third boot). Fails if a test fails on
# the tip that does not fail on base, or fails on the tip more often than
# on base by more than chance explains.
#
# usage: upstream-selftests.sh KSRC REV TIP_KOBJ BASE_KSRC BASE_KOBJ OUT TP_OUT
# env:   BOOT_TIMEOUT (default 3600), ACCEL, as for ci/boot.sh;
#        TP_TIMEOUT (seconds per test_progs test, default 600:
#        verif_scale_pyperf600 took 219 s under TCG); UPSTREAM_REPEAT
#        (default 3); ESCALATE (default 16: of 20 runs a side, a test
#        failing 5 on the tip and none on base is confirmed flaky-tip, 4
#        are not)
#
# TIP_KOBJ and BASE_KOBJ are the O= build directories of the kernels at
# REV of KSRC and at base (BASE_KSRC, base's source tree): their
# arch/x86/boot/bzImage, vmlinux and .config. The tip's vmlinux gives
# test_progs its types, its .config is the guest's /boot/config (libbpf's
# __kconfig). bpf_testmod is compiled in KSRC's and BASE_KSRC's work
# trees, whose headers must be those the kernels were built from. The
# console logs are read, and every file below written from them, by
# tools/upstream/upstream_results.py (tests/upstream-results.sh tests it).
#
# Files in OUT (all TSV files without a header line):
#   src/ obj/ initramfs.cpio  REV's tools/, the build, the initramfs
#   testmod/{base,tip}/       bpf_testmod, built against each kernel
#   {base,tip}/initramfs.cpio initramfs.cpio and a second archive with
#                             that kernel's /tree/bpf_testmod.ko
#   {base,tip}/serial.log     the console of each boot
#   {base,tip}/results.tsv    one line per result, NAME<TAB>RESULT, RESULT
#                               pass, fail or skip
#   {base,tip}/test_progs.tsv one line per test_progs test run:
#                             NAME STATUS SECS PASSED SUBPASSED SKIPPED
#                             FAILED RESULT, the init's ust-tp-end line
#                             and its result
#   compare.tsv               NAME<TAB>BASE<TAB>TIP, "-" where a list lacks it
#   rerun.list                the test_progs tests whose results differ
#   {base,tip}/rerun/         the second boot (serial.log, test_progs.tsv:
#                               UPSTREAM_REPEAT lines a test), when rerun.list has any
#   escalate.list             the tests of rerun.list flaky-tip-unconfirmed
#                             after the second boots
#   {base,tip}/escalate/      the third boot, as rerun/ (ESCALATE lines a
#                               test), when escalate.list has any
#   rerun.tsv                 for each test of rerun.list, its results over
#                             every run: NAME BASE_PASS BASE_FAIL BASE_SKIP
#                             TIP_PASS TIP_FAIL TIP_SKIP VERDICT P. P is a
#                             one-sided Fisher exact test of the two
#                             kernels' failure counts (the chance that the
#                             tip fails this often with both failing at
#                             one rate), "-" where the tip never fails.
#                             Where the tip fails: regression (each tip
#                             run, P < 0.05), flaky-tip (some tip runs,
#                             P < 0.05), flaky-tip-unconfirmed (more often
#                             than base, P 0.05 or more: escalated), flaky
#                             (no more often than base), or agree (both
#                             fail every run). Where it does not: fixed
#                             (base fails every run), flaky-base (base
#                             sometimes), flaky (mixed results on both),
#                             agree (the same result each run on both) or
#                             differs (pass on one, skip on the other).
#                             missing-tip: no tip run has a result.
#                             regression, flaky-tip and missing-tip fail
#                             the run.
#   base-failures.tsv         the test_progs tests failing on base,
#                             NAME<TAB>CAUSE<TAB>LINE: CAUSE by the first
#                             rule of ci/upstream.causes that matches
#                             their output ("unclassified": none), LINE
#                             the first error line of their output
#   summary.tsv               KEY<TAB>VALUE: figures of the run:
#                             {base,tip}_test_progs_{run,pass,fail,skip,
#                             seconds}, coverage_percent (base's passes
#                             in percent of the tests run),
#                             base_fail_cause:CAUSE (failures on base of
#                             that cause), seconds (the whole run),
#                             date (UTC), cpus (this machine's), accel
#                             (QEMU's: kvm or tcg)
#   summary.md                the figures, the results that differ and
#                             the failures on base by cause, in Markdown
#
# Names: "boot" (the guest ran every test binary and powered off),
# "kernel-log" (no report of ci/splats in the kernel log), each test
# binary (fails if it exited non-zero or did not finish) and its tests:
# "test_verifier/#12/p DESCRIPTION" (test 12, run with capabilities; /u:
# without), "test_maps/hashmap", "test_maps/hashmap:no_prealloc";
# "bpf_testmod" (the init loaded /tree/bpf_testmod.ko);
# "test_progs" ("test_progs -l" listed the tests and each ran to its end,
# whatever its result), "test_progs/NAME" (test NAME of test_progs: pass
# when test_progs exited 0 with a summary of one test passed, none failed
# and none skipped; skip when it skipped anything, even one subtest; fail
# otherwise, a timeout too).
set -eu
STAGE=upstream-selftests
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

# The reader of the guest's console and of the files made from it
results() {
	python3 "$(dirname "$0")/upstream_results.py" "$@"
}

# abspath FILE: FILE's absolute path (its directory must exist)
abspath() {
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

[ $# -eq 7 ] ||
	die "usage: upstream-selftests.sh KSRC REV TIP_KOBJ BASE_KSRC BASE_KOBJ OUT TP_OUT"
ksrc=$1
rev=$2
tip_kobj=$3
base_ksrc=$4
base_kobj=$5
out=$6
tp_out=$7
here=$top
repeat=${UPSTREAM_REPEAT:-3}
tip_vmlinux=$tip_kobj/vmlinux
config=$tip_kobj/.config

for k in "$tip_kobj" "$base_kobj"; do
	if [ "$k" = "$tip_kobj" ]; then fix="run make kernel"; else fix="run make ci-base, which builds the kernel at base"; fi
	for f in arch/x86/boot/bzImage vmlinux .config; do
		[ -f "$k/$f" ] || die "$k/$f is missing; $fix"
	done
done
[ -d "$base_ksrc" ] || die "$base_ksrc is missing; run make ci-base"
commit=$(git -C "$ksrc" rev-parse -q --verify "$rev^{commit}") ||
	die "$rev is not a commit of $ksrc; run make import"
for tool in gcc clang strip cpio; do
	command -v $tool > /dev/null || die "$tool is missing; run make deps"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$(date +%s)

# A fresh copy when REV's tools/ changed: its files carry the commit's date,
# the same for every commit the harness makes, so make cannot tell.
tree=$(git -C "$ksrc" rev-parse "$commit:tools")
if [ "$(cat "$out/src.tree" 2> /dev/null)" != "$tree" ]; then
	rm -rf "$out/src" "$out/obj" "$out/src.tree"
	mkdir -p "$out/src"
	git -C "$ksrc" archive "$commit" tools | tar -x -C "$out/src" ||
		die "cannot copy tools/ of $rev out of $ksrc"
	echo "$tree" > "$out/src.tree"
fi

# The tree's whole test_progs, as make tree-test-progs builds it
"$here/tools/upstream/tree-test-progs-build.sh" "$ksrc" "$commit" "$tip_vmlinux" "$tp_out"
tp_out=$(cd "$tp_out" && pwd)

: > "$out/skipped"
make --no-print-directory -f "$here/initramfs/upstream-Makefile" \
	O="$out/obj" SRC="$out/src" VMLINUX="$(abspath "$tip_vmlinux")" \
	KCONFIG="$(abspath "$config")" INITRAMFS="$out/initramfs.cpio" \
	TREE="$tp_out/tree" SKIPPED="$out/skipped" ||
	die "the build of the tree's selftests failed (see above)"

# bpf_testmod.ko for each kernel, from REV's source, built against that
# kernel's build as an external module (make M=), in a second cpio
# archive after the common one, which the kernel unpacks over it. The
# harness builds its kernels without modules_prepare: the module's linker
# script, which modules_prepare would put in the kernel's build, is made
# in the module's directory instead (kbuild's %.lds rule on a copy of
# scripts/module.lds.S); there is no Module.symvers either, so modpost
# only warns of the kernel's symbols, which the guest's kernel resolves
# at load time (the config has no MODVERSIONS).
for k in base tip; do
	if [ $k = base ]; then kobj=$base_kobj; ktree=$base_ksrc; else kobj=$tip_kobj; ktree=$ksrc; fi
	kobj=$(abspath "$kobj")
	m=$out/testmod/$k
	rm -rf "$m"
	mkdir -p "$m/src" "$m/root/tree" "$out/$k"
	git -C "$ksrc" archive "$commit" tools/testing/selftests/bpf/bpf_testmod |
		tar -x -C "$m/src" --strip-components=5
	cp "$ktree/scripts/module.lds.S" "$m/src/"
	{ make -C "$ktree" O="$kobj" M="$m/src" module.lds &&
	  make -C "$ktree" O="$kobj" M="$m/src" ARCH_MODULE_LDS="$m/src/module.lds" modules; } \
		> "$m/build.log" 2>&1 ||
		die "bpf_testmod does not build against $kobj (see $m/build.log)"
	cp "$m/src/bpf_testmod.ko" "$m/root/tree/"
	(cd "$m/root" && find ./tree/bpf_testmod.ko |
		cpio --quiet -o -H newc --reproducible -R 0:0) > "$m/testmod.cpio"
	cat "$out/initramfs.cpio" "$m/testmod.cpio" > "$out/$k/initramfs.cpio"
done
built=$(date +%s)

# boot K DIR N [KERNEL ARGS]: boot kernel K (base, tip) with
# DIR/initramfs.cpio, a rerun list's tests running N times
boot() {
	if [ "$1" = base ]; then bz=$base_kobj; else bz=$tip_kobj; fi
	bz=$bz/arch/x86/boot/bzImage
	d=$2 n=$3
	shift 3
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} IDLE_TIMEOUT=${IDLE_TIMEOUT:-0} "$here/ci/boot.sh" "$bz" \
		"$d/initramfs.cpio" "$d/serial.log" loglevel=1 \
		ust.tptimeout="${TP_TIMEOUT:-600}" ust.repeat="$n" "$@"
}

# Results are removed before each boot: a boot that dies leaves none.
times="build $((built - start)) s"
for k in base tip; do
	rm -f "$out/$k/results.tsv" "$out/$k/test_progs.tsv"
	t0=$(date +%s)
	boot $k "$out/$k" "$repeat"
	results parse "$out/$k/serial.log" "$out/obj/test_verifier.names" \
		"$here/ci/splats" > "$out/$k/results.tsv.tmp" ||
		die "$k: cannot trust the results of $out/$k/serial.log (see above)"
	results tp "$out/$k/serial.log" > "$out/$k/test_progs.tsv"
	mv "$out/$k/results.tsv.tmp" "$out/$k/results.tsv"
	times="$times, $k boot $(($(date +%s) - t0)) s ($(results durations "$out/$k/serial.log"))"
done

results compare "$out/base/results.tsv" "$out/tip/results.tsv" > "$out/compare.tsv"

# rerun_timeout LIST COUNT: seconds for a boot that runs each test of
# LIST COUNT times: twice its longer first run on either kernel, and 60
# more, each time, and 900 to boot; at least BOOT_TIMEOUT (3600). A test
# that hangs is still stopped by TP_TIMEOUT in the guest.
rerun_timeout() {
	awk -F '\t' -v n="$2" -v least="${BOOT_TIMEOUT:-3600}" '
		FILENAME == ARGV[1] { want[$1] = 1; next }
		($1 in want) && $3 > secs[$1] { secs[$1] = $3 }
		END {
			t = 900
			for (k in want) t += n * (2 * secs[k] + 60)
			print (t > least ? t : least)
		}' "$1" "$out/base/test_progs.tsv" "$out/tip/test_progs.tsv"
}

# rerun ROUND LIST COUNT: boot both kernels again, each running the
# test_progs tests of file LIST COUNT times; results in {base,tip}/ROUND/
rerun() {
	note "$(wc -l < "$2") test_progs tests: each runs $3 more times on both kernels ($1): $(tr '\n' ' ' < "$2")"
	for k in base tip; do
		d=$out/$k/$1
		rm -rf "$d"
		mkdir -p "$d/root/tests"
		cp "$2" "$d/root/tests/rerun"
		(cd "$d/root" && find ./tests/rerun |
			cpio --quiet -o -H newc --reproducible -R 0:0) > "$d/rerun.cpio"
		cat "$out/$k/initramfs.cpio" "$d/rerun.cpio" > "$d/initramfs.cpio"
		t0=$(date +%s)
		BOOT_TIMEOUT=$(rerun_timeout "$2" "$3") boot $k "$d" "$3"
		results tp "$d/serial.log" > "$d/test_progs.tsv"
		grep -q '^ust-done' "$d/serial.log" || rerun_boots="$rerun_boots $k/$1"
		times="$times, $k $1 $(($(date +%s) - t0)) s"
	done
	rounds="$rounds $1"
}

# verdicts: rerun.tsv from every run of the tests of rerun.list so far
verdicts() {
	set -- "$out/base/test_progs.tsv"
	for r in $rounds; do set -- "$@" "$out/base/$r/test_progs.tsv"; done
	set -- "$@" -- "$out/tip/test_progs.tsv"
	for r in $rounds; do set -- "$@" "$out/tip/$r/test_progs.tsv"; done
	results verdicts "$out/rerun.list" "$@" > "$out/rerun.tsv"
}

# The test_progs tests whose results differ, again on both kernels; those
# then flaky on the tip only (confirmed or not), ESCALATE more times, so
# that a flake of the test itself can show on base too, or the tip's
# failures add up to more than chance (tools/upstream/upstream_results.py's ALPHA).
results rerun-list "$out/compare.tsv" > "$out/rerun.list"
: > "$out/rerun.tsv"
rerun_boots=
rounds=
if [ -s "$out/rerun.list" ]; then
	rerun rerun "$out/rerun.list" "$repeat"
	verdicts
	awk -F '\t' '$8 == "flaky-tip-unconfirmed" { print $1 }' "$out/rerun.tsv" > "$out/escalate.list"
	if [ -s "$out/escalate.list" ]; then
		rerun escalate "$out/escalate.list" "${ESCALATE:-16}"
		verdicts
	fi
fi

results base-failures "$out/base/serial.log" "$out/base/test_progs.tsv" \
	"$here/ci/upstream.causes" > "$out/base-failures.tsv"

# The figures of the run
{
	results summary "$out/base/test_progs.tsv" "$out/tip/test_progs.tsv" \
		"$out/base-failures.tsv" "$(($(date +%s) - start))"
	run_facts
} > "$out/summary.tsv"

echo "upstream-selftests: base $(git -C "$ksrc" rev-parse --short 'base^{commit}'), tip $(git -C "$ksrc" rev-parse --short "$commit") ($rev)"
echo "  base  tip   name"
status=0
results report "$out/compare.tsv" "$out/rerun.tsv" || status=$?
results markdown "$out" > "$out/summary.md"
cov=$(awk -F '\t' '$1 == "coverage_percent" { print $2 }' "$out/summary.tsv")
echo "upstream-selftests: $times; every result in $out/compare.tsv; test_progs passes $cov% of its tests on base; the failures on base, with their first error line, in $out/base-failures.tsv"
for k in $rerun_boots; do
	note "$k: the boot that ran the tests again did not finish (see $out/$k/serial.log)"
	[ "${k%%/*}" = base ] || status=1
done
[ $status -eq 0 ] ||
	die "tests above fail on the tip and not on base, or are flaky on the tip only; their output is in $out/tip/serial.log (the same on base: $out/base/serial.log)"
