// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "mainline": the recorded kernel's own classic-LRU reclaim, Linux 6.x mm/vmscan.c
 * (read at the 6.17/6.18 state): get_scan_count() with prepare_scan_control() and
 * calculate_pressure_balance(), shrink_lruvec(), shrink_node_memcgs(), shrink_node(),
 * shrink_zones(), do_try_to_free_pages(), balance_pgdat()/kswapd_shrink_node(),
 * kswapd_age_node(), __node_reclaim(); mm/swap.c lru_note_cost_unlock_irq(); and on cgroup v1
 * mm/memcontrol-v1.c memcg1_soft_limit_reclaim() (models/softlimit_walk.c); compact_gap() is the
 * recorded kernel's (include/compact_gap.h: 7.2 caps it at 32). Its job is identity: replayed on
 * the recording's own pressure it must give back the recorded per-list scans.
 *
 * What it models: the scan balance (SCAN_FILE without swap or may_swap; SCAN_FILE for cgroup
 * reclaim with swappiness 0; SCAN_EQUAL at priority 0; SCAN_ANON when file_is_tiny; SCAN_FILE in
 * cache_trim_mode; else SCAN_FRACT by anon/file cost), 32-page batches over IA, AA, IF, AF, the
 * proportional cut once nr_to_reclaim is met (not for global direct reclaim at DEF_PRIORITY),
 * the priority loop 12 -> 0 until nr_to_reclaim, kswapd's 12 -> 1 loop that lowers the priority
 * only when it scanned less than the high watermark, the memcg walk with the shared reclaim
 * iterator (partial walks for direct and limit reclaim, full walks for kswapd), the full-walk and
 * forced-deactivation retries of do_try_to_free_pages(), and per-lruvec anon/file cost with
 * propagation to the parents and the lrusize/4 decay. When the world carries them: whole folios
 * per isolation (isolate_lru_folios(): a request of n pages on F-page folios takes
 * ceil(n / F) x F; on a list of single pages and F-page THPs the expected take), and the
 * memcg stats as last flushed (lruvec_page_state()) where the kernel reads them instead of
 * the lists (prepare_scan_control(), inactive_is_low(), lru_note_cost()), as of the moment
 * each pass ran in the recorded call, and snapshot_refaults() counting from the call's end.
 *
 * What it approximates:
 *  - costs start at 0 when the trace starts; they then grow from the model's own rotations and
 *    pageouts (scan x observed rates) and from the recorded workingset_restore deltas (refault
 *    cost, 32 per page, as lru_note_cost_refault()); may_deactivate compares the target's
 *    recorded workingset_activate, as its last stats flush left it, with the model's own
 *    snapshot_refaults();
 *  - zones are merged into their node: kswapd's nr_to_reclaim is max(node high watermark, 32)
 *    rather than a per-zone sum, reclaim_idx and lowmem zones are ignored;
 *  - kswapd runs until it has freed what the recorded reclaim freed before the check where
 *    pgdat_balanced() on the recorded zone_stat samples ends the run (include/kswapd_end.h:
 *    per zone, the free pages between samples estimated from the recorded reclaim and
 *    allocations; the recorded end where no earlier check is balanced); without zone samples,
 *    just past what the recorded run had freed before its last pass, where the kernel's
 *    pgdat_balanced() turned true. Its reclaim is the recording's there (identity); the
 *    counterfactual policies check the zones with their own reclaim (rs_sim_kswapd_balanced());
 *  - reclaim/compaction for costly orders: shrink_node() goes round again while
 *    should_continue_reclaim() says compaction is not ready, a per-zone test; the rounds go as
 *    far as the recorded call's (rs_reclaim_call.compact_goal), compaction itself is not run;
 *  - memory.swap.max: a memcg (or an ancestor) whose swap.current has reached its swap.max
 *    has no anon reclaim (can_reclaim_anon_pages(), mem_cgroup_get_nr_swap_pages()), exact for
 *    swap.max 0; swap.current is sampled (memcg_stat), so calls where a larger swap.max is set
 *    are not claimed (RS_GAP_SWAP_MAX);
 *  - not modelled: memory.low/min protection (the calls where it is set are not claimed:
 *    RS_GAP_PROTECTION), watermark boosting, MGLRU (init refuses an MGLRU recording), slab.
 * Concurrent reclaimers: calls that overlapped in the recording run interleaved (models/
 * replay.c), isolation by isolation in the recorded order, sharing the lists, the memcg
 * iterator and the anon/file costs; each stops at its own goal.
 * What a trace cannot show it: which pages are referenced (only the observed fractions), dirty
 * and writeback state page by page, the lru_lock's order between two reclaimers' isolations
 * beyond their recorded times.
 */
#include <stdlib.h>
#include <string.h>

#include "compact_gap.h"
#include "policy.h"
#include "rs_grow.h"

/* Safety bound on balance_pgdat() runs per invocation. */
#define KSWAPD_MAX_RUNS		4096
#define MAX_RECLAIM_RETRIES	16
#define NODE_RECLAIM_PRIORITY	4
#define PAGE_ALLOC_COSTLY_ORDER	3
#define GFP_IO			0x40u	/* __GFP_IO */
#define DEACTIVATE_ANON		1u
#define DEACTIVATE_FILE		2u
#define UNSET			UINT64_MAX

/* A call's snapshot_refaults(), taken at its end: what later passes compare once it ended. */
struct snap_pending {
	size_t lruvec;
	uint64_t ts;
	uint64_t refaults[2];
};

/* What the model keeps per lruvec (memcg x node), as the kernel's struct lruvec does. */
struct ml_lruvec {
	uint64_t anon_cost, file_cost;
	uint64_t restore_seen[2];	/* [file] workingset_restore folded in */
	uint64_t refault_snap[2];	/* [file] snapshot_refaults() of a target */
	uint64_t folio_carry[RS_NR_EVICTABLE];	/* fractional pages taken, 1/2^32 */
};

