#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check's last line when a step fails: the Makefile's check_failed,
# called as the check recipe calls it, after a failing command, for a
# make target and for a script. make's status must say failure too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"

# probe STEP: a recipe that fails, then reports STEP as check's does
probe() {
	make --no-print-directory -C "$top" \
		--eval "check-fail-probe: ; @false || \$(call check_failed,$1)" \
		check-fail-probe
}

expect make_target 1 '^check: FAIL at shellcheck; rerun: make shellcheck$' \
	probe shellcheck
expect script 1 '^check: FAIL at tests/run\.sh; rerun: tests/run\.sh$' \
	probe tests/run.sh
summary
