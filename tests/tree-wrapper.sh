#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make tree-test-progs' wrapper (initramfs/tree-test-progs-wrapper), which
# turns a run of the tree's test_progs into a KTAP result line, against
# stand-ins for test_progs: only an exit status of 0 with a summary that
# counts a test passed, none skipped and none failed is ok. A filter that
# matched nothing exits 0 too, as does a test that skipped.
set -eu
STAGE=tests/tree-wrapper.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'
cp "$top/initramfs/tree-test-progs-wrapper" "$tmp/lsm_map_create"
n=0
failed=0
# check EXIT SUMMARY WANT: test_progs exits EXIT after printing SUMMARY
# (none: no summary line); the wrapper must print WANT as its result line.
check() {
	n=$((n + 1))
	{
		echo '#!/bin/sh'
		echo 'echo "args: $*"'
		echo 'echo "#1/1     lsm_map_create/x:OK"'
		[ "$2" = none ] || echo "echo '$2'"
		echo "exit $1"
	} > "$tmp/test_progs"
	chmod +x "$tmp/test_progs"
	got=$(TREE_DIR=$tmp KTAP_INDEX=7 "$tmp/lsm_map_create" -t sub |
		grep -E '^(not )?ok ' || true)
	args=$(TREE_DIR=$tmp KTAP_INDEX=7 "$tmp/lsm_map_create" | grep '^# args:' || true)
	if [ "$got" = "$3" ] && [ "$args" = "# args: -a lsm_map_create" ]; then
		echo "ok $n exit $1, '$2': $3"
	else
		echo "not ok $n exit $1, '$2': want '$3', got '$got' (args: '$args')"
		failed=$((failed + 1))
	fi
}

check 0 'Summary: 1/42 PASSED, 0 SKIPPED, 0 FAILED' 'ok 7 lsm_map_create'
check 0 'Summary: 0/0 PASSED, 0 SKIPPED, 0 FAILED' 'not ok 7 lsm_map_create'
check 0 'Summary: 0/3 PASSED, 1 SKIPPED, 0 FAILED' 'not ok 7 lsm_map_create'
check 0 'Summary: 1/42 PASSED, 1 SKIPPED, 0 FAILED' 'not ok 7 lsm_map_create'
check 1 'Summary: 1/41 PASSED, 0 SKIPPED, 1 FAILED' 'not ok 7 lsm_map_create'
check 1 'Summary: 1/42 PASSED, 0 SKIPPED, 0 FAILED' 'not ok 7 lsm_map_create'
check 0 none 'not ok 7 lsm_map_create'
check 137 none 'not ok 7 lsm_map_create'
# the subtest filter of ci.test=NAME/SUBTEST
printf '#!/bin/sh\necho "args: $*"\n' > "$tmp/test_progs"
args=$(TREE_DIR=$tmp KTAP_INDEX=1 "$tmp/lsm_map_create" -t sub | grep '^# args:' || true)
n=$((n + 1))
if [ "$args" = "# args: -a lsm_map_create/sub" ]; then
	echo "ok $n -t sub filters lsm_map_create/sub"
else
	echo "not ok $n -t sub: test_progs got '$args'"
	failed=$((failed + 1))
fi
[ "$failed" -eq 0 ] || die "$failed of $n checks failed"
echo "# tree-wrapper: $n checks passed"
