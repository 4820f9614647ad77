// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant's parsing (policy/grant_args.c) against what it must take and
 * refuse, on the host: a table of good and bad inputs for each function,
 * then random ones (ROUNDS of each, from SEED) held to an oracle written
 * apart from the code. A count accepted must be what printf() writes back,
 * and in range; a type list accepted must be the bits of its names; each
 * input refused must come with a message, which names the option; a
 * mountinfo line must give back the mount point the kernel escaped. And
 * the comparison of two rules that add makes in a delegated subtree
 * (grant_rule_no_wider()): a rule wider in any one field is wider. Built
 * with ASan and UBSan where the compiler has them (tests/bpf-grant-args.sh),
 * so that no input reads or writes out of bounds, at any message size.
 *
 * usage: bpf-grant-args [ROUNDS [SEED]]
 * One TAP line per check; exit status 1 when one failed.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grant_args.h"
#include "grant_policy.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int n, failed;
static unsigned long long rng_state;

/* The first problem of the check under way, and how many it had */
static char problem[1024];
static int problems;

static void note(const char *fmt, ...)
{
	va_list ap;

	if (!problems++) {
		va_start(ap, fmt);
		vsnprintf(problem, sizeof(problem), fmt, ap);
		va_end(ap);
	}
}

/* End a check: ok, or not ok with its first problem and their count */
static void check(const char *what)
{
	n++;
	if (!problems) {
		printf("ok %d %s\n", n, what);
		return;
	}
	failed++;
	printf("not ok %d %s: %s (%d problem%s)\n", n, what, problem, problems,
	       problems == 1 ? "" : "s");
	problems = 0;
}

/* xorshift64*: the same inputs from the same seed, on any libc */
static unsigned long long rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int below(unsigned int n)
{
	return rnd() % n;
}

/* @s, printable, for a message; two at a time */
static const char *shown(const char *s)
{
	static char bufs[2][128];
	static int which;
	char *buf = bufs[which ^= 1];
	size_t i;

	for (i = 0; s[i] && i < sizeof(bufs[0]) - 4; i++)
		buf[i] = s[i] >= ' ' && s[i] < 127 ? s[i] : '?';
	snprintf(buf + i, sizeof(bufs[0]) - i, "%s", s[i] ? "..." : "");
	return buf;
}

/* Whether @msg is a message: not empty, terminated within GRANT_MSG_MAX,
 * and printable, whatever bytes the input had
 */
static bool is_msg(const char *msg)
{
	size_t len = strnlen(msg, GRANT_MSG_MAX), i;

	for (i = 0; i < len; i++)
		if (msg[i] < ' ' || msg[i] >= 127)
			return false;
	return len && len < GRANT_MSG_MAX;
}

/*
 * The oracle for counts: decimal digits with no leading zero, whose value,
 * compared as a string of digits, is from 1 to @max
 */
static bool count_ok(const char *s, unsigned long long max)
{
	char top[32];
	size_t len = strlen(s), i;

	if (!len || s[0] == '0')
		return false;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	snprintf(top, sizeof(top), "%llu", max);
	return len < strlen(top) || (len == strlen(top) && strcmp(s, top) <= 0);
}

/* One count through grant_parse_bytes(), held to the oracle */
static void one_count(const char *opt, const char *s, unsigned long long max)
{
	char msg[GRANT_MSG_MAX], back[32];
	bool want = count_ok(s, max);
	__u64 v = 0;
	int err;

	memset(msg, 0, sizeof(msg));
	err = grant_parse_bytes(opt, s, max, &v, msg, sizeof(msg));
	if (!err != want) {
		note("%s '%s': %s, the oracle says %s", opt, shown(s),
		     err ? "refused" : "taken", want ? "take it" : "refuse it");
		return;
	}
	if (!err) {
		snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
		if (strcmp(back, s) || v < 1 || v > max)
			note("%s '%s': taken as %s", opt, shown(s), back);
		return;
	}
	if (err != -EINVAL && err != -ERANGE)
		note("%s '%s': error %d, not -EINVAL or -ERANGE", opt, shown(s), err);
	else if (!is_msg(msg) || strncmp(msg, opt, strlen(opt)))
		note("%s '%s': the message '%s' does not start with the option",
		     opt, shown(s), shown(msg));
}

