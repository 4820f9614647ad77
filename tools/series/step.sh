#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# step: build and test the steps worktree, build/steps/linux, at whatever
# commit it has checked out (tools/lib/lib.sh, steps_tree): the kernel
# (incrementally, in build/steps/kernel: make STEPS=1), the tests
# that exist at this commit, a boot, the verdict; for the whole suite, also
# make ci's second boot (make grant-off) where this commit has its test.
# What happened goes to OUTDIR/step.json (docs/contracts.md: result
# pass, fail or untestable, and its cause), which make bisect and make
# series-check read; one line on stdout says it for a person; the logs
# are in OUTDIR.
#
# Exit status as git bisect run wants it: 0 the tests passed, 1 they
# failed, 125 this commit cannot be tested: the kernel or the tests do not
# build (cause kernel-build, tests-build), TEST does not exist at this
# commit (no-such-test, no-such-subtest), or the guest failed before the
# test ran (guest-failed-early: no KTAP from it, a panic or hang at boot,
# QEMU failing).
#
# A failing run is tried again up to TRIES times in all (default 1), each
# a boot of its own with ci.try=N on the kernel command line; the step
# fails only if every try failed and one of them reached the test (the
# verdict's results.json lists it: tools/lib/results.py, outcome), so that
# a flaky test does not make a good commit bad. A TRIES that is not a
# count exits 255, which stops git bisect run. Try N's logs are
# OUTDIR/serial.log and verdict.txt (the last try), and OUTDIR/try-N/ for
# the tries before it.
#
# usage: step.sh OUTDIR [TEST[/SUBTEST]]
set -u

STAGE=step
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
out=$1
test=${2:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$top" || exit 125
# Every make below builds the steps worktree, in directories of its own
# (make KCONFIG=debug: apart again).
export STEPS=1
tests_o=build/steps/tests${KCONFIG:+-$KCONFIG}

tries=${TRIES:-1}
try=1
rm -f "$out/step.json"
# finish RESULT CAUSE SUMMARY: write step.json, say SUMMARY, exit with
# git bisect run's status for RESULT
finish() {
	results=
	[ ! -f "$out/results.json" ] || results=$out/results.json
	python3 "$top/tools/lib/results.py" step-write "$out/step.json" "$1" "$2" "$3" \
		"$test" "$tries" "$try" ${results:+"$results"} || exit 125
	echo "$3"
	case $1 in
	pass) exit 0 ;;
	fail) exit 1 ;;
	*) exit 125 ;;
	esac
}
# untestable CAUSE WHY
untestable() {
	finish untestable "$1" "untestable: $2"
}

# Seconds each phase took, in $out/times, for make bench.
: > "$out/times"
phase_start() {
	t0=$(date +%s.%N)
}
phase_end() {
	echo "$1 $(echo "$(date +%s.%N) - $t0" | bc)" >> "$out/times"
}

phase_start
make --no-print-directory kernel > "$out/kernel.log" 2>&1 ||
	untestable kernel-build "the kernel does not build (see $out/kernel.log)"
phase_end kernel
phase_start
make --no-print-directory guest-tests initramfs > "$out/tests.log" 2>&1 ||
	untestable tests-build "the tests do not build (see $out/tests.log)"
phase_end tests
# the list of tests the initramfs's init runs, one a line
if [ -n "$test" ] && ! grep -qx "${test%%/*}" "$tests_o/order"; then
	untestable no-such-test "no test '${test%%/*}' at this commit"
fi

if ! is_count "$tries"; then
	# 255 stops git bisect run: a bad TRIES must not make commits bad
	echo "TRIES=$tries is not a count of tries" >&2
	exit 255
fi
reached=
while :; do
	phase_start
	make --no-print-directory boot CI_O="$out" SERIAL_LOG="$out/serial.log" \
		KERNEL_ARGS="ci.try=$try${test:+ ci.test=$test}" > "$out/boot.log" 2>&1
	phase_end boot
	rm -f "$out/results.json"	# no try reads an earlier try's results
	make --no-print-directory verdict CI_O="$out" SERIAL_LOG="$out/serial.log" \
		> "$out/verdict.txt" 2>&1
	status=$?
	if ! line=$(verdict_json "$out/results.json" 2> /dev/null) ||
	   ! outcome=$(try_outcome "$out/results.json" "$test"); then
		untestable no-results "verdict wrote no results file (see $out/verdict.txt)"
	fi
	case $status:$outcome in
	*:no-subtest)
		untestable no-such-subtest "no subtest '${test#*/}' of ${test%%/*} at this commit" ;;
	0:pass) break ;;
	*:fail) reached=$line ;;
	*:not-reached) ;;
	*) untestable no-results "the verdict exited $status, but its results file says $outcome" ;;
	esac
	if [ "$try" -ge "$tries" ]; then
		# No try reached the test: the commit says nothing about it.
		[ -n "$reached" ] ||
			untestable guest-failed-early "the guest failed before the test ran: $line"
		[ "$tries" -eq 1 ] || reached="$reached (all $tries tries failed)"
		finish fail tests-failed "$reached"
	fi
	mkdir -p "$out/try-$try"
	mv "$out/serial.log" "$out/verdict.txt" "$out/boot.log" "$out/try-$try/"
	try=$((try + 1))
done
[ "$try" -eq 1 ] || line="$line (on try $try of $tries: flaky)"

# The boot with grants locked off, in OUTDIR/grant-off/, where this
# commit has its subtest: lsm_map_create/grant_off_switch_locked came with
# grant_off_switch, which the boot above ran (its results.json lists it).
# Should the two ever part, the boot's results say no_such_subtest.
if [ -z "$test" ] && python3 "$top/tools/lib/results.py" has "$out/results.json" \
	lsm_map_create/grant_off_switch; then
	if ! make --no-print-directory grant-off CI_O="$out" > "$out/grant-off.log" 2>&1 &&
	   [ "$(try_outcome "$out/grant-off/results.json" \
		lsm_map_create/grant_off_switch_locked 2> /dev/null)" != no-subtest ]; then
		finish fail grant-off-failed "FAIL: the boot with grants locked off (see $out/grant-off.log)"
	fi
fi
finish pass "" "$line"
