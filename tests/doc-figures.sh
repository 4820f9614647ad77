#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The figures the documents state, checked against the code that defines
# them: a figure changed in one place and not the other fails here.
#
#   docs/harness.md's table of variables: each default that is not
#     "empty" or "none" against the code that sets it (ci/boot.sh's
#     ${NAME:-N}, the Makefile's "NAME ?= N", the scripts' ${NAME:-N});
#     a row no check below knows fails. And every variable of the
#     Makefile (NAME ?=, the [NAME=] of its ## comments) and of
#     ci/boot.sh is in the table.
#   docs/harness.md's tables of targets: every target make help lists;
#     its pipeline table: the stages of STAGES, in order.
#   The stages as the Makefile's header and README.md list them.
#   What make check runs (its recipe, its help, README.md), and the
#     variables it passes (FRESH_ENV, docs/harness.md).
#   README.md's REPEAT and the init's test timeout; docs/harness.md's
#     test timeout and the faults' idle timeout and list of faults
#     (tests/faults.sh).
#   docs/series.md's patches: their number and subjects, against
#     kernel-overlay/series and each patch's Subject:; LSM_GRANT_ALL.
#   The subjects the guest tests' need_patch() names, against the same.
#   docs/measurements.md's mutants: how many, killed, equivalent,
#     against mutants/; bench's rounds and bpf-bench's repetitions,
#     against tools/measure/bench.sh (and its header) and bpf-bench.c.
#   The workflows' comments on KVM, against where the jobs get /dev/kvm.
#   README.md's cold and warm make ci, against docs/measurements.md; the
#     commits a series-check shard takes (docs/harness.md, ci.yml); the
#     map of tools/ in docs/harness.md, against the files git has there.
set -eu
STAGE=tests/doc-figures.sh
# shellcheck source=tools/lib/lib.sh
. "$(dirname "$0")/../tools/lib/lib.sh"

harness=$top/docs/harness.md
series=$top/docs/series.md
measure=$top/docs/measurements.md
readme=$top/README.md
mk=$top/Makefile
boot=$top/ci/boot.sh

n=0
failed=0
# check WHAT DOC_VALUE CODE_VALUE: they must be equal and not empty
check() {
	n=$((n + 1))
	if [ -n "$2" ] && [ "$2" = "$3" ]; then
		echo "ok $n $1: $2"
	else
		echo "not ok $n $1: the document says '${2:-nothing}', the code '${3:-nothing}'"
		failed=$((failed + 1))
	fi
}

# one line: the words of $1 joined by single spaces
words() {
	printf '%s\n' "$1" | tr -s ' \t\n' '   ' | sed 's/^ //; s/ $//'
}