/* The same, into messages of every size from 0 to 64: each one cut, and
 * terminated, and nothing written past it
 */
static void small_msgs(const char *opt, const char *s, unsigned long long max)
{
	char *msg;
	size_t size;
	__u64 v;

	for (size = 1; size <= 64; size++) {
		msg = malloc(size);
		if (!msg)
			abort();
		memset(msg, 'x', size);
		if (grant_parse_bytes(opt, s, max, &v, msg, size) &&
		    !memchr(msg, 0, size))
			note("%s '%s': a message of %zu bytes not terminated", opt,
			     shown(s), size);
		free(msg);
	}
}

static const char *const good_counts[] = {
	"1", "9", "10", "4096", "1048576", "4294967295",
};

static const char *const bad_counts[] = {
	"", " -1", "-1", "-0", "+1", " 1", "1 ", "\t1", "1\n", "0", "00", "007",
	"12abc", "abc", "0x10", "1e3", "1.5", "1,000", "1_000", "1k", "1M",
	"18446744073709551615", "18446744073709551616",
	"99999999999999999999999999999999",
	"9223372036854775808", "\xd9\xa1", "1\x80",
};

static void test_count_table(void)
{
	static const struct {
		const char *opt;
		unsigned long long max;
	} opts[] = {
		{ "--max-map-bytes", GRANT_MAX_MAP_BYTES },
		{ "--max-btf-bytes", GRANT_MAX_BTF_BYTES },
	};
	/* what the issue names: none of them may pass */
	static const char *const named[] = {
		" -1", "-1", "18446744073709551616", "12abc", "",
	};
	char msg[GRANT_MSG_MAX];
	__u64 v;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		for (j = 0; j < ARRAY_SIZE(good_counts); j++)
			one_count(opts[i].opt, good_counts[j], opts[i].max);
		for (j = 0; j < ARRAY_SIZE(bad_counts); j++) {
			one_count(opts[i].opt, bad_counts[j], opts[i].max);
			small_msgs(opts[i].opt, bad_counts[j], opts[i].max);
		}
	}
	one_count("--max-map-bytes", "9223372036854775807", GRANT_MAX_MAP_BYTES);
	one_count("--max-btf-bytes", "4294967296", GRANT_MAX_BTF_BYTES);
	for (j = 0; j < ARRAY_SIZE(named); j++)
		if (!grant_parse_bytes("--max-map-bytes", named[j], GRANT_MAX_MAP_BYTES,
				       &v, msg, sizeof(msg)))
			note("--max-map-bytes '%s' taken", shown(named[j]));
	if (grant_parse_bytes("--max-map-bytes", NULL, GRANT_MAX_MAP_BYTES, &v,
			      msg, sizeof(msg)) != -EINVAL || !is_msg(msg))
		note("a missing count is not refused with a message");
	check("counts: the table of good and bad ones, for both options");
}

/* A random string that is mostly digits, with what strtoull() takes too */
static void random_count_text(char *s, size_t size)
{
	static const char other[] = "-+ \t\nxXeE.,kKmMgG_";
	size_t len = below(size), i;

	for (i = 0; i < len; i++) {
		switch (below(8)) {
		case 0:
			s[i] = other[below(sizeof(other) - 1)];
			break;
		case 1:
			s[i] = 1 + below(255);
			break;
		default:
			s[i] = '0' + below(10);
		}
	}
	s[len] = 0;
	/* now and then, a count near a bound */
	if (!below(16))
		snprintf(s, size, "%llu", 4294967290ULL + below(12));
	else if (!below(16))
		snprintf(s, size, "%llu", 9223372036854775800ULL + below(16));
}

