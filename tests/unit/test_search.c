// SPDX-License-Identifier: GPL-2.0
/*
 * include/rs_search.h: the upper bound equals a linear count of the keys at or before t (the
 * oracle), on sorted arrays with runs of equal keys, a key that is not the first member, and
 * the edges (empty, t before every key, after every key, the largest key).
 */
#include <stdint.h>

#include "rs_search.h"
#include "unit.h"

struct sample {
	int32_t tag;		/* a member before the key: the offset matters */
	uint64_t ts;
	char pad[3];		/* and an odd size: so does the stride */
};

static size_t count_at_or_before(const struct sample *s, size_t n, uint64_t t)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i].ts <= t;
	return c;
}

UT_TEST(test_upper_bound, "search: the upper bound counts the keys at or before t")
{
	struct sample s[64];
	uint64_t plain[64];
	uint64_t x = 0x2545f4914f6cdd1dull, ts = 5;

	for (size_t i = 0; i < 64; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ts += x % 3;	/* steps of 0, 1 and 2: equal keys in runs */
		s[i] = (struct sample){ .tag = (int32_t)i, .ts = ts };
		plain[i] = ts;
	}
	for (size_t n = 0; n <= 64; n++)
		for (uint64_t t = 0; t <= s[63].ts + 1; t++) {
			size_t want = count_at_or_before(s, n, t);

			UT_ASSERT_EQ(RS_UPPER_BOUND(s, n, ts, t), want);
			UT_ASSERT_EQ(rs_upper_bound_u64(plain, n, sizeof(*plain), 0, t), want);
		}
	UT_ASSERT_EQ(RS_UPPER_BOUND(s, 64, ts, UINT64_MAX), 64);
	UT_ASSERT_EQ(RS_UPPER_BOUND(s, 64, ts, 4), 0);
	return UT_OK;
}
