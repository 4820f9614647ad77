#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tools/stages/debian13-root.sh that need no archive: an archive it
# cannot reach leaves root.json saying why (available false, exit 0, so
# that make deps goes on), a tree fetched before is kept, and a call
# without its directory is refused.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

run() { "$top/tools/stages/debian13-root.sh" "$@"; }

expect usage 1 "usage: debian13-root.sh OUT" run
# port 9 (discard) of this machine: nothing listens there
expect unreachable 0 "Debian 13 packages unavailable: apt-get update" \
	env DEBIAN13_MIRROR=http://127.0.0.1:9/debian "$top/tools/stages/debian13-root.sh" "$tmp/d"
result unreachable_json "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["available"] is False and r["suite"] == "trixie", r
assert "apt-get update" in r["why"], r' "$tmp/d/root.json" 2>&1)"
result unreachable_no_root "$([ ! -e "$tmp/d/root" ] || echo "$tmp/d/root is there")"
echo '{"suite": "trixie", "available": true, "packages": {}}' > "$tmp/d/root.json"
expect kept 0 "is there" env DEBIAN13_MIRROR=http://127.0.0.1:9/debian \
	"$top/tools/stages/debian13-root.sh" "$tmp/d"
summary
