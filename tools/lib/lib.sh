# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Shared helpers for the stage scripts. Source it; set STAGE first.
# $top is the top of the repository, as an absolute path: the nearest
# directory above the script's own that holds kernel-overlay/ (the
# scripts live in tools/GROUP/, tests/ and ci/).

# shellcheck disable=SC2034 # used by the scripts that source this file
top=$(cd "$(dirname "$0")/.." && until [ -d kernel-overlay ] || [ "$PWD" = / ]; do
	cd ..; done && pwd)
[ -d "$top/kernel-overlay" ] || {
	echo "${STAGE:-ci}: $0 is not inside the repository (no kernel-overlay/ above it)" >&2
	exit 1
}

die() {
	printf '%s: %s\n' "${STAGE:-ci}" "$*" >&2
	exit 1
}

note() {
	printf '%s: %s\n' "${STAGE:-ci}" "$*" >&2
}

# Fixed identity and dates make the import and its commits reproducible,
# so the same overlay gives the same commit ids on every machine, and no
# commit the harness makes depends on the user's git configuration.
export GIT_COMMITTER_NAME="kernel-overlay"
export GIT_COMMITTER_EMAIL="kernel-overlay@localhost"
export GIT_COMMITTER_DATE="2023-01-01T00:00:00Z"

# git "$@", with the harness's identity as the author of what it commits.
harness_git() {
	GIT_AUTHOR_NAME=$GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL=$GIT_COMMITTER_EMAIL \
	GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE git "$@"
}

