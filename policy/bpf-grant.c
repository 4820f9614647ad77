// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-grant: grant BPF to the processes of one cgroup v2, as an
 * administrator's decision. It installs grant_policy.c, a BPF LSM policy
 * on the series' three grant hooks, pins it under /sys/fs/bpf/bpf-grant,
 * and keeps one rule per cgroup in its pinned rules map; it lists the
 * rules and removes them, and with the last rule the policy.
 *
 * What is pinned there decides who gets BPF, so the tool trusts it only
 * when the directory is root's own and the pins are the policy's: the
 * rules map of the right shape, used by the programs behind the links.
 * One bpf-grant runs at a time, under a lock no other user can take.
 *
 * What a grantee creates is kernel memory charged to its memory cgroup,
 * so a rule goes only to a cgroup that a memory.max bounds, on it or
 * above it, unless the administrator says --unbounded-memory. And a map
 * a grantee pins where root's tools pin is one they reuse, so no rule
 * goes out while others can make names in a BPF file system, unless the
 * administrator says --shared-bpffs. What the tool reads (counts, paths,
 * type lists, memory.max, mountinfo), grant_args.c parses, strictly and
 * apart from libbpf, so that it is tested on the host
 * (tests/bpf-grant-args.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "grant_args.h"
#include "grant_policy.h"
#include "grant_policy.skel.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

#define BPFFS		"/sys/fs/bpf"
#define PIN_DIR		BPFFS "/bpf-grant"
#define PIN_RULES	PIN_DIR "/rules"
#define GRANT_SYSCTL	"/proc/sys/kernel/lsm_grant_disabled"
/*
 * The lock: a file of root's in a directory only root can enter. Not
 * /sys/fs/bpf, which may be 1777 (the kernel's default, --shared-bpffs):
 * any user could open it, hold a lock on it and so stop every revocation.
 * /run is root's state of this boot, as the lock is; a system without it
 * (an initramfs) gets it, as mkdir -p would.
 */
#define RUN_DIR		"/run"
#define LOCK_DIR	RUN_DIR "/bpf-grant"
#define LOCK_NAME	"lock"
/* What --max-btf-bytes is unless given: a skeleton's BTF is far smaller */
#define DEFAULT_MAX_BTF	(1ULL << 20)
#define MOUNTINFO	"/proc/self/mountinfo"

/* The hooks, and the pins of the links that attach the policy to them */
static const struct {
	const char *hook;
	const char *pin;
} hooks[] = {
	{ "bpf_map_create_security", PIN_DIR "/map_create" },
	{ "bpf_btf_load_security", PIN_DIR "/btf_load" },
	{ "bpf_prog_load_security", PIN_DIR "/prog_load" },
};

static struct bpf_program *hook_prog(struct grant_policy *skel, int i)
{
	struct bpf_program *progs[] = {
		skel->progs.grant_map_create,
		skel->progs.grant_btf_load,
		skel->progs.grant_prog_load,
	};

	return progs[i];
}

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

/*
 * What a rule grants unless --map-types or --prog-types names the types: a
 * list, not "every type but", so that a type a newer libbpf or kernel adds
 * is granted only when an administrator names it. Left out, granted only
 * when named: map types that hand out more than memory charged to the
 * creator (devmap, devmap_hash and xskmap name a network device; cpumap
 * starts a kernel thread per entry, counted as the updater's; sockmap,
 * sockhash and reuseport_sockarray redirect between sockets of any network
 * namespace), map types only root-equivalent programs use (stack_trace,
 * task_storage, inode_storage), the program types that need
 * socket maps (sk_skb, sk_msg), lirc_mode2 (a device) and root_equiv[].
 */
static const int default_map_types[] = {
	BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_HASH,
	BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,
	BPF_MAP_TYPE_LRU_PERCPU_HASH, BPF_MAP_TYPE_LPM_TRIE, BPF_MAP_TYPE_QUEUE,
	BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_BLOOM_FILTER, BPF_MAP_TYPE_RINGBUF,
	BPF_MAP_TYPE_USER_RINGBUF, BPF_MAP_TYPE_ARRAY_OF_MAPS,
	BPF_MAP_TYPE_HASH_OF_MAPS, BPF_MAP_TYPE_PROG_ARRAY,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY, BPF_MAP_TYPE_CGROUP_ARRAY,
	BPF_MAP_TYPE_CGROUP_STORAGE, BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE,
	BPF_MAP_TYPE_SK_STORAGE,
};

static const int default_prog_types[] = {
	BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_SCHED_CLS,
	BPF_PROG_TYPE_SCHED_ACT, BPF_PROG_TYPE_XDP, BPF_PROG_TYPE_CGROUP_SKB,
	BPF_PROG_TYPE_CGROUP_SOCK, BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
	BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_PROG_TYPE_CGROUP_SYSCTL,
	BPF_PROG_TYPE_CGROUP_DEVICE, BPF_PROG_TYPE_SOCK_OPS,
	BPF_PROG_TYPE_FLOW_DISSECTOR, BPF_PROG_TYPE_SK_REUSEPORT,
	BPF_PROG_TYPE_SK_LOOKUP, BPF_PROG_TYPE_LWT_IN, BPF_PROG_TYPE_LWT_OUT,
	BPF_PROG_TYPE_LWT_XMIT, BPF_PROG_TYPE_LWT_SEG6LOCAL,
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
"                            [--max-map-bytes N] [--max-btf-bytes N]\n"
"                            [--unbounded-memory] [--shared-bpffs]\n"
"       bpf-grant remove CGROUP | --all\n"
"       bpf-grant list\n"
"       bpf-grant --help\n";

/* A usage error: the synopsis, on stderr */
static int usage_error(void)
{
	fputs(synopsis, stderr);
	return GRANT_EXIT_USAGE;
}

static void help(void)
{
	fputs(synopsis, stdout);
	fputs(
"\n"
"Grant BPF map creation, BTF load and program load, without capabilities,\n"
"to the processes of the cgroup v2 CGROUP and of the cgroups below it,\n"
"through the kernel's bpf_*_security LSM hooks. The first add installs\n"
"the policy in " PIN_DIR ", removing the last rule uninstalls\n"
"it; list prints one line per rule. A task gets the rule of the deepest\n"
"cgroup on its path that has one. Needs CAP_SYS_ADMIN in the initial user\n"
"namespace.\n"
"\n"
"  --map-types LIST     map types granted (bpftool's names), in place of:\n"
"                       array, percpu_array, hash, percpu_hash, lru_hash,\n"
"                       lru_percpu_hash, lpm_trie, queue, stack,\n"
"                       bloom_filter, ringbuf, user_ringbuf, array_of_maps,\n"
"                       hash_of_maps, prog_array, perf_event_array,\n"
"                       cgroup_array, cgroup_storage, percpu_cgroup_storage,\n"
"                       sk_storage. Only when listed: devmap, devmap_hash,\n"
"                       xskmap (a network device); cpumap (a\n"
"                       kernel thread per entry, counted in the updater's\n"
"                       RLIMIT_NPROC); sockmap, sockhash,\n"
"                       reuseport_sockarray; stack_trace, task_storage,\n"
"                       inode_storage. Never struct_ops\n"
"  --prog-types LIST    program types granted, in place of: socket_filter,\n"
"                       sched_cls, sched_act, xdp, cgroup_skb, cgroup_sock,\n"
"                       cgroup_sock_addr, cgroup_sockopt, cgroup_sysctl,\n"
"                       cgroup_device, sock_ops, flow_dissector,\n"
"                       sk_reuseport, sk_lookup, lwt_in, lwt_out, lwt_xmit,\n"
"                       lwt_seg6local. Only when listed: sk_skb, sk_msg,\n"
"                       lirc_mode2, and as strong as root: kprobe,\n"
"                       tracepoint, perf_event, raw_tracepoint,\n"
"                       raw_tracepoint_writable, tracing, lsm, struct_ops,\n"
"                       ext, syscall\n"
"  --max-map-bytes N    grant no map asking for more than N bytes\n"
"                       (entries times key and value); default: no limit\n"
"  --max-btf-bytes N    grant no BTF larger than N bytes; default: 1 MiB\n"
"  --unbounded-memory   add even when no memory.max bounds the cgroup\n"
"  --shared-bpffs       add even when others can make names in a BPF file\n"
"                       system, where root's tools pin\n"
"  --all                with remove: every rule, and the policy\n"
"  --help               this summary\n"
"\n"
"add refuses a rule nested below or above another across a delegated\n"
"cgroup, and one that grants more than another in the same delegated\n"
"cgroup: delegate first, then add. It refuses a cgroup with no memory.max\n"
"on it or above it, which is what bounds the memory a grantee's maps\n"
"and BTF take: write a limit to CGROUP/memory.max first. list shows the\n"
"bound and memory.current. It refuses while others can make names in a\n"
"BPF file system (the kernel mounts it 1777), where a grantee could pin\n"
"maps that root's ip and tc reuse: chmod 0700 /sys/fs/bpf, as systemd\n"
"mounts it, and give each grantee a directory of its own.\n"
"\n"
"Exit status: 0 done; 1 failed; 2 usage; 3 no such cgroup; 4 the kernel\n"
"has no grant hooks or BPF LSM; 5 a capability is missing; 6 another BPF\n"
"LSM program holds a grant hook; 7 no rule for that cgroup; 8 the rule\n"
"would nest with another across a delegated cgroup, or grant more than\n"
"another in one; 9 no memory.max bounds the cgroup; 10 others can make\n"
"names in a BPF file system.\n"
"\n"
"The manual page bpf-grant(8) says more (policy/bpf-grant.8 in the\n"
"source: man -l policy/bpf-grant.8).\n", stdout);
}

/* CAP_SYS_ADMIN, and in the initial user namespace: root in another one
 * has the capability over its own namespace only
 */
static int check_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	unsigned long long in, out, count = 0;
	FILE *f;

	if (syscall(SYS_capget, &hdr, data) ||
	    !(data[0].effective & (1U << CAP_SYS_ADMIN)))
		return fail(GRANT_EXIT_NO_CAP, "needs CAP_SYS_ADMIN: a policy that "
			    "grants BPF is an administrator's to install or change");
	f = fopen("/proc/self/uid_map", "r");
	if (!f || fscanf(f, "%llu %llu %llu", &in, &out, &count) != 3)
		count = 0;
	if (f)
		fclose(f);
	if (count != 4294967295ULL)
		return fail(GRANT_EXIT_NO_CAP, "runs in a user namespace: it needs "
			    "CAP_SYS_ADMIN in the initial one");
	return GRANT_EXIT_OK;
}

/* The grant hooks in the kernel's BTF, and BPF among the active LSMs */
static int check_kernel(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	char name[64], lsms[256] = "";
	FILE *f;
	int i;

	if (!btf)
		return fail(GRANT_EXIT_NO_HOOKS, "no kernel BTF (/sys/kernel/btf/"
			    "vmlinux): it needs a kernel built with CONFIG_DEBUG_INFO_BTF");
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		snprintf(name, sizeof(name), "bpf_lsm_%s", hooks[i].hook);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) < 0) {
			btf__free(btf);
			return fail(GRANT_EXIT_NO_HOOKS, "this kernel has no %s LSM "
				    "hook: boot a kernel built with this series",
				    hooks[i].hook);
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
			return fail(GRANT_EXIT_NO_HOOKS, "the BPF LSM is not active (%s): "
				    "add bpf to the kernel's lsm= parameter", lsms);
	}
	return GRANT_EXIT_OK;
}

