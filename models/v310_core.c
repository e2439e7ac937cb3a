// SPDX-License-Identifier: GPL-2.0
/*
 * Linux 3.10 mm/vmscan.c, the base the two soft-limit policies share: get_scan_count(),
 * shrink_lruvec(), shrink_list() with inactive_list_is_low(), shrink_active_list(),
 * shrink_zone() walking the memcg tree with the per-zone, per-priority reclaim iterator,
 * do_try_to_free_pages(), balance_pgdat() with age_active_anon(), try_to_free_mem_cgroup_pages()
 * and mem_cgroup_shrink_node_zone(). What each policy does with a zone (the soft-limit tree pass
 * before shrink_zone(), or the rework's two-pass shrink_zone()) is its zone callback.
 *
 * What it models: per-lruvec recent_scanned/recent_rotated (own lruvec, halving at a quarter of
 * the lists), SCAN_FILE without swap or for memcg reclaim at swappiness 0, SCAN_EQUAL at
 * priority 0, SCAN_ANON when the lruvec's file + zone free <= high watermark (global), SCAN_FILE
 * while inactive file is not low, else SCAN_FRACT; force_scan (min(size, 32)) for limit
 * reclaim; shrink_lruvec()'s break once nr_to_reclaim is met below DEF_PRIORITY (kswapd asks
 * ULONG_MAX, so never); limit reclaim stopping the walk at nr_to_reclaim, global reclaim
 * walking every memcg; kswapd's break once 32 pages are reclaimed in a priority loop.
 *
 * What it approximates: one zone per node (zone free and high watermark are the node's); the
 * rework's real base was mmotm-2013-06 (3.10 plus the 3.11 kswapd rework), modelled here with
 * the 3.10 base so that softlimit-tree and softlimit-rework differ only in soft-limit handling;
 * kswapd runs until the invocation's nr_to_reclaim is freed; limit reclaim wants
 * max(nr_to_reclaim, 32) and repeats the 3.10 call (32 pages) until then; all_unreclaimable,
 * compaction and the balance gap are not modelled. What a trace cannot show: rotation
 * statistics of a 3.10 kernel; the observed activations of the recorded kernel stand in.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"

#define MAX_CALLS	4096	/* safety bound on repeated reclaim calls per invocation */

struct rs_v310 {
	struct rs_lrusim ls;
	struct rs_iter iter;		/* slots: priority 0..12 (the cookie has .priority) */
	struct rs_reclaim_stat *rstat;	/* [lruvec] lruvec->reclaim_stat */
	rs_v310_zone_fn zone;
};

struct rs_iter *rs_v310_iter(struct rs_v310 *v)
{
	return &v->iter;
}

enum rs_scan_balance rs_v310_scan_count(const struct rs_v310_gsc_in *in,
					struct rs_reclaim_stat *rs, uint64_t nr[RS_NR_EVICTABLE])
{
	enum rs_scan_balance bal;
	uint64_t fraction[2] = { 0, 0 }, denominator = 1;
	uint64_t anon = in->size[RS_LRU_INACTIVE_ANON] + in->size[RS_LRU_ACTIVE_ANON];
	uint64_t file = in->size[RS_LRU_INACTIVE_FILE] + in->size[RS_LRU_ACTIVE_FILE];

