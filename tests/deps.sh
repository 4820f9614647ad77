#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of make deps (tools/stages/deps.sh) when the pinned linux-source-6.1 has
# left the archive: it says so and prints the make rebase command for the
# newest version the apt sources offer. The package tools are fakes on
# PATH (apt-cache madison's list, dpkg-query's installed packages, an
# apt-get that installs nothing), so this runs as any user, as root too,
# and changes nothing on the machine.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/bin" "$tmp/overlay"
# The archive: what apt-cache madison prints, in its file's order
# (MADISON); 6.1.192-10 is the newest by Debian's ordering, not by sort.
cat > "$tmp/bin/apt-cache" << 'EOF'
#!/bin/sh
[ "$1 $2" = "madison linux-source-6.1" ] || exit 100
for v in $MADISON; do
	echo "linux-source-6.1 |  $v | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages"
done
EOF
# Every package installed; linux-source-6.1 at INSTALLED.
cat > "$tmp/bin/dpkg-query" << 'EOF'
#!/bin/sh
echo "install ok installed $INSTALLED"
EOF
# apt-get update works; anything else is logged and fails.
cat > "$tmp/bin/apt-get" << EOF
#!/bin/sh
[ "\$1" = update ] && exit 0
echo "apt-get \$*" >> "$tmp/apt-get.log"
echo "E: fake apt-get: no install here" >&2
exit 100
EOF
chmod +x "$tmp/bin"/*
export PATH="$tmp/bin:$PATH"
export INSTALLED=6.1.192-3
export MADISON="6.1.192-3 6.1.192-10 6.1.190-1 6.1.187-1 6.1.176-1 6.1.170-3"

deps() { "$top/tools/stages/deps.sh" "$tmp/overlay"; }

echo 6.1.192-3 > "$tmp/overlay/base-version"
expect pinned_installed 0 "" deps

# A version that does not exist (anymore): the rebase command, not an
# apt source to add.
echo 6.1.999-1 > "$tmp/overlay/base-version"
expect gone_says_so 1 "linux-source-6.1 6.1.999-1, the version the series is based on .*, is no longer in the archive" deps
expect gone_rebase_command 0 "make rebase VERSION=6.1.192-10$" cat "$tmp/last"
expect gone_lists_offered 0 "offer 6.1.192-10 6.1.192-3 6.1.190-1 6.1.187-1 6.1.176-1 6.1.170-3\." cat "$tmp/last"
expect gone_installs_nothing 0 "^none$" sh -c "[ -e '$tmp/apt-get.log' ] || echo none"
expect newest 0 "^6.1.192-10$" "$top/tools/stages/linux-source.sh" --newest

# Pinned, not installed, in the archive: install it (or be told how).
echo 6.1.176-1 > "$tmp/overlay/base-version"
expect in_archive_install 1 "linux-source-6.1=6.1.176-1" deps
expect in_archive_no_rebase 0 "^absent$" sh -c "grep -q 'make rebase' '$tmp/last' || echo absent"

# VERSION= (import fetches the version itself): nothing to install.
echo 6.1.999-1 > "$tmp/overlay/base-version"
expect version_given 0 "" env LINUX_SOURCE_VERSION=6.1.176-1 "$top/tools/stages/deps.sh" "$tmp/overlay"

# apt-cache knows no version (no apt-get update yet): no claim that the
# version is gone.
expect no_lists 1 "missing packages|offer no linux-source-6.1" env MADISON= "$top/tools/stages/deps.sh" "$tmp/overlay"
expect no_lists_no_rebase 0 "^absent$" sh -c "grep -q 'make rebase' '$tmp/last' || echo absent"
expect linux_source_unknown 1 "6.1.999-1 is not in the apt sources \(they offer: 6.1.192-10 6.1.192-3" \
	env VERSIONS_DIR="$tmp/versions" "$top/tools/stages/linux-source.sh" 6.1.999-1

summary
