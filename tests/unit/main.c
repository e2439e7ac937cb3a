// SPDX-License-Identifier: GPL-2.0
/* Runs every unit-test table; prints one line per test and a closing "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "unit.h"

/* Tables are weak so a module whose tests are not written yet does not break the link. */
#define TABLE(t) extern const struct unit_test t[] __attribute__((weak));
TABLE(normalize_tests)
TABLE(textlog_tests)
TABLE(analyzer_tests)
TABLE(models_tests)
TABLE(diff_tests)
TABLE(timeline_tests)
TABLE(cgroups_tests)
TABLE(replay_input_tests)
TABLE(episode_log_tests)
TABLE(refaults_tests)
TABLE(tracedat_chunks_tests)

int main(int argc, char **argv)
{
	const struct unit_test *const tables[] = {
		normalize_tests, textlog_tests, analyzer_tests, models_tests, diff_tests,
		timeline_tests, cgroups_tests,
		replay_input_tests, episode_log_tests, refaults_tests, tracedat_chunks_tests,
	};
	int passed = 0, failed = 0, skipped = 0;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		for (const struct unit_test *u = tables[t]; u && u->name; u++) {
			int r;

			if (argc > 1 && !strstr(u->name, argv[1]))
				continue;
			r = u->fn();
			printf("%-4s %s\n", r == UT_OK ? "OK" : r == UT_SKIP ? "SKIP" : "FAIL",
			       u->name);
			if (r == UT_OK)
				passed++;
			else if (r == UT_SKIP)
				skipped++;
			else
				failed++;
		}
	}
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
