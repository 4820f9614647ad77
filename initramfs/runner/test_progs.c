// SPDX-License-Identifier: GPL-2.0
/*
 * Runner for one test: calls test_<TEST_NAME>() and prints its KTAP block,
 * nested one level under the init's top-level plan:
 *
 *	    KTAP version 1
 *	    # Subtest: lsm_map_create
 *	    ok 1 map_create_probes
 *	ok 3 lsm_map_create
 *
 * The top-level result line takes its number from $KTAP_INDEX (set by the
 * init). A subtest filter ("-t SUBTEST") runs one subtest only, for bisecting.
 * Exit status: 0 passed or skipped, 1 failed.
 */
#include <stdarg.h>
#include "test_progs.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define CONCAT(a, b) a##b
#define XCONCAT(a, b) CONCAT(a, b)

void XCONCAT(test_, TEST_NAME)(void);

static struct {
	const char *filter;	/* run only this subtest, if set */
	const char *subtest;	/* name of the running subtest */
	int subtest_num;	/* subtests started so far */
	int subtests_skipped;
	bool subtest_failed;
	bool subtest_skipped;
	bool failed;		/* the test as a whole */
	bool skipped;
} env;

void test__diag(const char *fmt, ...)
{
	va_list ap;

	printf("    # %s%s", env.subtest ?: "", env.subtest ? ": " : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void end_subtest(void)
{
	if (!env.subtest)
		return;
	if (env.subtest_failed) {
		env.failed = true;
		printf("    not ok %d %s\n", env.subtest_num, env.subtest);
	} else if (env.subtest_skipped) {
		env.subtests_skipped++;
		printf("    ok %d %s # SKIP\n", env.subtest_num, env.subtest);
	} else {
		printf("    ok %d %s\n", env.subtest_num, env.subtest);
	}
	env.subtest = NULL;
}

bool test__start_subtest(const char *name)
{
	end_subtest();
	if (env.filter && strcmp(env.filter, name))
		return false;
	env.subtest = name;
	env.subtest_num++;
	env.subtest_failed = false;
	env.subtest_skipped = false;
	return true;
}

void test__skip(void)
{
	if (env.subtest)
		env.subtest_skipped = true;
	else
		env.skipped = true;
}

void test__fail(void)
{
	if (env.subtest)
		env.subtest_failed = true;
	else
		env.failed = true;
}

/* libbpf's own messages (verifier logs, load errors) become diagnostics. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char buf[1024];
	char *line, *save;

	if (level == LIBBPF_DEBUG && !getenv("TEST_VERBOSE"))
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		test__diag("libbpf: %s", line);
	return 0;
}

int main(int argc, char **argv)
{
	const char *index = getenv("KTAP_INDEX") ?: "1";
	const char *name = XSTR(TEST_NAME);
	int opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: %s [-t SUBTEST]\n", argv[0]);
			return 2;
		}
		env.filter = optarg;
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	printf("    KTAP version 1\n    # Subtest: %s\n", name);

	XCONCAT(test_, TEST_NAME)();
	end_subtest();

	if (env.filter && !env.subtest_num) {
		printf("    # no subtest named '%s'\n", env.filter);
		env.failed = true;
	}
	if (env.subtest_num && env.subtests_skipped == env.subtest_num)
		env.skipped = true;

	if (env.failed)
		printf("not ok %s %s\n", index, name);
	else if (env.skipped)
		printf("ok %s %s # SKIP\n", index, name);
	else
		printf("ok %s %s\n", index, name);
	return env.failed ? 1 : 0;
}
