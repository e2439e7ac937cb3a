// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline index and model (analyzer/timeline_*.c) on a synthetic trace whose buckets are
 * worked out by hand: 64 buckets of 1 ms from T0, fed through the real analysis so contexts
 * and episodes are the ones the TUI sees.
 *
 *   pid 50 kswapd0   awake [1, 6) ms: isolate IF 64 at 1.5, shrink IF 64/60 prio 12 at 1.6
 *   pid 100 memhog   (cgroup /a, id 10) direct [2, 5): isolate IF 32 at 2.1, pgscan/pgsteal
 *                    of /b 32/30, shrink IF 32/30 prio 12 at 2.2; direct [40, 41)
 *   pid 200 reader   (cgroup /b, id 20) memcg [10, 30): isolate IA 16 at 10.5, pgscan /b 16,
 *                    write at 10.58, shrink IA 16/8 prio 10 at 10.6
 *   oom victim at 50 ms; a marker at 64 ms - 1 ns ends the trace.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "memcg_attrib.h"
#include "timeline_index.h"
#include "timeline_model.h"
#include "unit.h"
#include "ut_events.h"

#define US 1000ull
#define MS 1000000ull
#define T0 (200ull * 1000000000ull)

static const char *const item_names[] = {
	"pgpgin", "pgpgout", "pgfault", "pgscan_direct", "pgsteal_direct", "pgscan_anon"
};

struct fx {
	struct rs_analysis *a;
	struct tl_index *ix;
	struct tl_model *m;		/* fx_model()'s, freed by fx_close() */
	struct rs_event ev[64];
	int n;
};

static struct rs_event *add(struct fx *f, enum rs_ev_type t, uint64_t ts, int pid,
			    const char *comm)
{
	struct rs_event *e = &f->ev[f->n++];

	memset(e, 0, sizeof(*e));
	e->type = t;
	e->ts = ts;
	e->pid = pid;
	e->comm = comm;
	return e;
}

static void isolate(struct fx *f, uint64_t ts, int pid, const char *comm, int lru, uint64_t n)
{
	struct rs_event *e = add(f, RS_EV_LRU_ISOLATE, ts, pid, comm);

	e->isolate.lru = lru;
	e->isolate.file = -1;
	e->isolate.nr_scanned = e->isolate.nr_taken = n;
	e->have = RS_HAVE_LRU;
}

static void shrink(struct fx *f, uint64_t ts, int pid, const char *comm, bool file, uint64_t sc,
		   uint64_t rc, int prio)
{
	struct rs_event *e = add(f, RS_EV_SHRINK_INACTIVE, ts, pid, comm);

	e->inactive.nr_scanned = sc;
	e->inactive.nr_reclaimed = rc;
	e->inactive.priority = prio;
	e->inactive.reclaim_flags = file ? RS_RECLAIM_WB_FILE : RS_RECLAIM_WB_ANON;
	e->have = RS_HAVE_PRIORITY;
}

static void reclaim(struct fx *f, uint64_t ts, int pid, const char *comm, bool begin,
		    enum rs_reclaim_kind k, uint64_t nr)
{
	struct rs_event *e = add(f, begin ? RS_EV_RECLAIM_BEGIN : RS_EV_RECLAIM_END, ts, pid,
				 comm);

	e->reclaim.kind = k;
	e->reclaim.nr_reclaimed = nr;
}

static void memcg_count(struct fx *f, uint64_t ts, int pid, const char *comm, uint64_t id,
			int item, int64_t v)
{
	struct rs_event *e = add(f, RS_EV_MEMCG_COUNT, ts, pid, comm);

	e->memcg.id = id;
	e->memcg.item = item;
	e->memcg.val = v;
}

static void scenario(struct fx *f)
{
	struct rs_event *e;

	e = add(f, RS_EV_ITEM_NAMES, T0, 1, "rs-record");
	e->items.which = RS_ITEMS_VM_EVENT;
	e->items.count = 6;
	e->items.names = item_names;
	e = add(f, RS_EV_TASK_CGROUP, T0, 1, "rs-record");
	e->task_cgroup = (struct rs_ev_task_cgroup){ 100, 10, "/a" };
	e = add(f, RS_EV_TASK_CGROUP, T0, 1, "rs-record");
	e->task_cgroup = (struct rs_ev_task_cgroup){ 200, 20, "/b" };
	e = add(f, RS_EV_KSWAPD_WAKE, T0 + 1 * MS, 50, "kswapd0");
	isolate(f, T0 + 1500 * US, 50, "kswapd0", RS_LRU_INACTIVE_FILE, 64);
	shrink(f, T0 + 1600 * US, 50, "kswapd0", true, 64, 60, 12);
	reclaim(f, T0 + 2 * MS, 100, "memhog", true, RS_RK_DIRECT, 0);
	isolate(f, T0 + 2100 * US, 100, "memhog", RS_LRU_INACTIVE_FILE, 32);
	memcg_count(f, T0 + 2150 * US, 100, "memhog", 20, 3, 32);
	memcg_count(f, T0 + 2180 * US, 100, "memhog", 20, 4, 30);
	shrink(f, T0 + 2200 * US, 100, "memhog", true, 32, 30, 12);
	reclaim(f, T0 + 5 * MS, 100, "memhog", false, RS_RK_DIRECT, 30);
	add(f, RS_EV_KSWAPD_SLEEP, T0 + 6 * MS, 50, "kswapd0");
	reclaim(f, T0 + 10 * MS, 200, "reader", true, RS_RK_MEMCG, 0);
	isolate(f, T0 + 10500 * US, 200, "reader", RS_LRU_INACTIVE_ANON, 16);
	memcg_count(f, T0 + 10550 * US, 200, "reader", 20, 3, 16);
	add(f, RS_EV_WRITE_FOLIO, T0 + 10580 * US, 200, "reader");
	shrink(f, T0 + 10600 * US, 200, "reader", false, 16, 8, 10);
	reclaim(f, T0 + 30 * MS, 200, "reader", false, RS_RK_MEMCG, 8);
	reclaim(f, T0 + 40 * MS, 100, "memhog", true, RS_RK_DIRECT, 0);
	reclaim(f, T0 + 41 * MS, 100, "memhog", false, RS_RK_DIRECT, 0);
	e = add(f, RS_EV_OOM_VICTIM, T0 + 50 * MS, 200, "reader");
	e->oom.pid = 200;
	e = add(f, RS_EV_MARKER, T0 + 64 * MS - 1, 1, "sh");
	e->marker = "end";
}