static void test_count_random(int rounds)
{
	char s[32];
	int i;

	for (i = 0; i < rounds && problems < 20; i++) {
		random_count_text(s, sizeof(s));
		one_count("--max-map-bytes", s, GRANT_MAX_MAP_BYTES);
		one_count("--max-btf-bytes", s, GRANT_MAX_BTF_BYTES);
	}
	check("counts: random strings, each taken only as the oracle says");
}

/* Random values, written as printf() writes them and as it does not */
static void test_count_roundtrip(int rounds)
{
	static const char *const fmts[] = { "-%llu", " %llu", "%llu ", "+%llu",
					    "0%llu", "%llu\n", "%llux" };
	unsigned long long v;
	char s[40];
	__u64 got;
	size_t j;
	int i;

	for (i = 0; i < rounds && problems < 20; i++) {
		v = rnd() >> below(64);
		snprintf(s, sizeof(s), "%llu", v);
		one_count("--max-map-bytes", s, GRANT_MAX_MAP_BYTES);
		one_count("--max-btf-bytes", s, GRANT_MAX_BTF_BYTES);
		if (grant_parse_count(s, 0, GRANT_NO_LIMIT, &got) || got != v)
			note("grant_parse_count('%s') does not give it back", s);
		for (j = 0; j < ARRAY_SIZE(fmts); j++) {
			snprintf(s, sizeof(s), fmts[j], v);
			one_count("--max-map-bytes", s, GRANT_MAX_MAP_BYTES);
		}
	}
	check("counts: random values round-trip, with a sign, space or zero refused");
}

static void one_path(size_t len, bool want)
{
	char msg[GRANT_MSG_MAX], *path = malloc(len + 1);
	int err;

	if (!path)
		abort();
	memset(path, 'a', len);
	path[0] = len ? '/' : 0;
	path[len] = 0;
	memset(msg, 0, sizeof(msg));
	err = grant_check_path(path, msg, sizeof(msg));
	if (!err != want)
		note("a path of %zu bytes %s", len, err ? "refused" : "taken");
	else if (err && !is_msg(msg))
		note("a path of %zu bytes refused without a message", len);
	else if (len >= PATH_MAX && err && !strstr(msg, "PATH_MAX"))
		note("a path of %zu bytes: the message '%s' names no PATH_MAX", len,
		     shown(msg));
	free(path);
}

static void test_paths(int rounds)
{
	char msg[GRANT_MSG_MAX];
	size_t len;
	int i;

	one_path(0, false);
	one_path(1, true);
	one_path(PATH_MAX - 1, true);
	one_path(PATH_MAX, false);
	one_path(PATH_MAX + 1, false);
	one_path(5000, false);
	one_path(1 << 20, false);
	if (grant_check_path(NULL, msg, sizeof(msg)) != -EINVAL || !is_msg(msg))
		note("no path is not refused with a message");
	for (i = 0; i < rounds / 10 && problems < 20; i++) {
		len = PATH_MAX - 64 + below(128);
		one_path(len, len < PATH_MAX);
	}
	check("paths: empty and PATH_MAX or longer refused, with a message");
}

/* A made-up table of type names, with gaps, as libbpf's could have */
static const char *const names[64] = {
	[1] = "hash", [2] = "array", [3] = "prog_array", [5] = "percpu_hash",
	[9] = "lru_hash", [26] = "sk_storage", [27] = "ringbuf", [63] = "last",
};

static const char *name_of(int t)
{
	return t >= 0 && t < 64 ? names[t] : NULL;
}