# The default ${NAME:-N} of $1 in files $2...: one value, or all of them
# if they differ (so that the check fails)
env_default() {
	v=$1
	shift
	sed -n "s/.*\${$v:-\([^}]*\)}.*/\1/p" "$@" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# The Makefile's "[export ]NAME ?= VALUE": the first, or the one after
# 'ifeq ($(KCONFIG),debug)' with $2 = debug
make_default() {
	if [ "${2:-}" = debug ]; then
		sed -n '/^ifeq (\$(KCONFIG),debug)$/,/^else/p' "$mk"
	else
		cat "$mk"
	fi | sed -n "s/^\(export \)\{0,1\}$1 ?= *//p" | head -n 1
}

# The rows of docs/harness.md's table of variables: NAME<TAB>DEFAULT
variables() {
	sed -n '/^## Variables$/,/^## /p' "$harness" |
		sed -n 's/^| \(`[^|]*`[^|]*\) | \([^|]*\) | .*|$/\1	\2/p' |
		sed 's/`//g'
}

# The value docs/harness.md's table gives variable row $1
table() {
	variables | awk -F'\t' -v k="$1" '$1 == k { print $2 }'
}

# Each default of the table, against the code
rows=$(variables | cut -f1)
known="BOOT_TIMEOUT IDLE_TIMEOUT KVM_PROBE SMP ACCEL HEARTBEAT REPEAT TRIES FUZZ_SECONDS
TP_TIMEOUT UPSTREAM_REPEAT ESCALATE ACCEL_CACHE CCACHE_DIR BPF_CI_CACHE CI_O SERIAL_LOG INITRAMFS"
for v in BOOT_TIMEOUT IDLE_TIMEOUT; do
	check "$v (docs/harness.md, ci/boot.sh)" "$(table "$v" | sed 's/ .*//')" \
		"$(env_default "$v" "$boot")"
	check "$v with KCONFIG=debug (docs/harness.md, the Makefile)" \
		"$(table "$v" | sed -n 's/.*(\([0-9]*\) with KCONFIG=debug).*/\1/p')" \
		"$(make_default "$v" debug)"
done
for v in KVM_PROBE SMP ACCEL HEARTBEAT; do
	check "$v (docs/harness.md, ci/boot.sh)" "$(table "$v")" "$(env_default "$v" "$boot")"
done
check "REPEAT (docs/harness.md, the Makefile)" "$(table REPEAT)" "$(make_default REPEAT)"
check "TRIES (docs/harness.md, tools/)" "$(table TRIES)" \
	"$(env_default TRIES "$top"/tools/*/*.sh)"
check "FUZZ_SECONDS (docs/harness.md, the Makefile)" "$(table FUZZ_SECONDS)" \
	"$(make_default FUZZ_SECONDS)"
check "FUZZ_SECONDS (docs/harness.md, ci/fuzz.sh)" "$(table FUZZ_SECONDS)" \
	"$(env_default FUZZ_SECONDS "$top/ci/fuzz.sh")"
check "TP_TIMEOUT (docs/harness.md, tools/upstream/upstream-selftests.sh)" "$(table TP_TIMEOUT)" \
	"$(env_default TP_TIMEOUT "$top/tools/upstream/upstream-selftests.sh")"
check "UPSTREAM_REPEAT (docs/harness.md, tools/upstream/upstream-selftests.sh)" \
	"$(table UPSTREAM_REPEAT)" "$(env_default UPSTREAM_REPEAT "$top/tools/upstream/upstream-selftests.sh")"
check "ESCALATE (docs/harness.md, tools/upstream/upstream-selftests.sh)" "$(table ESCALATE)" \
	"$(env_default ESCALATE "$top/tools/upstream/upstream-selftests.sh")"
check "ACCEL_CACHE (docs/harness.md, the Makefile)" "$(table ACCEL_CACHE)" \
	"$(make_default ACCEL_CACHE | sed -n 's/^\$(abspath \$(B)\/\(.*\))$/build\/\1/p')"
# BPF_CI_CACHE and CCACHE_DIR as make makes them in an environment of $@
# (XDG_CACHE_HOME, HOME or neither), against the three the table gives
cache_of() {
	env -u BPF_CI_CACHE -u CCACHE_DIR -u XDG_CACHE_HOME -u HOME -u MAKEFLAGS -u MAKELEVEL "$@" make -s -C "$top" \
		--no-print-directory --eval='cache-of: ; @echo $(BPF_CI_CACHE) $(CCACHE_DIR)' cache-of
}
doc_homes=$(table BPF_CI_CACHE |
	sed -n 's|^\$XDG_CACHE_HOME\([^ ]*\) (~\([^;]*\); build\([^ ]*\) without a home)$|/x\1 /h\2 BUILD\3|p' |
	sed "s|BUILD|$top/build|")
check "BPF_CI_CACHE in three homes (docs/harness.md, the Makefile)" "$doc_homes" \
	"$(cache_of XDG_CACHE_HOME=/x | cut -d' ' -f1) $(cache_of HOME=/h | cut -d' ' -f1) $(cache_of | cut -d' ' -f1)"
check "CCACHE_DIR (docs/harness.md, the Makefile)" "$(table CCACHE_DIR | sed 's|^\$(BPF_CI_CACHE)|/x/bpf-lsm-ci|')" \
	"$(cache_of XDG_CACHE_HOME=/x | cut -d' ' -f2)"
check "CI_O (docs/harness.md, the Makefile)" "$(table CI_O)" \
	"$(sed -n 's/^CI_O := \$(B)\//build\//p' "$mk" | head -n 1)"
check "SERIAL_LOG (docs/harness.md, the Makefile)" "$(table SERIAL_LOG)" \
	"$(sed -n 's/^SERIAL_LOG := //p' "$mk")"
check "INITRAMFS (docs/harness.md, the Makefile)" "$(table INITRAMFS)" \
	"$(sed -n 's/^INITRAMFS := \$(B)\/\$(if \$(STEPS),steps\/)\(initramfs\)\$(if \$(KCONFIG),-\$(KCONFIG))\(\.cpio\)$/build\/\1\2/p' "$mk")"
# A variable the table says is empty by default: the Makefile's ?= too
status=
defaults=$(sed -n 's/^\(export \)\{0,1\}\([A-Z_]*\) ?=.*/\2/p' "$mk" | sort -u)
for v in $defaults; do
	[ "$(table "$v")" != empty ] || [ -z "$(make_default "$v")" ] || status="$status $v"
done
check "the variables docs/harness.md says are empty are empty in the Makefile" \
	"${status:- all}" " all"
# A default the table gives that no check above knows
status=0
unknown=$(variables | awk -F'\t' -v known="$known" '
	BEGIN { split(known, k, /[ \n]+/); for (i in k) ok[k[i]] = 1 }
	$2 != "empty" && $2 != "none" && !ok[$1] && $1 !~ /^(KSRC, KOBJ|VMLINUX, BZIMAGE|GOOD, BAD)$/ { print $1 }')
check "every default in docs/harness.md's table has a check here" "${unknown:-none}" none

# Every variable of the Makefile and ci/boot.sh is in the table
status=
for v in $(sed -n 's/^\(export \)\{0,1\}\([A-Z_]*\) ?=.*/\2/p' "$mk" |
	grep -v '^\(BOOT_TIMEOUT\|IDLE_TIMEOUT\)$'; \
	sed -n 's/^[a-z-]*:.*## //p' "$mk" | grep -o '[A-Z_]*=' | tr -d =; \
	grep -o '\${[A-Z_]*:-' "$boot" | sed 's/\${\(.*\):-/\1/') BOOT_TIMEOUT IDLE_TIMEOUT; do
	printf '%s\n' "$rows" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$v" ||
		status="$status $v"
done
check "every variable of the Makefile and ci/boot.sh is in docs/harness.md's table" \
	"${status:- all there}" " all there"

# README.md's times of make ci, cold and warm, are docs/measurements.md's
for kind in cold warm; do
	check "README.md's $kind make ci (docs/measurements.md)" \
		"$(tr '\n' ' ' < "$readme" | sed -n "s/.* $kind \`make ci\`[^0-9]*\([0-9]*\) s[;.].*/\1/p")" \
		"$(sed -n "s/^| $kind \`make ci\` .* | \([0-9]*\) s: .*/\1/p" "$measure")"
done

# How many commits a series-check shard takes (docs/harness.md, ci.yml)
check "commits a series-check shard boots (docs/harness.md, ci.yml)" \
	"$(tr '\n' ' ' < "$harness" | sed -n 's/.*as one shard per \([0-9]*\) commits of the series.*/\1/p')" \
	"$(sed -n 's/.*shards.py matrix "$commits" \([0-9]*\).*/\1/p' "$top/.github/workflows/ci.yml")"

# docs/harness.md's map of tools/: each folder's row names the files git
# has there, and every folder of tools/ has a row
for d in $(cd "$top" && git ls-files tools | cut -d/ -f2 | sort -u); do
	row=$(sed -n "s/^| \`tools\/$d\/\` | \([^|]*\) |.*/\1/p" "$harness")
	named=$(printf '%s\n' "$row" | grep -o '`[a-z0-9_-]*\.[a-z]*`' | tr -d '`' | sort -u | tr '\n' ' ')
	check "docs/harness.md's map: tools/$d/" "$named" \
		"$(cd "$top" && git ls-files "tools/$d" | sed 's|.*/||' | sort -u | tr '\n' ' ')"
done

# Every target make help lists is in docs/harness.md's tables; the
# pipeline table is STAGES, in order
stages=$(sed -n 's/^STAGES := //p' "$mk")
missing=
targets=$(sed -n 's/^\([a-z-]*\):.*## .*/\1/p' "$mk")
for t in $targets; do
	grep -q "^| [^|]*\`$t\`" "$harness" || missing="$missing $t"
done
check "every target of make help is in docs/harness.md" "${missing:- all there}" " all there"
# make help groups every target by role (HELP_GROUPS), and fails on one
# left out
check "make help: every target in a group" \
	"$(make -s -C "$top" --no-print-directory help > /dev/null 2>&1 && echo yes || echo no)" yes
check "docs/harness.md's pipeline table: STAGES, in order" \
	"$(sed -n '/^## The pipeline: make ci$/,/^## /p' "$harness" |
		sed -n 's/^| `\([a-z-]*\)` | .*/\1/p' | tr '\n' ' ' | sed 's/ $//')" "$stages"
check "the Makefile's header: STAGES" \
	"$(words "$(sed -n '/^# The stages of the pipeline/,/make ci/p' "$mk" |
		sed -n 's/.*(STAGES below): *//p; s/^# *\([a-z-]*, .*\)\.$/\1/p')" | tr -d ,)" "$stages"
check "README.md's make ci row: STAGES" \
	"$(sed -n 's/^| `make ci` | the pipeline: \(.*\) |$/\1/p' "$readme" | tr -d ,)" "$stages"

# README's REPEAT, the init's test timeout
check "REPEAT (README.md, the Makefile)" \
	"$(sed -n 's/.*in one boot (`REPEAT=\([0-9]*\)`).*/\1/p' "$readme")" "$(make_default REPEAT)"
init_timeout=$(sed -n 's/^timeout=\([0-9]*\)$/\1/p' "$top/initramfs/init")
check "the init's test timeout (README.md, initramfs/init)" \
	"$(sed -n 's/.*the init kills a test after \([0-9]*\) s.*/\1/p' "$readme")" "$init_timeout"
check "the init's test timeout (docs/harness.md's command line, initramfs/init)" \
	"$(sed -n 's/.*`ci.test_timeout=SECONDS` | .* (\([0-9]*\) by default) |$/\1/p' "$harness")" \
	"$init_timeout"
check "the init's test timeout (docs/harness.md's notes, initramfs/init)" \
	"$(sed -n 's/.*(`ci.test_timeout`, \([0-9]*\) s by default).*/\1/p' "$harness")" \
	"$init_timeout"

# What make check runs: each target of its recipe is named by its ##
# comment (make help), README.md's quick start and README.md's table;
# series-check is not among them, and README.md says it runs apart
runs=$(sed -n '/^check: /,/^$/p' "$mk" | sed -n 's/.*--no-print-directory \([a-z-]*\)\( ||.*\)\{0,1\}$/\1/p')
check_help=$(sed -n 's/^check: .*## //p' "$mk")
check_quick=$(sed -n 's/^ *make check *# //p' "$readme")
check_row=$(sed -n 's/^| `make check` | \(.*\) |$/\1/p' "$readme")
unnamed=
for t in $runs; do
	for text in "$check_help" "$check_quick" "$check_row"; do
		printf '%s\n' "$text" | tr -c 'a-z-' '\n' | grep -qx -- "$t" ||
			unnamed="$unnamed $t"
	done
done
check "what make check runs (the Makefile's help, README.md twice)" \
	"${unnamed:- all named}" " all named"
check "series-check is not in make check (README.md, the Makefile)" \
	"$(printf '%s\n' "$check_row" | grep -q '`series-check`.* jobs of their own' && echo apart)" \
	"$(printf '%s\n' "$runs" | grep -qx series-check || echo apart)"
# The variables make check passes through (FRESH_ENV), as
# docs/harness.md lists them
check "FRESH_ENV's variables (docs/harness.md, the Makefile)" \
	"$(sed -n '/^- `make check` passes only/,/FRESH_ENV/p' "$harness" |
		grep -o '`[A-Z_]*`' | tr -d '`' | grep -vx FRESH_ENV | sort | tr '\n' ' ')" \
	"$(sed -n 's/.*\$(foreach v,\([A-Z_ ]*\),.*/\1/p' "$mk" | tr ' ' '\n' | sort | tr '\n' ' ')"

