/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a kswapd run ends: pgdat_balanced() on one node's zones (Linux 7.2 mm/vmscan.c
 * pgdat_balanced(), mm/page_alloc.c __zone_watermark_ok() and __zone_watermark_unusable_free()),
 * on the free pages of each zone at a moment between two zone_stat samples (docs/markers.md),
 * estimated from the reclaim and the allocations around it (models/zone_balance.c says how).
 *
 * Pure functions over values: no world, no trace. Units: pages, ns. The samples are the
 * caller's; nothing here allocates.
 */
#ifndef RS_ZONE_BALANCE_H
#define RS_ZONE_BALANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "rs_event.h"		/* RS_ZONE_MAX, RS_ZONE_ORDERS */

/* One zone as a zone_stat marker gave it. */
struct rs_zone {
	bool managed;			/* a zone_stat line named it (managed pages > 0) */
	uint64_t managed_pages;
	uint64_t free, free_cma, highatomic;	/* highatomic: nr_free_highatomic, 0 unknown */
	uint64_t wmark_min, wmark_low, wmark_high;	/* with the zone's boost */
	uint64_t lowmem_reserve[RS_ZONE_MAX];	/* by highest_zoneidx */
	/* bit o: the buddy lists had a free block of order o; all bits: not recorded */
	uint32_t blocks;
	int64_t pcp, pcp_high;		/* per-cpu lists, summed over CPUs; -1: not recorded */
};

/*
 * The buddy flow (record --zone-flow): per zone of one node, the net pages the kmem events put
 * onto the buddy lists (rs_buddy_pages()), summed from the trace's start to one moment. Two
 * moments' difference is what NR_FREE_PAGES moved between them, as far as the events see
 * (models/zone_balance.c says what they miss).
 */
struct rs_zone_flow {
	bool ok;			/* the trace has the events and the zones' pfn ranges */
	uint64_t lost;			/* ring-buffer loss marks seen up to the moment */
	int64_t pages[RS_ZONE_MAX];
};

/*
 * Pages one kmem event puts onto (> 0) or takes off (< 0) the buddy lists: an allocation takes
 * 1 << order, a per-cpu drain gives 1 << order back, a free gives them back only at an order the
 * per-cpu lists never hold (above 3 and not pmd_order, THP's; 0: no THP); other frees wait on a
 * per-cpu list and come back as drains.
 */
int64_t rs_buddy_pages(int kind, int order, int pmd_order);

#define RS_ZONE_BLOCKS_UNKNOWN	UINT32_MAX

/* One node's zones at one moment, with the node's recorded reclaim up to then. */
struct rs_zone_sample {
	uint64_t ts;
	int nid;
	int nr_zones;			/* zone[0 .. nr_zones - 1]; higher indices unmanaged */
	struct rs_zone zone[RS_ZONE_MAX];
	/* pages the recording reclaimed on the node (every context) from the trace's start to ts */
	uint64_t reclaimed;
	struct rs_zone_flow flow;	/* at ts (the zone_read marker before the read) */
	/* free - flow per zone, the median over this sample and the two before it (flow.ok) */
	int64_t flow_base[RS_ZONE_MAX];
};

/*
 * __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags 0, free): free less the
 * unusable part ((1 << order) - 1, highatomic, CMA) above mark + lowmem_reserve[hz], and at
 * order > 0 a free block of at least that order.
 */
bool rs_zone_watermark_ok(const struct rs_zone *z, int order, uint64_t mark, int hz,
			  int64_t free);

/*
 * pgdat_balanced(): some managed zone up to hz has its free pages (free[i], NR_FREE_PAGES of
 * zone i) above its high watermark at `order`. A node with no managed zone up to hz is
 * balanced by definition.
 */
bool rs_pgdat_balanced(const struct rs_zone_sample *s, const int64_t *free, int order, int hz);

/* What rs_zone_estimate() did, for the report. */
struct rs_zone_est_info {
	int main;			/* the zone reclaim and allocations were put on */
	bool lower_capped;		/* lower zones drained to low + reserve */
	bool pcp_known;			/* the main zone's per-cpu lists were recorded */
	bool flow;			/* from the buddy flow (rs_zone_flow_estimate()) */
};

/*
 * Free pages of each zone at t (s->ts <= t <= s2->ts) when `reclaimed` pages were reclaimed on
 * the node since s. s2 is the sample after t; NULL (t past the last sample): no allocations.
 * The rule is models/zone_balance.c's opening comment; it does not meet s2 at t = s2->ts.
 */
void rs_zone_estimate(const struct rs_zone_sample *s, const struct rs_zone_sample *s2,
		      uint64_t t, int64_t reclaimed, int hz, int64_t free[RS_ZONE_MAX],
		      struct rs_zone_est_info *info);

/*
 * s->flow_base from the node's samples before it (p1 the one just before, p2 before that; NULL,
 * or without the flow or with other loss marks: not counted): per zone the median of free -
 * flow over the three, with two or one the latest's. A zone's free pages less the flow to its
 * read stay constant from sample to sample as far as the events see them; a sample whose read
 * came late (a recorder preempted between the zone_read marker and the read, while 10,000
 * pages were freed: seen in the 7.2 guest) is off by the pages moved in between, and the
 * median keeps it from being the base until the next samples.
 */
void rs_zone_flow_base(struct rs_zone_sample *s, const struct rs_zone_sample *p1,
		       const struct rs_zone_sample *p2);

/*
 * Free pages of each zone at a moment after sample s from the buddy flow: the sample's base
 * (rs_zone_flow_base()) plus the flow to that moment (`at`), and `extra` pages on the main zone (a
 * policy's reclaim beyond the recording's since the sample: it would have reached the buddy
 * lists too). False, with free[] untouched, when the flow cannot say: either moment lacks it,
 * or the ring buffer lost events between them (the caller falls back to rs_zone_estimate()).
 */
bool rs_zone_flow_estimate(const struct rs_zone_sample *s, const struct rs_zone_flow *at,
			   int64_t extra, int64_t free[RS_ZONE_MAX], struct rs_zone_est_info *info);

#endif