# Run command string $1 (a function name, or a command such as
# 'restore_tree "$tree" "$back"', expanded when it runs) when the script
# exits, however it ends: dash runs an EXIT trap on SIGINT or SIGTERM only
# when those are trapped as well.
on_exit() {
	# shellcheck disable=SC2064
	trap "$1" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Put scratch tree $1 back on $2 (a branch or a commit), dropping what a
# step that failed half-way left behind: a cherry-pick or am in progress,
# edits in the work tree. Callers checked that the tree was clean
# (require_clean) before they touched it, so nothing else is lost.
restore_tree() {
	git -C "$1" cherry-pick --abort > /dev/null 2>&1 || true
	git -C "$1" am --abort > /dev/null 2>&1 || true
	git -C "$1" checkout -q -f "$2"
}

# The branch scratch tree $1 is on, or its commit when HEAD is detached.
current_head() {
	git -C "$1" symbolic-ref -q --short HEAD || git -C "$1" rev-parse HEAD
}

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

# bisect, series-check, mutate, bench and range-diff check other commits
# out, apply mutants and edit files in a worktree of the scratch tree of
# their own, build/steps/linux, built in build/steps/kernel (make
# STEPS=1; ccache shares what it compiled for the other trees), so that
# the scratch tree, your work in it and the tip's build stay as they are:
# the next make ci recompiles nothing.
#
# Make DIR ($3) a worktree of scratch tree $1, clean at revision $2, and
# hold it for this script's life (fd 9, inherited by what it runs): one
# user at a time. What an earlier user left behind, killed half-way (a
# bisect, an am, edits), is dropped: nobody works by hand in it.
steps_tree() {
	mkdir -p "$(dirname "$3")"
	exec 9> "$3.lock"
	flock -n 9 ||
		die "another bisect, series-check, mutate, bench or range-diff holds $3; let it finish"
	if is_worktree "$1" "$3"; then
		# git bisect reset keeps edits: drop them first.
		git -C "$3" reset -q --hard 2> /dev/null || true
		git -C "$3" bisect reset > /dev/null 2>&1 || true
		restore_tree "$3" HEAD 2> /dev/null || true
	fi
	"$top/tools/series/worktree.sh" "$1" "$2" "$3" || exit 1
}

# Whether DIR ($2) is a worktree of scratch tree $1 with git metadata of
# its own. Without a .git file, git -C would find the repository around
# it; and after a re-import a leftover's .git file may name metadata that
# git has since given to another worktree (both are called linux), whose
# HEAD a checkout here would move.
is_worktree() {
	[ -f "$2/.git" ] || return 1
	gd=$(git -C "$2" rev-parse --absolute-git-dir 2> /dev/null) || return 1
	case $gd in
	"$(git -C "$1" rev-parse --absolute-git-dir)"/worktrees/*) ;;
	*) return 1 ;;
	esac
	[ "$(cat "$gd/gitdir" 2> /dev/null)" = "$(realpath "$2")/.git" ]
}

# Whether $1 is a count of tries (TRIES): 1 or more, digits only.
is_count() {
	case $1 in
	'' | *[!0-9]* | 0*) return 1 ;;
	esac
}

# Stop unless scratch tree $1 has no uncommitted changes to tracked files.
require_clean() {
	[ -z "$(git -C "$1" status --porcelain --untracked-files=no)" ] ||
		die "$1 has uncommitted changes; commit or stash them first"
}

# From the results file of verdict --json ($1): "PASS" or "FAIL: reason"
# with counts "P passed, F failed, S skipped" when $2 is "counts".
verdict_json() {
	python3 "$top/tools/lib/results.py" "${2:-line}" "$1"
}

# make bisect's reading of one try, from the results file of verdict
# --json ($1) of a boot that ran test $2 (TEST[/SUBTEST]; "" for the whole
# suite): one word, pass, no-subtest, fail or not-reached (tools/lib/results.py,
# outcome). Exits 2, printing nothing, if the file is not a results file.
try_outcome() {
	python3 "$top/tools/lib/results.py" outcome "$1" "$2"
}

# overlay_patches DIR: the patches of the overlay in DIR, in series
# order, one path per line.
overlay_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series" |
	while read -r p; do
		[ -f "$1/$p" ] || die "$1/series names $p, which does not exist"
		echo "$1/$p"
	done
}

# When and where a run was made, for the documents that quote it: date
# (UTC), cpus (this machine's) and accel (QEMU's: kvm or tcg, as the KVM
# probe found, else ACCEL or "probed"), one KEY<TAB>VALUE line each.
run_facts() {
	printf 'date\t%s\ncpus\t%s\naccel\t%s\n' "$(date -u +%Y-%m-%d)" "$(nproc)" \
		"$(cat "${ACCEL_CACHE:-$top/build/qemu-accel}" 2> /dev/null || echo "${ACCEL:-probed}")"
}

# paint: the lines of a KTAP result or summary on stdin, to stdout,
# coloured where stdout is a terminal and NO_COLOR is empty
# (no-color.org): a skip yellow, a failure ("not ok", verdict's "FAIL")
# and a failed verdict red, "ok" and a passed verdict green. Elsewhere
# (CI logs) they pass as they are.
paint() {
	if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
		esc=$(printf '\033')
		awk -v g="${esc}[32m" -v r="${esc}[31m" -v y="${esc}[33m" -v o="${esc}[0m" '
			/^ *SKIP |# SKIP/ { print y $0 o; next }
			/^ *(not ok|FAIL) |^verdict: FAIL/ { print r $0 o; next }
			/^ *ok |^verdict: PASS/ { print g $0 o; next }
			{ print }'
	else
		cat
	fi
}

# merge_results KIND OUT WHEN_DONE: tools/series/shards.py KIND-merge makes OUT's
# table of the results in OUT (a shard's share, --part, when SHARD is
# set; WHEN_DONE says what merges the shards then). Dies where it cannot;
# returns 1 where a result is a failure.
merge_results() {
	part=${SHARD:+--part}
	merged=0
	# shellcheck disable=SC2086 # no shard: no --part
	python3 "$top/tools/series/shards.py" "$1-merge" $part "$2" "$2" || merged=$?
	[ -z "$part" ] || echo "when every shard is done: $3"
	[ "$merged" -le 1 ] ||
		die "the table of $2 could not be made (the reason is above); rerun it alone: python3 tools/series/shards.py $1-merge${part:+ $part} $2 $2"
	return "$merged"
}

# measured_run_json CI_DIR KSRC: the run.json of a table made from the
# results in CI_DIR (make parity-table, make design-table): when (the
# run's results, UTC), where (this machine and the accelerator QEMU used,
# ci/boot.sh's status file), and what: this repository's commit when the
# table is made (marked when its files differ from it: make it right
# after the run) and the kernel tree's, the series' tip
measured_run_json() {
	date=$(date -u -r "$1/results.json" '+%Y-%m-%d %H:%M UTC')
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	accel=$(sed -n 's/^accel=//p' "$1/serial.log.status" 2> /dev/null | head -n 1)
	commit=$(git -C "$top" rev-parse -q --verify --short=12 HEAD 2> /dev/null) ||
		die "$top is not a git checkout: the table names the commit it was measured at"
	git -C "$top" diff --quiet HEAD -- 2> /dev/null || commit="$commit with local edits"
	series_tip=$(git -C "$2" rev-parse -q --verify --short=12 HEAD 2> /dev/null) ||
		die "$2 has no commits: run make import (the table names the series' tip)"
	python3 -c 'import json, sys; print(json.dumps(dict(zip(("date", "machine", "commit", "series"), sys.argv[1:]))))' \
		"$date" "$(uname -m), ${cpu:-unknown CPU}, $(nproc) CPUs, QEMU ${accel:-(accelerator unknown)}" \
		"$commit" "$series_tip"
}

# replace_block DOC TABLE.md BEGIN END: DOC with TABLE.md between its
# lines BEGIN and END, one of each
replace_block() {
	n_begin=$(grep -c -x -F "$3" "$1" || true)
	n_end=$(grep -c -x -F "$4" "$1" || true)
	[ "$n_begin.$n_end" = 1.1 ] ||
		die "$1 needs one line '$3' and one line '$4' (has $n_begin and $n_end)"
	awk -v begin="$3" -v end="$4" -v table="$2" '
		$0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
		$0 == end { skip = 0 }
		!skip' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}
