// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/replay_*.c: the replay input reconstructed from synthetic event sequences. Each
 * test feeds a hand-made trace through the analysis with the reconstruction as its consumer and
 * checks the world and the calls against values worked out in the comment above it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "replay_input.h"
#include "unit.h"
#include "ut_events.h"

#define MS 1000000ull
#define T0 (100ull * 1000000000ull)
#define CG_A 4242ull		/* cgroup id of /a */
#define CG_B 4343ull		/* cgroup id of /p/b */

/* The names the recorder writes (vm_event_items): only the ones the matching needs. */
enum { IT_PGSCAN_DIRECT = 33, IT_PGSTEAL_DIRECT = 29, IT_PGSCAN_KSWAPD = 32,
       IT_PGSTEAL_KSWAPD = 28, IT_PSWPIN = 2, IT_PSWPOUT = 3, IT_NR = 40 };

struct tr {
	struct rs_analysis *a;
	struct rs_replay_input *ri;
	struct rs_world *w;
	struct rs_error err;
	uint64_t off;
};

static struct rs_event ev0(struct tr *t, enum rs_ev_type type, uint64_t ts, int pid,
			   const char *comm)
{
	return ut_event(type, ts, pid, comm);
}

/* Events are fed in the order they are made: the offset numbers them. */
static void feed(struct tr *t, struct rs_event *ev)
{
	ev->offset = ++t->off;
	rs_analysis_feed(t->a, ev);
}

static void header(struct tr *t, const char *text)
{
	struct rs_event ev = ev0(t, RS_EV_META, T0, 1, "rs");

	ev.meta.kind = "begin";
	ev.meta.text = text;
	feed(t, &ev);
}

/* A trace fed to the reconstruction, beginning with the recorder's header line, text. */
static int tr_new(struct tr *t, const char *text)
{
	struct rs_consumer c;

	memset(t, 0, sizeof(*t));
	t->ri = rs_replay_input_new(NULL, &t->err);
	if (!t->ri)
		return -1;
	rs_replay_input_consumer(t->ri, &c);
	t->a = ut_analysis(&c, NULL, &t->err);
	if (!t->a)
		return -1;
	header(t, text);
	return 0;
}

static int tr_finish(struct tr *t)
{
	if (rs_analysis_finish(t->a, &t->err))
		return -1;
	t->w = rs_replay_input_world(t->ri, &t->err);
	if (!t->w)
		fprintf(stderr, "  world: %s\n", t->err.msg);
	return t->w ? 0 : -1;
}

/* Frees what the trace holds and empties it: it may be begun again, or freed twice. */
static void tr_free(struct tr *t)
{
	rs_replay_input_free(t->ri);
	rs_analysis_free(t->a);
	memset(t, 0, sizeof(*t));
}

/* A test of a trace t, begun by the test (tr_new() and the like) and freed after it. */
#define TR_TEST(fn, desc) UT_TEST_OWN(fn, desc, struct tr, t, tr_free)

static void item_names(struct tr *t)
{
	static const struct ut_item named[] = {
		{ IT_PGSCAN_DIRECT, "pgscan_direct" }, { IT_PGSTEAL_DIRECT, "pgsteal_direct" },
		{ IT_PGSCAN_KSWAPD, "pgscan_kswapd" }, { IT_PGSTEAL_KSWAPD, "pgsteal_kswapd" },
		{ IT_PSWPIN, "pswpin" }, { IT_PSWPOUT, "pswpout" }, { 0, NULL }
	};
	static const char *names[IT_NR];
	struct rs_event ev;

	ut_name_items(names, IT_NR, "other", named);
	ev = ut_items(T0, 1, "rs", RS_ITEMS_VM_EVENT, IT_NR, names);
	feed(t, &ev);
}

static void cgmap(struct tr *t, uint64_t id, const char *path)
{
	struct rs_event ev = ut_cgroup_map(T0, 1, "rs", id, path);

	feed(t, &ev);
}

/* The common start: a trace with the recorder's header `text`, the item names, memcg 1 "/". */
static int tr_start(struct tr *t, const char *text)
{
	if (tr_new(t, text) < 0)
		return -1;
	item_names(t);
	cgmap(t, 1, "/");
	return 0;
}

/* a cgroup v1 trace, swappiness 60, one node */
static int tr_new_v1(struct tr *t)
{
	return tr_start(t, "swappiness=60 cgroup=v1 nodes=1");
}

/*
 * A cgroup v2 trace with the recorder's header, swappiness 60, one node, the item names, memcg
 * 1 "/", /p and /p/b below it.
 */
static int tr_new_v2_pb(struct tr *t)
{
	if (tr_start(t, "version=1 swappiness=60 mglru=0x0000 cgroup=v2 nodes=1") < 0)
		return -1;
	cgmap(t, CG_A, "/p");
	cgmap(t, CG_B, "/p/b");
	return 0;
}

/* A cgroup v1 trace, swappiness 60, one node, memcg 1 "/" and /a, and no item names. */
static int tr_new_a(struct tr *t)
{
	if (tr_new(t, "swappiness=60 cgroup=v1 nodes=1") < 0)
		return -1;
	cgmap(t, 1, "/");
	cgmap(t, CG_A, "/a");
	return 0;
}

/* memcg_stat in pages (x 4096 bytes) written by task pid; soft/limit in pages, 0 = not set */
static void snap_by(struct tr *t, int pid, uint64_t ts, uint64_t id, const char *path,
		    uint64_t ia, uint64_t aa, uint64_t inf, uint64_t af, uint64_t usage,
		    uint64_t limit, uint64_t soft)
{
	struct rs_event ev = ev0(t, RS_EV_SNAP_MEMCG, ts, pid, "rs");

	ev.snap_memcg.id = id;
	ev.snap_memcg.path = path;
	ev.snap_memcg.usage = usage * 4096;
	ev.snap_memcg.limit = limit ? limit * 4096 : 9223372036854771712ull;
	ev.snap_memcg.soft_limit = soft ? soft * 4096 : 9223372036854771712ull;
	ev.snap_memcg.lru_bytes[0] = ia * 4096;
	ev.snap_memcg.lru_bytes[1] = aa * 4096;
	ev.snap_memcg.lru_bytes[2] = inf * 4096;
	ev.snap_memcg.lru_bytes[3] = af * 4096;
	ev.snap_memcg.swappiness = 60;
	feed(t, &ev);
}

/* memcg_stat written by task 1, the header's writer */
static void snap(struct tr *t, uint64_t ts, uint64_t id, const char *path, uint64_t ia,
		 uint64_t aa, uint64_t inf, uint64_t af, uint64_t usage, uint64_t limit,
		 uint64_t soft)
{
	snap_by(t, 1, ts, id, path, ia, aa, inf, af, usage, limit, soft);
}

static void node_snap(struct tr *t, uint64_t ts, uint64_t ia, uint64_t aa, uint64_t inf,
		      uint64_t af, uint64_t free, uint64_t high)
{
	struct rs_event ev = ev0(t, RS_EV_SNAP_NODE, ts, 1, "rs");

	ev.snap_node.nid = 0;
	ev.snap_node.free_pages = free;
	ev.snap_node.lru_pages[0] = ia;
	ev.snap_node.lru_pages[1] = aa;
	ev.snap_node.lru_pages[2] = inf;
	ev.snap_node.lru_pages[3] = af;
	ev.snap_node.wmark_high = high;
	feed(t, &ev);
}

/* tr_new_v1()'s trace and the node's snapshot at T0: inactive anon and file, free, high. */
static int tr_new_node(struct tr *t, uint64_t ia, uint64_t inf, uint64_t free, uint64_t high)
{
	if (tr_new_v1(t) < 0)
		return -1;
	node_snap(t, T0, ia, 0, inf, 0, free, high);
	return 0;
}

static void lruvec(struct tr *t, uint64_t ts, int pid, uint64_t id, int item, int64_t val)
{
	struct rs_event ev = ut_memcg(RS_EV_MEMCG_LRUVEC, ts, pid, "w", id, item, val);

	feed(t, &ev);
}

static void count(struct tr *t, uint64_t ts, int pid, uint64_t id, int item, int64_t val)
{
	struct rs_event ev = ut_memcg(RS_EV_MEMCG_COUNT, ts, pid, "w", id, item, val);

	feed(t, &ev);
}

/* a memcg_flush_stats by task pid/comm: the recorder ("rs", pid 1) or a kworker (pid 12) */
static void flush_ev(struct tr *t, uint64_t ts, int pid, const char *comm, uint64_t id,
		     bool force, bool needs)
{
	struct rs_event ev = ev0(t, RS_EV_MEMCG_FLUSH, ts, pid, comm);

	ev.flush.id = id;
	ev.flush.force = force;
	ev.flush.needs_flush = needs;
	feed(t, &ev);
}

static void rbegin(struct tr *t, uint64_t ts, int pid, const char *comm, enum rs_reclaim_kind k)
{
	struct rs_event ev = ut_reclaim(RS_EV_RECLAIM_BEGIN, ts, pid, comm, k, 0);

	ev.have = RS_HAVE_ORDER | RS_HAVE_GFP;
	feed(t, &ev);
}

static void rend(struct tr *t, uint64_t ts, int pid, const char *comm, enum rs_reclaim_kind k,
		 uint64_t nr)
{
	struct rs_event ev = ut_reclaim(RS_EV_RECLAIM_END, ts, pid, comm, k, nr);

	feed(t, &ev);
}

static void iso(struct tr *t, uint64_t ts, int pid, const char *comm, int lru, uint64_t req,
		uint64_t scanned)
{
	struct rs_event ev = ut_isolate(ts, pid, comm, lru, req, scanned, scanned);

	ev.isolate.file = -1;
	feed(t, &ev);
}

static void shr(struct tr *t, uint64_t ts, int pid, const char *comm, int prio, bool file,
		uint64_t scanned, uint64_t reclaimed)
{
	struct rs_event ev = ut_shrink_inactive(ts, pid, comm, prio, file ? RS_RECLAIM_WB_FILE :
						RS_RECLAIM_WB_ANON, scanned, reclaimed);

	feed(t, &ev);
}

static void kswapd_ev(struct tr *t, enum rs_ev_type type, uint64_t ts, int order)
{
	struct rs_event ev = ev0(t, type, ts, 45, "kswapd0");

	ev.kswapd.nid = 0;
	ev.kswapd.order = order;
	ev.have = RS_HAVE_NID | RS_HAVE_ORDER;
	feed(t, &ev);
}

/* One isolate..shrink window of task pid on memcg id, with matching counters. */
static void window(struct tr *t, uint64_t ts, int pid, const char *comm, uint64_t id, int lru,
		   uint64_t req, uint64_t scanned, uint64_t reclaimed, int prio, bool kswapd)
{
	iso(t, ts, pid, comm, lru, req, scanned);
	count(t, ts + 1, pid, id, kswapd ? IT_PGSCAN_KSWAPD : IT_PGSCAN_DIRECT, (int64_t)scanned);
	count(t, ts + 2, pid, id, kswapd ? IT_PGSTEAL_KSWAPD : IT_PGSTEAL_DIRECT,
	      (int64_t)reclaimed);
	shr(t, ts + 3, pid, comm, prio, lru >= RS_LRU_INACTIVE_FILE, scanned, reclaimed);
}

/* A call of kind k by task 200 from ts to ts + 1 ms that reclaims nothing. */
static void empty_call(struct tr *t, uint64_t ts, enum rs_reclaim_kind k)
{
	rbegin(t, ts, 200, "w", k);
	rend(t, ts + MS, 200, "w", k, 0);
}

/* An empty memcg call at ts, then the end, the world rewound to its start: /a's world index. */
static int finish_with_call(struct tr *t, uint64_t ts)
{
	empty_call(t, ts, RS_RK_MEMCG);
	if (tr_finish(t))
		return -1;
	rs_world_rewind(t->w);
	return rs_world_find_memcg(t->w, CG_A);
}

/* A window's list, the pages it asked for, scanned and reclaimed, and its priority. */
struct win {
	int lru;
	uint64_t req, scanned, reclaimed;
	int prio;
};

#define NR_WIN(w) (sizeof(w) / sizeof((w)[0]))
/* in memcg_calls()'s table: the call ends, the next row begins another */
#define CALL_END { .lru = -1 }

/*
 * Memcg calls on /a by task 200, from T0 + 1 ms and 20 ms apart, one per run of w's rows up to a
 * CALL_END: a window per row, 1 ms apart from the call's start + 1 ms, and its end 1 ms after
 * the last, reclaiming what the windows did. Then the end of the trace.
 */
static int memcg_calls(struct tr *t, const struct win *w, size_t n)
{
	for (uint64_t start = T0 + 1 * MS; n; start += 20 * MS) {
		uint64_t ts = start, nr = 0;

		rbegin(t, ts, 200, "w", RS_RK_MEMCG);
		for (; n && w->lru >= 0; w++, n--) {
			ts += MS;
			window(t, ts, 200, "w", CG_A, w->lru, w->req, w->scanned, w->reclaimed,
			       w->prio, false);
			nr += w->reclaimed;
		}
		rend(t, ts + MS, 200, "w", RS_RK_MEMCG, nr);
		if (n) {
			w++;	/* the CALL_END */
			n--;
		}
	}
	return tr_finish(t);
}

/* One kswapd run on the root from ts: its wake, a window per row 1 ms apart, its sleep. */
static void kswapd_run(struct tr *t, uint64_t ts, const struct win *w, size_t n)
{
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, ts, 0);
	for (size_t i = 0; i < n; i++) {
		ts += MS;
		window(t, ts, 45, "kswapd0", 1, w[i].lru, w[i].req, w[i].scanned, w[i].reclaimed,
		       w[i].prio, true);
	}
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, ts + MS, 0);
}

static const struct rs_reclaim_call *call_of(struct tr *t, size_t i)
{
	return rs_world_call(t->w, i);
}

/*
 * The v1 trace of one kswapd run: the node's inactive anon and file pages (no active ones),
 * free pages and high watermark at T0, the run's windows from T0 + 1 ms; then its end.
 */