/* The oracle for type lists: whether every name is known, their bits */
static bool types_of(const char *list, unsigned long long *bits)
{
	const char *p = list, *end;
	size_t len;
	int t;

	*bits = 0;
	if (!*list)
		return false;
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		for (t = 1; t < 64; t++)
			if (names[t] && strlen(names[t]) == len && !memcmp(names[t], p, len))
				break;
		if (!len || t == 64)
			return false;
		*bits |= 1ULL << t;
		if (!end)
			return true;
		p = end + 1;
	}
}

static void one_list(const char *list)
{
	char msg[GRANT_MSG_MAX];
	unsigned long long want;
	bool ok = types_of(list, &want);
	__u64 got = 0;
	int err;

	memset(msg, 0, sizeof(msg));
	err = grant_parse_types(list, "map", "hash, array, ...", name_of, &got,
				msg, sizeof(msg));
	if (!ok && !err)
		note("'%s' taken", shown(list));
	else if (ok && err)
		note("'%s' refused: %s", shown(list), shown(msg));
	else if (ok && got != want)
		note("'%s' taken as %#llx, not %#llx", shown(list),
		     (unsigned long long)got, want);
	else if (err && (!is_msg(msg) || !strstr(msg, "map type")))
		note("'%s' refused with the message '%s'", shown(list), shown(msg));
}

static void test_types(int rounds)
{
	static const char *const table[] = {
		"hash", "hash,array", "array,hash,hash", "last", "ringbuf,last",
		"", ",", "hash,", ",hash", "hash,,array", "nosuch", "HASH",
		"hash ", " hash", "hash;array", "has", "hashh", "unspec",
		"hash,nosuch",
	};
	static const char *const tokens[] = {
		"hash", "array", "prog_array", "percpu_hash", "lru_hash",
		"sk_storage", "ringbuf", "last", "", "nosuch", "Hash", " ",
		"array ", "ring", "\xff", "a,b",
	};
	char msg[GRANT_MSG_MAX], list[256];
	size_t i, len;
	__u64 got;
	int k, parts;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		one_list(table[i]);
	if (!grant_parse_types("hash,nosuch", "map", "hash, array, ...", name_of,
			      &got, msg, sizeof(msg)) ||
	    !strstr(msg, "unknown map type 'nosuch'"))
		note("'hash,nosuch': the message '%s' names no 'nosuch'", shown(msg));
	for (k = 0; k < rounds && problems < 20; k++) {
		parts = 1 + below(5);
		len = 0;
		list[0] = 0;
		while (parts--)
			len += snprintf(list + len, sizeof(list) - len, "%s%s",
					len || !below(8) ? "," : "",
					tokens[below(ARRAY_SIZE(tokens))]);
		one_list(list);
	}
	check("type lists: the bits of their names, or refused with a message");
}

static void test_memory_max(int rounds)
{
	static const struct {
		const char *text;
		int err;
		unsigned long long limit;
	} table[] = {
		{ "max\n", 0, GRANT_NO_LIMIT }, { "max", 0, GRANT_NO_LIMIT },
		{ "0\n", 0, 0 }, { "1073741824\n", 0, 1073741824 },
		{ "9223372036854771712\n", 0, 9223372036854771712ULL },
		{ "", -EINVAL }, { "\n", -EINVAL }, { "-1\n", -EINVAL },
		{ "1G\n", -EINVAL }, { "max\n\n", -EINVAL }, { " 1\n", -EINVAL },
		{ "1\n\n", -EINVAL }, { "Max\n", -EINVAL }, { "maximum\n", -EINVAL },
		{ "18446744073709551615\n", -ERANGE },
		{ "18446744073709551616\n", -ERANGE },
		{ "123456789012345678901234567890\n", -EINVAL },
	};
	unsigned long long v;
	char text[40];
	__u64 got;
	size_t i;
	int err, k;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		got = 0;
		err = grant_parse_memory_max(table[i].text, &got);
		if (err != table[i].err || (!err && got != table[i].limit))
			note("memory.max '%s': error %d, %llu", shown(table[i].text),
			     err, (unsigned long long)got);
	}
	for (k = 0; k < rounds && problems < 20; k++) {
		v = rnd() >> below(64);
		if (v == GRANT_NO_LIMIT)
			continue;
		snprintf(text, sizeof(text), "%llu\n", v);
		if (grant_parse_memory_max(text, &got) || got != v)
			note("memory.max '%s' not read back", shown(text));
	}
	check("memory.max: max, or bytes read back; anything else refused");
}

