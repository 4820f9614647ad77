// SPDX-License-Identifier: GPL-2.0
/*
 * A Debian 13 container on this Debian 12 kernel: its own iproute2 6.15
 * and bpftool 7.5, with their libbpf 1.5 (token-aware) and C library,
 * unmodified, load BPF objects through a BPF token, with no capability on
 * the host. tools/stages/debian13-root.sh fetched the packages (make deps); the
 * initramfs carries their tree at /debian13, and /debian13.json says which
 * packages, or why there are none: then each subtest is skipped, saying
 * "not run: packages unavailable" and why.
 *
 * A container, as a runtime makes one: uid 65534 makes a user namespace,
 * in which it is root, with mount and network namespaces of its own;
 * mounts sysfs; gets on its fs/bpf a BPF file system from the
 * administrator's bpf-token-mount, run by its privileged parent (this
 * test, root of the initial namespace), with the delegation options or
 * none; chroots into /debian13; and runs the tools there, with
 * LIBBPF_BPF_TOKEN_PATH set to /sys/fs/bpf as a runtime that delegates
 * would, or without it.
 *
 * token_ip_xdp: ip attaches xdp_count.o to the container's lo
 * (xdpgeneric): libbpf makes a token from the delegated BPF FS and passes
 * it with the map, BTF and program; "ip link show" shows the program.
 * Without the variable, libbpf's default path finds the same BPF FS.
 * token_bpftool: bpftool loads it and pins it under /sys/fs/bpf.
 * no_delegation: on a BPF FS without delegation, the same ip command
 * fails: with the variable, libbpf cannot make a token (ENOENT); without,
 * it loads without one and the kernel refuses (EPERM).
 * grant_ip_xdp: the other design. The container's cgroup is granted by
 * bpf-grant's default rule and its BPF FS delegates nothing: libbpf finds
 * no token to make and loads without one, and the grant lets it.
 */
#include <test_progs.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "grant_helpers.h"
#include "grant_policy.h"

#define ROOT		"/debian13"
#define ROOT_JSON	"/debian13.json"
#define IP		"/usr/sbin/ip"
#define BPFTOOL		"/usr/sbin/bpftool"
#define XDP_COUNT_O	"/container/xdp_count.o"
#define TOKEN_MOUNT	"/bin/bpf-token-mount"
/* the granted container's cgroup */
#define CG		"/sys/fs/cgroup/container_debian13"

/* Whether /debian13 holds the packages; else why not, and the subtest
 * skips
 */
static bool have_debian13(void)
{
	char buf[1024] = "";
	int fd = open(ROOT_JSON, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0 && strstr(buf, "\"available\": true") && !access(ROOT IP, X_OK))
		return true;
	printf("SKIP: not run: packages unavailable: %s\n",
	       n > 0 ? buf : ROOT_JSON " is missing");
	test__skip();
	return false;
}

/* Whether the kernel has the BPF token (make ci-base boots the stock one
 * with these tests); skip if not
 */
static bool need_token(void)
{
	bool has = kernel_has_token();

	if (!has) {
		printf("SKIP: this kernel has no BPF token\n");
		test__skip();
	}
	return has;
}

/* What the container's set-up failed at (its exit status), or a step of
 * its commands (CONTAINER_STEP and up)
 */
enum {
	CONTAINER_NOBODY = 1,
	CONTAINER_NAMESPACES,
	CONTAINER_HANDOFF,
	CONTAINER_SYSFS,
	CONTAINER_BPFFS,
	CONTAINER_CHROOT,
	CONTAINER_STEP = 16,
};

#define run(path, ...) run_program(path, AS_ROOT, TOOL_ARGS(__VA_ARGS__))

/* The container: uid 65534 outside, root of its own namespaces, in the
 * Debian 13 tree; once it says over @sock that it is ready, its parent
 * gives it a BPF FS with bpf-token-mount and says whether that worked.
 * Runs @steps: its exit status
 */
static int container(int sock, const char *cg, int (*steps)(void))
{
	char procs[128], mounted;
	int step;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg ?: "");
	if ((cg && write_file(procs, "0")) || !become_nobody())
		return CONTAINER_NOBODY;
	if (unshare(CLONE_NEWUSER) || map_user_ns(NOBODY) ||
	    unshare(CLONE_NEWNS | CLONE_NEWNET) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return CONTAINER_NAMESPACES;
	/* sysfs of its network namespace; /proc, whose /proc/self bpftool reads */
	if (mount("sysfs", ROOT "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ||
	    mount("/proc", ROOT "/proc", NULL, MS_BIND | MS_REC, NULL))
		return CONTAINER_SYSFS;
	if (write(sock, "", 1) != 1 || read(sock, &mounted, 1) != 1)
		return CONTAINER_HANDOFF;
	if (mounted != 'y')
		return CONTAINER_BPFFS;
	if (chroot(ROOT) || chdir("/"))
		return CONTAINER_CHROOT;
	step = steps();
	fflush(stdout);
	return step ? CONTAINER_STEP + step : 0;
}

/* Run a container in cgroup @cg (NULL: this test's), whose BPF FS
 * bpf-token-mount makes with every delegation option "any" if @delegate,
 * or none, as a host's administrator would: its exit status
 */
static int run_container(bool delegate, const char *cg, int (*steps)(void))
{
	int socks[2], status = -1, err;
	char pid_s[16], ready;
	pid_t pid;

	if (!ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, socks), "socketpair"))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(socks[0]);
		_exit(container(socks[1], cg, steps));
	}
	close(socks[1]);
	if (ASSERT_EQ(read(socks[0], &ready, 1), 1, "the container is ready")) {
		snprintf(pid_s, sizeof(pid_s), "%d", pid);
		err = delegate ? run(TOKEN_MOUNT, pid_s, "--cmds", "any", "--maps", "any",
				     "--progs", "any", "--attachs", "any",
				     "--path", ROOT "/sys/fs/bpf") :
				 run(TOKEN_MOUNT, pid_s, "--path", ROOT "/sys/fs/bpf");
		ASSERT_OK(err, "bpf-token-mount");
		ASSERT_EQ(write(socks[0], err ? "n" : "y", 1), 1, "tell the container");
	}
	close(socks[0]);
	if (ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid") &&
	    ASSERT_TRUE(WIFEXITED(status), "the container exited"))
		status = WEXITSTATUS(status);
	return status;
}

