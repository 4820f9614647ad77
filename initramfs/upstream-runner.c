// SPDX-License-Identifier: GPL-2.0
/*
 * test__join_cgroup() for the kernel tree's test_progs tests built with the
 * harness's runner (see upstream-runner.h): the tree's test_progs.c does the
 * same with the tree's cgroup_helpers.c, and cleans up after each test; a
 * runner binary runs one test, so it cleans up at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cgroup_helpers.h"

static void cleanup_cgroups(void)
{
	cleanup_cgroup_environment();
}

int test__join_cgroup(const char *path)
{
	static int set_up;
	int fd;

	if (!set_up) {
		if (setup_cgroup_environment()) {
			printf("%s: cannot set up the cgroup environment\n", __func__);
			return -1;
		}
		atexit(cleanup_cgroups);
		set_up = 1;
	}
	fd = create_and_get_cgroup(path);
	if (fd < 0) {
		printf("%s: cannot create cgroup '%s'\n", __func__, path);
		return fd;
	}
	if (join_cgroup(path)) {
		printf("%s: cannot join cgroup '%s'\n", __func__, path);
		return -1;
	}
	return fd;
}
