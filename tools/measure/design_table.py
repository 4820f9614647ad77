#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""design_table: docs/series.md's table of what each design stops (issue
40, item 6): the grant's attacks, each beside the same attack by a BPF
token's holder, made from a tip run's results (make ci).

Each cell states the outcome that its tests assert: a row is written only
when every test it names passed in the run, so that a table no run has
proven cannot be made. A name is "test/subtest", the subtest a shell
pattern (every subtest it matches must pass, and it must match one).

usage: design_table.py table RESULTS.json RUN.json
         the table (Markdown) of a results.json and run.json
       design_table.py cut RESULTS.json
         RESULTS.json with the subtests the table names only

RESULTS.json: verdict --json's results.json (ci/verdict.c, write_json).
RUN.json: {"date", "machine", "commit", "series"} (tools/lib/lib.sh,
measured_run_json).
Debian's python3, standard library only.
"""

import fnmatch
import json
import sys

# (attack, the grant's outcome, its tests, the token's outcome, its tests)
ROWS = [
    ("a device map entry naming a device of the initial network namespace",
     "stopped (patch 21)", ["grant_escape/devmap_other_netns"],
     "the entry is accepted: the token is CAP_NET_ADMIN in its user namespace, "
     "and no check asks about the device's namespace", ["token_bpffs/grant_escape"]),
    ("CPU time: `bpf_loop()`, programs past 4096 instructions, "
     "`BPF_F_TEST_STATE_FREQ`",
     "stopped at the load (patch 30)", ["grant_escape/cpu_time"],
     "reached: the token is CAP_BPF", ["token_bpffs/grant_escape"]),
    ("revocation",
     "`bpf-grant remove` stops new objects",
     ["bpf_grant/grant_app"],
     "unmounting the BPF FS takes no token back, and an fd opened before "
     "still makes one", ["token_bpffs/grant_escape"]),
    ("a refusal from an LSM", "wins", ["lsm_map_create/*"],
     "wins", ["token_bpffs/grant_and_token"]),
    ("a policy that takes back part of what was delegated",
     "the policy's grant hook refuses the object", ["lsm_map_create/*"],
     "the token's LSM hooks (patch 59) refuse the token, or take back a "
     "command or a capability", ["token_bpffs/lsm"]),
    ("a map's memory",
     "charged to the memory cgroup (stock, patches 27, 28)",
     ["grant_escape/memcg_every_map_type"],
     "charged the same (arrays until memory.max): those charges are not the "
     "grant's", ["token_bpffs/memory"]),
    ("BTF's memory", "charged to the memory cgroup (patch 22)",
     ["grant_escape/btf_memcg_bound"],
     "not charged, as v6.9", ["token_bpffs/memory"]),
    ("the perf events a perf_event_array keeps",
     "charged to the map's memory cgroup (patch 63)",
     ["grant_escape/perf_event_array_charged",
      "grant_escape/perf_event_array_one_event"],
     "not charged, as v6.9: all 32768 entries filled under memory.max 16 MiB, "
     "memory.current below the events held", ["grant_escape/token_perf_event_array"]),
    ("the JIT image, under the host-wide `bpf_jit_limit`",
     "charged to the memory cgroup (patch 39)",
     ["grant_escape/jit_memcg_bound", "grant_escape/memcg_every_prog_type"],
     "not charged, as v6.9 (`bpf_jit_charge_modmem()` asks `bpf_capable()`): "
     "images past memory.max load, memory.current below them",
     ["grant_escape/token_jit"]),
    ("cpumap threads and rings", "bounded (patch 24)",
     ["grant_escape/cpumap_threads_bound"],
     "not bounded past the delegation: with RLIMIT_NPROC at 0 a token's "
     "holder still starts a thread", ["token_bpffs/grant_escape"]),
    ("socket lookups: root's listener, other network namespaces",
     "stopped (patch 32)",
     ["grant_escape/sk_lookup_reach", "grant_escape/sk_storage_fill"],
     "reached: the token is CAP_BPF, and a test run asks for nothing; its "
     "program finds root's listener", ["grant_escape/token_sk_lookup"]),
    ("a program array pinned where root's `tc` reuses it (BPF FS 1777)",
     "root's classifier never tail-calls a granted program (patch 34)",
     ["grant_escape/tc_squat"],
     "a token's programs are not granted: root's classifier tail-calls "
     "the holder's, which drops root's datagrams",
     ["grant_escape/token_tc_squat"]),
]


def fail(msg):
    sys.stderr.write("design-table: %s\n" % msg)
    sys.exit(1)


def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))


def patterns():
    return sorted({n for row in ROWS for n in row[2] + row[4]})


def subtests(d):
    """(test, subtest, result) of every subtest of @d, each run of it"""
    for t in d.get("tests", []):
        for s in t.get("subtests", []):
            yield t.get("name", ""), s.get("name", ""), s.get("result", "")


def matches(name, test, sub):
    want_test, _, want_sub = name.partition("/")
    return test == want_test and fnmatch.fnmatchcase(sub, want_sub)


def check(d, path, name):
    """Fail unless every subtest @name matches in @d passed, and one does"""
    seen = [r for t, s, r in subtests(d) if matches(name, t, s)]
    if not seen:
        fail("%s has no result for %s: run make ci on the tip" % (path, name))
    bad = [r for r in seen if r != "pass"]
    if bad:
        fail("%s: %s did not pass (%s): the table states what it asserts" %
             (path, name, ", ".join(sorted(set(bad)))))


def esc(s):
    return s.replace("|", "\\|")


def tests_cell(names):
    return ", ".join("`%s`" % n for n in names)


def table(results_path, run_path):
    d, run = load(results_path), load(run_path)
    for name in patterns():
        check(d, results_path, name)
    out = ["Made by `make design-table` from `make ci`'s results of %s (%s; "
           "this repository at %s, the series' tip %s): each cell is what "
           "its tests assert, and every test named passed in that run."
           % (run["date"], run["machine"], run["commit"], run["series"]), "",
           "| attack | a grant, default rule | its tests | a token that allows "
           "the object | its tests |",
           "| --- | --- | --- | --- | --- |"]
    for attack, grant, gtests, token, ttests in ROWS:
        out.append("| %s | %s | %s | %s | %s |" % (
            esc(attack), esc(grant), tests_cell(gtests), esc(token), tests_cell(ttests)))
    return "\n".join(out) + "\n"


def cut(results_path):
    """@results_path with the subtests the table names only"""
    d = load(results_path)
    keep = []
    for t in d.get("tests", []):
        subs = [s for s in t.get("subtests", [])
                if any(matches(n, t.get("name", ""), s.get("name", "")) for n in patterns())]
        if subs:
            keep.append({"name": t.get("name", ""), "result": t.get("result", ""),
                         "subtests": [{"name": s.get("name", ""), "result": s.get("result", "")}
                                      for s in subs]})
    return json.dumps({"verdict": d.get("verdict", ""), "tests": keep}, indent=1) + "\n"


def main(argv):
    if len(argv) == 4 and argv[1] == "table":
        sys.stdout.write(table(argv[2], argv[3]))
    elif len(argv) == 3 and argv[1] == "cut":
        sys.stdout.write(cut(argv[2]))
    else:
        fail("usage: design_table.py table RESULTS.json RUN.json | cut RESULTS.json")


if __name__ == "__main__":
    main(sys.argv)
