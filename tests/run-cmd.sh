#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/stages/run.sh --parse (make run): what a console log gives back, the
# command's output between "ci-run-begin" and "ci-run-exit STATUS", and
# its status; 125 where the command never finished.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
# check NAME WANT_STATUS WANT_OUTPUT LOG_LINES...
check() {
	name=$1 want_status=$2 want_out=$3
	shift 3
	n=$((n + 1))
	printf '%s\r\n' "$@" > "$tmp/log"
	status=0
	"$top/tools/stages/run.sh" --parse "$tmp/log" > "$tmp/out" 2> /dev/null || status=$?
	if [ "$status" = "$want_status" ] && [ "$(cat "$tmp/out")" = "$want_out" ]; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		echo "#   status $status (want $want_status), output: $(tr '\n' '|' < "$tmp/out")"
	fi
}

echo "TAP version 13"
echo "1..4"
check exit_0 0 "$(printf 'hello\n[    1.000000] a kernel line')" \
	'[    0.500000] Run /init as init process' ci-run-begin hello \
	'[    1.000000] a kernel line' 'ci-run-exit 0' '[    1.100000] reboot: Power down'
check exit_7 7 "" ci-run-begin 'ci-run-exit 7'
check hang 125 "$(printf 'partial\nci-boot: timeout: no console output for 660 s')" \
	ci-run-begin partial \
	'ci-boot: timeout: no console output for 660 s'
check no_begin 125 "" '[    0.100000] Kernel panic - not syncing: x'
echo "# $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
