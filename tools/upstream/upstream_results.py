#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The results of make upstream-selftests, from the guest's console.

tools/upstream/upstream-selftests.sh builds, boots and calls this module for every
file it writes from a console log; the file formats are described there.
Each subcommand reads its arguments' files and writes one file on stdout:

  parse LOG NAMES SPLATS      results.tsv of one boot (NAMES: the build's
                              test_verifier.names; SPLATS: ci/splats,
                              read by the verdict's own reader: $VERDICT,
                              default build/tools/verdict --match);
                              exit 1 if test_verifier's results do not add
                              up to its own summary
  tp LOG                      test_progs.tsv of one boot
  compare BASE_TSV TIP_TSV    compare.tsv
  rerun-list COMPARE_TSV      rerun.list
  verdicts RERUN_LIST BASE_TP... -- TIP_TP...
                              rerun.tsv, from every run of each kernel
                              (the first boot's and the reruns')
  report COMPARE_TSV RERUN_TSV
                              the lists side by side; exit 1 on a
                              verdict of FAILING: a test the tip fails
                              more often than base by more than chance
                              explains, or with no result on the tip
  base-failures LOG TP_TSV CAUSES
                              base-failures.tsv (CAUSES: ci/upstream.causes)
  summary BASE_TP TIP_TP BASE_FAILURES SECONDS
                              summary.tsv
  durations LOG               how long each test binary of a boot ran
  doc update OUT FIXTURES DOC...
  doc check FIXTURES DOC...   the run's figures in documents: "update"
                              copies OUT's summary, compare, rerun and
                              base-failures files into FIXTURES and
                              writes its Markdown (dated, with the
                              machine) between each DOC's
                              "<!-- upstream-selftests begin -->" and
                              "end" markers; "check" exits 1 unless each
                              DOC's block is that of FIXTURES
                              (tools/lib/docblock.py)
  markdown OUT                the run in OUT as Markdown: the figures,
                              the tests whose results differ (with their
                              rerun verdicts), the failures on base by
                              cause (for GitHub's job summary and
                              docs/upstream-selftests.md)

The console log is upstream-init's (initramfs/upstream-init gives its
markers); carriage returns are dropped.
"""

import collections
import math
import os
import re
import subprocess
import sys

# tools/lib's modules; no __pycache__ in the checkout
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import docblock  # noqa: E402

RESULTS = ("pass", "fail", "skip")


def read_log(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\n").replace("\r", "") for line in f]


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


class Splats:
    """ci/splats, as the verdict reads it: the kernel reports among a
    log's lines, by the rules of file PATH, found by verdict --match
    (ci/splats.c), so that the rules have one reader."""

    def __init__(self, path):
        self.path = path
        self.verdict = os.environ.get("VERDICT") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "tools", "verdict")
        if not os.access(self.verdict, os.X_OK):
            sys.exit("upstream_results: %s is missing; build it with make build/tools/verdict"
                     % self.verdict)

    def reports(self, lines):
        """The indexes of LINES that are kernel reports."""
        text = "".join(line.replace("\n", " ") + "\n" for line in lines)
        run = subprocess.run([self.verdict, "--splats", self.path, "--match", "-"],
                             input=text.encode("utf-8", "replace"), capture_output=True,
                             check=False)
        names = run.stdout.decode("utf-8", "replace").splitlines()
        if run.returncode or len(names) != len(lines):
            sys.exit("upstream_results: verdict --match on %d lines: exit %d, %d answers: %s"
                     % (len(lines), run.returncode, len(names),
                        run.stderr.decode("utf-8", "replace").strip()))
        return {i for i, name in enumerate(names) if name != "-"}


def tp_result(status, passed, subpassed, skipped, failed):
    """One test_progs -a NAME run, from its ust-tp-end fields."""
    del subpassed
    if status != "0" or passed == "-" or int(failed) != 0 or int(passed) != 1:
        return "fail"
    return "skip" if int(skipped) > 0 else "pass"


def tp_ends(lines):
    """The ust-tp-end lines' fields: NAME STATUS SECS P SP S F."""
    for line in lines:
        w = line.split()
        if len(w) == 8 and w[0] == "ust-tp-end":
            yield w[1:]


