/* SPDX-License-Identifier: GPL-2.0 */
/* The text forms of `diff` other than the seed blocks: the ranked table and the MMTests table. */
#ifndef RS_DIFF_OUTPUT_H
#define RS_DIFF_OUTPUT_H

#include <stdio.h>

#include "compare.h"
#include "diff_rank.h"

/* True when every compared metric is equal on both sides and nothing is left out. */
bool rs_diff_identical(const struct rs_compare *c);

/* The ranked table of what changed (docs/diff.md), at most 100 columns. */
void rs_diff_table(FILE *f, const struct rs_compare *c, const struct rs_ranking *r,
		   const char *const labels[RS_NR_SIDES]);

/* The MMTests-style table: a column per side, a row per figure, [P%] = new as % of base. */
void rs_diff_mmtests(FILE *f, const struct rs_compare *c, const struct rs_ranking *r,
		     const char *const labels[RS_NR_SIDES]);

#endif
