/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What bpf-grant and the policy it installs (grant_policy.c) share: the
 * rules map, one rule per cgroup v2 keyed by the cgroup's id (its inode
 * number), and the tool's exit codes, which its test checks.
 */
#ifndef __GRANT_POLICY_H
#define __GRANT_POLICY_H

/* Cgroups a policy holds rules for, and the cgroup levels it looks at:
 * a rule deeper than that would never apply, so bpf-grant refuses it.
 */
#define GRANT_MAX_RULES		64
#define GRANT_MAX_LEVEL		32
#define GRANT_PATH_MAX		256

struct grant_rule {
	__u64 map_types;	/* bit n: grant creating maps of type n */
	__u64 prog_types;	/* bit n: grant loading programs of type n */
	__u64 grant_all_types;	/* of those, the root-equivalent types the
				 * administrator named: LSM_GRANT_ALL */
	__u64 max_map_bytes;	/* largest map granted, 0: no limit */
	__u64 max_btf_bytes;	/* largest BTF granted, 0: no BTF */
	char path[GRANT_PATH_MAX];	/* the cgroup's path, for list */
};

/* bpf-grant's exit status */
enum bpf_grant_exit {
	GRANT_EXIT_OK,
	GRANT_EXIT_FAIL,	/* anything else: the message says what */
	GRANT_EXIT_USAGE,
	GRANT_EXIT_NO_CGROUP,
	GRANT_EXIT_NO_HOOKS,	/* no grant hooks or no BPF LSM */
	GRANT_EXIT_NO_CAP,
	GRANT_EXIT_HOOK_BUSY,	/* another BPF LSM program holds a hook */
	GRANT_EXIT_NO_RULE,
	GRANT_EXIT_DELEGATED,	/* a rule nested under or above another
				 * across a cgroup a user can write */
	GRANT_EXIT_NO_MEMORY_BOUND,	/* no memory.max on the cgroup or
					 * above it, and no --unbounded-memory */
	GRANT_EXIT_SHARED_BPFFS,	/* others can make names in a BPF
					 * file system, or where root's tools
					 * pin in it, and no --shared-bpffs */
};

#endif /* __GRANT_POLICY_H */
