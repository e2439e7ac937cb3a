// SPDX-License-Identifier: GPL-2.0
/*
 * The victim side of the per-cgroup attribution: count_memcg_events sums per memcg id and
 * item exactly as the trace has them; each shrink event's pages given to the victim the
 * loading stage matched (memcg_attrib.h: rs_ctx.memcg), by reclaim context and LRU list; the
 * trigger x victim matrix; mod_memcg_lruvec_state deltas per cgroup and list.
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup_rows.h"
#include "cgroup_series.h"
#include "cgroup_snap.h"
#include "cgroup_victim.h"
#include "ep_slots.h"
#include "rs_grow.h"
#include "rs_warn.h"

/* ---- the matrix ---- */


static struct rs_cg_cell *matrix_cell(struct rs_cgroups *cg, int trig, int victim, int ctx)
{
	uint64_t key = ((uint64_t)(uint32_t)(trig + 3) << 32) |
		       ((uint64_t)(uint32_t)(victim + 2) << 8) | (uint64_t)ctx;
	int i = rs_u64map_get(&cg->by_cell, key);
	struct rs_cg_cell *c;

	if (i >= 0)
		return &cg->cells[i];
	if (cg->nr_cells >= RS_CG_MAX_CELLS) {
		rs_warn_once(cg->warnings, &cg->warned_cells, "more than %d trigger x victim cells: "
			     "further pages are left out of cgroup_matrix (counted in "
			     "cgroup_attribution)", RS_CG_MAX_CELLS);
		return NULL;
	}
	if (rs_grow_rows(&cg->cap_cells, cg->nr_cells, 64, (const struct rs_grow_array[]){
			{ (void **)&cg->cells, sizeof(*cg->cells) } }, 1) ||
	    rs_u64map_put(&cg->by_cell, key, cg->nr_cells) < 0) {
		cg->oom = true;
		return NULL;
	}
	c = &cg->cells[cg->nr_cells++];
	memset(c, 0, sizeof(*c));
	c->trigger = trig;
	c->victim = victim;
	c->ctx = ctx;
	return c;
}

/* What one closed window (a shrink event, or an isolate without one) took, and from whom. */
struct take {
	int ctx, trig, list;
	uint64_t serial, ts;
	bool isolate_only;
	uint64_t scanned, reclaimed, deactivated;
};

static void credit(struct rs_cgroups *cg, const struct take *tk, const struct rs_victim *m)
{
	struct rs_cg_attrib *at = &cg->at;
	struct rs_cg_cell *cell;
	bool exact = m->how == RS_VICTIM_EXACT;

	if (tk->isolate_only) {
		at->isolates_without_shrink++;
		if (!exact)
			return;		/* nothing taken: only a matched scan is worth keeping */
		at->isolates_without_shrink_matched++;
	} else {
		at->shrinks++;
		at->scanned += tk->scanned;
		at->reclaimed += tk->reclaimed;
		if (exact) {
			at->exact++;
			at->scanned_exact += tk->scanned;
			at->reclaimed_exact += tk->reclaimed;
		} else {
			at->by_reason[m->reason]++;
			if (m->row >= 0)
				at->fallback++;
			else
				at->unmatched++;
		}
	}
	if (m->row >= 0) {
		struct rs_cgroup *v = &cg->cgs[m->row];
		struct rs_cg_pages *p = &v->pages[tk->ctx][tk->list];
		int st = cg_soft_state(cg, v);

		v->active = true;
		if (tk->isolate_only) {
			p->isolate_only_scanned += tk->scanned;
		} else {
			p->shrinks++;
			p->scanned += tk->scanned;
			p->reclaimed += tk->reclaimed;
			p->deactivated += tk->deactivated;
			if (exact)
				v->exact++;
			else {
				v->fallback++;
				v->fallback_by[m->reason]++;
			}
		}
		v->taken_scanned[st] += tk->scanned;
		v->taken_reclaimed[st] += tk->reclaimed;
		cg_ts_add(cg, m->row, RS_CG_TS_VICTIM_SCANNED, tk->ts, (int64_t)tk->scanned);
		cg_ts_add(cg, m->row, RS_CG_TS_VICTIM_RECLAIMED, tk->ts, (int64_t)tk->reclaimed);
	}
	if (tk->trig >= 0) {
		cg->cgs[tk->trig].caused_scanned[tk->ctx] += tk->scanned;
		cg->cgs[tk->trig].caused_reclaimed[tk->ctx] += tk->reclaimed;
		cg->cgs[tk->trig].active = true;
	}
	cell = matrix_cell(cg, tk->trig, m->row, tk->ctx);
	if (!cell) {
		at->cells_overflow++;
		return;
	}
	cell->shrinks += !tk->isolate_only;
	cell->scanned += tk->scanned;
	cell->reclaimed += tk->reclaimed;
	cell->deactivated += tk->deactivated;
}

/* The trigger of reclaim a task does in context (kind, outer, serial). */
static int trigger_of(struct rs_cgroups *cg, struct cg_rtask *rt, int outer, uint64_t serial)
{
	int slot;

	if (outer == RS_CTX_KSWAPD || rt->kswapd)
		return RS_CG_KSWAPD;
	slot = ep_slot_find(rt->ep_serial, CG_TASK_EPS, serial);
	return slot >= 0 ? rt->ep_trig[slot] : cg_task_row(cg, rt->pid);
}

/* An isolate followed by another isolate or the end: nothing taken, no shrink event. */
void cg_isolate_only(struct rs_cgroups *cg, struct cg_rtask *rt, const struct rs_victim *v)
{
	struct take tk = {
		.ctx = v->ctx, .trig = rt->win_trig, .serial = v->serial, .ts = v->ts,
		.isolate_only = true, .scanned = v->nr_scanned,
		.list = v->lru >= 0 ? v->lru : RS_LRU_INACTIVE_FILE,
	};

	if (v->selected)
		credit(cg, &tk, v);
}

