/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel has, from its BTF (/sys/kernel/btf/vmlinux):
 * the guest tests and bpf-bench run on the series' kernel and on stock
 * 6.1 (make ci-base), and ask which one this is, and which map types
 * it knows.
 */
#ifndef KERNEL_BTF_H
#define KERNEL_BTF_H

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <bpf/btf.h>

/* Whether the kernel's BTF has a type @name of kind @kind */
static inline bool kernel_has_type(const char *name, int kind)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has = btf && btf__find_by_name_kind(btf, name, kind) > 0;

	btf__free(btf);
	return has;
}

/* The series' grant hooks: not the stock kernel */
static inline bool have_grant_hooks(void)
{
	return kernel_has_type("bpf_lsm_bpf_prog_load_security", BTF_KIND_FUNC);
}

/* The BPF token, and with it a BPF FS for a user namespace */
static inline bool kernel_has_token(void)
{
	return kernel_has_type("bpf_token", BTF_KIND_STRUCT);
}

/*
 * Enumerator @i of @btf's enum bpf_map_type: false past the last. A map
 * type's name, as bpf-grant and libbpf spell it (the enumerator's in
 * lower case, less BPF_MAP_TYPE_), goes to @name; "" for an enumerator
 * that is no map type (__MAX_BPF_MAP_TYPE). Its value to *@value.
 */
static inline bool kernel_map_type_at(const struct btf *btf, int i, char *name,
				      size_t size, int *value)
{
	static const char prefix[] = "BPF_MAP_TYPE_";
	int id = btf ? btf__find_by_name_kind(btf, "bpf_map_type", BTF_KIND_ENUM) : -1;
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_enum *e;
	const char *e_name;
	size_t j;

	if (!t || i >= btf_vlen(t) || !size)
		return false;
	e = btf_enum(t) + i;
	e_name = btf__name_by_offset(btf, e->name_off);
	name[0] = 0;
	if (e_name && !strncmp(e_name, prefix, strlen(prefix))) {
		e_name += strlen(prefix);
		for (j = 0; e_name[j] && j < size - 1; j++)
			name[j] = tolower(e_name[j]);
		name[j] = 0;
	}
	*value = e->val;
	return true;
}

#endif
