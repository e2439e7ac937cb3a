/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What changed between two sides of a comparison (compare.h), ranked: a fixed catalogue of
 * the figures reclaim developers compare (stalls, scan balance, reclaim efficiency, IO,
 * kswapd, per cgroup), each with its unit, read from the compared metrics (mostly the
 * analysis' `summary`, whose derived totals the raw keys lack: kswapd awake including cut
 * periods, every priority present), plus the priority distribution compared as a
 * distribution. Each row gets a score (how far it moved, in a unit-fair way) and passes the
 * filter when it moved by the threshold, by more than its unit's noise floor, and (with 2+
 * runs a side) significantly. Rows come grouped, the group with the largest move first, and
 * by score within a group. docs/diff.md "The ranked table".
 */
#ifndef RS_DIFF_RANK_H
#define RS_DIFF_RANK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "compare.h"

enum rs_rank_unit {
	RS_UNIT_PAGES,
	RS_UNIT_FOLIOS,
	RS_UNIT_COUNT,
	RS_UNIT_US,		/* a duration in microseconds */
	RS_UNIT_S,		/* a duration in seconds */
	RS_UNIT_PCT,		/* a percentage: moves are in percentage points */
	RS_UNIT_PRIO,		/* a reclaim priority (12 .. 0) */
	RS_UNIT_DIST,		/* a distribution: base/new are means, the move its distance */
};

/* "pages", "folios", "count", "us", "s", "%", "priority", "distribution" */
const char *rs_rank_unit_name(enum rs_rank_unit u);

struct rs_rank_row {
	char group[96];			/* "stalls", "scan balance", ..., "cgroup PATH" */
	char label[64];
	const char *metric;		/* the compared metric; for RS_UNIT_DIST its prefix */
	enum rs_rank_unit unit;
	const struct rs_metric_diff *d;	/* NULL for RS_UNIT_DIST */
	double base, new;		/* side averages (RS_UNIT_DIST: the mean priority) */
	double move;			/* RS_UNIT_PCT/DIST: points; else change_pct (NaN from 0) */
	double score;			/* how far it moved; the ranking key */
	bool changed;			/* passes the filter */
};

struct rs_rank_opts {
	double threshold_pct;		/* < 0: the default, 10 */
	bool all;			/* every row passes */
};

struct rs_ranking;

/* Rank the catalogue over a finished comparison. NULL when out of memory. */
struct rs_ranking *rs_ranking_new(const struct rs_compare *c, const struct rs_rank_opts *o);
void rs_ranking_free(struct rs_ranking *r);

/* Rows in display order (group by group, by score); every catalogue row both sides have. */
size_t rs_ranking_count(const struct rs_ranking *r);
const struct rs_rank_row *rs_ranking_row(const struct rs_ranking *r, size_t i);
size_t rs_ranking_changed(const struct rs_ranking *r);
double rs_ranking_threshold(const struct rs_ranking *r);
/*
 * True when the per-cgroup victim figures (pages taken from each cgroup) were left out because
 * a side attributed under 90% of its reclaimed pages exactly (cgroup_attribution); exact_pct
 * gets each side's share (NaN when unknown).
 */
bool rs_ranking_victims_skipped(const struct rs_ranking *r, double exact_pct[RS_NR_SIDES]);

/* The rows as a JSON array (docs/json-diff.md "ranking"). NULL when out of memory. */
json_t *rs_ranking_json(const struct rs_ranking *r);

#endif