void cg_on_isolate(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct cg_rtask *rt = cg_rtask(cg, ctx->task, ev->pid);

	if (!rt)
		return;
	if (ctx->memcg->closed.valid)
		cg_isolate_only(cg, rt, &ctx->memcg->closed);
	rt->win_trig = trigger_of(cg, rt, ctx->outer, ctx->serial);
}

void cg_on_shrink(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	bool active = ev->type == RS_EV_SHRINK_ACTIVE;
	unsigned int flags = active ? ev->active.reclaim_flags : ev->inactive.reclaim_flags;
	bool file = flags & RS_RECLAIM_WB_FILE;
	struct cg_rtask *rt = cg_rtask(cg, ctx->task, ev->pid);
	const struct rs_victim *v = &ctx->memcg->shrink;
	struct take tk = {
		.ctx = ctx->kind, .serial = ctx->serial, .ts = ev->ts,
		.list = active ? (file ? RS_LRU_ACTIVE_FILE : RS_LRU_ACTIVE_ANON) :
				 (file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON),
		.scanned = active ? ev->active.nr_taken : ev->inactive.nr_scanned,
		.reclaimed = active ? 0 : ev->inactive.nr_reclaimed,
		.deactivated = active ? ev->active.nr_deactivated : 0,
	};

	if (rt) {
		if (ctx->memcg->closed.valid)
			cg_isolate_only(cg, rt, &ctx->memcg->closed);
		tk.trig = trigger_of(cg, rt, ctx->outer, ctx->serial);
		if (v->had_isolate) {
			/*
			 * The isolate's nr_scanned, as analyze's LRU table counts: under MGLRU
			 * evict_folios() adds progress marks to the shrink event's nr_scanned
			 * (+1 when try_to_inc_min_seq() or a min-gen list), pages nobody scanned.
			 * On the classic LRU the two are the same number.
			 */
			tk.scanned = v->nr_scanned;
			if (v->lru >= 0)
				tk.list = v->lru;
		}
	} else {
		tk.trig = rs_memcgs_unknown_row(cg->mc);
		cg_sync(cg);
	}
	/* MGLRU's retry of the task's previous shrink: its batch was counted there */
	if (ctx->shrink_retry)
		tk.scanned = 0;
	if (ctx->selected)
		credit(cg, &tk, v);
}

/* Room in a per-item sum array for `item`; false when out of memory. */
static bool grow_items(struct rs_cgroups *cg, int64_t **items, int *nr, int item)
{
	int n = (item / 64 + 1) * 64;
	int64_t *v;

	if (item < *nr)
		return true;
	if (n > RS_CG_MAX_ITEMS)
		n = RS_CG_MAX_ITEMS;
	v = realloc(*items, (size_t)n * sizeof(*v));
	if (!v) {
		cg->oom = true;
		return false;
	}
	memset(v + *nr, 0, (size_t)(n - *nr) * sizeof(*v));
	*items = v;
	*nr = n;
	return item < n;
}

void cg_on_count(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	int item = ev->memcg.item, row = ctx->memcg->named;
	bool in_range = item >= 0 && item < RS_CG_MAX_ITEMS;

	cg->at.count_events++;
	if (row < 0)
		return;
	if (!in_range && !cg->warned_item_range) {
		rs_warn(cg->warnings, "count_memcg_events item %d outside 0..%d: not counted",
			item, RS_CG_MAX_ITEMS - 1);
		cg->warned_item_range = true;
	}
	if (ctx->selected && in_range) {
		struct rs_cgroup *c = &cg->cgs[row];

		if (grow_items(cg, &c->items, &c->nr_items, item))
			c->items[item] += ev->memcg.val;
		c->item_events++;
	}
}

void cg_on_lruvec(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	int list = ctx->memcg->lru, row = ctx->memcg->named;
	struct rs_cgroup *c;
	bool v2;

	cg->at.lruvec_events++;
	/* 7.x: the reclaim counters that became node-stat items, summed as count_memcg_events */
	if (row >= 0 && ctx->selected && rs_memcgs_node_item_was_vm_event(cg->mc, ev->memcg.item)) {
		c = &cg->cgs[row];
		if (grow_items(cg, &c->node_items, &c->nr_node_items, ev->memcg.item))
			c->node_items[ev->memcg.item] += ev->memcg.val;
		c->active = true;
	}
	if (list < 0 || row < 0)
		return;
	/*
	 * LRU sizes are the cgroup's state: every task's changes count, filter or not. They are
	 * held against the snapshots' memory.stat, which on cgroup v2 counts the cgroup's
	 * descendants too: there each change is the subtree's of every ancestor as well (a
	 * parent's own lists are near empty, its snapshot the children's sum: 8,326 active anon
	 * pages of "disagreement" on the 7.2 shmem guest trace's /rs_shm without this).
	 */
	v2 = cg->hierarchy && !strcmp(cg->hierarchy, "v2");
	for (int depth = 0; row >= 0 && depth < 64; depth++) {
		c = &cg->cgs[row];
		c->lru_delta[list] += ev->memcg.val;
		if (c->lru_delta[list] < c->lru_delta_min[list])
			c->lru_delta_min[list] = c->lru_delta[list];
		c->lru_events++;
		c->active = true;
		cg_ts_add(cg, row, RS_CG_TS_LRU_DELTA + list, ev->ts, ev->memcg.val);
		row = v2 ? cg_parent_row(cg, row) : -1;
	}
}
