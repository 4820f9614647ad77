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
#include "ipv4.h"

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
	__u64 one = 1, *n;
	struct iphdr *ip;
	__u32 key;

	if (!ipv4_header(data, end, &ip))
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
