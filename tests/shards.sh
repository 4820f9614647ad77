#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# SHARD=i/N and the merges (tools/series/shards.py), with nothing built:
#
# 1. The per-item results of tests/fixtures/shards/ (mutant.json and
#    commit.json files, as make mutate and make series-check write them),
#    laid out as one unsharded run and as the shards of one run, 2 and 3
#    of them, each shard holding the items that shards.py pick gives it
#    and a manifest written by shards.py manifest, as the scripts do: the
#    merges of the shards give byte for byte the results.tsv, table.txt
#    and series.json, the output and the exit status of the unsharded
#    run's.
# 2. tools/series/mutate.sh (on mutants/) and tools/series/series-check.sh (on a
#    throw-away tree of 7 commits) with LIST_ONLY=1: the items each shard
#    takes, for several N; together they are the unsharded run's, each
#    once; series-check's shards are runs of consecutive commits, in
#    order.
# 3. series-check.sh RESUME=1 on that tree, with a stand-in step.sh:
#    after a run stopped in its middle, only the commits it had not
#    finished run, and the table is the whole run's; after the series
#    grew, only its new commit; a shard keeps an unsharded run's results.
set -eu
STAGE=tests/shards.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

fx=$top/tests/fixtures/shards
shards="python3 $top/tools/series/shards.py"

# layout STAGE SPLIT SHARD DIR: shard SHARD ("" for unsharded) of the
# fixtures of STAGE in DIR, as the stage's script leaves it
layout() {
	mkdir -p "$4"
	# shellcheck disable=SC2046 # the items: names without white space
	$shards manifest "$4/shard.json" "$1" "$2" "$3" 0123abcd $(cat "$fx/$1/items")
	# shellcheck disable=SC2046
	for x in $($shards pick "$2" "$3" $(cat "$fx/$1/items")); do
		cp -R "$fx/$1/$x" "$4/$x"
	done
}

# merge STAGE OUT DIR...: the merge into OUT, its output, stderr and
# exit status beside
merge() {
	stage=$1
	o=$2
	shift 2
	status=0
	$shards "${stage%-check}-merge" "$o" "$@" > "$o.stdout" 2> "$o.stderr" || status=$?
	echo "$status" > "$o.status"
}

# same A B FILE...: each FILE of merge outputs A and B, byte for byte
same() {
	why=
	for f in $3; do
		cmp -s "$1/$f" "$2/$f" || why="$why; $f differs"
	done
	for f in stdout stderr status; do
		cmp -s "$1.$f" "$2.$f" || why="$why; the $f differs"
	done
	printf '%s' "${why#; }"
}

for stage in mutate series-check; do
	case $stage in
	mutate) split=round-robin files="results.tsv table.txt" ;;
	*) split=contiguous files="series.json table.txt" ;;
	esac
	layout "$stage" "$split" "" "$tmp/$stage/whole"
	merge "$stage" "$tmp/$stage/out-whole" "$tmp/$stage/whole"
	for f in $files; do
		[ -s "$tmp/$stage/out-whole/$f" ] || result "$stage: the unsharded run's $f" missing
	done
	for N in 2 3; do
		dirs=
		i=1
		while [ $i -le $N ]; do
			layout "$stage" "$split" "$i/$N" "$tmp/$stage/$N/$i-of-$N"
			dirs="$dirs $tmp/$stage/$N/$i-of-$N"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086 # $dirs: paths without white space
		merge "$stage" "$tmp/$stage/out-$N" $dirs
		result "$stage: $N shards merged = one unsharded run ($files, output, status)" \
			"$(same "$tmp/$stage/out-whole" "$tmp/$stage/out-$N" "$files")"
	done
	# the shards in another order
	merge "$stage" "$tmp/$stage/out-rev" "$tmp/$stage/2/2-of-2" "$tmp/$stage/2/1-of-2"
	result "$stage: 2 shards merged in the other order = one run" \
		"$(same "$tmp/$stage/out-whole" "$tmp/$stage/out-rev" "$files")"
	# a shard left out
	merge "$stage" "$tmp/$stage/out-one" "$tmp/$stage/3/1-of-3" "$tmp/$stage/3/3-of-3"
	why=
	[ "$(cat "$tmp/$stage/out-one.status")" = 2 ] || why="status $(cat "$tmp/$stage/out-one.status")"
	grep -q 'shard 2 of 3 missing' "$tmp/$stage/out-one.stderr" ||
		why="$why; $(cat "$tmp/$stage/out-one.stderr")"
	result "$stage: a merge without shard 2 of 3 fails, naming it" "${why#; }"
	# shards of two runs
	merge "$stage" "$tmp/$stage/out-mixed" "$tmp/$stage/2/1-of-2" "$tmp/$stage/3/2-of-3" \
		"$tmp/$stage/3/3-of-3"
	result "$stage: shards of a 2-shard and a 3-shard run do not merge" "$(
		[ "$(cat "$tmp/$stage/out-mixed.status")" = 2 ] || echo "it merged them")"
