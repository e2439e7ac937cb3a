// SPDX-License-Identifier: GPL-2.0
/*
 * compact_gap() of the recorded kernel (include/compact_gap.h). 6.x include/linux/compaction.h
 * has compact_gap(order) = 2UL << order (Debian's 6.1.192 source); the patch capping it at
 * COMPACT_CLUSTER_MAX (32) was posted 2026-05-19 and is in Debian's 7.2.13 source. 7.0 and 7.1
 * are taken to lack it: their source was not at hand, but the patch was still under review
 * (v1, LKML) on 2026-06-02, after 7.1's merge window had closed and days before its release,
 * so 7.2's merge window is the first it could have landed in. A 7.x trace says which it had:
 * kswapd_shrink_node() is the only change of sc.order in balance_pgdat(), and
 * mm_vmscan_balance_pgdat_end prints sc.order, so a run begun at order o > 0 that reclaimed
 * 32 <= r < 2 << o pages ends at order 0 only with the cap. What it cannot see: a run whose
 * order dropped for no reclaim (none does).
 */
#include <stdio.h>

#include "compact_gap.h"
#include "replay.h"

/*
 * 7.2 include/linux/compaction.h:
 *	return min(2UL << order, COMPACT_CLUSTER_MAX);
 * 6.x: return 2UL << order; (1,024 at order 9, where 7.2 has 32). The kernel's order is an
 * unsigned int below MAX_PAGE_ORDER; the guard keeps the shift defined for any int.
 */
uint64_t rs_compact_gap_rule(int order, bool capped)
{
	uint64_t gap = order >= 0 && order < 63 ? UINT64_C(2) << order : UINT64_MAX;

	if (!capped)
		return gap;
	return gap < RS_COMPACT_CLUSTER_MAX ? gap : RS_COMPACT_CLUSTER_MAX;
}

uint64_t rs_compact_gap(const struct rs_world *w, int order)
{
	return rs_compact_gap_rule(order, !rs_world_info(w)->compact_gap_uncapped);
}

void rs_gap_note(struct rs_gap_evidence *e, int begin_order, int end_order, uint64_t reclaimed)
{
	e->runs++;
	/* telling: at least the capped gap, short of the uncapped one */
	if (begin_order <= 0 || begin_order >= 63 ||
	    reclaimed < rs_compact_gap_rule(begin_order, true) ||
	    reclaimed >= rs_compact_gap_rule(begin_order, false))
		return;
	if (end_order == 0)
		e->capped++;
	else if (end_order == begin_order)
		e->uncapped++;
}

struct rs_gap_rule rs_gap_choose(const struct rs_gap_evidence *e, const char *release)
{
	struct rs_gap_rule r = { .major = -1, .minor = -1 };

	if (release && sscanf(release, "%d.%d", &r.major, &r.minor) != 2)
		r.major = r.minor = -1;
	if (e->capped && !e->uncapped) {
		r.capped = true;
		r.from = RS_GAP_FROM_TRACE;
		return r;
	}
	if (e->uncapped && !e->capped) {
		r.from = RS_GAP_FROM_TRACE;
		return r;
	}
	r.disagree = e->capped && e->uncapped;
	if (r.major >= 0) {
		r.capped = r.major > 7 || (r.major == 7 && r.minor >= 2);
		r.from = RS_GAP_FROM_RELEASE;
		return r;
	}
	/* no release: balance_pgdat events came with 7.x; a trace without them predates it */
	r.capped = e->runs > 0;
	r.from = RS_GAP_FROM_EVENTS;
	return r;
}

static const char *const from_names[RS_GAP_FROM_NR] = {
	[RS_GAP_FROM_TRACE] = "trace", [RS_GAP_FROM_RELEASE] = "release",
	[RS_GAP_FROM_EVENTS] = "events",
};

const char *rs_gap_from_name(enum rs_gap_from f)
{
	return f >= 0 && f < RS_GAP_FROM_NR ? from_names[f] : "?";
}