/* Assert that run_container() ran @steps to their end; its name says how
 * to read the exit status otherwise
 */
#define ASSERT_CONTAINER(delegate, cg, steps)					\
	ASSERT_EQ(run_container(delegate, cg, steps), 0,			\
		  "container: 1-6 set-up, 16 plus the step that failed (" #steps "())")

/* libbpf's token path, as a runtime that delegates would set it, or none
 * (libbpf 1.5 then tries /sys/fs/bpf, and goes on without a token where
 * it has no delegation)
 */
static void token_path(bool set)
{
	if (set)
		setenv("LIBBPF_BPF_TOKEN_PATH", "/sys/fs/bpf", 1);
	else
		unsetenv("LIBBPF_BPF_TOKEN_PATH");
}

static int ip_attach(void)
{
	return run(IP, "link", "set", "dev", "lo", "xdpgeneric", "obj", XDP_COUNT_O,
		   "sec", "xdp");
}

/* ip attaches xdp_count.o to lo, with the token path set or not
 * (token_path()), and shows it there: 0, or the step that failed (1, 2)
 */
static int ip_attach_shown(bool token)
{
	token_path(token);
	if (ip_attach())
		return 1;
	if (run(IP, "link", "show", "dev", "lo") || !printed("prog/xdp id"))
		return 2;
	return 0;
}

/* ip attaches xdp_count.o to lo, and shows it there; again, detached,
 * with libbpf's default path
 */
static int ip_xdp(void)
{
	int step = ip_attach_shown(true);

	if (step)
		return step;
	if (run(IP, "link", "set", "dev", "lo", "xdpgeneric", "off"))
		return 3;
	token_path(false);
	if (ip_attach())
		return 4;
	return 0;
}

/* bpftool loads it and pins it */
static int bpftool_load(void)
{
	token_path(true);
	if (run(BPFTOOL, "prog", "load", XDP_COUNT_O, "/sys/fs/bpf/xdp_count"))
		return 1;
	if (run(BPFTOOL, "prog", "show", "pinned", "/sys/fs/bpf/xdp_count") ||
	    !printed("xdp"))
		return 2;
	return 0;
}

/* Without delegation: with the token path set, libbpf fails to make the
 * token (ENOENT); without, it loads without one, and the kernel refuses
 * (EPERM)
 */
static int ip_xdp_refused(void)
{
	token_path(true);
	if (!ip_attach())
		return 1;
	if (!printed("failed (-2) to create BPF token"))
		return 2;
	token_path(false);
	if (!ip_attach())
		return 3;
	return printed("Operation not permitted") ? 0 : 4;
}

/* Under a grant, no token: ip attaches, with libbpf's default path */
static int ip_xdp_granted(void)
{
	return ip_attach_shown(false);
}

/* The container in CG, granted by bpf-grant's default rule, on a BPF FS
 * without delegation
 */
static void grant_ip_xdp(void)
{
	if (!ASSERT_OK(mkdir(CG, 0755) && errno != EEXIST ? -errno : 0, "mkdir " CG))
		return;
	if (ASSERT_EQ(tool("add", CG, "--unbounded-memory"), GRANT_EXIT_OK, "bpf-grant add"))
		ASSERT_CONTAINER(false, CG, ip_xdp_granted);
	tool("remove", CG);
	rmdir(CG);
}

/* Subtest @name, whose container's libbpf needs the token in
 * BPF_PROG_LOAD last; and a kernel with tokens, and the packages
 */
static bool token_load_subtest(const char *name)
{
	return test__start_subtest(name) &&
	       need_patch("bpf: add BPF token support to BPF_PROG_LOAD command") &&
	       need_token() && have_debian13();
}

/* Each subtest needs the commit that its container's libbpf or BPF FS
 * needs last: the token in BPF_PROG_LOAD, or a BPF FS for a user
 * namespace
 */
void test_container_debian13(void)
{
	if (token_load_subtest("token_ip_xdp"))
		ASSERT_CONTAINER(true, NULL, ip_xdp);
	if (token_load_subtest("token_bpftool"))
		ASSERT_CONTAINER(true, NULL, bpftool_load);
	if (token_load_subtest("no_delegation"))
		ASSERT_CONTAINER(false, NULL, ip_xdp_refused);
	if (test__start_subtest("grant_ip_xdp") &&
	    need_patch("bpf: add BPF token delegation mount options to BPF FS") &&
	    need_token() && have_debian13())
		grant_ip_xdp();
}
