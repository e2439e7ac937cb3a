// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd's end on per-zone watermarks: Linux 7.2 mm/vmscan.c pgdat_balanced() (checked at the
 * top of every balance_pgdat() priority-loop iteration; the run ends at the first that says
 * balanced), mm/page_alloc.c __zone_watermark_ok() with alloc_flags 0 and
 * __zone_watermark_unusable_free().
 *
 * The check reads each zone's NR_FREE_PAGES at that moment; a trace has them only at the
 * recorder's zone_stat samples (every 68-860 ms in the 7.2 guest, between kswapd runs), so the
 * free pages at a check are estimated (docs/models.md, "kswapd's end on per-zone watermarks"):
 *  - the main zone (the largest: DMA32 in the guest, where reclaim and allocations happen) is
 *    the sample before the check, plus the reclaim since it, minus the allocations the samples
 *    around the check imply, spread evenly over the time between them: the node's recorded
 *    reclaim between the samples less the node's change in free pages, all put on the main
 *    zone;
 *  - reclaimed pages first fill the main zone's per-cpu lists up to their recorded high mark
 *    (pcp_high, summed over the CPUs) before NR_FREE_PAGES grows: free_frozen_page_commit()
 *    frees a list's pages to the buddy lists only above its high mark, and NR_FREE_PAGES
 *    counts only the buddy lists. The allocations are not corrected for it (the lists' change
 *    between the samples is not used), so the estimate need not meet the second sample: this
 *    is the rule docs/models.md measured offline (184 of 191 run ends on
 *    tests/fixtures/zones/k72-global-pcp.dat), taken as it was measured;
 *  - other zones are interpolated between the samples, except that a zone below the main one is
 *    drained to its low watermark + lowmem_reserve[highest_zoneidx] while the main zone is
 *    below its own low watermark: get_page_from_freelist()'s fast path, for a Movable
 *    allocation, goes on from the main zone at its low watermark to the lower zones down to
 *    their low + reserve.
 * What it cannot know: the allocations' timing between samples (bursty: one run can free
 * 10,000 pages in 20 ms), which CPU's list a page is freed to, the per-CPU vmstat drift of
 * NR_FREE_PAGES, watermark boosting during a run (the samples, taken between runs, show it
 * unboosted), the migratetype of a free block (any block of the order counts).
 *
 * The buddy flow (rs_zone_flow_estimate(), traces recorded with --zone-flow) knows the timing:
 * in Linux 7.2 NR_FREE_PAGES moves in account_freepages(), called when a block goes onto or off
 * the buddy lists, and the kmem tracepoints mark those moves:
 *  - off: __rmqueue_smallest() and the fallback steal (page_del_and_expand()) emit
 *    mm_page_alloc_zone_locked for every block taken, for an allocation or a per-cpu refill
 *    (rmqueue_bulk(), percpu_refill=1);
 *  - on: free_pcppages_bulk() emits mm_page_pcpu_drain for every page a per-cpu list gives
 *    back (over its high mark, drain_pages(), the lists' decay); a free at an order
 *    pcp_allowed_order() refuses (above PAGE_ALLOC_COSTLY_ORDER 3, not the PMD order) goes
 *    straight to free_one_page() and shows only as mm_page_free.
 * So a zone's free pages at t = the sample's + the net flow since the sample's read (the
 * recorder's `zone_read` marker), the sample's free - flow taken as the median over it and the two
 * samples before it (rs_zone_flow_base()). What the events cannot see, each a flow error:
 * compaction's and page reporting's isolation of free pages (__isolate_free_page(): off the lists,
 * no alloc event) and their return; a free_frozen_pages() whose per-cpu trylock fails, or of a
 * page in an isolated pageblock (free_one_page() directly: its mm_page_free has a per-cpu order,
 * taken as waiting on a list, and no drain follows); blocks moved to MIGRATE_ISOLATE
 * (alloc_contig_range, memory offlining: account_freepages() skips isolated blocks) or between
 * migratetypes (net 0, but highatomic's count changes); the per-CPU vmstat diffs (up to
 * stat_threshold pages per CPU not yet folded into the counter zoneinfo prints, while the kernel's
 * check reads the exact sum below the drift mark); and the moments between the `zone_read` marker
 * and the kernel printing each zone. Measured on a 7.2 guest trace (docs/models.md): the flow from
 * one sample predicts the next within 6 pages at p10 and p90 (237 of 243 within 32 pages).
 */
#include <string.h>

#include "zone_balance.h"

bool rs_zone_watermark_ok(const struct rs_zone *z, int order, uint64_t mark, int hz,
			  int64_t free)
{
	int64_t unusable;

	if (order < 0 || order >= RS_ZONE_ORDERS || hz < 0 || hz >= RS_ZONE_MAX)
		return false;
	unusable = ((int64_t)1 << order) - 1 + (int64_t)z->highatomic + (int64_t)z->free_cma;
	free -= unusable;
	if (free <= (int64_t)(mark + z->lowmem_reserve[hz]))
		return false;
	if (!order)
		return true;
	/* a free block of this order or larger, as the sample's buddy lists showed */
	return (z->blocks >> order) != 0;
}

bool rs_pgdat_balanced(const struct rs_zone_sample *s, const int64_t *free, int order, int hz)
{
	bool any = false;

	for (int i = 0; i <= hz && i < s->nr_zones; i++) {
		const struct rs_zone *z = &s->zone[i];

		if (!z->managed)
			continue;
		any = true;
		if (rs_zone_watermark_ok(z, order, z->wmark_high, hz, free[i]))
			return true;
	}
	return !any;
}

/* Pages of `reclaimed` that reach the buddy lists: the per-cpu lists fill to their high first. */
static int64_t past_pcp(const struct rs_zone *z, int64_t reclaimed)
{
	int64_t room;

	if (z->pcp < 0 || z->pcp_high < 0)
		return reclaimed;
	room = z->pcp_high > z->pcp ? z->pcp_high - z->pcp : 0;
	return reclaimed > room ? reclaimed - room : 0;
}

static int main_zone(const struct rs_zone_sample *s)
{
	int m = -1;

	for (int i = 0; i < s->nr_zones; i++)
		if (s->zone[i].managed &&
		    (m < 0 || s->zone[i].managed_pages > s->zone[m].managed_pages))
			m = i;
	return m;
}

/* a + (b - a) x num / den, in integers (deterministic) */
static int64_t lerp(int64_t a, int64_t b, uint64_t num, uint64_t den)
{
	if (!den || num >= den)
		return num && den ? b : a;
	return a + (int64_t)((__int128)(b - a) * (__int128)num / (__int128)den);
}

void rs_zone_estimate(const struct rs_zone_sample *s, const struct rs_zone_sample *s2,
		      uint64_t t, int64_t reclaimed, int hz, int64_t free[RS_ZONE_MAX],
		      struct rs_zone_est_info *info)
{
	uint64_t num = 0, den = 0;
	int m = main_zone(s);

	memset(free, 0, sizeof(*free) * RS_ZONE_MAX);
	memset(info, 0, sizeof(*info));
	info->main = m;
	if (s2 && s2->ts > s->ts) {
		den = s2->ts - s->ts;
		num = t > s->ts ? t - s->ts : 0;
	}
	for (int i = 0; i < s->nr_zones; i++)
		free[i] = (int64_t)s->zone[i].free;
	if (m < 0)
		return;
	info->pcp_known = s->zone[m].pcp >= 0 && s->zone[m].pcp_high >= 0;
	for (int i = 0; i < s->nr_zones; i++)
		if (i != m && s2 && i < s2->nr_zones)
			free[i] = lerp((int64_t)s->zone[i].free, (int64_t)s2->zone[i].free, num, den);
	free[m] = (int64_t)s->zone[m].free + past_pcp(&s->zone[m], reclaimed);
	if (den) {
		int64_t between = (int64_t)(s2->reclaimed - s->reclaimed), dfree = 0, alloc;

		for (int i = 0; i < s->nr_zones && i < s2->nr_zones; i++)
			dfree += (int64_t)s2->zone[i].free - (int64_t)s->zone[i].free;
		alloc = between - dfree;
		free[m] -= lerp(0, alloc, num, den);
	}
	if (hz < 0 || hz >= RS_ZONE_MAX || free[m] >= (int64_t)s->zone[m].wmark_low)
		return;
	for (int i = 0; i < m; i++) {
		const struct rs_zone *z = &s->zone[i];
		int64_t floor = (int64_t)(z->wmark_low + z->lowmem_reserve[hz]);

		if (z->managed && free[i] > floor) {
			free[i] = floor;
			info->lower_capped = true;
		}
	}
}

int64_t rs_buddy_pages(int kind, int order, int pmd_order)
{
	/* MAX_PAGE_ORDER is at most 15 on any architecture: a larger order is not a block */
	if (order < 0 || order > 20)
		return 0;
	switch (kind) {
	case RS_BUDDY_ALLOC:
		return -((int64_t)1 << order);
	case RS_BUDDY_DRAIN:
		return (int64_t)1 << order;
	case RS_BUDDY_FREE:
		/* pcp_allowed_order(): order <= PAGE_ALLOC_COSTLY_ORDER, or THP's PMD order */
		if (order <= 3 || (pmd_order > 0 && order == pmd_order))
			return 0;
		return (int64_t)1 << order;
	default:
		return 0;
	}
}

bool rs_zone_flow_estimate(const struct rs_zone_sample *s, const struct rs_zone_flow *at,
			   int64_t extra, int64_t free[RS_ZONE_MAX], struct rs_zone_est_info *info)
{
	int m = main_zone(s);

	if (!s->flow.ok || !at->ok || at->lost != s->flow.lost || m < 0)
		return false;
	memset(info, 0, sizeof(*info));
	info->main = m;
	info->flow = true;
	info->pcp_known = true;	/* the drains say when the lists gave pages back */
	for (int i = 0; i < RS_ZONE_MAX; i++)
		free[i] = i < s->nr_zones ? s->flow_base[i] + at->pages[i] : 0;
	free[m] += extra;
	return true;
}

static bool same_flow(const struct rs_zone_sample *s, const struct rs_zone_sample *p)
{
	return p && p->flow.ok && p->flow.lost == s->flow.lost;
}

void rs_zone_flow_base(struct rs_zone_sample *s, const struct rs_zone_sample *p1,
		       const struct rs_zone_sample *p2)
{
	bool three = same_flow(s, p1) && same_flow(s, p2);

	for (int i = 0; i < RS_ZONE_MAX; i++) {
		int64_t a = (int64_t)s->zone[i].free - s->flow.pages[i], b, c, t;

		s->flow_base[i] = a;
		if (!three || i >= s->nr_zones)
			continue;
		b = (int64_t)p1->zone[i].free - p1->flow.pages[i];
		c = (int64_t)p2->zone[i].free - p2->flow.pages[i];
		/* the median of three */
		if (a > b) {
			t = a;
			a = b;
			b = t;
		}
		if (b > c)
			b = c;
		s->flow_base[i] = a > b ? a : b;
	}
}
