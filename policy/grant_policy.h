/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules map of grant_policy.c, shared by the BPF policy and bpf-grant:
 * one rule per cgroup v2, keyed by the cgroup's id (its inode number).
 */
#ifndef __GRANT_POLICY_H
#define __GRANT_POLICY_H

/* Cgroups a policy holds rules for, and the depth it looks up */
#define GRANT_MAX_RULES		64
#define GRANT_MAX_LEVEL		32
#define GRANT_PATH_MAX		256

struct grant_rule {
	__u64 map_types;	/* bit n: grant creating maps of type n */
	__u64 prog_types;	/* bit n: grant loading programs of type n */
	__u64 prog_types_all;	/* of those, the root-equivalent types that
				 * the administrator named: LSM_GRANT_ALL */
	__u64 max_map_bytes;	/* largest map granted, 0: no limit */
	char path[GRANT_PATH_MAX];	/* as given to bpf-grant, for list */
};

#endif /* __GRANT_POLICY_H */
