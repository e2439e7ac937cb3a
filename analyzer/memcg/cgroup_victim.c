// SPDX-License-Identifier: GPL-2.0
/*
 * The victim side of the per-cgroup attribution: count_memcg_events sums per memcg id and
 * item exactly as the trace has them; each shrink event's pages given to the memcg its task's
 * counters name (cgroup_match.c), by reclaim context and LRU list; the trigger x victim matrix;
 * mod_memcg_lruvec_state deltas per cgroup and list.
 *
 * Per task of the analysis, an lru_isolate opens a window that collects the task's memcg
 * events until its shrink event; an isolate that took nothing has no shrink event, and the
 * task's next isolate (or the end) closes its window with the scan side alone.
 */
#include <stdlib.h>
#include <string.h>

#include "cgroups_state.h"
#include "rs_warn.h"

static struct rs_cg_cell *matrix_cell(struct rs_cgroups *cg, int trig, int victim, int ctx)
{
	uint64_t key = ((uint64_t)(uint32_t)(trig + 3) << 32) |
		       ((uint64_t)(uint32_t)(victim + 2) << 8) | (uint64_t)ctx;
	int i = cg_map_get(&cg->by_cell, key);
	struct rs_cg_cell *c;

	if (i >= 0)
		return &cg->cells[i];
	if (cg->nr_cells >= RS_CG_MAX_CELLS) {
		if (!cg->warned_cells)
			rs_warn(cg->warnings, "more than %d trigger x victim cells: further pages "
				"are left out of cgroup_matrix (counted in cgroup_attribution)",
				RS_CG_MAX_CELLS);
		cg->warned_cells = true;
		return NULL;
	}
	if (cg->nr_cells == cg->cap_cells) {
		int cap = cg->cap_cells ? cg->cap_cells * 2 : 64;
		struct rs_cg_cell *n = realloc(cg->cells, (size_t)cap * sizeof(*n));

		if (!n) {
			cg->oom = true;
			return NULL;
		}
		cg->cells = n;
		cg->cap_cells = cap;
	}
	if (cg_map_put(&cg->by_cell, key, cg->nr_cells) < 0) {
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

static void credit(struct rs_cgroups *cg, struct cg_rtask *rt, const struct take *tk,
		   const struct cg_match *m)
{
	struct rs_cg_attrib *at = &cg->at;
	struct rs_cg_cell *cell;

	if (tk->isolate_only) {
		at->isolates_without_shrink++;
		if (!m->exact)
			return;		/* nothing taken: only a matched scan is worth keeping */
		at->isolates_without_shrink_matched++;
	} else {
		at->shrinks++;
		at->scanned += tk->scanned;
		at->reclaimed += tk->reclaimed;
		if (m->exact) {
			at->exact++;
			at->scanned_exact += tk->scanned;
			at->reclaimed_exact += tk->reclaimed;
		} else {
			at->by_reason[m->reason]++;
			if (m->victim >= 0)
				at->fallback++;
			else
				at->unmatched++;
		}
	}
	if (m->victim >= 0) {
		struct rs_cgroup *v = &cg->cgs[m->victim];
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
			if (m->exact)
				v->exact++;
			else {
				v->fallback++;
				v->fallback_by[m->reason]++;
			}
		}
		v->taken_scanned[st] += tk->scanned;
		v->taken_reclaimed[st] += tk->reclaimed;
		cg_ts_add(cg, m->victim, RS_CG_TS_VICTIM_SCANNED, tk->ts, (int64_t)tk->scanned);
		cg_ts_add(cg, m->victim, RS_CG_TS_VICTIM_RECLAIMED, tk->ts, (int64_t)tk->reclaimed);
		if (tk->ctx < RS_CTX_KSWAPD) {
			struct cg_open_ep *e = cg_ep_find(rt, tk->serial);

			if (e)
				cg_ep_victim(cg, e, m->victim);
		}
	}
	if (tk->trig >= 0) {
		cg->cgs[tk->trig].caused_scanned[tk->ctx] += tk->scanned;
		cg->cgs[tk->trig].caused_reclaimed[tk->ctx] += tk->reclaimed;
		cg->cgs[tk->trig].active = true;
	}
	cell = matrix_cell(cg, tk->trig, m->victim, tk->ctx);
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
	struct cg_open_ep *e;

	if (outer == RS_CTX_KSWAPD || rt->kswapd)
		return RS_CG_KSWAPD;
	e = cg_ep_find(rt, serial);
	if (e)
		return e->trig;
	return cg_task_row(cg, rt->pid);
}

static bool is_active_list(int l)
{
	return l == RS_LRU_ACTIVE_ANON || l == RS_LRU_ACTIVE_FILE;
}

/* An isolate followed by another isolate or the end: nothing taken, no shrink event. */
void cg_close_without_shrink(struct rs_cgroups *cg, struct cg_rtask *rt)
{
	struct cg_window *w = &rt->w;
	struct cg_match m;
	struct take tk = {
		.ctx = w->ctx, .trig = w->trig, .serial = w->serial, .ts = w->ts,
		.isolate_only = true, .scanned = w->nr_scanned,
		.list = w->lru >= 0 ? w->lru : RS_LRU_INACTIVE_FILE,
	};

	w->open = false;
	if (!w->selected)
		return;
	cg_match_window(w, w->lru >= 0 && is_active_list(w->lru), w->nr_scanned, false, 0, &m);
	if (w->lru < 0 && m.exact)
		tk.list = RS_LRU_INACTIVE_FILE;	/* old kernels only; no memcg counters there */
	credit(cg, rt, &tk, &m);
}

void cg_on_isolate(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct cg_rtask *rt = cg_rtask(cg, ctx->task, ev->pid);

	if (!rt)
		return;
	if (rt->w.open)
		cg_close_without_shrink(cg, rt);
	cg_window_open(&rt->w, ev, ctx);
	rt->w.trig = trigger_of(cg, rt, ctx->outer, ctx->serial);
}

void cg_on_shrink(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	bool active = ev->type == RS_EV_SHRINK_ACTIVE;
	unsigned int flags = active ? ev->active.reclaim_flags : ev->inactive.reclaim_flags;
	bool file = flags & RS_RECLAIM_WB_FILE;
	struct cg_rtask *rt = cg_rtask(cg, ctx->task, ev->pid);
	struct cg_match m = { .victim = RS_CG_UNATTRIBUTED, .reason = RS_CGR_UNTRACKED_TASK };
	struct take tk = {
		.ctx = ctx->kind, .serial = ctx->serial, .ts = ev->ts,
		.list = active ? (file ? RS_LRU_ACTIVE_FILE : RS_LRU_ACTIVE_ANON) :
				 (file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON),
		.scanned = active ? ev->active.nr_taken : ev->inactive.nr_scanned,
		.reclaimed = active ? 0 : ev->inactive.nr_reclaimed,
		.deactivated = active ? ev->active.nr_deactivated : 0,
	};

	if (rt) {
		struct cg_window *w = &rt->w;

		/* an isolate of the other side of the lists is not this shrink's */
		if (w->open && w->lru >= 0 && is_active_list(w->lru) != active)
			cg_close_without_shrink(cg, rt);
		tk.trig = trigger_of(cg, rt, ctx->outer, ctx->serial);
		if (!w->open) {
			m.reason = RS_CGR_NO_ISOLATE;
		} else {
			if (active)
				tk.scanned = w->nr_scanned;
			if (w->lru >= 0)
				tk.list = w->lru;
			cg_match_window(w, active, tk.scanned, true,
					active ? tk.deactivated : tk.reclaimed, &m);
			w->open = false;
		}
	} else {
		tk.trig = cg_unknown_row(cg);
	}
	if (ctx->selected)
		credit(cg, rt, &tk, &m);
}

static void grow_items(struct rs_cgroups *cg, struct rs_cgroup *c, int item)
{
	int n = (item / 64 + 1) * 64;
	int64_t *v;

	if (n > RS_CG_MAX_ITEMS)
		n = RS_CG_MAX_ITEMS;
	v = realloc(c->items, (size_t)n * sizeof(*v));
	if (!v) {
		cg->oom = true;
		return;
	}
	memset(v + c->nr_items, 0, (size_t)(n - c->nr_items) * sizeof(*v));
	c->items = v;
	c->nr_items = n;
}

void cg_on_count(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	int item = ev->memcg.item, row = cg_of_id(cg, ev->memcg.id);
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

		if (item >= c->nr_items)
			grow_items(cg, c, item);
		if (item < c->nr_items)
			c->items[item] += ev->memcg.val;
		c->item_events++;
	}
	if (ctx->task >= 0 && ctx->task < cg->nr_rt && cg->rt[ctx->task].w.open) {
		int cls = !cg->nr_item_names ? CG_CLS_UNNAMED :
			  in_range && item < cg->nr_item_names ? cg->item_cls[item] : CG_CLS_OTHER;

		cg_window_count(&cg->rt[ctx->task].w, row, cls, ev->memcg.val);
	}
}

void cg_on_lruvec(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	int item = ev->memcg.item, list, row;
	struct rs_cgroup *c;

	cg->at.lruvec_events++;
	if (item < 0 || item >= RS_CG_MAX_ITEMS || (list = cg->lru_of_item[item]) < 0)
		return;
	row = cg_of_id(cg, ev->memcg.id);
	if (row < 0)
		return;
	/* LRU sizes are the cgroup's state: every task's changes count, filter or not */
	c = &cg->cgs[row];
	c->lru_delta[list] += ev->memcg.val;
	if (c->lru_delta[list] < c->lru_delta_min[list])
		c->lru_delta_min[list] = c->lru_delta[list];
	c->lru_events++;
	c->active = true;
	cg_ts_add(cg, row, RS_CG_TS_LRU_DELTA + list, ev->ts, ev->memcg.val);
	if (ev->memcg.val < 0 && ctx->task >= 0 && ctx->task < cg->nr_rt) {
		struct cg_window *w = &cg->rt[ctx->task].w;

		if (w->open) {
			w->any_memcg = true;
			if (w->lruvec_cg < 0)
				w->lruvec_cg = row;
		}
	}
}
