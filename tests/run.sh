#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The harness's own tests: the verdict parser against recorded logs of every
# failure kind, the import/export stages on a stand-in tarball, the
# check of ci-base's results, make bisect's reading of a step's logs, and
# bpf-grant's manual page and parsing of its arguments.
set -eu
cd "$(dirname "$0")/.."

status=0
for t in tests/verdict.sh tests/import.sh tests/expect.sh tests/step-outcome.sh \
	tests/deps.sh tests/rebase.sh \
	tests/doc-figures.sh tests/bpf-grant-man.py tests/bpf-grant-args.sh \
	tests/tree-wrapper.sh tests/parity-table.sh tests/upstream-results.sh tests/versions-doc.sh \
	tests/bench-report.sh tests/run-cmd.sh tests/debian13-root.sh; do
	echo "# $t"
	"$t" || status=1
done
# the readers of the JSON files that stages pass (docs/contracts.md), and
# the shards of mutate and series-check merged as one run (tools/shards.py)
for t in tests/results_test.py tests/shards_test.py tests/shards.sh tests/contracts.sh; do
	echo "# $t"
	"$t" || status=1
done
exit $status
