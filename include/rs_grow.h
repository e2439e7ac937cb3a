/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables of rows that grow by doubling (analyzer/grow.c): one capacity shared by parallel
 * arrays indexed by the same row, as the per-task tables of the analysis and of the browser's
 * index (a public row and the module's private one).
 */
#ifndef RS_GROW_H
#define RS_GROW_H

#include <stddef.h>

/* One of the parallel arrays: where its pointer is, and its element size. */
struct rs_grow_array {
	void **p;
	size_t elem;
};

/*
 * Make room for row `row` in the n arrays of capacity *cap: the capacity doubles from `first`
 * until it is past row, and the new room of every array is zeroed. 0, or -1 when out of memory
 * (the rows there were stay, *cap unchanged).
 */
int rs_grow_rows(int *cap, int row, int first, const struct rs_grow_array *arr, int n);

#endif
