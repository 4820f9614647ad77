#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gh-summary: a run's results for GitHub Actions' job summary (Markdown on
# stdout) and, for each failed test or subtest, an ::error annotation on
# stderr, which the runner turns into an annotation of the run.
#
# usage: gh-summary.sh TITLE RESULTS.json [TITLE RESULTS.json]... [--table TITLE TSV]
#   RESULTS.json: verdict --json's file; TSV: series-check's table
set -eu
STAGE=gh-summary
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"
while [ $# -ge 2 ]; do
	if [ "$1" = --table ]; then
		[ $# -ge 3 ] || die "usage: --table TITLE TSV"
		if [ -f "$3" ]; then
			printf '\n### %s\n\n| commit | subject | build | checkpatch | tests | time |\n| --- | --- | --- | --- | --- | --- |\n' "$2"
			sed 's/|/\\|/g; s/\t/ | /g; s/^/| /; s/$/ |/' "$3"
		fi
		shift 3
		continue
	fi
	if [ ! -f "$2" ]; then
		printf '\n### %s\n\nno results: %s is missing (the run stopped before its verdict)\n' "$1" "$2"
		shift 2
		continue
	fi
	python3 - "$1" "$2" <<'PY'
import json, sys

title, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
c = d["counts"]
mark = {"pass": "ok", "fail": "**FAIL**", "skip": "skip"}
print("\n### %s: %s\n" % (title, d["verdict"]))
if d["reason"]:
    print("> %s\n" % d["reason"])
print("%d passed, %d failed, %d skipped\n" % (c["passed"], c["failed"], c["skipped"]))
print("| test | result | note |\n| --- | --- | --- |")

def esc(s, prop=False):
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return s.replace(":", "%3A").replace(",", "%2C") if prop else s

def walk(t, path):
    name = path + t["name"]
    note = t.get("skip_reason") or ("no result line" if t.get("no_result_line") else "")
    kids_failed = any(s["result"] == "fail" for s in t.get("subtests", []))
    # a failed leaf, or a failed test none of whose subtests failed
    if t["result"] == "fail" and not kids_failed:
        diag = "; ".join(t.get("diagnostics", [])[:3])
        note = note or diag
        sys.stderr.write("::error title=%s::%s\n" %
                         (esc("%s: %s failed" % (title, name), True), esc(diag or "not ok")))
    print("| %s | %s | %s |" % (name, mark[t["result"]], note.replace("|", "\\|")))
    for s in t.get("subtests", []):
        walk(s, name + "/")

for t in d["tests"]:
    walk(t, "")
PY
	shift 2
done
