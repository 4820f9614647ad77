// SPDX-License-Identifier: GPL-2.0
/*
 * A tc classifier, attached with "bpf da": drops the ICMP of IPv4 packets,
 * passes the rest. container_tools attaches it to a container's eth0 with
 * tc and sees pings fail until it is deleted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "ipv4.h"

#define TC_ACT_OK	0
#define TC_ACT_SHOT	2

SEC("tc")
int tc_drop_icmp(struct __sk_buff *skb)
{
	struct iphdr *ip;

	if (!ipv4_header((void *)(long)skb->data, (void *)(long)skb->data_end, &ip))
		return TC_ACT_OK;
	return ip->protocol == IPPROTO_ICMP ? TC_ACT_SHOT : TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