static int kswapd_trace(struct tr *t, uint64_t ia, uint64_t inf, uint64_t free, uint64_t high,
			const struct win *w, size_t n)
{
	if (tr_new_node(t, ia, inf, free, high) < 0)
		return -1;
	kswapd_run(t, T0 + 1 * MS, w, n);
	return tr_finish(t);
}

/*
 * The start of a v1 trace of /a: its inactive anon and file pages, usage, limit and soft limit
 * (0: none) at T0, and the node's inactive anon and file pages then (free 100, high 200).
 */
static int a_trace(struct tr *t, uint64_t ia, uint64_t inf, uint64_t usage, uint64_t limit,
		   uint64_t soft, uint64_t node_ia, uint64_t node_inf)
{
	if (tr_new_v1(t) < 0)
		return -1;
	cgmap(t, CG_A, "/a");
	snap(t, T0, CG_A, "/a", ia, 0, inf, 0, usage, limit, soft);
	node_snap(t, T0, node_ia, 0, node_inf, 0, 100, 200);
	return 0;
}

/* Memcg m's inactive file pages in the world advanced to ts (it only moves forward). */
static uint64_t file_at(struct tr *t, uint64_t ts, int m)
{
	rs_world_advance(t->w, ts);
	return rs_world_lru(t->w, m, 0, RS_LRU_INACTIVE_FILE);
}

/*
 * A v1 trace whose /a (limit 1000 pages) is in a memcg limit reclaim by task 200 ("w"), begun
 * at 10 ms, that took one window of 32 inactive file pages at 11 ms, 30 reclaimed at priority
 * 12; the call's end is the caller's.
 */
static int memcg_a_call(struct tr *t)
{
	if (tr_start(t, "version=1 swappiness=60 mglru=0x0000 cgroup=v1 nodes=1"))
		return -1;
	cgmap(t, CG_A, "/a");
	snap(t, T0 + 1 * MS, CG_A, "/a", 10, 0, 500, 20, 600, 1000, 0);
	node_snap(t, T0 + 2 * MS, 100, 10, 2000, 300, 50000, 3000);
	rbegin(t, T0 + 10 * MS, 200, "w", RS_RK_MEMCG);
	window(t, T0 + 11 * MS, 200, "w", CG_A, RS_LRU_INACTIVE_FILE, 32, 32, 30, 12, false);
	return 0;
}

/*
 * A memcg limit reclaim of /a (limit 1000 pages): one window of 32 inactive file pages, 30
 * reclaimed at priority 12, counters for /a. The call: memcg, target /a (world index 1), what
 * it freed (30) is under 32 so it wants 32; recorded IF 32/30, the victim /a exactly.
 */
TR_TEST(test_memcg_call, "replay input: a memcg call, its victim, target and goal")
{
	const struct rs_reclaim_call *c;
	const struct rs_ri_report *r;

	UT_ASSERT(memcg_a_call(t) == 0);
	rend(t, T0 + 12 * MS, 200, "w", RS_RK_MEMCG, 30);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(r->calls[RS_CALL_MEMCG], 1);
	UT_ASSERT_EQ(r->victim_exact, 1);
	c = call_of(t, 0);
	UT_ASSERT(c != NULL);
	UT_ASSERT_EQ(c->ctx, RS_CALL_MEMCG);
	UT_ASSERT_STR(rs_world_memcg(t->w, c->target)->path, "/a");
	UT_ASSERT_EQ(c->nr_to_reclaim, 32);
	UT_ASSERT_EQ(c->rec.scanned[RS_LRU_INACTIVE_FILE], 32);
	UT_ASSERT_EQ(c->rec.reclaimed[RS_LRU_INACTIVE_FILE], 30);
	UT_ASSERT_EQ(c->rec.nr_memcg, 1);
	UT_ASSERT_EQ(c->rec.memcg[0].memcg, c->target);
	UT_ASSERT_EQ(c->rec.prio_lowest, 12);
	UT_ASSERT_EQ(c->rec.rounds, 1);
	UT_ASSERT(rs_replay_input_refusal(t->ri) == NULL);
	return UT_OK;
}

/*
 * The trace ends inside a memcg call of /a, after an isolate of 16 inactive file pages whose
 * shrink event never came (the 6.1 swapmax recording of sweep4: khugepaged's, 32 pages): the
 * call is cut at the end and holds the window's pages, as analyze counts them (lru_isolate
 * nr_scanned), with the victim its scan counter names.
 */
TR_TEST(test_memcg_call_cut_window, "replay input: a window the end cuts counts in its call")
{
	const struct rs_reclaim_call *c;
	const struct rs_ri_report *r;

	UT_ASSERT(memcg_a_call(t) == 0);
	iso(t, T0 + 12 * MS, 200, "w", RS_LRU_INACTIVE_FILE, 16, 16);
	count(t, T0 + 12 * MS + 1, 200, CG_A, IT_PGSCAN_DIRECT, 16);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(r->calls_cut_end, 1);
	c = call_of(t, 0);
	UT_ASSERT(c != NULL);
	UT_ASSERT_EQ(c->rec.scanned[RS_LRU_INACTIVE_FILE], 48);
	UT_ASSERT_EQ(c->rec.reclaimed[RS_LRU_INACTIVE_FILE], 30);
	UT_ASSERT_EQ(c->rec.nr_memcg, 1);
	UT_ASSERT_STR(rs_world_memcg(t->w, c->rec.memcg[0].memcg)->path, "/a");
	UT_ASSERT_EQ(c->rec.memcg[0].scanned[RS_LRU_INACTIVE_FILE], 48);
	return UT_OK;
}

/*
 * Sizes from deltas: /a made before the trace, snapshots IF 100 (no delta yet) and IF 110
 * after a +10 delta: both give snapshot - deltas = 100, the offset. Deltas are coalesced
 * between invocations (the world is read at their starts): at the call at 30 ms, after the -40
 * delta at 20 ms, the world says 100 + 10 - 40 = 70. The root's own IF at the node snapshot at
 * 5 ms: 1000 - (offset 100 + deltas 10) = 890.
 */
TR_TEST(test_delta_offset_and_root, "replay input: delta offsets and the root's own lists")
{
	int a;

	UT_ASSERT(tr_new_a(t) == 0);
	snap(t, T0 + 1 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	lruvec(t, T0 + 2 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, 10);
	snap(t, T0 + 3 * MS, CG_A, "/a", 0, 0, 110, 0, 110, 0, 0);
	node_snap(t, T0 + 5 * MS, 0, 0, 1000, 0, 5000, 100);
	lruvec(t, T0 + 20 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	/* a call after it, so the deltas are flushed into an update before it */
	a = finish_with_call(t, T0 + 30 * MS);
	UT_ASSERT(a > 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->memcg[a].offset[RS_LRU_INACTIVE_FILE], 100);
	UT_ASSERT_EQ(file_at(t, T0 + 10 * MS, 0), 890);
	UT_ASSERT_EQ(file_at(t, T0 + 30 * MS, a), 70);
	return UT_OK;
}

/*
 * Cgroup v2, 7.1+: /p (limit 1000) and its child /p/b (CG_B). memory.stat is hierarchical: /p
 * reads IF 1000 at 1 ms, /p/b IF 700 at 2 ms and 650 at 102 ms, /p 900 at 101 ms: /p's own
 * lists are 1000 - 700 = 300, then 900 - 650 = 250 (each child snapshot nearest in time); the
 * stats lruvec_page_state() reads are what the reads showed (/p 900, /p/b 650). A memcg call
 * whose begin names /p (memcg_id) and which scanned only /p/b: the kernel's reclaim root /p,
 * not the victims' /p/b.
 */
TR_TEST(test_v2_own_and_memcg_id, "replay input: v2 own lists, the kernel's reclaim root")
{
	const struct rs_reclaim_call *c;
	struct rs_event ev;
	int p, b;

	UT_ASSERT(tr_new_v2_pb(t) == 0);
	snap(t, T0 + 1 * MS, CG_A, "/p", 0, 0, 1000, 0, 1000, 1000, 0);
	snap(t, T0 + 2 * MS, CG_B, "/p/b", 0, 0, 700, 0, 700, 0, 0);
	snap(t, T0 + 101 * MS, CG_A, "/p", 0, 0, 900, 0, 900, 1000, 0);
	snap(t, T0 + 102 * MS, CG_B, "/p/b", 0, 0, 650, 0, 650, 0, 0);
	ev = ev0(t, RS_EV_RECLAIM_BEGIN, T0 + 110 * MS, 200, "w");
	ev.reclaim.kind = RS_RK_MEMCG;
	ev.reclaim.memcg_id = CG_A;
	ev.have = RS_HAVE_ORDER | RS_HAVE_GFP | RS_HAVE_MEMCG_ID;
	feed(t, &ev);
	window(t, T0 + 111 * MS, 200, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, 32, 32, 12, false);
	rend(t, T0 + 112 * MS, 200, "w", RS_RK_MEMCG, 32);
	UT_ASSERT(tr_finish(t) == 0);
	p = rs_world_find_memcg(t->w, CG_A);
	b = rs_world_find_memcg(t->w, CG_B);
	UT_ASSERT(p > 0 && b > 0);
	rs_world_rewind(t->w);
	UT_ASSERT_EQ(file_at(t, T0 + 50 * MS, p), 300);
	UT_ASSERT_EQ(rs_world_lru(t->w, b, 0, RS_LRU_INACTIVE_FILE), 700);
	UT_ASSERT_EQ(file_at(t, T0 + 105 * MS, p), 250);
	/* the stats the kernel reads are hierarchical, as memory.stat showed them */
	UT_ASSERT_EQ(rs_world_lru_stat(t->w, p, 0, RS_LRU_INACTIVE_FILE), 900);
	UT_ASSERT_EQ(rs_world_lru_stat(t->w, b, 0, RS_LRU_INACTIVE_FILE), 650);
	c = call_of(t, 0);
	UT_ASSERT_EQ(c->target, p);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->target_src[RS_RI_TGT_KERNEL], 1);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->target_src[RS_RI_TGT_VICTIMS], 0);
	return UT_OK;
}

/*
 * The root memcg's own deltas (a global recording: every task in the root) move the root's
 * lists between node snapshots, which set them: IF 1000 at 5 ms, -100 at 10 ms: 900 for the
 * call at 20 ms (the snapshot alone said 1000); the snapshot at 30 ms sets 2000 whatever the
 * deltas said, +5 after it: 2005 at 40 ms. The -100 goes out before the second snapshot (the
 * call flushed it), and a delta pending at a snapshot goes out before it: -7 at 41 ms and a
 * snapshot of 3000 at 42 ms leave 3000 at 50 ms, not 2993.
 */
TR_TEST(test_root_deltas, "replay input: the root's own deltas between node snapshots")
{
	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v2 nodes=1") == 0);
	cgmap(t, 1, "/");
	node_snap(t, T0 + 5 * MS, 0, 0, 1000, 0, 5000, 100);
	lruvec(t, T0 + 10 * MS, 300, 1, RS_LRU_INACTIVE_FILE, -100);
	empty_call(t, T0 + 20 * MS, RS_RK_DIRECT);
	node_snap(t, T0 + 30 * MS, 0, 0, 2000, 0, 5000, 100);
	lruvec(t, T0 + 31 * MS, 300, 1, RS_LRU_INACTIVE_FILE, 5);
	rbegin(t, T0 + 40 * MS, 200, "w", RS_RK_DIRECT);
	rend(t, T0 + 40 * MS + 1, 200, "w", RS_RK_DIRECT, 0);
	lruvec(t, T0 + 41 * MS, 300, 1, RS_LRU_INACTIVE_FILE, -7);
	node_snap(t, T0 + 42 * MS, 0, 0, 3000, 0, 5000, 100);
	empty_call(t, T0 + 50 * MS, RS_RK_DIRECT);
	UT_ASSERT(tr_finish(t) == 0);
	rs_world_rewind(t->w);
	UT_ASSERT_EQ(file_at(t, T0 + 20 * MS, 0), 900);
	UT_ASSERT_EQ(file_at(t, T0 + 40 * MS, 0), 2005);
	UT_ASSERT_EQ(file_at(t, T0 + 50 * MS, 0), 3000);
	return UT_OK;
}

/*
 * Stats flushes (memcg:memcg_flush_stats). /a's memory.stat read at 2 ms shows 100 inactive file
 * pages: what lruvec_page_state() reads from then on. The lists lose 40 at 5 ms; the root's
 * periodic flush (force) at 8 ms makes the stats read 60; the lists lose 10 more at 8.5 ms, and
 * a flush asked at 9 ms with too few updates pending (neither force nor needs_flush) flushes
 * nothing: at the call (10 ms) the lists hold 50 and the stats still read 60. One flush counted.
 */