/* The scenario indexed with 64 buckets of 1 ms (span known), optionally unfinished. */
static int fx_open(struct fx *f, size_t max_spans, bool span_known, bool finish)
{
	struct tl_index_opts io = { .max_buckets = 64, .max_spans = max_spans };
	struct rs_consumer c;
	struct rs_error err;

	memset(f, 0, sizeof(*f));
	if (span_known) {
		io.span_first = T0;
		io.span_last = T0 + 64 * MS - 1;
	}
	f->ix = tl_index_new(&io, &err);
	if (!f->ix)
		return -1;
	tl_index_consumer(f->ix, &c);
	f->a = ut_analysis(&c, NULL, &err);
	if (!f->a)
		return -1;
	scenario(f);
	for (int i = 0; i < f->n; i++)
		rs_analysis_feed(f->a, &f->ev[i]);
	if (finish && rs_analysis_finish(f->a, &err) < 0)
		return -1;
	return 0;
}

/* fx_open() of the scenario with its span known, and a model of it 64 columns wide. */
static struct tl_model *fx_model(struct fx *f, bool finish)
{
	if (fx_open(f, 0, true, finish))
		return NULL;
	f->m = tl_model_new(f->ix);
	if (f->m)
		tl_model_set_columns(f->m, 64);
	return f->m;
}

/* The model of the finished trace, binned once: what a test reads its first rows and cells of. */
static struct tl_model *fx_binned(struct fx *f)
{
	struct tl_model *m = fx_model(f, true);

	if (m)
		tl_model_update(m);
	return m;
}

static void fx_close(struct fx *f)
{
	tl_model_free(f->m);
	rs_analysis_free(f->a);
	tl_index_free(f->ix);
}

/* A fixture of its own, binned by fx_binned(): NULL when it could not be made. */
static struct fx *fx_binned_new(void)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (f && !fx_binned(f)) {
		fx_close(f);
		free(f);
		return NULL;
	}
	return f;
}

static void fx_release(struct fx *f)
{
	fx_close(f);
	free(f);
}

/* A test of the model fx_binned() makes (f->m): made before the test, freed after it. */
#define MODEL_TEST(fn, desc) UT_TEST_WITH(fn, desc, struct fx *, f, fx_binned_new(), fx_release)

static uint64_t bsum(const struct tl_index *ix, int level, size_t b, int s)
{
	const struct tl_bucket *k = tl_index_bucket(ix, level, b, s);

	return k ? k->sum : 0;
}

static int row_of(struct tl_model *m, int lane, int sub)
{
	for (int i = 0; i < tl_model_nrows(m); i++)
		if (tl_model_row(m, i)->lane == lane && tl_model_row(m, i)->sub == sub)
			return i;
	return -1;
}

static bool near(double a, double b)
{
	return a - b < 1e-6 * (b > 1 ? b : 1) && b - a < 1e-6 * (b > 1 ? b : 1);
}

/* ---- tests ---- */

UT_TEST(test_classify, "timeline: classify events into series")
{
	struct tl_add o[TL_MAX_ADDS];
	struct rs_event ev = { 0 };
	int n;

	ev.type = RS_EV_LRU_ISOLATE;
	ev.have = RS_HAVE_LRU;
	ev.isolate.lru = RS_LRU_INACTIVE_FILE;
	ev.isolate.nr_scanned = 32;
	n = tl_classify(&ev, RS_CTX_DIRECT, o);
	UT_ASSERT_EQ(n, 4);
	UT_ASSERT_EQ(o[0].series, TL_S_EVENTS);
	UT_ASSERT_EQ(o[1].series, TL_S_SCAN + RS_LRU_INACTIVE_FILE);
	UT_ASSERT_EQ(o[1].v, 32);
	UT_ASSERT_EQ(o[2].series, TL_S_SSCAN + RS_LRU_INACTIVE_FILE);
	UT_ASSERT_EQ(o[3].series, TL_S_CTX_SCAN + RS_CTX_DIRECT);
	/* kswapd scanning is not a stall */
	UT_ASSERT_EQ(tl_classify(&ev, RS_CTX_KSWAPD, o), 3);
	/* old kernels: only `file` */
	ev.have = RS_HAVE_FILE;
	ev.isolate.lru = -1;
	ev.isolate.file = 0;
	tl_classify(&ev, RS_CTX_OTHER, o);
	UT_ASSERT_EQ(o[1].series, TL_S_SCAN + RS_LRU_INACTIVE_ANON);

	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_SHRINK_ACTIVE;
	ev.have = RS_HAVE_PRIORITY;
	ev.active.reclaim_flags = RS_RECLAIM_WB_FILE;
	ev.active.nr_taken = 10;
	ev.active.nr_deactivated = 4;
	ev.active.priority = 0;
	n = tl_classify(&ev, RS_CTX_KSWAPD, o);
	UT_ASSERT_EQ(n, 4);
	UT_ASSERT_EQ(o[1].series, TL_S_RECL + RS_LRU_ACTIVE_FILE);
	UT_ASSERT_EQ(o[1].v, 4);
	UT_ASSERT_EQ(o[2].series, TL_S_BASE + RS_LRU_ACTIVE_FILE);
	UT_ASSERT_EQ(o[3].series, TL_S_PRIO);
	UT_ASSERT_EQ(o[3].v, 13);

	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_LOST;
	ev.lost = -1;
	tl_classify(&ev, RS_CTX_OTHER, o);
	UT_ASSERT_EQ(o[1].series, TL_S_LOST);
	UT_ASSERT_EQ(o[1].v, 1);
	ev.type = RS_EV_MEMCG_LRUVEC;
	UT_ASSERT_EQ(tl_classify(&ev, 99, o), 1);	/* bad context: "other", events only */
	return UT_OK;
}

