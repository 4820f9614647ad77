// SPDX-License-Identifier: GPL-2.0
/*
 * A tc classifier, attached with "bpf da", that tail-calls whatever its
 * program array holds and passes the packet otherwise. The array is
 * pinned by name, so Debian's tc reuses one pinned at
 * /sys/fs/bpf/tc/globals/jmp_table when it has this shape, whoever pinned
 * it: grant_escape/tc_squat pins one there first.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define TC_ACT_OK	0

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} jmp_table SEC(".maps");

SEC("tc")
int tc_tail(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jmp_table, 0);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
