/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small unit-test runner: each test is written as UT_TEST(fn, "name") { ... }, which defines
 * it and registers it in the rs_unit_tests section (kernel initcall style), so a test is listed
 * where it is written and nowhere else; tests/unit/main.c runs the section in file and line
 * order. A test returns UT_OK, UT_FAIL or UT_SKIP; UT_ASSERT* print where and why they failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UT_OK = 0, UT_FAIL = -1, UT_SKIP = 77 };

struct unit_test {
	const char *name;
	int (*fn)(void);
	const char *file;
	int line;
};

/* Named sections are not instrumented by ASan (no redzones between the entries). */
#define UT_TEST(fn, desc) \
	static int fn(void); \
	static const struct unit_test fn##_entry \
		__attribute__((used, section("rs_unit_tests"), aligned(sizeof(void *)))) = \
		{ desc, fn, __FILE__, __LINE__ }; \
	static int fn(void)

/*
 * A test with a fixture (kunit's init and exit): UT_TEST_WITH(fn, desc, type, x, init, fini)
 * { ... } runs its body with `type x = init` (a pointer; NULL fails the test) and calls fini(x)
 * after the body whatever it returns, so a failed assertion leaks nothing.
 */
#define UT_TEST_WITH(fn, desc, type, x, init, fini) \
	static int fn##_body(type x); \
	UT_TEST(fn, desc) \
	{ \
		type x = (init); \
		int _r; \
		if (!x) { \
			fprintf(stderr, "  %s:%d: %s failed\n", __FILE__, __LINE__, #init); \
			return UT_FAIL; \
		} \
		_r = fn##_body(x); \
		fini(x); \
		return _r; \
	} \
	static int fn##_body(type x)

/*
 * UT_TEST_WITH for a fixture struct the test fills itself: `type *x` starts zeroed, fini(x)
 * frees what it holds after the body, then x is freed.
 */
#define UT_TEST_OWN(fn, desc, type, x, fini) \
	static void fn##_fini(type *x) \
	{ \
		fini(x); \
		free(x); \
	} \
	UT_TEST_WITH(fn, desc, type *, x, calloc(1, sizeof(type)), fn##_fini)

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

#endif