/* Whether @st is root's and open to no one else for writing: @mask is the
 * mode bits no one but root may have
 */
static bool roots_own(const struct stat *st, mode_t type, mode_t mask)
{
	return (st->st_mode & S_IFMT) == type && !st->st_uid &&
	       !(st->st_mode & mask);
}

/*
 * BPFFS mounted, and bpf-grant locked: one at a time, from start to end.
 * The lock is LOCK_DIR/LOCK_NAME, opened through the directory without
 * following a symlink and checked on the open files, so that no other user
 * can hold it: what a user can open, a user can flock, and then every add,
 * list and remove would wait for them.
 */
static int lock_tool(void)
{
	int dir, fd = -1, code = GRANT_EXIT_FAIL;
	struct statfs fs;
	struct stat st;

	if (statfs(BPFFS, &fs) || fs.f_type != BPF_FS_MAGIC)
		return fail(GRANT_EXIT_FAIL, BPFFS " is not a BPF file system: "
			    "mount -t bpf bpf " BPFFS);
	if ((mkdir(RUN_DIR, 0755) && errno != EEXIST) ||
	    (mkdir(LOCK_DIR, 0700) && errno != EEXIST))
		return fail(GRANT_EXIT_FAIL, "mkdir -p " LOCK_DIR ": %s",
			    strerror(errno));
	dir = open(LOCK_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0 || fstat(dir, &st) || !roots_own(&st, S_IFDIR, 022)) {
		fail(GRANT_EXIT_FAIL, LOCK_DIR " is not root's own directory "
		     "(%s): someone else made it; remove it and run again",
		     dir < 0 ? strerror(errno) :
		     "someone else's, or writable by others");
		goto out;
	}
	fd = openat(dir, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0 || fstat(fd, &st) || !roots_own(&st, S_IFREG, 077)) {
		fail(GRANT_EXIT_FAIL, LOCK_DIR "/" LOCK_NAME " is not root's "
		     "own file (%s): remove it and run again", fd < 0 ?
		     strerror(errno) : "someone else's, or open to others");
		goto out;
	}
	if (flock(fd, LOCK_EX)) {
		fail(GRANT_EXIT_FAIL, "locking " LOCK_DIR "/" LOCK_NAME ": %s",
		     strerror(errno));
		goto out;
	}
	code = GRANT_EXIT_OK;
	fd = -1;	/* the lock is held until exit */
out:
	if (fd >= 0)
		close(fd);
	if (dir >= 0)
		close(dir);
	return code;
}

