// SPDX-License-Identifier: GPL-2.0
/*
 * verdict - decide PASS/FAIL from a QEMU serial console log that holds
 * kernel messages and the KTAP (version 1) output of the initramfs init.
 *
 * Usage: verdict [--splats FILE] [--ktap OUT.ktap] [--junit OUT.xml] [--json OUT.json] LOG
 *        verdict [--splats FILE] --match LOG
 * Exit status: 0 PASS, 1 FAIL, 2 usage or I/O error. With --match, no
 * verdict: for each line of LOG, the splats rule it matches ("-": none),
 * a line each; exit 0, or 2. tools/upstream/upstream_results.py reads the kernel
 * logs of make upstream-selftests this way, so that ci/splats has one
 * reader.
 *
 * The log is untrusted: lines of any length, NUL bytes, CRLF and binary
 * garbage are accepted; stored text is truncated to MAX_TEXT bytes.
 *
 * Dialects: the document starts at the first unindented version line,
 * "KTAP version 1", "TAP version 13" or "TAP version 14" (kselftest), and
 * nested blocks start with a version line or TAP 14's "# Subtest:" line.
 * A printk prefix ("[    1.234567] ", also with PRINTK_CALLER's
 * "[    T1]") is not part of the line, so KUnit's KTAP is read as printed.
 * The --ktap file holds what was read as plain KTAP version 1, four
 * spaces a level.
 *
 * Control bytes: a carriage return ends a line, as on a terminal; control
 * bytes and escape sequences at the start of a line are dropped, so that
 * neither hides the result line after them.
 *
 * Indentation: the spec indents by two spaces a level, KUnit by four,
 * some tests by tabs (a tab goes to the next multiple of 8 columns, as a
 * terminal shows it). So no unit is assumed: each open block keeps the
 * column its lines start at. A line indented as an open block belongs to
 * it. A version or "# Subtest:" line indented deeper than a block opens a
 * block inside it, at its own column (so a two-space block may sit in a
 * four-space one). A plan or result line indented deeper than the
 * innermost block opens blocks too, one per step of that block's own
 * indentation (at the top level, where there is none yet, one), so that a
 * nested result without a header is not lost. Any other line, such as a
 * result line indented between two open blocks or by part of a step, is
 * an unknown line, as the spec calls kernel messages that land between
 * test output: it counts for nothing. Mixed indentation within one block
 * is read this way too: a line belongs to a block only at its column.
 *
 * Kernel reports: the rules of the splats file (ci/splats.c reads and
 * matches them) name the console lines that are kernel reports; the
 * first report fails the run with the name of its rule, and a panic
 * outranks the others.
 *
 * The runner's own line: a test binary run with a subtest filter that
 * matches none of its subtests says "# no subtest named 'NAME'"
 * (initramfs/runner/test_progs.c); results.json gives that test
 * "no_such_subtest": "NAME", so that no reader of results.json has to
 * match the runner's wording.
 *
 * The harness's own lines: ci/boot.sh ends the log with a line starting
 * "ci-boot: " when it killed QEMU ("ci-boot: timeout: ...", a hang) or
 * QEMU failed ("boot failed"); either fails the run.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include "splats.h"

#define MAX_TEXT	512	/* bytes kept of any stored line */
#define MAX_DIAGS	32	/* diagnostic lines kept per test */
#define MAX_DEPTH	64	/* deeper KTAP lines fail the run */
#define MAX_NODES	100000	/* results accepted before giving up */
#define CTX_LINES	12	/* console lines kept for context */
#define MAX_NAMES	8	/* failed tests named in the verdict */
#define PATH_LEN	1024
#define MAX_WIDTH	100000	/* columns of indentation counted */
#define TAB_STOP	8
#define REASON_LEN	8192
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NO_RESULT	"no result line, crashed or hung?"
#define SPLATS_FILE	"ci/splats"
#define BOOT_PREFIX	"ci-boot: "	/* lines ci/boot.sh adds to the log */
#define BOOT_TIMEOUT	"ci-boot: timeout"
#define NO_SUBTEST	"# no subtest named '"	/* the runner's, on a filter */

enum status { ST_NONE, ST_OK, ST_FAIL, ST_SKIP };
enum kind { K_LOG, K_VERSION, K_PLAN, K_RESULT, K_SUBTEST, K_DIAG };
enum { CTX_PANIC, CTX_OOPS, CTX_HANG, CTX_TAIL, NR_CTX };

struct node {
	struct node *parent;
	struct node **kids;
	size_t nkids, cap;
	char *name, *skip;
	char *diag[MAX_DIAGS];
	size_t ndiag;		/* diagnostic lines seen, maybe > MAX_DIAGS */
	double seconds;		/* its "# seconds: S" line's S; -1: none */
	long num, plan;
	int nplan;
	enum status status;
	bool has_version, has_header, unfinished;
};

struct kline {
	enum kind kind;
	int depth, width;	/* width: columns of indentation */
	long num;
	bool ok;
	const char *text, *skip;
	const char *note;	/* "# ..." after a result, but SKIP */
	size_t len;
};

struct ctx {
	char *line[CTX_LINES];
	size_t n;		/* lines pushed; a ring for CTX_TAIL */
	int want;		/* lines still to capture */
};

struct state {
	struct node root;
	struct node *parent[MAX_DEPTH + 1];
	struct node *pending[MAX_DEPTH + 1];
	int indent[MAX_DEPTH + 1];	/* column of each open level */
	struct node *last;
	struct ctx ctx[NR_CTX];
	const char *splat[NR_CTX];	/* rule that filled ctx[i] */
	const struct splats *splats;
	int top;
	bool in_ktap, second_doc, too_many, too_deep;
	size_t nnodes;
	FILE *ktap;
	char *held;		/* user text a kernel record cut short */
	size_t held_len;
};

#define __printf(a, b)	__attribute__((format(printf, a, b)))

__printf(3, 4)
static void addf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static char *dup_text(const char *s, size_t len)
{
	return strndup(s, len > MAX_TEXT ? MAX_TEXT : len);
}

static struct node *new_node(struct state *st, struct node *parent)
{
	struct node *n;

