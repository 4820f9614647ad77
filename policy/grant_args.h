/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bpf-grant reads from its command line, from cgroup files and from
 * mountinfo: byte counts, paths, lists of type names, memory.max, mount
 * points; and how two rules compare. No libbpf in here, so that
 * tests/bpf-grant-args.c can run it on the host, without a guest.
 *
 * Each parser returns 0, or a negative errno with what is wrong in @msg
 * (@size bytes, always terminated): "what happened; how to fix it",
 * without the "bpf-grant: " that the tool puts in front.
 */
#ifndef __GRANT_ARGS_H
#define __GRANT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* Enough for any message of these functions: what they quote is cut */
#define GRANT_MSG_MAX		512

/*
 * The largest --max-map-bytes: more than any memory, and in the signed
 * 64-bit range, so that every reader of list's column gets the same
 * number. The largest --max-btf-bytes: a BTF load gives its size in 32
 * bits (union bpf_attr's btf_size), so a larger bound bounds nothing.
 */
#define GRANT_MAX_MAP_BYTES	9223372036854775807ULL
#define GRANT_MAX_BTF_BYTES	4294967295ULL

/* What memory.max holds when it is "max": no limit */
#define GRANT_NO_LIMIT		18446744073709551615ULL

/*
 * A count in decimal digits, as printf's %llu writes it: no sign, space,
 * suffix or leading zero, from @min to @max. -EINVAL when @text is not
 * written so, -ERANGE when it is out of range.
 */
int grant_parse_count(const char *text, __u64 min, __u64 max, __u64 *val);

/* The value of option @opt, @arg: a count of bytes from 1 to @max */
int grant_parse_bytes(const char *opt, const char *arg, __u64 max, __u64 *bytes,
		      char *msg, size_t size);

/* A path the tool takes: not empty, shorter than PATH_MAX */
int grant_check_path(const char *path, char *msg, size_t size);

/*
 * A comma-separated list of the names @name_of gives types 1 to 63 (NULL
 * for none), into a bitmap of their numbers. @kind ("map", "program")
 * and @hint (a few names) go into the messages.
 */
int grant_parse_types(const char *list, const char *kind, const char *hint,
		      const char *(*name_of)(int type), __u64 *types,
		      char *msg, size_t size);

/* What a cgroup's memory.max holds: bytes, or GRANT_NO_LIMIT for "max" */
int grant_parse_memory_max(const char *text, __u64 *limit);

/*
 * A line of /proc/self/mountinfo (proc(5)): its mount point, the fifth
 * field with the kernel's octal escapes (\040 for a space) decoded, in
 * @mnt (@size bytes), and whether its file system type, the field after
 * " - ", is bpf, in @bpf. -EINVAL when the line is not written so,
 * -ENAMETOOLONG when the mount point does not fit.
 */
int grant_parse_mountinfo(const char *line, char *mnt, size_t size, bool *bpf);

struct grant_rule;

/*
 * Whether rule @a grants nothing that rule @b does not (grant_policy.h):
 * its map, program and root-equivalent types are among @b's, its largest
 * map is no larger (0 is no limit, the widest) and its largest BTF no
 * larger (0 is no BTF). Paths are not compared.
 */
bool grant_rule_no_wider(const struct grant_rule *a, const struct grant_rule *b);

#endif /* __GRANT_ARGS_H */
