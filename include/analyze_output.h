/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of `analyze`: the JSON document (docs/json.md, field by field) and the text report
 * (docs/analyze.md). `diff` calls rs_analysis_json() to compare traces figure by figure.
 */
#ifndef RS_ANALYZE_OUTPUT_H
#define RS_ANALYZE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

struct rs_analysis;
struct rs_source;

/*
 * The whole `analyze --json` document: `trace` (as `events` prints it; omitted when src is
 * NULL), `analysis`, `lru`, `scan`, `episodes`, `kswapd`, `tasks`, ... A new reference the
 * caller owns; NULL when out of memory.
 */
json_t *rs_analysis_json(const struct rs_analysis *a, const struct rs_source *src);

struct rs_text_opts {
	bool utf8;		/* sparklines in UTF-8 blocks, else ASCII */
	int top_tasks;		/* rows of the per-task table (0: 20) */
};

/* The text report, at most 100 columns wide. */
void rs_analysis_text(FILE *f, const struct rs_analysis *a, const struct rs_source *src,
		      const struct rs_text_opts *o);

#endif
