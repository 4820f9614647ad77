// SPDX-License-Identifier: GPL-2.0
/*
 * Counts the IPv4 packets that reach a device, per IP protocol, into a map
 * pinned by name: ip, xdp-loader and bpftool load it in container_tools,
 * which reads the counts with bpftool and compares them with the pings it
 * sent. The map has sizes, not BTF types: bpftool in a container cannot
 * read a map's BTF (BPF_BTF_GET_FD_BY_ID takes CAP_SYS_ADMIN), and dumps
 * it in hex.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define ETH_P_IP	0x0800

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__uint(key_size, sizeof(__u32));	/* the IP protocol */
	__uint(value_size, sizeof(__u64));	/* packets */
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} proto_count SEC(".maps");

SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	void *end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	/* data + a constant, not (void *)(eth + 1), which clang 14 turns
	 * into packet pointer + a register: a granted load keeps the
	 * verifier's Spectre v1 rules (CAP_PERFMON's to bypass), which
	 * refuse that ("pointer arithmetic with it prohibited for !root")
	 */
	struct iphdr *ip = data + sizeof(*eth);
	__u64 one = 1, *n;
	__u32 key;

	if (data + sizeof(*eth) + sizeof(*ip) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	key = ip->protocol;
	n = bpf_map_lookup_elem(&proto_count, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&proto_count, &key, &one, BPF_NOEXIST);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
