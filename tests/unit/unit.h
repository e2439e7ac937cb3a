/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small unit-test runner (perf tests/tests.h style): each test file exports a NULL-terminated
 * table of {name, fn}; tests/unit/main.c runs every table. A test returns UT_OK, UT_FAIL or
 * UT_SKIP; UT_ASSERT* print where and why they failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { UT_OK = 0, UT_FAIL = -1, UT_SKIP = 77 };

struct unit_test {
	const char *name;
	int (*fn)(void);
};

#define UT_ASSERT(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "  %s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
		return UT_FAIL; \
	} \
} while (0)

#define UT_ASSERT_EQ(a, b) do { \
	long long _a = (long long)(a), _b = (long long)(b); \
	if (_a != _b) { \
		fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, \
			#a, _a, #b, _b); \
		return UT_FAIL; \
	} \
} while (0)

#define UT_ASSERT_STR(a, b) do { \
	const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) { \
		fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
			#a, _a ? _a : "(null)", _b ? _b : "(null)"); \
		return UT_FAIL; \
	} \
} while (0)

/* Path of a file under tests/fixtures (tests run from the repository's top directory). */
#define FIXTURE(name) "tests/fixtures/" name

/* Every test table; add yours to the list in tests/unit/main.c. */
extern const struct unit_test normalize_tests[];
extern const struct unit_test textlog_tests[];
extern const struct unit_test analyzer_tests[];
extern const struct unit_test models_tests[];
extern const struct unit_test diff_tests[];
extern const struct unit_test timeline_tests[];
extern const struct unit_test cgroups_tests[];
extern const struct unit_test replay_input_tests[];
extern const struct unit_test episode_log_tests[];
extern const struct unit_test refaults_tests[];
extern const struct unit_test tracedat_chunks_tests[];

#endif
