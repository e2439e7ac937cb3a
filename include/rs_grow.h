/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One growth rule for the arrays that collect as a trace is read: the capacity doubles, from a
 * first size the caller picks, until it holds what is needed, up to an optional bound.
 */
#ifndef RS_GROW_H
#define RS_GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Room for need elements of elem bytes at *p: *cap doubles (from first when 0) until it holds
 * need, clamped to max elements (0: no bound). Returns 0, or -1 when need is over max, the size
 * overflows or realloc fails; *p and *cap are then left as they were.
 */
int rs_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first, size_t max);

/* rs_grow() for an array pointer and its size_t capacity, unbounded. */
#define RS_GROW(arr, cap, need, first) \
	rs_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)), (first), 0)

/* An array grown by RS_GROW() given back while its owner lives on: freed, empty, no room. */
#define RS_GROW_RELEASE(arr, nr, cap)						\
	do {									\
		free(arr);							\
		(arr) = NULL;							\
		(nr) = (cap) = 0;						\
	} while (0)

/*
 * Tables of rows kept in parallel arrays with one capacity (a public and a private row per
 * task in the analysis and the browser's index): one of the arrays, and its element size.
 */
struct rs_grow_array {
	void **p;
	size_t elem;
};

/*
 * Room for row `row` in the n arrays of capacity *cap, grown by rs_grow()'s rule (doubling from
 * first), the new room of every array zeroed. 0, or -1 when out of memory (the rows there were
 * stay; *cap unchanged).
 */
int rs_grow_rows(int *cap, int row, int first, const struct rs_grow_array *arr, int n);

#endif
