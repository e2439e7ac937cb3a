// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/refaults: the refault join fed with synthetic event sequences whose answers are
 * worked out by hand: folios of other orders coming back (split and merged ranges), deletions
 * by reclaim vs truncation vs proactive reclaim (held until mm_vmscan_reclaim_pages), the
 * bounded table forgetting its oldest ranges, the "within" shares and the distances.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "refaults.h"
#include "unit.h"
#include "ut_events.h"

#define MS 1000000ull
#define S 1000000000ull
#define T0 (100ull * S)

struct fx {
	struct rs_analysis *a;
	struct rs_refaults *rf;
};

static int fx_new(struct fx *f, size_t max_evicted, uint64_t span_ns)
{
	struct rs_refaults_opts ro = { .max_evicted = max_evicted };
	struct rs_analysis_opts ao = { .pid = -1, .span_first_ns = T0,
				       .span_last_ns = T0 + span_ns };
	struct rs_consumer c;
	struct rs_error err;

	f->rf = rs_refaults_new(&ro, &err);
	if (!f->rf)
		return -1;
	rs_refaults_consumer(f->rf, &c);
	f->a = ut_analysis(&c, &ao, &err);
	return f->a ? 0 : -1;
}

static void fx_free(struct fx *f)
{
	rs_refaults_free(f->rf);
	rs_analysis_free(f->a);
}

static void feed(struct fx *f, enum rs_ev_type t, uint64_t ts, int pid, const char *comm)
{
	struct rs_event ev = ut_event(t, ts, pid, comm);

	if (t == RS_EV_RECLAIM_BEGIN || t == RS_EV_RECLAIM_END)
		ev.reclaim.kind = RS_RK_MEMCG;
	if (t == RS_EV_LRU_ISOLATE)
		ev.isolate.lru = RS_LRU_INACTIVE_FILE;
	if (t == RS_EV_SHRINK_INACTIVE)
		ev.inactive.reclaim_flags = RS_RECLAIM_WB_FILE;
	rs_analysis_feed(f->a, &ev);
}

static void memcg(struct fx *f, uint64_t ts, int pid, uint64_t id)
{
	struct rs_event ev = ut_event(RS_EV_MEMCG_LRUVEC, ts, pid, "x");

	ev.memcg.id = id;
	ev.memcg.item = RS_LRU_INACTIVE_FILE;
	ev.memcg.val = -1;
	rs_analysis_feed(f->a, &ev);
}

static void fm(struct fx *f, enum rs_ev_type t, uint64_t ts, int pid, uint64_t ino,
	       uint64_t index, int order)
{
	struct rs_event ev = ut_event(t, ts, pid, "x");

	ev.filemap.dev = 7u << 20;
	ev.filemap.ino = ino;
	ev.filemap.index = index;
	ev.filemap.order = order;
	rs_analysis_feed(f->a, &ev);
}

/* memcg reclaim by pid 10 evicting folios given as (index, order) pairs, at ts */
static void evict(struct fx *f, uint64_t ts, const int *io, int n)
{
	feed(f, RS_EV_RECLAIM_BEGIN, ts, 10, "reader");
	feed(f, RS_EV_LRU_ISOLATE, ts + 1, 10, "reader");
	memcg(f, ts + 2, 10, 77);
	for (int i = 0; i < n; i++)
		fm(f, RS_EV_FILEMAP_DELETE, ts + 3 + i, 10, 5, io[2 * i], io[2 * i + 1]);
	feed(f, RS_EV_SHRINK_INACTIVE, ts + 100, 10, "reader");
	feed(f, RS_EV_RECLAIM_END, ts + 101, 10, "reader");
}

/* An order-4 folio comes back as order-0 and order-2 pieces, and two order-0 ones as one
   order-1 folio: pages and folios exact, the rest still evicted. */
UT_TEST(test_split_and_merge, "refaults: folios split and merged on the way back")
{
	static const int ev[] = { 16, 4, 40, 0, 41, 0 };	/* 16 + 1 + 1 pages */
	struct fx f;
	const struct rs_rf_totals *t;
	struct rs_latency_summary d;
	struct rs_error err;

	UT_ASSERT(!fx_new(&f, 0, 30 * S));
	evict(&f, T0, ev, 3);
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 5 * MS, 20, 5, 20, 2);	/* pages 20..23 of 16..31 */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 6 * MS, 20, 5, 17, 0);	/* page 17 */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 2 * S, 20, 5, 40, 1);	/* 40 and 41 */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 3 * S, 20, 5, 20, 0);	/* 20 again: not evicted */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 3 * S, 20, 6, 16, 0);	/* other inode */
	UT_ASSERT(!rs_analysis_finish(f.a, &err));
	t = rs_refaults_totals(f.rf);
	UT_ASSERT_EQ(t->all.evicted_folios, 3);
	UT_ASSERT_EQ(t->all.evicted_pages, 18);
	UT_ASSERT_EQ(t->refaulted_folios, 3);
	UT_ASSERT_EQ(t->all.refaulted_pages, 7);
	UT_ASSERT_EQ(t->pending_pages, 11);		/* 16..31 minus 17, 20..23 */
	UT_ASSERT_EQ(t->adds, 5);
	/* within 1 s: the 5 pages back in 5-6 ms; within 10 s: all 7 */
	UT_ASSERT_EQ(t->all.refaulted_within_pages[RS_RF_WITHIN_1S], 5);
	UT_ASSERT_EQ(t->all.refaulted_within_pages[RS_RF_WITHIN_10S], 7);
	UT_ASSERT_EQ(t->all.observable_pages[RS_RF_WITHIN_10S], 18);
	UT_ASSERT_EQ(t->by_ctx_list[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].refaulted_pages, 7);
	UT_ASSERT_EQ(t->all.dist_pages[0], 5);		/* [0, 10 ms) */
	UT_ASSERT_EQ(t->all.dist_pages[3], 2);		/* [1 s, 10 s) */
	rs_refaults_distance(f.rf, &d);
	UT_ASSERT_EQ(d.count, 7);
	UT_ASSERT_EQ(d.max, 2 * S - 4);			/* page 40 deleted at T0 + 4 */
	/* the victim memcg is the one the reclaiming task named after its isolate */
	UT_ASSERT(rs_refaults_find(f.rf, 77) >= 0);
	UT_ASSERT_EQ(rs_refaults_cgroup(f.rf, rs_refaults_find(f.rf, 77))->victim.refaulted_pages,
		     7);
	fx_free(&f);
	return UT_OK;
}

