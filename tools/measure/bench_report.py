#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench_report: make bench's tables and ratios, from the files of its run.

tools/measure/bench.sh builds, boots and times; this module reads what those
wrote in build/bench/ and does the arithmetic and the reports. Each
subcommand prints on stdout:

  rows KERNEL CLOCK ROUND LOG  hooks.csv's rows of one boot's console
                               (bpf-bench's "bench" lines); exit 1 if
                               there are none
  hooks HOOKS.csv RATIOS.csv ACCEL
                               write RATIOS.csv; print the table, the
                               targets, the granting policy's
                               unprivileged calls against stock's root,
                               and a token's holder's against both
                               (ACCEL: the wall-clock boots' accelerator)
  steps OUT                    the bisect step's table, from
                               OUT/{unchanged,edited,reverted}/times
  suite SUITE_TIMES            the boot-to-verdict lines ("ACCEL SECONDS"
                               lines, as bench.sh writes them)
  cold TIMES                   the cold make ci's stages and total
                               (TIMES: make ci's build/ci/times)
  floors DIR                   each stage against its floor, and each
                               test's seconds in the guest (DIR:
                               build/bench/floors, its times and
                               tests/results.json)
  kernel-cost CSV [TIMES]      the kernel builds of tools/measure/kernel-cost.sh
                               (CSV: its kernel-cost.csv), each against
                               the floor (tinyconfig); with TIMES (a
                               cold make ci's), its kernel stage too
  kernel-cost-doc update RUN_DIR FIXTURES DOC...
  kernel-cost-doc check FIXTURES DOC...
                               make kernel-cost's figures in documents
                               (tools/lib/docblock.py): RUN_DIR's
                               kernel-cost.csv and run.tsv, kept in
                               FIXTURES, between each DOC's
                               "<!-- kernel-cost begin -->" and "end"
  bench-doc update RUN_DIR FIXTURES DOC...
  bench-doc check FIXTURES DOC...
                               the same for the harness's own figures of
                               a make bench run (RUN_DIR's bench.json:
                               the steps, the suite, a cold make ci),
                               between "<!-- bench begin -->" and "end"
  json OUT ACCEL [DATE MACHINE]
                               bench.json of the run in OUT: every
                               figure above (docs/contracts.md); DATE
                               and MACHINE default to today and this
                               machine
  doc-check BENCH.json DOC     the figures of DOC (docs/measurements.md)
                               that bench.json has: one line per figure
                               that differs; exit 1 if any does

The files (tools/measure/bench.sh's header has hooks.csv's and ratios.csv's
columns):
  bpf-bench's lines, tab-separated (initramfs/bench/bpf-bench.c):
    bench CALL POLICY CALLER RESULT MEDIAN MIN MAX REPS ITERS
  OUT/STEP/times (tools/series/step.sh): "PHASE SECONDS" lines, a phase once a
    try (boot can come twice)
  build/ci/times (the Makefile's make ci): "STAGE SECONDS" lines
  kernel-cost.csv (tools/measure/kernel-cost.sh): variant,seconds,objects,per_floor

Debian's python3, standard library only.
"""

import datetime
import json
import os
import platform
import re
import sys

# tools/lib's modules; no __pycache__ in the checkout
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import docblock  # noqa: E402
import subcommand  # noqa: E402

HOOKS_HEADER = "kernel,clock,round,call,policy,caller,result,median,min,max,reps,iters"
# The targets: the tip with no policy against stock, a deferring policy's
# map creation against stock, a granting policy's unprivileged map
# creation against stock's root
TARGET_NONE = 0.99
TARGET_DEFER = 0.90
TARGET_GRANT = 0.90
# A call whose repetitions in one boot spread over more than this share
# of their median ((max - min) / median, on either kernel) is too noisy
# to hold to a target: its ratio is reported, not judged
SPREAD_MAX = 0.5
STEPS = ("unchanged", "edited", "reverted")
PHASES = ("kernel", "tests", "boot")


class BadInput(Exception):
    """An input file is missing or not what it should be."""


def read_lines(path):
    try:
        with open(path, newline="") as f:
            return f.read().splitlines()
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror))


def read_csv(path, header):
    """A CSV file whose first line is HEADER: (line number, fields) of
    each line after it"""
    lines = read_lines(path)
    if not lines or lines[0] != header:
        raise BadInput("%s: its first line is not %s" % (path, header))
    return [(n, line.split(",")) for n, line in enumerate(lines[1:], 2)]


# rows: bpf-bench's lines of one console, as hooks.csv's rows
def rows(kernel, clock, rnd, lines):
    out = []
    for line in lines:
        f = line.replace("\r", "").split("\t")
        if f[0] == "bench" and len(f) == 10:
            out.append(",".join([kernel, clock, rnd] + f[1:]))
    return out


# hooks: hooks.csv read into records
def read_hooks(path):
    recs = []
    for n, f in read_csv(path, HOOKS_HEADER):
        if len(f) != 12:
            raise BadInput("%s:%d: %d fields, not 12" % (path, n, len(f)))
        try:
            median, lo, hi = float(f[7]), float(f[8]), float(f[9])
        except ValueError:
            raise BadInput("%s:%d: a median, min or max that is not a number: %s"
                           % (path, n, ",".join(f[7:10])))
        recs.append({"kernel": f[0], "clock": f[1], "round": f[2], "call": f[3],
                     "policy": f[4], "caller": f[5], "result": f[6], "median": median,
                     "spread": (hi - lo) / median if median else 0.0})
    return recs


def means(recs):
    """(kernel, clock, call, caller, policy): [mean of the rounds' medians,
    the last round's result, the largest spread of a round], summed in
    the file's order"""
    acc = {}
    for r in recs:
        k = (r["kernel"], r["clock"], r["call"], r["caller"], r["policy"])
        a = acc.setdefault(k, [0.0, 0, None, 0.0])
        a[0] += r["median"]
        a[1] += 1
        a[2] = r["result"]
        a[3] = max(a[3], r["spread"])
    return {k: [s / n, res, sp] for k, (s, n, res, sp) in acc.items()}


def ratio_rows(recs):
    """The table's rows: each tip row and each stock kernel's alloc row,
    against stock with no policy, same clock, call and caller. ratio is
    None where the results differ (a refusal against a grant compares
    nothing)."""
    m = means(recs)
    out = []
    for k, (rate, res, spread) in m.items():
        kernel, clock, call, caller, policy = k
        if kernel != "tip" and policy != "alloc":
            continue
        stock = m.get(("base", clock, call, caller, "none"))
        if stock is None:
            continue
        ratio = float("%.3f" % (rate / stock[0])) if res == stock[1] else None
        out.append({"clock": clock, "call": call, "caller": caller, "kernel": kernel,
                    "policy": policy, "result": res, "stock": stock[0], "rate": rate,
                    "ratio": ratio, "spread": float("%.2f" % max(spread, stock[2]))})
    # clock, call, caller reversed (unpriv first), kernel, policy reversed
    # (sort -t, -k1,1 -k2,2 -k3,3r -k4,4 -k5,5r in the C locale)
    out.sort(key=lambda r: r["policy"], reverse=True)
    out.sort(key=lambda r: r["kernel"])
    out.sort(key=lambda r: r["caller"], reverse=True)
    out.sort(key=lambda r: (r["clock"], r["call"]))
    return out


def ratio_text(r):
    return "-" if r["ratio"] is None else "%.3f" % r["ratio"]


def ratios_csv(table):
    return ["%s,%s,%s,%s,%s,%s,%.0f,%.0f,%s" % (
        r["clock"], r["call"], r["caller"], r["kernel"], r["policy"], r["result"],
        r["stock"], r["rate"], ratio_text(r)) for r in table]


def targets(table):
    """The targets missed, as lines (none: all met)"""
    missed = []
    for r in table:
        if r["ratio"] is None or r["kernel"] != "tip" or r["clock"] != "icount":
            continue
        if r["spread"] > SPREAD_MAX:
            missed.append("not judged: %s %s at %.3f of stock: its repetitions spread over "
                          "%.0f%% of their median (limit %.0f%%)"
                          % (r["call"], r["caller"], r["ratio"], 100 * r["spread"],
                             100 * SPREAD_MAX))
            continue
        if r["policy"] == "none" and r["ratio"] < TARGET_NONE:
            missed.append("target missed: %s %s with no policy at %.3f of stock (target %.2f)"
                          % (r["call"], r["caller"], r["ratio"], TARGET_NONE))
        if r["policy"] == "defer" and r["call"].startswith("map_create") \
                and r["ratio"] < TARGET_DEFER:
            missed.append("target missed: %s %s with a deferring policy at %.3f of stock "
                          "(target %.2f)" % (r["call"], r["caller"], r["ratio"], TARGET_DEFER))
    return missed


def granted(recs):
    """A granting policy's unprivileged calls against stock's root, under
    icount, by call: ratio (None where the results differ), the results,
    the target (map creation only) and whether it is met"""
    m = means(r for r in recs if r["clock"] == "icount")
    out = []
    for (kernel, _, call, caller, policy), (stock, stock_res, _) in sorted(m.items()):
        if (kernel, caller, policy) != ("base", "root", "none"):
            continue
        tip = m.get(("tip", "icount", call, "unpriv", "grant"))
        if tip is None:
            continue
        ratio = tip[0] / stock if tip[1] == stock_res and stock else None
        target = TARGET_GRANT if call.startswith("map_create") else None
        out.append({"call": call, "ratio": ratio, "result": tip[1], "stock_result": stock_res,
                    "target": target,
                    "met": None if target is None else ratio is not None and ratio >= target})
    return out


def granted_lines(gs):
    out = []
    for g in gs:
        target = "" if g["target"] is None else " (target %.2f)" % g["target"]
        if g["ratio"] is None:
            line = "%s: granted unprivileged: %s, stock root: %s%s" % (
                g["call"], g["result"], g["stock_result"], target)
        else:
            line = "%s: granted unprivileged at %.3f of stock root%s" % (g["call"], g["ratio"], target)
        if g["met"] is False:
            line += ": target missed"
        out.append(line)
    return out


def token(recs):
    """A token's holder's calls (the tip's boots with policy token) under
    icount, by call, side by side with the granting policy's unprivileged
    caller of the same run: per_stock (over stock's root) and per_grant
    (over the granted caller), each None where the results differ or the
    run has no such row"""
    m = means(r for r in recs if r["clock"] == "icount")
    out = []
    for (kernel, _, call, caller, policy), (rate, res, _) in sorted(m.items()):
        if (kernel, caller, policy) != ("tip", "token", "token"):
            continue
        d = {"call": call, "result": res}
        for key, k in (("per_stock", ("base", "icount", call, "root", "none")),
                       ("per_grant", ("tip", "icount", call, "unpriv", "grant"))):
            other = m.get(k)
            d[key] = float("%.3f" % (rate / other[0])) \
                if other is not None and other[1] == res and other[0] else None
        out.append(d)
    return out


def token_lines(ts):
    def ratio(r, of):
        return "%s of %s" % ("-" if r is None else "%.3f" % r, of)
    return ["%s: a token's holder (%s) at %s, %s" % (
        t["call"], t["result"], ratio(t["per_stock"], "stock root"),
        ratio(t["per_grant"], "the granted caller")) for t in ts]


def hooks_report(recs, accel):
    table = ratio_rows(recs)
    w = max([20] + [len(r["call"]) for r in table])
    out = ["", "What the hooks cost (calls per second; icount: virtual time, wall: %s)" % accel,
           "clock  %-*s caller kernel policy result    stock/s    rate/s  /stock" % (w, "call")]
    for r in table:
        out.append("%-6s %-*s %-6s %-6s %-6s %-7s %9.0f %9.0f %7s" % (
            r["clock"], w, r["call"], r["caller"], r["kernel"], r["policy"], r["result"],
            r["stock"], r["rate"], ratio_text(r)))
    out.append("")
    out += targets(table) or ["targets met: no policy >= %.2f of stock, deferring map creation "
                              ">= %.2f" % (TARGET_NONE, TARGET_DEFER)]
    out += granted_lines(granted(recs))
    out += token_lines(token(recs))
    return table, out


# steps: a bisect step's seconds by phase
def read_times(path):
    """"NAME SECONDS" lines: [(name, seconds)], in order"""
    out = []
    for n, line in enumerate(read_lines(path), 1):
        f = line.split()
        if not f:
            continue
        try:
            out.append((f[0], float(f[1]) if len(f) > 1 else 0.0))
        except ValueError:
            raise BadInput("%s:%d: seconds that are not a number: %s" % (path, n, f[1]))
    return out


def step_times(times):
    """A phase's seconds (summed: a try's boot each), and the total"""
    d = {p: 0.0 for p in PHASES}
    total = 0.0
    for name, secs in times:
        d[name] = d.get(name, 0.0) + secs
        total += secs
    d["total"] = total
    return d


def read_steps(out):
    return {s: step_times(read_times(os.path.join(out, s, "times"))) for s in STEPS}


def steps_report(steps):
    out = ["", "One bisect step (smoke/root_creates_array), seconds",
           "%-10s %10s %10s %10s %10s" % ("step", "kernel", "tests", "boot", "total")]
    for s in STEPS:
        t = steps[s]
        out.append("%-10s %9.1fs %9.1fs %9.1fs %9.1fs" % (s, t["kernel"], t["tests"], t["boot"], t["total"]))
    for s in STEPS[1:]:
        out.append("%s step / unchanged step: %.1f" % (s, steps[s]["total"] / steps["unchanged"]["total"]))
    return out


def suite_report(suite):
    return ["boot to verdict, whole suite, %s: %.1f s" % (a, secs) for a, secs in suite]


def cold_report(times):
    out = ["", "Cold make ci (a clone of HEAD, empty build/ and ccache), seconds"]
    out += ["%-10s %6d" % (name, int(secs)) for name, secs in times]
    out.append("%-10s %6d" % ("total", int(sum(secs for _, secs in times))))
    return out


# floors: each stage's time in floors/times, against its floor's
FLOORS = (("import_cold", "import, an empty cache", "tar"),
          ("import_cached", "import, from the cache", "tar"),
          ("kernel_warm", "kernel, an empty object directory, warm ccache", "relink"),
          ("boot_tests", "boot, each test once, to the verdict", "boot_floor"))
FLOOR_NAMES = {"tar": "tar -x of the tarball", "relink": "make kernel, nothing changed",
               "boot_floor": "boot to an init that powers off"}


def floors(d):
    """{stages: [{stage, what, seconds, floor, floor_seconds, ratio}],
    tests: {test: its subtests' seconds in the guest, or None}} of the
    floors part's directory @d"""
    times = dict(read_times(os.path.join(d, "times")))
    stages = []
    for stage, what, floor in FLOORS:
        if stage not in times or floor not in times:
            raise BadInput("%s/times: no %s or no %s" % (d, stage, floor))
        stages.append({"stage": stage, "what": what, "seconds": round(times[stage], 1),
                       "floor": floor, "floor_seconds": round(times[floor], 1),
                       "ratio": round(times[stage] / times[floor], 2) if times[floor] else None})
    path = os.path.join(d, "tests", "results.json")
    try:
        with open(path) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("%s: %s" % (path, e))
    tests = {}
    for t in results.get("tests", []):
        secs = [st["seconds"] for st in t.get("subtests", []) if "seconds" in st]
        tests[t["name"]] = round(sum(secs), 1) if secs else None
    return {"stages": stages, "tests": tests}


def floors_report(fl):
    out = ["", "Each stage against its floor, seconds (this run)"]
    for st in fl["stages"]:
        out.append("%-48s %7.1f   %-32s %7.1f   %s" % (
            st["what"], st["seconds"], FLOOR_NAMES[st["floor"]], st["floor_seconds"],
            "-" if st["ratio"] is None else "%.2f times" % st["ratio"]))
    out += ["", "Each test's subtests in the guest, seconds (that boot)"]
    out += ["%-24s %s" % (t, "-" if s is None else "%.1f" % s)
            for t, s in sorted(fl["tests"].items(), key=lambda i: -(i[1] or 0))]
    return out


KERNEL_COST_HEADER = "variant,seconds,objects,per_floor"


def read_kernel_cost(path):
    """kernel-cost.csv: [{variant, seconds, objects}], in order; the floor
    (tinyconfig) must be among them"""
    out = []
    for n, f in read_csv(path, KERNEL_COST_HEADER):
        try:
            out.append({"variant": f[0], "seconds": int(f[1]), "objects": int(f[2])})
        except (IndexError, ValueError):
            raise BadInput("%s:%d: not %s: %s" % (path, n, KERNEL_COST_HEADER, ",".join(f)))
    if not any(v["variant"] == "floor" for v in out):
        raise BadInput("%s: no floor (tinyconfig) build to compare with" % path)
    return out


def kernel_cost(variants, times=None):
    """bench.json's kernel_cost: each build over the floor's, and a cold
    make ci's kernel stage over it where its TIMES are given"""
    floor = next(v["seconds"] for v in variants if v["variant"] == "floor")
    d = {"floor": floor,
         "builds": [dict(v, per_floor=round(v["seconds"] / floor, 2)) for v in variants],
         "cold_kernel": None, "cold_kernel_per_floor": None}
    stage = dict(times or []).get("kernel")
    if stage is not None:
        d["cold_kernel"] = int(stage)
        d["cold_kernel_per_floor"] = round(stage / floor, 2)
    return d


def kernel_cost_report(d):
    out = ["", "Kernel builds from scratch, one after the other (seconds, objects, over the floor)"]
    out += ["%-16s %6d %6d %6.2f" % (v["variant"], v["seconds"], v["objects"], v["per_floor"])
            for v in d["builds"]]
    if d["cold_kernel"] is not None:
        out.append("the cold make ci's kernel stage: %d s, %.2f times the floor"
                   % (d["cold_kernel"], d["cold_kernel_per_floor"]))
    return out


KERNEL_COST_RUN = ("kernel-cost.csv", "run.tsv")
# What each variant of tools/measure/kernel-cost.sh leaves out, for the table
KERNEL_COST_WHAT = {
    "floor": "`tinyconfig` alone",
    "full": "`make ci`'s config (`ci/kernel.config`)",
    "full-ccache": "the same through an empty ccache: a cold `make ci`'s kernel stage",
    "no-btf": "`make ci`'s config without BTF",
    "no-debuginfo": "`make ci`'s config without debug info (and so without BTF)",
    "no-selftest-net": "`make ci`'s config without IPv6 and netfilter",
}


def kernel_cost_doc(fixtures):
    """The block a document quotes: when and where, then the builds."""
    run = dict(line.split("\t", 1) for line in read_lines(os.path.join(fixtures, "run.tsv")))
    d = kernel_cost(read_kernel_cost(os.path.join(fixtures, "kernel-cost.csv")))
    lines = [docblock.heading("kernel-cost", run, "build/kernel-cost/kernel-cost.csv",
                              "kernel-cost-doc") +
             " Each kernel is built from scratch, one after the other, from the same tree.",
             "", "| build | seconds | objects | over the floor |", "| --- | --- | --- | --- |"]
    what = dict(KERNEL_COST_WHAT)
    what["full-ccache"] += " (ccache in %s mode)" % run.get("ccache", "-")
    lines += ["| %s | %d | %d | %.2f |" % (what.get(v["variant"], v["variant"]),
                                          v["seconds"], v["objects"], v["per_floor"])
              for v in d["builds"]]
    return "\n".join(lines) + "\n"


# bench-doc: the harness's own figures of a run's bench.json
BENCH_RUN = ("bench.json",)


def bench_doc(fixtures):
    """The block a document quotes: when and where, then the inner loop
    (a bisect step is make test's stages on the steps worktree), the
    whole suite's boot and a cold make ci, those of them the run has."""
    try:
        with open(os.path.join(fixtures, "bench.json")) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("%s: %s" % (os.path.join(fixtures, "bench.json"), e))
    lines = ["From `make bench` on %s (%s, QEMU %s), `build/bench/bench.json`; "
             "`make bench-doc` rewrites this block." % (d["date"], d["machine"], d["accel"]),
             "", "| what | seconds |", "| --- | --- |"]
    steps = d.get("steps")
    if steps:
        def step(s):
            t = steps[s]
            return "%.1f (kernel %.1f, tests %.1f, boot %.1f)" % (
                t["total"], t["kernel"], t["tests"], t["boot"])
        base = steps["unchanged"]["total"]
        lines += ["| one bisect step with one test, nothing changed: the floor under "
                  "`make test` | %s |" % step("unchanged"),
                  "| the same after an edit of `kernel/bpf/syscall.c`: from an edit to "
                  "a verdict | %s: %.1f times the floor |"
                  % (step("edited"), steps["edited"]["total"] / base),
                  "| the same, the edit reverted (ccache hit) | %s: %.1f times |"
                  % (step("reverted"), steps["reverted"]["total"] / base)]
    for accel, secs in sorted((d.get("suite") or {}).items()):
        lines.append("| boot to verdict, whole suite (`make boot verdict`), %s | %.1f |"
                     % (accel.upper(), secs))
    cold = d.get("cold")
    if cold:
        lines.append("| a cold `make ci` (a clone of `HEAD`, empty `build/` and ccache) | "
                     "%d: %s |" % (cold["total"], ", ".join(
                         "%s %d" % kv for kv in cold["stages"].items())))
    if len(lines) == 4:
        raise BadInput("%s: no steps, suite or cold figures" % fixtures)
    return "\n".join(lines) + "\n"


# json: bench.json (docs/contracts.md)
def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %s, %d CPUs" % (platform.machine(), cpu, os.cpu_count() or 0)


def bench_json(out, accel, date=None, mach=None):
    """Every figure of the run in @out that is there: a part whose files
    are missing (the run stopped before it) is null"""
    def opt(path, read):
        return read(path) if os.path.exists(path) else None

    d = {"date": date or datetime.date.today().isoformat(),
         "machine": mach or machine(), "accel": accel,
         "rounds": None, "hooks": None, "targets_missed": None, "granted": None, "token": None,
         "steps": None, "suite": None, "cold": None, "kernel_cost": None, "floors": None}
    recs = opt(os.path.join(out, "hooks.csv"), read_hooks)
    if recs is not None:
        d["rounds"] = len({r["round"] for r in recs if r["clock"] == "icount"})
        table = ratio_rows(recs)
        d["hooks"] = [{k: round(r[k]) if k in ("stock", "rate") else r[k] for k in r}
                      for r in table]
        d["targets_missed"] = targets(table)
        d["granted"] = [dict(g, ratio=None if g["ratio"] is None else float("%.3f" % g["ratio"]))
                        for g in granted(recs)]
        d["token"] = token(recs)
    if all(os.path.exists(os.path.join(out, s, "times")) for s in STEPS):
        d["steps"] = {s: {k: round(v, 1) for k, v in t.items()}
                      for s, t in read_steps(out).items()}
    suite = opt(os.path.join(out, "suite-times"), read_times)
    if suite is not None:
        d["suite"] = {a: round(secs, 1) for a, secs in suite}
    cold = opt(os.path.join(out, "cold-times"), read_times)
    if cold is not None:
        d["cold"] = {"stages": {name: int(secs) for name, secs in cold},
                     "total": int(sum(secs for _, secs in cold))}
    variants = opt(os.path.join(out, "kernel-cost", "kernel-cost.csv"), read_kernel_cost)
    if variants is not None:
        d["kernel_cost"] = kernel_cost(variants, cold)
    if os.path.exists(os.path.join(out, "floors", "times")):
        d["floors"] = floors(os.path.join(out, "floors"))
    return d


# doc-check: docs/measurements.md's figures against a bench.json
DOC_CALLS = {"map create, array": "map_create_array",
             "map create, hash + BTF": "map_create_hash_btf",
             "BTF load": "btf_load", "prog load, socket filter": "prog_load"}
# the columns of the doc's table of ratios after call and caller
DOC_COLUMNS = (("tip", "none"), ("tip", "defer"), ("tip", "grant"), ("base", "alloc"))


# the table of map creation by type: the tip with no policy, root in a
# memory cgroup (bpf-bench's caller "memcg")
DOC_TYPE_HEADER = "| map type (icount) |"
DOC_TYPE_PREFIX = "map_create_type_"


def table_rows(lines, header):
    """The rows after the line that starts with @header, as lists of
    cells, up to the first line that is not the table's"""
    on = False
    for line in lines:
        if line.startswith(header):
            on = True
            continue
        if on and not line.startswith("|"):
            break
        if on and not line.startswith("| ---"):
            yield line, [c.strip() for c in line.strip().strip("|").split("|")]


def doc_ratios(lines):
    """docs/measurements.md's tables of icount ratios: {(call, caller,
    kernel, policy): text}"""
    out = {}
    for line, cells in table_rows(lines, "| call (icount) |"):
        if len(cells) != 2 + len(DOC_COLUMNS) or cells[0] not in DOC_CALLS:
            raise BadInput("a row of the table of ratios that is not call, caller and %d "
                           "ratios: %s" % (len(DOC_COLUMNS), line))
        for (kernel, policy), text in zip(DOC_COLUMNS, cells[2:]):
            out[(DOC_CALLS[cells[0]], cells[1], kernel, policy)] = text
    for line, cells in table_rows(lines, DOC_TYPE_HEADER):
        if len(cells) != 2:
            raise BadInput("a row of the table of map types that is not a type and a "
                           "ratio: %s" % line)
        out[(DOC_TYPE_PREFIX + cells[0], "memcg", "tip", "none")] = cells[1]
    return out


def doc_check(d, lines):
    """The doc's figures that differ from bench.json's, as lines"""
    out = []
    m = re.search(r"one boot per policy, in (\w+) rounds", " ".join(lines))
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    if m and d.get("rounds") is not None and words.get(m.group(1)) != d["rounds"]:
        out.append("rounds: the document says %s, bench.json %d" % (m.group(1), d["rounds"]))
    have = {(r["call"], r["caller"], r["kernel"], r["policy"]): r
            for r in d.get("hooks") or [] if r["clock"] == "icount"}
    table = doc_ratios(lines)
    if not table:
        out.append("no table of ratios (| call (icount) | ...) in the document")
    for k, text in sorted(table.items()):
        r = have.get(k)
        got = "nothing" if r is None else ratio_text(r)
        if got != text:
            out.append("%s %s, %s %s: the document says %s, bench.json %s"
                       % (k[0], k[1], k[2], k[3], text, got))
    return out


def run(cmd, args):
    """The exit status of subcommand CMD with ARGS; None where there is no
    such subcommand or these are not its arguments"""
    if cmd == "rows" and len(args) == 4:
        r = rows(args[0], args[1], args[2], read_lines(args[3]))
        for line in r:
            print(line)
        if not r:
            print("bench_report: no bench lines in %s; see the console there" % args[3],
                  file=sys.stderr)
            return 1
    elif cmd == "hooks" and len(args) == 3:
        table, out = hooks_report(read_hooks(args[0]), args[2])
        with open(args[1], "w") as f:
            f.writelines(line + "\n" for line in ratios_csv(table))
        print("\n".join(out))
    elif cmd == "steps" and len(args) == 1:
        print("\n".join(steps_report(read_steps(args[0]))))
    elif cmd == "suite" and len(args) == 1:
        print("\n".join(suite_report(read_times(args[0]))))
    elif cmd == "cold" and len(args) == 1:
        print("\n".join(cold_report(read_times(args[0]))))
    elif cmd == "floors" and len(args) == 1:
        print("\n".join(floors_report(floors(args[0]))))
    elif cmd == "kernel-cost" and len(args) in (1, 2):
        times = read_times(args[1]) if len(args) == 2 else None
        print("\n".join(kernel_cost_report(kernel_cost(read_kernel_cost(args[0]), times))))
    elif cmd == "bench-doc":
        return docblock.command(args, BENCH_RUN, "bench", bench_doc,
                                "make bench-doc after make bench", __doc__)
    elif cmd == "kernel-cost-doc":
        return docblock.command(args, KERNEL_COST_RUN, "kernel-cost", kernel_cost_doc,
                                "make kernel-cost-doc after make kernel-cost", __doc__)
    elif cmd == "json" and len(args) in (2, 4):
        json.dump(bench_json(*args), sys.stdout, indent=1)
        print()
    elif cmd == "doc-check" and len(args) == 2:
        try:
            with open(args[0]) as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            raise BadInput("%s: %s" % (args[0], e))
        diffs = doc_check(d, read_lines(args[1]))
        for line in diffs:
            print(line)
        return 1 if diffs else 0
    else:
        return None
    return 0


if __name__ == "__main__":
    sys.exit(subcommand.main(sys.argv, "bench_report", __doc__, BadInput, run))
