// SPDX-License-Identifier: GPL-2.0
/*
 * The container case: a rootless container, made as container runtimes
 * make one, runs Debian's own BPF tools, unmodified (ip and tc of
 * iproute2, xdp-loader of xdp-tools, bpftool), on its eth0, under the
 * default rule of bpf-grant or with a BPF token; each step is checked by
 * what it does to pings between the host end of a veth pair and the
 * container.
 *
 * A container: a cgroup delegated to its root uid (directory, cgroup.procs,
 * cgroup.subtree_control and cgroup.threads chowned, as systemd and runc
 * delegate one); a user namespace whose 0-65535 are UID..UID+65535
 * outside, with network, mount, PID and cgroup namespaces of its own; a
 * veth pair, 10.N.0.1/24 on the host and eth0, 10.N.0.2/24, which the
 * container sets up itself with ip. Commands run in it as "runc exec"
 * runs them: joining its cgroup and namespaces (and its root directory)
 * as its uid 0.
 *
 * Tools: Debian 12's, the guest's own, or Debian 13's (iproute2 6.15,
 * xdp-tools 1.5.4, bpftool 7.5, libbpf 1.5, which makes a token from
 * /sys/fs/bpf by itself), with their own C library: the container's root
 * directory is then the tree make deps fetched (/debian13), with sysfs of
 * its network namespace mounted in it.
 *
 * Pins: stock 6.1 cannot mount the BPF file system in a user namespace,
 * so for Debian 12's tools the runtime makes /sys/fs/bpf/NAME, owned by
 * the container's root, and bind-mounts it onto /sys/fs/bpf in the
 * container's mount namespace: the tools find a BPF file system where
 * they look, and pin into a directory that is the container's alone. It
 * binds it as root of the initial user namespace, before it makes the
 * container's: /sys/fs/bpf is root's, 0700 (the init mounts it as systemd
 * does), which the container's root cannot walk through. Debian 13's
 * libbpf takes such a directory for a BPF FS to make a token from and
 * fails (BPF_TOKEN_CREATE: EINVAL, not its root), so where the kernel has
 * the token a Debian 13 container gets a BPF FS of its own, delegating
 * nothing; with a token, delegating every command and type ("any"). The
 * administrator's tool makes it once the container runs
 * (policy/bpf-token-mount.c: the container's fsopen(), root's fsconfig()).
 *
 * The columns (col_names): root (every capability of the initial user
 * namespace, no user namespace, in network, mount, PID and cgroup
 * namespaces of its own so that it has an eth0 and a pin directory as the
 * containers have); the container with a rule and the one without, with
 * Debian 12's tools and with Debian 13's; Debian 13's with a token; and
 * Debian 12's with a token, which libbpf 1.1 does not know. A container
 * without a rule or a token is refused at each step: strace shows that
 * its first privileged bpf() call (map create, BTF or program load) got
 * EPERM, and its own message is in the log. On the stock kernel (make
 * ci-base) bpf-grant has no hook to add a rule to, the containers with
 * one are refused the same way, and those with a token are not made (no
 * BPF token): their cells say why. Each step's result in each column is
 * recorded as it is seen, and subtest "parity" prints them, one line per
 * step, as the diagnostics
 *
 *	parity {"run": {"kernel": UNAME, "grant_hooks": BOOL}}
 *	parity {"step": ID, "cmd": TEXT, "root": CELL, "rule": CELL, "no_rule": CELL,
 *		"rule_d13": CELL, "no_rule_d13": CELL, "token_d13": CELL, "token_d12": CELL}
 *
 * each a JSON object after "parity ", on one line of at most 2000 bytes
 * (the runner's diagnostic line holds 2048). A CELL is
 * "works", "works: HOW" (it did, another way than root's), "fails: WHY"
 * (WHY: the last bpf() call that got EPERM or EACCES, as "EPERM at
 * BPF_MAP_CREATE", else the last one that failed, else the exit status,
 * or what the traffic showed), "not run: WHY" (an earlier step failed,
 * or the container could not be made here) or "" (the subtest was not
 * selected). verdict keeps them in
 * results.json (tests[container_tools].subtests[parity].diagnostics);
 * tools/measure/parity-table.sh makes docs/container.md's parity table of a tip run's and
 * a stock run's.
 */
#include <test_progs.h>
#include <ctype.h>
#include <stdarg.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "grant_helpers.h"
#include "grant_policy.h"

#define IP		"/usr/sbin/ip"
#define TC		"/usr/sbin/tc"
#define XDP_LOADER	"/usr/sbin/xdp-loader"
#define BPFTOOL		"/bin/bpftool"
/* Debian 13's tree (tools/stages/debian13-root.sh), a container's root */
#define DEBIAN13	"/debian13"
#define DEBIAN13_JSON	"/debian13.json"
#define BPFTOOL_D13	"/usr/sbin/bpftool"
#define TOKEN_MOUNT	"/bin/bpf-token-mount"
#define STRACE		"/usr/bin/strace"
#define PING		"/bin/ping"
#define XDP_COUNT_O	"/container/xdp_count.o"
#define TC_DROP_O	"/container/tc_drop_icmp.o"
/* where the tools pin xdp_count's map by name, in the container: ip and
 * tc under their work directory's globals/ (iproute2 makes xdp/ a link
 * to tc/), xdp-loader under its --pin-path (it pins nothing without),
 * bpftool under libbpf's default, /sys/fs/bpf
 */
#define IP_PIN		"/sys/fs/bpf/xdp/globals/proto_count"
#define XDP_LOADER_DIR	"/sys/fs/bpf/xdp-loader"
#define XDP_LOADER_PIN	XDP_LOADER_DIR "/proto_count"
#define LIBBPF_PIN	"/sys/fs/bpf/proto_count"
#define PKT_FILE	"/tmp/container_tools.pkt"
#define STRACE_OUT	"/tmp/container_tools.strace"
#define TOOL_OUT	"/tmp/container_tools.tool"
#define PINGS		5
#define RUN_TIMEOUT	60

struct container {
	const char *name;	/* of its cgroup, pin directory, host veth */
	unsigned int uid;	/* its root, outside */
	int net;		/* 10.net.0.0/24 */
	int col;		/* its column of the parity records */
	bool root;		/* no user namespace: root of the initial one */
	bool granted;		/* bpf-grant add's default rule on its cgroup */
	bool token;		/* its BPF FS delegates all */
	bool own_bpffs;		/* /sys/fs/bpf: a BPF FS of its own, not a pin dir */
	const char *top;	/* its root directory: "" or DEBIAN13 */
	const char *bpftool;	/* its bpftool */
	const char *skip;	/* why it is not made, or NULL */
	char cg[64];		/* /sys/fs/cgroup/NAME, delegated to uid */
	char pins[64];		/* /sys/fs/bpf/NAME, its /sys/fs/bpf */
	char addr[16];		/* eth0's, 10.net.0.2 */
	pid_t init;		/* its PID 1, in the initial PID namespace */
};

enum {
	COL_ROOT, COL_RULE, COL_NORULE, COL_RULE13, COL_NORULE13, COL_TOKEN13,
	COL_TOKEN12, NR_COLS
};
static const char *const col_names[NR_COLS] = {
	"root", "rule", "no_rule", "rule_d13", "no_rule_d13", "token_d13", "token_d12",
};

static struct container root_ct = {
	"ct_root", 0, 20, COL_ROOT, .root = true, .top = "", .bpftool = BPFTOOL };
