#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""shards: make mutate and make series-check split across runners.

A run of either takes a list of items (mutants, or commits from base to
the tip), in order. SHARD=i/N makes it run only shard i's share of them,
by a fixed rule (pick below), into a shard directory of its own; a merge
reads the per-item result files of every shard and gives the table and
score that one run of the whole list gives. An unsharded run is shard
1/1, merged by the same code: so "merged shards = one run" holds by
construction, as long as the shards together ran every item once, which
the merge checks.

A shard directory (docs/contracts.md) holds:
  shard.json      the manifest, written before the first item runs:
                  stage, split, shard, of, tip, items (the whole run's
                  items, in order, not only this shard's)
  ITEM/mutant.json or ITEM/commit.json
                  one item's result, written when it is done

usage: shards.py COMMAND ARGS...
  pick SPLIT SHARD ITEM...      the items shard SHARD ("i/N"; "" for all)
                                takes, one a line; SPLIT: round-robin
                                (item k to shard k mod N + 1) or
                                contiguous (N runs of consecutive items)
  manifest FILE STAGE SPLIT SHARD TIP ITEM...
                                write shard.json
  mutant-write FILE NAME PATCH RESULT SECONDS STEP.json
  commit-write FILE COMMIT SUBJECT CHECKPATCH SECONDS STEP.json
  mutate-merge [--part] OUT DIR...
                                OUT/results.tsv and OUT/table.txt (printed
                                too) from the shard directories DIR...;
                                exit 1 when a mutant survived without an
                                Equivalent: field or did not build
  series-merge [--part] OUT DIR...
                                OUT/series.json and OUT/table.txt (printed
                                too); exit 1 when a commit did not pass
  matrix COUNT PER              N = ceil(COUNT / PER) shards: "n=N" and
                                "shards=[1, ..., N]" (for $GITHUB_OUTPUT)

--part: DIR... need not be every shard of the run (a shard's own table,
after it ran); without it, they must be exactly shards 1 to N of one run.

Debian's python3, standard library only.
"""

import json
import os
import sys

# tools/lib's modules; no __pycache__ in the checkout
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import results  # noqa: E402

SPLITS = ("round-robin", "contiguous")
# what each stage writes per item, and how it splits: every mutant is
# built from the tip, so round robin evens out the cost; each commit of
# the series is built incrementally from the one before it, so a shard
# takes consecutive commits
STAGES = {"mutate": ("mutant.json", "round-robin"),
          "series-check": ("commit.json", "contiguous")}
MUTANT_RESULTS = ("killed", "survived", "equivalent", "no-build")


class ShardError(Exception):
    """What the shards hold does not make one run."""


def parse_shard(shard):
    """(i, n) of "i/N", 1 <= i <= N; (1, 1) for ""."""
    if shard == "":
        return 1, 1
    i, sep, n = shard.partition("/")
    if not (sep and i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)
            and not i.startswith("0") and not n.startswith("0")):
        raise ShardError("SHARD=%s: give i/N, 1 <= i <= N (e.g. SHARD=2/4)" % shard)
    return int(i), int(n)


def pick(items, i, n, split):
    """The items of shard i of n (1-based), in their order."""
    if split == "round-robin":
        return [x for k, x in enumerate(items) if k % n == i - 1]
    if split == "contiguous":
        size = len(items)
        return items[(i - 1) * size // n:i * size // n]
    raise ShardError("split %r is not one of %s" % (split, SPLITS))


def write_json(path, d):
    with open(path + ".tmp", "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def manifest(stage, split, shard, tip, items):
    if stage not in STAGES:
        raise ShardError("stage %r is not one of %s" % (stage, tuple(STAGES)))
    if split not in SPLITS:
        raise ShardError("split %r is not one of %s" % (split, SPLITS))
    i, n = parse_shard(shard)
    if len(set(items)) != len(items):
        raise ShardError("an item is listed twice: %s" % " ".join(items))
    return {"stage": stage, "split": split, "shard": i, "of": n, "tip": tip,
            "items": list(items)}


def mutant_record(name, patch, result, seconds, step):
    if result not in MUTANT_RESULTS:
        raise ShardError("mutant result %r is not one of %s" % (result, MUTANT_RESULTS))
    return {"mutant": name, "patch": patch, "result": result,
            "seconds": int(seconds), "step": results.load(step)}


def commit_record(commit, subject, checkpatch, seconds, step):
    """series.json's row (docs/contracts.md) for one commit"""
    return {"commit": commit, "subject": subject,
            "checkpatch": results.checkpatch_counts(checkpatch),
            "seconds": int(seconds), "step": results.load(step)}


def load_shard(d):
    path = os.path.join(d, "shard.json")
    if not os.path.isfile(path):
        raise ShardError("%s: no shard.json; not a shard directory, or the shard "
                         "stopped before it started" % d)
    try:
        m = results.load(path)
    except results.NotResults as e:
        raise ShardError(str(e))
    keys = ("stage", "split", "shard", "of", "tip", "items")
    if not isinstance(m, dict) or not all(k in m for k in keys):
        raise ShardError("%s: not a shard manifest (wants %s)" % (path, ", ".join(keys)))
    return m


def collect(stage, dirs, part):
    """The manifest the shards share, and {item: its result}, after
    checking that the shards in DIRS are one run's (with part False:
    exactly shards 1 to N) and that each holds a result for every item
    of its share, and for no other item."""
    if not dirs:
        raise ShardError("no shard directory to merge")
    fname = STAGES[stage][0]
    seen = {}
    first = None
    rows = {}
    for d in dirs:
        m = load_shard(d)
        if m["stage"] != stage:
            raise ShardError("%s: a shard of %s, not of %s" % (d, m["stage"], stage))
        if first is None:
            first = m
        for k in ("split", "of", "tip", "items"):
            if m[k] != first[k]:
                raise ShardError("%s and %s are not shards of one run: their %s differ "
                                 "(remove the other run's directories)" % (dirs[0], d, k))
        i = m["shard"]
        if i in seen:
            raise ShardError("shard %d/%d twice: %s and %s" % (i, m["of"], seen[i], d))
        seen[i] = d
        mine = pick(m["items"], i, m["of"], m["split"])
        for x in mine:
            path = os.path.join(d, x, fname)
            if not os.path.isfile(path):
                raise ShardError("shard %d/%d (%s) has no result for %s: %s is missing"
                                 % (i, m["of"], d, x, path))
            rows[x] = results.load(path)
        # a result of an item this shard was not given: the rule changed
        # between the run and the merge, or directories were mixed
        for x in sorted(os.listdir(d)):
            if x not in mine and os.path.isfile(os.path.join(d, x, fname)):
                raise ShardError("shard %d/%d (%s) holds a result for %s, which is not "
                                 "in its share" % (i, m["of"], d, x))
    if not part:
        missing = [str(i) for i in range(1, first["of"] + 1) if i not in seen]
        if missing:
            raise ShardError("shard %s of %d missing: merge every shard of the run"
                             % (", ".join(missing), first["of"]))
        if sorted(rows) != sorted(first["items"]):
            raise ShardError("the shards do not cover the run's items")
    return first, sorted(seen), rows


def title(m, shards, part):
    if part and (m["of"] != 1):
        return " (shard %s of %d)" % (",".join(map(str, shards)), m["of"])
    return ""


def mutate_merge(out, dirs, part, stdout, stderr):
    m, shards, rows = collect("mutate", dirs, part)
    order = [x for x in m["items"] if x in rows]
    tsv = "".join("%s\t%s\t%s\t%d\n" % (x, rows[x]["patch"], rows[x]["result"],
                                         rows[x]["seconds"]) for x in order)
    w = max([len(x) for x in order] + [len("mutant")])
    fmt = "%-" + str(w) + "s  %-6s %-11s %s\n"
    table = fmt % ("mutant", "patch", "result", "seconds")
    for x in order:
        table += fmt % (x, rows[x]["patch"], rows[x]["result"], rows[x]["seconds"])

    def with_(r):
        return [x for x in order if rows[x]["result"] == r]
    table += ("mutation score%s: %d killed of %d (%d equivalent, %d no-build)\n"
              % (title(m, shards, part), len(with_("killed")), len(order),
                 len(with_("equivalent")), len(with_("no-build"))))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.tsv"), "w") as f:
        f.write(tsv)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    stdout.write("\n" + table)
    status = 0
    if with_("no-build"):
        stderr.write("mutate: no-build, counted neither killed nor survived: %s; make "
                     "them build (see each one's kernel.log, tests.log)\n"
                     % " ".join(with_("no-build")))
        status = 1
    if with_("survived"):
        stderr.write("mutate: survived: %s; add a test that fails on each, or an "
                     "Equivalent: line saying why none can\n" % " ".join(with_("survived")))
        status = 1
    return status


def series_merge(out, dirs, part, stdout, stderr):
    m, shards, rows = collect("series-check", dirs, part)
    commits = [rows[x] for x in m["items"] if x in rows]
    os.makedirs(out, exist_ok=True)
    write_json(os.path.join(out, "series.json"), {"commits": commits})
    table = results.series_table(commits)
    failed = [r["commit"] for r in commits if r["step"]["result"] != "pass"]
    table += "series-check%s: %d of %d commits pass\n" % (
        title(m, shards, part), len(commits) - len(failed), len(commits))
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table)
    stdout.write("\n" + table)
    if failed:
        stderr.write("series-check: does not build or its tests fail: %s\n" % " ".join(failed))
        return 1
    return 0


