// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/cgroup*.c: identity, matching shrink events to memcg counters, trigger and victim
 * figures, soft limits, LRU sizes, bounds. Each test feeds a synthetic event sequence shaped
 * like a 6.18 trace (shared/NOTES.md section 3) through the analysis with the cgroups consumer,
 * and checks figures worked out by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cgroups.h"
#include "rs_warn.h"
#include "series.h"
#include "unit.h"
#include "ut_events.h"

#define MS 1000000ull
#define T0 (200ull * 1000000000ull)

/* Item numbers of this (synthetic) kernel: the 6.18 ones of shared/NOTES.md section 1. */
enum {
	I_PSWPOUT = 3, I_PGACTIVATE = 20, I_PGDEACTIVATE = 21, I_PGFAULT = 23, I_PGREFILL = 26,
	I_PGSTEAL_KSWAPD = 28, I_PGSTEAL_DIRECT = 29, I_PGSCAN_KSWAPD = 32, I_PGSCAN_DIRECT = 33,
	I_NR = 41
};

struct fx {
	struct rs_warnings *w;
	struct rs_analysis *a;
	struct rs_cgroups *cg;
	uint64_t ts;
};

static int fx_new(struct fx *f, const struct rs_cgroups_opts *opts)
{
	struct rs_cgroups_opts co = { 0 };
	struct rs_analysis_opts ao = { .pid = -1 };
	struct rs_consumer c;
	struct rs_error err;

	memset(f, 0, sizeof(*f));
	if (opts)
		co = *opts;
	f->w = rs_warnings_new();
	co.warnings = f->w;
	f->cg = rs_cgroups_new(&co, &err);
	if (!f->w || !f->cg)
		return -1;
	rs_cgroups_consumer(f->cg, &c);
	ao.warnings = f->w;
	f->a = ut_analysis(&c, &ao, &err);
	if (!f->a)
		return -1;
	rs_cgroups_bind(f->cg, f->a);
	f->ts = T0;
	return 0;
}

/* Frees what the fixture holds and empties it: it may be begun again, or freed twice. */
static void fx_free(struct fx *f)
{
	rs_cgroups_free(f->cg);
	rs_analysis_free(f->a);
	rs_warnings_free(f->w);
	memset(f, 0, sizeof(*f));
}

/* A test of a fixture f, begun by the test (fx_new()) and freed after it, whatever it returns. */
#define FX_TEST(fn, desc) UT_TEST_OWN(fn, desc, struct fx, f, fx_free)

static int fx_finish(struct fx *f)
{
	struct rs_error err;

	return rs_analysis_finish(f->a, &err);
}

/* The next event's time: 10 us after the last. */
static uint64_t tick(struct fx *f)
{
	return f->ts += 10000;
}

static struct rs_event ev0(struct fx *f, enum rs_ev_type t, int pid, const char *comm)
{
	return ut_event(t, tick(f), pid, comm);
}

static void feed(struct fx *f, const struct rs_event *ev)
{
	rs_analysis_feed(f->a, ev);
}

static void vm_names(struct fx *f)
{
	static const struct ut_item named[] = {
		{ I_PSWPOUT, "pswpout" }, { I_PGACTIVATE, "pgactivate" },
		{ I_PGDEACTIVATE, "pgdeactivate" }, { I_PGFAULT, "pgfault" },
		{ I_PGREFILL, "pgrefill" }, { I_PGSTEAL_KSWAPD, "pgsteal_kswapd" },
		{ I_PGSTEAL_DIRECT, "pgsteal_direct" }, { I_PGSCAN_KSWAPD, "pgscan_kswapd" },
		{ I_PGSCAN_DIRECT, "pgscan_direct" }, { 0, NULL }
	};
	static char names[I_NR][16];
	static const char *ptr[I_NR];
	struct rs_event ev;

	for (int i = 0; i < I_NR; i++) {
		snprintf(names[i], sizeof(names[i]), "x%d", i);
		ptr[i] = names[i];
	}
	ut_name_items(ptr, I_NR, NULL, named);
	ev = ut_items(tick(f), 1, "rs-tree", RS_ITEMS_VM_EVENT, I_NR, ptr);
	feed(f, &ev);
}

static void node_names(struct fx *f)
{
	static const char *const n[] = { "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
					 "nr_active_file", "nr_unevictable", "nr_slab" };
	struct rs_event ev = ut_items(tick(f), 1, "rs-tree", RS_ITEMS_NODE_STAT, 6, n);

	feed(f, &ev);
}

static void cg_map(struct fx *f, uint64_t id, const char *path)
{
	struct rs_event ev = ut_cgroup_map(tick(f), 1, "rs-tree", id, path);

	feed(f, &ev);
}

static void task_cg(struct fx *f, int pid, uint64_t id, const char *path)
{
	struct rs_event ev = ev0(f, RS_EV_TASK_CGROUP, 1, "rs-tree");

	ev.task_cgroup.pid = pid;
	ev.task_cgroup.id = id;
	ev.task_cgroup.path = path;
	feed(f, &ev);
}

static void cg_op(struct fx *f, enum rs_ev_type t, enum rs_cgroup_op op, int root, uint64_t id,
		  const char *path, int pid)
{
	struct rs_event ev = ev0(f, t, pid, "sh");

	ev.cgroup.op = op;
	ev.cgroup.root = root;
	ev.cgroup.id = id;
	ev.cgroup.path = path;
	ev.cgroup.level = 1;
	ev.cgroup.pid = pid;
	feed(f, &ev);
}

static void fork_ev(struct fx *f, int parent, int child)
{
	struct rs_event ev = ev0(f, RS_EV_FORK, parent, "sh");

	ev.task.pid = parent;
	ev.task.child_pid = child;
	feed(f, &ev);
}

static void reclaim(struct fx *f, enum rs_ev_type t, int pid, const char *comm,
		    enum rs_reclaim_kind k, uint64_t nr)
{
	struct rs_event ev = ut_reclaim(t, tick(f), pid, comm, k, nr);

	ev.have = RS_HAVE_ORDER;
	feed(f, &ev);
}

static void isolate(struct fx *f, int pid, const char *comm, int lru, uint64_t scanned,
		    uint64_t taken)
{
	struct rs_event ev = ut_isolate(tick(f), pid, comm, lru, 32, scanned, taken);

	ev.have |= RS_HAVE_ZID | RS_HAVE_SKIPPED;
	feed(f, &ev);
}

static void memcg(struct fx *f, enum rs_ev_type t, int pid, const char *comm, uint64_t id,
		  int item, int64_t val)
{
	struct rs_event ev = ut_memcg(t, tick(f), pid, comm, id, item, val);

	feed(f, &ev);
}

static void count(struct fx *f, int pid, const char *comm, uint64_t id, int item, int64_t val)
{
	memcg(f, RS_EV_MEMCG_COUNT, pid, comm, id, item, val);
}

static void lruvec(struct fx *f, int pid, const char *comm, uint64_t id, int item, int64_t val)
{
	memcg(f, RS_EV_MEMCG_LRUVEC, pid, comm, id, item, val);
}