/* @path as mountinfo writes it: space, tab, newline and backslash as \ooo */
static void escape_path(const char *path, char *out, size_t size)
{
	size_t len = 0;

	for (; *path && len + 5 < size; path++)
		if (strchr(" \t\n\\", *path))
			len += snprintf(out + len, size - len, "\\%03o",
					(unsigned char)*path);
		else
			out[len++] = *path;
	out[len] = 0;
}

static void one_mountinfo(const char *line, int want_err, const char *want_mnt,
			  bool want_bpf)
{
	char mnt[256];
	bool bpf = !want_bpf;
	int err;

	err = grant_parse_mountinfo(line, mnt, sizeof(mnt), &bpf);
	if (err != want_err)
		note("'%s': error %d, not %d", shown(line), err, want_err);
	else if (!err && (strcmp(mnt, want_mnt) || bpf != want_bpf))
		note("'%s': '%s', %s", shown(line), shown(mnt), bpf ? "bpf" : "not bpf");
}

static void test_mountinfo(int rounds)
{
	static const struct {
		const char *line, *mnt;
		int err;
		bool bpf;
	} table[] = {
		{ "22 26 0:20 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:9 "
		  "- bpf bpf rw,mode=700\n", "/sys/fs/bpf", 0, true },
		{ "30 22 0:25 / /sys/fs/bpf rw,relatime - bpf none rw", "/sys/fs/bpf",
		  0, true },
		{ "40 22 0:20 /ct /run/ct/bpf rw master:3 shared:4 - bpf bpf rw\n",
		  "/run/ct/bpf", 0, true },
		{ "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n", "/", 0, false },
		{ "2 1 0:5 / /a\\040b\\134c\\011d rw - bpffs x rw\n", "/a b\\c\td", 0, false },
		{ "3 1 0:6 / /b rw - bp x rw\n", "/b", 0, false },
		{ "4 1 0:7 / /c\\040-\\040bpf rw - tmpfs x rw\n", "/c - bpf", 0, false },
		{ "", NULL, -EINVAL }, { "1 2 3", NULL, -EINVAL },
		{ "1 2 3 /", NULL, -EINVAL }, { "1 2 3 / /d rw bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 /  rw - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\04 rw - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\0 - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\000 rw - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\400 rw - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\09a rw - bpf bpf rw", NULL, -EINVAL },
		{ "1 2 3 / /d\\", NULL, -EINVAL },
	};
	char path[200], esc[1024], line[1200], mnt[256];
	size_t i, len, size;
	bool bpf, want;
	int k, err;

	for (i = 0; i < ARRAY_SIZE(table); i++)
		one_mountinfo(table[i].line, table[i].err, table[i].mnt, table[i].bpf);
	/* a mount point that does not fit, into buffers of every size */
	for (size = 0; size <= 16; size++) {
		err = grant_parse_mountinfo("1 2 3 / /0123456789 rw - bpf bpf rw",
					    mnt, size, &bpf);
		if (err != (size > 11 ? 0 : -ENAMETOOLONG))
			note("a mount point of 11 bytes into %zu: error %d", size, err);
	}
	/* random mount points, escaped as the kernel escapes them, read back */
	for (k = 0; k < rounds && problems < 20; k++) {
		len = 1 + below(sizeof(path) - 1);
		for (i = 0; i < len; i++)
			path[i] = below(4) ? 1 + below(255) : " \t\n\\"[below(4)];
		path[len] = 0;
		escape_path(path, esc, sizeof(esc));
		want = below(2);
		snprintf(line, sizeof(line), "%d 1 0:%d / %s rw%s - %s none rw\n",
			 k, k, esc, below(2) ? " shared:1" : "",
			 want ? "bpf" : below(2) ? "bpffs" : "tmpfs");
		one_mountinfo(line, 0, path, want);
		/* cut anywhere: refused, or read, never past the line */
		line[below(strlen(line) + 1)] = 0;
		grant_parse_mountinfo(line, mnt, sizeof(mnt), &bpf);
	}
	check("mountinfo: mount points unescaped, bpf told; anything else refused");
}

