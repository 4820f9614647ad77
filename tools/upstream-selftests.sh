#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests: the kernel tree's own BPF selftests on the kernel at
# base and on the tip of the series, side by side: test_verifier (with its
# unprivileged runs), test_maps, and every test of the tree's whole
# test_progs, each run on its own ("test_progs -a NAME" for each NAME of
# "test_progs -l") under a timeout. test_verifier and test_maps are built
# from REV's tools/ with Debian's toolchain (initramfs/upstream-Makefile),
# test_progs by the tree's own Makefile (tools/tree-test-progs-build.sh,
# the build of make tree-test-progs, in TP_OUT), and bpf_testmod.ko for
# each kernel from REV's tools/testing/selftests/bpf/bpf_testmod against
# that kernel's build (make M=), next to test_progs, which loads it. Each
# kernel boots once with them (initramfs/upstream-init). A test_progs test
# whose results differ between the kernels runs again REPEAT times on both
# (a second boot of each, with only those tests). Fails if a test fails on
# the tip that does not fail on base, or is flaky on the tip only.
#
# usage: upstream-selftests.sh KSRC REV TIP_KOBJ BASE_KSRC BASE_KOBJ OUT TP_OUT
#        upstream-selftests.sh parse LOG NAMES
#        upstream-selftests.sh tp LOG
# env:   BOOT_TIMEOUT (default 3600), ACCEL, as for ci/boot.sh;
#        TP_TIMEOUT (seconds per test_progs test, default 600:
#        verif_scale_pyperf600 took 219 s under TCG); REPEAT
#        (default 3)
#
# TIP_KOBJ and BASE_KOBJ are the O= build directories of the kernels at
# REV of KSRC and at base (BASE_KSRC, base's source tree): their
# arch/x86/boot/bzImage, vmlinux and .config. The tip's vmlinux gives
# test_progs its types, its .config is the guest's /boot/config (libbpf's
# __kconfig). bpf_testmod is compiled in KSRC's and BASE_KSRC's work
# trees, whose headers must be those the kernels were built from. "parse" reads a console log of upstream-init (NAMES: the
# build's test_verifier.names) and writes its results.tsv on stdout; "tp"
# writes the test_progs.tsv of a console log on stdout.
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
#                               REPEAT lines a test), when rerun.list has any
#   rerun.tsv                 for each test of rerun.list, its results over
#                             every run: NAME BASE_PASS BASE_FAIL BASE_SKIP
#                             TIP_PASS TIP_FAIL TIP_SKIP VERDICT; VERDICT is
#                             agree (the same result each run on both),
#                             regression (fails on each tip run and on no
#                             base run), fixed (fails on each
#                             base run, not on the tip), differs (pass on
#                             one, skip on the other), flaky (mixed results
#                             on both), flaky-base (on base only) or
#                             flaky-tip (on the tip only). regression and
#                             flaky-tip fail the run.
#   base-failures.tsv         the tests failing on base, NAME<TAB>CAUSE:
#                             the first error line of their output
#   summary.tsv               KEY<TAB>VALUE: figures of the run (tests run,
#                             passed, failed and skipped on each kernel,
#                             coverage, seconds)
#
# Names: "boot" (the guest ran every test binary and powered off),
# "kernel-log" (no WARNING, BUG, Oops or panic in the kernel log), each test
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
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

# What counts as a kernel error in the kernel log.
SPLAT='WARNING:|BUG:|Oops|Kernel panic|general protection fault|Call Trace:'

# The result of one test_progs run, from its ust-tp-end line's fields
TP_RESULT='
function tpresult(status, p, sp, s, f) {
	if (status != 0 || p == "-" || f != 0 || p != 1)
		return "fail"
	return s > 0 ? "skip" : "pass"
}'