# The faults
idle=$(sed -n 's/^IDLE=\([0-9]*\)$/\1/p' "$top/tests/faults.sh")
check "the faults' idle timeout (docs/harness.md, tests/faults.sh)" \
	"$(sed -n 's/.*boots run with an `IDLE_TIMEOUT` of \([0-9]*\) s.*/\1/p' "$harness")" "$idle"
check "the hang fault's reason (docs/harness.md, tests/faults.sh)" \
	"$(sed -n 's/.*`hang: ci-boot: timeout: no console output for \([0-9]*\) s`.*/\1/p' "$harness")" "$idle"
check "the faults (docs/harness.md's table, tests/faults.sh)" \
	"$(sed -n '/^## The verdict, failure by failure$/,/^## /p' "$harness" |
		sed -n 's/^| `\([a-z]*\)` | .*/\1/p' | sort | tr '\n' ' ')" \
	"$(sed -n '/^faults="/,/"$/p' "$top/tests/faults.sh" | sed 's/^faults="\\*//' |
		sed -n 's/^\([a-z]*\)|.*/\1/p' | sort | tr '\n' ' ')"

# The series
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel-overlay/series")
count=$(printf '%s\n' "$patches" | wc -l)
check "the number of patches (docs/series.md's text, kernel-overlay/series)" \
	"$(sed -n 's/.*a series of \([0-9]*\) patches.*/\1/p' "$series")" "$count"