	if (st->nnodes >= MAX_NODES) {
		st->too_many = true;
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	st->nnodes++;
	n->parent = parent;
	n->plan = -1;
	n->seconds = -1;
	return n;
}

static void release_node(struct node *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		release_node(n->kids[i]);
		free(n->kids[i]);
	}
	for (i = 0; i < n->ndiag && i < MAX_DIAGS; i++)
		free(n->diag[i]);
	free(n->kids);
	free(n->name);
	free(n->skip);
}

static void free_node(struct node *n)
{
	release_node(n);
	free(n);
}

/* Takes ownership of @n, also on failure. */
static int add_kid(struct node *p, struct node *n)
{
	struct node **kids = p->kids;

	if (p->nkids == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		kids = realloc(p->kids, p->cap * sizeof(*kids));
		if (!kids) {
			free_node(n);
			return -ENOMEM;
		}
		p->kids = kids;
	}
	kids[p->nkids++] = n;
	return 0;
}

static int nomem(const struct state *st)
{
	return st->too_many ? 0 : -ENOMEM;
}

/* The test whose result line comes next at depth @d. */
static struct node *pending(struct state *st, int d)
{
	if (!st->pending[d])
		st->pending[d] = new_node(st, st->parent[d]);
	return st->pending[d];
}

/* The runner's last diagnostic of a subtest, its time in the guest: kept
 * apart, as "seconds", so that MAX_DIAGS never drops it
 */
#define SECONDS_DIAG	"# seconds: "

static int node_diag(struct node *n, const char *text, size_t len)
{
	size_t pre = strlen(SECONDS_DIAG);

	if (len > pre && len < 32 && !strncmp(text, SECONDS_DIAG, pre)) {
		char num[32], *end;
		double v;

		memcpy(num, text + pre, len - pre);
		num[len - pre] = '\0';
		errno = 0;
		v = strtod(num, &end);
		/* console text: inf or 1e999 would make the JSON invalid */
		if (end != num && !*end && !errno && isfinite(v) && v >= 0 && v < 1e7) {
			n->seconds = v;
			return 0;
		}
	}
	if (n->ndiag < MAX_DIAGS) {
		n->diag[n->ndiag] = dup_text(text, len);
		if (!n->diag[n->ndiag])
			return -ENOMEM;
	}
	n->ndiag++;
	return 0;
}

/* A started test that never got its result is kept as unfinished. */
static int drop_pending(struct state *st, int d)
{
	struct node *n = st->pending[d];
	char name[48];

	st->pending[d] = NULL;
	if (!n)
		return 0;
	if (!n->has_version && !n->has_header && !n->nkids) {
		/*
		 * Only diagnostics after a block's last result, e.g. a
		 * runner's "# no subtest named 'x'": they belong to the test
		 * whose block this is (make bisect reads them in results.json).
		 */
		size_t i;
		int err = 0;

		for (i = 0; d > 0 && i < n->ndiag && i < MAX_DIAGS && !err; i++)
			err = node_diag(st->parent[d], n->diag[i],
					strlen(n->diag[i]));
		free_node(n);
		return err;
	}
	n->unfinished = true;
	if (!n->name) {
		snprintf(name, sizeof(name), "test %zu",
			 st->parent[d]->nkids + 1);
		n->name = strdup(name);
		if (!n->name) {
			free_node(n);
			return -ENOMEM;
		}
	}
	return add_kid(st->parent[d], n);
}

static int close_levels(struct state *st, int d)
{
	int err = 0;

	for (; st->top > d; st->top--)
		err = err ? err : drop_pending(st, st->top);
	return err;
}

/*
 * Open levels down to @d, which starts at column @w; the levels between
 * take even steps.
 */
static int open_levels(struct state *st, int d, int w)
{
	int base = st->top, from = st->indent[base];
	struct node *p;

	while (st->top < d) {
		p = pending(st, st->top);
		if (!p)
			return nomem(st);
		st->top++;
		st->parent[st->top] = p;
		st->pending[st->top] = NULL;
		st->indent[st->top] = from + (w - from) * (st->top - base) /
				      (d - base);
	}
	return 0;
}

static int block_start(struct state *st, const struct kline *k)
{
	struct node *p = st->parent[k->depth];
	bool seen = k->kind == K_VERSION ? p->has_version : p->has_header;
	int err;

	if (seen || p->nkids) {
		/* a new block at this depth: the previous test never ended */
		err = close_levels(st, k->depth - 1);
		err = err ? err : drop_pending(st, k->depth - 1);
		err = err ? err : open_levels(st, k->depth, k->width);
		if (err || st->too_many)
			return err;
		p = st->parent[k->depth];
	}
	if (k->kind == K_VERSION) {
		p->has_version = true;
		return 0;
	}
	p->has_header = true;
	if (!p->name && k->len)
		p->name = dup_text(k->text, k->len);
	return p->name || !k->len ? 0 : -ENOMEM;
}

static int add_result(struct state *st, const struct kline *k)
{
	struct node *n = pending(st, k->depth);
	char num[32];

	if (!n)
		return nomem(st);
	st->pending[k->depth] = NULL;
	n->num = k->num;
	n->status = k->skip ? ST_SKIP : k->ok ? ST_OK : ST_FAIL;
	if (k->len || !n->name) {
		snprintf(num, sizeof(num), "test %ld", k->num);
		free(n->name);
		n->name = k->len ? dup_text(k->text, k->len) : strdup(num);
	}
	if (k->skip)
		n->skip = dup_text(k->skip, strlen(k->skip));
	if (!n->name || (k->skip && !n->skip) ||
	    (k->note && node_diag(n, k->note, strlen(k->note)))) {
		free_node(n);
		return -ENOMEM;
	}
	st->last = n;
	return add_kid(st->parent[k->depth], n);
}

static int add_diag(struct state *st, const struct kline *k)
{
	struct node *n = pending(st, k->depth);

	if (!n)
		return nomem(st);
	return node_diag(n, k->text, k->len);
}

static bool is_header(const struct kline *k)
{
	return k->kind == K_VERSION || k->kind == K_SUBTEST;
}

/*
 * The level of @k by its indentation (see the comment at the top), or -1
 * for an unknown line. May exceed MAX_DEPTH.
 */