# parse LOG NAMES: results.tsv of one boot on stdout; exit 1 if
# test_verifier's results do not add up to its own summary.
parse() {
	tr -d '\r' < "$1" | awk -v splat="$SPLAT" "$TP_RESULT"'
	function begin(name) {
		bin = name; top = ""; summary = 0; rec = ""
		np = nf = ns = 0
	}
	# Result of the test_verifier run that started on the last "#N/x" line
	function vflush(r) {
		if (rec == "")
			return
		r = fail ? "fail" : skip ? "skip" : ok ? "pass" : "fail"
		print rec "\t" r
		if (r == "pass") np++; else if (r == "fail") nf++; else ns++
		rec = ""
	}
	function end(name, status, r) {
		if (bin == "test_verifier") {
			vflush()
			if (!summary)
				status = "incomplete"
		}
		r = status == "0" ? "pass" : "fail"
		if (r == "pass" && top ~ / # SKIP/)
			r = "skip"
		print name "\t" r
		bin = ""
	}
	NR == FNR {
		i = index($0, "\t")
		descr[substr($0, 1, i - 1)] = substr($0, i + 1)
		next
	}
	/^ust-begin / { begin($2); next }
	/^ust-end / { end($2, $3); next }
	/^ust-skip / { print $2 "\tskip"; next }
	/^ust-tp-list / { tplist = $2; next }
	/^ust-testmod / { print "bpf_testmod\t" ($2 == "loaded" ? "pass" : "fail"); next }
	/^ust-tp-end / && NF == 8 {
		print "test_progs/" $2 "\t" tpresult($3, $5, $6, $7, $8)
		ntp++
		next
	}
	$0 == "ust-dmesg-begin" { dmesg = 1; next }
	$0 == "ust-dmesg-end" {
		dmesg = 0; logged = 1
		print "kernel-log\t" (splatted ? "fail" : "pass")
		next
	}
	$0 == "ust-done" { done = 1; next }
	dmesg || /^Kernel panic/ {
		if ($0 ~ splat)
			splatted = 1
		next
	}
	bin == "test_verifier" && /^#[0-9]+\/[up] / {
		vflush()
		n = substr($1, 2); sub(/\/.*/, "", n)
		rec = "test_verifier/" $1 " " descr[n]
		fail = skip = ok = 0
		# what follows the description, which may hold any word
		prefix = $1 " " descr[n] " "
		if (substr($0, 1, length(prefix)) == prefix)
			$0 = substr($0, length(prefix) + 1)
	}
	bin == "test_verifier" && /^Summary: / {
		vflush()
		summary = 1
		if ($2 != np || $4 != ns || $6 != nf) {
			printf "test_verifier says %d passed, %d skipped, %d failed; the log gives %d, %d, %d\n", \
				$2, $4, $6, np, ns, nf > "/dev/stderr"
			mismatch = 1
		}
		next
	}
	# A test_verifier result can come after lines of its own (map or BTF
	# creation messages) and a failure after lines of verifier log.
	bin == "test_verifier" && rec != "" {
		if (/FAIL/)
			fail = 1
		if (/(^| )SKIP( \(.*\))?$/)
			skip = 1
		if (/(^| )OK( \(NOTE: .*\))?$/)
			ok = 1
		next
	}
	bin != "" && /^    (not )?ok [0-9]+ / {
		r = /^    not ok/ ? "fail" : / # SKIP/ ? "skip" : "pass"
		name = $0
		sub(/^    (not )?ok [0-9]+ /, "", name)
		sub(/ # .*/, "", name)
		print bin "/" name "\t" r
		next
	}
	bin != "" && /^(not )?ok [0-9]+ / { top = $0; next }
	END {
		if (bin != "")
			end(bin, "incomplete")
		if (!logged)
			print "kernel-log\t" (splatted ? "fail" : "-")
		print "test_progs\t" (tplist != "" && tplist != "-" && ntp == tplist ? "pass" : "fail")
		print "boot\t" (done ? "pass" : "fail")
		exit mismatch
	}' "$2" -
}

# tp LOG: test_progs.tsv of one boot's log on stdout, a line per
# ust-tp-end line.
tp() {
	tr -d '\r' < "$1" | awk "$TP_RESULT"'
	/^ust-tp-end / && NF == 8 {
		print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" tpresult($3, $5, $6, $7, $8)
	}'
}

# rerun_list COMPARE_TSV: the test_progs tests whose results differ
rerun_list() {
	awk -F '\t' '$1 ~ /^test_progs\// && $2 != $3 { print substr($1, 12) }' "$1"
}

# verdicts: rerun.tsv on stdout from lines "base|tip<TAB>test_progs.tsv
# line" on stdin, of the tests of rerun.list (first argument)
verdicts() {
	awk -F '\t' '
	function mixed(k, n) {
		n = (c[k, "pass"] > 0) + (c[k, "fail"] > 0) + (c[k, "skip"] > 0)
		return n > 1
	}
	function only(k, r) {
		return c[k, r] > 0 && c[k, r] == c[k, "pass"] + c[k, "fail"] + c[k, "skip"]
	}
	FILENAME == ARGV[1] { want[$1] = 1; order[++n] = $1; next }
	$2 in want { c[$1 SUBSEP $2, $9]++ }
	END {
		for (i = 1; i <= n; i++) {
			t = order[i]; b = "base" SUBSEP t; p = "tip" SUBSEP t
			bm = mixed(b); tm = mixed(p)
			if (bm && tm)
				v = "flaky"
			else if (tm)
				v = "flaky-tip"
			else if (bm)
				v = only(p, "fail") && c[b, "fail"] == 0 ? "regression" : "flaky-base"
			else if (only(p, "fail") && !only(b, "fail"))
				v = "regression"
			else if (only(b, "fail") && !only(p, "fail"))
				v = "fixed"
			else if ((only(b, "pass") && only(p, "pass")) || (only(b, "skip") && only(p, "skip")) || (only(b, "fail") && only(p, "fail")))
				v = "agree"
			else
				v = "differs"
			printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", t, \
				c[b, "pass"], c[b, "fail"], c[b, "skip"], \
				c[p, "pass"], c[p, "fail"], c[p, "skip"], v
		}
	}' "$1" -
}

# compare BASE_TSV TIP_TSV: NAME<TAB>BASE<TAB>TIP, base's order first.
compare() {
	awk -F '\t' '
	NR == FNR { base[$1] = $2; order[++n] = $1; next }
	{ tip[$1] = $2; if (!($1 in base)) order[++n] = $1 }
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			print k "\t" (k in base ? base[k] : "-") "\t" (k in tip ? tip[k] : "-")
		}
	}' "$1" "$2"
}

