// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of the grant_escape test: XDP that sends every packet to
 * entry 0 of a device map, where a granted caller must not be able to
 * name a device of a network namespace it does not administer.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} devmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} devmap_hash SEC(".maps");

SEC("xdp")
int redirect_devmap(struct xdp_md *ctx)
{
	return bpf_redirect_map(&devmap, 0, XDP_DROP);
}

SEC("xdp")
int redirect_devmap_hash(struct xdp_md *ctx)
{
	return bpf_redirect_map(&devmap_hash, 0, XDP_DROP);
}

char _license[] SEC("license") = "GPL";
