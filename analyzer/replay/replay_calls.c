// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim invocations (struct rs_reclaim_call) from the trace, and what the recording did in
 * each: per list and per victim memcg, scanned (lru_isolate nr_scanned, as `analyze`), taken,
 * reclaimed (lru_shrink_inactive nr_reclaimed), activations, pageouts (write_folio between an
 * isolate and its shrink), priorities and rounds, the soft-limit part.
 *
 * One call per *_reclaim_begin/end pair of direct, memcg and node reclaim, per task (soft-limit
 * reclaim nests inside a direct or kswapd call and is part of it), and one per kswapd_wake:
 * kswapd emits it before every balance_pgdat() (mm/vmscan.c kswapd()), so a call is one
 * balance_pgdat() run, ending at the next wake or at kswapd_sleep. Reclaim events of a task
 * with no open call open one cut at the start; if no end names its kind, its events are
 * reported as outside any call and not replayed.
 *
 * Victims are the loading stage's (memcg_attrib.h, NOTES section 3): each isolate..shrink
 * window's outcome arrives with the shrink event (rs_ctx.memcg->shrink), or with the event that
 * closed an isolate that took nothing; a window this module closes at an episode's end is
 * matched on its scan side (rs_memcgs_open_window). No victim leaves the window unattributed
 * (the root).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "memcg_attrib.h"
#include "replay_calls.h"
#include "replay_memcgs.h"
#include "replay_report.h"
#include "rs_grow.h"

#define RI_DROPPED	(RI_NO_CALL - 1)	/* a call over the cap: swallow its events */

void ri_call_free(struct ri_call *c)
{
	RS_GROW_RELEASE(c->chk, c->nchk, c->capchk);
	RS_GROW_RELEASE(c->v, c->nv, c->capv);
	RS_GROW_RELEASE(c->pv, c->npv, c->cappv);
	RS_GROW_RELEASE(c->req, c->nreq, c->capreq);
	RS_GROW_RELEASE(c->steps, c->nsteps, c->capsteps);
	RS_GROW_RELEASE(c->iso, c->niso, c->capiso);
	RS_GROW_RELEASE(c->infl, c->ninfl, c->capinfl);
	RS_GROW_RELEASE(c->xprio, c->nxprio, c->capxprio);
}

/*
 * A (node, priority) pair a call's shrink ran at: the recorded rounds are the distinct pairs.
 * Nodes 0..3 in the call's masks, the rare others in rows of their own (an 8-node machine's
 * node 5 shrinking 40 times at priority 12 is one round, not 40).
 */
static void note_round(struct rs_replay_input *ri, struct ri_call *c, int nid, int prio)
{
	size_t i;

	if (nid < 4) {
		c->prio_mask[nid] |= (uint16_t)(1u << prio);
		return;
	}
	for (i = 0; i < c->nxprio && c->xprio[i].nid != nid; i++)
		;
	if (i == c->nxprio) {
		if (RS_GROW(c->xprio, c->capxprio, c->nxprio + 1, 4)) {
			ri->oom = true;
			return;
		}
		c->xprio[c->nxprio++] = (struct ri_node_prio){ .nid = nid };
	}
	c->xprio[i].mask |= (uint16_t)(1u << prio);
}

static struct ri_call *open_call(struct rs_replay_input *ri, struct ri_task *t,
				 const struct rs_event *ev, const struct rs_memcg_ctx *ctx_memcg,
				 int ctx)
{
	struct ri_call *c;

	if (ri->ncall >= ri->o.max_calls) {
		if (!ri->rep.calls_dropped++)
			ri_warn(ri, "more than %zu reclaim invocations: the rest are not replayed "
				"(raise the cap with --max-calls)", ri->o.max_calls);
		t->call = RI_DROPPED;
		return NULL;
	}
	if (RS_GROW(ri->call, ri->capcall, ri->ncall + 1, 256)) {
		ri->oom = true;
		return NULL;
	}
	/* deltas so far are applied before this call starts: the world at its start is exact */
	ri_flush_deltas(ri);
	c = &ri->call[ri->ncall];
	memset(c, 0, sizeof(*c));
	c->ctx = (int8_t)ctx;
	c->open = true;
	c->last_prio = -1;
	c->c.ts = ev->ts;
	c->c.ts_end = ev->ts;
	c->c.ctx = ctx >= 0 ? (enum rs_call_ctx)ctx : RS_CALL_DIRECT;
	c->c.nid = -1;
	c->c.target = -1;
	c->c.order = 0;
	c->c.may_swap = true;
	c->c.pid = ev->pid;
	c->c.ev_offset = ev->offset;
	c->c.rec.prio_first = c->c.rec.prio_lowest = -1;
	c->task_row = ri_memcg_row(ri, ctx_memcg->task);
	c->root_row = -1;
	c->swapin_row = -1;
	t->ended_memcg_call = RI_NO_CALL;
	t->flush_ts = 0;	/* a flush of its previous call is none of this one's passes */
	t->call = (uint32_t)ri->ncall++;
	return c;
}