/* A rule: the fields grant_rule_no_wider() compares */
static struct grant_rule rule_of(__u64 maps, __u64 progs, __u64 all,
				 __u64 map_bytes, __u64 btf_bytes)
{
	struct grant_rule r = {
		.map_types = maps, .prog_types = progs, .grant_all_types = all,
		.max_map_bytes = map_bytes, .max_btf_bytes = btf_bytes,
	};

	return r;
}

static void one_pair(const char *what, const struct grant_rule *a,
		     const struct grant_rule *b, bool want)
{
	if (grant_rule_no_wider(a, b) != want)
		note("%s: %s", what, want ? "taken as wider" : "taken as no wider");
}

/*
 * Each field of a rule, one at a time: wider in it alone is wider, the
 * same or narrower in it is not. The pairs run both ways, so that the
 * arguments swapped fail too.
 */
static void test_rule_table(void)
{
	/* kprobe (2) named: a root-equivalent type; 4096-byte maps, 1 MiB BTF */
	const struct grant_rule base = rule_of(0x16, 0x26, 0x4, 4096, 1 << 20);
	const struct {
		const char *what;
		struct grant_rule wider;	/* than base, in one field */
		bool covers;			/* base no wider than it */
	} table[] = {
		{ "a map type more", rule_of(0x36, 0x26, 0x4, 4096, 1 << 20), true },
		{ "a program type more", rule_of(0x16, 0x66, 0x4, 4096, 1 << 20), true },
		{ "a root-equivalent type more",
		  rule_of(0x16, 0x26, 0x6, 4096, 1 << 20), true },
		{ "a larger map", rule_of(0x16, 0x26, 0x4, 4097, 1 << 20), true },
		{ "no map limit (0)", rule_of(0x16, 0x26, 0x4, 0, 1 << 20), true },
		{ "a larger BTF", rule_of(0x16, 0x26, 0x4, 4096, (1 << 20) + 1), true },
		{ "the largest map and BTF", rule_of(0x16, 0x26, 0x4,
		  GRANT_MAX_MAP_BYTES, GRANT_MAX_BTF_BYTES), true },
		{ "another map type in place of one",
		  rule_of(0x1a, 0x26, 0x4, 4096, 1 << 20), false },
	};
	const struct grant_rule narrower[] = {
		rule_of(0x06, 0x26, 0x4, 4096, 1 << 20),	/* a map type less */
		rule_of(0x16, 0x22, 0x4, 4096, 1 << 20),	/* a program type less */
		rule_of(0x16, 0x26, 0, 4096, 1 << 20),		/* kprobe not named */
		rule_of(0x16, 0x26, 0x4, 4095, 1 << 20),	/* a smaller map */
		rule_of(0x16, 0x26, 0x4, 1, 1 << 20),		/* 1 byte, not 0 */
		rule_of(0x16, 0x26, 0x4, 4096, 45),		/* a smaller BTF */
		rule_of(0x16, 0x26, 0x4, 4096, 0),		/* no BTF (0) */
		rule_of(0, 0, 0, 1, 0),				/* nothing */
	};
	char what[96];
	size_t i;

	one_pair("the same rule", &base, &base, true);
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		snprintf(what, sizeof(what), "%s, against the rule", table[i].what);
		one_pair(what, &table[i].wider, &base, false);
		snprintf(what, sizeof(what), "the rule, against %s", table[i].what);
		one_pair(what, &base, &table[i].wider, table[i].covers);
	}
	for (i = 0; i < ARRAY_SIZE(narrower); i++) {
		snprintf(what, sizeof(what), "narrower rule %zu, against the rule", i);
		one_pair(what, &narrower[i], &base, true);
		snprintf(what, sizeof(what), "the rule, against narrower rule %zu", i);
		one_pair(what, &base, &narrower[i], false);
	}
	/* 0 is no limit: the widest map, and as wide as itself */
	one_pair("no map limit, against no map limit", &table[4].wider,
		 &table[4].wider, true);
	check("rules: wider in any one field is wider; the same or narrower is not");
}

