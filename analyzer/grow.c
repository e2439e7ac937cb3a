// SPDX-License-Identifier: GPL-2.0
/*
 * Tables of rows that grow by doubling (include/rs_grow.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_grow.h"

int rs_grow_rows(int *cap, int row, int first, const struct rs_grow_array *arr, int n)
{
	size_t ncap = (size_t)(*cap ? *cap : first);

	if (row < *cap)
		return 0;
	if (row < 0 || first < 1)
		return -1;
	while (ncap <= (size_t)row)
		ncap *= 2;
	if (ncap > INT32_MAX)
		return -1;
	for (int k = 0; k < n; k++) {
		char *p = realloc(*arr[k].p, ncap * arr[k].elem);

		if (!p)
			return -1;
		memset(p + (size_t)*cap * arr[k].elem, 0, (ncap - (size_t)*cap) * arr[k].elem);
		*arr[k].p = p;
	}
	*cap = (int)ncap;
	return 0;
}
