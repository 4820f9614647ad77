#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ccache-gcc: the kernel build's compiler where ccache is installed (the
# Makefile's KMAKE, tools/measure/kernel-cost.sh): gcc through ccache, but for a
# source with an .incbin directive, which gcc compiles itself. ccache's
# depend mode (the Makefile's CCACHE_DEPEND) hashes the files the
# compiler's dependency output names, and the file .incbin pulls in is
# not among them: arch/x86/boot/compressed/piggy.S, whose text holds only
# the compressed kernel's sizes, came back from the cache with another
# commit's kernel inside whenever two builds' sizes matched (a bisect step
# booted the kernel of an earlier step, a make test the kernel of hours
# before). ccache's preprocessor mode refuses such a source by itself.
#
# usage: ccache-gcc.sh GCC-ARGUMENTS...
for arg; do
	case $arg in
	*.c | *.S)
		if grep -qs '\.incbin' "$arg"; then
			exec gcc "$@"
		fi ;;
	esac
done
exec ccache gcc "$@"
