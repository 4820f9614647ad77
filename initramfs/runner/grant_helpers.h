/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests that drive bpf-grant share: becoming an unprivileged
 * process, a user namespace of its own, running the tool.
 */
#ifndef __GRANT_HELPERS_H
#define __GRANT_HELPERS_H

#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include "fd_pass.h"
#include "int_file.h"
#include "bpf_token.h"
#include "kernel_btf.h"
#include <linux/capability.h>
#include <bpf/btf.h>

#define BPF_GRANT	"/bin/bpf-grant"
#define NOBODY		65534

/* A process that is uid and gid 65534 with no capability left */
static inline bool become_nobody(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || syscall(SYS_capget, &hdr, data))
		return false;
	return !(data[0].effective | data[1].effective |
		 data[0].permitted | data[1].permitted);
}

/* The subjects of the series' commits, from base to the commit the tests
 * were built with, one a line (initramfs/Makefile)
 */
#define SERIES_FILE	"/tests/series"

/* Whether the series the tests were built with has the commit @subject
 * (series_has()); need_patch() skips the subtest if not: an
 * attack that a later commit stops SKIPs at the commits before it, so that
 * make series-check holds every commit to the tests of its own time. On
 * the tip, make ci's ci/tip.expect allows no SKIP, and tests/doc-figures.sh
 * checks that each @subject is a patch's.
 */
static inline bool series_has(const char *subject)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(SERIES_FILE, "r");

	if (!f) {
		PRINT_FAIL("%s: %s\n", SERIES_FILE, strerror(errno));
		return false;
	}
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, subject);
	}
	fclose(f);
	return found;
}

static inline bool need_patch(const char *subject)
{
	bool found = series_has(subject);

	if (!found) {
		printf("SKIP: the series is older than '%s'\n", subject);
		test__skip();
	}
	return found;
}

/* A run_program() that takes longer is killed: a hang fails, not the boot */
#define TOOL_TIMEOUT	30

/* What the tool printed, stdout and stderr, in its last run */
static char out[8192];

enum as { AS_ROOT, AS_NOBODY, AS_USERNS_ROOT };

/* pipe() and fork(): the child keeps @fds[1], to write to the parent,
 * which keeps @fds[0] (even if the fork failed: it reads nothing then).
 * stdout is flushed first, so that the child does not print it again.
 * false if the pipe failed, the child's pid (or -1) in @pid otherwise.
 */
static inline bool fork_piped(int fds[2], pid_t *pid)
{
	if (pipe(fds))
		return false;
	fflush(stdout);
	*pid = fork();
	close(fds[*pid == 0 ? 0 : 1]);
	return true;
}

/* Run @path with @args (NULL-terminated), as root, as nobody, or as root
 * of a user namespace of its own: its exit status, or -1 if it did not
 * exit; what it printed in out[]
 */
static inline int run_program(const char *path, enum as as, const char *const *args)
{
	const char *argv[16] = { path }, *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int fds[2], status, i;
	ssize_t n, len = 0;
	pid_t pid;

	for (i = 0; args[i] && i < ARRAY_SIZE(argv) - 2; i++)
		argv[i + 1] = args[i];
	if (!fork_piped(fds, &pid))
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		/* root of a user namespace: uid 0 there, mapped to root's */
		if ((as == AS_NOBODY && !become_nobody()) ||
		    (as == AS_USERNS_ROOT && (unshare(CLONE_NEWUSER) ||
					      write_file("/proc/self/uid_map", "0 0 1"))))
			_exit(127);
		/* kept across execv: SIGALRM ends the tool */
		alarm(TOOL_TIMEOUT);
		execv(path, (char **)argv);
		_exit(126);
	}
	while (pid > 0 && (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = 0;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status)) {
		printf("%s %s: killed by signal %d%s\n", name,
		       argv[1] ? argv[1] : "", WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (a hang)" : "");
		return -1;
	}
	printf("%s", name);
	for (i = 1; argv[i]; i++)
		printf(" %s", argv[i]);
	printf("%s: exit %d\n", as == AS_NOBODY ? " (as nobody)" :
	       as == AS_USERNS_ROOT ? " (in a user namespace)" : "", WEXITSTATUS(status));
	if (len)
		printf("%s%s", out, out[len - 1] == '\n' ? "" : "\n");
	return WEXITSTATUS(status);
}

/* bpf-grant, as run_program() runs it */
static inline int run_tool(enum as as, const char *const *args)
{
	return run_program(BPF_GRANT, as, args);
}

#define TOOL_ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define tool(...) run_tool(AS_ROOT, TOOL_ARGS(__VA_ARGS__))
#define tool_as_nobody(...) run_tool(AS_NOBODY, TOOL_ARGS(__VA_ARGS__))

static inline bool printed(const char *text)
{
	return strstr(out, text);
}

#endif /* __GRANT_HELPERS_H */