/* A pgdat_balanced() check of a kswapd run (rs_recorded.checks). */
static void push_check(struct rs_replay_input *ri, struct ri_call *c, uint64_t ts,
		       uint64_t reclaimed, uint64_t node, const struct rs_zone_flow *flow)
{
	if (RS_GROW(c->chk, c->capchk, c->nchk + 1, 8)) {
		ri->oom = true;
		return;
	}
	c->chk[c->nchk++] = (struct rs_kswapd_check){ .ts = ts, .reclaimed = reclaimed,
						      .node_reclaimed = node, .flow = *flow };
}

static uint64_t node_reclaimed(struct rs_replay_input *ri, int nid)
{
	struct ri_node *n = ri_node_get(ri, nid);

	return n ? n->reclaimed : 0;
}

static struct ri_call *cur_call(struct rs_replay_input *ri, struct ri_task *t)
{
	return t->call < ri->ncall ? &ri->call[t->call] : NULL;
}

static uint64_t pass_cut(const struct ri_call *c);

static void close_call(struct rs_replay_input *ri, struct ri_task *t, uint64_t ts)
{
	struct ri_call *c = cur_call(ri, t);
	uint64_t cut;

	t->call = RI_NO_CALL;
	t->win = false;
	if (!c)
		return;
	c->open = false;
	c->c.ts_end = ts;
	/* kswapd: the check after its last pass, the one that found the node balanced */
	if (c->ctx == RS_CALL_KSWAPD && c->nchk && c->pass_open)
		push_check(ri, c, c->last_ts, c->total, c->last_node, &c->last_flow);
	/* the last pass, cut short as the others (note_pass()) */
	cut = pass_cut(c);
	if (cut && (!c->want_hi || cut < c->want_hi))
		c->want_hi = cut;
}

/* ---- windows ---- */

/* The entry for (memcg, nid, prio) in a victim array, added when new; NULL out of memory. */
static struct ri_victim *victim_in(struct rs_replay_input *ri, struct ri_victim **arr,
				   uint32_t *nv, uint32_t *capv, int memcg, int nid, int prio)
{
	for (uint32_t i = 0; i < *nv; i++)
		if ((*arr)[i].memcg == memcg && (*arr)[i].nid == nid && (*arr)[i].prio == prio)
			return &(*arr)[i];
	if (*nv == *capv) {
		uint32_t n = *capv ? *capv * 2 : 2;
		struct ri_victim *v = realloc(*arr, n * sizeof(*v));

		if (!v) {
			ri->oom = true;
			return NULL;
		}
		*arr = v;
		*capv = n;
	}
	memset(&(*arr)[*nv], 0, sizeof((*arr)[0]));
	(*arr)[*nv].memcg = memcg;
	(*arr)[*nv].nid = nid;
	(*arr)[*nv].prio = prio;
	(*arr)[*nv].req = RI_NO_REQ;
	return &(*arr)[(*nv)++];
}

static struct ri_victim *victim(struct rs_replay_input *ri, struct ri_call *c, int memcg,
				int nid)
{
	return victim_in(ri, &c->v, &c->nv, &c->capv, memcg, nid, -1);
}

/*
 * Pages per folio an isolate shows: isolate_lru_folios() takes whole folios until it has
 * scanned nr_requested pages, so n folios of F pages give ceil(requested / F) x F. The largest
 * power of two that explains nr_scanned. When none does the sizes were mixed, and the folio
 * that crossed the request had at least nr_scanned - requested + 1 pages: the power of two
 * that holds it (the 7.2 guest's kswapd: 513 scanned for 19 requested, one page then a
 * 512-page folio, is 512, not 1: averaged with its 512s it made 341-page folios and a pass a
 * folio short).
 */
static uint64_t folio_estimate(uint64_t req, uint64_t scanned)
{
	uint64_t least, f;

	if (!req || scanned <= req)
		return 1;
	for (f = UINT64_C(1) << 20; f > 1; f >>= 1)
		if (f <= scanned && (req + f - 1) / f * f == scanned)
			return f;
	least = scanned - req + 1;
	for (f = 1; f < least && f < (UINT64_C(1) << 20); f <<= 1)
		;
	return f <= scanned ? f : 1;
}

/*
 * The pages of an isolate that were in folios of more than a page, and their size (*f). When
 * F-page folios explain nr_scanned they all were (a stream of 512-page file folios); when none
 * does, only the folio that crossed the request was: the rest were pages taken one by one
 * before it (the 7.2 memory.high trace: 534 anon pages for 32 requested are 22 pages and one
 * 512-page THP, and its other 1,660 anon isolates took exactly what they asked). A window
 * whose multi-page folios all have one size is a list of single pages and F-page folios
 * (anon: order 0 and PMD THPs), not a list of 396-page folios (docs/models.md).
 */
uint32_t ri_folio_size_merge(uint32_t a, uint32_t b)
{
	return !a ? b : !b || a == b ? a : UINT32_MAX;
}

static uint64_t folio_big(uint64_t req, uint64_t scanned, uint64_t *f)
{
	*f = folio_estimate(req, scanned);
	if (*f <= 1)
		return 0;
	if ((req + *f - 1) / *f * *f == scanned)
		return scanned;
	return *f;
}

