// SPDX-License-Identifier: GPL-2.0
/*
 * The soft-limit tree walk of cgroup v1, shared by the softlimit-tree policy (Linux 3.10
 * mm/memcontrol.c mem_cgroup_soft_limit_reclaim() + mem_cgroup_soft_reclaim()) and by mainline
 * on cgroup v1 recordings (6.x mm/memcontrol-v1.c memcg1_soft_limit_reclaim(), the same loop).
 *
 * The kernel keeps, per zone (node since 4.8), an RB tree of the memcgs whose usage exceeds their
 * soft limit, ordered by the excess and refreshed from memcg_check_events() every 1024 charge
 * events. The model does not keep a tree: at each pick it takes the memcg with the largest
 * excess computed from the invocation's working usage (the recording's usage minus what this
 * invocation reclaimed), among memcgs with pages on the node; equal excesses go to the higher
 * index (the later-created group, which an RB insertion of an equal key puts to the right).
 * What a trace cannot show: the tree lags usage by up to 1024 events; the model does not.
 */
#include "policy.h"

#define MAX_RECLAIM_LOOPS		100	/* MEM_CGROUP_MAX_RECLAIM_LOOPS */
#define MAX_SOFT_LIMIT_RECLAIM_LOOPS	2	/* MEM_CGROUP_MAX_SOFT_LIMIT_RECLAIM_LOOPS */

static bool has_pages(const struct rs_sim *s, int memcg, int nid)
{
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		if (rs_sim_size(s, memcg, nid, l))
			return true;
	return false;
}

/* mem_cgroup_largest_soft_limit_node(), skipping `except` (the one just removed). */
static int largest_excess(const struct rs_sim *s, int nid, int except)
{
	int best = -1;
	uint64_t best_ex = 0;

	for (int m = 1; m < s->ls->nr_memcg; m++) {
		uint64_t ex;

		if (m == except || !has_pages(s, m, nid))
			continue;
		ex = rs_sim_soft_excess(s, m);
		if (ex && ex >= best_ex) {
			best = m;
			best_ex = ex;
		}
	}
	return best;
}

/* mem_cgroup_soft_reclaim(): walk root's subtree at priority 0 until excess >> 2 is taken. */
static uint64_t soft_reclaim(struct rs_sim *s, struct rs_iter *it, int root, int nid,
			     const struct rs_softtree_opts *o, rs_soft_shrink_fn fn, void *ctx)
{
	uint64_t excess = rs_sim_soft_excess(s, root), total = 0;
	int victim = -1, loop = 0;

	for (;;) {
		victim = rs_iter_next(it, s->w, root, nid, o->iter_slot, victim);
		if (victim < 0) {
			loop++;
			if (loop >= 2) {
				/* nothing reclaimable under this hierarchy */
				if (!total)
					break;
				if (total >= (excess >> 2) || loop > MAX_RECLAIM_LOOPS)
					break;
			}
			continue;
		}
		if (o->check_reclaimable && !rs_sim_reclaimable(s, victim, -1))
			continue;
		total += fn(ctx, s, victim, nid);
		if (!rs_sim_soft_excess(s, root))
			break;
	}
	return total;
}

uint64_t rs_softtree_reclaim(struct rs_sim *s, struct rs_iter *it, int nid, int order,
			     const struct rs_softtree_opts *o, rs_soft_shrink_fn fn, void *ctx)
{
	uint64_t nr_reclaimed = 0;
	int next = -1, loop = 0;
	bool was_soft = s->soft;

	if (order > 0)
		return 0;
	s->soft = true;
	do {
		int mz = next >= 0 ? next : largest_excess(s, nid, -1);
		uint64_t reclaimed;

		if (mz < 0)
			break;
		reclaimed = soft_reclaim(s, it, mz, nid, o, fn, ctx);
		nr_reclaimed += reclaimed;
		next = -1;
		/* nothing from this one: move on to the next largest (mz goes back in the tree) */
		if (!reclaimed)
			next = largest_excess(s, nid, mz);
		loop++;
		if (!nr_reclaimed && (next < 0 || loop > MAX_SOFT_LIMIT_RECLAIM_LOOPS))
			break;
	} while (!nr_reclaimed);
	s->soft = was_soft;
	return nr_reclaimed;
}
