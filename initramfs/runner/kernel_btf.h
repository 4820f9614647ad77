/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel has, from its BTF (/sys/kernel/btf/vmlinux):
 * the guest tests and bpf-bench run on the series' kernel and on stock
 * 6.1 (make ci-base), and ask which one this is, and which map and
 * program types it knows.
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
 * Enumerator @i of @btf's enum @enum_name, whose enumerators start with
 * @prefix: false past the last. Its name less @prefix, in lower case (as
 * bpf-grant and libbpf spell a map or program type), goes to @name; ""
 * for one without @prefix (__MAX_BPF_MAP_TYPE). Its value to *@value.
 */
static inline bool kernel_enum_at(const struct btf *btf, const char *enum_name,
				  const char *prefix, int i, char *name, size_t size,
				  int *value)
{
	int id = btf ? btf__find_by_name_kind(btf, enum_name, BTF_KIND_ENUM) : -1;
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

/* Map type @i of the kernel's enum bpf_map_type, as kernel_enum_at() */
static inline bool kernel_map_type_at(const struct btf *btf, int i, char *name,
				      size_t size, int *value)
{
	return kernel_enum_at(btf, "bpf_map_type", "BPF_MAP_TYPE_", i, name, size,
			      value);
}

/* Program type @i of the kernel's enum bpf_prog_type, as kernel_enum_at() */
static inline bool kernel_prog_type_at(const struct btf *btf, int i, char *name,
				       size_t size, int *value)
{
	return kernel_enum_at(btf, "bpf_prog_type", "BPF_PROG_TYPE_", i, name, size,
			      value);
}

#endif