static void shrink_in(struct fx *f, int pid, const char *comm, bool file, uint64_t scanned,
		      uint64_t reclaimed)
{
	unsigned int flags = (file ? RS_RECLAIM_WB_FILE : RS_RECLAIM_WB_ANON) | RS_RECLAIM_WB_ASYNC;
	struct rs_event ev = ut_shrink_inactive(tick(f), pid, comm, 12, flags, scanned, reclaimed);

	ev.have |= RS_HAVE_SHRINK_DETAIL;
	feed(f, &ev);
}

/* One shrink_active_list() of a 6.18 kernel, all it scans taken: what it emits, in its order. */
static void shrink_active(struct fx *f, int pid, const char *comm, uint64_t victim, bool file,
			  uint64_t taken, uint64_t deact)
{
	struct rs_event ev;

	isolate(f, pid, comm, file ? RS_LRU_ACTIVE_FILE : RS_LRU_ACTIVE_ANON, taken, taken);
	count(f, pid, comm, victim, I_PGREFILL, (int64_t)taken);
	count(f, pid, comm, victim, I_PGDEACTIVATE, (int64_t)deact);
	ev = ev0(f, RS_EV_SHRINK_ACTIVE, pid, comm);
	ev.active.nid = 0;
	ev.active.priority = 12;
	ev.active.reclaim_flags = (file ? RS_RECLAIM_WB_FILE : RS_RECLAIM_WB_ANON) |
				  RS_RECLAIM_WB_ASYNC;
	ev.active.nr_taken = taken;
	ev.active.nr_deactivated = deact;
	ev.have = RS_HAVE_NID | RS_HAVE_PRIORITY;
	feed(f, &ev);
}

/* One shrink_inactive_list() of a 6.18 kernel: what the kernel emits, in its order. */
static void shrink_list(struct fx *f, int pid, const char *comm, uint64_t victim, bool file,
			uint64_t scanned, uint64_t reclaimed, int scan_item, int steal_item)
{
	int lru = file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;

	isolate(f, pid, comm, lru, scanned, scanned);
	lruvec(f, pid, comm, victim, lru, -(int64_t)scanned);
	count(f, pid, comm, victim, scan_item, (int64_t)scanned);
	if (!file)
		count(f, pid, comm, victim, I_PSWPOUT, 1);
	lruvec(f, pid, comm, victim, lru, (int64_t)(scanned - reclaimed));
	count(f, pid, comm, victim, steal_item, (int64_t)reclaimed);
	shrink_in(f, pid, comm, file, scanned, reclaimed);
}

/* Whether the attribution counted each reason as want says; says which it did not. */
static bool reasons_are(const struct rs_cg_attrib *at, const uint64_t want[RS_CGR_NR])
{
	bool ok = true;

	for (int r = 0; r < RS_CGR_NR; r++) {
		if (at->by_reason[r] == want[r])
			continue;
		fprintf(stderr, "  by_reason[%s] == %llu, expected %llu\n", rs_cg_reason_name(r),
			(unsigned long long)at->by_reason[r], (unsigned long long)want[r]);
		ok = false;
	}
	return ok;
}

/*
 * The attribution's totals: shrink events, and how many matched exactly, by fallback, not at
 * all; then every reason's count, as designated initializers ([RS_CGR_SCAN_ONLY] = 1, ...):
 * a reason not named must be 0.
 */
#define ASSERT_MATCHED(at, sh, ex, fb, un, ...) do { \
	UT_ASSERT_EQ((at)->shrinks, sh); \
	UT_ASSERT_EQ((at)->exact, ex); \
	UT_ASSERT_EQ((at)->fallback, fb); \
	UT_ASSERT_EQ((at)->unmatched, un); \
	UT_ASSERT(reasons_are(at, (const uint64_t[RS_CGR_NR]){ __VA_ARGS__ })); \
} while (0)

static int row_of(struct rs_cgroups *cg, const char *name)
{
	char buf[48];

	for (int i = 0; i < rs_cgroups_count(cg); i++)
		if (!strcmp(rs_cgroups_name(cg, i, buf, sizeof(buf)), name))
			return i;
	return -1;
}

static const struct rs_cgroup *row(struct rs_cgroups *cg, const char *name)
{
	return rs_cgroups_get(cg, row_of(cg, name));
}

static const struct rs_cg_cell *cell(struct rs_cgroups *cg, int trig, int victim, int ctx)
{
	for (int i = 0; i < rs_cgroups_nr_cells(cg); i++) {
		const struct rs_cg_cell *c = rs_cgroups_cell(cg, i);

		if (c->trigger == trig && c->victim == victim && c->ctx == ctx)
			return c;
	}
	return NULL;
}

static bool warned(struct rs_warnings *w, const char *needle)
{
	for (size_t i = 0; i < rs_warnings_count(w); i++)
		if (strstr(rs_warnings_get(w, i, NULL), needle))
			return true;
	return false;
}

