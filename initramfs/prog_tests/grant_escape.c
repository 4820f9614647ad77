// SPDX-License-Identifier: GPL-2.0
/*
 * Attacks on a grant: a process with no capability, in a cgroup that
 * bpf-grant granted, reaches for what the capability checks the grant
 * skips were protecting. Each subtest runs the attack to its end and
 * asserts where the kernel stopped it. On the stock kernel (make ci-base)
 * the same process is refused at its first step, map creation. An
 * attacker that pins does so in a directory of its own, PIN_DIR, which
 * root makes and hands to it and which it sees as its /sys/fs/bpf, bound
 * there in a mount namespace of its own, as a container runtime gives a
 * grantee one: /sys/fs/bpf itself is root's, 0700 (the init mounts it so).
 *
 * devmap_other_netns, devmap_hash_other_netns: a device map entry names
 * a device by ifindex, looked up in the updater's network namespace. The
 * attacker, still in the initial namespace, points entry 0 of a granted
 * device map at the initial namespace's lo, then makes a user and network
 * namespace of its own, attaches (netlink allows it there) an XDP program
 * that redirects everything to entry 0 to its own lo, and sends UDP from
 * 127.0.0.1:53: without CAP_NET_ADMIN over the initial namespace it must
 * not reach a listener there. Naming its own namespace's lo must work.
 *
 * btf_memcg_bound, map_memcg_bound: a map keeps the BTF it was created
 * with alive, and a pinned map outlives its fds. The attacker loads BTF
 * of nearly 1 MiB (the default --max-btf-bytes), creates a map with it,
 * pins the map and closes both fds, over and over; or pins maps of 1 MiB.
 * The memory cgroup of its granted cgroup (memory.max, 16 MiB) must stop
 * it well before MEMCG_ROUNDS, with ENOMEM or its OOM killer (ci/splats
 * allows the OOM reports of the attacker, named ATTACKER), and once root
 * removes the pins, nothing may stay charged.
 *
 * perf_event_array_charged: an entry of a perf_event_array keeps its
 * perf event (a struct perf_event, charged to no one on stock) after the
 * event's fd is closed, and with BPF_F_PRESERVE_ELEMS after the map's.
 * The attacker fills a pinned map of 32768 entries with events of its
 * own under the same memory.max: the events held must be charged to its
 * cgroup and stop it there.
 *
 * sockmap_links_charged: the same for the link each entry of a socket
 * map keeps, sockets in every entry of a sockmap; sockmap_links_objcg:
 * charged to the map's cgroup, whichever cgroup the updater is in.
 * sockmap_close_bounded:
 * one socket goes into at most SOCK_LINKS entries of granted maps.
 *
 * perf_event_array_one_event: the same with one event in every entry.
 * Each entry still costs a charge, but no new event's file is charged
 * beside it, so only the entries' own charge can stop the attacker: a
 * charge that may go past memory.max (GFP_ATOMIC) would let it fill the
 * map with memory.current far above memory.max.
 *
 * devmap_prog_entry: a devmap entry runs its program on every frame
 * redirected to it. The attacker pins a granted devmap whose entry holds
 * its granted program; root's XDP program that redirects through it must
 * not load.
 *
 * cpumap_threads_bound: each entry of a cpumap is a kernel thread and a
 * ring. With cpumap named in its rule and RLIMIT_NPROC at CPUMAP_NPROC,
 * the attacker pins cpumaps of one entry each, CPUMAP_ROUNDS of them if
 * it can: the entries' threads count as its own tasks, so it must get
 * EAGAIN before it has CPUMAP_NPROC of them, as from fork; their rings
 * must be charged to its memory cgroup's "kernel" memory; once root
 * removes the pins, no thread may be left, and a second attacker must
 * pin as many as the first (the count went back).
 *
 * sockmap_verdict_attach: with sockmap and sk_skb named in its rule, the
 * attacker creates a sockmap and loads a stream verdict program, but may
 * not attach the program to the map (it would redirect between sockets
 * of any network namespace): the attach takes the capabilities that the
 * load would have needed. netns_attach: the same for a granted flow
 * dissector and sk_lookup program (default rule), which would run for a
 * whole network namespace: attached to the initial one or to the
 * attacker's own, with BPF_PROG_ATTACH or BPF_LINK_CREATE, each is
 * refused. perf_event_set_bpf: and for a granted perf_event program set
 * on a perf event of the attacker's own, with no bpf() command
 * (PERF_EVENT_IOC_SET_BPF). tracing_attach: a granted raw tracepoint
 * program (BPF_RAW_TRACEPOINT_OPEN) and a perf_event program
 * (BPF_LINK_CREATE on a perf event of its own), each of which would run
 * in every task's context, are not attached by their loader either; nor
 * an fentry program (on bpf_fentry_test1) or an LSM program (on
 * file_open), by either command, which root's own of the same kinds are.
 * ext_attach: nor an extension (freplace) of a function of root's XDP
 * program, whose fd the attacker holds.
 * struct_ops_register: nor struct_ops programs, registered as a TCP
 * congestion control through a struct_ops map of root's whose fd the
 * attacker holds; root registers the same programs.
 * xsk_socket: with xskmap named, the map is
 * granted, but the AF_XDP sockets that are its entries still take
 * CAP_NET_RAW over their network namespace.
 *
 * verifier_memcg_bound: a load announces 256 MiB of line info, which
 * the verifier allocates before it reads a record; under memory.max the
 * load must fail for want of memory, charged to the attacker's cgroup.
 *
 * jit_memcg_bound: bpf_jit_limit is one budget for the whole host, and
 * binds every loader without CAP_BPF. The attacker loads programs whose
 * JIT images, uncharged, would pass it (lowered for the test): charged
 * to its cgroup, memory.max stops it first, and a second grantee, in
 * another cgroup, still gets its program JITed. memcg_every_prog_type:
 * memory.max bounds the programs of every type of the kernel's enum, each
 * charged its pages and its image (more where the function is).
 *
 * cpu_time: what ran past the attacker's end, refused at the load under
 * the default rule: bpf_loop() (nested, it held a CPU 40 s after SIGKILL;
 * timers are refused with it), 200k no-op jumps (the verifier's no-op
 * removal is quadratic and unkillable) and BPF_F_TEST_STATE_FREQ (a
 * verifier state per instruction). sk_lookup_reach: a socket lookup that
 * names a namespace by id is refused at the load, and a test run of a
 * cgroup_skb program that looks up sockets (the attack gave root's
 * sockets storage until their option memory was full) takes
 * CAP_NET_ADMIN over the caller's namespace.
 *
 * sk_storage_fill: that attack to its end. Root listens on 127.0.0.1;
 * the attacker loads a cgroup_skb program that looks the listener up and
 * gives it sk_storage until its option memory is full, pins the maps so
 * that the storage outlives it, and test-runs it; then, root in a user
 * and network namespace of its own, gives the initial namespace an id
 * there (RTM_NEWNSID) and loads the program looking up by that id; and
 * runs it where it is root. Root's SO_ATTACH_FILTER on the listener must
 * work after all that.
 *
 * The gates a grant does not stand in for stay: zero_seed, a hash map
 * with BPF_F_ZERO_SEED (CAP_SYS_ADMIN: a predictable hash is a local
 * DoS); skc_helpers, bpf_skc_to_tcp_sock() and its kind (CAP_PERFMON:
 * they read kernel socket memory), which a grant of 1 does not give.
 *
 * perf_event_array_capbpf_unchanged: root's perf_event_array, filled
 * with PEA_ROOT_ENTRIES events of its own, raises its cgroup's
 * memory.current by less than the events' size: charged as on stock.
 *
 * percpu_capbpf_unchanged: a creator with CAP_BPF is charged what stock
 * 6.1 and mainline charge it, no more: its percpu_array's values, about
 * PERCPU_BYTES a CPU, do not come into its cgroup's memory.current (the
 * grantee's do: memcg_every_map_type). The charge cost its creation 8%.
 *
 * memcg_whole_attack: every kind of object at once, in one cgroup under
 * memory.max = WHOLE_MAX, a rule that names every map type of
 * memcg_every_map_type and socket filters. Round after round, the
 * attacker pins one map of each type (of about 1 MiB, filled where its
 * memory comes with updates) and one program with a JIT image, until
 * each kind is refused, then makes a load that announces 256 MiB of line
 * info, and exits. What its pins hold after it, the kernel memory the
 * guest lost (MemAvailable), must stay within what the cgroup is charged
 * plus WHOLE_SLACK, and so within WHOLE_MAX + WHOLE_SLACK.
 *
 * pin_squat: root's ip and tc reuse a map pinned where they pin
 * (/sys/fs/bpf/tc/globals; xdp/ is a symlink to tc/) when it has the
 * shape their object declares, whoever pinned it. The attacker, with no
 * pin directory of its own, makes a granted map of the shape of
 * xdp_count's proto_count, then tries to make xdp/globals and tc/globals
 * and to pin it where ip would look: /sys/fs/bpf is root's, 0700, as
 * bpf-grant add wants it, so each step fails with EACCES. Root's ip link
 * set dev lo xdpgeneric obj xdp_count.o then pins a map of its own there,
 * owned by uid 0 and not the attacker's. The tool is tested, not a patch:
 * on the stock kernel the attacker's map is refused, the rest is the same.
 *
 * tc_squat: the same squat where the administrator let others make names
 * in /sys/fs/bpf (1777, bpf-grant add --shared-bpffs): the kernel's check
 * then stands alone. The attacker pins, at tc/globals/jmp_table, a granted
 * program array of the shape tc_tail.o declares, with its granted
 * classifier (which drops every packet) in it. Root's tc filter add ... bpf
 * da obj tc_tail.o reuses the pin, and its classifier may not tail-call a
 * granted program: the load fails, tc says so, and nothing is attached.
 * Pinned empty instead, the array is reused and root's classifier
 * attached; the attacker may not then put its classifier in it. Either
 * way, datagrams over lo reach root's socket.
 */
#include <test_progs.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/filter.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/perf_event.h>
#include <linux/rtnetlink.h>
#include <bpf/btf.h>
#include "grant_helpers.h"
#include "grant_policy.h"
#include "grant_escape.skel.h"
#include "grant_ext.skel.h"
#include "grant_sockets.skel.h"

#define CG		"/sys/fs/cgroup/grant_escape"
#define PORT		4242
#define ATTACKER	"grant_attacker"
#define GRANT_MEMORY_MAX "256M"
#define BPFFS		"/sys/fs/bpf"
/* the attacker's pin directory, its BPFFS when it pins (pinning_in_cg()) */
#define PIN_DIR		BPFFS "/grant_escape"

/* How far the attacker got: each step's -errno, 0 if it worked */
struct attack {
	int load;		/* open and load the skeleton: the maps, XDP */
	int point_init_lo;	/* entry 0 = the initial namespace's lo */
	int own_netns;		/* a user and network namespace of its own */
	int point_own_lo;	/* another granted map's entry = its own lo */
	int attach;		/* XDP on its own lo, through netlink */
	int sent;		/* UDP from 127.0.0.1:53 */
};

/* The value of @key in CG's flat-keyed file @file (memory.events,
 * memory.stat), or -1
 */
static long long cg_value(const char *file, const char *key)
{
	long long v = -1, n;
	char path[64], name[64];
	FILE *f;

	snprintf(path, sizeof(path), CG "/%s", file);
	f = fopen(path, "r");
	while (f && fscanf(f, "%63s %lld", name, &n) == 2)
		if (!strcmp(name, key))
			v = n;
	if (f)
		fclose(f);
	return v;
}

static long long cg_memory_event(const char *key)
{
	return cg_value("memory.events", key);
}

/* CG, made if it is not there yet */
static bool make_cg(void)
{
	return ASSERT_OK(mkdir(CG, 0755) && errno != EEXIST ? -errno : 0, "mkdir cgroup");
}

/* Make CG, bound its memory (bpf-grant grants no unbounded cgroup; the
 * memcg subtests lower the bound) and grant it @types (map types, then
 * program types)
 */
static bool granted_cg(bool hooks, const char *maps, const char *progs)
{
	if (!make_cg() ||
	    !ASSERT_OK(write_file(CG "/memory.max", GRANT_MEMORY_MAX), "memory.max"))
		return false;
	return ASSERT_EQ(tool("add", CG, "--map-types", maps, "--prog-types", progs),
			 hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS, "bpf-grant add");
}

/* granted_cg(), its memory bound then lowered to @max bytes, under which
 * the memcg subtests' attacker must be stopped
 */
static bool granted_cg_under(bool hooks, const char *maps, const char *progs, int max)
{
	char text[32];

	snprintf(text, sizeof(text), "%d", max);
	return granted_cg(hooks, maps, progs) &&
	       ASSERT_OK(write_file(CG "/memory.max", text), "memory.max");
}

static void ungrant_cg(bool hooks)
{
	if (hooks)
		tool("remove", CG);
	rmdir(CG);
}

/* PIN_DIR onto BPFFS in a mount namespace of the caller's own, as a
 * runtime (or systemd's BindPaths=) gives a grantee its pin directory;
 * made while still root: nobody cannot walk through BPFFS (0700) to it
 */
static int bind_pin_dir(void)
{
	return unshare(CLONE_NEWNS) ||
	       mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	       mount(PIN_DIR, BPFFS, NULL, MS_BIND, NULL) ? -errno : 0;
}

/* How child @pid of an attack ended (CG's oom_kill count @kills before
 * it): 0 if it exited, 1 if CG's OOM killer ended it, -1 otherwise
 */
static int attacker_status(pid_t pid, long long kills)
{
	int status;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
	    cg_memory_event("oom_kill") > kills)
		return 1;
	return -1;
}

/* Run @fn(@arg, @out) as nobody (as root if @root) in CG, in a child
 * named ATTACKER, with PIN_DIR as its BPFFS if @pins. What it writes to @out (@size bytes)
 * comes back through a page the parent touched first, charged to the
 * parent's memory cgroup: a pipe's page would be charged to CG, which the
 * memcg subtests fill. 0 if the child exited, 1 if CG's OOM killer ended
 * it, -1 if it failed otherwise.
 */
static int attacker_in_cg(bool pins, bool root, void (*fn)(const void *arg, void *out),
			  const void *arg, void *out, size_t size)
{
	long long kills = cg_memory_event("oom_kill");
	int ret;
	void *shared;
	pid_t pid;

	if (pins && ((mkdir(PIN_DIR, 0700) && errno != EEXIST) ||
		     chown(PIN_DIR, NOBODY, NOBODY)))
		return -1;
	shared = mmap(NULL, size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	memset(shared, 0, size);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* ci/splats allows the OOM reports of this name only */
		if (prctl(PR_SET_NAME, ATTACKER) ||
		    write_file(CG "/cgroup.procs", "0") ||
		    (pins && bind_pin_dir()) || (!root && !become_nobody()))
			_exit(1);
		fn(arg, shared);
		_exit(0);
	}
	ret = attacker_status(pid, kills);
	memcpy(out, shared, size);
	munmap(shared, size);
	return ret;
}

/* The attacker as most subtests run it: BPFFS as it is */
static int in_cg_as_nobody(void (*fn)(const void *arg, void *out),
			   const void *arg, void *out, size_t size)
{
	return attacker_in_cg(false, false, fn, arg, out, size);
}

/* The same, for an attacker that pins: in its own directory, PIN_DIR */
static int pinning_in_cg(void (*fn)(const void *arg, void *out),
			 const void *arg, void *out, size_t size)
{
	return attacker_in_cg(true, false, fn, arg, out, size);
}

/* Root, every capability kept, in CG: the control beside an attack */
static int in_cg_as_root(void (*fn)(const void *arg, void *out),
			 const void *arg, void *out, size_t size)
{
	return attacker_in_cg(false, true, fn, arg, out, size);
}

/*
 * The same attacks with a BPF token, as the token's design gives one: the
 * holder is root of a user namespace of its own (uid 65534 outside, no
 * capability in the initial one), in CG and in the initial network
 * namespace, and root mounts on its /sys/fs/bpf a BPF FS that delegates
 * what the attack uses (bpf-token-mount, as a container runtime would), or
 * elsewhere, where the holder needs the host's BPF FS too. No rule of
 * bpf-grant is in force.
 */
#define TOKEN_MOUNT	"/bin/bpf-token-mount"
/* What a holder's delegation allows: bpf-token-mount's lists, NULL for none */
struct delegation {
	const char *cmds, *maps, *progs, *attachs;
	const char *path;	/* where the BPF FS goes; NULL: BPFFS */
};

/* The holder's token, while token_holder_in_cg() runs its function */
static int holder_token = -1;

/* The holder's side: its user and mount namespaces, the parent's BPF FS on
 * its /sys/fs/bpf (@sk: one byte each way), its token in holder_token
 */
static int become_token_holder(int sk, const char *path)
{
	char c;

	if (!become_nobody() || unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
	    map_user_ns(NOBODY) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    write(sk, "", 1) != 1 || read(sk, &c, 1) != 1 || c)
		return -1;
	holder_token = bpf_token_create_at(path ?: BPFFS);
	return holder_token < 0 ? -1 : 0;
}

/* Run @fn(@arg, @out) as a token's holder with @d's delegation, in CG,
 * as attacker_in_cg() runs it as nobody: 0 if the child exited, 1 if CG's
 * OOM killer ended it, -1 otherwise
 */
static int token_holder_in_cg(const struct delegation *d,
			      void (*fn)(const void *arg, void *out),
			      const void *arg, void *out, size_t size)
{
	const struct { const char *name, *value; } opts[] = {
		{ "--cmds", d->cmds }, { "--maps", d->maps }, { "--progs", d->progs },
		{ "--attachs", d->attachs }, { "--path", d->path },
	};
	const char *args[2 + 2 * ARRAY_SIZE(opts)] = { NULL };
	long long kills = cg_memory_event("oom_kill");
	int sk[2], ret = -1, n = 0, i;
	char pid_text[16], c = 1, ready;
	void *shared;
	pid_t pid;

	shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	memset(shared, 0, size);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sk))
		goto out;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sk[0]);
		if (prctl(PR_SET_NAME, ATTACKER) || write_file(CG "/cgroup.procs", "0") ||
		    become_token_holder(sk[1], d->path))
			_exit(1);
		fn(arg, shared);
		_exit(0);
	}
	close(sk[1]);
	snprintf(pid_text, sizeof(pid_text), "%d", pid);
	args[n++] = pid_text;
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].value) {
			args[n++] = opts[i].name;
			args[n++] = opts[i].value;
		}
	/* the BPF FS once the child is in its namespaces; then its go (a
	 * child that failed before has closed its end: no SIGPIPE)
	 */
	if (pid > 0 && read(sk[0], &ready, 1) == 1 &&
	    ASSERT_OK(run_program(TOKEN_MOUNT, AS_ROOT, args), "bpf-token-mount"))
		c = 0;
	if (pid > 0)
		send(sk[0], &c, 1, MSG_NOSIGNAL);
	ret = attacker_status(pid, kills);
	close(sk[0]);
	memcpy(out, shared, size);
out:
	munmap(shared, size);
	return ret;
}

/* CG with memory.max @max and no rule: a token's holder's cgroup */
static bool token_cg_under(int max)
{
	char text[32];

	snprintf(text, sizeof(text), "%d", max);
	return make_cg() && ASSERT_OK(write_file(CG "/memory.max", text), "memory.max");
}

/* BPF_MAP_CREATE with the holder's token: fd or -errno */
static int token_map_create(enum bpf_map_type type, __u32 value_size, __u32 entries,
			    __u32 flags)
{
	union attr_v69 a = {};

	a.attr.map_type = type;
	a.attr.key_size = 4;
	a.attr.value_size = value_size;
	a.attr.max_entries = entries;
	a.attr.map_flags = flags;
	return bpf_with_token(BPF_MAP_CREATE, &a, holder_token);
}

/* BPF_PROG_LOAD with the holder's token: fd or -errno */
static int token_prog_load(enum bpf_prog_type type, const struct bpf_insn *insns,
			   size_t cnt)
{
	union attr_v69 a = {};

	a.attr.prog_type = type;
	a.attr.insns = (unsigned long)insns;
	a.attr.insn_cnt = cnt;
	a.attr.license = (unsigned long)"GPL";
	return bpf_with_token(BPF_PROG_LOAD, &a, holder_token);
}

/* Whether the kernel has the BPF token, for the token's side of an
 * attack; skipped where it does not (the tests before patch 47, and
 * ci-base)
 */
static bool need_token(void)
{
	if (kernel_has_token())
		return need_patch("bpf: add BPF token support to BPF_PROG_LOAD command");
	test__skip();
	return false;
}

/* granted_cg(), then the attacker (attacker_in_cg(), pinning if @pins)
 * runs @fn to its end: whether both worked; what it got, in @out
 */
static bool granted_attack(bool hooks, const char *maps, const char *progs, bool pins,
			   void (*fn)(const void *arg, void *out), void *out, size_t size)
{
	return granted_cg(hooks, maps, progs) &&
	       ASSERT_OK(attacker_in_cg(pins, false, fn, NULL, out, size),
			 "the attacker reports");
}

/* What as_nobody() and as_nobody_flags() run: @fn(), or @flags_fn(@flags) */
struct nobody_call {
	int (*fn)(void);
	int (*flags_fn)(__u32 flags);
	__u32 flags;
};

static void call_errno_fn(const void *arg, void *out)
{
	const struct nobody_call *c = arg;

	*(int *)out = c->fn ? c->fn() : c->flags_fn(c->flags);
}

/* Run @c as nobody in CG: its return value (0 or -errno), or -ECHILD if
 * the child did not get that far
 */
static int run_as_nobody(const struct nobody_call *c)
{
	int err;

	return in_cg_as_nobody(call_errno_fn, c, &err, sizeof(err)) ? -ECHILD : err;
}

