// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF LSM policy that bpf-grant installs. It grants map creation, BTF
 * load and program load to the tasks of each cgroup in the rules map and
 * of its descendants, within the rule's limits, and returns 0 for every
 * other call, so that the kernel's own checks decide. It never refuses:
 * it only hands out what an administrator listed.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "grant_policy.h"

char _license[] SEC("license") = "GPL";

/* include/linux/security.h: a grant with every privilege */
#define LSM_GRANT_ALL 0x10000

/* Possible CPUs, for the size of per-CPU maps; bpf-grant sets it */
const volatile __u32 nr_cpus = 1;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, GRANT_MAX_RULES);
	__type(key, __u64);
	__type(value, struct grant_rule);
} rules SEC(".maps");

/*
 * The rule of the deepest cgroup on the current task's path from the root
 * that has one: rules are not combined, the nearest one applies. Level 0,
 * the root cgroup, is skipped: bpf-grant refuses it, as a rule there would
 * grant to every task. A task cannot leave the
 * cgroups it was put in without write access to a common ancestor, from a
 * user namespace or not, so this is something it cannot forge.
 */
static struct grant_rule *current_rule(void)
{
	struct grant_rule *rule, *found = NULL;
	__u64 id;
	int level;

	for (level = 1; level < GRANT_MAX_LEVEL; level++) {
		id = bpf_get_current_ancestor_cgroup_id(level);
		if (!id)
			break;
		rule = bpf_map_lookup_elem(&rules, &id);
		if (rule)
			found = rule;
	}
	return found;
}

static bool has_type(__u64 types, __u32 type)
{
	return type < 64 && (types >> type) & 1;
}

/*
 * Whether a map fits in @max bytes, as its attributes ask: entries times
 * key and value, values once per CPU for per-CPU maps, the ring's size for
 * ring buffers. What the kernel adds on top (a hash map's element headers
 * and buckets, a bloom filter's hash functions) is not counted: the limit
 * bounds what is asked, the creator's memory cgroup what is allocated.
 * Divided, not multiplied, so that no product wraps around. Local storage
 * maps have no entries at creation; they grow with their owner's objects.
 */
static bool map_fits(const union bpf_attr *attr, __u64 max)
{
	__u64 key = attr->key_size, value = attr->value_size, entry;
	__u32 entries = attr->max_entries;

	switch (attr->map_type) {
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		return entries <= max;
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		value *= nr_cpus;
		break;
	default:
		break;
	}
	entry = key + value;
	return !entry || entries <= max / entry;
}

SEC("lsm/bpf_map_create_security")
int BPF_PROG(grant_map_create, const union bpf_attr *attr)
{
	struct grant_rule *rule = current_rule();

	if (!rule || !has_type(rule->map_types, attr->map_type))
		return 0;
	if (rule->max_map_bytes && !map_fits(attr, rule->max_map_bytes))
		return 0;
	return 1;
}

SEC("lsm/bpf_btf_load_security")
int BPF_PROG(grant_btf_load, const union bpf_attr *attr)
{
	struct grant_rule *rule = current_rule();

	/* BTF is kernel memory no memory cgroup is charged for: bounded */
	if (!rule || attr->btf_size > rule->max_btf_bytes)
		return 0;
	return 1;
}

SEC("lsm/bpf_prog_load_security")
int BPF_PROG(grant_prog_load, const union bpf_attr *attr)
{
	struct grant_rule *rule = current_rule();
	int all = LSM_GRANT_ALL;

	if (!rule)
		return 0;
	/* The verifier checks at load time that a grant hook's program
	 * returns 0, 1, an errno or LSM_GRANT_ALL: a constant it can see,
	 * not a value clang derives from the comparisons below.
	 */
	barrier_var(all);
	if (has_type(rule->grant_all_types, attr->prog_type))
		return all;
	if (has_type(rule->prog_types, attr->prog_type))
		return 1;
	return 0;
}
