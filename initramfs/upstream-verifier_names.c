// SPDX-License-Identifier: GPL-2.0
/*
 * Print "NUMBER<TAB>DESCRIPTION" for each test of the kernel tree's
 * test_verifier, built from the same test_verifier.c: run on the build
 * machine, it gives the result lists the names that test_verifier's own
 * output ("#12/p add+sub+mul OK") runs into its results.
 */
#define main test_verifier_main
#include "test_verifier.c"
#undef main

int main(void)
{
	unsigned int i;
	char *p;

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		printf("%u\t", i);
		/* one line per test, whatever the description holds */
		for (p = (char *)tests[i].descr; p && *p; p++)
			putchar(*p == '\t' || *p == '\n' ? ' ' : *p);
		putchar('\n');
	}
	return 0;
}