TR_TEST(test_stats_flush, "replay input: memcg_flush_stats events refresh the stats the kernel reads")
{
	int a;

	UT_ASSERT(tr_new_v1(t) == 0);
	cgmap(t, CG_A, "/a");
	snap(t, T0 + 2 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	lruvec(t, T0 + 5 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	flush_ev(t, T0 + 8 * MS, 12, "kworker", 1, true, true);
	lruvec(t, T0 + 8 * MS + 500000, 300, CG_A, RS_LRU_INACTIVE_FILE, -10);
	flush_ev(t, T0 + 9 * MS, 12, "kworker", CG_A, false, false);
	a = finish_with_call(t, T0 + 10 * MS);
	UT_ASSERT(a > 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->stats_flushes, 1);
	rs_world_advance(t->w, T0 + 3 * MS);
	UT_ASSERT_EQ(rs_world_lru_stat(t->w, a, 0, RS_LRU_INACTIVE_FILE), 100);
	UT_ASSERT_EQ(file_at(t, T0 + 10 * MS, a), 50);
	UT_ASSERT_EQ(rs_world_lru_stat(t->w, a, 0, RS_LRU_INACTIVE_FILE), 60);
	return UT_OK;
}

/*
 * A memory.stat read flushes only when enough updates are pending, and a trace with the flush
 * events says which reads did (the memcg_flush_stats just before them). /a refaults 5 file
 * pages at 1 ms and its stats are flushed at 2 ms (needs_flush) before its read: the refaults
 * read 5. 3 more at 3 ms; at 4 ms a flush that flushed nothing (too few updates pending) and
 * /a's read: still 5 at 5 ms. A trace without flush events takes each read for a flush: 8.
 */
TR_TEST(test_read_without_flush, "replay input: a memory.stat read that flushed nothing")
{
	static const char *const names[6] = { "nr_inactive_anon", "nr_active_anon",
					      "nr_inactive_file", "nr_active_file",
					      "workingset_activate_anon",
					      "workingset_activate_file" };

	for (int events = 1; events >= 0; events--) {
		struct rs_event ev;
		int a;

		UT_ASSERT(tr_new_v1(t) == 0);
		ev = ut_items(T0, 1, "rs", RS_ITEMS_NODE_STAT, 6, names);
		feed(t, &ev);
		cgmap(t, CG_A, "/a");
		snap(t, T0, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
		lruvec(t, T0 + 1 * MS, 300, CG_A, 5, 5);
		if (events)
			flush_ev(t, T0 + 2 * MS, 12, "kworker", CG_A, false, true);
		snap(t, T0 + 2 * MS + 1000, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
		lruvec(t, T0 + 3 * MS, 300, CG_A, 5, 3);
		if (events)
			flush_ev(t, T0 + 4 * MS, 12, "kworker", CG_A, false, false);
		snap(t, T0 + 4 * MS + 1000, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
		a = finish_with_call(t, T0 + 10 * MS);
		UT_ASSERT(a > 0);
		UT_ASSERT_EQ(rs_replay_input_report(t->ri)->flush_events, events ? 2 : 0);
		rs_world_advance(t->w, T0 + 2 * MS + 500000);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, a, 0, 1), 5);
		rs_world_advance(t->w, T0 + 5 * MS);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, a, 0, 1), events ? 5 : 8);
		tr_free(t);
	}
	return UT_OK;
}

/*
 * A memcg_stat marker's values are as of the recorder's memory.stat read, which flushed first
 * (the recorder's pid): the marker can follow it by 170 ms. /a reads IF 100 at 0 (before its
 * deltas: the offset); the recorder's read of /a flushes at 2 ms; a reclaim takes 40 file
 * pages at 3 ms; the marker at 4 ms shows what the read saw, 100. At the call (5 ms) the lists
 * hold 60: the snapshot is as of 2 ms, when the deltas said 100 too. Taken as of the marker it
 * would say the deltas missed 40 pages and re-anchor to 100. A flush by another task (a
 * kworker) does not time the recorder's read: the same trace with it says 100.
 */
TR_TEST(test_snapshot_at_read, "replay input: a memory.stat marker is as of its read")
{
	for (int recorder = 1; recorder >= 0; recorder--) {
		int a;

		UT_ASSERT(tr_new_v1(t) == 0);
		cgmap(t, CG_A, "/a");
		snap(t, T0, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
		flush_ev(t, T0 + 2 * MS, recorder ? 1 : 12, recorder ? "rs" : "kworker", CG_A,
			 false, false);
		lruvec(t, T0 + 3 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
		snap(t, T0 + 4 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
		a = finish_with_call(t, T0 + 5 * MS);
		UT_ASSERT(a > 0);
		UT_ASSERT_EQ(rs_replay_input_report(t->ri)->snapshots_at_read, recorder);
		UT_ASSERT_EQ(file_at(t, T0 + 5 * MS, a), recorder ? 60 : 100);
		tr_free(t);
	}
	return UT_OK;
}

/*
 * The recorder reads memory.stat twice per marker (the lists, then the refault counters), each
 * read flushing first: the lists are as of the first flush. /a reads IF 100 at 0; the
 * recorder's list read flushes at 2 ms (needs_flush); a reclaim takes 40 file pages at 3 ms; its
 * refault read flushes again at 3.5 ms (needs_flush: the stats now read 60); the marker at 4 ms
 * shows the lists as the first read saw them, 100. At the call (5 ms) the lists hold 60 and the
 * stats read 60. Timed at the second flush, the snapshot would say the deltas missed 40 pages
 * and re-anchor lists and stats to 100 (the 7.2 multi trace: /rs_c's reads at 34.890 s and
 * 34.903 s, 453 file pages apart).
 */
TR_TEST(test_snapshot_first_read, "replay input: a marker is as of the first of two recorder reads")
{
	int a;

	UT_ASSERT(tr_new_v1(t) == 0);
	cgmap(t, CG_A, "/a");
	snap(t, T0, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	flush_ev(t, T0 + 2 * MS, 1, "rs", CG_A, false, true);
	lruvec(t, T0 + 3 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	flush_ev(t, T0 + 3 * MS + 500000, 1, "rs", CG_A, false, true);
	snap(t, T0 + 4 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	a = finish_with_call(t, T0 + 5 * MS);
	UT_ASSERT(a > 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->snapshots_at_read, 1);
	UT_ASSERT_EQ(file_at(t, T0 + 5 * MS, a), 60);
	UT_ASSERT_EQ(rs_world_lru_stat(t->w, a, 0, RS_LRU_INACTIVE_FILE), 60);
	return UT_OK;
}

/*
 * record's snapshot thread (task 2 here) writes the markers while it runs; its main thread
 * (task 1, the header's writer) writes the final snapshot after the thread has ended
 * (rec_snapshot_stop()). That snapshot is as of the main thread's read too: the flush at 2 ms
 * saw 100 inactive file pages, -40 followed, the marker at 4 ms says 100, and the call at 5 ms
 * sees 60 (timed at the marker: re-anchored to 100). A workload's flush (task 300) is no read.
 */
TR_TEST(test_snapshot_main_thread_read,
	"replay input: the final snapshot, from record's main thread, is as of its read")
{
	int a;

	UT_ASSERT(tr_new_v1(t) == 0);
	cgmap(t, CG_A, "/a");
	snap_by(t, 2, T0, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	flush_ev(t, T0 + 1 * MS, 300, "wl", CG_A, false, true);
	flush_ev(t, T0 + 2 * MS, 1, "rs", CG_A, false, true);
	lruvec(t, T0 + 3 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	snap_by(t, 1, T0 + 4 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	a = finish_with_call(t, T0 + 5 * MS);
	UT_ASSERT(a > 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->memcg_snapshots, 2);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->snapshots_at_read, 1);
	UT_ASSERT_EQ(file_at(t, T0 + 5 * MS, a), 60);
	return UT_OK;
}

/*
 * Re-anchoring: /a made before the trace; the first snapshot after its first delta sets the
 * offset: IF 100 after +10 gives 90. Then +20 and a snapshot reading 150 where offset + deltas
 * say 90 + 30 = 120: the deltas missed 30 pages. The snapshot adds 30 (drift 150 - 30 - 90 = 30,
 * nothing added before), and the -40 after it leaves 150 - 40 = 110 for the call at 30 ms
 * (without re-anchoring: 80; the world is exact at call starts only: deltas are coalesced
 * until the next call). A second snapshot agreeing with the sizes (110 at 25 ms) adds
 * nothing: one re-anchoring, largest disagreement 30. The root's own IF at the node snapshot
 * at 12 ms, after the re-anchoring: 1000 - (90 + 30 + 30) = 850.
 */
TR_TEST(test_delta_reanchor, "replay input: snapshots re-anchor the deltas")
{
	const struct rs_ri_memcg *m;
	int a;

	UT_ASSERT(tr_new_a(t) == 0);
	lruvec(t, T0 + 1 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, 10);
	snap(t, T0 + 2 * MS, CG_A, "/a", 0, 0, 100, 0, 100, 0, 0);
	lruvec(t, T0 + 5 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, 20);
	snap(t, T0 + 10 * MS, CG_A, "/a", 0, 0, 150, 0, 150, 0, 0);
	node_snap(t, T0 + 12 * MS, 0, 0, 1000, 0, 5000, 100);
	lruvec(t, T0 + 20 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	snap(t, T0 + 25 * MS, CG_A, "/a", 0, 0, 110, 0, 110, 0, 0);
	a = finish_with_call(t, T0 + 30 * MS);
	UT_ASSERT(a > 0);
	m = &rs_replay_input_report(t->ri)->memcg[a];
	UT_ASSERT_EQ(m->offset[RS_LRU_INACTIVE_FILE], 90);
	UT_ASSERT_EQ(m->anchors, 1);
	UT_ASSERT_EQ(m->disagree_max[RS_LRU_INACTIVE_FILE], 30);
	UT_ASSERT_EQ(file_at(t, T0 + 12 * MS, 0), 850);
	UT_ASSERT_EQ(file_at(t, T0 + 30 * MS, a), 110);
	return UT_OK;
}

/*
 * kswapd: one call per kswapd_wake (one balance_pgdat() run), ended by the next wake or the
 * sleep. Its nr_to_reclaim is where the run was balanced: past what it had freed before its last
 * pass. Run 1 frees 20 at priority 12 and 12 at priority 11: not balanced after 20, balanced
 * after 32: 21. Run 2 frees 64 in its only pass: balanced after it, 1. Run 3 frees nothing:
 * balanced at once, 0.
 */
TR_TEST(test_kswapd_runs, "replay input: one kswapd call per balance_pgdat run")
{
	UT_ASSERT(tr_new_node(t, 0, 10000, 100, 200) == 0);
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 1 * MS, 0);
	window(t, T0 + 2 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 32, 32, 20, 12, true);
	window(t, T0 + 3 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 32, 32, 12, 11, true);
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 4 * MS, 0);
	window(t, T0 + 5 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 32, 64, 64, 11, true);
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 6 * MS, 0);
	window(t, T0 + 7 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 32, 32, 0, 12, true);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, T0 + 8 * MS, 0);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls[RS_CALL_KSWAPD], 3);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 21);
	UT_ASSERT_EQ(call_of(t, 0)->ts_end, T0 + 4 * MS);
	UT_ASSERT_EQ(call_of(t, 1)->nr_to_reclaim, 1);
	UT_ASSERT_EQ(call_of(t, 2)->nr_to_reclaim, 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->kswapd_overshoot, 32 - 21 + 64 - 1);
	UT_ASSERT_EQ(call_of(t, 1)->rec.prio_lowest, 11);
	UT_ASSERT_EQ(call_of(t, 1)->nid, 0);
	return UT_OK;
}

/*
 * Direct reclaim of a costly order (reclaim/compaction): shrink_node() went round again at
 * the same priority until compaction was ready (should_continue_reclaim(), a per-zone test),
 * so the call's compact_goal is one past what it had freed before its last round. A round
 * is a new pass: the same list again after a request under 32 (its scan target ran out).
 * Call 1: three rounds at priority 12 of one 512-page folio each (30 requested, as the 7.2
 * kswapd-fail trace's THP faults): 1024 + 1. Call 2: one round: 1. Call 3: 20 at priority
 * 12, then 12 at 11: 21. Call 4 freed nothing: 0. nr_to_reclaim stays SWAP_CLUSTER_MAX.
 */
TR_TEST(test_direct_compact_goal, "replay input: direct reclaim's rounds until compaction")
{
	UT_ASSERT(tr_new_node(t, 0, 100000, 100, 200) == 0);
	rbegin(t, T0 + 1 * MS, 200, "w", RS_RK_DIRECT);
	for (int k = 0; k < 3; k++)
		window(t, T0 + 2 * MS + (uint64_t)k * 10, 200, "w", 1, RS_LRU_INACTIVE_FILE, 30,
		       512, 512, 12, false);
	rend(t, T0 + 3 * MS, 200, "w", RS_RK_DIRECT, 1536);
	rbegin(t, T0 + 4 * MS, 200, "w", RS_RK_DIRECT);
	window(t, T0 + 5 * MS, 200, "w", 1, RS_LRU_INACTIVE_FILE, 30, 512, 512, 12, false);
	rend(t, T0 + 6 * MS, 200, "w", RS_RK_DIRECT, 512);
	rbegin(t, T0 + 7 * MS, 200, "w", RS_RK_DIRECT);
	window(t, T0 + 8 * MS, 200, "w", 1, RS_LRU_INACTIVE_FILE, 30, 30, 20, 12, false);
	window(t, T0 + 9 * MS, 200, "w", 1, RS_LRU_INACTIVE_FILE, 32, 32, 12, 11, false);
	rend(t, T0 + 10 * MS, 200, "w", RS_RK_DIRECT, 32);
	rbegin(t, T0 + 11 * MS, 200, "w", RS_RK_DIRECT);
	window(t, T0 + 12 * MS, 200, "w", 1, RS_LRU_INACTIVE_FILE, 30, 30, 0, 12, false);
	rend(t, T0 + 13 * MS, 200, "w", RS_RK_DIRECT, 0);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls[RS_CALL_DIRECT], 4);
	UT_ASSERT_EQ(call_of(t, 0)->compact_goal, 1025);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 32);
	UT_ASSERT_EQ(call_of(t, 0)->rec.scanned[RS_LRU_INACTIVE_FILE], 1536);
	UT_ASSERT_EQ(call_of(t, 1)->compact_goal, 1);
	UT_ASSERT_EQ(call_of(t, 2)->compact_goal, 21);
	UT_ASSERT_EQ(call_of(t, 3)->compact_goal, 0);
	return UT_OK;
}

/*
 * Per-pass windows: a kswapd run with passes at priority 12 (32 scanned, all reclaimed) and 10
 * (64 scanned, 16 reclaimed). A model pass at 12 sees 32/32, at 10 16/64; at 11 (no recorded
 * pass) and with no priority, the whole run: 48/96.
 */
TR_TEST(test_pass_windows, "replay input: reclaimability per priority pass")
{
	static const struct win run[] = {
		{ RS_LRU_INACTIVE_FILE, 32, 32, 32, 12 }, { RS_LRU_INACTIVE_FILE, 32, 64, 16, 10 },
	};
	struct rs_rates rt;

	UT_ASSERT(kswapd_trace(t, 0, 10000, 100, 200, run, NR_WIN(run)) == 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls[RS_CALL_KSWAPD], 1);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_FILE, 12, &rt);
	UT_ASSERT_EQ(rt.src, RS_RATE_WINDOW);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_FILE, 10, &rt);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE / 4);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_FILE, 11, &rt);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE / 2);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_FILE, -1, &rt);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE / 2);
	/* the report counts the run's window once, not its passes again */
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->obs[RS_LRU_INACTIVE_FILE].windows, 1);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->obs[RS_LRU_INACTIVE_FILE].pages.scanned, 96);
	return UT_OK;
}