static int find_depth(const struct state *st, const struct kline *k)
{
	int d = st->top, extra, step;

	while (d > 0 && st->indent[d] > k->width)
		d--;
	if (st->indent[d] == k->width)
		return d;
	if (is_header(k))
		return d + 1;
	if (d < st->top || k->kind == K_DIAG)
		return -1;
	extra = k->width - st->indent[d];
	step = d ? st->indent[d] - st->indent[d - 1] : extra;
	return extra % step ? -1 : d + extra / step;
}

/* The line as plain KTAP, four spaces a level, for --ktap */
static void write_ktap(const struct state *st, const struct kline *k,
		       const char *text)
{
	if (!st->ktap)
		return;
	if (k->kind == K_VERSION)
		text = "KTAP version 1";
	fprintf(st->ktap, "%*s%s\n", 4 * k->depth, "", text);
}

static int ktap_line(struct state *st, struct kline *k, const char *text)
{
	struct node *p;
	int err;

	k->depth = find_depth(st, k);
	if (k->depth < 0)
		return 0;	/* an unknown line */
	if (k->depth > MAX_DEPTH) {
		st->too_deep = true;
		return 0;
	}
	write_ktap(st, k, text);
	if (k->kind == K_VERSION && !k->depth) {
		st->second_doc = true;
		return 0;
	}
	if (k->kind == K_SUBTEST && !k->depth)
		k->kind = K_DIAG;
	if (st->too_many)
		return 0;
	if (k->depth > st->top) {
		err = open_levels(st, k->depth, k->width);
	} else {
		err = close_levels(st, k->depth);
		/* a header between two open levels moves the inner one */
		if (is_header(k))
			st->indent[k->depth] = k->width;
	}
	if (err || st->too_many)
		return err;
	p = st->parent[k->depth];
	switch (k->kind) {
	case K_VERSION:
	case K_SUBTEST:
		return block_start(st, k);
	case K_PLAN:
		if (!p->nplan++)
			p->plan = k->num;
		return 0;
	case K_RESULT:
		return add_result(st, k);
	default:
		return add_diag(st, k);
	}
}

/* Parse decimal digits at *s; saturates instead of overflowing. */
static bool parse_num(const char **s, long *num)
{
	const char *p = *s;

	*num = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if (*num < 1000000000L)
			*num = *num * 10 + (*p - '0');
	if (p == *s)
		return false;
	*s = p;
	return true;
}

static bool parse_plan(const char *s, struct kline *k)
{
	if (strncmp(s, "1..", 3))
		return false;
	s += 3;
	return parse_num(&s, &k->num) && (!*s || *s == ' ' || *s == '#');
}

static bool parse_result(const char *s, struct kline *k)
{
	const char *hash, *d;

	k->ok = strncmp(s, "not ", 4);
	if (!k->ok)
		s += 4;
	if (strncmp(s, "ok ", 3))
		return false;
	s += 3;
	if (!parse_num(&s, &k->num) || (*s && *s != ' '))
		return false;
	s += strspn(s, " ");
	if (!strncmp(s, "- ", 2))
		s += 2;
	k->text = s;
	k->len = strlen(s);
	k->skip = NULL;
	hash = strchr(s, '#');
	if (!hash)
		return true;
	/* a description ends at '#': a directive or diagnostic data follow */
	for (k->len = hash - s; k->len && s[k->len - 1] == ' ';)
		k->len--;
	d = hash + 1 + strspn(hash + 1, " ");
	if (strncasecmp(d, "SKIP", 4) || (d[4] && d[4] != ' '))
		k->note = *d ? hash : NULL;
	else
		k->skip = d + 4 + strspn(d + 4, " ");
	return true;
}

/* Columns of the blanks at *s, which it moves past them. */
static int indentation(const char **s)
{
	const char *p = *s;
	int w = 0;

	for (; *p == ' ' || *p == '\t'; p++)
		if (w < MAX_WIDTH)
			w = *p == ' ' ? w + 1 : (w / TAB_STOP + 1) * TAB_STOP;
	*s = p;
	return w;
}

static bool is_version(const char *s)
{
	return !strcmp(s, "KTAP version 1") || !strcmp(s, "TAP version 13") ||
	       !strcmp(s, "TAP version 14");
}

/* Returns where the line's text starts, after its indentation. */
static const char *classify(const char *line, struct kline *k)
{
	const char *s = line;

	memset(k, 0, sizeof(*k));
	k->width = indentation(&s);
	if (is_version(s))
		k->kind = K_VERSION;
	else if (parse_plan(s, k))
		k->kind = K_PLAN;
	else if (parse_result(s, k))
		k->kind = K_RESULT;
	else if (!strncmp(s, "# Subtest:", 10))
		k->kind = K_SUBTEST;
	else if (*s == '#')
		k->kind = K_DIAG;
	if (k->kind == K_SUBTEST)
		s += 10 + strspn(s + 10, " ");
	if (k->kind == K_SUBTEST || k->kind == K_DIAG) {
		k->text = s;
		k->len = strlen(s);
	}
	return line + strspn(line, " \t");
}

static int ctx_push(struct ctx *c, const char *line)
{
	char *copy = dup_text(line, strlen(line));

	if (!copy)
		return -ENOMEM;
	free(c->line[c->n % CTX_LINES]);
	c->line[c->n++ % CTX_LINES] = copy;
	return 0;
}

static size_t ctx_count(const struct ctx *c)
{
	return c->n < CTX_LINES ? c->n : CTX_LINES;
}

static const char *ctx_get(const struct ctx *c, size_t i)
{
	return c->line[(c->n - ctx_count(c) + i) % CTX_LINES];
}

static int match_console(const struct state *st, const char *line,
			 const char **at, const char **name)
{
	const struct rule *r = st->splats ? find_splat(st->splats, line, at) :
				NULL;

	if (r) {
		*name = r->name;
		return strcmp(r->name, "panic") ? CTX_OOPS : CTX_PANIC;
	}
	*at = line;
	*name = "hang";
	/* ci/boot.sh's own report: a timeout, or QEMU that failed */
	return strncmp(line, BOOT_PREFIX, strlen(BOOT_PREFIX)) ? -1 : CTX_HANG;
}

