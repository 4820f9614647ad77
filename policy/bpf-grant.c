// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant: grant BPF to the processes of one cgroup v2, as an
 * administrator's decision. It installs grant_policy.c, a BPF LSM policy
 * on the series' three grant hooks, pins it under /sys/fs/bpf/bpf-grant,
 * and keeps one rule per cgroup in its pinned rules map; it lists the
 * rules and removes them, and with the last rule the policy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "grant_policy.h"
#include "grant_policy.skel.h"

/* Exit codes, for scripts (also in usage()) */
enum {
	EXIT_OK,
	EXIT_FAIL,		/* anything else: the message says what */
	EXIT_USAGE,
	EXIT_NO_CGROUP,
	EXIT_NO_HOOKS,		/* the kernel lacks the hooks or the BPF LSM */
	EXIT_NO_CAP,
	EXIT_HOOK_BUSY,		/* another BPF LSM program holds a grant hook */
	EXIT_NO_RULE,
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

#define PIN_DIR		"/sys/fs/bpf/bpf-grant"
#define PIN_RULES	PIN_DIR "/rules"

static const char *const hooks[] = {
	"bpf_map_create_security",
	"bpf_btf_load_security",
	"bpf_prog_load_security",
};

/* The pins of the links that attach the policy, in the order of hooks[] */
static const char *const link_pins[] = {
	PIN_DIR "/map_create",
	PIN_DIR "/btf_load",
	PIN_DIR "/prog_load",
};

/*
 * Program types whose loader is as strong as root (the kernel's
 * is_root_equiv_prog_type()): granted only when named, with LSM_GRANT_ALL.
 */
static const enum bpf_prog_type root_equiv[] = {
	BPF_PROG_TYPE_KPROBE, BPF_PROG_TYPE_TRACEPOINT,
	BPF_PROG_TYPE_PERF_EVENT, BPF_PROG_TYPE_RAW_TRACEPOINT,
	BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, BPF_PROG_TYPE_TRACING,
	BPF_PROG_TYPE_LSM, BPF_PROG_TYPE_STRUCT_OPS, BPF_PROG_TYPE_EXT,
	BPF_PROG_TYPE_SYSCALL,
};

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("bpf-grant: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* libbpf's warnings (a verifier log, a failed attach), not its chatter */
static int libbpf_warnings(enum libbpf_print_level level, const char *fmt,
			   va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static const char synopsis[] =
"usage: bpf-grant add CGROUP [--map-types LIST] [--prog-types LIST]\n"
"                            [--max-map-bytes BYTES]\n"
"       bpf-grant remove CGROUP | --all\n"
"       bpf-grant list\n"
"       bpf-grant --help\n";

/* A usage error: the synopsis, on stderr */
static int usage_error(void)
{
	fputs(synopsis, stderr);
	return EXIT_USAGE;
}

static void help(void)
{
	fputs(synopsis, stdout);
	fputs(
"\n"
"Grant BPF map creation, BTF load and program load to the processes of\n"
"the cgroup v2 at CGROUP and of its descendants, without capabilities,\n"
"through the kernel's bpf_*_security LSM hooks. The policy is pinned in\n"
PIN_DIR "; the first add installs it, removing the last rule\n"
"uninstalls it. kernel.lsm_grant_disabled turns every grant off.\n"
"\n"
"  --map-types LIST     map types granted, comma-separated bpftool names\n"
"                       (hash,array,...); default: all\n"
"  --prog-types LIST    program types granted; default: all but those that\n"
"                       make their loader as strong as root (kprobe,\n"
"                       tracepoint, perf_event, raw_tracepoint,\n"
"                       raw_tracepoint_writable, tracing, lsm, struct_ops,\n"
"                       ext, syscall), which are granted only when listed\n"
"  --max-map-bytes N    grant no map larger than N bytes (entries times key\n"
"                       and value size); default: no limit\n"
"\n"
"add on a cgroup that has a rule replaces it. list prints one line per\n"
"rule, tab-separated: path, cgroup id, map types, program types, largest\n"
"map (0: no limit), and 'ok', or 'gone' when the path no longer is that\n"
"cgroup. Needs CAP_SYS_ADMIN.\n"
"\n"
"Exit status: 0 done; 1 failed; 2 usage; 3 no such cgroup; 4 the kernel\n"
"has no grant hooks or BPF LSM; 5 a capability is missing; 6 another BPF\n"
"LSM program holds a grant hook; 7 no rule for that cgroup.\n", stdout);
}

static bool has_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[0].effective & (1U << CAP_SYS_ADMIN);
}

/* The grant hooks in the kernel's BTF, and BPF among the active LSMs */
static int check_kernel(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char name[64], lsms[256] = "";
	FILE *f;
	int i;

	if (!btf)
		return fail(EXIT_NO_HOOKS, "no kernel BTF (/sys/kernel/btf/vmlinux): "
			    "this needs a kernel built with CONFIG_DEBUG_INFO_BTF");
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		snprintf(name, sizeof(name), "bpf_lsm_%s", hooks[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) < 0) {
			btf__free(btf);
			return fail(EXIT_NO_HOOKS, "this kernel has no %s LSM hook: "
				    "boot a kernel built with this series", hooks[i]);
		}
	}
	btf__free(btf);
	/* Without securityfs mounted, attaching is what tells */
	f = fopen("/sys/kernel/security/lsm", "r");
	if (f) {
		if (!fgets(lsms, sizeof(lsms), f))
			lsms[0] = 0;
		fclose(f);
		if (!strstr(lsms, "bpf"))
			return fail(EXIT_NO_HOOKS, "the BPF LSM is not active (%s): "
				    "add bpf to the kernel's lsm= parameter", lsms);
	}
	return EXIT_OK;
}

/* The id of the cgroup v2 at @path, or an exit code */
static int cgroup_at(const char *path, __u64 *id)
{
	struct statfs fs;
	struct stat st;

	if (stat(path, &st))
		return fail(EXIT_NO_CGROUP, "no cgroup at %s: %s (create it with "
			    "mkdir under a cgroup v2 mount)", path, strerror(errno));
	if (statfs(path, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC ||
	    !S_ISDIR(st.st_mode))
		return fail(EXIT_NO_CGROUP, "%s is not a cgroup v2 directory", path);
	/* the root cgroup's inode is 1 */
	if (st.st_ino == 1)
		return fail(EXIT_USAGE, "%s is the root cgroup: a rule there would "
			    "grant BPF to every process", path);
	*id = st.st_ino;
	return EXIT_OK;
}

/* A comma-separated list of type names into a bitmap of their values */
static int parse_types(const char *list, bool progs, __u64 *types)
{
	char *copy = strdup(list), *name, *save;
	const char *known;
	int t, err = EXIT_OK;

	*types = 0;
	for (name = strtok_r(copy, ",", &save); name && !err;
	     name = strtok_r(NULL, ",", &save)) {
		/* type 0 is unspec: not a type to grant */
		for (t = 1; t < 64; t++) {
			known = progs ? libbpf_bpf_prog_type_str(t) :
					libbpf_bpf_map_type_str(t);
			if (!known || !strcmp(known, name))
				break;
		}
		if (known && t < 64)
			*types |= 1ULL << t;
		else
			err = fail(EXIT_USAGE, "unknown %s type '%s' (bpftool's "
				   "names: %s)", progs ? "program" : "map", name,
				   progs ? "socket_filter, xdp, ..." : "hash, array, ...");
	}
	free(copy);
	if (!err && !*types)
		err = fail(EXIT_USAGE, "an empty list of %s types", progs ? "program" : "map");
	return err;
}

static __u64 root_equiv_types(void)
{
	__u64 types = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(root_equiv); i++)
		types |= 1ULL << root_equiv[i];
	return types;
}

/* Every type libbpf knows by name, from 1 */
static __u64 all_types(bool progs)
{
	__u64 types = 0;
	int t;

	for (t = 1; t < 64; t++) {
		if (!(progs ? libbpf_bpf_prog_type_str(t) : libbpf_bpf_map_type_str(t)))
			break;
		types |= 1ULL << t;
	}
	return types;
}

static bool pinned(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The pinned rules map, or -errno; -ENOENT when nothing is installed */
static int open_rules(void)
{
	int fd, i;

	if (!pinned(PIN_RULES))
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(link_pins); i++) {
		if (!pinned(link_pins[i])) {
			fail(EXIT_FAIL, "the policy in " PIN_DIR " is incomplete "
			     "(%s is missing): run bpf-grant remove --all",
			     link_pins[i]);
			return -EUCLEAN;
		}
	}
	fd = bpf_obj_get(PIN_RULES);
	return fd < 0 ? -errno : fd;
}

static void unpin_all(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(link_pins); i++)
		unlink(link_pins[i]);
	unlink(PIN_RULES);
	rmdir(PIN_DIR);
}

