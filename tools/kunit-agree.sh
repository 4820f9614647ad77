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
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: kunit-agree.sh SRCTREE VERDICT LOG..."
kunit=$(realpath "$1")/tools/testing/kunit/kunit.py
verdict=$2
shift 2
[ -f "$kunit" ] || die "$kunit is missing; run make import"
command -v python3 > /dev/null || die "python3 is missing; apt-get install python3 (or make deps)"
[ -x "$verdict" ] || die "$verdict is missing; run make verdict"

# "P F S" from kunit.py's "Ran N tests: passed: P, failed: F, ..." line;
# crashed tests count as failed, as in ours.
kunit_counts() {
	python3 "$kunit" parse "$(realpath "$1")" 2>&1 |
		sed -n 's/.*Testing complete\. Ran [0-9]* tests*:*//p' |
		awk -F', ' '{
			for (i = 1; i <= NF; i++) {
				split($i, kv, ": "); gsub(/ /, "", kv[1]); n[kv[1]] = kv[2]
			}
			# errors: lines kunit.py could not read, which ours never has
			printf "%d %d %d%s\n", n["passed"], n["failed"] + n["crashed"], n["skipped"], \
				n["errors"] ? " (" n["errors"] " errors)" : ""
		}'
}

# "P F S" from our summary's last line, "P passed, F failed, S skipped"
our_counts() {
	"$verdict" "$1" | tail -n 1 |
		sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p'
}

bad=0
printf '%-40s %-18s %-18s %s\n' log "ours (P F S)" "kunit.py (P F S)" ""
for log in "$@"; do
	[ -f "$log" ] || die "$log is missing; run make check (it makes the logs this reads)"
	ours=$(our_counts "$log")
	theirs=$(kunit_counts "$log")
	[ -n "$theirs" ] || die "kunit.py parse printed no 'Testing complete' line for $log"
	[ -n "$ours" ] || die "verdict printed no counts line for $log"
	word=agree
	if [ "$ours" != "$theirs" ]; then
		word=DIFFER
		bad=$((bad + 1))
	fi
	printf '%-40s %-18s %-18s %s\n' "$log" "$ours" "$theirs" "$word"
done
[ "$bad" -eq 0 ] || die "$bad log(s) counted differently by kunit.py parse and verdict"
note "kunit.py parse and verdict agree on $# log(s)"
