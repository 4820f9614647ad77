#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/stages/expect.sh, which checks ci-base's and make ci's results
# (results.json, made here by the verdict from recorded KTAP):
# a matching file passes; a wrong status, a failed subtest or a pattern
# that matches nothing fails.
set -eu

# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
dir=$top/tests/expect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
make -C "$top" --no-print-directory -s build/tools/verdict

# check NAME WANT KTAP EXPECT: expect.sh on the results.json that the
# verdict makes of KTAP (build/tools/verdict, built below)
check() {
	name=$1 want=$2
	shift 2
	json=$tmp/$(basename "$1" .ktap).json
	rm -f "$json"
	[ ! -f "$1" ] || "$top/build/tools/verdict" --json "$json" "$1" > /dev/null || true
	if "$top/tools/stages/expect.sh" "$json" "$2" > "$tmp/out" 2>&1; then got=0; else got=1; fi
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
		echo "ok $((pass + fail)) $name"
	else
		fail=$((fail + 1))
		echo "not ok $((pass + fail)) $name (exit $got, wanted $want)"
		sed 's/^/# /' "$tmp/out"
	fi
}

check matching 0 "$dir/base.ktap" "$dir/base.expect"
echo "lsm_map_create/default_probes SKIP" > "$tmp/status.expect"
check wrong_status 1 "$dir/base.ktap" "$tmp/status.expect"
echo "lsm_map_create/btf_load SKIP" > "$tmp/failed.expect"
check failed_subtest 1 "$dir/base.ktap" "$tmp/failed.expect"
echo "lsm_map_create/no_such_* ok" > "$tmp/none.expect"
check pattern_matches_nothing 1 "$dir/base.ktap" "$tmp/none.expect"
check missing_results 1 "$tmp/none.ktap" "$dir/base.expect"
# make ci's ci/tip.expect: a skip fails the tip, as a failure does
check tip_refuses_skips 1 "$dir/base.ktap" "$top/ci/tip.expect"
grep -v ' # SKIP' "$dir/base.ktap" | grep -v '^    not ok' > "$tmp/tip.ktap"
check tip_all_ok 0 "$tmp/tip.ktap" "$top/ci/tip.expect"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
