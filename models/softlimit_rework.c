// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "softlimit-rework": Michal Hocko's "Soft limit rework" v5 (linux-mm, 2013-06-18, all
 * 8 patches, v5.1 of 8/8 from 2013-07-26; never merged), on the 3.10 base of
 * models/v310_core.c:
 *   1/8 shrink_zone() runs in two passes: a soft pass visiting only eligible memcgs, at the
 *       normal priority, then, if nothing was scanned, __shrink_zone() over every memcg;
 *       the calls from kswapd and direct reclaim to the priority-0 tree go away (2/8);
 *   3/8 the soft pass applies to limit (targeted) reclaim too;
 *   4-5/8 eligibility: a memcg over its soft limit, or one with an ancestor up to the reclaim
 *       root over its limit, is visited; otherwise its subtree is skipped when no descendant
 *       is in excess (SKIP_TREE), else only the memcg is (SKIP);
 *   6/8 no soft pass at all when the reclaim root's subtree would be skipped;
 *   7/8 the root counts every memcg in excess below it;
 *   8/8 when the soft pass visited no memcg (a walk resumed past them), try it once more.
 * Seeds 000/003: the kbuild group's major faults fell from 41556 to 385; mem_eater (no soft
 * limit) kept ~4% more resident; the streamer reclaimed somewhat less effectively.
 *
 * What it approximates: "over the soft limit" is the recording's usage minus what the
 * invocation reclaimed (the kernel's children_in_excess counters lag by up to 1024 charge
 * events); one zone per node and the 3.10 base as v310_core.c says. What a trace cannot show:
 * the faults the spared groups avoid or the longer scans of the streamer's lists.
 */

#include "policy.h"

static bool any_descendant_in_excess(struct rs_sim *s, int memcg)
{
	for (int m = rs_subtree_next(s->w, memcg, memcg); m >= 0;
	     m = rs_subtree_next(s->w, memcg, m))
		if (rs_sim_soft_excess(s, m))
			return true;
	return false;
}

/* mem_cgroup_soft_reclaim_eligible(memcg, root) */
static enum rs_filter eligible(struct rs_v310_sc *sc, int memcg, int root)
{
	struct rs_sim *s = sc->sim;

	if (rs_sim_soft_excess(s, memcg))
		return RS_VISIT;
	/*
	 * An ancestor up to the reclaim root over its soft limit: obey it here too. As in the
	 * patch, the root itself looks at all of its ancestors (the loop stops at `root` only
	 * after passing it).
	 */
	for (int p = rs_world_memcg(s->w, memcg)->parent; p >= 0;
	     p = rs_world_memcg(s->w, p)->parent) {
		if (rs_sim_soft_excess(s, p))
			return RS_VISIT;
		if (p == root)
			break;
	}
	return any_descendant_in_excess(s, memcg) ? RS_SKIP : RS_SKIP_TREE;
}

static void rework_zone(struct rs_v310_sc *sc, int nid)
{
	int root = sc->target < 0 ? 0 : sc->target;
	bool soft = eligible(sc, root, root) != RS_SKIP_TREE;
	uint64_t scanned = sc->nr_scanned;
	bool was_soft = sc->sim->soft;

	if (soft) {
		sc->sim->soft = true;
		if (!rs_v310_shrink_zone(sc, nid, eligible))
			rs_v310_shrink_zone(sc, nid, eligible);
		sc->sim->soft = was_soft;
	}
	/* no memcg over its soft limit had pages here: reclaim everybody */
	if (!soft || sc->nr_scanned == scanned)
		rs_v310_shrink_zone(sc, nid, NULL);
}

static int rework_init(const struct rs_world *w, void **state, struct rs_error *err)
{
	return rs_v310_init(w, rework_zone, state, err);
}

const struct rs_policy_ops rs_policy_softlimit_rework = {
	.name = "softlimit-rework",
	.stands_for = "Michal Hocko's Soft limit rework v5 (2013, unmerged): soft pass over "
		      "eligible memcgs at normal priority in shrink_zone()",
	.approximates = "eligibility from recorded usage; one zone per node; 3.10 base for "
			"both soft-limit policies",
	.init = rework_init,
	.invoke = rs_v310_invoke,
	.free = rs_v310_free,
};
