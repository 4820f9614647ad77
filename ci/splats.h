/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The splats file's rules (ci/splats), which name the console lines that
 * are kernel reports: read by load_splats(), matched by find_splat()
 * (ci/splats.c); ci/verdict.c decides with them.
 */
#ifndef CI_SPLATS_H
#define CI_SPLATS_H

#include <stddef.h>
#include <stdio.h>

/* One line of the splats file: a report kind, or an allowed line */
struct rule {
	char *buf;		/* the line, cut into name and pieces */
	const char *name;	/* NULL for an allow rule */
	char **seg;		/* the pattern's pieces between '*'s */
	size_t nseg;
};

struct splats {
	struct rule *rule;
	size_t n, cap;
};

/* Read the rules of @file into @sp: 0, or 2 after a message on stderr
 * (the exit status of verdict for a file it cannot use)
 */
int load_splats(struct splats *sp, const char *file);
void free_splats(struct splats *sp);
/* The first report rule @line matches, unless an allow rule matches it;
 * *@at: where in @line its pattern starts
 */
const struct rule *find_splat(const struct splats *sp, const char *line,
			      const char **at);

/* verdict --match: for each line of @in, the report rule it matches, or
 * "-", on a line of @out: 0, or -errno
 */
int match_lines(const struct splats *sp, FILE *in, FILE *out);

#endif
