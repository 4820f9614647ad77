#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# design-table: docs/series.md's table of what each design stops (issue
# 40), made from a tip run's results (make ci): the grant's attacks, each
# beside the same attack by a BPF token's holder. The rows, and the tests
# whose passing proves each cell, are tools/measure/design_table.py's.
#
# usage: design-table.sh table RESULTS.json RUN.json
#          the table (Markdown, stdout)
#        design-table.sh update CI OUT.md DOC FIXTURES KSRC
#          from CI/results.json (the kernel tree KSRC at the series' tip):
#          write FIXTURES/{tip,run}.json (the results cut to the tests the
#          table names; run.json: tools/lib/lib.sh, measured_run_json),
#          the table into OUT.md and into DOC between its markers (make
#          design-table); tests/design-table.sh checks that the document's
#          block is what "table" makes of the fixtures
set -eu
STAGE=design-table
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

BEGIN='<!-- design-table begin -->'
END='<!-- design-table end -->'
py=$top/tools/measure/design_table.py

command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"

case ${1:-} in
table)
	[ $# = 3 ] || die "usage: $0 table RESULTS.json RUN.json"
	python3 "$py" table "$2" "$3"
	;;
update)
	[ $# = 6 ] || die "usage: $0 update CI OUT.md DOC FIXTURES KSRC"
	ci=$2 out=$3 doc=$4 fix=$5 ksrc=$6
	[ -f "$ci/results.json" ] || die "$ci/results.json is missing: run make ci first"
	mkdir -p "$fix" "$(dirname "$out")"
	python3 "$py" cut "$ci/results.json" > "$fix/tip.json.tmp"
	measured_run_json "$ci" "$ksrc" > "$fix/run.json.tmp"
	python3 "$py" table "$fix/tip.json.tmp" "$fix/run.json.tmp" > "$out" ||
		die "no table made of $ci/results.json (the reason is above)"
	for f in tip run; do mv "$fix/$f.json.tmp" "$fix/$f.json"; done
	replace_block "$doc" "$out" "$BEGIN" "$END"
	note "wrote $out, its table into $doc, and its inputs into $fix/"
	;;
*)
	die "usage: $0 table RESULTS.json RUN.json | update CI OUT.md DOC FIXTURES KSRC"
	;;
esac
