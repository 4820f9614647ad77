#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# docs/series.md's table of what each design stops is what
# tools/measure/design-table.sh makes of the results it was made from
# (tests/fixtures/design/, written with the table by make design-table):
# a table edited by hand, or fixtures changed without the table, fail
# here. And the generator refuses results where a test a cell names is
# missing or did not pass, rather than state what no run proved.
set -eu
STAGE=tests/design-table.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

gen=$top/tools/measure/design-table.sh
fix=$top/tests/fixtures/design

# check WHAT STATUS: "ok" if STATUS is 0
check() {
	if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# refused WHAT RESULTS.json: the generator fails on it
refused() {
	status=0
	if "$gen" table "$2" "$fix/run.json" > /dev/null 2>&1; then
		status=1
	fi
	check "$1" $status
}

doc=docs/series.md
sed -n '/^<!-- design-table begin -->$/,/^<!-- design-table end -->$/p' "$top/$doc" |
	sed '1d;$d' > "$tmp/doc"
status=0
[ -s "$tmp/doc" ] || status=1
check "$doc has a design-table block" $status

status=0
"$gen" table "$fix/tip.json" "$fix/run.json" > "$tmp/table" || status=1
check "the table of the fixtures is made" $status

status=0
diff -u "$tmp/table" "$tmp/doc" || status=1
check "$doc's block is the table of tests/fixtures/design (make design-table)" $status

# the fixtures with one named subtest (token_jit) failed, or left out
python3 - "$fix/tip.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
for how in ("failed", "gone"):
    f = copy.deepcopy(d)
    for t in f["tests"]:
        subs = [s for s in t["subtests"] if t["name"] == "grant_escape" and s["name"] == "token_jit"]
        for s in subs:
            if how == "failed":
                s["result"] = "fail"
            else:
                t["subtests"].remove(s)
    json.dump(f, open("%s/%s.json" % (sys.argv[2], how), "w"))
PY
refused "results where a named test failed are refused" "$tmp/failed.json"
refused "results without a named test are refused" "$tmp/gone.json"
echo '{"verdict": "PASS", "reason": "", "tests": []}' > "$tmp/empty.json"
refused "results with no test are refused" "$tmp/empty.json"

[ "$fail" -eq 0 ] || die "$fail of $((pass + fail)) checks failed"
echo "# design-table: $pass checks passed"
