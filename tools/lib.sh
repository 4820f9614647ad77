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
