#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of make versions (tools/measure/versions.sh), in Markdown.

  markdown TSV                versions.tsv as a Markdown table (versions.md)
  update RUN_DIR FIXTURES DOC...
  check FIXTURES DOC...       the table in documents: "update" copies
                              RUN_DIR's versions.tsv and run.tsv (date,
                              cpus, accel) into FIXTURES and writes the
                              table, dated, with the machine, between
                              each DOC's "<!-- versions begin -->" and
                              "end" markers; "check" exits 1 unless each
                              DOC's block is that of FIXTURES
                              (tools/lib/docblock.py)
"""

import os
import sys

# tools/lib's modules; no __pycache__ in the checkout
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import docblock  # noqa: E402

RUN_FILES = ("versions.tsv", "run.tsv")


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def markdown(tsv):
    """versions.tsv as a Markdown table: its header, then a line a version."""
    rows = read_tsv(tsv)
    head, body = rows[0], rows[1:]

    def line(cells):
        cells = cells + [""] * (len(head) - len(cells))
        return "| " + " | ".join(cells) + " |"
    lines = [line(head), "|" + "---|" * len(head)]
    lines += [line([c.replace("|", "\\|") for c in r]) for r in body]
    return "\n".join(lines) + "\n"


def doc_body(run_dir):
    """The block a document quotes: when and where the run was, then its
    table."""
    run = {r[0]: r[1] for r in read_tsv(run_dir + "/run.tsv")}
    head = docblock.heading("versions", run, "build/versions/versions.md", "versions-doc",
                            ["QEMU %s" % run.get("accel", "-")]) + "\n\n"
    return head + markdown(run_dir + "/versions.tsv")


def main(argv):
    args = argv[1:]
    if args[:1] == ["markdown"] and len(args) == 2:
        sys.stdout.write(markdown(args[1]))
        return 0
    return docblock.command(args, RUN_FILES, "versions", doc_body,
                            "make versions-doc after make versions", __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