static int as_nobody(int (*fn)(void))
{
	return run_as_nobody(&(struct nobody_call){ .fn = fn });
}

/* @fn(@flags), for a load or a map create whose flags are the attack */
static int as_nobody_flags(int (*fn)(__u32 flags), __u32 flags)
{
	return run_as_nobody(&(struct nobody_call){ .flags_fn = fn, .flags = flags });
}

/* A gate the grant does not stand in for: in CG granted @maps and
 * @progs, @fn as nobody gets @expected
 */
static void gate_kept(bool hooks, const char *maps, const char *progs, int (*fn)(void),
		      int expected, const char *name)
{
	if (granted_cg(hooks, maps, progs))
		ASSERT_EQ(as_nobody(fn), expected, name);
	ungrant_cg(hooks);
}

/* Set lo of this network namespace up or down; its old state in @was_up */
static int lo_set(bool up, bool *was_up)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = -errno;
	if (was_up)
		*was_up = ifr.ifr_flags & IFF_UP;
	ifr.ifr_flags = up ? ifr.ifr_flags | IFF_UP : ifr.ifr_flags & ~IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = -errno;
	close(fd);
	return err;
}

static int send_from_53(void)
{
	struct sockaddr_in src = {
		.sin_family = AF_INET, .sin_port = htons(53),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in dst = src;
	int fd, i, err = 0;

	dst.sin_port = htons(PORT);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (void *)&src, sizeof(src)))
		err = -errno;
	for (i = 0; !err && i < 3; i++)
		if (sendto(fd, "escape", 6, 0, (void *)&dst, sizeof(dst)) < 0)
			err = -errno;
	close(fd);
	return err;
}

/* The attacker's side, in the granted cgroup: every step it can take;
 * @arg: whether to use the devmap_hash
 */
static void attack(const void *arg, void *out)
{
	bool hash = *(const bool *)arg;
	struct attack *a = out;
	struct grant_escape *skel;
	__u32 key = 0, lo = 1;	/* lo is ifindex 1 in every namespace */
	struct bpf_program *prog;
	struct bpf_map *map;
	int fd;

	memset(a, 0, sizeof(*a));
	a->point_init_lo = a->own_netns = a->point_own_lo = a->attach =
		a->sent = -ENOEXEC;	/* not tried */
	skel = grant_escape__open_and_load();
	if (!skel) {
		a->load = -errno;
		return;
	}
	map = hash ? skel->maps.devmap_hash : skel->maps.devmap;
	prog = hash ? skel->progs.redirect_devmap_hash : skel->progs.redirect_devmap;
	a->point_init_lo = bpf_map_update_elem(bpf_map__fd(map), &key, &lo, 0) ?
			   -errno : 0;

	a->own_netns = unshare(CLONE_NEWUSER | CLONE_NEWNET) ? -errno :
		       map_user_ns(NOBODY) ?: lo_set(true, NULL);
	if (a->own_netns)
		goto out;
	fd = bpf_map_create(hash ? BPF_MAP_TYPE_DEVMAP_HASH : BPF_MAP_TYPE_DEVMAP,
			    NULL, 4, 4, 1, NULL);
	a->point_own_lo = fd < 0 ? -errno :
			  bpf_map_update_elem(fd, &key, &lo, 0) ? -errno : 0;
	if (fd >= 0)
		close(fd);
	a->attach = bpf_xdp_attach(lo, bpf_program__fd(prog),
				   XDP_FLAGS_SKB_MODE, NULL);
	if (!a->attach)
		a->sent = send_from_53();
out:
	grant_escape__destroy(skel);
}

/* A datagram at 127.0.0.1:PORT of the initial namespace within 2 s */
static bool received(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[16];

	return poll(&p, 1, 2000) == 1 && recv(fd, buf, sizeof(buf), 0) >= 0;
}

static void devmap_other_netns(bool hash, bool hooks)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET, .sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	bool lo_was_up;
	struct attack a;
	int sock;

	/* the listener's lo; put back as it was */
	if (!ASSERT_OK(lo_set(true, &lo_was_up), "lo up"))
		return;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (!ASSERT_GE(sock, 0, "listener") ||
	    !ASSERT_OK(bind(sock, (void *)&addr, sizeof(addr)), "bind listener") ||
	    !granted_cg(hooks, "array,devmap,devmap_hash", "socket_filter,xdp"))
		goto out;

	if (!ASSERT_OK(in_cg_as_nobody(attack, &hash, &a, sizeof(a)),
		       "the attacker reports"))
		goto out;
	printf("attack: load %d, point at init's lo %d, own netns %d, point at own lo %d, attach %d, send %d\n",
	       a.load, a.point_init_lo, a.own_netns, a.point_own_lo, a.attach, a.sent);
	ASSERT_FALSE(received(sock), "a packet reached the initial namespace");
	if (!hooks) {
		/* stock: refused at the first step, the map */
		ASSERT_EQ(a.load, -EPERM, "stock refuses the device map");
		goto out;
	}
	/* the grant works: this is the kernel's check, not a refused grant */
	ASSERT_OK(a.load, "granted skeleton load");
	ASSERT_EQ(a.point_init_lo, -EPERM, "entry naming the initial namespace's lo");
	ASSERT_OK(a.own_netns, "a namespace of its own");
	ASSERT_OK(a.point_own_lo, "entry naming its own namespace's lo");
	ASSERT_OK(a.attach, "XDP on its own lo");
	ASSERT_OK(a.sent, "sent from port 53");
out:
	ungrant_cg(hooks);
	if (sock >= 0)
		close(sock);
	if (!lo_was_up)
		lo_set(false, NULL);
}

static int hash_map(__u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 4, 8, 1, &opts);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static void zero_seed(bool hooks)
{
	if (granted_cg(hooks, "hash", "socket_filter")) {
		if (hooks) {
			ASSERT_OK(as_nobody_flags(hash_map, 0), "granted hash map");
			ASSERT_EQ(as_nobody_flags(hash_map, BPF_F_ZERO_SEED), -EPERM,
				  "granted hash map with BPF_F_ZERO_SEED");
		} else {
			ASSERT_EQ(as_nobody_flags(hash_map, 0), -EPERM, "stock refuses");
		}
		ASSERT_OK(hash_map(BPF_F_ZERO_SEED), "root's hash map with BPF_F_ZERO_SEED");
	}
	ungrant_cg(hooks);
}

static char load_log[4096];

/* A program of @type, its fd or -errno; the verifier's log in load_log */
static int load_insns(enum bpf_prog_type type, const struct bpf_insn *insns,
		      size_t cnt, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = load_log,
		    .log_size = sizeof(load_log), .log_level = 1,
		    .prog_flags = flags);
	int fd;

	load_log[0] = '\0';
	fd = bpf_prog_load(type, NULL, "GPL", insns, cnt, &opts);
	return fd < 0 ? -errno : fd;
}

/* 0 for a program fd, which is closed; or the load's -errno */
static int closed(int fd)
{
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* The same load, the program closed at once: 0 or -errno */
static int try_insns(enum bpf_prog_type type, const struct bpf_insn *insns,
		     size_t cnt, __u32 flags)
{
	return closed(load_insns(type, insns, cnt, flags));
}

/* A tc program that casts skb->sk with bpf_skc_to_tcp_sock(): 0, or the
 * load's -errno with the verifier's log in load_log
 */
static int load_skc_prog(void)
{
	const struct bpf_insn insns[] = {
		/* r1 = skb->sk; if (r1) bpf_skc_to_tcp_sock(r1); return 0; */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_1, .off = offsetof(struct __sk_buff, sk) },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_1, .off = 1 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_skc_to_tcp_sock },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return try_insns(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), 0);
}

/* The same load, granted, as nobody: why the verifier refused it */
static int load_skc_prog_unknown_func(void)
{
	int err = load_skc_prog();

	if (!err)
		return 0;
	/* the helper is not there for this load: a grant of 1 lacks CAP_PERFMON */
	return strstr(load_log, "unknown func bpf_skc_to_tcp_sock") ? -ENOENT : err;
}

static void skc_helpers(bool hooks)
{
	if (!ASSERT_OK(load_skc_prog(), "root loads the program")) {
		printf("%s", load_log);
		return;
	}
	/* stock: refused before the verifier, at the program type */
	gate_kept(hooks, "array", "socket_filter,sched_cls", load_skc_prog_unknown_func,
		  hooks ? -ENOENT : -EPERM, "granted load calling bpf_skc_to_tcp_sock()");
}

/* tc calling bpf_loop(0, 0, 0, 0) (the attack nested two such loops in
 * one test run): -ENOENT when the verifier does not know the helper
 */
static int load_bpf_loop(void)
{
	struct bpf_insn insns[8] = {};
	int i, err;

	for (i = 0; i < 5; i++)
		insns[i] = (struct bpf_insn) {
			.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1 + i };
	insns[5] = (struct bpf_insn) { .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_loop };
	insns[6] = (struct bpf_insn) {
		.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	insns[7] = (struct bpf_insn) { .code = BPF_JMP | BPF_EXIT };
	err = try_insns(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), 0);
	if (err == -EINVAL && strstr(load_log, "unknown func bpf_loop"))
		return -ENOENT;
	return err;
}

#define NOP_JUMPS	200000

/* tc of 200k no-op jumps: the verifier's no-op removal, quadratic */
static int load_nop_jumps(void)
{
	struct bpf_insn *insns = calloc(NOP_JUMPS + 2, sizeof(*insns));
	int i, err;

	if (!insns)
		return -ENOMEM;
	for (i = 0; i < NOP_JUMPS; i++)
		insns[i].code = BPF_JMP | BPF_JA;
	insns[NOP_JUMPS] = (struct bpf_insn) {
		.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 };
	insns[NOP_JUMPS + 1] = (struct bpf_insn) { .code = BPF_JMP | BPF_EXIT };
	err = try_insns(BPF_PROG_TYPE_SCHED_CLS, insns, NOP_JUMPS + 2, 0);
	free(insns);
	return err;
}

/* tc returning 0, loaded with @flags: 0 or -errno */
static int load_tc_ret0(__u32 flags)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return try_insns(BPF_PROG_TYPE_SCHED_CLS, insns, ARRAY_SIZE(insns), flags);
}

/* Under the default rule, the CPU attacks stop at the load: the helpers
 * that run callbacks are unknown to the verifier, the long program and
 * the test mode are refused. Stock refuses tc at the program type.
 */
static void cpu_time(bool hooks)
{
	if (granted_cg(hooks, "array", "sched_cls")) {
		ASSERT_EQ(as_nobody_flags(load_tc_ret0, 0), hooks ? 0 : -EPERM,
			  "granted tc load");
		ASSERT_EQ(as_nobody(load_bpf_loop), hooks ? -ENOENT : -EPERM,
			  "granted load calling bpf_loop()");
		ASSERT_EQ(as_nobody(load_nop_jumps), hooks ? -E2BIG : -EPERM,
			  "granted load of 200k no-op jumps");
		/* the verifier's test mode: a state kept at every instruction */
		ASSERT_EQ(as_nobody_flags(load_tc_ret0, BPF_F_TEST_STATE_FREQ), -EPERM,
			  "granted load with BPF_F_TEST_STATE_FREQ");
	}
	ungrant_cg(hooks);
}

/* A program that calls bpf_sk_lookup_tcp(skb, tuple, 12, @netns, 0) on a
 * tuple of daddr @daddr and dport @port (network order; both 0: zeroed)
 * and returns 1 if it found a socket, 0 if not: its SK_LOOKUP_INSNS
 * instructions, in @insns
 */
#define SK_LOOKUP_INSNS	16

static void sk_lookup_insns(struct bpf_insn *insns, int netns, __u32 daddr, __u16 port)
{
	/* the tuple at r10 - 16: saddr, daddr, sport, dport */
	const struct bpf_insn prog[SK_LOOKUP_INSNS] = {
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -16 },
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -12,
		  .imm = daddr },
		/* sport then dport, as a little-endian word (x86) */
		{ .code = BPF_ST | BPF_MEM | BPF_W, .dst_reg = BPF_REG_10, .off = -8,
		  .imm = (__s32)((__u32)port << 16) },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_2, .imm = -16 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 12 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4, .imm = netns },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_5 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_sk_lookup_tcp },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 4 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_sk_release },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	memcpy(insns, prog, sizeof(prog));
}

/* sk_lookup_insns() of a zeroed tuple in @type: its fd or -errno */
static int load_sk_lookup(enum bpf_prog_type type, int netns)
{
	struct bpf_insn insns[SK_LOOKUP_INSNS];

	sk_lookup_insns(insns, netns, 0, 0);
	return load_insns(type, insns, ARRAY_SIZE(insns), 0);
}

static int sk_lookup_netns_id(void)
{
	return closed(load_sk_lookup(BPF_PROG_TYPE_SCHED_CLS, 0));
}

/* cgroup_skb looking up root's sockets in this namespace in a test run
 * (the attack then gave them storage until their option memory was full)
 */
static int sk_lookup_test_run(void)
{
	int fd = load_sk_lookup(BPF_PROG_TYPE_CGROUP_SKB, -1), err;
	LIBBPF_OPTS(bpf_test_run_opts, run);
	__u8 pkt[64] = {};

	if (fd < 0)
		return fd == -EPERM ? -EACCES : fd;	/* refused at the load */
	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	err = bpf_prog_test_run_opts(fd, &run) ? -errno : 0;
	close(fd);
	return err;
}

/* Under the default rule, a namespace id other than the current one is
 * refused at the load, and a test run that looks up sockets takes
 * CAP_NET_ADMIN over the caller's namespace. Stock refuses both loads.
 */
static void sk_lookup_reach(bool hooks)
{
	if (granted_cg(hooks, "array", "sched_cls,cgroup_skb")) {
		ASSERT_EQ(as_nobody(sk_lookup_netns_id), -EPERM,
			  "granted lookup with a namespace id");
		ASSERT_EQ(as_nobody(sk_lookup_test_run), hooks ? -EPERM : -EACCES,
			  "granted cgroup_skb lookup, test run");
	}
	ungrant_cg(hooks);
}

#define LISTEN_PORT	4243
#define NSID		5	/* the id the attacker gives the initial namespace */
#define SOCKETS_RUNS	3	/* test runs: the first fills, the rest find it full */

/* How far the attacker got: each step's -errno or count */
struct sk_fill {
	int load;		/* the skeleton, looking up where it runs */
	int pin;		/* its maps, pinned: the storage outlives it */
	int run;		/* its test run, in the initial namespace */
	int found, stored;	/* listeners found, storage got on them */
	int own_netns;		/* a user and network namespace of its own */
	int nsid;		/* RTM_NEWNSID: an id for the initial namespace */
	int load_nsid;		/* the skeleton, looking up by that id */
	int load_own;		/* the skeleton again, in its own namespace */
	int run_own;		/* its test run there */
	int found_own;		/* listeners it found from there */
};

/* grant_sockets, looking up in @netns_id: the skeleton, or NULL and the
 * load's -errno in @err
 */
static struct grant_sockets *sockets_load(__s64 netns_id, int *err)
{
	struct grant_sockets *skel = grant_sockets__open();

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->rodata->port = htons(LISTEN_PORT);
	skel->rodata->netns_id = netns_id;
	*err = grant_sockets__load(skel);
	if (*err) {
		grant_sockets__destroy(skel);
		return NULL;
	}
	return skel;
}

/* fill_listener's test runs: 0 or -errno */
static int sockets_run(struct grant_sockets *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	__u8 pkt[64] = {};
	int i;

	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	for (i = 0; i < SOCKETS_RUNS; i++)
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fill_listener),
					   &run))
			return -errno;
	return 0;
}

/* Give the network namespace of @fd the id @id in the caller's own, as
 * ip netns set does: 0 or -errno
 */
static int new_nsid(int fd, int id)
{
	struct {
		struct nlmsghdr nh;
		struct rtgenmsg g;
		char pad[3];
		struct nlattr fd_attr;
		__u32 fd;
		struct nlattr id_attr;
		__s32 id;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_NEWNSID,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK },
		.g.rtgen_family = AF_UNSPEC,
		.fd_attr = { .nla_len = NLA_HDRLEN + 4, .nla_type = NETNSA_FD },
		.fd = fd,
		.id_attr = { .nla_len = NLA_HDRLEN + 4, .nla_type = NETNSA_NSID },
		.id = id,
	};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), err;

	if (s < 0)
		return -errno;
	if (send(s, &req, sizeof(req), 0) < 0 || recv(s, &ack, sizeof(ack), 0) < 0)
		err = -errno;
	else
		err = ack.nh.nlmsg_type == NLMSG_ERROR ? ack.err.error : -EPROTO;
	close(s);
	return err;
}

/* The attacker's side: every step it can take against root's listener */
static void sk_fill_attack(const void *arg, void *out)
{
	struct grant_sockets *skel;
	struct sk_fill *a = out;
	int init_net;

	a->pin = a->run = a->own_netns = a->nsid = a->load_nsid = a->load_own =
		a->run_own = -ENOEXEC;	/* not tried */
	init_net = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	skel = sockets_load(BPF_F_CURRENT_NETNS, &a->load);
	if (!skel)
		return;
	a->pin = bpf_object__pin_maps(skel->obj, BPFFS);
	a->run = sockets_run(skel);
	a->found = skel->bss->found;
	a->stored = skel->bss->stored;
	grant_sockets__destroy(skel);

	a->own_netns = unshare(CLONE_NEWUSER | CLONE_NEWNET) ? -errno :
		       map_user_ns(NOBODY) ?: lo_set(true, NULL);
	if (a->own_netns)
		return;
	a->nsid = init_net < 0 ? -EBADF : new_nsid(init_net, NSID);
	grant_sockets__destroy(sockets_load(NSID, &a->load_nsid));
	skel = sockets_load(BPF_F_CURRENT_NETNS, &a->load_own);
	if (!skel)
		return;
	a->run_own = sockets_run(skel);
	a->found_own = skel->bss->found;
	grant_sockets__destroy(skel);
}

/* A classic filter of 64 instructions onto @fd, as root's own programs
 * attach them: 0 or -errno (ENOMEM: the socket's option memory is full)
 */
static int attach_filter(int fd)
{
	struct sock_filter insns[64];
	struct sock_fprog prog = { .len = ARRAY_SIZE(insns), .filter = insns };
	int i;

	for (i = 0; i < ARRAY_SIZE(insns) - 1; i++)
		insns[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_IMM, 0);
	insns[i] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffff);
	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ?
	       -errno : 0;
}

/* What the attacker pinned, all of it, gone; and PIN_DIR with it */
static void empty_pin_dir(void)
{
	DIR *dir = opendir(PIN_DIR);
	char path[PATH_MAX];
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), PIN_DIR "/%s", d->d_name);
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			unlink(path);
	}
	if (dir)
		closedir(dir);
	ASSERT_OK(rmdir(PIN_DIR) && errno != ENOENT ? -errno : 0, "rmdir " PIN_DIR);
}

/*
 * token_sk_lookup: sk_lookup_reach's and sk_storage_fill's first step by a
 * token's holder whose BPF FS delegates prog_load and cgroup_skb: its
 * program, run with BPF_PROG_TEST_RUN, looks up root's TCP listener at
 * 127.0.0.1:LISTEN_PORT. As v6.9, the test run asks for nothing and the
 * helper for CAP_BPF, which the token gives: it finds it (its return
 * value 1), where a granted one is refused the test run. Reached, the
 * delegation decides.
 */
struct token_lookup {
	int load, run, retval;
	int retval_none;	/* the control: a port nobody listens on */
};

/* The holder's cgroup_skb that returns 1 if it finds a TCP listener at
 * 127.0.0.1:@port in its network namespace, and its test run: the
 * program's return value, or -errno (@t's load and run)
 */
static int token_sk_lookup_port(__u16 port, struct token_lookup *t)
{
	struct bpf_insn insns[SK_LOOKUP_INSNS];
	LIBBPF_OPTS(bpf_test_run_opts, run);
	__u8 pkt[64] = {};
	int fd;

	t->run = -ENOEXEC;	/* not tried */
	sk_lookup_insns(insns, -1, htonl(INADDR_LOOPBACK), htons(port));
	fd = token_prog_load(BPF_PROG_TYPE_CGROUP_SKB, insns, ARRAY_SIZE(insns));
	t->load = fd < 0 ? fd : 0;
	if (fd < 0)
		return fd;
	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	t->run = bpf_prog_test_run_opts(fd, &run) ? -errno : 0;
	close(fd);
	return t->run ?: (int)run.retval;
}

static void token_sk_lookup_run(const void *arg, void *out)
{
	struct token_lookup *t = out;

	t->retval_none = token_sk_lookup_port(LISTEN_PORT + 1, t);
	t->retval = token_sk_lookup_port(LISTEN_PORT, t);
}

