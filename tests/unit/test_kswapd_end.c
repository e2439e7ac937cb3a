// SPDX-License-Identifier: GPL-2.0
/*
 * models/kswapd_end.c: where a kswapd run ends, from the world's zone samples and the recorded
 * run's checks. One node, two samples 1,000 ns apart: DMA 700 free (never above its high 284 +
 * reserve 570 = 854), DMA32 9,000 then 9,500 free, high 10,527, low 8,773, its per-cpu lists
 * full (pcp = pcp_high: every reclaimed page reaches NR_FREE_PAGES). The node reclaimed 3,000
 * pages between the samples and its free pages grew by 500: 2,500 were allocated, 2.5 a ns.
 * A check at ts with the node's reclaim `node` since the first sample, the run's recorded
 * `rec` and a policy's own `m` sees DMA32 at 9,000 + (node - rec + m) - 2.5 x (ts - 1000).
 * Order 9 wants 511 pages more (free - ((1 << 9) - 1) > 10,527; DMA32 has an order-10 block)
 * until the run has reclaimed 7.2's compact_gap(9) = min(2 << 9, COMPACT_CLUSTER_MAX 32) = 32
 * pages; then kswapd_shrink_node() checks at order 0.
 */
#include "compact_gap.h"
#include "kswapd_end.h"
#include "zone_balance.h"
#include "unit.h"

static void sample(struct rs_zone_sample *s, uint64_t ts, uint64_t reclaimed, uint64_t dma32)
{
	memset(s, 0, sizeof(*s));
	s->ts = ts;
	s->reclaimed = reclaimed;
	s->nr_zones = 2;
	s->zone[0] = (struct rs_zone){
		.managed = true, .managed_pages = 3840, .free = 700, .wmark_min = 190,
		.wmark_low = 237, .wmark_high = 284, .lowmem_reserve = { 0, 570, 570, 570 },
		.blocks = 1u << 3, .pcp = 0, .pcp_high = 0,
	};
	s->zone[1] = (struct rs_zone){
		.managed = true, .managed_pages = 145939, .free = dma32, .wmark_min = 7019,
		.wmark_low = 8773, .wmark_high = 10527, .blocks = 1u << 10, .pcp = 1000,
		.pcp_high = 1000,
	};
}

static int add_run(struct rs_world *w, uint64_t ts, int order, const struct rs_kswapd_check *ck,
		   size_t n, uint64_t want, struct rs_error *err)
{
	struct rs_reclaim_call c = {
		.ts = ts, .ts_end = ck[n - 1].ts, .ctx = RS_CALL_KSWAPD, .nid = 0, .target = -1,
		.order = order, .zoneidx = 3, .zoneidx_known = true, .may_swap = true,
		.nr_to_reclaim = want,
		.rec = { .have = true, .prio_first = -1, .prio_lowest = -1, .checks = ck,
			 .nr_checks = n },
	};

	c.rec.scanned[RS_LRU_INACTIVE_FILE] = ck[n - 1].reclaimed;
	c.rec.reclaimed[RS_LRU_INACTIVE_FILE] = ck[n - 1].reclaimed;
	return rs_world_add_call(w, &c, err);
}

/*
 * A one-node world with its root memcg, and the file's two samples filled in but not added:
 * the tests add them in their own order, or with a flow first. NULL with err set on failure.
 */
static struct rs_world *world_of_two(struct rs_zone_sample *s1, struct rs_zone_sample *s2,
				     struct rs_error *err)
{
	struct rs_world_opts o = { .nr_nodes = 1, .vm_swappiness = 60 };
	struct rs_world *w = rs_world_new(&o, err);

	if (w && rs_world_add_memcg(w, &(struct rs_memcg_desc){ .path = "/", .parent = -1 },
				    err)) {
		rs_world_free(w);
		return NULL;
	}
	sample(s1, 1000, 0, 9000);
	sample(s2, 2000, 3000, 9500);
	return w;
}

