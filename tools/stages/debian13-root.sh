#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debian13-root: a Debian 13 (trixie) container's BPF tools, for the
# guest only. apt-get downloads iproute2, xdp-tools, bpftool, libbpf1,
# libxdp1 and strace (the container case traces the tools' bpf() calls
# with it) and the packages they depend on (debconf, which only their
# maintainer scripts use, left out: nothing is configured, the files are
# unpacked) under an apt configuration of its own in OUT/apt (APT_CONFIG:
# its own sources list, lists, cache, an empty dpkg status and no
# apt.conf.d), so that the host's apt sources and installed packages are
# never read or changed. dpkg-deb -x unpacks each into OUT/root, which the
# initramfs carries as /debian13 and a test makes a container's root.
# Nothing is installed on the host.
#
# OUT/root.json (docs/contracts.md) says what happened:
#   {"suite": "trixie", "available": true, "packages": {NAME: VERSION}}
#   {"suite": "trixie", "available": false, "why": TEXT}
# When the suite cannot be reached this exits 0 with available false, and
# the tests that need the tree say "not run: packages unavailable" with
# the why; make deps goes on. A tree fetched once is kept: it is fetched
# again only with DEBIAN13_REFRESH=1.
#
# DEBIAN13_MIRROR (default http://deb.debian.org/debian) is the archive.
#
# usage: debian13-root.sh OUT
set -eu
STAGE=debian13
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -eq 1 ] || die "usage: debian13-root.sh OUT"
mkdir -p "$1"
out=$(cd "$1" && pwd)
suite=trixie
mirror=${DEBIAN13_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-$suite-stable.gpg
tools="iproute2 xdp-tools bpftool libbpf1 libxdp1 strace"
# what only maintainer scripts use
skip=" debconf cdebconf "

available() {
	python3 -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["available"])' \
		"$out/root.json" 2> /dev/null
}

unavailable() {
	rm -rf "$out/root"
	python3 -c 'import json, sys; json.dump({"suite": sys.argv[1], "available": False, "why": sys.argv[2]}, open(sys.argv[3], "w"))' \
		"$suite" "$1" "$out/root.json"
	note "Debian 13 packages unavailable: $1; the tests that need them will say so (not run)"
	exit 0
}

if [ -f "$out/root.json" ] && [ -z "${DEBIAN13_REFRESH:-}" ] && available; then
	note "$out/root is there (DEBIAN13_REFRESH=1 fetches it again)"
	exit 0
fi
rm -rf "${out:?}"/*
[ -f "$keyring" ] ||
	unavailable "no $keyring (the debian-archive-keyring package has it)"

apt=$out/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" \
	"$out/debs" "$out/root"
echo "deb [signed-by=$keyring] $mirror $suite main" > "$apt/sources.list"
: > "$apt/status"
{
	echo "Dir::Etc::SourceList \"$apt/sources.list\";"
	echo "Dir::Etc::SourceParts \"/dev/null\";"
	echo "Dir::Etc::Parts \"$apt/parts\";"
	echo "Dir::Etc::Preferences \"/dev/null\";"
	echo "Dir::Etc::PreferencesParts \"/dev/null\";"
	echo "Dir::State::Lists \"$apt/lists\";"
	echo "Dir::State::status \"$apt/status\";"
	echo "Dir::Cache \"$apt/cache\";"
	echo "APT::Architecture \"amd64\";"
	echo "APT::Architectures { \"amd64\"; };"
	echo "APT::Sandbox::User \"root\";"
	echo "Acquire::Retries \"2\";"
	echo "Debug::NoLocking \"1\";"
} > "$apt/apt.conf"
export APT_CONFIG="$apt/apt.conf"
# apt-get update only warns when the archive is out of reach: no package
# list is the failure
if ! apt-get -q update > "$apt/update.log" 2>&1 ||
   ! ls "$apt/lists/"*_Packages* > /dev/null 2>&1; then
	unavailable "apt-get update from $mirror $suite failed: $(grep -m1 '^[WE]:' "$apt/update.log" || echo "see $apt/update.log")"
fi

# The dependency closure: every package a Depends or Pre-Depends names,
# each alternative of it too; virtual ones (<name>) are left out
todo=$tools
seen=" "
while [ -n "$todo" ]; do
	# shellcheck disable=SC2086 # package names
	set -- $todo
	p=$1
	shift
	todo=$*
	case "$seen$skip" in *" $p "*) continue ;; esac
	seen="$seen$p "
	deps=$(apt-cache depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "$p" 2> /dev/null) ||
		unavailable "apt-cache knows no $p in $suite"
	todo="$todo $(echo "$deps" |
		sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \([^<][^ ]*\)$/\2/p')"
done

cd "$out/debs"
# shellcheck disable=SC2086 # package names
apt-get -q download $seen > "$apt/download.log" 2>&1 ||
	unavailable "apt-get download failed (see $apt/download.log)"
for deb in ./*.deb; do
	dpkg-deb -x "$deb" "$out/root"
done
# What base-files and usrmerge would add: the top-level links, and the
# directories a container's runtime mounts on; no documentation
cd "$out/root"
for d in bin sbin lib lib64; do
	[ -e "$d" ] || ln -s "usr/$d" "$d"
done
mkdir -p proc sys/fs/bpf dev run
mkdir -m 1777 tmp
rm -rf usr/share/doc usr/share/man usr/share/locale usr/share/info \
	usr/share/lintian usr/share/bash-completion
cd "$out/debs"
python3 - "$suite" "$out/root.json" ./*.deb << 'EOF'
import json, subprocess, sys
pkgs = {}
for deb in sys.argv[3:]:
    name, version = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version"],
                                   capture_output=True, text=True,
                                   check=True).stdout.splitlines()
    pkgs[name.split(": ", 1)[1]] = version.split(": ", 1)[1]
json.dump({"suite": sys.argv[1], "available": True, "packages": pkgs},
          open(sys.argv[2], "w"), indent=1, sort_keys=True)
EOF
note "$(find . -name '*.deb' | wc -l) packages of $suite unpacked into $out/root ($(du -sh "$out/root" | cut -f1))"