struct mainline {
	struct rs_lrusim ls;
	struct rs_iter iter;		/* reclaim cookie {pgdat}: one slot */
	struct ml_lruvec *lv;		/* [lvi()] */
	struct snap_pending *pend;	/* snapshots of calls not ended yet, by end time */
	size_t npend, cappend;
	bool oom;
	uint32_t *kswapd_failures;	/* [nid] */
	bool v1;
};

struct ml_sc {
	struct mainline *ml;
	struct rs_sim *s;
	int target;			/* reclaim root; 0 (the root memcg) for global reclaim */
	bool cgroup, kswapd, may_swap;
	int priority, order;
	uint64_t nr_to_reclaim, nr_reclaimed, nr_scanned;
	uint64_t anon_cost, file_cost;
	unsigned int may_deactivate;
	bool force_deactivate, skipped_deactivate, cache_trim_mode, cache_trim_mode_failed;
	bool no_cache_trim_mode, file_is_tiny, memcg_full_walk;
	bool retry;			/* past the first descent from DEF_PRIORITY */
};

static size_t lvi(const struct ml_sc *sc, int memcg, int nid)
{
	return (size_t)rs_lruvec(sc->s, memcg, nid);
}

enum rs_scan_balance rs_mainline_scan_count(const struct rs_gsc_in *in,
					    uint64_t nr[RS_NR_EVICTABLE])
{
	enum rs_scan_balance bal;
	uint64_t fraction[2] = { 0, 0 }, denominator = 1;

	if (!in->may_swap || !in->swap_ok) {
		bal = RS_SCAN_FILE;
	} else if (in->cgroup_reclaim && !in->swappiness) {
		bal = RS_SCAN_FILE;
	} else if (!in->priority && in->swappiness) {
		bal = RS_SCAN_EQUAL;
	} else if (in->file_is_tiny) {
		bal = RS_SCAN_ANON;
	} else if (in->cache_trim_mode) {
		bal = RS_SCAN_FILE;
	} else {
		/* calculate_pressure_balance(): no list gets less than a third, then swappiness */
		uint64_t total = in->anon_cost + in->file_cost;
		uint64_t anon_cost = total + in->anon_cost, file_cost = total + in->file_cost;

		total = anon_cost + file_cost;
		fraction[0] = (uint64_t)in->swappiness * (total + 1) / (anon_cost + 1);
		fraction[1] = (uint64_t)(200 - in->swappiness) * (total + 1) / (file_cost + 1);
		denominator = fraction[0] + fraction[1];
		bal = RS_SCAN_FRACT;
	}
	for (int lru = 0; lru < RS_NR_EVICTABLE; lru++) {
		bool file = rs_lru_is_file(lru);
		uint64_t scan = in->size[lru] >> in->priority;

		/* an offline (deleted) memcg: scrape out the remaining cache */
		if (!scan && !in->online)
			scan = rs_min_u64(in->size[lru], RS_SWAP_CLUSTER_MAX);
		switch (bal) {
		case RS_SCAN_EQUAL:
			break;
		case RS_SCAN_FRACT: {
			__uint128_t t = (__uint128_t)scan * fraction[file];

			scan = in->online ? (uint64_t)(t / denominator)
					  : (uint64_t)((t + denominator - 1) / denominator);
			break;
		}
		case RS_SCAN_FILE:
		case RS_SCAN_ANON:
			if ((bal == RS_SCAN_FILE) != file)
				scan = 0;
			break;
		}
		nr[lru] = scan;
	}
	return bal;
}

/*
 * lruvec_page_state(): the memcg stats as last flushed (rstat), hierarchical. The kernel reads
 * these, not the LRU sizes, in prepare_scan_control(), inactive_is_low() and lru_note_cost(),
 * and they lag the lists until the next flush: a memcg whose file pages were just reclaimed
 * still looks file-rich, cache_trim_mode holds and priorities 12..1 scan nothing. With a world
 * that carries that view (RS_WF_LRU_STAT from memcg_stat snapshots, RS_WF_WS_FLUSH) it is used;
 * otherwise the lists themselves. As of the pass's own moment (rs_sim.view_ts, pass_start()):
 * a flush during a call is seen by its later passes.
 */
static uint64_t stat_h(const struct rs_sim *s, int memcg, int nid, int lru)
{
	return rs_world_lru_stat_at(s->w, memcg, nid, lru, s->view_ts);
}

/*
 * When a pass at `priority` began in the recorded call: once every recorded pass at a higher
 * priority had ended (the call's start when none had). Its prepare_scan_control() reads the
 * flushed stats and refaults as of then, and the aging at the end of a pass at p as of the
 * start of p - 1. Calls last milliseconds, the recorder flushes every 100 ms and the root every
 * 2 s: the 7.2 memory.high call at 19.271 s read 6,660 inactive against 5,701 active anon
 * pages at priority 11 and, after the recorder's flush at 19.274 s, 5,636 against 6,725 at
 * its aging and at priority 10, which deactivated anon; a model that read the call's start
 * for every pass deactivated none.
 */
static uint64_t pass_start(const struct ml_sc *sc, int priority)
{
	const struct rs_reclaim_call *c = sc->s->call;
	uint64_t t = c->ts;

	/* a retry (full walk, forced deactivation, no cache_trim_mode) after the first descent */
	for (int q = sc->retry ? 0 : priority + 1; q <= RS_DEF_PRIORITY; q++)
		if (c->rec.prio_end[q] > t)
			t = c->rec.prio_end[q];
	return t;
}

/*
 * When the pass at `priority` read the stats in prepare_scan_control(): pass_start(), or the
 * recorded pass's own flush (rs_recorded.prio_begin) when the trace has it. That flush comes
 * after the previous pass's shrink_slab(), which can take milliseconds past that pass's last
 * shrink event: the 7.2 zswap trace's kswapd run at 105.062 s flushed the root at 105.0715 s,
 * 8.5 ms after priority 12's last shrink, and the refaults it brought in ended cache_trim_mode
 * at priority 11, where the kernel took a 512-page THP of the root's anon and a model reading
 * as of 105.0630 s took none.
 */
