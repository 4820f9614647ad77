#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# parity-table: docs/container.md's parity table of the container case (issues 21, 35),
# made from what container_tools recorded in a tip run (make ci) and a
# stock run (make ci-base): one row per step of its script; the columns
# root on stock; the rootless container on stock with Debian 12's and
# Debian 13's tools; on the tip granted (both), with a token (Debian 13's
# tools, and Debian 12's, whose libbpf knows none), and with neither.
#
# usage: parity-table.sh table TIP.json BASE.json RUN.json
#          the table (Markdown, stdout) of two results.json files
#        parity-table.sh update TIP_CI BASE_CI OUT.md DOC FIXTURES KSRC
#          from TIP_CI/results.json and BASE_CI/results.json (the
#          kernel tree KSRC at the series' tip): write
#          FIXTURES/{tip,base,run}.json, the table into OUT.md, and the
#          table into DOC (docs/container.md) between its markers
#          (make parity-table)
#
# Input: verdict --json's results.json (schema: ci/verdict.c, write_json).
# In it, test container_tools's subtest "parity" has the records as
# diagnostics, "# parity " and a JSON object each (schema:
# initramfs/prog_tests/container_tools.c, its first comment):
#   {"run": {"kernel": RELEASE, "grant_hooks": BOOL}}
#   {"step": ID, "cmd": TEXT, "root": CELL, "rule": CELL, "no_rule": CELL,
#    "rule_d13": CELL, "no_rule_d13": CELL, "token_d13": CELL, "token_d12": CELL}
# A run with ci.repeat=N has container_tools N times: a cell that differs
# between them shows each. The columns: stock root = BASE's "root",
# stock container = BASE's "no_rule" and "no_rule_d13" (no rule can be
# added there, nor a token made), tip granted = TIP's "rule" and
# "rule_d13", tip token = TIP's "token_d13" and "token_d12", tip with
# neither = TIP's "no_rule".
# RUN.json: {"date": TEXT, "machine": TEXT, "commit": TEXT, "series": TEXT},
# when, where and at which commits of this repository and of the kernel
# tree the runs were made, written by update (results.json does not say).
# The fixtures are the results.json files cut to container_tools and its
# parity subtest; tests/parity-table.sh checks that the document's block is what
# "table" makes of them.
# The table and the cut are tools/measure/parity_table.py's; this script keeps the
# files of update and the document's markers.
set -eu
STAGE=parity-table
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

BEGIN='<!-- parity-table begin -->'
END='<!-- parity-table end -->'

command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"

# table TIP.json BASE.json RUN.json
table() {
	python3 "$top/tools/measure/parity_table.py" table "$@"
}

# cut RESULTS.json: it with container_tools and its parity subtest only
cut() {
	python3 "$top/tools/measure/parity_table.py" cut "$1"
}

case ${1:-} in
table)
	[ $# = 4 ] || die "usage: $0 table TIP.json BASE.json RUN.json"
	shift
	table "$@"
	;;
update)
	[ $# = 7 ] || die "usage: $0 update TIP_CI BASE_CI OUT.md DOC FIXTURES KSRC"
	tip=$2 base=$3 out=$4 doc=$5 fix=$6 ksrc=$7
	for f in "$tip/results.json" "$base/results.json"; do
		[ -f "$f" ] || die "$f is missing: run make ci and make ci-base first"
	done
	mkdir -p "$fix" "$(dirname "$out")"
	cut "$tip/results.json" > "$fix/tip.json.tmp"
	cut "$base/results.json" > "$fix/base.json.tmp"
	measured_run_json "$tip" "$ksrc" > "$fix/run.json.tmp"
	table "$fix/tip.json.tmp" "$fix/base.json.tmp" "$fix/run.json.tmp" > "$out"
	for f in tip base run; do mv "$fix/$f.json.tmp" "$fix/$f.json"; done
	replace_block "$doc" "$out" "$BEGIN" "$END"
	note "wrote $out, its table into $doc, and its inputs into $fix/"
	;;
*)
	die "usage: $0 table TIP.json BASE.json RUN.json | update TIP_CI BASE_CI OUT.md DOC FIXTURES KSRC"
	;;
esac