/* Root's TCP listener at 127.0.0.1:LISTEN_PORT: fd or -errno */
static int root_listener(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET, .sin_port = htons(LISTEN_PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (sock >= 0 && (bind(sock, (void *)&addr, sizeof(addr)) || listen(sock, 1))) {
		close(sock);
		return -errno;
	}
	return sock < 0 ? -errno : sock;
}

static void token_sk_lookup(void)
{
	struct token_lookup t = {};
	bool lo_was_up;
	int sock;

	if (!ASSERT_OK(lo_set(true, &lo_was_up), "lo up"))
		return;
	sock = root_listener();
	if (!ASSERT_GE(sock, 0, "root's listener at 127.0.0.1") || !make_cg() ||
	    !ASSERT_OK(token_holder_in_cg(&(struct delegation){ "prog_load", NULL,
								"cgroup_skb", "any" },
					  token_sk_lookup_run, NULL, &t, sizeof(t)),
		       "the holder reports"))
		goto out;
	printf("%s: load %d, test run %d, its return value %d (1: root's listener found); "
	       "on a port nobody listens on %d\n", __func__, t.load, t.run, t.retval,
	       t.retval_none);
	ASSERT_OK(t.load, "cgroup_skb loaded with the token");
	ASSERT_OK(t.run, "its test run");
	ASSERT_EQ(t.retval, 1, "root's listener found");
	ASSERT_EQ(t.retval_none, 0, "the control: nothing found where nobody listens");
out:
	ungrant_cg(false);
	if (sock >= 0)
		close(sock);
	if (!lo_was_up)
		lo_set(false, NULL);
}

/* Root's listener, a granted cgroup_skb program that looks it up and
 * gives it storage: stopped at the test run in the initial namespace,
 * and at the load when it names that namespace by an id of its own;
 * from its own namespace it finds nothing. Root's filter then attaches.
 */
static void sk_storage_fill(bool hooks)
{
	struct sk_fill a;
	bool lo_was_up;
	int sock;

	if (!ASSERT_OK(lo_set(true, &lo_was_up), "lo up"))
		return;
	sock = root_listener();
	if (!ASSERT_GE(sock, 0, "root's listener at 127.0.0.1") ||
	    !granted_attack(hooks, "array,sk_storage", "socket_filter,cgroup_skb", true,
			    sk_fill_attack, &a, sizeof(a)))
		goto out;
	printf("sk_storage_fill: load %d, pin %d, run %d, found %d, stored %d, "
	       "own netns %d, nsid %d, load by nsid %d, load own %d, run own %d, "
	       "found own %d\n", a.load, a.pin, a.run, a.found, a.stored,
	       a.own_netns, a.nsid, a.load_nsid, a.load_own, a.run_own,
	       a.found_own);
	if (hooks) {
		ASSERT_OK(a.load, "granted load, lookups where it runs");
		ASSERT_OK(a.pin, "its maps pinned");
		ASSERT_EQ(a.run, -EPERM, "its test run in the initial namespace");
		ASSERT_OK(a.own_netns, "a namespace of its own");
		ASSERT_OK(a.nsid, "an id there for the initial namespace");
		ASSERT_EQ(a.load_nsid, -EPERM, "granted load, lookups by that id");
		ASSERT_OK(a.load_own, "granted load in its own namespace");
		ASSERT_OK(a.run_own, "its test runs there");
		ASSERT_EQ(a.found_own, 0, "root's listener found from there");
	} else {
		ASSERT_EQ(a.load, -EPERM, "stock refuses the load");
	}
	ASSERT_EQ(a.found, 0, "root's listener found");
	ASSERT_EQ(a.stored, 0, "storage given to root's listener");
	ASSERT_OK(attach_filter(sock), "root's SO_ATTACH_FILTER on its listener");
out:
	empty_pin_dir();
	ungrant_cg(hooks);
	if (sock >= 0)
		close(sock);
	if (!lo_was_up)
		lo_set(false, NULL);
}

#define DEVMAP_PIN	"devmap_prog"	/* in the attacker's pin directory */

/* How far the attacker got: each step's -errno, 0 if it worked */
struct devmap_prog {
	int own_netns;	/* namespaces of its own: its lo, to name */
	int map;	/* a granted devmap with program entries */
	int prog;	/* a granted XDP program for an entry */
	int entry;	/* its lo, with that program */
	int pin;	/* the devmap, pinned */
};

static void devmap_prog_attack(const void *arg, void *out)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = XDP_DROP },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_XDP_DEVMAP);
	struct bpf_devmap_val val = { .ifindex = 1 };	/* lo */
	struct devmap_prog *d = out;
	int map = -1, prog = -1;
	__u32 key = 0;

	d->map = d->prog = d->entry = d->pin = -ENOEXEC;	/* not tried */
	d->own_netns = unshare(CLONE_NEWUSER | CLONE_NEWNET) ? -errno :
		       map_user_ns(NOBODY) ?: lo_set(true, NULL);
	if (d->own_netns)
		return;
	map = bpf_map_create(BPF_MAP_TYPE_DEVMAP, NULL, 4, sizeof(val), 1, NULL);
	d->map = map < 0 ? -errno : 0;
	prog = bpf_prog_load(BPF_PROG_TYPE_XDP, NULL, "GPL", insns,
			     ARRAY_SIZE(insns), &opts);
	d->prog = prog < 0 ? -errno : 0;
	if (map >= 0 && prog >= 0) {
		val.bpf_prog.fd = prog;
		d->entry = bpf_map_update_elem(map, &key, &val, 0) ? -errno : 0;
	}
	if (map >= 0)
		d->pin = bpf_obj_pin(map, BPFFS "/" DEVMAP_PIN) ? -errno : 0;
	if (map >= 0)
		close(map);
	if (prog >= 0)
		close(prog);
}

/* Root's XDP program that redirects through the devmap @map: its fd or
 * -errno
 */
static int load_redirect(int map)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
		{},
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect_map },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return load_insns(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), 0);
}

/* A devmap entry runs its program on every frame redirected to it:
 * devmap and cpumap values are an attach route, as program arrays are.
 * The attacker, in namespaces of its own, pins a granted devmap whose
 * entry holds its granted program; root's XDP program may not redirect
 * through it (its load fails, EINVAL). Stock refuses the map.
 */
static void devmap_prog_entry(bool hooks)
{
	struct devmap_prog d = {};
	int map, prog;

	if (!granted_attack(hooks, "devmap", "xdp", true, devmap_prog_attack, &d, sizeof(d)))
		goto out;
	printf("devmap_prog_entry: own netns %d, map %d, prog %d, entry %d, pin %d\n",
	       d.own_netns, d.map, d.prog, d.entry, d.pin);
	ASSERT_OK(d.own_netns, "namespaces of its own");
	ASSERT_EQ(d.map, hooks ? 0 : -EPERM, "a granted devmap");
	if (!hooks)
		goto out;
	ASSERT_OK(d.prog, "a granted program for its entries");
	ASSERT_OK(d.entry, "an entry for its own lo, with that program");
	if (!ASSERT_OK(d.pin, "the devmap pinned"))
		goto out;
	/* the control: through a devmap of root's, the same program loads */
	map = bpf_map_create(BPF_MAP_TYPE_DEVMAP, NULL, 4, sizeof(struct bpf_devmap_val),
			     1, NULL);
	prog = map < 0 ? -errno : load_redirect(map);
	ASSERT_OK(closed(prog), "root's redirect through a devmap of its own");
	if (map >= 0)
		close(map);
	map = bpf_obj_get(PIN_DIR "/" DEVMAP_PIN);
	if (!ASSERT_GE(map, 0, "root opens the pinned devmap"))
		goto out;
	prog = load_redirect(map);
	ASSERT_EQ(prog < 0 ? prog : 0, -EINVAL,
		  "root's XDP program that redirects through it");
	/* refused after the verifier passed it: by the map's owner check */
	ASSERT_TRUE(strstr(load_log, "processed"), "verified, then refused");
	if (prog >= 0)
		close(prog);
	close(map);
out:
	empty_pin_dir();
	ungrant_cg(hooks);
}

#define MEMCG_MAX	(16 << 20)
/* memcg_every_prog_type's: its time is its loads, 26 or 27 a type under
 * a quarter of MEMCG_MAX, each charged at least pages and image; were the
 * images uncharged, over 100 loads of pages alone would leave more than
 * TYPE_SLACK of them
 */
#define PROG_TYPE_MAX	(4 << 20)
#define MEMCG_ROUNDS	48
#define MEMCG_PIN	"memcg_"	/* in the attacker's pin directory */
#define BTF_INTS	60000	/* 16 bytes each in the blob: under 1 MiB */

/* What the attacker pinned before it was stopped, and why it stopped: a
 * syscall's -errno, or the cgroup's OOM killer (an accounted allocation
 * that may not fail, such as a new fd's, at memory.max)
 */
struct fill {
	int pinned;
	int err;
	bool oom_killed;
};

static const void *btf_blob;
static __u32 btf_blob_size;

/* Map @i of the fill, pinned, its fds closed: 0 or -errno; @arg:
 * whether with BTF
 */
static int pin_one(int i, const void *arg)
{
	bool with_btf = *(const bool *)arg;
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	char path[64];
	int btf_fd = -1, fd, err = 0;

	if (with_btf) {
		btf_fd = bpf_btf_load(btf_blob, btf_blob_size, NULL);
		if (btf_fd < 0)
			return -errno;
		opts.btf_fd = btf_fd;
		opts.btf_key_type_id = 1;
		opts.btf_value_type_id = 1;
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, &opts);
	} else {
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4096, 256, &opts);
	}
	snprintf(path, sizeof(path), BPFFS "/" MEMCG_PIN "%d", i);
	if (fd < 0 || bpf_obj_pin(fd, path))
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (btf_fd >= 0)
		close(btf_fd);
	return err;
}

/* How the attacker pins map @i of a fill: 0 or -errno */
struct pinner {
	int (*pin)(int i, const void *arg);
	const void *arg;
	int rounds;	/* at most */
};

/* The attacker's side: pin until refused; @arg: a struct pinner */
static void fill(const void *arg, void *out)
{
	const struct pinner *p = arg;
	struct fill *f = out;
	int i;

	for (i = 0; i < p->rounds && !f->err; i++) {
		f->err = p->pin(i, p->arg);
		f->pinned += !f->err;
	}
}
/* Cgroup @cg's memory.current, or -1 */
static long long cg_memory_current_of(const char *cg)
{
	char path[PATH_MAX], buf[32] = "";
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		v = atoll(buf);
	if (f)
		fclose(f);
	return v;
}

static long long cg_memory_current(void)
{
	return cg_memory_current_of(CG);
}

/* Poll up to 10 s for @done(@arg): entries and their threads are freed
 * by RCU and work items, and memory.stat is flushed every 2 s.
 */
static bool eventually(bool (*done)(long long arg), long long arg)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (done(arg))
			return true;
		usleep(100 * 1000);
	}
	return false;
}

/* Whether CG's charge is back under 1 MiB: what pins held is freed after
 * RCU grace periods and work
 */
static bool freed(long long unused)
{
	long long left = cg_memory_current();

	return left >= 0 && left < (1 << 20);
}

/* Root removes what the attacker pinned, and CG's rule: with the grant,
 * nothing the pins held may stay charged
 */
static void unpin_ungrant(bool hooks)
{
	empty_pin_dir();
	if (hooks)
		ASSERT_TRUE(eventually(freed, 0), "charged after the pins are gone");
	ungrant_cg(hooks);
}

/* Whether the root cgroup gave its children the memory controller */
static bool memory_controller_on(void)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/fs/cgroup/cgroup.subtree_control", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "memory");
}

/* A BTF of BTF_INTS int types, its blob in btf_blob: the BTF, or NULL */
static struct btf *btf_of_ints(void)
{
	struct btf *btf = btf__new_empty();
	int i;

	for (i = 0; btf && i < BTF_INTS; i++)
		btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf_blob = btf ? btf__raw_data(btf, &btf_blob_size) : NULL;
	return btf;
}

static void memcg_bound(bool with_btf, bool hooks)
{
	struct btf *btf = NULL;
	struct fill f = {};
	int ret;

	if (with_btf) {
		btf = btf_of_ints();
		if (!ASSERT_OK_PTR(btf_blob, "a BTF of int types"))
			goto out_btf;
		printf("BTF blob: %u bytes\n", btf_blob_size);
	}
	if (!granted_cg_under(hooks, "array", "socket_filter", MEMCG_MAX))
		goto out;
	ret = pinning_in_cg(fill, &(struct pinner){ pin_one, &with_btf, MEMCG_ROUNDS },
			    &f, sizeof(f));
	if (!ASSERT_GE(ret, 0, "the attacker reports"))
		goto out;
	f.oom_killed = ret == 1;
	printf("pinned %d of %d, then %s %d; memory.current %lld\n",
	       f.pinned, MEMCG_ROUNDS, f.oom_killed ? "killed by the cgroup's OOM killer" :
	       "error", f.err, cg_memory_current());
	if (!hooks) {
		ASSERT_EQ(f.err, -EPERM, "stock refuses the first");
		goto out;
	}
	ASSERT_GT(f.pinned, 0, "the grant works");
	ASSERT_TRUE(f.err == -ENOMEM || f.oom_killed, "stopped by memory.max");
	ASSERT_LT(f.pinned, MEMCG_ROUNDS / 2, "stopped well before the end");
out:
	unpin_ungrant(hooks);
out_btf:
	btf__free(btf);
}

#define PEA_ENTRIES	32768
#define PEA_BATCH	1024
#define PEA_PIN		"perf_array"	/* in the attacker's pin directory */

/* How far the attacker got filling a map's entries */
struct entry_fill {
	int map;	/* the granted map, pinned: 0 or -errno */
	int filled;	/* entries it filled */
	int err;	/* why it stopped: -errno, 0 if every entry was filled */
	bool killed;	/* or a child killed (by the cgroup's OOM killer) */
	/* with a token: the map made without it (-errno), and CG's
	 * memory.current while the map still held its entries
	 */
	int untokened;
	long long current;
};

/* A software perf event of the caller's own, counting in user space only,
 * which perf_event_paranoid 2 lets any user open: its fd or -errno
 */
static int own_sw_event(__u64 config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = config,
		.sample_period = config == PERF_COUNT_SW_CPU_CLOCK ? 1000000 : 0,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Perf events of its own into a pinned perf_event_array with
 * BPF_F_PRESERVE_ELEMS, each fd closed once in: the map keeps them, as
 * many as @arg's entries says, until refused. A
 * child opens each PEA_BATCH of them and exits, so that no task drags
 * thousands of events through its context switches. With @arg's
 * one_event, the caller opens one event and puts it into every entry.
 */
struct pea_arg {
	__u32 entries;
	bool one_event;
	bool token;	/* made with the holder's token, not pinned */
};

static void pea_fill(const void *arg, void *out)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_PRESERVE_ELEMS);
	const struct pea_arg *a = arg;
	struct entry_fill *f = out;	/* shared with the children too */
	int map, event, status;
	__u32 i, end;
	pid_t pid;

	if (a->token) {
		map = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, PEA_ENTRIES,
				     &opts);
		f->untokened = map < 0 ? -errno : (close(map), 0);
		map = token_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, PEA_ENTRIES,
				       BPF_F_PRESERVE_ELEMS);
		f->map = map < 0 ? map : 0;
	} else {
		map = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, PEA_ENTRIES,
				     &opts);
		f->map = map < 0 ? -errno : bpf_obj_pin(map, BPFFS "/" PEA_PIN) ? -errno : 0;
	}
	if (!f->map && a->one_event) {
		event = own_sw_event(PERF_COUNT_SW_DUMMY);
		f->err = event < 0 ? event : 0;
		for (i = 0; !f->err && i < a->entries; i++) {
			if (bpf_map_update_elem(map, &i, &event, 0))
				f->err = -errno;
			else
				f->filled++;
		}
		if (event >= 0)
			close(event);
	}
	for (i = 0; !a->one_event && !f->map && !f->err && !f->killed && i < a->entries;
	     i = end) {
		end = i + PEA_BATCH;
		pid = fork();
		if (pid == 0) {
			for (; i < end; i++) {
				event = own_sw_event(PERF_COUNT_SW_DUMMY);
				if (event < 0) {
					f->err = event;
					break;
				}
				if (bpf_map_update_elem(map, &i, &event, 0))
					f->err = -errno;
				close(event);
				if (f->err)
					break;
				f->filled++;
			}
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			f->err = -ECHILD;
		else if (WIFSIGNALED(status))
			f->killed = true;
	}
	/* not at memory.max: a page fault of fopen()'s there meets the OOM
	 * killer (perf_event_array_one_event wants ENOMEM, not a kill)
	 */
	if (a->token)
		f->current = cg_memory_current();
	if (map >= 0)
		close(map);
}

/* The size of the kernel's struct @name, from its BTF, or -1 */
static long long kernel_struct_size(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	long long size = -1;
	int id;

	id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT) : -1;
	if (id > 0)
		size = btf__resolve_size(btf, id);
	btf__free(btf);
	return size;
}

/*
 * perf_event_array (default rule): an entry keeps its perf event, a
 * struct perf_event that no cgroup is charged for, after the event's fd
 * is closed, and with BPF_F_PRESERVE_ELEMS after the map's. The attacker
 * fills a pinned map of PEA_ENTRIES under memory.max MEMCG_MAX: what its
 * entries hold must be charged to its cgroup, and stop it there.
 */
static void perf_event_array_charged(bool hooks)
{
	long long event_size = kernel_struct_size("perf_event"), before, held;
	struct pea_arg arg = { .entries = PEA_ENTRIES };
	struct entry_fill f = {};
	int ret;

	if (!ASSERT_GT(event_size, 0, "sizeof(struct perf_event), from BTF") ||
	    !granted_cg_under(hooks, "perf_event_array", "socket_filter", MEMCG_MAX))
		goto out;
	before = cg_memory_current();
	ret = pinning_in_cg(pea_fill, &arg, &f, sizeof(f));
	if (!ASSERT_GE(ret, 0, "the attacker reports"))
		goto out;
	held = f.filled * event_size;
	printf("perf_event_array: map %d, %d of %d entries filled, then %s %d; "
	       "events held %lld bytes (%lld each); memory.current %lld, was %lld\n",
	       f.map, f.filled, PEA_ENTRIES, ret == 1 || f.killed ?
	       "killed by the cgroup's OOM killer" : "error", f.err, held, event_size,
	       cg_memory_current(), before);
	if (!hooks) {
		ASSERT_EQ(f.map, -EPERM, "stock refuses the map");
		goto out;
	}
	ASSERT_OK(f.map, "a granted perf_event_array, pinned");
	ASSERT_GT(f.filled, 0, "entries filled");
	ASSERT_TRUE(f.err == -ENOMEM || f.killed || ret == 1, "stopped by memory.max");
	ASSERT_LE(held, MEMCG_MAX, "the events the map holds, within memory.max");
	ASSERT_GE(cg_memory_current() - before, held, "and charged to its cgroup");
out:
	unpin_ungrant(hooks);
}

/*
 * token_perf_event_array: perf_event_array_charged's attack by a token's
 * holder whose BPF FS delegates map_create and perf_event_array: as v6.9,
 * the map is not granted and the events its entries keep are charged to
 * no cgroup. The holder fills all PEA_ENTRIES under memory.max MEMCG_MAX,
 * holding events of more than memory.max: reached, the administrator's
 * delegation decides (do not delegate perf_event_array).
 */
static void token_perf_event_array(void)
{
	long long event_size = kernel_struct_size("perf_event"), held;
	struct pea_arg arg = { .entries = PEA_ENTRIES, .token = true };
	struct entry_fill f = {};
	int ret;

	if (!ASSERT_GT(event_size, 0, "sizeof(struct perf_event), from BTF") ||
	    !token_cg_under(MEMCG_MAX))
		goto out;
	ret = token_holder_in_cg(&(struct delegation){ "map_create", "perf_event_array" },
				 pea_fill, &arg, &f, sizeof(f));
	held = f.filled * event_size;
	printf("%s: without the token %d; with it map %d, %d of %d entries filled, then %s "
	       "%d; events held %lld bytes, memory.current %lld under memory.max %d\n",
	       __func__, f.untokened, f.map, f.filled, PEA_ENTRIES,
	       ret == 1 || f.killed ? "killed by the cgroup's OOM killer" : "error", f.err,
	       held, f.current, MEMCG_MAX);
	if (!ASSERT_OK(ret, "the holder reports"))
		goto out;
	ASSERT_EQ(f.untokened, -EPERM, "the map without the token");
	ASSERT_OK(f.map, "a perf_event_array made with the token");
	ASSERT_EQ(f.filled, PEA_ENTRIES, "every entry filled");
	ASSERT_GT(held, MEMCG_MAX, "events past memory.max");
	ASSERT_LT(f.current, held, "the events charged to no cgroup");
out:
	ungrant_cg(false);
}

/*
 * perf_event_array with one event (default rule): the attacker puts the
 * same event into every entry of a pinned map of PEA_ENTRIES, under
 * memory.max MEMCG_MAX. No new file is charged beside an entry, so the
 * entries' own charge must refuse it (ENOMEM, not the OOM killer: it
 * allocates nothing else), and never go past memory.max.
 */
static void perf_event_array_one_event(bool hooks)
{
	struct pea_arg arg = { .entries = PEA_ENTRIES, .one_event = true };
	long long before, after = -1;
	struct entry_fill f = {};
	int ret;

	if (!granted_cg_under(hooks, "perf_event_array", "socket_filter", MEMCG_MAX))
		goto out;
	before = cg_memory_current();
	ret = pinning_in_cg(pea_fill, &arg, &f, sizeof(f));
	after = cg_memory_current();	/* while the pin holds the entries */
	printf("%s: map %d, %d of %d entries filled with one event, then error %d%s; "
	       "memory.current %lld, was %lld, memory.max %d\n", __func__, f.map,
	       f.filled, PEA_ENTRIES, f.err, ret == 1 ? ", killed" : "", after, before,
	       MEMCG_MAX);
	if (!ASSERT_OK(ret, "the attacker reports, not killed"))
		goto out;
	if (!hooks) {
		ASSERT_EQ(f.map, -EPERM, "stock refuses the map");
		goto out;
	}
	ASSERT_OK(f.map, "a granted perf_event_array, pinned");
	ASSERT_GT(f.filled, 0, "entries filled");
	ASSERT_LT(f.filled, PEA_ENTRIES, "not every entry");
	ASSERT_EQ(f.err, -ENOMEM, "refused with ENOMEM");
	ASSERT_LE(after, MEMCG_MAX, "memory.current within memory.max");
out:
	unpin_ungrant(hooks);
}

