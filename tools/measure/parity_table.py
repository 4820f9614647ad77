#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""parity_table: docs/container.md's parity table, and the fixtures it is
made from (tools/measure/parity-table.sh has the formats and the workflow; its
shell keeps the update's files and the document's markers).

usage: parity_table.py table TIP.json BASE.json RUN.json
         the table (Markdown) of two results.json files and run.json
       parity_table.py cut RESULTS.json
         RESULTS.json with container_tools and its parity subtest only

Debian's python3, standard library only.
"""

import json
import sys


def fail(msg):
    sys.stderr.write("parity-table: %s\n" % msg)
    sys.exit(1)


def records(path):
    """The parity records of each container_tools run in @path, in order"""
    try:
        d = json.load(open(path))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
    runs = []
    for t in d.get("tests", []):
        if t.get("name") != "container_tools":
            continue
        for s in t.get("subtests", []):
            if s.get("name") != "parity":
                continue
            recs = []
            for line in s.get("diagnostics", []):
                if not line.startswith("# parity "):
                    continue
                try:
                    recs.append(json.loads(line[len("# parity "):]))
                except ValueError:
                    fail("%s: a parity record that is not JSON: %s" % (path, line))
            if recs:
                runs.append(recs)
    if not runs:
        fail("%s has no parity records (container_tools/parity): run make ci and make ci-base" % path)
    return runs


def merge(runs, col):
    """step id -> (cmd, cell) of column @col, runs that differ joined"""
    out, order = {}, []
    for recs in runs:
        for r in recs:
            if "step" not in r:
                continue
            cell = r.get(col, "") or "not run (subtest not selected)"
            if r["step"] not in out:
                order.append(r["step"])
                out[r["step"]] = (r.get("cmd", r["step"]), [cell])
            elif cell not in out[r["step"]][1]:
                out[r["step"]][1].append(cell)
    return order, {k: (v[0], " / ".join(v[1]) + (" (runs differ)" if len(v[1]) > 1 else ""))
                   for k, v in out.items()}


def kernel(runs):
    ks = sorted({r["run"]["kernel"] + (", grant hooks" if r["run"].get("grant_hooks") else ", no grant hooks")
                 for recs in runs for r in recs if "run" in r})
    return " / ".join(ks) or "unknown"


def esc(s):
    return s.replace("|", "\\|")


def table(tip_path, base_path, run_path):
    tip, base = records(tip_path), records(base_path)
    try:
        run = json.load(open(run_path))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (run_path, e))
    cols = [("stock, root", base, "root"),
            ("stock, rootless, Debian 12", base, "no_rule"),
            ("stock, rootless, Debian 13", base, "no_rule_d13"),
            ("tip, granted, Debian 12", tip, "rule"),
            ("tip, granted, Debian 13", tip, "rule_d13"),
            ("tip, token, Debian 13", tip, "token_d13"),
            ("tip, token, Debian 12", tip, "token_d12"),
            ("tip, no rule, no token", tip, "no_rule")]
    merged = [merge(runs, col) for _, runs, col in cols]
    order = merged[0][0] + [s for m in merged[1:] for s in m[0] if s not in merged[0][0]]
    order = list(dict.fromkeys(order))

    try:
        at = "this repository at %s, the series' tip %s" % (run["commit"], run["series"])
    except KeyError as e:
        fail("%s has no %s: make parity-table writes it" % (run_path, e))
    print("Measured %s on %s, %s; stock: %s, tip: %s (`make parity-table`, from the results of"
          % (run["date"], run["machine"], at, kernel(base), kernel(tip)))
    print("`make ci` and `make ci-base`; do not edit by hand)")
    print()
    print("| step | " + " | ".join(c[0] for c in cols) + " |")
    print("| --- " * (len(cols) + 1) + "|")
    for s in order:
        cmd = next((m[1][s][0] for m in merged if s in m[1]), s)
        cells = [m[1][s][1] if s in m[1] else "no record" for m in merged]
        print("| %s | %s |" % (esc(cmd), " | ".join(esc(c) for c in cells)))
    # the steps that work as root on stock and not the same way in a
    # delegated container, per design and tools
    print()
    for i in (3, 4, 5):
        differ = [next((m[1][s][0] for m in merged if s in m[1]), s) for s in order
                  if s in merged[0][1] and s in merged[i][1]
                  and merged[0][1][s][1] == "works" and merged[i][1][s][1] != "works"]
        name = cols[i][0].replace("tip, ", "")
        if differ:
            print("- Works as root on stock, not the same way %s: %s."
                  % (name, "; ".join(esc(c) for c in differ)))
        else:
            print("- Every step that works as root on stock works %s." % name)


def cut(path):
    """@path with container_tools and its parity subtest only"""
    d = json.load(open(path))
    tests = []
    for t in d.get("tests", []):
        if t.get("name") == "container_tools":
            t = dict(t, subtests=[s for s in t.get("subtests", []) if s.get("name") == "parity"])
            t.pop("diagnostics", None)
            tests.append(t)
    print(json.dumps({"verdict": d.get("verdict"), "reason": d.get("reason"),
                      "tests": tests}, indent=1))


def main(argv):
    if len(argv) == 5 and argv[1] == "table":
        table(*argv[2:5])
    elif len(argv) == 3 and argv[1] == "cut":
        cut(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