/*
 * A 7.x kswapd run's moments the model's refault and stats reads follow: woken at T0 + 1 ms,
 * priority 12's window at + 2 ms (no flush of kswapd's before it), kswapd's flush at + 7 ms
 * (priority 11's prepare_scan_control()), priority 11's window at + 9 ms, balance_pgdat_end
 * at + 14 ms and the sleep at + 20 ms: the call ends at the sleep, its balance_pgdat() at
 * + 14 ms (rs_recorded.run_end) and priority 11 read the stats at + 7 ms (prio_begin).
 */
TR_TEST(test_kswapd_run_moments, "replay input: kswapd's balance_pgdat end and pass flushes")
{
	const struct rs_reclaim_call *c;
	struct rs_event ev;

	UT_ASSERT(tr_new_node(t, 0, 10000, 100, 200) == 0);
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 1 * MS, 0);
	window(t, T0 + 2 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 2, 32, 32, 12, true);
	flush_ev(t, T0 + 7 * MS, 45, "kswapd0", 1, false, true);
	window(t, T0 + 9 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 4, 32, 32, 11, true);
	ev = ev0(t, RS_EV_BALANCE_END, T0 + 14 * MS, 45, "kswapd0");
	ev.balance.nid = 0;
	ev.balance.nr_reclaimed = 64;
	feed(t, &ev);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, T0 + 20 * MS, 0);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls[RS_CALL_KSWAPD], 1);
	c = call_of(t, 0);
	UT_ASSERT(c);
	UT_ASSERT_EQ(c->ts_end, T0 + 20 * MS);
	UT_ASSERT_EQ(c->rec.run_end, T0 + 14 * MS);
	UT_ASSERT_EQ(c->rec.prio_begin[12], 0);
	UT_ASSERT_EQ(c->rec.prio_begin[11], T0 + 7 * MS);
	UT_ASSERT_EQ(c->rec.prio_end[11], T0 + 9 * MS + 3);
	return UT_OK;
}

/*
 * Folios of a list, from its isolates. Inactive anon: 1 page for 1, 534 for 32 (22 pages and
 * a 512-page THP that crossed the request), 32 for 32: 567 pages, 512 of them in one THP, 55
 * single pages: folio 512 and a share of 1 in 56 folios (the model's expected take of a
 * request: docs/models.md). Inactive file: 512 for 3 and 16 for 1, folios of two sizes: not two
 * classes, the page-weighted average (512 x 512 + 16 x 16) / 528 = 497 for every folio.
 */
TR_TEST(test_folio_classes, "replay input: single pages and THPs, folios of two sizes")
{
	static const struct win run[] = {
		{ RS_LRU_INACTIVE_ANON, 1, 1, 0, 12 }, { RS_LRU_INACTIVE_ANON, 32, 534, 0, 12 },
		{ RS_LRU_INACTIVE_ANON, 32, 32, 0, 12 }, { RS_LRU_INACTIVE_FILE, 3, 512, 512, 12 },
		{ RS_LRU_INACTIVE_FILE, 1, 16, 16, 12 },
	};
	struct rs_rates rt;

	UT_ASSERT(kswapd_trace(t, 10000, 10000, 100, 200, run, NR_WIN(run)) == 0);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_ANON, -1, &rt);
	UT_ASSERT_EQ(rt.folio, 512);
	UT_ASSERT_EQ(rt.folio_share, RS_RATE_ONE / 56);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_ANON, 12, &rt);
	UT_ASSERT_EQ(rt.folio, 512);
	UT_ASSERT_EQ(rt.folio_share, RS_RATE_ONE / 56);
	rs_world_rates(t->w, 0, 0, RS_LRU_INACTIVE_FILE, -1, &rt);
	UT_ASSERT_EQ(rt.folio, 497);
	UT_ASSERT_EQ(rt.folio_share, RS_RATE_ONE);
	return UT_OK;
}

/*
 * Soft-limit reclaim inside a direct call: its windows count in rec.soft_* and in the lists,
 * not in the rounds; the direct call wants 32. An isolate of inactive anon turns swap on.
 */
TR_TEST(test_soft_inside_direct_and_swap,
	"replay input: soft-limit part of a direct call, swap inferred")
{
	const struct rs_reclaim_call *c;

	UT_ASSERT(a_trace(t, 500, 100, 600, 0, 10, 600, 1000) == 0);
	rbegin(t, T0 + 1 * MS, 200, "w", RS_RK_DIRECT);
	rbegin(t, T0 + 2 * MS, 200, "w", RS_RK_SOFTLIMIT);
	window(t, T0 + 3 * MS, 200, "w", CG_A, RS_LRU_INACTIVE_ANON, 32, 32, 8, 0, false);
	rend(t, T0 + 4 * MS, 200, "w", RS_RK_SOFTLIMIT, 8);
	window(t, T0 + 5 * MS, 200, "w", CG_A, RS_LRU_INACTIVE_FILE, 32, 32, 32, 12, false);
	rend(t, T0 + 6 * MS, 200, "w", RS_RK_DIRECT, 40);
	UT_ASSERT(tr_finish(t) == 0);
	c = call_of(t, 0);
	UT_ASSERT_EQ(c->ctx, RS_CALL_DIRECT);
	UT_ASSERT_EQ(c->nr_to_reclaim, 32);
	UT_ASSERT_EQ(c->rec.soft_scanned, 32);
	UT_ASSERT_EQ(c->rec.soft_reclaimed, 8);
	UT_ASSERT_EQ(c->rec.scanned[RS_LRU_INACTIVE_ANON], 32);
	UT_ASSERT_EQ(c->rec.rounds, 1);
	UT_ASSERT_EQ(c->rec.prio_lowest, 12);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->soft_episodes, 1);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->swap, RS_RI_SWAP_INFERRED);
	UT_ASSERT(rs_world_swap_free(t->w) == 0);	/* rewound: not applied yet */
	rs_world_advance(t->w, T0);
	UT_ASSERT(rs_world_swap_free(t->w) > 0);
	return UT_OK;
}

/* A task's reclaim events with no begin before them: the end names the kind (cut at start). */
TR_TEST(test_orphan_cut_start, "replay input: calls cut at the start")
{
	UT_ASSERT(tr_new_node(t, 0, 1000, 100, 200) == 0);
	window(t, T0 + 1 * MS, 200, "w", 1, RS_LRU_INACTIVE_FILE, 32, 32, 32, 12, false);
	rend(t, T0 + 2 * MS, 200, "w", RS_RK_DIRECT, 32);
	/* and one that never ends: not replayed, counted outside any call */
	window(t, T0 + 3 * MS, 201, "v", 1, RS_LRU_INACTIVE_FILE, 32, 16, 16, 12, false);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls[RS_CALL_DIRECT], 1);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls_cut_start, 1);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->out_scanned[RS_LRU_INACTIVE_FILE], 16);
	UT_ASSERT_EQ(call_of(t, 0)->rec.scanned[RS_LRU_INACTIVE_FILE], 32);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->swap, RS_RI_SWAP_OFF);
	return UT_OK;
}

/*
 * The recorded rounds of a call are its distinct (node, priority) pairs, on any node: a direct
 * call shrinking node 0 once at 12, node 5 three times at 12 and once at 11, node 6 twice at 12
 * (an 8-node machine) ran 4 rounds: (0, 12), (5, 12), (5, 11), (6, 12), on 3 nodes.
 */
TR_TEST(test_rounds_many_nodes, "replay input: rounds on nodes past 3")
{
	static const struct { int nid, prio; } sh[] = {
		{ 0, 12 }, { 5, 12 }, { 5, 12 }, { 5, 12 }, { 5, 11 }, { 6, 12 }, { 6, 12 },
	};
	uint64_t ts = T0 + 2 * MS;

	UT_ASSERT(tr_new_node(t, 0, 100000, 100, 200) == 0);
	rbegin(t, T0 + 1 * MS, 200, "w", RS_RK_DIRECT);
	for (size_t i = 0; i < sizeof(sh) / sizeof(sh[0]); i++, ts += MS) {
		struct rs_event ev = ut_shrink_inactive(ts + 3, 200, "w", sh[i].prio,
							RS_RECLAIM_WB_FILE, 4, 4);

		iso(t, ts, 200, "w", RS_LRU_INACTIVE_FILE, 4, 4);
		count(t, ts + 1, 200, 1, IT_PGSCAN_DIRECT, 4);
		count(t, ts + 2, 200, 1, IT_PGSTEAL_DIRECT, 4);
		ev.inactive.nid = sh[i].nid;
		feed(t, &ev);
	}
	rend(t, ts, 200, "w", RS_RK_DIRECT, 28);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(call_of(t, 0)->rec.scanned[RS_LRU_INACTIVE_FILE], 28);
	UT_ASSERT_EQ(call_of(t, 0)->rec.rounds, 4);
	UT_ASSERT_EQ(call_of(t, 0)->rec.nodes, 3);
	return UT_OK;
}

/*
 * The charge-size goal of a memcg call: a pass at priority 12 frees 20 (total 20), a pass at
 * 11 frees 32 then 32 in two iterations of inactive file (one type). The call went on after
 * 20 (a pass end) and after 32 (an iteration end): the goal is above 32 and at most 84, so 64.
 * The call wants that goal, 64 (the kernel's max(charge, 32)), not the 84 it freed: the 20
 * pages of overshoot are the model's to reproduce.
 */
TR_TEST(test_memcg_goal, "replay input: memcg charge goal from passes and iterations")
{
	static const struct win call[] = {
		{ RS_LRU_INACTIVE_FILE, 20, 20, 20, 12 }, { RS_LRU_INACTIVE_FILE, 32, 32, 32, 11 },
		{ RS_LRU_INACTIVE_FILE, 32, 32, 32, 11 },
	};
	const struct rs_ri_report *r;

	UT_ASSERT(a_trace(t, 0, 5000, 5000, 6000, 0, 0, 6000) == 0);
	UT_ASSERT(memcg_calls(t, call, NR_WIN(call)) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 64);
	UT_ASSERT_EQ(r->want_src[RS_RI_WANT_CHARGE], 1);
	UT_ASSERT_EQ(r->goal_overshoot, 20);
	UT_ASSERT_EQ(call_of(t, 0)->rec.rounds, 2);
	return UT_OK;
}

/*
 * A memcg call on two nodes: shrink_zones() shrinks every node in turn at each priority and only
 * do_try_to_free_pages() looks at the goal, after all of them, so the end of one node's pass is
 * no bound when the next node follows at the same priority. Priority 12 frees 5 on node 0 and 5
 * on node 1 (10), priority 11 frees 30 on node 0 (40) and 20 on node 1 (60): the goal is above
 * 10 and at most 60, so 32. Taking node 0's pass at 11 for a check made it above 40, where no
 * 32 << k fits, and the call wanted the 60 it freed (the 7.2 two-node multi recording, sweep5:
 * 626 of its 1,372 memcg calls so).
 */
TR_TEST(test_memcg_goal_two_nodes, "replay input: memcg goal, nodes shrunk in turn")
{
	static const struct { int nid, prio; uint64_t pages; } sh[] = {
		{ 0, 12, 5 }, { 1, 12, 5 }, { 0, 11, 30 }, { 1, 11, 20 },
	};
	uint64_t ts = T0 + 2 * MS, nr = 0;
	const struct rs_ri_report *r;

	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=2") == 0);
	item_names(t);
	cgmap(t, 1, "/");
	cgmap(t, CG_A, "/a");
	snap(t, T0, CG_A, "/a", 0, 0, 5000, 0, 6000, 6000, 0);
	node_snap(t, T0, 0, 0, 6000, 0, 100, 200);
	rbegin(t, T0 + 1 * MS, 200, "w", RS_RK_MEMCG);
	for (size_t i = 0; i < sizeof(sh) / sizeof(sh[0]); i++, ts += MS) {
		struct rs_event ev = ut_shrink_inactive(ts + 3, 200, "w", sh[i].prio,
							RS_RECLAIM_WB_FILE, sh[i].pages,
							sh[i].pages);

		iso(t, ts, 200, "w", RS_LRU_INACTIVE_FILE, sh[i].pages, sh[i].pages);
		count(t, ts + 1, 200, CG_A, IT_PGSCAN_DIRECT, (int64_t)sh[i].pages);
		count(t, ts + 2, 200, CG_A, IT_PGSTEAL_DIRECT, (int64_t)sh[i].pages);
		ev.inactive.nid = sh[i].nid;
		feed(t, &ev);
		nr += sh[i].pages;
	}
	rend(t, ts, 200, "w", RS_RK_MEMCG, nr);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(call_of(t, 0)->rec.reclaimed[RS_LRU_INACTIVE_FILE], 60);
	UT_ASSERT_EQ(call_of(t, 0)->rec.rounds, 4);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 32);
	UT_ASSERT_EQ(r->want_src[RS_RI_WANT_CHARGE], 1);
	UT_ASSERT_EQ(r->want_src[RS_RI_WANT_RECLAIMED], 0);
	return UT_OK;
}

/*
 * A pass cut short bounds the goal from above. shrink_lruvec() meets the goal at the end of a
 * loop iteration, stops one type and scales the other; the next iteration finds one type at 0
 * and breaks (a2s-1, 452.803 s: five iterations of inactive anon and file, one of file alone,
 * goal 256 where 32 << k up to what it freed gave 512). A memcg call: priority 12, one iteration
 * of IA and IF freeing 20 each (40: a pass end, the goal is above 40); priority 11, two
 * iterations of IA and IF freeing 16 each (64), then IF alone, 32 (96), all requests of 32 (no
 * target ran out): the cut came after the second iteration, the goal is at most 64. Freed 136:
 * the goal is 64 (without the bound, 128).
 */