#define PEA_ROOT_ENTRIES	4096

/* A creator with CAP_BPF: the events its perf_event_array keeps are
 * charged to no one, as on stock; only a map made under a grant is
 * charged for them (its creator has no other bound)
 */
static void perf_event_array_capbpf_unchanged(void)
{
	long long event_size = kernel_struct_size("perf_event"), before, grew = -1;
	struct pea_arg arg = { .entries = PEA_ROOT_ENTRIES };
	struct entry_fill f = {};
	int ret;

	if (!ASSERT_GT(event_size, 0, "sizeof(struct perf_event), from BTF") ||
	    !make_cg())
		return;
	before = cg_memory_current();
	ret = in_cg_as_root(pea_fill, &arg, &f, sizeof(f));
	if (!ret)
		grew = cg_memory_current() - before;
	unlink(BPFFS "/" PEA_PIN);
	printf("%s: map %d, %d entries filled, error %d; memory.current grew %lld "
	       "bytes for %lld bytes of events\n", __func__, f.map, f.filled, f.err, grew,
	       f.filled * event_size);
	if (ASSERT_OK(ret, "root in the cgroup") &&
	    ASSERT_OK(f.map, "root's perf_event_array, pinned") &&
	    ASSERT_EQ(f.filled, PEA_ROOT_ENTRIES, "root fills it"))
		ASSERT_LT(grew, f.filled * event_size, "its events charged to no cgroup");
	rmdir(CG);
}

#define CPUMAP_NPROC	4
#define CPUMAP_ROUNDS	64
#define CPUMAP_QSIZE	16384	/* the kernel's largest: a ring of 128 KiB */
#define CPUMAP_PIN	"cpumap_"	/* in the attacker's pin directory */

struct cpumap_fill {
	int pinned;	/* cpumaps pinned, each with its entry */
	int err;	/* what stopped the attacker */
};

/* The attacker's side: pin cpumaps with an entry each until refused */
static void cpumap_fill(const void *arg, void *out)
{
	struct rlimit nproc = { CPUMAP_NPROC, CPUMAP_NPROC };
	__u32 key = 0, qsize = CPUMAP_QSIZE;
	struct cpumap_fill *c = out;
	char path[64];
	int fd;

	if (setrlimit(RLIMIT_NPROC, &nproc)) {
		c->err = -errno;
		return;
	}
	while (c->pinned < CPUMAP_ROUNDS) {
		fd = bpf_map_create(BPF_MAP_TYPE_CPUMAP, NULL, 4, 4, 1, NULL);
		if (fd < 0) {
			c->err = -errno;
			return;
		}
		snprintf(path, sizeof(path), BPFFS "/" CPUMAP_PIN "%d", c->pinned);
		c->err = bpf_map_update_elem(fd, &key, &qsize, 0) ||
			 bpf_obj_pin(fd, path) ? -errno : 0;
		close(fd);
		if (c->err)
			return;
		c->pinned++;
	}
}

/* How many cpumap kernel threads run now */
static int cpumap_threads(void)
{
	struct dirent *d;
	char path[300], comm[32];
	DIR *dir = opendir("/proc");
	int n = 0;
	FILE *f;

	while (dir && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "cpumap/", 7))
			n++;
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return n;
}

static bool no_cpumap_thread(long long unused)
{
	return cpumap_threads() == 0;
}

static bool kernel_charged(long long bytes)
{
	return cg_value("memory.stat", "kernel") >= bytes;
}

static void cpumap_threads_bound(bool hooks)
{
	struct cpumap_fill c[2] = {};
	int round, before;

	if (!granted_cg(hooks, "cpumap", "socket_filter"))
		goto out;
	before = cpumap_threads();
	for (round = 0; round < 2; round++) {
		if (!ASSERT_OK(pinning_in_cg(cpumap_fill, NULL, &c[round],
					     sizeof(c[round])), "the attacker reports"))
			break;
		printf("round %d: pinned %d cpumaps, then %d; %d cpumap threads\n",
		       round, c[round].pinned, c[round].err, cpumap_threads() - before);
		if (!hooks) {
			ASSERT_EQ(c[round].err, -EPERM, "stock refuses the cpumap");
			break;
		}
		ASSERT_GT(c[round].pinned, 0, "the grant works");
		ASSERT_LT(c[round].pinned, CPUMAP_NPROC, "within RLIMIT_NPROC");
		ASSERT_EQ(c[round].err, -EAGAIN, "refused as a fork would be");
		ASSERT_EQ(cpumap_threads() - before, c[round].pinned,
			  "one thread per entry");
		ASSERT_TRUE(eventually(kernel_charged,
				       (long long)c[round].pinned * CPUMAP_QSIZE * 8),
			    "the rings are charged to the attacker's cgroup");
		empty_pin_dir();
		ASSERT_TRUE(eventually(no_cpumap_thread, 0), "no thread left");
	}
	if (hooks)
		ASSERT_EQ(c[1].pinned, c[0].pinned, "the task count went back");
out:
	empty_pin_dir();
	ungrant_cg(hooks);
}

/* As nobody in CG: a sockmap, an sk_skb stream verdict program, and the
 * attach of one to the other; the attach's -errno, or -ENOTCONN (the map)
 * or -ENOEXEC (the program) if it did not get that far
 */
/*
 * memcg_every_map_type: for every map type of the kernel's enum
 * bpf_map_type (from its BTF, so that a type added later is tested
 * without anyone listing it), a rule that names that type alone, and
 * memory.max at MEMCG_MAX, the attacker pins maps of that type of about
 * TYPE_MAP_BYTES each, filled by updates where the memory comes then,
 * until refused. The kernel memory the guest lost meanwhile (MemAvailable)
 * less what the cgroup is charged must stay under TYPE_SLACK: the memory
 * cgroup is the bound on what a grantee holds, for every type it can be
 * granted. A map that asks for TYPE_MAP_BYTES must also be stopped by
 * memory.max well before MEMCG_ROUNDS. struct_ops, which no rule can name,
 * is not tried; a type of the kernel with no shape below fails. On the
 * stock kernel, the attacker is refused its first map of every type.
 */
#define TYPE_MAP_BYTES	(1 << 20)
#define TYPE_SLACK	(4 << 20)

/* How to create (and fill) a map of one type: key and value size, entries
 * for TYPE_MAP_BYTES, flags, whether it needs BTF or an inner map, and
 * whether its memory comes with updates (then: fill every entry)
 */
struct map_shape {
	const char *name;	/* libbpf's (and bpf-grant's) name */
	__u32 key, value, entries, flags;
	bool btf, inner, fill, percpu, big;
};

#define PTRS	(TYPE_MAP_BYTES / 8)	/* entries of an array of pointers */

static const struct map_shape shapes[] = {
	{ "hash", 4, 4092, 256, 0, .big = true },
	{ "array", 4, 4096, 256, 0, .big = true },
	{ "prog_array", 4, 4, PTRS, 0, .big = true },
	{ "perf_event_array", 4, 4, PTRS, 0, .big = true },
	{ "percpu_hash", 4, 1020, 1024, 0, .percpu = true, .big = true },
	{ "percpu_array", 4, 1024, 1024, 0, .percpu = true, .big = true },
	{ "stack_trace", 4, 8 * 127, 1024, 0, .big = true },
	{ "cgroup_array", 4, 4, PTRS, 0, .big = true },
	{ "lru_hash", 4, 4092, 256, 0, .big = true },
	{ "lru_percpu_hash", 4, 1020, 1024, 0, .percpu = true, .big = true },
	{ "lpm_trie", 8, 4088, 256, BPF_F_NO_PREALLOC, .fill = true, .big = true },
	{ "array_of_maps", 4, 4, PTRS, 0, .inner = true, .big = true },
	{ "hash_of_maps", 4, 4, 16384, 0, .inner = true, .big = true },
	{ "devmap", 4, 4, PTRS, 0, .big = true },
	{ "sockmap", 4, 4, PTRS, 0, .big = true },
	{ "cpumap", 4, 4, 1, 0 },
	{ "xskmap", 4, 4, PTRS, 0, .big = true },
	{ "sockhash", 4, 4, PTRS / 2, 0, .big = true },
	{ "cgroup_storage", 8, 4096, 0, 0 },
	{ "reuseport_sockarray", 4, 4, PTRS, 0, .big = true },
	{ "percpu_cgroup_storage", 8, 4096, 0, 0 },
	{ "queue", 0, 4096, 256, 0, .big = true },
	{ "stack", 0, 4096, 256, 0, .big = true },
	{ "sk_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "devmap_hash", 4, 4, PTRS, 0, .big = true },
	{ "ringbuf", 0, 0, TYPE_MAP_BYTES, 0, .big = true },
	{ "inode_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "task_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "bloom_filter", 0, 4, 1 << 20, 0, .big = true },
	{ "user_ringbuf", 0, 0, TYPE_MAP_BYTES, 0, .big = true },
	{ "hash", 4, 4092, 256, BPF_F_NO_PREALLOC, .fill = true, .big = true },
	{ "percpu_hash", 4, 1020, 1024, BPF_F_NO_PREALLOC, .fill = true,
	  .percpu = true, .big = true },
};

struct type_fill {
	const struct map_shape *shape;
	enum bpf_map_type type;	/* the kernel's value for shape->name */
	int ncpus;
};

/* The value size a map of @s is created with: per-CPU values are split
 * across the CPUs, so that every map asks for about the same bytes
 */
static __u32 shape_value(const struct map_shape *s, int ncpus)
{
	return s->percpu ? ((s->value / ncpus ?: 8) + 7) / 8 * 8 : s->value;
}

/* A BTF of one int, for the local storage maps' key and value */
static int int_btf(void)
{
	struct btf *btf = btf__new_empty();
	const void *raw = NULL;
	__u32 size;
	int fd = -ENOMEM;

	if (btf && btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0)
		raw = btf__raw_data(btf, &size);
	if (raw) {
		fd = bpf_btf_load(raw, size, NULL);
		if (fd < 0)
			fd = -errno;
	}
	btf__free(btf);
	return fd;
}

/* Update every entry of @fd as @s asks: 0 or -errno */
/* An element of a map without preallocation comes from the BPF memory
 * allocator's per-CPU cache, which an irq_work refills: an update that
 * finds it empty fails with ENOMEM while memory.max is far. Tried again,
 * up to FILL_TRIES times a millisecond apart, while CG is more than
 * FILL_MARGIN below memory.max; the ENOMEM of memory.max ends the fill.
 */
#define FILL_TRIES	100
#define FILL_MARGIN	(2 << 20)

static bool cg_far_from_max(void)
{
	char buf[32] = "";
	FILE *f = fopen(CG "/memory.max", "r");
	long long max = -1;

	if (f && fgets(buf, sizeof(buf), f) && strncmp(buf, "max", 3))
		max = atoll(buf);
	if (f)
		fclose(f);
	return max > 0 && cg_memory_current() < max - FILL_MARGIN;
}

static int fill_entries(int fd, const struct map_shape *s, int ncpus)
{
	int tries;
	size_t vsize = (size_t)shape_value(s, ncpus) * (s->percpu ? ncpus : 1);
	char *value = calloc(1, vsize);
	struct { __u32 prefixlen, data; } lpm = { 32 };
	__u32 i;
	int err = value ? 0 : -ENOMEM;

	for (i = 0; !err && i < s->entries; i++) {
		lpm.data = i;
		for (tries = 0; tries < FILL_TRIES; tries++) {
			err = bpf_map_update_elem(fd, s->key == 8 ? (void *)&lpm : (void *)&i,
						  value, BPF_ANY) ? -errno : 0;
			if (err != -ENOMEM || !cg_far_from_max())
				break;
			usleep(1000);
		}
	}
	free(value);
	return err;
}

/* Map @i of the fill of @s, pinned, its fds closed: 0 or -errno */
static int pin_shaped(int i, const void *arg)
{
	const struct type_fill *t = arg;
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = t->shape->flags);
	const struct map_shape *s = t->shape;
	int fd = -1, btf_fd = -1, inner_fd = -1, err = 0;
	char path[64];

	if (s->btf) {
		btf_fd = int_btf();
		if (btf_fd < 0)
			return btf_fd;
		opts.btf_fd = btf_fd;
		opts.btf_key_type_id = opts.btf_value_type_id = 1;
	}
	if (s->inner) {
		inner_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
		if (inner_fd < 0)
			return -errno;
		opts.inner_map_fd = inner_fd;
	}
	if (t->type == BPF_MAP_TYPE_BLOOM_FILTER)
		opts.map_extra = 5;	/* hash functions */
	fd = bpf_map_create(t->type, NULL, s->key, shape_value(s, t->ncpus),
			    s->entries, &opts);
	if (fd < 0)
		err = -errno;
	if (!err && s->fill)
		err = fill_entries(fd, s, t->ncpus);
	snprintf(path, sizeof(path), BPFFS "/" MEMCG_PIN "%d", i);
	if (!err && bpf_obj_pin(fd, path))
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (btf_fd >= 0)
		close(btf_fd);
	if (inner_fd >= 0)
		close(inner_fd);
	return err;
}

/* The guest's MemAvailable, in bytes */
static long long mem_available(void)
{
	long long kib = -1, n;
	char name[64];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fscanf(f, "%63s %lld kB", name, &n) == 2)
		if (!strcmp(name, "MemAvailable:"))
			kib = n;
	if (f)
		fclose(f);
	return kib < 0 ? -1 : kib << 10;
}

/* Whether map type @name has a shape here */
static bool has_shape(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		if (!strcmp(shapes[i].name, name))
			return true;
	return false;
}

static void memcg_one_shape(const struct type_fill *t, bool hooks)
{
	const struct map_shape *s = t->shape;
	long long before, charged, lost;
	struct fill f = {};
	char types[64];
	int ret;

	/* an inner map is an array, which the rule grants too */
	snprintf(types, sizeof(types), "%s%s", s->name, s->inner ? ",array" : "");
	if (!granted_cg_under(hooks, types, "socket_filter", MEMCG_MAX))
		goto out;
	before = mem_available();
	ret = pinning_in_cg(fill, &(struct pinner){ pin_shaped, t, MEMCG_ROUNDS },
			    &f, sizeof(f));
	charged = cg_memory_current();
	lost = before - mem_available();
	printf("%s%s: pinned %d of %d, then %s %d; lost %lld KiB, charged %lld KiB\n",
	       s->name, s->fill ? " (filled)" : "", f.pinned, MEMCG_ROUNDS,
	       ret == 1 ? "killed by the cgroup's OOM killer" : "error", f.err,
	       lost >> 10, charged >> 10);
	if (!ASSERT_GE(ret, 0, s->name))
		goto out;
	if (!hooks) {
		ASSERT_EQ(f.err, -EPERM, s->name);
		goto out;
	}
	ASSERT_GT(f.pinned, 0, s->name);
	ASSERT_LT(lost - charged, TYPE_SLACK, s->name);
	if (s->big)
		ASSERT_LT(f.pinned, MEMCG_ROUNDS / 2, s->name);
out:
	empty_pin_dir();
	ASSERT_TRUE(eventually(freed, 0), s->name);
	ungrant_cg(hooks);
}

/* The kernel's value of map type @name (bpf-grant's and libbpf's name:
 * the enumerator's in lower case, less BPF_MAP_TYPE_), 0 if it has none;
 * with @name NULL, fail for each type of the kernel with no shape
 */
static int kernel_map_type(const struct btf *btf, const char *name)
{
	char lower[64];
	int i, value;

	for (i = 0; kernel_map_type_at(btf, i, lower, sizeof(lower), &value); i++) {
		if (name && !strcmp(lower, name))
			return value;
		if (!name && lower[0] && strcmp(lower, "unspec") && strcmp(lower, "struct_ops"))
			ASSERT_TRUE(has_shape(lower), lower);
	}
	return 0;
}

static void memcg_every_map_type(bool hooks)
{
	struct type_fill t = { .ncpus = libbpf_num_possible_cpus() };
	struct btf *btf;
	int i;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "vmlinux BTF") || !ASSERT_GT(t.ncpus, 0, "possible CPUs"))
		goto out;
	kernel_map_type(btf, NULL);
	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		t.shape = &shapes[i];
		t.type = kernel_map_type(btf, shapes[i].name);
		if (ASSERT_GT(t.type, 0, shapes[i].name))
			memcg_one_shape(&t, hooks);
	}
out:
	btf__free(btf);
}

#define LINFO_CNT	(16 << 20)	/* announced: 256 MiB of line info */

/* A socket filter with BTF that announces LINFO_CNT line info records
 * and gives two, the second out of order: 0 or -errno
 */
static int load_huge_linfo(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_line_info linfo[2] = {};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .line_info = linfo,
		    .line_info_cnt = LINFO_CNT,
		    .line_info_rec_size = sizeof(linfo[0]));
	int btf_fd = int_btf(), fd;

	if (btf_fd < 0)
		return btf_fd;
	opts.prog_btf_fd = btf_fd;
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	fd = fd < 0 ? -errno : (close(fd), 0);
	close(btf_fd);
	return fd;
}

static void huge_linfo(const void *arg, void *out)
{
	*(int *)out = load_huge_linfo();
}

/* The verifier allocates the line info a load announces before it reads
 * a record: under memory.max (MEMCG_MAX), the load must fail for want of
 * memory (ENOMEM, or the cgroup's OOM killer), not at the second record
 * (EINVAL) after 256 MiB that no cgroup saw.
 */
static void verifier_memcg_bound(bool hooks)
{
	int err = 0, ret;

	if (granted_cg_under(hooks, "array", "socket_filter", MEMCG_MAX)) {
		ret = in_cg_as_nobody(huge_linfo, NULL, &err, sizeof(err));
		printf("%s: load %s, errno %d\n", __func__,
		       ret == 1 ? "OOM-killed" : ret ? "failed" : "returned", -err);
		if (hooks)
			ASSERT_TRUE(ret == 1 || (!ret && err == -ENOMEM),
				    "stopped by memory.max");
		else
			ASSERT_TRUE(!ret && err == -EPERM, "stock: BTF refused");
	}
	ungrant_cg(hooks);
}

#define JIT_LIMIT_FILE	"/proc/sys/net/core/bpf_jit_limit"
#define JIT_ATOMICS	4000	/* a cmpxchg loop each in the image */
#define JIT_PROGS	320	/* what the attacker holds at most */
#define CG_B		"/sys/fs/cgroup/grant_escape_b"

/* The instructions of a program whose image is about 3 times their
 * bytes: *(u64 *)(r10 - 8) = 0, then JIT_ATOMICS fetch-and on it, r0 = 0;
 * load_jit_heavy_as() loads them as a program of @type: fd or -errno
 */
#define JIT_HEAVY_INSNS	(JIT_ATOMICS + 4)
static const struct bpf_insn *jit_heavy_insns(void)
{
	static struct bpf_insn insns[JIT_HEAVY_INSNS];
	int i;

	insns[0] = (struct bpf_insn) { .code = BPF_ALU64 | BPF_MOV | BPF_K,
				       .dst_reg = BPF_REG_1 };
	insns[1] = (struct bpf_insn) { .code = BPF_STX | BPF_MEM | BPF_DW,
				       .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
				       .off = -8 };
	for (i = 2; i < JIT_ATOMICS + 2; i++)
		insns[i] = (struct bpf_insn) {
			.code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10,
			.src_reg = BPF_REG_1, .off = -8, .imm = BPF_AND | BPF_FETCH };
	insns[i++] = (struct bpf_insn) { .code = BPF_ALU64 | BPF_MOV | BPF_K,
					 .dst_reg = BPF_REG_0 };
	insns[i] = (struct bpf_insn) { .code = BPF_JMP | BPF_EXIT };
	return insns;
}

static int load_jit_heavy_as(enum bpf_prog_type type, struct bpf_prog_load_opts *opts)
{
	int fd = bpf_prog_load(type, NULL, "GPL", jit_heavy_insns(), JIT_HEAVY_INSNS, opts);

	return fd < 0 ? -errno : fd;
}

/* The same as a socket filter */
static int load_jit_heavy(void)
{
	return load_jit_heavy_as(BPF_PROG_TYPE_SOCKET_FILTER, NULL);
}

/* The bytes of @fd's image (0: the interpreter runs it) as root sees
 * them (a loader without CAP_BPF is told 0), or -errno
 */
static long long jited_len(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : info.jited_prog_len;
}

/* The same for the program @id */
static long long jited_len_of(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);
	long long len;

	if (fd < 0)
		return -errno;
	len = jited_len(fd);
	close(fd);
	return len;
}

/* What a loader in the JIT test did: programs it holds, why it stopped
 * (0: it had JIT_PROGS), the id of its first program
 */
struct jit_fill {
	int loaded;
	int err;
	__u32 id;
};

/* Load up to @arg programs, keep them: a struct jit_fill in @out */
static void jit_fill(const void *arg, void *out)
{
	struct bpf_prog_info info = {};
	struct jit_fill *f = out;
	__u32 len = sizeof(info);
	int fd;

	while (f->loaded < *(const int *)arg) {
		fd = load_jit_heavy();
		if (fd < 0) {
			f->err = fd;
			return;
		}
		if (!f->loaded++ && !bpf_obj_get_info_by_fd(fd, &info, &len))
			f->id = info.id;
	}
}

/* Run @fn(@arg, @out) in a child named ATTACKER, as nobody in @cg, and
 * let it stop itself there, holding what it made: its pid once stopped,
 * 0 if it exited or was killed first (the cgroup's OOM killer), -1 if
 * it could not start. @out: a page of the parent's, as in in_cg_as_nobody().
 */
