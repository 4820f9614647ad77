// SPDX-License-Identifier: GPL-2.0
/*
 * The container case: a rootless container, made as container runtimes
 * make one, runs Debian's own BPF tools, unmodified (ip and tc of
 * iproute2, xdp-loader of xdp-tools, bpftool), on its eth0 under the
 * default rule of bpf-grant; each step is checked by what it does to
 * pings between the host end of a veth pair and the container.
 *
 * A container: a cgroup delegated to its root uid (directory, cgroup.procs,
 * cgroup.subtree_control and cgroup.threads chowned, as systemd and runc
 * delegate one); a user namespace whose 0-65535 are UID..UID+65535
 * outside, with network, mount, PID and cgroup namespaces of its own; a
 * veth pair, 10.N.0.1/24 on the host and eth0, 10.N.0.2/24, which the
 * container sets up itself with ip. Commands run in it as "runc exec"
 * runs them: joining its cgroup and namespaces as its uid 0.
 *
 * Pins: the BPF file system cannot be mounted in a user namespace on 6.1
 * (bpffs has no FS_USERNS_MOUNT before the BPF token of v6.9), so the
 * runtime makes /sys/fs/bpf/NAME, owned by the container's root, and the
 * container's init bind-mounts it onto /sys/fs/bpf in its own mount
 * namespace: the tools find a BPF file system where they look, and pin
 * into a directory that is the container's alone.
 *
 * A second container, whose cgroup has no rule, runs the same steps:
 * each tool fails, strace shows that its first privileged bpf() call (map
 * create, BTF or program load) got EPERM, and its own message is in the
 * log. On the stock kernel (make ci-base) bpf-grant has no hook to add a
 * rule to, and the first container is refused the same way.
 */
#include <test_progs.h>
#include <ctype.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "grant_helpers.h"
#include "grant_policy.h"

#define IP		"/usr/sbin/ip"
#define TC		"/usr/sbin/tc"
#define XDP_LOADER	"/usr/sbin/xdp-loader"
#define BPFTOOL		"/bin/bpftool"
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
#define PINGS		5
#define RUN_TIMEOUT	60

struct container {
	const char *name;	/* of its cgroup, pin directory, host veth */
	unsigned int uid;	/* its root, outside */
	int net;		/* 10.net.0.0/24 */
	char cg[64];		/* /sys/fs/cgroup/NAME, delegated to uid */
	char pins[64];		/* /sys/fs/bpf/NAME, its /sys/fs/bpf */
	char addr[16];		/* eth0's, 10.net.0.2 */
	pid_t init;		/* its PID 1, in the initial PID namespace */
};

static struct container granted_ct = { "ct_granted", 100000, 21 };
static struct container norule_ct = { "ct_norule", 200000, 22 };
static bool hooks;		/* the series' kernel, not the stock one */
static bool up;			/* both containers run */

/* What the last command printed, stdout and stderr */
static char ct_out[32768];

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Join @c's cgroup and namespaces, and become its uid 0, as runc exec
 * does: 0 or -errno
 */
