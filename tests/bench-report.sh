#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench's reports (tools/measure/bench_report.py) on a run directory laid out
# as build/bench/ is, tests/fixtures/bench/run/: bpf-bench's consoles of
# every boot (made in bpf-bench.c's format with docs/measurements.md's
# rates; CRLF, a kernel line among them, a bench line cut short), the
# hooks.csv tools/measure/bench.sh's awk made of them, the bisect steps' times
# (edited/times is a real one of step.sh, with two boots), the suite's
# and a cold make ci's times. The outputs must be the .expect files
# beside it: made by bench.sh's awk before the module, but for the two
# bugs the module fixes (missed.expect's refused grant, steps.expect's
# boot column). And bench.json's keys must be docs/contracts.md's, and
# docs/measurements.md's table of ratios one that doc-check reads.
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
f=tests/fixtures/bench
status=0

# same NAME EXPECTED GOT: file GOT must be EXPECTED
same() {
	if diff -u "$2" "$3"; then
		echo "ok $1"
	else
		echo "not ok $1: differs from $2"
		status=1
	fi
}

# check NAME EXPECTED_STATUS COMMAND...: bench_report.py COMMAND's stdout
# must be $f/NAME.expect and its exit status EXPECTED_STATUS
check() { check_tool tools/measure/bench_report.py "$f" differs "$@" || status=1; }

# hooks.csv's rows, boot by boot in bench.sh's order
head -n 1 "$f/run/hooks.csv" > "$tmp/hooks.csv"
for round in 1 2; do
	for policy in none alloc defer grant token; do
		case $policy in none | alloc) set -- base ;; *) set -- ;; esac
		for k in "$@" tip; do
			python3 tools/measure/bench_report.py rows "$k" icount "$round" \
				"$f/run/$k-$policy-icount-$round.log" >> "$tmp/hooks.csv"
		done
	done
done
for policy in none alloc defer grant; do
	case $policy in none | alloc) set -- base ;; *) set -- ;; esac
	for k in "$@" tip; do
		python3 tools/measure/bench_report.py rows "$k" wall 1 "$f/run/$k-$policy-wall-1.log" >> "$tmp/hooks.csv"
	done
done
same "rows: hooks.csv" "$f/run/hooks.csv" "$tmp/hooks.csv"
got=0
python3 tools/measure/bench_report.py rows tip icount 1 "$f/run/cold-times" > "$tmp/none" 2>&1 || got=$?
if [ "$got" = 1 ]; then echo "ok rows: a console with no bench lines fails"; else
	echo "not ok rows: a console with no bench lines exits $got, want 1"; status=1; fi

check hooks 0 hooks "$f/run/hooks.csv" "$tmp/ratios.csv" tcg
same "hooks: ratios.csv" "$f/ratios.csv.expect" "$tmp/ratios.csv"
check missed 0 hooks "$f/missed.csv" "$tmp/missed-ratios.csv" kvm
same "hooks: ratios.csv of missed targets" "$f/missed-ratios.csv.expect" "$tmp/missed-ratios.csv"
check steps 0 steps "$f/run"
check suite 0 suite "$f/run/suite-times"
check cold 0 cold "$f/run/cold-times"
check floors 0 floors "$f/run/floors"
mkdir -p "$tmp/no-relink"
grep -v '^relink ' "$f/run/floors/times" > "$tmp/no-relink/times"
got=0
python3 tools/measure/bench_report.py floors "$tmp/no-relink" > "$tmp/none" 2>&1 || got=$?
if [ "$got" = 2 ] && grep -q 'no kernel_warm or no relink' "$tmp/none"; then
	echo "ok floors: a stage without its floor fails"
else
	echo "not ok floors: a stage without its floor exits $got, want 2"; status=1
fi
check kernel-cost 0 kernel-cost "$f/run/kernel-cost/kernel-cost.csv" "$f/run/cold-times"
grep -v '^floor,' "$f/run/kernel-cost/kernel-cost.csv" > "$tmp/no-floor.csv"
got=0
python3 tools/measure/bench_report.py kernel-cost "$tmp/no-floor.csv" > "$tmp/none" 2>&1 || got=$?
if [ "$got" = 2 ] && grep -q 'no floor' "$tmp/none"; then
	echo "ok kernel-cost: builds without the floor fail"
