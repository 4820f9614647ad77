// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant's parsing of its byte counts, paths and type lists, of a
 * cgroup's memory.max and of mountinfo's lines, and its comparison of two
 * rules (grant_args.h).
 * Strict on purpose: strtoull() takes a sign, leading spaces and "0x", and
 * wraps "-1" around to the largest count, so a count here is decimal
 * digits and nothing else, written as printf() writes it back. Nothing is
 * copied into a buffer of fixed size but what is cut to fit.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "grant_args.h"
#include "grant_policy.h"

/* What a message quotes of its input: the start, cut to this many bytes */
#define QUOTE_MAX	40
#define QUOTE_BUF	(QUOTE_MAX + sizeof("..."))

/*
 * The first @len bytes of @s (at most QUOTE_MAX of them) in @buf, for a
 * message: what is not printable as '?', "..." after what was cut
 */
static const char *quote(const char *s, size_t len, char *buf)
{
	size_t i, n = len < QUOTE_MAX ? len : QUOTE_MAX;

	for (i = 0; i < n; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (n < len)
		memcpy(buf + n, "...", sizeof("..."));
	else
		buf[n] = 0;
	return buf;
}

static bool all_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int grant_parse_count(const char *text, __u64 min, __u64 max, __u64 *val)
{
	__u64 v = 0, digit;
	const char *p;

	if (!text || !*text || !all_digits(text) || (text[0] == '0' && text[1]))
		return -EINVAL;
	for (p = text; *p; p++) {
		digit = *p - '0';
		if (v > (GRANT_NO_LIMIT - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	if (v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

int grant_parse_bytes(const char *opt, const char *arg, __u64 max, __u64 *bytes,
		      char *msg, size_t size)
{
	char q[QUOTE_BUF];
	int err;

	err = grant_parse_count(arg, 1, max, bytes);
	if (!err)
		return 0;
	quote(arg ? arg : "", arg ? strlen(arg) : 0, q);
	if (!arg || !*arg)
		snprintf(msg, size, "%s '': an empty count; give a number of "
			 "bytes from 1 to %llu", opt, max);
	else if (err == -ERANGE)
		snprintf(msg, size, "%s '%s': out of range; give a number of "
			 "bytes from 1 to %llu", opt, q, max);
	else
		snprintf(msg, size, "%s '%s': not a count of bytes; write it in "
			 "decimal digits, with no sign, space, suffix or leading "
			 "zero (1 to %llu)", opt, q, max);
	return err;
}

int grant_check_path(const char *path, char *msg, size_t size)
{
	size_t len = path ? strlen(path) : 0;
	char q[QUOTE_BUF];

	if (!len) {
		snprintf(msg, size, "an empty path; give a cgroup v2 directory, "
			 "such as /sys/fs/cgroup/app");
		return -EINVAL;
	}
	if (len >= PATH_MAX) {
		snprintf(msg, size, "a path of %zu bytes (%s): longer than "
			 "PATH_MAX allows; give the cgroup's path, at most %d "
			 "bytes", len, quote(path, len, q), PATH_MAX - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The type that @name_of names the @len bytes at @name, or 0 */
static int type_of(const char *name, size_t len, const char *(*name_of)(int type))
{
	const char *known;
	int t;

	/* type 0 is unspec: not a type to grant */
	for (t = 1; t < 64; t++) {
		known = name_of(t);
		if (known && strlen(known) == len && !strncmp(known, name, len))
			return t;
	}
	return 0;
}

int grant_parse_types(const char *list, const char *kind, const char *hint,
		      const char *(*name_of)(int type), __u64 *types,
		      char *msg, size_t size)
{
	const char *name = list, *end;
	char q[QUOTE_BUF];
	size_t len;
	int t;

	*types = 0;
	if (!list || !*list) {
		snprintf(msg, size, "an empty list of %s types; name at least "
			 "one (bpftool's names: %s)", kind, hint);
		return -EINVAL;
	}
	for (;;) {
		end = name + strcspn(name, ",");
		len = end - name;
		if (!len) {
			snprintf(msg, size, "an empty name in the %s types '%s'; "
				 "separate the names with single commas", kind,
				 quote(list, strlen(list), q));
			return -EINVAL;
		}
		t = type_of(name, len, name_of);
		if (!t) {
			snprintf(msg, size, "unknown %s type '%s' (bpftool's "
				 "names: %s)", kind, quote(name, len, q), hint);
			return -EINVAL;
		}
		*types |= 1ULL << t;
		if (!*end)
			return 0;
		name = end + 1;
	}
}

int grant_parse_memory_max(const char *text, __u64 *limit)
{
	char buf[24];
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = 0;
	if (!strcmp(buf, "max")) {
		*limit = GRANT_NO_LIMIT;
		return 0;
	}
	return grant_parse_count(buf, 0, GRANT_NO_LIMIT - 1, limit);
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

int grant_parse_mountinfo(const char *line, char *mnt, size_t size, bool *bpf)
{
	const char *p = line, *type;
	size_t len = 0;
	int i, c;

	/* mount ID, parent ID, major:minor and root come first */
	for (i = 0; i < 4; i++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	/* the kernel escapes space, tab, newline and backslash as \ooo */
	for (; *p && *p != ' ' && *p != '\n'; p++) {
		c = (unsigned char)*p;
		if (c == '\\') {
			if (!is_octal(p[1]) || !is_octal(p[2]) || !is_octal(p[3]))
				return -EINVAL;
			c = (p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0');
			if (!c || c > 0xff)
				return -EINVAL;
			p += 3;
		}
		if (len + 1 >= size)
			return -ENAMETOOLONG;
		mnt[len++] = c;
	}
	if (!len || *p != ' ')
		return -EINVAL;
	mnt[len] = 0;
	/* the optional fields end at a lone "-", before the type */
	type = strstr(p, " - ");
	if (!type)
		return -EINVAL;
	type += 3;
	*bpf = strcspn(type, " \n") == 3 && !strncmp(type, "bpf", 3);
	return 0;
}

/* Whether the bits of @a are among those of @b */
static bool subset(__u64 a, __u64 b)
{
	return !(a & ~b);
}

bool grant_rule_no_wider(const struct grant_rule *a, const struct grant_rule *b)
{
	return subset(a->map_types, b->map_types) &&
	       subset(a->prog_types, b->prog_types) &&
	       subset(a->grant_all_types, b->grant_all_types) &&
	       (!b->max_map_bytes ||
		(a->max_map_bytes && a->max_map_bytes <= b->max_map_bytes)) &&
	       a->max_btf_bytes <= b->max_btf_bytes;
}