done

# The mutate fixtures hold a survivor and a no-build: the run fails
# (status 1) and says so, sharded or not
why=
[ "$(cat "$tmp/mutate/out-whole.status")" = 1 ] || why="status $(cat "$tmp/mutate/out-whole.status")"
grep -q '^mutate: survived: 117-cpumap-any-cpu;' "$tmp/mutate/out-whole.stderr" ||
	why="$why; no survivor named"
grep -q '^mutate: no-build, .*: 080-verifier-priv-from-current;' "$tmp/mutate/out-whole.stderr" ||
	why="$why; no no-build named"
result "mutate: the fixtures' survivor and no-build fail the run" "${why#; }"
result "mutate: the score of the fixtures" "$(
	grep -qx 'mutation score: 5 killed of 8 (1 equivalent, 1 no-build)' \
		"$tmp/mutate/out-whole/table.txt" || tail -n 1 "$tmp/mutate/out-whole/table.txt")"
python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["commits"]:
    print(r["commit"])' "$tmp/series-check/out-whole/series.json" > "$tmp/series.order"
result "series-check: the fixtures' series.json lists the commits in order" "$(
	cmp -s "$tmp/series.order" "$fx/series-check/items" || echo "not in the items' order")"

# 2. Which items each shard takes: the scripts' own LIST_ONLY=1
# partition WHAT SPLIT WHOLE_FILE SHARD_FILES...: the shards' lists
# together are the whole, each item once (contiguous: in order, too)
partition() {
	whole=$3
	what=$1
	split=$2
	shift 3
	cat "$@" > "$tmp/union"
	why=
	[ -s "$whole" ] || why="the unsharded run lists nothing"
	[ -z "$(sort "$tmp/union" | uniq -d)" ] ||
		why="$why; in two shards: $(sort "$tmp/union" | uniq -d | tr '\n' ' ')"
	sort "$whole" > "$tmp/whole.sorted"
	sort -u "$tmp/union" | cmp -s - "$tmp/whole.sorted" ||
		why="$why; the shards' union is not the whole"
	if [ "$split" = contiguous ]; then
		cmp -s "$tmp/union" "$whole" || why="$why; not consecutive runs in order"
	else
		# round robin: shard i's first item is the whole list's i-th
		i=1
		for f in "$@"; do
			[ ! -s "$f" ] || [ "$(head -n 1 "$f")" = "$(sed -n "${i}p" "$whole")" ] ||
				why="$why; shard $i does not start with item $i"
			i=$((i + 1))
		done
	fi
	result "$what: $# shards, $(wc -l < "$tmp/union") items, each once" "${why#; }"
}

# shards_of SCRIPT TREE N OUTPREFIX [ARG...]: LIST_ONLY=1 of shards 1 to N
shards_of() {
	script=$1
	tree=$2
	N=$3
	pre=$4
	shift 4
	files=
	i=1
	while [ $i -le "$N" ]; do
		SHARD=$i/$N LIST_ONLY=1 "$top/tools/series/$script" "$tree" "$@" > "$pre.$i"
		files="$files $pre.$i"
		i=$((i + 1))
	done
	echo "$files"
}