else
	echo "not ok kernel-cost: builds without the floor exit $got, want 2"; status=1
fi
# make kernel-cost-doc: the block written from a run checks; an edited
# figure does not; docs/measurements.md's block is that of the kept run
mkdir "$tmp/kc"
cp "$f/run/kernel-cost/kernel-cost.csv" "$tmp/kc/"
printf 'date\t2027-01-02\ncpus\t4\naccel\ttcg\n' > "$tmp/kc/run.tsv"
printf 'text\n<!-- kernel-cost begin -->\nold\n<!-- kernel-cost end -->\nmore\n' > "$tmp/kc/doc.md"
if python3 tools/measure/bench_report.py kernel-cost-doc update "$tmp/kc" "$tmp/kc/kept" "$tmp/kc/doc.md" &&
	python3 tools/measure/bench_report.py kernel-cost-doc check "$tmp/kc/kept" "$tmp/kc/doc.md" &&
	grep -q '^From `make kernel-cost` on 2027-01-02 (4 CPUs)' "$tmp/kc/doc.md" &&
	grep -qxF '| `tinyconfig` alone | 75 | 534 | 1.00 |' "$tmp/kc/doc.md" &&
	grep -q '^| `make ci`.s config (`ci/kernel.config`) | 286 | 1122 | 3.81 |$' "$tmp/kc/doc.md" &&
	sed -n '$p' "$tmp/kc/doc.md" | grep -qx more; then
	echo "ok kernel-cost-doc update and check"
else
	echo "not ok kernel-cost-doc update and check"; status=1
fi
sed -i 's/| 286 | 1122 | 3.81 |/| 250 | 1122 | 3.33 |/' "$tmp/kc/doc.md"
if python3 tools/measure/bench_report.py kernel-cost-doc check "$tmp/kc/kept" "$tmp/kc/doc.md" 2> /dev/null; then
	echo "not ok kernel-cost-doc check: an edited figure passed"; status=1
else
	echo "ok kernel-cost-doc check: an edited figure fails"
fi
if python3 tools/measure/bench_report.py kernel-cost-doc check tests/fixtures/kernel-cost-run docs/measurements.md; then
	echo "ok docs/measurements.md's kernel-cost block"
else
	echo "not ok docs/measurements.md's kernel-cost block"; status=1
fi
check bench.json 0 json "$f/run" tcg 2026-12-04 "x86_64, AMD EPYC, 2 CPUs"
check doc-check 1 doc-check "$f/bench.json.expect" "$f/measurements.md"

# make bench-doc: docs/measurements.md's block of the harness's figures is
# that of the run kept in tests/fixtures/bench-run
if python3 tools/measure/bench_report.py bench-doc check tests/fixtures/bench-run docs/measurements.md; then
	echo "ok docs/measurements.md's bench block"
else
	echo "not ok docs/measurements.md's bench block"; status=1
fi

# docs/measurements.md's tables of ratios are ones doc-check reads: every
# call and caller of the first, four ratios each (28), and a ratio for
# each map type of the second, as many as its rows
n=$(python3 -B -c 'import sys; sys.path.insert(0, "tools/measure"); import bench_report as b
print(len(b.doc_ratios(open("docs/measurements.md").read().splitlines())))')
types=$(sed -n '/^| map type (icount) |/,/^$/p' docs/measurements.md | grep -c '^| [a-z_]* | [0-9.-]* |$')
if [ "$types" -gt 20 ] && [ "$n" = $((28 + types)) ]; then
	echo "ok doc-check reads docs/measurements.md's $n ratios ($types map types)"
else
	echo "not ok doc-check reads $n ratios of docs/measurements.md, not 28 + $types map types"
	status=1
fi

# bench.json's keys are the ones docs/contracts.md documents
keys=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))))' \
	"$f/bench.json.expect")
undocumented=
for k in $keys; do
	sed -n '/^## bench.json /,/^## /p' docs/contracts.md | grep -q "^| \`$k\` |" ||
		undocumented="$undocumented $k"
done
if [ -z "$undocumented" ]; then echo "ok bench.json's keys are in docs/contracts.md"; else
	echo "not ok bench.json's keys missing from docs/contracts.md:$undocumented"; status=1; fi
exit $status
