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

bool test__start_subtest(const char *name);
void test__skip(void);
void test__fail(void);
/* Print a diagnostic line in the current test's KTAP block. */
void test__diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define PRINT_FAIL(format...)						\
	({								\
		test__fail();						\
		test__diag("%s:%d: " format_first(format), __FILE__,	\
			   __LINE__ format_rest(format));		\
	})

/* Helpers to put the file and line in front of a printf-style message. */
#define format_first(fmt, ...) fmt
#define format_rest(fmt, ...) , ##__VA_ARGS__

#define CHECK_FAIL(condition) ({					\
	bool ___ok = !(condition);					\
	if (!___ok)							\
		PRINT_FAIL("CHECK_FAIL: %s", #condition);		\
	!___ok;								\
})

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = (actual);						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected false", (name));		\
	___ok;								\
})

#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected true", (name));		\
	___ok;								\
})

#define ASSERT_CMP(actual, expected, op, name) ({			\
	long long ___act = (long long)(actual);				\
	long long ___exp = (long long)(expected);			\
	bool ___ok = ___act op ___exp;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected %s: actual %lld %s expected %lld", \
			   (name), #actual, ___act, #op, ___exp);	\
	___ok;								\
})

#define ASSERT_EQ(actual, expected, name) ASSERT_CMP(actual, expected, ==, name)
#define ASSERT_NEQ(actual, expected, name) ASSERT_CMP(actual, expected, !=, name)
#define ASSERT_LT(actual, expected, name) ASSERT_CMP(actual, expected, <, name)
#define ASSERT_LE(actual, expected, name) ASSERT_CMP(actual, expected, <=, name)
#define ASSERT_GT(actual, expected, name) ASSERT_CMP(actual, expected, >, name)
#define ASSERT_GE(actual, expected, name) ASSERT_CMP(actual, expected, >=, name)

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	bool ___ok = strcmp(___act, ___exp) == 0;			\
	if (!___ok)							\
		PRINT_FAIL("%s: actual '%s' != expected '%s'",		\
			   (name), ___act, ___exp);			\
	___ok;								\
})

#define ASSERT_OK(res, name) ({						\
	long long ___res = (long long)(res);				\
	bool ___ok = ___res == 0;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected error: %lld (errno %d)",	\
			   (name), ___res, errno);			\
	___ok;								\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (long long)(res);				\
	bool ___ok = ___res < 0;					\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected success: %lld", (name), ___res); \
	___ok;								\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___p = (ptr);					\
	bool ___ok = !___p;						\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected pointer: %p", (name), ___p);	\
	___ok;								\
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	bool ___ok = ___err == 0 && ___p;				\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected error: %d (errno %d)",	\
			   (name), ___err, errno);			\
	___ok;								\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___p = (ptr);					\
	int ___err = libbpf_get_error(___p);				\
	bool ___ok = ___err != 0 || !___p;				\
	if (!___ok)							\
		PRINT_FAIL("%s: unexpected pointer: %p", (name), ___p);	\
	___ok;								\
})

#endif /* __TEST_PROGS_H */
