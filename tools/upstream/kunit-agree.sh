#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kunit-agree: read each serial log with the kernel's own KTAP parser
# (tools/testing/kunit/kunit.py parse, from the imported tree) and with
# ours, and fail if they count the results differently. Run on logs where
# the two rules agree: complete runs, passing or with failing leaves. (On
# a test that failed with every subtest passing, as when its binary was
# killed, kunit.py counts only the subtests and calls the run a pass;
# ours counts the test as failed.)
#
# usage: kunit-agree.sh SRCTREE VERDICT LOG...
set -eu
STAGE="kunit-agree"
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -ge 3 ] || die "usage: kunit-agree.sh SRCTREE VERDICT LOG..."
kunit=$(realpath "$1")/tools/testing/kunit/kunit.py
verdict=$2
shift 2
[ -f "$kunit" ] || die "$kunit is missing; run make import"
command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"
[ -x "$verdict" ] || die "$verdict is missing; run make verdict"

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'

# "P F S" of log $1 by kunit.py parse, from its --json file: its leaves,
# crashed ones (ERROR) counted as failed, as in ours (tools/lib/results.py)
kunit_counts() {
	rm -f "$tmp/kunit.json"
	python3 "$kunit" parse --json="$tmp/kunit.json" "$(realpath "$1")" > "$tmp/kunit.out" 2>&1 || true
	python3 "$top/tools/lib/results.py" kunit-pfs "$tmp/kunit.json"
}

# "P F S" of log $1 by our verdict, from its results.json
our_counts() {
	rm -f "$tmp/results.json"
	"$verdict" --json "$tmp/results.json" "$1" > /dev/null || true
	python3 "$top/tools/lib/results.py" pfs "$tmp/results.json"
}

bad=0
printf '%-40s %-18s %-18s %s\n' log "ours (P F S)" "kunit.py (P F S)" ""
for log in "$@"; do
	[ -f "$log" ] || die "$log is missing; run make check (it makes the logs this reads)"
	ours=$(our_counts "$log") || die "verdict wrote no results.json for $log"
	theirs=$(kunit_counts "$log") ||
		die "kunit.py parse wrote no --json file for $log: $(tail -n 1 "$tmp/kunit.out")"
	word=agree
	if [ "$ours" != "$theirs" ]; then
		word=DIFFER
		bad=$((bad + 1))
	fi
	printf '%-40s %-18s %-18s %s\n' "$log" "$ours" "$theirs" "$word"
done
[ "$bad" -eq 0 ] || die "$bad log(s) counted differently by kunit.py parse and verdict"
note "kunit.py parse and verdict agree on $# log(s)"