/*
 * The pages a window wrote out. mm_vmscan_write_folio fires once per folio pageout() wrote,
 * and shrink_folio_list() counts the folio's pages in stat->nr_pageout, the nr_io that
 * lru_note_cost() charges SWAP_CLUSTER_MAX a page: a PMD THP swapped out whole is 512 pages
 * of IO, and counted as one page the anon cost the model balances the lists by was 16,384
 * short per THP (7.2 mlock recording, the call at 103.748589 s: three THPs written; with them
 * as pages, anon cost was over 8.5 x file cost until 105 s, where get_scan_count() gives
 * inactive anon nothing at priority 9; with them as one page each it was below 2 x, and
 * mainline took a THP of inactive anon in 9 calls at 104.51..104.65 s where the kernel took
 * none: +4,608 of the +4,386 pages reclaimed error). The event names no folio size, so a
 * write counts as the window's F-page folio (folio_big()) when its pfn is F-aligned (a
 * folio's head is) and the window's isolate took such a folio not yet counted; a folio that
 * reclaim split before writing (add_to_swap() failing on a large folio) writes its head and
 * then its other pages one by one, and is pages again once a later write of the window
 * falls inside it. A single page on an F-aligned pfn in a window that also took an F-page
 * folio counts F pages: 1 in F of them.
 */
static void note_write(struct ri_task *t, uint64_t pfn, bool file)
{
	uint64_t f, big = folio_big(t->win_req, t->win_scanned, &f);

	if (!big)
		return;
	for (unsigned int i = 0; i < t->nwr_big; i++) {
		if (pfn > t->wr_big[i] && pfn - t->wr_big[i] < f) {
			t->wr_big_split |= (uint8_t)(1u << i);
			return;
		}
	}
	if (pfn % f || t->nwr_big >= big / f || t->nwr_big >= RI_WR_BIG)
		return;
	if (file)
		t->wr_big_file |= (uint8_t)(1u << t->nwr_big);
	t->wr_big[t->nwr_big++] = pfn;
}

static uint64_t write_pages(const struct ri_task *t, int file)
{
	uint64_t f, n = file ? t->wr_file : t->wr_anon, extra = 0, cap;

	folio_big(t->win_req, t->win_scanned, &f);
	for (unsigned int i = 0; i < t->nwr_big; i++)
		if (!(t->wr_big_split & (1u << i)) && !!(t->wr_big_file & (1u << i)) == !!file)
			extra += f - 1;
	if (!extra)
		return n;
	/* no more than the window took */
	cap = t->win_scanned > n ? t->win_scanned : n;
	return n + extra < cap ? n + extra : cap;
}

static void reset_writes(struct ri_task *t)
{
	t->wr_anon = t->wr_file = 0;
	t->nwr_big = t->wr_big_file = t->wr_big_split = 0;
}

/*
 * The proportional cut of shrink_lruvec(): once a pass's own reclaim meets nr_to_reclaim at the
 * end of a loop iteration, the type with less left to scan is stopped and the other scaled
 * down; the next iteration then finds one type at 0 and breaks. So a pass whose last iteration
 * scanned one type, after an iteration that scanned both with the other type's target not run
 * out (its last request a full SWAP_CLUSTER_MAX), had met the goal at the end of that earlier
 * iteration: nr_to_reclaim <= what the pass had reclaimed then. 0: no such bound. (a2s-1, the
 * call at 452.803 s: priority 3 reclaimed 291 pages in five iterations of inactive anon and
 * file, one more of file alone, and ended; its goal is 256, not 512.)
 */
static uint64_t pass_cut(const struct ri_call *c)
{
	const uint8_t anon = 1u << RS_LRU_INACTIVE_ANON, file = 1u << RS_LRU_INACTIVE_FILE;
	uint8_t last = c->pass_ilists, prev = c->pass_prev_ilists;

	if (!c->pass_open || (prev & (anon | file)) != (anon | file))
		return 0;
	if (last == anon && !(c->pass_done & file))
		return c->pass_prev_local;
	if (last == file && !(c->pass_done & anon))
		return c->pass_prev_local;
	return 0;
}