static pid_t stopped_in_cg(const char *cg, void (*fn)(const void *arg, void *out),
			   const void *arg, void *out)
{
	char procs[128];
	int status;
	pid_t pid;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_NAME, ATTACKER) || write_file(procs, "0") ||
		    !become_nobody())
			_exit(1);
		fn(arg, out);
		raise(SIGSTOP);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, WUNTRACED) != pid)
		return -1;
	if (WIFSTOPPED(status))
		return pid;
	return WIFSIGNALED(status) || !WEXITSTATUS(status) ? 0 : -1;
}

static void end_stopped(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* bpf_jit_limit is one budget for the host, which binds every loader
 * without CAP_BPF. The attacker, granted in CG under memory.max
 * (MEMCG_MAX), loads JIT_PROGS programs whose images, uncharged, would
 * pass bpf_jit_limit (lowered for the test): charged, memory.max must
 * stop it first, and a second grantee in CG_B must still get an image.
 */
static void jit_memcg_bound(bool hooks)
{
	struct jit_fill *a, *b;
	int one = 1, fd, rounds = JIT_PROGS;
	long long image, limit, kills;
	pid_t attacker = -1, second = -1;
	char old[32] = "", max[32];
	FILE *f;

	/* the image's size, as root loads it */
	fd = load_jit_heavy();
	if (!ASSERT_GE(fd, 0, "root loads the program"))
		return;
	image = jited_len(fd);
	close(fd);
	if (!ASSERT_GT(image, 0, "root's program is JITed"))
		return;
	/* JIT_PROGS images overrun the budget by a quarter, which must be
	 * more than memory.max lets the attacker hold
	 */
	limit = image * JIT_PROGS * 3 / 4;
	printf("%s: an image of %lld bytes, bpf_jit_limit %lld\n", __func__,
	       image, limit);
	if (!ASSERT_GT(limit, MEMCG_MAX, "the test can tell"))
		return;
	f = fopen(JIT_LIMIT_FILE, "r");
	if (!ASSERT_OK_PTR(f, JIT_LIMIT_FILE) ||
	    !ASSERT_OK_PTR(fgets(old, sizeof(old), f), "read bpf_jit_limit")) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	/* what the loaders report, in pages of the parent's */
	a = mmap(NULL, 2 * sizeof(*a), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!ASSERT_NEQ(a, MAP_FAILED, "mmap"))
		return;
	memset(a, 0, 2 * sizeof(*a));
	b = a + 1;
	snprintf(max, sizeof(max), "%lld", limit);
	if (!ASSERT_OK(write_file(JIT_LIMIT_FILE, max), "lower bpf_jit_limit"))
		goto out_unmap;

	if (!granted_cg_under(hooks, "array", "socket_filter", MEMCG_MAX) ||
	    !ASSERT_OK(mkdir(CG_B, 0755) && errno != EEXIST ? -errno : 0, "mkdir " CG_B) ||
	    !ASSERT_OK(write_file(CG_B "/memory.max", GRANT_MEMORY_MAX), CG_B "/memory.max") ||
	    !ASSERT_EQ(tool("add", CG_B, "--map-types", "array", "--prog-types",
			    "socket_filter"), hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS,
		       "bpf-grant add " CG_B))
		goto out;

	kills = cg_memory_event("oom_kill");
	attacker = stopped_in_cg(CG, jit_fill, &rounds, a);
	printf("%s: the attacker holds %d programs, then %s %d; memory.current %lld\n",
	       __func__, a->loaded, attacker ? "error" : "killed by the OOM killer,",
	       a->err, cg_memory_current());
	if (!ASSERT_GE(attacker, 0, "the attacker ran"))
		goto out;
	if (!hooks) {
		ASSERT_EQ(a->err, -EPERM, "stock refuses the first");
		goto out;
	}
	ASSERT_GT(a->loaded, 0, "the grant works");
	ASSERT_TRUE(a->err == -ENOMEM || (!attacker && cg_memory_event("oom_kill") > kills),
		    "stopped by memory.max");

	/* while the attacker holds what it got, a second grantee loads */
	second = stopped_in_cg(CG_B, jit_fill, &one, b);
	if (ASSERT_GT(second, 0, "the second grantee ran") &&
	    ASSERT_EQ(b->loaded, 1, "the second grantee loads"))
		ASSERT_GT(jited_len_of(b->id), 0, "the second grantee's program is JITed");
out:
	end_stopped(second);
	end_stopped(attacker);
	if (hooks && attacker >= 0)
		ASSERT_TRUE(eventually(freed, 0), "charged after the attacker is gone");
	write_file(JIT_LIMIT_FILE, old);
	if (hooks)
		tool("remove", CG_B);
	rmdir(CG_B);
	ungrant_cg(hooks);
out_unmap:
	munmap(a, 2 * sizeof(*a));
}

/*
 * token_jit: jit_memcg_bound's attack by a token's holder whose BPF FS
 * delegates prog_load and socket_filter: as v6.9, a JIT image is charged
 * to no cgroup (bpf_jit_charge_modmem() asks bpf_capable(); the host-wide
 * bpf_jit_limit binds). Under memory.max JIT_TOKEN_MAX the holder loads
 * and holds JIT_TOKEN_PROGS programs whose images pass memory.max:
 * reached, the delegation decides. What is charged of each (its pages,
 * about 40 KiB) keeps the hundred well under JIT_TOKEN_MAX.
 */
#define JIT_TOKEN_PROGS	100
#define JIT_TOKEN_MAX	(8 << 20)

struct jit_hold {
	int untokened;		/* the same load without the token: -errno */
	int loaded, err;
	long long current;	/* CG's memory.current, the programs held */
};

static void token_jit_fill(const void *arg, void *out)
{
	struct jit_hold *h = out;
	int fd;

	/* the control: the holder has no capability but its token's */
	fd = load_jit_heavy();
	h->untokened = fd < 0 ? fd : 0;
	if (fd >= 0)
		close(fd);
	/* the fds stay open until the holder exits */
	for (; h->loaded < JIT_TOKEN_PROGS; h->loaded++) {
		fd = token_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, jit_heavy_insns(),
				     JIT_HEAVY_INSNS);
		if (fd < 0) {
			h->err = fd;
			break;
		}
	}
	h->current = cg_memory_current();
}

static void token_jit(void)
{
	struct jit_hold h = {};
	long long image;
	int fd, ret;

	fd = load_jit_heavy();	/* the image, as root sees it */
	if (!ASSERT_GE(fd, 0, "root's program"))
		return;
	image = jited_len(fd);
	close(fd);
	if (!ASSERT_GT(image, 0, "its image") || !token_cg_under(JIT_TOKEN_MAX))
		goto out;
	/* v6.9 asks for the attach type too: a socket filter's is 0 */
	ret = token_holder_in_cg(&(struct delegation){ "prog_load", NULL, "socket_filter", "any" },
				 token_jit_fill, NULL, &h, sizeof(h));
	printf("%s: without the token %d; with it loaded %d of %d, then error %d; images "
	       "%lld bytes, memory.current %lld under memory.max %d\n", __func__,
	       h.untokened, h.loaded, JIT_TOKEN_PROGS, h.err, h.loaded * image, h.current,
	       JIT_TOKEN_MAX);
	if (!ASSERT_OK(ret, "the holder reports"))
		goto out;
	ASSERT_EQ(h.untokened, -EPERM, "the load without the token");
	ASSERT_EQ(h.loaded, JIT_TOKEN_PROGS, "every program loaded");
	ASSERT_GT(h.loaded * image, JIT_TOKEN_MAX, "images past memory.max");
	ASSERT_LT(h.current, h.loaded * image, "the images charged to no cgroup");
out:
	ungrant_cg(false);
}

/*
 * memcg_every_prog_type: for every program type of the kernel's enum
 * bpf_prog_type (from its BTF, so that a type added later is tested
 * without anyone listing it), a rule that names that type alone, and
 * memory.max at PROG_TYPE_MAX, the attacker pins programs of that type, each
 * of JIT_ATOMICS atomics (32 KiB of instructions, an image of about 100),
 * until refused. Its cgroup must be charged at least what each program
 * holds by the kernel's own figures (its pages, fdinfo's memlock, and its
 * image, as root loads the same program), memory.max must stop it well
 * before PROG_ROUNDS, and the kernel memory the guest lost (MemAvailable)
 * less what the cgroup is charged must stay under TYPE_SLACK. Not tried,
 * each said in prog_types_not_tried; a type of the kernel with no shape
 * fails. On the stock kernel, the attacker is refused its first program.
 */
/* A UDP socket bound to a port of its own, so hashed, as a socket map
 * wants one: fd or -errno
 */
static int bound_udp(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (sock >= 0 && bind(sock, (void *)&addr, sizeof(addr))) {
		close(sock);
		return -errno;
	}
	return sock < 0 ? -errno : sock;
}

/*
 * sockmap_links_charged (sockmap named): each entry of a socket map
 * holds a link, charged to no one on stock. The attacker puts UDP
 * sockets of its own into every entry of a sockmap of SOCKMAP_ENTRIES,
 * each in as many as it takes, under memory.max SOCKMAP_MAX, and stops
 * there, holding them (closing a socket takes it out of the map): the
 * links must be charged,
 * and refused with ENOMEM at memory.max; the kernel memory the guest
 * lost less what the cgroup is charged must stay under TYPE_SLACK.
 */
#define SOCKMAP_ENTRIES	(128 * 1024)	/* its array of sockets: 1 MiB */
#define SOCKMAP_MAX	(3 << 20)
#define SOCKMAP_PIN	"sockmap"	/* in the attacker's pin directory */
/* The entries of granted maps a socket goes into (the kernel's
 * SOCK_MAP_GRANTED_LINKS): its close walks its links once per link
 */
#define SOCK_LINKS	1024

/*
 * sockmap_close_bounded (sockmap and sockhash named): the attacker puts
 * one socket into SOCKMAP_ONE_ENTRIES entries of a granted sockmap, and
 * of a sockhash; its close would take time quadratic in them (100k held a
 * CPU past the RCU stall timeout under TCG). Refused with ENOSPC after
 * SOCK_LINKS, and a second socket goes on. The control: root's maps of
 * both types take one socket in all.
 */
#define SOCKMAP_ONE_ENTRIES	(4 * SOCK_LINKS)

/* One socket into each entry of a new map of type *@arg (a sockmap or
 * a sockhash) until refused: its -errno and how many in @out's struct
 * entry_fill; then a second socket into the next entry: its -errno in
 * @out's map
 */
static void sockmap_one_socket(const void *arg, void *out)
{
	enum bpf_map_type type = *(const enum bpf_map_type *)arg;
	struct entry_fill *f = out;
	int map, sock, second;
	__u32 i;

	map = bpf_map_create(type, NULL, 4, 4, SOCKMAP_ONE_ENTRIES, NULL);
	f->map = map < 0 ? -errno : 0;
	sock = f->map ? -1 : bound_udp();
	f->err = f->map ?: sock < 0 ? sock : 0;
	for (i = 0; !f->err && i < SOCKMAP_ONE_ENTRIES; i++) {
		if (bpf_map_update_elem(map, &i, &sock, BPF_ANY))
			f->err = -errno;
		else
			f->filled++;
	}
	if (map >= 0 && i < SOCKMAP_ONE_ENTRIES) {
		second = bound_udp();
		f->map = second < 0 ? second :
			 bpf_map_update_elem(map, &i, &second, BPF_ANY) ? -errno : 0;
		if (second >= 0)
			close(second);
	}
	if (sock >= 0)
		close(sock);
	if (map >= 0)
		close(map);
}

static void sockmap_close_bounded(bool hooks)
{
	static const enum bpf_map_type types[] = {
		BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH,
	};
	struct entry_fill f, root;
	int i, ret;

	if (!granted_cg(hooks, "sockmap,sockhash", "socket_filter"))
		goto out;
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		root = (struct entry_fill){};
		sockmap_one_socket(&types[i], &root);	/* as root, here */
		f = (struct entry_fill){};
		ret = in_cg_as_nobody(sockmap_one_socket, &types[i], &f, sizeof(f));
		printf("%s: map type %d: root's, one socket in %d of %d entries, error "
		       "%d; the attacker's, %d, then error %d; a second: %d\n", __func__,
		       types[i], root.filled, SOCKMAP_ONE_ENTRIES, root.err, f.filled,
		       f.err, f.map);
		ASSERT_EQ(root.filled, SOCKMAP_ONE_ENTRIES, "root: one socket in every entry");
		if (!ASSERT_OK(ret, "the attacker reports"))
			continue;
		if (!hooks) {
			ASSERT_EQ(f.err, -EPERM, "stock refuses the map");
			continue;
		}
		ASSERT_EQ(f.filled, SOCK_LINKS, "one socket in SOCK_LINKS entries");
		ASSERT_EQ(f.err, -ENOSPC, "then ENOSPC");
		ASSERT_OK(f.map, "a second socket goes on");
	}
out:
	ungrant_cg(hooks);
}

/* Put sockets into every entry of @map, each into as many as a granted
 * map takes (SOCK_LINKS): how far it got into @f. The sockets are made
 * first, so that a full memory cgroup refuses an entry (ENOMEM), not a
 * socket (its OOM killer); they are left open.
 */
static void sockmap_entries(int map, __u32 entries, struct entry_fill *f)
{
	int socks[SOCKMAP_ENTRIES / SOCK_LINKS], n;
	__u32 i = 0;

	for (n = 0; n < ARRAY_SIZE(socks) && !f->err; n++) {
		socks[n] = bound_udp();
		f->err = socks[n] < 0 ? socks[n] : 0;
	}
	for (n = 0; !f->err && i < entries && n < ARRAY_SIZE(socks); ) {
		if (!bpf_map_update_elem(map, &i, &socks[n], BPF_ANY)) {
			f->filled++;
			i++;
		} else if (errno == ENOSPC) {
			n++;
		} else {
			f->err = -errno;
		}
	}
}

/* Fill a sockmap, the map and its sockets left open: a struct entry_fill */
static void sockmap_fill(const void *arg, void *out)
{
	struct entry_fill *f = out;
	int map;

	map = bpf_map_create(BPF_MAP_TYPE_SOCKMAP, NULL, 4, 4, SOCKMAP_ENTRIES, NULL);
	f->map = map < 0 ? -errno : 0;
	if (!f->map)
		sockmap_entries(map, SOCKMAP_ENTRIES, f);
}

static void sockmap_links_charged(bool hooks)
{
	long long before, lost = -1, charged = -1;
	struct entry_fill *f;
	pid_t pid = -1;

	/* what the attacker reports, in a page of the parent's */
	f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (!ASSERT_NEQ(f, MAP_FAILED, "mmap"))
		return;
	memset(f, 0, sizeof(*f));
	if (!granted_cg_under(hooks, "sockmap", "socket_filter", SOCKMAP_MAX))
		goto out;
	before = mem_available();
	pid = stopped_in_cg(CG, sockmap_fill, NULL, f);
	if (pid > 0) {
		charged = cg_memory_current();
		lost = before - mem_available();
	}
	printf("%s: map %d, %d of %d entries filled, %d a socket, then error %d; "
	       "lost %lld KiB, charged %lld KiB, memory.max %d KiB\n", __func__,
	       f->map, f->filled, SOCKMAP_ENTRIES, SOCK_LINKS, f->err, lost >> 10, charged >> 10,
	       SOCKMAP_MAX >> 10);
	if (!ASSERT_GT(pid, 0, "the attacker stopped, holding its map"))
		goto out;
	if (!hooks) {
		ASSERT_EQ(f->map, -EPERM, "stock refuses the map");
		goto out;
	}
	ASSERT_OK(f->map, "a granted sockmap");
	ASSERT_GT(f->filled, 0, "entries filled");
	ASSERT_LT(f->filled, SOCKMAP_ENTRIES, "not every entry");
	ASSERT_EQ(f->err, -ENOMEM, "refused with ENOMEM");
	/* a charge that may not fail (the stop's own) can pass memory.max
	 * by a page or so; a forced charge per link would pass it by MiBs
	 */
	ASSERT_LE(charged, SOCKMAP_MAX + (256 << 10), "memory.current near memory.max");
	ASSERT_LT(lost - charged, TYPE_SLACK, "what the guest lost, charged");
out:
	end_stopped(pid);
	ASSERT_TRUE(eventually(freed, 0), "freed once it is gone");
	ungrant_cg(hooks);
	munmap(f, sizeof(*f));
}

/*
 * sockmap_links_objcg: the links are charged to the map's memory cgroup,
 * not the updater's. The attacker makes and pins a granted sockmap in CG
 * (memory.max SOCKMAP_MAX); a process in CG_B, with no memory bound,
 * fills it through an fd of the pin: CG's bound must stop it (ENOMEM),
 * and CG_B must not pay for the links. Else a grantee would update its
 * maps from a cgroup with no bound.
 */
static void sockmap_make_pinned(const void *arg, void *out)
{
	int map = bpf_map_create(BPF_MAP_TYPE_SOCKMAP, NULL, 4, 4, SOCKMAP_ENTRIES, NULL);

	*(int *)out = map < 0 ? -errno : bpf_obj_pin(map, BPFFS "/" SOCKMAP_PIN) ? -errno : 0;
	if (map >= 0)
		close(map);
}

/* Fill the map of fd *@arg, inherited: a struct entry_fill */
static void sockmap_fill_fd(const void *arg, void *out)
{
	sockmap_entries(*(const int *)arg, SOCKMAP_ENTRIES, out);
}

static void sockmap_links_objcg(bool hooks)
{
	long long charged = -1, charged_b = -1;
	int made = -ENOEXEC, map = -1;
	struct entry_fill *f;
	pid_t pid = -1;

	f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (!ASSERT_NEQ(f, MAP_FAILED, "mmap"))
		return;
	memset(f, 0, sizeof(*f));
	if (!granted_cg_under(hooks, "sockmap", "socket_filter", SOCKMAP_MAX) ||
	    !ASSERT_OK(mkdir(CG_B, 0755) && errno != EEXIST ? -errno : 0, "mkdir " CG_B) ||
	    !ASSERT_OK(pinning_in_cg(sockmap_make_pinned, NULL, &made, sizeof(made)),
		       "the attacker reports"))
		goto out;
	if (!hooks) {
		ASSERT_EQ(made, -EPERM, "stock refuses the map");
		goto out;
	}
	if (!ASSERT_OK(made, "a granted sockmap, pinned"))
		goto out;
	map = bpf_obj_get(PIN_DIR "/" SOCKMAP_PIN);
	if (!ASSERT_GE(map, 0, "its pin"))
		goto out;
	pid = stopped_in_cg(CG_B, sockmap_fill_fd, &map, f);
	if (pid > 0) {
		charged = cg_memory_current();
		charged_b = cg_memory_current_of(CG_B);
	}
	printf("%s: from %s, %d of %d entries filled, then error %d; memory.current "
	       "%lld KiB of the map's cgroup (max %d KiB), %lld KiB of the updater's\n",
	       __func__, CG_B, f->filled, SOCKMAP_ENTRIES, f->err, charged >> 10,
	       SOCKMAP_MAX >> 10, charged_b >> 10);
	if (!ASSERT_GT(pid, 0, "the updater stopped, holding its sockets"))
		goto out;
	ASSERT_GT(f->filled, 0, "entries filled");
	ASSERT_LT(f->filled, SOCKMAP_ENTRIES, "not every entry");
	ASSERT_EQ(f->err, -ENOMEM, "refused with ENOMEM at the map's memory.max");
	/* its sockets (128) and its own pages, not 32 bytes an entry */
	ASSERT_LT(charged_b, f->filled * 32LL, "the updater's cgroup pays no link");
out:
	end_stopped(pid);
	if (map >= 0)
		close(map);
	empty_pin_dir();
	ASSERT_TRUE(eventually(freed, 0), "freed once it is gone");
	rmdir(CG_B);
	ungrant_cg(hooks);
	munmap(f, sizeof(*f));
}

/* Byte offset of member @name of @t, its index to *@idx: -1 if none */
static int member_off(const struct btf_type *t, const struct btf *btf,
		      const char *name, __u32 *idx)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name)) {
			if (idx)
				*idx = i;
			return btf_member_bit_offset(t, i) / 8;
		}
	return -1;
}

#define PROG_ROUNDS	512

/* How to load a program of one type: its expected attach type, the
 * vmlinux function it attaches to (or, with @member, the struct whose
 * member it is, that member's index its attach type), its flags, and a
 * function that only a kernel built with the type has
 */
struct prog_shape {
	const char *name;	/* libbpf's (and bpf-grant's) name */
	enum bpf_attach_type attach;
	const char *target;
	__u32 flags;
	const char *built_with;
	const char *member;
};

static const struct prog_shape prog_shapes[] = {
	{ "socket_filter" }, { "kprobe" }, { "sched_cls" }, { "sched_act" },
	{ "tracepoint" }, { "xdp" }, { "perf_event" }, { "cgroup_skb" },
	{ "cgroup_sock" }, { "lwt_in" }, { "lwt_out" }, { "lwt_xmit" },
	{ "sock_ops" }, { "sk_skb" }, { "cgroup_device" }, { "sk_msg" },
	{ "raw_tracepoint" }, { "cgroup_sock_addr", BPF_CGROUP_INET4_BIND },
	{ "lwt_seg6local" }, { "lirc_mode2", .built_with = "lirc_prog_attach" },
	{ "sk_reuseport" }, { "flow_dissector" }, { "cgroup_sysctl" },
	{ "raw_tracepoint_writable" }, { "cgroup_sockopt", BPF_CGROUP_GETSOCKOPT },
	{ "tracing", BPF_TRACE_FENTRY, "bpf_fentry_test1" },
	{ "lsm", BPF_LSM_MAC, "bpf_lsm_file_open" },
	{ "struct_ops", .target = "tcp_congestion_ops", .member = "ssthresh" },
	{ "sk_lookup", BPF_SK_LOOKUP },
	{ "syscall", .flags = BPF_F_SLEEPABLE },
};