# report COMPARE_TSV RERUN_TSV: the lists side by side, test_verifier's and
# test_progs' tests that pass or skip alike on both counted rather than
# listed; the regressions. A test_progs test of RERUN_TSV is judged by its
# verdict there (its counts printed), not by its first runs.
report() {
	awk -F '\t' '
	function count(bin, side, r) { tot[bin "," side "," r]++ }
	function totals(bin) {
		printf "  %s tests: base %d pass, %d fail, %d skip; tip %d pass, %d fail, %d skip\n", bin, \
			tot[bin ",base,pass"], tot[bin ",base,fail"], tot[bin ",base,skip"], \
			tot[bin ",tip,pass"], tot[bin ",tip,fail"], tot[bin ",tip,skip"]
	}
	FILENAME == ARGV[1] { verdict[$1] = $8; counts[$1] = sprintf("base %d pass %d fail %d skip, tip %d pass %d fail %d skip", $2, $3, $4, $5, $6, $7); next }
	{
		bin = $1; sub(/\/.*/, "", bin)
		quiet = (bin == "test_verifier" || bin == "test_progs") && $1 != bin && $2 == $3 && $2 != "fail"
		if ((bin == "test_verifier" || bin == "test_progs") && $1 != bin) {
			count(bin, "base", $2); count(bin, "tip", $3)
		}
		t = substr($1, 12)
		if (bin == "test_progs" && t in verdict) {
			printf "  %-5s %-5s %s: %s, %s\n", $2, $3, $1, verdict[t], counts[t]
			if (verdict[t] == "regression" || verdict[t] == "flaky-tip")
				reg[++nreg] = $1 " (" verdict[t] ", " counts[t] ")"
			if (verdict[t] ~ /^flaky/)
				flaky[++nflaky] = $1 " (" verdict[t] ", " counts[t] ")"
			next
		}
		if (!quiet)
			printf "  %-5s %-5s %s\n", $2, $3, $1
		if ($3 == "fail" && $2 != "fail")
			reg[++nreg] = $1
	}
	END {
		totals("test_verifier")
		totals("test_progs")
		for (i = 1; i <= nflaky; i++)
			printf "flaky: %s\n", flaky[i]
		for (i = 1; i <= nreg; i++)
			printf "regression: %s\n", reg[i]
		exit nreg > 0
	}' "$2" "$1"
}