	if (!in->may_swap || !in->swap_ok) {
		bal = RS_SCAN_FILE;
	} else if (!in->global && !in->swappiness) {
		bal = RS_SCAN_FILE;
	} else if (!in->priority && in->swappiness) {
		bal = RS_SCAN_EQUAL;
	} else if (in->global && file + in->zone_free <= in->zone_high) {
		bal = RS_SCAN_ANON;
	} else if (!(in->size[RS_LRU_ACTIVE_FILE] > in->size[RS_LRU_INACTIVE_FILE])) {
		/* inactive_file_is_low() is false: enough inactive cache, leave anon alone */
		bal = RS_SCAN_FILE;
	} else {
		uint64_t ap, fp;

		rs_reclaim_stat_decay(rs, anon, file);
		ap = (uint64_t)in->swappiness * (rs->recent_scanned[0] + 1);
		ap /= rs->recent_rotated[0] + 1;
		fp = (uint64_t)(200 - in->swappiness) * (rs->recent_scanned[1] + 1);
		fp /= rs->recent_rotated[1] + 1;
		fraction[0] = ap;
		fraction[1] = fp;
		denominator = ap + fp + 1;
		bal = RS_SCAN_FRACT;
	}
	for (int lru = 0; lru < RS_NR_EVICTABLE; lru++) {
		bool f = rs_lru_is_file(lru);
		uint64_t scan = in->size[lru] >> in->priority;

		if (!scan && in->force_scan)
			scan = rs_min_u64(in->size[lru], RS_SWAP_CLUSTER_MAX);
		switch (bal) {
		case RS_SCAN_EQUAL:
			break;
		case RS_SCAN_FRACT:
			scan = (uint64_t)((__uint128_t)scan * fraction[f] / denominator);
			break;
		case RS_SCAN_FILE:
		case RS_SCAN_ANON:
			if ((bal == RS_SCAN_FILE) != f)
				scan = 0;
			break;
		}
		nr[lru] = scan;
	}
	return bal;
}

static struct rs_reclaim_stat *rstat(struct rs_v310_sc *sc, int memcg, int nid)
{
	return &sc->v->rstat[rs_lruvec(sc->sim, memcg, nid)];
}

/* inactive_anon_is_low(): never without swap, where anon is not aged at all */
static bool inactive_anon_is_low(struct rs_sim *s, int memcg, int nid)
{
	return rs_sim_swap_ok(s) &&
	       rs_inactive_is_low(rs_sim_size(s, memcg, nid, RS_LRU_INACTIVE_ANON),
				  rs_sim_size(s, memcg, nid, RS_LRU_ACTIVE_ANON));
}

/* shrink_active_list(): what it took counts as scanned, what was referenced as rotated */
static void shrink_active_list(struct rs_v310_sc *sc, int lru, uint64_t n, int memcg, int nid)
{
	struct rs_reclaim_stat *rs = rstat(sc, memcg, nid);
	bool file = rs_lru_is_file(lru);
	struct rs_shrink r;

	rs_sim_shrink_active(sc->sim, memcg, nid, lru, n, &r);
	rs->recent_scanned[file] += r.taken;
	rs->recent_rotated[file] += r.referenced;
}

static uint64_t shrink_list(struct rs_v310_sc *sc, int lru, uint64_t n, int memcg, int nid)
{
	struct rs_sim *s = sc->sim;
	struct rs_reclaim_stat *rs = rstat(sc, memcg, nid);
	bool file = rs_lru_is_file(lru);
	struct rs_shrink r;

	if (rs_lru_is_active(lru)) {
		bool low = file ? rs_sim_size(s, memcg, nid, lru) >
				  rs_sim_size(s, memcg, nid, lru - 1)
				: inactive_anon_is_low(s, memcg, nid);

		if (low)
			shrink_active_list(sc, lru, n, memcg, nid);
		return 0;
	}
	rs_sim_shrink_inactive(s, memcg, nid, lru, n, &r);
	rs->recent_scanned[file] += r.taken;
	rs->recent_rotated[file] += r.activated;
	sc->nr_scanned += r.taken;
	return r.reclaimed;
}