def matrix(count, per):
    n = max(1, -(-count // per))
    return "n=%d\nshards=%s\n" % (n, json.dumps(list(range(1, n + 1))))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    part = bool(args) and args[0] == "--part"
    if part:
        args = args[1:]
    try:
        if cmd == "pick" and len(args) >= 2:
            i, n = parse_shard(args[1])
            for x in pick(args[2:], i, n, args[0]):
                print(x)
        elif cmd == "manifest" and len(args) >= 5:
            write_json(args[0], manifest(*args[1:5], args[5:]))
        elif cmd == "mutant-write" and len(args) == 6:
            write_json(args[0], mutant_record(*args[1:]))
        elif cmd == "commit-write" and len(args) == 6:
            write_json(args[0], commit_record(*args[1:]))
        elif cmd == "mutate-merge" and len(args) >= 2:
            return mutate_merge(args[0], args[1:], part, sys.stdout, sys.stderr)
        elif cmd == "series-merge" and len(args) >= 2:
            return series_merge(args[0], args[1:], part, sys.stdout, sys.stderr)
        elif cmd == "matrix" and len(args) == 2 and all(a.isdigit() for a in args) \
                and int(args[1]) > 0:
            sys.stdout.write(matrix(int(args[0]), int(args[1])))
        else:
            sys.stderr.write(__doc__)
            return 2
    except (ShardError, results.NotResults) as e:
        print("shards: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
