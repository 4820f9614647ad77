// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant, the administrator's policy tool (policy/), driven as an
 * administrator drives it: grant BPF to one cgroup, and a process with no
 * capability in that cgroup runs the series' lsm_prog_app application;
 * outside the cgroup, or after the rule is removed, it cannot. Then the
 * rule's limits, its errors and exit codes, and the grant off switch; the
 * default types, rules nested across a delegated cgroup or side by side in
 * one, and a lock that no other user can hold. Then the memory bound: add
 * refuses a cgroup that no memory.max bounds, on it or above it, unless
 * told --unbounded-memory, and list shows the bound and memory.current; and
 * what the tool refuses to read: counts with a sign or out of range,
 * paths of PATH_MAX bytes or more, remove of a path not on cgroup2. Last,
 * the BPF file system: add refuses one where others can make names, as
 * the kernel mounts it (1777), or a directory where root's ip and tc pin
 * that is someone else's, unless told --shared-bpffs.
 *
 * The memory controller is enabled in the root cgroup for the test, as
 * the cgroups that get rules need a memory.max, and put back after.
 */
#include <test_progs.h>
#include <grp.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include "cap_helpers.h"
#include "grant_helpers.h"
#include "int_file.h"
#include "grant_policy.h"
#include "grant_policy.skel.h"
#include "lsm_prog_app.skel.h"

#define BPFFS		"/sys/fs/bpf"
#define PIN_DIR		BPFFS "/bpf-grant"
/* the BPF file system as the init mounts it (mode=0700, and bpffs adds
 * the sticky bit), and as the kernel mounts it by default; the subtests
 * that need the latter put the former back
 */
#define BPFFS_OWN	01700
#define BPFFS_SHARED	01777
#define CG		"/sys/fs/cgroup/bpf_grant_app"
#define SUB_CG		CG "/worker"
#define OTHER_CG	"/sys/fs/cgroup/bpf_grant_other"
/* delegated to nobody, as a container runtime delegates a cgroup */
#define DELEG_CG	"/sys/fs/cgroup/bpf_grant_deleg"
#define NARROW_CG	DELEG_CG "/narrow"
#define MINE_CG		DELEG_CG "/mine"
/* two cgroups side by side in the delegated one, as a container makes them */
#define APP_CG		DELEG_CG "/app"
#define MON_CG		DELEG_CG "/mon"
/* memory: a limit on a cgroup and one below it that has its own, "max" */
#define MEM_CG		"/sys/fs/cgroup/bpf_grant_mem"
#define MEM_CHILD_CG	MEM_CG "/child"
/* memory: no limit on it or above it; and below it, no memory controller */
#define UNBOUND_CG	"/sys/fs/cgroup/bpf_grant_unbound"
#define NOMEM_CG	UNBOUND_CG "/nomem"
#define ROOT_SUBTREE	"/sys/fs/cgroup/cgroup.subtree_control"
/* the memory.max of CG and DELEG_CG: far more than the subtests take */
#define CG_MEMORY_MAX	"268435456"
#define MEM_CG_MAX	"67108864"
#define LOCK_DIR	"/run/bpf-grant"
#define GRANT_SYSCTL	"/proc/sys/kernel/lsm_grant_disabled"
#define UNPRIV_SYSCTL	"/proc/sys/kernel/unprivileged_bpf_disabled"

/* What a child does, unprivileged, inside a cgroup */
struct step {
	enum { APP, MAP, MAP_BTF, PROG, PROG_PERFMON, BTF } what;
	int type;			/* map or program type; BTF: int types */
	__u32 key, value, entries;	/* a map's */
};

/* The application: load, run both programs, read the totals. 0, or the
 * -errno of the first step that failed (-EBADMSG: a wrong result).
 */
static int run_app(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct { __u32 lock, pad; __u64 packets, bytes; } totals = {};
	struct lsm_prog_app *app;
	__u8 pkt[64] = { 1 };
	__u32 zero = 0;
	int err;

	app = lsm_prog_app__open_and_load();
	if (!app)
		return -errno;
	run.data_in = pkt;
	run.data_size_in = sizeof(pkt);
	if (bpf_prog_test_run_opts(bpf_program__fd(app->progs.count_xdp), &run) ||
	    bpf_prog_test_run_opts(bpf_program__fd(app->progs.count_flows), &run) ||
	    bpf_map_lookup_elem(bpf_map__fd(app->maps.totals), &zero, &totals))
		err = -errno;
	else
		err = totals.packets == 2 ? 0 : -EBADMSG;
	lsm_prog_app__destroy(app);
	return err;
}

/* Load a BTF of @n int types; an fd, or -1 with errno set */
static int load_btf(int n)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	__u32 size;
	int i, fd;

	if (!btf)
		return -1;
	for (i = 0; i < n; i++)
		btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	raw = btf__raw_data(btf, &size);
	fd = raw ? bpf_btf_load(raw, size, NULL) : -1;
	btf__free(btf);
	return fd;
}

/* A map of @type keyed by an int of a BTF it loads, as the local storage
 * maps are: an fd, or -1 with errno set
 */
static int map_with_btf(int type)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC,
		    .btf_key_type_id = 1, .btf_value_type_id = 1);
	int fd, err;

	opts.btf_fd = load_btf(1);
	if (opts.btf_fd < 0)
		return -1;
	fd = bpf_map_create(type, NULL, 4, 4, 0, &opts);
	err = errno;
	close(opts.btf_fd);
	errno = err;
	return fd;
}

static int do_step(const struct step *s)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	/* a helper that only CAP_PERFMON (or LSM_GRANT_ALL) gives */
	static const struct bpf_insn task[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_task },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	switch (s->what) {
	case MAP:
		fd = bpf_map_create(s->type, NULL, s->key, s->value, s->entries, NULL);
		break;
	case MAP_BTF:
		fd = map_with_btf(s->type);
		break;
	case PROG:
		fd = bpf_prog_load(s->type, NULL, "GPL", ret0, ARRAY_SIZE(ret0), NULL);
		break;
	case PROG_PERFMON:
		fd = bpf_prog_load(s->type, NULL, "GPL", task, ARRAY_SIZE(task), NULL);
		break;
	case BTF:
		fd = load_btf(s->type);
		break;
	default:
		return run_app();
	}
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Run @s in a child in cgroup @cg as nobody, in a user namespace of its
 * own if @userns: 0, its -errno, or -ECHILD if the child could not start
 */
static int in_child(const char *cg, bool userns, const struct step *s)
{
	char procs[256];
	int status, err;
	pid_t pid;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (write_file(procs, "0") || !become_nobody() ||
		    (userns && unshare(CLONE_NEWUSER)))
			_exit(255);
		/* an exit status holds errnos up to 255; none above is expected */
		err = -do_step(s);
		_exit(err > 254 ? 254 : err);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -ECHILD;
	return -WEXITSTATUS(status);
}

static const struct step app = { APP };

static int map_in(const char *cg, int type, __u32 key, __u32 value, __u32 entries)
{
	struct step s = { MAP, type, key, value, entries };

	return in_child(cg, false, &s);
}

static int prog_in(const char *cg, int type)
{
	struct step s = { PROG, type };

	return in_child(cg, false, &s);
}

static int perfmon_prog_in(const char *cg, int type)
{
	struct step s = { PROG_PERFMON, type };

	return in_child(cg, false, &s);
}