static struct container granted_ct = {
	"ct_granted", 100000, 21, COL_RULE, .granted = true, .top = "", .bpftool = BPFTOOL };
static struct container norule_ct = {
	"ct_norule", 200000, 22, COL_NORULE, .top = "", .bpftool = BPFTOOL };
/* Debian 13's tools: with a rule, without, with a token; and Debian 12's
 * with a token, which libbpf 1.1 does not know
 */
static struct container granted13_ct = {
	"ct_rule13", 300000, 23, COL_RULE13, .granted = true, .top = DEBIAN13,
	.bpftool = BPFTOOL_D13 };
static struct container norule13_ct = {
	"ct_none13", 400000, 24, COL_NORULE13, .top = DEBIAN13, .bpftool = BPFTOOL_D13 };
static struct container token13_ct = {
	"ct_token13", 500000, 25, COL_TOKEN13, .token = true, .top = DEBIAN13,
	.bpftool = BPFTOOL_D13 };
static struct container token12_ct = {
	"ct_token12", 600000, 26, COL_TOKEN12, .token = true, .top = "", .bpftool = BPFTOOL };
static struct container *const all_ct[] = {
	&root_ct, &granted_ct, &norule_ct, &granted13_ct, &norule13_ct, &token13_ct, &token12_ct,
};
static bool hooks;		/* the series' kernel, not the stock one */
static bool up;			/* the containers run */

/* What a step should do where it runs: as root does, as a grant lets it
 * (a container with a rule, on the tip), as a token lets it (Debian 13's
 * tools with a delegating BPF FS), or be refused (a container with
 * neither, Debian 12's tools with a token, and any on the stock kernel)
 */
enum mode { M_ROOT, M_GRANTED, M_TOKEN, M_REFUSED };

static enum mode mode_of(const struct container *c)
{
	if (c->root)
		return M_ROOT;
	if (c->granted && hooks)
		return M_GRANTED;
	return c->token && c->top[0] ? M_TOKEN : M_REFUSED;
}

/* @path in @c's root directory, as the host sees it */
static const char *ct_path(const struct container *c, const char *path)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", c ? c->top : "", path);
	return buf;
}

/* The script's steps, the rows of the parity records */
enum step {
	S_IP_ATTACH, S_IP_COUNT, S_TC_QDISC, S_TC_ADD, S_TC_DROP, S_TC_DEL,
	S_XL_LOAD, S_XL_COUNT, S_XL_STATUS, S_XL_UNLOAD, S_BT_MAP_CREATE,
	S_BT_MAP_UPDATE, S_BT_PROG_LOAD, S_BT_PROG_RUN, S_BT_PROG_SHOW_PINNED,
	S_BT_PROG_SHOW, NR_STEPS
};

static const struct {
	const char *id, *cmd;
} steps[NR_STEPS] = {
	[S_IP_ATTACH] = { "ip_xdp_attach", "ip link set dev eth0 xdpgeneric obj xdp_count.o" },
	[S_IP_COUNT] = { "ip_xdp_count", "5 pings, counted in the pinned map (bpftool map dump)" },
	[S_TC_QDISC] = { "tc_qdisc", "tc qdisc add dev eth0 clsact" },
	[S_TC_ADD] = { "tc_filter_add", "tc filter add dev eth0 ingress bpf da obj tc_drop_icmp.o" },
	[S_TC_DROP] = { "tc_drop", "5 pings while the filter is attached: none through" },
	[S_TC_DEL] = { "tc_filter_del", "tc filter del dev eth0 ingress: pings through again" },
	[S_XL_LOAD] = { "xdp_loader_load", "xdp-loader load -m skb eth0 xdp_count.o" },
	[S_XL_COUNT] = { "xdp_loader_count", "5 pings, counted in the map pinned by xdp-loader" },
	[S_XL_STATUS] = { "xdp_loader_status", "xdp-loader status eth0" },
	[S_XL_UNLOAD] = { "xdp_loader_unload", "xdp-loader unload eth0 --all" },
	[S_BT_MAP_CREATE] = { "bpftool_map_create", "bpftool map create (hash, pinned)" },
	[S_BT_MAP_UPDATE] = { "bpftool_map_update", "bpftool map update, the value read back" },
	[S_BT_PROG_LOAD] = { "bpftool_prog_load", "bpftool prog load xdp_count.o (pinned)" },
	[S_BT_PROG_RUN] = { "bpftool_prog_run", "bpftool prog run data_in: XDP_PASS, counted" },
	[S_BT_PROG_SHOW_PINNED] = { "bpftool_prog_show_pinned",
				    "bpftool prog show pinned: its own program" },
	[S_BT_PROG_SHOW] = { "bpftool_prog_show", "bpftool prog show: every program of the host" },
};

#define CELL_LEN	96
static char cells[NR_COLS][NR_STEPS][CELL_LEN];
static bool recording;		/* in a subtest of the script */

/* Record what step @s did in @c, unless already recorded */
static void __attribute__((format(printf, 3, 4)))
cell(const struct container *c, enum step s, const char *fmt, ...)
{
	va_list ap;

	if (!recording || cells[c->col][s][0])
		return;
	va_start(ap, fmt);
	vsnprintf(cells[c->col][s], CELL_LEN, fmt, ap);
	va_end(ap);
}

/* What the last command printed, stdout and stderr */
static char ct_out[32768];

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Join @c's cgroup and namespaces, and become its uid 0, as runc exec
 * does: 0 or -errno
 */
static int ct_enter(const struct container *c)
{
	static const char *const ns[] = { "user", "cgroup", "net", "mnt", "pid" };
	int fds[ARRAY_SIZE(ns)], i, err, root_fd;
	char path[96];

	snprintf(path, sizeof(path), "%s/cgroup.procs", c->cg);
	err = write_file(path, "0");
	/* its root directory too, as nsenter --root: Debian 13's tree */
	snprintf(path, sizeof(path), "/proc/%d/root", c->init);
	root_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!err && root_fd < 0)
		err = -errno;
	/* opened while this process is still root of the initial namespaces;
	 * root's container has no user namespace of its own (ns[0])
	 */
	for (i = c->root; !err && i < ARRAY_SIZE(ns); i++) {
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", c->init, ns[i]);
		fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			err = -errno;
	}
	for (i = c->root; !err && i < ARRAY_SIZE(ns); i++)
		if (setns(fds[i], 0))
			err = -errno;
	if (!err && (fchdir(root_fd) || chroot(".") || chdir("/")))
		err = -errno;
	if (!err && !c->root &&
	    (setresgid(0, 0, 0) || setgroups(0, NULL) || setresuid(0, 0, 0)))
		err = -errno;
	return err;
}

/* Run @argv, or @fn if @argv is NULL, in container @c, or on the host as
 * root if @c is NULL. @argv: its exit status (128 + a signal's number if
 * killed), output in ct_out[] and in the log; @fn: what it returned (0 or
 * -errno). -1000 if it could not be started.
 */
