# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the harness's TAP-style tests share. Source it after set -eu: it
# makes $tmp (removed on exit) and counts results in $pass and $fail;
# end the test with 'summary'.

tmp=$(mktemp -d)
# dash runs the EXIT trap on SIGINT or SIGTERM only when those are trapped
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok $((pass + fail)) $1"
}

not_ok() {
	fail=$((fail + 1))
	echo "not ok $((pass + fail)) $1"
}

# result NAME WHY: ok, unless there is a WHY (why it failed)
result() {
	if [ -z "$2" ]; then ok "$1"; else not_ok "$1: $2"; fi
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
		sed 's/^/# /' "$tmp/out"
	fi
}

# check_tool TOOL DIR MISMATCH NAME STATUS ARG...: python3 TOOL ARG...
# exits with STATUS and prints DIR/NAME.expect; else it fails, saying
# "not ok NAME: MISMATCH from DIR/NAME.expect" after the diff. Its lines
# are unnumbered, as its callers' have always been.
check_tool() {
	tool=$1 dir=$2 mismatch=$3 name=$4 want=$5
	shift 5
	got=0
	python3 "$tool" "$@" > "$tmp/$name" 2> "$tmp/$name.err" || got=$?
	if [ "$got" != "$want" ]; then
		echo "not ok $name: exit status $got, want $want"
		cat "$tmp/$name.err"
		return 1
	elif ! diff -u "$dir/$name.expect" "$tmp/$name"; then
		echo "not ok $name: $mismatch from $dir/$name.expect"
		return 1
	fi
	echo "ok $name"
}

# The counts, and the test's exit status
summary() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
