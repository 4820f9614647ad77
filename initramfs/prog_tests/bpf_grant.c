// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant, the administrator's policy tool (policy/), driven as an
 * administrator drives it: grant BPF to one cgroup, and a process with no
 * capability in that cgroup runs the series' lsm_prog_app application;
 * outside the cgroup, or after the rule is removed, it cannot. Then the
 * rule's limits, its errors and exit codes, and the grant off switch.
 */
#include <test_progs.h>
#include <grp.h>
#include <sched.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include "cap_helpers.h"
#include "int_file.h"
#include "grant_policy.h"
#include "grant_policy.skel.h"
#include "lsm_prog_app.skel.h"

#define TOOL		"/bin/bpf-grant"
#define PIN_DIR		"/sys/fs/bpf/bpf-grant"
#define CG		"/sys/fs/cgroup/bpf_grant_app"
#define SUB_CG		CG "/worker"
#define OTHER_CG	"/sys/fs/cgroup/bpf_grant_other"
#define GRANT_SYSCTL	"/proc/sys/kernel/lsm_grant_disabled"
#define UNPRIV_SYSCTL	"/proc/sys/kernel/unprivileged_bpf_disabled"
#define NOBODY		65534

/* What the tool printed, stdout and stderr, in its last run */
static char out[8192];

/* A process that is uid and gid 65534 with no capability left */
static bool become_nobody(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || syscall(SYS_capget, &hdr, data))
		return false;
	return !(data[0].effective | data[1].effective |
		 data[0].permitted | data[1].permitted);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

enum as { AS_ROOT, AS_NOBODY, AS_USERNS_ROOT };

/* Run bpf-grant with @args (NULL-terminated), as root, as nobody, or as
 * root of a user namespace of its own: its exit status, or -1 if it did
 * not exit; what it printed in out[]
 */
static int run_tool(enum as as, const char *const *args)
{
	const char *argv[16] = { TOOL };
	int fds[2], status, i;
	ssize_t n, len = 0;
	pid_t pid;

	for (i = 0; args[i] && i < ARRAY_SIZE(argv) - 2; i++)
		argv[i + 1] = args[i];
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		/* root of a user namespace: uid 0 there, mapped to root's */
		if ((as == AS_NOBODY && !become_nobody()) ||
		    (as == AS_USERNS_ROOT && (unshare(CLONE_NEWUSER) ||
					      write_file("/proc/self/uid_map", "0 0 1"))))
			_exit(127);
		execv(TOOL, (char **)argv);
		_exit(126);
	}
	close(fds[1]);
	while (pid > 0 && (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = 0;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	printf("bpf-grant");
	for (i = 1; argv[i]; i++)
		printf(" %s", argv[i]);
	printf("%s: exit %d\n", as == AS_NOBODY ? " (as nobody)" :
	       as == AS_USERNS_ROOT ? " (in a user namespace)" : "", WEXITSTATUS(status));
	if (len)
		printf("%s%s", out, out[len - 1] == '\n' ? "" : "\n");
	return WEXITSTATUS(status);
}

#define TOOL_ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define tool(...) run_tool(AS_ROOT, TOOL_ARGS(__VA_ARGS__))
#define tool_as_nobody(...) run_tool(AS_NOBODY, TOOL_ARGS(__VA_ARGS__))

static bool printed(const char *text)
{
	return strstr(out, text);
}

static bool have_hooks(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool ok;

	if (!ASSERT_OK_PTR(btf, "load_vmlinux_btf"))
		return false;
	ok = btf__find_by_name_kind(btf, "bpf_lsm_bpf_prog_load_security",
				    BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return ok;
}

/* What a child does, unprivileged, inside a cgroup */
struct step {
	enum { APP, MAP, PROG, PROG_PERFMON, BTF } what;
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
	ASSERT_TRUE(printed("\t0\t1048576\tok\n"), "no map limit, 1 MiB of BTF, cgroup ok");
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

	/* a user makes the directory first (the BPF file system is 1777) */
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(!become_nobody() || mkdir(PIN_DIR, 0777));
	if (!ASSERT_EQ(waitpid(pid, &status, 0), pid, "wait") ||
	    !ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status),
			 "nobody makes " PIN_DIR))
		goto out;
	ASSERT_EQ(tool("add", CG), GRANT_EXIT_FAIL, "add into nobody's directory");
	ASSERT_TRUE(printed("is not root's own directory"), "says whose it is");
	ASSERT_EQ(tool("list"), GRANT_EXIT_FAIL, "list from nobody's directory");
	rmdir(PIN_DIR);

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
	bool hooks = have_hooks();

	if ((mkdir(CG, 0755) && errno != EEXIST) ||
	    (mkdir(SUB_CG, 0755) && errno != EEXIST) ||
	    (mkdir(OTHER_CG, 0755) && errno != EEXIST)) {
		ASSERT_OK(-errno, "mkdir cgroups");
		return;
	}
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
	/* whatever a failed subtest left: the next test must find no policy */
	if (installed())
		tool("remove", "--all");
	rmdir(SUB_CG);
	rmdir(CG);
	rmdir(OTHER_CG);
}
