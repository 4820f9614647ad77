// SPDX-License-Identifier: GPL-2.0
/*
 * The policies bpf-bench measures, on the three grant hooks: one that
 * defers every call (returns 0) and one that grants every call (returns
 * 1); and, for comparison, one on the hook that stock 6.1 already calls
 * in map creation, bpf_map_alloc_security, which allows every call.
 * bpf-bench attaches one of them at a time.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

/* A program on @hook (its section) that returns @verdict for every call */
#define EVERY_CALL(hook, name, verdict)					\
SEC(hook)								\
int BPF_PROG(name, const union bpf_attr *attr)				\
{									\
	return verdict;							\
}

EVERY_CALL("lsm/bpf_map_create_security", defer_map_create, 0)
EVERY_CALL("lsm/bpf_btf_load_security", defer_btf_load, 0)
EVERY_CALL("lsm/bpf_prog_load_security", defer_prog_load, 0)
EVERY_CALL("lsm/bpf_map_create_security", grant_map_create, 1)
EVERY_CALL("lsm/bpf_btf_load_security", grant_btf_load, 1)
EVERY_CALL("lsm/bpf_prog_load_security", grant_prog_load, 1)

SEC("lsm/bpf_map_alloc_security")
int BPF_PROG(allow_map_alloc, struct bpf_map *map)
{
	return 0;
}