void rs_v310_shrink_lruvec(struct rs_v310_sc *sc, int memcg, int nid)
{
	struct rs_sim *s = sc->sim;
	struct rs_node_state ns;
	struct rs_v310_gsc_in in = { 0 };
	uint64_t nr[RS_NR_EVICTABLE], nr_reclaimed = 0;
	bool global = sc->target < 0;

	rs_world_node(s->w, nid, &ns);
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		in.size[l] = rs_sim_size(s, memcg, nid, l);
	in.priority = sc->priority;
	/* vmscan_swappiness(): vm_swappiness for global reclaim, else the target's */
	in.swappiness = global ? rs_world_info(s->w)->vm_swappiness
			       : rs_sim_swappiness(s, sc->target);
	in.may_swap = sc->may_swap;
	in.swap_ok = rs_sim_swap_ok(s);
	in.global = global;
	in.force_scan = !global;
	in.zone_free = rs_sim_free(s, nid);
	in.zone_high = ns.wmark_high;
	rs_v310_scan_count(&in, rstat(sc, memcg, nid), nr);

	while (nr[RS_LRU_INACTIVE_ANON] || nr[RS_LRU_ACTIVE_FILE] || nr[RS_LRU_INACTIVE_FILE]) {
		for (int lru = 0; lru < RS_NR_EVICTABLE; lru++) {
			if (nr[lru]) {
				uint64_t k = rs_min_u64(nr[lru], RS_SWAP_CLUSTER_MAX);

				nr[lru] -= k;
				nr_reclaimed += shrink_list(sc, lru, k, memcg, nid);
			}
		}
		if (nr_reclaimed >= sc->nr_to_reclaim && sc->priority < RS_DEF_PRIORITY)
			break;
	}
	sc->nr_reclaimed += nr_reclaimed;

	/* rebalance the anon lists even if no anon was scanned */
	if (inactive_anon_is_low(s, memcg, nid))
		shrink_active_list(sc, RS_LRU_ACTIVE_ANON, RS_SWAP_CLUSTER_MAX, memcg, nid);
}

/* The next memcg the filter lets through, from `cand` on; -1 at the end of the subtree. */
static int filtered(struct rs_v310_sc *sc, int root, int cand, rs_v310_filter_fn filter)
{
	const struct rs_world *w = sc->sim->w;

	while (cand >= 0 && filter) {
		enum rs_filter f = filter(sc, cand, root);
		int end;

		if (f == RS_VISIT)
			break;
		if (f == RS_SKIP) {
			cand = rs_subtree_next(w, root, cand);
			continue;
		}
		/* RS_SKIP_TREE: nothing below needs a visit either */
		if (cand == root)
			return -1;
		end = rs_world_memcg(w, cand)->pre_end;
		cand = end < rs_world_memcg(w, root)->pre_end ? rs_world_memcg_at(w, end) : -1;
	}
	return cand;
}

int rs_v310_shrink_zone(struct rs_v310_sc *sc, int nid, rs_v310_filter_fn filter)
{
	const struct rs_world *w = sc->sim->w;
	int root = sc->target < 0 ? 0 : sc->target;
	int *pos = rs_iter_pos(&sc->v->iter, root, nid, sc->priority);
	bool from_start = *pos < 0;
	int m, groups = 0;

	/* continue after the memcg where the last walk at this priority stopped */
	m = from_start ? root : rs_subtree_next(w, root, *pos);
	m = filtered(sc, root, m, filter);
	if (m < 0 && !from_start)
		m = filtered(sc, root, root, filter);	/* started at the end: restart */
	while (m >= 0) {
		*pos = m;
		groups++;
		rs_v310_shrink_lruvec(sc, m, nid);
		/* limit reclaim cares about nr_to_reclaim only; global reclaim scans every memcg */
		if (sc->target >= 0 && sc->nr_reclaimed >= sc->nr_to_reclaim)
			return groups;
		m = filtered(sc, root, rs_subtree_next(w, root, m), filter);
	}
	*pos = -1;
	return groups;
}

uint64_t rs_v310_soft_shrink(void *v310, struct rs_sim *s, int memcg, int nid)
{
	struct rs_v310_sc sc = {
		.v = v310, .sim = s, .target = memcg, .may_swap = true, .priority = 0,
		.nr_to_reclaim = RS_SWAP_CLUSTER_MAX,
	};

	rs_v310_shrink_lruvec(&sc, memcg, nid);
	return sc.nr_reclaimed;
}

static void zone_pass(struct rs_v310_sc *sc, int nid)
{
	rs_sim_round(sc->sim, sc->priority);
	sc->v->zone(sc, nid);
}

/* do_try_to_free_pages(): returns what this call reclaimed. */
static uint64_t try_to_free(struct rs_v310_sc *sc)
{
	uint64_t before = sc->nr_reclaimed;

	for (sc->priority = RS_DEF_PRIORITY; sc->priority >= 0; sc->priority--) {
		sc->nr_scanned = 0;
		for (int i = 0; i < sc->sim->ls->nr_nodes; i++)
			zone_pass(sc, rs_sim_zonelist_node(sc->sim, i));
		if (sc->nr_reclaimed - before >= sc->nr_to_reclaim)
			break;
	}
	return sc->nr_reclaimed - before;
}

