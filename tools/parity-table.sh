#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parity-table: docs/container.md's parity table of the container case (issue 21),
# made from what container_tools recorded in a tip run (make ci) and a
# stock run (make ci-base): one row per step of its script, the columns
# "stock, root", "stock, rootless container", "tip, rootless container,
# granted" and "tip, rootless container, no rule".
#
# usage: parity-table.sh table TIP.json BASE.json RUN.json
#          the table (Markdown, stdout) of two results.json files
#        parity-table.sh update TIP_CI BASE_CI OUT.md DOC FIXTURES
#          from TIP_CI/results.json and BASE_CI/results.json: write
#          FIXTURES/{tip,base,run}.json, the table into OUT.md, and the
#          table into DOC (docs/container.md) between its markers
#          (make parity-table)
#
# Input: verdict --json's results.json (schema: ci/verdict.c, write_json).
# In it, test container_tools's subtest "parity" has the records as
# diagnostics, "# parity " and a JSON object each (schema:
# initramfs/prog_tests/container_tools.c, its first comment):
#   {"run": {"kernel": RELEASE, "grant_hooks": BOOL}}
#   {"step": ID, "cmd": TEXT, "root": CELL, "rule": CELL, "no_rule": CELL}
# A run with ci.repeat=N has container_tools N times: a cell that differs
# between them shows each. The columns: stock root = BASE's "root",
# stock container = BASE's "no_rule" (no rule can be added there), tip
# granted = TIP's "rule", tip no rule = TIP's "no_rule".
# RUN.json: {"date": TEXT, "machine": TEXT}, where and when the runs were
# made, written by update (results.json does not say).
# The fixtures are the results.json files cut to container_tools and its
# parity subtest; tests/parity-table.sh checks that the document's block is what
# "table" makes of them.
set -eu
STAGE=parity-table
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

BEGIN='<!-- parity-table begin -->'
END='<!-- parity-table end -->'

command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"

# table TIP.json BASE.json RUN.json
table() {
	python3 - "$@" <<'PY'
import json, sys

tip_path, base_path, run_path = sys.argv[1:4]

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

tip, base = records(tip_path), records(base_path)
try:
    run = json.load(open(run_path))
except (OSError, ValueError) as e:
    fail("%s: %s" % (run_path, e))
cols = [("stock, root", base, "root"),
        ("stock, rootless container", base, "no_rule"),
        ("tip, rootless container, granted", tip, "rule"),
        ("tip, rootless container, no rule", tip, "no_rule")]
merged = [merge(runs, col) for _, runs, col in cols]
order = merged[0][0] + [s for m in merged[1:] for s in m[0] if s not in merged[0][0]]
order = list(dict.fromkeys(order))

def esc(s):
    return s.replace("|", "\\|")

print("Measured %s on %s; stock: %s, tip: %s (`make parity-table`, from the results of"
      % (run["date"], run["machine"], kernel(base), kernel(tip)))
print("`make ci` and `make ci-base`; do not edit by hand)")
print()
print("| step | " + " | ".join(c[0] for c in cols) + " |")
print("| --- " * (len(cols) + 1) + "|")
for s in order:
    cmd = next((m[1][s][0] for m in merged if s in m[1]), s)
    cells = [m[1][s][1] if s in m[1] else "no record" for m in merged]
    print("| %s | %s |" % (esc(cmd), " | ".join(esc(c) for c in cells)))
differ = [next((m[1][s][0] for m in merged if s in m[1]), s) for s in order
          if s in merged[0][1] and s in merged[2][1]
          and merged[0][1][s][1] == "works" and merged[2][1][s][1] != "works"]
print()
if differ:
    print("Works as root on stock, not the same way in the granted container: %s."
          % "; ".join(esc(c) for c in differ))
else:
    print("Every step that works as root on stock works in the granted container.")
PY
}

# cut RESULTS.json: it with container_tools and its parity subtest only
cut() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
tests = []
for t in d.get("tests", []):
    if t.get("name") == "container_tools":
        t = dict(t, subtests=[s for s in t.get("subtests", []) if s.get("name") == "parity"])
        t.pop("diagnostics", None)
        tests.append(t)
print(json.dumps({"verdict": d.get("verdict"), "reason": d.get("reason"),
                  "tests": tests}, indent=1))
PY
}

# run.json: when (the tip run's results, UTC) and where (this machine and
# the accelerator QEMU used, ci/boot.sh's status file)
run_json() {
	date=$(date -u -r "$1/results.json" '+%Y-%m-%d %H:%M UTC')
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	accel=$(sed -n 's/^accel=//p' "$1/serial.log.status" 2> /dev/null | head -n 1)
	python3 -c 'import json, sys; print(json.dumps({"date": sys.argv[1], "machine": sys.argv[2]}))' \
		"$date" "$(uname -m), ${cpu:-unknown CPU}, $(nproc) CPUs, QEMU ${accel:-(accelerator unknown)}"
}

# replace_block DOC TABLE.md: DOC with TABLE.md between the markers
replace_block() {
	n_begin=$(grep -c -x -F "$BEGIN" "$1" || true)
	n_end=$(grep -c -x -F "$END" "$1" || true)
	[ "$n_begin.$n_end" = 1.1 ] ||
		die "$1 needs one line '$BEGIN' and one line '$END' (has $n_begin and $n_end)"
	awk -v begin="$BEGIN" -v end="$END" -v table="$2" '
		$0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
		$0 == end { skip = 0 }
		!skip' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

case ${1:-} in
table)
	[ $# = 4 ] || die "usage: $0 table TIP.json BASE.json RUN.json"
	shift
	table "$@"
	;;
update)
	[ $# = 6 ] || die "usage: $0 update TIP_CI BASE_CI OUT.md DOC FIXTURES"
	tip=$2 base=$3 out=$4 doc=$5 fix=$6
	for f in "$tip/results.json" "$base/results.json"; do
		[ -f "$f" ] || die "$f is missing: run make ci and make ci-base first"
	done
	mkdir -p "$fix" "$(dirname "$out")"
	cut "$tip/results.json" > "$fix/tip.json.tmp"
	cut "$base/results.json" > "$fix/base.json.tmp"
	run_json "$tip" > "$fix/run.json.tmp"
	table "$fix/tip.json.tmp" "$fix/base.json.tmp" "$fix/run.json.tmp" > "$out"
	for f in tip base run; do mv "$fix/$f.json.tmp" "$fix/$f.json"; done
	replace_block "$doc" "$out"
	note "wrote $out, its table into $doc, and its inputs into $fix/"
	;;
*)
	die "usage: $0 table TIP.json BASE.json RUN.json | update TIP_CI BASE_CI OUT.md DOC FIXTURES"
	;;
esac
