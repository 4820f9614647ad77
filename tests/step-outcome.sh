#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bisect's reading of a try (tools/lib/lib.sh, try_outcome) on real
# serial logs of bisect steps, as the console wrote them (lines end in
# \r\n) and with the \r taken out: the verdict's results file must give
# the same outcome both ways. The logs, in tests/fixtures/step/:
#   fail.log        the whole suite (smoke) on a commit that breaks
#                   smoke/unpriv_refused_hash: it ran and failed (exit 1)
#   no_subtest.log  TEST=smoke/nosuch: no such subtest (untestable)
#   boot_panic.log  the guest panicked before the init ran (untestable)
#   pass.log        TEST=smoke/unpriv_refused_hash on the tip
# usage: step-outcome.sh [VERDICT]	(default: build/tools/verdict, built
#	here as make builds it)
set -eu
STAGE=tests/step-outcome.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
verdict=${1:-$top/build/tools/verdict}
[ $# -ge 1 ] || make -C "$top" --no-print-directory -s build/tools/verdict
fixtures=$top/tests/fixtures/step
[ -x "$verdict" ] || die "no verdict binary at $verdict"

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'
n=0
failed=0
# check LOG TEST OUTCOME
check() {
	for form in crlf lf; do
		n=$((n + 1))
		log=$tmp/$1.$form
		if [ $form = crlf ]; then
			cp "$fixtures/$1" "$log"
			grep -q "$(printf '\r')\$" "$log" ||
				die "$1 is not a console log: no line ends in \\r"
		else
			tr -d '\r' < "$fixtures/$1" > "$log"
		fi
		"$verdict" --json "$log.json" "$log" > /dev/null 2>&1 || true
		got=$(try_outcome "$log.json" "$2" 2>&1) || true
		if [ "$got" = "$3" ]; then
			echo "ok $n $1 ($form) TEST=${2:-(all)}: $3"
		else
			echo "not ok $n $1 ($form) TEST=${2:-(all)}: $got, not $3"
			failed=$((failed + 1))
		fi
	done
}

check fail.log smoke/unpriv_refused_hash fail
check fail.log smoke fail
check fail.log "" fail
check no_subtest.log smoke/nosuch no-subtest
check boot_panic.log smoke/unpriv_refused_hash not-reached
check boot_panic.log "" not-reached
check pass.log smoke/unpriv_refused_hash pass
# a test that is not the one asked for did not reach it
check fail.log lsm_map_create not-reached
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
