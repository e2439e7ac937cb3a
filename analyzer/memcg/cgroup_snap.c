// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's memcg_stat snapshots (docs/markers.md): usage against the soft limit over time,
 * the soft-limit state a victim was in when its pages were taken, and LRU sizes: the
 * mod_memcg_lruvec_state deltas given an offset (0 for a cgroup made in the trace, else the
 * median of snapshot - deltas) and held against every snapshot.
 *
 * Snapshot sizes are bytes (memory.stat); pages use the page size of the recorder's begin
 * marker (4096 without one). A v1 soft limit of PAGE_COUNTER_MAX pages means none; cgroup v2
 * has no soft limit, so its state is "unknown".
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup_series.h"
#include "cgroup_snap.h"
#include "rs_cmp.h"

int cg_soft_state(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	uint64_t ps = cg->page_size, unlimited = (uint64_t)(INT64_MAX / (int64_t)ps) * ps;

	if (!c->snapshots || !c->soft_recorded || c->soft_limit == UINT64_MAX)
		return RS_CG_SOFT_UNKNOWN;
	if (c->soft_limit >= unlimited)
		return RS_CG_SOFT_UNDER;
	return c->usage > c->soft_limit ? RS_CG_SOFT_OVER : RS_CG_SOFT_UNDER;
}

void cg_on_snapshot(struct rs_cgroups *cg, const struct rs_event *ev, int row)
{
	const struct rs_ev_snap_memcg *s = &ev->snap_memcg;
	int st;
	int64_t pages[RS_LRU_NR];
	struct rs_cgroup *c;
	struct cg_priv *p;

	if (row < 0)
		return;
	c = &cg->cgs[row];
	p = &cg->priv[row];
	c->active = true;
	if (c->snapshots && ev->ts > c->last_snap_ts) {
		uint64_t dt = ev->ts - c->last_snap_ts;

		if (p->prev_state == RS_CG_SOFT_OVER)
			c->over_ns += dt;
		else if (p->prev_state == RS_CG_SOFT_UNDER)
			c->under_ns += dt;
	}
	if (!c->snapshots)
		c->first_snap_ts = ev->ts;
	c->snapshots++;
	c->last_snap_ts = ev->ts;
	c->usage = s->usage;
	if (s->usage > c->usage_max)
		c->usage_max = s->usage;
	c->limit = s->limit;
	if (s->soft_limit != UINT64_MAX) {
		c->soft_recorded = true;
		c->soft_limit = s->soft_limit;
	}
	st = cg_soft_state(cg, c);
	if (st == RS_CG_SOFT_OVER) {
		c->snapshots_over++;
		if (c->usage - c->soft_limit > c->excess_max)
			c->excess_max = c->usage - c->soft_limit;
	}
	p->prev_state = st;
	cg_ts_set_last(cg, row, RS_CG_TS_USAGE, ev->ts,
		       s->usage > INT64_MAX ? INT64_MAX : (int64_t)s->usage);
	if (c->soft_recorded && c->soft_limit <= INT64_MAX)
		cg_ts_set_last(cg, row, RS_CG_TS_SOFT, ev->ts, (int64_t)c->soft_limit);
	for (int l = 0; l < RS_LRU_NR; l++) {
		pages[l] = (int64_t)(s->lru_bytes[l] / cg->page_size);
		cg_ts_set_last(cg, row, RS_CG_TS_SNAP_LRU + l, ev->ts, pages[l]);
		cg_ts_set_last(cg, row, RS_CG_TS_SNAP_OFFSET + l, ev->ts,
			       pages[l] - c->lru_delta[l]);
		if (c->snapshots > 1) {
			struct rs_cg_disagree *d = &c->dis[l];
			int64_t step = (pages[l] - c->last_snap_pages[l]) -
				       (c->lru_delta[l] - c->last_snap_delta[l]);
			uint64_t b = (uint64_t)(step < 0 ? -step : step);

			d->step_n++;
			d->step_sum_abs += b;
			if (b > d->step_max_abs)
				d->step_max_abs = b;
		}
	}
	memcpy(c->last_snap_pages, pages, sizeof(pages));
	memcpy(c->last_snap_delta, c->lru_delta, sizeof(pages));
}

static int i64_cmp(const void *x, const void *y)
{
	return RS_CMP(*(const int64_t *)x, *(const int64_t *)y);
}

/*
 * The deltas' offset per list: 0 for a cgroup made in the trace (empty at its mkdir), else the
 * (lower) median over the buckets' last snapshots of snapshot - deltas so far; then how far each
 * of those snapshots is from offset + deltas.
 */
void cg_anchor_lru(struct rs_cgroups *cg, int row)
{
	struct rs_cgroup *c = &cg->cgs[row];
	const int64_t *off0 = rs_cgroups_series(cg, row, RS_CG_TS_SNAP_OFFSET);
	size_t len = rs_cgroups_buckets(cg).len, n;
	int64_t *tmp;

	c->offset_from_mkdir = rs_memcgs_get(cg->mc, row)->mkdir_in_range;
	if (c->offset_from_mkdir)
		c->anchored = true;
	if (!c->snapshots || !off0 || !len)
		goto check;
	tmp = malloc(len * sizeof(*tmp));
	if (!tmp) {
		cg->oom = true;
		return;
	}
	for (int l = 0; l < RS_LRU_NR; l++) {
		const int64_t *off = rs_cgroups_series(cg, row, RS_CG_TS_SNAP_OFFSET + l);
		struct rs_cg_disagree *d = &c->dis[l];

		n = 0;
		for (size_t i = 0; i < len; i++)
			if (off[i] != RS_CG_TS_NONE)
				tmp[n++] = off[i];
		if (!n)
			continue;
		if (!c->offset_from_mkdir) {
			qsort(tmp, n, sizeof(*tmp), i64_cmp);
			c->offset_pages[l] = tmp[(n - 1) / 2];
			c->anchored = true;
		}
		for (size_t i = 0; i < len; i++) {
			int64_t diff;
			uint64_t a;

			if (off[i] == RS_CG_TS_NONE)
				continue;
			diff = off[i] - c->offset_pages[l];
			a = (uint64_t)(diff < 0 ? -diff : diff);
			d->n++;
			d->sum_abs += a;
			if (a > d->max_abs)
				d->max_abs = a;
			d->last = diff;
		}
	}
	free(tmp);
check:
	for (int l = 0; l < RS_LRU_NR && c->anchored; l++)
		if (c->offset_pages[l] + c->lru_delta_min[l] < 0)
			c->below_zero = true;
}
