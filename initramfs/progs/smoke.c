// SPDX-License-Identifier: GPL-2.0
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

int my_tid;
int map_create_calls;

/* security_bpf() runs for every bpf() command: count our BPF_MAP_CREATEs. */
SEC("lsm/bpf")
int BPF_PROG(count_map_create, int cmd, union bpf_attr *attr, unsigned int size)
{
	if ((u32)bpf_get_current_pid_tgid() == my_tid && cmd == BPF_MAP_CREATE)
		map_create_calls++;
	return 0;
}