static uint64_t scan_control_at(const struct ml_sc *sc, int priority)
{
	const struct rs_reclaim_call *c = sc->s->call;
	uint64_t t = pass_start(sc, priority);

	if (!sc->retry && c->rec.prio_begin[priority] > t)
		t = c->rec.prio_begin[priority];
	return t;
}

/* lru_note_cost(): cost on the lruvec and every parent, halving both when > lrusize / 4. */
static void note_cost(struct ml_sc *sc, int memcg, int nid, bool file, uint64_t nr_io,
		      uint64_t nr_rotated)
{
	struct mainline *ml = sc->ml;
	uint64_t cost = nr_io * RS_SWAP_CLUSTER_MAX + nr_rotated;

	if (!cost)
		return;
	for (int m = memcg; m >= 0; m = rs_sim_parent(sc->s, m)) {
		struct ml_lruvec *lv = &ml->lv[lvi(sc, m, nid)];
		uint64_t lrusize = 0;

		if (file)
			lv->file_cost += cost;
		else
			lv->anon_cost += cost;
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			lrusize += stat_h(sc->s, m, nid, l);
		if (lv->file_cost + lv->anon_cost > lrusize / 4) {
			lv->file_cost /= 2;
			lv->anon_cost /= 2;
		}
	}
}

/*
 * isolate_lru_folios() takes whole folios until it has scanned nr_to_scan pages: a request of n
 * pages on a list of F-page folios takes ceil(n / F) x F (a 3-page request at priority 12 takes
 * a 512-page folio). F is what the recording's isolates showed on that list (rs_rates.folio)
 * when the world carries it; order-0 pages otherwise.
 *
 * On a list of single pages and some F-page folios (anon with THPs), a share p of the folios
 * has F pages (rs_rates.folio_share). Walking from the tail, the isolation meets the first
 * F-page folio after j single pages with probability (1 - p)^j p and then takes
 * j + ceil((n - j) / F) x F pages; with none among the first n it takes n. The expectation is
 * taken, with a rounding carry per list as the reclaimability is (taking F on every request,
 * the average folio of the recording, made each 1-page request on a list with a few THPs take
 * 400 pages: the 7.2 memory.high trace's inactive anon +25%).
 */
static uint64_t folio_pages(struct ml_sc *sc, int memcg, int nid, int lru, uint64_t n)
{
	struct rs_rates r;
	double p, q, qj = 1, e = 0;
	uint64_t *c, t, m;

	rs_world_rates_at(sc->s->w, memcg, nid, lru, sc->s->prio, sc->s->call->ts, &r);
	if (r.folio <= 1 || !n)
		return n;
	if (r.folio_share >= RS_RATE_ONE) {
		/*
		 * A list of F-page folios that is not empty has a folio on it, whatever the
		 * lruvec deltas (which miss a few pages) say: 492 pages of 512-page folios left
		 * the model 20 pages short of a 512-page goal that one folio met, and sent it to
		 * priority 0 (a2s-4: +16,611 inactive anon pages).
		 */
		rs_sim_whole_folio(sc->s, memcg, nid, lru, r.folio);
	}
	c = &sc->ml->lv[lvi(sc, memcg, nid)].folio_carry[lru];
	/*
	 * What the window's isolates of this request size took, when it had some: the folio
	 * average is weighted by pages, and on a list of single pages and a few 64..512-page
	 * folios it made every small request take ~400 pages (kids-reread, 1297.925 s).
	 */
	m = rs_world_isolate_mean(sc->s->w, memcg, nid, lru, sc->s->prio, sc->s->call->ts, n);
	if (m) {
		t = m + *c;
		*c = t & (RS_RATE_ONE - 1);
		return rs_max_u64(t >> 32, n);
	}
	if (r.folio_share >= RS_RATE_ONE)
		return (n + r.folio - 1) / r.folio * r.folio;
	p = (double)r.folio_share / (double)RS_RATE_ONE;
	q = 1 - p;
	for (uint64_t j = 0; j < n; j++) {
		e += qj * p * (double)(j + (n - j + r.folio - 1) / r.folio * r.folio);
		qj *= q;
	}
	e += qj * (double)n;
	t = (uint64_t)(e * (double)RS_RATE_ONE) + *c;
	*c = t & (RS_RATE_ONE - 1);
	return rs_max_u64(t >> 32, n);
}

static uint64_t shrink_list(struct ml_sc *sc, int lru, uint64_t n, int memcg, int nid)
{
	struct rs_shrink r;

	n = folio_pages(sc, memcg, nid, lru, n);

	if (rs_lru_is_active(lru)) {
		if (sc->may_deactivate & (1u << rs_lru_is_file(lru))) {
			rs_sim_shrink_active(sc->s, memcg, nid, lru, n, &r);
			note_cost(sc, memcg, nid, rs_lru_is_file(lru), 0, r.kept_active);
		} else {
			sc->skipped_deactivate = true;
		}
		return 0;
	}
	rs_sim_shrink_inactive(sc->s, memcg, nid, lru, n, &r);
	note_cost(sc, memcg, nid, rs_lru_is_file(lru), r.pageout, r.taken - r.reclaimed);
	sc->nr_scanned += r.taken;
	return r.reclaimed;
}

/*
 * shrink_active_list(SWAP_CLUSTER_MAX, lruvec, sc, LRU_ACTIVE_ANON): the anon aging at the end
 * of shrink_lruvec() and in kswapd_age_node(). Its isolate_lru_folios() takes whole folios like
 * every other isolation: on a list of PMD THPs one aging deactivates 512 pages, not 32 (the 7.2
 * memory.high trace, "nr_requested=32 nr_scanned=512 lru=active_anon"; with 32-page agings its
 * active anon was -23.6%).
 */
