// SPDX-License-Identifier: GPL-2.0
/*
 * ci-fault: a test binary that fails in one chosen way, for make
 * check-faults. The init runs it in place of the tests when the kernel
 * command line has ci.fault=MODE; it prints its KTAP block like the
 * runner does (number from $KTAP_INDEX) and then:
 *
 *   panic  crashes the kernel through /proc/sysrq-trigger
 *   hang   sleeps for ever, printing nothing more
 *   kill   dies by SIGKILL in the middle of a result line
 *   oom    allocates memory until the OOM killer stops it
 *   cut    restarts the guest (QEMU exits) in the middle of a result line
 *   fake   fails a subtest, then prints a passing result line for itself
 *          and exits 1 without its real one
 *   kmsg   floods the console with kernel messages while it prints 40
 *          results, one of them failing
 *
 * None of these may read as a pass.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *index_;

static void block_start(const char *mode)
{
	printf("    KTAP version 1\n    # Subtest: ci-fault\n");
	printf("    # ci.fault=%s\n", mode);
	printf("    ok 1 before_%s\n", mode);
}

/* A result line cut short: what a console shows when output stops. */
static void half_line(void)
{
	printf("    ok 2 - half_a_li");
	fflush(stdout);
}

static int do_panic(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	if (fd < 0 || write(fd, "c", 1) != 1)
		perror("ci-fault: /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ?)");
	return 2;
}

static int do_oom(void)
{
	const size_t chunk = 1 << 20;
	size_t mib;

	printf("    # allocating until the OOM killer stops this process\n");
	/* a line every 64 MiB: a slow guest is not taken for a hung one */
	for (mib = 1;; mib++) {
		char *p = malloc(chunk);

		if (!p)
			break;
		memset(p, 0x5a, chunk);
		if (!(mib % 64))
			printf("    # %zu MiB\n", mib);
	}
	printf("    # malloc failed before the OOM killer came\n");
	return 2;
}

static int do_kmsg(void)
{
	pid_t pid = fork();
	int i;

	if (pid < 0) {
		perror("ci-fault: fork");
		return 2;
	}
	if (!pid) {
		int fd = open("/dev/kmsg", O_WRONLY);
		static const char msg[] =
			"<4>ci-fault: a kernel message between KTAP lines";

		for (;;)
			if (fd < 0 || write(fd, msg, sizeof(msg) - 1) < 0)
				_exit(1);
	}
	for (i = 2; i <= 40; i++) {
		printf("    %sok %d result_%d\n", i == 20 ? "not " : "", i, i);
		usleep(20000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("not ok %s ci-fault\n", index_);
	return 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	index_ = getenv("KTAP_INDEX") ?: "1";
	setvbuf(stdout, NULL, _IOLBF, 0);
	block_start(mode);

	if (!strcmp(mode, "panic"))
		return do_panic();
	if (!strcmp(mode, "hang")) {
		for (;;)
			pause();
	}
	if (!strcmp(mode, "kill")) {
		half_line();
		raise(SIGKILL);
	}
	if (!strcmp(mode, "oom"))
		return do_oom();
	if (!strcmp(mode, "cut")) {
		half_line();
		sync();
		reboot(RB_AUTOBOOT);
		perror("ci-fault: reboot");
		return 2;
	}
	if (!strcmp(mode, "fake")) {
		printf("    not ok 2 fails\n");
		printf("ok %s ci-fault\n", index_);
		return 1;
	}
	if (!strcmp(mode, "kmsg"))
		return do_kmsg();
	fprintf(stderr, "ci-fault: unknown mode '%s': panic, hang, kill, oom, cut, fake or kmsg\n",
		mode);
	return 2;
}
