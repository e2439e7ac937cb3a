// SPDX-License-Identifier: GPL-2.0
/*
 * The split-LRU reclaim of 2008, shared by the policies splitlru (Linux 2.6.28, models/
 * splitlru.c) and splitlru-plus1 (2.6.26-rc8-mm1, models/splitlru_plus1.c), which differ only
 * in what shrink_zone() adds to every list's nr_scan per call: `plus`, 1 in -mm, 0 after
 * Johannes Weiner's "mm: don't accumulate scan pressure on unrelated lists" (merged with split
 * LRU in 2.6.28, e0f79b8f1f33). Functions mirror 2.6.28 mm/vmscan.c: get_scan_ratio(),
 * shrink_zone(), shrink_list(), shrink_active_list() (every page taken goes inactive; referenced
 * ones count as rotated), inactive_anon_is_low(), shrink_zones()/do_try_to_free_pages(),
 * balance_pgdat(), try_to_free_mem_cgroup_pages().
 *
 * What it models: per zone and list the nr_scan accumulator (global reclaim only; a list scans
 * once it reaches swap_cluster_max = 32, then the accumulator restarts at 0), the anon/file
 * percentages from recent_scanned/recent_rotated with the halving rule, the 2.6.28 fallthrough
 * of shrink_list(): a batch for the active anon list when inactive anon is *not* low scans the
 * inactive anon list instead, the shrink_zone() tail that deactivates 32 anon pages when
 * inactive anon is low, direct reclaim's priority loop 12 -> 0 until 32 pages are reclaimed
 * (2.6.28 has no early bail inside shrink_zone(); a79311c14eae added it in 2.6.29), kswapd's
 * priority loop with its break once 32 pages are reclaimed and its loop_again.
 *
 * What it approximates:
 *  - one zone per node (the recorded kernel keeps LRUs per node); a node of several zones
 *    would run one accumulator per zone, each adding `plus` per call;
 *  - the global LRU is the sum of the recorded lruvecs; a scan of n pages takes from each memcg
 *    in proportion to its share of the list (largest remainder), with that memcg's observed
 *    reclaimability: 2.6.28 did not order pages by memcg, so which memcg's pages sit at the
 *    tail is unknown;
 *  - memcg limit reclaim scans the target's whole subtree as one LRU (2.6.28 had no hierarchy)
 *    with the 2.6.28 code for both policies (-mm's memcg path, size >> priority without the
 *    anon/file percentages, is not modelled, so the pair differs only in `plus`);
 *  - callers that want more than 32 pages (kswapd runs, memory.high) call again until the
 *    invocation's nr_to_reclaim is met or a call frees nothing;
 *  - zone->inactive_ratio comes from the node's managed pages (or lists + free when unknown);
 *  - lumpy reclaim for high orders, all_unreclaimable, and pages_high x 8 skips: not modelled.
 * What a trace cannot show it: the rotation statistics of a 2008 kernel on this workload; the
 * model feeds get_scan_ratio() the rotations the *recorded* kernel's pages showed.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"

#define MAX_CALLS	4096	/* safety bound on repeated reclaim calls per invocation */

/* What the model keeps per node, as 2.6.28 keeps it in struct zone. */
struct sl_zone {
	uint64_t nr_scan[RS_NR_EVICTABLE];	/* zone->lru[l].nr_scan */
	struct rs_reclaim_stat stat;		/* zone->recent_scanned / recent_rotated */
};

struct splitlru {
	struct rs_lrusim ls;
	unsigned int plus;
	struct sl_zone *zone;		/* [nid] */
};

struct sl_sc {
	struct splitlru *sl;
	struct rs_sim *s;
	int root;			/* memcg whose subtree is scanned; 0 for global */
	bool global, kswapd, may_swap;
	int swappiness;
	uint64_t nr_reclaimed;
};

void rs_reclaim_stat_decay(struct rs_reclaim_stat *rs, uint64_t anon, uint64_t file)
{
	if (rs->recent_scanned[0] > anon / 4) {
		rs->recent_scanned[0] /= 2;
		rs->recent_rotated[0] /= 2;
	}
	if (rs->recent_scanned[1] > file / 4) {
		rs->recent_scanned[1] /= 2;
		rs->recent_rotated[1] /= 2;
	}
}