# base_failures LOG TP_TSV: NAME<TAB>CAUSE for each test_progs test that
# fails in TP_TSV, CAUSE the first line of its output in LOG that says
# what failed (a FAIL line of test_progs, an error of libbpf), else its
# exit status.
base_failures() {
	tr -d '\r' < "$1" | awk -F '\t' '
	FILENAME == ARGV[1] { if ($8 == "fail") { failed[$1] = 1; status[$1] = $2 }; next }
	/^ust-tp-begin / { split($0, w, " "); cur = w[2]; next }
	/^ust-tp-end / { cur = ""; next }
	cur in failed && !(cur in cause) && (/:FAIL:/ || /libbpf: .*(fail|error|not found|No such)/ || /(^|[^a-z])(error|ERROR|No such file)/) {
		line = $0; gsub(/\t/, " ", line); sub(/^ +/, "", line)
		cause[cur] = line
	}
	END {
		for (t in failed)
			print t "\t" (t in cause ? cause[t] : "exit status " status[t] ", no error line")
	}' "$2" - | LC_ALL=C sort
}

# durations LOG: how long each test binary of a boot ran, from its ust-end
# lines, e.g. "test_verifier 300 s, test_maps 200 s"
durations() {
	tr -d '\r' < "$1" | awk '
	/^ust-end / && NF >= 4 { printf "%s%s %s s", sep, $2, $4; sep = ", " }
	/^ust-tp-end / && NF == 8 { tp += $4; n++ }
	END { if (n) printf "%stest_progs %d tests %d s", sep, n, tp }'
}

