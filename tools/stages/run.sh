#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run: boot the guest, run one shell command in it as root, print what it
# printed and exit with its exit status (make run CMD='...'). The command
# travels base64-encoded on the kernel command line (ci.run=); the init
# runs it with sh -c between two console lines, "ci-run-begin" and
# "ci-run-exit STATUS", and powers the guest off.
#
# What the console shows between them is printed as it is, kernel
# messages included (printk.time stamps them). A boot that ends without
# "ci-run-exit" (a panic, a hang, a command that never returns) exits
# 125 with the reason and the log's name.
#
# usage: run.sh BZIMAGE INITRAMFS LOG CMD [EXTRA KERNEL ARGS]
#        run.sh --parse LOG	(print the output in LOG, exit with its status)
set -eu
STAGE=run
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

# The kernel keeps 2048 bytes of command line; leave room for the rest
MAX_CMD=1024

# Print what the command printed in console log $1; exit with its status
parse() {
	tr -d '\r' < "$1" | awk '
		/^ci-run-begin$/ { on = 1; next }
		on && /^ci-run-exit [0-9]+$/ { status = $2; done = 1; exit }
		on { print }
		END { exit done ? status : 125 }'
}

if [ "${1:-}" = --parse ]; then
	[ $# -eq 2 ] || die "usage: run.sh --parse LOG"
	parse "$2"
	exit
fi
[ $# -ge 4 ] || die "usage: run.sh BZIMAGE INITRAMFS LOG CMD [EXTRA KERNEL ARGS]"
bz=$1 initramfs=$2 log=$3 cmd=$4
shift 4
[ -n "$cmd" ] || die "no command: make run CMD='bpftool prog show'"
[ "${#cmd}" -le "$MAX_CMD" ] ||
	die "the command is ${#cmd} bytes; the kernel command line takes $MAX_CMD of it: put it in a script in the initramfs, or run it from make shell"
mkdir -p "$(dirname "$log")"
encoded=$(printf '%s' "$cmd" | base64 -w 0)
"$top/ci/boot.sh" "$bz" "$initramfs" "$log" "ci.run=$encoded" "$@" > "$log.boot" 2>&1 ||
	die "ci/boot.sh failed; see $log.boot"
status=0
parse "$log" || status=$?
if [ "$status" -eq 125 ] && ! tr -d '\r' < "$log" | grep -qx 'ci-run-exit 125'; then
	reason=$(sed -n 's/^reason=//p' "$log.status" 2> /dev/null | head -n 1)
	echo "run: the guest did not finish the command${reason:+ ($reason)}; the console is in $log" >&2
fi
exit "$status"