static void age_active_anon(struct ml_sc *sc, int memcg, int nid)
{
	uint64_t n = folio_pages(sc, memcg, nid, RS_LRU_ACTIVE_ANON, RS_SWAP_CLUSTER_MAX);
	struct rs_shrink r;

	rs_sim_shrink_active(sc->s, memcg, nid, RS_LRU_ACTIVE_ANON, n, &r);
	note_cost(sc, memcg, nid, false, 0, r.kept_active);
}

static void shrink_lruvec(struct ml_sc *sc, int memcg, int nid)
{
	struct rs_sim *s = sc->s;
	struct rs_memcg_state st;
	struct rs_gsc_in in = { 0 };
	uint64_t nr[RS_NR_EVICTABLE], targets[RS_NR_EVICTABLE], nr_reclaimed = 0, view_ts;
	bool proportional_reclaim;

	/*
	 * The recorded call's passes at this priority, when there were (a run down to priority
	 * 2 finds other folios at 12 than at 2, and frees its pages where they became free).
	 * kswapd passes take that window's rates. A direct or limit reclaim pass of the first
	 * descent also frees its pages where the recorded pass did (rs_world_pass_reclaim()):
	 * the kernel stopped there once its own reclaim met the goal, and a pass's pages are
	 * not free evenly over it (anon written to swap in the early batches is freed once the
	 * writeback completes; a2s-1: 61,440 file pages at 12..1 freed none, the 14th batch at
	 * priority 0 freed a 512-page folio). Retries and compaction rounds repeat a priority,
	 * soft-limit passes are no pass of the call's descent: the whole call's window.
	 */
	struct rs_sim_pass pass = { .memcg = memcg, .nid = nid };

	if (sc->kswapd)
		s->prio = sc->priority;
	else if (!sc->retry && sc->order <= PAGE_ALLOC_COSTLY_ORDER && !s->soft)
		s->prio = sc->priority;
	else
		s->prio = -1;
	s->pass = !sc->kswapd && s->prio >= 0 ? &pass : NULL;
	rs_world_memcg_state(s->w, memcg, &st);
	if (s->pass && !sc->priority) {
		/*
		 * At priority 0 every list scanned is scanned whole (SCAN_EQUAL, or one type):
		 * the recorded pass's requests add up to the list as it found it, which the
		 * world (at the call's start, the deltas a few pages short) can read smaller.
		 * anon-stream-swap, 5380.629 s: the pass asked for 33,136 inactive anon pages
		 * and freed 45 in its last 17 batches; the world read 32,592 pages and the
		 * model's pass ended before any was freed.
		 */
		for (int l = RS_LRU_INACTIVE_ANON; l < RS_NR_EVICTABLE; l += 2)
			rs_sim_at_least(s, memcg, nid, l,
					rs_world_pass_requested(s->w, memcg, nid, l, 0,
								s->call->ts));
	}
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		in.size[l] = rs_sim_size(s, memcg, nid, l);
	in.priority = sc->priority;
	in.swappiness = st.swappiness;
	in.may_swap = sc->may_swap;
	in.swap_ok = rs_sim_memcg_swap_ok(s, memcg);
	in.cgroup_reclaim = sc->cgroup;
	in.file_is_tiny = sc->file_is_tiny;
	in.cache_trim_mode = sc->cache_trim_mode;
	in.online = st.online;
	in.anon_cost = sc->anon_cost;
	in.file_cost = sc->file_cost;
	rs_mainline_scan_count(&in, nr);
	memcpy(targets, nr, sizeof(nr));

	/* global direct reclaim at DEF_PRIORITY does a whole batch; everyone else may stop early */
	proportional_reclaim = !sc->cgroup && !sc->kswapd && sc->priority == RS_DEF_PRIORITY;

	while (nr[RS_LRU_INACTIVE_ANON] || nr[RS_LRU_ACTIVE_FILE] || nr[RS_LRU_INACTIVE_FILE]) {
		uint64_t nr_anon, nr_file, percentage, scanned, target;
		int lru;

		for (lru = 0; lru < RS_NR_EVICTABLE; lru++) {
			if (nr[lru]) {
				uint64_t k = rs_min_u64(nr[lru], RS_SWAP_CLUSTER_MAX);

				nr[lru] -= k;
				nr_reclaimed += shrink_list(sc, lru, k, memcg, nid);
			}
		}
		if (nr_reclaimed < sc->nr_to_reclaim || proportional_reclaim)
			continue;

		/* scan the other type in proportion to what was requested, then stop */
		nr_file = nr[RS_LRU_INACTIVE_FILE] + nr[RS_LRU_ACTIVE_FILE];
		nr_anon = nr[RS_LRU_INACTIVE_ANON] + nr[RS_LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			target = targets[RS_LRU_INACTIVE_ANON] + targets[RS_LRU_ACTIVE_ANON] + 1;
			lru = RS_LRU_INACTIVE_ANON;
			percentage = nr_anon * 100 / target;
		} else {
			target = targets[RS_LRU_INACTIVE_FILE] + targets[RS_LRU_ACTIVE_FILE] + 1;
			lru = RS_LRU_INACTIVE_FILE;
			percentage = nr_file * 100 / target;
		}
		nr[lru] = 0;
		nr[lru + 1] = 0;
		lru = lru == RS_LRU_INACTIVE_FILE ? RS_LRU_INACTIVE_ANON : RS_LRU_INACTIVE_FILE;
		for (int k = 0; k < 2; k++, lru++) {
			scanned = targets[lru] - nr[lru];
			nr[lru] = targets[lru] * (100 - percentage) / 100;
			nr[lru] -= rs_min_u64(nr[lru], scanned);
		}
	}
	sc->nr_reclaimed += nr_reclaimed;
	s->pass = NULL;

	/*
	 * rebalance the anon lists even if no anon was scanned (lruvec_page_state: subtree, as
	 * of the end of this pass)
	 */
	view_ts = s->view_ts;
	s->view_ts = pass_start(sc, sc->priority - 1);
	if (rs_sim_memcg_swap_ok(s, memcg) &&
	    rs_inactive_is_low(stat_h(s, memcg, nid, RS_LRU_INACTIVE_ANON),
			       stat_h(s, memcg, nid, RS_LRU_ACTIVE_ANON)))
		age_active_anon(sc, memcg, nid);
	s->view_ts = view_ts;
}

