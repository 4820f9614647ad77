#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot: run the kernel and initramfs in QEMU with the serial console in a log
# file. KVM when it works, TCG otherwise: where /dev/kvm exists but a KVM
# guest hangs silently, no kernel output within $KVM_PROBE seconds means
# falling back to TCG (and saying so). A guest still running after
# $BOOT_TIMEOUT seconds, or silent on the console for $IDLE_TIMEOUT
# seconds, is killed, and a QEMU that exits with an error is reported
# (its stderr is LOG.stderr): the log says so on a last line that starts
# with "ci-boot: ", which the verdict reads.
#
# The probe's answer is kept in $ACCEL_CACHE, if set, for the next boots.
#
# Beside the log: LOG.cmdline, the QEMU command that ran, to rerun by hand;
# LOG.stderr, QEMU's stderr; LOG.status, the boot's outcome as KEY=VALUE
# lines: accel (kvm, tcg), exit (QEMU's exit status, or "killed"),
# seconds, and reason (why it was killed or failed; empty otherwise).
#
# With LOG "-", the console is this terminal (make shell, make gdb): QEMU
# runs in the foreground with no timeout; Ctrl-A X stops it.
#
# Where stderr is a terminal, the run shows as it goes: each top-level
# test's result as its line reaches the console (coloured, unless
# NO_COLOR is set), and after HEARTBEAT seconds without one, a line that
# names the test running. Elsewhere (CI logs) it prints nothing more.
#
# usage: boot.sh BZIMAGE INITRAMFS LOG|- [EXTRA KERNEL ARGS]
# env:   ACCEL=auto|kvm|tcg  BOOT_TIMEOUT=900  IDLE_TIMEOUT=660 (0: none;
#        longer than the init's 600 s test timeout, which names the test)
#        KVM_PROBE=5  ACCEL_CACHE=FILE  HEARTBEAT=30
#        SMP=2 (vCPUs)  QEMU_EXTRA= (more QEMU options, e.g. make bench's
#        -icount, which takes TCG)
set -eu
STAGE=boot
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

[ $# -ge 3 ] || die "usage: boot.sh BZIMAGE INITRAMFS LOG [KERNEL ARGS]"
kernel=$1 initramfs=$2 log=$3
shift 3
accel=${ACCEL:-auto}
timeout=${BOOT_TIMEOUT:-900}
idle=${IDLE_TIMEOUT:-660}
probe=${KVM_PROBE:-5}
heartbeat=${HEARTBEAT:-30}

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
	# printk.time=1: a stamp marks a kernel record that the console
	# prints in the middle of a user-space line, for ci/verdict.c
	append="console=ttyS0 panic=-1 printk.time=1 ci.cpus=${SMP:-2} $*"
	# shellcheck disable=SC2086 # QEMU_EXTRA is a list of options
	set -- qemu-system-x86_64 -accel "$a" -cpu "$cpu" -m 1G -smp "${SMP:-2}" \
		${QEMU_EXTRA:-} -display none -no-reboot \
		-kernel "$kernel" -initrd "$initramfs" -append "$append"
	if [ "$log" = - ]; then
		note "QEMU on this terminal with $a; Ctrl-A X stops it"
		exec "$@" -serial mon:stdio
	fi
	set -- "$@" -monitor none -serial "file:$log"
	for arg; do
		printf "'%s' " "$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")"
	done > "$log.cmdline"
	echo >> "$log.cmdline"
	: > "$log"
	rm -f "$log.status"
	"$@" 2> "$log.stderr" &
	pid=$!
}

watch=no
[ "$log" = - ] || [ ! -t 2 ] || watch=yes
shown=0	# console lines watch_console() has read
heard=0	# the boot's second of the last line it printed

# On a terminal: the top-level results the console has now that it did
# not have before, and a heartbeat after $heartbeat quiet seconds (not
# with $1 "last": QEMU has exited, its last lines are all to show)
watch_console() {
	lines=$(wc -l < "$log")
	if [ "$lines" -gt "$shown" ]; then
		sed -n "$((shown + 1)),${lines}p" "$log" | tr -d '\r' |
			grep -a -E '^(not )?ok [0-9]+ ' | sed 's/^/  /' | paint >&2
		# a result among them, or the first line: the boot is heard
		sed -n "$((shown + 1)),${lines}p" "$log" | grep -a -q -E '^(not )?ok [0-9]+ ' &&
			heard=$n
		shown=$lines
	fi
	if [ "${1:-}" != last ] && [ $((n - heard)) -ge "$heartbeat" ]; then
		running=$(sed -n 's/^# ci-init: running \([^ ]*\).*/\1/p' "$log" | tail -n 1 | tr -d '\r')
		note "$n s: ${running:+$running running, }nothing new for $((n - heard)) s"
		heard=$n
	fi
}