/* The contention fixture's shape: a sibling's limit reclaim takes two siblings' pages. */
FX_TEST(test_exact_match, "cgroups: exact match, trigger x victim, reclaim root")
{
	const struct rs_cg_attrib *at;
	const struct rs_cgroup *a, *b, *c;
	int ra, rb, rc;
	uint64_t t_begin;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	node_names(f);
	cg_map(f, 10, "/p");
	cg_map(f, 11, "/p/a");
	cg_map(f, 12, "/p/b");
	cg_map(f, 13, "/p/c");
	task_cg(f, 100, 11, "/p/a");
	reclaim(f, RS_EV_RECLAIM_BEGIN, 100, "churn", RS_RK_MEMCG, 0);
	t_begin = f->ts;
	count(f, 100, "churn", 11, I_PGFAULT, 1);	/* not a reclaim counter */
	shrink_list(f, 100, "churn", 12, true, 32, 30, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	shrink_list(f, 100, "churn", 13, false, 20, 4, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	reclaim(f, RS_EV_RECLAIM_END, 100, "churn", RS_RK_MEMCG, 34);
	UT_ASSERT_EQ(fx_finish(f), 0);

	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 2, 2, 0, 0);
	ra = row_of(f->cg, "/p/a");
	rb = row_of(f->cg, "/p/b");
	rc = row_of(f->cg, "/p/c");
	a = rs_cgroups_get(f->cg, ra);
	b = rs_cgroups_get(f->cg, rb);
	c = rs_cgroups_get(f->cg, rc);
	UT_ASSERT(a && b && c);
	/* trigger: /p/a entered one memcg episode */
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].episodes, 1);
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].ns, f->ts - t_begin);
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].reclaimed, 34);
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].latency.count, 1);
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].latency.max, f->ts - t_begin);
	UT_ASSERT_EQ(a->stalled_ns, f->ts - t_begin);
	UT_ASSERT_EQ(a->caused_reclaimed[RS_CTX_MEMCG], 34);
	UT_ASSERT_EQ(b->trig[RS_RK_MEMCG].episodes, 0);
	/* victims, by context and list; counters exactly as emitted */
	UT_ASSERT_EQ(b->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].scanned, 32);
	UT_ASSERT_EQ(b->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 30);
	UT_ASSERT_EQ(c->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].scanned, 20);
	UT_ASSERT_EQ(c->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].reclaimed, 4);
	UT_ASSERT_EQ(b->items[I_PGSCAN_DIRECT], 32);
	UT_ASSERT_EQ(b->items[I_PGSTEAL_DIRECT], 30);
	UT_ASSERT_EQ(c->items[I_PSWPOUT], 1);
	UT_ASSERT_EQ(a->items[I_PGFAULT], 1);
	UT_ASSERT(rs_cgroups_item_is_reclaim(f->cg, I_PGSCAN_DIRECT));
	UT_ASSERT(!rs_cgroups_item_is_reclaim(f->cg, I_PGFAULT));
	UT_ASSERT_STR(rs_cgroups_item_name(f->cg, I_PGSTEAL_DIRECT), "pgsteal_direct");
	UT_ASSERT(rs_cgroups_facts(f->cg)->item_names);
	UT_ASSERT(!rs_cgroups_facts(f->cg)->kernel_roots && !rs_cgroups_facts(f->cg)->capped);
	UT_ASSERT_EQ(b->exact, 1);
	UT_ASSERT_EQ(c->exact, 1);
	/* the matrix: /p/a made /p/b and /p/c pay */
	UT_ASSERT(cell(f->cg, ra, rb, RS_CTX_MEMCG));
	UT_ASSERT_EQ(cell(f->cg, ra, rb, RS_CTX_MEMCG)->reclaimed, 30);
	UT_ASSERT_EQ(cell(f->cg, ra, rc, RS_CTX_MEMCG)->reclaimed, 4);
	UT_ASSERT_EQ(cell(f->cg, ra, rc, RS_CTX_MEMCG)->scanned, 20);
	UT_ASSERT_EQ(rs_cgroups_nr_cells(f->cg), 2);
	/* the reclaim root is at least the LCA of the victims: /p */
	UT_ASSERT_EQ(a->nr_roots, 1);
	UT_ASSERT_EQ(a->roots[0].len, 2);
	UT_ASSERT_EQ(a->roots[0].episodes, 1);
	UT_ASSERT(!strncmp(rs_cgroups_get(f->cg, a->roots[0].cg)->memcg.path, "/p", 2));
	/* LRU deltas: -32 +2 on b's inactive_file, -20 +16 on c's inactive_anon */
	UT_ASSERT_EQ(b->lru_delta[RS_LRU_INACTIVE_FILE], -30);
	UT_ASSERT_EQ(c->lru_delta[RS_LRU_INACTIVE_ANON], -4);
	UT_ASSERT_EQ(rs_warnings_count(f->w), 0);
	return UT_OK;
}

/* Counters that do not add up: fallbacks and unmatched, each with its reason. */
FX_TEST(test_fallbacks, "cgroups: mismatches fall back or stay unmatched")
{
	const struct rs_cg_attrib *at;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	cg_map(f, 21, "/x");
	cg_map(f, 22, "/y");
	reclaim(f, RS_EV_RECLAIM_BEGIN, 300, "w", RS_RK_MEMCG, 0);
	/* steal counter says 29, the shrink event 30: scan side only */
	isolate(f, 300, "w", RS_LRU_INACTIVE_FILE, 32, 32);
	count(f, 300, "w", 21, I_PGSCAN_DIRECT, 32);
	count(f, 300, "w", 21, I_PGSTEAL_DIRECT, 29);
	shrink_in(f, 300, "w", true, 32, 30);
	/* scan in /x, steal in /y: disagree, the steal side wins */
	isolate(f, 300, "w", RS_LRU_INACTIVE_FILE, 8, 8);
	count(f, 300, "w", 21, I_PGSCAN_DIRECT, 8);
	count(f, 300, "w", 22, I_PGSTEAL_DIRECT, 8);
	shrink_in(f, 300, "w", true, 8, 8);
	/* no counters, only the isolation's LRU decrement */
	isolate(f, 300, "w", RS_LRU_INACTIVE_FILE, 4, 4);
	lruvec(f, 300, "w", 22, RS_LRU_INACTIVE_FILE, -4);
	shrink_in(f, 300, "w", true, 4, 4);
	/* nothing of this task since its isolate */
	isolate(f, 300, "w", RS_LRU_INACTIVE_FILE, 2, 2);
	count(f, 301, "other", 22, I_PGSCAN_DIRECT, 2);	/* another task's */
	shrink_in(f, 300, "w", true, 2, 2);
	/* a shrink with no isolate before it */
	shrink_in(f, 300, "w", true, 1, 1);
	/* counters of the wrong values and no LRU decrement */
	isolate(f, 300, "w", RS_LRU_INACTIVE_FILE, 16, 16);
	count(f, 300, "w", 21, I_PGSCAN_DIRECT, 15);
	shrink_in(f, 300, "w", true, 16, 16);
	reclaim(f, RS_EV_RECLAIM_END, 300, "w", RS_RK_MEMCG, 61);
	UT_ASSERT_EQ(fx_finish(f), 0);

	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 6, 0, 3, 3, [RS_CGR_SCAN_ONLY] = 1, [RS_CGR_DISAGREE] = 1,
		       [RS_CGR_LRU_DELTA] = 1, [RS_CGR_NO_MEMCG_EVENT] = 1, [RS_CGR_NO_ISOLATE] = 1,
		       [RS_CGR_NO_MATCH] = 1);
	UT_ASSERT_EQ(row(f->cg, "/x")->fallback, 1);
	UT_ASSERT_EQ(row(f->cg, "/x")->fallback_by[RS_CGR_SCAN_ONLY], 1);
	UT_ASSERT_EQ(row(f->cg, "/x")->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 30);
	UT_ASSERT_EQ(row(f->cg, "/y")->fallback, 2);
	UT_ASSERT_EQ(row(f->cg, "/y")->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 12);
	/* unattributed pages stay in the matrix: 2 + 1 + 16 */
	UT_ASSERT(cell(f->cg, row_of(f->cg, "(unknown)"), RS_CG_UNATTRIBUTED, RS_CTX_MEMCG));
	UT_ASSERT_EQ(cell(f->cg, row_of(f->cg, "(unknown)"), RS_CG_UNATTRIBUTED,
			  RS_CTX_MEMCG)->reclaimed, 19);
	return UT_OK;
}

/*
 * MGLRU's evict_folios() retries a batch: a second lru_shrink_inactive with the batch's
 * nr_scanned again and no isolate between, its pgsteal after it. Its reclaimed pages are the
 * batch's memcg's; its scanned pages were counted by the first.
 */
