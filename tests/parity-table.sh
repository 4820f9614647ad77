#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# docs/container.md's parity table is what tools/measure/parity-table.sh makes of the
# results it was made from (tests/fixtures/parity/, written with the table
# by make parity-table): a table edited by hand, or fixtures changed
# without the table, fail here. And the generator refuses results without
# parity records rather than making a table of nothing.
set -eu
STAGE=tests/parity-table.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

gen=$top/tools/measure/parity-table.sh
fix=$top/tests/fixtures/parity

# check WHAT STATUS: "ok" if STATUS is 0
check() {
	if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# the document's block, between its markers
doc=docs/container.md
sed -n '/^<!-- parity-table begin -->$/,/^<!-- parity-table end -->$/p' "$top/$doc" |
	sed '1d;$d' > "$tmp/readme"
status=0
[ -s "$tmp/readme" ] || status=1
check "$doc has a parity-table block" $status

status=0
"$gen" table "$fix/tip.json" "$fix/base.json" "$fix/run.json" > "$tmp/table" || status=1
check "the table of the fixtures is made" $status

status=0
diff -u "$tmp/table" "$tmp/readme" || status=1
check "$doc's block is the table of tests/fixtures/parity (make parity-table)" $status

# results without container_tools/parity: refused, not an empty table
echo '{"verdict": "PASS", "reason": "", "tests": []}' > "$tmp/empty.json"
status=0
if "$gen" table "$tmp/empty.json" "$fix/base.json" "$fix/run.json" > /dev/null 2>&1; then
	status=1
fi
check "results without parity records are refused" $status

# a cell that differs between two runs of one boot (ci.repeat=2) shows both
python3 - "$fix/tip.json" "$tmp/twice.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
t = copy.deepcopy(d["tests"][0])
p = [s for s in t["subtests"] if s["name"] == "parity"][0]
p["diagnostics"] = [l.replace('"rule": "works"', '"rule": "fails: changed"', 1)
                    if '"step"' in l else l for l in p["diagnostics"]]
d["tests"].append(t)
json.dump(d, open(sys.argv[2], "w"))
PY
status=0
"$gen" table "$tmp/twice.json" "$fix/base.json" "$fix/run.json" > "$tmp/twice" &&
	grep -q 'works / fails: changed (runs differ)' "$tmp/twice" || status=1
check "a cell that differs between runs shows both" $status

[ "$fail" -eq 0 ] || die "$fail of $((pass + fail)) checks failed"
echo "# parity-table: $pass checks passed"