static int run_in(const struct container *c, const char *const *argv, int (*fn)(void))
{
	static const char *const env[] = {
		"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/", NULL
	};
	int fds[2], status, err, i;
	ssize_t n, len = 0;
	pid_t pid, child;

	if (!fork_piped(fds, &pid))
		return -1000;
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		err = c ? ct_enter(c) : 0;
		if (err) {
			dprintf(2, "cannot enter %s: %s\n", c->name, strerror(-err));
			/* no exit status a tool could have */
			kill(getpid(), SIGKILL);
		}
		/* the next fork is in the container's PID namespace */
		child = fork();
		if (child == 0) {
			alarm(RUN_TIMEOUT);
			if (!argv)
				_exit(-fn() & 0xff);
			execve(argv[0], (char *const *)argv, (char *const *)env);
			dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
			_exit(126);
		}
		if (child < 0 || waitpid(child, &status, 0) != child)
			_exit(255);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	while (pid > 0 && (n = read(fds[0], ct_out + len, sizeof(ct_out) - 1 - len)) > 0)
		len += n;
	ct_out[len] = 0;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		printf("%s", ct_out);
		return -1000;
	}
	status = WEXITSTATUS(status);
	if (!argv) {
		if (len)
			printf("%s", ct_out);
		return -status;
	}
	printf("%s#", c ? c->name : "host");
	for (i = 0; argv[i]; i++)
		printf(" %s", argv[i]);
	printf(": exit %d\n", status);
	if (len)
		printf("%s%s", ct_out, ct_out[len - 1] == '\n' ? "" : "\n");
	return status;
}

static int ct_run(const struct container *c, const char *const *argv)
{
	return run_in(c, argv, NULL);
}

static int ct_call(const struct container *c, int (*fn)(void))
{
	return run_in(c, NULL, fn);
}

static bool ct_printed(const char *text)
{
	return strstr(ct_out, text);
}

/* PID 1 of a container, in its new namespaces: the runtime's last steps,
 * then it waits to be killed. Writes 0 or an -errno to @ready.
 */
static void ct_init(const struct container *c, int ready)
{
	int err = 0;

	/* nothing propagates back; its /sys/fs/bpf is its pin directory
	 * already (bind_pins()); its /proc shows its PID namespace; its /run
	 * is its own (xdp-loader locks /run/xdp-loader.lck)
	 */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) ||
	    mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755"))
		err = -errno;
	if (write(ready, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	close(ready);
	for (;;)
		pause();
}

/* Hand @c's cgroup to its root uid as systemd and runc do: 0 or -errno */
static int delegate(const struct container *c)
{
	static const char *const files[] = {
		"", "/cgroup.procs", "/cgroup.subtree_control", "/cgroup.threads",
	};
	char path[128];
	int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s%s", c->cg, files[i]);
		if (chown(path, c->uid, c->uid))
			return -errno;
	}
	return 0;
}

/* @c's pin directory onto its /sys/fs/bpf, in a mount namespace of the
 * caller's own, which the container's copies: bound by root of the initial
 * user namespace, as a runtime does (file comment); a container with a
 * BPF FS of its own gets it later (bpf-token-mount, ct_create()). 0 or
 * -errno.
 */
static int bind_pins(const struct container *c)
{
	return unshare(CLONE_NEWNS) ||
	       mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	       (!c->own_bpffs && !c->top[0] &&
		mount(c->pins, "/sys/fs/bpf", NULL, MS_BIND, NULL)) ? -errno : 0;
}

/* A Debian 13 container's pin directory, bound under its sysfs once that
 * is mounted (ct_sysfs()): a copy of the bind mount, taken while still
 * root here; -1 where it has a BPF FS of its own
 */