UT_TEST(test_index_buckets, "timeline: index buckets, span time, pyramid")
{
	struct fx f;
	const struct tl_index *ix;

	UT_ASSERT(!fx_open(&f, 0, true, true));
	ix = f.ix;
	UT_ASSERT(tl_index_finished(ix));
	UT_ASSERT_EQ(tl_index_t0(ix), T0);
	UT_ASSERT_EQ(tl_index_width(ix, 0), MS);
	UT_ASSERT_EQ(tl_index_nbuckets(ix, 0), 64);
	UT_ASSERT_EQ(tl_index_levels(ix), 2);
	UT_ASSERT_EQ(tl_index_width(ix, 1), 4 * MS);
	UT_ASSERT_EQ(tl_index_nbuckets(ix, 1), 16);
	UT_ASSERT_EQ(tl_index_events(ix), (uint64_t)f.n);
	UT_ASSERT_EQ(bsum(ix, 0, 1, TL_S_SCAN + RS_LRU_INACTIVE_FILE), 64);
	UT_ASSERT_EQ(bsum(ix, 0, 2, TL_S_SCAN + RS_LRU_INACTIVE_FILE), 32);
	UT_ASSERT_EQ(bsum(ix, 0, 1, TL_S_CTX_SCAN + RS_CTX_KSWAPD), 64);
	UT_ASSERT_EQ(bsum(ix, 0, 2, TL_S_SSCAN + RS_LRU_INACTIVE_FILE), 32);
	UT_ASSERT_EQ(bsum(ix, 0, 1, TL_S_SSCAN + RS_LRU_INACTIVE_FILE), 0);
	UT_ASSERT_EQ(bsum(ix, 0, 10, TL_S_SCAN + RS_LRU_INACTIVE_ANON), 16);
	UT_ASSERT_EQ(bsum(ix, 0, 10, TL_S_CTX_SCAN + RS_CTX_MEMCG), 16);
	UT_ASSERT_EQ(bsum(ix, 0, 10, TL_S_RECL + RS_LRU_INACTIVE_ANON), 8);
	UT_ASSERT_EQ(bsum(ix, 0, 10, TL_S_WRITE), 1);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 1, TL_S_PRIO)->max, 1);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 10, TL_S_PRIO)->max, 3);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 50, TL_S_OOM)->cnt, 1);
	/* span time: direct [2, 5) and [40, 41); memcg [10, 30); kswapd [1, 6) */
	UT_ASSERT_EQ(bsum(ix, 0, 2, TL_S_CTX_TIME + RS_CTX_DIRECT), MS);
	UT_ASSERT_EQ(bsum(ix, 0, 4, TL_S_CTX_TIME + RS_CTX_DIRECT), MS);
	UT_ASSERT_EQ(bsum(ix, 0, 5, TL_S_CTX_TIME + RS_CTX_DIRECT), 0);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 2, TL_S_CTX_TIME + RS_CTX_DIRECT)->cnt, 1);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 3, TL_S_CTX_TIME + RS_CTX_DIRECT)->cnt, 0);
	UT_ASSERT_EQ(tl_index_bucket(ix, 0, 3, TL_S_CTX_TIME + RS_CTX_DIRECT)->max, 3000);
	UT_ASSERT_EQ(bsum(ix, 0, 29, TL_S_CTX_TIME + RS_CTX_MEMCG), MS);
	UT_ASSERT_EQ(tl_index_total(ix, TL_S_CTX_TIME + RS_CTX_MEMCG)->sum, 20 * MS);
	UT_ASSERT_EQ(tl_index_total(ix, TL_S_CTX_TIME + RS_CTX_KSWAPD)->sum, 5 * MS);
	/* the pyramid: level 1 bucket 0 = level 0 buckets 0..3 */
	UT_ASSERT_EQ(bsum(ix, 1, 0, TL_S_SCAN + RS_LRU_INACTIVE_FILE), 96);
	UT_ASSERT_EQ(bsum(ix, 1, 0, TL_S_CTX_TIME + RS_CTX_DIRECT), 2 * MS);
	UT_ASSERT_EQ(tl_index_bucket(ix, 1, 2, TL_S_PRIO)->max, 3);
	UT_ASSERT_EQ(tl_index_total(ix, TL_S_SCAN + RS_LRU_INACTIVE_FILE)->sum, 96);
	UT_ASSERT(tl_index_bucket(ix, 0, 64, 0) == NULL);
	UT_ASSERT(tl_index_bucket(ix, 2, 0, 0) == NULL);
	fx_close(&f);
	return UT_OK;
}

UT_TEST(test_index_fold, "timeline: index folds when the span is unknown")
{
	struct fx f;
	const struct tl_index *ix;
	uint64_t a = 0, b = 0;

	/* span not known in advance (a text trace): level 0 starts at 100 ns and folds */
	UT_ASSERT(!fx_open(&f, 0, false, false));
	ix = f.ix;
	UT_ASSERT(!tl_index_finished(ix));
	UT_ASSERT_EQ(tl_index_levels(ix), 1);
	tl_index_span(ix, &a, &b);
	UT_ASSERT_EQ(a, T0);
	UT_ASSERT_EQ(b, T0 + 64 * MS - 1);
	UT_ASSERT(tl_index_width(ix, 0) * 64 >= 64 * MS);
	UT_ASSERT(tl_index_width(ix, 0) < 2 * MS);
	UT_ASSERT_EQ(tl_index_t0(ix), T0);
	a = 0;
	for (size_t i = 0; i < tl_index_nbuckets(ix, 0); i++)
		a += bsum(ix, 0, i, TL_S_SCAN + RS_LRU_INACTIVE_FILE);
	UT_ASSERT_EQ(a, 96);
	UT_ASSERT_EQ(tl_index_total(ix, TL_S_EVENTS)->cnt, (uint64_t)f.n);
	fx_close(&f);
	return UT_OK;
}

