#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The stages pass JSON (docs/contracts.md): each consumer below names the
# JSON files it reads, and none of them reads another stage's human
# output: the console's init or runner lines, the verdict's summary,
# kunit.py's report, step.sh's wording, a test binary, a workflow file.
# A static check of the consumers' text; it runs nothing.
set -eu
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$top"

# CONSUMER: the JSON files it reads (by name)
consumers='
tools/series/step.sh: results.json step.json
tools/series/bisect.sh: step.json
tools/series/series-check.sh: step.json series.json commit.json shard.json
tools/series/mutate.sh: step.json mutant.json shard.json
tools/stages/expect.sh: results.json
tools/upstream/kunit-agree.sh: results.json kunit.json
tools/jobs/gh-local.sh: results.json
Makefile: results.json
.github/workflows/ci.yml: results.json series.json
'
# what reading prose looks like, as extended regular expressions
prose='# ci-init|no subtest named|\^verdict: |Testing complete|125:\*|grep[^|]*tests_o/bin|(sed|grep|awk)[^|]*(\.yml|\$workflow)|grep[^|]*/summary|awk[^|]*results\.ktap|\^    '

echo "$consumers" > "$tmp/consumers"
while IFS=: read -r file files; do
	[ -n "$file" ] || continue
	why=
	if [ ! -f "$file" ]; then
		why="missing"
	else
		for j in $files; do
			grep -q -F "$j" "$file" || why="$why; does not name $j"
		done
		hits=$(grep -n -E "$prose" "$file" | head -n 3 | tr '\n' ' ')
		[ -z "$hits" ] || why="$why; reads prose: $hits"
	fi
	result "$file reads$files" "${why#; }"
done < "$tmp/consumers"
# and the reader itself has the schemas' words
for w in no_such_subtest '"cause"' step-write series-table kunit-pfs; do
	grep -q -F -- "$w" tools/lib/results.py || result "tools/lib/results.py knows $w" missing
done
# and the shards' reader and writer, theirs (make mutate, series-check)
for w in shard.json mutant.json commit.json commit-write mutant-write; do
	grep -q -F -- "$w" tools/series/shards.py || result "tools/series/shards.py knows $w" missing
done
summary
