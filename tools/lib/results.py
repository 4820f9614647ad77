#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""results: the one reader of the harness's JSON files (docs/contracts.md).

The shell stages call it, so that none of them reads another stage's
prose: the verdict's results.json, a bisect step's step.json,
series-check's series.json and kunit.py parse --json's file.

usage: results.py COMMAND ARGS...
  line RESULTS.json            "PASS", or "FAIL: reason"
  counts RESULTS.json          "P passed, F failed, S skipped"
  pfs RESULTS.json             "P F S", the same counts
  kunit-pfs KUNIT.json         "P F S" of kunit.py parse --json's leaves
  cause RESULTS.json           the verdict's cause ("" on a pass)
  outcome RESULTS.json TEST    a bisect try's outcome (see outcome below)
  has RESULTS.json TEST/SUB    exit 0 if the results list that subtest, else 1
  expect RESULTS.json EXPECT   check subtest results against an .expect file
  step-write STEP.json RESULT CAUSE SUMMARY TEST TRIES TRY [RESULTS.json]
  get JSON KEY                 a top-level value of a JSON object ("" for null)
  series-table SERIES.json     series-check's table, for a terminal
  times RESULTS.json           each subtest's time in the guest, the
                               longest first (its "seconds")
                               (tools/series/shards.py writes series.json)
  gh-summary [TITLE RESULTS.json]... [--series TITLE SERIES.json]
                               GitHub's job summary and ::error annotations

Debian's python3, standard library only.
"""

import fnmatch
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no tools/lib/__pycache__ in the checkout
import subcommand  # noqa: E402

# step.json's result and cause words (docs/contracts.md)
STEP_RESULTS = ("pass", "fail", "untestable")
STEP_CAUSES = {
    "pass": (None,),
    "fail": ("tests-failed", "grant-off-failed"),
    "untestable": ("kernel-build", "tests-build", "no-such-test",
                   "no-such-subtest", "guest-failed-early", "no-results"),
}


class NotResults(Exception):
    """The file is not what the command reads."""


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise NotResults("%s: %s" % (path, e))


def load_results(path):
    d = load(path)
    if not isinstance(d, dict) or not all(
            k in d for k in ("verdict", "reason", "counts", "tests")):
        raise NotResults("%s: not a results file of verdict --json" % path)
    return d


def line(d):
    return d["verdict"] + (": " + d["reason"] if d["reason"] else "")


def counts(d):
    c = d["counts"]
    return "%d passed, %d failed, %d skipped" % (c["passed"], c["failed"], c["skipped"])


def pfs(d):
    c = d["counts"]
    return "%d %d %d" % (c["passed"], c["failed"], c["skipped"])


def kunit_pfs(group):
    """Passed, failed, skipped leaves of kunit.py's JSON; ERROR (crashed)
    counts as failed, as in the verdict's counts."""
    n = {"PASS": 0, "FAIL": 0, "SKIP": 0}

    def walk(g):
        for t in g.get("test_cases", []):
            n["FAIL" if t["status"] in ("FAIL", "ERROR") else t["status"]] += 1
        for s in g.get("sub_groups", []):
            walk(s)
    walk(group)
    return "%d %d %d" % (n["PASS"], n["FAIL"], n["SKIP"])


def outcome(d, test):
    """A bisect try's reading of the results of a boot that ran TEST
    (TEST[/SUBTEST], "" for the whole suite):
      pass         the verdict is PASS
      no-subtest   the test's runner has no such SUBTEST
      fail         FAIL, and the guest reached the test (results list it;
                   any test, for the whole suite)
      not-reached  FAIL before the test started: a panic or hang at boot
    """
    name, _, sub = test.partition("/")
    mine = [t for t in d["tests"] if not name or t.get("name") == name]
    if sub and any("no_such_subtest" in t for t in mine):
        return "no-subtest"
    if d["verdict"] == "PASS":
        return "pass"
    return "fail" if mine else "not-reached"


def has(d, test):
    name, _, sub = test.partition("/")
    return any(t.get("name") == name and
               any(s.get("name") == sub for s in t.get("subtests", []))
               for t in d["tests"])


