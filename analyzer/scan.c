// SPDX-License-Identifier: GPL-2.0
/*
 * Per-LRU scan pressure: lru_isolate, lru_shrink_inactive, lru_shrink_active, write_folio and
 * reclaim_pages counted per (node, list, reclaim context, priority).
 *
 * Why the pending isolate: inside shrink_inactive_list()/shrink_active_list() a task emits
 * lru_isolate first and its shrink event last, and only the shrink event names the node and the
 * priority (and, before 4.11, whether the list was the active or inactive one). So an isolate
 * waits, per task, for that task's next shrink event of the same list; write_folio events in
 * between (pageout() from shrink_folio_list()) wait with it. An isolate that is followed by
 * another isolate, by a shrink event of another list, or by the end of the trace is committed
 * with priority "unknown" and counted (attrib.isolates_uncompleted); its node is "unknown" too
 * but in kswapd, which reclaims its own node only (balance_pgdat()).
 *
 * MGLRU's evict_folios() retry repeats a batch's lru_shrink_inactive, nr_scanned and all, with
 * no isolate of its own (episodes.c shrink_retry(), which tells it for every consumer): its
 * scanned pages count once, with the event it repeats.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis_state.h"
#include "rs_warn.h"

static int node_slot(struct rs_analysis *a, int nid)
{
	if (nid < 0)
		return 0;
	if (nid >= a->max_nodes) {
		a->at.node_out_of_range++;
		rs_warn_once(a->warnings, &a->warned_nodes, "node id %d is at or above the node cap "
			     "%d: counted as node \"unknown\"", nid, a->max_nodes);
		return 0;
	}
	return nid + 1;
}

static int prio_slot(struct rs_analysis *a, const struct rs_event *ev, int prio)
{
	if (!(ev->have & RS_HAVE_PRIORITY))
		return RS_PRIO_UNKNOWN;
	if (prio < 0 || prio > RS_PRIO_DEF) {
		a->at.priority_out_of_range++;
		rs_warn_once(a->warnings, &a->warned_prio, "priority %d outside 0..%d: counted as "
			     "\"unknown\"", prio, RS_PRIO_DEF);
		return RS_PRIO_UNKNOWN;
	}
	return prio;
}

static struct rs_lru_counts *cell(struct rs_analysis *a, int slot, int list, int ctx, int prio)
{
	struct rs_lru_counts *blk = a->nodes[slot];

	if (!blk) {
		blk = calloc(NODE_CELLS, sizeof(*blk));
		if (!blk) {
			a->oom = true;
			return &a->scratch;
		}
		a->nodes[slot] = blk;
	}
	return &blk[(list * RS_CTX_NR + ctx) * RS_NR_PRIO + prio];
}

static bool list_is_file(int list)
{
	return list == RS_LRU_INACTIVE_FILE || list == RS_LRU_ACTIVE_FILE;
}

static bool list_is_inactive(int list)
{
	return list == RS_LRU_INACTIVE_ANON || list == RS_LRU_INACTIVE_FILE;
}

/*
 * One mm_vmscan_lru_shrink_inactive's (or reclaim_pages') counts, added to a cell; a retry's
 * nr_scanned was counted by the event it repeats.
 */
static void count_shrink_inactive(struct rs_lru_counts *c, const struct rs_ev_shrink_inactive *si,
				  bool retry)
{
	c->inactive_shrinks++;
	if (!retry)
		c->inactive_scanned += si->nr_scanned;
	c->reclaimed += si->nr_reclaimed;
	c->activate_anon += si->nr_activate_anon;
	c->activate_file += si->nr_activate_file;
	c->ref_keep += si->nr_ref_keep;
	c->unmap_fail += si->nr_unmap_fail;
	c->dirty += si->nr_dirty;
	c->writeback += si->nr_writeback;
	c->congested += si->nr_congested;
	c->immediate += si->nr_immediate;
}

/* The write_folio counts of p (its pageouts, or one write that had no isolate to wait for). */
static void add_writes(struct rs_analysis *a, const struct pend_isolate *p,
		       struct rs_lru_counts *c, struct rs_task_stats *ts)
{
	c->write_anon += p->w_anon;
	c->write_file += p->w_file;
	c->write_sync += p->w_sync;
	c->write_async += p->w_async;
	if (p->w_anon + p->w_file)
		rs_series_add(a->series, RS_TS_WRITE, p->ts, p->w_anon + p->w_file);
	if (ts) {
		ts->write_anon += p->w_anon;
		ts->write_file += p->w_file;
		ts->write_sync += p->w_sync;
		ts->write_async += p->w_async;
		ts->active = true;
	}
}

