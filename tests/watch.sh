#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The run as a terminal shows it, and as a CI log does. ci/boot.sh with a
# stand-in for QEMU that writes a console: on a terminal (script(1) gives
# one) each top-level result as it comes, coloured, and a heartbeat that
# names the test running; with NO_COLOR no colour; with stderr a file,
# none of it. ci/summary.sh: on a terminal all but the passed results, in
# colour, and where the whole tree is; elsewhere the whole tree.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
esc=$(printf '\033')

# A QEMU that writes the console -serial file:LOG names: a test that
# passes, 5 quiet seconds in the next one, a failure, then exits
mkdir "$tmp/bin"
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
for a; do case $a in file:*) log=${a#file:} ;; esac; done
printf 'KTAP version 1\r\n1..2\r\n# ci-init: running first\r\n' >> "$log"
printf '    ok 1 sub\r\nok 1 first\r\n# ci-init: running second\r\n' >> "$log"
sleep 5
printf 'not ok 2 second\r\n' >> "$log"
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
: > "$tmp/bzImage"
: > "$tmp/initramfs"

# boot ENV...: ci/boot.sh on a terminal, with ENV; what the terminal showed
boot() {
	env "$@" PATH="$tmp/bin:$PATH" ACCEL=tcg HEARTBEAT=2 script -qec \
		"'$top/ci/boot.sh' '$tmp/bzImage' '$tmp/initramfs' '$tmp/console'" \
		/dev/null > "$tmp/term" 2>&1 || true
	tr -d '\r' < "$tmp/term"
}

boot > "$tmp/shown"
result "boot: a pass as it comes, in green" \
	"$(grep -q "^${esc}\[32m  ok 1 first${esc}\[0m$" "$tmp/shown" || echo "not in $(cat -v "$tmp/shown")")"
result "boot: a failure as it comes, in red" \
	"$(grep -q "^${esc}\[31m  not ok 2 second${esc}\[0m$" "$tmp/shown" || echo "not in $(cat -v "$tmp/shown")")"
result "boot: no subtest's result" \
	"$(! grep -q "ok 1 sub" "$tmp/shown" || echo "a subtest shown")"
result "boot: a heartbeat names the test running" \
	"$(grep -q "^boot: [0-9]* s: second running, nothing new for [0-9]* s$" "$tmp/shown" ||
		echo "not in $(cat -v "$tmp/shown")")"
boot NO_COLOR=1 > "$tmp/shown"
result "boot: NO_COLOR, no colour" \
	"$({ grep -q "^  not ok 2 second$" "$tmp/shown" && ! grep -q "$esc" "$tmp/shown"; } ||
		echo "not in $(cat -v "$tmp/shown")")"
PATH="$tmp/bin:$PATH" ACCEL=tcg HEARTBEAT=2 "$top/ci/boot.sh" "$tmp/bzImage" "$tmp/initramfs" \
	"$tmp/console" > "$tmp/out" 2> "$tmp/err" || true
result "boot: with stderr a file, the notes alone" \
	"$(! grep -q -e "ok 1 first" -e "nothing new" -e "$esc" "$tmp/out" "$tmp/err" ||
		cat "$tmp/err")"

# summary.sh on verdict's summary of a failed run
sed 1d "$top/ci/fixtures/failed_subtest.expect" > "$tmp/summary"
script -qec "'$top/ci/summary.sh' '$tmp/summary'" /dev/null | tr -d '\r' > "$tmp/shown"
result "summary: on a terminal, the failure in red" \
	"$(grep -q "^${esc}\[31m  FAIL unpriv_refused_hash${esc}\[0m$" "$tmp/shown" ||
		echo "not in $(cat -v "$tmp/shown")")"
result "summary: on a terminal, no passed result, the counts, where the tree is" \
	"$({ ! grep -q "ok   " "$tmp/shown" && grep -q "^2 passed, 1 failed, 1 skipped$" "$tmp/shown" &&
		grep -q "^the whole tree: $tmp/summary$" "$tmp/shown"; } || cat -v "$tmp/shown")"
"$top/ci/summary.sh" "$tmp/summary" > "$tmp/out"
result "summary: elsewhere, the whole tree as it is" \
	"$(cmp -s "$tmp/summary" "$tmp/out" || echo "differs from the summary")"
summary