static int pins_tree(const struct container *c)
{
	if (c->own_bpffs || !c->top[0])
		return -1;
	return open_tree(AT_FDCWD, c->pins, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
}

/* A Debian 13 container's root: sysfs of its network namespace (libbpf
 * reads the kernel's BTF there), on stock 6.1 its pin directory on it,
 * and its own tree as its root, a mount point (its init makes its mounts
 * private)
 */
static int ct_sysfs(const struct container *c, int pins_fd)
{
	if (!c->top[0])
		return 0;
	if (mount("sysfs", ct_path(c, "/sys"), "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return -errno;
	return pins_fd >= 0 && move_mount(pins_fd, "", AT_FDCWD, ct_path(c, "/sys/fs/bpf"),
					  MOVE_MOUNT_F_EMPTY_PATH) ? -errno : 0;
}

static int ct_chroot(const struct container *c)
{
	if (!c->top[0])
		return 0;
	return mount(c->top, c->top, NULL, MS_BIND | MS_REC, NULL) ||
	       chroot(c->top) || chdir("/") ? -errno : 0;
}

/* Start @c's init: a child that moves itself into the cgroup, binds its
 * pin directory, makes a user namespace (root here writes its maps),
 * becomes uid 0 there and makes the other namespaces; its own child is the
 * container's PID 1, which this process, a subreaper, inherits. 0 or
 * -errno.
 */
static int ct_start(struct container *c)
{
	char path[64], map[32], procs[96];
	int sk[2], err = -EIO, pins_fd;
	pid_t pid;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", c->cg);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sk))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sk[0]);
		if (write_file(procs, "0") || bind_pins(c))
			_exit(1);
		pins_fd = pins_tree(c);
		if ((pins_fd < 0 && !c->own_bpffs && c->top[0]) ||
		    (!c->root && unshare(CLONE_NEWUSER)))
			_exit(1);
		/* say so, and wait for root to write its maps */
		if (write(sk[1], "", 1) != 1 || read(sk[1], map, 1) != 1)
			_exit(1);
		if ((!c->root && (setresgid(0, 0, 0) || setgroups(0, NULL) ||
				  setresuid(0, 0, 0))) ||
		    unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWCGROUP) ||
		    ct_sysfs(c, pins_fd) || ct_chroot(c))
			_exit(1);
		pid = fork();
		if (pid == 0)
			ct_init(c, sk[1]);
		_exit(pid < 0);
	}
	close(sk[1]);
	if (pid < 0 || read(sk[0], map, 1) != 1)
		goto out;
	snprintf(map, sizeof(map), "0 %u 65536", c->uid);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	err = c->root ? 0 : write_file(path, map);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	err = err ?: c->root ? 0 : write_file(path, map);
	if (!err && write(sk[0], "", 1) != 1)
		err = -EIO;
	/* the init's word: it is set up, or why not */
	if (!err && read(sk[0], &err, sizeof(err)) != sizeof(err))
		err = -EIO;
out:
	close(sk[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return err;
}

/* The container's init: the one process of its cgroup once the runtime's
 * child has exited
 */
static pid_t find_init(const struct container *c)
{
	char path[128], line[256];
	pid_t pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", c->cg);
	f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f))
		pid = atoi(line);
	if (f)
		fclose(f);
	return pid;
}

/* Ping @c's eth0 from the host @n times: how many replies came back */
static int ping_ct(const struct container *c, int n)
{
	char count[8], *line;
	int sent, received = -1;

	snprintf(count, sizeof(count), "%d", n);
	ct_run(NULL, ARGS(PING, "-c", count, "-i", "0.2", "-W", "1", c->addr));
	for (line = ct_out; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (sscanf(line, "%d packets transmitted, %d packets received",
			   &sent, &received) == 2)
			break;
	return received;
}

/* The count of IP protocol @proto in the map pinned at @pin in @c, read
 * with bpftool as JSON (in hex: the map has no BTF types): 0 if it has
 * none, -1 if it could not be read
 */
static long long count_of(const struct container *c, const char *pin, int proto)
{
	unsigned int b[8];
	long long v = 0;
	char key[64], *s, *d;
	int i, n;

	if (ct_run(c, ARGS(c->bpftool, "-j", "map", "dump", "pinned", pin)))
		return -1;
	for (s = d = ct_out; *s; s++)
		if (!isspace(*s))
			*d++ = *s;
	*d = 0;
	if (ct_out[0] != '[')
		return -1;
	snprintf(key, sizeof(key), "\"key\":[\"0x%02x\",\"0x00\",\"0x00\",\"0x00\"],\"value\":[",
		 proto);
	s = strstr(ct_out, key);
	if (!s)
		return 0;
	/* eight bytes, each followed by ',' or ']' */
	for (s += strlen(key), i = 0; i < 8; i++, s += n + 1)
		if (sscanf(s, "\"0x%2x\"%n", &b[i], &n) != 1)
			return -1;
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* What the last tool_run() saw in STRACE_OUT: the first bpf() call that
 * needs a privilege (map create, BTF or program load), as strace printed
 * it, and why the tool failed, if it did, for the parity records: the
 * last bpf() call that got EPERM or EACCES, as "EPERM at BPF_MAP_CREATE"
 * (the tool's own call, after the feature probes that may fail before
 * it), else the last one that failed (a probe that fails as root fails
 * with EINVAL), else ""
 */
static char first_call[256];
static char failed_call[64];

/* "EPERM at BPF_PROG_LOAD" of a strace line "... bpf(BPF_PROG_LOAD, ...) = -1 EPERM (...)" */
static bool failed_call_of(const char *line, char *out, size_t size)
{
	const char *cmd = strstr(line, "bpf("), *ret = strstr(line, ") = -1 E");
	int cmd_len, err_len;

	if (!cmd || !ret)
		return false;
	cmd += 4;
	cmd_len = strcspn(cmd, ",)");
	ret += 7;
	err_len = strcspn(ret, " \n");
	snprintf(out, size, "%.*s at %.*s", err_len, ret, cmd_len, cmd);
	return true;
}

static void read_strace(const struct container *c)
{
	FILE *f = fopen(ct_path(c, STRACE_OUT), "r");
	char *line = NULL, *ret, last[64] = "";
	bool denied = false;
	size_t size = 0;

	first_call[0] = failed_call[0] = 0;
	while (f && getline(&line, &size, f) > 0) {
		/* its start and its result: strace's line is long */
		if (!first_call[0] &&
		    (strstr(line, "bpf(BPF_MAP_CREATE") || strstr(line, "bpf(BPF_BTF_LOAD") ||
		     strstr(line, "bpf(BPF_PROG_LOAD")) && (ret = strrchr(line, '=')))
			snprintf(first_call, sizeof(first_call), "%.120s ... %.*s",
				 line, (int)strcspn(ret, "\n"), ret);
		if (strstr(line, ") = -1 EPERM") || strstr(line, ") = -1 EACCES"))
			denied |= failed_call_of(line, failed_call, sizeof(failed_call));
		else if (!denied)
			failed_call_of(line, last, sizeof(last));
	}
	if (!denied)
		snprintf(failed_call, sizeof(failed_call), "%s", last);
	free(line);
	if (f)
		fclose(f);
	unlink(ct_path(c, STRACE_OUT));
}

/* Run tool @argv in @c under strace (its bpf() calls): its exit status,
 * as ct_run's; what strace saw in first_call[] and failed_call[]
 */
static int tool_run(const struct container *c, const char *const *argv)
{
	const char *traced[40] = {
		STRACE, "-f", "-qq", "-e", "trace=bpf", "-o", STRACE_OUT,
	};
	int i, status;

	for (i = 0; argv[i] && i < ARRAY_SIZE(traced) - 8; i++)
		traced[7 + i] = argv[i];
	unlink(ct_path(c, STRACE_OUT));
	status = ct_run(c, traced);
	read_strace(c);
	return status;
}

/* The parity cell of a tool's step: "works", or why not */
static void cell_status(const struct container *c, enum step s, int status)
{
	if (!status)
		cell(c, s, "works");
	else if (failed_call[0])
		cell(c, s, "fails: %s", failed_call);
	else
		cell(c, s, "fails: exit %d", status);
}

/* Assert a refusal of the tool that tool_run() ran with exit @status: it
 * failed, its first privileged bpf() call got EPERM, and it said so in
 * its own words (@says, printed with the rest of its output)
 */
static void refused_check(int status, const char *says, const char *name)
{
	char what[128];

	/* 126 and up: it did not run, or was killed; ip exits 255 */
	snprintf(what, sizeof(what), "%s: refused", name);
	ASSERT_TRUE((status > 0 && status < 126) || status == 255, what);
	snprintf(what, sizeof(what), "%s: the tool says '%s'", name, says);
	ASSERT_TRUE(ct_printed(says), what);
	printf("first privileged call: %s\n", first_call[0] ? first_call : "none");
	snprintf(what, sizeof(what), "%s: EPERM at the first privileged call", name);
	ASSERT_TRUE(strstr(first_call, "= -1 EPERM"), what);
}

static void refused(const struct container *c, const char *const *argv,
		    const char *says, const char *name)
{
	refused_check(tool_run(c, argv), says, name);
}

/* What needs a capability of the initial user namespace, in a container */
static int cpumap_create(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_CPUMAP, NULL, 4, 4, 1, NULL);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int mount_bpffs(void)
{
	if (mount("bpf", "/tmp", "bpf", 0, NULL))
		return -errno;
	umount("/tmp");
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) && errno != ENOENT ? -1 : 0;
}

static void ct_destroy(struct container *c)
{
	char host_if[32];
	int tries;

	snprintf(host_if, sizeof(host_if), "veth-%s", c->name);
	if (c->init > 0) {
		/* deleting one end takes the other with it, now */
		ct_run(NULL, ARGS(IP, "link", "del", host_if));
		kill(c->init, SIGKILL);
		waitpid(c->init, NULL, 0);
		c->init = 0;
	}
	for (tries = 0; tries < 50 && rmdir(c->cg) && errno == EBUSY; tries++)
		usleep(100 * 1000);
	nftw(c->pins, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Make @c: cgroup, pin directory, namespaces, veth pair, addresses */
static bool ct_create(struct container *c)
{
	char host_if[32], host_addr[32], ct_addr[32], pid[16], proc[32];
	struct stat st;
	int err;

	snprintf(c->cg, sizeof(c->cg), "/sys/fs/cgroup/%s", c->name);
	snprintf(c->pins, sizeof(c->pins), "/sys/fs/bpf/%s", c->name);
	snprintf(c->addr, sizeof(c->addr), "10.%d.0.2", c->net);
	snprintf(host_if, sizeof(host_if), "veth-%s", c->name);
	snprintf(host_addr, sizeof(host_addr), "10.%d.0.1/24", c->net);
	snprintf(ct_addr, sizeof(ct_addr), "%s/24", c->addr);
	if (!ASSERT_OK(mkdir(c->cg, 0755) ? -errno : 0, c->cg) ||
	    !ASSERT_OK(delegate(c), "delegate the cgroup") ||
	    !ASSERT_OK(mkdir(c->pins, 0700) ? -errno : 0, c->pins) ||
	    !ASSERT_OK(chown(c->pins, c->uid, c->uid) ? -errno : 0, "chown the pin directory"))
		return false;
	err = ct_start(c);
	c->init = find_init(c);
	if (!ASSERT_OK(err, "start the container") || !ASSERT_GT(c->init, 0, "its init"))
		return false;
	snprintf(pid, sizeof(pid), "%d", c->init);
	/* its BPF FS, from the administrator's tool, as a runtime would */
	if (c->own_bpffs &&
	    !ASSERT_OK(c->token ? ct_run(NULL, ARGS(TOKEN_MOUNT, pid, "--cmds", "any",
						    "--maps", "any", "--progs", "any",
						    "--attachs", "any")) :
				  ct_run(NULL, ARGS(TOKEN_MOUNT, pid)),
		       "bpf-token-mount"))
		return false;
	snprintf(proc, sizeof(proc), "/proc/%d", c->init);
	/* its root is c->uid outside */
	if (ASSERT_OK(stat(proc, &st) ? -errno : 0, "stat its init"))
		ASSERT_EQ(st.st_uid, c->uid, "its init's uid outside");
	return ASSERT_OK(ct_run(NULL, ARGS(IP, "link", "add", host_if, "type", "veth",
					   "peer", "name", "eth0", "netns", pid)),
			 "veth pair") &&
	       ASSERT_OK(ct_run(NULL, ARGS(IP, "addr", "add", host_addr, "dev", host_if)),
			 "host address") &&
	       ASSERT_OK(ct_run(NULL, ARGS(IP, "link", "set", host_if, "up")), "host end up") &&
	       /* CAP_NET_ADMIN over its own network namespace */
	       ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "lo", "up")), "lo up") &&
	       ASSERT_OK(ct_run(c, ARGS(IP, "addr", "add", ct_addr, "dev", "eth0")),
			 "eth0's address, set in the container") &&
	       ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "eth0", "up")), "eth0 up") &&
	       ASSERT_EQ(ping_ct(c, 1), 1, "ping the container");
}

