// SPDX-License-Identifier: GPL-2.0
/* Two-line column headings of the text reports (include/cmd_text_heading.h). */
#include "cmd_text_heading.h"

void rs_text_heading(FILE *f, const struct rs_text_col *col, size_t n)
{
	for (int line = 0; line < 2; line++) {
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%*s", i ? " " : "", col[i].width,
				line ? col[i].bottom : col[i].top);
		fputc('\n', f);
	}
}
