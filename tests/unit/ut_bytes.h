/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-built trace.dat pieces for the tracedat tests: a trace.dat is in the byte order of the
 * machine that recorded it, so each test file is written in both.
 */
#ifndef UT_BYTES_H
#define UT_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* v as 4 bytes at f's position, big-endian when big, else little-endian */
static inline void ut_put32(FILE *f, bool big, uint32_t v)
{
	uint8_t b[4];

	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(big ? v >> (24 - 8 * i) : v >> (8 * i));
	fwrite(b, 1, 4, f);
}

#endif
