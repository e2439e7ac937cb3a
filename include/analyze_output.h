/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of `analyze`: the JSON document (docs/json.md, field by field) and the text report
 * (docs/analyze.md). `diff` calls rs_analysis_json() to compare traces figure by figure.
 */
#ifndef RS_ANALYZE_OUTPUT_H
#define RS_ANALYZE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
	const struct rs_findings *findings;	/* the SUMMARY after the header; NULL: none */
	bool summary_only;	/* the header and the SUMMARY, no sections */
	bool with_cgroups;	/* the cgroups sections follow (the SUMMARY points there) */
};

/* The text report, at most 100 columns wide. */
void rs_analysis_text(FILE *f, const struct rs_analysis *a, const struct rs_source *src,
		      const struct rs_text_opts *o);

struct rs_findings;

/* The SUMMARY section (at most ~15 lines); with_cgroups: the cgroups sections follow. */
void rs_findings_text(FILE *f, const struct rs_findings *fd, bool with_cgroups);
/* The `summary` object of `analyze --json` (docs/json.md). NULL when out of memory. */
json_t *rs_findings_json(const struct rs_findings *fd);
/* A duration at useful precision ("156.7 ms", "3.869 s", "412.0 us"). */
const char *rs_fmt_duration(char *buf, size_t n, uint64_t ns);

#endif