UT_TEST(test_index_spans, "timeline: spans with task, trigger and victim cgroups")
{
	struct fx f;
	const struct tl_span *s;
	const struct tl_victim *v;

	UT_ASSERT(!fx_open(&f, 0, true, true));
	UT_ASSERT_EQ(tl_index_nspans(f.ix), 4);
	UT_ASSERT(tl_index_spans_sorted(f.ix));
	s = tl_index_spans(f.ix);
	v = tl_index_victims(f.ix);
	/* sorted by begin: kswapd 1, direct 2, memcg 10, direct 40 */
	UT_ASSERT_EQ(s[0].kind, RS_CTX_KSWAPD);
	UT_ASSERT_EQ(s[0].begin, T0 + MS);
	UT_ASSERT_EQ(s[0].end, T0 + 6 * MS);
	UT_ASSERT_EQ(s[0].scanned, 64);
	UT_ASSERT_EQ(s[0].reclaimed, 60);
	UT_ASSERT(tl_index_task(f.ix, s[0].task)->kswapd);
	UT_ASSERT_EQ(s[1].kind, RS_CTX_DIRECT);
	UT_ASSERT_EQ(s[1].pid, 100);
	UT_ASSERT_EQ(s[1].scanned, 32);
	UT_ASSERT_EQ(s[1].reclaimed, 30);
	UT_ASSERT_STR(tl_index_cgroup_name(f.ix, s[1].trigger), "/a");
	UT_ASSERT_EQ(s[1].nr_victims, 1);
	UT_ASSERT_STR(tl_index_cgroup_name(f.ix, v[s[1].victim_off].cg), "/b");
	UT_ASSERT_EQ(v[s[1].victim_off].scanned, 32);
	UT_ASSERT_EQ(v[s[1].victim_off].reclaimed, 30);
	UT_ASSERT_STR(tl_index_task(f.ix, s[1].task)->comm, "memhog");
	UT_ASSERT(!tl_index_task(f.ix, s[1].task)->kswapd);
	UT_ASSERT_EQ(s[2].kind, RS_CTX_MEMCG);
	UT_ASSERT_STR(tl_index_cgroup_name(f.ix, s[2].trigger), "/b");
	UT_ASSERT_EQ(v[s[2].victim_off].scanned, 16);
	UT_ASSERT_EQ(s[2].reclaimed, 8);
	UT_ASSERT_EQ(s[3].nr_victims, 0);
	UT_ASSERT_EQ(s[3].status, RS_EP_COMPLETE);
	UT_ASSERT_EQ(tl_index_max_span(f.ix), 20 * MS);
	UT_ASSERT_EQ(tl_index_dropped(f.ix), 0);
	UT_ASSERT_EQ(tl_index_task_of_pid(f.ix, 200), s[2].task);
	UT_ASSERT_EQ(tl_index_task_of_pid(f.ix, 4242), UINT32_MAX);
	fx_close(&f);
	return UT_OK;
}

UT_TEST(test_index_span_cap, "timeline: span cap keeps the longer half")
{
	struct fx f;
	const struct tl_span *s;

	/* 2 kept at most: at the third close the shorter half goes (kswapd 5 ms kept) */
	UT_ASSERT(!fx_open(&f, 2, true, true));
	s = tl_index_spans(f.ix);
	UT_ASSERT(tl_index_dropped(f.ix) >= 2);
	UT_ASSERT(tl_index_nspans(f.ix) <= 2);
	UT_ASSERT(tl_index_span_floor(f.ix) > 0);
	for (size_t i = 0; i < tl_index_nspans(f.ix); i++)
		UT_ASSERT(s[i].end - s[i].begin >= tl_index_span_floor(f.ix));
	/* the worst stall is kept, and the time series still count every episode */
	UT_ASSERT_EQ(s[tl_index_nspans(f.ix) - 1].kind, RS_CTX_MEMCG);
	UT_ASSERT_EQ(tl_index_total(f.ix, TL_S_CTX_TIME + RS_CTX_DIRECT)->sum, 4 * MS);
	UT_ASSERT_EQ(tl_index_total(f.ix, TL_S_CTX_TIME + RS_CTX_DIRECT)->cnt, 2);
	fx_close(&f);
	return UT_OK;
}

MODEL_TEST(test_model_zoom_pan, "timeline: zoom, pan, cursor, resize")
{
	struct tl_model *m = f->m;
	uint64_t a, b;

	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	UT_ASSERT_EQ(b, T0 + 64 * MS);
	UT_ASSERT_EQ(tl_model_col_width(m), MS);
	UT_ASSERT_EQ(tl_model_level(m), 0);
	UT_ASSERT_EQ(tl_model_cursor_col(m), 0);
	/* cursor to column 10, zoom in twice: the cursor stays in column 10 */
	tl_model_cursor_move(m, 10);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 10 * MS);
	tl_model_zoom(m, 2);
	UT_ASSERT_EQ(tl_model_col_width(m), 250 * US);
	UT_ASSERT_EQ(tl_model_cursor_col(m), 10);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0 + 10 * MS - 10 * 250 * US);
	/* zoom out past everything stops at the whole trace */
	tl_model_zoom(m, -5);
	UT_ASSERT_EQ(tl_model_col_width(m), MS);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	/* panning is clamped to the trace */
	tl_model_zoom(m, 1);
	tl_model_pan(m, -1000);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	tl_model_pan(m, 1000);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(b, T0 + 64 * MS);
	UT_ASSERT(tl_model_cursor_ts(m) >= a && tl_model_cursor_ts(m) < b);
	/* the cursor pans the window at the edge */
	tl_model_zoom_all(m);
	tl_model_zoom(m, 1);
	tl_model_cursor_set(m, T0);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	tl_model_cursor_move(m, 64);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(tl_model_cursor_col(m), 63);
	UT_ASSERT_EQ(a, T0 + 500 * US);
	/* zoom to a range; a tiny one stops at 1 ns columns */
	tl_model_zoom_range(m, T0 + 10 * MS, T0 + 30 * MS);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0 + 10 * MS);
	UT_ASSERT_EQ(tl_model_col_width(m), 312500);
	tl_model_zoom(m, 40);
	UT_ASSERT_EQ(tl_model_col_width(m), 1);
	/* resize keeps a sane window */
	tl_model_zoom_all(m);
	tl_model_set_columns(m, 9);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	UT_ASSERT(b >= T0 + 64 * MS);
	UT_ASSERT_EQ(tl_model_columns(m), 9);
	return UT_OK;
}