/* The oracle for rules, field by field and bit by bit */
static bool no_wider(const struct grant_rule *a, const struct grant_rule *b)
{
	const __u64 *fa[] = { &a->map_types, &a->prog_types, &a->grant_all_types };
	const __u64 *fb[] = { &b->map_types, &b->prog_types, &b->grant_all_types };
	unsigned long long map_a, map_b;
	size_t f;
	int t;

	for (f = 0; f < ARRAY_SIZE(fa); f++)
		for (t = 0; t < 64; t++)
			if ((*fa[f] >> t & 1) && !(*fb[f] >> t & 1))
				return false;
	/* no limit is one more than the largest limit */
	map_a = a->max_map_bytes ? a->max_map_bytes : GRANT_MAX_MAP_BYTES + 1;
	map_b = b->max_map_bytes ? b->max_map_bytes : GRANT_MAX_MAP_BYTES + 1;
	return map_a <= map_b && a->max_btf_bytes <= b->max_btf_bytes;
}

/* A field of a random rule: a few bits of @bits, or a count near @count */
static __u64 random_field(__u64 bits, __u64 count)
{
	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return bits;
	case 2:
		return bits & rnd();
	default:
		return count ? count - below(2) : (bits | 1ULL << below(64));
	}
}

static void test_rule_random(int rounds)
{
	struct grant_rule a, b;
	int i;

	for (i = 0; i < rounds && problems < 20; i++) {
		a = rule_of(random_field(0xff, 0), random_field(0xff, 0),
			    random_field(0x3, 0), random_field(0, 4096),
			    random_field(0, 1 << 20));
		b = rule_of(random_field(0xff, 0), random_field(0xff, 0),
			    random_field(0x3, 0), random_field(0, 4096),
			    random_field(0, 1 << 20));
		if (grant_rule_no_wider(&a, &b) != no_wider(&a, &b))
			note("maps %#llx/%#llx, progs %#llx/%#llx, all %#llx/%#llx, "
			     "map bytes %llu/%llu, BTF %llu/%llu: %s",
			     a.map_types, b.map_types, a.prog_types, b.prog_types,
			     a.grant_all_types, b.grant_all_types, a.max_map_bytes,
			     b.max_map_bytes, a.max_btf_bytes, b.max_btf_bytes,
			     no_wider(&a, &b) ? "taken as wider" : "taken as no wider");
		if (!grant_rule_no_wider(&a, &a))
			note("a rule wider than itself");
	}
	check("rules: random pairs compared as the oracle compares them");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5000;

	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x9e3779b97f4a7c15ULL;
	if (!rng_state)
		rng_state = 1;
	printf("# %d rounds of random inputs, seed %#llx\n", rounds, rng_state);
	test_count_table();
	test_count_random(rounds);
	test_count_roundtrip(rounds);
	test_paths(rounds);
	test_types(rounds);
	test_memory_max(rounds);
	test_mountinfo(rounds);
	test_rule_table();
	test_rule_random(rounds);
	if (failed) {
		fprintf(stderr, "tests/bpf-grant-args: %d of %d checks failed\n",
			failed, n);
		return 1;
	}
	printf("# bpf-grant-args: %d checks passed\n", n);
	return 0;
}
