#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# versions: for every version of linux-source-6.1 the apt sources offer
# (apt-cache madison), whether the series applies (git am -3), whether the
# kernel builds, and make ci's verdict on it: a table in OUT_DIR
# (make versions: build/versions/).
#
# Three stages, each of which can run alone: applies, builds, verdict
# (VERSIONS_STAGES, all three by default; APPLY_ONLY=1 is applies alone).
# A stage's result is kept per version in OUT_DIR/results/VERSION/STAGE
# with the overlay it was got with, so that runs of single stages add up
# to one table; results of another overlay show as not run. Every stage
# that runs imports the version first (builds and verdict need the tree),
# in a scratch tree of its own, OUT_DIR/linux, built in OUT_DIR/kernel:
# build/linux, its build and the overlay stay as they are. VERSIONS
# (space-separated) limits the run to those versions.
#
# OUT_DIR/versions.tsv: a header line, then one line a version, newest
# first, tab-separated:
#   version   the Debian version of linux-source-6.1
#   archive   the suite the apt sources offer it from (bookworm-security)
#   pinned    "pinned" for kernel-overlay/base-version's, else "-"
#   applies   yes: every patch applies as it is; 3-way: all apply with
#             git am -3, some only by the three-way merge (their context
#             moved: a rebase onto it would refresh them); no: a patch
#             does not apply; "-": not run
#   builds    yes, no or "-" (not run, or nothing to build)
#   verdict   PASS, FAIL or "-" (make ci's verdict and expect stages)
#   detail    the failing patch and its files, the build's first error,
#             the verdict's reason, or the patches merged three-way
# OUT_DIR/versions.md is the same table in markdown
# (tools/measure/versions_doc.py); OUT_DIR/run.tsv says when and where the run
# was made: date, cpus, accel (tools/lib/lib.sh's run_facts). make
# versions-doc keeps both in tests/fixtures/versions-run/ and writes the
# table into docs/versions.md.
#
# usage: versions.sh OVERLAY_DIR OUT_DIR
set -eu
STAGE=versions
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

overlay=$(realpath "$1")
out=$2
package=linux-source-6.1
tree=$out/linux
stages=${VERSIONS_STAGES:-applies builds verdict}
[ -z "${APPLY_ONLY:-}" ] || stages=applies
for s in $stages; do
	case $s in applies | builds | verdict) ;;
	*) die "VERSIONS_STAGES: no stage '$s'; the stages are applies, builds and verdict" ;;
	esac
done
pinned=$(cat "$overlay/base-version") ||
	die "$overlay/base-version is missing; it names the $package version the series is based on"

mkdir -p "$out/results" "$out/logs"
exec 9> "$out/.lock"
flock -n 9 || die "another make versions holds $out; let it finish"
tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'

overlay_patches "$overlay" > "$tmp/list"
overlay_id=$(xargs -r cat < "$tmp/list" | cat - "$overlay/base-version" | sha1sum | cut -c1-12)

apt-cache madison "$package" 2> /dev/null |
	awk -F'|' -v p="$package" '{ gsub(/^ +| +$/, "", $1); gsub(/ /, "", $2)
		split($3, a, " "); sub(/\/.*/, "", a[2]) }
		$1 == p { print $2 "\t" a[2] }' > "$tmp/suites"
all=$("$top/tools/stages/linux-source.sh" --list)
[ -n "$all" ] ||
	die "apt-cache madison $package lists no version; run apt-get update (as root), or add Debian 12's sources"
versions=${VERSIONS:-$all}

# record VERSION STAGE RESULT DETAIL
record() {
	mkdir -p "$out/results/$1"
	printf '%s\t%s\t%s\n' "$2" "$3" "$4" | sed "s/^/$overlay_id\t/" > "$out/results/$1/$2"
	note "$1: $2: $3${4:+ ($4)}"
}

# The result of STAGE for VERSION, got with this overlay: "RESULT\tDETAIL".
result() {
	f=$out/results/$1/$2
	if [ -f "$f" ] && [ "$(cut -f1 "$f")" = "$overlay_id" ]; then
		cut -f3,4 "$f"
	else
		printf -- '-\t\n'
	fi
}

# The tree as the harness left it, whatever a run killed half-way did:
# nobody works by hand in it.
reset_tree() {
	git -C "$tree" am --abort > /dev/null 2>&1 || true
	git -C "$tree" checkout -q -f -B main base
	git -C "$tree" clean -q -f -d -x
}

# The series on its pinned base, once per overlay: the files git am -3
# merges from, kept as refs/versions/pinned.
prepare() {
	if [ "$(cat "$out/linux.pinned" 2> /dev/null)" = "$overlay_id" ] &&
	   git -C "$tree" rev-parse -q --verify refs/versions/pinned > /dev/null 2>&1; then
		return
	fi
	if git -C "$tree" rev-parse -q --verify base > /dev/null 2>&1; then
		reset_tree
	fi
	"$top/tools/stages/linux-source.sh" --available "$pinned" ||
		die "$package $pinned (the series' base) cannot be had: the three-way merge needs it; make deps says what to do"
	LINUX_SOURCE_VERSION=$pinned "$top/tools/stages/import.sh" "$tree" "$overlay"
	# Nobody works in this tree: no git gc competing with its imports.
	git -C "$tree" config gc.auto 0
	git -C "$tree" update-ref refs/versions/pinned main
	echo "$overlay_id" > "$out/linux.pinned"
}

