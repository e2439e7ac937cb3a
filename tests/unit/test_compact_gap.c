// SPDX-License-Identifier: GPL-2.0
/*
 * models/compact_gap.c: which compact_gap() a trace's kernel had. A balance_pgdat run begun at
 * order o > 0 that reclaimed 32 <= r < 2 << o pages tells: kswapd_shrink_node() drops the order
 * to 0 at r >= min(2 << o, 32) (7.2) but not before 2 << o (6.x). Without such a run the
 * release decides (the cap from 7.2), without a release the balance_pgdat events (7.x).
 */
#include "compact_gap.h"
#include "unit.h"

UT_TEST(compact_gap_rule, "compact_gap: the rule from the trace's runs, else the release")
{
	struct rs_gap_evidence e = { 0 };
	struct rs_gap_rule g;

	/* the formula itself: 6.x 2 << order, 7.2 capped at COMPACT_CLUSTER_MAX */
	UT_ASSERT_EQ(rs_compact_gap_rule(9, false), 1024);
	UT_ASSERT_EQ(rs_compact_gap_rule(9, true), 32);
	UT_ASSERT_EQ(rs_compact_gap_rule(3, false), 16);

	/* runs that do not tell: order 0, fewer than 32, 2 << order or more */
	rs_gap_note(&e, 0, 0, 100);
	rs_gap_note(&e, 9, 9, 31);
	rs_gap_note(&e, 9, 0, 1024);
	rs_gap_note(&e, 3, 0, 40);		/* 2 << 3 = 16 <= 40: both rules drop */
	UT_ASSERT_EQ(e.runs, 4);
	UT_ASSERT_EQ(e.capped + e.uncapped, 0);

	/* release only */
	g = rs_gap_choose(&e, "6.1.0-13-amd64");
	UT_ASSERT(!g.capped && g.from == RS_GAP_FROM_RELEASE && !g.disagree);
	UT_ASSERT_EQ(g.major, 6);
	UT_ASSERT_EQ(g.minor, 1);
	g = rs_gap_choose(&e, "7.1.4");
	UT_ASSERT(!g.capped && g.from == RS_GAP_FROM_RELEASE);
	g = rs_gap_choose(&e, "7.2.13-amd64");
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_RELEASE);
	g = rs_gap_choose(&e, "8.0.0");
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_RELEASE);
	/* no release: balance_pgdat events are 7.x's; without them, before */
	g = rs_gap_choose(&e, NULL);
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_EVENTS);
	g = rs_gap_choose(&e, "unknown");
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_EVENTS && g.major == -1);
	g = rs_gap_choose(&(struct rs_gap_evidence){ 0 }, NULL);
	UT_ASSERT(!g.capped && g.from == RS_GAP_FROM_EVENTS);

	/* evidence capped: order 9, 40 and 500 pages, order 0 at the end; beats a 6.x release */
	rs_gap_note(&e, 9, 0, 40);
	rs_gap_note(&e, 9, 0, 500);
	UT_ASSERT_EQ(e.capped, 2);
	g = rs_gap_choose(&e, "6.12.0");
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_TRACE);

	/* evidence uncapped: order 9 kept at 1,023 pages; beats a 7.2 release */
	struct rs_gap_evidence u = { 0 };

	rs_gap_note(&u, 9, 9, 1023);
	rs_gap_note(&u, 5, 5, 32);
	UT_ASSERT_EQ(u.uncapped, 2);
	g = rs_gap_choose(&u, "7.2.13");
	UT_ASSERT(!g.capped && g.from == RS_GAP_FROM_TRACE);

	/* both kinds: the release decides, and says the runs disagree */
	rs_gap_note(&e, 9, 9, 100);
	g = rs_gap_choose(&e, "7.2.13");
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_RELEASE && g.disagree);
	g = rs_gap_choose(&e, "6.1.0");
	UT_ASSERT(!g.capped && g.from == RS_GAP_FROM_RELEASE && g.disagree);
	g = rs_gap_choose(&e, NULL);
	UT_ASSERT(g.capped && g.from == RS_GAP_FROM_EVENTS && g.disagree);
	UT_ASSERT(!strcmp(rs_gap_from_name(RS_GAP_FROM_TRACE), "trace"));
	return UT_OK;
}