FX_TEST(test_retry_victim, "cgroups: a retried shrink takes the victim of the one it retries")
{
	const struct rs_cg_attrib *at;
	const struct rs_cgroup *x;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	cg_map(f, 21, "/x");
	reclaim(f, RS_EV_RECLAIM_BEGIN, 300, "w", RS_RK_MEMCG, 0);
	isolate(f, 300, "w", RS_LRU_INACTIVE_ANON, 64, 64);
	count(f, 300, "w", 21, I_PGSCAN_DIRECT, 64);
	shrink_in(f, 300, "w", false, 64, 10);
	count(f, 300, "w", 21, I_PGSTEAL_DIRECT, 10);
	shrink_in(f, 300, "w", false, 64, 20);		/* the retry */
	count(f, 300, "w", 21, I_PGSTEAL_DIRECT, 20);
	shrink_in(f, 300, "w", false, 5, 5);		/* no isolate, no batch to repeat */
	reclaim(f, RS_EV_RECLAIM_END, 300, "w", RS_RK_MEMCG, 35);
	UT_ASSERT_EQ(fx_finish(f), 0);

	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 3, 0, 2, 1, [RS_CGR_SCAN_ONLY] = 2, [RS_CGR_NO_ISOLATE] = 1);
	UT_ASSERT_EQ(at->scanned, 64 + 5);
	UT_ASSERT_EQ(at->reclaimed, 10 + 20 + 5);
	x = row(f->cg, "/x");
	UT_ASSERT_EQ(x->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].shrinks, 2);
	UT_ASSERT_EQ(x->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].scanned, 64);
	UT_ASSERT_EQ(x->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].reclaimed, 30);
	UT_ASSERT_EQ(cell(f->cg, row_of(f->cg, "(unknown)"), row_of(f->cg, "/x"),
			  RS_CTX_MEMCG)->reclaimed, 30);
	UT_ASSERT_EQ(cell(f->cg, row_of(f->cg, "(unknown)"), RS_CG_UNATTRIBUTED,
			  RS_CTX_MEMCG)->reclaimed, 5);
	return UT_OK;
}

/* No vm_event_items marker: one warning, raw items, matching by value still exact. */
FX_TEST(test_missing_names, "cgroups: missing item names warn once, raw items")
{
	const struct rs_cgroup *x;
	int n = 0;

	UT_ASSERT(!fx_new(f, NULL));
	cg_map(f, 31, "/s");
	task_cg(f, 400, 31, "/s");
	reclaim(f, RS_EV_RECLAIM_BEGIN, 400, "dd", RS_RK_MEMCG, 0);
	shrink_list(f, 400, "dd", 31, true, 32, 32, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	/* anon: PSWPOUT (1) sits between scan and steal; steal 1 must not take it */
	shrink_list(f, 400, "dd", 31, false, 3, 1, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	reclaim(f, RS_EV_RECLAIM_END, 400, "dd", RS_RK_MEMCG, 33);
	UT_ASSERT_EQ(fx_finish(f), 0);

	UT_ASSERT(!rs_cgroups_facts(f->cg)->item_names);
	UT_ASSERT(!rs_cgroups_facts(f->cg)->lru_names);
	UT_ASSERT(rs_cgroups_item_name(f->cg, I_PGSCAN_DIRECT) == NULL);
	x = row(f->cg, "/s");
	UT_ASSERT(x);
	UT_ASSERT_EQ(x->items[I_PGSCAN_DIRECT], 35);
	UT_ASSERT_EQ(x->items[I_PGSTEAL_DIRECT], 33);
	UT_ASSERT_EQ(rs_cgroups_attrib(f->cg)->exact, 2);
	UT_ASSERT_EQ(x->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_ANON].reclaimed, 1);
	for (size_t i = 0; i < rs_warnings_count(f->w); i++)
		if (strstr(rs_warnings_get(f->w, i, NULL), "could not be named"))
			n++;
	UT_ASSERT_EQ(n, 1);
	UT_ASSERT(warned(f->w, "vm_event_items or node_stat_items"));
	UT_ASSERT(warned(f->w, "item_<N>"));
	return UT_OK;
}

/* Removed cgroups keep their rows; an unknown id is id:N; an id made again gets a new row. */
FX_TEST(test_identity, "cgroups: rmdir'd kept, id:N, id 1 is /, reused id, hierarchies")
{
	const struct rs_cgroup *old;
	char buf[48];
	int r;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	cg_map(f, 40, "/top");
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 4, 40, "/top", 500);	/* learns root 4 */
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 4, 41, "/top/gone", 501);
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 2, 41, "/cpu/other", 501);	/* cpu hierarchy */
	cg_op(f, RS_EV_CGROUP, RS_CG_RMDIR, 4, 41, "/top/gone", 501);
	/* reclaim of the removed (offline) memcg's pages */
	reclaim(f, RS_EV_RECLAIM_BEGIN, 500, "w", RS_RK_MEMCG, 0);
	shrink_list(f, 500, "w", 41, true, 8, 8, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	shrink_list(f, 500, "w", 77, true, 4, 4, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	reclaim(f, RS_EV_RECLAIM_END, 500, "w", RS_RK_MEMCG, 12);
	cg_op(f, RS_EV_CGROUP, RS_CG_RENAME, 4, 40, "/top2", 1);
	/* inode 41 comes back for a new cgroup */
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 4, 41, "/top2/new", 502);
	count(f, 502, "x", 41, I_PGACTIVATE, 5);
	/* id 1, named by no event: a hierarchy's root, "/" (a plain trace-cmd recording) */
	count(f, 503, "y", 1, I_PGACTIVATE, 3);
	UT_ASSERT_EQ(fx_finish(f), 0);

	old = row(f->cg, "/top/gone");
	UT_ASSERT(old);
	UT_ASSERT(old->memcg.flags & RS_CGF_RMDIR);
	UT_ASSERT(old->memcg.flags & RS_CGF_REUSED);
	UT_ASSERT_EQ(old->memcg.id, 41);
	UT_ASSERT_EQ(old->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 8);
	UT_ASSERT_EQ(old->items[I_PGSTEAL_DIRECT], 8);
	UT_ASSERT(row(f->cg, "/top2/new"));
	UT_ASSERT_EQ(row(f->cg, "/top2/new")->items[I_PGACTIVATE], 5);
	UT_ASSERT(row_of(f->cg, "/cpu/other") < 0);	/* not the memory hierarchy */
	UT_ASSERT(row(f->cg, "/top2"));
	UT_ASSERT(row(f->cg, "/top2")->memcg.flags & RS_CGF_RENAME);
	/* never dropped, never guessed: id 77 has no path */
	r = row_of(f->cg, "id:77");
	UT_ASSERT(r >= 0);
	UT_ASSERT_STR(rs_cgroups_name(f->cg, r, buf, sizeof(buf)), "id:77");
	UT_ASSERT(rs_cgroups_get(f->cg, r)->memcg.path == NULL);
	UT_ASSERT_EQ(rs_cgroups_get(f->cg, r)->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed,
		     4);
	r = row_of(f->cg, "/");
	UT_ASSERT(r >= 0);
	UT_ASSERT_EQ(rs_cgroups_get(f->cg, r)->memcg.id, 1);
	UT_ASSERT_EQ(rs_cgroups_get(f->cg, r)->items[I_PGACTIVATE], 3);
	/* the task was attached to /top (now /top2): it triggered both */
	UT_ASSERT_EQ(row(f->cg, "/top2")->trig[RS_RK_MEMCG].episodes, 1);
	return UT_OK;
}

