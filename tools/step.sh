#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# step: build and test the scratch tree at whatever commit it has checked
# out: the kernel (incrementally, in the one build directory), the tests
# that exist at this commit, a boot, the verdict; for the whole suite, also
# make ci's second boot (make grant-off) where this commit has its test.
# One line on stdout says what happened; the logs are in OUTDIR.
#
# Exit status as git bisect run wants it: 0 the tests passed, 1 they
# failed, 125 this commit cannot be tested: the kernel or the tests do not
# build, TEST does not exist at this commit, or the guest failed before
# the test ran (no KTAP from it: a panic or hang at boot, QEMU failing).
#
# A failing run is tried again up to TRIES times in all (default 1), each
# a boot of its own with ci.try=N on the kernel command line; the step
# fails only if every try failed, so that a flaky test does not make a
# good commit bad. Try N's logs are OUTDIR/serial.log and verdict.txt
# (the last try), and OUTDIR/try-N/ for the tries before it.
#
# usage: step.sh OUTDIR [TEST[/SUBTEST]]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
STAGE=step
# shellcheck source=tools/lib.sh
. "$top/tools/lib.sh"
out=$1
test=${2:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$top" || exit 125
# make KCONFIG=debug (series-check, bisect) builds its tests apart
tests_o=build/tests${KCONFIG:+-$KCONFIG}

untestable() {
	echo "untestable: $*"
	exit 125
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
	untestable "the kernel does not build (see $out/kernel.log)"
phase_end kernel
phase_start
make --no-print-directory tests initramfs > "$out/tests.log" 2>&1 ||
	untestable "the tests do not build (see $out/tests.log)"
phase_end tests
if [ -n "$test" ] && ! grep -qx "${test%%/*}" "$tests_o/order"; then
	untestable "no test '${test%%/*}' at this commit"
fi

tries=${TRIES:-1}
case $tries in
'' | *[!0-9]* | 0*) echo "TRIES=$tries is not a count of tries" >&2; exit 2 ;;
esac
try=1
while :; do
	phase_start
	make --no-print-directory boot CI_O="$out" SERIAL_LOG="$out/serial.log" \
		KERNEL_ARGS="ci.try=$try${test:+ ci.test=$test}" > "$out/boot.log" 2>&1
	phase_end boot
	make --no-print-directory verdict CI_O="$out" SERIAL_LOG="$out/serial.log" \
		> "$out/verdict.txt" 2>&1
	status=$?
	if [ -n "$test" ] && grep -q "# no subtest named" "$out/serial.log"; then
		untestable "no subtest '${test#*/}' of ${test%%/*} at this commit"
	fi
	line=$(verdict_json "$out/results.json" 2> /dev/null) ||
		untestable "verdict wrote no results file (see $out/verdict.txt)"
	[ $status -ne 0 ] || break
	# The test's own KTAP block, or for the whole suite any test's
	if ! grep -q "^ *# Subtest: ${test%%/*}" "$out/serial.log"; then
		untestable "the guest failed before the test ran: $line"
	fi
	if [ "$try" -ge "$tries" ]; then
		[ "$tries" -eq 1 ] || line="$line (all $tries tries failed)"
		echo "$line"
		exit 1
	fi
	mkdir -p "$out/try-$try"
	mv "$out/serial.log" "$out/verdict.txt" "$out/boot.log" "$out/try-$try/"
	try=$((try + 1))
done
[ "$try" -eq 1 ] || line="$line (on try $try of $tries: flaky)"

# The boot with grants locked off, in OUTDIR/grant-off/
if [ -z "$test" ] && grep -qx lsm_map_create "$tests_o/order" &&
   grep -q grant_off_switch_locked "$tests_o/bin/lsm_map_create"; then
	make --no-print-directory grant-off CI_O="$out" > "$out/grant-off.log" 2>&1 || {
		echo "FAIL: the boot with grants locked off (see $out/grant-off.log)"
		exit 1
	}
fi
echo "$line"