# The series onto VERSION in the tree with git am -3; records applies.
apply() {
	v=$1
	reset_tree
	IMPORT_BASE_ONLY=1 LINUX_SOURCE_VERSION=$v "$top/tools/stages/import.sh" "$tree" "$overlay"
	log=$out/logs/$v.applies.log
	# shellcheck disable=SC2046 # one path a line, no spaces
	if git -C "$tree" am -3 --keep-cr $(cat "$tmp/list") > "$log" 2>&1; then
		three=$(awk '/^Applying: / { sub(/^Applying: /, ""); cur = $0 }
			/^Falling back to patching base and 3-way merge/ { print cur }' "$log" |
			paste -s -d ';' - | sed 's/;/; /g')
		if [ -z "$three" ]; then
			record "$v" applies yes ""
		else
			record "$v" applies 3-way "merged three-way: $three"
		fi
		return 0
	fi
	n=$(cat "$(git -C "$tree" rev-parse --absolute-git-dir)/rebase-apply/next" 2> /dev/null || echo 0)
	p=
	[ "$n" -gt 0 ] 2> /dev/null && p=$(sed -n "${n}p" "$tmp/list")
	[ -n "$p" ] || p="git am: $(grep -m 1 -E '^(fatal|error):' "$log" || echo failed)"
	files=$(git -C "$tree" diff --name-only --diff-filter=U | paste -s -d ' ' -)
	[ -n "$files" ] || files=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p' "$log" | sort -u | paste -s -d ' ' -)
	record "$v" applies no "${p##*/} does not apply${files:+: conflicts in $files}"
	git -C "$tree" am --abort > /dev/null 2>&1 || true
	return 1
}

# make's stages on the tree, built and booted apart from build/.
kmake() {
	make --no-print-directory -C "$top" KSRC="$(realpath "$tree")" \
		KOBJ="$(realpath -m "$out/kernel")" TESTS_O="$(realpath -m "$out/tests")" \
		INITRAMFS="$(realpath -m "$out/initramfs.cpio")" CI_O="$(realpath -m "$out/ci/$v")" "$@"
}

build() {
	v=$1
	log=$out/logs/$v.build.log
	if kmake config kernel > "$log" 2>&1; then
		record "$v" builds yes ""
		return 0
	fi
	record "$v" builds no "$(grep -m 1 -E 'error:|Error [0-9]' "$log" || tail -n 1 "$log")"
	return 1
}

verdict() {
	v=$1
	log=$out/logs/$v.ci.log
	rm -rf "$out/ci/$v"
	if kmake guest-tests initramfs boot verdict expect grant-off > "$log" 2>&1; then
		record "$v" verdict PASS ""
	elif [ -f "$out/ci/$v/results.json" ]; then
		record "$v" verdict FAIL "$(verdict_json "$out/ci/$v/results.json" | sed 's/^FAIL: //')"
	else
		record "$v" verdict FAIL "$(grep -m 1 -E 'error|failed|FAIL' "$log" || tail -n 1 "$log")"
	fi
}

want() {
	case " $stages " in *" $1 "*) return 0 ;; esac
	return 1
}

prepare
for v in $versions; do
	echo "$all" | grep -qxF -- "$v" ||
		die "VERSIONS names $v, which the apt sources do not offer (they offer: $(echo "$all" | paste -s -d ' ' -))"
	# Every stage needs the tree at v: the applies are always recorded.
	if ! apply "$v"; then
		if want builds; then record "$v" builds - "the series does not apply"; fi
		if want verdict; then record "$v" verdict - "the series does not apply"; fi
		continue
	fi
	want builds || want verdict || continue
	# The verdict boots this version's kernel: build it in any case.
	if ! build "$v"; then
		if want verdict; then record "$v" verdict - "the kernel does not build"; fi
		continue
	fi
	if want verdict; then verdict "$v"; fi
done

# The table, from every version's kept results.
{
	printf 'version\tarchive\tpinned\tapplies\tbuilds\tverdict\tdetail\n'
	for v in $all; do
		suite=$(awk -F'\t' -v v="$v" '$1 == v { print $2; exit }' "$tmp/suites")
		mark=-
		[ "$v" != "$pinned" ] || mark=pinned
		a=$(result "$v" applies)
		b=$(result "$v" builds)
		c=$(result "$v" verdict)
		detail=$(printf '%s\n%s\n%s\n' "$(echo "$a" | cut -f2)" "$(echo "$b" | cut -f2)" \
			"$(echo "$c" | cut -f2)" | sed '/^$/d' | paste -s -d ';' - | sed 's/;/; /g')
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "${suite:--}" "$mark" \
			"$(echo "$a" | cut -f1)" "$(echo "$b" | cut -f1)" "$(echo "$c" | cut -f1)" "$detail"
	done
} > "$out/versions.tsv"
python3 "$top/tools/measure/versions_doc.py" markdown "$out/versions.tsv" > "$out/versions.md"
run_facts > "$out/run.tsv"
cat "$out/versions.md"
note "table in $out/versions.tsv and $out/versions.md (stages run: $stages); make versions-doc puts it in docs/versions.md"