void rs_splitlru_scan_ratio(struct rs_reclaim_stat *rs, uint64_t anon, uint64_t file,
			    uint64_t free, uint64_t pages_high, bool swap_ok, int swappiness,
			    uint64_t pct[2])
{
	uint64_t ap, fp;

	/* no swap space: do not bother scanning anon */
	if (!swap_ok) {
		pct[0] = 0;
		pct[1] = 100;
		return;
	}
	/* very few page cache pages: force-scan anon */
	if (file + free <= pages_high) {
		pct[0] = 100;
		pct[1] = 0;
		return;
	}
	rs_reclaim_stat_decay(rs, anon, file);
	ap = (uint64_t)(swappiness + 1) * (rs->recent_scanned[0] + 1);
	ap /= rs->recent_rotated[0] + 1;
	fp = (uint64_t)(200 - swappiness + 1) * (rs->recent_scanned[1] + 1);
	fp /= rs->recent_rotated[1] + 1;
	pct[0] = 100 * ap / (ap + fp + 1);
	pct[1] = 100 - pct[0];
}

static uint64_t zone_managed(struct rs_sim *s, int nid)
{
	struct rs_node_state ns;
	uint64_t sum;

	rs_world_node(s->w, nid, &ns);
	if (ns.managed)
		return ns.managed;
	sum = rs_sim_free(s, nid);
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		sum += rs_sim_node_size(s, nid, l);
	return sum;
}

/* inactive_anon_is_low(): zone->inactive_ratio for global reclaim, the memcg's anon for memcg. */
static bool inactive_anon_is_low(struct sl_sc *sc, int nid)
{
	uint64_t inactive = rs_sim_hsize(sc->s, sc->root, nid, RS_LRU_INACTIVE_ANON);
	uint64_t active = rs_sim_hsize(sc->s, sc->root, nid, RS_LRU_ACTIVE_ANON);
	uint64_t gb, ratio;

	if (!sc->global)
		return rs_inactive_is_low(inactive, active);
	gb = zone_managed(sc->s, nid) >> (30 - 12);
	ratio = gb ? rs_int_sqrt(10 * gb) : 1;
	return inactive * ratio < active;
}

static void note(struct sl_sc *sc, int nid, bool file, uint64_t scanned, uint64_t rotated)
{
	struct rs_reclaim_stat *z = &sc->sl->zone[nid].stat;

	/* 2.6.28 updates the zone statistics for global reclaim only */
	if (!sc->global)
		return;
	z->recent_scanned[file] += scanned;
	z->recent_rotated[file] += rotated;
}

static uint64_t shrink_inactive(struct sl_sc *sc, int nid, bool file, uint64_t n)
{
	struct rs_shrink r;
	int lru = file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;

	rs_sim_shrink_merged(sc->s, sc->root, nid, lru, n, &r);
	note(sc, nid, file, r.taken, r.activated);
	return r.reclaimed;
}

static void shrink_active(struct sl_sc *sc, int nid, bool file, uint64_t n)
{
	struct rs_shrink r;
	int lru = file ? RS_LRU_ACTIVE_FILE : RS_LRU_ACTIVE_ANON;

	rs_sim_shrink_merged(sc->s, sc->root, nid, lru, n, &r);
	note(sc, nid, file, r.taken, r.referenced);
}

static uint64_t shrink_list(struct sl_sc *sc, int lru, uint64_t n, int nid)
{
	if (lru == RS_LRU_ACTIVE_FILE) {
		shrink_active(sc, nid, true, n);
		return 0;
	}
	if (lru == RS_LRU_ACTIVE_ANON && inactive_anon_is_low(sc, nid)) {
		shrink_active(sc, nid, false, n);
		return 0;
	}
	/* IA, IF, and AA when inactive anon is not low: the inactive list of that type */
	return shrink_inactive(sc, nid, rs_lru_is_file(lru), n);
}

static void shrink_zone(struct sl_sc *sc, int priority, int nid)
{
	struct splitlru *sl = sc->sl;
	struct rs_sim *s = sc->s;
	struct rs_node_state ns;
	uint64_t nr[RS_NR_EVICTABLE], pct[2];
	uint64_t anon = rs_sim_node_size(s, nid, RS_LRU_INACTIVE_ANON) +
			rs_sim_node_size(s, nid, RS_LRU_ACTIVE_ANON);
	uint64_t file = rs_sim_node_size(s, nid, RS_LRU_INACTIVE_FILE) +
			rs_sim_node_size(s, nid, RS_LRU_ACTIVE_FILE);

	rs_sim_round(s, priority);
	rs_world_node(s->w, nid, &ns);
	rs_splitlru_scan_ratio(&sl->zone[nid].stat, anon, file, rs_sim_free(s, nid), ns.wmark_high,
			       rs_sim_swap_ok(s) && sc->may_swap, sc->swappiness, pct);
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		uint64_t scan = rs_sim_hsize(s, sc->root, nid, l);

		if (priority) {
			scan >>= priority;
			scan = scan * pct[rs_lru_is_file(l)] / 100;
		}
		if (sc->global) {
			uint64_t *acc = &sl->zone[nid].nr_scan[l];

			*acc += scan + sl->plus;
			nr[l] = *acc;
			if (nr[l] >= RS_SWAP_CLUSTER_MAX)
				*acc = 0;
			else
				nr[l] = 0;
		} else {
			nr[l] = scan;
		}
	}
	while (nr[RS_LRU_INACTIVE_ANON] || nr[RS_LRU_ACTIVE_FILE] || nr[RS_LRU_INACTIVE_FILE]) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			if (nr[l]) {
				uint64_t k = rs_min_u64(nr[l], RS_SWAP_CLUSTER_MAX);

				nr[l] -= k;
				sc->nr_reclaimed += shrink_list(sc, l, k, nid);
			}
		}
	}
	/* rebalance the anon lists even when no anon was scanned */
	if (inactive_anon_is_low(sc, nid))
		shrink_active(sc, nid, false, RS_SWAP_CLUSTER_MAX);
}