MODEL_TEST(test_model_binning, "timeline: binning by level, metrics")
{
	struct tl_model *m = f->m;
	const struct tl_cell *c;
	const struct tl_row *r;
	int ri;

	ri = row_of(m, TL_L_IF, -1);
	UT_ASSERT(ri >= 0);
	c = tl_model_cells(m, ri);
	r = tl_model_row(m, ri);
	UT_ASSERT_EQ(r->scale, TL_SCALE_RATE);
	UT_ASSERT(near(c[1].v, 64000));		/* 64 pages in 1 ms */
	UT_ASSERT(near(c[2].v, 32000));
	UT_ASSERT(near(c[3].v, 0));
	UT_ASSERT(c[1].flags & TL_CELL_DATA);
	UT_ASSERT(!(c[3].flags & TL_CELL_DATA));
	UT_ASSERT(near(r->max, 64000));
	UT_ASSERT(near(r->sum, 96));
	/* span lanes: cover is the share of the column in spans */
	ri = row_of(m, TL_L_MEMCG, -1);
	c = tl_model_cells(m, ri);
	UT_ASSERT(near(c[10].cover, 1));
	UT_ASSERT(near(c[30].cover, 0));
	ri = row_of(m, TL_L_PRIORITY, -1);
	UT_ASSERT(near(tl_model_cells(m, ri)[10].v, 3));
	ri = row_of(m, TL_L_MARKS, -1);
	UT_ASSERT(tl_model_cells(m, ri)[50].flags & TL_CELL_OOM);
	/* 16 columns of 4 ms: level 1 */
	tl_model_set_columns(m, 16);
	tl_model_update(m);
	UT_ASSERT_EQ(tl_model_level(m), 1);
	ri = row_of(m, TL_L_IF, -1);
	UT_ASSERT(near(tl_model_cells(m, ri)[0].v, 96 / 0.004));
	/* 10 columns of 6.4 ms: level 1 spread over columns in proportion */
	tl_model_set_columns(m, 10);
	tl_model_update(m);
	ri = row_of(m, TL_L_MEMCG, -1);
	c = tl_model_cells(m, ri);
	/* memcg [10, 30): column 1 = [6.4, 12.8) holds 2.8 ms of it */
	UT_ASSERT(c[1].cover > 0.3 && c[1].cover < 0.6);
	UT_ASSERT(near(c[2].cover, 1));
	/* metric: efficiency on IF = 90 / 96 in column 0 */
	tl_model_set_columns(m, 16);
	tl_model_set_metric(m, TL_M_EFFICIENCY);
	tl_model_update(m);
	ri = row_of(m, TL_L_IF, -1);
	UT_ASSERT_EQ(tl_model_row(m, ri)->scale, TL_SCALE_FRACTION);
	UT_ASSERT(near(tl_model_cells(m, ri)[0].v, 90.0 / 96));
	UT_ASSERT(!(tl_model_cells(m, ri)[5].flags & TL_CELL_DATA));
	/* metric: stall time on span lanes, stall-scanned on lists */
	tl_model_set_metric(m, TL_M_STALL);
	tl_model_update(m);
	ri = row_of(m, TL_L_DIRECT, -1);
	UT_ASSERT(near(tl_model_cells(m, ri)[0].v, 2.0 / 4));
	UT_ASSERT(near(tl_model_row(m, ri)->sum, 4.0 * MS));
	ri = row_of(m, TL_L_IF, -1);
	UT_ASSERT(near(tl_model_row(m, ri)->sum, 32));
	return UT_OK;
}

MODEL_TEST(test_model_raw, "timeline: below the finest bucket, exact re-read")
{
	struct tl_model *m = f->m;
	uint64_t a, b;
	int ri;

	UT_ASSERT(!tl_model_needs_range(m, &a, &b));
	/* 4 columns a ms: below the finest bucket, the events are needed */
	tl_model_cursor_set(m, T0 + 2 * MS);
	tl_model_zoom(m, 2);
	tl_model_update(m);
	UT_ASSERT(tl_model_needs_range(m, &a, &b));
	UT_ASSERT_EQ(b - a, 16 * MS);
	/* before the re-read, level 0 spread over the columns stands in */
	UT_ASSERT_EQ(tl_model_level(m), 0);
	tl_model_raw_begin(m);
	UT_ASSERT_EQ(tl_model_context_at(m, 100, T0 + 2100 * US), RS_CTX_DIRECT);
	UT_ASSERT_EQ(tl_model_context_at(m, 100, T0 + 5 * MS), RS_CTX_DIRECT);	/* its end */
	UT_ASSERT_EQ(tl_model_context_at(m, 100, T0 + 5 * MS + 1), RS_CTX_OTHER);
	UT_ASSERT_EQ(tl_model_context_at(m, 50, T0 + 7 * MS), RS_CTX_KSWAPD);	/* asleep */
	for (int i = 0; i < f->n; i++)
		if (f->ev[i].ts >= a && f->ev[i].ts < b)
			tl_model_raw_event(m, &f->ev[i]);
	tl_model_raw_end(m);
	UT_ASSERT(!tl_model_needs_range(m, &a, &b));
	tl_model_update(m);
	UT_ASSERT_EQ(tl_model_level(m), -1);
	/* exact: isolate IF 32 at 2.1 ms in its 250 us column */
	ri = row_of(m, TL_L_IF, -1);
	{
		uint64_t t0, t1;
		int col = (int)((T0 + 2100 * US - a) / (250 * US));

		tl_model_window(m, &t0, &t1);
		UT_ASSERT(near(tl_model_cells(m, ri)[col].v, 32 / 0.00025));
		UT_ASSERT(near(tl_model_cells(m, ri)[col + 1].v, 0));
	}
	/* direct in the raw window: exact cover from the span list */
	ri = row_of(m, TL_L_DIRECT, -1);
	{
		int col = (int)((T0 + 2 * MS - a) / (250 * US));

		UT_ASSERT(near(tl_model_cells(m, ri)[col].cover, 1));
		UT_ASSERT(near(tl_model_cells(m, ri)[col - 1].cover, 0));
	}
	UT_ASSERT(tl_model_raw_events(m) > 0);
	/* panning asks again */
	tl_model_pan(m, 3);
	UT_ASSERT(tl_model_needs_range(m, &a, &b));
	return UT_OK;
}

