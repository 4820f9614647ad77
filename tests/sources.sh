#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every file a shell script sources by a path relative to itself,
# '. "$(dirname "$0")/PATH"', is there. shellcheck cannot tell: the
# "# shellcheck source=" line above each names the file from the top of
# the repository, whatever the line below says (a script moved to
# another folder kept a path that led nowhere).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."

for f in $(git ls-files '*.sh'); do
	rel=$(sed -n 's/^[[:space:]]*\. "\$(dirname "\$0")\/\([^"]*\)"$/\1/p' "$f")
	for r in $rel; do
		if [ -f "$(dirname "$f")/$r" ]; then
			ok "$f sources $r"
		else
			not_ok "$f sources $r, which is not there"
		fi
	done
done
summary