/*
 * Recorded workingset_activate of a target lruvec as lruvec_page_state() reads it:
 * hierarchical, and as the memcg's last stats flush left it (the recorder's memory.stat reads
 * flush). Between two flushes the count the kernel compares with its snapshot_refaults() does
 * not move however many pages refault: only the first reclaim after a flush sees "refaults
 * changed" and deactivates for it (kids-reread.dat: +49.8% active file pages scanned when every
 * call saw the refaults as they happened).
 */
static uint64_t ws_hier(const struct rs_sim *s, int root, int nid, int file, uint64_t ts)
{
	return rs_world_ws_flushed_at(s->w, root, nid, file, ts);
}

/*
 * snapshot_refaults() at the end of do_try_to_free_pages() (and of a kswapd run): the target's
 * refaults as the stats show them when the call ends. Another reclaimer's passes compare with
 * it only from then on: a call that began while this one ran still compares with the snapshot
 * of the call that ended before it (two tasks of the 7.2 cgroup-children trace reclaim
 * /rs_parent at once, and the one that started second saw the refaults of a flush as new,
 * where a model taking the first call's snapshot at once saw them as old).
 */
static void snapshot_refaults(struct ml_sc *sc, int nid)
{
	struct mainline *ml = sc->ml;
	const struct rs_reclaim_call *c = sc->s->call;
	uint64_t end = c->ts_end > c->ts ? c->ts_end : c->ts;
	struct snap_pending *p;

	/*
	 * kswapd: balance_pgdat() takes it as it returns, and the call runs on to the next wake or
	 * sleep (kswapd_try_to_sleep()'s 100 ms nap): the 7.2 zswap trace's run at 106.036 s
	 * returned at 106.046 s and the next woke at 106.172 s, after the root's periodic flush
	 * at 106.161 s brought /rs_zs's file refaults into the root's stats. Snapshotting at the
	 * next wake hid them, the next run kept cache_trim_mode and scanned no anon of the root
	 * where the kernel deactivated file and took a 512-page THP of the root's anon at each
	 * priority (/ inactive anon -39.4%).
	 */
	if (sc->kswapd && c->rec.run_end >= c->ts && c->rec.run_end < end)
		end = c->rec.run_end;

	if (RS_GROW(ml->pend, ml->cappend, ml->npend + 1, 16)) {
		ml->oom = true;
		return;
	}
	p = &ml->pend[ml->npend++];
	p->lruvec = lvi(sc, sc->target, nid);
	p->ts = end;
	for (int t = 0; t < 2; t++)
		p->refaults[t] = ws_hier(sc->s, sc->target, nid, t, end);
}

/* The snapshots of the calls that ended by `ts`, in the order they ended. */
static void snapshots_ended(struct mainline *ml, uint64_t ts)
{
	for (;;) {
		size_t best = ml->npend;

		for (size_t k = 0; k < ml->npend; k++)
			if (ml->pend[k].ts <= ts && (best == ml->npend ||
						     ml->pend[k].ts < ml->pend[best].ts))
				best = k;
		if (best == ml->npend)
			return;
		memcpy(ml->lv[ml->pend[best].lruvec].refault_snap, ml->pend[best].refaults,
		       sizeof(ml->pend[best].refaults));
		ml->pend[best] = ml->pend[--ml->npend];
	}
}

static void prepare_scan_control(struct ml_sc *sc, int nid)
{
	struct mainline *ml = sc->ml;
	struct rs_sim *s = sc->s;
	int t = sc->target;
	struct ml_lruvec *lv = &ml->lv[lvi(sc, t, nid)];

	s->view_ts = scan_control_at(sc, sc->priority);
	snapshots_ended(ml, s->view_ts);
	sc->anon_cost = lv->anon_cost;
	sc->file_cost = lv->file_cost;
	if (!sc->force_deactivate) {
		for (int file = 0; file < 2; file++) {
			uint64_t refaults = ws_hier(s, t, nid, file, s->view_ts);
			uint64_t *snap = &lv->refault_snap[file];
			int inactive = file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;
			bool changed;

			/* the kernel's snapshot predates the trace: assume no refaults since */
			if (*snap == UNSET)
				*snap = refaults;
			changed = refaults != *snap;
			if (changed || rs_inactive_is_low(stat_h(s, t, nid, inactive),
							  stat_h(s, t, nid, inactive + 1)))
				sc->may_deactivate |= 1u << file;
			else
				sc->may_deactivate &= ~(1u << file);
		}
	} else {
		sc->may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
	}
	sc->cache_trim_mode = (stat_h(s, t, nid, RS_LRU_INACTIVE_FILE) >> sc->priority) &&
			      !(sc->may_deactivate & DEACTIVATE_FILE) && !sc->no_cache_trim_mode;
	if (!sc->cgroup) {
		struct rs_node_state ns;
		uint64_t file = rs_sim_node_size(s, nid, RS_LRU_INACTIVE_FILE) +
				rs_sim_node_size(s, nid, RS_LRU_ACTIVE_FILE);

		rs_world_node(s->w, nid, &ns);
		sc->file_is_tiny = file + rs_sim_free(s, nid) <= ns.wmark_high &&
				   !(sc->may_deactivate & DEACTIVATE_ANON) &&
				   (rs_sim_node_size(s, nid, RS_LRU_INACTIVE_ANON) >> sc->priority);
	}
}