/* Keep the first panic/report/hang line and what follows, and the tail. */
static int scan_console(struct state *st, const char *line)
{
	const char *at, *name;
	int id = match_console(st, line, &at, &name), i, err;

	for (i = 0; i < CTX_TAIL; i++) {
		if (!st->ctx[i].want)
			continue;
		st->ctx[i].want--;
		err = ctx_push(&st->ctx[i], line);
		if (err)
			return err;
	}
	if (id >= 0 && !st->ctx[id].n) {
		/* a long line is stored truncated: keep the match in it */
		err = ctx_push(&st->ctx[id], at - line > MAX_TEXT / 2 ? at : line);
		if (err)
			return err;
		st->ctx[id].want = CTX_LINES - 1;
		st->splat[id] = name;
	}
	return ctx_push(&st->ctx[CTX_TAIL], line);
}

static bool is_ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

/*
 * Past the control bytes and escape sequences at the start of @s: the
 * terminal shows none of them, so neither may the parser see them.
 */
static char *skip_ctl(char *s, const char *end)
{
	for (;;) {
		if (s[0] == 0x1b && s[1] == '[') {
			/* CSI: parameters and intermediates, one final byte */
			for (s += 2; *s >= 0x20 && *s <= 0x3f; s++)
				;
			if (*s >= 0x40 && *s <= 0x7e)
				s++;
		} else if (s[0] == 0x1b && s[1] >= 0x40 && s[1] <= 0x5f) {
			s += 2;
		} else if (s < end && is_ctl(*s)) {
			s++;
		} else {
			return s;
		}
	}
}

/* Past "[ 12.345]" at @s, or "[ T12]" for @lead 'T', or NULL */
static const char *stamp(const char *s, char lead)
{
	if (*s++ != '[')
		return NULL;
	s += strspn(s, " ");
	if (lead && *s++ != lead)
		return NULL;
	if (*s < '0' || *s > '9')
		return NULL;
	s += strspn(s, "0123456789");
	if (*s == '.')
		s += 1 + strspn(s + 1, "0123456789");
	return *s == ']' ? s + 1 : NULL;
}

/* Past "[    1.234567] " at the start, or PRINTK_CALLER's "[...][  T1] " */
static const char *skip_printk(const char *s)
{
	const char *p = stamp(s, 0), *q;

	if (!p)
		return s;
	q = stamp(p, 'T');
	q = q ? q : stamp(p, 'C');
	p = q ? q : p;
	return *p == ' ' ? p + 1 : p;
}

/* One line, with no line end and no NUL byte in it. */
static int handle_line(struct state *st, char *line)
{
	const char *text;
	struct kline k;
	int err;

	err = scan_console(st, line);
	if (err)
		return err;
	text = classify(skip_printk(line), &k);
	if (k.kind == K_LOG)
		return 0;
	if (!st->in_ktap && (k.kind != K_VERSION || k.width))
		return 0;	/* boot log */
	if (!st->in_ktap) {
		st->in_ktap = true;
		write_ktap(st, &k, text);
		return 0;
	}
	return ktap_line(st, &k, text);
}

/*
 * A record as the console prints it with printk.time=1: "[%5lu.%06lu]".
 * Looser brackets ("[1]", "[0.5]") are user text.
 */
static bool is_record(const char *s)
{
	const char *p = s + 1 + strspn(s + 1, " ");
	size_t w = strspn(p, "0123456789");

	if (*s != '[' || !w || p + w - s - 1 < 5 || p[w] != '.')
		return false;
	p += w + 1;
	return strspn(p, "0123456789") == 6 && p[6] == ']';
}

static int hold(struct state *st, const char *s, size_t len)
{
	char *p = realloc(st->held, st->held_len + len + 1);

	if (!p)
		return -ENOMEM;
	memcpy(p + st->held_len, s, len);
	st->held = p;
	st->held_len += len;
	p[st->held_len] = '\0';
	return 0;
}

static int handle_held(struct state *st, const char *s)
{
	int err = hold(st, s, strlen(s));

	st->held_len = 0;
	return err ? err : handle_line(st, st->held);
}

/*
 * The kernel prints each record whole, but may print it in the middle of a
 * line that user space is writing: the UART sends user output from its
 * buffer while another CPU prints. Read the record as a line of its own
 * and put the user's line together again from its pieces.
 */
static int unsplit(struct state *st, char *s)
{
	char *rec;

	if (is_record(s))
		return handle_line(st, s);
	for (rec = strchr(s, '['); rec && !is_record(rec);
	     rec = strchr(rec + 1, '['))
		;
	if (rec) {
		int err = hold(st, s, rec - s);

		return err ? err : handle_line(st, rec);
	}
	return st->held_len ? handle_held(st, s) : handle_line(st, s);
}

/* A piece of a line between carriage returns */
static int handle_piece(struct state *st, char *s, size_t len)
{
	char *end, *p;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	end = s + len;
	*end = '\0';
	s = skip_ctl(s, end);
	/* the others, NUL bytes too, become visible */
	for (p = s; p < end; p++)
		if (is_ctl(*p))
			*p = '?';
	return unsplit(st, s);
}

/*
 * Strip the line end and trailing blanks; a carriage return in the line
 * ends a line too, as on a terminal, so that a result after one is read.
 */
static int handle_raw(struct state *st, char *line, size_t len)
{
	char *cr;
	int err;

	while (len && strchr("\r\n \t", line[len - 1]) && line[len - 1])
		len--;
	cr = memchr(line, '\r', len);
	if (!cr)
		return handle_piece(st, line, len);
	do {
		if (cr > line) {
			err = handle_piece(st, line, cr - line);
			if (err)
				return err;
		}
		len -= cr + 1 - line;
		line = cr + 1;
		cr = memchr(line, '\r', len);
	} while (cr);
	return len ? handle_piece(st, line, len) : 0;
}

static int read_log(struct state *st, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	do {
		errno = 0;
		len = getline(&line, &cap, f);
		if (len >= 0)
			err = handle_raw(st, line, len);
	} while (!err && len >= 0);
	if (!err && (ferror(f) || errno == ENOMEM))
		err = errno ? -errno : -EIO;
	free(line);
	if (!err && st->held_len)
		err = handle_held(st, "");
	for (; st->top >= 0; st->top--)
		err = err ? err : drop_pending(st, st->top);
	return err;
}