/* A child starts in its parent's cgroup; an old-recorder snapshot names a path first. */
FX_TEST(test_fork_inheritance, "cgroups: fork inheritance, path-only snapshot")
{

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	/* record-scenario traces: memcg_stat cg=/PATH without id, then the attach names it */
	{
		struct rs_event ev = ev0(f, RS_EV_SNAP_MEMCG, 9, "awk");

		ev.snap_memcg.path = "/rs_x";
		ev.snap_memcg.usage = 0;
		ev.snap_memcg.limit = UINT64_MAX;
		ev.snap_memcg.soft_limit = 512ull << 20;
		feed(f, &ev);
	}
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 4, 10199, "/rs_x", 600);
	fork_ev(f, 600, 601);
	fork_ev(f, 601, 602);
	reclaim(f, RS_EV_RECLAIM_BEGIN, 602, "stress", RS_RK_DIRECT, 0);
	reclaim(f, RS_EV_RECLAIM_END, 602, "stress", RS_RK_DIRECT, 9);
	reclaim(f, RS_EV_RECLAIM_BEGIN, 700, "cat", RS_RK_DIRECT, 0);	/* unknown cgroup */
	reclaim(f, RS_EV_RECLAIM_END, 700, "cat", RS_RK_DIRECT, 1);
	UT_ASSERT_EQ(fx_finish(f), 0);

	UT_ASSERT_EQ(rs_cgroups_count(f->cg), 2);	/* /rs_x (merged) and (unknown) */
	UT_ASSERT_EQ(row(f->cg, "/rs_x")->memcg.id, 10199);
	UT_ASSERT_EQ(row(f->cg, "/rs_x")->trig[RS_RK_DIRECT].episodes, 1);
	UT_ASSERT_EQ(row(f->cg, "/rs_x")->trig[RS_RK_DIRECT].reclaimed, 9);
	UT_ASSERT_EQ(row(f->cg, "/rs_x")->soft_limit, 512ull << 20);
	UT_ASSERT_EQ(row(f->cg, "(unknown)")->trig[RS_RK_DIRECT].episodes, 1);
	return UT_OK;
}

static void snap(struct fx *f, uint64_t id, const char *path, uint64_t usage, uint64_t soft,
		 uint64_t inactive_anon_pages)
{
	struct rs_event ev = ev0(f, RS_EV_SNAP_MEMCG, 9, "rs-tree");

	ev.snap_memcg.id = id;
	ev.snap_memcg.path = path;
	ev.snap_memcg.usage = usage;
	ev.snap_memcg.limit = 1ull << 30;
	ev.snap_memcg.soft_limit = soft;
	ev.snap_memcg.lru_bytes[RS_LRU_INACTIVE_ANON] = inactive_anon_pages * 4096;
	ev.snap_memcg.swappiness = 60;
	feed(f, &ev);
}

/* Soft limits: pages taken while over / under, soft-limit episodes; kswapd as the trigger. */
FX_TEST(test_soft_limit, "cgroups: soft limits, kswapd trigger, active lists")
{
	const uint64_t unlimited = 9223372036854771712ull;
	const struct rs_cgroup *z, *y;
	int rz, ry;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	node_names(f);
	cg_map(f, 50, "/z");
	cg_map(f, 51, "/y");
	snap(f, 50, "/z", 8 << 20, 0, 0);		/* over: soft limit 0 */
	snap(f, 51, "/y", 8 << 20, unlimited, 0);	/* no soft limit: under */
	{
		struct rs_event ev = ev0(f, RS_EV_KSWAPD_WAKE, 45, "kswapd0");

		ev.have = RS_HAVE_NID | RS_HAVE_ORDER;
		feed(f, &ev);
	}
	reclaim(f, RS_EV_RECLAIM_BEGIN, 45, "kswapd0", RS_RK_SOFTLIMIT, 0);
	shrink_list(f, 45, "kswapd0", 50, true, 64, 64, I_PGSCAN_KSWAPD, I_PGSTEAL_KSWAPD);
	shrink_list(f, 45, "kswapd0", 50, true, 64, 60, I_PGSCAN_KSWAPD, I_PGSTEAL_KSWAPD);
	reclaim(f, RS_EV_RECLAIM_END, 45, "kswapd0", RS_RK_SOFTLIMIT, 124);
	shrink_list(f, 45, "kswapd0", 51, true, 32, 32, I_PGSCAN_KSWAPD, I_PGSTEAL_KSWAPD);
	/* an active list: PGREFILL (nr_scanned), PGDEACTIVATE (nr_deactivated) */
	shrink_active(f, 45, "kswapd0", 51, true, 16, 10);
	/* nothing taken: no shrink event, the next isolate closes it */
	isolate(f, 45, "kswapd0", RS_LRU_INACTIVE_ANON, 5, 0);
	count(f, 45, "kswapd0", 51, I_PGSCAN_KSWAPD, 5);
	isolate(f, 45, "kswapd0", RS_LRU_INACTIVE_ANON, 0, 0);
	count(f, 45, "kswapd0", 51, I_PGSCAN_KSWAPD, 0);
	UT_ASSERT_EQ(fx_finish(f), 0);

	rz = row_of(f->cg, "/z");
	ry = row_of(f->cg, "/y");
	z = rs_cgroups_get(f->cg, rz);
	y = rs_cgroups_get(f->cg, ry);
	UT_ASSERT_EQ(z->softlimit_episodes, 1);
	UT_ASSERT_EQ(z->pages[RS_CTX_SOFTLIMIT][RS_LRU_INACTIVE_FILE].reclaimed, 124);
	UT_ASSERT_EQ(z->taken_reclaimed[RS_CG_SOFT_OVER], 124);
	UT_ASSERT_EQ(z->taken_scanned[RS_CG_SOFT_OVER], 128);
	UT_ASSERT_EQ(y->taken_reclaimed[RS_CG_SOFT_UNDER], 32);
	UT_ASSERT_EQ(y->pages[RS_CTX_KSWAPD][RS_LRU_INACTIVE_FILE].reclaimed, 32);
	UT_ASSERT_EQ(y->pages[RS_CTX_KSWAPD][RS_LRU_ACTIVE_FILE].scanned, 16);
	UT_ASSERT_EQ(y->pages[RS_CTX_KSWAPD][RS_LRU_ACTIVE_FILE].deactivated, 10);
	UT_ASSERT_EQ(y->pages[RS_CTX_KSWAPD][RS_LRU_INACTIVE_ANON].isolate_only_scanned, 5);
	UT_ASSERT_EQ(rs_cgroups_attrib(f->cg)->isolates_without_shrink, 2);
	UT_ASSERT_EQ(rs_cgroups_attrib(f->cg)->isolates_without_shrink_matched, 2);
	UT_ASSERT_EQ(rs_cgroups_attrib(f->cg)->exact, 4);
	/* kswapd is the trigger, and no cgroup's trigger side counts its episodes */
	UT_ASSERT(cell(f->cg, RS_CG_KSWAPD, rz, RS_CTX_SOFTLIMIT));
	UT_ASSERT_EQ(cell(f->cg, RS_CG_KSWAPD, rz, RS_CTX_SOFTLIMIT)->reclaimed, 124);
	UT_ASSERT_EQ(cell(f->cg, RS_CG_KSWAPD, ry, RS_CTX_KSWAPD)->reclaimed, 32);
	UT_ASSERT(row_of(f->cg, "(unknown)") < 0);
	for (int i = 0; i < rs_cgroups_count(f->cg); i++)
		UT_ASSERT_EQ(rs_cgroups_get(f->cg, i)->trig[RS_RK_SOFTLIMIT].episodes, 0);
	return UT_OK;
}