/* Program types not tried, and why */
static const char *const prog_types_not_tried[][2] = {
	{ "ext", "replaces a function of a program with BTF func info; the "
		 "memory of its load is a program's, as every type here" },
};

struct prog_type_fill {
	const struct prog_shape *shape;
	enum bpf_prog_type type;	/* the kernel's value for shape->name */
	int btf_id;			/* of shape->target in vmlinux */
	__u32 attach;			/* shape->attach, or the member's index */
	long long held;			/* memlock and image of one, as root's */
};

/* A program of @t's shape, loaded: fd or -errno */
static int load_prog_shaped(const struct prog_type_fill *t)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = t->attach,
		    .attach_btf_id = t->btf_id, .prog_flags = t->shape->flags);

	return load_jit_heavy_as(t->type, &opts);
}

/* Program @i of the fill of @arg (a struct prog_type_fill), pinned, its
 * fd closed: 0 or -errno
 */
static int pin_prog_shaped(int i, const void *arg)
{
	int fd = load_prog_shaped(arg), err = 0;
	char path[64];

	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), BPFFS "/" MEMCG_PIN "%d", i);
	if (bpf_obj_pin(fd, path))
		err = -errno;
	close(fd);
	return err;
}

/* fdinfo's memlock of @fd, the pages of a program, or -1 */
static long long fdinfo_memlock(int fd)
{
	long long v = -1;
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static void memcg_one_prog_type(struct prog_type_fill *t, bool hooks)
{
	const char *name = t->shape->name;
	long long before, charged, lost, image;
	struct fill f = {};
	int fd, ret;

	/* What one program holds, as root loads it */
	fd = load_prog_shaped(t);
	if (!ASSERT_GE(fd, 0, name))
		return;
	image = jited_len(fd);
	t->held = fdinfo_memlock(fd) + image;
	close(fd);
	if (!ASSERT_GT(image, 0, name) || !ASSERT_GT(t->held, image, name) ||
	    !granted_cg_under(hooks, "array", name, PROG_TYPE_MAX))
		goto out;
	before = mem_available();
	ret = pinning_in_cg(fill, &(struct pinner){ pin_prog_shaped, t, PROG_ROUNDS },
			    &f, sizeof(f));
	charged = cg_memory_current();
	lost = before - mem_available();
	printf("%s: pinned %d of %d (%lld bytes each), then %s %d; lost %lld KiB, "
	       "charged %lld KiB\n", name, f.pinned, PROG_ROUNDS, t->held,
	       ret == 1 ? "killed by the cgroup's OOM killer" : "error", f.err,
	       lost >> 10, charged >> 10);
	if (!ASSERT_GE(ret, 0, name))
		goto out;
	if (!hooks) {
		ASSERT_EQ(f.err, -EPERM, name);
		goto out;
	}
	ASSERT_GT(f.pinned, 0, name);
	ASSERT_TRUE(ret == 1 || f.err == -ENOMEM, name);
	ASSERT_LT(f.pinned, PROG_ROUNDS / 2, name);
	ASSERT_GE(charged, f.pinned * t->held, name);
	ASSERT_LT(lost - charged, TYPE_SLACK, name);
out:
	empty_pin_dir();
	ASSERT_TRUE(eventually(freed, 0), name);
	ungrant_cg(hooks);
}

/* Why program type @name is not tried, or NULL */
static const char *prog_type_not_tried(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(prog_types_not_tried); i++)
		if (!strcmp(prog_types_not_tried[i][0], name))
			return prog_types_not_tried[i][1];
	return NULL;
}

static void memcg_every_prog_type(bool hooks)
{
	struct prog_type_fill t = {};
	struct btf *btf;
	const char *why;
	char lower[64];
	int i, j, value;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "vmlinux BTF"))
		return;
	for (i = 0; kernel_prog_type_at(btf, i, lower, sizeof(lower), &value); i++) {
		if (!lower[0] || !strcmp(lower, "unspec"))
			continue;
		why = prog_type_not_tried(lower);
		if (why) {
			printf("%s: not tried: %s\n", lower, why);
			continue;
		}
		for (j = 0; j < ARRAY_SIZE(prog_shapes); j++)
			if (!strcmp(prog_shapes[j].name, lower))
				break;
		if (!ASSERT_LT(j, ARRAY_SIZE(prog_shapes), lower))
			continue;
		t = (struct prog_type_fill){ .shape = &prog_shapes[j], .type = value,
					     .attach = prog_shapes[j].attach };
		if (t.shape->built_with &&
		    btf__find_by_name_kind(btf, t.shape->built_with, BTF_KIND_FUNC) <= 0) {
			printf("%s: not in this kernel (no %s)\n", lower, t.shape->built_with);
			continue;
		}
		if (t.shape->target) {
			t.btf_id = btf__find_by_name_kind(btf, t.shape->target,
							  t.shape->member ? BTF_KIND_STRUCT :
									    BTF_KIND_FUNC);
			if (!ASSERT_GT(t.btf_id, 0, t.shape->target))
				continue;
		}
		if (t.shape->member &&
		    !ASSERT_GE(member_off(btf__type_by_id(btf, t.btf_id), btf,
					  t.shape->member, &t.attach), 0, t.shape->member))
			continue;
		memcg_one_prog_type(&t, hooks);
	}
	btf__free(btf);
}

#define PERCPU_BYTES	(1 << 20)

/* Root's side: memory.current's growth over a percpu_array's creation */
static void percpu_charged(const void *arg, void *out)
{
	long long before = cg_memory_current();
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, NULL, 4, 1024,
				PERCPU_BYTES / 1024, NULL);

	*(long long *)out = fd < 0 ? -errno : cg_memory_current() - before;
	if (fd >= 0)
		close(fd);
}

static void percpu_capbpf_unchanged(void)
{
	long long grew = -1;

	if (!make_cg())
		return;
	ASSERT_OK(in_cg_as_root(percpu_charged, NULL, &grew, sizeof(grew)), "root in the cgroup");
	printf("%s: memory.current grew %lld bytes for %d CPUs' %d bytes\n", __func__,
	       grew, libbpf_num_possible_cpus(), PERCPU_BYTES);
	ASSERT_GE(grew, 0, "root creates the percpu_array");
	/* Charged, they would be PERCPU_BYTES a CPU; uncharged, memory.current
	 * still moves by what each CPU's charge batch took ahead (64 pages a
	 * CPU, 512 KiB on 2: stock grew by exactly that once)
	 */
	ASSERT_LT(grew, (long long)libbpf_num_possible_cpus() * PERCPU_BYTES / 2,
		  "its per-CPU values charged to no cgroup");
	rmdir(CG);
}

/*
 * memcg_whole_attack (file comment). The kinds: the shapes of
 * memcg_every_map_type, then a program, then BTF (a blob of BTF_INTS
 * types, held by an array map made with it).
 */
#define WHOLE_MAX	(64 << 20)
#define WHOLE_SLACK	(16 << 20)
#define WHOLE_ROUNDS	32	/* more than WHOLE_MAX needs, one map a kind */
#define WHOLE_PIN	"whole_"
#define WHOLE_KINDS	(ARRAY_SIZE(shapes) + 2)

/* What the attacker did: objects pinned of each kind and why each kind
 * stopped (-errno; 0: it had WHOLE_ROUNDS), the huge line info's load
 */
struct whole {
	int pinned[WHOLE_KINDS];
	int err[WHOLE_KINDS];
	int linfo_err;
};

/* Object @round of kind @k, pinned as WHOLE_PIN<k>_<round>: 0 or -errno */
static int whole_pin_one(const struct type_fill *types, int k, int round)
{
	char path[64];
	bool with_btf = true;
	int fd, err;

	if (k < ARRAY_SIZE(shapes))
		return pin_shaped(k * WHOLE_ROUNDS + round, &types[k]);
	if (k == ARRAY_SIZE(shapes) + 1)
		return pin_one(ARRAY_SIZE(shapes) * WHOLE_ROUNDS + round, &with_btf);
	fd = load_jit_heavy();
	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), BPFFS "/" WHOLE_PIN "%d", round);
	err = bpf_obj_pin(fd, path) ? -errno : 0;
	close(fd);
	return err;
}

/* The attacker's side; @arg: the kinds' struct type_fill */
static void whole_attack(const void *arg, void *out)
{
	const struct type_fill *types = arg;
	struct whole *w = out;
	int round, k, left = WHOLE_KINDS;

	for (round = 0; round < WHOLE_ROUNDS && left; round++)
		for (k = 0; k < WHOLE_KINDS; k++) {
			if (w->err[k])
				continue;
			w->err[k] = whole_pin_one(types, k, round);
			if (w->err[k])
				left--;
			else
				w->pinned[k]++;
		}
	w->linfo_err = load_huge_linfo();
}

static long long whole_before;

/* Whether comma-separated @list has @name */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Whether what the guest lost since whole_before is within the charge
 * and WHOLE_SLACK: frees after the attacker's exit come after RCU and
 * work items
 */
static bool whole_settled(long long unused)
{
	return whole_before - mem_available() - cg_memory_current() < WHOLE_SLACK;
}

static void memcg_whole_attack(bool hooks)
{
	struct type_fill types[ARRAY_SIZE(shapes)];
	char names[1024] = "";
	long long lost, charged;
	struct whole w = {};
	struct btf *vmlinux, *btf = NULL;
	int i, k, ret, ncpus = libbpf_num_possible_cpus();

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "vmlinux BTF") || !ASSERT_GT(ncpus, 0, "possible CPUs"))
		goto out_btf;
	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		types[i] = (struct type_fill){ &shapes[i], kernel_map_type(vmlinux, shapes[i].name),
					       ncpus };
		if (!ASSERT_GT(types[i].type, 0, shapes[i].name))
			goto out_btf;
		if (!in_list(names, shapes[i].name))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? "," : "", shapes[i].name);
	}
	/* the BTF kind's blob, as btf_memcg_bound's */
	btf = btf_of_ints();
	if (!ASSERT_OK_PTR(btf_blob, "a BTF of int types"))
		goto out_btf;
	if (!granted_cg_under(hooks, names, "socket_filter", WHOLE_MAX))
		goto out;
	whole_before = mem_available();
	ret = pinning_in_cg(whole_attack, types, &w, sizeof(w));
	for (k = 0; k < WHOLE_KINDS; k++)
		printf("%s: %d pinned, then %d\n",
		       k < ARRAY_SIZE(shapes) ? shapes[k].name :
		       k == ARRAY_SIZE(shapes) ? "program" : "BTF", w.pinned[k], w.err[k]);
	if (!ASSERT_GE(ret, 0, "the attacker reports"))
		goto out;
	if (!hooks) {
		for (k = 0; k < WHOLE_KINDS; k++)
			ASSERT_EQ(w.pinned[k], 0, "stock refuses every kind");
		goto out;
	}
	/* what the pins hold once the attacker's own frees are done */
	eventually(whole_settled, 0);
	charged = cg_memory_current();
	lost = whole_before - mem_available();
	printf("%s: %s, line info load %d; lost %lld KiB, charged %lld KiB\n", __func__,
	       ret == 1 ? "killed by the cgroup's OOM killer" : "exited", w.linfo_err,
	       lost >> 10, charged >> 10);
	/* the rule names every kind: each is granted, until memory runs out */
	for (k = 0; k < WHOLE_KINDS; k++)
		ASSERT_TRUE(w.pinned[k] > 0 || w.err[k] == -ENOMEM || (ret == 1 && !w.err[k]),
			    k < ARRAY_SIZE(shapes) ? shapes[k].name : "program or BTF");
	/* unless the cgroup's OOM killer ended it first, it ran to the end */
	for (k = 0; !ret && k < WHOLE_KINDS; k++)
		ASSERT_NEQ(w.err[k], 0, "every kind stopped before WHOLE_ROUNDS");
	if (!ret)
		ASSERT_EQ(w.linfo_err, -ENOMEM, "line info refused for want of memory");
	ASSERT_LT(lost - charged, WHOLE_SLACK, "unaccounted after the attacker");
	ASSERT_LT(lost, WHOLE_MAX + WHOLE_SLACK, "lost: memory.max and the slack");
out:
	unpin_ungrant(hooks);
out_btf:
	btf__free(btf);
	btf__free(vmlinux);
}

static int sockmap_attach(void)
{
	const struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_SK_SKB_STREAM_VERDICT);
	int map, prog, err;

	map = bpf_map_create(BPF_MAP_TYPE_SOCKMAP, NULL, 4, 4, 1, NULL);
	if (map < 0)
		return -ENOTCONN;
	prog = bpf_prog_load(BPF_PROG_TYPE_SK_SKB, NULL, "GPL", pass,
			     ARRAY_SIZE(pass), &opts);
	if (prog < 0) {
		close(map);
		return -ENOEXEC;
	}
	err = bpf_prog_attach(prog, map, BPF_SK_SKB_STREAM_VERDICT, 0) ? -errno : 0;
	close(prog);
	close(map);
	return err;
}

static void sockmap_verdict_attach(bool hooks)
{
	/* stock: refused at the first step, the map */
	gate_kept(hooks, "sockmap", "socket_filter,sk_skb", sockmap_attach,
		  hooks ? -EPERM : -ENOTCONN,
		  "attach of a granted verdict program to a granted sockmap");
}

/* How far the attacker got with programs that run for a whole network
 * namespace: each step's -errno, 0 if it worked
 */
struct netns_attach {
	int flow_load, lookup_load;	/* a flow dissector, an sk_lookup */
	int flow_attach, flow_link, lookup_link;	/* to the initial one */
	int own_netns;			/* root of namespaces of its own */
	int own_flow_attach, own_flow_link, own_lookup_link;	/* there */
};

/* A program of @type returning @ret: its fd or -errno */
static int load_ret(enum bpf_prog_type type, enum bpf_attach_type attach, int ret)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach);
	int fd = bpf_prog_load(type, NULL, "GPL", insns, ARRAY_SIZE(insns), &opts);

	return fd < 0 ? -errno : fd;
}

/* Attach @flow, then link @flow and @lookup, to the caller's network
 * namespace; each undone if it worked. @res: three -errno or 0
 */
static void attach_to_netns(int flow, int lookup, int res[3])
{
	int ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), link, i;

	for (i = 0; i < 3; i++)
		res[i] = ns < 0 ? -EBADF : -ENOEXEC;
	if (ns < 0)
		return;
	if (flow >= 0) {
		/* BPF_PROG_ATTACH names no namespace: target_fd 0, current's */
		res[0] = bpf_prog_attach(flow, 0, BPF_FLOW_DISSECTOR, 0) ? -errno : 0;
		if (!res[0])
			bpf_prog_detach2(flow, 0, BPF_FLOW_DISSECTOR);
		link = bpf_link_create(flow, ns, BPF_FLOW_DISSECTOR, NULL);
		res[1] = link < 0 ? -errno : 0;
		if (link >= 0)
			close(link);
	}
	if (lookup >= 0) {
		link = bpf_link_create(lookup, ns, BPF_SK_LOOKUP, NULL);
		res[2] = link < 0 ? -errno : 0;
		if (link >= 0)
			close(link);
	}
	close(ns);
}

static void netns_attacker(const void *arg, void *out)
{
	struct netns_attach *a = out;
	int flow, lookup, res[3];

	flow = load_ret(BPF_PROG_TYPE_FLOW_DISSECTOR, BPF_FLOW_DISSECTOR, 0);
	lookup = load_ret(BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP, 1);
	a->flow_load = flow < 0 ? flow : 0;
	a->lookup_load = lookup < 0 ? lookup : 0;
	attach_to_netns(flow, lookup, res);
	a->flow_attach = res[0];
	a->flow_link = res[1];
	a->lookup_link = res[2];
	a->own_netns = unshare(CLONE_NEWUSER | CLONE_NEWNET) ? -errno :
		       map_user_ns(NOBODY);
	if (a->own_netns)
		res[0] = res[1] = res[2] = -ENOEXEC;
	else
		attach_to_netns(flow, lookup, res);
	a->own_flow_attach = res[0];
	a->own_flow_link = res[1];
	a->own_lookup_link = res[2];
	if (flow >= 0)
		close(flow);
	if (lookup >= 0)
		close(lookup);
}

/* A flow dissector and an sk_lookup program, granted (the default rule
 * has both), run for every flow and socket lookup of the namespace they
 * are attached to: that attach takes the CAP_NET_ADMIN and CAP_BPF their
 * loads would have needed, in the initial namespace and in the
 * attacker's own alike. Stock refuses the loads.
 */
static void netns_attach(bool hooks)
{
	struct netns_attach a = {};

	if (!granted_attack(hooks, "array", "flow_dissector,sk_lookup", false, netns_attacker,
			    &a, sizeof(a)))
		goto out;
	printf("netns_attach: load flow %d, sk_lookup %d; initial namespace: "
	       "attach %d, link %d, sk_lookup link %d; own namespace %d: "
	       "attach %d, link %d, sk_lookup link %d\n", a.flow_load,
	       a.lookup_load, a.flow_attach, a.flow_link, a.lookup_link,
	       a.own_netns, a.own_flow_attach, a.own_flow_link, a.own_lookup_link);
	ASSERT_EQ(a.flow_load, hooks ? 0 : -EPERM, "granted flow dissector load");
	ASSERT_EQ(a.lookup_load, hooks ? 0 : -EPERM, "granted sk_lookup load");
	ASSERT_OK(a.own_netns, "namespaces of its own");
	if (!hooks)
		goto out;
	ASSERT_EQ(a.flow_attach, -EPERM, "flow dissector BPF_PROG_ATTACH, initial namespace");
	ASSERT_EQ(a.flow_link, -EPERM, "flow dissector BPF_LINK_CREATE, initial namespace");
	ASSERT_EQ(a.lookup_link, -EPERM, "sk_lookup BPF_LINK_CREATE, initial namespace");
	ASSERT_EQ(a.own_flow_attach, -EPERM, "flow dissector BPF_PROG_ATTACH, its own");
	ASSERT_EQ(a.own_flow_link, -EPERM, "flow dissector BPF_LINK_CREATE, its own");
	ASSERT_EQ(a.own_lookup_link, -EPERM, "sk_lookup BPF_LINK_CREATE, its own");
out:
	ungrant_cg(hooks);
}

/* As nobody in CG: a perf_event program (granted only when named, with
 * every privilege) set on a software event of its own with
 * PERF_EVENT_IOC_SET_BPF: 0 or the ioctl's -errno; -ENOEXEC if the load
 * failed, -ENOTCONN if the event did not open
 */
#define PERF_PIN	"perf_prog"	/* in the attacker's pin directory */

/* A perf_event program that returns 0: its fd or -errno */
static int load_perf_prog(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return load_insns(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_SIZE(insns), 0);
}

/* @prog set on a software event of the caller's own with
 * PERF_EVENT_IOC_SET_BPF: 0 or the ioctl's -errno, -ENOTCONN if the
 * event did not open
 */
static int perf_set(int prog)
{
	int event = own_sw_event(PERF_COUNT_SW_CPU_CLOCK), err;

	if (event < 0)
		return -ENOTCONN;
	err = ioctl(event, PERF_EVENT_IOC_SET_BPF, prog) ? -errno : 0;
	close(event);
	return err;
}

static int perf_set_bpf(void)
{
	int prog = load_perf_prog(), err;

	if (prog < 0)
		return -ENOEXEC;
	err = perf_set(prog);
	close(prog);
	return err;
}

/* root's program, inherited across the fork of as_nobody() */
static int perf_prog = -1;

static int perf_set_prog(void)
{
	return perf_set(perf_prog);
}

/* The attacker's granted program, pinned for root to set: 0 or -errno */
static void perf_load_for_root(const void *arg, void *out)
{
	int prog = load_perf_prog();

	*(int *)out = prog < 0 ? prog :
		      bpf_obj_pin(prog, BPFFS "/" PERF_PIN) ? -errno : 0;
	if (prog >= 0)
		close(prog);
}

/* The program pinned at @path, set by the caller on its own event */
static int perf_prog_set(const char *path)
{
	int prog = bpf_obj_get(path), err;

	if (prog < 0)
		return -errno;
	err = perf_set(prog);
	close(prog);
	return err;
}

/* PERF_EVENT_IOC_SET_BPF attaches a program with no bpf() command: it
 * takes what the program's load would have needed (CAP_BPF, CAP_PERFMON),
 * as BPF_LINK_CREATE does. A perf event of the caller's own opens without
 * a capability (perf_event_paranoid 2). Stock refuses the load.
 */
static void perf_event_set_bpf(bool hooks)
{
	int prog;

	if (!granted_cg(hooks, "array", "perf_event"))
		goto out;
	ASSERT_EQ(as_nobody(perf_set_bpf), hooks ? -EPERM : -ENOEXEC,
		  "a granted perf_event program set on its own event");
	/* the controls: root's program, set by nobody; the granted one, by root */
	prog = load_perf_prog();
	if (!ASSERT_GE(prog, 0, "root's perf_event program"))
		goto out;
	perf_prog = prog;
	ASSERT_OK(as_nobody(perf_set_prog), "root's program set by nobody on its own event");
	close(prog);
	if (!hooks)
		goto out;
	perf_prog = -1;
	ASSERT_OK(pinning_in_cg(perf_load_for_root, NULL, &prog, sizeof(prog)) ?: prog,
		  "the attacker's granted program, for root");
	ASSERT_OK(perf_prog_set(PIN_DIR "/" PERF_PIN), "root sets the granted program");
	empty_pin_dir();
out:
	ungrant_cg(hooks);
}

/* How far the attacker got with programs that run in every task's
 * context, granted with every privilege: each step's -errno, 0 if it
 * worked
 */
