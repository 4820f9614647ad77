/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel tree's test_progs.h gives a prog_tests/ file and the
 * harness's runner (initramfs/runner/test_progs.h) does not: force-included
 * (gcc -include) when make upstream-selftests builds the tree's test_progs
 * tests with that runner, so that neither the runner nor the tree's tests
 * need a change. The include paths put the tree's tools/include first, as
 * its selftests Makefile does.
 */
#ifndef __UPSTREAM_RUNNER_H
#define __UPSTREAM_RUNNER_H

#include <linux/err.h>		/* and linux/compiler.h: __packed */
#include <linux/filter.h>	/* BPF_MOV64_IMM() and the other insn macros */
#include <linux/perf_event.h>
#include "bpf_util.h"		/* bpf_num_possible_cpus() */

/*
 * Create cgroup @path in a cgroup2 hierarchy of the test's own (set up on
 * the first call, removed at exit) and move the calling process into it;
 * the cgroup's fd, or -1.
 */
int test__join_cgroup(const char *path);

#endif