LIST_ONLY=1 "$top/tools/series/mutate.sh" none > "$tmp/mutate.all"
result "mutate: LIST_ONLY=1 lists every mutant of mutants/" "$(
	[ "$(wc -l < "$tmp/mutate.all")" -eq "$(find "$top/mutants" -name '*.patch' | wc -l)" ] ||
	echo "$(wc -l < "$tmp/mutate.all") listed")"
for N in 1 2 4 7; do
	# shellcheck disable=SC2046 # the file names
	partition "mutate SHARD=i/$N" round-robin "$tmp/mutate.all" \
		$(shards_of mutate.sh none $N "$tmp/mutate.$N")
done
LIST_ONLY=1 "$top/tools/series/mutate.sh" none 00 10 > "$tmp/mutate.some"
# shellcheck disable=SC2046
partition "mutate MUTANTS='00 10' SHARD=i/4" round-robin "$tmp/mutate.some" \
	$(shards_of mutate.sh none 4 "$tmp/mutate.some" 00 10)

# A throw-away tree: base and 6 commits
tree=$tmp/tree
git init -q "$tree"
i=0
while [ $i -le 6 ]; do
	echo $i > "$tree/file"
	git -C "$tree" add file
	harness_git -C "$tree" commit -q -m "commit $i"
	[ $i -gt 0 ] || git -C "$tree" tag base
	i=$((i + 1))
done
LIST_ONLY=1 "$top/tools/series/series-check.sh" "$tree" > "$tmp/series.all"
result "series-check: LIST_ONLY=1 lists base and the 6 commits, in order" "$(
	[ "$(git -C "$tree" rev-list --reverse --abbrev=12 --abbrev-commit HEAD)" = "$(cat "$tmp/series.all")" ] ||
	echo "it lists $(tr '\n' ' ' < "$tmp/series.all")")"
for N in 1 2 3 7 9; do
	# shellcheck disable=SC2046
	partition "series-check SHARD=i/$N" contiguous "$tmp/series.all" \
		$(shards_of series-check.sh "$tree" $N "$tmp/series.$N")
done

# 3. RESUME=1, in a copy of the harness whose step.sh is a stand-in
# that builds nothing: it passes each commit, lists it in steps.log,
# fails the commit FAIL_AT names, and stops the run at the commit STOP_AT
# names, as a session's end would, before its step.json.
h=$tmp/harness
mkdir -p "$h/kernel-overlay" "$h/tools"
cp -R "$top/tools/lib" "$top/tools/series" "$h/tools/"
cat > "$h/tools/series/step.sh" <<'STEP'
#!/bin/sh
h=$(cd "$(dirname "$0")/../.." && pwd)
c=$(git -C "$h/build/steps/linux" rev-parse --short=12 HEAD)
echo "$c" >> "$h/steps.log"
[ "$c" != "${STOP_AT:-}" ] || exit 125
mkdir -p "$1"
if [ "$c" = "${FAIL_AT:-}" ]; then
	python3 "$h/tools/lib/results.py" step-write "$1/step.json" fail tests-failed "stand-in" "" 1 1
	exit 1
fi
python3 "$h/tools/lib/results.py" step-write "$1/step.json" pass "" "stand-in" "" 1 1
STEP
chmod +x "$h/tools/series/step.sh"
all=$(tr '\n' ' ' < "$tmp/series.all")
fourth=$(sed -n 4p "$tmp/series.all")
# run NAME [VAR=VALUE...]: series-check of $tree in the copy; its status
# in $tmp/NAME.status, what its steps took in $tmp/NAME.steps
run() {
	name=$1
	shift
	: > "$h/steps.log"
	status=0
	env "$@" "$h/tools/series/series-check.sh" "$tree" > "$tmp/$name.out" 2>&1 || status=$?
	echo $status > "$tmp/$name.status"
	tr '\n' ' ' < "$h/steps.log" > "$tmp/$name.steps"
}
run stopped STOP_AT="$fourth"
result "series-check: a run stopped at the 4th commit fails, with 3 results" "$(
	[ "$(cat "$tmp/stopped.status")" -ne 0 ] || echo "status 0"
	n=$(find "$h/build/series-check" -name commit.json | wc -l)
	[ "$n" -eq 3 ] || echo "$n results")"