/* Where the run c ends (e), and how, at which check, wanting and freeing how many pages. */
#define ASSERT_END(w, c, e, how_, check_, want_, freed_) do { \
	rs_kswapd_end(w, c, &(e)); \
	UT_ASSERT_EQ((e).how, how_); \
	UT_ASSERT_EQ((e).check, check_); \
	UT_ASSERT_EQ((e).want, want_); \
	UT_ASSERT_EQ((e).freed, freed_); \
} while (0)

/* All runs' ends (all): how many runs, and how many ended each way. */
#define ASSERT_ENDS(w, all, runs_, at_end, early, not_earlier, recorded) do { \
	rs_kswapd_ends(w, &(all)); \
	UT_ASSERT_EQ((all).runs, runs_); \
	UT_ASSERT_EQ((all).how[RS_KEND_AT_END], at_end); \
	UT_ASSERT_EQ((all).how[RS_KEND_EARLY], early); \
	UT_ASSERT_EQ((all).how[RS_KEND_NOT_EARLIER], not_earlier); \
	UT_ASSERT_EQ((all).how[RS_KEND_RECORDED], recorded); \
} while (0)

/* a check without the buddy flow (ok false: the estimate between samples) */
#define CK(t, r, n) { .ts = (t), .reclaimed = (r), .node_reclaimed = (n) }

