// SPDX-License-Identifier: GPL-2.0
/*
 * The program of grant_escape/sk_storage_fill: cgroup_skb that looks up
 * the TCP listener at 127.0.0.1:port, in the network namespace netns_id
 * names, and gives it storage of each map below, largest first, until its
 * option memory (net.core.optmem_max, 20 KiB) is full: then its owner's
 * setsockopt(SO_ATTACH_FILTER) fails with ENOMEM.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define STORAGE(bytes)							\
	struct fill_##bytes { char b[bytes]; };				\
	struct {							\
		__uint(type, BPF_MAP_TYPE_SK_STORAGE);			\
		__uint(map_flags, BPF_F_NO_PREALLOC);			\
		__type(key, int);					\
		__type(value, struct fill_##bytes);			\
	} fill_##bytes SEC(".maps")

STORAGE(16384);
STORAGE(2048);
STORAGE(1024);
STORAGE(512);
STORAGE(256);
STORAGE(128);
STORAGE(64);

const volatile __u16 port;	/* the listener's, in network order */
const volatile __s64 netns_id = BPF_F_CURRENT_NETNS;

int found, stored;	/* listeners found, storage got on them */

#define GIVE(sk, bytes)							\
	(stored += !!bpf_sk_storage_get(&fill_##bytes, sk, NULL,	\
					BPF_SK_STORAGE_GET_F_CREATE))

SEC("cgroup_skb/ingress")
int fill_listener(struct __sk_buff *skb)
{
	struct bpf_sock_tuple tuple = {};
	struct bpf_sock *sk;

	tuple.ipv4.daddr = bpf_htonl(0x7f000001);
	tuple.ipv4.dport = port;
	sk = bpf_sk_lookup_tcp(skb, &tuple, sizeof(tuple.ipv4), netns_id, 0);
	if (!sk)
		return 1;
	found++;
	GIVE(sk, 16384);
	GIVE(sk, 2048);
	GIVE(sk, 1024);
	GIVE(sk, 512);
	GIVE(sk, 256);
	GIVE(sk, 128);
	GIVE(sk, 64);
	bpf_sk_release(sk);
	return 1;
}

char _license[] SEC("license") = "GPL";