TR_TEST(test_memcg_goal_cut, "replay input: a pass cut short bounds the memcg goal")
{
	static const struct win call[] = {
		{ RS_LRU_INACTIVE_ANON, 32, 32, 20, 12 }, { RS_LRU_INACTIVE_FILE, 32, 32, 20, 12 },
		{ RS_LRU_INACTIVE_ANON, 32, 32, 16, 11 }, { RS_LRU_INACTIVE_FILE, 32, 32, 16, 11 },
		{ RS_LRU_INACTIVE_ANON, 32, 32, 16, 11 }, { RS_LRU_INACTIVE_FILE, 32, 32, 16, 11 },
		{ RS_LRU_INACTIVE_FILE, 32, 32, 32, 11 },
	};

	UT_ASSERT(a_trace(t, 5000, 5000, 10000, 11000, 0, 5000, 5000) == 0);
	UT_ASSERT(memcg_calls(t, call, NR_WIN(call)) == 0);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 64);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->want_src[RS_RI_WANT_CHARGE], 1);
	return UT_OK;
}

/*
 * A call that went down after its last freed page never met its goal (do_try_to_free_pages()
 * lowers the priority only while nr_reclaimed < nr_to_reclaim). The first call frees 32 at
 * priority 12 and 32 at 11 (64), then nothing at 10 and 9: its goal was above 64, the least
 * 32 << k is 128 (it wanted the 64 it freed before: the model stopped at priority 11 where the
 * kernel went on to 9; n1-memcg-high, 146.177 s, went on from 192 at priority 8 to 0). The
 * second frees 32 and 32 at 12 in two passes of inactive file (the first request under 32 ran
 * its target out), then nothing at 12 again: no lower priority, it wants what it freed, 64 (the
 * anon aging at the end of a pass reads as another pass at the same priority). The third frees
 * nothing at priorities 1 and 0 and 64 in the retry at 12 (do_try_to_free_pages() starts again
 * when a descent freed nothing; anon-2stream-busy, 2674.465 s): it met its goal there, 64.
 */
TR_TEST(test_memcg_goal_short, "replay input: a memcg call that went down past its total")
{
	static const struct win calls[] = {
		{ RS_LRU_INACTIVE_FILE, 32, 32, 32, 12 }, { RS_LRU_INACTIVE_FILE, 32, 32, 32, 11 },
		{ RS_LRU_INACTIVE_FILE, 32, 32, 0, 10 }, { RS_LRU_INACTIVE_FILE, 32, 32, 0, 9 },
		CALL_END,	/* the second: the same priority */
		{ RS_LRU_INACTIVE_FILE, 16, 16, 16, 12 }, { RS_LRU_INACTIVE_FILE, 32, 32, 32, 12 },
		{ RS_LRU_INACTIVE_FILE, 16, 16, 16, 12 }, { RS_LRU_INACTIVE_FILE, 32, 32, 0, 12 },
		CALL_END,	/* the third: a retry */
		{ RS_LRU_INACTIVE_FILE, 32, 32, 0, 1 }, { RS_LRU_INACTIVE_FILE, 32, 32, 0, 0 },
		{ RS_LRU_INACTIVE_FILE, 32, 64, 64, 12 },
	};
	const struct rs_ri_report *r;

	UT_ASSERT(a_trace(t, 0, 5000, 5000, 6000, 0, 0, 6000) == 0);
	UT_ASSERT(memcg_calls(t, calls, NR_WIN(calls)) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(call_of(t, 0)->nr_to_reclaim, 128);
	UT_ASSERT_EQ(call_of(t, 0)->rec.nr_reclaimed, 64);
	UT_ASSERT_EQ(call_of(t, 1)->nr_to_reclaim, 64);
	UT_ASSERT_EQ(call_of(t, 2)->nr_to_reclaim, 64);
	UT_ASSERT_EQ(r->want_src[RS_RI_WANT_CHARGE], 2);
	UT_ASSERT_EQ(r->want_src[RS_RI_WANT_RECLAIMED], 1);
	return UT_OK;
}

/*
 * Watermark inference without wmark_high in node_stat: a kswapd pass of inactive file taking
 * 512-page folios (requests of 32 scan 512) went on after 512 and 1024 pages; the next request
 * (2 < 32) ran its target out. So the high watermark is above 1024: 1025 at least.
 */
TR_TEST(test_wmark_inferred, "replay input: watermark inferred from kswapd passes")
{
	static const struct win run[] = {
		{ RS_LRU_INACTIVE_FILE, 32, 512, 512, 12 },
		{ RS_LRU_INACTIVE_FILE, 32, 512, 512, 12 },
		{ RS_LRU_INACTIVE_FILE, 2, 512, 512, 12 },
	};
	const struct rs_ri_report *r;
	struct rs_node_state ns;

	UT_ASSERT(kswapd_trace(t, 0, 100000, 100, 0, run, NR_WIN(run)) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT(!r->have_wmark);
	UT_ASSERT_EQ(r->wmark_inferred, 1025);
	rs_world_advance(t->w, T0 + 1 * MS);
	rs_world_node(t->w, 0, &ns);
	UT_ASSERT_EQ(ns.wmark_high, 1025);
	return UT_OK;
}

/*
 * zone_stat (the 7.2 guest's two zones) is read and reported, and changes nothing the models
 * use: the node's watermark stays node_stat's sum (284 + 10,527 = 10,811 pages), and a trace
 * without zone_stat reports none.
 */
/* A zone of node 0 in the recorder's zone_stat at ts: its index, free pages, high watermark. */
static struct rs_event zone_ev(struct tr *t, uint64_t ts, int idx, uint64_t free, uint64_t high)
{
	struct rs_event ev = ev0(t, RS_EV_SNAP_ZONE, ts, 1, "rs");

	ev.snap_zone.nid = 0;
	ev.snap_zone.idx = idx;
	ev.snap_zone.free_pages = free;
	ev.snap_zone.wmark_high = high;
	return ev;
}

static void zone_snap(struct tr *t, uint64_t ts, int idx, uint64_t free, uint64_t high,
		      uint64_t reserve)
{
	struct rs_event ev = zone_ev(t, ts, idx, free, high);

	ev.snap_zone.nr_reserve = 4;
	for (int i = 1; i < 4; i++)
		ev.snap_zone.lowmem_reserve[i] = reserve;
	feed(t, &ev);
}

TR_TEST(test_zone_stat, "replay input: zone_stat read and reported, not used")
{
	const struct rs_ri_report *r;
	struct rs_node_state ns;

	UT_ASSERT(tr_new_node(t, 0, 100000, 8800, 10811) == 0);
	zone_snap(t, T0 + 1, 0, 772, 284, 570);
	zone_snap(t, T0 + 2, 1, 8028, 10527, 0);
	node_snap(t, T0 + 10 * MS, 0, 0, 100000, 0, 9000, 10811);
	zone_snap(t, T0 + 10 * MS + 1, 0, 772, 284, 570);
	zone_snap(t, T0 + 10 * MS + 2, 1, 8228, 10527, 0);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(r->zone.events, 4);
	UT_ASSERT_EQ(r->zone.first_ts, T0 + 1);
	UT_ASSERT_EQ(r->zone.last_ts, T0 + 10 * MS + 2);
	UT_ASSERT_EQ(r->zone_idx, 3);
	UT_ASSERT_EQ(r->node_snapshots, 2);
	rs_world_advance(t->w, T0 + 1 * MS);
	rs_world_node(t->w, 0, &ns);
	UT_ASSERT_EQ(ns.wmark_high, 10811);
	UT_ASSERT_EQ(ns.free, 8800);
	tr_free(t);

	UT_ASSERT(tr_new_node(t, 0, 100000, 8800, 10811) == 0);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(r->zone.events, 0);
	UT_ASSERT_EQ(r->zone_idx, 0);
	return UT_OK;
}

/*
 * The buddy flow (record --zone-flow). Zones: DMA pfn 1..4095, DMA32 4096..163798. Sample 1
 * (zone_stat at T0 + 1 ns, after a zone_read the node did not exist for) has no flow. Then:
 *   +1 ms  alloc order 9 at pfn 0x5000 (DMA32)       -512
 *   +2 ms  drain order 0 at pfn 100 (DMA)            +1
 *   +3 ms  free order 4 at 0x6000 (DMA32: straight)  +16
 *   +4 ms  free order 9 and order 2 (to a per-cpu list: not yet), alloc at pfn 0x30000
 *          (no zone: ignored)
 *   +10 ms zone_read: DMA +1, DMA32 -496
 *   +10 ms + 1  alloc order 0 in DMA32 (after the read: the next sample's)       -1
 *   +10 ms + 5  zone_stat: sample 2 as of +10 ms, flow {1, -496}
 *   +11 ms kswapd wakes (check 0: {1, -497}); +12 ms drains 32 pages of DMA32 and its
 *          shrink (check 1 at the shrink: {1, -465}); +14 ms alloc order 1, sleep.
 * A trace without zone_flow=1 in its header keeps no flow at all (its samples are still as of
 * their zone_read).
 */
static void zone_span(struct tr *t, uint64_t ts, int idx, uint64_t free, uint64_t start,
		      uint64_t spanned)
{
	struct rs_event ev = zone_ev(t, ts, idx, free, 100);

	ev.snap_zone.managed = spanned;
	ev.snap_zone.start_pfn = start;
	ev.snap_zone.spanned = spanned;
	feed(t, &ev);
}

static void buddy(struct tr *t, uint64_t ts, int kind, uint64_t pfn, int order)
{
	struct rs_event ev = ev0(t, RS_EV_BUDDY, ts, 300, "w");

	ev.buddy.kind = kind;
	ev.buddy.pfn = pfn;
	ev.buddy.order = order;
	feed(t, &ev);
}

static void zone_read(struct tr *t, uint64_t ts)
{
	struct rs_event ev = ev0(t, RS_EV_MARKER, ts, 1, "rs");

	ev.marker = "zone_read";
	feed(t, &ev);
}

static void zone_flow_trace(struct tr *t)
{
	item_names(t);
	cgmap(t, 1, "/");
	node_snap(t, T0, 0, 0, 10000, 0, 100, 200);
	zone_read(t, T0);
	zone_span(t, T0 + 1, 0, 800, 1, 4095);
	zone_span(t, T0 + 2, 1, 9000, 4096, 159703);
	buddy(t, T0 + 1 * MS, RS_BUDDY_ALLOC, 0x5000, 9);
	buddy(t, T0 + 2 * MS, RS_BUDDY_DRAIN, 100, 0);
	buddy(t, T0 + 3 * MS, RS_BUDDY_FREE, 0x6000, 4);
	buddy(t, T0 + 4 * MS, RS_BUDDY_FREE, 0x7000, 9);
	buddy(t, T0 + 4 * MS, RS_BUDDY_FREE, 0x7200, 2);
	buddy(t, T0 + 4 * MS, RS_BUDDY_ALLOC, 0x30000, 0);
	zone_read(t, T0 + 10 * MS);
	buddy(t, T0 + 10 * MS + 1, RS_BUDDY_ALLOC, 0x8000, 0);
	zone_span(t, T0 + 10 * MS + 5, 0, 801, 1, 4095);
	zone_span(t, T0 + 10 * MS + 6, 1, 8504, 4096, 159703);
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 11 * MS, 0);
	for (int i = 0; i < 32; i++)
		buddy(t, T0 + 12 * MS, RS_BUDDY_DRAIN, 0x9000 + (uint64_t)i, 0);
	window(t, T0 + 12 * MS, 45, "kswapd0", 1, RS_LRU_INACTIVE_FILE, 32, 32, 32, 12, true);
	buddy(t, T0 + 14 * MS, RS_BUDDY_ALLOC, 0xa000, 1);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, T0 + 14 * MS, 0);
}

TR_TEST(test_zone_flow, "replay input: the buddy flow per zone at the samples and the checks")
{
	const struct rs_zone_sample *zs;
	const struct rs_reclaim_call *c = NULL;
	size_t n;

	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=1 zone_flow=1 pmd_order=9") == 0);
	zone_flow_trace(t);
	UT_ASSERT(tr_finish(t) == 0);
	zs = rs_world_zone_samples(t->w, 0, &n);
	UT_ASSERT(zs);
	UT_ASSERT_EQ(n, 2);
	UT_ASSERT_EQ(zs[0].ts, T0 + 1);
	UT_ASSERT(!zs[0].flow.ok);
	UT_ASSERT_EQ(zs[1].ts, T0 + 10 * MS);
	UT_ASSERT(zs[1].flow.ok);
	UT_ASSERT_EQ(zs[1].flow.pages[0], 1);
	UT_ASSERT_EQ(zs[1].flow.pages[1], -496);
	UT_ASSERT_EQ(zs[1].zone[1].free, 8504);
	for (size_t i = 0; i < rs_world_info(t->w)->nr_calls; i++)
		if (rs_world_call(t->w, i)->ctx == RS_CALL_KSWAPD)
			c = rs_world_call(t->w, i);
	UT_ASSERT(c);
	UT_ASSERT_EQ(c->rec.nr_checks, 2);
	UT_ASSERT(c->rec.checks[0].flow.ok);
	UT_ASSERT_EQ(c->rec.checks[0].flow.pages[0], 1);
	UT_ASSERT_EQ(c->rec.checks[0].flow.pages[1], -497);
	UT_ASSERT_EQ(c->rec.checks[1].flow.pages[1], -465);
	UT_ASSERT_EQ(c->rec.checks[1].flow.lost, zs[1].flow.lost);
	tr_free(t);

	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=1") == 0);
	zone_flow_trace(t);
	UT_ASSERT(tr_finish(t) == 0);
	zs = rs_world_zone_samples(t->w, 0, &n);
	UT_ASSERT_EQ(n, 2);
	UT_ASSERT(!zs[1].flow.ok);
	/* the read's moment still is the sample's */
	UT_ASSERT_EQ(zs[1].ts, T0 + 10 * MS);
	return UT_OK;
}

/* Whether a warning of the reconstruction contains what. */
static bool warned(const struct tr *t, const char *what)
{
	for (size_t i = 0; rs_replay_input_warning(t->ri, i); i++)
		if (strstr(rs_replay_input_warning(t->ri, i), what))
			return true;
	return false;
}