/* do_try_to_free_pages(): priority 12 -> 0 over the zonelist until 32 pages are reclaimed. */
static uint64_t try_to_free(struct sl_sc *sc)
{
	uint64_t before = sc->nr_reclaimed;

	for (int priority = RS_DEF_PRIORITY; priority >= 0; priority--) {
		for (int i = 0; i < sc->s->ls->nr_nodes; i++)
			shrink_zone(sc, priority, rs_sim_zonelist_node(sc->s, i));
		if (sc->nr_reclaimed - before >= RS_SWAP_CLUSTER_MAX)
			break;
	}
	return sc->nr_reclaimed - before;
}

/* balance_pgdat() on one node, once through loop_again. */
static uint64_t balance_pgdat(struct sl_sc *sc, int nid, uint64_t want)
{
	uint64_t before = sc->nr_reclaimed;

	for (int priority = RS_DEF_PRIORITY; priority >= 0; priority--) {
		/* background aging of the anon list */
		if (inactive_anon_is_low(sc, nid))
			shrink_active(sc, nid, false, RS_SWAP_CLUSTER_MAX);
		if (rs_sim_kswapd_balanced(sc->s, want))
			break;
		shrink_zone(sc, priority, nid);
		if (rs_sim_kswapd_balanced(sc->s, want))
			break;
		/* kswapd does not build up large priorities while allocators free in parallel */
		if (sc->nr_reclaimed - before >= RS_SWAP_CLUSTER_MAX)
			break;
	}
	return sc->nr_reclaimed - before;
}

int rs_splitlru_invoke(void *state, const struct rs_world *w, const struct rs_reclaim_call *c,
		       struct rs_call_outcome *out, struct rs_error *err)
{
	struct splitlru *sl = state;
	struct rs_sim s;
	struct sl_sc sc = { .sl = sl, .s = &s, .root = 0, .global = true, .may_swap = true };
	uint64_t want = rs_max_u64(c->nr_to_reclaim, RS_SWAP_CLUSTER_MAX);

	rs_sim_begin(&s, &sl->ls, w, c, out);
	s.deactivate_all = true;
	sc.swappiness = rs_world_info(w)->vm_swappiness;
	switch (c->ctx) {
	case RS_CALL_KSWAPD:
		sc.kswapd = true;
		want = rs_sim_kswapd_want(&s);
		for (int i = 0; i < MAX_CALLS && !rs_sim_kswapd_balanced(&s, want); i++)
			if (!balance_pgdat(&sc, c->nid, want))
				break;
		break;
	case RS_CALL_MEMCG:
		sc.root = c->target;
		sc.global = false;
		sc.may_swap = c->may_swap;
		sc.swappiness = rs_sim_swappiness(&s, c->target);
		/* fallthrough */
	case RS_CALL_DIRECT:
	case RS_CALL_NODE:
		for (int i = 0; i < MAX_CALLS && s.reclaimed < want; i++)
			if (!try_to_free(&sc))
				break;
		break;
	default:
		return rs_error_set(err, "splitlru: unknown call context %d", c->ctx);
	}
	return 0;
}

void rs_splitlru_free(void *state)
{
	struct splitlru *sl = state;

	if (!sl)
		return;
	rs_lrusim_free(&sl->ls);
	free(sl->zone);
	free(sl);
}

int rs_splitlru_init(const struct rs_world *w, unsigned int plus, void **state,
		     struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct splitlru *sl = calloc(1, sizeof(*sl));

	if (!sl)
		return rs_error_set(err, "out of memory");
	sl->plus = plus;
	if (rs_lrusim_init(&sl->ls, w, err))
		goto fail;
	sl->zone = calloc((size_t)wi->nr_nodes, sizeof(*sl->zone));
	if (!sl->zone) {
		rs_error_set(err, "out of memory");
		goto fail;
	}
	*state = sl;
	return 0;
fail:
	rs_splitlru_free(sl);
	return -1;
}