check "the number of patches (docs/series.md's list, kernel-overlay/series)" \
	"$(sed -n '/^## The patches$/,/^### /p' "$series" | grep -c '^[0-9]*\. `')" "$count"
check "the number of patches (the cover letter's subject, kernel-overlay/series)" \
	"$(sed -n 's/^Subject: \[PATCH 00\/\([0-9]*\)\].*/\1/p' "$top/kernel-overlay/0000-cover-letter.patch")" \
	"$count"
i=0
wrong=
subjects=
for p in $patches; do
	i=$((i + 1))
	subject=$(awk '/^Subject: / { s = $0; f = 1; next } f && /^[ \t]/ { s = s $0; next }
		f { exit } END { print s }' "$top/kernel-overlay/$p" |
		sed 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //; s/[ \t][ \t]*/ /g')
	grep -qxF "$i. \`$subject\`" "$series" || wrong="$wrong $i"
	subjects="$subjects$subject
"
done
check "docs/series.md's subjects are the patches'" "${wrong:- all}" " all"
# The guest tests' need_patch("SUBJECT") (initramfs/runner/grant_helpers.h):
# a subject no patch has would skip its test at every commit.
wrong=$(sed -n 's/.*\(need_patch\|series_has\)("\([^"]*\)").*/\2/p' "$top"/initramfs/prog_tests/*.c |
	sort -u | while IFS= read -r s; do
		printf '%s' "$subjects" | grep -qxF "$s" || printf ' "%s"' "$s"
	done)
check "the subjects need_patch() names are the patches'" "${wrong:- all}" " all"
check "LSM_GRANT_ALL (docs/series.md, the series)" \
	"$(sed -n 's/.*`LSM_GRANT_ALL` (`\(0x[0-9a-f]*\)`.*/\1/p' "$series")" \
	"$(cat "$top"/kernel-overlay/0*.patch | sed -n 's/^+#define LSM_GRANT_ALL[[:space:]]*\(0x[0-9a-f]*\).*/\1/p' | sort -u)"

# The mutants
all=$(find "$top/mutants" -name '*.patch' | wc -l)
equiv=$(grep -l '^Equivalent:' "$top"/mutants/*.patch | wc -l)
line=$(sed -n 's/.*\*\*\([0-9]*\) mutants, \([0-9]*\) killed, \([0-9]*\) equivalent, none survived\.\*\*.*/\1 \2 \3/p' "$measure")
check "mutants (docs/measurements.md, mutants/)" "${line%% *}" "$all"
check "equivalent mutants (docs/measurements.md, mutants/ with Equivalent:)" "${line##* }" "$equiv"
killed=$(echo "$line" | cut -d' ' -f2)
check "killed mutants (docs/measurements.md): all but the equivalent" "$killed" "$((all - equiv))"
check "the equivalent mutants named (docs/measurements.md, mutants/)" \
	"$(sed -n '/^| mutant | why no test can kill it |$/,/^$/p' "$measure" |
		sed -n 's/^| \([0-9][0-9][0-9]\) | .*/\1/p' | tr '\n' ' ')" \
	"$(grep -l '^Equivalent:' "$top"/mutants/*.patch | sed 's/.*\/\([0-9]*\)-.*/\1/' | tr '\n' ' ')"

# make bench: its rounds, in the code, its header and the measurements;
# bpf-bench's repetitions and calls
number() {
	case $1 in
	one) echo 1 ;; two) echo 2 ;; three) echo 3 ;; four) echo 4 ;; five) echo 5 ;;
	*) echo "$1" ;;
	esac
}
rounds=$(sed -n 's/^[[:space:]]*for round in \(.*\); do$/\1/p' "$top/tools/measure/bench.sh" | wc -w)
check "bench's rounds (tools/measure/bench.sh's header, its loop)" \
	"$(number "$(sed -n 's/^#.*(\([a-z]*\) rounds).*/\1/p' "$top/tools/measure/bench.sh")")" "$rounds"