/* Whether @path is a directory of a cgroup v2 file system, stat in @st */
static bool cgroup2_dir(const char *path, struct stat *st)
{
	struct statfs fs;

	return !statfs(path, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC &&
	       !stat(path, st) && S_ISDIR(st->st_mode);
}

/* How many cgroup levels are above the cgroup at the canonical path
 * @real, up to GRANT_MAX_LEVEL; -1 without the memory to count them
 */
static int cgroup_level(const char *real)
{
	char *copy = strdup(real), *up = copy;
	struct statfs fs;
	int level = 0;

	if (!copy)
		return -1;
	while (level < GRANT_MAX_LEVEL && !statfs(up = dirname(up), &fs) &&
	       fs.f_type == CGROUP2_SUPER_MAGIC && strcmp(up, "/"))
		level++;
	free(copy);
	return level;
}

/*
 * The cgroup v2 at @path: its id, its canonical path in @real, or an exit
 * code. The root cgroup and cgroups the policy cannot reach are refused,
 * and a path longer than a rule keeps: a rule's path is what list shows
 * and what remove and the nesting check find its cgroup by again, so it
 * is stored whole or not at all.
 */
static int cgroup_at(const char *path, __u64 *id, char *real)
{
	struct statfs fs;
	struct stat st;
	int level;

	if (!realpath(path, real) || stat(real, &st))
		return fail(GRANT_EXIT_NO_CGROUP, "no cgroup at %s: %s (create it "
			    "with mkdir under a cgroup v2 mount)", path, strerror(errno));
	if (statfs(real, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC ||
	    !S_ISDIR(st.st_mode))
		return fail(GRANT_EXIT_NO_CGROUP, "%s is not a cgroup v2 directory",
			    path);
	/* the root cgroup's inode is 1; the others' level is their depth */
	if (st.st_ino == 1)
		return fail(GRANT_EXIT_USAGE, "%s is the root cgroup: a rule there "
			    "would grant BPF to every process", path);
	level = cgroup_level(real);
	if (level < 0)
		return fail(GRANT_EXIT_FAIL, "%s: %s", path, strerror(ENOMEM));
	if (level >= GRANT_MAX_LEVEL)
		return fail(GRANT_EXIT_USAGE, "%s is %d or more levels deep: the "
			    "policy looks at the first %d", path, GRANT_MAX_LEVEL,
			    GRANT_MAX_LEVEL - 1);
	if (strlen(real) >= GRANT_PATH_MAX)
		return fail(GRANT_EXIT_USAGE, "%s: a path longer than %d bytes, "
			    "which a rule cannot keep whole; give the cgroup a "
			    "shorter path", real, GRANT_PATH_MAX - 1);
	*id = st.st_ino;
	return GRANT_EXIT_OK;
}

/*
 * Whether a user other than root can make cgroups in the cgroup @dir or
 * move tasks through it, as a container runtime delegates a cgroup: the
 * directory or its cgroup.procs is not root's, or is writable by group or
 * others. What makes it so in @why.
 */
static bool delegated(const char *dir, char *why, size_t size)
{
	static const char *const files[] = { "", "/cgroup.procs" };
	char path[PATH_MAX + sizeof("/cgroup.procs")];
	struct stat st;
	int i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, files[i]);
		if (lstat(path, &st))
			snprintf(why, size, "%s: %s", path, strerror(errno));
		else if (st.st_uid)
			snprintf(why, size, "%s is owned by uid %u", path,
				 st.st_uid);
		else if (st.st_mode & (S_IWGRP | S_IWOTH))
			snprintf(why, size, "%s is writable by %s", path,
				 st.st_mode & S_IWOTH ? "others" : "its group");
		else
			continue;
		return true;
	}
	return false;
}

/*
 * Whether the cgroup of id @shallow is an ancestor of the cgroup at the
 * canonical path @deep. The first delegated cgroup from @deep's parent up
 * to @shallow goes to @dir (empty if none), and why to @why.
 */
static bool ancestor(__u64 shallow, const char *deep, char *dir, char *why,
		     size_t size)
{
	char up[PATH_MAX];
	struct statfs fs;
	struct stat st;

	dir[0] = 0;
	snprintf(up, sizeof(up), "%s", deep);
	while (strcmp(dirname(up), "/") && !statfs(up, &fs) &&
	       fs.f_type == CGROUP2_SUPER_MAGIC && !stat(up, &st) &&
	       st.st_ino != 1) {
		if (!dir[0] && delegated(up, why, size))
			snprintf(dir, PATH_MAX, "%s", up);
		if (st.st_ino == shallow)
			return true;
	}
	return false;
}

/*
 * Whether the cgroup at the canonical path @real and that of id @other at
 * the canonical path @path are in one delegated subtree: a delegated
 * cgroup at or above both. The lowest such one goes to @dir (empty if
 * none), and why to @why. Without the memory to look, it says yes.
 */
static bool same_subtree(const char *real, __u64 other, const char *path,
			 char *dir, char *why, size_t size)
{
	char *copy = strdup(real), *up = copy;
	bool common = false, found = !copy;
	struct stat st;

	if (!copy)
		snprintf(why, size, "no memory to look: %s", strerror(ENOMEM));
	/* from the lowest cgroup at or above both up, every one is common */
	while (!found && strcmp(up, "/") && cgroup2_dir(up, &st) &&
	       st.st_ino != 1) {
		common = common || st.st_ino == other ||
			 ancestor(st.st_ino, path, dir, why, size);
		found = common && delegated(up, why, size);
		if (!found)
			up = dirname(up);
	}
	if (found)
		snprintf(dir, PATH_MAX, "%s", copy ? up : real);
	else
		dir[0] = 0;
	free(copy);
	return found;
}