static int ct_enter(const struct container *c)
{
	static const char *const ns[] = { "user", "cgroup", "net", "mnt", "pid" };
	int fds[ARRAY_SIZE(ns)], i, err;
	char path[96];

	snprintf(path, sizeof(path), "%s/cgroup.procs", c->cg);
	err = write_file(path, "0");
	/* opened while this process is still root of the initial namespaces */
	for (i = 0; !err && i < ARRAY_SIZE(ns); i++) {
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", c->init, ns[i]);
		fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			err = -errno;
	}
	for (i = 0; !err && i < ARRAY_SIZE(ns); i++)
		if (setns(fds[i], 0))
			err = -errno;
	if (!err && (setresgid(0, 0, 0) || setgroups(0, NULL) || setresuid(0, 0, 0)))
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

	if (pipe(fds))
		return -1000;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
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
	close(fds[1]);
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

	/* nothing propagates back; the container's pin directory is its
	 * /sys/fs/bpf (bpffs itself cannot be mounted here); its /proc
	 * shows its PID namespace; its /run is its own (xdp-loader locks
	 * /run/xdp-loader.lck)
	 */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount(c->pins, "/sys/fs/bpf", NULL, MS_BIND, NULL) ||
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

/* Start @c's init: a child that moves itself into the cgroup, makes a user
 * namespace (root here writes its maps), becomes uid 0 there and makes
 * the other namespaces; its own child is the container's PID 1, which this
 * process, a subreaper, inherits. 0 or -errno.
 */
static int ct_start(struct container *c)
{
	int to_child[2], from_child[2], err = -EIO;
	char path[64], map[32], procs[96];
	pid_t pid;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", c->cg);
	if (pipe(to_child) || pipe(from_child))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(to_child[1]);
		close(from_child[0]);
		if (write_file(procs, "0") || unshare(CLONE_NEWUSER))
			_exit(1);
		/* say so, and wait for root to write its maps */
		if (write(from_child[1], "", 1) != 1 || read(to_child[0], map, 1) != 1)
			_exit(1);
		if (setresgid(0, 0, 0) || setgroups(0, NULL) || setresuid(0, 0, 0) ||
		    unshare(CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWCGROUP))
			_exit(1);
		pid = fork();
		if (pid == 0)
			ct_init(c, from_child[1]);
		_exit(pid < 0);
	}
	close(to_child[0]);
	close(from_child[1]);
	if (pid < 0 || read(from_child[0], map, 1) != 1)
		goto out;
	snprintf(map, sizeof(map), "0 %u 65536", c->uid);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	err = write_file(path, map);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	err = err ?: write_file(path, map);
	if (!err && write(to_child[1], "", 1) != 1)
		err = -EIO;
	/* the init's word: it is set up, or why not */
	if (!err && read(from_child[0], &err, sizeof(err)) != sizeof(err))
		err = -EIO;
out:
	close(to_child[1]);
	close(from_child[0]);
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

	if (ct_run(c, ARGS(BPFTOOL, "-j", "map", "dump", "pinned", pin)))
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

/* The first bpf() call in STRACE_OUT that needs a privilege: map create,
 * BTF load or program load (the caller frees it). NULL if there is none.
 */
static char *first_privileged_call(void)
{
	FILE *f = fopen(STRACE_OUT, "r");
	char *line = NULL;
	size_t size = 0;

	while (f && getline(&line, &size, f) > 0)
		if (strstr(line, "bpf(BPF_MAP_CREATE") || strstr(line, "bpf(BPF_BTF_LOAD") ||
		    strstr(line, "bpf(BPF_PROG_LOAD"))
			break;
	if (f && feof(f)) {
		free(line);
		line = NULL;
	}
	if (f)
		fclose(f);
	return line;
}

/* Run @argv in @c under strace and assert a refusal: the tool fails, its
 * first privileged bpf() call got EPERM, and it says so in its own words
 * (@says, printed with the rest of its output)
 */
static void refused(const struct container *c, const char *const *argv,
		    const char *says, const char *name)
{
	const char *traced[24] = {
		STRACE, "-f", "-qq", "-e", "trace=bpf", "-o", STRACE_OUT,
	};
	char what[128], *call;
	int i, status;

	for (i = 0; argv[i] && i < ARRAY_SIZE(traced) - 8; i++)
		traced[7 + i] = argv[i];
	unlink(STRACE_OUT);
	status = ct_run(c, traced);
	snprintf(what, sizeof(what), "%s: refused", name);
	/* 126 and up: it did not run, or was killed; ip exits 255 */
	ASSERT_TRUE((status > 0 && status < 126) || status == 255, what);
	snprintf(what, sizeof(what), "%s: the tool says '%s'", name, says);
	ASSERT_TRUE(ct_printed(says), what);
	call = first_privileged_call();
	printf("first privileged call: %s%s", call ?: "none\n",
	       call && !strchr(call, '\n') ? "\n" : "");
	snprintf(what, sizeof(what), "%s: EPERM at the first privileged call", name);
	ASSERT_TRUE(call && strstr(call, "= -1 EPERM"), what);
	free(call);
	unlink(STRACE_OUT);
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

/* An ICMP echo request, as bpftool prog run's data_in */
static int write_packet(void)
{
	static const unsigned char pkt[42] = {
		[12] = 0x08, [13] = 0x00,			/* ETH_P_IP */
		[14] = 0x45, [17] = 28, [22] = 64, [23] = 1,	/* IPPROTO_ICMP */
		[26] = 10, [27] = 21, [29] = 1, [30] = 10, [31] = 21, [33] = 2,
		[34] = 8,					/* echo request */
	};
	FILE *f = fopen(PKT_FILE, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fwrite(pkt, sizeof(pkt), 1, f) != 1)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err ?: chmod(PKT_FILE, 0644) ? -errno : 0;
}

/* Both containers, and the first one's rule: whether they run */
static bool setup(bool check)
{
	if (!ct_create(&granted_ct) || !ct_create(&norule_ct))
		return false;
	if (check) {
		/* nothing in it has a capability of the initial user namespace */
		ASSERT_EQ(ct_call(&granted_ct, cpumap_create), -EPERM, "cpumap (CAP_BPF)");
		ASSERT_EQ(ct_call(&granted_ct, mount_bpffs), -EPERM,
			  "mount bpffs (CAP_SYS_ADMIN, no FS_USERNS_MOUNT)");
	}
	if (check && hooks) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "bpf-grant list");
		ASSERT_FALSE(printed(granted_ct.cg), "no rule before add");
	}
	ASSERT_EQ(tool("add", granted_ct.cg), hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS,
		  "bpf-grant add");
	if (hooks) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "bpf-grant list");
		ASSERT_TRUE(printed(granted_ct.cg), "the rule is listed");
		ASSERT_FALSE(printed(norule_ct.cg), "none for the second container");
	}
	return ASSERT_OK(write_packet(), "write " PKT_FILE);
}

