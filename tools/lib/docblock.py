# SPDX-License-Identifier: GPL-2.0
"""A run's figures quoted in documents: the block between a document's
"<!-- NAME begin -->" and "<!-- NAME end -->" markers is generated from
the run's files that a fixtures directory keeps, and checked against
them (tests/). Each generator (tools/upstream/upstream_results.py's doc,
tools/measure/versions_doc.py) has two subcommands, which command() runs:

  update RUN_DIR FIXTURES DOC...   copy the run's files from RUN_DIR into
                                   FIXTURES, then write the block made
                                   of FIXTURES into each DOC
  check FIXTURES DOC...            1 unless each DOC's block is that of
                                   FIXTURES
"""

import os
import shutil
import sys


def heading(target, facts, source, doc_target, details=()):
    """A block's first line: which run of make TARGET (FACTS: its date and
    cpus, run.tsv's keys; DETAILS: more of the machine or the run) wrote
    SOURCE, and which target rewrites the block."""
    machine = ", ".join(["%s CPUs" % facts.get("cpus", "-")] + list(details))
    return ("From `make %s` on %s (%s), `%s`; `make %s` rewrites this block."
            % (target, facts.get("date", "-"), machine, source, doc_target))


def markers(name):
    return "<!-- %s begin -->" % name, "<!-- %s end -->" % name


def splice(path, name, body):
    """PATH's text with its NAME block's contents replaced by BODY."""
    begin, end = markers(name)
    text = open(path, encoding="utf-8").read()
    b, e = text.find(begin), text.find(end)
    if b < 0 or e < b:
        sys.exit("%s has no %s ... %s block" % (path, begin, end))
    return text[:b] + begin + "\n" + body + end + text[e + len(end):]


def command(args, files, name, body, remedy, usage):
    """Run ARGS (update or check, as above): FILES are the run's files,
    BODY(FIXTURES) the block's text, REMEDY what to run when a document's
    block is stale. The exit status: 2, with USAGE on stderr, when ARGS
    are not those of update or check."""
    action = args[0] if args else ""
    if action == "update" and len(args) >= 4:
        run_dir, fixtures, docs = args[1], args[2], args[3:]
        # a run the block cannot be made of is refused before it replaces
        # the kept one
        text = body(run_dir)
        os.makedirs(fixtures, exist_ok=True)
        for f in files:
            shutil.copyfile(os.path.join(run_dir, f), os.path.join(fixtures, f))
    elif action == "check" and len(args) >= 3:
        fixtures, docs = args[1], args[2:]
        text = body(fixtures)
    else:
        sys.stderr.write(usage)
        return 2
    status = 0
    for path in docs:
        new = splice(path, name, text)
        if action == "update":
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
        elif new != open(path, encoding="utf-8").read():
            print("%s: the %s block is not that of %s; run %s"
                  % (path, name, fixtures, remedy), file=sys.stderr)
            status = 1
    return status
