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
 * usage: bpf-bench none|defer|grant|alloc [REPS [ITERS]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "int_file.h"
#include "bench_policy.skel.h"

#define UNPRIV_SYSCTL "/proc/sys/kernel/unprivileged_bpf_disabled"
#define NOBODY 65534
#define MAX_REPS 64

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

static int btf_load(void)
{
	return bpf_btf_load(btf_raw, btf_raw_size, NULL);
}

/* Each call returns 0, or -errno */
static int done(int fd)
{
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int call_map_array(void)
{
	return done(bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 8, 1, NULL));
}

static int call_map_hash_btf(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = btf_fd,
		    .btf_key_type_id = 1, .btf_value_type_id = 1);

	return done(bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 4, 4, 16, &opts));
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

	return done(bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL",
				  ret0, ARRAY_SIZE(ret0), NULL));
}

static const struct {
	const char *name;
	int (*fn)(void);
} calls[] = {
	{ "map_create_array", call_map_array },
	{ "map_create_hash_btf", call_map_hash_btf },
	{ "btf_load", call_btf_load },
	{ "prog_load", call_prog_load },
};

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

/* Time every call as @caller under @policy; one line each */
static void measure(const char *policy, const char *caller)
{
	double rates[MAX_REPS], t;
	int c, r, i, result;

	for (c = 0; c < ARRAY_SIZE(calls); c++) {
		result = calls[c].fn();
		for (i = 0; i < iters; i++)	/* warm-up */
			calls[c].fn();
		for (r = 0; r < reps; r++) {
			t = now();
			for (i = 0; i < iters; i++)
				calls[c].fn();
			rates[r] = iters / (now() - t);
		}
		qsort(rates, reps, sizeof(rates[0]), cmp_double);
		printf("bench\t%s\t%s\t%s\t%s\t%.0f\t%.0f\t%.0f\t%d\t%d\n",
		       calls[c].name, policy, caller,
		       result ? strerrorname_np(-result) : "ok",
		       rates[reps / 2], rates[0], rates[reps - 1], reps, iters);
	}
	fflush(stdout);
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

static bool have_hooks(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool ok;

	if (!btf)
		return false;
	ok = btf__find_by_name_kind(btf, "bpf_lsm_bpf_prog_load_security",
				    BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return ok;
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
	if ((strcmp(policy, "none") && strcmp(policy, "defer") &&
	     strcmp(policy, "grant") && strcmp(policy, "alloc")) ||
	    reps < 1 || reps > MAX_REPS || iters < 1) {
		fprintf(stderr, "usage: bpf-bench none|defer|grant|alloc [REPS (1-%d) [ITERS]]\n",
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
		return measure_both("none") ? 1 : 0;
	hooks = have_hooks();
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
