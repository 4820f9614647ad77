#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The harness's own tests: every tests/*.sh and tests/*.py, found by
# name, so that a new test needs no edit here. Not these, which boot
# kernels and run from their own targets: faults.sh (make check-faults),
# bisect.sh and bisect-interrupted.sh (make check, after the rest); nor
# lib.sh, which the tests source, and this file.
set -eu
cd "$(dirname "$0")/.."

status=0
for t in tests/*.sh tests/*.py; do
	case ${t#tests/} in
	run.sh | lib.sh | faults.sh | bisect.sh | bisect-interrupted.sh) continue ;;
	esac
	echo "# $t"
	"$t" || status=1
done
exit $status
