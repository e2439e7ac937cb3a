/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of `analyze`: the JSON document (docs/json.md, field by field) and the text report
 * (docs/analyze.md). `diff` reads a trace through rs_analyzed_run() and rs_analyzed_json() to
 * compare traces figure by figure.
 */
#ifndef RS_ANALYZE_OUTPUT_H
#define RS_ANALYZE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "findings.h"

struct rs_analysis;
struct rs_analysis_opts;
struct rs_cgroups;
struct rs_cgroups_opts;
struct rs_error;
struct rs_refaults;
struct rs_refaults_opts;
struct rs_source;

/*
 * The whole `analyze --json` document: `trace` (as `events` prints it; omitted when src is
 * NULL), `analysis`, `lru`, `scan`, `episodes`, `kswapd`, `tasks`, ... A new reference the
 * caller owns; NULL when out of memory.
 */
json_t *rs_analysis_json(const struct rs_analysis *a, const struct rs_source *src);

/*
 * A trace analysed as `analyze` analyses it: the analysis with the per-cgroup attribution
 * (docs/cgroups.md) and the refaults (docs/refaults.md) as consumers, and the SUMMARY's
 * findings. diff analyses a trace through it too, so a trace and its saved analysis compare
 * equal.
 */
struct rs_analyzed {
	struct rs_source *src;
	struct rs_analysis *a;
	struct rs_cgroups *cg;
	struct rs_refaults *rf;
	struct rs_findings fd;
};

/* 0, or -1 with err set (nothing to free). On success free r with rs_analyzed_free(). */
int rs_analyzed_run(const char *path, const struct rs_analysis_opts *ao,
		    const struct rs_cgroups_opts *co, const struct rs_refaults_opts *ro,
		    struct rs_analyzed *r, struct rs_error *err);
void rs_analyzed_free(struct rs_analyzed *r);
/* The `analyze --json` document of r, with its cgroups, refaults and summary; NULL: no memory. */
json_t *rs_analyzed_json(struct rs_analyzed *r);

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

/* The SUMMARY section (at most ~15 lines); with_cgroups: the cgroups sections follow. */
void rs_findings_text(FILE *f, const struct rs_findings *fd, bool with_cgroups);
/* The `summary` object of `analyze --json` (docs/json.md). NULL when out of memory. */
json_t *rs_findings_json(const struct rs_findings *fd);
/* A duration at useful precision ("156.7 ms", "3.869 s", "412.0 us"). */
const char *rs_fmt_duration(char *buf, size_t n, uint64_t ns);

#endif
