// SPDX-License-Identifier: GPL-2.0
/* The doubling growth of collected arrays (include/rs_grow.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_grow.h"

int rs_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first, size_t max)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : first ? first : 1;
	while (ncap < need && ncap <= SIZE_MAX / 2)
		ncap *= 2;
	if (max && ncap > max)
		ncap = max;
	if (ncap < need || (elem && ncap > SIZE_MAX / elem))
		return -1;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

int rs_grow_rows(int *cap, int row, int first, const struct rs_grow_array *arr, int n)
{
	size_t old = (size_t)(*cap > 0 ? *cap : 0), ncap = old;

	if (row < *cap)
		return 0;
	if (row < 0 || row == INT32_MAX)
		return -1;
	for (int k = 0; k < n; k++) {
		ncap = old;
		if (rs_grow(arr[k].p, &ncap, (size_t)row + 1, arr[k].elem, (size_t)first,
			    INT32_MAX))
			return -1;
		memset((char *)*arr[k].p + old * arr[k].elem, 0, (ncap - old) * arr[k].elem);
	}
	*cap = (int)ncap;
	return 0;
}
