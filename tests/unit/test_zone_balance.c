// SPDX-License-Identifier: GPL-2.0
/*
 * models/zone_balance.c: pgdat_balanced() and the free pages between two zone_stat samples, on
 * the 7.2 guest's zones (DMA: 3,840 managed, min/low/high 190/237/284, lowmem_reserve 570 for
 * every higher zone; DMA32: 145,939 managed, 7,019/8,773/10,527, pcp_high 12,966). Every
 * expected value is worked out in the comment above it from the kernel's formula:
 * __zone_watermark_ok() passes when free - ((1 << order) - 1) - highatomic - free_cma >
 * high + lowmem_reserve[highest_zoneidx], and at order > 0 a free block of that order or larger
 * exists.
 */
#include "zone_balance.h"
#include "unit.h"

#define ZONE_MOVABLE_IDX	3

static void guest_zones(struct rs_zone_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->nr_zones = 2;
	s->zone[0] = (struct rs_zone){
		.managed = true, .managed_pages = 3840, .free = 900, .wmark_min = 190,
		.wmark_low = 237, .wmark_high = 284,
		.lowmem_reserve = { 0, 570, 570, 570, 570 },
		.blocks = (1u << 5) | (1u << 10), .pcp = 0, .pcp_high = 0,
	};
	s->zone[1] = (struct rs_zone){
		.managed = true, .managed_pages = 145939, .free = 9000, .wmark_min = 7019,
		.wmark_low = 8773, .wmark_high = 10527,
		.blocks = (1u << 3) | (1u << 10), .pcp = 1000, .pcp_high = 3000,
	};
}

UT_TEST(zone_watermark_ok_formula, "zone_balance: __zone_watermark_ok() at order 0 and 9")
{
	struct rs_zone_sample s;
	struct rs_zone *dma = &s.zone[0], *dma32 = &s.zone[1];

	guest_zones(&s);
	/* DMA, order 0: 900 > 284 + 570 = 854 */
	UT_ASSERT(rs_zone_watermark_ok(dma, 0, dma->wmark_high, ZONE_MOVABLE_IDX, 900));
	/* 854 is not above 854 */
	UT_ASSERT(!rs_zone_watermark_ok(dma, 0, dma->wmark_high, ZONE_MOVABLE_IDX, 854));
	UT_ASSERT(rs_zone_watermark_ok(dma, 0, dma->wmark_high, ZONE_MOVABLE_IDX, 855));
	/* DMA for a DMA allocation (highest_zoneidx 0): no reserve, 285 > 284 */
	UT_ASSERT(rs_zone_watermark_ok(dma, 0, dma->wmark_high, 0, 285));
	/* order 9: 900 - 511 = 389 <= 854 */
	UT_ASSERT(!rs_zone_watermark_ok(dma, 9, dma->wmark_high, ZONE_MOVABLE_IDX, 900));
	/* DMA32, order 0: 10,528 > 10,527; 10,527 is not */
	UT_ASSERT(rs_zone_watermark_ok(dma32, 0, dma32->wmark_high, ZONE_MOVABLE_IDX, 10528));
	UT_ASSERT(!rs_zone_watermark_ok(dma32, 0, dma32->wmark_high, ZONE_MOVABLE_IDX, 10527));
	/* order 9: 11,038 - 511 = 10,527, not above; 11,039 - 511 = 10,528 with an order-10 block */
	UT_ASSERT(!rs_zone_watermark_ok(dma32, 9, dma32->wmark_high, ZONE_MOVABLE_IDX, 11038));
	UT_ASSERT(rs_zone_watermark_ok(dma32, 9, dma32->wmark_high, ZONE_MOVABLE_IDX, 11039));
	/* ... but not when the largest free block is of order 8 */
	dma32->blocks = (1u << 3) | (1u << 8);
	UT_ASSERT(!rs_zone_watermark_ok(dma32, 9, dma32->wmark_high, ZONE_MOVABLE_IDX, 20000));
	/* an order-9 block itself does */
	dma32->blocks |= 1u << 9;
	UT_ASSERT(rs_zone_watermark_ok(dma32, 9, dma32->wmark_high, ZONE_MOVABLE_IDX, 11039));
	/* highatomic and CMA pages are unusable: 10,728 - 100 - 100 = 10,528 > 10,527 */
	dma32->highatomic = 100;
	dma32->free_cma = 100;
	UT_ASSERT(rs_zone_watermark_ok(dma32, 0, dma32->wmark_high, ZONE_MOVABLE_IDX, 10728));
	UT_ASSERT(!rs_zone_watermark_ok(dma32, 0, dma32->wmark_high, ZONE_MOVABLE_IDX, 10727));
	/* free may be negative (the estimate): never balanced */
	UT_ASSERT(!rs_zone_watermark_ok(dma, 0, dma->wmark_high, ZONE_MOVABLE_IDX, -5));
	return UT_OK;
}