struct tracing_attach {
	int raw_tp_load, raw_tp_open;	/* BPF_RAW_TRACEPOINT_OPEN */
	int perf_load, event, perf_link;	/* BPF_LINK_CREATE, a perf event */
	/* a program of btf_attaches[i]: loaded, BPF_RAW_TRACEPOINT_OPEN,
	 * BPF_LINK_CREATE
	 */
	int btf_load[2], btf_open[2], btf_link[2];
};

/* Programs attached to a kernel function named by its BTF id */
static const struct btf_attach {
	const char *what;
	enum bpf_prog_type type;
	enum bpf_attach_type attach;
	const char *target;
} btf_attaches[] = {
	{ "fentry", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "bpf_fentry_test1" },
	{ "lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "bpf_lsm_file_open" },
};

/* A program of @a, r0 = 0, for the function of BTF id @btf_id: fd or -errno */
static int load_btf_attach(const struct btf_attach *a, int btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = a->attach,
		    .attach_btf_id = btf_id);
	int fd = bpf_prog_load(a->type, NULL, "GPL", insns, ARRAY_SIZE(insns), &opts);

	return fd < 0 ? -errno : fd;
}

/* The attaches of a program of @a: each -errno or 0, the link closed */
static void btf_attach_try(int prog, const struct btf_attach *a, int *open, int *link)
{
	int fd = bpf_raw_tracepoint_open(NULL, prog);

	*open = fd < 0 ? -errno : (close(fd), 0);
	fd = bpf_link_create(prog, 0, a->attach, NULL);
	*link = fd < 0 ? -errno : (close(fd), 0);
}

static void tracing_attacker(const void *arg, void *out)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const int *btf_ids = arg;	/* of btf_attaches[]'s targets */
	struct tracing_attach *t = out;
	int prog, fd, i;

	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++) {
		t->btf_open[i] = t->btf_link[i] = -ENOEXEC;	/* not tried */
		prog = load_btf_attach(&btf_attaches[i], btf_ids[i]);
		t->btf_load[i] = prog < 0 ? prog : 0;
		if (prog >= 0) {
			btf_attach_try(prog, &btf_attaches[i], &t->btf_open[i],
				       &t->btf_link[i]);
			close(prog);
		}
	}
	t->raw_tp_open = t->event = t->perf_link = -ENOEXEC;	/* not tried */
	prog = load_insns(BPF_PROG_TYPE_RAW_TRACEPOINT, insns, ARRAY_SIZE(insns), 0);
	t->raw_tp_load = prog < 0 ? prog : 0;
	if (prog >= 0) {
		fd = bpf_raw_tracepoint_open("sys_enter", prog);
		t->raw_tp_open = fd < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
		close(prog);
	}
	prog = load_insns(BPF_PROG_TYPE_PERF_EVENT, insns, ARRAY_SIZE(insns), 0);
	t->perf_load = prog < 0 ? prog : 0;
	if (prog < 0)
		return;
	fd = own_sw_event(PERF_COUNT_SW_CPU_CLOCK);
	t->event = fd < 0 ? fd : 0;
	if (fd >= 0) {
		int link = bpf_link_create(prog, fd, BPF_PERF_EVENT, NULL);

		t->perf_link = link < 0 ? -errno : 0;
		if (link >= 0)
			close(link);
		close(fd);
	}
	close(prog);
}

/* A raw tracepoint and a perf_event program, an fentry and an LSM
 * program, granted only when named (with every privilege), attached by
 * their loader through bpf(): each attach takes the load's CAP_BPF and
 * CAP_PERFMON, which the grantee lacks. The control: root attaches
 * programs of its own of the same kinds. Stock refuses the loads.
 */
static void tracing_attach(bool hooks)
{
	struct tracing_attach t = {};
	int btf_ids[ARRAY_SIZE(btf_attaches)], i, prog, open, link;
	const struct btf_attach *a;
	struct btf *btf;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "vmlinux BTF"))
		return;
	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++)
		btf_ids[i] = btf__find_by_name_kind(btf, btf_attaches[i].target,
						    BTF_KIND_FUNC);
	btf__free(btf);
	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++) {
		a = &btf_attaches[i];
		if (!ASSERT_GT(btf_ids[i], 0, a->target))
			return;
		prog = load_btf_attach(a, btf_ids[i]);
		if (!ASSERT_GE(prog, 0, a->what))
			continue;
		btf_attach_try(prog, a, &open, &link);
		close(prog);
		ASSERT_OK(open, "root's own, BPF_RAW_TRACEPOINT_OPEN");
		ASSERT_OK(link, "root's own, BPF_LINK_CREATE");
	}
	if (!granted_cg(hooks, "array", "raw_tracepoint,perf_event,tracing,lsm") ||
	    !ASSERT_OK(in_cg_as_nobody(tracing_attacker, btf_ids, &t, sizeof(t)),
		       "the attacker reports"))
		goto out;
	printf("tracing_attach: raw_tp load %d, open %d; perf_event load %d, "
	       "event %d, link %d\n", t.raw_tp_load, t.raw_tp_open, t.perf_load,
	       t.event, t.perf_link);
	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++)
		printf("tracing_attach: %s load %d, open %d, link %d\n",
		       btf_attaches[i].what, t.btf_load[i], t.btf_open[i], t.btf_link[i]);
	ASSERT_EQ(t.raw_tp_load, hooks ? 0 : -EPERM, "granted raw_tracepoint load");
	ASSERT_EQ(t.perf_load, hooks ? 0 : -EPERM, "granted perf_event load");
	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++)
		ASSERT_EQ(t.btf_load[i], hooks ? 0 : -EPERM, btf_attaches[i].what);
	if (!hooks)
		goto out;
	ASSERT_EQ(t.raw_tp_open, -EPERM, "BPF_RAW_TRACEPOINT_OPEN sys_enter");
	ASSERT_OK(t.event, "a software perf event of its own");
	ASSERT_EQ(t.perf_link, -EPERM, "BPF_LINK_CREATE on that event");
	for (i = 0; i < ARRAY_SIZE(btf_attaches); i++) {
		ASSERT_EQ(t.btf_open[i], -EPERM, btf_attaches[i].what);
		ASSERT_EQ(t.btf_link[i], -EPERM, btf_attaches[i].what);
	}
out:
	ungrant_cg(hooks);
}

/*
 * ext_attach: an extension (freplace) program replaces a global function
 * of another program, and so runs wherever that program is attached. The
 * attacker, under a rule that names ext (every privilege), holds an fd of
 * root's XDP program (inherited), loads an extension of its sub(), and
 * may attach it by neither command: the attach takes the capabilities of
 * the extension's load. The control: root attaches the same extension.
 * Stock refuses the load.
 */
/* What the attacker got: the load, BPF_LINK_CREATE, BPF_RAW_TRACEPOINT_OPEN
 * (each -errno, 0 if it worked)
 */
struct ext_attach {
	int load, link, open;
};

/* Load grant_ext's extension of sub() into the program of fd @target: an
 * extension fd, or -errno. Its BTF (every program of the object left out)
 * is loaded with libbpf, the program is not: libbpf would ask the kernel
 * for the target's BTF by id, which takes CAP_SYS_ADMIN, where an attacker
 * knows the ids from the object root loaded
 */
static int load_ext(int target)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_DROP },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct grant_ext *skel = grant_ext__open();
	struct bpf_func_info info = {};
	struct btf *btf;
	int fd;

	if (!skel)
		return -errno;
	bpf_program__set_autoload(skel->progs.target, false);
	bpf_program__set_autoload(skel->progs.replacement, false);
	fd = grant_ext__load(skel);
	if (fd)
		goto out;
	btf = bpf_object__btf(skel->obj);
	info.type_id = btf__find_by_name_kind(btf, "replacement", BTF_KIND_FUNC);
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_btf_fd = btf__fd(btf),
		    .func_info = &info, .func_info_cnt = 1,
		    .func_info_rec_size = sizeof(info), .attach_prog_fd = target,
		    .attach_btf_id = btf__find_by_name_kind(btf, "sub", BTF_KIND_FUNC));
	fd = bpf_prog_load(BPF_PROG_TYPE_EXT, NULL, "GPL", insns, ARRAY_SIZE(insns), &opts);
	if (fd < 0)
		fd = -errno;

out:
	grant_ext__destroy(skel);
	return fd;
}

/* Attach extension @prog: where its load named (sub() of root's program)
 * by BPF_RAW_TRACEPOINT_OPEN, which takes that target once, then by
 * BPF_LINK_CREATE naming it again (sub()'s BTF id in program @target)
 */
static void ext_attach_try(int prog, int target, int sub_id, struct ext_attach *e)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .target_btf_id = sub_id);
	int fd = bpf_raw_tracepoint_open(NULL, prog);

	e->open = fd < 0 ? -errno : (close(fd), 0);
	fd = bpf_link_create(prog, target, 0, &opts);
	e->link = fd < 0 ? -errno : (close(fd), 0);
}

/* What the attacker is given: root's program and sub()'s BTF id in it */
struct ext_target {
	int fd, sub_id;
};

static void ext_attacker(const void *arg, void *out)
{
	const struct ext_target *t = arg;
	struct ext_attach *e = out;
	int prog;

	e->link = e->open = -ENOEXEC;	/* not tried */
	prog = load_ext(t->fd);
	e->load = prog < 0 ? prog : 0;
	if (prog < 0)
		return;
	ext_attach_try(prog, t->fd, t->sub_id, e);
	close(prog);
}

static void ext_attach(bool hooks)
{
	struct ext_attach e = {}, root = {};
	struct ext_target t;
	struct grant_ext *target;
	int prog;

	target = grant_ext__open();
	if (!ASSERT_OK_PTR(target, "grant_ext__open"))
		return;
	bpf_program__set_autoload(target->progs.replacement, false);
	if (!ASSERT_OK(grant_ext__load(target), "root's XDP program"))
		goto out_target;
	t.fd = bpf_program__fd(target->progs.target);
	t.sub_id = btf__find_by_name_kind(bpf_object__btf(target->obj), "sub", BTF_KIND_FUNC);
	if (!ASSERT_GT(t.sub_id, 0, "sub()'s BTF id"))
		goto out_target;
	/* the control: root's own extension, attached by root */
	prog = load_ext(t.fd);
	if (ASSERT_GE(prog, 0, "root's extension")) {
		ext_attach_try(prog, t.fd, t.sub_id, &root);
		close(prog);
		ASSERT_OK(root.open, "root's own, BPF_RAW_TRACEPOINT_OPEN");
		ASSERT_OK(root.link, "root's own, BPF_LINK_CREATE");
	}
	/* socket_filter: libbpf's probe that BPF loads at all */
	if (!granted_cg(hooks, "array", "socket_filter,ext") ||
	    !ASSERT_OK(in_cg_as_nobody(ext_attacker, &t, &e, sizeof(e)), "the attacker reports"))
		goto out;
	printf("%s: the attacker's extension: load %d, open %d, link %d\n", __func__,
	       e.load, e.open, e.link);
	/* stock: refused at libbpf's probe, the attacker's first load */
	ASSERT_EQ(e.load, hooks ? 0 : -EPERM, "granted ext load");
	if (!hooks)
		goto out;
	ASSERT_EQ(e.open, -EPERM, "BPF_RAW_TRACEPOINT_OPEN into root's program");
	ASSERT_EQ(e.link, -EPERM, "BPF_LINK_CREATE into root's program");
out:
	ungrant_cg(hooks);
out_target:
	grant_ext__destroy(target);
}

/*
 * struct_ops_register: a struct_ops map registers its programs for the
 * whole host, here as a TCP congestion control. Root's map, whose fd the
 * attacker inherits, is updated with programs the attacker loaded under
 * a rule that names struct_ops (every privilege): refused, as any attach
 * of a granted program by a caller without its load's capabilities. The
 * control: root registers the same programs. Stock refuses the loads.
 */
#define CA_NAME		"grant_escape"	/* TCP_CA_NAME_MAX: 16 */
#define CA_PIN		"ca_"		/* in the attacker's pin directory */
#define CA_AVAIL	"/proc/sys/net/ipv4/tcp_available_congestion_control"

/* The members a congestion control must have, that the programs fill */
static const char *const ca_members[] = { "ssthresh", "undo_cwnd", "cong_avoid" };

/* Where they are, from vmlinux BTF: the struct_ops map's value is
 * struct bpf_struct_ops_tcp_congestion_ops, whose data is the ops
 */
static struct ca_layout {
	int ops_id, value_id;
	__u32 value_size, data_off, name_off;
	__u32 off[ARRAY_SIZE(ca_members)], idx[ARRAY_SIZE(ca_members)];
} ca;
static int ca_map = -1;	/* root's, inherited by the attacker */

static int ca_layout(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *ops, *value;
	int i, off, err = -1;

	if (!btf)
		return -1;
	ca.ops_id = btf__find_by_name_kind(btf, "tcp_congestion_ops", BTF_KIND_STRUCT);
	ca.value_id = btf__find_by_name_kind(btf, "bpf_struct_ops_tcp_congestion_ops",
					     BTF_KIND_STRUCT);
	if (ca.ops_id <= 0 || ca.value_id <= 0)
		goto out;
	ops = btf__type_by_id(btf, ca.ops_id);
	value = btf__type_by_id(btf, ca.value_id);
	ca.value_size = value->size;
	off = member_off(value, btf, "data", NULL);
	ca.data_off = off;
	if (off < 0 || (off = member_off(ops, btf, "name", NULL)) < 0)
		goto out;
	ca.name_off = off;
	for (i = 0; i < ARRAY_SIZE(ca_members); i++) {
		off = member_off(ops, btf, ca_members[i], &ca.idx[i]);
		if (off < 0)
			goto out;
		ca.off[i] = off;
	}
	err = 0;
out:
	btf__free(btf);
	return err;
}

/* The struct_ops program for ca_members[@i], r0 = 2: fd or -errno */
static int load_ca_prog(int i)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 2 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = ca.idx[i],
		    .attach_btf_id = ca.ops_id);
	int fd = bpf_prog_load(BPF_PROG_TYPE_STRUCT_OPS, NULL, "GPL", insns,
			       ARRAY_SIZE(insns), &opts);

	return fd < 0 ? -errno : fd;
}

/* Update ca_map with @progs as the members: the update's -errno, or 0
 * once registered, and then unregistered again
 */
static int ca_register(const int *progs)
{
	char *value = calloc(1, ca.value_size);
	__u32 key = 0;
	int i, err;

	if (!value)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(ca_members); i++)
		*(__u64 *)(value + ca.data_off + ca.off[i]) = progs[i];
	strcpy(value + ca.data_off + ca.name_off, CA_NAME);
	err = bpf_map_update_elem(ca_map, &key, value, BPF_ANY) ? -errno : 0;
	free(value);
	return err;
}

/* How far the attacker got: each step's -errno, 0 if it worked */
struct ca_attack {
	int load, pin, update;
};

static void ca_attacker(const void *arg, void *out)
{
	int progs[ARRAY_SIZE(ca_members)], i, n;
	struct ca_attack *a = out;
	char path[64];

	a->pin = a->update = -ENOEXEC;	/* not tried */
	for (n = 0; n < ARRAY_SIZE(ca_members); n++) {
		progs[n] = load_ca_prog(n);
		if (progs[n] < 0) {
			a->load = progs[n];
			break;
		}
	}
	if (n == ARRAY_SIZE(ca_members)) {
		a->pin = 0;
		for (i = 0; i < n && !a->pin; i++) {
			snprintf(path, sizeof(path), BPFFS "/" CA_PIN "%d", i);
			a->pin = bpf_obj_pin(progs[i], path) ? -errno : 0;
		}
		a->update = ca_register(progs);
		if (!a->update)	/* unregister what got through */
			bpf_map_delete_elem(ca_map, &(__u32){ 0 });
	}
	for (i = 0; i < n; i++)
		close(progs[i]);
}

/* Whether congestion control CA_NAME is registered */
static bool ca_registered(void)
{
	char buf[512] = "";
	FILE *f = fopen(CA_AVAIL, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, CA_NAME);
}

static void struct_ops_register(bool hooks)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	int progs[ARRAY_SIZE(ca_members)], i, err, btf;
	struct ca_attack a = {};
	bool registered = false;
	char path[64];

	for (i = 0; i < ARRAY_SIZE(progs); i++)
		progs[i] = -1;
	if (!ASSERT_OK(ca_layout(), "tcp_congestion_ops, from vmlinux BTF"))
		return;
	/* the map takes a BTF fd of user space's too, any (map_create()) */
	btf = int_btf();
	if (!ASSERT_GE(btf, 0, "a BTF"))
		return;
	opts.btf_fd = btf;
	opts.btf_vmlinux_value_type_id = ca.value_id;
	ca_map = bpf_map_create(BPF_MAP_TYPE_STRUCT_OPS, "grant_ca", 4, ca.value_size, 1,
				&opts);
	close(btf);
	if (!ASSERT_GE(ca_map, 0, "root's struct_ops map"))
		return;
	if (!granted_cg(hooks, "array", "struct_ops") ||
	    !ASSERT_OK(pinning_in_cg(ca_attacker, NULL, &a, sizeof(a)),
		       "the attacker reports"))
		goto out;
	printf("%s: load %d, pin %d, update of root's map %d\n", __func__, a.load,
	       a.pin, a.update);
	if (!hooks) {
		ASSERT_EQ(a.load, -EPERM, "stock: struct_ops programs refused");
		goto out;
	}
	ASSERT_OK(a.load, "granted struct_ops programs");
	ASSERT_OK(a.pin, "pinned");
	ASSERT_EQ(a.update, -EPERM, "the attacker registers them in root's map");
	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		snprintf(path, sizeof(path), PIN_DIR "/" CA_PIN "%d", i);
		progs[i] = bpf_obj_get(path);
		if (!ASSERT_GE(progs[i], 0, path))
			goto out;
	}
	err = ca_register(progs);
	if (!err) {
		registered = ca_registered();
		bpf_map_delete_elem(ca_map, &(__u32){ 0 });
	}
	ASSERT_OK(err, "root registers the same programs");
	ASSERT_TRUE(registered, "and the kernel lists " CA_NAME);
	ASSERT_FALSE(ca_registered(), "unregistered after");
out:
	for (i = 0; i < ARRAY_SIZE(progs); i++)
		if (progs[i] >= 0)
			close(progs[i]);
	empty_pin_dir();
	close(ca_map);
	ca_map = -1;
	ungrant_cg(hooks);
}

/* As nobody in CG: a granted xskmap (-ENOTCONN if refused), then an
 * AF_XDP socket, its entry: the socket's -errno
 */
static int xsk_entry(void)
{
	int map, sock, err = 0;

	map = bpf_map_create(BPF_MAP_TYPE_XSKMAP, NULL, 4, 4, 1, NULL);
	if (map < 0)
		return -ENOTCONN;
	sock = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (sock < 0)
		err = -errno;
	else
		close(sock);
	close(map);
	return err;
}

static void xsk_socket(bool hooks)
{
	/* the grant gives the map; the socket stays CAP_NET_RAW's */
	gate_kept(hooks, "xskmap", "socket_filter", xsk_entry, hooks ? -EPERM : -ENOTCONN,
		  "an AF_XDP socket for a granted xskmap");
}

#define IP		"/usr/sbin/ip"
#define XDP_COUNT_O	"/container/xdp_count.o"
/* where root's ip pins xdp_count's proto_count (container_tools) */
#define IP_PIN		BPFFS "/xdp/globals/proto_count"
#define TC		"/usr/sbin/tc"
#define TC_TAIL_O	"/container/tc_tail.o"
/* where root's tc pins tc_tail's program array */
#define TC_PIN		BPFFS "/tc/globals/jmp_table"
#define TC_ACT_SHOT	2

/* Run Debian's ip with @args, as root (run_program()) */
static int run_ip(const char *const *args)
{
	return run_program(IP, AS_ROOT, args);
}

/* How far the attacker got: each step's -errno, 0 if it worked */
struct squat {
	int map;		/* a map of proto_count's shape */
	__u32 map_id;
	int xdp, tc;		/* mkdir xdp/globals, tc/globals */
	int pin;		/* the map at IP_PIN */
};

/* The attacker's side: a map of the shape xdp_count declares (hash, 4-byte
 * keys, 8-byte values, 256 entries), pinned first where ip would reuse it
 */
static void squat(const void *arg, void *out)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	struct squat *s = out;
	int fd;

	s->pin = -ENOEXEC;	/* not tried */
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "proto_count", 4, 8, 256, NULL);
	s->map = fd < 0 ? -errno : 0;
	if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
		s->map_id = info.id;
	s->xdp = mkdir(BPFFS "/xdp", 0755) || mkdir(BPFFS "/xdp/globals", 0755) ?
		 -errno : 0;
	s->tc = mkdir(BPFFS "/tc", 0755) || mkdir(BPFFS "/tc/globals", 0755) ?
		-errno : 0;
	if (fd >= 0) {
		s->pin = bpf_obj_pin(fd, IP_PIN) ? -errno : 0;
		close(fd);
	}
}

/* What ip, or the attacker, made in BPFFS, gone: the next run finds none */
static void unsquat(void)
{
	static const char *const paths[] = {
		BPFFS "/tc/globals/proto_count", BPFFS "/xdp/globals/proto_count",
		TC_PIN,
		BPFFS "/tc/globals", BPFFS "/xdp/globals", BPFFS "/ip/globals",
		BPFFS "/tc", BPFFS "/xdp", BPFFS "/ip",
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++)
		remove(paths[i]);
}

