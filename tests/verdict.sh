#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build ci/verdict.c and ci/splats.c (make's rule for build/tools/verdict, the one the
# pipeline runs) and run it on every recorded log in ci/fixtures/.
# NAME.expect is golden: its first line is the expected exit code, the rest
# is the whole expected stdout, compared with diff -u.
#
# Usage: tests/verdict.sh [BINARY]	(default: build/tools/verdict, built
#	by make; a BINARY given is tested as it is)
# With VERDICT_BLESS=1 it rewrites every NAME.expect from the binary's
# output instead: review the diff before committing it.
set -eu

# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
bin=${1:-$top/build/tools/verdict}
fixtures=$top/ci/fixtures
splats=$top/ci/splats

[ $# -ge 1 ] || make -C "$top" --no-print-directory -s build/tools/verdict
case $bin in
/*) ;;
*) bin=$PWD/$bin ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

if command -v xmllint >/dev/null 2>&1; then
	xml_ok() { xmllint --noout "$1" 2>/dev/null; }
else
	xml_ok() {
		python3 -c 'import xml.dom.minidom, sys
xml.dom.minidom.parse(sys.argv[1])' "$1" 2>/dev/null
	}
fi

n=0
passed=0
failed=0

# report NAME PROBLEMS: PROBLEMS is empty or one problem a line
report() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		passed=$((passed + 1))
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
}

# check_fixture NAME: prints the problems found, one a line
check_fixture() {
	log=$fixtures/$1.log
	exp=$fixtures/$1.expect
	if [ ! -f "$exp" ]; then
		echo "missing $exp"
		return
	fi
	want_rc=$(sed -n 1p "$exp")
	case $want_rc in
	0 | 1) ;;
	*) echo "bad expected exit code '$want_rc' in $exp" ;;
	esac
	sed 1d "$exp" >"$tmp/want"
	rc=0
	"$bin" --splats "$splats" --junit "$tmp/out.xml" "$log" \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	first=$(head -n 1 "$tmp/out")
	last=$(tail -n 1 "$tmp/out")
	[ "$rc" = "$want_rc" ] || echo "exit code $rc, expected $want_rc"
	diff -u "$tmp/want" "$tmp/out" | sed 1,2d || true
	case $rc:$first in
	0:"verdict: PASS" | 1:"verdict: FAIL: "?*) ;;
	*) echo "exit code $rc does not match verdict line '$first'" ;;
	esac
	if ! echo "$last" | grep -Eq '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'; then
		echo "bad last line: '$last'"
	elif [ "$rc" = 1 ] && echo "$last" | grep -q ' 0 failed'; then
		echo "FAIL verdict but counts say 0 failed: '$last'"
	elif [ "$rc" = 0 ] && ! echo "$last" | grep -q ' 0 failed'; then
		echo "PASS verdict but counts show failures: '$last'"
	fi
	[ ! -s "$tmp/err" ] || echo "stderr: $(head -n 1 "$tmp/err")"
	xml_ok "$tmp/out.xml" || echo "JUnit output is not well-formed XML"
}

# json_problems FILE RC SUMMARY: the --json file is JSON, its verdict is
# the exit code's, and its counts are the summary's last line
json_problems() {
	python3 -c 'import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit("--json file is not JSON: %s" % e)
want = "PASS" if sys.argv[2] == "0" else "FAIL"
if d["verdict"] != want:
    print("--json verdict %s, expected %s" % (d["verdict"], want))
c = d["counts"]
last = open(sys.argv[3]).read().splitlines()[-1]
got = "%d passed, %d failed, %d skipped" % (c["passed"], c["failed"], c["skipped"])
if got != last:
    print("--json counts \"%s\", the summary says \"%s\"" % (got, last))' "$@" 2>&1
}

# check_outputs NAME RC: --ktap, --junit and --json files for one fixture
check_outputs() {
	rm -f "$tmp/o.ktap" "$tmp/o.xml" "$tmp/o.json"
	rc=0
	"$bin" --splats "$splats" --ktap "$tmp/o.ktap" --junit "$tmp/o.xml" \
		--json "$tmp/o.json" "$fixtures/$1.log" >"$tmp/o.out" 2>&1 || rc=$?
	[ "$rc" = "$2" ] || echo "exit code $rc, expected $2"
	[ -s "$tmp/o.ktap" ] || echo "--ktap file missing or empty"
	[ -s "$tmp/o.xml" ] || echo "--junit file missing or empty"
	json_problems "$tmp/o.json" "$rc" "$tmp/o.out"
	[ -s "$tmp/o.ktap" ] || return 0
	[ "$(head -n 1 "$tmp/o.ktap")" = "KTAP version 1" ] ||
		echo "--ktap file does not start with 'KTAP version 1'"
	! grep -Evq '^( {4})*(KTAP version 1|1\.\.[0-9]+|(not )?ok [0-9]+|#)' \
		"$tmp/o.ktap" || echo "--ktap file holds non-KTAP lines"
	xml_ok "$tmp/o.xml" || echo "--junit file is not well-formed XML"
	if [ "$2" = 1 ]; then
		grep -q '<failure' "$tmp/o.xml" || echo "no <failure> in JUnit"
	else
		! grep -q '<failure' "$tmp/o.xml" || echo "<failure> in JUnit"
	fi
}

# bless NAME: rewrite NAME.expect from the binary's output
bless() {
	rc=0
	"$bin" --splats "$splats" "$fixtures/$1.log" >"$tmp/out" 2>/dev/null ||
		rc=$?
	{ echo "$rc"; cat "$tmp/out"; } >"$fixtures/$1.expect"
}

found=0
for log in "$fixtures"/*.log; do
	[ -f "$log" ] || continue
	found=1
	name=$(basename "$log" .log)
	[ "${VERDICT_BLESS:-}" != 1 ] || bless "$name"
	report "$name" "$(check_fixture "$name")"
done
[ "$found" = 1 ] || report "fixtures" "no fixtures in $fixtures"

for exp in "$fixtures"/*.expect; do
	[ -f "${exp%.expect}.log" ] ||
		report "$(basename "$exp")" "no matching .log file"
done

report "ktap+junit output: pass" "$(check_outputs pass 0)"
report "ktap+junit output: crashed_binary" "$(check_outputs crashed_binary 1)"
report "ktap+junit output: panic" "$(check_outputs panic 1)"
grep -q '<testcase classname="boot" name="boot">' "$tmp/o.xml" &&
	problem= || problem="no 'boot' testcase in the JUnit of a panic"
report "junit boot testcase: panic" "$problem"
# other dialects and indentations come out as KTAP, four spaces a level
for f in indent_2_spaces tap14_subtests printk_kunit; do
	report "ktap+junit output: $f" "$(check_outputs $f 0)"
done
report "ktap+junit output: indent_tabs_fail" "$(check_outputs indent_tabs_fail 1)"

# results.json's typed cause and report (docs/contracts.md), which make
# verdict's decode trigger and tools/lib/results.py read instead of the reason
# check_cause LOG CAUSE REPORT [NO_SUCH_SUBTEST]
check_cause() {
	"$bin" --splats "$splats" --json "$tmp/c.json" "$1" >/dev/null 2>&1 || true
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
want = [None if w == "-" else w for w in sys.argv[2:5]]
got = [d["cause"], d["report"],
       next((t["no_such_subtest"] for t in d["tests"] if "no_such_subtest" in t), None)]
if got != want:
    print("cause, report, no_such_subtest: %s, expected %s" % (got, want))' \
		"$tmp/c.json" "$2" "$3" "${4:--}" 2>&1
}
for c in "pass - -" "panic kernel-report panic" "oops kernel-report BUG" \
	"fault_hang hang -" "fault_qemu boot-failed -" "empty no-ktap -" \
	"missing_plan missing-plan -" "truncated truncated -" \
	"bad_numbering malformed -" "failed_subtest tests-failed -"; do
	# shellcheck disable=SC2086 # fixture, cause, report
	set -- $c
	report "json cause: $1" "$(check_cause "$fixtures/$1.log" "$2" "$3")"
done
report "json no_such_subtest" "$(check_cause "$top/tests/fixtures/step/no_subtest.log" \
	tests-failed - nosuch)"

# a subtest's "# seconds: S" line: results.json's seconds, kept past the
# 32 diagnostics a node keeps, and not a diagnostic; a bad or infinite
# number stays one (JSON has no inf)
{
	printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: t\n    1..4\n'
	i=0
	while [ $i -lt 40 ]; do
		echo "    # line $i"
		i=$((i + 1))
	done
	printf '    # seconds: 12.500\n    ok 1 a\n    # seconds: x1\n    ok 2 b\n'
	printf '    # seconds: inf\n    ok 3 c\n    # seconds: 1e999\n    ok 4 d\nok 1 t\n'
} > "$tmp/seconds.log"
"$bin" --json "$tmp/s.json" "$tmp/seconds.log" >/dev/null 2>&1 || true
report "json seconds" "$(python3 -c 'import json, sys
a, b, c, d = json.load(open(sys.argv[1]))["tests"][0]["subtests"]
if a.get("seconds") != 12.5 or any("seconds" in l for l in a["diagnostics"]):
    print("a: %s" % a)
for s, text in ((b, "x1"), (c, "inf"), (d, "1e999")):
    if "seconds" in s or s.get("diagnostics") != ["# seconds: " + text]:
        print("%s: %s" % (s["name"], s))' "$tmp/s.json" 2>&1)"

rc=0
"$bin" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && problem= || problem="exit code $rc, expected 2"
report "usage error exits 2" "$problem"
rc=0
"$bin" "$tmp/does-not-exist.log" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && problem= || problem="exit code $rc, expected 2"
report "unreadable log exits 2" "$problem"

# the splats file: read from ci/splats by default, and never skipped
rc=0
(cd "$top" && "$bin" "$fixtures/oops.log" >"$tmp/out" 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q '^verdict: FAIL: kernel BUG: ' "$tmp/out" &&
	problem= || problem="exit code $rc, expected 1 and a kernel BUG"
report "splats: ci/splats by default" "$problem"
for bad in missing "allow" "BUG" "oops *" "allow Oops: " "# no rules"; do
	rc=0
	if [ "$bad" = missing ]; then
		rules=$tmp/does-not-exist
	else
		rules=$tmp/splats
		printf '%s\n' "$bad" >"$rules"
	fi
	"$bin" --splats "$rules" "$fixtures/pass.log" >/dev/null 2>"$tmp/err" ||
		rc=$?
	[ "$rc" = 2 ] && grep -q "^verdict: $rules" "$tmp/err" &&
		problem= || problem="exit code $rc, expected 2 and a message"
	report "splats file '$bad' exits 2" "$problem"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