static bool bad(const struct node *n)
{
	return n->status == ST_FAIL || n->unfinished;
}

/*
 * Call @fn for every test case: each leaf, and each failed parent none
 * of whose descendants failed. Returns the failed cases in the subtree.
 */
static size_t walk_cases(const struct node *n,
			 void (*fn)(const struct node *, void *), void *arg)
{
	size_t i, nfail = 0;

	for (i = 0; i < n->nkids; i++)
		nfail += walk_cases(n->kids[i], fn, arg);
	if (!n->parent || (n->nkids && (!bad(n) || nfail)))
		return nfail;
	fn(n, arg);
	return nfail + bad(n);
}

struct counts {
	size_t pass, fail, skip;
};

static void count_case(const struct node *n, void *arg)
{
	struct counts *c = arg;

	if (bad(n))
		c->fail++;
	else if (n->status == ST_SKIP)
		c->skip++;
	else
		c->pass++;
}

static struct counts tally(const struct node *n)
{
	struct counts c = { 0, 0, 0 };

	walk_cases(n, count_case, &c);
	return c;
}

/* "test/subtest/..." for @n, relative to its ancestor @stop. */
static void node_path(const struct node *n, const struct node *stop,
		      char *buf, size_t size)
{
	buf[0] = '\0';
	if (n->parent && n->parent != stop && n->parent->parent) {
		node_path(n->parent, stop, buf, size);
		addf(buf, size, "/");
	}
	addf(buf, size, "%s", n->name);
}

static size_t results(const struct node *n)
{
	size_t i, m = 0;

	for (i = 0; i < n->nkids; i++)
		m += !n->kids[i]->unfinished;
	return m;
}

static const struct node *find_node(const struct node *n,
				    bool (*pred)(const struct node *))
{
	const struct node *found;
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		found = find_node(n->kids[i], pred);
		if (found)
			return found;
		if (pred(n->kids[i]))
			return n->kids[i];
	}
	return NULL;
}

static bool is_unfinished(const struct node *n)
{
	return n->unfinished;
}

static bool is_short(const struct node *n)
{
	return n->plan >= 0 && results(n) < (size_t)n->plan;
}

static bool check_short_plan(const struct state *st, char *r)
{
	const struct node *u = find_node(&st->root, is_short);
	char path[PATH_LEN];

	if (!u)
		return false;
	node_path(u, NULL, path, sizeof(path));
	addf(r, REASON_LEN,
	     "truncated: '%s' plan says %ld subtests, log has results for %zu",
	     path, u->plan, results(u));
	return true;
}

static bool check_truncated(const struct state *st, char *r)
{
	const struct node *u = find_node(&st->root, is_unfinished);
	size_t m = results(&st->root);
	bool short_plan = m < (size_t)st->root.plan;
	char path[PATH_LEN];

	if (!short_plan && !u)
		return check_short_plan(st, r);
	addf(r, REASON_LEN, "truncated: ");
	if (short_plan)
		addf(r, REASON_LEN, "plan says %ld tests, log has results for %zu",
		     st->root.plan, m);
	if (short_plan && st->last) {
		node_path(st->last, NULL, path, sizeof(path));
		addf(r, REASON_LEN, " (last result: %s)", path);
	}
	if (u) {
		node_path(u, NULL, path, sizeof(path));
		addf(r, REASON_LEN, "%s'%s' started but has %s",
		     short_plan ? "; " : "", path, NO_RESULT);
	}
	return true;
}

static bool seen_num(const struct node *p, size_t i, long num)
{
	while (i--)
		if (!p->kids[i]->unfinished && p->kids[i]->num == num)
			return true;
	return false;
}

static bool check_nums(const struct node *p, char *r)
{
	const struct node *k;
	char path[PATH_LEN];
	long max = 0;
	size_t i, j = 0;

	if (p->nplan > 1) {
		node_path(p, NULL, path, sizeof(path));
		addf(r, REASON_LEN, "malformed: more than one plan in '%s'",
		     p->parent ? path : "top level");
		return true;
	}
	for (i = 0; i < p->nkids; i++) {
		k = p->kids[i];
		if (k->unfinished)
			continue;
		j++;
		node_path(k, NULL, path, sizeof(path));
		if (k->num <= max && seen_num(p, i, k->num))
			addf(r, REASON_LEN,
			     "duplicate result: test %ld (%s) reported twice",
			     k->num, path);
		else if (p->plan >= 0 && j > (size_t)p->plan)
			addf(r, REASON_LEN,
			     "more results than planned: plan says %ld, got result %ld (%s)",
			     p->plan, k->num, path);
		else if (k->num != (long)j)
			addf(r, REASON_LEN,
			     "bad numbering: expected test %zu, got %ld (%s)",
			     j, k->num, path);
		if (*r || check_nums(k, r))
			return true;
		max = k->num > max ? k->num : max;
	}
	return false;
}

static bool check_malformed(const struct state *st, char *r)
{
	if (st->too_many)
		addf(r, REASON_LEN, "too many results: more than %d",
		     MAX_NODES);
	else if (st->too_deep)
		addf(r, REASON_LEN, "malformed: KTAP nested deeper than %d levels",
		     MAX_DEPTH);
	else if (st->second_doc)
		addf(r, REASON_LEN,
		     "malformed: a second top-level 'KTAP version 1' line");
	else if (st->root.nplan > 1)
		addf(r, REASON_LEN, "malformed: more than one top-level plan");
	return *r || check_nums(&st->root, r);
}

struct names {
	char buf[REASON_LEN];
	size_t count;
};

static void name_case(const struct node *n, void *arg)
{
	struct names *nm = arg;
	char path[PATH_LEN];

	if (!bad(n) || ++nm->count > MAX_NAMES)
		return;
	node_path(n, NULL, path, sizeof(path));
	addf(nm->buf, REASON_LEN, "%s%s", nm->count > 1 ? ", " : "", path);
}