static int btf_in(const char *cg, int types)
{
	struct step s = { BTF, types };

	return in_child(cg, false, &s);
}

static bool installed(void)
{
	return access(PIN_DIR, F_OK) == 0;
}

/*
 * Whether list, in out[], has a line for @path whose memory bound is
 * @bound and whose memory.current is a count (@current) or "-": its 8th
 * and 9th tab-separated fields
 */
static bool listed_memory(const char *path, const char *bound, bool current)
{
	char want[320], *line, *end, *field;
	int i;

	snprintf(want, sizeof(want), "%s\t", path);
	for (line = out; line && strncmp(line, want, strlen(want)); line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : NULL;
	}
	if (!line)
		return false;
	for (i = 0, field = line; i < 7 && field; i++) {
		field = strchr(field, '\t');
		field = field ? field + 1 : NULL;
	}
	snprintf(want, sizeof(want), "%s\t", bound);
	if (!field || strncmp(field, want, strlen(want)))
		return false;
	field += strlen(want);
	if (!current)
		return !strncmp(field, "-\n", 2);
	for (i = 0; field[i] >= '0' && field[i] <= '9'; i++)
		;
	return i > 0 && field[i] == '\n';
}

/* A cgroup at level GRANT_MAX_LEVEL, beyond what the policy looks at */
static void test_too_deep(void)
{
	char path[GRANT_PATH_MAX];
	int level, len;

	len = snprintf(path, sizeof(path), "%s", CG);
	for (level = 1; level < GRANT_MAX_LEVEL; level++) {
		len += snprintf(path + len, sizeof(path) - len, "/d");
		if (mkdir(path, 0755) && errno != EEXIST) {
			ASSERT_OK(-errno, "mkdir a deep cgroup");
			break;
		}
	}
	if (level == GRANT_MAX_LEVEL) {
		ASSERT_EQ(tool("add", path), GRANT_EXIT_USAGE, "a cgroup too deep");
		ASSERT_TRUE(printed("levels deep"), "says it is too deep");
	}
	for (; len > (int)strlen(CG); len -= 2) {
		path[len] = 0;
		rmdir(path);
	}
}

static void test_usage(void)
{
	ASSERT_EQ(tool("--help"), GRANT_EXIT_OK, "--help");
	ASSERT_TRUE(printed("usage: bpf-grant add CGROUP"), "--help prints the usage");
	ASSERT_TRUE(printed("Exit status:"), "--help gives the exit codes");
	ASSERT_EQ(run_tool(AS_ROOT, TOOL_ARGS(NULL)), GRANT_EXIT_USAGE, "no command");
	ASSERT_EQ(tool("add"), GRANT_EXIT_USAGE, "add without a cgroup");
	ASSERT_EQ(tool("grant", CG), GRANT_EXIT_USAGE, "unknown command");
	ASSERT_EQ(tool("list", "--max-map-bytes", "1"), GRANT_EXIT_USAGE, "list with a limit");
	ASSERT_EQ(tool("add", CG, "--map-types", "hash,nosuch"), GRANT_EXIT_USAGE,
		  "unknown map type");
	ASSERT_TRUE(printed("unknown map type 'nosuch'"), "names the unknown type");
	ASSERT_EQ(tool("add", CG, "--prog-types", ","), GRANT_EXIT_USAGE, "empty program list");
	ASSERT_EQ(tool("add", CG, "--max-map-bytes", "-1"), GRANT_EXIT_USAGE, "negative size");
	ASSERT_EQ(tool("add", CG, "--max-map-bytes", "0"), GRANT_EXIT_USAGE, "zero size");
	ASSERT_EQ(tool("add", "/sys/fs/cgroup"), GRANT_EXIT_USAGE, "the root cgroup");
	ASSERT_TRUE(printed("every process"), "says why not the root cgroup");
	test_too_deep();
	ASSERT_FALSE(installed(), "nothing installed");
}

static void test_missing_cgroup(void)
{
	ASSERT_EQ(tool("add", "/sys/fs/cgroup/bpf_grant_nosuch"), GRANT_EXIT_NO_CGROUP,
		  "no such cgroup");
	ASSERT_TRUE(printed("no cgroup at /sys/fs/cgroup/bpf_grant_nosuch"),
		    "names the path");
	ASSERT_EQ(tool("add", "/tmp"), GRANT_EXIT_NO_CGROUP, "not a cgroup");
	ASSERT_TRUE(printed("/tmp is not a cgroup v2 directory"), "says what it is not");
	ASSERT_FALSE(installed(), "nothing installed");
}

static void test_missing_capability(void)
{
	ASSERT_EQ(tool_as_nobody("add", CG), GRANT_EXIT_NO_CAP, "add as nobody");
	ASSERT_TRUE(printed("needs CAP_SYS_ADMIN"), "names the capability");
	ASSERT_EQ(tool_as_nobody("list"), GRANT_EXIT_NO_CAP, "list as nobody");
	ASSERT_EQ(tool_as_nobody("remove", "--all"), GRANT_EXIT_NO_CAP, "remove as nobody");
	/* every capability, over a user namespace of its own only */
	ASSERT_EQ(run_tool(AS_USERNS_ROOT, TOOL_ARGS("add", CG)), GRANT_EXIT_NO_CAP,
		  "add in a user namespace");
	ASSERT_TRUE(printed("runs in a user namespace"), "says why");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* On a kernel without the hooks (ci-base) the tool says so; on one with
 * them, it lists an empty policy
 */
static void test_kernel_check(bool hooks)
{
	if (hooks) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
		ASSERT_STREQ(out, "", "no rule listed");
		return;
	}
	ASSERT_EQ(tool("add", CG), GRANT_EXIT_NO_HOOKS, "add on a kernel without hooks");
	ASSERT_TRUE(printed("this kernel has no bpf_map_create_security LSM hook"),
		    "names the missing hook");
	ASSERT_EQ(tool("list"), GRANT_EXIT_NO_HOOKS, "list on a kernel without hooks");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* The administrator's case: one cgroup gets BPF, and loses it again */
static void test_grant_app(void)
{
	struct stat st;
	char line[512];

	/* the stock refusals below come from CONFIG_BPF_UNPRIV_DEFAULT_OFF */
	if (!ASSERT_EQ(read_int_file(UNPRIV_SYSCTL), 2, "unprivileged_bpf_disabled"))
		return;
	ASSERT_EQ(in_child(CG, false, &app), -EPERM, "app before the grant");
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add"))
		return;
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
	snprintf(line, sizeof(line), "%s\t%llu\t", CG,
		 stat(CG, &st) ? 0ULL : (unsigned long long)st.st_ino);
	ASSERT_TRUE(!strncmp(out, line, strlen(line)), "lists the cgroup and its id");
	ASSERT_TRUE(printed("\t0\t1048576\tok\t"), "no map limit, 1 MiB of BTF, cgroup ok");
	ASSERT_TRUE(listed_memory(CG, CG_MEMORY_MAX, true),
		    "lists its memory.max and memory.current");
	ASSERT_FALSE(printed("kprobe"), "no root-equivalent type by default");
	ASSERT_OK(in_child(CG, false, &app), "app in the cgroup");
	ASSERT_OK(in_child(SUB_CG, false, &app), "app in a cgroup below it");
	ASSERT_OK(in_child(CG, true, &app), "app in a user namespace, in the cgroup");
	ASSERT_EQ(in_child(OTHER_CG, false, &app), -EPERM, "app in another cgroup");
	ASSERT_EQ(in_child(OTHER_CG, true, &app), -EPERM,
		  "app in a user namespace, in another cgroup");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove");
	ASSERT_FALSE(installed(), "the last rule took the policy with it");
	ASSERT_EQ(in_child(CG, false, &app), -EPERM, "app after remove");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_NO_RULE, "remove again");
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list after remove");
	ASSERT_STREQ(out, "", "no rule listed after remove");
}

