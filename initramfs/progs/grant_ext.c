// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of grant_escape/ext_attach: root's XDP program, whose
 * global function sub() an extension (freplace) program may replace, and
 * such an extension. Whoever attaches the extension runs its code in
 * root's program, wherever root attached it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__noinline int sub(struct xdp_md *ctx)
{
	return ctx->rx_queue_index ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int target(struct xdp_md *ctx)
{
	return sub(ctx);
}

SEC("freplace/sub")
int replacement(struct xdp_md *ctx)
{
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
