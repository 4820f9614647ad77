#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# linux-source: any version of Debian's linux-source-6.1, side by side.
#
#   linux-source.sh VERSION        print the path of VERSION's tarball
#   linux-source.sh --list         the versions the apt sources offer,
#                                  newest first, one a line
#   linux-source.sh --newest       the newest of them
#   linux-source.sh --available VERSION
#                                  exit 0 if VERSION can be had: installed,
#                                  already downloaded, or in the apt sources
#
# The tarball of the installed package (/usr/src) serves when it is the
# version asked for. Any other version is fetched with the package
# manager, not installed: apt-get download (no root needed; apt checks the
# .deb against the archive's signed index) into build/versions/debs/, kept
# there, and unpacked with dpkg-deb -x under build/versions/VERSION/, so
# that several versions sit side by side and /usr/src stays as it is.
# VERSIONS_DIR moves build/versions/ elsewhere.
set -eu
STAGE=linux-source
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

package=linux-source-6.1
installed_tarball=/usr/src/$package.tar.xz
# Relative to the current directory when it can be: make runs this from
# the top of the repository, and import writes the path into the base
# commit's message, which had better not depend on where the clone is.
dir=$(realpath -m --relative-base=. "${VERSIONS_DIR:-$top/build/versions}")

usage() {
	die "usage: $0 VERSION | --list | --newest | --available VERSION"
}

# The versions of the package that apt-cache madison lists (the apt
# sources as of the last apt-get update), newest first by Debian's
# ordering (dpkg --compare-versions: 6.1.192-10 is newer than 6.1.192-3).
offered() {
	apt-cache madison "$package" 2> /dev/null |
		awk -F'|' -v p="$package" '{ gsub(/ /, "") } $1 == p { print $2 }' |
		sort -u > "$tmp/offered"
	: > "$tmp/sorted"
	while read -r v; do
		# Insert v before the first version older than it.
		: > "$tmp/next"
		placed=
		while read -r w; do
			if [ -z "$placed" ] && dpkg --compare-versions "$v" gt "$w"; then
				echo "$v" >> "$tmp/next"
				placed=1
			fi
			echo "$w" >> "$tmp/next"
		done < "$tmp/sorted"
		[ -n "$placed" ] || echo "$v" >> "$tmp/next"
		mv "$tmp/next" "$tmp/sorted"
	done < "$tmp/offered"
	cat "$tmp/sorted"
}

installed_version() {
	dpkg-query -W -f='${Status} ${Version}\n' "$package" 2> /dev/null |
		sed -n 's/^install ok installed //p'
}

# Where VERSION's tarball is, or will be once downloaded.
cached_tarball() {
	echo "$dir/$1/usr/src/$package.tar.xz"
}

available() {
	[ "$(installed_version)" != "$1" ] || [ ! -f "$installed_tarball" ] || return 0
	[ ! -f "$(cached_tarball "$1")" ] || return 0
	offered | grep -qxF -- "$1"
}

tarball() {
	v=$1
	if [ "$(installed_version)" = "$v" ] && [ -f "$installed_tarball" ]; then
		echo "$installed_tarball"
		return
	fi
	t=$(cached_tarball "$v")
	if [ -f "$t" ]; then
		echo "$t"
		return
	fi
	mkdir -p "$dir/debs"
	# One download and unpack of a version at a time.
	exec 8> "$dir/debs/.lock"
	flock 8
	# dpkg's file names spell an epoch's colon as %3a.
	deb=$dir/debs/${package}_$(echo "$v" | sed 's/:/%3a/')_all.deb
	if [ ! -f "$deb" ]; then
		offered | grep -qxF -- "$v" ||
			die "$package $v is not in the apt sources (they offer: $(offered | paste -s -d " " -)); pick one of those, or run apt-get update (as root) if the lists are old"
		note "downloading $package $v into $dir/debs/ (about 140 MB)"
		rm -rf "$dir/debs/.part"
		mkdir -p "$dir/debs/.part"
		(cd "$dir/debs/.part" && apt-get download -q "$package=$v" >&2) ||
			die "apt-get download $package=$v failed (see above); check the network and the apt sources"
		mv "$dir/debs/.part"/*.deb "$deb"
		rm -rf "$dir/debs/.part"
	fi
	note "unpacking $deb under $dir/$v/"
	rm -rf "$dir/$v.part"
	dpkg-deb -x "$deb" "$dir/$v.part" ||
		die "dpkg-deb -x $deb failed; remove it (a broken download) and run again"
	[ -f "$dir/$v.part/usr/src/$package.tar.xz" ] ||
		die "$deb has no usr/src/$package.tar.xz; remove it and run again"
	rm -rf "${dir:?}/$v"
	mv "$dir/$v.part" "$dir/$v"
	echo "$t"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case ${1:-} in
--list) offered ;;
--newest)
	newest=$(offered | head -n 1)
	[ -n "$newest" ] ||
		die "apt-cache madison $package lists no version; run apt-get update (as root), or add Debian 12's sources"
	echo "$newest"
	;;
--available) [ $# = 2 ] || usage; available "$2" ;;
-* | "") usage ;;
*) [ $# = 1 ] || usage; tarball "$1" ;;
esac
