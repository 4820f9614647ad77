#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make upstream-selftests' reader of the guest's console
# (tools/upstream/upstream_results.py) on recorded logs: two boots that differ in a
# test_progs test and the kernel log, and one that died mid-run, whose
# results and the reports made from them must be the .expect files beside
# them in tests/fixtures/upstream/. And with tests/fixtures/splats/, that
# the verdict and this module read ci/splats alike (verdict --match).
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
. tests/lib.sh
f=tests/fixtures/upstream
status=0

# check NAME EXPECTED_STATUS COMMAND...: COMMAND's stdout must be
# $f/NAME.expect and its exit status EXPECTED_STATUS
check() { check_tool tools/upstream/upstream_results.py "$f" "output differs" "$@" || status=1; }

# the kernel logs are read by the verdict's own reader of ci/splats
make -s --no-print-directory build/tools/verdict
check base.results 0 parse "$f/base.log" "$f/test_verifier.names" ci/splats
check tip.results 0 parse "$f/tip.log" "$f/test_verifier.names" ci/splats
check truncated.results 1 parse "$f/truncated.log" "$f/test_verifier.names" ci/splats
check base.tp 0 tp "$f/base.log"
# One reader of ci/splats: with the OOM rules reordered (the report rule
# first), the verdict and this module judge tests/fixtures/splats/oom.log
# alike: the attacker's OOM report allowed, another's a report
sp=tests/fixtures/splats
build/tools/verdict --splats "$sp/reordered" --match "$sp/oom.log" > "$tmp/match"
if [ "$(tr '\n' ' ' < "$tmp/match")" = "- - - - oom " ]; then
	echo "ok verdict --match: the allow line wins, the other OOM is a report"
else
	echo "not ok verdict --match: $(tr '\n' ' ' < "$tmp/match")"
	status=1
fi
got=0
build/tools/verdict --splats "$sp/reordered" "$sp/oom.log" > "$tmp/verdict" || got=$?
if [ "$got" = 1 ] && grep -q "^verdict: FAIL: kernel oom: .*stress invoked oom-killer" "$tmp/verdict"; then
	echo "ok verdict: the other OOM fails the run"
else
	echo "not ok verdict: exit $got: $(head -n 1 "$tmp/verdict")"
	status=1
fi
for only in grant_attacker:pass stress:fail; do
	{ echo ust-dmesg-begin; grep -a "${only%:*} invoked" "$sp/oom.log"; echo ust-dmesg-end; } \
		> "$tmp/dmesg.log"
	python3 tools/upstream/upstream_results.py parse "$tmp/dmesg.log" "$f/test_verifier.names" \
		"$sp/reordered" > "$tmp/dmesg.results" || true
	if grep -qx "kernel-log	${only#*:}" "$tmp/dmesg.results"; then
		echo "ok upstream_results: ${only%:*}'s OOM report: kernel-log ${only#*:}"
	else
		echo "not ok upstream_results: ${only%:*}'s OOM report: $(grep kernel-log "$tmp/dmesg.results")"
		status=1
	fi
done
check compare 0 compare "$f/base.results.expect" "$f/tip.results.expect"
check rerun 0 verdicts "$f/rerun.list" "$f/base.tp" "$f/base-rerun.tp" -- \
	"$f/tip.tp" "$f/tip-rerun.tp"
# escalated: 10 more runs of each; flakytip fails 7 of 13 tip runs and no
# base run, which chance does not explain (p < 0.05): flaky-tip now
check rerun-escalated 0 verdicts "$f/rerun.list" "$f/base.tp" "$f/base-rerun.tp" \
	"$f/base-escalate.tp" -- "$f/tip.tp" "$f/tip-rerun.tp" "$f/tip-escalate.tp"
check report 1 report "$f/compare.expect" "$f/rerun-beta.tsv"
# A tip-only flake fails the run when confirmed, and only then; either
# way it is reported with its counts
printf 'test_progs/beta\tpass\tfail\n' > "$tmp/beta.compare"
for v in flaky-tip:1 flaky-tip-unconfirmed:0; do
	printf 'beta\t4\t0\t0\t3\t1\t0\t%s\t0.5000\n' "${v%:*}" > "$tmp/beta.rerun"
	got=0
	python3 tools/upstream/upstream_results.py report "$tmp/beta.compare" "$tmp/beta.rerun" \
		> "$tmp/beta.report" || got=$?
	if [ "$got" = "${v#*:}" ] &&
		grep -qx "flaky: test_progs/beta (${v%:*}, base 4 pass 0 fail 0 skip, tip 3 pass 1 fail 0 skip, p=0.5000)" \
			"$tmp/beta.report"; then
		echo "ok report of a ${v%:*} test"
	else
		echo "not ok report of a ${v%:*} test: exit status $got, want ${v#*:}"
		cat "$tmp/beta.report"
		status=1
	fi
done
check base-failures 0 base-failures "$f/base.log" "$f/base.tp.expect" ci/upstream.causes
check summary 0 summary "$f/base.tp.expect" "$f/base.tp.expect" \
	"$f/base-failures.expect" 42
# the Markdown of a run made of the files above
mkdir "$tmp/run"
cp "$f/summary.expect" "$tmp/run/summary.tsv"
cp "$f/compare.expect" "$tmp/run/compare.tsv"
cp "$f/rerun-beta.tsv" "$tmp/run/rerun.tsv"
cp "$f/base-failures.expect" "$tmp/run/base-failures.tsv"
check markdown 0 markdown "$tmp/run"

# A document's block: written from a run, it checks; edited, it does not
printf 'text\n<!-- upstream-selftests begin -->\nold\n<!-- upstream-selftests end -->\nmore\n' \
	> "$tmp/doc.md"
if python3 tools/upstream/upstream_results.py doc update "$tmp/run" "$tmp/kept" "$tmp/doc.md" &&
	python3 tools/upstream/upstream_results.py doc check "$tmp/kept" "$tmp/doc.md" &&
	grep -q '^test_progs passes 33.3% of its tests on base.$' "$tmp/doc.md" &&
	sed -n '$p' "$tmp/doc.md" | grep -q '^more$'; then
	echo "ok doc update and check"
else
	echo "not ok doc update and check"
	status=1
fi
sed -i 's/33\.3%/90.0%/' "$tmp/doc.md"
if python3 tools/upstream/upstream_results.py doc check "$tmp/kept" "$tmp/doc.md" 2> /dev/null; then
	echo "not ok doc check: an edited figure passed"
	status=1
else
	echo "ok doc check: an edited figure fails"
fi
# docs/measurements.md's block is that of the run tests/fixtures/upstream-run keeps
if python3 tools/upstream/upstream_results.py doc check tests/fixtures/upstream-run docs/measurements.md; then
	echo "ok docs/measurements.md's upstream-selftests block"
else
	echo "not ok docs/measurements.md's upstream-selftests block"
	status=1
fi
exit $status