/* What a rule limits: map types, map size, program types */
static void test_limits(void)
{
	int ncpus = libbpf_num_possible_cpus();

	if (!ASSERT_EQ(tool("add", CG, "--map-types", "array,percpu_array,ringbuf",
			    "--prog-types", "socket_filter,kprobe",
			    "--max-map-bytes", "4096", "--max-btf-bytes", "128"),
		       GRANT_EXIT_OK, "add with limits"))
		return;
	ASSERT_TRUE(printed("as strong as root through: kprobe"),
		    "says that kprobe makes its loader root");
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 4092, 1), "array of 4096 bytes");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 4093, 1), -EPERM, "array of 4097 bytes");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1 << 20), -EPERM, "array of 12 MiB");
	/* (4 + 65532) * 65536 is 2^32: 0 to a 32-bit product */
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 65532, 65536), -EPERM,
		  "array whose size wraps around 32 bits");
	/* a BTF of 1 int is 45 bytes, of 8 ints 157 */
	ASSERT_OK(btf_in(CG, 1), "BTF of 45 bytes");
	ASSERT_EQ(btf_in(CG, 8), -EPERM, "BTF of 157 bytes");
	ASSERT_EQ(btf_in(OTHER_CG, 1), -EPERM, "BTF, other cgroup");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 256),
		  256 * (4 + 8 * ncpus) <= 4096 ? 0 : -EPERM, "per-CPU array, per CPU");
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_RINGBUF, 0, 0, 4096), "ring buffer of 4096");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_RINGBUF, 0, 0, 8192), -EPERM, "ring buffer of 8192");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_HASH, 4, 8, 16), -EPERM, "hash, not listed");
	ASSERT_OK(prog_in(CG, BPF_PROG_TYPE_SOCKET_FILTER), "socket filter, listed");
	/* granted as with CAP_BPF, not as root: the verifier knows no such helper */
	ASSERT_EQ(perfmon_prog_in(CG, BPF_PROG_TYPE_SOCKET_FILTER), -EINVAL,
		  "socket filter calling bpf_get_current_task()");
	ASSERT_OK(perfmon_prog_in(CG, BPF_PROG_TYPE_KPROBE), "kprobe calling it, named");
	ASSERT_EQ(prog_in(CG, BPF_PROG_TYPE_XDP), -EPERM, "xdp, not listed");
	ASSERT_OK(prog_in(CG, BPF_PROG_TYPE_KPROBE), "kprobe, named");
	ASSERT_EQ(prog_in(CG, BPF_PROG_TYPE_TRACEPOINT), -EPERM, "tracepoint, not named");
	ASSERT_EQ(map_in(OTHER_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), -EPERM, "array, other cgroup");
	ASSERT_EQ(prog_in(OTHER_CG, BPF_PROG_TYPE_KPROBE), -EPERM, "kprobe, other cgroup");

	/* add again: the defaults replace the limits */
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add with the defaults"))
		return;
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1 << 20), "array of 12 MiB, no limit");
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_HASH, 4, 8, 16), "hash, all map types");
	ASSERT_OK(btf_in(CG, 8), "BTF of 157 bytes, within 1 MiB");
	ASSERT_OK(prog_in(CG, BPF_PROG_TYPE_XDP), "xdp, by default");
	ASSERT_EQ(prog_in(CG, BPF_PROG_TYPE_KPROBE), -EPERM, "kprobe, not by default");
	ASSERT_EQ(prog_in(CG, BPF_PROG_TYPE_SYSCALL), -EPERM, "syscall, not by default");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove");
}

/* A grant hook takes one BPF LSM program: the tool says who holds it */
static void test_hook_busy(void)
{
	struct grant_policy *other = grant_policy__open_and_load();
	struct bpf_link *link;

	if (!ASSERT_OK_PTR(other, "another policy") ||
	    !ASSERT_OK(grant_policy__attach(other), "attach another policy")) {
		grant_policy__destroy(other);
		return;
	}
	ASSERT_EQ(tool("add", CG), GRANT_EXIT_HOOK_BUSY, "add with the hooks taken");
	ASSERT_TRUE(printed("another BPF LSM program is attached to "
			    "bpf_map_create_security"), "names the hook");
	ASSERT_FALSE(installed(), "nothing pinned");
	grant_policy__destroy(other);

	/* the second hook taken: the first one's link goes too */
	other = grant_policy__open_and_load();
	if (!ASSERT_OK_PTR(other, "a policy on the BTF hook"))
		return;
	link = bpf_program__attach_lsm(other->progs.grant_btf_load);
	if (ASSERT_OK_PTR(link, "attach it")) {
		ASSERT_EQ(tool("add", CG), GRANT_EXIT_HOOK_BUSY, "add, BTF hook taken");
		ASSERT_TRUE(printed("attached to bpf_btf_load_security"), "names it");
		ASSERT_FALSE(installed(), "nothing pinned");
	}
	bpf_link__destroy(link);
	grant_policy__destroy(other);
	ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add once the hooks are free");
	ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK, "remove --all");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* Two rules: the deepest applies, and removing one keeps the other */
static void test_rules(void)
{
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add the cgroup") ||
	    !ASSERT_EQ(tool("add", SUB_CG, "--map-types", "array"), GRANT_EXIT_OK,
		       "add the cgroup below it, arrays only"))
		return;
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_HASH, 4, 8, 1), "hash in the cgroup");
	ASSERT_EQ(map_in(SUB_CG, BPF_MAP_TYPE_HASH, 4, 8, 1), -EPERM,
		  "hash below it: its own rule applies, not the wider one");
	ASSERT_OK(map_in(SUB_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array below it");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove the cgroup's rule");
	ASSERT_TRUE(installed(), "the other rule keeps the policy");
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
	ASSERT_TRUE(!strncmp(out, SUB_CG "\t", strlen(SUB_CG) + 1) &&
		    strchr(out, '\n') == out + strlen(out) - 1, "lists the other rule alone");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), -EPERM, "array, cgroup removed");
	ASSERT_OK(map_in(SUB_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array below it, still");
	ASSERT_EQ(tool("remove", SUB_CG), GRANT_EXIT_OK, "remove the last rule");
	ASSERT_FALSE(installed(), "the policy went with it");
}

/* Links and a rules map pinned as bpf-grant pins them, but the map is not
 * the one the programs use: a rule added to it would never apply
 */
static void test_impostor(void)
{
	struct grant_policy *other = grant_policy__open_and_load();
	struct grant_rule rule = {};
	static const char *const pins[] = {
		PIN_DIR "/map_create", PIN_DIR "/btf_load", PIN_DIR "/prog_load",
	};
	struct bpf_link *links[3] = {};
	__u64 key = 1;
	int i, fd;

	if (!ASSERT_OK_PTR(other, "another copy of the policy") ||
	    !ASSERT_OK(mkdir(PIN_DIR, 0700), "mkdir " PIN_DIR))
		goto out;
	links[0] = bpf_program__attach_lsm(other->progs.grant_map_create);
	links[1] = bpf_program__attach_lsm(other->progs.grant_btf_load);
	links[2] = bpf_program__attach_lsm(other->progs.grant_prog_load);
	for (i = 0; i < 3; i++)
		if (!ASSERT_OK_PTR(links[i], "attach") ||
		    !ASSERT_OK(bpf_link__pin(links[i], pins[i]), "pin the link"))
			goto out;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 8, sizeof(rule), 1, NULL);
	if (!ASSERT_GE(fd, 0, "a map of the rules' shape"))
		goto out;
	strcpy(rule.path, "impostor");
	ASSERT_OK(bpf_map_update_elem(fd, &key, &rule, 0), "a rule in it");
	ASSERT_OK(bpf_obj_pin(fd, PIN_DIR "/rules"), "pin it");
	close(fd);
	ASSERT_EQ(tool("list"), GRANT_EXIT_FAIL, "list, another map pinned");
	ASSERT_TRUE(printed("is not bpf-grant's policy"), "says so");
	ASSERT_FALSE(printed("impostor"), "lists none of its rules");
out:
	ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK, "remove --all");
	ASSERT_FALSE(installed(), "nothing left");
	for (i = 0; i < 3; i++)
		bpf_link__destroy(links[i]);
	grant_policy__destroy(other);
}