/* LRU sizes: deltas from empty at mkdir against snapshots; missing increments are caught. */
FX_TEST(test_lru_sizes, "cgroups: LRU sizes against snapshots")
{
	const struct rs_cgroup *n, *m;

	UT_ASSERT(!fx_new(f, NULL));
	vm_names(f);
	node_names(f);
	cg_map(f, 60, "/");
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 4, 61, "/n", 1);
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 4, 62, "/m", 1);
	for (int i = 0; i < 10; i++)
		lruvec(f, 800, "w", 61, RS_LRU_INACTIVE_ANON, 1);
	lruvec(f, 800, "w", 61, 5, 100);	/* not an LRU item */
	snap(f, 61, "/n", 40960, UINT64_MAX, 10);
	lruvec(f, 800, "w", 61, RS_LRU_INACTIVE_ANON, 512);	/* a THP */
	f->ts += 5 * MS;		/* compared once per bucket (1 ms, no span known) */
	snap(f, 61, "/n", 40960, UINT64_MAX, 525);		/* 3 pages off */
	/* /m: more decrements than increments, as when events are lost */
	lruvec(f, 800, "w", 62, RS_LRU_INACTIVE_FILE, 4);
	lruvec(f, 800, "w", 62, RS_LRU_INACTIVE_FILE, -6);
	UT_ASSERT_EQ(fx_finish(f), 0);

	n = row(f->cg, "/n");
	m = row(f->cg, "/m");
	UT_ASSERT_EQ(n->lru_delta[RS_LRU_INACTIVE_ANON], 522);
	UT_ASSERT(n->anchored && n->offset_from_mkdir);
	UT_ASSERT_EQ(n->offset_pages[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(n->last_snap_pages[RS_LRU_INACTIVE_ANON], 525);
	UT_ASSERT_EQ(n->dis[RS_LRU_INACTIVE_ANON].n, 2);
	UT_ASSERT_EQ(n->dis[RS_LRU_INACTIVE_ANON].max_abs, 3);
	UT_ASSERT_EQ(n->dis[RS_LRU_INACTIVE_ANON].last, 3);
	UT_ASSERT_EQ(n->dis[RS_LRU_INACTIVE_ANON].step_n, 1);
	UT_ASSERT_EQ(n->dis[RS_LRU_INACTIVE_ANON].step_max_abs, 3);
	UT_ASSERT(!n->below_zero);
	UT_ASSERT_EQ(m->lru_delta_min[RS_LRU_INACTIVE_FILE], -2);
	UT_ASSERT(m->below_zero);
	UT_ASSERT(warned(f->w, "fall below zero in 1 cgroup(s)"));
	return UT_OK;
}

/* The cgroup cap: further ids share one row, with a warning; nothing is lost. */
FX_TEST(test_cgroup_cap, "cgroups: cgroup cap")
{
	struct rs_cgroups_opts o = { .max_cgroups = 2 };
	const struct rs_cgroup *other;

	UT_ASSERT(!fx_new(f, &o));
	vm_names(f);
	for (int i = 0; i < 5; i++)
		count(f, 900, "w", 70 + (uint64_t)i, I_PGSTEAL_DIRECT, 10);
	UT_ASSERT_EQ(fx_finish(f), 0);
	UT_ASSERT(rs_cgroups_facts(f->cg)->capped);
	UT_ASSERT_EQ(rs_cgroups_count(f->cg), 3);
	other = row(f->cg, "(other cgroups)");
	UT_ASSERT(other);
	UT_ASSERT_EQ(other->items[I_PGSTEAL_DIRECT], 30);
	UT_ASSERT(warned(f->w, "more than 2 cgroups"));
	return UT_OK;
}

/* The per-cgroup buckets are the analysis' buckets. */
UT_TEST(test_series_shared, "cgroups: buckets shared with the analysis")
{
	struct rs_analysis_opts ao = {
		.pid = -1, .span_first_ns = T0, .span_last_ns = T0 + 1000 * MS
	};
	const struct rs_series *s;
	const int64_t *v;
	struct rs_cgroups_opts co = { 0 };
	struct rs_consumer c;
	struct rs_cgroups *cg;
	struct rs_analysis *a;
	struct rs_warnings *w = rs_warnings_new();
	struct rs_error err;
	struct fx f;

	co.warnings = w;
	cg = rs_cgroups_new(&co, &err);
	UT_ASSERT(w && cg);
	rs_cgroups_consumer(cg, &c);
	ao.warnings = w;
	a = ut_analysis(&c, &ao, &err);
	UT_ASSERT(a);
	rs_cgroups_bind(cg, a);
	memset(&f, 0, sizeof(f));
	f.a = a;
	f.cg = cg;
	f.ts = T0 + 500 * MS;
	cg_map(&f, 90, "/q");
	lruvec(&f, 1, "w", 90, RS_LRU_INACTIVE_FILE, 7);
	f.ts = T0 + 999 * MS;
	lruvec(&f, 1, "w", 90, RS_LRU_INACTIVE_FILE, 5);
	UT_ASSERT_EQ(rs_analysis_finish(a, &err), 0);
	s = rs_analysis_series(a);
	UT_ASSERT(rs_cgroups_series_shared(cg));
	UT_ASSERT_EQ(rs_cgroups_buckets(cg).width, rs_series_buckets(s).width);
	UT_ASSERT_EQ(rs_cgroups_buckets(cg).t0, rs_series_buckets(s).t0);
	UT_ASSERT_EQ(rs_cgroups_buckets(cg).width, 10 * MS + 1);
	v = rs_cgroups_series(cg, row_of(cg, "/q"), RS_CG_TS_LRU_DELTA + RS_LRU_INACTIVE_FILE);
	UT_ASSERT(v);
	UT_ASSERT_EQ(v[(500 * MS + 10000) / (10 * MS + 1)], 7);
	UT_ASSERT_EQ(v[(999 * MS + 10000) / (10 * MS + 1)], 5);
	rs_cgroups_free(cg);
	rs_analysis_free(a);
	rs_warnings_free(w);
	return UT_OK;
}

/* A range: identity comes from the events before it, figures only from the range. */
FX_TEST(test_range_prefeed, "cgroups: a range takes identity from before it")
{
	struct rs_event ev;

	UT_ASSERT(!fx_new(f, NULL));
	/* before --from: markers and a mkdir, seen by rs_cgroups_prefeed() only */
	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_CGROUP_MAP;
	ev.ts = T0 - 5 * MS;
	ev.cgroup_map.id = 95;
	ev.cgroup_map.path = "/early";
	rs_cgroups_prefeed(f->cg, &ev);
	ev.type = RS_EV_CGROUP;
	ev.cgroup.op = RS_CG_MKDIR;
	ev.cgroup.root = 4;
	ev.cgroup.id = 96;
	ev.cgroup.path = "/early/kid";
	rs_cgroups_prefeed(f->cg, &ev);
	ev.type = RS_EV_TASK_CGROUP;
	ev.task_cgroup.pid = 950;
	ev.task_cgroup.id = 96;
	ev.task_cgroup.path = "/early/kid";
	rs_cgroups_prefeed(f->cg, &ev);
	ev.type = RS_EV_MEMCG_LRUVEC;		/* a figure: not for the prefeed */
	ev.memcg.id = 96;
	ev.memcg.item = RS_LRU_INACTIVE_FILE;
	ev.memcg.val = 100;
	rs_cgroups_prefeed(f->cg, &ev);
	/* the range */
	vm_names(f);
	reclaim(f, RS_EV_RECLAIM_BEGIN, 950, "w", RS_RK_MEMCG, 0);
	shrink_list(f, 950, "w", 96, true, 8, 8, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	reclaim(f, RS_EV_RECLAIM_END, 950, "w", RS_RK_MEMCG, 8);
	UT_ASSERT_EQ(fx_finish(f), 0);
	UT_ASSERT(row(f->cg, "/early/kid"));
	UT_ASSERT_EQ(row(f->cg, "/early/kid")->trig[RS_RK_MEMCG].episodes, 1);
	UT_ASSERT_EQ(row(f->cg, "/early/kid")->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed,
		     8);
	/* deltas before the range are unknown: not "empty at mkdir" */
	UT_ASSERT(!row(f->cg, "/early/kid")->offset_from_mkdir);
	UT_ASSERT_EQ(row(f->cg, "/early/kid")->lru_delta[RS_LRU_INACTIVE_FILE], -8);
	UT_ASSERT(row(f->cg, "/early/kid")->memcg.mkdir_ts);
	return UT_OK;
}

/* Node-stat items of a 7.x kernel (7.2: pgscan_*, pgsteal_*, pgrefill moved there). */
enum { N7_PGSTEAL_DIRECT = 50, N7_PGSCAN_DIRECT = 56, N7_PGREFILL = 61, N7_NR = 64 };

static void node_names_7x(struct fx *f)
{
	static const struct ut_item named[] = {
		{ 0, "nr_inactive_anon" }, { 1, "nr_active_anon" }, { 2, "nr_inactive_file" },
		{ 3, "nr_active_file" }, { 4, "nr_unevictable" },
		{ N7_PGSTEAL_DIRECT, "pgsteal_direct" }, { N7_PGSCAN_DIRECT, "pgscan_direct" },
		{ N7_PGREFILL, "pgrefill" }, { 0, NULL }
	};
	static const char *n[N7_NR];
	struct rs_event ev;

	ut_name_items(n, N7_NR, "nr_other", named);
	ev = ut_items(tick(f), 1, "rs-tree", RS_ITEMS_NODE_STAT, N7_NR, n);
	feed(f, &ev);
}

static void reclaim_7x(struct fx *f, enum rs_ev_type t, int pid, uint64_t memcg_id, uint64_t nr)
{
	struct rs_event ev = ev0(f, t, pid, "w");

	ev.reclaim.kind = RS_RK_MEMCG;
	ev.reclaim.nr_reclaimed = nr;
	ev.reclaim.memcg_id = memcg_id;
	ev.have = RS_HAVE_ORDER | RS_HAVE_MEMCG_ID;
	feed(f, &ev);
}

static void slab_7x(struct fx *f, enum rs_ev_type t, int pid, uint64_t memcg_id, int retval)
{
	struct rs_event ev = ev0(f, t, pid, "w");

	ev.slab.shrink_fn = 0xffffffff81000000ull;
	ev.slab.memcg_id = memcg_id;
	ev.slab.retval = retval;
	ev.have = RS_HAVE_MEMCG_ID;
	feed(f, &ev);
}

/*
 * 7.x: the memcg_id of reclaim begin/end is the root (the target), never a victim; the victim
 * comes from the node-stat pgscan/pgsteal items; shrink_slab names its memcg. Then MGLRU's
 * order: the scan counter before the isolate, the steal counter after the shrink event.
 */
FX_TEST(test_kernel7, "cgroups: 7.x memcg_id is the target, node-stat victims, slab, MGLRU order")
{
	const struct rs_cg_attrib *at;
	const struct rs_cgroup *p, *a, *b;

	UT_ASSERT_EQ(fx_new(f, NULL), 0);
	vm_names(f);
	node_names_7x(f);
	cg_map(f, 10, "/p");
	cg_map(f, 11, "/p/a");
	cg_map(f, 12, "/p/b");
	task_cg(f, 900, 11, "/p/a");
	/* a task of /p/a hits /p's limit; the pages come from /p/b */
	reclaim_7x(f, RS_EV_RECLAIM_BEGIN, 900, 10, 0);
	isolate(f, 900, "w", RS_LRU_INACTIVE_FILE, 32, 32);
	lruvec(f, 900, "w", 12, RS_LRU_INACTIVE_FILE, -32);
	lruvec(f, 900, "w", 12, N7_PGSCAN_DIRECT, 32);
	lruvec(f, 900, "w", 12, RS_LRU_INACTIVE_FILE, 2);
	lruvec(f, 900, "w", 12, N7_PGSTEAL_DIRECT, 30);
	shrink_in(f, 900, "w", true, 32, 30);
	slab_7x(f, RS_EV_SLAB_START, 900, 11, 0);
	slab_7x(f, RS_EV_SLAB_END, 900, 11, 5);
	reclaim_7x(f, RS_EV_RECLAIM_END, 900, 10, 30);
	/* MGLRU: PGSCAN before the isolate, PGSTEAL after the shrink event */
	reclaim_7x(f, RS_EV_RECLAIM_BEGIN, 900, 10, 0);
	lruvec(f, 900, "w", 12, N7_PGSCAN_DIRECT, 16);
	isolate(f, 900, "w", RS_LRU_INACTIVE_FILE, 16, 16);
	shrink_in(f, 900, "w", true, 16, 16);
	lruvec(f, 900, "w", 12, N7_PGSTEAL_DIRECT, 16);
	reclaim_7x(f, RS_EV_RECLAIM_END, 900, 10, 16);
	UT_ASSERT_EQ(fx_finish(f), 0);

	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 2, 1, 1, 0, [RS_CGR_SCAN_ONLY] = 1);
	p = row(f->cg, "/p");
	a = row(f->cg, "/p/a");
	b = row(f->cg, "/p/b");
	UT_ASSERT(p && a && b);
	UT_ASSERT(rs_cgroups_facts(f->cg)->kernel_roots);
	UT_ASSERT(rs_cgroups_facts(f->cg)->slab_memcgs);
	/* the root is the kernel's memcg_id, for both episodes; never a victim */
	UT_ASSERT_EQ(p->target_episodes, 2);
	UT_ASSERT_EQ(b->target_episodes, 0);
	UT_ASSERT_EQ(p->exact + p->fallback, 0);
	UT_ASSERT_EQ(a->trig[RS_RK_MEMCG].episodes, 2);
	UT_ASSERT_EQ(a->roots_kernel, 2);
	UT_ASSERT_EQ(a->nr_roots, 1);
	UT_ASSERT_EQ(a->roots[0].len, 2);	/* "/p" */
	UT_ASSERT_STR(rs_cgroups_get(f->cg, a->roots[0].cg)->memcg.path, "/p");
	/* the victim, from the node-stat counters */
	UT_ASSERT_EQ(b->exact, 1);
	UT_ASSERT_EQ(b->fallback_by[RS_CGR_SCAN_ONLY], 1);
	UT_ASSERT_EQ(b->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].scanned, 48);
	UT_ASSERT_EQ(b->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 46);
	UT_ASSERT(b->nr_node_items > N7_PGSTEAL_DIRECT && b->nr_node_items > N7_PGSCAN_DIRECT);
	UT_ASSERT_EQ(b->node_items[N7_PGSCAN_DIRECT], 48);
	UT_ASSERT_EQ(b->node_items[N7_PGSTEAL_DIRECT], 46);
	UT_ASSERT_STR(rs_cgroups_node_item_name(f->cg, N7_PGSCAN_DIRECT), "pgscan_direct");
	UT_ASSERT(rs_cgroups_facts(f->cg)->lru_names);
	/* no count_memcg_events, but memcg:* recorded (7.x counts reclaim as lruvec items) */
	UT_ASSERT(!warned(f->w, "no memcg:count_memcg_events"));
	/* shrink_slab of /p/a's memcg */
	UT_ASSERT_EQ(a->slab_calls, 1);
	UT_ASSERT_EQ(a->slab_freed, 5);
	UT_ASSERT_EQ(a->slab_ns, 10000);
	UT_ASSERT_EQ(p->slab_calls, 0);
	return UT_OK;
}

