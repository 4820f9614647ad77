// SPDX-License-Identifier: GPL-2.0
/*
 * The splats file: the rules that name the console lines that are kernel
 * reports (ci/splats, or verdict's --splats FILE), read at run time.
 *
 * A rule is a line "NAME PATTERN" (a report of kind NAME: "panic",
 * "oops", ...) or "allow PATTERN" (a line that is no report, whatever
 * else matches it); '#' starts a comment line. A PATTERN's pieces
 * between '*'s must occur in the line in order. The first report rule a
 * line matches names it, unless an allow rule matches it too.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "splats.h"

/* Where the pieces of @r's pattern occur in @line in order, or NULL */
static const char *rule_match(const struct rule *r, const char *line)
{
	const char *at = NULL, *p = line, *hit;
	size_t i;

	for (i = 0; i < r->nseg; i++) {
		hit = strstr(p, r->seg[i]);
		if (!hit)
			return NULL;
		at = at ? at : hit;
		p = hit + strlen(r->seg[i]);
	}
	return at;
}

/* The first report rule @line matches, unless an allow rule matches it. */
const struct rule *find_splat(const struct splats *sp, const char *line,
			       const char **at)
{
	const struct rule *found = NULL;
	const char *hit;
	size_t i;

	for (i = 0; i < sp->n; i++) {
		hit = rule_match(&sp->rule[i], line);
		if (!hit)
			continue;
		if (!sp->rule[i].name)
			return NULL;
		if (!found) {
			found = &sp->rule[i];
			*at = hit;
		}
	}
	return found;
}

/* Split @pat at its '*'s into @r's pieces, dropping empty ones. */
static int split_pattern(struct rule *r, char *pat)
{
	char *p, *star;

	r->seg = calloc(strlen(pat) / 2 + 1, sizeof(*r->seg));
	if (!r->seg)
		return -ENOMEM;
	for (p = pat; p; p = star ? star + 1 : NULL) {
		star = strchr(p, '*');
		if (star)
			*star = '\0';
		if (*p)
			r->seg[r->nseg++] = p;
	}
	return r->nseg ? 0 : -EINVAL;
}

/* "NAME PATTERN" or "allow PATTERN", in r->buf */
static int parse_rule(struct rule *r)
{
	char *name = r->buf, *pat, *end;

	pat = name + strcspn(name, " \t");
	if (!*pat)
		return -EINVAL;
	*pat++ = '\0';
	pat += strspn(pat, " \t");
	end = pat + strlen(pat);
	while (end > pat && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (strchr(name, '*'))
		return -EINVAL;
	r->name = strcmp(name, "allow") ? name : NULL;
	return split_pattern(r, pat);
}

static struct rule *new_rule(struct splats *sp)
{
	struct rule *rule;
	size_t cap;

	if (sp->n == sp->cap) {
		cap = sp->cap ? 2 * sp->cap : 16;
		rule = realloc(sp->rule, cap * sizeof(*rule));
		if (!rule)
			return NULL;
		sp->rule = rule;
		sp->cap = cap;
	}
	rule = &sp->rule[sp->n++];
	memset(rule, 0, sizeof(*rule));
	return rule;
}

void free_splats(struct splats *sp)
{
	size_t i;

	for (i = 0; i < sp->n; i++) {
		free(sp->rule[i].seg);
		free(sp->rule[i].buf);
	}
	free(sp->rule);
	sp->rule = NULL;
	sp->n = sp->cap = 0;
}

/* Read the rules of @f; *lineno says where an error is. */
static int read_splats(struct splats *sp, FILE *f, size_t *lineno)
{
	struct rule *r;
	char *line = NULL, *s;
	size_t cap = 0, reports = 0;
	int err = 0;

	while (!err && getline(&line, &cap, f) >= 0) {
		++*lineno;
		line[strcspn(line, "\r\n")] = '\0';
		s = line + strspn(line, " \t");
		if (!*s || *s == '#')
			continue;
		r = new_rule(sp);
		if (!r) {
			err = -ENOMEM;
			break;
		}
		r->buf = strdup(s);
		err = r->buf ? parse_rule(r) : -ENOMEM;
		reports += r->name != NULL;
	}
	if (!err && ferror(f))
		err = -EIO;
	else if (!err && !reports)
		err = -ENODATA;		/* a file of no rules finds nothing */
	free(line);
	return err;
}

int load_splats(struct splats *sp, const char *file)
{
	FILE *f = fopen(file, "r");
	size_t lineno = 0;
	int err;

	if (!f) {
		fprintf(stderr, "verdict: %s: %s (--splats FILE names the kernel report rules)\n",
			file, strerror(errno));
		return 2;
	}
	err = read_splats(sp, f, &lineno);
	fclose(f);
	if (err == -EINVAL)
		fprintf(stderr, "verdict: %s:%zu: not a rule: 'NAME PATTERN' or 'allow PATTERN'\n",
			file, lineno);
	else if (err == -ENODATA)
		fprintf(stderr, "verdict: %s: no report rules\n", file);
	else if (err)
		fprintf(stderr, "verdict: %s: %s\n", file, strerror(-err));
	if (err)
		free_splats(sp);
	return err ? 2 : 0;
}

int match_lines(const struct splats *sp, FILE *in, FILE *out)
{
	const struct rule *r;
	const char *at;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	while (!err && (len = getline(&line, &cap, in)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		r = find_splat(sp, line, &at);
		if (fprintf(out, "%s\n", r ? r->name : "-") < 0)
			err = -EIO;
	}
	if (!err && (ferror(in) || fflush(out)))
		err = -EIO;
	free(line);
	return err;
}