static bool check_failures(const struct state *st, char *r)
{
	struct names nm = { "", 0 };
	size_t i, nbad = 0;

	for (i = 0; i < st->root.nkids; i++)
		nbad += walk_cases(st->root.kids[i], name_case, &nm) > 0;
	if (!nbad)
		return false;
	addf(r, REASON_LEN, "%zu of %ld tests failed: %s", nbad,
	     st->root.plan, nm.buf);
	if (nm.count > MAX_NAMES)
		addf(r, REASON_LEN, ", ... (%zu more)", nm.count - MAX_NAMES);
	return true;
}

/* Fills @r with the reason; returns 0 for PASS, else the category. */
static int verdict(const struct state *st, char *r)
{
	const struct ctx *c = st->ctx;
	int i;

	for (i = CTX_PANIC; i <= CTX_OOPS; i++) {
		if (!c[i].n)
			continue;
		addf(r, REASON_LEN, "kernel %s: %s", st->splat[i],
		     skip_printk(c[i].line[0]));
		if (c[CTX_HANG].n)
			addf(r, REASON_LEN, "; then hang: %s", c[CTX_HANG].line[0]);
		return i + 1;
	}
	if (c[CTX_HANG].n) {
		addf(r, REASON_LEN, "%s: %s",
		     strncmp(c[CTX_HANG].line[0], BOOT_TIMEOUT,
			     strlen(BOOT_TIMEOUT)) ? "boot failed" : "hang",
		     c[CTX_HANG].line[0]);
		return 3;
	}
	if (!st->in_ktap)
		addf(r, REASON_LEN,
		     "no KTAP output: the init did not run the tests");
	else if (st->root.plan < 0)
		addf(r, REASON_LEN,
		     "missing plan: no top-level '1..N' line (%zu results seen)",
		     results(&st->root));
	else if (!st->root.plan)
		addf(r, REASON_LEN, "missing plan: plan 1..0 runs no tests");
	if (*r)
		return st->in_ktap ? 5 : 4;
	if (check_truncated(st, r))
		return 6;
	if (check_malformed(st, r))
		return 7;
	return check_failures(st, r) ? 8 : 0;
}

static const struct ctx *context(const struct state *st, int cat)
{
	if (cat >= 1 && cat <= 3)
		return &st->ctx[cat - 1];
	return cat >= 4 && cat <= 6 ? &st->ctx[CTX_TAIL] : NULL;
}

static void print_failed(const struct node *n)
{
	char path[PATH_LEN];
	size_t i;

	if (bad(n)) {
		node_path(n, NULL, path, sizeof(path));
		printf("--- FAIL %s: %s\n", path,
		       n->unfinished ? NO_RESULT : "not ok");
		for (i = 0; i < n->ndiag && i < MAX_DIAGS; i++)
			printf("    %s\n", n->diag[i]);
		if (n->ndiag > MAX_DIAGS)
			printf("    # ... %zu more diagnostic lines\n",
			       n->ndiag - MAX_DIAGS);
	}
	for (i = 0; i < n->nkids; i++)
		print_failed(n->kids[i]);
}

/* One line per test and subtest, indented by depth */
static void print_tree(const struct node *n, int depth)
{
	struct counts c = tally(n);
	const char *word = c.fail ? "FAIL" : n->status == ST_SKIP ? "SKIP" : "ok";
	size_t i;

	printf("%*s%-4s %s", 2 * depth, "", word, n->name);
	if (n->nkids)
		printf(" (%zu passed, %zu failed, %zu skipped)",
		       c.pass, c.fail, c.skip);
	if (n->unfinished)
		printf(" (%s)", NO_RESULT);
	if (n->skip)
		printf(" # SKIP%s%s", *n->skip ? " " : "", n->skip);
	putchar('\n');
	for (i = 0; i < n->nkids; i++)
		print_tree(n->kids[i], depth + 1);
}

/* Planned top-level tests that have no result line */
static size_t missing_tests(const struct state *st)
{
	const struct node *root = &st->root;

	return root->plan > (long)root->nkids ? root->plan - root->nkids : 0;
}

/* The run's counts: a missing test fails, and so does a failed run */
static struct counts run_counts(const struct state *st, int cat)
{
	struct counts t = tally(&st->root);

	t.fail += missing_tests(st);
	if (cat && !t.fail)
		t.fail = 1;
	return t;
}

static void print_summary(const struct state *st, int cat)
{
	const struct node *root = &st->root;
	const struct ctx *c = context(st, cat);
	struct counts t = run_counts(st, cat);
	size_t i, missing = missing_tests(st);

	for (i = 0; i < root->nkids; i++)
		print_tree(root->kids[i], 0);
	if (missing)
		printf("FAIL %zu planned test(s) without a result line\n", missing);
	print_failed(root);
	if (c && ctx_count(c))
		printf("--- console (%s):\n", cat > 3 ? "last lines" : "context");
	for (i = 0; c && i < ctx_count(c); i++)
		printf("    %s\n", ctx_get(c, i));
	printf("%zu passed, %zu failed, %zu skipped\n", t.pass, t.fail, t.skip);
}

/* Length of a valid UTF-8 sequence XML accepts at @s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2, i;
	unsigned long cp = s[0] & (0x3f >> (n - 1));

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static const char *xml_entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&apos;";
	}
	return NULL;
}

/* Escape for XML; invalid UTF-8 and control bytes become '?'. */
static void xml_puts(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;

	while (s && *s) {
		n = *s >= 0x80 ? utf8_len(s) : 1;
		if (!n || *s == 0x7f || (*s < 0x20 && *s != '\t'))
			putc('?', f);
		else if (xml_entity(*s))
			fputs(xml_entity(*s), f);
		else
			for (i = 0; i < n; i++)
				putc(s[i], f);
		s += n ? n : 1;
	}
}

struct junit {
	FILE *f;
	const struct node *top;
};

static void junit_result(FILE *f, const struct node *n)
{
	size_t i;

	if (n->status == ST_SKIP && !bad(n)) {
		fputs("      <skipped message=\"", f);
		xml_puts(f, n->skip);
		fputs("\"/>\n", f);
		return;
	}
	fputs("      <failure message=\"", f);
	if (n->unfinished)
		xml_puts(f, NO_RESULT);
	else
		xml_puts(f, n->ndiag ? n->diag[0] : "not ok");
	fputs("\">", f);
	for (i = 0; i < n->ndiag && i < MAX_DIAGS; i++) {
		xml_puts(f, n->diag[i]);
		putc('\n', f);
	}
	fputs("</failure>\n", f);
}

