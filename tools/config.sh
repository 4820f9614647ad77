#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# config: merge the fragment onto tinyconfig with the kernel's own
# merge_config.sh, then check that every option the fragment asks for is in
# the resulting .config: an option that olddefconfig dropped (an unmet
# dependency) is an error, not a surprise at boot.
#
# usage: config.sh SRCTREE OBJDIR FRAGMENT
set -eu
STAGE=config
. "$(dirname "$0")/lib.sh"

mkdir -p "$2"
src=$(realpath "$1")
obj=$(realpath "$2")
fragment=$(realpath "$3")

make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig > /dev/null
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" \
	"$obj/.config" "$fragment") > "$obj/merge_config.log" 2>&1 ||
	die "merge_config.sh failed; see $obj/merge_config.log"
make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig > /dev/null

missing=0
grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$fragment" |
while IFS= read -r want; do
	if ! grep -qxF "$want" "$obj/.config"; then
		opt=$(printf '%s\n' "$want" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
		got=$(grep -E "^($opt=|# $opt is not set)" "$obj/.config" || echo "absent")
		note "$fragment asks for '$want' but .config has '$got' (a dependency is unmet)"
		echo x
	fi
done > "$obj/config.missing"
[ ! -s "$obj/config.missing" ] ||
	die "$(wc -l < "$obj/config.missing") option(s) of the fragment did not survive olddefconfig; fix $3"
note "$obj/.config has every option of $3"
