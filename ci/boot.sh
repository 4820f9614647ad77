#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot: run the kernel and initramfs in QEMU with the serial console in a log
# file. KVM when it works, TCG otherwise: where /dev/kvm exists but a KVM
# guest hangs silently, no kernel output within $KVM_PROBE seconds means
# falling back to TCG (and saying so). A guest still running after
# $BOOT_TIMEOUT seconds is killed, and the log says so on its last line.
#
# The probe's answer is kept in $ACCEL_CACHE, if set, for the next boots.
#
# usage: boot.sh BZIMAGE INITRAMFS LOG [EXTRA KERNEL ARGS]
# env:   ACCEL=auto|kvm|tcg  BOOT_TIMEOUT=900  KVM_PROBE=5  ACCEL_CACHE=FILE
#        SMP=2 (vCPUs)  QEMU_EXTRA= (more QEMU options, e.g. make bench's
#        -icount, which takes TCG)
set -eu
STAGE=boot
. "$(dirname "$0")/../tools/lib.sh"

[ $# -ge 3 ] || die "usage: boot.sh BZIMAGE INITRAMFS LOG [KERNEL ARGS]"
kernel=$1
initramfs=$2
log=$3
shift 3
accel=${ACCEL:-auto}
timeout=${BOOT_TIMEOUT:-900}
probe=${KVM_PROBE:-5}

[ -f "$kernel" ] || die "$kernel is missing; run make kernel"
[ -f "$initramfs" ] || die "$initramfs is missing; run make initramfs"
command -v qemu-system-x86_64 > /dev/null ||
	die "qemu-system-x86_64 is missing; apt-get install qemu-system-x86 (or make deps)"

# Start QEMU in the background with accelerator $1; its pid goes to $pid.
start_qemu() {
	a=$1
	shift
	case $a in
	kvm) cpu=host ;;
	*) cpu=max ;;
	esac
	: > "$log"
	# shellcheck disable=SC2086 # QEMU_EXTRA is a list of options
	qemu-system-x86_64 -accel "$a" -cpu "$cpu" -m 1G -smp "${SMP:-2}" \
		${QEMU_EXTRA:-} \
		-display none -monitor none -no-reboot \
		-serial "file:$log" \
		-kernel "$kernel" -initrd "$initramfs" \
		-append "console=ttyS0 panic=-1 $*" &
	pid=$!
}

# Wait up to $1 seconds for QEMU to exit; 0 if it did, 1 if still running.
wait_qemu() {
	n=0
	while kill -0 "$pid" 2> /dev/null; do
		[ "$n" -lt "$1" ] || return 1
		sleep 1
		n=$((n + 1))
	done
	return 0
}

stop_qemu() {
	kill "$pid" 2> /dev/null || true
	wait "$pid" 2> /dev/null || true
}

cache=${ACCEL_CACHE:-}
if [ "$accel" = auto ] && [ -n "$cache" ] && [ -s "$cache" ]; then
	accel=$(cat "$cache")
	note "using $accel, as probed before (remove $cache to probe again)"
fi
if [ "$accel" = auto ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		accel=kvm
	else
		note "/dev/kvm is not usable here: using TCG"
		accel=tcg
	fi
	probing=yes
else
	probing=no
fi

start_qemu "$accel" "$@"
if [ "$accel" = kvm ] && [ "$probing" = yes ]; then
	n=0
	while [ ! -s "$log" ] && kill -0 "$pid" 2> /dev/null && [ "$n" -lt "$probe" ]; do
		sleep 1
		n=$((n + 1))
	done
	if [ ! -s "$log" ]; then
		stop_qemu
		note "no kernel output under KVM within $probe s: falling back to TCG (ACCEL=kvm forces KVM)"
		accel=tcg
		start_qemu tcg "$@"
	fi
fi
note "QEMU running with $accel, serial console in $log"
if [ "$probing" = yes ] && [ -n "$cache" ]; then
	echo "$accel" > "$cache"
fi

if ! wait_qemu "$timeout"; then
	stop_qemu
	echo "ci-boot: timeout: QEMU killed after $timeout s ($accel)" >> "$log"
	note "the guest did not finish within $timeout s; killed it"
fi
wait "$pid" 2> /dev/null || true
echo "$accel" > "$log.accel"
