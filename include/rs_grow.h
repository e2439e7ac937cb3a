/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One growth rule for the arrays that collect as a trace is read: the capacity doubles, from a
 * first size the caller picks, until it holds what is needed, up to an optional bound.
 */
#ifndef RS_GROW_H
#define RS_GROW_H

#include <stddef.h>

/*
 * Room for need elements of elem bytes at *p: *cap doubles (from first when 0) until it holds
 * need, clamped to max elements (0: no bound). Returns 0, or -1 when need is over max, the size
 * overflows or realloc fails; *p and *cap are then left as they were.
 */
int rs_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first, size_t max);

/* rs_grow() for an array pointer and its size_t capacity, unbounded. */
#define RS_GROW(arr, cap, need, first) \
	rs_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)), (first), 0)

#endif
