// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-token-mount: give a running container a BPF file system of its own
 * on its /sys/fs/bpf, with the BPF token's delegation options, as a
 * container runtime does (the token's design: only a process privileged
 * in the initial user namespace sets the options, for a file system that
 * belongs to the container's user namespace).
 *
 * Run as root on the host, with the PID of a process of the container.
 * A child joins the container's user and mount namespaces and its root
 * directory, and opens a BPF file system context there (fsopen(), so the
 * file system is the container's user namespace's); this process, still
 * privileged, sets the options and creates it (fsconfig()); the child
 * mounts it (fsmount(), move_mount()) on the path given, /sys/fs/bpf by
 * default. Without an option, the file system delegates nothing: a BPF
 * FS of the container's own, for its pins (Debian 13's libbpf wants the
 * root of one there). Revoke by unmounting it in the container's mount
 * namespace (nsenter -t PID -m umount /sys/fs/bpf): tokens made from it
 * keep working until their last fd is closed.
 *
 * usage: bpf-token-mount PID [--cmds LIST] [--maps LIST] [--progs LIST]
 *                            [--attachs LIST] [--path PATH]
 * Each LIST is what the kernel's delegate_* option takes: "any", names
 * of commands, map, program or attach types (map_create, hash, xdp,
 * cgroup_inet_ingress) and masks (0x...), separated by ':'. Exit status 0, 1 on an error (the message names it), 2 on
 * bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "fd_pass.h"

static const char *const options[] = {
	"delegate_cmds", "delegate_maps", "delegate_progs", "delegate_attachs",
};

static int usage(void)
{
	fprintf(stderr, "usage: bpf-token-mount PID [--cmds LIST] [--maps LIST] [--progs LIST]\n"
			"                           [--attachs LIST] [--path PATH]\n");
	return 2;
}

/* The child: in @pid's namespaces and root, hand a BPF FS context to the
 * parent and mount what it made of it on @path. Its exit status.
 */
static int child(int sock, int pid, const char *path)
{
	static const char *const ns[] = { "user", "mnt" };
	int fds[2], root_fd, fs_fd, mnt_fd, i;
	char p[64];

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "/proc/%d/ns/%s", pid, ns[i]);
		fds[i] = open(p, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			fprintf(stderr, "bpf-token-mount: %s: %s (is %d a running process?)\n",
				p, strerror(errno), pid);
			return 1;
		}
	}
	snprintf(p, sizeof(p), "/proc/%d/root", pid);
	root_fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0) {
		fprintf(stderr, "bpf-token-mount: %s: %s\n", p, strerror(errno));
		return 1;
	}
	for (i = 0; i < 2; i++)
		if (setns(fds[i], 0)) {
			fprintf(stderr, "bpf-token-mount: joining %d's %s namespace: %s%s\n",
				pid, ns[i], strerror(errno),
				i ? "" : " (is it in a user namespace of its own? run as root)");
			return 1;
		}
	if (fchdir(root_fd) || chroot(".") || chdir("/")) {
		fprintf(stderr, "bpf-token-mount: %d's root directory: %s\n", pid, strerror(errno));
		return 1;
	}
	fs_fd = fsopen("bpf", FSOPEN_CLOEXEC);
	if (fs_fd < 0) {
		fprintf(stderr, "bpf-token-mount: fsopen(\"bpf\") in %d's user namespace: %s "
			"(a kernel without the BPF token cannot mount it there)\n",
			pid, strerror(errno));
		return 1;
	}
	if (send_fd(sock, fs_fd) || recv_fd(sock) < 0)
		return 1;	/* the parent says why */
	mnt_fd = fsmount(fs_fd, FSMOUNT_CLOEXEC, 0);
	if (mnt_fd < 0 || move_mount(mnt_fd, "", AT_FDCWD, path, MOVE_MOUNT_F_EMPTY_PATH)) {
		fprintf(stderr, "bpf-token-mount: mounting it on %s in %d's mount namespace: %s\n",
			path, pid, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *values[4] = {}, *path = "/sys/fs/bpf";
	int sk[2], fs_fd, status, pid, i, j, err = 0;
	char *end;
	pid_t c;

	if (argc < 2)
		return usage();
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 0) {
		fprintf(stderr, "bpf-token-mount: '%s' is not a PID\n", argv[1]);
		return usage();
	}
	for (i = 2; i < argc; i += 2) {
		if (i + 1 == argc)
			return usage();
		if (!strcmp(argv[i], "--path")) {
			path = argv[i + 1];
			continue;
		}
		for (j = 0; j < 4; j++)
			if (!strcmp(argv[i] + 2, options[j] + strlen("delegate_")) &&
			    !strncmp(argv[i], "--", 2))
				break;
		if (j == 4) {
			fprintf(stderr, "bpf-token-mount: unknown option '%s'\n", argv[i]);
			return usage();
		}
		values[j] = argv[i + 1];
	}
	if (geteuid()) {
		fprintf(stderr, "bpf-token-mount: run it as root: only a process privileged "
			"in the initial user namespace sets the delegation options\n");
		return 1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sk)) {
		perror("bpf-token-mount: socketpair");
		return 1;
	}
	fflush(NULL);
	c = fork();
	if (c < 0) {
		perror("bpf-token-mount: fork");
		return 1;
	}
	if (c == 0) {
		close(sk[0]);
		_exit(child(sk[1], pid, path));
	}
	close(sk[1]);
	fs_fd = recv_fd(sk[0]);
	if (fs_fd >= 0) {
		for (i = 0; !err && i < 4; i++)
			if (values[i] &&
			    fsconfig(fs_fd, FSCONFIG_SET_STRING, options[i], values[i], 0)) {
				fprintf(stderr, "bpf-token-mount: %s=%s: %s\n", options[i],
					values[i], strerror(errno));
				err = 1;
			}
		if (!err && fsconfig(fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
			fprintf(stderr, "bpf-token-mount: creating the BPF FS: %s\n",
				strerror(errno));
			err = 1;
		}
		if (!err && send_fd(sk[0], fs_fd))
			err = 1;
		close(fs_fd);
	}
	close(sk[0]);
	if (waitpid(c, &status, 0) != c || !WIFEXITED(status) || WEXITSTATUS(status))
		err = 1;
	if (!err)
		printf("bpf-token-mount: a BPF FS on %s in %d's mount namespace", path, pid);
	for (i = 0; !err && i < 4; i++)
		if (values[i])
			printf(", %s=%s", options[i], values[i]);
	if (!err)
		printf("\n");
	return err;
}