MODEL_TEST(test_model_markers_stats, "timeline: markers and window statistics")
{
	struct tl_model *m = f->m;
	struct tl_stats st;
	uint64_t a, b;

	UT_ASSERT(!tl_model_marked_range(m, &a, &b));
	tl_model_cursor_move(m, 12);
	tl_model_set_marker(m, 1);
	tl_model_cursor_move(m, -11);
	tl_model_set_marker(m, 0);
	UT_ASSERT(tl_model_marked_range(m, &a, &b));
	UT_ASSERT_EQ(a, T0 + MS);
	UT_ASSERT_EQ(b, T0 + 12 * MS);
	UT_ASSERT_EQ(tl_model_marker_col(m, 0), 1);
	UT_ASSERT_EQ(tl_model_marker_col(m, 1), 12);
	tl_model_stats(m, a, b, &st);
	UT_ASSERT_EQ(st.res_ns, 0);
	UT_ASSERT(near(st.scanned[RS_LRU_INACTIVE_FILE], 96));
	UT_ASSERT(near(st.scanned[RS_LRU_INACTIVE_ANON], 16));
	UT_ASSERT(near(st.reclaimed[RS_LRU_INACTIVE_FILE], 90));
	UT_ASSERT(near(st.ctx_scanned[RS_CTX_KSWAPD], 64));
	UT_ASSERT(near(st.stall_scanned[RS_LRU_INACTIVE_FILE], 32));
	UT_ASSERT(near(st.writes, 1));
	UT_ASSERT_EQ(st.min_prio, 10);
	UT_ASSERT_EQ(st.episodes[RS_CTX_DIRECT], 1);
	UT_ASSERT_EQ(st.episodes[RS_CTX_MEMCG], 1);
	UT_ASSERT_EQ(st.episodes[RS_CTX_KSWAPD], 1);
	UT_ASSERT_EQ(st.span_ns[RS_CTX_DIRECT], 3 * MS);
	UT_ASSERT_EQ(st.span_ns[RS_CTX_MEMCG], 2 * MS);	/* [10, 12) of [10, 30) */
	UT_ASSERT_EQ(st.worst_ns[RS_CTX_MEMCG], 20 * MS);
	UT_ASSERT_EQ(st.nr_trig, 2);
	UT_ASSERT_STR(tl_model_cgroup_name(m, st.trig[0].cg), "/a");	/* 3 ms > 2 ms */
	UT_ASSERT_EQ(st.trig[0].stall_ns, 3 * MS);
	UT_ASSERT_EQ(st.nr_vic, 1);
	UT_ASSERT_STR(tl_model_cgroup_name(m, st.vic[0].cg), "/b");
	UT_ASSERT_EQ(st.vic[0].scanned, 48);
	UT_ASSERT_EQ(st.nr_tasks, 2);
	/* where reclaim events start, for the details' event list */
	UT_ASSERT_EQ(tl_model_first_activity(m, T0, T0 + 64 * MS), T0 + MS);
	UT_ASSERT_EQ(tl_model_first_activity(m, T0 + 1500 * US, T0 + 3 * MS), T0 + 1500 * US);
	UT_ASSERT_EQ(tl_model_first_activity(m, T0 + 6 * MS, T0 + 10 * MS), T0 + 10 * MS);
	UT_ASSERT_EQ(tl_model_first_activity(m, T0 + 30 * MS, T0 + 45 * MS), T0 + 40 * MS);
	UT_ASSERT_EQ(tl_model_first_activity(m, T0 + 42 * MS, T0 + 64 * MS), T0 + 50 * MS);
	/* not bucket-aligned: rounded, and said so */
	tl_model_stats(m, T0 + 1500 * US, T0 + 2 * MS, &st);
	UT_ASSERT_EQ(st.res_ns, MS);
	tl_model_clear_markers(m);
	UT_ASSERT(!tl_model_marker(m, 0, &a));
	UT_ASSERT_EQ(tl_model_marker_col(m, 0), -1);
	return UT_OK;
}

UT_TEST(test_model_jumps, "timeline: next/previous/worst stall, filter")
{
	struct fx f;
	struct tl_model *m;
	const struct tl_span *s;
	uint64_t a, b;

	m = fx_model(&f, true);
	UT_ASSERT(m);
	UT_ASSERT_EQ(tl_model_threshold(m), 10 * MS);
	UT_ASSERT(!tl_model_selected_span(m));
	UT_ASSERT_EQ(tl_model_jump(m, 1), 0);
	s = tl_model_selected_span(m);
	UT_ASSERT(s && s->kind == RS_CTX_MEMCG);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 10 * MS);
	UT_ASSERT_EQ(tl_model_jump(m, 1), -1);		/* nothing >= 10 ms after it */
	tl_model_set_threshold(m, MS);
	UT_ASSERT_EQ(tl_model_jump(m, 1), 0);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 40 * MS);
	UT_ASSERT_EQ(tl_model_jump(m, -1), 0);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 10 * MS);
	UT_ASSERT_EQ(tl_model_jump(m, -1), 0);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 2 * MS);
	UT_ASSERT_EQ(tl_model_jump(m, -1), -1);		/* kswapd is not a stall */
	/* worst: memcg 20 ms, zoomed to twice its length */
	tl_model_cursor_set(m, T0 + 60 * MS);
	UT_ASSERT_EQ(tl_model_jump_worst(m), 0);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 10 * MS);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	UT_ASSERT(b >= T0 + 40 * MS && b < T0 + 41 * MS);
	tl_model_update(m);
	UT_ASSERT(tl_model_cells(m, row_of(m, TL_L_MEMCG, -1))[tl_model_cursor_col(m)].flags &
		  TL_CELL_SEL);
	/* a filter restricts jumps to matching episodes */
	UT_ASSERT(tl_model_set_filter(m, "/A") > 0);	/* case-insensitive: cgroup /a */
	UT_ASSERT_EQ(tl_model_jump_worst(m), 0);
	UT_ASSERT_EQ(tl_model_selected_span(m)->kind, RS_CTX_DIRECT);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 2 * MS);
	tl_model_set_filter(m, "nothing-matches");
	UT_ASSERT_EQ(tl_model_jump_worst(m), -1);
	UT_ASSERT_EQ(tl_model_jump(m, 1), -1);
	fx_close(&f);
	return UT_OK;
}

