// SPDX-License-Identifier: GPL-2.0
/*
 * verdict_fuzz - libFuzzer target for ci/verdict.c (linked with
 * ci/splats.c): each input is a console log, run through the whole
 * verdict (parse, verdict, summary, --ktap and --junit writers) as the
 * program runs it.
 *
 * Built by ci/fuzz.sh (make fuzz). The splats rules are read once,
 * from $VERDICT_SPLATS or ci/splats.
 */
#define VERDICT_NO_MAIN
#include "verdict.c"

#include <stdint.h>

static struct splats rules;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *file = getenv("VERDICT_SPLATS");

	(void)argc;
	(void)argv;
	if (load_splats(&rules, file ? file : SPLATS_FILE))
		abort();
	/* the summary is not what is checked here; libFuzzer talks on stderr */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct opts o = {
		.ktap = "/dev/null", .junit = "/dev/null", .json = "/dev/null",
		.log = "fuzz input",
	};
	FILE *in;

	if (!size)
		return 0;	/* fmemopen() refuses an empty buffer */
	in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	verdict_log(&o, &rules, in);
	fclose(in);
	return 0;
}