static void junit_case(const struct node *n, void *arg)
{
	const struct junit *j = arg;
	char path[PATH_LEN];

	node_path(n, n == j->top ? n->parent : j->top, path, sizeof(path));
	fputs("    <testcase classname=\"", j->f);
	xml_puts(j->f, j->top->name);
	fputs("\" name=\"", j->f);
	xml_puts(j->f, path);
	if (n->status == ST_OK && !bad(n)) {
		fputs("\"/>\n", j->f);
		return;
	}
	fputs("\">\n", j->f);
	junit_result(j->f, n);
	fputs("    </testcase>\n", j->f);
}

static void junit_suite(FILE *f, const char *name, struct counts c)
{
	fputs("  <testsuite name=\"", f);
	xml_puts(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
		c.pass + c.fail + c.skip, c.fail, c.skip);
}

static void junit_boot(FILE *f, const struct ctx *c, const char *reason)
{
	struct counts one = { 0, 1, 0 };
	size_t i;

	junit_suite(f, "boot", one);
	fputs("    <testcase classname=\"boot\" name=\"boot\">\n"
	      "      <failure message=\"", f);
	xml_puts(f, reason);
	fputs("\">", f);
	for (i = 0; c && i < ctx_count(c); i++) {
		xml_puts(f, ctx_get(c, i));
		putc('\n', f);
	}
	fputs("</failure>\n    </testcase>\n  </testsuite>\n", f);
}

/* A JSON string; invalid UTF-8 becomes U+FFFD. */
static void json_puts(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;

	putc('"', f);
	while (s && *s) {
		n = *s >= 0x80 ? utf8_len(s) : 1;
		if (!n)
			fputs("\\ufffd", f);
		else if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else
			for (i = 0; i < n; i++)
				putc(s[i], f);
		s += n ? n : 1;
	}
	putc('"', f);
}

static void json_counts(FILE *f, struct counts c)
{
	fprintf(f, "{\"passed\": %zu, \"failed\": %zu, \"skipped\": %zu}",
		c.pass, c.fail, c.skip);
}

/* The NAME of the runner's "# no subtest named 'NAME'" line of @n, if any */
static void json_no_such_subtest(FILE *f, const struct node *n)
{
	size_t i, len = strlen(NO_SUBTEST), end;
	char *name;

	for (i = 0; i < n->ndiag && i < MAX_DIAGS; i++) {
		if (strncmp(n->diag[i], NO_SUBTEST, len))
			continue;
		end = strlen(n->diag[i]);
		if (end <= len || n->diag[i][end - 1] != '\'')
			continue;
		name = strndup(n->diag[i] + len, end - len - 1);
		if (!name)
			return;
		fputs(", \"no_such_subtest\": ", f);
		json_puts(f, name);
		free(name);
		return;
	}
}

/* One test and its subtests; result as in the summary's tree */
static void json_node(FILE *f, const struct node *n, int depth)
{
	struct counts c = tally(n);
	size_t i;

	fprintf(f, "%*s{\"name\": ", 2 * depth, "");
	json_puts(f, n->name);
	fprintf(f, ", \"result\": \"%s\"", c.fail ? "fail" :
		n->status == ST_SKIP ? "skip" : "pass");
	if (n->unfinished)
		fputs(", \"no_result_line\": true", f);
	if (n->skip) {
		fputs(", \"skip_reason\": ", f);
		json_puts(f, n->skip);
	}
	json_no_such_subtest(f, n);
	if (n->seconds >= 0)
		fprintf(f, ", \"seconds\": %.3f", n->seconds);
	if (n->ndiag) {
		fputs(", \"diagnostics\": [", f);
		for (i = 0; i < n->ndiag && i < MAX_DIAGS; i++) {
			fputs(i ? ", " : "", f);
			json_puts(f, n->diag[i]);
		}
		putc(']', f);
	}
	if (n->nkids) {
		fputs(", \"counts\": ", f);
		json_counts(f, c);
		fputs(", \"subtests\": [\n", f);
		for (i = 0; i < n->nkids; i++) {
			json_node(f, n->kids[i], depth + 1);
			fputs(i + 1 < n->nkids ? ",\n" : "\n", f);
		}
		fprintf(f, "%*s]", 2 * depth, "");
	}
	putc('}', f);
}

/*
 * Why the run failed, one word per category of verdict(): the cause of
 * results.json. "kernel-report" comes with the splats rule that named it.
 */
static const char *cause_name(const struct state *st, int cat)
{
	static const char *const names[] = {
		NULL, "kernel-report", "kernel-report", "hang", "no-ktap",
		"missing-plan", "truncated", "malformed", "tests-failed",
	};

	if (cat == 3 && strncmp(st->ctx[CTX_HANG].line[0], BOOT_TIMEOUT,
				strlen(BOOT_TIMEOUT)))
		return "boot-failed";
	return cat > 0 && cat < (int)ARRAY_SIZE(names) ? names[cat] : NULL;
}

/*
 * The results as JSON (docs/contracts.md): verdict ("PASS" or "FAIL"),
 * reason (empty on a pass), cause (null on a pass, else "kernel-report",
 * "hang", "boot-failed", "no-ktap", "missing-plan", "truncated",
 * "malformed" or "tests-failed"), report (the splats rule of a
 * kernel-report, e.g. "panic" or "BUG"; else null), counts (as the
 * summary's last line), planned (the top-level plan, -1 if none) and
 * tests (each with name, result "pass", "fail" or "skip", and where they
 * apply no_result_line, skip_reason, no_such_subtest, diagnostics, counts
 * and subtests).
 */