/*
 * A rule below another narrows only while the tasks of its cgroup cannot
 * leave it for another cgroup under the wider rule. Moving a task takes
 * write access to the cgroup.procs of the common ancestor, and making a
 * cgroup to move to, to a directory: so when a cgroup between two rules
 * (the deeper one's parent up to the other's cgroup) is delegated, its user
 * can move a task of the narrower rule out from under it and get the wider
 * one. Such a pair is refused, whichever rule comes first. One rule on a
 * delegated cgroup, with none above or below it, is a container's own and
 * fine. A delegation made after the rules is not seen here.
 *
 * Siblings and cousins in one delegated subtree are as reachable as an
 * ancestor: its user moves tasks among its cgroups. There @new may grant
 * no more than each other rule, so that it widens nothing a task there
 * could reach before; unless it grants no more than the rule of @id it
 * replaces, which widens nothing either (so add again keeps working).
 */
static int check_nesting(int fd, __u64 id, const char *real,
			 const struct grant_rule *new)
{
	char dir[PATH_MAX], why[PATH_MAX + 64];
	__u64 key, next, *prev = NULL;
	struct grant_rule rule;
	bool below, above, within_own;
	struct stat st;

	within_own = !bpf_map_lookup_elem(fd, &id, &rule) &&
		     grant_rule_no_wider(new, &rule);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		/* A cgroup v2 is never renamed: a rule whose path is no longer
		 * its cgroup's has a cgroup that is gone, and grants nothing
		 */
		if (key == id || bpf_map_lookup_elem(fd, &key, &rule))
			continue;
		rule.path[GRANT_PATH_MAX - 1] = 0;
		if (stat(rule.path, &st) || st.st_ino != key)
			continue;
		below = ancestor(key, real, dir, why, sizeof(why));
		above = !below && ancestor(id, rule.path, dir, why, sizeof(why));
		if ((below || above) && dir[0])
			return fail(GRANT_EXIT_DELEGATED, "%s is delegated (%s): a "
				    "task of %s could move itself to another cgroup "
				    "under it and get the rule of %s instead of its "
				    "own. A delegated subtree takes one rule: "
				    "bpf-grant remove %s first, or take the "
				    "delegation back (chown root, chmod go-w the "
				    "directory and its cgroup.procs)",
				    dir, why, below ? real : rule.path,
				    below ? rule.path : real, rule.path);
		if (within_own || grant_rule_no_wider(new, &rule) ||
		    !same_subtree(real, key, rule.path, dir, why, sizeof(why)))
			continue;
		return fail(GRANT_EXIT_DELEGATED, "%s is delegated (%s): a task "
			    "of %s could move itself into %s and get its rule, "
			    "which grants more than its own. In a delegated "
			    "subtree a rule may grant no more than each other "
			    "rule there: give %s only types that %s has, with "
			    "limits no larger, or bpf-grant remove %s first, or "
			    "take the delegation back (chown root, chmod go-w "
			    "the directory and its cgroup.procs)", dir, why,
			    rule.path, real, real, rule.path, rule.path);
	}
	return GRANT_EXIT_OK;
}

static const char *map_type_name(int t)
{
	return libbpf_bpf_map_type_str(t);
}

static const char *prog_type_name(int t)
{
	return libbpf_bpf_prog_type_str(t);
}

/* A comma-separated list of type names into a bitmap of their values */
static int parse_types(const char *list, bool progs, __u64 *types)
{
	char msg[GRANT_MSG_MAX];

	if (grant_parse_types(list, progs ? "program" : "map",
			      progs ? "socket_filter, xdp, ..." : "hash, array, ...",
			      progs ? prog_type_name : map_type_name, types,
			      msg, sizeof(msg)))
		return fail(GRANT_EXIT_USAGE, "%s", msg);
	if (!progs && (*types >> BPF_MAP_TYPE_STRUCT_OPS) & 1)
		return fail(GRANT_EXIT_USAGE, "the kernel grants no struct_ops "
			    "map: it keeps needing CAP_BPF (a page of "
			    "trampolines no cgroup is charged for)");
	return GRANT_EXIT_OK;
}

/* A cgroup's path as given: not empty, shorter than PATH_MAX */
static int check_path(const char *path)
{
	char msg[GRANT_MSG_MAX];

	if (grant_check_path(path, msg, sizeof(msg)))
		return fail(GRANT_EXIT_USAGE, "%s", msg);
	return GRANT_EXIT_OK;
}

/* The value of option @opt, a count of bytes up to @max */
static int parse_bytes(const char *opt, const char *arg, __u64 max, __u64 *bytes)
{
	char msg[GRANT_MSG_MAX];

	if (grant_parse_bytes(opt, arg, max, bytes, msg, sizeof(msg)))
		return fail(GRANT_EXIT_USAGE, "%s", msg);
	return GRANT_EXIT_OK;
}

static __u64 root_equiv_types(void)
{
	__u64 types = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(root_equiv); i++)
		types |= 1ULL << root_equiv[i];
	return types;
}

static __u64 types_of(const int *list, int n)
{
	__u64 types = 0;
	int i;

	for (i = 0; i < n; i++)
		types |= 1ULL << list[i];
	return types;
}

/* Whether the running kernel's enum bpf_map_type (bpf_prog_type) has the
 * type @t, by the name libbpf gives it
 */
static bool kernel_has_type(const struct btf *btf, bool progs, int t,
			    const char *name)
{
	const char *prefix = progs ? "BPF_PROG_TYPE_" : "BPF_MAP_TYPE_";
	const struct btf_type *type;
	const struct btf_enum *e;
	char want[64];
	int id, i;

	id = btf__find_by_name_kind(btf, progs ? "bpf_prog_type" :
				    "bpf_map_type", BTF_KIND_ENUM);
	if (id < 0)
		return false;
	type = btf__type_by_id(btf, id);
	snprintf(want, sizeof(want), "%s%s", prefix, name);
	for (i = 0, e = btf_enum(type); i < btf_vlen(type); i++, e++)
		if (e->val == t &&
		    !strcasecmp(btf__name_by_offset(btf, e->name_off), want))
			return true;
	return false;
}

/* The name of the first type in @types that the kernel lacks, or NULL */
static const char *missing_type(const struct btf *btf, __u64 types, bool progs)
{
	const char *name;
	int t;

	for (t = 1; t < 64; t++) {
		if (!((types >> t) & 1))
			continue;
		name = progs ? libbpf_bpf_prog_type_str(t) :
			       libbpf_bpf_map_type_str(t);
		if (!name || !kernel_has_type(btf, progs, t, name))
			return name ? name : "(unnamed)";
	}
	return NULL;
}

/*
 * Every type of @rule is one the running kernel has: libbpf names the
 * types of the kernels it was built for, which may be newer.
 */