VERIFIER_TEST = re.compile(r"^#([0-9]+)/[up] ")
SUBTEST = re.compile(r"^    (not )?ok [0-9]+ ")
TOP = re.compile(r"^(not )?ok [0-9]+ ")
V_SKIP = re.compile(r"(^| )SKIP( \(.*\))?$")
V_OK = re.compile(r"(^| )OK( \(NOTE: .*\))?$")
V_SUMMARY = re.compile(r"^Summary: ([0-9]+) PASSED, ([0-9]+) SKIPPED, ([0-9]+) FAILED")


def parse(log, names, splats):
    """results.tsv lines of one boot, and whether test_verifier's results
    add up to its summary."""
    descr = {}
    for line in open(names, encoding="utf-8"):
        n, _, d = line.rstrip("\n").partition("\t")
        descr[n] = d
    out = []
    st = {"bin": "", "top": "", "summary": False, "rec": None}
    counts = collections.Counter()
    flags = set()
    tplist = None
    ntp = 0
    dmesg = logged = splatted = done = False
    sound = True

    def vflush():
        if st["rec"] is None:
            return
        r = ("fail" if "fail" in flags else "skip" if "skip" in flags
             else "pass" if "ok" in flags else "fail")
        out.append((st["rec"], r))
        counts[r] += 1
        st["rec"] = None

    def end(name, status):
        if st["bin"] == "test_verifier":
            vflush()
            if not st["summary"]:
                status = "incomplete"
        r = "pass" if status == "0" else "fail"
        if r == "pass" and " # SKIP" in st["top"]:
            r = "skip"
        out.append((name, r))
        st["bin"] = ""

    lines = read_log(log)
    reports = splats.reports(lines)
    for i, line in enumerate(lines):
        w = line.split()
        head = w[0] if w else ""
        if head == "ust-begin" and len(w) > 1:
            st.update(bin=w[1], top="", summary=False, rec=None)
            counts.clear()
        elif head == "ust-end" and len(w) > 2:
            end(w[1], w[2])
        elif head == "ust-skip" and len(w) > 1:
            out.append((w[1], "skip"))
        elif head == "ust-tp-list" and len(w) > 1:
            tplist = w[1]
        elif head == "ust-testmod":
            out.append(("bpf_testmod",
                        "pass" if len(w) > 1 and w[1] == "loaded" else "fail"))
        elif head == "ust-tp-end" and len(w) == 8:
            out.append(("test_progs/" + w[1], tp_result(w[2], *w[4:8])))
            ntp += 1
        elif line == "ust-dmesg-begin":
            dmesg = True
        elif line == "ust-dmesg-end":
            dmesg = False
            logged = True
            out.append(("kernel-log", "fail" if splatted else "pass"))
        elif line == "ust-done":
            done = True
        elif dmesg or line.startswith("Kernel panic"):
            if i in reports:
                splatted = True
        elif st["bin"] == "test_verifier" and VERIFIER_TEST.match(line):
            vflush()
            n = VERIFIER_TEST.match(line).group(1)
            first = w[0]
            st["rec"] = "test_verifier/" + first + " " + descr.get(n, "")
            flags.clear()
            # what follows the description, which may hold any word
            prefix = first + " " + descr.get(n, "") + " "
            rest = line[len(prefix):] if line.startswith(prefix) else line
            verifier_flags(rest, flags)
        elif st["bin"] == "test_verifier" and line.startswith("Summary: "):
            vflush()
            st["summary"] = True
            m = V_SUMMARY.match(line)
            got = (counts["pass"], counts["skip"], counts["fail"])
            if not m or tuple(int(x) for x in m.groups()) != got:
                print("test_verifier says %s; the log gives %d passed, "
                      "%d skipped, %d failed" % (line[9:], *got),
                      file=sys.stderr)
                sound = False
        elif st["bin"] == "test_verifier" and st["rec"] is not None:
            # A result can come after lines of its own (map or BTF
            # creation messages), a failure after lines of verifier log.
            verifier_flags(line, flags)
        elif st["bin"] and SUBTEST.match(line):
            r = ("fail" if line.startswith("    not ok") else
                 "skip" if " # SKIP" in line else "pass")
            name = re.sub(r" # .*", "", SUBTEST.sub("", line, count=1), count=1)
            out.append((st["bin"] + "/" + name, r))
        elif st["bin"] and TOP.match(line):
            st["top"] = line
    if st["bin"]:
        end(st["bin"], "incomplete")
    if not logged:
        out.append(("kernel-log", "fail" if splatted else "-"))
    tp_ok = tplist not in (None, "-") and str(ntp) == tplist
    out.append(("test_progs", "pass" if tp_ok else "fail"))
    out.append(("boot", "pass" if done else "fail"))
    return out, sound


