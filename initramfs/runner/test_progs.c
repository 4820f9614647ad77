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
 * init). A subtest filter ("-t SUBTEST") runs one subtest (or the family
 * SUBTEST:*) only, for bisecting.
 * Exit status: 0 passed or skipped, 1 failed.
 */
#include <stdarg.h>
#include "test_progs.h"
#include <time.h>

#define STR(x) #x
#define XSTR(x) STR(x)
#define CONCAT(a, b) a##b
#define XCONCAT(a, b) CONCAT(a, b)

void XCONCAT(test_, TEST_NAME)(void);

static struct {
	FILE *ktap;		/* the console, for KTAP lines */
	const char *filter;	/* run only this subtest, if set */
	char *subtest;		/* name of the running subtest (a copy) */
	int subtest_num;	/* subtests started so far */
	int subtests_skipped;
	bool subtest_failed;
	bool subtest_skipped;
	bool failed;		/* the test as a whole */
	bool skipped;
	char line[2048];	/* diagnostic line being written */
	size_t line_len;
	char skip_reason[128];	/* the last "SKIP: reason" line a test printed */
	struct timespec started;	/* when the running subtest started */
} env;

static void flush_diag(void)
{
	if (!env.line_len)
		return;
	fprintf(env.ktap, "    # %.*s\n", (int)env.line_len, env.line);
	if (env.line_len > 6 && !strncmp(env.line, "SKIP: ", 6))
		snprintf(env.skip_reason, sizeof(env.skip_reason), "%.*s",
			 (int)env.line_len - 6, env.line + 6);
	env.line_len = 0;
}

/* Everything a test writes to stdout goes out as "    # line". */
static ssize_t diag_write(void *cookie, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			flush_diag();
			continue;
		}
		if (env.line_len == sizeof(env.line))
			flush_diag();
		env.line[env.line_len++] = buf[i];
	}
	return len;
}

static void end_subtest(void)
{
	struct timespec now;

	if (!env.subtest)
		return;
	fflush(stdout);
	flush_diag();
	/* its time in the guest, for make test-times */
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(env.ktap, "    # seconds: %.3f\n", (now.tv_sec - env.started.tv_sec) +
		(now.tv_nsec - env.started.tv_nsec) / 1e9);
	if (env.subtest_failed) {
		env.failed = true;
		fprintf(env.ktap, "    not ok %d %s\n", env.subtest_num, env.subtest);
	} else if (env.subtest_skipped) {
		env.subtests_skipped++;
		fprintf(env.ktap, "    ok %d %s # SKIP%s%s\n", env.subtest_num,
			env.subtest, *env.skip_reason ? " " : "", env.skip_reason);
	} else {
		fprintf(env.ktap, "    ok %d %s\n", env.subtest_num, env.subtest);
	}
	free(env.subtest);
	env.subtest = NULL;
}

/* "-t probes" selects subtest "probes" and its family "probes:..." */
static bool subtest_selected(const char *name)
{
	size_t n;

	if (!env.filter)
		return true;
	n = strlen(env.filter);
	return !strncmp(env.filter, name, n) && (!name[n] || name[n] == ':');
}

bool test__start_subtest(const char *name)
{
	end_subtest();
	if (!subtest_selected(name))
		return false;
	env.subtest = strdup(name);
	if (!env.subtest) {
		env.failed = true;
		return false;
	}
	env.subtest_num++;
	env.subtest_failed = false;
	env.subtest_skipped = false;
	env.skip_reason[0] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &env.started);
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
	char *buf, *line, *save;

	if (level == LIBBPF_DEBUG && !getenv("TEST_VERBOSE"))
		return 0;
	/* whole: a verifier log is longer than any fixed buffer */
	if (vasprintf(&buf, fmt, ap) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("%s\n", line);
	free(buf);
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

	env.ktap = fdopen(dup(STDOUT_FILENO), "w");
	stdout = fopencookie(NULL, "w", (cookie_io_functions_t){
		.write = diag_write,
	});
	if (!env.ktap || !stdout)
		return 2;
	setvbuf(env.ktap, NULL, _IOLBF, 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	fprintf(env.ktap, "    KTAP version 1\n    # Subtest: %s\n", name);

	XCONCAT(test_, TEST_NAME)();
	end_subtest();
	fflush(stdout);
	flush_diag();

	if (env.filter && !env.subtest_num) {
		fprintf(env.ktap, "    # no subtest named '%s'\n", env.filter);
		env.failed = true;
	}
	if (env.subtest_num && env.subtests_skipped == env.subtest_num)
		env.skipped = true;

	if (env.failed)
		fprintf(env.ktap, "not ok %s %s\n", index, name);
	else if (env.skipped)
		fprintf(env.ktap, "ok %s %s # SKIP%s%s\n", index, name,
			*env.skip_reason ? " " : "", env.skip_reason);
	else
		fprintf(env.ktap, "ok %s %s\n", index, name);
	return env.failed ? 1 : 0;
}