static int check_types(const struct grant_rule *rule)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const char *map, *prog = NULL;

	if (!btf)
		return fail(GRANT_EXIT_NO_HOOKS, "no kernel BTF to check the "
			    "types against: %s", strerror(errno));
	map = missing_type(btf, rule->map_types, false);
	if (!map)
		prog = missing_type(btf, rule->prog_types, true);
	btf__free(btf);
	if (map || prog)
		return fail(GRANT_EXIT_USAGE, "this kernel has no %s type '%s' "
			    "(its enum %s lacks it): leave it out",
			    map ? "map" : "program", map ? map : prog,
			    map ? "bpf_map_type" : "bpf_prog_type");
	return GRANT_EXIT_OK;
}

/* 0 when PIN_DIR is root's own directory, -ENOENT when there is none */
static int check_pin_dir(void)
{
	struct stat st;

	if (lstat(PIN_DIR, &st))
		return errno == ENOENT ? -ENOENT :
			-fail(GRANT_EXIT_FAIL, PIN_DIR ": %s", strerror(errno));
	if (!S_ISDIR(st.st_mode) || st.st_uid || (st.st_mode & 077))
		return -fail(GRANT_EXIT_FAIL, PIN_DIR " is not root's own directory "
			     "(it is a symlink, someone else's, or open to others): "
			     "someone else made it; remove it and run again");
	return 0;
}

static bool pinned(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Whether the object with fd @fd has info of @len bytes in @info */
static bool info_of(int fd, void *info, __u32 len)
{
	memset(info, 0, len);
	return fd >= 0 && !bpf_obj_get_info_by_fd(fd, info, &len);
}

/*
 * Whether the pinned link @pin is an LSM link whose program uses the map
 * with id @map_id; its id in @link_id
 */
static bool policy_link(const char *pin, __u32 map_id, __u32 *link_id)
{
	struct bpf_link_info link;
	struct bpf_prog_info prog;
	__u32 maps[8], i;
	bool ok = false;
	int lfd, pfd;

	lfd = bpf_obj_get(pin);
	if (info_of(lfd, &link, sizeof(link)) && link.type == BPF_LINK_TYPE_TRACING &&
	    link.tracing.attach_type == BPF_LSM_MAC) {
		*link_id = link.id;
		pfd = bpf_prog_get_fd_by_id(link.prog_id);
		memset(&prog, 0, sizeof(prog));
		prog.nr_map_ids = ARRAY_SIZE(maps);
		prog.map_ids = (__u64)(unsigned long)maps;
		if (pfd >= 0) {
			__u32 len = sizeof(prog);

			if (!bpf_obj_get_info_by_fd(pfd, &prog, &len))
				for (i = 0; i < prog.nr_map_ids && i < ARRAY_SIZE(maps); i++)
					ok |= maps[i] == map_id;
			close(pfd);
		}
	}
	if (lfd >= 0)
		close(lfd);
	return ok;
}

/*
 * The pinned rules map, checked: -ENOENT when nothing is installed,
 * -EUCLEAN (and a message) when what is pinned is not the policy.
 * The links' ids go to @link_ids.
 */
static int open_rules(__u32 *link_ids)
{
	struct bpf_map_info map;
	int fd, i, n = 0, err;

	err = check_pin_dir();
	if (err)
		return err == -ENOENT ? -ENOENT : -EUCLEAN;
	n = pinned(PIN_RULES);
	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		n += pinned(hooks[i].pin);
	if (!n)
		return -ENOENT;
	if (n < ARRAY_SIZE(hooks) + 1) {
		fail(GRANT_EXIT_FAIL, "the policy in " PIN_DIR " is incomplete "
		     "(a pin is missing): run bpf-grant remove --all");
		return -EUCLEAN;
	}
	fd = bpf_obj_get(PIN_RULES);
	if (!info_of(fd, &map, sizeof(map)) || map.type != BPF_MAP_TYPE_HASH ||
	    map.key_size != sizeof(__u64) ||
	    map.value_size != sizeof(struct grant_rule))
		goto impostor;
	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!policy_link(hooks[i].pin, map.id, &link_ids[i]))
			goto impostor;
	return fd;
impostor:
	if (fd >= 0)
		close(fd);
	fail(GRANT_EXIT_FAIL, "what is pinned in " PIN_DIR " is not bpf-grant's "
	     "policy: look at it with bpftool, then run bpf-grant remove --all");
	return -EUCLEAN;
}

/* Unpin everything; 0, or an exit code when a pin stays or a link lives */
static int unpin_all(const __u32 *link_ids)
{
	int i, fd, tries, code = GRANT_EXIT_OK;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (unlink(hooks[i].pin) && errno != ENOENT)
			code = fail(GRANT_EXIT_FAIL, "unpinning %s: %s", hooks[i].pin,
				    strerror(errno));
	if (unlink(PIN_RULES) && errno != ENOENT)
		code = fail(GRANT_EXIT_FAIL, "unpinning " PIN_RULES ": %s",
			    strerror(errno));
	if (rmdir(PIN_DIR) && errno != ENOENT)
		code = fail(GRANT_EXIT_FAIL, "removing " PIN_DIR ": %s", strerror(errno));
	/* with the pins gone, a link that lives is held by another process */
	for (i = 0; link_ids && i < ARRAY_SIZE(hooks); i++) {
		for (tries = 0; tries < 50; tries++) {
			fd = bpf_link_get_fd_by_id(link_ids[i]);
			if (fd < 0)
				break;
			close(fd);
			usleep(10000);
		}
		if (fd >= 0)
			code = fail(GRANT_EXIT_FAIL, "the policy is still attached to "
				    "%s: a process holds its link (id %u); find it "
				    "with bpftool link", hooks[i].hook, link_ids[i]);
	}
	return code;
}