static void commit(struct rs_analysis *a, struct pend_isolate *p, int slot, int list, int prio,
		   struct rs_task_stats *ts)
{
	struct rs_lru_counts *c = cell(a, slot, list, p->ctx, prio);

	c->isolates++;
	c->requested += p->requested;
	c->scanned += p->scanned;
	c->skipped += p->skipped;
	c->taken += p->taken;
	if (list < RS_LRU_UNEVICTABLE)
		rs_series_add(a->series, RS_TS_SCANNED_IA + list, p->ts, p->scanned);
	rs_series_add(a->series, RS_TS_SCANNED_CTX + p->ctx, p->ts, p->scanned);
	if (ts) {
		ts->scanned += p->scanned;
		if (list_is_inactive(list))
			ts->scanned_inactive += p->scanned;
		ts->taken += p->taken;
	}
	add_writes(a, p, c, ts);
	p->valid = false;
}

void rs_scan_flush(struct rs_analysis *a, struct task_priv *tp, struct rs_task_stats *ts)
{
	struct pend_isolate *p = &tp->pend;
	int list;

	if (!p->valid)
		return;
	a->at.isolates_uncompleted++;
	a->at.uncompleted_scanned += p->scanned;
	list = p->lru >= 0 ? p->lru : RS_LIST_UNKNOWN;
	commit(a, p, node_slot(a, p->nid), list, RS_PRIO_UNKNOWN, ts);
}

void rs_scan_isolate(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		     struct task_priv *tp, struct rs_task_stats *ts)
{
	const struct rs_ev_isolate *is = &ev->isolate;
	struct pend_isolate tmp, *p = tp ? &tp->pend : &tmp;

	if (tp)
		rs_scan_flush(a, tp, ts);
	p->valid = true;
	p->lru = (ev->have & RS_HAVE_LRU) ? (int8_t)is->lru : -1;
	if (ev->have & RS_HAVE_FILE)
		p->file = is->file ? 1 : 0;
	else
		p->file = p->lru >= 0 ? list_is_file(p->lru) : -1;
	p->ctx = (uint8_t)ctx->kind;
	if (ev->have & RS_HAVE_NID)
		p->nid = is->nid;
	else
		p->nid = ctx->kind == RS_CTX_KSWAPD ? ctx->kswapd_nid : -1;
	p->ts = ev->ts;
	p->requested = is->nr_requested;
	p->scanned = is->nr_scanned;
	p->skipped = is->nr_skipped;
	p->taken = is->nr_taken;
	p->w_anon = p->w_file = p->w_sync = p->w_async = 0;
	if (!tp) {
		/* no task slot to wait in (task cap): commit it now */
		struct task_priv t = { .pend = *p };

		rs_scan_flush(a, &t, NULL);
	}
}

/* Does the pending isolate belong to a shrink of `list`? */
static bool pend_matches(const struct pend_isolate *p, int list)
{
	if (!p->valid)
		return false;
	if (p->lru >= 0)
		return p->lru == list;
	return p->file < 0 || p->file == list_is_file(list);
}

void rs_scan_shrink(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		    struct task_priv *tp, struct rs_task_stats *ts)
{
	bool inactive = ev->type == RS_EV_SHRINK_INACTIVE;
	unsigned int flags = inactive ? ev->inactive.reclaim_flags : ev->active.reclaim_flags;
	bool file = flags & RS_RECLAIM_WB_FILE;
	int list = inactive ? (file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON) :
			      (file ? RS_LRU_ACTIVE_FILE : RS_LRU_ACTIVE_ANON);
	int nid = inactive ? ev->inactive.nid : ev->active.nid;
	int prio = prio_slot(a, ev, inactive ? ev->inactive.priority : ev->active.priority);
	int slot = node_slot(a, (ev->have & RS_HAVE_NID) ? nid : -1);
	int c_ctx = ctx->kind;
	bool retry = false;
	struct rs_lru_counts *c;

	if (tp && pend_matches(&tp->pend, list)) {
		c_ctx = tp->pend.ctx;
		a->at.isolates_completed++;
		/*
		 * Over time, the isolate's pages count at its shrink event, where the reclaimed
		 * ones count: apart, a bucket edge between them made efficiency exceed 100 %.
		 */
		tp->pend.ts = ev->ts;
		commit(a, &tp->pend, slot, list, prio, ts);
	} else {
		retry = inactive && ctx->shrink_retry;	/* the loading stage tells it */
		if (tp)
			rs_scan_flush(a, tp, ts);
		a->at.shrinks_without_isolate++;
	}
	c = cell(a, slot, list, c_ctx, prio);
	if (inactive) {
		const struct rs_ev_shrink_inactive *si = &ev->inactive;

		count_shrink_inactive(c, si, retry);
		rs_series_add(a->series, file ? RS_TS_RECLAIMED_FILE : RS_TS_RECLAIMED_ANON, ev->ts,
			      si->nr_reclaimed);
		rs_series_add(a->series, RS_TS_RECLAIMED_CTX + c_ctx, ev->ts, si->nr_reclaimed);
		rs_series_add(a->series, RS_TS_ACTIVATED, ev->ts,
			      si->nr_activate_anon + si->nr_activate_file);
		if (ts)
			ts->reclaimed += si->nr_reclaimed;
	} else {
		const struct rs_ev_shrink_active *sa = &ev->active;

		c->active_shrinks++;
		c->active_taken += sa->nr_taken;
		c->active_kept += sa->nr_active;
		c->deactivated += sa->nr_deactivated;
		c->referenced += sa->nr_referenced;
		rs_series_add(a->series, RS_TS_DEACTIVATED, ev->ts, sa->nr_deactivated);
	}
	if (ts)
		ts->active = true;
}

