#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bisect: find the commit of the series that broke a test. git bisect run
# in the steps worktree (tools/lib/lib.sh), each step built and tested by
# tools/series/step.sh running TEST only, or the whole suite when TEST is empty;
# TREE and the tip's build stay as they are, and the bisect is reset at
# the end, however it ends.
#
# usage: bisect.sh TREE OVERLAY GOOD BAD [TEST[/SUBTEST]]
#   GOOD, BAD: commits of TREE, or patch names (or prefixes) from series
set -eu
STAGE=bisect
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

if [ $# -ne 5 ] || [ -z "$3" ] || [ -z "$4" ]; then
	die "usage: make bisect GOOD=<rev|patch> BAD=<rev|patch> [TEST=<test>[/<subtest>]]"
fi
is_count "${TRIES:-1}" || die "TRIES=$TRIES is not a count of tries (1 or more)"
tree=$1
overlay=$2
test=$5

good=$(resolve_rev "$tree" "$overlay" "$3") ||
	die "GOOD=$3 is neither a commit of $tree nor a patch of $overlay/series"
bad=$(resolve_rev "$tree" "$overlay" "$4") ||
	die "BAD=$4 is neither a commit of $tree nor a patch of $overlay/series"
git -C "$tree" merge-base --is-ancestor "$good" "$bad" ||
	die "GOOD=$3 is not an ancestor of BAD=$4"

out=$top/build/bisect
steps=$top/build/steps/linux
steps_tree "$tree" "$bad" "$steps"
rm -rf "$out"
mkdir -p "$out"
# A step stopped half-way leaves edits, which git bisect reset keeps. Each
# command on its own: set -e would end an EXIT trap at its first failure.
on_exit 'if is_worktree "$tree" "$steps"; then
	git -C "$steps" reset -q --hard || true
	git -C "$steps" bisect reset > /dev/null 2>&1 || true
fi'

note "bisecting $(git -C "$tree" rev-list --count "$good..$bad") commit(s) for ${test:-the whole suite}; logs in $out"
git -C "$steps" bisect start "$bad" "$good" > /dev/null
# Each step in build/bisect/COMMIT/ (its step.json says what step.sh
# found), the commits in the order git visited them in build/bisect/steps.
git -C "$steps" bisect run sh -c '
	c=$(git rev-parse --short HEAD)
	echo "$c" >> "$1/steps"
	"$0" "$1/$c" "$2"' "$top/tools/series/step.sh" "$out" "$test" > "$out/bisect.log" 2>&1 || true
# One line per step: commit, subject, the summary of its step.json
[ ! -f "$out/steps" ] || while read -r c; do
	printf '  %s %s: %s\n' "$c" "$(git -C "$tree" log -1 --format=%s "$c")" \
		"$(python3 "$top/tools/lib/results.py" get "$out/$c/step.json" summary 2> /dev/null ||
			echo "no step.json: step.sh stopped (see $out/bisect.log)")" >&2
done < "$out/steps"

first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$out/bisect.log")
if [ -z "$first" ]; then
	sed 's/^/  /' "$out/bisect.log" | tail -n 15 >&2
	die "git bisect named no first bad commit (see $out/bisect.log): untestable steps around it, or GOOD is not good"
fi
echo "first bad commit: $(git -C "$tree" log -1 --format='%h %s' "$first")"