/* An ICMP echo request, as bpftool prog run's data_in, at PKT_FILE in
 * @top (the host's root or Debian 13's)
 */
static int write_packet(const char *top)
{
	static const unsigned char pkt[42] = {
		[12] = 0x08, [13] = 0x00,			/* ETH_P_IP */
		[14] = 0x45, [17] = 28, [22] = 64, [23] = 1,	/* IPPROTO_ICMP */
		[26] = 10, [27] = 21, [29] = 1, [30] = 10, [31] = 21, [33] = 2,
		[34] = 8,					/* echo request */
	};
	char path[128];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s%s", top, PKT_FILE);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fwrite(pkt, sizeof(pkt), 1, f) != 1)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err ?: chmod(path, 0644) ? -errno : 0;
}


/* Why @c cannot be made here, or NULL: Debian 13's packages were not
 * fetched (make deps says why), or the kernel or the series at this
 * commit has no BPF token for libbpf to use
 */
static const char *why_not(const struct container *c)
{
	static char why[192];
	int fd, n;

	if (c->top[0]) {
		fd = open(DEBIAN13_JSON, O_RDONLY);
		n = fd >= 0 ? read(fd, why, sizeof(why) - 1) : 0;
		if (fd >= 0)
			close(fd);
		why[n > 0 ? n : 0] = 0;
		if (!strstr(why, "\"available\": true")) {
			snprintf(why, sizeof(why), "packages unavailable (%s)", DEBIAN13_JSON);
			return why;
		}
	}
	if (!c->token)
		return NULL;
	if (!kernel_has_token() ||
	    !series_has("bpf: add BPF token support to BPF_PROG_LOAD command"))
		return "this kernel has no BPF token";
	return NULL;
}

/* The containers, and the rules of those with one: whether the first
 * three run (the others say why they do not, in c->skip)
 */
static bool setup(bool check)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(all_ct); i++) {
		all_ct[i]->skip = why_not(all_ct[i]);
		/* Debian 13's libbpf takes a pin directory bound on
		 * /sys/fs/bpf for a BPF FS to make a token from, and fails
		 * (EINVAL: not its root): where the kernel mounts one in a
		 * user namespace, it gets one of its own, delegating nothing
		 */
		all_ct[i]->own_bpffs = all_ct[i]->token ||
				       (all_ct[i]->top[0] && kernel_has_token());
		if (!all_ct[i]->skip && !ct_create(all_ct[i]))
			return false;
	}
	if (check) {
		/* nothing in it has a capability of the initial user namespace */
		ASSERT_EQ(ct_call(&granted_ct, cpumap_create), -EPERM, "cpumap (CAP_BPF)");
		ASSERT_EQ(ct_call(&granted_ct, mount_bpffs), -EPERM,
			  "mount bpffs (CAP_SYS_ADMIN, no FS_USERNS_MOUNT)");
		/* root's has them all */
		ASSERT_OK(ct_call(&root_ct, cpumap_create), "cpumap, as root");
		ASSERT_OK(ct_call(&root_ct, mount_bpffs), "mount bpffs, as root");
	}
	if (check) {
		/* the administrator's tool names what is wrong */
		ASSERT_EQ(ct_run(NULL, ARGS(TOKEN_MOUNT, "999999")), 1, "bpf-token-mount, no such PID");
		ASSERT_TRUE(ct_printed("is 999999 a running process?"), "it says so");
		ASSERT_EQ(ct_run(NULL, ARGS(TOKEN_MOUNT, "1", "--maps")), 2,
			  "bpf-token-mount, an option without its value");
		ASSERT_TRUE(ct_printed("usage: bpf-token-mount PID"), "its usage");
	}
	if (check && hooks) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "bpf-grant list");
		ASSERT_FALSE(printed(granted_ct.cg), "no rule before add");
	}
	/* memory is not what this test is about: no memory.max, on purpose */
	ASSERT_EQ(tool("add", granted_ct.cg, "--unbounded-memory"),
		  hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add");
	if (!granted13_ct.skip)
		ASSERT_EQ(tool("add", granted13_ct.cg, "--unbounded-memory"),
			  hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add, Debian 13");
	if (!granted13_ct.skip && !ASSERT_OK(write_packet(DEBIAN13), "write the packet, Debian 13"))
		return false;
	if (hooks) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "bpf-grant list");
		ASSERT_TRUE(printed(granted_ct.cg), "the rule is listed");
		ASSERT_FALSE(printed(norule_ct.cg), "none for the second container");
	}
	return ASSERT_OK(write_packet(""), "write " PKT_FILE);
}

/* The parity cell of a count: @n of PINGS through, or counted */
static void cell_count(const struct container *c, enum step s, long long before,
		       long long after, const char *what)
{
	if (before < 0 || after < 0)
		cell(c, s, "fails: the count could not be read");
	else if (after - before == PINGS)
		cell(c, s, "works");
	else
		cell(c, s, "fails: %lld of %d %s", after - before, PINGS, what);
}

/* PINGS pings from the host, each counted in xdp_count's map pinned at
 * @pin, read in @c: step @s's cell; the count after them
 */
static long long pings_counted(const struct container *c, const char *pin, enum step s)
{
	long long before, after;

	before = count_of(c, pin, IPPROTO_ICMP);
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	after = count_of(c, pin, IPPROTO_ICMP);
	printf("ICMP count: %lld before, %lld after %d pings\n", before, after, PINGS);
	cell_count(c, s, before, after, "counted");
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, PINGS, "every echo request counted");
	return after;
}

