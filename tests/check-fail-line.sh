#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check's last line when a step fails: the Makefile's check_failed,
# called as the check recipe calls it, after a failing command, for a
# make target and for a script. make's status must say failure too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
# check NAME STEP WANT_LINE
check() {
	n=$((n + 1))
	status=0
	make --no-print-directory -C "$top" \
		--eval "check-fail-probe: ; @false || \$(call check_failed,$2)" \
		check-fail-probe > "$tmp/out" 2>&1 || status=$?
	if [ "$status" -ne 0 ] && grep -qxF "$3" "$tmp/out"; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		echo "#   make exited $status, printed: $(tr '\n' '|' < "$tmp/out")"
	fi
}

echo "TAP version 13"
echo "1..2"
check make_target shellcheck "check: FAIL at shellcheck; rerun: make shellcheck"
check script tests/run.sh "check: FAIL at tests/run.sh; rerun: tests/run.sh"
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
