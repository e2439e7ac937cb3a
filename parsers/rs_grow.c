// SPDX-License-Identifier: GPL-2.0
/* The doubling growth of collected arrays (include/rs_grow.h). */
#include <stdint.h>
#include <stdlib.h>

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
