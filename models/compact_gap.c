// SPDX-License-Identifier: GPL-2.0
/*
 * compact_gap() of the recorded kernel (include/compact_gap.h). 6.x include/linux/compaction.h
 * has compact_gap(order) = 2UL << order; the patch capping it at COMPACT_CLUSTER_MAX (32) was
 * posted 2026-05-19 and is in Debian's 7.2.13 source; 7.0 and 7.1 are taken to lack it (not
 * checked against their source). A 7.x trace says which it had: kswapd_shrink_node() is the
 * only change of sc.order in balance_pgdat(), and mm_vmscan_balance_pgdat_end prints sc.order,
 * so a run begun at order o > 0 that reclaimed 32 <= r < 2 << o pages ends at order 0 only
 * with the cap. What it cannot see: a run whose order dropped for no reclaim (none does).
 */
#include <stdio.h>

#include "compact_gap.h"
#include "kswapd_end.h"

void rs_gap_note(struct rs_gap_evidence *e, int begin_order, int end_order, uint64_t reclaimed)
{
	e->runs++;
	if (begin_order <= 0 || begin_order >= 63 || reclaimed < RS_COMPACT_CLUSTER_MAX ||
	    reclaimed >= (UINT64_C(2) << begin_order))
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