UT_TEST(pgdat_balanced_any_zone, "zone_balance: pgdat_balanced(): any zone up to highest_zoneidx")
{
	struct rs_zone_sample s;
	int64_t free[RS_ZONE_MAX] = { 900, 9000 };

	guest_zones(&s);
	/* DMA's 900 > 854 balances the node at order 0, though DMA32 is below its high */
	UT_ASSERT(rs_pgdat_balanced(&s, free, 0, ZONE_MOVABLE_IDX));
	/* at order 9 DMA has 389 usable: neither zone */
	UT_ASSERT(!rs_pgdat_balanced(&s, free, 9, ZONE_MOVABLE_IDX));
	/* DMA at 850: neither at order 0 */
	free[0] = 850;
	UT_ASSERT(!rs_pgdat_balanced(&s, free, 0, ZONE_MOVABLE_IDX));
	/* DMA32 at 10,528 balances it */
	free[1] = 10528;
	UT_ASSERT(rs_pgdat_balanced(&s, free, 0, ZONE_MOVABLE_IDX));
	/* a zone above highest_zoneidx is not looked at: DMA alone (hz 0), 284 is not above 284 */
	free[0] = 284;
	UT_ASSERT(!rs_pgdat_balanced(&s, free, 0, 0));
	free[0] = 285;
	UT_ASSERT(rs_pgdat_balanced(&s, free, 0, 0));
	/* no managed zone up to hz: balanced by definition */
	s.zone[0].managed = false;
	UT_ASSERT(rs_pgdat_balanced(&s, free, 0, 0));
	return UT_OK;
}

UT_TEST(zone_estimate_between_samples, "zone_balance: free pages between two samples")
{
	struct rs_zone_sample s, s2;
	struct rs_zone_est_info info;
	int64_t free[RS_ZONE_MAX];

	guest_zones(&s);
	s.ts = 1000;
	s.reclaimed = 50000;
	s2 = s;
	s2.ts = 1100;
	s2.reclaimed = 54000;
	s2.zone[0].free = 1200;
	s2.zone[1].free = 9500;
	/*
	 * Between the samples the node reclaimed 4,000 pages and its free pages grew by 800 (DMA
	 * 300, DMA32 500): 3,200 were allocated, all from DMA32, 40% of them (1,280) by t = 1040.
	 * 3,100 reclaimed since s: 2,000 fill DMA32's per-cpu lists (3,000 - 1,000), 1,100 reach
	 * NR_FREE_PAGES: 9,000 + 1,100 - 1,280 = 8,820, above DMA32's low watermark (8,773), so
	 * DMA is interpolated: 900 + 40% of 300 = 1,020.
	 */
	rs_zone_estimate(&s, &s2, 1040, 3100, ZONE_MOVABLE_IDX, free, &info);
	UT_ASSERT_EQ(info.main, 1);
	UT_ASSERT(info.pcp_known);
	UT_ASSERT_EQ(free[1], 8820);
	UT_ASSERT_EQ(free[0], 1020);
	UT_ASSERT(!info.lower_capped);
	/*
	 * 1,000 reclaimed by t = 1040: all on the per-cpu lists; 9,000 - 1,280 = 7,720 is below
	 * DMA32's low watermark, so DMA is drained to its low 237 + reserve 570 = 807.
	 */
	rs_zone_estimate(&s, &s2, 1040, 1000, ZONE_MOVABLE_IDX, free, &info);
	UT_ASSERT_EQ(free[1], 7720);
	UT_ASSERT_EQ(free[0], 807);
	UT_ASSERT(info.lower_capped);
	/* for an allocation that may use DMA32 at most (hz 1) DMA keeps its reserve for it too */
	rs_zone_estimate(&s, &s2, 1040, 1000, 1, free, &info);
	UT_ASSERT_EQ(free[0], 807);
	/* without per-cpu counts every reclaimed page counts: 9,000 + 1,000 - 1,280 */
	s.zone[1].pcp = s.zone[1].pcp_high = -1;
	rs_zone_estimate(&s, &s2, 1040, 1000, ZONE_MOVABLE_IDX, free, &info);
	UT_ASSERT(!info.pcp_known);
	UT_ASSERT_EQ(free[1], 8720);
	/* past the last sample: no allocations known, the sample plus the reclaim */
	rs_zone_estimate(&s, NULL, 5000, 1000, ZONE_MOVABLE_IDX, free, &info);
	UT_ASSERT_EQ(free[1], 10000);
	UT_ASSERT_EQ(free[0], 900);
	return UT_OK;
}

/*
 * The buddy flow's arithmetic from hand-built kmem events (pmd_order 9, x86's THP): a block
 * taken is -(1 << order), a drained page +(1 << order), a free +(1 << order) only above
 * PAGE_ALLOC_COSTLY_ORDER 3 and not at the PMD order (those wait on a per-cpu list).
 */
