/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the container case's programs read of a packet: its IPv4 header.
 */
#ifndef __IPV4_H
#define __IPV4_H

#define ETH_P_IP	0x0800

/* Whether the frame from @data to @end is IPv4 and holds the whole
 * header, which *@ip then points to. data + a constant, not
 * (void *)(eth + 1), which clang 14 turns into packet pointer + a
 * register: a granted load keeps the verifier's Spectre v1 rules
 * (CAP_PERFMON's to bypass), which refuse that ("pointer arithmetic with
 * it prohibited for !root"). No NULL to test either: a pointer
 * comparison is CAP_PERFMON's too.
 */
static __always_inline bool ipv4_header(void *data, void *end, struct iphdr **ip)
{
	struct ethhdr *eth = data;

	*ip = data + sizeof(*eth);
	return data + sizeof(*eth) + sizeof(**ip) <= end && eth->h_proto == bpf_htons(ETH_P_IP);
}

#endif /* __IPV4_H */
