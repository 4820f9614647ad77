// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "cap_helpers.h"

/* Raw capget/capset: no libcap in the static initramfs binaries. */
static int cap_update_effective(__u64 caps, bool enable, __u64 *old_caps)
{
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	__u64 eff;

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	eff = ((__u64)data[1].effective << 32) | data[0].effective;
	if (old_caps)
		*old_caps = eff;
	eff = enable ? eff | caps : eff & ~caps;
	data[0].effective = (__u32)eff;
	data[1].effective = (__u32)(eff >> 32);
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

int cap_enable_effective(__u64 caps, __u64 *old_caps)
{
	return cap_update_effective(caps, true, old_caps);
}

int cap_disable_effective(__u64 caps, __u64 *old_caps)
{
	return cap_update_effective(caps, false, old_caps);
}
