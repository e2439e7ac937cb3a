// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/replay/replay_calls.c: the pages a reclaim window wrote out, from its write_folio
 * events. mm_vmscan_write_folio fires once per folio; shrink_folio_list() counts the folio's
 * pages in nr_pageout, which lru_note_cost() charges as IO (SWAP_CLUSTER_MAX a page). Each
 * test is one kswapd run of one inactive anon window (an isolate, the writes, its shrink)
 * and reads the pages written that the reconstruction reports for the list.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "replay_input.h"
#include "unit.h"
#include "ut_events.h"

#define MS 1000000ull
#define T0 (100ull * 1000000000ull)

struct tp {
	struct rs_analysis *a;
	struct rs_replay_input *ri;
	struct rs_world *w;
	struct rs_error err;
	uint64_t off;
};

static void feed(struct tp *t, struct rs_event *ev)
{
	ev->offset = ++t->off;
	rs_analysis_feed(t->a, ev);
}

static void kswapd_ev(struct tp *t, enum rs_ev_type type, uint64_t ts)
{
	struct rs_event ev = ut_event(type, ts, 45, "kswapd0");

	ev.kswapd.nid = 0;
	ev.have = RS_HAVE_NID | RS_HAVE_ORDER;
	feed(t, &ev);
}

/*
 * A v1 trace of one node (inactive anon 10,000 pages, file 10,000) and one kswapd run whose one
 * window isolated `scanned` inactive anon pages for `req`, wrote the anon folios at pfn[0..n)
 * and reclaimed none. What the reconstruction reports the window wrote, in pages; -1 when the
 * trace could not be built.
 */
static int64_t pageout_of(struct tp *t, uint64_t req, uint64_t scanned, const uint64_t *pfn,
			  size_t n)
{
	struct rs_consumer c;
	struct rs_event ev;
	uint64_t ts = T0 + 2 * MS;

	memset(t, 0, sizeof(*t));
	t->ri = rs_replay_input_new(NULL, &t->err);
	if (!t->ri)
		return -1;
	rs_replay_input_consumer(t->ri, &c);
	t->a = ut_analysis(&c, NULL, &t->err);
	if (!t->a)
		return -1;
	ev = ut_event(RS_EV_META, T0, 1, "rs");
	ev.meta.kind = "begin";
	ev.meta.text = "swappiness=60 cgroup=v1 nodes=1";
	feed(t, &ev);
	ev = ut_cgroup_map(T0, 1, "rs", 1, "/");
	feed(t, &ev);
	ev = ut_event(RS_EV_SNAP_NODE, T0, 1, "rs");
	ev.snap_node.nid = 0;
	ev.snap_node.free_pages = 100;
	ev.snap_node.lru_pages[RS_LRU_INACTIVE_ANON] = 10000;
	ev.snap_node.lru_pages[RS_LRU_INACTIVE_FILE] = 10000;
	ev.snap_node.wmark_high = 200;
	feed(t, &ev);

	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 1 * MS);
	ev = ut_isolate(ts, 45, "kswapd0", RS_LRU_INACTIVE_ANON, req, scanned, scanned);
	ev.isolate.file = -1;
	feed(t, &ev);
	for (size_t i = 0; i < n; i++) {
		ev = ut_event(RS_EV_WRITE_FOLIO, ts + 1 + i, 45, "kswapd0");
		ev.write.pfn = pfn[i];
		ev.write.reclaim_flags = RS_RECLAIM_WB_ANON;
		feed(t, &ev);
	}
	ev = ut_shrink_inactive(ts + MS / 2, 45, "kswapd0", 12, RS_RECLAIM_WB_ANON, scanned, 0);
	feed(t, &ev);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, ts + MS);

	if (rs_analysis_finish(t->a, &t->err))
		return -1;
	t->w = rs_replay_input_world(t->ri, &t->err);
	if (!t->w)
		return -1;
	return (int64_t)rs_replay_input_report(t->ri)->obs[RS_LRU_INACTIVE_ANON].pages.pageout;
}

static void tp_free(struct tp *t)
{
	rs_replay_input_free(t->ri);
	rs_analysis_free(t->a);
	memset(t, 0, sizeof(*t));
}

#define TP_TEST(fn, desc) UT_TEST_OWN(fn, desc, struct tp, t, tp_free)

/*
 * The 7.2 mlock recording at 103.801 s: 520 pages isolated for 32 (8 pages, then a 512-page
 * THP), one write at pfn 0xfc00 (512-aligned, the THP's head): 512 pages written. The same
 * write at 0xfc07 (no folio head of 512 pages): one page.
 */
TP_TEST(test_pageout_thp, "replay input: a THP written out is its 512 pages of pageout")
{
	static const uint64_t head[] = { 0xfc00 }, inside[] = { 0xfc07 };

	UT_ASSERT_EQ(pageout_of(t, 32, 520, head, 1), 512);
	tp_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 520, inside, 1), 1);
	return UT_OK;
}

/*
 * Single pages only (32 for 32): an aligned pfn is a page like any other. Two 512-aligned writes
 * in a window that took one THP: one of them was a page (512 + 1). A THP split before its
 * pageout writes its head and then its other pages (0x8c00, 0x8c01, 0x8c02): 3 pages.
 */
TP_TEST(test_pageout_not_thp, "replay input: single pages and split THPs written are pages")
{
	static const uint64_t one[] = { 0x8000 }, two[] = { 0xfc00, 0xfe00 },
			      split[] = { 0x8c00, 0x8c01, 0x8c02 };

	UT_ASSERT_EQ(pageout_of(t, 32, 32, one, 1), 1);
	tp_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 520, two, 2), 513);
	tp_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 512, split, 3), 3);
	return UT_OK;
}
