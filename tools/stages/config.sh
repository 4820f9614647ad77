#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# config: merge the fragments, in order, onto tinyconfig with the kernel's
# own merge_config.sh, then check that every option they ask for is in the
# resulting .config: an option that olddefconfig dropped (an unmet
# dependency) is an error, not a surprise at boot. Where two fragments set
# one option, the later one counts.
#
# usage: config.sh SRCTREE OBJDIR FRAGMENT...
set -eu
STAGE=config
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -ge 3 ] || die "usage: config.sh SRCTREE OBJDIR FRAGMENT..."
mkdir -p "$2"
src=$(realpath "$1")
obj=$(realpath "$2")
shift 2
fragments=
for f in "$@"; do
	fragments="$fragments $(realpath "$f")"
done

make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig > /dev/null
# shellcheck disable=SC2086 # $fragments is a list of paths
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" \
	"$obj/.config" $fragments) > "$obj/merge_config.log" 2>&1 ||
	die "merge_config.sh failed; see $obj/merge_config.log"
make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig > /dev/null

# Each option's last setting in the fragments, as "FRAGMENT<tab>LINE"
# shellcheck disable=SC2086 # $fragments is a list of paths
grep -HE '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' $fragments |
	sed 's/:/\t/' |
	awk -F'\t' '{ opt = $2; sub(/^# /, "", opt); sub(/[= ].*/, "", opt)
		last[opt] = $0; if (!(opt in seen)) { seen[opt] = 1; order[++n] = opt } }
		END { for (i = 1; i <= n; i++) print last[order[i]] }' |
while IFS='	' read -r fragment want; do
	if ! grep -qxF "$want" "$obj/.config"; then
		opt=$(printf '%s\n' "$want" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
		got=$(grep -E "^($opt=|# $opt is not set)" "$obj/.config" || echo "absent")
		# an option of the tree's Kconfig whose dependencies are unmet is
		# absent: not set. A misspelt or removed one stays an error.
		why="a dependency is unmet"
		if [ "$got" = absent ]; then
			if ! grep -rqsE "^[[:space:]]*(menu)?config[[:space:]]+${opt#CONFIG_}[[:space:]]*\$" \
				--include='Kconfig*' "$src"; then
				why="no Kconfig of $src defines it"
			elif [ "$want" = "# $opt is not set" ]; then
				continue
			fi
		fi
		note "$fragment asks for '$want' but .config has '$got' ($why)"
		echo x
	fi
done > "$obj/config.missing"
[ ! -s "$obj/config.missing" ] ||
	die "$(wc -l < "$obj/config.missing") option(s) of the fragments did not survive olddefconfig; fix$fragments"
note "$obj/.config has every option of$fragments"