def subtest_results(d):
    """(test/subtest, "ok" | "SKIP" | "FAIL") for every subtest."""
    word = {"pass": "ok", "skip": "SKIP", "fail": "FAIL"}
    for t in d["tests"]:
        for s in t.get("subtests", []):
            yield "%s/%s" % (t["name"], s["name"]), word[s["result"]]


def times(d):
    """The table of each subtest's seconds in the guest (its "seconds"),
    summed over the runs of one boot, the longest first, and the total"""
    secs, runs = {}, {}
    for t in d["tests"]:
        for s in t.get("subtests", []):
            if "seconds" in s:
                name = "%s/%s" % (t["name"], s["name"])
                secs[name] = secs.get(name, 0.0) + float(s["seconds"])
                runs[name] = runs.get(name, 0) + 1
    if not secs:
        raise NotResults("no subtest has seconds: results of tests built before "
                         "the runner timed them")
    out = ["%9.1f  %4d  %s" % (secs[n], runs[n], n)
           for n in sorted(secs, key=lambda n: (-secs[n], n))]
    out.append("%9.1f        total, %d subtests" % (sum(secs.values()), len(secs)))
    return "  seconds  runs  subtest\n" + "\n".join(out)


def expect(d, lines):
    """Problems of results D against expectation lines "<test>/<subtest
    pattern> <ok|SKIP>": every matching subtest must have that status,
    and every line must match at least one."""
    results = list(subtest_results(d))
    problems = []
    for raw in lines:
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        if len(words) != 2 or words[1] not in ("ok", "SKIP"):
            problems.append("not an expectation: %s" % raw.strip())
            continue
        pattern, want = words
        seen = False
        for name, got in results:
            if fnmatch.fnmatchcase(name, pattern):
                seen = True
                if got != want:
                    problems.append("%s: %s, expected %s" % (name, got, want))
        if not seen:
            problems.append("no result matches %s" % pattern)
    return problems


def step_record(result, cause, summary, test, tries, tried, results=None):
    if result not in STEP_RESULTS:
        raise NotResults("step result %r is not one of %s" % (result, STEP_RESULTS))
    cause = cause or None
    if cause not in STEP_CAUSES[result]:
        raise NotResults("step cause %r does not go with %s" % (cause, result))
    rec = {"result": result, "cause": cause, "summary": summary, "test": test,
           "tries": int(tries), "tried": int(tried), "counts": None}
    if results:
        try:
            rec["counts"] = load_results(results)["counts"]
        except NotResults:
            pass
    return rec


def checkpatch_counts(path):
    """{errors, warnings, checks} from checkpatch's 'total:' line; None
    when there is no report (base has none)."""
    if path == "-":
        return None
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"^total: (\d+) errors, (\d+) warnings, (\d+) checks", text, re.M)
    if not m:
        return {"errors": None, "warnings": None, "checks": None}
    return dict(zip(("errors", "warnings", "checks"), map(int, m.groups())))


def series_row(row):
    """commit, subject, build, checkpatch, tests, time: the table's cells"""
    step = row["step"]
    build = "FAIL" if step["cause"] == "kernel-build" else "ok"
    cp = row["checkpatch"]
    if cp is None:
        cpw = "-"
    elif cp["errors"] is None:
        cpw = "none"
    elif cp["errors"] == cp["warnings"] == cp["checks"] == 0:
        cpw = "clean"
    else:
        cpw = "%dE %dW %dC" % (cp["errors"], cp["warnings"], cp["checks"])
    if build == "FAIL":
        tests = "-"
    elif step["result"] == "pass":
        tests = "pass"
    else:
        tests = "FAIL"
    c = step.get("counts")
    if c:
        tests += " (%d passed, %d failed, %d skipped)" % (c["passed"], c["failed"], c["skipped"])
    return [row["commit"], row["subject"], build, cpw, tests, "%d s" % row["seconds"]]


def series_table(commits):
    """series-check's table of series.json's commits, for a terminal"""
    table = "%-12s %-60s %-5s %-11s %s\n" % ("commit", "subject", "build", "checkpatch", "tests")
    for r in commits:
        table += "%-12s %-60s %-5s %-11s %s, %s\n" % tuple(series_row(r))
    return table


def gh_esc(s, prop=False):
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return s.replace(":", "%3A").replace(",", "%2C") if prop else s


