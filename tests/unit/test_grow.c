// SPDX-License-Identifier: GPL-2.0
/*
 * parsers/rs_grow.c: tables of parallel arrays that grow by doubling (rs_grow_rows).
 */
#include <stdint.h>
#include <stdlib.h>

#include "rs_grow.h"
#include "unit.h"

/*
 * Row 300 from nothing, doubling from 64: 64, 128, 256, 512 is the first capacity past 300.
 * Both arrays get it, zeroed; what was written before stays. Row 511 needs no growth; row 512
 * doubles once more, to 1024, and zeroes only the new half.
 */
UT_TEST(test_grow_rows, "grow: parallel rows double together, new room zeroed")
{
	int64_t *a = NULL;
	uint8_t *b = NULL;
	int cap = 0;
	const struct rs_grow_array arr[] = { { (void **)&a, sizeof(*a) }, { (void **)&b, 1 } };
	long long sum = 0;

	UT_ASSERT_EQ(rs_grow_rows(&cap, 300, 64, arr, 2), 0);
	UT_ASSERT_EQ(cap, 512);
	for (int i = 0; i < cap; i++)
		sum += a[i] + b[i];
	UT_ASSERT_EQ(sum, 0);
	a[300] = 7;
	b[511] = 9;
	UT_ASSERT_EQ(rs_grow_rows(&cap, 511, 64, arr, 2), 0);
	UT_ASSERT_EQ(cap, 512);
	UT_ASSERT_EQ(rs_grow_rows(&cap, 512, 64, arr, 2), 0);
	UT_ASSERT_EQ(cap, 1024);
	UT_ASSERT_EQ(a[300], 7);
	UT_ASSERT_EQ(b[511], 9);
	sum = 0;
	for (int i = 512; i < cap; i++)
		sum += a[i] + b[i];
	UT_ASSERT_EQ(sum, 0);
	UT_ASSERT_EQ(rs_grow_rows(&cap, -1, 64, arr, 2), 0);	/* below the capacity: nothing */
	UT_ASSERT_EQ(cap, 1024);
	free(a);
	free(b);
	return UT_OK;
}