def verifier_flags(text, flags):
    if "FAIL" in text:
        flags.add("fail")
    if V_SKIP.search(text):
        flags.add("skip")
    if V_OK.search(text):
        flags.add("ok")


def tp(log):
    rows = []
    for name, status, secs, p, sp, s, f in tp_ends(read_log(log)):
        rows.append((name, status, secs, p, sp, s, f,
                     tp_result(status, p, sp, s, f)))
    return rows


def compare(base, tip):
    b = {r[0]: r[1] for r in read_tsv(base)}
    t = {r[0]: r[1] for r in read_tsv(tip)}
    order = [r[0] for r in read_tsv(base)]
    order += [k for k in (r[0] for r in read_tsv(tip)) if k not in b]
    seen = set()
    rows = []
    for k in order:
        if k in seen:
            continue
        seen.add(k)
        rows.append((k, b.get(k, "-"), t.get(k, "-")))
    return rows


def rerun_list(compare_tsv):
    return [r[0][len("test_progs/"):] for r in read_tsv(compare_tsv)
            if r[0].startswith("test_progs/") and r[1] != r[2]]


# A test the tip fails fails the run when the tip fails it more often
# than base by more than chance: a one-sided Fisher exact test of the two
# kernels' failure counts, at this level. Below it, a test the tip fails
# more often than base is "flaky-tip-unconfirmed": reported with its
# counts, and rerun more (upstream-selftests.sh's ESCALATE) before the
# last verdict.
ALPHA = 0.05
# The verdicts that fail the run
FAILING = ("regression", "flaky-tip", "missing-tip")


def runs(c):
    return sum(c[r] for r in RESULTS)


def tip_fails_more(bc, tc):
    """P(the tip fails at least this often | both fail at the same rate):
    the hypergeometric tail of the tip's failures among all failures."""
    n_tip, total = runs(tc), runs(tc) + runs(bc)
    fails = tc["fail"] + bc["fail"]
    tail = sum(math.comb(fails, x) * math.comb(total - fails, n_tip - x)
               for x in range(tc["fail"], min(fails, n_tip) + 1))
    return tail / math.comb(total, n_tip)


def verdict(bc, tc):
    """A rerun test's verdict from its result counts on base and tip."""
    def mixed(c):
        return sum(1 for r in RESULTS if c[r] > 0) > 1

    def only(c, r):
        return c[r] > 0 and c[r] == runs(c)
    if runs(tc) == 0:
        return "missing-tip"
    if tc["fail"] and not (only(tc, "fail") and only(bc, "fail")):
        if tip_fails_more(bc, tc) < ALPHA:
            return "regression" if only(tc, "fail") else "flaky-tip"
        if runs(bc) == 0 or tc["fail"] / runs(tc) > bc["fail"] / runs(bc):
            return "flaky-tip-unconfirmed"
        return "flaky"
    # From here on the tip never fails, or both always do
    if mixed(bc) and mixed(tc):
        return "flaky"
    if mixed(bc) and bc["fail"]:
        return "flaky-base"
    if only(bc, "fail") and not only(tc, "fail"):
        return "fixed"
    if any(only(bc, r) and only(tc, r) for r in RESULTS):
        return "agree"
    return "differs"


def verdicts(names, base_tps, tip_tps):
    want = [line.strip() for line in open(names, encoding="utf-8") if line.strip()]
    counts = {side: collections.defaultdict(collections.Counter)
              for side in ("base", "tip")}
    for side, files in (("base", base_tps), ("tip", tip_tps)):
        for path in files:
            for row in read_tsv(path):
                counts[side][row[0]][row[7]] += 1
    rows = []
    for t in want:
        bc, tc = counts["base"][t], counts["tip"][t]
        v = verdict(bc, tc)
        p = "%.4f" % tip_fails_more(bc, tc) if tc["fail"] else "-"
        rows.append((t, *(bc[r] for r in RESULTS), *(tc[r] for r in RESULTS), v, p))
    return rows


def fisher_p(row):
    """", p=P" for a rerun.tsv row that has the tip's p-value, else "" (a
    run kept from before the column)."""
    return ", p=%s" % row[8] if len(row) > 8 and row[8] != "-" else ""


