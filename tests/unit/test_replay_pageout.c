// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/replay/replay_calls.c: what a reclaim window's events say besides its counts. The
 * pages it wrote out, from its write_folio events: mm_vmscan_write_folio fires once per folio;
 * shrink_folio_list() counts the folio's pages in nr_pageout, which lru_note_cost() charges as
 * IO (SWAP_CLUSTER_MAX a page). The pages its isolate skipped (nr_skipped), which make the call
 * lack per-zone lists (RS_GAP_ZONE_LISTS). Each test is one kswapd run of one inactive anon
 * window (an isolate, the writes, its shrink).
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
 * window isolated `scanned` inactive anon pages for `req` (`skipped` of them passed over), wrote
 * the anon folios at pfn[0..n) and reclaimed none; its world in t->w. 0, or -1 when the trace
 * could not be built.
 */
static int one_window(struct tp *t, uint64_t req, uint64_t scanned, uint64_t skipped,
		      const uint64_t *pfn, size_t n)
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
	ev = ut_isolate(ts, 45, "kswapd0", RS_LRU_INACTIVE_ANON, req, scanned, scanned - skipped);
	ev.isolate.file = -1;
	ev.isolate.nr_skipped = skipped;
	ev.have |= RS_HAVE_SKIPPED;
	feed(t, &ev);
	for (size_t i = 0; i < n; i++) {
		ev = ut_event(RS_EV_WRITE_FOLIO, ts + 1 + i, 45, "kswapd0");
		ev.write.pfn = pfn[i];
		ev.write.reclaim_flags = RS_RECLAIM_WB_ANON;
		feed(t, &ev);
	}
	ev = ut_shrink_inactive(ts + MS / 2, 45, "kswapd0", 12, RS_RECLAIM_WB_ANON,
				scanned - skipped, 0);
	feed(t, &ev);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, ts + MS);

	if (rs_analysis_finish(t->a, &t->err))
		return -1;
	t->w = rs_replay_input_world(t->ri, &t->err);
	return t->w ? 0 : -1;
}

/* What the reconstruction reports one_window()'s window wrote, in pages; -1 on failure. */
static int64_t pageout_of(struct tp *t, uint64_t req, uint64_t scanned, const uint64_t *pfn,
			  size_t n)
{
	if (one_window(t, req, scanned, 0, pfn, n))
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

/*
 * The 7.2 zswap recording at 200.551631 s: kswapd balancing ZONE_DMA asked 32 active anon pages
 * and scanned 3,464, 3,432 of them folios of higher zones it passed over (nr_skipped) and
 * counted. A run whose isolate skipped pages lacks per-zone lists, and its pages scanned are
 * the gap's; the same run without skips lacks nothing of it.
 */
TP_TEST(test_skipped_zone_lists,
	"replay input: a call whose isolates skipped pages lacks per-zone lists")
{
	struct rs_gap_pages *g;
	unsigned int mask;

	UT_ASSERT(one_window(t, 32, 3464, 3432, NULL, 0) == 0);
	UT_ASSERT_EQ(rs_world_call(t->w, 0)->rec.skipped, 3432);
	g = calloc(1 + (size_t)rs_world_info(t->w)->nr_memcg, sizeof(*g));
	UT_ASSERT(g != NULL);
	mask = rs_world_identity_gaps(t->w, g);
	UT_ASSERT(mask & (1u << RS_GAP_ZONE_LISTS));
	UT_ASSERT_EQ(g[0].scanned[RS_GAP_ZONE_LISTS][RS_LRU_INACTIVE_ANON], 3464);
	free(g);
	tp_free(t);

	UT_ASSERT(one_window(t, 32, 32, 0, NULL, 0) == 0);
	g = calloc(1 + (size_t)rs_world_info(t->w)->nr_memcg, sizeof(*g));
	UT_ASSERT(g != NULL);
	mask = rs_world_identity_gaps(t->w, g);
	free(g);
	UT_ASSERT(!(mask & (1u << RS_GAP_ZONE_LISTS)));
	UT_ASSERT_EQ(rs_world_call(t->w, 0)->rec.skipped, 0);
	return UT_OK;
}
