// SPDX-License-Identifier: GPL-2.0
/*
 * Runs every test UT_TEST registered, in file and line order; prints one line per test and a
 * closing "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

extern const struct unit_test __start_rs_unit_tests[], __stop_rs_unit_tests[];

static int by_place(const void *a, const void *b)
{
	const struct unit_test *x = *(const struct unit_test *const *)a;
	const struct unit_test *y = *(const struct unit_test *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int main(int argc, char **argv)
{
	size_t n = (size_t)(__stop_rs_unit_tests - __start_rs_unit_tests);
	const struct unit_test **order = calloc(n ? n : 1, sizeof(*order));
	int passed = 0, failed = 0, skipped = 0;

	if (!order)
		return 1;
	for (size_t i = 0; i < n; i++)
		order[i] = &__start_rs_unit_tests[i];
	qsort(order, n, sizeof(*order), by_place);
	for (size_t i = 0; i < n; i++) {
		const struct unit_test *u = order[i];
		int r;

		if (argc > 1 && !strstr(u->name, argv[1]))
			continue;
		r = u->fn();
		printf("%-4s %s\n", r == UT_OK ? "OK" : r == UT_SKIP ? "SKIP" : "FAIL", u->name);
		if (r == UT_OK)
			passed++;
		else if (r == UT_SKIP)
			skipped++;
		else
			failed++;
	}
	free(order);
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
