#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps: check for the Debian packages the pipeline needs; as root, install
# what is missing, otherwise print the apt-get line to run.
#
# The series is based on one version of linux-source-6.1, named in
# kernel-overlay/base-version: Debian's kernel moves on with each point and
# security release, and the series' patches need not apply to another.
# The archive keeps only a few versions: when the pinned one has left it,
# deps says so and prints the make rebase command that moves the series
# onto the newest one. With LINUX_SOURCE_VERSION (make ... VERSION=),
# import fetches that version itself (tools/stages/linux-source.sh): the
# installed package is not needed.
#
# usage: deps.sh [OVERLAY_DIR]
set -eu
STAGE=deps
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

# libclang-rt-14-dev: libFuzzer's runtime, for make fuzz; clang only
# recommends it, and recommends are not installed here. lld, pkg-config
# and rsync: the tree's selftests Makefile (make tree-test-progs).
# iproute2, xdp-tools and strace: run unmodified in the guest's rootless
# container (container_tools). iptables and iputils-ping: the tree's
# xdp_synproxy and bpf_nf tests call iptables-legacy, netcnt ping6 (make
# upstream-selftests). debian-archive-keyring: the key of Debian 13's
# archive, from which tools/stages/debian13-root.sh fetches a container's tools
# for the guest (make deps runs it after this).
packages="git make gcc binutils libc6-dev ccache bc bison flex perl
	libelf-dev libssl-dev zlib1g-dev dwarves xz-utils cpio busybox-static
	qemu-system-x86 clang llvm libbpf-dev bpftool libxml2-utils
	python3-ply python3-git libclang-rt-14-dev shellcheck lld pkg-config rsync
	iproute2 xdp-tools strace iptables iputils-ping debian-archive-keyring"
source_pkg=linux-source-6.1
version_file=${1:-$top/kernel-overlay}/base-version
want=$(cat "$version_file") ||
	die "$version_file is missing; it names the $source_pkg version the series is based on"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
source_missing=
if [ -z "${LINUX_SOURCE_VERSION:-}" ]; then
	have=$(dpkg-query -W -f='${Status} ${Version}\n' "$source_pkg" 2> /dev/null |
		sed -n 's/^install ok installed //p')
	[ "$have" = "$want" ] || source_missing=" $source_pkg=$want"
fi
missing="$missing$source_missing"
[ -n "$missing" ] || exit 0

root=
[ "$(id -u)" != 0 ] || root=1
export DEBIAN_FRONTEND=noninteractive
# dpkg runs ldconfig and start-stop-daemon from sbin, which a user's or a
# container's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
[ -z "$root" ] ||
	apt-get update -q || die "apt-get update failed; check the network and /etc/apt/sources.list"

# The pinned version gone from the archive: no apt source brings it back,
# the series must move on.
if [ -n "$source_missing" ]; then
	offered=$("$(dirname "$0")/linux-source.sh" --list | paste -s -d ' ' -)
	if [ -z "$offered" ]; then
		[ -z "$root" ] ||
			die "the apt sources offer no $source_pkg; Debian 12 ships it in bookworm and bookworm-security: add 'deb http://deb.debian.org/debian-security bookworm-security main' to /etc/apt/sources.list and run make deps again"
	elif ! echo "$offered" | tr ' ' '\n' | grep -qxF -- "$want"; then
		newest=${offered%% *}
		die "$source_pkg $want, the version the series is based on ($version_file), is no longer in the archive: the apt sources offer $offered. Move the series onto the newest with: make rebase VERSION=$newest"
	fi
fi

if [ -z "$root" ]; then
	die "missing packages:$missing; install them with: sudo apt-get install -y --allow-downgrades$missing${source_missing:+ (or, for $source_pkg, without root: make ci VERSION=$want fetches it under build/versions/)}"
fi
note "installing:$missing"
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends --allow-downgrades $missing ||
	die "apt-get install failed for:$missing"
