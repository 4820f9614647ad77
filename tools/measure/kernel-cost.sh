#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel-cost: what the kernel stage of a cold make ci costs, and what in
# the config it costs for. TREE's work tree is built from scratch (no
# ccache, a new object directory) once per variant, one after the other
# in one run, since only ratios taken side by side mean anything here
# (no ccache but where a variant says so):
#
#   floor            tinyconfig alone: what any kernel of this tree costs
#   full             tinyconfig and FRAGMENT...: make ci's kernel
#   full-ccache      full through ccache, into an empty cache: what the
#                    kernel stage of a cold make ci pays
#   no-btf           full without CONFIG_DEBUG_INFO_BTF (pahole's pass)
#   no-debuginfo     full without debug info, and so without BTF
#   no-selftest-net  full without IPv6 and netfilter, there for the
#                    tree's own test_progs (make tree-test-progs)
#
# OUT/kernel-cost.csv, comma-separated, with a header line:
#   variant, seconds (make bzImage, wall clock), objects (.o files built),
#   per_floor (seconds over the floor's, 2 decimals)
# OUT/run.tsv: date, cpus, accel (KEY<TAB>VALUE, tools/lib/lib.sh's run_facts)
#   and ccache (depend or preprocessor: full-ccache's mode)
# OUT/<variant>/: the variant's fragment, .config and build log; the
# objects are deleted once counted.
#
# usage: kernel-cost.sh TREE OUT FRAGMENT... [-- VARIANT...]
set -eu
STAGE=kernel-cost
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"

[ $# -ge 3 ] || die "usage: kernel-cost.sh TREE OUT FRAGMENT... [-- VARIANT...]"
[ -f "$1/Makefile" ] || die "$1 is not a kernel tree; run make import"
tree=$(realpath "$1")
out=$2
shift 2
fragments=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	[ -r "$1" ] || die "no fragment $1: name a file of ci/, such as ci/kernel.config"
	fragments="$fragments $(realpath "$1")"
	shift
done
[ $# -eq 0 ] || shift
variants=${*:-floor full full-ccache no-btf no-debuginfo no-selftest-net}
# full-ccache measures ccache as make ci runs it, with the Makefile's
# CCACHE_* settings (depend mode, the base directory)
[ -n "${CCACHE_BASEDIR:-}" ] ||
	die "run it as make kernel-cost (or make bench), which gives ccache make ci's settings"

# The options each variant turns off, and the lines it adds instead
off_opts() {
	case $1 in
	floor | full | full-ccache) ;;
	no-btf) echo DEBUG_INFO_BTF ;;
	no-debuginfo) echo DEBUG_INFO DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_BTF GDB_SCRIPTS ;;
	no-selftest-net) echo IPV6 NETFILTER NF_CONNTRACK NF_CONNTRACK_MARK NF_NAT ;;
	*) die "no variant '$1'; the variants: floor full full-ccache no-btf no-debuginfo no-selftest-net" ;;
	esac
}
on_lines() {
	case $1 in
	no-btf) echo "# CONFIG_DEBUG_INFO_BTF is not set" ;;
	no-debuginfo) echo CONFIG_DEBUG_INFO_NONE=y ;;
	# the others depend on these two
	no-selftest-net) printf '# CONFIG_%s is not set\n' IPV6 NETFILTER ;;
	esac
}
for v in $variants; do off_opts "$v" > /dev/null; done

mkdir -p "$out"
echo "variant,seconds,objects,per_floor" > "$out/kernel-cost.csv.tmp"
floor=
for v in $variants; do
	d=$out/$v
	rm -rf "$d"
	mkdir -p "$d/obj"
	frag=
	if [ "$v" != floor ]; then
		# shellcheck disable=SC2086 # lists of paths and of options
		{
			cat $fragments | grep -vE "^(# )?CONFIG_($(off_opts "$v" | tr ' ' '|'))[= ]" || true
			on_lines "$v"
		} > "$d/fragment"
		frag=$d/fragment
	fi
	# shellcheck disable=SC2086 # $frag is empty or one path
	if [ -n "$frag" ]; then
		"$top/tools/stages/config.sh" "$tree" "$d/obj" $frag > "$d/config.log" 2>&1
	else
		make -s -C "$tree" O="$(realpath "$d/obj")" ARCH=x86_64 tinyconfig > "$d/config.log" 2>&1
	fi || die "the $v config failed; see $d/config.log"
	cp "$d/obj/.config" "$d/config"
	# make ci's compiler: ccache where it is installed (Makefile's KMAKE)
	cc=gcc
	if [ "$v" = full-ccache ]; then
		command -v ccache > /dev/null || die "full-ccache: ccache is not installed; run make deps"
		cc=$top/tools/stages/ccache-gcc.sh
		CCACHE_DIR=$(realpath "$d")/ccache
		export CCACHE_DIR
	fi
	note "$v: building with $cc in $d/obj"
	t0=$(date +%s.%N)
	make -C "$tree" O="$(realpath "$d/obj")" ARCH=x86_64 CC="$cc" \
		KBUILD_BUILD_TIMESTAMP=2023-01-01 KBUILD_BUILD_USER=ci \
		KBUILD_BUILD_HOST=ci -j"$(nproc)" bzImage > "$d/build.log" 2>&1 ||
		die "the $v kernel did not build; see $d/build.log"
	s=$(printf '%.0f' "$(echo "$(date +%s.%N) - $t0" | bc)")
	n=$(find "$d/obj" -name '*.o' | wc -l)
	rm -rf "$d/obj" "$d/ccache"
	[ "$v" != floor ] || floor=$s
	r=-
	[ -z "$floor" ] || r=$(printf '%.2f' "$(echo "$s / $floor" | bc -l)")
	echo "$v,$s,$n,$r" >> "$out/kernel-cost.csv.tmp"
	note "$v: $s s, $n objects"
done
mv "$out/kernel-cost.csv.tmp" "$out/kernel-cost.csv"
{
	run_facts
	printf 'ccache\t%s\n' "$([ -n "${CCACHE_DEPEND:-}" ] && echo depend || echo preprocessor)"
} > "$out/run.tsv"
column -s, -t < "$out/kernel-cost.csv"