/*
 * Two nodes: no memcg source names a node, so a memcg's lists are put on node 0, said once; the
 * root's lists are node_stat's, per node, so a trace whose only sizes are the root's is not
 * warned (the 12 two-node guest recordings without memcgs of their own were, before).
 */
/* A two-node trace: the root's node_stat, /p/b's memcg_stat when memcg, one empty call. */
static int two_nodes(struct tr *t, bool memcg)
{
	if (tr_start(t, "swappiness=60 cgroup=v1 nodes=2") < 0)
		return -1;
	if (memcg) {
		cgmap(t, CG_B, "/p/b");
		snap(t, T0, CG_B, "/p/b", 1, 2, 3, 4, 10, 0, 0);
	}
	node_snap(t, T0, 10, 10, 10, 10, 100, 200);
	empty_call(t, T0 + 1 * MS, memcg ? RS_RK_MEMCG : RS_RK_DIRECT);
	return tr_finish(t);
}

TR_TEST(test_two_nodes_memcg_lists, "replay input: two nodes, memcg lists on node 0 said")
{
	for (int memcg = 0; memcg <= 1; memcg++) {
		UT_ASSERT(two_nodes(t, memcg) == 0);
		UT_ASSERT_EQ(rs_world_info(t->w)->memcg_sizes, memcg);
		UT_ASSERT_EQ(warned(t, "2 nodes: memcg snapshots and lruvec deltas carry no node"),
			     memcg);
		tr_free(t);
	}
	return UT_OK;
}

/*
 * memcg_stat with memory.numa_stat (record on cgroup v2 with two nodes, docs/markers.md):
 * inactive anon and file per node, pages, and workingset_activate_file per node; hierarchical
 * as the kernel prints them. numa false: the same marker without its numa_* part.
 */
static void snap_numa(struct tr *t, uint64_t ts, uint64_t id, const char *path,
		      const uint64_t ia[2], const uint64_t inf[2], const uint64_t waf[2],
		      bool numa)
{
	struct rs_event ev = ev0(t, RS_EV_SNAP_MEMCG, ts, 1, "rs");

	ev.snap_memcg.id = id;
	ev.snap_memcg.path = path;
	ev.snap_memcg.usage = (ia[0] + ia[1] + inf[0] + inf[1]) * 4096;
	ev.snap_memcg.limit = 9223372036854771712ull;
	ev.snap_memcg.soft_limit = UINT64_MAX;
	ev.snap_memcg.lru_bytes[RS_LRU_INACTIVE_ANON] = (ia[0] + ia[1]) * 4096;
	ev.snap_memcg.lru_bytes[RS_LRU_INACTIVE_FILE] = (inf[0] + inf[1]) * 4096;
	ev.snap_memcg.swappiness = 60;
	for (int w = 0; w < RS_WS_NR; w++)
		ev.snap_memcg.ws[w] = -1;
	if (numa) {
		ev.snap_memcg.numa_nodes = ev.snap_memcg.numa_ws_nodes = 3;
		for (int n = 0; n < 2; n++) {
			ev.snap_memcg.numa_bytes[n][RS_LRU_INACTIVE_ANON] = ia[n] * 4096;
			ev.snap_memcg.numa_bytes[n][RS_LRU_INACTIVE_FILE] = inf[n] * 4096;
			ev.snap_memcg.numa_ws[n][1] = waf[n];
		}
	}
	feed(t, &ev);
}

static void node_snap_nid(struct tr *t, uint64_t ts, int nid, uint64_t ia, uint64_t inf)
{
	struct rs_event ev = ev0(t, RS_EV_SNAP_NODE, ts, 1, "rs");

	ev.snap_node.nid = nid;
	ev.snap_node.free_pages = 100;
	ev.snap_node.lru_pages[RS_LRU_INACTIVE_ANON] = ia;
	ev.snap_node.lru_pages[RS_LRU_INACTIVE_FILE] = inf;
	ev.snap_node.wmark_high = 200;
	feed(t, &ev);
}

/* the header of a two-node cgroup v2 trace, classic LRU */
#define V2_NODES2 "version=1 swappiness=60 mglru=0x0000 cgroup=v2 nodes=2"

/* A list of a memcg (by cgroup id; 1: the root) and the pages it holds on node 0 and node 1. */
struct nodes_want {
	uint64_t id;
	int lru;
	uint64_t pages[2];
};

/* Whether get() (rs_world_lru(), rs_world_lru_stat()) reads each row's pages; says where not. */
static bool nodes_are(const struct tr *t, uint64_t (*get)(const struct rs_world *, int, int, int),
		      const struct nodes_want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int m = rs_world_find_memcg(t->w, w[i].id);

		for (int nid = 0; nid < 2; nid++) {
			uint64_t got = m < 0 ? 0 : get(t->w, m, nid, w[i].lru);

			if (m < 0 || got != w[i].pages[nid]) {
				fprintf(stderr, "  row %zu (memcg %d), node %d: %" PRIu64 " pages, "
					"expected %" PRIu64 "\n", i, m, nid, got, w[i].pages[nid]);
				return false;
			}
		}
	}
	return true;
}

#define NODES_ARE(t, get, rows) nodes_are(t, get, rows, sizeof(rows) / sizeof((rows)[0]))

/*
 * Two nodes, cgroup v2, /p and its child /p/b, each memcg_stat with its numa_stat. At 1-2 ms
 * /p reads inactive anon 200 + 100 and file 100 + 500 (node 0 + node 1), /p/b anon 180 + 60 and
 * file 50 + 450: /p's own lists are anon 20 + 40 and file 50 + 50 (the subtree less the child,
 * node by node), the root's are node_stat less /p: file 1000 - 100 = 900 on node 0, 800 - 500
 * = 300 on node 1. /p/b has deltas: its offset (file 500, its read before the first delta) goes
 * 50 + 450 as that read, +100 at 10 ms by the same shares (10 + 90: 60 + 540). At 100-101 ms /p
 * reads file 70 + 650, /p/b 20 + 600 (620: re-anchored +20): /p/b's file becomes the read's 20 +
 * 600, /p's own stays 50 + 50, and the list stats a reclaim reads are the reads' per node (/p:
 * 70, 650). /p/b's 10 workingset_activate_file at 12 ms go to node 1, the only node whose counter
 * grew between the reads around them (0 + 0, then 0 + 10). Without numa_* in /p/b's second read
 * the memcgs are on node 0 as before, and said.
 */
TR_TEST(test_two_nodes_numa_stat, "replay input: two nodes, lists per node from numa_stat")
{
	static const char *const names[6] = { "nr_inactive_anon", "nr_active_anon",
					      "nr_inactive_file", "nr_active_file",
					      "workingset_activate_anon",
					      "workingset_activate_file" };
	static const uint64_t p_ia[2] = { 200, 100 }, b_ia[2] = { 180, 60 }, z[2] = { 0, 0 };
	static const uint64_t p_if1[2] = { 100, 500 }, b_if1[2] = { 50, 450 };
	static const uint64_t p_if2[2] = { 70, 650 }, b_if2[2] = { 20, 600 }, b_waf2[2] = { 0, 10 };
	/* at 50 ms, by numa_stat: the subtrees less their children, node by node */
	static const struct nodes_want numa_50[] = {
		{ CG_A, RS_LRU_INACTIVE_ANON, { 20, 40 } },
		{ CG_A, RS_LRU_INACTIVE_FILE, { 50, 50 } },
		{ CG_B, RS_LRU_INACTIVE_FILE, { 60, 540 } },
		{ CG_B, RS_LRU_INACTIVE_ANON, { 180, 60 } },
		{ 1, RS_LRU_INACTIVE_FILE, { 900, 300 } },
		{ 1, RS_LRU_INACTIVE_ANON, { 800, 400 } },
	};
	/* as before numa_stat: every memcg list on node 0 */
	static const struct nodes_want node0_50[] = { { CG_B, RS_LRU_INACTIVE_FILE, { 600, 0 } } };
	/* at 150 ms: the lists, then the list stats a reclaim reads */
	static const struct nodes_want lists_150[] = {
		{ CG_B, RS_LRU_INACTIVE_FILE, { 20, 600 } },
		{ CG_A, RS_LRU_INACTIVE_FILE, { 50, 50 } },
	};
	static const struct nodes_want stats_150[] = {
		{ CG_A, RS_LRU_INACTIVE_FILE, { 70, 650 } },
	};

	for (int numa = 1; numa >= 0; numa--) {
		struct rs_gap_pages g[4];
		unsigned int lacks[1];
		struct rs_event ev;
		int p, b;

		UT_ASSERT(tr_start(t, V2_NODES2) == 0);
		ev = ut_items(T0, 1, "rs", RS_ITEMS_NODE_STAT, 6, names);
		feed(t, &ev);
		cgmap(t, CG_A, "/p");
		cgmap(t, CG_B, "/p/b");
		snap_numa(t, T0 + 1 * MS, CG_A, "/p", p_ia, p_if1, z, true);
		snap_numa(t, T0 + 2 * MS, CG_B, "/p/b", b_ia, b_if1, z, true);
		node_snap_nid(t, T0 + 3 * MS, 0, 1000, 1000);
		node_snap_nid(t, T0 + 3 * MS, 1, 500, 800);
		lruvec(t, T0 + 10 * MS, 300, CG_B, RS_LRU_INACTIVE_FILE, 100);
		lruvec(t, T0 + 12 * MS, 300, CG_B, 5, 10);
		snap_numa(t, T0 + 100 * MS, CG_A, "/p", p_ia, p_if2, b_waf2, true);
		snap_numa(t, T0 + 101 * MS, CG_B, "/p/b", b_ia, b_if2, b_waf2, numa);
		empty_call(t, T0 + 200 * MS, RS_RK_MEMCG);
		UT_ASSERT(tr_finish(t) == 0);
		p = rs_world_find_memcg(t->w, CG_A);
		b = rs_world_find_memcg(t->w, CG_B);
		UT_ASSERT(p > 0 && b > 0 && rs_world_info(t->w)->nr_memcg <= 3);
		UT_ASSERT_EQ(rs_world_info(t->w)->node_lists_missing, !numa);
		UT_ASSERT_EQ(warned(t, "2 nodes: memcg snapshots and lruvec deltas carry no node"),
			     !numa);
		UT_ASSERT_EQ(rs_world_info(t->w)->nr_calls, 1);
		rs_world_identity_gaps_calls(t->w, g, lacks);
		UT_ASSERT_EQ(lacks[0] & (1u << RS_GAP_NODE_LISTS),
			     numa ? 0u : 1u << RS_GAP_NODE_LISTS);
		rs_world_rewind(t->w);
		rs_world_advance(t->w, T0 + 50 * MS);
		if (!numa) {
			UT_ASSERT(NODES_ARE(t, rs_world_lru, node0_50));
			tr_free(t);
			continue;
		}
		UT_ASSERT(NODES_ARE(t, rs_world_lru, numa_50));
		UT_ASSERT_EQ(rs_world_ws(t->w, RS_WF_WS_ACTIVATE, b, 0, 1), 0);
		UT_ASSERT_EQ(rs_world_ws(t->w, RS_WF_WS_ACTIVATE, b, 1, 1), 10);
		rs_world_advance(t->w, T0 + 150 * MS);
		UT_ASSERT(NODES_ARE(t, rs_world_lru, lists_150));
		UT_ASSERT(NODES_ARE(t, rs_world_lru_stat, stats_150));
		tr_free(t);
	}
	return UT_OK;
}

/*
 * A read re-splits a memcg's lists by setting each node's, whatever the adds before it did in
 * the world. /p/b's deltas come before its first read: -76 inactive file pages at 5 ms, +176 at
 * 8 ms, a call between them (its offset: the read less them, 0). Split by that read's shares (all on node 1), the
 * -76 takes node 1 below 0, where the world clamps it; the read at 10 ms says 100 on node 1,
 * which the lists must then hold (an add of read - sum of the splits, 0, left 176: the
 * two-node memcg-high recording kept 76 such pages on node 1 from 14.97 s to its end).
 */
TR_TEST(test_two_nodes_numa_resplit_sets, "replay input: two nodes, a read sets each node's lists")
{
	static const uint64_t z[2] = { 0, 0 }, inf[2] = { 0, 100 };
	static const struct nodes_want at20[] = { { CG_B, RS_LRU_INACTIVE_FILE, { 0, 100 } } };

	UT_ASSERT(tr_start(t, V2_NODES2) == 0);
	cgmap(t, CG_B, "/p/b");
	lruvec(t, T0 + 5 * MS, 300, CG_B, RS_LRU_INACTIVE_FILE, -76);
	empty_call(t, T0 + 6 * MS, RS_RK_MEMCG);	/* the deltas so far go out: one add each */
	lruvec(t, T0 + 8 * MS, 300, CG_B, RS_LRU_INACTIVE_FILE, 176);
	snap_numa(t, T0 + 10 * MS, CG_B, "/p/b", z, inf, z, true);
	node_snap_nid(t, T0 + 11 * MS, 0, 0, 0);
	node_snap_nid(t, T0 + 11 * MS, 1, 0, 100);
	empty_call(t, T0 + 50 * MS, RS_RK_MEMCG);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT(rs_world_find_memcg(t->w, CG_B) > 0);
	UT_ASSERT_EQ(rs_world_info(t->w)->node_lists_missing, 0);
	rs_world_rewind(t->w);
	rs_world_advance(t->w, T0 + 20 * MS);
	UT_ASSERT(NODES_ARE(t, rs_world_lru, at20));
	return UT_OK;
}

/*
 * The recorder's memory.numa_stat read flushes a second time after its memory.stat read, before
 * the marker; the list stats a reclaim reads from then on are the marker's numa_* per node, not
 * the lists the world held at that flush (split by the older read until the new one re-splits
 * them). /p/b: read at 2 ms (50 + 450), +100 at 10 ms (split 10 + 90), the recorder's flushes
 * at 100 and 100.5 ms, +8 at 100.7 ms, the marker at 101 ms reading 300 + 300: from 100.5 ms on
 * node 1's stat is 300 (the flush took the world's 540 before).
 */
