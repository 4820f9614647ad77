/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test_progs-style runner: the assertion vocabulary of
 * tools/testing/selftests/bpf/test_progs.h, printing KTAP. Each test binary
 * is one prog_tests/NAME.c linked with this runner; it runs test_NAME() and
 * prints one nested KTAP block with a result line per subtest.
 */
#ifndef __TEST_PROGS_H
#define __TEST_PROGS_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

bool test__start_subtest(const char *name);
void test__skip(void);
void test__fail(void);

/*
 * A test's own output (printf) becomes KTAP diagnostic lines of the running
 * subtest: the runner prints KTAP through another stream.
 */
#define PRINT_FAIL(format...)						\
	({								\
		test__fail();						\
		printf("%s:FAIL:%d ", __func__, __LINE__);		\
		printf(format);						\
	})

/* What every assertion does with its verdict @ok: report a failure with
 * @format and its arguments, and give @ok back, for the caller's if
 */
#define ___ASSERT_REPORT(ok, format...) ({				\
	bool ___ok = (ok);						\
	if (!___ok)							\
		PRINT_FAIL(format);					\
	___ok;								\
})

/* In ({ }), as upstream's: as a statement, it leaves no value unused */
#define CHECK_FAIL(condition) ({					\
	!___ASSERT_REPORT(!(condition), "CHECK_FAIL: %s\n", #condition);	\
})

#define ASSERT_TRUE(actual, name)					\
	___ASSERT_REPORT((actual), "%s: unexpected false\n", (name))

#define ASSERT_FALSE(actual, name)					\
	___ASSERT_REPORT(!(actual), "%s: unexpected true\n", (name))

/* @nop, the negation of @op, reads the failure: "actual 1 != expected 0" */
#define ASSERT_CMP(actual, expected, op, nop, name) ({			\
	long long ___act = (long long)(actual);				\
	long long ___exp = (long long)(expected);			\
	___ASSERT_REPORT(___act op ___exp,				\
			 "%s: unexpected %s: actual %lld %s expected %lld\n", \
			 (name), #actual, ___act, #nop, ___exp);	\
})

#define ASSERT_EQ(actual, expected, name) ASSERT_CMP(actual, expected, ==, !=, name)
#define ASSERT_NEQ(actual, expected, name) ASSERT_CMP(actual, expected, !=, ==, name)
#define ASSERT_LT(actual, expected, name) ASSERT_CMP(actual, expected, <, >=, name)
#define ASSERT_LE(actual, expected, name) ASSERT_CMP(actual, expected, <=, >, name)
#define ASSERT_GT(actual, expected, name) ASSERT_CMP(actual, expected, >, <=, name)
#define ASSERT_GE(actual, expected, name) ASSERT_CMP(actual, expected, >=, <, name)

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	___ASSERT_REPORT(strcmp(___act, ___exp) == 0,			\
			 "%s: actual '%s' != expected '%s'\n",		\
			 (name), ___act, ___exp);			\
})

#define ASSERT_OK(res, name) ({						\
	long long ___res = (long long)(res);				\
	___ASSERT_REPORT(___res == 0,					\
			 "%s: unexpected error: %lld (errno %d)\n",	\
			 (name), ___res, errno);			\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (long long)(res);				\
	___ASSERT_REPORT(___res < 0, "%s: unexpected success: %lld\n",	\
			 (name), ___res);				\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___p = (ptr);					\
	___ASSERT_REPORT(!___p, "%s: unexpected pointer: %p\n", (name), ___p); \
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	___ASSERT_REPORT(___err == 0 && ___p,				\
			 "%s: unexpected error: %d (errno %d)\n",	\
			 (name), ___err, errno);			\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	___ASSERT_REPORT(___err != 0 || !___p,				\
			 "%s: unexpected pointer: %p\n", (name), ___p);	\
})

#endif /* __TEST_PROGS_H */
