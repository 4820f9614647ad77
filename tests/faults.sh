#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-faults: drive the real kernel and QEMU into each failure the
# verdict must catch, and check that it fails the run with that failure's
# own reason line. The guest side is the init's ci.fault= and the ci-fault
# binary (initramfs/faults/ci-fault.c); a failing QEMU is made here.
#
# usage: tests/faults.sh BZIMAGE INITRAMFS VERDICT OUTDIR
# Each fault's serial log and verdict output are kept in OUTDIR/NAME/.
set -eu
STAGE=check-faults
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

[ $# -eq 4 ] || die "usage: tests/faults.sh BZIMAGE INITRAMFS VERDICT OUTDIR"
bz=$1
initramfs=$2
verdict=$3
out=$4
for f in "$bz" "$initramfs" "$verdict"; do
	[ -f "$f" ] || die "$f is missing; run make ci first"
done

# A hang must end well before the boot timeout: every guest here is
# stopped after IDLE seconds of silence.
IDLE=45
HANG_BOUND=120

# NAME|KERNEL ARGS|ENV for boot.sh|extended regex the verdict's first line
# must match
faults="\
panic|ci.fault=panic||^verdict: FAIL: kernel panic: Kernel panic - not syncing: sysrq triggered crash
hang|ci.fault=hang||^verdict: FAIL: hang: ci-boot: timeout: no console output for $IDLE s
kill|ci.fault=kill||^verdict: FAIL: 1 of 1 tests failed: ci-fault\$
oom|ci.fault=oom||^verdict: FAIL: kernel oom: .* invoked oom-killer: 
cut|ci.fault=cut||^verdict: FAIL: truncated: plan says 1 tests, log has results for 0 
fake|ci.fault=fake||^verdict: FAIL: duplicate result: test 1 \\(ci-fault\\) reported twice\$
kmsg|ci.fault=kmsg printk.devkmsg=on||^verdict: FAIL: 1 of 1 tests failed: ci-fault/result_20\$
plan|ci.fault=plan ci.test=smoke||^verdict: FAIL: truncated: plan says 2 tests, log has results for 1 \\(last result: smoke\\)\$
noktap|ci.fault=noktap||^verdict: FAIL: no KTAP output: the init did not run the tests\$
cpus|ci.test=smoke ci.cpus=8||^verdict: FAIL: 1 of 2 tests failed: guest_cpus\$
qemu|ci.test=smoke|QEMU_EXTRA=-no-such-option|^verdict: FAIL: boot failed: ci-boot: QEMU failed: exit status 1: .*-no-such-option"

# What else fault $1's summary or log must say, beyond the reason line
extra() {
	case $1 in
	kill) echo "# ci-fault: test binary killed by signal 9" ;;
	kmsg) echo "ci-fault: a kernel message between KTAP lines" ;;
	fake) echo "# ci-fault: exit status 1, but its result line is: ok 1 ci-fault" ;;
	cpus) echo "# guest_cpus: QEMU was asked for 8 CPUs (ci.cpus), the kernel brought up 2" ;;
	esac
}

n=0
failed=0
echo "TAP version 13"
echo "1..$(printf '%s\n' "$faults" | wc -l)"
while IFS='|' read -r name args env want; do
	n=$((n + 1))
	d=$out/$name
	rm -rf "$d"
	mkdir -p "$d"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $env and $args are lists of words
	env IDLE_TIMEOUT=$IDLE BOOT_TIMEOUT=600 $env "$top/ci/boot.sh" "$bz" "$initramfs" \
		"$d/serial.log" $args > "$d/boot.out" 2>&1 ||
		die "ci/boot.sh failed for fault $name; see $d/boot.out"
	took=$(($(date +%s) - start))
	status=0
	"$verdict" --splats "$top/ci/splats" "$d/serial.log" > "$d/verdict" ||
		status=$?
	problems=
	[ "$status" -eq 1 ] || problems="verdict exited $status, not 1 (FAIL)"
	head -n 1 "$d/verdict" | grep -qE "$want" ||
		problems="${problems:+$problems
}reason '$(head -n 1 "$d/verdict")' does not match '$want'"
	extra=$(extra "$name")
	if [ -n "$extra" ] && ! grep -qF -- "$extra" "$d/verdict" "$d/serial.log"; then
		problems="${problems:+$problems
}neither the verdict nor the log has '$extra'"
	fi
	if [ "$name" = hang ] && [ "$took" -gt "$HANG_BOUND" ]; then
		problems="${problems:+$problems
}the hang took $took s to end, more than $HANG_BOUND s"
	fi
	if [ -z "$problems" ]; then
		echo "ok $n - $name ($took s): $(head -n 1 "$d/verdict")"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name ($took s)"
		printf '%s\n' "$problems" "(log: $d/serial.log)" | sed 's/^/#   /'
	fi
done <<EOT
$faults
EOT
[ "$failed" -eq 0 ] || die "$failed of $n faults were not caught as they should be"
note "all $n faults failed their runs with their own reasons"