/* Before 7.1: no memcg_id, so no target and no per-memcg slab (absent, not 0). */
FX_TEST(test_no_kernel_roots, "cgroups: before 7.1 no target and no slab per memcg")
{

	UT_ASSERT_EQ(fx_new(f, NULL), 0);
	vm_names(f);
	reclaim(f, RS_EV_RECLAIM_BEGIN, 950, "w", RS_RK_MEMCG, 0);
	shrink_list(f, 950, "w", 96, true, 8, 8, I_PGSCAN_DIRECT, I_PGSTEAL_DIRECT);
	reclaim(f, RS_EV_RECLAIM_END, 950, "w", RS_RK_MEMCG, 8);
	UT_ASSERT_EQ(fx_finish(f), 0);
	UT_ASSERT(!rs_cgroups_facts(f->cg)->kernel_roots);
	UT_ASSERT(!rs_cgroups_facts(f->cg)->slab_memcgs);
	return UT_OK;
}

/* One shrink_inactive_list() of a trace without memcg events (plain trace-cmd record). */
static void bare_shrink(struct fx *f, int pid, uint64_t scanned, uint64_t reclaimed)
{
	isolate(f, pid, "w", RS_LRU_INACTIVE_FILE, scanned, scanned);
	shrink_in(f, pid, "w", true, scanned, reclaimed);
}

