// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "softlimit-tree": cgroup v1 soft-limit reclaim as Linux 3.10 does it, mm/memcontrol.c
 * mem_cgroup_soft_limit_reclaim() and mem_cgroup_soft_reclaim(), called from mm/vmscan.c
 * shrink_zones() (global direct reclaim) and balance_pgdat() (kswapd), per zone, before the
 * zone's normal shrink_zone(); limit reclaim has no soft pass.
 *
 * The pass (models/softlimit_walk.c): take the memcg whose usage exceeds its soft limit the most,
 * reclaim its subtree at priority 0, 32 pages per memcg visit (mem_cgroup_shrink_node_zone()),
 * walking the subtree at least twice and until excess >> 2 pages are taken (at most 100 walks)
 * or the excess is gone; when it yields nothing, try the next largest, at most 2 more. Then the
 * normal 3.10 shrink_zone() over every memcg (models/v310_core.c). Seeds 000/003: priority-0
 * reclaim evicted the kbuild group's working set (major faults 41556 -> 385 with the rework).
 *
 * What it approximates: the RB tree is not kept; each pick is the largest excess computed from
 * the recording's usage minus what the invocation reclaimed, among memcgs with pages on the node
 * (the kernel refreshes its tree every 1024 charge events and keys it per zone). One zone per
 * node, the 3.10 base and its approximations as models/v310_core.c says. What a trace cannot
 * show: the working set the priority-0 pass evicts (refaults happen after, under the recorded
 * policy, and are not replayed), nor pages under writeback that prio-0 reclaim waits on.
 */

#include "policy.h"

static void tree_zone(struct rs_v310_sc *sc, int nid)
{
	static const struct rs_softtree_opts o = { .check_reclaimable = true, .iter_slot = 0 };

	/* soft-limit pressure is for global reclaim only in 3.10 */
	if (sc->target < 0)
		sc->nr_reclaimed += rs_softtree_reclaim(sc->sim, rs_v310_iter(sc->v), nid,
							sc->order, &o, rs_v310_soft_shrink, sc->v);
	rs_v310_shrink_zone(sc, nid, NULL);
}

static int tree_init(const struct rs_world *w, void **state, struct rs_error *err)
{
	return rs_v310_init(w, tree_zone, state, err);
}

const struct rs_policy_ops rs_policy_softlimit_tree = {
	.name = "softlimit-tree",
	.recorded_soft_passes = true,
	.stands_for = "Linux 3.10 mm/memcontrol.c mem_cgroup_soft_limit_reclaim(): largest "
		      "excessor at priority 0 before shrink_zone()",
	.approximates = "tree order from recorded usage at each pick; one zone per node; 3.10 "
			"get_scan_count() fed the recorded kernel's observed rotations",
	.init = tree_init,
	.invoke = rs_v310_invoke,
	.free = rs_v310_free,
};
