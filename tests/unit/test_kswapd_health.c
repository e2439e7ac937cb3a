// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/kswapd_health.c: kswapd runs and health per node, on machines whose node ids are
 * not 0..N-1. Nodes 0, 252 (a POWER-style sparse id) and then 15 more (2..16): each of the
 * first 16 nodes seen has its own slot whatever its id; the 17th node's events (node 16) are
 * counted as not kept, never folded into another node. Each node runs balance_pgdat once,
 * reclaiming 10 + nid pages; node 252 also fails once (reclaim_fail, failures 1).
 */
#include "kswapd_health.h"
#include "unit.h"

static void feed(struct rs_kswapd_health *h, int type, int nid, uint64_t ts,
		 uint64_t reclaimed)
{
	struct rs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.ts = ts;
	if (type == RS_EV_KSWAPD_FAIL) {
		ev.health.nid = nid;
		ev.health.failures = 1;
	} else {
		ev.balance.nid = nid;
		ev.balance.nr_reclaimed = reclaimed;
	}
	rs_kswapd_health_feed(h, &ev);
}

UT_TEST(test_kswapd_health_sparse_nodes, "kswapd_health: sparse node ids, the 17th node told")
{
	static struct rs_kswapd_health h;
	int nids[18] = { 0, 252 };
	uint64_t ts = 1000;

	for (int i = 2; i < 18; i++)
		nids[i] = i;	/* 2..17: with 0 and 252, nodes 16 and 17 are the 17th and 18th */
	rs_kswapd_health_init(&h);
	for (int i = 0; i < 18; i++) {
		feed(&h, RS_EV_BALANCE_BEGIN, nids[i], ts, 0);
		feed(&h, RS_EV_BALANCE_END, nids[i], ts + 100, 10 + (uint64_t)nids[i]);
		ts += 1000;
	}
	feed(&h, RS_EV_KSWAPD_FAIL, 252, ts, 0);
	rs_kswapd_health_finish(&h, ts + 1);
	UT_ASSERT_EQ(h.nr_nodes, RS_HEALTH_MAX_NODES);
	UT_ASSERT_EQ(h.nodes[0].nid, 0);
	UT_ASSERT_EQ(h.nodes[0].runs, 1);
	UT_ASSERT_EQ(h.nodes[0].reclaimed, 10);
	UT_ASSERT_EQ(h.nodes[1].nid, 252);
	UT_ASSERT_EQ(h.nodes[1].runs, 1);
	UT_ASSERT_EQ(h.nodes[1].reclaimed, 262);
	UT_ASSERT_EQ(h.nodes[1].reclaim_fail, 1);
	UT_ASSERT_EQ(h.nodes[15].nid, 15);
	UT_ASSERT_EQ(h.nodes[15].reclaimed, 25);
	/* nodes 16 and 17: a begin and an end each, not kept */
	UT_ASSERT_EQ(h.bad_nid, 4);
	return UT_OK;
}