/* The pass and iteration structure of a call, for the bounds of its nr_to_reclaim. */
static void note_pass(struct rs_replay_input *ri, struct ri_call *c, int memcg, int nid, int prio,
		      int lru, uint64_t requested, uint64_t reclaimed)
{
	bool inactive = lru == RS_LRU_INACTIVE_ANON || lru == RS_LRU_INACTIVE_FILE;
	uint8_t bit = (uint8_t)(1u << lru);
	uint64_t cut;

	/*
	 * A new pass: another priority or lruvec, or a list whose target already ran out in this
	 * one (its last request was below SWAP_CLUSTER_MAX: the same list again is the next pass
	 * at the same priority, as kswapd repeats when it need not raise it).
	 */
	if (!c->pass_open || prio != c->pass_prio || memcg != c->pass_memcg || nid != c->pass_nid ||
	    (c->pass_done & bit)) {
		/*
		 * the previous pass was not the last: the total was below the goal then. Not
		 * when this one is another node at the same priority: shrink_zones() shrinks
		 * every node of the zonelist in turn and only do_try_to_free_pages() looks at the
		 * goal, after all of them (a partial memcg walk bails on one node, the next node
		 * is still shrunk)
		 */
		if (c->pass_open && c->total > c->want_lo &&
		    (prio != c->pass_prio || nid == c->pass_nid))
			c->want_lo = c->total;
		cut = pass_cut(c);
		if (cut && (!c->want_hi || cut < c->want_hi))
			c->want_hi = cut;
		/* ... and kswapd's node was not balanced (a new pass of balance_pgdat()) */
		if (c->pass_open && (prio != c->pass_prio || nid != c->pass_nid ||
				     (memcg == c->pass_memcg && (c->pass_done & bit)))) {
			if (c->total > c->balance_lo)
				c->balance_lo = c->total;
			/* the check between the two passes, where the last one ended */
			if (c->ctx == RS_CALL_KSWAPD && c->nchk)
				push_check(ri, c, c->last_ts, c->total, c->last_node, &c->last_flow);
		}
		c->pass_open = true;
		c->pass_prio = prio;
		c->pass_memcg = memcg;
		c->pass_nid = nid;
		c->pass_local = 0;
		c->pass_ilists = 0;
		c->pass_prev_ilists = 0;
		c->pass_prev_local = 0;
		c->pass_types = 0;
		c->pass_done = 0;
	}
	if (requested < RS_SWAP_CLUSTER_MAX)
		c->pass_done |= bit;
	if (inactive) {
		if (c->pass_ilists & bit) {
			/* an iteration ended and another began: below the goal, if one type */
			if (__builtin_popcount(c->pass_types) == 1) {
				if (c->pass_local > c->want_lo)
					c->want_lo = c->pass_local;
				if (c->pass_local > c->iter_lo)
					c->iter_lo = c->pass_local;
			}
			c->pass_prev_ilists = c->pass_ilists;
			c->pass_prev_local = c->pass_local;
			c->pass_ilists = 0;
		}
		c->pass_ilists |= bit;
		c->pass_types |= bit;
	}
	c->pass_local += reclaimed;
	c->total += reclaimed;
	/* a retry after a first descent that freed nothing starts again at DEF_PRIORITY */
	if (prio >= 0 && reclaimed)
		c->gain_prio1 = c->low_prio1 = prio + 1;
	else if (prio >= 0 && c->gain_prio1 && prio + 1 < c->low_prio1)
		c->low_prio1 = prio + 1;
	c->last_ts = ri->last_ts;
	c->last_node = node_reclaimed(ri, nid);
	if (c->ctx == RS_CALL_KSWAPD)
		ri_node_flow(ri, nid, &c->last_flow);
}

/*
 * The victim memcg row of a window's outcome (-1: none, or a memcg of no id: the loading
 * stage's shared rows), counted by how it was told.
 */
static int victim_row(struct rs_replay_input *ri, const struct rs_victim *v, bool count)
{
	int row = v && v->valid ? ri_memcg_row(ri, v->row) : -1;
	const struct rs_memcg *m = ri_memcg_id(ri, row);

	if (!m || !m->id) {
		ri->rep.victim_none += count;
		return -1;
	}
	if (!count)
		return row;
	if (v->how == RS_VICTIM_EXACT)
		ri->rep.victim_exact++;
	else if (v->reason == RS_CGR_SCAN_ONLY)
		ri->rep.victim_scan++;
	else if (v->reason == RS_CGR_LRU_DELTA)
		ri->rep.victim_lruvec++;
	else if (v->reason == RS_CGR_MEMCG_ID_LEAF)
		ri->rep.victim_leaf++;
	else
		ri->rep.victim_steal++;	/* steal only, or both in two memcgs: the steal one's */
	return row;
}

/* An isolate of nr_requested req (1..32) on list lru into the victim's histogram. */
static void count_req(struct rs_replay_input *ri, struct ri_call *c, struct ri_victim *v,
		      int lru, uint64_t req, uint64_t scanned)
{
	uint32_t q, last = RI_NO_REQ;

	for (q = v->req; q != RI_NO_REQ; last = q, q = c->req[q].next) {
		struct ri_req *r = &c->req[q];

		if (r->lru == lru && r->req == req - 1) {
			r->isolates++;
			r->scanned += scanned;
			return;
		}
	}
	if (c->nreq >= RI_NO_REQ || RS_GROW(c->req, c->capreq, c->nreq + 1, 8)) {
		ri->oom = true;
		return;
	}
	c->req[c->nreq] = (struct ri_req){ .next = RI_NO_REQ, .lru = (uint8_t)lru,
					   .req = (uint8_t)(req - 1), .isolates = 1,
					   .scanned = scanned };
	/* linked by index, not by pointer: the grow may have moved c->req */
	if (last == RI_NO_REQ)
		v->req = (uint32_t)c->nreq;
	else
		c->req[last].next = (uint32_t)c->nreq;
	c->nreq++;
}

/* Add one isolate window and its shrink event (NULL: none) to a victim's counts. */
static void count_window(struct rs_replay_input *ri, struct ri_call *c, struct ri_victim *v,
			 const struct ri_task *t, const struct rs_event *sh, int lru)
{
	uint64_t big, f;

	v->scanned[lru] += t->win_scanned;
	v->taken[lru] += t->win_taken;
	big = folio_big(t->win_req, t->win_scanned, &f);
	v->folio_w[lru] += f * t->win_scanned;
	v->folio_big[lru] += big;
	if (big)
		v->folio_size[lru] = ri_folio_size_merge(v->folio_size[lru], (uint32_t)f);
	if (t->win_req >= 1 && t->win_req <= RS_SWAP_CLUSTER_MAX)
		count_req(ri, c, v, lru, t->win_req, t->win_scanned);
	if (sh && sh->type != RS_EV_SHRINK_ACTIVE) {
		int type = lru == RS_LRU_INACTIVE_FILE;

		v->reclaimed[lru] += sh->inactive.nr_reclaimed;
		/* a retry's nr_scanned is its batch's, counted with the shrink it retries */
		if (!t->win_retry)
			v->in_scanned[type] += sh->inactive.nr_scanned;
		v->activated[type] += sh->inactive.nr_activate_anon + sh->inactive.nr_activate_file;
		v->pageout[type] += write_pages(t, type);
	} else if (sh) {
		int type = lru == RS_LRU_ACTIVE_FILE;

		v->a_taken[type] += sh->active.nr_taken;
		v->a_deact[type] += sh->active.nr_deactivated;
		v->a_ref[type] += sh->active.nr_referenced;
	}
}