# abspath FILE: FILE's absolute path (its directory must exist)
abspath() {
	echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

if [ "${1:-}" = parse ]; then
	[ $# -eq 3 ] || die "usage: upstream-selftests.sh parse LOG NAMES"
	parse "$2" "$3"
	exit
fi
if [ "${1:-}" = tp ]; then
	[ $# -eq 2 ] || die "usage: upstream-selftests.sh tp LOG"
	tp "$2"
	exit
fi

[ $# -eq 7 ] ||
	die "usage: upstream-selftests.sh KSRC REV TIP_KOBJ BASE_KSRC BASE_KOBJ OUT TP_OUT"
ksrc=$1
rev=$2
tip_kobj=$3
base_ksrc=$4
base_kobj=$5
out=$6
tp_out=$7
here=$(cd "$(dirname "$0")/.." && pwd)
repeat=${REPEAT:-3}
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
"$here/tools/tree-test-progs-build.sh" "$ksrc" "$commit" "$tip_vmlinux" "$tp_out"
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

# boot K DIR [KERNEL ARGS]: boot kernel K (base, tip) with DIR/initramfs.cpio
boot() {
	if [ "$1" = base ]; then bz=$base_kobj; else bz=$tip_kobj; fi
	bz=$bz/arch/x86/boot/bzImage
	d=$2
	shift 2
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} IDLE_TIMEOUT=${IDLE_TIMEOUT:-0} "$here/ci/boot.sh" "$bz" \
		"$d/initramfs.cpio" "$d/serial.log" loglevel=1 \
		ust.tptimeout="${TP_TIMEOUT:-600}" ust.repeat="$repeat" "$@"
}

# Results are removed before each boot: a boot that dies leaves none.
times="build $((built - start)) s"
for k in base tip; do
	rm -f "$out/$k/results.tsv" "$out/$k/test_progs.tsv"
	t0=$(date +%s)
	boot $k "$out/$k"
	parse "$out/$k/serial.log" "$out/obj/test_verifier.names" \
		> "$out/$k/results.tsv.tmp" ||
		die "$k: cannot trust the results of $out/$k/serial.log (see above)"
	tp "$out/$k/serial.log" > "$out/$k/test_progs.tsv"
	mv "$out/$k/results.tsv.tmp" "$out/$k/results.tsv"
	times="$times, $k boot $(($(date +%s) - t0)) s ($(durations "$out/$k/serial.log"))"
done

compare "$out/base/results.tsv" "$out/tip/results.tsv" > "$out/compare.tsv"

# The test_progs tests whose results differ, again on both kernels
rerun_list "$out/compare.tsv" > "$out/rerun.list"
: > "$out/rerun.tsv"
rerun_boots=
if [ -s "$out/rerun.list" ]; then
	note "$(wc -l < "$out/rerun.list") test_progs tests differ; each runs $repeat more times on both kernels: $(tr '\n' ' ' < "$out/rerun.list")"
	for k in base tip; do
		d=$out/$k/rerun
		rm -rf "$d"
		mkdir -p "$d/root/tests"
		cp "$out/rerun.list" "$d/root/tests/rerun"
		(cd "$d/root" && find ./tests/rerun |
			cpio --quiet -o -H newc --reproducible -R 0:0) > "$d/rerun.cpio"
		cat "$out/$k/initramfs.cpio" "$d/rerun.cpio" > "$d/initramfs.cpio"
		t0=$(date +%s)
		boot $k "$d"
		tp "$d/serial.log" > "$d/test_progs.tsv"
		grep -q '^ust-done' "$d/serial.log" || rerun_boots="$rerun_boots $k"
		times="$times, $k rerun $(($(date +%s) - t0)) s"
	done
	for k in base tip; do
		sed "s/^/$k	/" "$out/$k/test_progs.tsv" "$out/$k/rerun/test_progs.tsv"
	done | verdicts "$out/rerun.list" > "$out/rerun.tsv"
fi

base_failures "$out/base/serial.log" "$out/base/test_progs.tsv" > "$out/base-failures.tsv"

# The figures of the run
{
	for k in base tip; do
		awk -F '\t' -v k="$k" '
		{ n++; c[$8]++; s += $3 }
		END {
			printf "%s_test_progs_run\t%d\n%s_test_progs_pass\t%d\n%s_test_progs_fail\t%d\n%s_test_progs_skip\t%d\n%s_test_progs_seconds\t%d\n", \
				k, n, k, c["pass"], k, c["fail"], k, c["skip"], k, s
			if (k == "base")
				printf "coverage_percent\t%.1f\n", n ? 100 * c["pass"] / n : 0
		}' "$out/$k/test_progs.tsv"
	done
	echo "seconds	$(($(date +%s) - start))"
} > "$out/summary.tsv"

echo "upstream-selftests: base $(git -C "$ksrc" rev-parse --short 'base^{commit}'), tip $(git -C "$ksrc" rev-parse --short "$commit") ($rev)"
echo "  base  tip   name"
status=0
report "$out/compare.tsv" "$out/rerun.tsv" || status=$?
cov=$(awk -F '\t' '$1 == "coverage_percent" { print $2 }' "$out/summary.tsv")
echo "upstream-selftests: $times; every result in $out/compare.tsv; test_progs passes $cov% of its tests on base; the failures on base, with their first error line, in $out/base-failures.tsv"
for k in $rerun_boots; do
	note "$k: the boot that ran the tests again did not finish (see $out/$k/rerun/serial.log)"
	[ "$k" = base ] || status=1
done
[ $status -eq 0 ] ||
	die "tests above fail on the tip and not on base, or are flaky on the tip only; their output is in $out/tip/serial.log (the same on base: $out/base/serial.log)"