/* What bpf-grant finds pinned decides who gets BPF: it trusts only its
 * own policy in a directory of root's
 */
static void test_pin_dir(void)
{
	int fd, status;
	pid_t pid;

	/* a user makes the directory first, on a BPF file system that the
	 * administrator left 1777 and told add so (--shared-bpffs)
	 */
	if (!ASSERT_OK(chmod(BPFFS, BPFFS_SHARED), "chmod 1777 " BPFFS))
		goto out;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(!become_nobody() || mkdir(PIN_DIR, 0777));
	if (!ASSERT_EQ(waitpid(pid, &status, 0), pid, "wait") ||
	    !ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status),
			 "nobody makes " PIN_DIR))
		goto out;
	ASSERT_EQ(tool("add", CG, "--shared-bpffs"), GRANT_EXIT_FAIL,
		  "add into nobody's directory");
	ASSERT_TRUE(printed("is not root's own directory"), "says whose it is");
	ASSERT_EQ(tool("list"), GRANT_EXIT_FAIL, "list from nobody's directory");
	rmdir(PIN_DIR);
	if (!ASSERT_OK(chmod(BPFFS, BPFFS_OWN), "chmod back " BPFFS))
		goto out;

	/* root's directory, with a map that is not the policy's pinned in it */
	if (!ASSERT_OK(mkdir(PIN_DIR, 0700), "mkdir " PIN_DIR))
		goto out;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 8, sizeof(struct grant_rule), 1, NULL);
	if (ASSERT_GE(fd, 0, "a map of the rules' shape")) {
		ASSERT_OK(bpf_obj_pin(fd, PIN_DIR "/rules"), "pin it");
		close(fd);
	}
	ASSERT_EQ(tool("list"), GRANT_EXIT_FAIL, "list, a pin missing");
	ASSERT_TRUE(printed("is incomplete"), "says a pin is missing");
	ASSERT_EQ(tool("add", CG), GRANT_EXIT_FAIL, "add, a pin missing");
	ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK, "remove --all cleans up");
	ASSERT_FALSE(installed(), "nothing left");
	test_impostor();

	/* a process that holds a link keeps the policy attached: remove says so */
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add"))
		goto out;
	fd = bpf_obj_get(PIN_DIR "/map_create");
	ASSERT_GE(fd, 0, "hold the policy's link");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_FAIL, "remove, a link held");
	ASSERT_TRUE(printed("a process holds its link"), "says why");
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(in_child(CG, false, &app), -EPERM, "app, the link let go");
out:
	unlink(PIN_DIR "/rules");
	rmdir(PIN_DIR);
	chmod(BPFFS, BPFFS_OWN);
}

/* kernel.lsm_grant_disabled at 2 turns the tool's grants off; put back */
static void test_grants_off(void)
{
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add"))
		return;
	if (ASSERT_OK(write_file(GRANT_SYSCTL, "2"), "lsm_grant_disabled=2")) {
		ASSERT_EQ(in_child(CG, false, &app), -EPERM, "app, grants off");
		ASSERT_OK(write_file(GRANT_SYSCTL, "0"), "lsm_grant_disabled=0");
	}
	ASSERT_OK(in_child(CG, false, &app), "app, grants on again");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove");
}

/* The default rule: an allowlist. What it leaves out, a task gets only when
 * a rule names it, and a type this kernel lacks cannot be named.
 */
static void test_default_types(void)
{
	/* each type the default leaves out, as a map it could be */
	static const struct step maps[] = {
		{ MAP, BPF_MAP_TYPE_DEVMAP, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_DEVMAP_HASH, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_XSKMAP, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_CPUMAP, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_SOCKMAP, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_SOCKHASH, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, 4, 4, 1 },
		{ MAP, BPF_MAP_TYPE_STACK_TRACE, 4, 8, 1 },
		{ MAP_BTF, BPF_MAP_TYPE_TASK_STORAGE },
		{ MAP_BTF, BPF_MAP_TYPE_INODE_STORAGE },
	};
	static const int progs[] = {
		BPF_PROG_TYPE_SK_SKB, BPF_PROG_TYPE_SK_MSG,
		BPF_PROG_TYPE_LIRC_MODE2,
	};
	struct step prog = { PROG };
	char name[64];
	int i;

	ASSERT_EQ(tool("--help"), GRANT_EXIT_OK, "--help");
	ASSERT_TRUE(printed("kernel thread per entry, counted in the updater's"),
		    "--help says what a type left out hands out");
	ASSERT_EQ(tool("add", CG, "--map-types", "struct_ops"),
		  GRANT_EXIT_USAGE, "struct_ops, which no grant covers");
	ASSERT_TRUE(printed("the kernel grants no struct_ops map"),
		    "says the kernel does not grant it");
	ASSERT_EQ(tool("add", CG, "--map-types", "cgrp_storage"),
		  GRANT_EXIT_USAGE, "a map type libbpf names and 6.1 lacks");
	ASSERT_TRUE(printed("this kernel has no map type 'cgrp_storage'"),
		    "says the kernel lacks it");
	ASSERT_FALSE(installed(), "nothing installed");
	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add with the defaults"))
		return;
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
	ASSERT_FALSE(printed("devmap") || printed("sk_skb"),
		     "lists no type left out");
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array, by default");
	ASSERT_OK(map_in(CG, BPF_MAP_TYPE_HASH, 4, 8, 1), "hash, by default");
	ASSERT_OK(prog_in(CG, BPF_PROG_TYPE_SOCKET_FILTER),
		  "socket_filter, by default");
	ASSERT_OK(prog_in(CG, BPF_PROG_TYPE_XDP), "xdp, by default");
	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		snprintf(name, sizeof(name), "%s, not by default",
			 libbpf_bpf_map_type_str(maps[i].type));
		/* root makes one: the kernel has it, only the grant decides */
		if (do_step(&maps[i])) {
			printf("%s: root cannot make one either, not checked\n",
			       name);
			continue;
		}
		ASSERT_EQ(in_child(CG, false, &maps[i]), -EPERM, name);
	}
	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		prog.type = progs[i];
		snprintf(name, sizeof(name), "%s, not by default",
			 libbpf_bpf_prog_type_str(progs[i]));
		if (do_step(&prog)) {
			printf("%s: root cannot load one either, not checked\n",
			       name);
			continue;
		}
		ASSERT_EQ(in_child(CG, false, &prog), -EPERM, name);
	}
	if (ASSERT_EQ(tool("add", CG, "--map-types", "devmap"), GRANT_EXIT_OK,
		      "add devmap, named")) {
		ASSERT_OK(in_child(CG, false, &maps[0]), "devmap, named");
		ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), -EPERM,
			  "array, not named");
	}
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove");
	ASSERT_FALSE(installed(), "nothing installed");
}

