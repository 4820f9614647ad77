// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-bench: the rate of the calls the grant hooks sit on, in the guest.
 * For each caller (root; a process with no capability), under the policy
 * given (none; one that defers; one that grants, where the kernel has
 * the hooks; or "alloc", a program on stock 6.1's bpf_map_alloc_security
 * hook, which shows what any BPF LSM program costs), each call is made in a loop: a warm-up, then several timed
 * repetitions, each a rate in calls per second of CLOCK_MONOTONIC (under
 * QEMU's -icount, virtual time: instructions, not the host's load).
 *
 * The calls, each with its close(): BPF_MAP_CREATE of a small array map,
 * of a hash map with BTF, BPF_BTF_LOAD of a small blob, and BPF_PROG_LOAD
 * of a two-instruction socket filter. The unprivileged caller runs with
 * kernel.unprivileged_bpf_disabled at 0, put back after, so that the
 * stock kernel lets it make the calls that need no capability.
 *
 * Policy "token" (a kernel with the BPF token): no LSM program; the caller
 * is a token's holder, "token": root of a user namespace of its own (uid
 * 65534 outside, no capability in the initial one) with a token of a BPF
 * FS that root mounts for it delegating the four calls (bpf-token-mount,
 * as a container runtime does), passed with each call.
 * kernel.unprivileged_bpf_disabled stays as the boot has it (2): a call
 * that succeeds is one the token carried. The grant's path and the
 * token's are then measured side by side in one make bench run.
 *
 * With no policy, a third caller, "memcg": root in a memory cgroup of its
 * own (BENCH_CG), so that what a map's creation charges is charged, times
 * BPF_MAP_CREATE of a small map of every type of the kernel's enum
 * bpf_map_type (from its BTF: a type with no shape below fails the run),
 * calls "map_create_type_NAME": what the series' memory charging costs a
 * caller with CAP_BPF, type by type.
 *
 * Output, one line per (call, policy, caller), tab-separated:
 *   bench CALL POLICY CALLER RESULT MEDIAN MIN MAX REPS ITERS
 * RESULT is ok or the errno name of the calls' failure (they are timed
 * all the same); MEDIAN, MIN and MAX are calls per second over the REPS
 * repetitions of ITERS calls each. Other lines start with '#'.
 *
 * One policy a boot (make bench boots once per policy): calls measured
 * late in a boot run slower or faster than early ones, with the deferred
 * work the earlier calls left, and that would pass for the policy's cost.
 *
 * usage: bpf-bench none|defer|grant|alloc|token [REPS [ITERS]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "int_file.h"
#include "bpf_token.h"
#include "kernel_btf.h"
#include "bench_policy.skel.h"

#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"
#define ROOT_SUBTREE "/sys/fs/cgroup/cgroup.subtree_control"
#define BENCH_CG "/sys/fs/cgroup/bpf-bench"
#define BPFFS "/sys/fs/bpf"
#define TOKEN_MOUNT "/bin/bpf-token-mount"
#define NOBODY 65534
#define MAX_REPS 64

#ifndef offsetofend
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

/* Enough calls that a repetition averages over the deferred frees
 * (RCU, workqueues) that the calls before it left behind
 */
static int reps = 9, iters = 2000;
/* A BTF of one type, "int" (id 1), loaded by root */
static int btf_fd = -1;

/* The BTF that btf_load() loads: "int", made by main() */
static const void *btf_raw;
static __u32 btf_raw_size;

/* The token the calls pass (policy token's caller), -1: none */
static int token = -1;

/* bpf(@cmd, @a), with the token if there is one, at the size libbpf
 * passes (1.1's, the tree's, without; 1.4's with): the new fd, or -errno
 */
static int bench_bpf(int cmd, union attr_v69 *a)
{
	unsigned int size;
	int fd;

	if (token >= 0)
		return bpf_with_token(cmd, a, token);
	switch (cmd) {
	case BPF_MAP_CREATE:
		size = offsetofend(union bpf_attr, map_extra);
		break;
	case BPF_PROG_LOAD:
		size = offsetofend(union bpf_attr, fd_array);
		break;
	default:
		size = offsetofend(union bpf_attr, btf_log_level);
		break;
	}
	fd = syscall(__NR_bpf, cmd, a, size);
	return fd < 0 ? -errno : fd;
}

static int btf_load(void)
{
	union attr_v69 a = {};

	a.attr.btf = (unsigned long)btf_raw;
	a.attr.btf_size = btf_raw_size;
	return bench_bpf(BPF_BTF_LOAD, &a);
}

/* Each call returns 0, or -errno (@fd: an fd to close, or -errno) */
static int done(int fd)
{
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int call_map_array(void)
{
	union attr_v69 a = {};

	a.attr.map_type = BPF_MAP_TYPE_ARRAY;
	a.attr.key_size = 4;
	a.attr.value_size = 8;
	a.attr.max_entries = 1;
	return done(bench_bpf(BPF_MAP_CREATE, &a));
}

static int call_map_hash_btf(void)
{
	union attr_v69 a = {};

	a.attr.map_type = BPF_MAP_TYPE_HASH;
	a.attr.key_size = 4;
	a.attr.value_size = 4;
	a.attr.max_entries = 16;
	a.attr.btf_fd = btf_fd;
	a.attr.btf_key_type_id = 1;
	a.attr.btf_value_type_id = 1;
	return done(bench_bpf(BPF_MAP_CREATE, &a));
}

static int call_btf_load(void)
{
	return done(btf_load());
}

static int call_prog_load(void)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union attr_v69 a = {};

	a.attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.attr.insns = (unsigned long)ret0;
	a.attr.insn_cnt = ARRAY_SIZE(ret0);
	a.attr.license = (unsigned long)"GPL";
	return done(bench_bpf(BPF_PROG_LOAD, &a));
}

struct call {
	const char *name;
	int (*fn)(void);
};

static const struct call calls[] = {
	{ "map_create_array", call_map_array },
	{ "map_create_hash_btf", call_map_hash_btf },
	{ "btf_load", call_btf_load },
	{ "prog_load", call_prog_load },
};

/* A small map of each type: key and value size, entries, flags, and
 * whether it needs BTF (local storage) or an inner map (maps of maps)
 */
struct map_shape {
	const char *name;	/* the enumerator's, lower case, less BPF_MAP_TYPE_ */
	__u32 key, value, entries, flags;
	bool btf, inner;
};

/* A row a map type: rows alike in shape only (the duplicates scan pairs them) */
static const struct map_shape shapes[] = {
	{ "hash", 4, 8, 64 },
	{ "array", 4, 8, 64 },
	{ "prog_array", 4, 4, 64 },
	{ "perf_event_array", 4, 4, 64 },
	{ "percpu_hash", 4, 8, 64 },
	{ "percpu_array", 4, 8, 64 },
	{ "stack_trace", 4, 8 * 16, 64 },
	{ "cgroup_array", 4, 4, 64 },
	{ "lru_hash", 4, 8, 64 },
	{ "lru_percpu_hash", 4, 8, 64 },
	{ "lpm_trie", 8, 8, 64, BPF_F_NO_PREALLOC },
	{ "array_of_maps", 4, 4, 64, .inner = true },
	{ "hash_of_maps", 4, 4, 64, .inner = true },
	{ "devmap", 4, 4, 64 },
	{ "sockmap", 4, 4, 64 },
	{ "cpumap", 4, 4, 1 },
	{ "xskmap", 4, 4, 64 },
	{ "sockhash", 4, 4, 64 },
	{ "cgroup_storage", 8, 8, 0 },
	{ "reuseport_sockarray", 4, 4, 64 },
	{ "percpu_cgroup_storage", 8, 8, 0 },
	{ "queue", 0, 8, 64 },
	{ "stack", 0, 8, 64 },
	{ "sk_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "devmap_hash", 4, 4, 64 },
	{ "ringbuf", 0, 0, 4096 },
	{ "inode_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "task_storage", 4, 4, 0, BPF_F_NO_PREALLOC, .btf = true },
	{ "bloom_filter", 0, 4, 64 },
	{ "user_ringbuf", 0, 0, 4096 },
};

/* The type call_map_type() creates: its shape and the kernel's value */
static const struct map_shape *type_shape;
static enum bpf_map_type type_value;
/* The inner map of the maps of maps, made by measure_types() */
static int inner_fd = -1;

static int call_map_type(void)
{
	const struct map_shape *s = type_shape;
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = s->flags);

	if (s->btf) {
		opts.btf_fd = btf_fd;
		opts.btf_key_type_id = opts.btf_value_type_id = 1;
	}
	if (s->inner)
		opts.inner_map_fd = inner_fd;
	if (type_value == BPF_MAP_TYPE_BLOOM_FILTER)
		opts.map_extra = 5;	/* hash functions */
	return done(bpf_map_create(type_value, NULL, s->key, s->value,
				   s->entries, &opts));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Time call @c as @caller under @policy; its line */
static void time_call(const struct call *c, const char *policy, const char *caller)
{
	double rates[MAX_REPS], t;
	int r, i, result;

	result = c->fn();
	for (i = 0; i < iters; i++)	/* warm-up */
		c->fn();
	for (r = 0; r < reps; r++) {
		t = now();
		for (i = 0; i < iters; i++)
			c->fn();
		rates[r] = iters / (now() - t);
	}
	qsort(rates, reps, sizeof(rates[0]), cmp_double);
	printf("bench\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%d\t%d\n",
	       c->name, policy, caller, result ? strerrorname_np(-result) : "ok",
	       rates[reps / 2], rates[0], rates[reps - 1], reps, iters);
	fflush(stdout);
}

/* Time every call as @caller under @policy; one line each */
static void measure(const char *policy, const char *caller)
{
	int c;

	for (c = 0; c < ARRAY_SIZE(calls); c++)
		time_call(&calls[c], policy, caller);
}

/* The shape of map type @name, or NULL */
static const struct map_shape *find_shape(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		if (!strcmp(shapes[i].name, name))
			return &shapes[i];
	return NULL;
}

/* Time the creation of every map type of the kernel's enum, one line
 * each: 0, or -1 if a type has no shape (after timing the others)
 */
static int measure_types(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char lower[64], name[96];
	struct call c = { name, call_map_type };
	int i, value, err = 0;

	if (!kernel_map_type_at(btf, 0, lower, sizeof(lower), &value)) {
		fprintf(stderr, "# bpf-bench: no enum bpf_map_type in the kernel's BTF\n");
		err = -1;
	}
	inner_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	for (i = 0; kernel_map_type_at(btf, i, lower, sizeof(lower), &value); i++) {
		/* struct_ops maps need a kernel struct's BTF: no rule grants them */
		if (!lower[0] || !strcmp(lower, "unspec") || !strcmp(lower, "struct_ops"))
			continue;
		type_shape = find_shape(lower);
		if (!type_shape) {
			fprintf(stderr, "# bpf-bench: map type %s has no shape in bpf-bench.c\n",
				lower);
			err = -1;
			continue;
		}
		type_value = value;
		snprintf(name, sizeof(name), "map_create_type_%s", lower);
		time_call(&c, "none", "memcg");
	}
	if (inner_fd >= 0)
		close(inner_fd);
	btf__free(btf);
	return err;
}

/* measure_types() as root in BENCH_CG, a memory cgroup of its own: 0 or -1 */
static int measure_types_in_memcg(void)
{
	int status, err = 0;
	bool enabled = false;
	pid_t pid;
	char buf[256] = "";
	FILE *f = fopen(ROOT_SUBTREE, "r");

	if (f) {
		enabled = fgets(buf, sizeof(buf), f) && strstr(buf, "memory");
		fclose(f);
	}
	f = enabled ? NULL : fopen(ROOT_SUBTREE, "w");
	if (f && (fputs("+memory", f) < 0 || fclose(f)))
		f = NULL;
	if ((!enabled && !f) || (mkdir(BENCH_CG, 0755) && errno != EEXIST)) {
		fprintf(stderr, "# bpf-bench: making %s, a memory cgroup: %s\n",
			BENCH_CG, strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		f = fopen(BENCH_CG "/cgroup.procs", "w");
		if (!f || fputs("0", f) < 0 || fclose(f)) {
			perror("# bpf-bench: joining " BENCH_CG);
			_exit(1);
		}
		_exit(measure_types() ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		err = -1;
	if (rmdir(BENCH_CG))
		err = -1;
	f = enabled ? NULL : fopen(ROOT_SUBTREE, "w");	/* put it back */
	if (f && (fputs("-memory", f) < 0 || fclose(f)))
		err = -1;
	return err;
}

/* The unprivileged caller: a child as uid 65534, no capability left */
static int measure_unpriv(const char *policy)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY)) {
			perror("# bpf-bench: becoming uid 65534");
			_exit(1);
		}
		measure(policy, "unpriv");
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

static int measure_both(const char *policy)
{
	int old = read_int_file(UNPRIV_SYSCTL), err;

	measure(policy, "root");
	if (old < 0 || write_int_file(UNPRIV_SYSCTL, 0)) {
		fprintf(stderr, "# bpf-bench: cannot set %s to 0\n", UNPRIV_SYSCTL);
		return -1;
	}
	err = measure_unpriv(policy);
	if (write_int_file(UNPRIV_SYSCTL, old))
		err = -1;
	return err;
}

/* The token's holder, a child: root of a user namespace of its own (uid
 * 65534 outside) and of a mount namespace, where root mounts a BPF FS that
 * delegates the calls; its token passed with each call. 0 or -1.
 */
static int measure_token(void)
{
	const char *args[] = { TOKEN_MOUNT, NULL, "--cmds", "map_create:btf_load:prog_load",
			       "--maps", "array:hash", "--progs", "socket_filter",
			       "--attachs", "any", NULL };
	char pid_text[16], c = 1;
	int sk[2], status, err = -1;
	pid_t pid, mounter;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sk))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(sk[0]);
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY) || unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
		    map_user_ns(NOBODY) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    write(sk[1], "", 1) != 1 || read(sk[1], &c, 1) != 1 || c) {
			perror("# bpf-bench: becoming a token's holder");
			_exit(1);
		}
		/* the control: without the token, the holder is refused */
		if (call_map_array() != -EPERM) {
			fprintf(stderr, "# bpf-bench: a token's holder creates a map "
				"without its token: nothing to measure the token by\n");
			_exit(1);
		}
		token = bpf_token_create_at(BPFFS);
		if (token < 0) {
			fprintf(stderr, "# bpf-bench: BPF_TOKEN_CREATE: %s\n", strerror(-token));
			_exit(1);
		}
		measure("token", "token");
		_exit(0);
	}
	close(sk[1]);
	/* bpf-token-mount once the child is in its namespaces; then its go */
	if (pid > 0 && read(sk[0], &c, 1) == 1) {
		snprintf(pid_text, sizeof(pid_text), "%d", pid);
		args[1] = pid_text;
		mounter = fork();
		if (mounter == 0) {
			execv(TOKEN_MOUNT, (char **)args);
			_exit(127);
		}
		c = !(mounter > 0 && waitpid(mounter, &status, 0) == mounter &&
		      WIFEXITED(status) && !WEXITSTATUS(status));
		if (c)
			fprintf(stderr, "# bpf-bench: %s failed\n", TOKEN_MOUNT);
		send(sk[0], &c, 1, MSG_NOSIGNAL);
	}
	close(sk[0]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    !WEXITSTATUS(status))
		err = 0;
	return err;
}

