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

#define CHECK_FAIL(condition) ({					\
	bool ___ok = !(condition);					\
	if (!___ok)							\
		PRINT_FAIL("CHECK_FAIL: %s\n", #condition);		\
	!___ok;								\
})

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = (actual);						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected false\n", (name));		\
	___ok;								\
})

#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected true\n", (name));		\
	___ok;								\
})

/* @nop, the negation of @op, reads the failure: "actual 1 != expected 0" */
#define ASSERT_CMP(actual, expected, op, nop, name) ({			\
	long long ___act = (long long)(actual);				\
	long long ___exp = (long long)(expected);			\
	bool ___ok = ___act op ___exp;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected %s: actual %lld %s expected %lld\n", \
			   (name), #actual, ___act, #nop, ___exp);	\
	___ok;								\
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
	bool ___ok = strcmp(___act, ___exp) == 0;			\
	if (!___ok)							\
		PRINT_FAIL("%s: actual '%s' != expected '%s'\n",		\
			   (name), ___act, ___exp);			\
	___ok;								\
})

#define ASSERT_OK(res, name) ({						\
	long long ___res = (long long)(res);				\
	bool ___ok = ___res == 0;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected error: %lld (errno %d)\n",	\
			   (name), ___res, errno);			\
	___ok;								\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (long long)(res);				\
	bool ___ok = ___res < 0;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected success: %lld\n", (name), ___res); \
	___ok;								\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___p = (ptr);					\
	bool ___ok = !___p;						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected pointer: %p\n", (name), ___p);	\
	___ok;								\
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	bool ___ok = ___err == 0 && ___p;				\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected error: %d (errno %d)\n",	\
			   (name), ___err, errno);			\
	___ok;								\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	bool ___ok = ___err != 0 || !___p;				\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected pointer: %p\n", (name), ___p);	\
	___ok;								\
})

#endif /* __TEST_PROGS_H */