def report(compare_tsv, rerun_tsv, out):
    """Print the lists side by side; True if anything regressed."""
    rerun = {}
    for r in read_tsv(rerun_tsv):
        rerun[r[0]] = (r[7], "base %s pass %s fail %s skip, tip %s pass %s fail %s skip"
                       % tuple(r[1:7]) + fisher_p(r))
    tot = collections.Counter()
    regressions, flaky = [], []
    for name, base, tip in read_tsv(compare_tsv):
        binary = name.split("/", 1)[0]
        listed = binary in ("test_verifier", "test_progs") and name != binary
        if listed:
            tot[binary, "base", base] += 1
            tot[binary, "tip", tip] += 1
        test = name[len("test_progs/"):]
        if binary == "test_progs" and test in rerun:
            v, counts = rerun[test]
            out.write("  %-5s %-5s %s: %s, %s\n" % (base, tip, name, v, counts))
            if v in FAILING:
                regressions.append("%s (%s, %s)" % (name, v, counts))
            if v.startswith("flaky"):
                flaky.append("%s (%s, %s)" % (name, v, counts))
            continue
        if not (listed and base == tip and base != "fail"):
            out.write("  %-5s %-5s %s\n" % (base, tip, name))
        if tip == "fail" and base != "fail":
            regressions.append(name)
    for binary in ("test_verifier", "test_progs"):
        out.write("  %s tests: base %d pass, %d fail, %d skip; tip %d pass, %d fail, %d skip\n"
                  % (binary, *(tot[binary, "base", r] for r in RESULTS),
                     *(tot[binary, "tip", r] for r in RESULTS)))
    for f in flaky:
        out.write("flaky: %s\n" % f)
    for r in regressions:
        out.write("regression: %s\n" % r)
    return bool(regressions)


FIRST_ERROR = re.compile(r":FAIL:|libbpf: .*(fail|error|not found|No such)"
                         r"|(^|[^a-z])(error|ERROR|No such file)")


def read_causes(path):
    """ci/upstream.causes: CAUSE<TAB>REGEX lines, the first match wins."""
    causes = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cause, _, regex = line.partition("\t")
        causes.append((cause, re.compile(regex.strip())))
    return causes


def base_failures(log, tp_tsv, causes):
    """NAME, CAUSE, FIRST ERROR LINE of each test_progs test that failed.
    The first error line is that of its output which says what failed;
    CAUSE the first rule of CAUSES that matches it, else the first that
    matches another line of its output (a warning test_progs prints
    before every test matches every test)."""
    failed = {r[0]: r[1] for r in read_tsv(tp_tsv) if r[7] == "fail"}
    output = collections.defaultdict(list)
    cur = None
    for line in read_log(log):
        if line.startswith("ust-tp-begin "):
            cur = line.split()[1]
        elif line.startswith("ust-tp-end "):
            cur = None
        elif cur in failed:
            output[cur].append(line.replace("\t", " ").lstrip(" "))
    rows = []
    for name in sorted(failed):
        lines = output[name]
        first = next((x for x in lines if FIRST_ERROR.search(x)),
                     "exit status %s, no error line" % failed[name])
        cause = next((c for c, regex in causes if regex.search(first)), None)
        if cause is None:
            cause = next((c for c, regex in causes
                          if any(regex.search(x) for x in lines)), "unclassified")
        rows.append((name, cause, first))
    return rows


def summary(base_tp, tip_tp, failures, seconds):
    rows = []
    for side, path in (("base", base_tp), ("tip", tip_tp)):
        results = read_tsv(path)
        c = collections.Counter(r[7] for r in results)
        rows += [("%s_test_progs_run" % side, len(results))]
        rows += [("%s_test_progs_%s" % (side, r), c[r]) for r in RESULTS]
        rows += [("%s_test_progs_seconds" % side, sum(int(r[2]) for r in results))]
        if side == "base":
            cov = 100.0 * c["pass"] / len(results) if results else 0.0
            rows.append(("coverage_percent", "%.1f" % cov))
    by_cause = collections.Counter(r[1] for r in read_tsv(failures))
    rows += [("base_fail_cause:" + c, n) for c, n in sorted(by_cause.items())]
    rows.append(("seconds", seconds))
    return rows


def durations(log):
    parts, tp_secs, n = [], 0, 0
    for line in read_log(log):
        w = line.split()
        if w and w[0] == "ust-end" and len(w) >= 4:
            parts.append("%s %s s" % (w[1], w[3]))
        elif w and w[0] == "ust-tp-end" and len(w) == 8:
            tp_secs += int(w[3])
            n += 1
    if n:
        parts.append("test_progs %d tests %d s" % (n, tp_secs))
    return ", ".join(parts)


