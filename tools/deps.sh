#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps: check for the Debian packages the pipeline needs; as root, install
# what is missing, otherwise print the apt-get line to run.
#
# The series is based on one version of linux-source-6.1, named in
# kernel-overlay/base-version: Debian's kernel moves on with each point and
# security release, and the series' patches need not apply to another.
set -eu
STAGE=deps
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"

# libclang-rt-14-dev: libFuzzer's runtime, for make fuzz; clang only
# recommends it, and recommends are not installed here. lld, pkg-config
# and rsync: the tree's selftests Makefile (make tree-test-progs).
# iproute2, xdp-tools and strace: run unmodified in the guest's rootless
# container (container_tools). iptables: the tree's xdp_synproxy and
# bpf_nf tests call iptables-legacy (make upstream-selftests).
packages="git make gcc libc6-dev ccache bc bison flex perl
	libelf-dev libssl-dev zlib1g-dev dwarves xz-utils cpio busybox-static
	qemu-system-x86 clang llvm libbpf-dev bpftool libxml2-utils
	python3-ply python3-git libclang-rt-14-dev shellcheck lld pkg-config rsync
	iproute2 xdp-tools strace iptables"
source_pkg=linux-source-6.1
version_file=$(dirname "$0")/../kernel-overlay/base-version
want=$(cat "$version_file") ||
	die "$version_file is missing; it names the $source_pkg version the series is based on"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
have=$(dpkg-query -W -f='${Status} ${Version}\n' "$source_pkg" 2> /dev/null |
	sed -n 's/^install ok installed //p')
[ "$have" = "$want" ] || missing="$missing $source_pkg=$want"
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	die "missing packages:$missing; install them with: sudo apt-get install -y --allow-downgrades$missing"
fi
note "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# dpkg runs ldconfig and start-stop-daemon from sbin, which a user's or a
# container's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
apt-get update -q || die "apt-get update failed; check the network and /etc/apt/sources.list"
apt-cache madison "$source_pkg" | awk -v v="$want" '$3 == v { found = 1 } END { exit !found }' ||
	die "$source_pkg $want, the version the series is based on, is not in the apt sources (they have: $(apt-cache madison "$source_pkg" | awk '{ printf "%s ", $3 }')); Debian 12 ships it in bookworm-security: add 'deb http://deb.debian.org/debian-security bookworm-security main' to /etc/apt/sources.list and run make deps again"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends --allow-downgrades $missing ||
	die "apt-get install failed for:$missing"