TR_TEST(test_two_nodes_numa_second_flush, "replay input: two nodes, numa_stat's own flush")
{
	static const uint64_t z[2] = { 0, 0 }, if1[2] = { 50, 450 }, if2[2] = { 300, 300 };
	int b;

	UT_ASSERT(tr_start(t, V2_NODES2) == 0);
	cgmap(t, CG_B, "/p/b");
	snap_numa(t, T0 + 2 * MS, CG_B, "/p/b", z, if1, z, true);
	lruvec(t, T0 + 10 * MS, 300, CG_B, RS_LRU_INACTIVE_FILE, 100);
	flush_ev(t, T0 + 100 * MS, 1, "rs", CG_B, false, true);
	flush_ev(t, T0 + 100 * MS + 500000, 1, "rs", CG_B, false, true);
	lruvec(t, T0 + 100 * MS + 700000, 300, CG_B, RS_LRU_INACTIVE_FILE, 8);
	snap_numa(t, T0 + 101 * MS, CG_B, "/p/b", z, if2, z, true);
	node_snap_nid(t, T0 + 102 * MS, 0, 0, 1000);
	node_snap_nid(t, T0 + 102 * MS, 1, 0, 1000);
	empty_call(t, T0 + 150 * MS, RS_RK_MEMCG);
	UT_ASSERT(tr_finish(t) == 0);
	b = rs_world_find_memcg(t->w, CG_B);
	UT_ASSERT(b > 0);
	rs_world_rewind(t->w);
	rs_world_advance(t->w, T0 + 50 * MS);
	UT_ASSERT_EQ(rs_world_lru(t->w, b, 1, RS_LRU_INACTIVE_FILE), 540);
	UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, b, 1, RS_LRU_INACTIVE_FILE, T0 + 100 * MS + 600000),
		     300);
	UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, b, 0, RS_LRU_INACTIVE_FILE, T0 + 100 * MS + 600000),
		     300);
	rs_world_advance(t->w, T0 + 120 * MS);
	UT_ASSERT_EQ(rs_world_lru(t->w, b, 0, RS_LRU_INACTIVE_FILE) +
		     rs_world_lru(t->w, b, 1, RS_LRU_INACTIVE_FILE), 608);
	return UT_OK;
}

/* The tree from paths: /p/b is tracked, /p is not: an ancestor /p is made for it. */
TR_TEST(test_tree_from_paths, "replay input: ancestors by path")
{
	int b, p;

	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=1") == 0);
	cgmap(t, 1, "/");
	cgmap(t, 77, "/p");
	cgmap(t, CG_B, "/p/b");
	snap(t, T0, CG_B, "/p/b", 1, 2, 3, 4, 10, 0, 0);
	node_snap(t, T0, 10, 10, 10, 10, 100, 200);
	empty_call(t, T0 + 1 * MS, RS_RK_MEMCG);
	UT_ASSERT(tr_finish(t) == 0);
	b = rs_world_find_memcg(t->w, CG_B);
	UT_ASSERT(b > 0);
	p = rs_world_memcg(t->w, b)->parent;
	UT_ASSERT_STR(rs_world_memcg(t->w, p)->path, "/p");
	UT_ASSERT_EQ(rs_world_memcg(t->w, p)->id, 77);
	UT_ASSERT_EQ(rs_world_memcg(t->w, p)->parent, 0);
	return UT_OK;
}

static void task_cg(struct tr *t, int pid, uint64_t id, const char *path)
{
	struct rs_event ev = ev0(t, RS_EV_TASK_CGROUP, T0, 1, "rs");

	ev.task_cgroup.pid = pid;
	ev.task_cgroup.id = id;
	ev.task_cgroup.path = path;
	feed(t, &ev);
}

static void attach(struct tr *t, uint64_t ts, int root, int pid, uint64_t id, const char *path)
{
	struct rs_event ev = ev0(t, RS_EV_CGROUP_ATTACH, ts, pid, "w");

	ev.cgroup.root = root;
	ev.cgroup.level = 1;
	ev.cgroup.id = id;
	ev.cgroup.path = path;
	ev.cgroup.pid = pid;
	feed(t, &ev);
}

/*
 * Who a memcg is and which one a task is in are the loading stage's (memcg_attrib.h). Cgroup
 * v1: task 100 is in /a (task_cgroup marker), then cgroup_attach_task moves it to /cpu on
 * hierarchy 3 after hierarchy 4 was told to be the memory controller's (an attach to /p/b
 * agreeing with cgroup_map): not a memcg move. Task 200 is forked from it: in /a. Its memcg
 * call at 10 ms scans nothing, so its target is its task's memcg, /a (limit 1000 pages).
 * An old recorder's memcg_stat names /a by path alone: IF 100 at 1 ms, before /a's first
 * delta (-40 at 2 ms), is the offset of /a's deltas: 100 - 40 = 60 pages at the call.
 */
TR_TEST(test_memcgs_of_the_loading_stage,
	"replay input: memcgs and task memcgs of the loading stage")
{
	const struct rs_reclaim_call *c;
	const struct rs_ri_report *r;
	struct rs_event ev;
	int a;

	UT_ASSERT(tr_new_v1(t) == 0);
	cgmap(t, CG_A, "/a");
	cgmap(t, CG_B, "/p/b");
	task_cg(t, 100, CG_A, "/a");
	attach(t, T0, 4, 300, CG_B, "/p/b");
	attach(t, T0, 3, 100, 555, "/cpu");
	ev = ev0(t, RS_EV_FORK, T0, 100, "w");
	ev.task.pid = 100;
	ev.task.child_pid = 200;
	feed(t, &ev);
	snap(t, T0 + 1 * MS, 0, "/a", 0, 0, 100, 0, 100, 1000, 0);
	lruvec(t, T0 + 2 * MS, 300, CG_A, RS_LRU_INACTIVE_FILE, -40);
	node_snap(t, T0 + 3 * MS, 0, 0, 1000, 0, 5000, 100);
	empty_call(t, T0 + 10 * MS, RS_RK_MEMCG);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	a = rs_world_find_memcg(t->w, CG_A);
	UT_ASSERT(a > 0);
	UT_ASSERT_STR(rs_world_memcg(t->w, a)->path, "/a");
	UT_ASSERT(rs_world_find_memcg(t->w, 555) < 0);
	c = call_of(t, 0);
	UT_ASSERT(c != NULL);
	UT_ASSERT_EQ(c->target, a);
	UT_ASSERT_EQ(r->target_src[RS_RI_TGT_TASK], 1);
	UT_ASSERT(r->memcg[a].offset_from_first);
	UT_ASSERT_EQ(r->memcg[a].offset[RS_LRU_INACTIVE_FILE], 100);
	UT_ASSERT_EQ(r->memcg[a].limit, 1000);
	rs_world_rewind(t->w);
	UT_ASSERT_EQ(file_at(t, T0 + 10 * MS, a), 60);
	return UT_OK;
}

/* A 7.1+ memcg call by task pid whose begin names memcg id `root`, scanning n of /p/b's IF. */
static void named_call(struct tr *t, uint64_t ts, int pid, uint64_t root, uint64_t n)
{
	struct rs_event ev = ev0(t, RS_EV_RECLAIM_BEGIN, ts, pid, "w");

	ev.reclaim.kind = RS_RK_MEMCG;
	ev.reclaim.memcg_id = root;
	ev.have = RS_HAVE_ORDER | RS_HAVE_GFP | RS_HAVE_MEMCG_ID;
	feed(t, &ev);
	window(t, ts + 1 * MS, pid, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, n, n, 12, false);
	rend(t, ts + 2 * MS, pid, "w", RS_RK_MEMCG, n);
}

/*
 * Proactive calls: v2, 7.1+, /p (limit 1000) above /p/b and /q beside it. Four calls whose
 * begin names /p, each scanning /p/b: by task 200 of /q (memory.reclaim written from another
 * cgroup: proactive), by 300 of /p/b and 400 of /p (a charge of theirs reclaims /p: not), and
 * by 500, whose memcg the trace does not say (not told). Identity then lacks the
 * memory.reclaim request for the first call's 40 pages alone, of the 40 + 33 + 34 + 35
 * recorded.
 */
TR_TEST(test_proactive_calls, "replay input: memcg calls from outside their reclaim root")
{
	struct rs_gap_pages *g;
	unsigned int mask;

	UT_ASSERT(tr_new_v2_pb(t) == 0);
	cgmap(t, 4545, "/q");
	task_cg(t, 200, 4545, "/q");
	task_cg(t, 300, CG_B, "/p/b");
	task_cg(t, 400, CG_A, "/p");
	snap(t, T0 + 1 * MS, CG_A, "/p", 0, 0, 1000, 0, 1000, 1000, 0);
	snap(t, T0 + 2 * MS, CG_B, "/p/b", 0, 0, 700, 0, 700, 0, 0);
	named_call(t, T0 + 10 * MS, 200, CG_A, 40);
	named_call(t, T0 + 20 * MS, 300, CG_A, 33);
	named_call(t, T0 + 30 * MS, 400, CG_A, 34);
	named_call(t, T0 + 40 * MS, 500, CG_A, 35);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_world_info(t->w)->nr_calls, 4);
	UT_ASSERT(call_of(t, 0)->proactive);
	UT_ASSERT(!call_of(t, 1)->proactive);
	UT_ASSERT(!call_of(t, 2)->proactive);
	UT_ASSERT(!call_of(t, 3)->proactive);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->proactive_calls, 1);
	g = calloc(1 + (size_t)rs_world_info(t->w)->nr_memcg, sizeof(*g));
	UT_ASSERT(g != NULL);
	mask = rs_world_identity_gaps(t->w, g);
	UT_ASSERT(mask & (1u << RS_GAP_PROACTIVE));
	UT_ASSERT_EQ(g[0].scanned[RS_GAP_PROACTIVE][RS_LRU_INACTIVE_FILE], 40);
	UT_ASSERT_EQ(g[1 + rs_world_find_memcg(t->w, CG_B)].scanned[RS_GAP_PROACTIVE]
		      [RS_LRU_INACTIVE_FILE], 40);
	UT_ASSERT_STR(rs_gap_name(RS_GAP_PROACTIVE), "memory.reclaim request");
	free(g);
	return UT_OK;
}

/*
 * A swap-in charges the memcg that owned the folio at swap-out: task 200 of /q reclaims /p for
 * it, and its pswpin of /p/b 50 us after the call's end says so (a charge, not memory.reclaim).
 * Its second call is followed by a swap-in of its own /q, its third by one of /p/b 20 ms later:
 * both stay proactive.
 */
TR_TEST(test_swapin_charge, "replay input: a swap-in of another memcg's page is no proactive call")
{
	UT_ASSERT(tr_new_v2_pb(t) == 0);
	cgmap(t, 4545, "/q");
	task_cg(t, 200, 4545, "/q");
	snap(t, T0 + 1 * MS, CG_A, "/p", 0, 0, 1000, 0, 1000, 1000, 0);
	snap(t, T0 + 2 * MS, CG_B, "/p/b", 0, 0, 700, 0, 700, 0, 0);
	named_call(t, T0 + 10 * MS, 200, CG_A, 40);
	count(t, T0 + 12 * MS + 50000, 200, CG_B, IT_PSWPIN, 1);
	named_call(t, T0 + 20 * MS, 200, CG_A, 33);
	count(t, T0 + 22 * MS + 50000, 200, 4545, IT_PSWPIN, 1);
	named_call(t, T0 + 30 * MS, 200, CG_A, 34);
	count(t, T0 + 52 * MS, 200, CG_B, IT_PSWPIN, 1);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_world_info(t->w)->nr_calls, 3);
	UT_ASSERT(!call_of(t, 0)->proactive);
	UT_ASSERT(call_of(t, 1)->proactive);
	UT_ASSERT(call_of(t, 2)->proactive);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->proactive_calls, 2);
	return UT_OK;
}

/*
 * A plain trace-cmd 7.x recording (memcg_id in the reclaim events, no memcg counters): task 300
 * of /leaf (no memcg below it, cgroup v2) reclaims /leaf. Its call: an isolate of inactive anon
 * that takes nothing (closed by the next isolate), an isolate of 32 inactive file pages and its
 * shrink reclaiming 10, MGLRU's retry of that batch (a second shrink, nr_scanned 32 again, no
 * isolate: 5 more reclaimed), and a last isolate of inactive anon taking nothing, still open
 * when the call ends. Three windows, every one /leaf's (memcg_id_leaf), none unattributed: the
 * retry is no window of its own and its 32 pages are the batch's, scanned once (the inactive
 * file reclaimability: 15 of 32); no "shrink events without an lru_isolate" warning. Before,
 * the retry was a fourth window (its reclaimability 15 of 64), and the last isolate, closed
 * after the loading stage had ended the call's episode, was unattributed.
 */