/* ip link set dev eth0 xdpgeneric obj: xdp_count counts the pings */
static void test_ip_xdp(struct container *c)
{
	static const char *const attach[] = {
		IP, "link", "set", "dev", "eth0", "xdpgeneric", "obj", XDP_COUNT_O,
		"sec", "xdp", NULL,
	};
	int status;

	status = tool_run(c, attach);
	cell_status(c, S_IP_ATTACH, status);
	if (mode_of(c) == M_REFUSED) {
		refused_check(status, "Operation not permitted", "ip xdpgeneric obj");
		cell(c, S_IP_COUNT, "not run: nothing attached");
		ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
		ASSERT_FALSE(ct_printed("xdp"), "no XDP program on eth0");
		ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
		return;
	}
	if (!ASSERT_OK(status, "ip xdpgeneric obj")) {
		cell(c, S_IP_COUNT, "not run: nothing attached");
		return;
	}
	ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
	ASSERT_TRUE(ct_printed("xdpgeneric"), "eth0 has a generic XDP program");
	/* what the tools pinned, seen from outside */
	ct_run(NULL, ARGS("/bin/find", c->pins));
	pings_counted(c, IP_PIN, S_IP_COUNT);
	ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off")),
		  "ip xdpgeneric off");
}

/* tc filter add ... bpf da obj: tc_drop_icmp drops the pings until deleted */
static void test_tc(struct container *c)
{
	static const char *const attach[] = {
		TC, "filter", "add", "dev", "eth0", "ingress", "bpf", "da",
		"obj", TC_DROP_O, "sec", "tc", NULL,
	};
	int status, through;

	status = ct_run(c, ARGS(TC, "qdisc", "add", "dev", "eth0", "clsact"));
	if (status)
		cell(c, S_TC_QDISC, "fails: exit %d", status);
	cell(c, S_TC_QDISC, "works");
	if (!ASSERT_OK(status, "tc qdisc add clsact")) {
		cell(c, S_TC_ADD, "not run: no clsact qdisc");
		return;
	}
	status = tool_run(c, attach);
	cell_status(c, S_TC_ADD, status);
	if (mode_of(c) == M_REFUSED) {
		refused_check(status, "Operation not permitted", "tc filter add bpf");
		ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	} else if (ASSERT_OK(status, "tc filter add bpf")) {
		ct_run(c, ARGS(TC, "filter", "show", "dev", "eth0", "ingress"));
		ASSERT_TRUE(ct_printed("tc_drop_icmp"), "the filter is listed");
		through = ping_ct(c, PINGS);
		if (through)
			cell(c, S_TC_DROP, "fails: %d of %d through", through, PINGS);
		cell(c, S_TC_DROP, "works");
		ASSERT_EQ(through, 0, "pings dropped");
		status = ct_run(c, ARGS(TC, "filter", "del", "dev", "eth0", "ingress"));
		ASSERT_OK(status, "tc filter del");
		through = ping_ct(c, PINGS);
		if (status)
			cell(c, S_TC_DEL, "fails: exit %d", status);
		if (through != PINGS)
			cell(c, S_TC_DEL, "fails: %d of %d through", through, PINGS);
		cell(c, S_TC_DEL, "works");
		ASSERT_EQ(through, PINGS, "pings go through again");
	}
	cell(c, S_TC_DROP, "not run: no filter");
	cell(c, S_TC_DEL, "not run: no filter");
	ASSERT_OK(ct_run(c, ARGS(TC, "qdisc", "del", "dev", "eth0", "clsact")),
		  "tc qdisc del clsact");
}

/*
 * xdp-loader load -m skb: libxdp first loads its multi-program dispatcher,
 * an XDP program into which it would link each program as an extension
 * (BPF_PROG_TYPE_EXT, freplace); root gets it. Under a grant the verifier
 * refuses the dispatcher itself: its stubs test "if (!ctx)", a pointer
 * comparison allowed only with CAP_PERFMON, which a grant of 1 does not
 * give. libxdp 1.3.1 takes any failure there as a kernel without
 * dispatcher support and loads the program alone, as a plain XDP program
 * attached through netlink: that works under the default rule.
 * xdp-loader status and unload do not: they look the attached program up
 * by id, and BPF_PROG_GET_FD_BY_ID takes CAP_SYS_ADMIN in the initial
 * namespace. The container detaches it with ip. A rule that names ext
 * (@ext_rule) changes nothing: the dispatcher is refused before any
 * extension is loaded, and attaching an extension loaded under a grant
 * would take CAP_BPF and CAP_PERFMON of the attacher (patch 18).
 */
#define DISPATCHER	"/usr/lib/x86_64-linux-gnu/bpf/xdp-dispatcher.o"
#define NO_DISPATCHER	"libxdp: Falling back to loading single prog without dispatcher"

/* xdp-loader status or unload, granted or with a token, exited @status:
 * it fails, as it cannot get the attached program's fd from its id
 */
static void xl_no_fd(int status, const char *fails, const char *no_fd)
{
	ASSERT_NEQ(status, 0, fails);
	ASSERT_TRUE(ct_printed("couldn't get program fd: Operation not permitted"), no_fd);
}

static void test_xdp_loader(struct container *c, bool ext_rule)
{
	static const char *const load[] = {
		XDP_LOADER, "load", "-v", "-m", "skb", "-p", XDP_LOADER_DIR, "eth0",
		XDP_COUNT_O, NULL,
	};
	enum mode mode = mode_of(c);
	long long after;
	bool alone;
	int status;

	status = tool_run(c, load);
	if (mode == M_REFUSED) {
		cell_status(c, S_XL_LOAD, status);
		refused_check(status, "Operation not permitted", "xdp-loader load");
		cell(c, S_XL_COUNT, "not run: nothing attached");
		status = ct_run(c, ARGS(XDP_LOADER, "status", "eth0"));
		ASSERT_OK(status, "xdp-loader status");
		ASSERT_TRUE(ct_printed("No XDP program loaded"), "nothing loaded");
		if (status)
			cell(c, S_XL_STATUS, "fails: exit %d", status);
		cell(c, S_XL_STATUS, "works: nothing loaded");
		cell(c, S_XL_UNLOAD, "not run: nothing loaded");
		return;
	}
	alone = ct_printed(NO_DISPATCHER);
	if (!status && alone)
		cell(c, S_XL_LOAD, "works: the program alone, dispatcher refused (%s)",
		     failed_call[0] ? failed_call : "no bpf() call failed");
	else
		cell_status(c, S_XL_LOAD, status);
	if (!ASSERT_OK(status, "xdp-loader load")) {
		cell(c, S_XL_COUNT, "not run: nothing attached");
		cell(c, S_XL_STATUS, "not run: nothing attached");
		cell(c, S_XL_UNLOAD, "not run: nothing attached");
		ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off"));
		return;
	}
	if (mode == M_GRANTED) {
		ASSERT_TRUE(ct_printed("libxdp: Failed to load dispatcher: Permission denied"),
			    "the dispatcher is refused");
		ASSERT_TRUE(alone, "libxdp falls back to the program alone");
	} else if (mode == M_TOKEN) {
		/* libxdp's own check loads without the token */
		ASSERT_TRUE(ct_printed("Compatibility check for dispatcher program failed: "
				       "Operation not permitted"),
			    "the dispatcher's check is refused");
		ASSERT_TRUE(alone, "libxdp falls back to the program alone");
	} else {
		ASSERT_FALSE(alone, "root: the program goes into libxdp's dispatcher");
	}
	ct_run(NULL, ARGS("/bin/find", c->pins));
	ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
	ASSERT_TRUE(ct_printed("xdpgeneric"), "eth0 has a generic XDP program");
	after = pings_counted(c, XDP_LOADER_PIN, S_XL_COUNT);

	status = tool_run(c, ARGS(XDP_LOADER, "status", "eth0"));
	cell_status(c, S_XL_STATUS, status);
	if (mode == M_GRANTED || mode == M_TOKEN) {
		xl_no_fd(status, "xdp-loader status fails", "status: no fd from the program's id");
	} else {
		ASSERT_OK(status, "xdp-loader status");
		ASSERT_TRUE(ct_printed("xdp_count"), "status: the program listed");
	}
	status = tool_run(c, ARGS(XDP_LOADER, "unload", "eth0", "--all"));
	if (mode == M_GRANTED || mode == M_TOKEN)
		xl_no_fd(status, "xdp-loader unload fails", "unload: no fd from the program's id");
	else
		ASSERT_OK(status, "xdp-loader unload");
	if (!status) {
		ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
		if (ct_printed("xdp"))
			status = -1;
		ASSERT_FALSE(ct_printed("xdp"), "unload: no XDP program on eth0");
	}
	if (status < 0)
		cell(c, S_XL_UNLOAD, "fails: still attached after it");
	cell_status(c, S_XL_UNLOAD, status);
	/* after unload, nothing to detach: ip says nothing either */
	ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off")),
		  "ip xdpgeneric off");
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	ASSERT_EQ(count_of(c, XDP_LOADER_PIN, IPPROTO_ICMP), after, "no longer counted");
	if (ext_rule || mode != M_GRANTED)
		return;
	/* why the dispatcher is refused, where root loads it */
	ASSERT_NEQ(ct_run(c, ARGS(c->bpftool, "prog", "load", DISPATCHER, "/sys/fs/bpf/dispatcher")),
		   0, "bpftool prog load of the dispatcher, in the container");
	ASSERT_TRUE(ct_printed("R1 pointer comparison prohibited"), "the verifier's reason");
	ASSERT_OK(ct_run(NULL, ARGS(BPFTOOL, "prog", "load", DISPATCHER,
				    "/sys/fs/bpf/container_tools_dispatcher")),
		  "bpftool prog load of the dispatcher, as root");
	unlink("/sys/fs/bpf/container_tools_dispatcher");
}

