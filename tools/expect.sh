#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect: check the subtest results of a KTAP file against an expectation
# file of "<test>/<subtest pattern> <ok|SKIP>" lines: every matching result
# must have that status, and every line must match at least one result.
#
# usage: expect.sh RESULTS.ktap EXPECT
set -eu
STAGE=expect
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

ktap=$1
expect=$2
[ -f "$ktap" ] || die "$ktap is missing; boot and run make verdict first"

# "test/subtest status" for every nested result of the KTAP file
results=$(awk '
	/^    # Subtest: / { test = $3 }
	/^    (not )?ok [0-9]+ / {
		ok = $1 == "ok"
		name = ok ? $3 : $4
		status = !ok ? "FAIL" : / # SKIP/ ? "SKIP" : "ok"
		print test "/" name, status
	}' "$ktap")

bad=0
while read -r pattern want; do
	case $pattern in '#'*|'') continue ;; esac
	seen=0
	for line in $(printf '%s\n' "$results" | tr ' ' '='); do
		name=${line%=*}
		got=${line##*=}
		# shellcheck disable=SC2254
		case $name in
		$pattern)
			seen=1
			[ "$got" = "$want" ] || {
				note "$name: $got, expected $want"
				bad=1
			}
			;;
		esac
	done
	[ $seen = 1 ] || { note "no result matches $pattern"; bad=1; }
done < "$expect"
[ $bad = 0 ] || die "$ktap does not match $expect"
note "$ktap matches $expect"
