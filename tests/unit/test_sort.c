// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/rs_sort.c: the radix sort gives the array qsort() gives, on the shapes analyses
 * collect (latencies in ns, a few huge values, many equal ones) and the edges (one value
 * everywhere: every pass skipped; all 0: no pass; few bits: fewer, narrower digits; sizes
 * around the qsort() cut-over).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_sort.h"
#include "unit.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* shape 0: ns latencies below 2^40; 1: any 64 bits; 2: eight values; 3: one value;
   4: below 2^20 (two digits); 5: all 0 (no bits in use) */
static int same_as_qsort(size_t n, int shape, uint64_t seed)
{
	uint64_t *a = malloc((n ? n : 1) * sizeof(*a)), *b = malloc((n ? n : 1) * sizeof(*b));
	int ret;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = next(&seed);

		a[i] = shape == 0 ? r >> 24 : shape == 1 ? r : shape == 2 ? (r & 7) << 33 :
		       shape == 3 ? 42 : shape == 4 ? r >> 44 : 0;
		if (shape == 0 && !(r & 1023))
			a[i] = UINT64_MAX - (r & 3);	/* a few from the top byte */
	}
	memcpy(b, a, n * sizeof(*a));
	rs_sort_u64(a, n);
	qsort(b, n, sizeof(*b), cmp);
	ret = memcmp(a, b, n * sizeof(*a)) == 0;
	free(a);
	free(b);
	return ret;
}

UT_TEST(test_sort_u64, "sort: the radix sort of u64 gives qsort()'s order")
{
	static const size_t sizes[] = { 0, 1, 2, 255, 256, 257, 1000, 100000 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int shape = 0; shape < 6; shape++)
			UT_ASSERT(same_as_qsort(sizes[i], shape, 0x9e3779b97f4a7c15ull + i));
	/* one that is not a sort: 3 2 1 in, 1 2 3 out (the comparison above is not circular) */
	{
		uint64_t v[300];

		for (int i = 0; i < 300; i++)
			v[i] = (uint64_t)(300 - i) << 40;
		rs_sort_u64(v, 300);
		UT_ASSERT_EQ(v[0], 1ull << 40);
		UT_ASSERT_EQ(v[299], 300ull << 40);
	}
	return UT_OK;
}