static void pin_squat(bool hooks)
{
	static const char *const attach[] = {
		"link", "set", "dev", "lo", "xdpgeneric", "obj", XDP_COUNT_O,
		"sec", "xdp", NULL,
	};
	static const char *const detach[] = {
		"link", "set", "dev", "lo", "xdpgeneric", "off", NULL,
	};
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	bool attached = false;
	struct squat s = {};
	struct stat st;
	int fd;

	/* the guest has none: what the subtest makes there, it removes */
	if (!ASSERT_TRUE(lstat(BPFFS "/tc", &st) && lstat(BPFFS "/xdp", &st),
			 "no " BPFFS "/tc or " BPFFS "/xdp yet"))
		return;
	if (!granted_attack(hooks, "hash", "socket_filter", false, squat, &s, sizeof(s)))
		goto out;
	printf("squat: map %d (id %u), mkdir xdp/globals %d, tc/globals %d, pin %d\n",
	       s.map, s.map_id, s.xdp, s.tc, s.pin);
	if (hooks) {
		ASSERT_OK(s.map, "a granted map of proto_count's shape");
		ASSERT_NEQ(s.map_id, 0, "its id");
	} else {
		ASSERT_EQ(s.map, -EPERM, "stock refuses the map");
	}
	ASSERT_EQ(s.xdp, -EACCES, "mkdir " BPFFS "/xdp/globals");
	ASSERT_EQ(s.tc, -EACCES, "mkdir " BPFFS "/tc/globals");
	if (hooks)
		ASSERT_EQ(s.pin, -EACCES, "pin at " IP_PIN);

	attached = ASSERT_OK(run_ip(attach), "root's ip link set dev lo xdpgeneric obj");
	if (!attached)
		goto out;
	if (ASSERT_OK(lstat(IP_PIN, &st) ? -errno : 0, "ip pinned " IP_PIN))
		ASSERT_EQ(st.st_uid, 0, "the pin is root's");
	fd = bpf_obj_get(IP_PIN);
	if (ASSERT_GE(fd, 0, "open " IP_PIN) &&
	    ASSERT_OK(bpf_obj_get_info_by_fd(fd, &info, &len), "its map"))
		ASSERT_NEQ(info.id, s.map_id, "root's map, not the attacker's");
	if (fd >= 0)
		close(fd);
out:
	if (attached)
		ASSERT_OK(run_ip(detach), "ip link set dev lo xdpgeneric off");
	unsquat();
	ungrant_cg(hooks);
}

/* How far the attacker got: each step's -errno, 0 if it worked */
struct tc_squat {
	int map;	/* a program array of jmp_table's shape, or the pin */
	int prog;	/* a granted classifier that drops every packet */
	int insert;	/* the classifier into the array */
	int pin;	/* tc/globals made, the array pinned at TC_PIN */
};

/* A classifier that drops every packet */
static const struct bpf_insn tc_drop[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = TC_ACT_SHOT },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int load_tc_drop(void)
{
	return load_insns(BPF_PROG_TYPE_SCHED_CLS, tc_drop, ARRAY_SIZE(tc_drop), 0);
}

/* The squat's end: classifier @prog into array @map (each an fd, or
 * -errno if not made), the array pinned at TC_PIN if @pin, both closed
 */
static void tc_squat_insert_pin(struct tc_squat *s, int map, int prog, bool pin)
{
	if (map >= 0 && prog >= 0)
		s->insert = bpf_map_update_elem(map, &(__u32){ 0 }, &prog, 0) ? -errno : 0;
	if (map >= 0 && pin)
		s->pin = (mkdir(BPFFS "/tc", 0755) && errno != EEXIST) ||
			 (mkdir(BPFFS "/tc/globals", 0755) && errno != EEXIST) ||
			 bpf_obj_pin(map, TC_PIN) ? -errno : 0;
	if (map >= 0)
		close(map);
	if (prog >= 0)
		close(prog);
}

/* What the attacker does, before root's tc runs or after */
enum tc_squat_step {
	SQUAT_FILLED,	/* pin an array with its classifier in it */
	SQUAT_EMPTY,	/* pin an empty array */
	SQUAT_INSERT,	/* put its classifier in the array pinned there */
};

/* The attacker's side: @arg, the step */
static void tc_squat_attack(const void *arg, void *out)
{
	enum tc_squat_step step = *(const enum tc_squat_step *)arg;
	struct tc_squat *s = out;
	int map, prog = -ENOEXEC;

	s->prog = s->insert = s->pin = -ENOEXEC;	/* not tried */
	map = step == SQUAT_INSERT ? bpf_obj_get(TC_PIN) :
	      bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "jmp_table", 4, 4, 1, NULL);
	s->map = map < 0 ? -errno : 0;
	if (step != SQUAT_EMPTY) {
		prog = load_tc_drop();
		s->prog = prog < 0 ? prog : 0;
	}
	tc_squat_insert_pin(s, map, prog, step != SQUAT_INSERT);
}

/* Run Debian's tc with @args, as root */
static int run_tc(const char *const *args)
{
	return run_program(TC, AS_ROOT, args);
}

/* Root's tc commands in tc_squat and token_tc_squat: tc_tail.o's
 * classifier on lo's ingress
 */
static const char *const tc_qdisc_add[] = {
	"qdisc", "add", "dev", "lo", "clsact", NULL,
};
static const char *const tc_qdisc_del[] = {
	"qdisc", "del", "dev", "lo", "clsact", NULL,
};
static const char *const tc_filter_add[] = {
	"filter", "add", "dev", "lo", "ingress", "bpf", "da", "obj",
	TC_TAIL_O, "sec", "tc", NULL,
};
static const char *const tc_filter_show[] = {
	"filter", "show", "dev", "lo", "ingress", NULL,
};

/* BPFFS of mode 1777, where the squats pin beside root, with no tc or
 * xdp directory yet (what a subtest makes there, it removes); its mode
 * before in *@mode, for share_bpffs_end(): whether it worked
 */
static bool share_bpffs(mode_t *mode)
{
	struct stat st;

	if (!ASSERT_TRUE(lstat(BPFFS "/tc", &st) && lstat(BPFFS "/xdp", &st),
			 "no " BPFFS "/tc or " BPFFS "/xdp yet") ||
	    !ASSERT_OK(stat(BPFFS, &st) ? -errno : 0, "stat " BPFFS) ||
	    !ASSERT_OK(chmod(BPFFS, 01777) ? -errno : 0, "chmod 1777 " BPFFS))
		return false;
	*mode = st.st_mode & 07777;
	return true;
}

static void share_bpffs_end(mode_t mode)
{
	ASSERT_OK(chmod(BPFFS, mode) ? -errno : 0, "mode of " BPFFS " back");
}

/* One round of tc_squat: the attacker pins an array, filled or empty
 * (@filled), before root's tc runs; if empty, it tries to fill it after
 */
static void tc_squat_round(bool filled, bool hooks)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET, .sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	enum tc_squat_step step = filled ? SQUAT_FILLED : SQUAT_EMPTY;
	/* the issue's attack: a filled array, root's classifier refused */
	bool refused = hooks && filled;
	struct tc_squat s = {};
	bool qdisc = false;
	struct stat st;
	int sock, err;

	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!ASSERT_OK(sock < 0 || bind(sock, (void *)&addr, sizeof(addr)) ?
		       -errno : 0, "root's UDP socket at 127.0.0.1"))
		goto out;
	if (!ASSERT_OK(in_cg_as_nobody(tc_squat_attack, &step, &s, sizeof(s)),
		       "the attacker reports"))
		goto out;
	printf("tc_squat before tc: map %d, prog %d, insert %d, pin %d\n",
	       s.map, s.prog, s.insert, s.pin);
	ASSERT_EQ(s.map, hooks ? 0 : -EPERM, "a program array of jmp_table's shape");
	ASSERT_EQ(s.prog, hooks && filled ? 0 : filled ? -EPERM : -ENOEXEC,
		  "a granted classifier");
	ASSERT_EQ(s.insert, hooks && filled ? 0 : -ENOEXEC,
		  "the classifier into the attacker's own array");
	ASSERT_EQ(s.pin, hooks ? 0 : -ENOEXEC,
		  "pinned at " TC_PIN ", in a BPF FS of mode 1777");

	qdisc = ASSERT_OK(run_tc(tc_qdisc_add), "root's tc qdisc add dev lo clsact");
	if (!qdisc)
		goto out;
	err = run_tc(tc_filter_add);
	if (refused) {
		ASSERT_NEQ(err, 0, "root's tc filter add: its classifier is refused");
		ASSERT_TRUE(printed("BPF program load failed"), "tc says why");
	} else {
		ASSERT_OK(err, "root's tc filter add");
	}
	/* tc reused the attacker's pin (stock: the attacker has none) */
	if (ASSERT_OK(lstat(TC_PIN, &st) ? -errno : 0, "a map at " TC_PIN))
		ASSERT_EQ(st.st_uid, hooks ? NOBODY : 0, "pinned by the attacker");
	ASSERT_OK(run_tc(tc_filter_show), "tc filter show dev lo ingress");
	ASSERT_EQ(printed("tc_tail"), !refused, "root's classifier is attached");
	if (!filled) {
		step = SQUAT_INSERT;
		if (!ASSERT_OK(in_cg_as_nobody(tc_squat_attack, &step, &s, sizeof(s)),
			       "the attacker reports"))
			goto out;
		printf("tc_squat after tc: map %d, prog %d, insert %d\n",
		       s.map, s.prog, s.insert);
		/* stock: tc pinned its own array, mode 0600 */
		ASSERT_EQ(s.map, hooks ? 0 : -EACCES,
			  "the attacker opens the pin, its own, reused by tc");
		ASSERT_EQ(s.prog, hooks ? 0 : -EPERM, "a granted classifier");
		ASSERT_EQ(s.insert, hooks ? -EINVAL : -ENOEXEC,
			  "the classifier into the array root's classifier uses");
	}
	ASSERT_OK(send_from_53(), "root sends datagrams over lo");
	ASSERT_TRUE(received(sock), "they reach root's socket: no classifier of "
		    "the attacker's ran");
out:
	if (qdisc)
		ASSERT_OK(run_tc(tc_qdisc_del), "tc qdisc del dev lo clsact");
	if (sock >= 0)
		close(sock);
	unsquat();
}

/*
 * token_tc_squat: tc_squat's first round by a token's holder whose BPF FS
 * (on TOKEN_BPFFS: the host's, of mode 1777, stays on BPFFS) delegates
 * map_create, prog_load, prog_array and sched_cls. It pins at TC_PIN an
 * array holding its classifier, which drops every packet. As v6.9, its
 * program is not granted, so root's tc reuses the pin, its classifier
 * loads and is attached, and tail-calls the holder's: root's datagrams
 * over lo are dropped. Reached: the administrator decides what may pin in
 * a shared BPF FS (bpf-grant refuses one unless --shared-bpffs).
 */
#define TOKEN_BPFFS	"/tmp/grant_escape_token"

static void token_tc_squat_attack(const void *arg, void *out)
{
	struct tc_squat *s = out;
	int map, prog;

	s->insert = s->pin = -ENOEXEC;	/* not tried */
	map = token_map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1, 0);
	s->map = map < 0 ? map : 0;
	prog = token_prog_load(BPF_PROG_TYPE_SCHED_CLS, tc_drop, ARRAY_SIZE(tc_drop));
	s->prog = prog < 0 ? prog : 0;
	tc_squat_insert_pin(s, map, prog, true);
}

static void token_tc_squat(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET, .sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	bool lo_was_up = true, qdisc = false;
	struct tc_squat s = {};
	int sock = -1, map;
	struct stat pin;
	mode_t mode;

	if (!share_bpffs(&mode))
		return;
	if (!ASSERT_OK(lo_set(true, &lo_was_up), "lo up") || !make_cg() ||
	    !ASSERT_OK(mkdir(TOKEN_BPFFS, 0755) && errno != EEXIST ? -errno : 0,
		       "mkdir " TOKEN_BPFFS))
		goto out;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!ASSERT_OK(sock < 0 || bind(sock, (void *)&addr, sizeof(addr)) ?
		       -errno : 0, "root's UDP socket at 127.0.0.1") ||
	    !ASSERT_OK(token_holder_in_cg(&(struct delegation){ "map_create:prog_load",
								"prog_array", "sched_cls", "any",
								TOKEN_BPFFS },
					  token_tc_squat_attack, NULL, &s, sizeof(s)),
		       "the holder reports"))
		goto out;
	printf("%s: map %d, prog %d, insert %d, pin %d\n", __func__, s.map, s.prog,
	       s.insert, s.pin);
	ASSERT_OK(s.map, "a program array made with the token");
	ASSERT_OK(s.prog, "a classifier loaded with the token");
	ASSERT_OK(s.insert, "the classifier into the array");
	ASSERT_OK(s.pin, "pinned at " TC_PIN ", in the host's BPF FS of mode 1777");
	qdisc = ASSERT_OK(run_tc(tc_qdisc_add), "root's tc qdisc add dev lo clsact");
	if (!qdisc)
		goto out;
	ASSERT_OK(run_tc(tc_filter_add), "root's tc filter add: its classifier loads");
	if (ASSERT_OK(lstat(TC_PIN, &pin) ? -errno : 0, "a map at " TC_PIN))
		ASSERT_EQ(pin.st_uid, NOBODY, "pinned by the holder, reused by tc");
	ASSERT_OK(run_tc(tc_filter_show), "tc filter show dev lo ingress");
	ASSERT_TRUE(printed("tc_tail"), "root's classifier is attached");
	ASSERT_OK(send_from_53(), "root sends datagrams over lo");
	ASSERT_FALSE(received(sock), "root's classifier tail-called the holder's: dropped");
	/* the control: with the holder's program out of the array, they pass */
	map = bpf_obj_get(TC_PIN);
	if (ASSERT_GE(map, 0, "root opens " TC_PIN)) {
		ASSERT_OK(bpf_map_delete_elem(map, &(__u32){ 0 }), "root empties the array");
		close(map);
		ASSERT_OK(send_from_53(), "root sends again");
		ASSERT_TRUE(received(sock), "they reach root's socket");
	}
out:
	if (qdisc)
		ASSERT_OK(run_tc(tc_qdisc_del), "tc qdisc del dev lo clsact");
	if (sock >= 0)
		close(sock);
	unsquat();
	rmdir(TOKEN_BPFFS);
	ungrant_cg(false);
	if (!lo_was_up)
		lo_set(false, NULL);
	share_bpffs_end(mode);
}

static void tc_squat(bool hooks)
{
	bool lo_was_up = true;
	mode_t mode;

	if (!share_bpffs(&mode))
		return;
	/* root's socket's lo; put back as it was */
	if (!ASSERT_OK(lo_set(true, &lo_was_up), "lo up"))
		goto out;
	if (!make_cg() ||
	    !ASSERT_OK(write_file(CG "/memory.max", GRANT_MEMORY_MAX), "memory.max"))
		goto out;
	/* bpf-grant refuses a shared BPF FS unless told */
	if (hooks && !ASSERT_EQ(tool("add", CG, "--map-types", "prog_array",
				     "--prog-types", "sched_cls"),
				GRANT_EXIT_SHARED_BPFFS, "bpf-grant add, BPF FS 1777"))
		goto out;
	if (!ASSERT_EQ(tool("add", CG, "--map-types", "prog_array", "--prog-types",
			    "sched_cls", "--shared-bpffs"),
		       hooks ? GRANT_EXIT_OK : GRANT_EXIT_NO_HOOKS,
		       "bpf-grant add --shared-bpffs"))
		goto out;
	tc_squat_round(true, hooks);
	tc_squat_round(false, hooks);
out:
	ungrant_cg(hooks);
	if (!lo_was_up)
		lo_set(false, NULL);
	share_bpffs_end(mode);
}

void test_grant_escape(void)
{
	bool hooks = have_grant_hooks(), was_on = memory_controller_on();

	/* every granted cgroup gets a memory bound: give them the controller */
	if (!ASSERT_OK(was_on ? 0 : write_file("/sys/fs/cgroup/cgroup.subtree_control",
					       "+memory"), "memory controller"))
		return;

	/* Each attack SKIPs at the commits before the one that stops it. A
	 * block a subtest, test_progs' idiom: alike in shape only.
	 */
	if (test__start_subtest("devmap_other_netns") &&
	    need_patch("bpf, lsm: a granted device map names only devices its updater administers"))
		devmap_other_netns(false, hooks);
	if (test__start_subtest("devmap_hash_other_netns") &&
	    need_patch("bpf, lsm: a granted device map names only devices its updater administers"))
		devmap_other_netns(true, hooks);
	if (test__start_subtest("devmap_prog_entry") &&
	    need_patch("bpf, lsm: a program array holds granted programs or others, not both"))
		devmap_prog_entry(hooks);
	if (test__start_subtest("btf_memcg_bound") &&
	    need_patch("bpf, lsm: charge BTF loaded under a grant to the loader's memory cgroup"))
		memcg_bound(true, hooks);
	if (test__start_subtest("map_memcg_bound"))
		memcg_bound(false, hooks);
	if (test__start_subtest("perf_event_array_charged") &&
	    need_patch("bpf, lsm: charge a granted perf_event_array's events to its memory cgroup"))
		perf_event_array_charged(hooks);
	if (test__start_subtest("sockmap_links_charged") &&
	    need_patch("bpf, sockmap: charge a granted socket map's links to its memory cgroup") &&
	    need_patch("bpf, sockmap: a socket goes into 1024 entries of granted maps"))
		sockmap_links_charged(hooks);
	if (test__start_subtest("sockmap_links_objcg") &&
	    need_patch("bpf, sockmap: charge a granted socket map's links to its memory cgroup") &&
	    need_patch("bpf, sockmap: a socket goes into 1024 entries of granted maps"))
		sockmap_links_objcg(hooks);
	if (test__start_subtest("sockmap_close_bounded") &&
	    need_patch("bpf, sockmap: a socket goes into 1024 entries of granted maps"))
		sockmap_close_bounded(hooks);
	if (test__start_subtest("token_perf_event_array") && need_token())
		token_perf_event_array();
	if (test__start_subtest("perf_event_array_one_event") &&
	    need_patch("bpf, lsm: charge a granted perf_event_array's events to its memory cgroup"))
		perf_event_array_one_event(hooks);
	if (test__start_subtest("memcg_every_map_type") &&
	    need_patch("bpf: charge what ->map_alloc() allocates per CPU to the map's creator") &&
	    need_patch("bpf: charge a map's per-CPU lists and caches to its creator"))
		memcg_every_map_type(hooks);
	if (test__start_subtest("cpumap_threads_bound") &&
	    need_patch("bpf, cpumap: a granted cpumap's threads and rings are its updater's"))
		cpumap_threads_bound(hooks);
	if (test__start_subtest("sockmap_verdict_attach"))
		sockmap_verdict_attach(hooks);
	if (test__start_subtest("netns_attach"))
		netns_attach(hooks);
	if (test__start_subtest("perf_event_set_bpf") &&
	    need_patch("bpf, lsm: a granted program set on a perf event takes its load's capabilities"))
		perf_event_set_bpf(hooks);
	if (test__start_subtest("tracing_attach"))
		tracing_attach(hooks);
	if (test__start_subtest("ext_attach"))
		ext_attach(hooks);
	if (test__start_subtest("struct_ops_register") &&
	    need_patch("bpf, lsm: registering a granted struct_ops program takes its load's caps"))
		struct_ops_register(hooks);
	if (test__start_subtest("xsk_socket"))
		xsk_socket(hooks);
	if (test__start_subtest("zero_seed"))
		zero_seed(hooks);
	if (test__start_subtest("skc_helpers"))
		skc_helpers(hooks);
	if (test__start_subtest("verifier_memcg_bound") &&
	    need_patch("bpf: charge what the verifier allocates to the loader's memory cgroup"))
		verifier_memcg_bound(hooks);
	if (test__start_subtest("cpu_time") &&
	    need_patch("bpf, lsm: a grant of 1 gives no CPU time its caller cannot take back"))
		cpu_time(hooks);
	if (test__start_subtest("jit_memcg_bound") &&
	    need_patch("bpf, lsm: charge a granted program's JIT image to its loader's memory cgroup"))
		jit_memcg_bound(hooks);
	if (test__start_subtest("token_jit") && need_token())
		token_jit();
	if (test__start_subtest("memcg_every_prog_type") &&
	    need_patch("bpf, lsm: charge a granted program's JIT image to its loader's memory cgroup"))
		memcg_every_prog_type(hooks);
	if (test__start_subtest("sk_lookup_reach") &&
	    need_patch("bpf, lsm: a granted program looks up sockets in its own namespace only"))
		sk_lookup_reach(hooks);
	if (test__start_subtest("token_sk_lookup") && need_token())
		token_sk_lookup();
	if (test__start_subtest("sk_storage_fill") &&
	    need_patch("bpf, lsm: a granted program looks up sockets in its own namespace only"))
		sk_storage_fill(hooks);
	if (test__start_subtest("perf_event_array_capbpf_unchanged"))
		perf_event_array_capbpf_unchanged();
	if (test__start_subtest("percpu_capbpf_unchanged") &&
	    need_patch("bpf: charge ->map_alloc()'s per-CPU memory to creators without CAP_BPF only"))
		percpu_capbpf_unchanged();
	if (test__start_subtest("memcg_whole_attack") &&
	    need_patch("bpf, lsm: charge a granted program's JIT image to its loader's memory cgroup"))
		memcg_whole_attack(hooks);
	/* the tool's check, not a patch: no need_patch() */
	if (test__start_subtest("pin_squat"))
		pin_squat(hooks);
	if (test__start_subtest("token_tc_squat") && need_token())
		token_tc_squat();
	if (test__start_subtest("tc_squat") &&
	    need_patch("bpf, lsm: a program array holds granted programs or others, not both"))
		tc_squat(hooks);
	if (!was_on)
		write_file("/sys/fs/cgroup/cgroup.subtree_control", "-memory");
}