MODEL_TEST(test_model_rows, "timeline: lanes, sub-lanes, grouping, filter")
{
	struct tl_model *m = f->m;
	int n, ri;

	/* node reclaim and throttling are empty: hidden */
	UT_ASSERT(row_of(m, TL_L_NODE, -1) < 0);
	UT_ASSERT(row_of(m, TL_L_THROTTLE, -1) < 0);
	UT_ASSERT(row_of(m, TL_L_SOFTLIMIT, -1) < 0);
	UT_ASSERT(row_of(m, TL_L_KSWAPD, -1) >= 0);
	n = tl_model_nrows(m);
	UT_ASSERT_EQ(n, 12);
	tl_model_show_all(m);
	tl_model_update(m);
	UT_ASSERT_EQ(tl_model_nrows(m), TL_L_NR);
	/* hide the selected lane */
	tl_model_select_row(m, -100);
	UT_ASSERT_EQ(tl_model_selected_row(m), 0);
	tl_model_hide_row(m);
	tl_model_update(m);
	UT_ASSERT(row_of(m, TL_L_IA, -1) < 0);
	UT_ASSERT_EQ(tl_model_row(m, tl_model_selected_row(m))->lane, TL_L_AA);
	/* expand direct: one sub-lane per task */
	ri = row_of(m, TL_L_DIRECT, -1);
	tl_model_select_row(m, ri - tl_model_selected_row(m));
	UT_ASSERT(tl_model_toggle_expand(m));
	tl_model_update(m);
	ri = row_of(m, TL_L_DIRECT, 0);
	UT_ASSERT(ri >= 0);
	UT_ASSERT_STR(tl_model_row(m, ri)->name, "memhog:100");
	UT_ASSERT(row_of(m, TL_L_DIRECT, 1) < 0);
	UT_ASSERT(near(tl_model_cells(m, ri)[3].cover, 1));
	UT_ASSERT(near(tl_model_cells(m, ri)[40].cover, 1));
	/* by trigger and by victim cgroup */
	tl_model_set_group(m, TL_G_TRIGGER);
	tl_model_update(m);
	UT_ASSERT_STR(tl_model_row(m, row_of(m, TL_L_DIRECT, 0))->name, "/a");
	tl_model_set_group(m, TL_G_VICTIM);
	tl_model_update(m);
	UT_ASSERT_STR(tl_model_row(m, row_of(m, TL_L_DIRECT, 0))->name, "/b");	/* 3 ms */
	UT_ASSERT_STR(tl_model_row(m, row_of(m, TL_L_DIRECT, 1))->name, "unknown");	/* 1 ms */
	/* scanned metric on a sub-lane: 32 pages spread over [2, 5) */
	tl_model_set_metric(m, TL_M_SCANNED);
	tl_model_update(m);
	ri = row_of(m, TL_L_DIRECT, 0);
	UT_ASSERT(near(tl_model_row(m, ri)->sum, 32));
	UT_ASSERT(near(tl_model_cells(m, ri)[2].v, 32.0 / 3 / 0.001));
	/* collapse again */
	UT_ASSERT_EQ(tl_model_row(m, tl_model_selected_row(m))->lane, TL_L_DIRECT);
	UT_ASSERT(tl_model_toggle_expand(m));
	tl_model_update(m);
	UT_ASSERT(row_of(m, TL_L_DIRECT, 0) < 0);
	/* a filter expands every span lane to its matching sub-lanes */
	tl_model_set_group(m, TL_G_TASK);
	UT_ASSERT_EQ(tl_model_set_filter(m, "reader"), 1);
	UT_ASSERT(row_of(m, TL_L_MEMCG, 0) >= 0);
	UT_ASSERT(row_of(m, TL_L_DIRECT, 0) < 0);
	UT_ASSERT_STR(tl_model_filter(m), "reader");
	UT_ASSERT_EQ(tl_model_set_filter(m, ""), 0);
	return UT_OK;
}

/* MGLRU: the list lanes are its types, as analyze names them; no active-list lanes. */
UT_TEST(test_model_mglru_lanes, "timeline: MGLRU lanes are anon and file, no active lists")
{
	struct fx f;
	struct tl_model *m;
	struct rs_error err;
	int ri;

	UT_ASSERT_EQ(fx_open(&f, 0, true, false), 0);
	tl_index_set_mglru(f.ix, true);
	UT_ASSERT_EQ(rs_analysis_finish(f.a, &err), 0);
	f.m = m = tl_model_new(f.ix);
	UT_ASSERT(m);
	tl_model_set_columns(m, 64);
	tl_model_update(m);
	ri = row_of(m, TL_L_IA, -1);
	UT_ASSERT(ri >= 0);
	UT_ASSERT_STR(tl_model_row(m, ri)->name, "anon");
	UT_ASSERT_STR(tl_model_row(m, row_of(m, TL_L_IF, -1))->name, "file");
	UT_ASSERT_STR(tl_model_lane_name(m, TL_L_IF), "file");
	UT_ASSERT_STR(tl_model_lane_short(m, TL_L_IA), "anon");
	UT_ASSERT_STR(tl_model_lane_name(m, TL_L_DIRECT), "direct");
	UT_ASSERT(row_of(m, TL_L_AA, -1) < 0);
	UT_ASSERT(row_of(m, TL_L_AF, -1) < 0);
	UT_ASSERT_EQ(tl_model_nrows(m), 10);	/* test_model_rows' 12 less the two */
	tl_model_show_all(m);
	tl_model_update(m);
	UT_ASSERT_EQ(tl_model_nrows(m), TL_L_NR - 2);
	UT_ASSERT(row_of(m, TL_L_AA, -1) < 0);
	fx_close(&f);

	/* the classic LRU keeps the kernel's list names */
	m = fx_binned(&f);
	UT_ASSERT(m);
	UT_ASSERT_STR(tl_model_row(m, row_of(m, TL_L_IA, -1))->name, "inactive_anon");
	UT_ASSERT_STR(tl_model_lane_short(m, TL_L_AF), "AF");
	UT_ASSERT(row_of(m, TL_L_AA, -1) >= 0);
	fx_close(&f);
	return UT_OK;
}

UT_TEST(test_model_empty, "timeline: empty trace")
{
	struct tl_index_opts io = { 0 };
	struct rs_error err;
	struct tl_index *ix = tl_index_new(&io, &err);
	struct tl_model *m;
	struct tl_stats st;
	uint64_t a, b;

	UT_ASSERT(ix);
	UT_ASSERT(!tl_index_finish(ix, &err));
	m = tl_model_new(ix);
	UT_ASSERT(m);
	tl_model_set_columns(m, 69);
	tl_model_update(m);
	tl_model_window(m, &a, &b);
	UT_ASSERT(b > a);
	UT_ASSERT_EQ(tl_model_nrows(m), 5);	/* the lists and reclaimed */
	UT_ASSERT(tl_model_cells(m, 0) != NULL);
	UT_ASSERT_EQ(tl_model_jump(m, 1), -1);
	UT_ASSERT_EQ(tl_model_jump_worst(m), -1);
	tl_model_zoom(m, 3);
	tl_model_zoom(m, -3);
	tl_model_pan(m, 5);
	tl_model_cursor_move(m, -3);
	tl_model_update(m);
	tl_model_stats(m, a, b, &st);
	UT_ASSERT_EQ(st.min_prio, -1);
	tl_model_free(m);
	tl_index_free(ix);
	return UT_OK;
}