UT_TEST(buddy_pages_rule, "zone_balance: pages a kmem event moves on the buddy lists")
{
	static const struct { int kind, order, pmd; int64_t pages; } ev[] = {
		{ RS_BUDDY_ALLOC, 0, 9, -1 },	{ RS_BUDDY_ALLOC, 9, 9, -512 },
		{ RS_BUDDY_DRAIN, 0, 9, 1 },	{ RS_BUDDY_DRAIN, 9, 9, 512 },
		{ RS_BUDDY_FREE, 0, 9, 0 },	{ RS_BUDDY_FREE, 3, 9, 0 },
		{ RS_BUDDY_FREE, 4, 9, 16 },	{ RS_BUDDY_FREE, 9, 9, 0 },
		{ RS_BUDDY_FREE, 10, 9, 1024 },	{ RS_BUDDY_FREE, 9, 0, 512 },	/* no THP */
		{ RS_BUDDY_ALLOC, 31, 9, 0 },	{ RS_BUDDY_DRAIN, -1, 9, 0 },	/* not a block */
	};
	int64_t sum = 0;

	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		int64_t p = rs_buddy_pages(ev[i].kind, ev[i].order, ev[i].pmd);

		UT_ASSERT_EQ(p, ev[i].pages);
		sum += p;
	}
	/* -1 - 512 + 1 + 512 + 16 + 1,024 + 512 */
	UT_ASSERT_EQ(sum, 1552);
	return UT_OK;
}

/*
 * Free pages from the flow: the sample's (DMA 800, DMA32 9,000) plus each zone's flow since
 * its read (sample at {5, -100}, the moment at {7, 1,400}: DMA +2, DMA32 +1,500), and a
 * policy's 300 extra pages on DMA32: 802 (below DMA's 284 + 570) and 10,800. A loss mark between the two, or either
 * side without the flow: no estimate.
 */
UT_TEST(zone_flow_estimate, "zone_balance: free pages from the buddy flow")
{
	struct rs_zone_sample s;
	struct rs_zone_flow at = { .ok = true, .lost = 2, .pages = { 7, 1400 } };
	struct rs_zone_est_info info;
	int64_t free[RS_ZONE_MAX];

	guest_zones(&s);
	s.zone[0].free = 800;
	s.flow = (struct rs_zone_flow){ .ok = true, .lost = 2, .pages = { 5, -100 } };
	rs_zone_flow_base(&s, NULL, NULL);
	UT_ASSERT(rs_zone_flow_estimate(&s, &at, 300, free, &info));
	UT_ASSERT_EQ(free[0], 802);
	UT_ASSERT_EQ(free[1], 10800);
	UT_ASSERT(info.flow);
	UT_ASSERT_EQ(info.main, 1);
	/* 10,800 > 10,527 at order 0 */
	UT_ASSERT(rs_pgdat_balanced(&s, free, 0, ZONE_MOVABLE_IDX));
	UT_ASSERT(rs_zone_flow_estimate(&s, &at, 0, free, &info));
	UT_ASSERT_EQ(free[1], 10500);
	UT_ASSERT(!rs_pgdat_balanced(&s, free, 0, ZONE_MOVABLE_IDX));
	at.lost = 3;
	free[1] = -1;
	UT_ASSERT(!rs_zone_flow_estimate(&s, &at, 0, free, &info));
	UT_ASSERT_EQ(free[1], -1);
	at.lost = 2;
	s.flow.ok = false;
	UT_ASSERT(!rs_zone_flow_estimate(&s, &at, 0, free, &info));
	return UT_OK;
}

/*
 * The flow's base over three samples: DMA32 free - flow at 9,000 (8,000 + flow -1,000), 9,004
 * (9,504 - 500), and a late read 10,000 pages high (29,004 - 10,000 = 19,004): the median is
 * 9,004, the late sample's own value is not taken. Once it is the middle one of three it is
 * the median's odd one out again; with one sample before it or a loss mark between, the
 * sample's own.
 */
UT_TEST(zone_flow_base_median, "zone_balance: the flow's base, a late read rejected")
{
	struct rs_zone_sample p2, p1, s;

	guest_zones(&p2);
	guest_zones(&p1);
	guest_zones(&s);
	p2.zone[1].free = 8000;
	p2.flow = (struct rs_zone_flow){ .ok = true, .pages = { 0, -1000 } };
	p1.zone[1].free = 9504;
	p1.flow = (struct rs_zone_flow){ .ok = true, .pages = { 0, 500 } };
	s.zone[1].free = 29004;
	s.flow = (struct rs_zone_flow){ .ok = true, .pages = { 0, 10000 } };
	rs_zone_flow_base(&s, &p1, &p2);
	UT_ASSERT_EQ(s.flow_base[1], 9004);
	/* DMA: 900 - 0 in all three */
	UT_ASSERT_EQ(s.flow_base[0], 900);
	/* the late one between two good ones: 9,004, 19,004, 9,010 -> 9,010 */
	p1.zone[1].free = 9010 + 600;
	p1.flow.pages[1] = 600;
	rs_zone_flow_base(&p1, &s, &p2);
	UT_ASSERT_EQ(p1.flow_base[1], 9010);
	rs_zone_flow_base(&s, &p1, NULL);
	UT_ASSERT_EQ(s.flow_base[1], 19004);
	p2.flow.lost = 1;
	rs_zone_flow_base(&s, &p1, &p2);
	UT_ASSERT_EQ(s.flow_base[1], 19004);
	return UT_OK;
}