/*
 * Close the task's window: with its shrink event `sh` (NULL when the isolate took nothing and
 * no shrink event followed, or another isolate came first). `v`: the loading stage's outcome
 * of the window (rs_ctx.memcg), NULL when it told none.
 */
static void close_window(struct rs_replay_input *ri, struct ri_task *t, struct ri_call *c,
			 const struct rs_event *sh, const struct rs_victim *outcome)
{
	bool active = sh && sh->type == RS_EV_SHRINK_ACTIVE;
	struct ri_memcg *m;
	int memcg, lru = t->win_lru, nid = 0, prio = c->last_prio;
	struct ri_victim *v;
	struct rs_recorded *rec = &c->c.rec;

	t->win = false;
	if (lru < 0 || lru >= RS_NR_EVICTABLE)
		return;
	if (sh) {
		nid = active ? sh->active.nid : sh->inactive.nid;
		prio = active ? sh->active.priority : sh->inactive.priority;
	} else if (c->c.nid >= 0) {
		nid = c->c.nid;
	}
	if (nid < 0 || nid >= 1024)
		nid = 0;
	memcg = victim_row(ri, outcome, !t->win_retry);
	if ((m = ri_memcg_at(ri, memcg)))
		m->flags |= RI_MF_VICTIM;
	v = victim(ri, c, memcg, nid);
	if (!v)
		return;
	if (c->c.nid < 0 && sh)
		c->c.nid = nid;
	count_window(ri, c, v, t, sh, lru);
	if (sh && t->win_taken && sh->ts >= t->win_ts) {
		/* what the shrink put back: the survivors, on this list or the other of its type */
		uint64_t gone = active ? 0 : sh->inactive.nr_reclaimed;
		uint64_t moved = active ? sh->active.nr_deactivated
				 : sh->inactive.nr_activate_anon + sh->inactive.nr_activate_file;
		uint64_t left = gone < t->win_taken ? t->win_taken - gone : 0;

		if (moved > left)
			moved = left;
		if (RS_GROW(c->infl, c->capinfl, c->ninfl + 1, 16))
			ri->oom = true;
		else
			c->infl[c->ninfl++] = (struct rs_inflight){
				.begin = t->win_ts, .end = sh->ts, .memcg = memcg, .nid = nid,
				.lru = lru, .moved = moved,
				.back = left - moved,
			};
	}
	/*
	 * The classic LRU asks min(size >> priority, SWAP_CLUSTER_MAX) of a list, so the size is
	 * at least nr_requested << priority; MGLRU's batch (4096 on 6.7-6.16, its scan budget
	 * after) is no such share: 4096 << 12 implied 64 GB lists on a 640 MB guest.
	 */
	if (!v->implied[lru] && prio >= 0 && prio <= RS_DEF_PRIORITY && t->win_req &&
	    t->win_req <= RS_SWAP_CLUSTER_MAX) {
		v->implied[lru] = t->win_req << prio;
		v->implied_off[lru] = sh ? sh->offset : 0;
	}
	if (!t->win_soft && prio >= 0 && prio <= RS_DEF_PRIORITY) {
		struct ri_victim *pv = victim_in(ri, &c->pv, &c->npv, &c->cappv, memcg, nid, prio);

		if (pv)
			count_window(ri, c, pv, t, sh, lru);
		if (pv && sh && !active) {
			if (RS_GROW(c->steps, c->capsteps, c->nsteps + 1, 16)) {
				ri->oom = true;
			} else {
				c->steps[c->nsteps++] = (struct ri_step){
					.memcg = memcg, .nid = nid, .prio = prio, .lru = lru,
					.st = { .scanned = t->win_retry ? 0 :
							   (uint32_t)sh->inactive.nr_scanned,
						.reclaimed = (uint32_t)sh->inactive.nr_reclaimed },
				};
			}
		}
	}
	rec->scanned[lru] += t->win_scanned;
	if (t->win_soft)
		rec->soft_scanned += t->win_scanned;
	if (sh && !active) {
		uint64_t r = sh->inactive.nr_reclaimed;

		rec->reclaimed[lru] += r;
		if (t->win_soft)
			rec->soft_reclaimed += r;
	}
	if (!t->win_soft)
		note_pass(ri, c, memcg, nid, prio, lru, t->win_req,
			  sh && !active ? sh->inactive.nr_reclaimed : 0);
	if (sh && !t->win_soft && prio >= 0 && prio <= RS_DEF_PRIORITY) {
		if (rec->prio_first < 0)
			rec->prio_first = prio;
		if (rec->prio_lowest < 0 || prio < rec->prio_lowest)
			rec->prio_lowest = prio;
		/*
		 * the first descent only: do_try_to_free_pages() retries from DEF_PRIORITY
		 * (a full walk, forced deactivation) and kswapd restarts without
		 * cache_trim_mode; the model's retries read the stats as of its end
		 */
		if (c->last_prio >= 0 && prio > c->last_prio)
			c->restarted = true;
		if (!c->restarted) {
			rec->prio_end[prio] = sh->ts;
			/* the pass's first isolation: the flush before it */
			if (!rec->prio_begin[prio] && t->win_flush)
				rec->prio_begin[prio] = t->win_flush;
		}
		note_round(ri, c, nid, prio);
		c->last_prio = prio;
	}
	rec->have = true;
}

