#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# expect: check the subtest results of a run, the verdict's results.json,
# against an expectation file of "<test>/<subtest pattern> <ok|SKIP>"
# lines: every matching result must have that status, and every line must
# match at least one result (tools/lib/results.py, expect).
#
# usage: expect.sh RESULTS.json EXPECT
set -eu
STAGE=expect
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 2 ] || die "usage: expect.sh RESULTS.json EXPECT"
[ -f "$1" ] || die "$1 is missing; boot and run make verdict first"
exec python3 "$top/tools/lib/results.py" expect "$1" "$2"