def markdown(out_dir):
    """The run in OUT_DIR (its summary, compare, rerun and base-failures
    files) as Markdown."""
    fig = {r[0]: r[1] for r in read_tsv(out_dir + "/summary.tsv")}
    lines = ["| kernel | test_progs tests | pass | fail | skip |",
             "| --- | --- | --- | --- | --- |"]
    for side in ("base", "tip"):
        lines.append("| %s | %s | %s | %s | %s |" % (
            side, *(fig.get("%s_test_progs_%s" % (side, k), "-")
                    for k in ("run", "pass", "fail", "skip"))))
    lines += ["", "test_progs passes %s%% of its tests on base." %
              fig.get("coverage_percent", "-"), ""]
    rerun = {r[0]: r for r in read_tsv(out_dir + "/rerun.tsv")}
    differ = [r for r in read_tsv(out_dir + "/compare.tsv") if r[1] != r[2]]
    if differ:
        lines += ["Results that differ (reruns: pass/fail/skip counts):", "",
                  "| test | base | tip | verdict after reruns |",
                  "| --- | --- | --- | --- |"]
        for name, base, tip in differ:
            r = rerun.get(name[len("test_progs/"):])
            v = ("%s (base %s/%s/%s, tip %s/%s/%s%s)" % (r[7], *r[1:7], fisher_p(r))
                 if r else "-")
            lines.append("| %s | %s | %s | %s |" % (name, base, tip, v))
    else:
        lines.append("Every result is the same on both kernels.")
    failures = read_tsv(out_dir + "/base-failures.tsv")
    by_cause = collections.defaultdict(list)
    for name, cause, _ in failures:
        by_cause[cause].append(name)
    lines += ["", "test_progs tests failing on base, by cause:", "",
              "| cause | tests |", "| --- | --- |"]
    for cause in sorted(by_cause, key=lambda c: (-len(by_cause[c]), c)):
        lines.append("| %s | %d: %s |" % (cause, len(by_cause[cause]),
                                          ", ".join(by_cause[cause])))
    return "\n".join(lines) + "\n"


RUN_FILES = ("summary.tsv", "compare.tsv", "rerun.tsv", "base-failures.tsv")


def doc_body(run_dir):
    """The block a document quotes: where and when the run was, then its
    Markdown."""
    fig = {r[0]: r[1] for r in read_tsv(run_dir + "/summary.tsv")}
    head = docblock.heading("upstream-selftests", fig, "build/upstream/summary.md",
                            "upstream-doc", ["QEMU %s; %s s in all" % (
                                fig.get("accel", "-"), fig.get("seconds", "-"))]) + "\n\n"
    return head + markdown(run_dir)


def write(rows):
    for r in rows:
        sys.stdout.write("\t".join(str(x) for x in r) + "\n")


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if cmd == "doc":
        return docblock.command(args, RUN_FILES, "upstream-selftests", doc_body,
                                "make upstream-doc after make upstream-selftests", __doc__)
    if cmd == "verdicts":
        sep = args.index("--") if "--" in args else -1
        if sep < 2 or sep == len(args) - 1:
            sys.stderr.write(__doc__)
            return 2
    nargs = {"parse": 3, "tp": 1, "compare": 2, "rerun-list": 1, "verdicts": len(args),
             "report": 2, "base-failures": 3, "summary": 4, "durations": 1,
             "markdown": 1}
    if nargs.get(cmd) != len(args):
        sys.stderr.write(__doc__)
        return 2
    if cmd == "parse":
        rows, sound = parse(args[0], args[1], Splats(args[2]))
        write(rows)
        return 0 if sound else 1
    if cmd == "tp":
        write(tp(args[0]))
    elif cmd == "compare":
        write(compare(*args))
    elif cmd == "rerun-list":
        write((t,) for t in rerun_list(args[0]))
    elif cmd == "verdicts":
        write(verdicts(args[0], args[1:sep], args[sep + 1:]))
    elif cmd == "report":
        return 1 if report(args[0], args[1], sys.stdout) else 0
    elif cmd == "base-failures":
        write(base_failures(args[0], args[1], read_causes(args[2])))
    elif cmd == "summary":
        write(summary(*args))
    elif cmd == "markdown":
        sys.stdout.write(markdown(args[0]))
    elif cmd == "durations":
        print(durations(args[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
