#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps: check for the Debian packages the pipeline needs; as root, install
# what is missing, otherwise print the apt-get line to run.
set -eu
STAGE=deps
. "$(dirname "$0")/lib.sh"

packages="linux-source-6.1 git make gcc libc6-dev ccache bc bison flex perl
	libelf-dev libssl-dev zlib1g-dev dwarves xz-utils cpio busybox-static
	qemu-system-x86 clang llvm libbpf-dev bpftool libxml2-utils
	python3-ply python3-git"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	die "missing packages:$missing; install them with: sudo apt-get install -y$missing"
fi
note "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# dpkg runs ldconfig and start-stop-daemon from sbin, which a user's or a
# container's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
apt-get update -q || die "apt-get update failed; check the network and /etc/apt/sources.list"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing ||
	die "apt-get install failed for:$missing"