/* The outcome of an isolate-only window the loading stage closed at this event, or NULL. */
static const struct rs_victim *closed_here(const struct rs_ctx *ctx)
{
	return ctx->memcg->closed.valid ? &ctx->memcg->closed : NULL;
}

/* The task's window, still open in the loading stage, matched on its scan side. */
static const struct rs_victim *still_open(const struct rs_ctx *ctx, struct rs_victim *buf)
{
	return rs_memcgs_open_window(ctx->memcg->memcgs, ctx->task, buf) ? buf : NULL;
}

static void open_window(struct rs_replay_input *ri, struct ri_task *t, struct ri_call *c,
			const struct rs_event *ev, const struct rs_ctx *ctx)
{
	int lru = ev->isolate.lru;

	if (t->win)
		close_window(ri, t, c, NULL, closed_here(ctx));
	if (lru < 0 && (ev->have & RS_HAVE_FILE))
		lru = ev->isolate.file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;
	t->win = true;
	t->win_lru = (int8_t)lru;
	t->win_soft = ctx->kind == RS_CTX_SOFTLIMIT;
	t->win_retry = false;
	t->win_req = ev->isolate.nr_requested;
	t->win_scanned = ev->isolate.nr_scanned;
	t->win_taken = ev->isolate.nr_taken;
	t->win_ts = ev->ts;
	/* a flush since the task's last shrink: the pass's prepare_scan_control() */
	t->win_flush = t->flush_ts > c->last_ts ? t->flush_ts : 0;
	reset_writes(t);
	c->c.rec.skipped += ev->isolate.nr_skipped;
	/* when each isolation happened: concurrent calls are replayed in this order */
	if (RS_GROW(c->iso, c->capiso, c->niso + 1, 16))
		ri->oom = true;
	else
		c->iso[c->niso++] = ev->ts;
	c->windows++;
	ri->rep.windows++;
	if (lru >= 0 && lru < RS_NR_EVICTABLE)
		ri_swap_evidence(ri, lru, ev->isolate.nr_scanned);
}

/* Reclaim events of a task with no open call: the call began before the trace. */
static struct ri_call *orphan(struct rs_replay_input *ri, struct ri_task *t,
			      const struct rs_event *ev, const struct rs_ctx *ctx)
{
	bool kswapd = ctx->kind == RS_CTX_KSWAPD || ctx->outer == RS_CTX_KSWAPD;
	struct ri_call *c = open_call(ri, t, ev, ctx->memcg, kswapd ? RS_CALL_KSWAPD : -1);

	if (!c)
		return NULL;
	c->cut_start = true;
	if (kswapd)
		c->c.nid = 0;	/* the next shrink event names it; single-node traces */
	return c;
}

static void out_event(struct rs_replay_input *ri, const struct rs_event *ev)
{
	ri->rep.out_events++;
	if (ev->type == RS_EV_LRU_ISOLATE && ev->isolate.lru >= 0 &&
	    ev->isolate.lru < RS_NR_EVICTABLE)
		ri->rep.out_scanned[ev->isolate.lru] += ev->isolate.nr_scanned;
	else if (ev->type == RS_EV_SHRINK_INACTIVE)
		ri->rep.out_reclaimed[(ev->inactive.reclaim_flags & RS_RECLAIM_WB_FILE)
				      ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON] +=
			ev->inactive.nr_reclaimed;
}

static int call_ctx(enum rs_reclaim_kind k)
{
	switch (k) {
	case RS_RK_DIRECT:
		return RS_CALL_DIRECT;
	case RS_RK_MEMCG:
		return RS_CALL_MEMCG;
	case RS_RK_NODE:
		return RS_CALL_NODE;
	default:
		return -1;
	}
}

/*
 * shrink_inactive_list() (6.x, 7.x) before it isolates:
 *
 *	while (unlikely(too_many_isolated(pgdat, file, sc))) {
 *		if (stalled)
 *			return 0;
 *		stalled = true;
 *		reclaim_throttle(pgdat, VMSCAN_THROTTLE_ISOLATED);
 *		...
 *	}
 *
 * so after an ISOLATED throttle the batch either goes on to its lru_isolate or is given up
 * (no event: the next is another batch's, shrink_slab() of the memcg, or the call's end).
 * too_many_isolated() compares the node's NR_ISOLATED_* with its inactive pages (direct and
 * memcg reclaim, not kswapd): no event carries them, so a model cannot tell which of its own
 * batches would have been refused. The 7.2 proactive trace: 12 forked children of /rs_forks
 * in limit reclaim at once, 30 throttles in 160 ms, 21 batches given up at priorities where
 * the model scanned.
 */