run resumed RESUME=1
result "series-check: RESUME=1 runs the 4th commit and those after it only, and passes" "$(
	[ "$(cat "$tmp/resumed.status")" -eq 0 ] || echo "status $(cat "$tmp/resumed.status")"
	[ "$(cat "$tmp/resumed.steps")" = "$(sed -n '4,$p' "$tmp/series.all" | tr '\n' ' ')" ] ||
		echo "its steps: $(cat "$tmp/resumed.steps")")"
result "series-check: the resumed run's series.json lists every commit, in order" "$(
	python3 -c 'import json, sys
print(" ".join(r["commit"] for r in json.load(open(sys.argv[1]))["commits"]), end=" ")' \
		"$h/build/series-check/series.json" | grep -qx "$all" || echo "not every commit")"
run again RESUME=1
result "series-check: RESUME=1 after a whole run builds nothing" "$(
	[ "$(cat "$tmp/again.status")" -eq 0 ] && [ ! -s "$h/steps.log" ] ||
		echo "status $(cat "$tmp/again.status"), steps: $(cat "$tmp/again.steps")")"
run failed FAIL_AT="$fourth"
run retried RESUME=1
result "series-check: RESUME=1 runs a failed commit again, and only it" "$(
	[ "$(cat "$tmp/failed.status")" -ne 0 ] || echo "the failing run passed"
	[ "$(cat "$tmp/retried.status")" -eq 0 ] || echo "status $(cat "$tmp/retried.status")"
	[ "$(cat "$tmp/retried.steps")" = "$fourth " ] || echo "its steps: $(cat "$tmp/retried.steps")")"
run whole
result "series-check: without RESUME, every commit runs again" "$(
	[ "$(cat "$tmp/whole.steps")" = "$all" ] || echo "its steps: $(cat "$tmp/whole.steps")")"
echo 7 > "$tree/file"
harness_git -C "$tree" commit -q -am "commit 7"
new=$(git -C "$tree" rev-parse --short=12 HEAD)
run grown RESUME=1
result "series-check: RESUME=1 on a series one commit longer runs that commit only" "$(
	[ "$(cat "$tmp/grown.status")" -eq 0 ] || echo "status $(cat "$tmp/grown.status")"
	[ "$(cat "$tmp/grown.steps")" = "$new " ] || echo "its steps: $(cat "$tmp/grown.steps")"
	[ "$(find "$h/build/series-check" -name commit.json | wc -l)" -eq 8 ] ||
		echo "not 8 results")"
run shard RESUME=1 SHARD=2/2
result "series-check: RESUME=1 SHARD=2/2 keeps the unsharded run's results, runs nothing" "$(
	[ "$(cat "$tmp/shard.status")" -eq 0 ] || echo "status $(cat "$tmp/shard.status")"
	[ ! -s "$h/steps.log" ] || echo "its steps: $(cat "$tmp/shard.steps")"
	[ "$(find "$h/build/series-check-shards/2-of-2" -name commit.json | wc -l)" -eq 4 ] ||
		echo "not 4 results")"

# A SHARD that is not i/N stops the run before anything
for bad in 0/2 3/2 2 a/b 1/0 /2; do
	status=0
	SHARD=$bad LIST_ONLY=1 "$top/tools/series/mutate.sh" none > /dev/null 2> "$tmp/err" || status=$?
	result "SHARD=$bad is refused" "$([ $status -ne 0 ] && grep -q 'give i/N' "$tmp/err" ||
		echo "status $status: $(cat "$tmp/err")")"
done

[ "$fail" -eq 0 ] || die "$fail of $((pass + fail)) failed"
echo "# shards: $pass passed"
