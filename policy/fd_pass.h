/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Passing an fd over a unix socket (SCM_RIGHTS): a BPF FS's fsopen() fd
 * between a container and its runtime, in bpf-token-mount and the guest
 * tests that set containers up.
 */
#ifndef __FD_PASS_H
#define __FD_PASS_H

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

/* Send @fd over unix socket @sock, or receive one: 0 or the fd, -errno
 * (a BPF FS's fsopen() fd, between a container and its runtime)
 */
static inline int send_fd(int sock, int fd)
{
	char buf[CMSG_SPACE(sizeof(int))] = {}, byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(fd));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -errno;
}

static inline int recv_fd(int sock)
{
	char buf[CMSG_SPACE(sizeof(int))] = {}, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -errno;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(fd));
	return fd;
}

#endif /* __FD_PASS_H */