/* Small pieces of a 512-page range in some of its 64-page blocks and none in others, and a
   large piece: an order-9 add takes exactly those, whichever blocks they are in. */
UT_TEST(test_large_folio_blocks, "refaults: an order-9 add finds pieces in any block")
{
	/* pages 5, 64..67 (order 2), 130, 511; 1024..1535 (order 9) */
	static const int ev[] = { 5, 0, 64, 2, 130, 0, 511, 0, 1024, 9 };
	struct fx f;
	const struct rs_rf_totals *t;
	struct rs_error err;

	UT_ASSERT(!fx_new(&f, 0, 30 * S));
	evict(&f, T0, ev, 5);
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 5 * MS, 20, 5, 0, 9);	/* 0..511: 5, 64..67, 130, 511 */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 6 * MS, 20, 5, 1280, 6);	/* 1280..1343 of 1024..1535 */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 7 * MS, 20, 5, 0, 9);	/* again: none left */
	UT_ASSERT(!rs_analysis_finish(f.a, &err));
	t = rs_refaults_totals(f.rf);
	UT_ASSERT_EQ(t->all.evicted_folios, 5);
	UT_ASSERT_EQ(t->all.evicted_pages, 1 + 4 + 1 + 1 + 512);
	UT_ASSERT_EQ(t->refaulted_folios, 2);
	UT_ASSERT_EQ(t->all.refaulted_pages, 7 + 64);
	UT_ASSERT_EQ(t->pending_pages, 512 - 64);
	fx_free(&f);
	return UT_OK;
}

/* Deletions outside reclaim: truncation is never matched; a task's deletions followed by its
   mm_vmscan_reclaim_pages are proactive evictions (context "other"). */
UT_TEST(test_truncate_and_proactive, "refaults: truncation apart, proactive reclaim held")
{
	struct fx f;
	const struct rs_rf_totals *t;
	struct rs_error err;

	UT_ASSERT(!fx_new(&f, 0, 30 * S));
	fm(&f, RS_EV_FILEMAP_DELETE, T0, 30, 5, 0, 0);		/* rm: truncate */
	fm(&f, RS_EV_FILEMAP_DELETE, T0 + 1, 30, 5, 1, 0);
	feed(&f, RS_EV_EXIT, T0 + 2, 30, "rm");
	fm(&f, RS_EV_FILEMAP_ADD, T0 + 3, 31, 5, 0, 1);		/* same range again */
	fm(&f, RS_EV_FILEMAP_DELETE, T0 + 10, 40, 9, 8, 3);	/* kdamond pageout */
	memcg(&f, T0 + 11, 40, 88);
	feed(&f, RS_EV_RECLAIM_PAGES, T0 + 12, 40, "kdamond.0");
	fm(&f, RS_EV_FILEMAP_DELETE, T0 + 20, 41, 9, 0, 0);	/* held to the end */
	fm(&f, RS_EV_FILEMAP_ADD, T0 + S / 2, 31, 9, 8, 3);
	UT_ASSERT(!rs_analysis_finish(f.a, &err));
	t = rs_refaults_totals(f.rf);
	UT_ASSERT_EQ(t->other_deletes, 3);
	UT_ASSERT_EQ(t->other_delete_pages, 3);
	UT_ASSERT_EQ(t->proactive_deletes, 1);
	UT_ASSERT_EQ(t->by_ctx[RS_CTX_OTHER].evicted_pages, 8);
	UT_ASSERT_EQ(t->all.refaulted_pages, 8);
	UT_ASSERT_EQ(t->refaulted_folios, 1);
	UT_ASSERT_EQ(rs_refaults_cgroup(f.rf, rs_refaults_find(f.rf, 88))->victim.refaulted_pages,
		     8);
	fx_free(&f);
	return UT_OK;
}

/* A table of 2 ranges forgets the oldest: the count is a lower bound, flagged. */
UT_TEST(test_bounded_table, "refaults: bounded eviction table")
{
	static const int ev[] = { 0, 0, 1, 0, 2, 0, 3, 0 };
	struct fx f;
	const struct rs_rf_totals *t;
	struct rs_error err;

	UT_ASSERT(!fx_new(&f, 2, 30 * S));
	evict(&f, T0, ev, 4);
	for (int i = 0; i < 4; i++)
		fm(&f, RS_EV_FILEMAP_ADD, T0 + S, 20, 5, (uint64_t)i, 0);
	UT_ASSERT(!rs_analysis_finish(f.a, &err));
	t = rs_refaults_totals(f.rf);
	UT_ASSERT_EQ(t->table_peak, 2);
	UT_ASSERT(t->table_full);
	UT_ASSERT_EQ(t->forgotten_pages, 2);
	UT_ASSERT_EQ(t->all.refaulted_pages, 2);		/* pages 2 and 3 */
	fx_free(&f);
	return UT_OK;
}