static void isolate_outcome(struct ri_task *t, struct ri_call *c, const struct rs_event *ev)
{
	bool passed;

	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
	case RS_EV_THROTTLED:
	case RS_EV_SLAB_START:
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_KSWAPD_SLEEP:
		break;
	default:
		return;
	}
	passed = ev->type == RS_EV_LRU_ISOLATE && (ev->isolate.lru == RS_LRU_INACTIVE_ANON ||
						   ev->isolate.lru == RS_LRU_INACTIVE_FILE);
	t->throttled_isolated = false;
	if (!passed && c)
		c->c.rec.isolate_refused++;
}

void ri_calls_flush(struct rs_replay_input *ri, struct ri_task *t, uint64_t ts)
{
	if (cur_call(ri, t))
		t->flush_ts = ts;
}

void ri_calls_run_end(struct rs_replay_input *ri, struct ri_task *t, uint64_t ts)
{
	struct ri_call *c = cur_call(ri, t);

	if (c && c->ctx == RS_CALL_KSWAPD && !c->c.rec.run_end)
		c->c.rec.run_end = ts;
}

void ri_calls_event(struct rs_replay_input *ri, const struct rs_event *ev, const struct rs_ctx *ctx,
		    struct ri_task *t)
{
	struct ri_call *c = cur_call(ri, t);
	struct rs_victim open;
	int k;

	t->dense = ctx->task;
	if (t->throttled_isolated)
		isolate_outcome(t, c, ev);
	switch (ev->type) {
	case RS_EV_THROTTLED:
		if (c && rs_throttle_reason_slot(ev->throttled.reason) == 1)	/* ISOLATED */
			t->throttled_isolated = true;
		return;
	case RS_EV_SLAB_START:
		return;
	case RS_EV_RECLAIM_BEGIN:
		if (ev->reclaim.kind == RS_RK_SOFTLIMIT)
			return;
		k = call_ctx(ev->reclaim.kind);
		if (k < 0)
			return;
		if (t->call != RI_NO_CALL)	/* its end was lost */
			close_call(ri, t, ev->ts);
		c = open_call(ri, t, ev, ctx->memcg, k);
		if (!c)
			return;
		if (ev->have & RS_HAVE_ORDER)
			c->c.order = ev->reclaim.order;
		if (ev->have & RS_HAVE_GFP)
			c->c.gfp_flags = ev->reclaim.gfp_flags;
		/* 7.1+: the memcg whose limit is reclaimed, the walk's root (global: none) */
		if (k == RS_CALL_MEMCG && ctx->began && ctx->memcg->root &&
		    ctx->memcg->root->how == RS_ROOT_KERNEL)
			c->root_row = ri_memcg_row(ri, ctx->memcg->root->row);
		if (k == RS_CALL_NODE && (ev->have & RS_HAVE_NID))
			c->c.nid = ev->reclaim.nid;
		ri_source_note(&ri->rep.call_src[k], ev);
		return;
	case RS_EV_RECLAIM_END:
		if (ev->reclaim.kind == RS_RK_SOFTLIMIT) {
			if (c) {
				c->soft_episodes++;
				ri->rep.soft_episodes++;
			}
			return;
		}
		k = call_ctx(ev->reclaim.kind);
		if (t->call == RI_DROPPED) {
			t->call = RI_NO_CALL;
			return;
		}
		if (!c || k < 0)
			return;	/* an end with nothing before it in the trace: nothing to replay */
		if (c->ctx < 0) {
			c->ctx = (int8_t)k;
			c->c.ctx = (enum rs_call_ctx)k;
			ri_source_note(&ri->rep.call_src[k], ev);
		}
		if (t->win)
			close_window(ri, t, c, NULL, still_open(ctx, &open));
		c->c.rec.nr_reclaimed = ev->reclaim.nr_reclaimed;
		if (c->ctx == RS_CALL_MEMCG) {
			t->ended_memcg_call = t->call;
			t->ended_ts = ev->ts;
		}
		close_call(ri, t, ev->ts);
		return;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_KSWAPD_SLEEP:
		/* a sleep ends kswapd's run; so does a wake, whose run's sleep was lost */
		if (c && t->win)
			close_window(ri, t, c, NULL, still_open(ctx, &open));
		if (t->call != RI_NO_CALL)
			close_call(ri, t, ev->ts);
		if (ev->type == RS_EV_KSWAPD_SLEEP)
			return;
		c = open_call(ri, t, ev, ctx->memcg, RS_CALL_KSWAPD);
		if (!c)
			return;
		c->c.nid = ev->kswapd.nid >= 0 && ev->kswapd.nid < 1024 ? ev->kswapd.nid : 0;
		if (ev->have & RS_HAVE_ORDER)
			c->c.order = ev->kswapd.order;
		if ((ev->have & RS_HAVE_ZID) && ev->kswapd.zid >= 0) {
			c->c.zoneidx = ev->kswapd.zid;
			c->c.zoneidx_known = true;
		}
		/* balance_pgdat()'s first check, before any pass */
		c->last_ts = ev->ts;
		c->last_node = node_reclaimed(ri, c->c.nid);
		ri_node_flow(ri, c->c.nid, &c->last_flow);
		push_check(ri, c, ev->ts, 0, c->last_node, &c->last_flow);
		ri_source_note(&ri->rep.call_src[RS_CALL_KSWAPD], ev);
		return;
	case RS_EV_WRITE_FOLIO:
		if (!(ev->write.reclaim_flags & RS_RECLAIM_WB_FILE))
			ri->rep.swap_anon_writes++;
		if (c && t->win) {
			bool file = ev->write.reclaim_flags & RS_RECLAIM_WB_FILE;

			if (file)
				t->wr_file++;
			else
				t->wr_anon++;
			/* without the pfn no write can be told a folio's head: pages */
			if (ev->have & RS_HAVE_PFN)
				note_write(t, ev->write.pfn, file);
		}
		return;
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
		if (t->call == RI_DROPPED) {
			out_event(ri, ev);
			return;
		}
		if (!c) {
			c = orphan(ri, t, ev, ctx);
			if (!c) {
				out_event(ri, ev);
				return;
			}
		}
		if (ev->type == RS_EV_LRU_ISOLATE) {
			open_window(ri, t, c, ev, ctx);
			return;
		}
		k = ev->type == RS_EV_SHRINK_ACTIVE
		    ? ((ev->active.reclaim_flags & RS_RECLAIM_WB_FILE) ? RS_LRU_ACTIVE_FILE
								       : RS_LRU_ACTIVE_ANON)
		    : ((ev->inactive.reclaim_flags & RS_RECLAIM_WB_FILE) ? RS_LRU_INACTIVE_FILE
									 : RS_LRU_INACTIVE_ANON);
		if (!t->win || t->win_lru != k) {
			/*
			 * a shrink with no isolate of its list before it: MGLRU's retry of the
			 * batch the previous one closed (its reclaimed pages new, its victim that
			 * one's: the loading stage's outcome), else lost events
			 */
			bool retry = ev->type == RS_EV_SHRINK_INACTIVE && ctx->shrink_retry;

			if (t->win)
				close_window(ri, t, c, NULL, closed_here(ctx));
			t->win = true;
			t->win_lru = (int8_t)k;
			t->win_soft = ctx->kind == RS_CTX_SOFTLIMIT;
			t->win_retry = retry;
			t->win_req = t->win_scanned = t->win_taken = 0;
			reset_writes(t);
			if (!retry)
				ri_warn(ri, "shrink events without an lru_isolate before them: their "
					"pages are reclaimed but not scanned in the recorded totals");
		}
		close_window(ri, t, c, ev, &ctx->memcg->shrink);
		return;
	default:
		return;
	}
}

