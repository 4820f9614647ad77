#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hardening: check that a binary was built with the hardening flags of
# Debian's dpkg-buildflags (hardening=+all), as bpf-grant and
# bpf-token-mount must be (initramfs/Makefile): they run as root and
# decide who gets BPF. Read from the binary, not from the Makefile:
#   PIE          ELF type DYN (-fPIE, -static-pie)
#   RELRO, NOW   a GNU_RELRO segment, BIND_NOW in the dynamic section
#   stack        -fstack-protector-strong (or -all) in the DWARF producer
#                of each SOURCE's compile unit
#   fortify      a call to a __*_chk function from glibc's fortified
#                wrappers (bits/stdio2.h, bits/string_fortified.h, ...),
#                which the line table shows only where a compile unit
#                built with _FORTIFY_SOURCE and -g inlined them (the
#                static libraries linked here have no line table)
# Each property missing is named on stderr.
#
# usage: hardening.sh BINARY SOURCE...	(SOURCE: a .c file's name, as its
#	compile unit has it, e.g. bpf-grant.c; it needs -g)
set -eu
STAGE=hardening
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
[ $# -ge 2 ] || die "usage: hardening.sh BINARY SOURCE..."
bin=$1
[ -f "$bin" ] || die "$bin is missing; make guest-tests builds it"
shift
for t in readelf objdump; do
	command -v $t > /dev/null || die "$t is missing; apt-get install binutils"
done

bad=0
missing() {
	echo "$STAGE: $bin: $*" >&2
	bad=1
}

readelf -hW "$bin" | grep -q '^ *Type: *DYN' || missing "not PIE (ELF type $(readelf -hW "$bin" |
	sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p'))"
readelf -lW "$bin" | grep -q GNU_RELRO || missing "no RELRO (no GNU_RELRO segment)"
readelf -dW "$bin" | grep -Eq '\(FLAGS\) .*BIND_NOW|\(FLAGS_1\) .*NOW' ||
	missing "no BIND_NOW (-Wl,-z,now)"
# The producer comes before the name in a compile unit's DIE
producers=$(readelf --debug-dump=info --dwarf-depth=1 "$bin" 2> /dev/null | awk '
	/DW_AT_producer/ { p = $0 }
	/DW_AT_name/ { n = $NF; sub(".*/", "", n); print n "\t" p }')
for src in "$@"; do
	line=$(printf '%s\n' "$producers" | awk -F '\t' -v s="$src" '$1 == s { print $2; exit }')
	if [ -z "$line" ]; then
		missing "no compile unit for $src (built without -g?)"
	elif ! printf '%s\n' "$line" | grep -Eq -- '-fstack-protector-(strong|all)'; then
		missing "$src without -fstack-protector-strong"
	fi
done
objdump -d -l --no-show-raw-insn "$bin" | awk '
	/^\/.*:[0-9]+/ { file = $1; sub(":[0-9]+.*", "", file); next }
	/call.*<_*[a-z_]+_chk>/ && file ~ /\/bits\/[a-z_0-9]+\.h$/ { found = 1; exit }
	END { exit !found }' ||
	missing "no fortified call (__*_chk): built without _FORTIFY_SOURCE"
[ $bad = 0 ] || exit 1
echo "$STAGE: $bin: PIE, RELRO, BIND_NOW, stack protector, _FORTIFY_SOURCE"