void rs_scan_write(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		   struct task_priv *tp, struct rs_task_stats *ts)
{
	unsigned int flags = ev->write.reclaim_flags;
	bool file = flags & RS_RECLAIM_WB_FILE, sync = flags & RS_RECLAIM_WB_SYNC;
	int list = file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;
	struct pend_isolate *p = tp ? &tp->pend : NULL;
	struct pend_isolate one = {
		.ts = ev->ts, .w_anon = !file, .w_file = file, .w_sync = sync, .w_async = !sync,
	};

	/* pageout() during the pending isolate's shrink_folio_list(): it completes with it */
	if (p && pend_matches(p, list)) {
		p->w_anon += one.w_anon;
		p->w_file += one.w_file;
		p->w_sync += one.w_sync;
		p->w_async += one.w_async;
		return;
	}
	a->at.writes_without_isolate++;
	add_writes(a, &one, cell(a, 0, list, ctx->kind, RS_PRIO_UNKNOWN), ts);
}

void rs_scan_reclaim_pages(struct rs_analysis *a, const struct rs_event *ev,
			   const struct rs_ctx *ctx)
{
	const struct rs_ev_shrink_inactive *si = &ev->inactive;

	count_shrink_inactive(&a->rp[ctx->kind], si, false);
}

void rs_scan_free(struct rs_analysis *a)
{
	if (!a->nodes)
		return;
	for (int i = 0; i <= a->max_nodes; i++)
		free(a->nodes[i]);
	free(a->nodes);
}

void rs_lru_counts_add(struct rs_lru_counts *dst, const struct rs_lru_counts *src)
{
	uint64_t *d = (uint64_t *)dst;
	const uint64_t *s = (const uint64_t *)src;

	/* every member is a uint64_t counter */
	for (size_t i = 0; i < sizeof(*dst) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

bool rs_analysis_node_used(const struct rs_analysis *a, int slot)
{
	return slot >= 0 && slot <= a->max_nodes && a->nodes[slot];
}

int rs_analysis_nr_node_slots(const struct rs_analysis *a)
{
	return a->max_nodes + 1;
}

void rs_analysis_lru_sum(const struct rs_analysis *a, int node_slot, int list, int ctx, int prio,
			 struct rs_lru_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (int n = 0; n <= a->max_nodes; n++) {
		const struct rs_lru_counts *blk = a->nodes[n];

		if (!blk || (node_slot >= 0 && n != node_slot))
			continue;
		for (int l = 0; l < RS_NR_LISTS; l++) {
			if (list >= 0 && l != list)
				continue;
			for (int c = 0; c < RS_CTX_NR; c++) {
				if (ctx >= 0 && c != ctx)
					continue;
				for (int p = 0; p < RS_NR_PRIO; p++)
					if (prio < 0 || p == prio)
						rs_lru_counts_add(out,
							&blk[(l * RS_CTX_NR + c) * RS_NR_PRIO + p]);
			}
		}
	}
}

const struct rs_lru_counts *rs_analysis_reclaim_pages(const struct rs_analysis *a, int ctx)
{
	return ctx >= 0 && ctx < RS_CTX_NR ? &a->rp[ctx] : NULL;
}