static void add_rec(struct rs_replay_input *ri, const struct ri_call *c)
{
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		ri->rep.scanned[l] += c->c.rec.scanned[l];
		ri->rep.reclaimed[l] += c->c.rec.reclaimed[l];
		for (uint32_t i = 0; i < c->nv; i++)
			ri->rep.taken[l] += c->v[i].taken[l];
	}
	ri->rep.soft_scanned += c->c.rec.soft_scanned;
	ri->rep.soft_reclaimed += c->c.rec.soft_reclaimed;
}

/*
 * At the end of the stream: calls still open are cut by the end; calls opened by events whose
 * kind no end named are dropped (counted outside any call).
 */
void ri_calls_finish(struct rs_replay_input *ri)
{
	size_t k = 0;

	/*
	 * A window still open in a call the end cuts: its isolate had no shrink event before the
	 * trace ended, and its pages were scanned in the call as analyze counts them (the 6.1
	 * swapmax recording of sweep4: khugepaged's limit reclaim, 32 inactive file pages at
	 * 50.91 s, 1.2 s before the end). Closed as at an episode's end, on its scan side.
	 */
	for (int i = 0; i < ri->ntask; i++) {
		struct ri_task *t = &ri->task[i];
		struct ri_call *c = cur_call(ri, t);
		struct rs_victim open;

		if (t->win && c && c->open)
			close_window(ri, t, c, NULL, t->dense >= 0 && ri->memcgs &&
				     rs_memcgs_open_window(ri->memcgs, t->dense, &open) ?
				     &open : NULL);
	}

	for (size_t i = 0; i < ri->ncall; i++) {
		struct ri_call *c = &ri->call[i];

		if (c->open) {
			c->open = false;
			c->c.ts_end = ri->last_ts;
			if (c->ctx >= 0)
				ri->rep.calls_cut_end++;
			/* a run the trace cut has no end to check */
			c->nchk = 0;
		}
		if (c->ctx < 0) {
			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				ri->rep.out_scanned[l] += c->c.rec.scanned[l];
				ri->rep.out_reclaimed[l] += c->c.rec.reclaimed[l];
			}
			ri->rep.out_events += c->windows;
			ri_warn(ri, "reclaim events of a task whose episode began before the trace "
				"and never ended in it: not replayed (counted outside any call)");
			ri_call_free(c);
			continue;
		}
		add_rec(ri, c);
		if (c->cut_start)
			ri->rep.calls_cut_start++;
		if (!c->windows)
			ri->rep.calls_without_scan++;
		ri->rep.calls[c->ctx]++;
		ri->call[k++] = *c;
	}
	ri->ncall = k;
	/* tasks point at calls by index: none is open any more */
	for (int i = 0; i < ri->ntask; i++)
		ri->task[i].call = RI_NO_CALL;
}
