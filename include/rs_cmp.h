/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Three-way comparison for qsort()/bsearch() comparators: -1, 0 or 1 as a is below, equal to or
 * above b, without the overflow of a subtraction. A comparator over several keys chains them
 * with GNU's `?:`, most significant key first, one key a term, and puts b first for a
 * descending key:
 *	return RS_CMP(b->ns, a->ns) ?: RS_CMP(a->begin_ts, b->begin_ts);
 * (the kernel's cmp_int(), include/linux/sort.h). For integers only: a NaN compares equal to
 * everything, so double keys that may be NaN keep an explicit test.
 */
#ifndef RS_CMP_H
#define RS_CMP_H

#define RS_CMP(a, b) (((a) > (b)) - ((a) < (b)))

#endif
