#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# upstream-selftests: the kernel tree's own BPF selftests on the kernel at
# base and on the tip of the series, side by side: test_verifier (with its
# unprivileged runs), test_maps, and the test_progs tests listed in
# initramfs/upstream-tests. Builds them from REV's tools/ with Debian's
# toolchain (initramfs/upstream-Makefile), boots each kernel once with them
# (initramfs/upstream-init), and fails if a test fails on the tip that does
# not fail on base.
#
# usage: upstream-selftests.sh KSRC REV TIP_BZIMAGE TIP_VMLINUX BASE_BZIMAGE OUT
#        upstream-selftests.sh parse LOG NAMES
# env:   BOOT_TIMEOUT (default 3600), ACCEL, as for ci/boot.sh
#
# The tip's .config, next to TIP_VMLINUX, decides which listed tests can be
# built. "parse" reads a console log of upstream-init (NAMES: the build's
# test_verifier.names) and writes its results.tsv on stdout.
#
# Files in OUT:
#   src/ obj/ initramfs.cpio  REV's tools/, the build, the initramfs
#   base/serial.log           the console of each boot
#   tip/serial.log
#   base/results.tsv          one line per result, NAME<TAB>RESULT, RESULT
#   tip/results.tsv             pass, fail or skip
#   compare.tsv               NAME<TAB>BASE<TAB>TIP, "-" where a list lacks it
#
# Names: "boot" (the guest ran every test binary and powered off),
# "kernel-log" (no WARNING, BUG, Oops or panic in the kernel log), each test
# binary (fails if it exited non-zero or did not finish) and its tests:
# "test_verifier/#12/p DESCRIPTION" (test 12, run with capabilities; /u:
# without), "test_maps/hashmap", "test_maps/hashmap:no_prealloc",
# "unpriv_bpf_disabled/SUBTEST".
set -eu
STAGE=upstream-selftests
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

# What counts as a kernel error in the kernel log.
SPLAT='WARNING:|BUG:|Oops|Kernel panic|general protection fault|Call Trace:'

# parse LOG NAMES: results.tsv of one boot on stdout; exit 1 if
# test_verifier's results do not add up to its own summary.
parse() {
	tr -d '\r' < "$1" | awk -v splat="$SPLAT" '
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
		print "boot\t" (done ? "pass" : "fail")
		exit mismatch
	}' "$2" -
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

# report COMPARE_TSV: the lists side by side, test_verifier's tests that
# pass or skip on both counted rather than listed; the regressions.
report() {
	awk -F '\t' '
	function count(side, r) { tot[side "," r]++ }
	{
		quiet = $1 ~ /^test_verifier\// && $2 == $3 && $2 != "fail"
		if ($1 ~ /^test_verifier\//) {
			count("base", $2); count("tip", $3)
		}
		if (!quiet)
			printf "  %-5s %-5s %s\n", $2, $3, $1
		if ($3 == "fail" && $2 != "fail")
			reg[++nreg] = $1
	}
	END {
		printf "  test_verifier tests: base %d pass, %d fail, %d skip; tip %d pass, %d fail, %d skip\n", \
			tot["base,pass"], tot["base,fail"], tot["base,skip"], \
			tot["tip,pass"], tot["tip,fail"], tot["tip,skip"]
		for (i = 1; i <= nreg; i++)
			printf "regression: %s\n", reg[i]
		exit nreg > 0
	}' "$1"
}

# gate CONFIG LIST: "run NAME", or "skip NAME<TAB>needs OPTION...", for each
# test of LIST by whether CONFIG has all its options =y.
gate() {
	awk '
	NR == FNR {
		if (/^CONFIG_[A-Za-z0-9_]+=y$/) {
			sub(/=y$/, "")
			on[$0] = 1
		}
		next
	}
	{ sub(/#.*/, "") }
	NF == 0 { next }
	{
		miss = ""
		for (i = 2; i <= NF; i++)
			if (!($i in on))
				miss = miss " " $i
		if (miss == "")
			print "run " $1
		else
			print "skip " $1 "\tneeds" miss
	}' "$1" "$2"
}

# durations LOG: how long each test binary of a boot ran, from its ust-end
# lines, e.g. "test_verifier 300 s, test_maps 200 s"
durations() {
	tr -d '\r' < "$1" | awk '
	/^ust-end / && NF >= 4 { printf "%s%s %s s", sep, $2, $4; sep = ", " }'
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

[ $# -eq 6 ] ||
	die "usage: upstream-selftests.sh KSRC REV TIP_BZIMAGE TIP_VMLINUX BASE_BZIMAGE OUT"
ksrc=$1
rev=$2
tip_bz=$3
tip_vmlinux=$4
base_bz=$5
out=$6
here=$(cd "$(dirname "$0")/.." && pwd)
list=$here/initramfs/upstream-tests
config=$(dirname "$tip_vmlinux")/.config

[ -f "$tip_bz" ] || die "$tip_bz is missing; run make kernel"
[ -f "$tip_vmlinux" ] || die "$tip_vmlinux is missing; run make kernel"
[ -f "$config" ] || die "$config is missing; run make kernel"
[ -f "$base_bz" ] || die "$base_bz is missing; run make ci-base, which builds the kernel at base"
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

progs=
: > "$out/skipped"
gate "$config" "$list" > "$out/gate"
while read -r what name reason; do
	case $what in
	run) progs="$progs $name" ;;
	skip)
		printf '%s\t%s\n' "$name" "$reason" >> "$out/skipped"
		note "$name not built: the tip's $config $reason"
		;;
	esac
done < "$out/gate"

make --no-print-directory -f "$here/initramfs/upstream-Makefile" \
	O="$out/obj" SRC="$out/src" VMLINUX="$(abspath "$tip_vmlinux")" \
	KCONFIG="$(abspath "$config")" INITRAMFS="$out/initramfs.cpio" \
	PROG_TESTS="$progs" \
	SKIPPED="$out/skipped" ||
	die "the build of the tree's selftests failed (see above)"
built=$(date +%s)

# Results are removed before each boot: a boot that dies leaves none.
times="build $((built - start)) s"
for k in base tip; do
	if [ $k = base ]; then bz=$base_bz; else bz=$tip_bz; fi
	mkdir -p "$out/$k"
	rm -f "$out/$k/results.tsv"
	t0=$(date +%s)
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600} IDLE_TIMEOUT=${IDLE_TIMEOUT:-0} "$here/ci/boot.sh" "$bz" \
		"$out/initramfs.cpio" "$out/$k/serial.log" loglevel=1
	parse "$out/$k/serial.log" "$out/obj/test_verifier.names" \
		> "$out/$k/results.tsv.tmp" ||
		die "$k: cannot trust the results of $out/$k/serial.log (see above)"
	mv "$out/$k/results.tsv.tmp" "$out/$k/results.tsv"
	times="$times, $k boot $(($(date +%s) - t0)) s ($(durations "$out/$k/serial.log"))"
done

compare "$out/base/results.tsv" "$out/tip/results.tsv" > "$out/compare.tsv"
echo "upstream-selftests: base $(git -C "$ksrc" rev-parse --short 'base^{commit}'), tip $(git -C "$ksrc" rev-parse --short "$commit") ($rev)"
echo "  base  tip   name"
status=0
report "$out/compare.tsv" || status=$?
echo "upstream-selftests: $times; every result in $out/compare.tsv"
[ $status -eq 0 ] ||
	die "tests above fail on the tip and not on base; their output is in $out/tip/serial.log (the same on base: $out/base/serial.log)"