static int mkdir_cg(const char *path)
{
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

/* Hand @path and its cgroup.procs to @uid, as a container runtime does */
static int delegate(const char *path, uid_t uid)
{
	char procs[256];

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	return chown(path, uid, uid) || chown(procs, uid, uid) ? -errno : 0;
}

/* What a task of the narrow cgroup, as nobody, gets before and after it
 * moves itself to a cgroup it makes in the delegated one: 0 or -errno each
 */
struct escape {
	int array_before, hash_before, mkdir, move, array_after, hash_after,
	    kprobe_after;
};

/* A task of nobody's in @from moves itself to @to, which it makes if
 * there is none; what it can create before and after, in @e
 */
static bool try_escape(const char *from, const char *to, struct escape *e)
{
	static const struct step array = { MAP, BPF_MAP_TYPE_ARRAY, 4, 8, 1 };
	static const struct step hash = { MAP, BPF_MAP_TYPE_HASH, 4, 8, 1 };
	static const struct step kprobe = { PROG, BPF_PROG_TYPE_KPROBE };
	char procs[GRANT_PATH_MAX];
	ssize_t n = -1;
	int fds[2];
	pid_t pid;

	if (!fork_piped(fds, &pid))
		return false;
	if (pid == 0) {
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", from);
		if (write_file(procs, "0") || !become_nobody())
			_exit(1);
		e->array_before = do_step(&array);
		e->hash_before = do_step(&hash);
		e->mkdir = mkdir(to, 0755) && errno != EEXIST ? -errno : 0;
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", to);
		e->move = write_file(procs, "0");
		e->array_after = do_step(&array);
		e->hash_after = do_step(&hash);
		e->kprobe_after = do_step(&kprobe);
		_exit(write(fds[1], e, sizeof(*e)) != sizeof(*e));
	}
	if (pid > 0) {
		n = read(fds[0], e, sizeof(*e));
		waitpid(pid, NULL, 0);
	}
	close(fds[0]);
	return n == sizeof(*e);
}

/*
 * Rules on a cgroup and on one below it, with the upper one delegated to
 * nobody: a task below could make a cgroup in the delegated one, move there
 * and get the wider rule. add refuses the pair, in either order; a rule
 * alone on a delegated cgroup, and the pair on cgroups of root's, are fine.
 */
static void test_delegated_nesting(void)
{
	struct escape e;

	if (!ASSERT_OK(delegate(DELEG_CG, NOBODY), "delegate it to nobody") ||
	    !ASSERT_EQ(tool("add", NARROW_CG, "--map-types", "array"),
		       GRANT_EXIT_OK, "a rule below the delegated one, alone"))
		goto out;
	ASSERT_EQ(tool("add", DELEG_CG), GRANT_EXIT_DELEGATED,
		  "a wider rule on the delegated cgroup above it");
	ASSERT_TRUE(printed(DELEG_CG " is delegated (" DELEG_CG
			    " is owned by uid 65534)"),
		    "names the delegated cgroup");
	ASSERT_TRUE(printed("bpf-grant remove " NARROW_CG " first"),
		    "says the fix");
	/* the escape that a wider rule would have let through */
	if (ASSERT_TRUE(try_escape(NARROW_CG, MINE_CG, &e),
			"a task of the narrow cgroup")) {
		ASSERT_OK(e.array_before, "array in the narrow cgroup");
		ASSERT_EQ(e.hash_before, -EPERM, "hash in the narrow cgroup");
		ASSERT_OK(e.mkdir, "it makes a cgroup in the delegated one");
		ASSERT_OK(e.move, "it moves itself there");
		ASSERT_EQ(e.array_after, -EPERM, "array after the move");
		ASSERT_EQ(e.hash_after, -EPERM,
			  "hash after the move: no wider rule");
	}
	rmdir(MINE_CG);

	/* the wider rule first: the narrower one is refused */
	ASSERT_EQ(tool("remove", NARROW_CG), GRANT_EXIT_OK,
		  "remove the narrow rule");
	ASSERT_EQ(tool("add", DELEG_CG), GRANT_EXIT_OK,
		  "a rule on the delegated cgroup, alone");
	ASSERT_EQ(tool("add", NARROW_CG, "--map-types", "array"),
		  GRANT_EXIT_DELEGATED, "a narrower rule below it");
	ASSERT_TRUE(printed("a task of " NARROW_CG " could move itself"),
		    "names the cgroup a task could leave");

	/* a cgroup.procs others can write is a delegation too */
	ASSERT_OK(delegate(DELEG_CG, 0), "take the delegation back");
	ASSERT_OK(chmod(DELEG_CG "/cgroup.procs", 0666), "chmod 0666");
	ASSERT_EQ(tool("add", NARROW_CG, "--map-types", "array"),
		  GRANT_EXIT_DELEGATED, "below a cgroup.procs others can write");
	ASSERT_TRUE(printed("cgroup.procs is writable by others"), "says so");
	ASSERT_OK(chmod(DELEG_CG "/cgroup.procs", 0644), "chmod 0644");
	ASSERT_EQ(tool("add", NARROW_CG, "--map-types", "array"), GRANT_EXIT_OK,
		  "the same rules on cgroups of root's");
	ASSERT_EQ(map_in(NARROW_CG, BPF_MAP_TYPE_HASH, 4, 8, 1), -EPERM,
		  "hash below: the narrower rule applies");
	ASSERT_OK(map_in(DELEG_CG, BPF_MAP_TYPE_HASH, 4, 8, 1), "hash above it");
out:
	rmdir(MINE_CG);
	delegate(DELEG_CG, 0);
	chmod(DELEG_CG "/cgroup.procs", 0644);
	if (installed())
		ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK,
			  "remove --all");
}

/*
 * Rules side by side in one delegated cgroup: its user moves its tasks
 * among its cgroups, so a task of the one could move into the other and
 * get its rule. add refuses a rule there that grants more than one already
 * there, in any field, and takes one that grants no more. A task that
 * moves across then gets nothing more than it had: first no rule at all,
 * then the narrower one.
 */