TR_TEST(test_leaf_call_retry_and_end, "replay input: a 7.x leaf call's retry and last isolate")
{
	const struct rs_ri_report *r;
	struct rs_event ev = ev0(t, RS_EV_RECLAIM_BEGIN, T0 + 10 * MS, 300, "w");

	UT_ASSERT(tr_new(t, "version=1 swappiness=60 mglru=0x0007 cgroup=v2 nodes=1") == 0);
	cgmap(t, 1, "/");
	cgmap(t, CG_A, "/leaf");
	attach(t, T0, 0, 300, CG_A, "/leaf");	/* hierarchy 0: cgroup v2 */
	snap(t, T0 + 1 * MS, CG_A, "/leaf", 500, 0, 1000, 0, 1500, 2000, 0);
	ev.reclaim.kind = RS_RK_MEMCG;
	ev.reclaim.memcg_id = CG_A;
	ev.have = RS_HAVE_ORDER | RS_HAVE_GFP | RS_HAVE_MEMCG_ID;
	feed(t, &ev);
	iso(t, T0 + 11 * MS, 300, "w", RS_LRU_INACTIVE_ANON, 32, 0);
	iso(t, T0 + 12 * MS, 300, "w", RS_LRU_INACTIVE_FILE, 32, 32);
	shr(t, T0 + 13 * MS, 300, "w", 10, true, 32, 10);
	shr(t, T0 + 14 * MS, 300, "w", 10, true, 32, 5);
	iso(t, T0 + 15 * MS, 300, "w", RS_LRU_INACTIVE_ANON, 32, 0);
	rend(t, T0 + 16 * MS, 300, "w", RS_RK_MEMCG, 15);
	UT_ASSERT(tr_finish(t) == 0);
	r = rs_replay_input_report(t->ri);
	UT_ASSERT_EQ(r->victim_leaf, 3);
	UT_ASSERT_EQ(r->victim_none, 0);
	UT_ASSERT_EQ(r->obs[RS_LRU_INACTIVE_FILE].pages.scanned, 32);
	UT_ASSERT_EQ(r->obs[RS_LRU_INACTIVE_FILE].pages.reclaimed, 15);
	UT_ASSERT_EQ(call_of(t, 0)->rec.reclaimed[RS_LRU_INACTIVE_FILE], 15);
	UT_ASSERT_EQ(call_of(t, 0)->rec.scanned[RS_LRU_INACTIVE_FILE], 32);
	for (size_t i = 0; rs_replay_input_warning(t->ri, i); i++)
		UT_ASSERT(!strstr(rs_replay_input_warning(t->ri, i), "without an lru_isolate"));
	return UT_OK;
}

/* mm_vmscan_throttled of task pid with the stored reason 1 << VMSCAN_THROTTLE_ISOLATED. */
static void throttled_isolated(struct tr *t, uint64_t ts, int pid)
{
	struct rs_event ev = ev0(t, RS_EV_THROTTLED, ts, pid, "w");

	ev.throttled.nid = 0;
	ev.throttled.usec_timeout = ev.throttled.usec_delayed = 20000;
	ev.throttled.reason = 1 << 1;
	feed(t, &ev);
}

/*
 * too_many_isolated(): after an ISOLATED throttle shrink_inactive_list() isolates (the throttle
 * passed) or gives its batch up without an event. Four memcg limit calls of /p/b by its own
 * task: a throttle then shrink_slab() of the memcg (given up), a throttle then its isolate
 * (passed), a throttle then the call's end (given up), a throttle then an active list's isolate
 * (given up: shrink_active_list() has no such check, so the inactive batch was not scanned).
 * Identity lacks the isolated counts for calls 1, 3 and 4: 40 + 34 + 35 of the pages.
 */
TR_TEST(test_isolate_refused, "replay input: batches given up by too_many_isolated()")
{
	struct rs_gap_pages *g;
	struct rs_event ev;
	unsigned int mask;

	UT_ASSERT(tr_new_v2_pb(t) == 0);
	task_cg(t, 300, CG_B, "/p/b");
	snap(t, T0 + 1 * MS, CG_A, "/p", 0, 0, 1000, 0, 1000, 1000, 0);
	snap(t, T0 + 2 * MS, CG_B, "/p/b", 0, 0, 700, 0, 700, 0, 0);

	rbegin(t, T0 + 10 * MS, 300, "w", RS_RK_MEMCG);
	throttled_isolated(t, T0 + 11 * MS, 300);
	ev = ev0(t, RS_EV_SLAB_START, T0 + 12 * MS, 300, "w");
	feed(t, &ev);
	window(t, T0 + 13 * MS, 300, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, 40, 40, 11, false);
	rend(t, T0 + 14 * MS, 300, "w", RS_RK_MEMCG, 40);

	rbegin(t, T0 + 20 * MS, 300, "w", RS_RK_MEMCG);
	throttled_isolated(t, T0 + 21 * MS, 300);
	window(t, T0 + 22 * MS, 300, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, 33, 33, 12, false);
	rend(t, T0 + 23 * MS, 300, "w", RS_RK_MEMCG, 33);

	rbegin(t, T0 + 30 * MS, 300, "w", RS_RK_MEMCG);
	window(t, T0 + 31 * MS, 300, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, 34, 34, 12, false);
	throttled_isolated(t, T0 + 32 * MS, 300);
	rend(t, T0 + 33 * MS, 300, "w", RS_RK_MEMCG, 34);

	rbegin(t, T0 + 40 * MS, 300, "w", RS_RK_MEMCG);
	window(t, T0 + 41 * MS, 300, "w", CG_B, RS_LRU_INACTIVE_FILE, 32, 35, 35, 12, false);
	throttled_isolated(t, T0 + 42 * MS, 300);
	iso(t, T0 + 43 * MS, 300, "w", RS_LRU_ACTIVE_FILE, 32, 0);
	rend(t, T0 + 44 * MS, 300, "w", RS_RK_MEMCG, 35);
	UT_ASSERT(tr_finish(t) == 0);

	UT_ASSERT_EQ(rs_world_info(t->w)->nr_calls, 4);
	UT_ASSERT_EQ(call_of(t, 0)->rec.isolate_refused, 1);
	UT_ASSERT_EQ(call_of(t, 1)->rec.isolate_refused, 0);
	UT_ASSERT_EQ(call_of(t, 2)->rec.isolate_refused, 1);
	UT_ASSERT_EQ(call_of(t, 3)->rec.isolate_refused, 1);
	g = calloc(1 + (size_t)rs_world_info(t->w)->nr_memcg, sizeof(*g));
	UT_ASSERT(g != NULL);
	mask = rs_world_identity_gaps(t->w, g);
	UT_ASSERT(mask & (1u << RS_GAP_ISOLATED));
	UT_ASSERT(!(mask & (1u << RS_GAP_PROACTIVE)));
	UT_ASSERT_EQ(g[0].scanned[RS_GAP_ISOLATED][RS_LRU_INACTIVE_FILE], 40 + 34 + 35);
	UT_ASSERT_EQ(g[1 + rs_world_find_memcg(t->w, CG_B)].scanned[RS_GAP_ISOLATED]
		      [RS_LRU_INACTIVE_FILE], 40 + 34 + 35);
	UT_ASSERT_STR(rs_gap_name(RS_GAP_ISOLATED), "isolated pages");
	free(g);
	return UT_OK;
}

/* Refusals: an MGLRU recording, and a trace without any size. */
TR_TEST(test_refusals, "replay input: MGLRU and no sizes are refused")
{
	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=1 mglru=0x0007") == 0);
	node_snap(t, T0, 0, 0, 1000, 0, 100, 200);
	empty_call(t, T0 + 1 * MS, RS_RK_DIRECT);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT(rs_replay_input_refusal(t->ri) != NULL);
	UT_ASSERT(strstr(rs_replay_input_refusal(t->ri), "MGLRU") != NULL);
	tr_free(t);

	UT_ASSERT(tr_new(t, "swappiness=60 cgroup=v1 nodes=1") == 0);
	rbegin(t, T0 + 1 * MS, 200, "w", RS_RK_DIRECT);
	iso(t, T0 + 2 * MS, 200, "w", RS_LRU_INACTIVE_FILE, 32, 32);
	shr(t, T0 + 3 * MS, 200, "w", 12, true, 32, 32);
	rend(t, T0 + 4 * MS, 200, "w", RS_RK_DIRECT, 32);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT(rs_replay_input_refusal(t->ri) != NULL);
	UT_ASSERT(strstr(rs_replay_input_refusal(t->ri), "no LRU sizes") != NULL);
	/* the window still implied a size for the root: 32 << 12 */
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->implied_updates, 1);
	return UT_OK;
}

/* The call cap: calls past it are not replayed and are counted. */
TR_TEST(test_call_cap, "replay input: the call cap")
{
	struct rs_replay_input_opts o = { .max_calls = 2 };
	struct rs_consumer c;

	memset(t, 0, sizeof(*t));
	t->ri = rs_replay_input_new(&o, &t->err);
	UT_ASSERT(t->ri != NULL);
	rs_replay_input_consumer(t->ri, &c);
	t->a = ut_analysis(&c, NULL, &t->err);
	UT_ASSERT(t->a != NULL);
	header(t, "swappiness=60 cgroup=v1 nodes=1");
	node_snap(t, T0, 0, 0, 1000, 0, 100, 200);
	for (int i = 0; i < 4; i++)
		empty_call(t, T0 + (uint64_t)(10 * i + 1) * MS, RS_RK_DIRECT);
	UT_ASSERT(tr_finish(t) == 0);
	UT_ASSERT_EQ(rs_world_info(t->w)->nr_calls, 2);
	UT_ASSERT_EQ(rs_replay_input_report(t->ri)->calls_dropped, 2);
	return UT_OK;
}

/*
 * What a reclaim window's events say besides its counts (analyzer/replay/replay_calls.c). The
 * pages it wrote out, from its write_folio events: mm_vmscan_write_folio fires once per folio;
 * shrink_folio_list() counts the folio's pages in nr_pageout, which lru_note_cost() charges as
 * IO (SWAP_CLUSTER_MAX a page). The pages its isolate skipped (nr_skipped), which make the call
 * lack per-zone lists (RS_GAP_ZONE_LISTS). Each trace is one kswapd run of one inactive anon
 * window (an isolate, the writes, its shrink).
 */

#define NO_PFN UINT64_MAX	/* a write whose format has no pfn (the struct page pointer only) */

/*
 * A v1 trace of one node (inactive anon 10,000 pages, file 10,000) and one kswapd run whose one
 * window isolated `scanned` inactive anon pages for `req` (`skipped` of them passed over), wrote
 * the anon folios at pfn[0..n) (NO_PFN: read as 0, the field absent) and reclaimed none; its world in t->w. 0, or -1 when the trace
 * could not be built.
 */
static int one_window(struct tr *t, uint64_t req, uint64_t scanned, uint64_t skipped,
		      const uint64_t *pfn, size_t n)
{
	uint64_t ts = T0 + 2 * MS;
	struct rs_event ev;

	if (tr_new_node(t, 10000, 10000, 100, 200) < 0)
		return -1;
	kswapd_ev(t, RS_EV_KSWAPD_WAKE, T0 + 1 * MS, 0);
	ev = ut_isolate(ts, 45, "kswapd0", RS_LRU_INACTIVE_ANON, req, scanned, scanned - skipped);
	ev.isolate.file = -1;
	ev.isolate.nr_skipped = skipped;
	ev.have |= RS_HAVE_SKIPPED;
	feed(t, &ev);
	for (size_t i = 0; i < n; i++) {
		ev = ev0(t, RS_EV_WRITE_FOLIO, ts + 1 + i, 45, "kswapd0");
		ev.write.pfn = pfn[i] == NO_PFN ? 0 : pfn[i];
		ev.write.reclaim_flags = RS_RECLAIM_WB_ANON;
		ev.have |= pfn[i] == NO_PFN ? 0 : RS_HAVE_PFN;
		feed(t, &ev);
	}
	shr(t, ts + MS / 2, 45, "kswapd0", 12, false, scanned - skipped, 0);
	kswapd_ev(t, RS_EV_KSWAPD_SLEEP, ts + MS, 0);
	return tr_finish(t);
}

/* What the reconstruction reports one_window()'s window wrote, in pages; -1 on failure. */
static int64_t pageout_of(struct tr *t, uint64_t req, uint64_t scanned, const uint64_t *pfn,
			  size_t n)
{
	if (one_window(t, req, scanned, 0, pfn, n))
		return -1;
	return (int64_t)rs_replay_input_report(t->ri)->obs[RS_LRU_INACTIVE_ANON].pages.pageout;
}

/*
 * The 7.2 mlock recording at 103.801 s: 520 pages isolated for 32 (8 pages, then a 512-page
 * THP), one write at pfn 0xfc00 (512-aligned, the THP's head): 512 pages written. The same
 * write at 0xfc07 (no folio head of 512 pages): one page.
 */
TR_TEST(test_pageout_thp, "replay input: a THP written out is its 512 pages of pageout")
{
	static const uint64_t head[] = { 0xfc00 }, inside[] = { 0xfc07 };

	UT_ASSERT_EQ(pageout_of(t, 32, 520, head, 1), 512);
	tr_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 520, inside, 1), 1);
	return UT_OK;
}

/*
 * Single pages only (32 for 32): an aligned pfn is a page like any other. Two 512-aligned writes
 * in a window that took one THP: one of them was a page (512 + 1). A THP split before its
 * pageout writes its head and then its other pages (0x8c00, 0x8c01, 0x8c02): 3 pages. A format
 * without the pfn (the struct page pointer only) tells no head: a write is a page.
 */
TR_TEST(test_pageout_not_thp, "replay input: single pages and split THPs written are pages")
{
	static const uint64_t one[] = { 0x8000 }, two[] = { 0xfc00, 0xfe00 },
			      split[] = { 0x8c00, 0x8c01, 0x8c02 }, nopfn[] = { NO_PFN };

	UT_ASSERT_EQ(pageout_of(t, 32, 32, one, 1), 1);
	tr_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 520, two, 2), 513);
	tr_free(t);
	UT_ASSERT_EQ(pageout_of(t, 32, 512, split, 3), 3);
	tr_free(t);
	/* a format without the pfn: pfn 0 is no folio head, a write is a page */
	UT_ASSERT_EQ(pageout_of(t, 32, 520, nopfn, 1), 1);
	return UT_OK;
}

/*
 * The 7.2 zswap recording at 200.551631 s: kswapd balancing ZONE_DMA asked 32 active anon pages
 * and scanned 3,464, 3,432 of them folios of higher zones it passed over (nr_skipped) and
 * counted. A run whose isolate skipped pages lacks per-zone lists, and its pages scanned are
 * the gap's; the same run without skips lacks nothing of it.
 */
TR_TEST(test_skipped_zone_lists,
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
	tr_free(t);

	UT_ASSERT(one_window(t, 32, 32, 0, NULL, 0) == 0);
	g = calloc(1 + (size_t)rs_world_info(t->w)->nr_memcg, sizeof(*g));
	UT_ASSERT(g != NULL);
	mask = rs_world_identity_gaps(t->w, g);
	free(g);
	UT_ASSERT(!(mask & (1u << RS_GAP_ZONE_LISTS)));
	UT_ASSERT_EQ(rs_world_call(t->w, 0)->rec.skipped, 0);
	return UT_OK;
}