/* ip link set dev eth0 xdpgeneric obj: xdp_count counts the pings */
static void test_ip_xdp(struct container *c, bool granted)
{
	static const char *const attach[] = {
		IP, "link", "set", "dev", "eth0", "xdpgeneric", "obj", XDP_COUNT_O,
		"sec", "xdp", NULL,
	};
	long long before, after;

	if (!granted) {
		refused(c, attach, "Operation not permitted", "ip xdpgeneric obj");
		ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
		ASSERT_FALSE(ct_printed("xdp"), "no XDP program on eth0");
		ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
		return;
	}
	if (!ASSERT_OK(ct_run(c, attach), "ip xdpgeneric obj"))
		return;
	ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
	ASSERT_TRUE(ct_printed("xdpgeneric"), "eth0 has a generic XDP program");
	/* what the tools pinned, seen from outside */
	ct_run(NULL, ARGS("/bin/find", c->pins));
	before = count_of(c, IP_PIN, IPPROTO_ICMP);
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	after = count_of(c, IP_PIN, IPPROTO_ICMP);
	printf("ICMP count: %lld before, %lld after %d pings\n", before, after, PINGS);
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, PINGS, "every echo request counted");
	ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off")),
		  "ip xdpgeneric off");
}

/* tc filter add ... bpf da obj: tc_drop_icmp drops the pings until deleted */
static void test_tc(struct container *c, bool granted)
{
	static const char *const attach[] = {
		TC, "filter", "add", "dev", "eth0", "ingress", "bpf", "da",
		"obj", TC_DROP_O, "sec", "tc", NULL,
	};

	if (!ASSERT_OK(ct_run(c, ARGS(TC, "qdisc", "add", "dev", "eth0", "clsact")),
		       "tc qdisc add clsact"))
		return;
	if (!granted) {
		refused(c, attach, "Operation not permitted", "tc filter add bpf");
		ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	} else if (ASSERT_OK(ct_run(c, attach), "tc filter add bpf")) {
		ct_run(c, ARGS(TC, "filter", "show", "dev", "eth0", "ingress"));
		ASSERT_TRUE(ct_printed("tc_drop_icmp"), "the filter is listed");
		ASSERT_EQ(ping_ct(c, PINGS), 0, "pings dropped");
		ASSERT_OK(ct_run(c, ARGS(TC, "filter", "del", "dev", "eth0", "ingress")),
			  "tc filter del");
		ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through again");
	}
	ASSERT_OK(ct_run(c, ARGS(TC, "qdisc", "del", "dev", "eth0", "clsact")),
		  "tc qdisc del clsact");
}