/* Load and attach the policy with @rule in it, and pin it */
static int install(__u64 id, const struct grant_rule *rule)
{
	struct bpf_link *links[ARRAY_SIZE(hooks)] = {};
	struct grant_policy *skel;
	int i, err, cpus, code = GRANT_EXIT_FAIL;

	cpus = libbpf_num_possible_cpus();
	if (cpus < 0)
		return fail(GRANT_EXIT_FAIL, "counting the possible CPUs: %s",
			    strerror(-cpus));
	skel = grant_policy__open();
	if (!skel)
		return fail(GRANT_EXIT_FAIL, "opening the policy: %s", strerror(errno));
	skel->rodata->nr_cpus = cpus;
	err = grant_policy__load(skel);
	if (err) {
		code = fail(err == -EPERM ? GRANT_EXIT_NO_CAP : GRANT_EXIT_FAIL,
			    "loading the policy: %s", strerror(-err));
		goto out;
	}
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.rules), &id, rule, BPF_ANY)) {
		fail(GRANT_EXIT_FAIL, "adding the rule: %s", strerror(errno));
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		links[i] = bpf_program__attach_lsm(hook_prog(skel, i));
		err = links[i] ? 0 : -errno;
		if (err == -EBUSY) {
			code = fail(GRANT_EXIT_HOOK_BUSY, "another BPF LSM program is "
				    "attached to %s, and a grant hook takes one: find "
				    "it with bpftool link, and detach it first",
				    hooks[i].hook);
			goto out;
		}
		if (err) {
			fail(GRANT_EXIT_FAIL, "attaching to %s: %s", hooks[i].hook,
			     strerror(-err));
			goto out;
		}
	}
	if (mkdir(PIN_DIR, 0700) && errno != EEXIST) {
		fail(GRANT_EXIT_FAIL, "mkdir " PIN_DIR ": %s", strerror(errno));
		goto out;
	}
	/* an empty directory left by a failed run is fine, if it is root's */
	if (check_pin_dir())
		goto out;
	err = bpf_map__pin(skel->maps.rules, PIN_RULES);
	for (i = 0; !err && i < ARRAY_SIZE(hooks); i++)
		err = bpf_link__pin(links[i], hooks[i].pin);
	if (err) {
		fail(GRANT_EXIT_FAIL, "pinning the policy in " PIN_DIR ": %s",
		     strerror(-err));
		unpin_all(NULL);
		goto out;
	}
	code = GRANT_EXIT_OK;
out:
	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		bpf_link__destroy(links[i]);
	grant_policy__destroy(skel);
	return code;
}

/* The cgroup file @dir/@name, up to @size - 1 bytes of it, in @buf: 0 or -errno */
static int read_cg_file(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX + 32];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = 0;
	return 0;
}

/*
 * What bounds the memory of the cgroup at the canonical path @real: the
 * smallest memory.max from it up to the cgroup v2 root (GRANT_NO_LIMIT
 * when each is "max"), in @bound. A cgroup without the memory controller
 * has no memory.max, and its tasks are charged to the nearest cgroup
 * above it that has one. Whether @real has one in @own. 0 or -errno.
 */
static int memory_bound(const char *real, __u64 *bound, bool *own)
{
	char *copy = strdup(real), *up = copy, text[32];
	struct stat st;
	__u64 limit;
	int err = 0;

	*bound = GRANT_NO_LIMIT;
	*own = false;
	if (!copy)
		return -ENOMEM;
	while (!err && strcmp(up, "/") && cgroup2_dir(up, &st) && st.st_ino != 1) {
		err = read_cg_file(up, "memory.max", text, sizeof(text));
		if (!err && grant_parse_memory_max(text, &limit))
			err = -EBADMSG;
		if (!err) {
			*bound = limit < *bound ? limit : *bound;
			*own |= !strcmp(up, real);
		}
		if (err == -ENOENT)
			err = 0;
		up = dirname(up);
	}
	free(copy);
	return err;
}

/*
 * A grantee's maps and BTF are kernel memory charged to its memory cgroup:
 * a cgroup that no memory.max bounds, on it or above it, gets a rule only
 * with --unbounded-memory (@unbounded). The bound in @bound.
 */
static int check_memory(const char *real, bool unbounded, __u64 *bound)
{
	char *parent;
	bool own;
	int err, code;

	err = memory_bound(real, bound, &own);
	if (err)
		return fail(GRANT_EXIT_FAIL, "reading the memory.max of %s and of "
			    "the cgroups above it: %s", real, err == -EBADMSG ?
			    "one holds neither a count nor max" : strerror(-err));
	if (*bound != GRANT_NO_LIMIT || unbounded)
		return GRANT_EXIT_OK;
	if (own)
		return fail(GRANT_EXIT_NO_MEMORY_BOUND, "%s has no memory bound: "
			    "memory.max is max on it and on every cgroup above it, "
			    "so nothing limits the kernel memory its maps and BTF "
			    "take; write a limit to %s/memory.max, or pass "
			    "--unbounded-memory", real, real);
	parent = strdup(real);
	code = fail(GRANT_EXIT_NO_MEMORY_BOUND, "%s has no memory bound: the "
		    "memory controller is not enabled for it (it has no "
		    "memory.max) and no cgroup above it has a limit; enable it in "
		    "the parent's cgroup.subtree_control (echo +memory > "
		    "%s/cgroup.subtree_control), then write a limit to "
		    "%s/memory.max, or pass --unbounded-memory", real,
		    parent ? dirname(parent) : "the parent", real);
	free(parent);
	return code;
}

/*
 * Where root's own tools pin by default under a BPF file system, as
 * iproute2 makes them (lib/bpf_legacy.c, bpf_gen_hierarchy()): tc/, with
 * the maps an object shares in globals/, and ip/ and xdp/ as symlinks to
 * it. ip and tc reuse a map pinned there of the shape their object
 * declares, whoever pinned it. libbpf pins by name at the top, which the
 * file system's own mode covers.
 */
static const char *const tool_dirs[] = {
	"tc", "tc/globals",	/* tc filter|action ... bpf obj */
	"ip", "ip/globals",	/* ip route ... encap bpf: a symlink to tc/ */
	"xdp", "xdp/globals",	/* ip link set ... xdp obj: a symlink to tc/ */
};

/*
 * Whether others can make names beside root's in the BPF file system
 * mounted at @mnt: its top is writable by others, or by a group not
 * root's, or a tool_dirs[] entry is not root's or (but for a symlink,
 * whose mode is 0777) is writable by group or others. 1 with what in
 * @path and @st, 0, or -errno when a path could not be looked at.
 */
static int open_to_others(const char *mnt, char *path, size_t size,
			  struct stat *st)
{
	int i;

	snprintf(path, size, "%s", mnt);
	if (lstat(path, st))
		return -errno;
	if ((st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid))
		return 1;
	for (i = 0; i < ARRAY_SIZE(tool_dirs); i++) {
		snprintf(path, size, "%s/%s", mnt, tool_dirs[i]);
		if (lstat(path, st)) {
			if (errno == ENOENT || errno == ENOTDIR)
				continue;
			return -errno;
		}
		if (st->st_uid || (!S_ISLNK(st->st_mode) && (st->st_mode & 022)))
			return 1;
	}
	return 0;
}

/*
 * A grantee that can make names in a BPF file system can pin maps of the
 * shapes root's objects declare, under the names they use, first: root's
 * ip and tc then reuse them, for the grantee to read and forge. Every BPF
 * file system mounted must be root's alone, unless --shared-bpffs
 * (@shared).
 */