/* Load and attach the policy with @rule in it, and pin it */
static int install(__u64 id, const struct grant_rule *rule)
{
	struct bpf_program *progs[ARRAY_SIZE(hooks)];
	struct bpf_link *links[ARRAY_SIZE(hooks)] = {};
	struct grant_policy *skel;
	struct statfs fs;
	int i, err, code = EXIT_FAIL;

	if (statfs("/sys/fs/bpf", &fs) || fs.f_type != BPF_FS_MAGIC)
		return fail(EXIT_FAIL, "/sys/fs/bpf is not a BPF file system: "
			    "mount -t bpf bpf /sys/fs/bpf");
	skel = grant_policy__open();
	if (!skel)
		return fail(EXIT_FAIL, "opening the policy: %s", strerror(errno));
	skel->rodata->nr_cpus = libbpf_num_possible_cpus();
	err = grant_policy__load(skel);
	if (err) {
		fail(EXIT_FAIL, "loading the policy: %s", strerror(-err));
		goto out;
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.rules), &id, rule, BPF_ANY)) {
		fail(EXIT_FAIL, "adding the rule: %s", strerror(errno));
		goto out;
	}
	progs[0] = skel->progs.grant_map_create;
	progs[1] = skel->progs.grant_btf_load;
	progs[2] = skel->progs.grant_prog_load;
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		links[i] = bpf_program__attach_lsm(progs[i]);
		err = links[i] ? 0 : -errno;
		if (err == -EBUSY) {
			code = fail(EXIT_HOOK_BUSY, "another BPF LSM program is attached "
				    "to %s, and a grant hook takes one: find it with "
				    "bpftool link, and detach it first", hooks[i]);
			goto out;
		}
		if (err) {
			fail(EXIT_FAIL, "attaching to %s: %s", hooks[i], strerror(-err));
			goto out;
		}
	}
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST) {
		fail(EXIT_FAIL, "mkdir " PIN_DIR ": %s", strerror(errno));
		goto out;
	}
	err = bpf_map__pin(skel->maps.rules, PIN_RULES);
	for (i = 0; !err && i < ARRAY_SIZE(hooks); i++)
		err = bpf_link__pin(links[i], link_pins[i]);
	if (err) {
		fail(EXIT_FAIL, "pinning the policy in " PIN_DIR ": %s", strerror(-err));
		unpin_all();
		goto out;
	}
	code = EXIT_OK;
