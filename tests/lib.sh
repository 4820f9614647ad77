# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the harness's TAP-style tests share. Source it after set -eu: it
# makes $tmp (removed on exit) and counts results in $pass and $fail;
# end the test with 'summary'.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok $((pass + fail)) $1"
}

not_ok() {
	fail=$((fail + 1))
	echo "not ok $((pass + fail)) $1"
	sed 's/^/# /' "$tmp/out"
}

# expect NAME STATUS PATTERN CMD...: CMD exits with STATUS (0 or nonzero)
# and its output matches the grep -E PATTERN ("": any output, none too).
# The output stays in $tmp/last for the checks that follow.
expect() {
	name=$1 want=$2 pattern=$3
	shift 3
	if "$@" > "$tmp/out" 2>&1; then got=0; else got=1; fi
	[ "$want" = 0 ] || want=1
	cp "$tmp/out" "$tmp/last"
	if [ "$got" = "$want" ] && { [ -z "$pattern" ] || grep -qE -- "$pattern" "$tmp/out"; }; then
		ok "$name"
	else
		not_ok "$name (exit $got, wanted $want and /$pattern/)"
	fi
}

# The counts, and the test's exit status
summary() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
