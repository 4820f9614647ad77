// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree's test_maps with one result per test. Its own main() stops
 * at the first failure (CHECK() calls exit()), which would hide every test
 * after it; this main() runs each test in a child process instead and prints
 * KTAP like the harness's runner (initramfs/runner/test_progs.c):
 *
 *	    KTAP version 1
 *	    # Subtest: test_maps
 *	    ok 1 hashmap
 *	    ...
 *	    ok 20 hashmap:no_prealloc
 *	ok 2 test_maps
 *
 * The tests are those of test_maps' main(), in its order: run_all_tests()
 * with preallocated maps, again with BPF_F_NO_PREALLOC (":no_prealloc"),
 * then map_tests/. upstream-test_maps.h, generated from run_all_tests(),
 * lists the first as UPSTREAM_TEST(name, call). A test that counts a skip
 * (skips++) is reported as skipped. The top-level result line takes its
 * number from $KTAP_INDEX. Exit status: 0 passed or skipped, 1 failed.
 */
#define main test_maps_main
#include "test_maps.c"
#undef main

#include <sys/types.h>
#include <sys/wait.h>

/* A child's exit status for "the test counted a skip" */
#define STATUS_SKIP 77

struct upstream_test {
	const char *name;
	void (*run)(void);
};

#define UPSTREAM_TEST(name, call) static void run_##name(void) { call; }
#include "upstream-test_maps.h"
#undef UPSTREAM_TEST

static const struct upstream_test all_tests[] = {
#define UPSTREAM_TEST(name, call) { #name, run_##name },
#include "upstream-test_maps.h"
#undef UPSTREAM_TEST
};

static const struct upstream_test map_tests[] = {
#define DEFINE_TEST(name) { #name, test_##name },
#include <map_tests/tests.h>
#undef DEFINE_TEST
};

/* Run @test in a child with map flags @flags; false if it failed. */
static bool run_one(int num, const struct upstream_test *test,
		    __u32 flags, const char *suffix)
{
	int status, before;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("    not ok %d %s%s\n    # fork: %s\n", num, test->name,
		       suffix, strerror(errno));
		return false;
	}
	if (pid == 0) {
		map_opts.map_flags = flags;
		before = skips;
		test->run();
		fflush(stdout);
		_exit(skips != before ? STATUS_SKIP : 0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		printf("    not ok %d %s%s\n    # waitpid: %s\n", num,
		       test->name, suffix, strerror(errno));
		return false;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("    ok %d %s%s\n", num, test->name, suffix);
		return true;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == STATUS_SKIP) {
		printf("    ok %d %s%s # SKIP\n", num, test->name, suffix);
		return true;
	}
	printf("    not ok %d %s%s\n", num, test->name, suffix);
	if (WIFSIGNALED(status))
		printf("    # killed by signal %d\n", WTERMSIG(status));
	else
		printf("    # exited with status %d\n", WEXITSTATUS(status));
	return false;
}

int main(void)
{
	const char *index = getenv("KTAP_INDEX") ?: "1";
	bool ok = true;
	int num = 0;
	size_t i;

	srand(time(NULL));
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("    KTAP version 1\n    # Subtest: test_maps\n");

	for (i = 0; i < ARRAY_SIZE(all_tests); i++)
		ok &= run_one(++num, &all_tests[i], 0, "");
	for (i = 0; i < ARRAY_SIZE(all_tests); i++)
		ok &= run_one(++num, &all_tests[i], BPF_F_NO_PREALLOC,
			      ":no_prealloc");
	for (i = 0; i < ARRAY_SIZE(map_tests); i++)
		ok &= run_one(++num, &map_tests[i], 0, "");

	printf("%s %s test_maps\n", ok ? "ok" : "not ok", index);
	return ok ? 0 : 1;
}