/*
 * xdp-loader load -m skb: libxdp first loads its multi-program dispatcher,
 * an XDP program into which it would link each program as an extension
 * (BPF_PROG_TYPE_EXT, freplace). Under a grant the verifier refuses the
 * dispatcher itself: its stubs test "if (!ctx)", a pointer comparison
 * allowed only with CAP_PERFMON, which a grant of 1 does not give (root
 * loads it). libxdp 1.3.1 takes any failure there as a kernel without
 * dispatcher support and loads the program alone, as a plain XDP program
 * attached through netlink: that works under the default rule. xdp-loader status and unload
 * do not: they look the attached program up by id, and
 * BPF_PROG_GET_FD_BY_ID takes CAP_SYS_ADMIN in the initial namespace. The
 * container detaches it with ip. A rule that names ext (@ext_rule) changes
 * nothing: the dispatcher is refused before any extension is loaded, and
 * attaching an extension loaded under a grant would take CAP_BPF and
 * CAP_PERFMON of the attacher (patch 18).
 */
#define DISPATCHER	"/usr/lib/x86_64-linux-gnu/bpf/xdp-dispatcher.o"

static void test_xdp_loader(struct container *c, bool granted, bool ext_rule)
{
	static const char *const load[] = {
		XDP_LOADER, "load", "-v", "-m", "skb", "-p", XDP_LOADER_DIR, "eth0",
		XDP_COUNT_O, NULL,
	};
	long long before, after;

	if (!granted) {
		refused(c, load, "Operation not permitted", "xdp-loader load");
		ASSERT_OK(ct_run(c, ARGS(XDP_LOADER, "status", "eth0")), "xdp-loader status");
		ASSERT_TRUE(ct_printed("No XDP program loaded"), "nothing loaded");
		return;
	}
	if (!ASSERT_OK(ct_run(c, load), "xdp-loader load"))
		return;
	ASSERT_TRUE(ct_printed("libxdp: Failed to load dispatcher: Permission denied"),
		    "the dispatcher is refused");
	ASSERT_TRUE(ct_printed("libxdp: Falling back to loading single prog without dispatcher"),
		    "libxdp falls back to the program alone");
	ct_run(NULL, ARGS("/bin/find", c->pins));
	ct_run(c, ARGS(IP, "link", "show", "dev", "eth0"));
	ASSERT_TRUE(ct_printed("xdpgeneric"), "eth0 has a generic XDP program");
	before = count_of(c, XDP_LOADER_PIN, IPPROTO_ICMP);
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	after = count_of(c, XDP_LOADER_PIN, IPPROTO_ICMP);
	printf("ICMP count: %lld before, %lld after %d pings\n", before, after, PINGS);
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, PINGS, "every echo request counted");
	ASSERT_NEQ(ct_run(c, ARGS(XDP_LOADER, "status", "eth0")), 0, "xdp-loader status fails");
	ASSERT_TRUE(ct_printed("couldn't get program fd: Operation not permitted"),
		    "status: no fd from the program's id");
	ASSERT_NEQ(ct_run(c, ARGS(XDP_LOADER, "unload", "eth0", "--all")), 0,
		   "xdp-loader unload fails");
	ASSERT_TRUE(ct_printed("couldn't get program fd: Operation not permitted"),
		    "unload: no fd from the program's id");
	ASSERT_OK(ct_run(c, ARGS(IP, "link", "set", "dev", "eth0", "xdpgeneric", "off")),
		  "ip xdpgeneric off");
	ASSERT_EQ(ping_ct(c, PINGS), PINGS, "pings go through");
	ASSERT_EQ(count_of(c, XDP_LOADER_PIN, IPPROTO_ICMP), after, "no longer counted");
	if (ext_rule)
		return;
	/* why the dispatcher is refused, where root loads it */
	ASSERT_NEQ(ct_run(c, ARGS(BPFTOOL, "prog", "load", DISPATCHER, "/sys/fs/bpf/dispatcher")),
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
	ASSERT_EQ(tool("add", granted_ct.cg, "--prog-types", "socket_filter,xdp,ext"),
		  hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add, naming ext");
	test_xdp_loader(&granted_ct, hooks, true);
	/* back to the default rule */
	ASSERT_EQ(tool("add", granted_ct.cg), hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS,
		  "bpf-grant add");
}

/* bpftool map create, update, prog load (pinned) and prog run */
static void test_bpftool(struct container *c, bool granted)
{
	static const char *const create[] = {
		BPFTOOL, "map", "create", "/sys/fs/bpf/counts", "type", "hash",
		"key", "4", "value", "8", "entries", "16", "name", "counts", NULL,
	};
	static const char *const load[] = {
		BPFTOOL, "prog", "load", XDP_COUNT_O, "/sys/fs/bpf/xdp_count", NULL,
	};
	long long before, after;

	if (!granted) {
		refused(c, create, "Operation not permitted", "bpftool map create");
		refused(c, load, "Operation not permitted", "bpftool prog load");
		/* map update and prog run have nothing to work on */
		return;
	}
	if (ASSERT_OK(ct_run(c, create), "bpftool map create")) {
		ASSERT_OK(ct_run(c, ARGS(BPFTOOL, "map", "update", "pinned", "/sys/fs/bpf/counts",
					 "key", "1", "0", "0", "0",
					 "value", "42", "0", "0", "0", "0", "0", "0", "0")),
			  "bpftool map update");
		ASSERT_EQ(count_of(c, "/sys/fs/bpf/counts", 1), 42, "the value written");
	}
	if (!ASSERT_OK(ct_run(c, load), "bpftool prog load"))
		return;
	before = count_of(c, LIBBPF_PIN, IPPROTO_ICMP);
	ASSERT_OK(ct_run(c, ARGS(BPFTOOL, "-j", "prog", "run", "pinned", "/sys/fs/bpf/xdp_count",
				 "data_in", PKT_FILE, "repeat", "1")),
		  "bpftool prog run");
	ASSERT_TRUE(ct_printed("\"retval\":2"), "XDP_PASS");
	after = count_of(c, LIBBPF_PIN, IPPROTO_ICMP);
	printf("ICMP count: %lld before, %lld after the test run\n", before, after);
	ASSERT_GE(before, 0, "count read before");
	ASSERT_EQ(after - before, 1, "the test packet counted");
}

/* The second container, no rule: each step refused */
static void test_no_rule(void)
{
	test_ip_xdp(&norule_ct, false);
	test_tc(&norule_ct, false);
	test_xdp_loader(&norule_ct, false, false);
	test_bpftool(&norule_ct, false);
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
	if (test__start_subtest("ip_xdp") && need_up())
		test_ip_xdp(&granted_ct, hooks);
	if (test__start_subtest("tc_clsact") && need_up())
		test_tc(&granted_ct, hooks);
	if (test__start_subtest("xdp_loader") && need_up())
		test_xdp_loader(&granted_ct, hooks, false);
	if (test__start_subtest("xdp_loader_ext_rule") && need_up())
		test_xdp_loader_ext();
	if (test__start_subtest("bpftool") && need_up())
		test_bpftool(&granted_ct, hooks);
	if (test__start_subtest("no_rule") && need_up())
		test_no_rule();
	if (test__start_subtest("remove") && need_up())
		test_remove(&granted_ct);
	/* everything back as it was, whatever failed */
	if (hooks && access("/sys/fs/bpf/bpf-grant", F_OK) == 0)
		tool("remove", granted_ct.cg);
	ct_destroy(&granted_ct);
	ct_destroy(&norule_ct);
	unlink(PKT_FILE);
	unlink(STRACE_OUT);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	if (made_run)
		rmdir("/run");
}
