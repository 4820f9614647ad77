#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of tools/lib/results.py, the reader of the harness's JSON files, on
small results as verdict --json, step.sh and kunit.py parse --json write
them (docs/contracts.md). Run by tests/run.sh; python3 -m unittest too."""

import io
import json
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no tools/__pycache__ in the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "lib"))
import results  # noqa: E402


def res(verdict="PASS", reason="", cause=None, tests=(), counts=(1, 0, 0)):
    return {"verdict": verdict, "reason": reason, "cause": cause, "report": None,
            "counts": dict(zip(("passed", "failed", "skipped"), counts)),
            "planned": len(tests), "tests": list(tests)}


SMOKE = {"name": "smoke", "result": "fail", "subtests": [
    {"name": "root_creates_array", "result": "pass"},
    {"name": "unpriv_refused_hash", "result": "fail", "diagnostics": ["# boom"]},
    {"name": "lsm_sees_call", "result": "skip", "skip_reason": "no hook"}]}


class Readings(unittest.TestCase):
    def test_line_and_counts(self):
        d = res("FAIL", "1 of 1 tests failed: smoke", "tests-failed", [SMOKE], (1, 1, 1))
        self.assertEqual(results.line(d), "FAIL: 1 of 1 tests failed: smoke")
        self.assertEqual(results.counts(d), "1 passed, 1 failed, 1 skipped")
        self.assertEqual(results.pfs(d), "1 1 1")
        self.assertEqual(results.line(res()), "PASS")

    def test_outcome(self):
        failed = res("FAIL", "x", "tests-failed", [SMOKE])
        self.assertEqual(results.outcome(failed, "smoke/unpriv_refused_hash"), "fail")
        self.assertEqual(results.outcome(failed, ""), "fail")
        self.assertEqual(results.outcome(failed, "lsm_map_create"), "not-reached")
        panic = res("FAIL", "kernel panic", "kernel-report", [])
        self.assertEqual(results.outcome(panic, ""), "not-reached")
        nosub = res("FAIL", "x", "tests-failed",
                    [{"name": "smoke", "result": "fail", "no_such_subtest": "nosuch"}])
        self.assertEqual(results.outcome(nosub, "smoke/nosuch"), "no-subtest")
        self.assertEqual(results.outcome(res(tests=[SMOKE]), "smoke/x"), "pass")

    def test_has(self):
        d = res(tests=[SMOKE])
        self.assertTrue(results.has(d, "smoke/lsm_sees_call"))
        self.assertFalse(results.has(d, "smoke/nosuch"))
        self.assertFalse(results.has(d, "lsm_map_create/lsm_sees_call"))

    def test_expect(self):
        d = res(tests=[SMOKE])
        self.assertEqual(results.expect(d, ["smoke/root_* ok\n", "# comment\n", "\n"]), [])
        self.assertEqual(results.expect(d, ["smoke/lsm_sees_call ok"]),
                         ["smoke/lsm_sees_call: SKIP, expected ok"])
        self.assertEqual(results.expect(d, ["smoke/unpriv_* SKIP"]),
                         ["smoke/unpriv_refused_hash: FAIL, expected SKIP"])
        self.assertEqual(results.expect(d, ["smoke/no_such_* ok"]),
                         ["no result matches smoke/no_such_*"])
        self.assertEqual(len(results.expect(d, ["smoke/x maybe"])), 1)

    def test_times(self):
        timed = {"name": "smoke", "result": "pass", "subtests": [
            {"name": "a", "result": "pass", "diagnostics": ["# x"], "seconds": 1.5},
            {"name": "b", "result": "pass", "seconds": 4.0}]}
        # two runs of one boot: summed; the longest first
        out = results.times(res(tests=[timed, timed])).splitlines()
        self.assertEqual(out[1].split(), ["8.0", "2", "smoke/b"])
        self.assertEqual(out[2].split(), ["3.0", "2", "smoke/a"])
        self.assertEqual(out[-1].split()[:2], ["11.0", "total,"])
        with self.assertRaises(results.NotResults):
            results.times(res(tests=[SMOKE]))

    def test_kunit_pfs(self):
        k = {"name": "KUnit Test Group", "test_cases": [{"name": "t0", "status": "PASS"}],
             "sub_groups": [{"name": "smoke", "sub_groups": [], "test_cases": [
                 {"name": "a", "status": "PASS"}, {"name": "b", "status": "FAIL"},
                 {"name": "c", "status": "SKIP"}, {"name": "d", "status": "ERROR"}]}]}
        self.assertEqual(results.kunit_pfs(k), "2 2 1")


class Steps(unittest.TestCase):
    def test_step_record_checks_words(self):
        r = results.step_record("untestable", "kernel-build", "untestable: x", "", "1", "1")
        self.assertEqual((r["result"], r["cause"], r["counts"]), ("untestable", "kernel-build", None))
        self.assertIsNone(results.step_record("pass", "", "PASS", "smoke", "2", "2")["cause"])
        for bad in (("pass", "kernel-build"), ("fail", ""), ("maybe", "")):
            with self.assertRaises(results.NotResults):
                results.step_record(bad[0], bad[1], "", "", "1", "1")

    def test_series_rows(self):
        step = {"result": "untestable", "cause": "kernel-build", "counts": None}
        row = {"commit": "abc", "subject": "s", "seconds": 3, "step": step,
               "checkpatch": {"errors": 0, "warnings": 1, "checks": 2}}
        self.assertEqual(results.series_row(row), ["abc", "s", "FAIL", "0E 1W 2C", "-", "3 s"])
        step = {"result": "pass", "cause": None,
                "counts": {"passed": 4, "failed": 0, "skipped": 0}}
        row.update(step=step, checkpatch={"errors": 0, "warnings": 0, "checks": 0})
        self.assertEqual(results.series_row(row)[2:5],
                         ["ok", "clean", "pass (4 passed, 0 failed, 0 skipped)"])
        row.update(checkpatch=None, step={"result": "fail", "cause": "tests-failed"})
        self.assertEqual(results.series_row(row)[2:5], ["ok", "-", "FAIL"])

    def test_checkpatch_counts(self):
        with tempfile.NamedTemporaryFile("w", suffix=".checkpatch") as f:
            f.write("WARNING: x\ntotal: 1 errors, 2 warnings, 3 checks, 40 lines checked\n")
            f.flush()
            self.assertEqual(results.checkpatch_counts(f.name),
                             {"errors": 1, "warnings": 2, "checks": 3})
        self.assertIsNone(results.checkpatch_counts("-"))

    def test_series_table(self):
        # series.json as tools/series/shards.py series-merge writes it
        step = {"result": "fail", "cause": "tests-failed", "summary": "FAIL: x",
                "counts": {"passed": 1, "failed": 1, "skipped": 0}}
        rows = [{"commit": "a1", "subject": "base", "checkpatch": None, "seconds": 5,
                 "step": dict(step, result="pass", cause=None)},
                {"commit": "b2", "subject": "subj", "seconds": 7, "step": step,
                 "checkpatch": {"errors": 0, "warnings": 0, "checks": 0}}]
        with tempfile.TemporaryDirectory() as tmp:
            series = os.path.join(tmp, "series.json")
            with open(series, "w") as f:
                json.dump({"commits": rows}, f)
            out = io.StringIO()
            real, sys.stdout = sys.stdout, out
            try:
                self.assertEqual(results.run("series-table", [series]), 0)
            finally:
                sys.stdout = real
        lines = out.getvalue().split("\n")
        self.assertEqual(lines[0], "")
        self.assertEqual(lines[1].split(), ["commit", "subject", "build", "checkpatch", "tests"])
        self.assertEqual(lines[2].split(), ["a1", "base", "ok", "-", "pass", "(1", "passed,",
                                            "1", "failed,", "0", "skipped),", "5", "s"])
        self.assertTrue(lines[3].startswith("b2 "))
        self.assertIn(" clean       FAIL (1 passed, 1 failed, 0 skipped), 7 s", lines[3])


class GhSummary(unittest.TestCase):
    def test_annotations_and_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            with open(path, "w") as f:
                json.dump(res("FAIL", "1 of 1 tests failed", "tests-failed", [SMOKE], (1, 1, 1)), f)
            out, err = io.StringIO(), io.StringIO()
            results.gh_summary(["make ci", path, "make ci-base", os.path.join(tmp, "none")],
                               out, err)
            self.assertIn("### make ci: FAIL", out.getvalue())
            self.assertIn("| smoke/lsm_sees_call | skip | no hook |", out.getvalue())
            self.assertIn("no results:", out.getvalue())
            self.assertEqual(err.getvalue(),
                             "::error title=make ci%3A smoke/unpriv_refused_hash failed::# boom\n")


if __name__ == "__main__":
    unittest.main(verbosity=1)
