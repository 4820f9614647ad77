#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The figures README.md states about the harness's defaults, checked
# against the code that defines them: a default changed in one place and
# not the other fails here.
#   BOOT_TIMEOUT, IDLE_TIMEOUT   README's "`NAME` (N s)", ci/boot.sh's
#                                ${NAME:-N}
#   REPEAT                       README's "selection ... in one boot
#                                (`REPEAT=N`", the Makefile's
#                                "REPEAT ?= N"
set -eu
STAGE=tests/doc-figures.sh
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/lib.sh
. "$top/tools/lib.sh"

n=0
failed=0
# check WHAT DOC_VALUE CODE_VALUE
check() {
	n=$((n + 1))
	if [ -n "$2" ] && [ "$2" = "$3" ]; then
		echo "ok $n $1: $2"
	else
		echo "not ok $n $1: README.md says '${2:-nothing}', the code '${3:-nothing}'"
		failed=$((failed + 1))
	fi
}

for v in BOOT_TIMEOUT IDLE_TIMEOUT; do
	check "$v" "$(sed -n "s/.*\`$v\` (\([0-9]*\) s).*/\1/p" "$top/README.md" | sort -u)" \
		"$(sed -n "s/.*\${$v:-\([0-9]*\)}.*/\1/p" "$top/ci/boot.sh")"
done
check REPEAT "$(sed -n 's/.*selection [a-z]* in one boot (`REPEAT=\([0-9]*\)`.*/\1/p' \
	"$top/README.md" | sort -u)" \
	"$(sed -n 's/^REPEAT ?= \([0-9]*\)$/\1/p' "$top/Makefile")"
[ "$failed" -eq 0 ] || die "$failed of $n figures in README.md disagree with the code"
echo "# doc-figures: $n figures agree"