check "bench's rounds (docs/measurements.md, tools/measure/bench.sh's loop)" \
	"$(number "$(sed -n 's/.*one boot per policy, in \([a-z]*\) rounds.*/\1/p' "$measure")")" "$rounds"
check "bpf-bench's repetitions and calls (docs/measurements.md, bpf-bench.c)" \
	"$(sed -n 's/.*`bpf-bench`: \([0-9]*\) repetitions of \([0-9]*\)$/\1 \2/p' "$measure")" \
	"$(sed -n 's/^static int reps = \([0-9]*\), iters = \([0-9]*\);$/\1 \2/p' \
		"$top/initramfs/bench/bpf-bench.c")"

# The workflows' comments on KVM: where the jobs get /dev/kvm (ci.yml's
# docker run, or tools/jobs/docker-job.sh for every job), no comment may say
# that a job runs under TCG "as in ci.yml" or "not KVM"
kvm=no
cat "$top"/.github/workflows/*.yml "$top/tools/jobs/docker-job.sh" 2> /dev/null |
	grep -q -- '--device=/dev/kvm' && kvm=yes
tcg_only=$(grep -l 'TCG, not KVM\|TCG.*as in ci.yml' "$top"/.github/workflows/*.yml |
	sed 's/.*\///' | tr '\n' ' ')
check "the workflows' comments on KVM: none says TCG only where /dev/kvm goes in" \
	"${tcg_only:-none}" "$([ "$kvm" = yes ] && echo none || echo "(no job gets /dev/kvm)")"

[ "$failed" -eq 0 ] || die "$failed of $n figures in the documents disagree with the code"
echo "# doc-figures: $n figures agree"
