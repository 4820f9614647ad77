#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# summary: show verdict's summary, SUMMARY (the whole tree). On a
# terminal, all but the passed results: the verdict, what failed or
# skipped, the console's context of a kernel report and the counts,
# coloured unless NO_COLOR is set, then where the whole tree is.
# Elsewhere (CI logs), the whole tree as it is.
#
# usage: summary.sh SUMMARY
set -eu
STAGE=verdict
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

{ [ $# -eq 1 ] && [ -f "$1" ]; } || die "usage: summary.sh SUMMARY (verdict's output)"
if [ -t 1 ]; then
	grep -v -E '^ *ok ' "$1" | paint || true
	echo "the whole tree: $1"
else
	cat "$1"
fi