/* A rule that names ext: the dispatcher still cannot be used */
static void test_xdp_loader_ext(void)
{
	ASSERT_EQ(tool("add", granted_ct.cg, "--prog-types", "socket_filter,xdp,ext",
		       "--unbounded-memory"),
		  hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add, naming ext");
	test_xdp_loader(&granted_ct, true);
	/* back to the default rule */
	ASSERT_EQ(tool("add", granted_ct.cg, "--unbounded-memory"),
		  hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add");
}

/*
 * What bpftool prog show sees. Its own program, pinned, a container sees
 * (BPF_OBJ_GET, then BPF_OBJ_GET_INFO_BY_FD: a file it can read). The
 * host's list it does not: bpf_obj_get_next_id() wants CAP_SYS_ADMIN of
 * the initial user namespace, which neither a grant nor a token gives
 * (nor v6.9 with a token), so bpftool stops at BPF_PROG_GET_NEXT_ID.
 */
static void test_bpftool_show(const struct container *c)
{
	int status;

	status = tool_run(c, ARGS(c->bpftool, "prog", "show", "pinned", "/sys/fs/bpf/xdp_count"));
	if (mode_of(c) == M_REFUSED) {
		cell(c, S_BT_PROG_SHOW_PINNED, "not run: no program");
	} else {
		/* libbpf 1.5 probes for program names with an attr that ends
		 * before prog_token_fd: refused without the token, it loads
		 * the program nameless
		 */
		if (!status && mode_of(c) == M_TOKEN && !ct_printed("name xdp_count"))
			cell(c, S_BT_PROG_SHOW_PINNED, "works: shown without its name");
		if (!status && !ct_printed(" xdp  tag ") && !ct_printed("name xdp_count"))
			cell(c, S_BT_PROG_SHOW_PINNED, "fails: no program shown");
		cell_status(c, S_BT_PROG_SHOW_PINNED, status);
		ASSERT_OK(status, "bpftool prog show pinned");
		if (mode_of(c) == M_TOKEN)
			ASSERT_TRUE(ct_printed(" xdp  tag ") || ct_printed("name xdp_count"),
				    "its program shown");
		else
			ASSERT_TRUE(ct_printed("name xdp_count"), "its program shown, by name");
	}
	status = tool_run(c, ARGS(c->bpftool, "prog", "show"));
	cell_status(c, S_BT_PROG_SHOW, status);
	if (mode_of(c) == M_ROOT) {
		ASSERT_OK(status, "bpftool prog show, as root");
		ASSERT_TRUE(ct_printed("name xdp_count"), "the container's program among them");
		return;
	}
	ASSERT_NEQ(status, 0, "bpftool prog show, in a container");
	ASSERT_STREQ(failed_call, "EPERM at BPF_PROG_GET_NEXT_ID", "refused the list of programs");
	ASSERT_TRUE(ct_printed("can't get next program: Operation not permitted"),
		    "bpftool: the list refused");
}

/* bpftool map create, update, prog load (pinned) and prog run */
static void test_bpftool(struct container *c)
{
	const char *const create[] = {
		c->bpftool, "map", "create", "/sys/fs/bpf/counts", "type", "hash",
		"key", "4", "value", "8", "entries", "16", "name", "counts", NULL,
	};
	const char *const load[] = {
		c->bpftool, "prog", "load", XDP_COUNT_O, "/sys/fs/bpf/xdp_count", NULL,
	};
	bool refuse = mode_of(c) == M_REFUSED, token = mode_of(c) == M_TOKEN;
	long long before, after, value;
	int status;

	status = tool_run(c, create);
	cell_status(c, S_BT_MAP_CREATE, status);
	if (refuse)
		refused_check(status, "Operation not permitted", "bpftool map create");
	/* bpftool calls bpf_map_create() itself, and passes it no token */
	if (token) {
		ASSERT_NEQ(status, 0, "bpftool map create fails");
		ASSERT_TRUE(ct_printed("map create failed: Operation not permitted"),
			    "bpftool: map create refused");
	}
	if (refuse || token || !ASSERT_OK(status, "bpftool map create")) {
		/* nothing to work on */
		cell(c, S_BT_MAP_UPDATE, "not run: no map");
	} else {
		status = tool_run(c, ARGS(c->bpftool, "map", "update", "pinned", "/sys/fs/bpf/counts",
					  "key", "1", "0", "0", "0",
					  "value", "42", "0", "0", "0", "0", "0", "0", "0"));
		ASSERT_OK(status, "bpftool map update");
		value = count_of(c, "/sys/fs/bpf/counts", 1);
		if (!status && value != 42)
			cell(c, S_BT_MAP_UPDATE, "fails: %lld read back", value);
		cell_status(c, S_BT_MAP_UPDATE, status);
		ASSERT_EQ(value, 42, "the value written");
	}
	status = tool_run(c, load);
	cell_status(c, S_BT_PROG_LOAD, status);
	if (refuse)
		refused_check(status, "Operation not permitted", "bpftool prog load");
	if (refuse || !ASSERT_OK(status, "bpftool prog load")) {
		cell(c, S_BT_PROG_RUN, "not run: no program");
		test_bpftool_show(c);
		return;
	}
	before = count_of(c, LIBBPF_PIN, IPPROTO_ICMP);
	status = tool_run(c, ARGS(c->bpftool, "-j", "prog", "run", "pinned", "/sys/fs/bpf/xdp_count",
				  "data_in", PKT_FILE, "repeat", "1"));
	ASSERT_OK(status, "bpftool prog run");
	if (!status && !ct_printed("\"retval\":2"))
		cell(c, S_BT_PROG_RUN, "fails: not XDP_PASS");
	ASSERT_TRUE(ct_printed("\"retval\":2"), "XDP_PASS");
	after = count_of(c, LIBBPF_PIN, IPPROTO_ICMP);
	printf("ICMP count: %lld before, %lld after the test run\n", before, after);
	if (!status && (before < 0 || after - before != 1))
		cell(c, S_BT_PROG_RUN, "fails: %lld counted", before < 0 ? -1 : after - before);
	cell_status(c, S_BT_PROG_RUN, status);
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, 1, "the test packet counted");
	test_bpftool_show(c);
}

/* The whole script in @c, as one subtest */
static void run_script(struct container *c)
{
	recording = true;
	test_ip_xdp(c);
	test_tc(c);
	test_xdp_loader(c, false);
	test_bpftool(c);
	recording = false;
}

/* The script in @c, as one subtest; if @c could not be made here, each
 * of its cells says why, and the subtest skips
 */
static void run_column(struct container *c)
{
	int s;

	if (c->skip) {
		for (s = 0; s < NR_STEPS; s++)
			snprintf(cells[c->col][s], CELL_LEN, "not run: %s", c->skip);
		printf("SKIP: not run: %s\n", c->skip);
		test__skip();
		return;
	}
	run_script(c);
}

/* A JSON string of @s on stdout */
static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	putchar('"');
}

