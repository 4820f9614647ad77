#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make versions-doc (tools/measure/versions_doc.py): the table of make versions
# written into a document's block from a run, then checked against the
# run kept; an edited figure fails the check; and docs/versions.md's block is
# that of the run tests/fixtures/versions-run/ keeps.
set -eu
cd "$(dirname "$0")/.."
f=tests/fixtures/versions-run
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

# result NAME STATUS: a test line for NAME, which passed if STATUS is 0
result() {
	if [ "$2" = 0 ]; then
		echo "ok $1"
	else
		echo "not ok $1"
		status=1
	fi
}

# A run: the kept one, with a '|' in a detail
mkdir "$out/run"
sed '$s/does not apply/does not apply | at all/' "$f/versions.tsv" > "$out/run/versions.tsv"
printf 'date\t2027-01-02\ncpus\t4\naccel\tkvm\n' > "$out/run/run.tsv"
printf 'text\n<!-- versions begin -->\nold\n<!-- versions end -->\nmore\n' > "$out/doc.md"

s=0
python3 tools/measure/versions_doc.py update "$out/run" "$out/kept" "$out/doc.md" &&
	python3 tools/measure/versions_doc.py check "$out/kept" "$out/doc.md" &&
	cmp -s "$out/run/versions.tsv" "$out/kept/versions.tsv" &&
	cmp -s "$out/run/run.tsv" "$out/kept/run.tsv" &&
	grep -qxF 'From `make versions` on 2027-01-02 (4 CPUs, QEMU kvm), `build/versions/versions.md`; `make versions-doc` rewrites this block.' \
		"$out/doc.md" &&
	grep -qxF '| version | archive | pinned | applies | builds | verdict | detail |' "$out/doc.md" &&
	grep -qxF '| 6.1.192-3 | bookworm-security | pinned | yes | yes | PASS |  |' "$out/doc.md" &&
	grep -qF 'does not apply \| at all: conflicts' "$out/doc.md" &&
	sed -n '1p' "$out/doc.md" | grep -qx text &&
	sed -n '$p' "$out/doc.md" | grep -qx more &&
	! grep -q '^old$' "$out/doc.md" || s=1
result "update writes the block, dated, with the machine, and check passes" $s

# The block's table is versions.md's (what make versions writes)
s=0
python3 tools/measure/versions_doc.py markdown "$out/run/versions.tsv" > "$out/versions.md" &&
	sed -n '/^| version /,/^<!-- versions end -->$/p' "$out/doc.md" | sed '$d' |
	cmp -s - "$out/versions.md" || s=1
result "the block's table is versions.md" $s

s=0
sed 's/| 6.1.192-3 \(.*\) PASS |/| 6.1.192-3 \1 FAIL |/' "$out/doc.md" > "$out/edited.md"
! cmp -s "$out/doc.md" "$out/edited.md" &&
	! python3 tools/measure/versions_doc.py check "$out/kept" "$out/edited.md" 2> /dev/null || s=1
result "check: an edited figure fails" $s

s=0
printf 'text\n' > "$out/none.md"
! python3 tools/measure/versions_doc.py check "$out/kept" "$out/none.md" 2> /dev/null || s=1
result "check: a document without the block fails" $s

s=0
python3 tools/measure/versions_doc.py check "$f" docs/versions.md || s=1
result "docs/versions.md's versions block is that of $f" $s
exit $status
