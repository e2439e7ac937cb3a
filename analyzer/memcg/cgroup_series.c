// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup time series on one shared grid of buckets. The rules are series.c's (the
 * analysis' timeline: rs_buckets_width(), rs_buckets_must_merge()), applied to signed values
 * and to every cgroup at once: with a known span the width is fixed (span / 100, or --bucket)
 * and capped by doubling; without one it starts at 1 ms and doubles whenever the buckets pass
 * 200, merging adjacent pairs of every cgroup's series. Additive metrics add when merged; "last" metrics (snapshot values) keep the later
 * one. A cgroup gets arrays only when it has a figure in a series (memory: active cgroups x
 * metrics x buckets).
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup_series.h"
#include "rs_warn.h"
#include "series.h"

void cg_grid_init(struct cg_grid *g, uint64_t t0, uint64_t t1, uint64_t width, size_t max)
{
	memset(g, 0, sizeof(*g));
	g->target = RS_BUCKETS_TARGET;
	g->max_buckets = max ? max : RS_BUCKETS_MAX;
	if (g->max_buckets < 2)
		g->max_buckets = 2;
	g->t0 = t0;
	g->t0_set = t1 != 0;
	g->width = rs_buckets_width(t0, t1, width, g->target, g->max_buckets, &g->auto_width);
}

static bool is_last_metric(int m)
{
	return m >= RS_CG_TS_ADDITIVE_NR;
}

static void fill_empty(int64_t *row, int m, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		row[i] = is_last_metric(m) ? RS_CG_TS_NONE : 0;
}

/* Give row's arrays at least `need` buckets; false when memory ran out. */
static bool row_reserve(struct rs_cgroups *cg, int row, size_t need)
{
	struct cg_priv *p = &cg->priv[row];
	size_t cap = p->ts_cap ? p->ts_cap : 64;
	int64_t *n;

	if (p->ts && need <= p->ts_cap)
		return true;
	while (cap < need)
		cap *= 2;
	if (cap > cg->grid.max_buckets)
		cap = cg->grid.max_buckets;
	n = malloc(cap * RS_CG_TS_NR * sizeof(*n));
	if (!n) {
		cg->oom = true;
		return false;
	}
	for (int m = 0; m < RS_CG_TS_NR; m++) {
		int64_t *dst = n + (size_t)m * cap;

		if (p->ts)
			memcpy(dst, p->ts + (size_t)m * p->ts_cap, p->ts_cap * sizeof(*dst));
		fill_empty(dst, m, p->ts ? p->ts_cap : 0, cap);
	}
	free(p->ts);
	p->ts = n;
	p->ts_cap = cap;
	return true;
}

static void merge_pairs(struct rs_cgroups *cg)
{
	size_t len = cg->grid.len, n = (len + 1) / 2;

	for (int r = 0; r < cg->nr; r++) {
		struct cg_priv *p = &cg->priv[r];
		size_t have = p->ts_cap < len ? p->ts_cap : len;

		if (!p->ts)
			continue;
		for (int m = 0; m < RS_CG_TS_NR; m++) {
			int64_t *v = p->ts + (size_t)m * p->ts_cap;

			for (size_t i = 0; i < n; i++) {
				int64_t a = 2 * i < have ? v[2 * i] : (is_last_metric(m) ?
					    RS_CG_TS_NONE : 0);
				int64_t b = 2 * i + 1 < have ? v[2 * i + 1] : (is_last_metric(m) ?
					    RS_CG_TS_NONE : 0);

				if (is_last_metric(m))
					v[i] = b != RS_CG_TS_NONE ? b : a;
				else
					v[i] = a + b;
			}
			fill_empty(v, m, n, p->ts_cap);
		}
	}
	cg->grid.len = n;
	cg->grid.width *= 2;
}

/* The bucket of ts in row's arrays, or -1. */
static long slot(struct rs_cgroups *cg, int row, uint64_t ts)
{
	struct cg_grid *g = &cg->grid;
	uint64_t idx;

	if (row < 0)
		return -1;
	if (!g->t0_set) {
		g->t0 = ts;
		g->t0_set = true;
	}
	idx = ts <= g->t0 ? 0 : (ts - g->t0) / g->width;
	while (rs_buckets_must_merge(idx, g->target, g->max_buckets, g->auto_width)) {
		if (!g->auto_width && !g->warned) {
			rs_warn(cg->warnings, "more than %zu time buckets in the cgroup series: "
				"buckets widened", g->max_buckets);
			g->warned = true;
		}
		merge_pairs(cg);
		idx /= 2;
	}
	if (idx >= g->len)
		g->len = idx + 1;
	if (!row_reserve(cg, row, (size_t)idx + 1))
		return -1;
	return (long)idx;
}

static int64_t *cell(struct rs_cgroups *cg, int row, int metric, long idx)
{
	struct cg_priv *p = &cg->priv[row];

	return p->ts + (size_t)metric * p->ts_cap + (size_t)idx;
}

void cg_ts_add(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v)
{
	long i = slot(cg, row, ts);

	if (i >= 0)
		*cell(cg, row, metric, i) += v;
}

void cg_ts_set_last(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v)
{
	long i = slot(cg, row, ts);

	if (i >= 0)
		*cell(cg, row, metric, i) = v;
}

void cg_ts_add_span(struct rs_cgroups *cg, int row, int metric, uint64_t from, uint64_t to)
{
	struct cg_grid *g = &cg->grid;
	long last;

	if (row < 0 || to <= from)
		return;
	(void)slot(cg, row, from);	/* sets t0 when unset */
	if (from < g->t0)
		from = g->t0;
	if (to <= from)
		return;
	/* reserve the last bucket first: merging changes the width */
	last = slot(cg, row, to - 1);
	if (last < 0)
		return;
	for (long i = (long)((from - g->t0) / g->width); i <= last; i++) {
		uint64_t b0 = g->t0 + (uint64_t)i * g->width;

		*cell(cg, row, metric, i) += (int64_t)rs_span_overlap(from, to, b0, b0 + g->width);
	}
}

/* Cover `end`, and give every row with arrays the full length. */
void cg_ts_finish(struct rs_cgroups *cg, uint64_t end)
{
	struct cg_grid *g = &cg->grid;
	int any = -1;

	for (int r = 0; r < cg->nr && any < 0; r++)
		if (cg->priv[r].ts)
			any = r;
	if (any < 0 || !g->t0_set)
		return;
	(void)slot(cg, any, end);
	for (int r = 0; r < cg->nr; r++)
		if (cg->priv[r].ts)
			row_reserve(cg, r, g->len);
}

/* ---- readers (include/cgroups.h) ---- */

struct rs_buckets rs_cgroups_buckets(const struct rs_cgroups *cg)
{
	return (struct rs_buckets){ .t0 = cg->grid.t0, .width = cg->grid.width,
				    .len = cg->grid.t0_set ? cg->grid.len : 0 };
}

bool rs_cgroups_series_shared(const struct rs_cgroups *cg)
{
	return cg->grid.shared;
}

const int64_t *rs_cgroups_series(const struct rs_cgroups *cg, int i, int metric)
{
	const struct cg_priv *p;

	if (i < 0 || i >= cg->nr || metric < 0 || metric >= RS_CG_TS_NR)
		return NULL;
	p = &cg->priv[i];
	if (!p->ts || p->ts_cap < cg->grid.len)
		return NULL;
	return p->ts + (size_t)metric * p->ts_cap;
}