/* The parity records: the kernel, then each step's cells (file comment) */
static void print_parity(void)
{
	struct utsname u;
	int s, i;

	uname(&u);
	printf("parity {\"run\": {\"kernel\": ");
	json_str(u.release);
	printf(", \"grant_hooks\": %s}}\n", hooks ? "true" : "false");
	for (s = 0; s < NR_STEPS; s++) {
		printf("parity {\"step\": ");
		json_str(steps[s].id);
		printf(", \"cmd\": ");
		json_str(steps[s].cmd);
		for (i = 0; i < NR_COLS; i++) {
			printf(", \"%s\": ", col_names[i]);
			json_str(cells[i][s]);
		}
		printf("}\n");
	}
}

/* The second container, no rule: each step refused */
static void test_no_rule(void)
{
	run_script(&norule_ct);
}

/*
 * bpf-grant remove: a new load is refused, while what was attached stays
 * attached: the grant covered loads, and a program, once loaded and
 * attached, is the kernel's object. The container detaches it itself
 * (netlink: CAP_NET_ADMIN over its own network namespace), or goes.
 */
static void test_remove(struct container *c)
{
	static const char *const attach[] = {
		IP, "link", "set", "dev", "eth0", "xdpgeneric", "obj", XDP_COUNT_O,
		"sec", "xdp", NULL,
	};
	static const char *const drop[] = {
		TC, "filter", "add", "dev", "eth0", "ingress", "bpf", "da",
		"obj", TC_DROP_O, "sec", "tc", NULL,
	};
	long long before, after;

	if (!hooks) {
		refused(c, attach, "Operation not permitted", "ip xdpgeneric obj");
		return;
	}
	if (!ASSERT_OK(ct_run(c, attach), "ip xdpgeneric obj"))
		return;
	before = count_of(c, IP_PIN, IPPROTO_ICMP);
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	ASSERT_EQ(count_of(c, IP_PIN, IPPROTO_ICMP) - before, PINGS, "counted");
	ASSERT_EQ(tool("remove", c->cg), GRANT_EXIT_OK, "bpf-grant remove");
	if (ASSERT_OK(ct_run(c, ARGS(TC, "qdisc", "add", "dev", "eth0", "clsact")),
		      "tc qdisc add clsact")) {
		refused(c, drop, "Operation not permitted", "tc filter add bpf, rule removed");
		ct_run(c, ARGS(TC, "qdisc", "del", "dev", "eth0", "clsact"));
	}
	before = count_of(c, IP_PIN, IPPROTO_ICMP);
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	after = count_of(c, IP_PIN, IPPROTO_ICMP);
	printf("ICMP count after remove: %lld before, %lld after %d pings\n",
	       before, after, PINGS);
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, PINGS, "still attached, still counting");
	ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off")),
		  "the container detaches it");
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	ASSERT_EQ(count_of(c, IP_PIN, IPPROTO_ICMP), after, "no longer counted");
}

/* A subtest that needs the containers fails without them: no silent skip */
static bool need_up(void)
{
	return ASSERT_TRUE(up, "the containers run (subtest container)");
}

void test_container_tools(void)
{
	/* the containers' /run is mounted on the guest's, which the
	 * initramfs may not have yet (bpf-grant makes it)
	 */
	bool made_run = !mkdir("/run", 0755);
	int i;

	hooks = have_grant_hooks();
	/* the containers' inits, orphaned by their runtime child, are ours */
	if (!ASSERT_OK(prctl(PR_SET_CHILD_SUBREAPER, 1), "subreaper"))
		return;
	/* made in the subtest that checks them, or without it if it is not
	 * selected (ci.test=container_tools/SUBTEST)
	 */
	if (test__start_subtest("container"))
		up = setup(true);
	else
		up = setup(false);
	/* the script as root, where every step works, on either kernel */
	if (test__start_subtest("root") && need_up())
		run_script(&root_ct);
	recording = true;
	if (test__start_subtest("ip_xdp") && need_up())
		test_ip_xdp(&granted_ct);
	if (test__start_subtest("tc_clsact") && need_up())
		test_tc(&granted_ct);
	if (test__start_subtest("xdp_loader") && need_up())
		test_xdp_loader(&granted_ct, false);
	recording = false;
	if (test__start_subtest("xdp_loader_ext_rule") && need_up())
		test_xdp_loader_ext();
	recording = true;
	if (test__start_subtest("bpftool") && need_up())
		test_bpftool(&granted_ct);
	recording = false;
	if (test__start_subtest("no_rule") && need_up())
		test_no_rule();
	if (test__start_subtest("remove") && need_up())
		test_remove(&granted_ct);
	/* Debian 13's tools, under a rule, without, with a token; Debian
	 * 12's with a token
	 */
	if (test__start_subtest("rule_d13") && need_up())
		run_column(&granted13_ct);
	if (test__start_subtest("no_rule_d13") && need_up())
		run_column(&norule13_ct);
	if (test__start_subtest("token_d13") && need_up())
		run_column(&token13_ct);
	if (test__start_subtest("token_d12") && need_up())
		run_column(&token12_ct);
	/* what each step did, where: for tools/measure/parity-table.sh */
	if (test__start_subtest("parity"))
		print_parity();
	/* everything back as it was, whatever failed */
	if (hooks && access("/sys/fs/bpf/bpf-grant", F_OK) == 0) {
		tool("remove", granted_ct.cg);
		if (!granted13_ct.skip)
			tool("remove", granted13_ct.cg);
	}
	for (i = 0; i < ARRAY_SIZE(all_ct); i++)
		ct_destroy(all_ct[i]);
	unlink(PKT_FILE);
	unlink(DEBIAN13 PKT_FILE);
	unlink(STRACE_OUT);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	if (made_run)
		rmdir("/run");
}