UT_TEST(kswapd_end_from_zones, "kswapd_end: derived ends, a policy's own checks, the order drop")
{
	struct rs_error err = { 0 };
	struct rs_zone_sample s1, s2;
	struct rs_kswapd_end e;
	struct rs_kswapd_ends all;
	struct rs_gap_pages gaps[2];
	/*
	 * DMA32 at the checks of a run that reclaims 1,000 pages a pass alone on the node:
	 * 8,750, 9,500, 10,250, 11,000 (> 10,527: balanced), 11,750 (balanced too).
	 */
	const struct rs_kswapd_check ck[] = {
		CK(1100, 0, 0), CK(1200, 1000, 1000), CK(1300, 2000, 2000), CK(1400, 3000, 3000),
		CK(1500, 4000, 4000),
	};
	/* order 9 beside direct reclaim: the node reclaimed 2,000 by 1200, the run 500 */
	const struct rs_kswapd_check ck4[] = { CK(1100, 0, 0), CK(1200, 500, 2000) };
	const struct rs_kswapd_check ck5[] = { CK(500, 0, 0), CK(600, 100, 100) };
	/* order 9, the run 10 pages of the node's 2,110 by 1200: 10,600 + m after one pass */
	const struct rs_kswapd_check ck6[] = { CK(1100, 0, 0), CK(1200, 10, 2110) };
	struct rs_world *w = world_of_two(&s1, &s2, &err);
	const struct rs_reclaim_call *c1, *c2, *c3, *c4, *c5, *c6;

	UT_ASSERT(w);
	UT_ASSERT(!rs_world_add_zone_sample(w, &s2, &err));	/* out of order: sorted */
	UT_ASSERT(!rs_world_add_zone_sample(w, &s1, &err));
	UT_ASSERT(!add_run(w, 1100, 0, ck, 4, 2001, &err));	/* ends after its third pass */
	UT_ASSERT(!add_run(w, 1101, 0, ck, 5, 3001, &err));	/* ... went on to a fourth */
	UT_ASSERT(!add_run(w, 1102, 9, ck, 4, 2001, &err));
	UT_ASSERT(!add_run(w, 1103, 9, ck4, 2, 1, &err));
	UT_ASSERT(!add_run(w, 500, 0, ck5, 2, 1, &err));	/* before the first sample */
	UT_ASSERT(!add_run(w, 1104, 9, ck6, 2, 1, &err));
	UT_ASSERT(!rs_world_finalize(w, &err));
	c5 = rs_world_call(w, 0);
	c1 = rs_world_call(w, 1);
	c2 = rs_world_call(w, 2);
	c3 = rs_world_call(w, 3);
	c4 = rs_world_call(w, 4);
	c6 = rs_world_call(w, 5);
	UT_ASSERT(c1->ts == 1100 && c2->ts == 1101 && c3->ts == 1102 && c4->ts == 1103);
	UT_ASSERT(c6->ts == 1104);

	/* balanced at its last check (11,000): the recorded end, its own want */
	ASSERT_END(w, c1, e, RS_KEND_AT_END, 3, 2001, 3000);
	UT_ASSERT(e.pcp_known);
	/* the same checks, recorded going on: derived at check 3, one page past 2,000 */
	ASSERT_END(w, c2, e, RS_KEND_EARLY, 3, 2001, 3000);
	UT_ASSERT_EQ(e.rec_freed, 4000);
	/* order 9: 3,000 >= compact_gap(9) = 32 by check 3, so order 0 there */
	rs_kswapd_end(w, c3, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_AT_END);
	/* no check balanced (8,750; then 500 >= 32 reclaimed: order 0, 9,000 + 2,000 - 500 - 500
	 * = 10,000 <= 10,527) */
	rs_kswapd_end(w, c4, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_NOT_EARLIER);
	UT_ASSERT_EQ(e.want, 1);
	/* no sample before it: the recorded end */
	rs_kswapd_end(w, c5, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_RECORDED);
	UT_ASSERT_EQ(e.want, 1);

	/* a policy after one pass: 9,000 + (1,000 - 1,000 + m) - 500 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 1, 2028), 1);	/* 10,528 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 1, 2027), 0);	/* 10,527 */
	/* at the recorded end (check 4, 1500): 9,000 + m - 1,250 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 4, 2778), 1);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 4, 2777), 0);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 9, 2000), 0);	/* past it: at check 4 */
	/*
	 * order 9 beside direct reclaim, after one pass: 9,000 + (2,000 - 500 + m) - 500 =
	 * 10,000 + m, at order 0 once m >= 32: 10,527 at m = 527 is not over the mark, 10,528 is
	 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c4, 1, 527), 0);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c4, 1, 528), 1);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c4, 0, 600), 0);
	/*
	 * the order drop itself: 10,600 + m after one pass. Below compact_gap(9) = 32 the check
	 * stays at order 9: m = 31 gives 10,631 - 511 = 10,120 <= 10,527, not balanced; at m = 32
	 * it is order 0 and 10,632 > 10,527 is (2 << 9 = 1,024 would still say order 9). The
	 * recorded run reclaimed 10: still order 9 at its end, which the estimate does not find
	 * balanced (zf-final2's one order-9 run that reported order=9 at balance_pgdat_end).
	 */
	UT_ASSERT_EQ(rs_compact_gap_rule(9, true), 32);
	UT_ASSERT_EQ(rs_compact_gap_rule(3, true), 16);
	UT_ASSERT_EQ(rs_compact_gap_rule(4, true), 32);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c6, 1, 31), 0);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c6, 1, 32), 1);
	rs_kswapd_end(w, c6, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_NOT_EARLIER);
	/*
	 * the first check never ends a run (the kernel found the node unbalanced when it woke
	 * kswapd), though 9,000 + 5,000 - 250 would be
	 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c2, 0, 5000), 0);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c4, 1, 1024), 1);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, c5, 1, 5000), -1);	/* no sample */

	ASSERT_ENDS(w, all, 6, 2, 1, 2, 1);
	UT_ASSERT_EQ(all.zone_samples, 2);
	UT_ASSERT_EQ(all.no_pcp, 0);
	/*
	 * recorded: 3,000 + 4,000 + 3,000 + 500 + 10 (+ 100 undecided); derived 3,000 for the
	 * early
	 */
	UT_ASSERT_EQ(all.all_freed, 10610);
	UT_ASSERT_EQ(all.rec_freed, 10510);
	UT_ASSERT_EQ(all.derived_freed, 9510);
	/* the early run alone lacks the zones' free pages: 4,000 inactive file pages */
	UT_ASSERT(rs_world_identity_gaps(w, gaps) & (1u << RS_GAP_KSWAPD_END));
	UT_ASSERT_EQ(gaps[0].scanned[RS_GAP_KSWAPD_END][RS_LRU_INACTIVE_FILE], 4000);
	rs_world_free(w);
	return UT_OK;
}