static int write_json(const struct state *st, const char *file, int cat,
		      const char *reason)
{
	FILE *f = fopen(file, "w");
	const char *cause = cause_name(st, cat);
	size_t i;
	int err;

	if (!f)
		return -errno;
	fprintf(f, "{\"verdict\": \"%s\", \"reason\": ", cat ? "FAIL" : "PASS");
	json_puts(f, reason);
	fputs(", \"cause\": ", f);
	if (cause)
		fprintf(f, "\"%s\"", cause);
	else
		fputs("null", f);
	fputs(", \"report\": ", f);
	if (cat == 1 || cat == 2)
		json_puts(f, st->splat[cat - 1]);
	else
		fputs("null", f);
	fputs(", \"counts\": ", f);
	json_counts(f, run_counts(st, cat));
	fprintf(f, ", \"planned\": %ld, \"tests\": [\n", st->root.plan);
	for (i = 0; i < st->root.nkids; i++) {
		json_node(f, st->root.kids[i], 1);
		fputs(i + 1 < st->root.nkids ? ",\n" : "\n", f);
	}
	fputs("]}\n", f);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int write_junit(const struct state *st, const char *file, int cat,
		       const char *reason)
{
	FILE *f = fopen(file, "w");
	struct junit j;
	size_t i;
	int err;

	if (!f)
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
	for (i = 0; i < st->root.nkids; i++) {
		j.f = f;
		j.top = st->root.kids[i];
		junit_suite(f, j.top->name, tally(j.top));
		walk_cases(j.top, junit_case, &j);
		fputs("  </testsuite>\n", f);
	}
	if (cat >= 1 && cat <= 7)
		junit_boot(f, context(st, cat), reason);
	fputs("</testsuites>\n", f);
	err = ferror(f) ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

struct opts {
	const char *ktap, *junit, *json, *log, *splats;
	bool match;		/* --match: the rule of each line, no verdict */
};

static int fail_io(const char *what, int err)
{
	fprintf(stderr, "verdict: %s: %s\n", what, strerror(-err));
	return 2;
}

static int finish(struct state *st, const struct opts *o)
{
	char reason[REASON_LEN] = "";
	int cat = verdict(st, reason);

	if (cat)
		printf("verdict: FAIL: %s\n", reason);
	else
		printf("verdict: PASS\n");
	print_summary(st, cat);
	if (fflush(stdout))
		return fail_io("stdout", -errno);
	if (o->junit) {
		int err = write_junit(st, o->junit, cat, reason);

		if (err)
			return fail_io(o->junit, err);
	}
	if (o->json) {
		int err = write_json(st, o->json, cat, reason);

		if (err)
			return fail_io(o->json, err);
	}
	return cat ? 1 : 0;
}

static void cleanup(struct state *st)
{
	int i, j;

	release_node(&st->root);
	for (i = 0; i < NR_CTX; i++)
		for (j = 0; j < CTX_LINES; j++)
			free(st->ctx[i].line[j]);
	free(st->held);
}

static int run(struct state *st, const struct opts *o, FILE *in)
{
	bool werr;
	int ret;

	if (o->ktap) {
		st->ktap = fopen(o->ktap, "w");
		if (!st->ktap)
			return fail_io(o->ktap, -errno);
	}
	st->parent[0] = &st->root;
	st->root.plan = -1;
	ret = read_log(st, in);
	ret = ret ? fail_io(o->log, ret) : finish(st, o);
	if (st->ktap) {
		werr = ferror(st->ktap);
		if (fclose(st->ktap) || werr)
			ret = fail_io(o->ktap, -EIO);
	}
	return ret;
}

/*
 * The whole verdict on the log @in, with the rules @sp: prints it and
 * returns the exit status. Leaves no state behind, so that a fuzzer can
 * call it again.
 */
static int verdict_log(const struct opts *o, const struct splats *sp,
		       FILE *in)
{
	struct state *st = calloc(1, sizeof(*st));
	int ret;

	if (!st)
		return fail_io(o->log, -ENOMEM);
	st->splats = sp;
	ret = run(st, o, in);
	cleanup(st);
	free(st);
	return ret;
}

#ifndef VERDICT_NO_MAIN
/* "--NAME VALUE" or "--NAME=VALUE" at argv[*i], for NAME @name */
static bool option(char **argv, int argc, int *i, const char *name,
		   const char **val)
{
	const char *a = argv[*i] + 2;
	size_t n = strlen(name);

	if (strncmp(argv[*i], "--", 2) || strncmp(a, name, n))
		return false;
	if (a[n] == '=') {
		*val = a + n + 1;
		return true;
	}
	if (a[n] || *i + 1 == argc)
		return false;
	*val = argv[++*i];
	return true;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	const char *a;
	int i;

	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (option(argv, argc, &i, "ktap", &o->ktap) ||
		    option(argv, argc, &i, "junit", &o->junit) ||
		    option(argv, argc, &i, "json", &o->json) ||
		    option(argv, argc, &i, "splats", &o->splats))
			continue;
		if (!strcmp(a, "--match")) {
			o->match = true;
			continue;
		}
		if ((a[0] != '-' || !a[1]) && !o->log)
			o->log = a;
		else
			return -EINVAL;
	}
	return o->log ? 0 : -EINVAL;
}

int main(int argc, char **argv)
{
	struct opts o = { .splats = SPLATS_FILE };
	struct splats sp = { NULL, 0, 0 };
	FILE *in;
	int ret;

	if (parse_args(argc, argv, &o)) {
		fputs("usage: verdict [--splats FILE] [--ktap OUT.ktap] [--junit OUT.xml] [--json OUT.json] LOG\n"
		      "       verdict [--splats FILE] --match LOG\n"
		      "  --splats: kernel report rules (default: " SPLATS_FILE ")\n"
		      "  --match: for each line of LOG, the rule it matches or -, no verdict\n",
		      stderr);
		return 2;
	}
	if (load_splats(&sp, o.splats))
		return 2;
	in = strcmp(o.log, "-") ? fopen(o.log, "r") : stdin;
	if (!in) {
		ret = fail_io(o.log, -errno);
		free_splats(&sp);
		return ret;
	}
	if (o.match) {
		ret = match_lines(&sp, in, stdout);
		ret = ret ? fail_io(o.log, ret) : 0;
	} else {
		ret = verdict_log(&o, &sp, in);
	}
	if (in != stdin)
		fclose(in);
	free_splats(&sp);
	return ret;
}
#endif