/* A 7.1+ limit reclaim call by pid of memcg id, one bare shrink: it reclaims what that did. */
static void bare_call(struct fx *f, int pid, uint64_t id, uint64_t scanned, uint64_t reclaimed)
{
	reclaim_7x(f, RS_EV_RECLAIM_BEGIN, pid, id, 0);
	bare_shrink(f, pid, scanned, reclaimed);
	reclaim_7x(f, RS_EV_RECLAIM_END, pid, id, reclaimed);
}

/*
 * 7.1+ without memcg counters: a limit reclaim call's pages are its memcg_id's only when that
 * memcg provably has no memcg below it (its reclaiming task is in it, on cgroup v2, and no
 * cgroup event names one below it); unknown otherwise.
 */
FX_TEST(test_kernel7_leaf, "cgroups: 7.1+ memcg_id of a memcg with none below it is the victim")
{
	const struct rs_cg_attrib *at;
	const struct rs_cgroup *leaf, *par, *kid;

	UT_ASSERT_EQ(fx_new(f, NULL), 0);
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 0, 20, "/leaf", 1);
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 0, 30, "/par", 1);
	cg_op(f, RS_EV_CGROUP, RS_CG_MKDIR, 0, 31, "/par/kid", 1);
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 0, 20, "/leaf", 700);
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 0, 31, "/par/kid", 701);
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 0, 30, "/par", 702);
	fork_ev(f, 700, 704);
	/* /leaf's task reclaims /leaf, twice (its forked child too): provable */
	reclaim_7x(f, RS_EV_RECLAIM_BEGIN, 700, 20, 0);
	bare_shrink(f, 700, 32, 7);
	bare_shrink(f, 700, 16, 5);
	reclaim_7x(f, RS_EV_RECLAIM_END, 700, 20, 12);
	bare_call(f, 704, 20, 8, 8);
	/* /par has a child: its limit reclaim may take /par/kid's pages, whoever enters it */
	bare_call(f, 701, 30, 32, 3);
	bare_call(f, 702, 30, 32, 4);
	/* a task of no known cgroup reclaims /leaf (memory.reclaim from outside): not provable */
	bare_call(f, 703, 20, 32, 6);
	UT_ASSERT_EQ(fx_finish(f), 0);

	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 6, 0, 3, 3, [RS_CGR_MEMCG_ID_LEAF] = 3, [RS_CGR_NO_MEMCG_EVENT] = 3);
	UT_ASSERT_STR(rs_cg_reason_name(RS_CGR_MEMCG_ID_LEAF), "memcg_id_leaf");
	leaf = row(f->cg, "/leaf");
	par = row(f->cg, "/par");
	kid = row(f->cg, "/par/kid");
	UT_ASSERT(leaf && par && kid);
	UT_ASSERT_EQ(leaf->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].shrinks, 3);
	UT_ASSERT_EQ(leaf->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].scanned, 56);
	UT_ASSERT_EQ(leaf->pages[RS_CTX_MEMCG][RS_LRU_INACTIVE_FILE].reclaimed, 20);
	UT_ASSERT_EQ(leaf->fallback_by[RS_CGR_MEMCG_ID_LEAF], 3);
	UT_ASSERT_EQ(par->exact + par->fallback + kid->exact + kid->fallback, 0);
	fx_free(f);

	/* cgroup v1 (events of the memory hierarchy, 4): a cgroup with tasks may have children */
	UT_ASSERT_EQ(fx_new(f, NULL), 0);
	cg_op(f, RS_EV_CGROUP_ATTACH, 0, 4, 20, "/leaf", 700);
	bare_call(f, 700, 20, 32, 7);
	UT_ASSERT_EQ(fx_finish(f), 0);
	at = rs_cgroups_attrib(f->cg);
	ASSERT_MATCHED(at, 1, 0, 0, 1, [RS_CGR_NO_MEMCG_EVENT] = 1);
	return UT_OK;
}