# Wait for QEMU to exit. 0 if it did; else sets $why, the reason it is
# still running, and returns 1: $timeout seconds passed, or $idle seconds
# without console output. (Not in a subshell: an exited QEMU is a zombie
# that kill -0 still finds until this shell reaps it.)
wait_qemu() {
	n=0
	quiet=0
	size=0
	while kill -0 "$pid" 2> /dev/null; do
		if [ "$n" -ge "$timeout" ]; then
			why="QEMU killed after $timeout s"
			return 1
		fi
		if [ "$idle" -gt 0 ] && [ "$quiet" -ge "$idle" ]; then
			why="no console output for $idle s, QEMU killed after $n s"
			return 1
		fi
		sleep 1
		n=$((n + 1))
		now=$(stat -c %s "$log" 2> /dev/null || echo 0)
		if [ "$now" = "$size" ]; then
			quiet=$((quiet + 1))
		else
			quiet=0
			size=$now
		fi
		[ "$watch" = no ] || watch_console
	done
	# what it wrote after the last look and before it exited
	[ "$watch" = no ] || watch_console last
	return 0
}

stop_qemu() {
	kill "$pid" 2> /dev/null || true
	wait "$pid" 2> /dev/null || true
}

pid=
# An interrupted boot says so in its status file.
interrupted() {
	[ -z "$pid" ] || stop_qemu
	[ "$log" = - ] || echo "exit=interrupted" > "$log.status"
	exit "$1"
}
trap 'interrupted 129' HUP
trap 'interrupted 130' INT
trap 'interrupted 143' TERM

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

started=$(date +%s)
start_qemu "$accel" "$@"
if [ "$accel" = kvm ] && [ "$probing" = yes ]; then
	n=0
	while [ ! -s "$log" ] && kill -0 "$pid" 2> /dev/null && [ "$n" -lt "$probe" ]; do
		sleep 1
		n=$((n + 1))
	done
	# Still running and silent: KVM hangs here. Exited and silent: KVM
	# fails here (seen: QEMU's assertion in
	# kvm_buf_set_msrs under nested virtualisation); a QEMU that fails
	# under TCG as well is reported below, and keeps the cache as it is.
	if [ ! -s "$log" ] && kill -0 "$pid" 2> /dev/null; then
		stop_qemu
		note "no kernel output under KVM within $probe s: falling back to TCG (ACCEL=kvm forces KVM)"
		accel=tcg
		start_qemu tcg "$@"
	elif [ ! -s "$log" ]; then
		status=0
		wait "$pid" || status=$?
		note "QEMU exited under KVM before any kernel output (exit status $status: $(grep . "$log.stderr" | tail -n 1)): falling back to TCG (ACCEL=kvm forces KVM)"
		accel=tcg
		start_qemu tcg "$@"
	fi
fi
note "QEMU running with $accel, serial console in $log"

# A line of its own, even when the guest's output stopped mid-line
ci_boot() {
	[ ! -s "$log" ] || [ -z "$(tail -c 1 "$log")" ] || echo >> "$log"
	echo "ci-boot: $*" >> "$log"
	note "$*"
}

reason=
if wait_qemu; then
	status=0
	wait "$pid" || status=$?
	if [ "$status" -ne 0 ]; then
		# QEMU's error is its last line; warnings come before it
		reason="QEMU failed: exit status $status: $(grep . "$log.stderr" | tail -n 1)"
		ci_boot "$reason"
	fi
else
	stop_qemu
	status=killed
	reason="timeout: $why ($accel)"
	ci_boot "$reason"
fi
pid=
# The probe's answer, unless QEMU itself failed (that says nothing of KVM)
case $status in
0 | killed) [ "$probing" = no ] || [ -z "$cache" ] || echo "$accel" > "$cache" ;;
esac
printf 'accel=%s\nexit=%s\nseconds=%s\nreason=%s\n' "$accel" "$status" \
	"$(($(date +%s) - started))" "$reason" > "$log.status"