out:
	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		bpf_link__destroy(links[i]);
	grant_policy__destroy(skel);
	return code;
}

/* The names of the types in @types, comma-separated, into @buf */
static const char *type_names(__u64 types, bool progs, char *buf, size_t size)
{
	size_t len = 0;
	int t;

	buf[0] = 0;
	for (t = 1; t < 64; t++) {
		if (!((types >> t) & 1))
			continue;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? "," : "",
				progs ? libbpf_bpf_prog_type_str(t) : libbpf_bpf_map_type_str(t));
	}
	return len ? buf : "-";
}

/* What add granted, and which of it makes the cgroup's tasks root */
static void print_rule(__u64 id, const struct grant_rule *rule)
{
	char maps[1024], progs[1024];

	printf("granted to %s (cgroup %llu):\n  map types: %s\n"
	       "  program types: %s\n", rule->path, (unsigned long long)id,
	       type_names(rule->map_types, false, maps, sizeof(maps)),
	       type_names(rule->prog_types, true, progs, sizeof(progs)));
	if (rule->max_map_bytes)
		printf("  largest map: %llu bytes\n",
		       (unsigned long long)rule->max_map_bytes);
	if (rule->prog_types_all)
		printf("  as strong as root through: %s (named, so granted)\n",
		       type_names(rule->prog_types_all, true, progs, sizeof(progs)));
}

static int cmd_add(const char *path, const char *map_list, const char *prog_list,
		   __u64 max_map_bytes)
{
	struct grant_rule rule = { .max_map_bytes = max_map_bytes };
	__u64 id, named = 0;
	int code, fd;

	if (strlen(path) >= sizeof(rule.path))
		return fail(EXIT_USAGE, "%s: a path longer than %zu bytes", path,
			    sizeof(rule.path) - 1);
	strcpy(rule.path, path);
	rule.map_types = all_types(false);
	if (map_list && (code = parse_types(map_list, false, &rule.map_types)))
		return code;
	rule.prog_types = all_types(true) & ~root_equiv_types();
	if (prog_list) {
		if ((code = parse_types(prog_list, true, &named)))
			return code;
		rule.prog_types = named;
		rule.prog_types_all = named & root_equiv_types();
	}
	if ((code = cgroup_at(path, &id)))
		return code;
	if (!has_cap_sys_admin())
		return fail(EXIT_NO_CAP, "needs CAP_SYS_ADMIN: installing a policy "
			    "that grants BPF is an administrator's act");
	if ((code = check_kernel()))
		return code;
	fd = open_rules();
	if (fd == -ENOENT) {
		code = install(id, &rule);
	} else if (fd < 0) {
		return fd == -EUCLEAN ? EXIT_FAIL :
			fail(EXIT_FAIL, "opening " PIN_RULES ": %s", strerror(-fd));
	} else {
		code = EXIT_OK;
		if (bpf_map_update_elem(fd, &id, &rule, BPF_ANY))
			code = fail(EXIT_FAIL, "adding the rule: %s%s", strerror(errno),
				    errno == E2BIG ? " (it holds 64 cgroups)" : "");
		close(fd);
	}
	if (!code)
		print_rule(id, &rule);
	return code;
}