UT_TEST(test_model_one_event, "timeline: one event")
{
	struct tl_index_opts io = { 0 };
	struct rs_error err;
	struct tl_index *ix = tl_index_new(&io, &err);
	struct rs_event ev = { 0 };
	struct rs_ctx ctx = { .kind = RS_CTX_KSWAPD, .outer = RS_CTX_KSWAPD, .task = 0 };
	struct tl_model *m;
	uint64_t a, b;
	int ri;

	ev.type = RS_EV_LRU_ISOLATE;
	ev.ts = T0;
	ev.pid = 50;
	ev.comm = "kswapd0";
	ev.have = RS_HAVE_LRU;
	ev.isolate.lru = RS_LRU_ACTIVE_ANON;
	ev.isolate.nr_scanned = 7;
	UT_ASSERT(!tl_index_event(ix, &ev, &ctx));
	UT_ASSERT(!tl_index_finish(ix, &err));
	UT_ASSERT_EQ(tl_index_nbuckets(ix, 0), 1);
	m = tl_model_new(ix);
	tl_model_set_columns(m, 20);
	tl_model_update(m);
	tl_model_window(m, &a, &b);
	UT_ASSERT_EQ(a, T0);
	UT_ASSERT_EQ(b, T0 + 20);
	UT_ASSERT_EQ(tl_model_col_width(m), 1);
	/* 1 ns columns are below the 100 ns bucket: a range re-read */
	UT_ASSERT(tl_model_needs_range(m, &a, &b));
	tl_model_raw_begin(m);
	tl_model_raw_event(m, &ev);
	tl_model_raw_end(m);
	tl_model_update(m);
	ri = row_of(m, TL_L_AA, -1);
	UT_ASSERT(near(tl_model_cells(m, ri)[0].v, 7e9));
	UT_ASSERT(tl_index_task(ix, 0)->kswapd);
	tl_model_free(m);
	tl_index_free(ix);
	return UT_OK;
}

/* Cgroup names are the loading stage's memcg rows (memcg_attrib.h), as the index numbers them. */
UT_TEST(test_cgroup_names, "timeline: cgroup names are the loading stage's memcg rows")
{
	struct tl_index_opts o = { 0 };
	struct rs_error err = { 0 };
	struct rs_event ev = { 0 };
	const struct rs_memcgs *mc;
	struct rs_analysis *a;
	struct tl_index *ix;
	struct rs_consumer c;
	int x;

	ix = tl_index_new(&o, &err);
	UT_ASSERT(ix);
	tl_index_consumer(ix, &c);
	a = ut_analysis(&c, NULL, &err);
	UT_ASSERT(a);
	mc = rs_analysis_memcgs(a);
	UT_ASSERT_STR(tl_index_cgroup_name(ix, 0), "unknown");	/* never a bare "?" */
	UT_ASSERT_STR(tl_index_cgroup_name(ix, TL_CG_KSWAPD), "(kswapd)");
	ev.type = RS_EV_CGROUP_MAP;
	ev.ts = T0;
	ev.pid = 1;
	ev.cgroup_map.id = 77;
	ev.cgroup_map.path = "/x";
	rs_analysis_feed(a, &ev);
	x = rs_memcgs_find_id(mc, 77);
	UT_ASSERT(x >= 0);
	UT_ASSERT_STR(tl_index_cgroup_name(ix, TL_CG_ROW0 + (uint32_t)x), "/x");
	UT_ASSERT_EQ(tl_index_cgroup_id(ix, TL_CG_ROW0 + (uint32_t)x), 77);
	/* attach, then a fork inherits */
	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_CGROUP_ATTACH;
	ev.ts = T0 + 1;
	ev.cgroup.id = 88;
	ev.cgroup.path = "/y";
	ev.cgroup.pid = 5;
	rs_analysis_feed(a, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_FORK;
	ev.ts = T0 + 2;
	ev.pid = 5;
	ev.task.pid = 5;
	ev.task.child_pid = 6;
	rs_analysis_feed(a, &ev);
	x = rs_memcgs_task(mc, 6);
	UT_ASSERT(x >= 0);
	UT_ASSERT_EQ(x, rs_memcgs_task(mc, 5));
	UT_ASSERT_STR(tl_index_cgroup_name(ix, TL_CG_ROW0 + (uint32_t)x), "/y");
	UT_ASSERT_EQ(rs_memcgs_task(mc, 7), -1);
	UT_ASSERT_EQ(tl_index_cgroups(ix), TL_CG_ROW0 + 2);
	UT_ASSERT(!rs_analysis_finish(a, &err));
	rs_analysis_free(a);
	tl_index_free(ix);
	return UT_OK;
}

/* Many columns and unsorted spans (the pass still running) give the same answers. */
UT_TEST(test_model_while_loading, "timeline: model while the index is built")
{
	struct fx f;
	struct tl_model *m;
	const struct tl_span *s;

	m = fx_model(&f, false);
	UT_ASSERT(m);
	UT_ASSERT(!tl_index_finished(f.ix));
	tl_model_update(m);
	UT_ASSERT_EQ(tl_model_level(m), 0);
	UT_ASSERT_EQ(tl_model_jump_worst(m), 0);
	s = tl_model_selected_span(m);
	UT_ASSERT(s && s->kind == RS_CTX_MEMCG);
	tl_model_set_threshold(m, 0);
	tl_model_cursor_set(m, T0);
	UT_ASSERT_EQ(tl_model_jump(m, 1), 0);
	UT_ASSERT_EQ(tl_model_cursor_ts(m), T0 + 2 * MS);
	/* finishing changes nothing the model showed but sorts and adds levels */
	UT_ASSERT(!rs_analysis_finish(f.a, &(struct rs_error){ "" }));
	tl_model_update(m);
	UT_ASSERT_EQ(tl_index_levels(f.ix), 2);
	tl_model_set_columns(m, TL_MAX_COLS + 5);
	UT_ASSERT_EQ(tl_model_columns(m), TL_MAX_COLS);
	tl_model_update(m);
	fx_close(&f);
	return UT_OK;
}
