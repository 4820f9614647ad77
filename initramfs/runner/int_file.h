/* SPDX-License-Identifier: GPL-2.0 */
/* An integer in a file, as a sysctl under /proc/sys holds it, or a line
 * of text (cgroup files, a user namespace's maps): for the tests and
 * bpf-bench, which save, set and check them.
 */
#ifndef INT_FILE_H
#define INT_FILE_H

#include <errno.h>
#include <stdio.h>

/* The integer file @path holds, or a negative errno */
static inline int read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int val;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", &val) != 1)
		val = -EINVAL;
	fclose(f);
	return val;
}

/* Write @val to file @path: 0, or a negative errno */
static inline int write_int_file(const char *path, int val)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%d\n", val) < 0 ? -EIO : 0;
	if (fclose(f))
		err = -errno;
	return err;
}

/* Write @text to file @path: 0, or a negative errno */
static inline int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		err = -EIO;
	if (fclose(f))
		err = -errno;
	return err;
}

#endif
