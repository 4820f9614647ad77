# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the stage scripts. Source it; set STAGE first.

die() {
	printf '%s: %s\n' "${STAGE:-ci}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${STAGE:-ci}" "$*" >&2
}

# Fixed identity and dates make the import and its commits reproducible,
# so the same overlay gives the same commit ids on every machine.
export GIT_COMMITTER_NAME="kernel-overlay"
export GIT_COMMITTER_EMAIL="kernel-overlay@localhost"
export GIT_COMMITTER_DATE="2023-01-01T00:00:00Z"

# The commit of scratch tree $1 that $3 names: a patch of series file $2
# (its file name, or a prefix such as 0004), else any git revision.
resolve_rev() {
	n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$2/series" |
		grep -n -F -- "$3" | grep -E "^[0-9]+:$3" | cut -d: -f1 | head -n 1)
	if [ -n "$n" ]; then
		git -C "$1" rev-list --reverse base..main | sed -n "${n}p"
	else
		git -C "$1" rev-parse -q --verify "$3^{commit}"
	fi
}

# Stop unless scratch tree $1 has no uncommitted changes to tracked files.
require_clean() {
	[ -z "$(git -C "$1" status --porcelain --untracked-files=no)" ] ||
		die "$1 has uncommitted changes; commit or stash them first"
}
