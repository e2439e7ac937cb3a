/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The search the time-ordered arrays share (zone samples, browser spans, the world's views and
 * observation windows, memcg snapshots): where a time falls among elements sorted by a
 * uint64_t key, written once instead of a loop per element type.
 */
#ifndef RS_SEARCH_H
#define RS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/*
 * How many of the n elements at base (stride bytes apart, each with its key the uint64_t at
 * byte off, in ascending order) have a key at or before t: the index of the first one after
 * t (C++'s upper_bound). Inline: the callers' loops are hot (the replay asks per list).
 */
static inline size_t rs_upper_bound_u64(const void *base, size_t n, size_t stride, size_t off,
					uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (*(const uint64_t *)((const char *)base + mid * stride + off) <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* rs_upper_bound_u64() over arr[0..n) by its uint64_t member field (checked at build time). */
#define RS_UPPER_BOUND(arr, n, field, t)						\
	rs_upper_bound_u64((arr), (n), sizeof(*(arr)),					\
			   offsetof(__typeof__(*(arr)), field) +			\
			   0 * sizeof(char[__builtin_types_compatible_p(			\
				   __typeof__((arr)->field), uint64_t) ? 1 : -1]),	\
			   (t))

#endif
