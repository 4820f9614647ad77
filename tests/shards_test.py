#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of tools/series/shards.py: the split of a run's items among SHARD=i/N,
and the checks a merge makes before it believes the shards are one run.
tests/shards.sh shows the merges' outputs equal to an unsharded run's on
the fixtures. Run by tests/run.sh; python3 -m unittest too."""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no tools/__pycache__ in the checkout
sys.path.insert(0, os.path.join(here, "..", "tools", "series"))
import shards  # noqa: E402

FX = os.path.join(here, "fixtures", "shards")


def items(stage):
    with open(os.path.join(FX, stage, "items")) as f:
        return f.read().split()


class Pick(unittest.TestCase):
    def test_every_split_is_a_partition(self):
        for split in shards.SPLITS:
            for size in range(0, 31):
                whole = ["i%02d" % k for k in range(size)]
                for n in range(1, 13):
                    parts = [shards.pick(whole, i, n, split) for i in range(1, n + 1)]
                    union = [x for p in parts for x in p]
                    self.assertEqual(sorted(union), whole, (split, size, n))
                    lens = [len(p) for p in parts]
                    self.assertLessEqual(max(lens) - min(lens), 1, (split, size, n))
                    if split == "contiguous":
                        self.assertEqual(union, whole)
                    for p in parts:  # each shard keeps the run's order
                        self.assertEqual(p, sorted(p))

    def test_the_rules(self):
        whole = list("abcdefg")
        self.assertEqual(shards.pick(whole, 2, 3, "round-robin"), ["b", "e"])
        self.assertEqual(shards.pick(whole, 2, 3, "contiguous"), ["c", "d"])
        self.assertEqual(shards.pick(whole, 1, 1, "contiguous"), whole)

    def test_parse_shard(self):
        self.assertEqual(shards.parse_shard(""), (1, 1))
        self.assertEqual(shards.parse_shard("3/4"), (3, 4))
        for bad in ("0/2", "3/2", "2", "a/b", "1/0", "/2", "01/2", "1/2/3", "-1/2"):
            with self.assertRaises(shards.ShardError, msg=bad):
                shards.parse_shard(bad)

    def test_matrix(self):
        self.assertEqual(shards.matrix(27, 9), "n=3\nshards=[1, 2, 3]\n")
        self.assertEqual(shards.matrix(28, 9), "n=4\nshards=[1, 2, 3, 4]\n")
        self.assertEqual(shards.matrix(5, 9), "n=1\nshards=[1]\n")
        self.assertEqual(shards.matrix(0, 9), "n=1\nshards=[1]\n")


class Merge(unittest.TestCase):
    """Shard directories of the fixtures, broken one way at a time"""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def layout(self, stage, shard, tip="t1", only=None):
        split = shards.STAGES[stage][1]
        d = os.path.join(self.tmp, stage, shard.replace("/", "-of-") or "whole")
        os.makedirs(d)
        shards.write_json(os.path.join(d, "shard.json"),
                          shards.manifest(stage, split, shard, tip, items(stage)))
        i, n = shards.parse_shard(shard)
        for x in only if only is not None else shards.pick(items(stage), i, n, split):
            shutil.copytree(os.path.join(FX, stage, x), os.path.join(d, x))
        return d

    def merge(self, stage, dirs, part=False):
        out, err = io.StringIO(), io.StringIO()
        f = shards.mutate_merge if stage == "mutate" else shards.series_merge
        status = f(os.path.join(self.tmp, "out"), dirs, part, out, err)
        return status, out.getvalue(), err.getvalue()

    def assertRefused(self, stage, dirs, words):
        with self.assertRaises(shards.ShardError) as e:
            self.merge(stage, dirs)
        self.assertIn(words, str(e.exception))

    def test_a_result_missing(self):
        whole = items("mutate")
        d1 = self.layout("mutate", "1/2", only=whole[0:-2:2])  # not its last item
        d2 = self.layout("mutate", "2/2")
        self.assertRefused("mutate", [d1, d2], "shard 1/2 (%s) has no result for %s" % (d1, whole[-2]))

    def test_an_item_in_two_shards(self):
        whole = items("series-check")
        d1 = self.layout("series-check", "1/2", only=whole[:4])  # its 3, and one of 2's
        d2 = self.layout("series-check", "2/2")
        self.assertRefused("series-check", [d1, d2], "holds a result for %s, which is not in its share"
                           % whole[3])

    def test_a_shard_twice_or_another_tip(self):
        d1 = self.layout("mutate", "1/2")
        self.assertRefused("mutate", [d1, d1], "shard 1/2 twice")
        d2 = self.layout("mutate", "2/2", tip="t2")
        self.assertRefused("mutate", [d1, d2], "their tip differ")

    def test_another_stage_or_no_manifest(self):
        d = self.layout("mutate", "")
        self.assertRefused("series-check", [d], "a shard of mutate, not of series-check")
        os.remove(os.path.join(d, "shard.json"))
        self.assertRefused("mutate", [d], "no shard.json")

    def test_part(self):
        d = self.layout("mutate", "2/3")
        self.assertRefused("mutate", [d], "shard 1, 3 of 3 missing")
        status, out, err = self.merge("mutate", [d], part=True)
        self.assertIn("mutation score (shard 2 of 3): 0 killed of 3 (1 equivalent, 1 no-build)", out)
        self.assertEqual(status, 1)

    def test_a_clean_run_passes(self):
        whole = [x for x in items("mutate") if not x.startswith(("080", "117"))]
        d = os.path.join(self.tmp, "clean")
        os.makedirs(d)
        shards.write_json(os.path.join(d, "shard.json"),
                          shards.manifest("mutate", "round-robin", "", "t", whole))
        for x in whole:
            shutil.copytree(os.path.join(FX, "mutate", x), os.path.join(d, x))
        status, out, err = self.merge("mutate", [d])
        self.assertEqual((status, err), (0, ""))
        self.assertIn("mutation score: 5 killed of 6 (1 equivalent, 0 no-build)", out)

    def test_manifest_and_records(self):
        with self.assertRaises(shards.ShardError):
            shards.manifest("mutate", "round-robin", "", "t", ["a", "b", "a"])
        with self.assertRaises(shards.ShardError):
            shards.mutant_record("a", "0001", "dead", "1", "-")
        step = os.path.join(self.tmp, "step.json")
        with open(step, "w") as f:
            json.dump({"result": "pass"}, f)
        r = shards.commit_record("abc", "s", "-", "7", step)
        self.assertEqual(r, {"commit": "abc", "subject": "s", "checkpatch": None, "seconds": 7,
                             "step": {"result": "pass"}})


if __name__ == "__main__":
    unittest.main(verbosity=1)