static void test_delegated_siblings(void)
{
	/* wider than the rule of APP_CG, each in one way */
	static const struct {
		const char *what, *args[7];
	} wider[] = {
		{ "a map type more", { "--map-types", "array,hash,lru_hash",
		  "--max-map-bytes", "4096" } },
		{ "larger maps", { "--map-types", "array,hash",
		  "--max-map-bytes", "8192" } },
		{ "no map limit", { "--map-types", "array,hash" } },
		{ "larger BTF", { "--map-types", "array,hash", "--max-map-bytes",
		  "4096", "--max-btf-bytes", "2097152" } },
		{ "a root-equivalent program type", { "--map-types", "array,hash",
		  "--max-map-bytes", "4096", "--prog-types", "socket_filter,kprobe" } },
	};
	const char *args[ARRAY_SIZE(wider[0].args) + 3] = { "add", MON_CG };
	struct escape e;
	char what[96];
	int i, j;

	if (!ASSERT_OK(delegate(DELEG_CG, NOBODY), "delegate it to nobody") ||
	    !ASSERT_OK(mkdir_cg(APP_CG) ?: delegate(APP_CG, NOBODY),
		       "a cgroup of nobody's in it") ||
	    !ASSERT_OK(mkdir_cg(MON_CG) ?: delegate(MON_CG, NOBODY),
		       "another one beside it") ||
	    !ASSERT_EQ(tool("add", APP_CG, "--map-types", "array,hash",
			    "--max-map-bytes", "4096"), GRANT_EXIT_OK,
		       "a narrow rule on one, alone"))
		goto out;
	for (i = 0; i < ARRAY_SIZE(wider); i++) {
		for (j = 0; j < ARRAY_SIZE(wider[i].args); j++)
			args[j + 2] = wider[i].args[j];
		snprintf(what, sizeof(what), "a rule beside it, wider: %s",
			 wider[i].what);
		ASSERT_EQ(run_tool(AS_ROOT, args), GRANT_EXIT_DELEGATED, what);
	}
	ASSERT_TRUE(printed(DELEG_CG " is delegated (" DELEG_CG
			    " is owned by uid 65534)"),
		    "names the delegated cgroup");
	ASSERT_TRUE(printed("a task of " APP_CG " could move itself into " MON_CG),
		    "names both cgroups");
	ASSERT_TRUE(printed("bpf-grant remove " APP_CG " first"), "says the fix");
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
	ASSERT_FALSE(printed(MON_CG "\t"), "no rule added beside it");
	/* the escape the wider rule beside it would have let through */
	if (ASSERT_TRUE(try_escape(APP_CG, MON_CG, &e), "a task of " APP_CG)) {
		ASSERT_OK(e.hash_before, "hash in " APP_CG);
		ASSERT_OK(e.move, "it moves itself into " MON_CG);
		ASSERT_EQ(e.hash_after, -EPERM, "hash after the move: no rule there");
		ASSERT_EQ(e.kprobe_after, -EPERM, "kprobe after the move");
	}

	if (!ASSERT_EQ(tool("add", MON_CG, "--map-types", "array",
			    "--max-map-bytes", "4096", "--prog-types",
			    "socket_filter"), GRANT_EXIT_OK,
		       "a rule beside it that grants no more"))
		goto out;
	ASSERT_OK(map_in(MON_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array beside it");
	ASSERT_EQ(map_in(MON_CG, BPF_MAP_TYPE_HASH, 4, 8, 1), -EPERM,
		  "hash beside it: its own rule applies");
	ASSERT_OK(map_in(APP_CG, BPF_MAP_TYPE_HASH, 4, 8, 1), "hash in the first one");
	if (ASSERT_TRUE(try_escape(APP_CG, MON_CG, &e), "a task of " APP_CG)) {
		ASSERT_OK(e.hash_before, "hash in " APP_CG);
		ASSERT_OK(e.move, "it moves itself into " MON_CG);
		ASSERT_OK(e.array_after, "array after the move");
		ASSERT_EQ(e.hash_after, -EPERM,
			  "hash after the move: the narrower rule there");
	}
	ASSERT_EQ(tool("add", APP_CG, "--map-types", "array,hash",
		       "--max-map-bytes", "4096"), GRANT_EXIT_OK,
		  "the first rule added again, as it was");
	ASSERT_EQ(tool("add", APP_CG, "--map-types", "array,hash"),
		  GRANT_EXIT_DELEGATED, "the first rule widened, with one beside it");
	ASSERT_TRUE(printed("a task of " MON_CG " could move itself into " APP_CG),
		    "names both cgroups, the other way");
out:
	if (installed())
		ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK, "remove --all");
	rmdir(APP_CG);
	rmdir(MON_CG);
	delegate(DELEG_CG, 0);
}

/* Open @path and take a shared lock on it, kept open: 0 or -errno */
static int lock_shared(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	return fd < 0 || flock(fd, LOCK_SH | LOCK_NB) ? -errno : 0;
}

/* What a process of nobody's could lock, each 0 or -errno */
struct holder {
	int bpffs, dir, lock;
};

/* A process of nobody's that holds every lock it can until killed: its
 * pid, and what it could lock in @h
 */
static pid_t hold_locks(struct holder *h)
{
	ssize_t n = -1;
	int fds[2];
	pid_t pid;

	if (!fork_piped(fds, &pid))
		return -1;
	if (pid == 0) {
		if (!become_nobody())
			_exit(1);
		h->bpffs = lock_shared(BPFFS);
		h->dir = lock_shared(LOCK_DIR);
		h->lock = lock_shared(LOCK_DIR "/lock");
		if (write(fds[1], h, sizeof(*h)) != sizeof(*h))
			_exit(1);
		pause();
		_exit(0);
	}
	if (pid > 0)
		n = read(fds[0], h, sizeof(*h));
	close(fds[0]);
	if (pid > 0 && n != sizeof(*h)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* Another user holds every lock it can open: list and remove still run */
static void test_lock_held_by_nobody(void)
{
	struct holder h;
	struct stat st;
	pid_t pid;

	if (!ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add"))
		return;
	ASSERT_TRUE(!lstat(LOCK_DIR, &st) && S_ISDIR(st.st_mode) && !st.st_uid &&
		    (st.st_mode & 0777) == 0700, LOCK_DIR " is root's, 0700");
	/* the BPF file system as the kernel mounts it, which any user can
	 * open; what it locks there stays locked once it is back
	 */
	ASSERT_OK(chmod(BPFFS, BPFFS_SHARED), "chmod 1777 " BPFFS);
	pid = hold_locks(&h);
	ASSERT_OK(chmod(BPFFS, BPFFS_OWN), "chmod back " BPFFS);
	if (!ASSERT_GT(pid, 0, "a process of nobody's holding locks")) {
		tool("remove", CG);
		return;
	}
	ASSERT_OK(h.bpffs, "nobody holds a lock on " BPFFS);
	ASSERT_EQ(h.dir, -EACCES, "nobody cannot open " LOCK_DIR);
	ASSERT_EQ(h.lock, -EACCES, "nobody cannot open " LOCK_DIR "/lock");
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list while nobody holds locks");
	ASSERT_TRUE(!strncmp(out, CG "\t", strlen(CG) + 1), "lists the rule");
	ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK,
		  "remove while nobody holds locks");
	ASSERT_FALSE(installed(), "the grant is gone");
	ASSERT_EQ(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), -EPERM,
		  "array after remove");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Counts with a sign, a space or out of range: refused with a message */
static void test_bad_byte_counts(void)
{
	static const char *const bad[] = {
		" -1", "-1", "18446744073709551616", "12abc", "", "+1", "0x10",
		"007",
	};
	char what[64], said[96];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "--max-map-bytes '%s'", bad[i]);
		snprintf(said, sizeof(said), "bpf-grant: %s: ", what);
		ASSERT_EQ(tool("add", CG, "--max-map-bytes", bad[i]),
			  GRANT_EXIT_USAGE, what);
		ASSERT_TRUE(!strncmp(out, said, strlen(said)),
			    "the message names the option and the count");
	}
	ASSERT_EQ(tool("add", CG, "--max-map-bytes", " -1"), GRANT_EXIT_USAGE,
		  "--max-map-bytes ' -1', which strtoull() takes as 2^64 - 1");
	ASSERT_TRUE(printed("--max-map-bytes ' -1': not a count of bytes"),
		    "says it is not a count");
	ASSERT_EQ(tool("add", CG, "--max-btf-bytes", "4294967296"), GRANT_EXIT_USAGE,
		  "--max-btf-bytes past 32 bits");
	ASSERT_TRUE(printed("--max-btf-bytes '4294967296': out of range"),
		    "says it is out of range");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* A path of PATH_MAX bytes or more, and remove of a path not on cgroup2 */
static void test_path_too_long(void)
{
	char path[5001];

	memset(path, 'a', sizeof(path) - 1);
	memcpy(path, "/sys/fs/cgroup/", 15);
	path[sizeof(path) - 1] = 0;
	ASSERT_EQ(tool("add", path), GRANT_EXIT_USAGE, "add, a path of 5000 bytes");
	ASSERT_TRUE(printed("a path of 5000 bytes") && printed("longer than PATH_MAX"),
		    "says it is longer than PATH_MAX");
	ASSERT_LT(strlen(out), 512, "and does not print it all");
	ASSERT_EQ(tool("remove", path), GRANT_EXIT_USAGE, "remove, a path of 5000 bytes");
	ASSERT_TRUE(printed("longer than PATH_MAX"), "says so");
	ASSERT_EQ(tool("add", ""), GRANT_EXIT_USAGE, "add, an empty path");
	ASSERT_TRUE(printed("an empty path"), "says so");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* remove matches a rule by cgroup id only on cgroup2: /tmp's inode is not one */
static void test_remove_needs_cgroup2(void)
{
	ASSERT_EQ(tool("remove", "/tmp"), GRANT_EXIT_NO_CGROUP, "remove /tmp");
	ASSERT_TRUE(printed("/tmp is not a cgroup v2 directory"), "says why");
	ASSERT_EQ(tool("remove", "/proc/self"), GRANT_EXIT_NO_CGROUP, "remove /proc/self");
}

/* No memory.max on the cgroup or above it: add refuses and names the file */
static void test_unbounded_memory_refused(void)
{
	ASSERT_EQ(tool("add", UNBOUND_CG), GRANT_EXIT_NO_MEMORY_BOUND,
		  "add, memory.max max on it and above it");
	ASSERT_TRUE(printed("write a limit to " UNBOUND_CG "/memory.max"),
		    "names the file to write");
	ASSERT_TRUE(printed("--unbounded-memory"), "names the option");
	ASSERT_EQ(tool("add", NOMEM_CG), GRANT_EXIT_NO_MEMORY_BOUND,
		  "add, no memory controller and no limit above");
	ASSERT_TRUE(printed("the memory controller is not enabled for it"),
		    "says the controller is off");
	ASSERT_TRUE(printed("echo +memory > " UNBOUND_CG "/cgroup.subtree_control"),
		    "names the parent's cgroup.subtree_control");
	ASSERT_TRUE(printed(NOMEM_CG "/memory.max"), "names memory.max");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* --unbounded-memory: the administrator's choice, listed as max */
static void test_unbounded_memory_flag(void)
{
	if (!ASSERT_EQ(tool("add", UNBOUND_CG, "--unbounded-memory"), GRANT_EXIT_OK,
		       "add --unbounded-memory"))
		return;
	ASSERT_TRUE(printed("memory bound: max (--unbounded-memory"),
		    "says nothing bounds it");
	ASSERT_OK(map_in(UNBOUND_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array in it");
	ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
	ASSERT_TRUE(listed_memory(UNBOUND_CG, "max", true),
		    "lists the bound as max, and memory.current");
	ASSERT_EQ(tool("list", "--unbounded-memory"), GRANT_EXIT_USAGE,
		  "list --unbounded-memory");
	ASSERT_EQ(tool("remove", UNBOUND_CG), GRANT_EXIT_OK, "remove");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* memory.max on an ancestor bounds a cgroup whose own is max, or which has
 * no memory controller: add takes both, and list shows the ancestor's
 */
static void test_memory_bound_on_ancestor(void)
{
	if (!ASSERT_EQ(tool("add", MEM_CHILD_CG), GRANT_EXIT_OK,
		       "add, memory.max max, its parent's " MEM_CG_MAX))
		return;
	ASSERT_TRUE(printed("memory bound: " MEM_CG_MAX " bytes"), "prints the bound");
	ASSERT_OK(map_in(MEM_CHILD_CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array in it");
	if (ASSERT_EQ(tool("add", SUB_CG), GRANT_EXIT_OK,
		      "add, no memory controller, its parent's " CG_MEMORY_MAX)) {
		ASSERT_EQ(tool("list"), GRANT_EXIT_OK, "list");
		ASSERT_TRUE(listed_memory(MEM_CHILD_CG, MEM_CG_MAX, true),
			    "lists the parent's bound and memory.current");
		ASSERT_TRUE(listed_memory(SUB_CG, CG_MEMORY_MAX, false),
			    "lists the parent's bound, no memory.current");
		ASSERT_EQ(tool("remove", SUB_CG), GRANT_EXIT_OK, "remove");
	}
	ASSERT_EQ(tool("remove", MEM_CHILD_CG), GRANT_EXIT_OK, "remove");
	ASSERT_FALSE(installed(), "nothing installed");
}

/*
 * A BPF file system where others can make names, as the kernel mounts it
 * (1777): a grantee could make tc/globals first and pin maps there that
 * root's tc and ip reuse. add refuses it, and a directory where they pin
 * (or its symlink) that is someone else's; root's own are fine.
 */
static void test_shared_bpffs_refused(void)
{
	bool made, linked;

	if (ASSERT_OK(chmod(BPFFS, BPFFS_SHARED), "chmod 1777 " BPFFS)) {
		ASSERT_EQ(tool("add", CG), GRANT_EXIT_SHARED_BPFFS, "add, " BPFFS " 1777");
		ASSERT_TRUE(printed(BPFFS " is mode 1777"), "names the path and its mode");
		ASSERT_TRUE(printed("chmod 0700 " BPFFS), "says the fix");
		ASSERT_TRUE(printed("--shared-bpffs"), "names the option");
		ASSERT_FALSE(installed(), "nothing installed");
	}
	if (!ASSERT_OK(chmod(BPFFS, BPFFS_OWN), "chmod back " BPFFS))
		return;
	made = !mkdir(BPFFS "/tc", 0700);
	if (ASSERT_TRUE(made, "mkdir " BPFFS "/tc") &&
	    ASSERT_OK(chown(BPFFS "/tc", NOBODY, NOBODY), "chown it to nobody")) {
		ASSERT_EQ(tool("add", CG), GRANT_EXIT_SHARED_BPFFS,
			  "add, " BPFFS "/tc nobody's");
		ASSERT_TRUE(printed(BPFFS "/tc is mode 0700, owner uid 65534"),
			    "names it and its owner");
		ASSERT_FALSE(installed(), "nothing installed");
	}
	/* as ip makes them: tc/ root's, xdp/ a symlink to it */
	linked = made && ASSERT_OK(chown(BPFFS "/tc", 0, 0), "chown it to root") &&
		 ASSERT_OK(symlink(BPFFS "/tc/", BPFFS "/xdp"), "symlink " BPFFS "/xdp");
	if (linked) {
		if (ASSERT_EQ(tool("add", CG), GRANT_EXIT_OK, "add, root's tc/ and xdp/"))
			ASSERT_EQ(tool("remove", CG), GRANT_EXIT_OK, "remove");
		ASSERT_OK(lchown(BPFFS "/xdp", NOBODY, NOBODY), "the symlink, nobody's");
		ASSERT_EQ(tool("add", CG), GRANT_EXIT_SHARED_BPFFS,
			  "add, " BPFFS "/xdp a symlink of nobody's");
		ASSERT_TRUE(printed(BPFFS "/xdp is a symlink"), "names it");
		unlink(BPFFS "/xdp");
	}
	if (made)
		rmdir(BPFFS "/tc");
	ASSERT_FALSE(installed(), "nothing installed");
}

/* --shared-bpffs: the administrator's choice, on a BPF file system 1777 */
static void test_shared_bpffs_flag(void)
{
	if (ASSERT_OK(chmod(BPFFS, BPFFS_SHARED), "chmod 1777 " BPFFS) &&
	    ASSERT_EQ(tool("add", CG, "--shared-bpffs"), GRANT_EXIT_OK,
		      "add --shared-bpffs")) {
		ASSERT_OK(map_in(CG, BPF_MAP_TYPE_ARRAY, 4, 8, 1), "array in it");
		ASSERT_EQ(tool("list", "--shared-bpffs"), GRANT_EXIT_USAGE,
			  "list --shared-bpffs");
		ASSERT_EQ(tool("remove", "--all"), GRANT_EXIT_OK, "remove --all");
	}
	ASSERT_OK(chmod(BPFFS, BPFFS_OWN), "chmod back " BPFFS);
	ASSERT_FALSE(installed(), "nothing installed");
}

/* Whether the root cgroup gives its children the memory controller */
static bool memory_controller_on(void)
{
	char buf[256] = "";
	FILE *f = fopen(ROOT_SUBTREE, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "memory");
}

/*
 * The cgroups, and their memory: CG and DELEG_CG limited (the cgroups
 * below them have no memory controller); MEM_CG limited and giving its
 * child the controller, whose own memory.max is max; UNBOUND_CG max, with
 * a child that has no controller. 0 or -errno.
 */
static int make_cgroups(void)
{
	static const char *const dirs[] = {
		CG, SUB_CG, OTHER_CG, DELEG_CG, NARROW_CG, MEM_CG, MEM_CHILD_CG,
		UNBOUND_CG, NOMEM_CG,
	};
	int i, err = 0;

	for (i = 0; i < ARRAY_SIZE(dirs) && !err; i++) {
		err = mkdir_cg(dirs[i]);
		/* MEM_CHILD_CG gets the memory controller */
		if (!err && !strcmp(dirs[i], MEM_CG))
			err = write_file(MEM_CG "/cgroup.subtree_control", "+memory");
	}
	return err ?: write_file(CG "/memory.max", CG_MEMORY_MAX) ?:
	       write_file(DELEG_CG "/memory.max", CG_MEMORY_MAX) ?:
	       write_file(MEM_CG "/memory.max", MEM_CG_MAX) ?:
	       write_file(MEM_CHILD_CG "/memory.max", "max") ?:
	       write_file(UNBOUND_CG "/memory.max", "max");
}

static void remove_cgroups(void)
{
	rmdir(SUB_CG);
	rmdir(CG);
	rmdir(OTHER_CG);
	rmdir(MINE_CG);
	rmdir(APP_CG);
	rmdir(MON_CG);
	rmdir(NARROW_CG);
	rmdir(DELEG_CG);
	rmdir(MEM_CHILD_CG);
	write_file(MEM_CG "/cgroup.subtree_control", "-memory");
	rmdir(MEM_CG);
	rmdir(NOMEM_CG);
	rmdir(UNBOUND_CG);
}

static bool need_hooks(bool hooks)
{
	if (hooks && read_int_file(GRANT_SYSCTL) == 0)
		return true;
	printf("SKIP: no grant hooks in this kernel, or grants are off\n");
	test__skip();
	return false;
}

void test_bpf_grant(void)
{
	bool hooks = have_grant_hooks(), memory_was_on = memory_controller_on();

	if (!ASSERT_OK(memory_was_on ? 0 : write_file(ROOT_SUBTREE, "+memory"),
		       "the memory controller for the root's children"))
		return;
	if (!ASSERT_OK(make_cgroups(), "the cgroups and their memory.max"))
		goto out;
	/* A block a subtest, test_progs' idiom: alike in shape only */
	if (test__start_subtest("usage"))
		test_usage();
	if (test__start_subtest("missing_cgroup"))
		test_missing_cgroup();
	if (test__start_subtest("missing_capability"))
		test_missing_capability();
	if (test__start_subtest("kernel_check"))
		test_kernel_check(hooks);
	if (test__start_subtest("grant_app") && need_hooks(hooks))
		test_grant_app();
	if (test__start_subtest("limits") && need_hooks(hooks))
		test_limits();
	if (test__start_subtest("rules") && need_hooks(hooks))
		test_rules();
	if (test__start_subtest("pin_dir") && need_hooks(hooks))
		test_pin_dir();
	if (test__start_subtest("hook_busy") && need_hooks(hooks))
		test_hook_busy();
	if (test__start_subtest("grants_off") && need_hooks(hooks))
		test_grants_off();
	if (test__start_subtest("default_types") && need_hooks(hooks))
		test_default_types();
	if (test__start_subtest("delegated_nesting") && need_hooks(hooks))
		test_delegated_nesting();
	if (test__start_subtest("delegated_siblings") && need_hooks(hooks))
		test_delegated_siblings();
	if (test__start_subtest("lock_held_by_nobody") && need_hooks(hooks))
		test_lock_held_by_nobody();
	if (test__start_subtest("bad_byte_counts"))
		test_bad_byte_counts();
	if (test__start_subtest("path_too_long"))
		test_path_too_long();
	if (test__start_subtest("remove_needs_cgroup2"))
		test_remove_needs_cgroup2();
	if (test__start_subtest("unbounded_memory_refused") && need_hooks(hooks))
		test_unbounded_memory_refused();
	if (test__start_subtest("unbounded_memory_flag") && need_hooks(hooks))
		test_unbounded_memory_flag();
	if (test__start_subtest("memory_bound_on_ancestor") && need_hooks(hooks))
		test_memory_bound_on_ancestor();
	if (test__start_subtest("shared_bpffs_refused") && need_hooks(hooks))
		test_shared_bpffs_refused();
	if (test__start_subtest("shared_bpffs_flag") && need_hooks(hooks))
		test_shared_bpffs_flag();
	/* whatever a failed subtest left: the next test must find no policy */
	if (installed())
		tool("remove", "--all");
out:
	remove_cgroups();
	if (!memory_was_on)
		write_file(ROOT_SUBTREE, "-memory");
}