/*
 * The memcgs a partial walk of the first descent visits at a priority the recorded descent went
 * through (the call's lowest priority or above): those its pass at that priority scanned, none
 * where it scanned nothing. Tasks reclaiming one root at once share the reclaim iterator
 * (mem_cgroup_iter() with a cookie): each takes the next memcg, one task's walk skips what
 * another's took, and a walk ends at once when another task's walk completes the round. The
 * interleaved replay shares the iterator too, but at the times of the model's isolations, not
 * of the kernel's iterator steps (7.2 cgroup-children, the call at 17.339 s: at priority 3 its
 * walk found only rs_a, the other task was in rs_b; the model's walk took rs_b's file at the
 * call's rate, met the goal there and never ran priority 2: inactive anon -8.3%, active file
 * -11.3%. kids-reread-tight, 27034.123 s: the kernel scanned nothing at priority 12 and rs_b's
 * file at 11; the model took rs_c's at 12). A memcg the recorded pass visited without
 * scanning (every scan target 0) has no events: the model would scan nothing there either.
 * false: visit every memcg the iterator gives (retries, kswapd, below the recorded descent, or
 * a call whose passes are not known memcg by memcg).
 */
static bool walk_recorded(const struct ml_sc *sc, int nid)
{
	const struct rs_world *w = sc->s->w;
	const struct rs_reclaim_call *c = sc->s->call;
	int prio = sc->priority;

	if (sc->kswapd || sc->memcg_full_walk || sc->retry || sc->s->soft ||
	    sc->order > PAGE_ALLOC_COSTLY_ORDER || c->rec.prio_lowest < 0 ||
	    prio < c->rec.prio_lowest)
		return false;
	/* known memcg by memcg: a window at this priority, or at the lowest one */
	if (!c->rec.prio_end[prio])
		prio = c->rec.prio_lowest;
	for (int m = sc->target; m >= 0; m = rs_subtree_next(w, sc->target, m))
		if (rs_world_pass_seen(w, m, nid, prio, c->ts))
			return true;
	return false;
}

/*
 * A partial walk over what the recorded pass visited: from where the shared iterator stands,
 * round the subtree once, so that a memcg the model's iterator has passed (its walks are not
 * the kernel's to the memcg) is still visited when the recorded pass did (kids-reread-tight,
 * 27034.074 s: the kernel's walk began at rs_b and freed a 512-page folio there; the model's
 * iterator stood past rs_b and its priority-12 walk found nothing to visit).
 */
static void shrink_recorded_walk(struct ml_sc *sc, int nid)
{
	const struct rs_world *w = sc->s->w;
	int *pos = rs_iter_pos(&sc->ml->iter, sc->target, nid, 0);
	int start = rs_iter_next(&sc->ml->iter, w, sc->target, nid, 0, -1), m = start;

	do {
		if (rs_world_pass_seen(w, m, nid, sc->priority, sc->s->call->ts)) {
			*pos = m;
			shrink_lruvec(sc, m, nid);
			/* the next walk resumes after m */
			if (sc->nr_reclaimed >= sc->nr_to_reclaim)
				return;
		}
		m = rs_subtree_next(w, sc->target, m);
		if (m < 0)
			m = sc->target;
	} while (m != start);
	*pos = -1;	/* round the whole subtree: the next walk starts at the root */
}

