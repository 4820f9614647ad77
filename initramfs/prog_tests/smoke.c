// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke tests: prove the stack under the series works at all (map creation
 * as root, the stock refusal of an unprivileged process, a BPF LSM program
 * seeing a hook call) before anything depends on it.
 */
#include <test_progs.h>
#include "cap_helpers.h"
#include "int_file.h"
#include "smoke.skel.h"

#define PRIV_CAPS ((1ULL << CAP_SYS_ADMIN) | (1ULL << CAP_BPF) | \
		   (1ULL << CAP_PERFMON) | (1ULL << CAP_NET_ADMIN))

static void root_creates_array(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "smoke", 4, 8, 1, NULL);

	if (ASSERT_GE(fd, 0, "array_map_create"))
		close(fd);
}

static void unpriv_refused_hash(void)
{
	__u64 old_caps;
	int fd;

	/* CONFIG_BPF_UNPRIV_DEFAULT_OFF=y: the default is 2 */
	ASSERT_EQ(read_int_file("/proc/sys/kernel/unprivileged_bpf_disabled"), 2,
		  "default_sysctl");
	if (!ASSERT_OK(cap_disable_effective(PRIV_CAPS, &old_caps), "drop_caps"))
		return;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "smoke", 4, 8, 1, NULL);
	ASSERT_EQ(fd, -EPERM, "unpriv_hash_map_create");
	if (fd >= 0)
		close(fd);
	ASSERT_OK(cap_enable_effective(old_caps, NULL), "restore_caps");
}

static void lsm_sees_call(void)
{
	struct smoke *skel;
	int fd;

	skel = smoke__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return;
	skel->bss->my_tid = syscall(SYS_gettid);
	if (!ASSERT_OK(smoke__attach(skel), "skel_attach"))
		goto out;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "smoke", 4, 8, 1, NULL);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(skel->bss->map_create_calls, 1, "lsm_bpf_hook_calls");
out:
	smoke__destroy(skel);
}

void test_smoke(void)
{
	/* A block a subtest, test_progs' idiom: alike in shape only */
	if (test__start_subtest("root_creates_array"))
		root_creates_array();
	if (test__start_subtest("unpriv_refused_hash"))
		unpriv_refused_hash();
	if (test__start_subtest("lsm_sees_call"))
		lsm_sees_call();
}