/* Attach the programs of @policy, measure, detach */
static int measure_policy(struct bench_policy *skel, const char *policy)
{
	struct bpf_program *progs[3] = {};
	struct bpf_link *links[3] = {};
	int i, err = 0;

	if (!strcmp(policy, "alloc")) {
		progs[0] = skel->progs.allow_map_alloc;
	} else if (!strcmp(policy, "defer")) {
		progs[0] = skel->progs.defer_map_create;
		progs[1] = skel->progs.defer_btf_load;
		progs[2] = skel->progs.defer_prog_load;
	} else {
		progs[0] = skel->progs.grant_map_create;
		progs[1] = skel->progs.grant_btf_load;
		progs[2] = skel->progs.grant_prog_load;
	}
	for (i = 0; i < 3 && progs[i] && !err; i++) {
		links[i] = bpf_program__attach(progs[i]);
		if (!links[i]) {
			err = -errno;
			fprintf(stderr, "# bpf-bench: attaching %s: %s\n",
				bpf_program__name(progs[i]), strerror(-err));
		}
	}
	if (!err)
		err = measure_both(policy);
	for (i = 0; i < 3; i++)
		bpf_link__destroy(links[i]);
	return err;
}

int main(int argc, char **argv)
{
	const char *policy = argc > 1 ? argv[1] : "";
	struct bench_policy *skel;
	struct btf *btf;
	bool hooks;
	int err;

	if (argc > 2)
		reps = atoi(argv[2]);
	if (argc > 3)
		iters = atoi(argv[3]);
	if ((strcmp(policy, "none") && strcmp(policy, "defer") && strcmp(policy, "grant") &&
	     strcmp(policy, "alloc") && strcmp(policy, "token")) ||
	    reps < 1 || reps > MAX_REPS || iters < 1) {
		fprintf(stderr, "usage: bpf-bench none|defer|grant|alloc|token [REPS (1-%d) [ITERS]]\n",
			MAX_REPS);
		return 2;
	}
	btf = btf__new_empty();
	if (!btf || btf__add_int(btf, "int", 4, BTF_INT_SIGNED) < 0 ||
	    !(btf_raw = btf__raw_data(btf, &btf_raw_size))) {
		fprintf(stderr, "# bpf-bench: making BTF: %s\n", strerror(errno));
		return 1;
	}
	btf_fd = btf_load();
	if (btf_fd < 0) {
		perror("# bpf-bench: loading BTF as root");
		return 1;
	}
	printf("# bpf-bench: policy %s, %d repetitions of %d calls, after %d "
	       "calls of warm-up\n", policy, reps, iters, iters);
	if (!strcmp(policy, "none"))
		return measure_both("none") || measure_types_in_memcg() ? 1 : 0;
	if (!strcmp(policy, "token")) {
		if (!kernel_has_token()) {
			fprintf(stderr, "# bpf-bench: no BPF token in this kernel\n");
			return 1;
		}
		return measure_token() ? 1 : 0;
	}
	hooks = have_grant_hooks();
	if (!hooks && strcmp(policy, "alloc")) {
		fprintf(stderr, "# bpf-bench: no grant hooks in this kernel: "
			"no %s policy to measure\n", policy);
		return 1;
	}
	skel = bench_policy__open();
	if (!skel) {
		perror("# bpf-bench: opening the policies");
		return 1;
	}
	/* the grant hooks' programs load only where the hooks are */
	bpf_program__set_autoload(skel->progs.defer_map_create, hooks);
	bpf_program__set_autoload(skel->progs.defer_btf_load, hooks);
	bpf_program__set_autoload(skel->progs.defer_prog_load, hooks);
	bpf_program__set_autoload(skel->progs.grant_map_create, hooks);
	bpf_program__set_autoload(skel->progs.grant_btf_load, hooks);
	bpf_program__set_autoload(skel->progs.grant_prog_load, hooks);
	err = bench_policy__load(skel);
	if (err) {
		fprintf(stderr, "# bpf-bench: loading the policies: %s\n", strerror(-err));
		bench_policy__destroy(skel);
		return 1;
	}
	err = measure_policy(skel, policy);
	bench_policy__destroy(skel);
	return err ? 1 : 0;
}