static int cmd_list(void)
{
	char maps[1024], progs[1024];
	struct grant_rule rule;
	__u64 key, next, *prev = NULL;
	struct stat st;
	int fd, code;

	if (!has_cap_sys_admin())
		return fail(EXIT_NO_CAP, "needs CAP_SYS_ADMIN to read the policy");
	if ((code = check_kernel()))
		return code;
	fd = open_rules();
	if (fd == -ENOENT)
		return EXIT_OK;
	if (fd < 0)
		return fd == -EUCLEAN ? EXIT_FAIL :
			fail(EXIT_FAIL, "opening " PIN_RULES ": %s", strerror(-fd));
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &rule))
			continue;
		printf("%s\t%llu\t%s\t%s\t%llu\t%s\n", rule.path,
		       (unsigned long long)key,
		       type_names(rule.map_types, false, maps, sizeof(maps)),
		       type_names(rule.prog_types, true, progs, sizeof(progs)),
		       (unsigned long long)rule.max_map_bytes,
		       !stat(rule.path, &st) && st.st_ino == key ? "ok" : "gone");
	}
	close(fd);
	return EXIT_OK;
}

/* Remove the rules of @path (by its cgroup id, or by the path listed) */
static int cmd_remove(const char *path, bool all)
{
	struct grant_rule rule;
	__u64 cur, prev, id = 0;
	bool has_prev = false;
	struct stat st;
	int fd, found = 0;

	if (!has_cap_sys_admin())
		return fail(EXIT_NO_CAP, "needs CAP_SYS_ADMIN to change the policy");
	if (all) {
		unpin_all();
		return EXIT_OK;
	}
	fd = open_rules();
	if (fd == -ENOENT)
		return fail(EXIT_NO_RULE, "no rule for %s: no policy is installed",
			    path);
	if (fd < 0)
		return fd == -EUCLEAN ? EXIT_FAIL :
			fail(EXIT_FAIL, "opening " PIN_RULES ": %s", strerror(-fd));
	if (!stat(path, &st))
		id = st.st_ino;
	while (!bpf_map_get_next_key(fd, has_prev ? &prev : NULL, &cur)) {
		if (!bpf_map_lookup_elem(fd, &cur, &rule) &&
		    (cur == id || !strcmp(rule.path, path)) &&
		    !bpf_map_delete_elem(fd, &cur)) {
			found++;
			continue;	/* the key after @prev is the next one now */
		}
		prev = cur;
		has_prev = true;
	}
	if (!found) {
		close(fd);
		return fail(EXIT_NO_RULE, "no rule for %s (see bpf-grant list)", path);
	}
	/* Without rules the policy only costs: take it out */
	if (bpf_map_get_next_key(fd, NULL, &cur))
		unpin_all();
	close(fd);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "map-types", required_argument, NULL, 'm' },
		{ "prog-types", required_argument, NULL, 'p' },
		{ "max-map-bytes", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *map_list = NULL, *prog_list = NULL, *cmd;
	unsigned long long max_map_bytes = 0;
	bool all = false;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map_list = optarg;
			break;
		case 'p':
			prog_list = optarg;
			break;
		case 's':
			errno = 0;
			max_map_bytes = strtoull(optarg, &end, 0);
			if (errno || *end || !max_map_bytes || optarg[0] == '-')
				return fail(EXIT_USAGE, "--max-map-bytes %s: not a "
					    "positive count of bytes", optarg);
			break;
		case 'a':
			all = true;
			break;
		case 'h':
			help();
			return EXIT_OK;
		default:
			return usage_error();
		}
	}
	cmd = optind < argc ? argv[optind++] : "";
	libbpf_set_print(libbpf_warnings);
	if (!strcmp(cmd, "add") && optind == argc - 1 && !all)
		return cmd_add(argv[optind], map_list, prog_list, max_map_bytes);
	if (!strcmp(cmd, "list") && optind == argc && !all && !map_list &&
	    !prog_list && !max_map_bytes)
		return cmd_list();
	if (!strcmp(cmd, "remove") && optind == argc - !all && !map_list &&
	    !prog_list && !max_map_bytes)
		return cmd_remove(all ? NULL : argv[optind], all);
	return usage_error();
}
