/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two-line column heading of a text report's table (analyze, cgroups): each column's width
 * and the words on both heading lines stand together, so the two lines cannot disagree on the
 * columns (a format string written twice could).
 */
#ifndef RS_CMD_TEXT_HEADING_H
#define RS_CMD_TEXT_HEADING_H

#include <stddef.h>
#include <stdio.h>

/* One column: its width (negative: left-aligned, as printf's "%-*s"), then the two lines' words */
struct rs_text_col {
	int width;
	const char *top, *bottom;
};

/* The heading's two lines: the columns one space apart, each line ended by a newline. */
void rs_text_heading(FILE *f, const struct rs_text_col *col, size_t n);

/* The same for a whole table of columns (an array, not a pointer). */
#define RS_TEXT_HEADING(f, cols) rs_text_heading(f, cols, sizeof(cols) / sizeof((cols)[0]))

#endif