static void age_active_anon(struct rs_v310_sc *sc, int nid)
{
	struct rs_sim *s = sc->sim;

	if (!rs_sim_swap_ok(s))
		return;
	for (int m = 0; m >= 0; m = rs_subtree_next(s->w, 0, m))
		if (inactive_anon_is_low(s, m, nid))
			shrink_active_list(sc, RS_LRU_ACTIVE_ANON, RS_SWAP_CLUSTER_MAX, m, nid);
}

/* balance_pgdat() on one node, once through loop_again; returns what it reclaimed. */
static uint64_t balance_pgdat(struct rs_v310_sc *sc, int nid)
{
	uint64_t before = sc->nr_reclaimed;

	for (sc->priority = RS_DEF_PRIORITY; sc->priority >= 0; sc->priority--) {
		age_active_anon(sc, nid);
		if (rs_sim_kswapd_balanced(sc->sim, sc->want))
			break;
		sc->nr_scanned = 0;
		zone_pass(sc, nid);
		if (rs_sim_kswapd_balanced(sc->sim, sc->want))
			break;
		if (sc->nr_reclaimed - before >= RS_SWAP_CLUSTER_MAX)
			break;
	}
	return sc->nr_reclaimed - before;
}

int rs_v310_invoke(void *state, const struct rs_world *w, const struct rs_reclaim_call *c,
		   struct rs_call_outcome *out, struct rs_error *err)
{
	struct rs_v310 *v = state;
	struct rs_sim s;
	struct rs_v310_sc sc = { .v = v, .sim = &s, .target = -1, .may_swap = true,
				 .order = c->order };
	uint64_t want = rs_max_u64(c->nr_to_reclaim, RS_SWAP_CLUSTER_MAX);

	rs_sim_begin(&s, &v->ls, w, c, out);
	sc.want = want;
	switch (c->ctx) {
	case RS_CALL_KSWAPD:
		sc.kswapd = true;
		sc.want = want = rs_sim_kswapd_want(&s);
		sc.nr_to_reclaim = UINT64_MAX;	/* kswapd is never bailed out of a lruvec */
		for (int i = 0; i < MAX_CALLS && !rs_sim_kswapd_balanced(&s, want); i++)
			if (!balance_pgdat(&sc, c->nid))
				break;
		break;
	case RS_CALL_MEMCG:
		sc.target = c->target;
		sc.may_swap = c->may_swap;
		/* fallthrough */
	case RS_CALL_DIRECT:
	case RS_CALL_NODE:
		sc.nr_to_reclaim = RS_SWAP_CLUSTER_MAX;
		for (int i = 0; i < MAX_CALLS && s.reclaimed < want; i++)
			if (!try_to_free(&sc))
				break;
		break;
	default:
		return rs_error_set(err, "v310: unknown call context %d", c->ctx);
	}
	return 0;
}

void rs_v310_free(void *state)
{
	struct rs_v310 *v = state;

	if (!v)
		return;
	rs_lrusim_free(&v->ls);
	rs_iter_free(&v->iter);
	free(v->rstat);
	free(v);
}

int rs_v310_init(const struct rs_world *w, rs_v310_zone_fn zone, void **state,
		 struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct rs_v310 *v = calloc(1, sizeof(*v));

	if (!v)
		return rs_error_set(err, "out of memory");
	v->zone = zone;
	if (rs_lrusim_init(&v->ls, w, err) ||
	    rs_iter_init(&v->iter, w, RS_DEF_PRIORITY + 1, err))
		goto fail;
	v->rstat = calloc((size_t)wi->nr_memcg * wi->nr_nodes, sizeof(*v->rstat));
	if (!v->rstat) {
		rs_error_set(err, "out of memory");
		goto fail;
	}
	*state = v;
	return 0;
fail:
	rs_v310_free(v);
	return -1;
}