/* a check with the buddy flow: DMA32's flow since the trace's start, loss marks so far */
#define CKF(t, r, f, l) { .ts = (t), .reclaimed = (r), .node_reclaimed = (r), \
			  .flow = { .ok = true, .lost = (l), .pages = { 0, (f) } } }

/*
 * The same two samples with the buddy flow (record --zone-flow): the first at flow {0, 0}, so
 * DMA32 at a check is 9,000 + its flow there (+ a policy's reclaim beyond the run's), whatever
 * the reclaim and the time say, less the counter's lag (low - min = 1,754) at a check before
 * the recorded end. Run A's checks see 9,000, 10,000, 11,000 (> 10,527 but within the lag: not
 * balanced), 12,300 (> 10,527 + 1,754: balanced), 12,500; run B stops at the fourth, balanced
 * there without the lag (the recorded end); run C's third and fourth checks follow a loss mark
 * (flow lost 1, the sample's 0): the estimate between samples decides them (9,000 + 0 -
 * 2.5 x 300 = 8,250, then 8,000: not balanced), so it ends where it was recorded to.
 */
UT_TEST(kswapd_end_from_flow, "kswapd_end: ends from the buddy flow, a loss falls back")
{
	struct rs_error err = { 0 };
	struct rs_zone_sample s1, s2;
	struct rs_kswapd_end e;
	struct rs_kswapd_ends all;
	const struct rs_kswapd_check a[] = {
		CKF(1100, 0, 0, 0), CKF(1200, 100, 1000, 0), CKF(1300, 200, 2000, 0),
		CKF(1400, 300, 3300, 0), CKF(1500, 400, 3500, 0),
	};
	const struct rs_kswapd_check cc[] = {
		CKF(1100, 0, 0, 0), CKF(1200, 0, 1000, 0), CKF(1300, 0, 1600, 1),
		CKF(1400, 0, 2000, 1),
	};
	struct rs_world *w = world_of_two(&s1, &s2, &err);
	const struct rs_reclaim_call *ca, *cb, *cc_;

	UT_ASSERT(w);
	s1.flow = (struct rs_zone_flow){ .ok = true };
	s2.flow = (struct rs_zone_flow){ .ok = true, .pages = { 0, 500 } };
	s2.flow.lost = 1;
	rs_zone_flow_base(&s1, NULL, NULL);
	rs_zone_flow_base(&s2, &s1, NULL);
	UT_ASSERT(!rs_world_add_zone_sample(w, &s1, &err));
	UT_ASSERT(!rs_world_add_zone_sample(w, &s2, &err));
	UT_ASSERT(!add_run(w, 1100, 0, a, 5, 201, &err));
	UT_ASSERT(!add_run(w, 1101, 0, a, 4, 201, &err));
	UT_ASSERT(!add_run(w, 1102, 0, cc, 4, 1, &err));
	UT_ASSERT(!rs_world_finalize(w, &err));
	ca = rs_world_call(w, 0);
	cb = rs_world_call(w, 1);
	cc_ = rs_world_call(w, 2);
	UT_ASSERT(ca->ts == 1100 && cb->ts == 1101 && cc_->ts == 1102);

	ASSERT_END(w, ca, e, RS_KEND_EARLY, 3, 201, 300);
	UT_ASSERT(e.flow && !e.flow_lost);
	rs_kswapd_end(w, cb, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_AT_END);
	UT_ASSERT(e.flow && !e.flow_lost);
	rs_kswapd_end(w, cc_, &e);
	UT_ASSERT_EQ(e.how, RS_KEND_NOT_EARLIER);
	UT_ASSERT(!e.flow);
	UT_ASSERT(e.flow_lost);
	/* a policy after one pass: 10,000 + (m - 100) > 10,527 + 1,754 from m = 2,382 */
	UT_ASSERT_EQ(rs_kswapd_balanced(w, ca, 1, 2382), 1);
	UT_ASSERT_EQ(rs_kswapd_balanced(w, ca, 1, 2381), 0);

	ASSERT_ENDS(w, all, 3, 1, 1, 1, 0);
	UT_ASSERT_EQ(all.flow, 2);
	UT_ASSERT_EQ(all.flow_lost, 1);
	rs_world_free(w);
	return UT_OK;
}