static int check_bpffs(bool shared)
{
	char *line = NULL, mnt[PATH_MAX], path[PATH_MAX + 16];
	int err = 0, found = 0;
	struct stat st;
	size_t len = 0;
	bool bpf;
	FILE *f;

	if (shared)
		return GRANT_EXIT_OK;
	f = fopen(MOUNTINFO, "re");
	if (!f)
		return fail(GRANT_EXIT_FAIL, "reading " MOUNTINFO ": %s", strerror(errno));
	while (!err && !found && getline(&line, &len, f) > 0) {
		err = grant_parse_mountinfo(line, mnt, sizeof(mnt), &bpf);
		if (!err && bpf)
			found = open_to_others(mnt, path, sizeof(path), &st);
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	if (err || found < 0)
		return fail(GRANT_EXIT_FAIL, "%s: %s", err ? MOUNTINFO : path,
			    strerror(err ? -err : -found));
	if (!found)
		return GRANT_EXIT_OK;
	return fail(GRANT_EXIT_SHARED_BPFFS, "%s is %smode %04o, owner uid %u "
		    "gid %u: a grantee could make names there before root's tools "
		    "(ip, tc, libbpf) and pin maps under them, which those tools "
		    "reuse, whoever pinned them, so it would read and forge their "
		    "maps. Make the BPF file system root's alone: chmod 0700 %s "
		    "(as systemd mounts it) or mount -o remount,mode=0700 %s, "
		    "remove what others made in it, and give each grantee a "
		    "directory of its own (mkdir %s/NAME; chown UID %s/NAME; "
		    "bind-mount it onto /sys/fs/bpf in its container); or pass "
		    "--shared-bpffs", path, S_ISLNK(st.st_mode) ? "a symlink, " : "",
		    st.st_mode & 07777, st.st_uid, st.st_gid, mnt, mnt, mnt, mnt);
}

/* A memory figure for list and add, into @buf: bytes, or "max" */
static const char *memory_figure(__u64 bytes, char *buf, size_t size)
{
	if (bytes == GRANT_NO_LIMIT)
		snprintf(buf, size, "max");
	else
		snprintf(buf, size, "%llu", (unsigned long long)bytes);
	return buf;
}

/* The names of the types in @types, comma-separated, into @buf */
static const char *type_names(__u64 types, bool progs, char *buf, size_t size)
{
	size_t len = 0;
	int t;

	buf[0] = 0;
	for (t = 1; t < 64 && len < size; t++) {
		if (!((types >> t) & 1))
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? "," : "",
				progs ? libbpf_bpf_prog_type_str(t) :
					libbpf_bpf_map_type_str(t));
	}
	return len ? buf : "-";
}

/* What add granted, and which of it makes the cgroup's tasks root */
static void print_rule(__u64 id, const struct grant_rule *rule, __u64 bound)
{
	char maps[1024], progs[1024], figure[32];
	int off = -1;
	FILE *f;

	printf("granted to %s (cgroup %llu):\n  map types: %s\n"
	       "  program types: %s\n  largest BTF: %llu bytes\n", rule->path,
	       (unsigned long long)id,
	       type_names(rule->map_types, false, maps, sizeof(maps)),
	       type_names(rule->prog_types, true, progs, sizeof(progs)),
	       (unsigned long long)rule->max_btf_bytes);
	if (rule->max_map_bytes)
		printf("  largest map: %llu bytes\n",
		       (unsigned long long)rule->max_map_bytes);
	if (rule->grant_all_types)
		printf("  as strong as root through: %s (named, so granted)\n",
		       type_names(rule->grant_all_types, true, progs, sizeof(progs)));
	printf("  memory bound: %s%s\n", memory_figure(bound, figure, sizeof(figure)),
	       bound == GRANT_NO_LIMIT ? " (--unbounded-memory: no memory.max "
	       "bounds its maps and BTF)" : " bytes (memory.max)");
	f = fopen(GRANT_SYSCTL, "r");
	if (f) {
		if (fscanf(f, "%d", &off) == 1 && off)
			printf("  but kernel.lsm_grant_disabled is %d: the kernel "
			       "ignores every grant while it is not 0\n", off);
		fclose(f);
	}
}

static int cmd_add(const char *path, const char *map_list, const char *prog_list,
		   __u64 max_map_bytes, __u64 max_btf_bytes, bool unbounded,
		   bool shared)
{
	struct grant_rule rule = {
		.max_map_bytes = max_map_bytes,
		.max_btf_bytes = max_btf_bytes ? max_btf_bytes : DEFAULT_MAX_BTF,
	};
	__u32 link_ids[ARRAY_SIZE(hooks)];
	char real[PATH_MAX];
	__u64 id, named, bound;
	int code, fd;

	rule.map_types = types_of(default_map_types,
				  ARRAY_SIZE(default_map_types));
	if (map_list && (code = parse_types(map_list, false, &rule.map_types)))
		return code;
	rule.prog_types = types_of(default_prog_types,
				   ARRAY_SIZE(default_prog_types));
	if (prog_list) {
		if ((code = parse_types(prog_list, true, &named)))
			return code;
		rule.prog_types = named;
		rule.grant_all_types = named & root_equiv_types();
	}
	if ((code = cgroup_at(path, &id, real)))
		return code;
	/* cgroup_at() refused a path longer than rule.path keeps */
	if ((size_t)snprintf(rule.path, sizeof(rule.path), "%s", real) >=
	    sizeof(rule.path))
		return fail(GRANT_EXIT_USAGE, "%s: a path too long to keep", real);
	if ((code = check_admin()) || (code = check_kernel()) ||
	    (code = check_types(&rule)) ||
	    (code = check_memory(real, unbounded, &bound)) ||
	    (code = check_bpffs(shared)) || (code = lock_tool()))
		return code;
	fd = open_rules(link_ids);
	if (fd == -EUCLEAN)
		return GRANT_EXIT_FAIL;
	if (fd == -ENOENT) {
		code = install(id, &rule);
	} else {
		code = check_nesting(fd, id, real, &rule);
		if (!code && bpf_map_update_elem(fd, &id, &rule, BPF_ANY))
			code = fail(GRANT_EXIT_FAIL, "adding the rule: %s%s",
				    strerror(errno), errno == E2BIG ?
				    " (the policy holds 64 cgroups)" : "");
		close(fd);
	}
	if (!code)
		print_rule(id, &rule, bound);
	return code;
}

/*
 * The memory bound of the cgroup at @path and its memory.current, as list
 * prints them: "-" for what cannot be read (no memory controller there)
 */
static void print_memory(const char *path)
{
	char bound[32] = "-", current[32] = "-", text[32];
	__u64 bytes;
	bool own;

	if (!memory_bound(path, &bytes, &own))
		memory_figure(bytes, bound, sizeof(bound));
	if (!read_cg_file(path, "memory.current", text, sizeof(text)) &&
	    !grant_parse_memory_max(text, &bytes) && bytes != GRANT_NO_LIMIT)
		memory_figure(bytes, current, sizeof(current));
	printf("\t%s\t%s\n", bound, current);
}