def gh_results(title, d, out, err):
    mark = {"pass": "ok", "fail": "**FAIL**", "skip": "skip"}
    c = d["counts"]
    out.write("\n### %s: %s\n\n" % (title, d["verdict"]))
    if d["reason"]:
        out.write("> %s\n\n" % d["reason"])
    out.write("%d passed, %d failed, %d skipped\n\n" % (c["passed"], c["failed"], c["skipped"]))
    out.write("| test | result | note |\n| --- | --- | --- |\n")

    def walk(t, path):
        name = path + t["name"]
        note = t.get("skip_reason") or ("no result line" if t.get("no_result_line") else "")
        kids_failed = any(s["result"] == "fail" for s in t.get("subtests", []))
        # a failed leaf, or a failed test none of whose subtests failed
        if t["result"] == "fail" and not kids_failed:
            diag = "; ".join(t.get("diagnostics", [])[:3])
            note = note or diag
            err.write("::error title=%s::%s\n" % (
                gh_esc("%s: %s failed" % (title, name), True), gh_esc(diag or "not ok")))
        out.write("| %s | %s | %s |\n" % (name, mark[t["result"]], note.replace("|", "\\|")))
        for s in t.get("subtests", []):
            walk(s, name + "/")
    for t in d["tests"]:
        walk(t, "")


def gh_series(title, d, out):
    out.write("\n### %s\n\n| commit | subject | build | checkpatch | tests | time |\n"
              "| --- | --- | --- | --- | --- | --- |\n" % title)
    for row in d["commits"]:
        out.write("| %s |\n" % " | ".join(c.replace("|", "\\|") for c in series_row(row)))


def gh_summary(args, out, err):
    while len(args) >= 2:
        if args[0] == "--series":
            if len(args) < 3:
                raise NotResults("usage: --series TITLE SERIES.json")
            if os.path.exists(args[2]):
                gh_series(args[1], load(args[2]), out)
            else:
                out.write("\n### %s\n\nno table: %s is missing\n" % (args[1], args[2]))
            args = args[3:]
            continue
        title, path = args[:2]
        if os.path.exists(path):
            gh_results(title, load_results(path), out, err)
        else:
            out.write("\n### %s\n\nno results: %s is missing (the run stopped before its verdict)\n"
                      % (title, path))
        args = args[2:]
    if args:
        raise NotResults("usage: gh-summary [TITLE RESULTS.json]... [--series TITLE SERIES.json]")


def run(cmd, args):
    """The exit status of subcommand CMD with ARGS; None where there is no
    such subcommand or these are not its arguments"""
    if cmd in ("line", "counts", "pfs", "cause") and len(args) == 1:
        d = load_results(args[0])
        print({"line": line, "counts": counts, "pfs": pfs,
               "cause": lambda d: d.get("cause") or ""}[cmd](d))
    elif cmd == "kunit-pfs" and len(args) == 1:
        print(kunit_pfs(load(args[0])))
    elif cmd == "outcome" and len(args) == 2:
        print(outcome(load_results(args[0]), args[1]))
    elif cmd == "has" and len(args) == 2:
        return 0 if has(load_results(args[0]), args[1]) else 1
    elif cmd == "expect" and len(args) == 2:
        with open(args[1]) as f:
            problems = expect(load_results(args[0]), f.readlines())
        for p in problems:
            print("expect: %s" % p, file=sys.stderr)
        if problems:
            print("expect: %s does not match %s" % (args[0], args[1]), file=sys.stderr)
            return 1
        print("expect: %s matches %s" % (args[0], args[1]), file=sys.stderr)
    elif cmd == "step-write" and len(args) in (7, 8):
        rec = step_record(*args[1:])
        with open(args[0] + ".tmp", "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")
        os.replace(args[0] + ".tmp", args[0])
    elif cmd == "get" and len(args) == 2:
        v = load(args[0]).get(args[1])
        print("" if v is None else v if isinstance(v, str) else json.dumps(v))
    elif cmd == "times" and len(args) == 1:
        print(times(load_results(args[0])))
    elif cmd == "series-table" and len(args) == 1:
        print("\n" + series_table(load(args[0])["commits"]), end="")
    elif cmd == "gh-summary":
        gh_summary(args, sys.stdout, sys.stderr)
    else:
        return None
    return 0


if __name__ == "__main__":
    sys.exit(subcommand.main(sys.argv, "results", __doc__, NotResults, run))