static void shrink_node_memcgs(struct ml_sc *sc, int nid)
{
	const struct rs_world *w = sc->s->w;
	bool partial = !sc->kswapd && !sc->memcg_full_walk;
	int m;

	if (walk_recorded(sc, nid)) {
		shrink_recorded_walk(sc, nid);
		return;
	}
	m = partial ? rs_iter_next(&sc->ml->iter, w, sc->target, nid, 0, -1) : sc->target;
	while (m >= 0) {
		shrink_lruvec(sc, m, nid);
		/* partial walks bail once the goal is reached; the next one resumes after m */
		if (partial && sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
		m = partial ? rs_iter_next(&sc->ml->iter, w, sc->target, nid, 0, m)
			    : rs_subtree_next(w, sc->target, m);
	}
}

/*
 * in_reclaim_compaction(): an allocation that may compact (__GFP_IO; assumed when the trace has
 * no gfp) of a costly order, or of any order > 0 below DEF_PRIORITY - 2.
 */
static bool in_reclaim_compaction(const struct ml_sc *sc)
{
	uint64_t gfp = sc->s->call->gfp_flags;

	return (!gfp || (gfp & GFP_IO)) && sc->order > 0 && sc->order < 32 &&
	       (sc->order > PAGE_ALLOC_COSTLY_ORDER || sc->priority < RS_DEF_PRIORITY - 2);
}

/*
 * should_continue_reclaim(): in reclaim/compaction mode shrink_node() goes round again at the
 * same priority while the round reclaimed something, compaction is not ready and the
 * inactive lists hold more than the recorded kernel's compact_gap() (include/compact_gap.h):
 *	pages_for_compaction = compact_gap(sc->order);
 *	...
 *	return inactive_lru_pages > pages_for_compaction;
 * 1,024 pages at order 9 on 6.x, 32 on 7.2. "Ready" is per zone (zone_watermark_ok() at
 * the order, compaction_suitable()), which node sums cannot decide: the call goes on as far as
 * the recorded one did (rs_reclaim_call.compact_goal; 0 for kswapd, whose runs end where the
 * recorded run was balanced, and for memcg reclaim, order 0). The 7.2 kswapd-fail trace's
 * THP faults (order 9) reclaimed 4,096 pages in 8 rounds of one 512-page folio at priority
 * 12 for nr_to_reclaim 32; a model stopping after the first was -5.7% on inactive file.
 */
static bool should_continue_reclaim(struct ml_sc *sc, int nid, uint64_t nr_node_reclaimed)
{
	struct rs_sim *s = sc->s;
	uint64_t inactive;

	if (!in_reclaim_compaction(sc) || !nr_node_reclaimed ||
	    sc->nr_reclaimed >= s->call->compact_goal)
		return false;
	inactive = rs_sim_node_size(s, nid, RS_LRU_INACTIVE_FILE);
	if (sc->may_swap && rs_sim_swap_ok(s))
		inactive += rs_sim_node_size(s, nid, RS_LRU_INACTIVE_ANON);
	return inactive > rs_compact_gap(s->w, sc->order);
}

static void shrink_node(struct ml_sc *sc, int nid)
{
	uint64_t before = sc->nr_reclaimed, round;

	rs_sim_round(sc->s, sc->priority);
	do {
		round = sc->nr_reclaimed;
		prepare_scan_control(sc, nid);
		shrink_node_memcgs(sc, nid);
	} while (should_continue_reclaim(sc, nid, sc->nr_reclaimed - round));
	if (sc->nr_reclaimed - before)
		sc->ml->kswapd_failures[nid] = 0;
	else if (sc->cache_trim_mode)
		sc->cache_trim_mode_failed = true;
}

/* mem_cgroup_shrink_node(): one memcg's lruvec at priority 0 without prepare_scan_control(). */
static uint64_t soft_shrink(void *ctx, struct rs_sim *s, int memcg, int nid)
{
	struct ml_sc sc = {
		.ml = ctx, .s = s, .target = memcg, .cgroup = true, .kswapd = false,
		.may_swap = true, .priority = 0, .nr_to_reclaim = RS_SWAP_CLUSTER_MAX,
	};

	shrink_lruvec(&sc, memcg, nid);
	return sc.nr_reclaimed;
}

static uint64_t soft_limit_reclaim(struct ml_sc *sc, int nid)
{
	static const struct rs_softtree_opts o = { .check_reclaimable = false, .iter_slot = 0 };

	if (!sc->ml->v1)
		return 0;
	return rs_softtree_reclaim(sc->s, &sc->ml->iter, nid, sc->order, &o, soft_shrink, sc->ml);
}

static void shrink_zones(struct ml_sc *sc)
{
	for (int i = 0; i < sc->s->ls->nr_nodes; i++) {
		int nid = rs_sim_zonelist_node(sc->s, i);

		if (!sc->cgroup)
			sc->nr_reclaimed += soft_limit_reclaim(sc, nid);
		shrink_node(sc, nid);
	}
}

static void do_try_to_free_pages(struct ml_sc *sc)
{
	int initial = sc->priority;

retry:
	do {
		sc->nr_scanned = 0;
		shrink_zones(sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
	} while (--sc->priority >= 0);

	for (int i = 0; i < sc->s->ls->nr_nodes; i++)
		snapshot_refaults(sc, rs_sim_zonelist_node(sc->s, i));
	if (sc->nr_reclaimed)
		return;
	/* partial walks may have missed the memcgs with pages: walk everything once */
	sc->retry = true;
	if (!sc->memcg_full_walk) {
		sc->priority = initial;
		sc->memcg_full_walk = true;
		goto retry;
	}
	if (sc->skipped_deactivate) {
		sc->priority = initial;
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
		goto retry;
	}
}

static void kswapd_age_node(struct ml_sc *sc, int nid)
{
	struct rs_sim *s = sc->s;

	if (!rs_sim_swap_ok(s) ||
	    !rs_inactive_is_low(stat_h(s, 0, nid, RS_LRU_INACTIVE_ANON),
				stat_h(s, 0, nid, RS_LRU_ACTIVE_ANON)))
		return;
	for (int m = 0; m >= 0; m = rs_subtree_next(s->w, 0, m))
		age_active_anon(sc, m, nid);
}

/* Returns true when kswapd scanned at least what it asked for: no need to lower the priority. */
static bool kswapd_shrink_node(struct ml_sc *sc, int nid)
{
	struct rs_node_state ns;
	uint64_t before = sc->nr_reclaimed;

	rs_world_node(sc->s->w, nid, &ns);
	sc->nr_to_reclaim = rs_max_u64(ns.wmark_high, RS_SWAP_CLUSTER_MAX);
	shrink_node(sc, nid);
	/* high-order balancing gives up once compact_gap() pages are reclaimed (7.2: 32) */
	if (sc->order && sc->nr_reclaimed >= rs_compact_gap(sc->s->w, sc->order))
		sc->order = 0;
	return rs_max_u64(sc->nr_scanned, sc->nr_reclaimed - before) >= sc->nr_to_reclaim;
}

static void balance_pgdat(struct mainline *ml, struct rs_sim *s, int nid, uint64_t want)
{
	uint32_t *failures = &ml->kswapd_failures[nid];

	for (int run = 0; run < KSWAPD_MAX_RUNS && s->reclaimed < want &&
			  *failures < MAX_RECLAIM_RETRIES; run++) {
		struct ml_sc sc = {
			.ml = ml, .s = s, .target = 0, .kswapd = true, .may_swap = true,
			.order = s->call->order,
		};
		bool balanced = false;

restart:
		sc.priority = RS_DEF_PRIORITY;
		do {
			uint64_t before = sc.nr_reclaimed;
			bool raise_priority = true;

			if (s->reclaimed >= want) {
				balanced = true;
				break;
			}
			kswapd_age_node(&sc, nid);
			sc.nr_scanned = 0;
			sc.nr_reclaimed += soft_limit_reclaim(&sc, nid);
			if (kswapd_shrink_node(&sc, nid))
				raise_priority = false;
			if (raise_priority || sc.nr_reclaimed == before)
				sc.priority--;
		} while (sc.priority >= 1);

		if (!balanced && !sc.nr_reclaimed && sc.priority < 1 && !sc.no_cache_trim_mode &&
		    sc.cache_trim_mode_failed) {
			sc.no_cache_trim_mode = true;
			sc.retry = true;
			goto restart;
		}
		if (!balanced && !sc.nr_reclaimed)
			(*failures)++;
		snapshot_refaults(&sc, nid);
	}
}

/* __node_reclaim(): priority 4 -> 0 until the allocation's 1 << order pages are free. */
static void node_reclaim(struct mainline *ml, struct rs_sim *s, const struct rs_reclaim_call *c)
{
	uint64_t nr_pages = UINT64_C(1) << (c->order > 0 && c->order < 32 ? c->order : 0);
	struct ml_sc sc = {
		.ml = ml, .s = s, .target = 0, .may_swap = c->may_swap, .order = c->order,
		.nr_to_reclaim = rs_max_u64(rs_max_u64(c->nr_to_reclaim, nr_pages),
					    RS_SWAP_CLUSTER_MAX),
		.priority = NODE_RECLAIM_PRIORITY,
	};

	do {
		shrink_node(&sc, c->nid);
	} while (sc.nr_reclaimed < nr_pages && --sc.priority >= 0);
}

/* Recorded refault cost (workingset_restore) since the last invocation, 32 per page. */
static void fold_refault_cost(struct mainline *ml, struct rs_sim *s)
{
	struct ml_sc sc = { .ml = ml, .s = s };

	for (int m = 0; m < ml->ls.nr_memcg; m++) {
		for (int nid = 0; nid < ml->ls.nr_nodes; nid++) {
			struct ml_lruvec *lv = &ml->lv[lvi(&sc, m, nid)];

			for (int t = 0; t < 2; t++) {
				uint64_t cur = rs_world_ws(s->w, RS_WF_WS_RESTORE, m, nid, t);
				uint64_t *seen = &lv->restore_seen[t];

				if (*seen != UNSET && cur > *seen)
					note_cost(&sc, m, nid, t, cur - *seen, 0);
				*seen = cur;
			}
		}
	}
}

static void mainline_free(void *state)
{
	struct mainline *ml = state;

	if (!ml)
		return;
	rs_lrusim_free(&ml->ls);
	rs_iter_free(&ml->iter);
	free(ml->lv);
	free(ml->pend);
	free(ml->kswapd_failures);
	free(ml);
}

static int mainline_init(const struct rs_world *w, void **state, struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	size_t nlv = (size_t)wi->nr_memcg * wi->nr_nodes;
	struct mainline *ml;

	if (wi->mglru)
		return rs_error_set(err, "mainline: the recorded kernel ran MGLRU (lru_gen); this "
				    "model is the classic-LRU get_scan_count()/shrink_lruvec() and "
				    "does not describe it");
	ml = calloc(1, sizeof(*ml));
	if (!ml)
		return rs_error_set(err, "out of memory");
	ml->v1 = wi->cgroup_v1;
	if (rs_lrusim_init(&ml->ls, w, err) || rs_iter_init(&ml->iter, w, 1, err))
		goto fail;
	ml->lv = calloc(nlv, sizeof(*ml->lv));
	ml->kswapd_failures = calloc((size_t)wi->nr_nodes, sizeof(uint32_t));
	if (!ml->lv || !ml->kswapd_failures) {
		rs_error_set(err, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < nlv; i++) {
		struct ml_lruvec *lv = &ml->lv[i];

		lv->restore_seen[0] = lv->restore_seen[1] = UNSET;
		lv->refault_snap[0] = lv->refault_snap[1] = UNSET;
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			lv->folio_carry[l] = RS_RATE_ONE / 2;
	}
	*state = ml;
	return 0;
fail:
	mainline_free(ml);
	return -1;
}

static int mainline_invoke(void *state, const struct rs_world *w,
			   const struct rs_reclaim_call *c, struct rs_call_outcome *out,
			   struct rs_error *err)
{
	struct mainline *ml = state;
	struct rs_sim s;

	rs_sim_begin(&s, &ml->ls, w, c, out);
	fold_refault_cost(ml, &s);
	switch (c->ctx) {
	case RS_CALL_KSWAPD:
		balance_pgdat(ml, &s, c->nid, rs_sim_kswapd_derived_want(&s));
		break;
	case RS_CALL_DIRECT: {
		struct ml_sc sc = {
			.ml = ml, .s = &s, .target = 0, .may_swap = true, .order = c->order,
			.priority = RS_DEF_PRIORITY,
			.nr_to_reclaim = c->nr_to_reclaim ? c->nr_to_reclaim : RS_SWAP_CLUSTER_MAX,
		};

		do_try_to_free_pages(&sc);
		break;
	}
	case RS_CALL_MEMCG: {
		struct ml_sc sc = {
			.ml = ml, .s = &s, .target = c->target, .cgroup = true,
			.may_swap = c->may_swap, .order = 0, .priority = RS_DEF_PRIORITY,
			.nr_to_reclaim = rs_max_u64(c->nr_to_reclaim, RS_SWAP_CLUSTER_MAX),
		};

		do_try_to_free_pages(&sc);
		break;
	}
	case RS_CALL_NODE:
		node_reclaim(ml, &s, c);
		break;
	default:
		return rs_error_set(err, "mainline: unknown call context %d", c->ctx);
	}
	if (ml->oom)
		return rs_error_set(err, "out of memory");
	return 0;
}

const struct rs_policy_ops rs_policy_mainline = {
	.name = "mainline",
	.recorded_kernel = true,
	/*
	 * On cgroup v1 its soft passes are memcg1_soft_limit_reclaim() over the 6.x
	 * shrink_lruvec() (soft_shrink()): the recorded kernel's, visit for visit. The tree
	 * policy's 3.10 shrink_lruvec() stops a visit at 32 pages reclaimed and scans ~60% of a
	 * 6.1 visit (k61-softlimit.dat, docs/models.md), so its soft figures are a counterfactual
	 * there and mainline's must reproduce the recording's or not be shown.
	 */
	.recorded_soft_passes = true,
	.stands_for = "Linux 6.x mm/vmscan.c get_scan_count()/shrink_lruvec()/balance_pgdat() "
		      "(classic LRU), the recorded kernel's own",
	.approximates = "anon/file costs start at 0; zones merged per node; a kswapd run ends "
			"where pgdat_balanced() on the zone samples does, else where the recorded "
			"run was balanced; memory.low not modelled",
	.init = mainline_init,
	.invoke = mainline_invoke,
	.free = mainline_free,
};
