/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF token as v6.9's UAPI has it, by value, and the user namespace
 * its holder is root of: for the tests and bpf-bench, which build at
 * every commit of make series-check, where the tree's header has no
 * token before the series' token patches (token_uapi checks the tip's
 * header against these values).
 */
#ifndef BPF_TOKEN_H
#define BPF_TOKEN_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include "int_file.h"

#define TOKEN_CREATE		36		/* BPF_TOKEN_CREATE */
#define TOKEN_FD_FLAG		(1U << 16)	/* BPF_F_TOKEN_FD */
#define MAP_TOKEN_FD_OFF	76		/* map_token_fd */
#define PROG_TOKEN_FD_OFF	144		/* prog_token_fd */
#define BTF_FLAGS_OFF		32		/* btf_flags */
#define BTF_TOKEN_FD_OFF	36		/* btf_token_fd */
#define BPFFS_FD_OFF		4		/* token_create.bpffs_fd */
#define ATTR_SIZE_V69		152
/* The attribute sizes libbpf 1.4, the first with the token, passes: each
 * command's token fd is its last field
 */
#define MAP_CREATE_SIZE_V69	(MAP_TOKEN_FD_OFF + 4)
#define PROG_LOAD_SIZE_V69	(PROG_TOKEN_FD_OFF + 4)
#define BTF_LOAD_SIZE_V69	(BTF_TOKEN_FD_OFF + 4)

/* union bpf_attr as v6.9 lays it out: 6.1's fields, then the token's */
union attr_v69 {
	union bpf_attr attr;
	char bytes[ATTR_SIZE_V69];
};

/* BPF_TOKEN_CREATE from the BPF FS at @path: the token's fd or -errno */
static inline int bpf_token_create_at(const char *path)
{
	union attr_v69 a = {};
	int fd = open(path, O_RDONLY | O_DIRECTORY), token;

	if (fd < 0)
		return -errno;
	memcpy(a.bytes + BPFFS_FD_OFF, &fd, sizeof(fd));
	token = syscall(__NR_bpf, TOKEN_CREATE, &a, sizeof(a));
	token = token < 0 ? -errno : token;
	close(fd);
	return token;
}

/* bpf(@cmd, @a) with token @token in @a's token fields (BPF_MAP_CREATE,
 * BPF_PROG_LOAD or BPF_BTF_LOAD), at libbpf 1.4's size: the new fd or
 * -errno
 */
static inline int bpf_with_token(int cmd, union attr_v69 *a, int token)
{
	unsigned int size;
	__u32 flags;
	int fd;

	switch (cmd) {
	case BPF_MAP_CREATE:
		a->attr.map_flags |= TOKEN_FD_FLAG;
		memcpy(a->bytes + MAP_TOKEN_FD_OFF, &token, sizeof(token));
		size = MAP_CREATE_SIZE_V69;
		break;
	case BPF_PROG_LOAD:
		a->attr.prog_flags |= TOKEN_FD_FLAG;
		memcpy(a->bytes + PROG_TOKEN_FD_OFF, &token, sizeof(token));
		size = PROG_LOAD_SIZE_V69;
		break;
	case BPF_BTF_LOAD:
		memcpy(&flags, a->bytes + BTF_FLAGS_OFF, sizeof(flags));
		flags |= TOKEN_FD_FLAG;
		memcpy(a->bytes + BTF_FLAGS_OFF, &flags, sizeof(flags));
		memcpy(a->bytes + BTF_TOKEN_FD_OFF, &token, sizeof(token));
		size = BTF_LOAD_SIZE_V69;
		break;
	default:
		return -EINVAL;
	}
	fd = syscall(__NR_bpf, cmd, a, size);
	return fd < 0 ? -errno : fd;
}

/* After unshare(CLONE_NEWUSER): root in it is @outside (uid and gid). A
 * process that dropped root's ids is not dumpable, and its /proc/self
 * files stay root's: make it dumpable again to write its maps.
 */
static inline int map_user_ns(unsigned int outside)
{
	char map[32];

	snprintf(map, sizeof(map), "0 %u 1", outside);
	if (prctl(PR_SET_DUMPABLE, 1))
		return -errno;
	return write_file("/proc/self/setgroups", "deny") ?:
	       write_file("/proc/self/uid_map", map) ?:
	       write_file("/proc/self/gid_map", map);
}

#endif /* BPF_TOKEN_H */