static int cmd_list(void)
{
	__u32 link_ids[ARRAY_SIZE(hooks)];
	char maps[1024], progs[1024];
	__u64 key, next, *prev = NULL;
	struct grant_rule rule;
	struct stat st;
	int fd, code;
	bool ok;

	if ((code = check_admin()) || (code = check_kernel()) ||
	    (code = lock_tool()))
		return code;
	fd = open_rules(link_ids);
	if (fd == -ENOENT)
		return GRANT_EXIT_OK;
	if (fd < 0)
		return GRANT_EXIT_FAIL;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &rule))
			continue;
		rule.path[GRANT_PATH_MAX - 1] = 0;
		ok = cgroup2_dir(rule.path, &st) && st.st_ino == key;
		printf("%s\t%llu\t%s\t%s\t%llu\t%llu\t%s", rule.path,
		       (unsigned long long)key,
		       type_names(rule.map_types, false, maps, sizeof(maps)),
		       type_names(rule.prog_types, true, progs, sizeof(progs)),
		       (unsigned long long)rule.max_map_bytes,
		       (unsigned long long)rule.max_btf_bytes, ok ? "ok" : "gone");
		if (ok)
			print_memory(rule.path);
		else
			printf("\t-\t-\n");
	}
	close(fd);
	return GRANT_EXIT_OK;
}

/*
 * What remove @path matches: the cgroup v2 at @path, by its id (in @id,
 * its canonical path in @real), or when nothing is there (the cgroup is
 * gone; @id 0) the path a rule lists. A path on another file system is
 * refused: its inode number is no cgroup's id.
 */
static int rule_target(const char *path, char *real, __u64 *id)
{
	struct stat st;

	*id = 0;
	if (!realpath(path, real))
		return GRANT_EXIT_OK;
	if (!cgroup2_dir(real, &st))
		return fail(GRANT_EXIT_NO_CGROUP, "%s is not a cgroup v2 directory: "
			    "remove takes a cgroup's path, as bpf-grant list "
			    "prints it", path);
	*id = st.st_ino;
	return GRANT_EXIT_OK;
}

/* Whether @rule, of the cgroup of id @key, is that of the cgroup of id @id
 * or lists the path @name
 */
static bool rule_matches(struct grant_rule *rule, __u64 key, __u64 id,
			 const char *name)
{
	rule->path[GRANT_PATH_MAX - 1] = 0;
	return (id && key == id) || !strcmp(rule->path, name);
}

/* Remove the rule of @path (by its cgroup id, or by the path listed), or
 * with @all the whole policy
 */
static int cmd_remove(const char *path, bool all)
{
	__u32 link_ids[ARRAY_SIZE(hooks)];
	char real[PATH_MAX];
	const char *name = path;
	struct grant_rule rule;
	__u64 cur, prev, id = 0;
	bool has_prev = false;
	int fd, code, found = 0;

	if (!all && (code = rule_target(path, real, &id)))
		return code;
	if (id)
		name = real;
	if ((code = check_admin()) || (code = lock_tool()))
		return code;
	fd = open_rules(link_ids);
	if (all) {
		/* what is pinned goes, policy or not, if the directory is root's */
		if (fd == -EUCLEAN && check_pin_dir())
			return GRANT_EXIT_FAIL;
		if (fd >= 0)
			close(fd);
		return fd == -ENOENT ? GRANT_EXIT_OK :
			unpin_all(fd >= 0 ? link_ids : NULL);
	}
	if (fd == -ENOENT)
		return fail(GRANT_EXIT_NO_RULE, "no rule for %s: no policy is installed",
			    path);
	if (fd < 0)
		return GRANT_EXIT_FAIL;
	while (!bpf_map_get_next_key(fd, has_prev ? &prev : NULL, &cur)) {
		if (!bpf_map_lookup_elem(fd, &cur, &rule) &&
		    rule_matches(&rule, cur, id, name) &&
		    !bpf_map_delete_elem(fd, &cur)) {
			found++;
			continue;	/* the key after @prev is the next one now */
		}
		prev = cur;
		has_prev = true;
	}
	code = GRANT_EXIT_OK;
	if (!found)
		code = fail(GRANT_EXIT_NO_RULE, "no rule for %s (see bpf-grant list)",
			    path);
	/* Without rules the policy only costs: take it out */
	else if (bpf_map_get_next_key(fd, NULL, &cur))
		code = -1;
	close(fd);
	return code < 0 ? unpin_all(link_ids) : code;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "map-types", required_argument, NULL, 'm' },
		{ "prog-types", required_argument, NULL, 'p' },
		{ "max-map-bytes", required_argument, NULL, 's' },
		{ "max-btf-bytes", required_argument, NULL, 'b' },
		{ "unbounded-memory", no_argument, NULL, 'u' },
		{ "shared-bpffs", no_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *map_list = NULL, *prog_list = NULL, *cmd;
	__u64 max_map_bytes = 0, max_btf_bytes = 0;
	bool all = false, unbounded = false, shared = false, limits;
	int c, code;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map_list = optarg;
			break;
		case 'p':
			prog_list = optarg;
			break;
		case 's':
			if ((code = parse_bytes("--max-map-bytes", optarg,
						GRANT_MAX_MAP_BYTES, &max_map_bytes)))
				return code;
			break;
		case 'b':
			if ((code = parse_bytes("--max-btf-bytes", optarg,
						GRANT_MAX_BTF_BYTES, &max_btf_bytes)))
				return code;
			break;
		case 'u':
			unbounded = true;
			break;
		case 'f':
			shared = true;
			break;
		case 'a':
			all = true;
			break;
		case 'h':
			help();
			return GRANT_EXIT_OK;
		default:
			return usage_error();
		}
	}
	cmd = optind < argc ? argv[optind++] : "";
	limits = map_list || prog_list || max_map_bytes || max_btf_bytes ||
		 unbounded || shared;
	libbpf_set_print(libbpf_warnings);
	if (optind < argc && (code = check_path(argv[optind])))
		return code;
	if (!strcmp(cmd, "add") && optind == argc - 1 && !all)
		return cmd_add(argv[optind], map_list, prog_list, max_map_bytes,
			       max_btf_bytes, unbounded, shared);
	if (!strcmp(cmd, "list") && optind == argc && !all && !limits)
		return cmd_list();
	if (!strcmp(cmd, "remove") && optind == argc - !all && !limits)
		return cmd_remove(all ? NULL : argv[optind], all);
	return usage_error();
}
