// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/: episodes, per-LRU attribution, latency math, time buckets and bounds, fed with
 * synthetic rs_event sequences whose right answers are worked out by hand in each test.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "findings.h"
#include "latency.h"
#include "rs_warn.h"
#include "series.h"
#include "trace_source.h"
#include "unit.h"
#include "ut_events.h"

#define MS 1000000ull
#define T0 (100ull * 1000000000ull)	/* 100 s on the trace clock */

static struct rs_analysis *new_analysis(const struct rs_analysis_opts *o)
{
	struct rs_analysis_opts d = { .pid = -1 };
	struct rs_error err;

	return rs_analysis_new(o ? o : &d, &err);
}

/* A test of one analysis of every task: made before its body, freed after it. */
#define ANALYSIS_TEST(fn, desc) \
	UT_TEST_WITH(fn, desc, struct rs_analysis *, a, new_analysis(NULL), rs_analysis_free)

static struct rs_event base(enum rs_ev_type t, uint64_t ts, int cpu, int pid, const char *comm)
{
	struct rs_event ev = ut_event(t, ts, pid, comm);

	ev.cpu = cpu;
	return ev;
}

static void begin(struct rs_analysis *a, uint64_t ts, int cpu, int pid, const char *comm,
		  enum rs_reclaim_kind k, int order)
{
	struct rs_event ev = base(RS_EV_RECLAIM_BEGIN, ts, cpu, pid, comm);

	ev.reclaim.kind = k;
	ev.reclaim.order = order;
	ev.have = RS_HAVE_ORDER | RS_HAVE_GFP;
	rs_analysis_feed(a, &ev);
}

static void end(struct rs_analysis *a, uint64_t ts, int cpu, int pid, const char *comm,
		enum rs_reclaim_kind k, uint64_t nr)
{
	struct rs_event ev = base(RS_EV_RECLAIM_END, ts, cpu, pid, comm);

	ev.reclaim.kind = k;
	ev.reclaim.nr_reclaimed = nr;
	rs_analysis_feed(a, &ev);
}

/* 6.x lru_isolate: lru, no nid, no priority */
static void isolate(struct rs_analysis *a, uint64_t ts, int cpu, int pid, const char *comm,
		    int lru, uint64_t scanned, uint64_t taken)
{
	struct rs_event ev = base(RS_EV_LRU_ISOLATE, ts, cpu, pid, comm);

	ev.isolate.nid = -1;
	ev.isolate.lru = lru;
	ev.isolate.file = -1;
	ev.isolate.nr_requested = 32;
	ev.isolate.nr_scanned = scanned;
	ev.isolate.nr_taken = taken;
	ev.have = RS_HAVE_LRU | RS_HAVE_ZID | RS_HAVE_SKIPPED | RS_HAVE_ORDER;
	rs_analysis_feed(a, &ev);
}

/* 3.5-4.10 lru_isolate: only `file` */
static void isolate_old(struct rs_analysis *a, uint64_t ts, int pid, const char *comm, int file,
			uint64_t scanned)
{
	struct rs_event ev = base(RS_EV_LRU_ISOLATE, ts, 0, pid, comm);

	ev.isolate.nid = -1;
	ev.isolate.lru = -1;
	ev.isolate.file = file;
	ev.isolate.nr_scanned = scanned;
	ev.isolate.nr_taken = scanned;
	ev.have = RS_HAVE_FILE | RS_HAVE_ORDER | RS_HAVE_ISOLATE_MODE;
	rs_analysis_feed(a, &ev);
}

/* The reclaim_flags of an asynchronous shrink of a file or an anon list. */
static unsigned int async_flags(bool file)
{
	return (file ? RS_RECLAIM_WB_FILE : RS_RECLAIM_WB_ANON) | RS_RECLAIM_WB_ASYNC;
}

static void shrink_inactive(struct rs_analysis *a, uint64_t ts, int cpu, int pid,
			    const char *comm, int nid, int prio, bool file, uint64_t scanned,
			    uint64_t reclaimed)
{
	struct rs_event ev = base(RS_EV_SHRINK_INACTIVE, ts, cpu, pid, comm);

	ev.inactive.nid = nid;
	ev.inactive.priority = prio;
	ev.inactive.reclaim_flags = async_flags(file);
	ev.inactive.nr_scanned = scanned;
	ev.inactive.nr_reclaimed = reclaimed;
	ev.inactive.nr_activate_anon = file ? 0 : 2;
	ev.inactive.nr_ref_keep = 1;
	ev.have = RS_HAVE_NID | RS_HAVE_PRIORITY | RS_HAVE_SHRINK_DETAIL | RS_HAVE_ACTIVATE_SPLIT;
	rs_analysis_feed(a, &ev);
}

static void shrink_active(struct rs_analysis *a, uint64_t ts, int pid, const char *comm, int nid,
			  int prio, bool file, uint64_t taken, uint64_t deact)
{
	struct rs_event ev = base(RS_EV_SHRINK_ACTIVE, ts, 0, pid, comm);

	ev.active.nid = nid;
	ev.active.priority = prio;
	ev.active.reclaim_flags = async_flags(file);
	ev.active.nr_taken = taken;
	ev.active.nr_deactivated = deact;
	ev.active.nr_active = taken - deact;
	ev.have = RS_HAVE_NID | RS_HAVE_PRIORITY;
	rs_analysis_feed(a, &ev);
}

static void write_folio(struct rs_analysis *a, uint64_t ts, int pid, const char *comm,
			unsigned int flags)
{
	struct rs_event ev = base(RS_EV_WRITE_FOLIO, ts, 0, pid, comm);

	ev.write.reclaim_flags = flags;
	rs_analysis_feed(a, &ev);
}

static void kswapd(struct rs_analysis *a, enum rs_ev_type t, uint64_t ts, int pid, int order)
{
	struct rs_event ev = base(t, ts, 0, pid, "kswapd0");

	ev.kswapd.nid = 0;
	ev.kswapd.order = order;
	ev.have = RS_HAVE_NID | RS_HAVE_ORDER;
	rs_analysis_feed(a, &ev);
}

static void lost(struct rs_analysis *a, uint64_t ts, int cpu)
{
	struct rs_event ev = base(RS_EV_LOST, ts, cpu, -1, "<lost>");

	ev.lost = 10;
	rs_analysis_feed(a, &ev);
}

/* One complete order-0 episode of kind k by a task from ts to ts_end, reclaiming nr. */
static void episode(struct rs_analysis *a, uint64_t ts, uint64_t ts_end, int cpu, int pid,
		    const char *comm, enum rs_reclaim_kind k, uint64_t nr)
{
	begin(a, ts, cpu, pid, comm, k, 0);
	end(a, ts_end, cpu, pid, comm, k, nr);
}

/*
 * A soft-limit pass of one list by a task from ts to ts_end: its begin, the list isolated 1 ms
 * in and shrunk at priority prio 2 ms in, reclaiming what the pass then ends with.
 */
static void soft_pass(struct rs_analysis *a, uint64_t ts, uint64_t ts_end, int cpu, int pid,
		      const char *comm, int lru, int prio, uint64_t scanned, uint64_t reclaimed)
{
	bool file = lru == RS_LRU_INACTIVE_FILE || lru == RS_LRU_ACTIVE_FILE;

	begin(a, ts, cpu, pid, comm, RS_RK_SOFTLIMIT, 0);
	isolate(a, ts + 1 * MS, cpu, pid, comm, lru, scanned, scanned);
	shrink_inactive(a, ts + 2 * MS, cpu, pid, comm, 0, prio, file, scanned, reclaimed);
	end(a, ts_end, cpu, pid, comm, RS_RK_SOFTLIMIT, reclaimed);
}

static int finish(struct rs_analysis *a)
{
	struct rs_error err;

	return rs_analysis_finish(a, &err);
}

static const struct rs_episode_stats *eps(struct rs_analysis *a, int kind)
{
	return rs_analysis_episode_stats(a, kind);
}

static const struct rs_task_stats *task_of(struct rs_analysis *a, int pid)
{
	for (int i = 0; i < rs_analysis_nr_tasks(a); i++)
		if (rs_analysis_task(a, i)->pid == pid)
			return rs_analysis_task(a, i);
	return NULL;
}

/* A trace that ends mid-episode: counted as cut at the end, kept out of the latencies. */
ANALYSIS_TEST(test_cut_mid_episode, "analyzer: trace cut mid-episode")
{
	const struct rs_episode_stats *e;

	episode(a, T0, T0 + 2 * MS, 0, 100, "dd", RS_RK_DIRECT, 32);
	begin(a, T0 + 5 * MS, 0, 100, "dd", RS_RK_DIRECT, 9);
	isolate(a, T0 + 6 * MS, 0, 100, "dd", RS_LRU_INACTIVE_FILE, 32, 32);
	shrink_inactive(a, T0 + 7 * MS, 0, 100, "dd", 0, 12, true, 32, 30);
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_DIRECT);
	UT_ASSERT_EQ(e->count, 1);
	UT_ASSERT_EQ(e->reclaimed, 32);
	UT_ASSERT_EQ(e->status[RS_EP_CUT_END], 1);
	UT_ASSERT_EQ(e->latency.count, 1);
	UT_ASSERT_EQ(e->latency.total, 2 * MS);
	/* the cut episode's part inside the trace: its begin to the last event */
	UT_ASSERT_EQ(e->partial_ns, 2 * MS);
	UT_ASSERT_EQ(e->begun_by_order[0], 1);
	UT_ASSERT_EQ(e->begun_by_order[9], 1);
	UT_ASSERT_EQ(task_of(a, 100)->incomplete[RS_RK_DIRECT], 1);
	UT_ASSERT_EQ(task_of(a, 100)->stalled_ns, 2 * MS);
	return UT_OK;
}

/* Ends without begins: cut at the start (first of its kind for the task), else unmatched. */
ANALYSIS_TEST(test_end_without_begin, "analyzer: end without begin")
{
	const struct rs_episode_stats *e;

	isolate(a, T0, 0, 7, "cat", RS_LRU_INACTIVE_FILE, 10, 10);
	end(a, T0 + 1 * MS, 0, 7, "cat", RS_RK_MEMCG, 10);
	episode(a, T0 + 2 * MS, T0 + 5 * MS, 0, 7, "cat", RS_RK_MEMCG, 20);
	end(a, T0 + 6 * MS, 0, 7, "cat", RS_RK_MEMCG, 40);
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_MEMCG);
	UT_ASSERT_EQ(e->count, 1);
	UT_ASSERT_EQ(e->latency.total, 3 * MS);
	UT_ASSERT_EQ(e->reclaimed, 20);
	UT_ASSERT_EQ(e->status[RS_EP_CUT_START], 1);
	UT_ASSERT_EQ(e->status[RS_EP_UNMATCHED_END], 1);
	UT_ASSERT_EQ(e->reclaimed_unpaired, 50);
	/* the cut one lasted at least from the first event (the window start) to its end */
	UT_ASSERT_EQ(e->partial_ns, 1 * MS);
	return UT_OK;
}

/* Two tasks interleaved on one CPU: pairing and scanning follow the pid, not the CPU. */
ANALYSIS_TEST(test_interleaved_one_cpu, "analyzer: two tasks interleaved on one CPU")
{
	const struct rs_episode_stats *e;

	begin(a, T0, 0, 1, "a", RS_RK_DIRECT, 0);
	begin(a, T0 + 1 * MS, 0, 2, "b", RS_RK_DIRECT, 0);
	isolate(a, T0 + 2 * MS, 0, 1, "a", RS_LRU_INACTIVE_FILE, 11, 11);
	isolate(a, T0 + 3 * MS, 0, 2, "b", RS_LRU_INACTIVE_ANON, 22, 22);
	shrink_inactive(a, T0 + 4 * MS, 0, 1, "a", 0, 12, true, 11, 11);
	shrink_inactive(a, T0 + 5 * MS, 0, 2, "b", 0, 11, false, 22, 2);
	end(a, T0 + 6 * MS, 0, 1, "a", RS_RK_DIRECT, 11);
	end(a, T0 + 10 * MS, 0, 2, "b", RS_RK_DIRECT, 2);
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_DIRECT);
	UT_ASSERT_EQ(e->count, 2);
	UT_ASSERT_EQ(e->latency.total, 6 * MS + 9 * MS);
	UT_ASSERT_EQ(e->latency.min, 6 * MS);
	UT_ASSERT_EQ(e->latency.max, 9 * MS);
	UT_ASSERT_EQ(task_of(a, 1)->scanned, 11);
	UT_ASSERT_EQ(task_of(a, 1)->reclaimed, 11);
	UT_ASSERT_EQ(task_of(a, 2)->scanned, 22);
	UT_ASSERT_EQ(task_of(a, 2)->reclaimed, 2);
	UT_ASSERT_EQ(task_of(a, 2)->stalled_ns, 9 * MS);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->isolates_completed, 2);
	return UT_OK;
}

/* A task that migrates CPUs mid-episode keeps its episode and its pending isolate. */
ANALYSIS_TEST(test_migrating_task, "analyzer: task migrating CPUs mid-episode")
{
	struct rs_lru_counts c;

	begin(a, T0, 0, 5, "m", RS_RK_MEMCG, 0);
	isolate(a, T0 + 1 * MS, 0, 5, "m", RS_LRU_INACTIVE_FILE, 32, 32);
	shrink_inactive(a, T0 + 2 * MS, 1, 5, "m", 0, 3, true, 32, 31);
	end(a, T0 + 3 * MS, 1, 5, "m", RS_RK_MEMCG, 31);
	UT_ASSERT_EQ(finish(a), 0);
	UT_ASSERT_EQ(eps(a, RS_RK_MEMCG)->count, 1);
	UT_ASSERT_EQ(eps(a, RS_RK_MEMCG)->latency.total, 3 * MS);
	rs_analysis_lru_sum(a, 1, RS_LRU_INACTIVE_FILE, RS_CTX_MEMCG, 3, &c);
	UT_ASSERT_EQ(c.scanned, 32);
	UT_ASSERT_EQ(c.reclaimed, 31);
	return UT_OK;
}

/* Lost events mark the episodes open across them; ends after a loss count as broken too. */
ANALYSIS_TEST(test_lost_events, "analyzer: lost events mark episodes broken")
{
	const struct rs_episode_stats *e;

	episode(a, T0, T0 + 1 * MS, 0, 1, "a", RS_RK_DIRECT, 1);
	begin(a, T0 + 2 * MS, 0, 1, "a", RS_RK_DIRECT, 0);
	lost(a, T0 + 3 * MS, 1);
	end(a, T0 + 4 * MS, 0, 1, "a", RS_RK_DIRECT, 1);
	end(a, T0 + 5 * MS, 0, 1, "a", RS_RK_DIRECT, 7);	/* its begin was lost */
	episode(a, T0 + 6 * MS, T0 + 7 * MS, 0, 1, "a", RS_RK_DIRECT, 1);
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_DIRECT);
	UT_ASSERT_EQ(e->count, 3);
	UT_ASSERT_EQ(e->status[RS_EP_UNMATCHED_END], 1);
	UT_ASSERT_EQ(e->broken_by_lost_events, 2);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->lost_event_records, 1);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->lost_events, 10);
	return UT_OK;
}

/* A begin while the same kind is open: the first one's end was missed. */
ANALYSIS_TEST(test_missed_end, "analyzer: begin while open is a missed end")
{
	const struct rs_episode_stats *e;

	begin(a, T0, 0, 1, "a", RS_RK_DIRECT, 0);
	episode(a, T0 + 1 * MS, T0 + 3 * MS, 0, 1, "a", RS_RK_DIRECT, 4);
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_DIRECT);
	UT_ASSERT_EQ(e->count, 1);
	UT_ASSERT_EQ(e->latency.total, 2 * MS);
	UT_ASSERT_EQ(e->status[RS_EP_MISSED_END], 1);
	return UT_OK;
}

/*
 * Soft-limit reclaim inside kswapd and inside direct reclaim: the innermost episode is the
 * context of the scanning; the outer one keeps running and accrues the whole time.
 */
ANALYSIS_TEST(test_nested_softlimit, "analyzer: softlimit nested in kswapd and direct")
{
	const struct rs_episode_stats *sl;
	const struct rs_kswapd_stats *k;
	struct rs_lru_counts c;

	kswapd(a, RS_EV_KSWAPD_WAKE, T0, 45, 0);
	isolate(a, T0 + 1 * MS, 0, 45, "kswapd0", RS_LRU_INACTIVE_FILE, 100, 100);
	shrink_inactive(a, T0 + 2 * MS, 0, 45, "kswapd0", 0, 12, true, 100, 90);
	soft_pass(a, T0 + 3 * MS, T0 + 6 * MS, 0, 45, "kswapd0", RS_LRU_INACTIVE_ANON, 0, 32, 3);
	kswapd(a, RS_EV_KSWAPD_SLEEP, T0 + 8 * MS, 45, 0);
	/* direct reclaim of pid 9 with a soft-limit pass inside */
	begin(a, T0 + 10 * MS, 1, 9, "dd", RS_RK_DIRECT, 0);
	soft_pass(a, T0 + 11 * MS, T0 + 14 * MS, 1, 9, "dd", RS_LRU_INACTIVE_FILE, 0, 64, 64);
	end(a, T0 + 20 * MS, 1, 9, "dd", RS_RK_DIRECT, 64);
	UT_ASSERT_EQ(finish(a), 0);

	rs_analysis_lru_sum(a, -1, -1, RS_CTX_KSWAPD, -1, &c);
	UT_ASSERT_EQ(c.scanned, 100);
	rs_analysis_lru_sum(a, -1, -1, RS_CTX_SOFTLIMIT, -1, &c);
	UT_ASSERT_EQ(c.scanned, 32 + 64);
	rs_analysis_lru_sum(a, -1, RS_LRU_INACTIVE_ANON, RS_CTX_SOFTLIMIT, 0, &c);
	UT_ASSERT_EQ(c.scanned, 32);
	UT_ASSERT_EQ(c.reclaimed, 3);
	sl = eps(a, RS_RK_SOFTLIMIT);
	UT_ASSERT_EQ(sl->count, 2);
	UT_ASSERT_EQ(sl->by_parent[RS_CTX_KSWAPD], 1);
	UT_ASSERT_EQ(sl->by_parent[RS_CTX_DIRECT], 1);
	UT_ASSERT_EQ(sl->by_parent_ns[RS_CTX_DIRECT], 3 * MS);
	UT_ASSERT_EQ(eps(a, RS_RK_DIRECT)->latency.total, 10 * MS);
	/* dd stalled 10 ms (direct), not 13: the nested pass is inside it */
	UT_ASSERT_EQ(task_of(a, 9)->stalled_ns, 10 * MS);
	UT_ASSERT_EQ(task_of(a, 9)->episodes[RS_RK_SOFTLIMIT], 1);
	/* kswapd's soft-limit pass is no stall; its scanning is all in its row */
	UT_ASSERT_EQ(task_of(a, 45)->stalled_ns, 0);
	UT_ASSERT_EQ(task_of(a, 45)->scanned, 132);
	UT_ASSERT_EQ(rs_analysis_nr_kswapd(a), 1);
	k = rs_analysis_kswapd(a, 0);
	UT_ASSERT_EQ(k->wakes, 1);
	UT_ASSERT_EQ(k->periods, 1);
	UT_ASSERT_EQ(k->awake_ns, 8 * MS);
	return UT_OK;
}

/*
 * The findings (analyze's SUMMARY): the worst stall is the longest episode a task stalled in,
 * not kswapd's soft-limit pass (longer here); kswapd awake counts the period the trace cut;
 * the priority mean is scanned-weighted. Right answers by hand.
 */
ANALYSIS_TEST(test_findings, "analyzer: findings (worst stall, kswapd awake with cut, priority)")
{
	struct rs_findings f;

	/* kswapd: one complete period of 60 ms with a 50 ms soft-limit pass inside */
	kswapd(a, RS_EV_KSWAPD_WAKE, T0, 45, 0);
	soft_pass(a, T0 + 5 * MS, T0 + 55 * MS, 0, 45, "kswapd0", RS_LRU_INACTIVE_ANON, 0, 300, 30);
	kswapd(a, RS_EV_KSWAPD_SLEEP, T0 + 60 * MS, 45, 0);
	/* dd: 10 ms of direct reclaim with a 3 ms soft-limit pass inside */
	begin(a, T0 + 70 * MS, 1, 9, "dd", RS_RK_DIRECT, 0);
	soft_pass(a, T0 + 71 * MS, T0 + 74 * MS, 1, 9, "dd", RS_LRU_INACTIVE_FILE, 12, 100, 90);
	end(a, T0 + 80 * MS, 1, 9, "dd", RS_RK_DIRECT, 90);
	/* cat: 7 ms of memcg reclaim; kswapd wakes again and the trace ends 20 ms later */
	episode(a, T0 + 81 * MS, T0 + 88 * MS, 0, 11, "cat", RS_RK_MEMCG, 0);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 100 * MS, 45, 0);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 120 * MS, 45, 0);
	UT_ASSERT_EQ(finish(a), 0);

	rs_findings_of(a, NULL, NULL, &f);
	UT_ASSERT(f.worst_valid);
	UT_ASSERT_EQ(f.worst_kind, RS_RK_DIRECT);
	UT_ASSERT_EQ(f.worst_ns, 10 * MS);
	UT_ASSERT_EQ(f.worst_pid, 9);
	UT_ASSERT(!strcmp(f.worst_comm, "dd"));
	UT_ASSERT_EQ(f.worst_begin_ts, T0 + 70 * MS);
	/* the episode kinds keep every episode: the soft-limit max is kswapd's 50 ms pass */
	UT_ASSERT_EQ(f.stall[RS_RK_SOFTLIMIT].count, 2);
	UT_ASSERT_EQ(f.stall[RS_RK_SOFTLIMIT].max_ns, 50 * MS);
	UT_ASSERT_EQ(f.stall[RS_RK_MEMCG].total_ns, 7 * MS);
	/* awake: 60 ms complete + 20 ms cut at the end, of a 120 ms window */
	UT_ASSERT_EQ(f.kswapds, 1);
	UT_ASSERT_EQ(f.awake_ns, 60 * MS);
	UT_ASSERT_EQ(f.awake_cut_ns, 20 * MS);
	UT_ASSERT(f.awake_pct > 66.66 && f.awake_pct < 66.67);
	UT_ASSERT_EQ(f.wakes, 2);
	UT_ASSERT_EQ(f.rewakes, 1);
	UT_ASSERT_EQ(f.sleeps, 1);
	UT_ASSERT_EQ(f.reclaim_fail, -1);
	/* 300 anon pages at priority 0, 100 file pages at 12: mean 3, anon 75% */
	UT_ASSERT_EQ(f.scanned_anon, 300);
	UT_ASSERT_EQ(f.scanned_file, 100);
	UT_ASSERT(f.prio_mean == 3.0);
	UT_ASSERT(f.anon_pct == 75.0);
	UT_ASSERT(f.efficiency_pct == 30.0);	/* (30 + 90) / 400 */
	UT_ASSERT(!f.paid_most.valid && !f.caused_most.valid);
	return UT_OK;
}

/*
 * An isolate no shrink event follows (nothing taken: shrink_inactive_list() and MGLRU's
 * evict_folios() return first) is kswapd's own node's when kswapd scanned: balance_pgdat()
 * reclaims that node only. Its wake names the node; one awake since before the trace has only
 * its name, kswapd%d. Another task's stays node "unknown".
 */
ANALYSIS_TEST(test_isolate_kswapd_node, "analyzer: an uncompleted kswapd isolate is its node's")
{
	struct rs_event ev = base(RS_EV_KSWAPD_WAKE, T0, 1, 60, "kswapd1");
	struct rs_lru_counts c;

	ev.kswapd.nid = 1;
	ev.have = RS_HAVE_NID | RS_HAVE_ORDER;
	rs_analysis_feed(a, &ev);
	isolate(a, T0 + 1, 1, 60, "kswapd1", RS_LRU_INACTIVE_ANON, 64, 0);
	isolate(a, T0 + 2, 1, 60, "kswapd1", RS_LRU_INACTIVE_FILE, 32, 32);
	shrink_inactive(a, T0 + 3, 1, 60, "kswapd1", 1, 9, true, 32, 30);
	/* a second node's kswapd awake since before the trace: its name only */
	isolate(a, T0 + 4, 0, 61, "kswapd2", RS_LRU_INACTIVE_ANON, 16, 0);
	isolate(a, T0 + 5, 0, 61, "kswapd2", RS_LRU_INACTIVE_ANON, 8, 0);
	/* direct reclaim walks a zonelist: the node of what it took nothing from is unknown */
	begin(a, T0 + 6, 0, 3, "t", RS_RK_DIRECT, 0);
	isolate(a, T0 + 7, 0, 3, "t", RS_LRU_INACTIVE_ANON, 4, 0);
	end(a, T0 + 8, 0, 3, "t", RS_RK_DIRECT, 0);
	UT_ASSERT_EQ(finish(a), 0);

	/* node n is slot n + 1 */
	rs_analysis_lru_sum(a, 2, RS_LRU_INACTIVE_ANON, RS_CTX_KSWAPD, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.isolates, 1);
	UT_ASSERT_EQ(c.scanned, 64);
	rs_analysis_lru_sum(a, 2, RS_LRU_INACTIVE_FILE, RS_CTX_KSWAPD, 9, &c);
	UT_ASSERT_EQ(c.scanned, 32);
	rs_analysis_lru_sum(a, 3, RS_LRU_INACTIVE_ANON, RS_CTX_KSWAPD, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.isolates, 2);
	UT_ASSERT_EQ(c.scanned, 24);
	rs_analysis_lru_sum(a, 0, RS_LRU_INACTIVE_ANON, RS_CTX_KSWAPD, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.isolates, 0);
	rs_analysis_lru_sum(a, 0, RS_LRU_INACTIVE_ANON, RS_CTX_DIRECT, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.isolates, 1);
	UT_ASSERT_EQ(c.scanned, 4);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->isolates_uncompleted, 4);
	return UT_OK;
}

/* The isolate is completed by the next shrink event of its list: node, priority, writes. */
ANALYSIS_TEST(test_isolate_completion, "analyzer: isolate completed by the next shrink")
{
	struct rs_lru_counts c;

	begin(a, T0, 0, 3, "t", RS_RK_DIRECT, 0);
	isolate(a, T0 + 1, 0, 3, "t", RS_LRU_INACTIVE_FILE, 40, 32);
	write_folio(a, T0 + 2, 3, "t", RS_RECLAIM_WB_FILE | RS_RECLAIM_WB_SYNC);
	write_folio(a, T0 + 3, 3, "t", RS_RECLAIM_WB_FILE | RS_RECLAIM_WB_ASYNC);
	shrink_inactive(a, T0 + 4, 0, 3, "t", 1, 10, true, 32, 30);
	isolate(a, T0 + 5, 0, 3, "t", RS_LRU_ACTIVE_ANON, 16, 16);
	shrink_active(a, T0 + 6, 3, "t", 1, 9, false, 16, 5);
	/* an isolate of a list whose shrink event never comes (kernel returned early) */
	isolate(a, T0 + 7, 0, 3, "t", RS_LRU_INACTIVE_ANON, 0, 0);
	isolate(a, T0 + 8, 0, 3, "t", RS_LRU_INACTIVE_ANON, 8, 8);
	end(a, T0 + 9, 0, 3, "t", RS_RK_DIRECT, 30);
	UT_ASSERT_EQ(finish(a), 0);

	/* node 1 is slot 2 */
	rs_analysis_lru_sum(a, 2, RS_LRU_INACTIVE_FILE, RS_CTX_DIRECT, 10, &c);
	UT_ASSERT_EQ(c.isolates, 1);
	UT_ASSERT_EQ(c.scanned, 40);
	UT_ASSERT_EQ(c.taken, 32);
	UT_ASSERT_EQ(c.reclaimed, 30);
	UT_ASSERT_EQ(c.write_file, 2);
	UT_ASSERT_EQ(c.write_sync, 1);
	UT_ASSERT_EQ(c.write_async, 1);
	rs_analysis_lru_sum(a, 2, RS_LRU_ACTIVE_ANON, RS_CTX_DIRECT, 9, &c);
	UT_ASSERT_EQ(c.scanned, 16);
	UT_ASSERT_EQ(c.deactivated, 5);
	UT_ASSERT_EQ(c.active_kept, 11);
	/* the two uncompleted ones: node and priority unknown */
	rs_analysis_lru_sum(a, 0, RS_LRU_INACTIVE_ANON, RS_CTX_DIRECT, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.isolates, 2);
	UT_ASSERT_EQ(c.scanned, 8);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->isolates_completed, 2);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->isolates_uncompleted, 2);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->uncompleted_scanned, 8);
	rs_analysis_lru_sum(a, -1, -1, -1, -1, &c);
	UT_ASSERT_EQ(c.scanned, 40 + 16 + 8);
	UT_ASSERT_EQ(task_of(a, 3)->write_sync, 1);
	UT_ASSERT_EQ(task_of(a, 3)->scanned_inactive, 48);
	return UT_OK;
}

/* 3.5-4.10: lru_isolate has only `file`; the next event says inactive or active. */
ANALYSIS_TEST(test_isolate_old_format, "analyzer: old-format isolate with only file")
{
	struct rs_lru_counts c;

	isolate_old(a, T0 + 1, 4, "k", 1, 20);
	shrink_active(a, T0 + 2, 4, "k", 0, 12, true, 20, 4);
	isolate_old(a, T0 + 3, 4, "k", 0, 30);
	shrink_inactive(a, T0 + 4, 0, 4, "k", 0, 11, false, 30, 6);
	isolate_old(a, T0 + 5, 4, "k", 1, 7);		/* trace ends before its shrink */
	UT_ASSERT_EQ(finish(a), 0);
	rs_analysis_lru_sum(a, 1, RS_LRU_ACTIVE_FILE, RS_CTX_OTHER, 12, &c);
	UT_ASSERT_EQ(c.scanned, 20);
	rs_analysis_lru_sum(a, 1, RS_LRU_INACTIVE_ANON, RS_CTX_OTHER, 11, &c);
	UT_ASSERT_EQ(c.scanned, 30);
	UT_ASSERT_EQ(c.reclaimed, 6);
	rs_analysis_lru_sum(a, 0, RS_LIST_UNKNOWN, -1, RS_PRIO_UNKNOWN, &c);
	UT_ASSERT_EQ(c.scanned, 7);
	return UT_OK;
}

/* kswapd: first wake starts a period, wakes while awake are re-wakes, sleep ends it. */
ANALYSIS_TEST(test_kswapd_periods, "analyzer: kswapd wakes, re-wakes, periods")
{
	const struct rs_kswapd_stats *k;

	/* awake when the trace starts: scanning before any wake or sleep */
	isolate(a, T0, 0, 45, "kswapd0", RS_LRU_INACTIVE_FILE, 5, 5);
	shrink_inactive(a, T0 + 1 * MS, 0, 45, "kswapd0", 0, 12, true, 5, 5);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 2 * MS, 45, 3);	/* a re-wake */
	kswapd(a, RS_EV_KSWAPD_SLEEP, T0 + 4 * MS, 45, 0);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 10 * MS, 45, 9);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 11 * MS, 45, 0);
	kswapd(a, RS_EV_KSWAPD_SLEEP, T0 + 15 * MS, 45, 0);
	kswapd(a, RS_EV_KSWAPD_WAKE, T0 + 20 * MS, 45, 2);
	isolate(a, T0 + 22 * MS, 0, 45, "kswapd0", RS_LRU_INACTIVE_FILE, 5, 5);
	UT_ASSERT_EQ(finish(a), 0);
	UT_ASSERT_EQ(rs_analysis_nr_kswapd(a), 1);
	k = rs_analysis_kswapd(a, 0);
	UT_ASSERT_EQ(k->wakes, 2);
	UT_ASSERT_EQ(k->rewakes, 2);
	UT_ASSERT_EQ(k->wakes_by_order[9], 1);
	UT_ASSERT_EQ(k->wakes_by_order[2], 1);
	UT_ASSERT_EQ(k->rewakes_by_order[3], 1);
	UT_ASSERT_EQ(k->sleeps, 2);
	UT_ASSERT_EQ(k->periods, 1);
	UT_ASSERT_EQ(k->awake_ns, 5 * MS);
	/* cut: T0..T0+4 ms at the start, T0+20..T0+22 ms at the end */
	UT_ASSERT_EQ(k->awake_cut_ns, 6 * MS);
	UT_ASSERT_EQ(eps(a, RS_CTX_KSWAPD)->status[RS_EP_CUT_START], 1);
	UT_ASSERT_EQ(eps(a, RS_CTX_KSWAPD)->status[RS_EP_CUT_END], 1);
	return UT_OK;
}

/* Nearest rank on known samples. */
UT_TEST(test_percentiles, "analyzer: nearest-rank percentiles")
{
	struct rs_latency *l = rs_latency_new(0);
	struct rs_latency_summary s;
	uint64_t three[3] = { 10, 20, 30 };

	UT_ASSERT(l);
	UT_ASSERT_EQ(rs_percentile_nearest_rank(three, 3, 1), 10);
	UT_ASSERT_EQ(rs_percentile_nearest_rank(three, 3, 50), 20);
	UT_ASSERT_EQ(rs_percentile_nearest_rank(three, 3, 67), 30);	/* rank ceil(2.01) */
	UT_ASSERT_EQ(rs_percentile_nearest_rank(three, 3, 66), 20);	/* rank ceil(1.98) */
	UT_ASSERT_EQ(rs_percentile_nearest_rank(three, 3, 99), 30);
	/* 1..100 added in reverse: p equals the sample */
	for (int i = 100; i >= 1; i--)
		rs_latency_add(l, (uint64_t)i);
	rs_latency_summary(l, &s);
	UT_ASSERT_EQ(s.count, 100);
	UT_ASSERT_EQ(s.min, 1);
	UT_ASSERT_EQ(s.max, 100);
	UT_ASSERT_EQ(s.total, 5050);
	UT_ASSERT(!s.approximate);
	for (int i = 0; i < RS_LAT_NR_PCT; i++)
		UT_ASSERT_EQ(s.pct[i], rs_lat_pcts[i]);
	rs_latency_free(l);
	return UT_OK;
}

/* Past the sample bound: histogram, flagged approximate, within 1/128 of the exact value. */
UT_TEST(test_percentiles_histogram, "analyzer: histogram past the sample bound")
{
	struct rs_latency *l = rs_latency_new(64);
	struct rs_latency_summary s;

	UT_ASSERT(l);
	for (uint64_t i = 1; i <= 1000; i++)
		rs_latency_add(l, i * 1000);
	rs_latency_summary(l, &s);
	UT_ASSERT(s.approximate);
	UT_ASSERT_EQ(s.count, 1000);
	UT_ASSERT_EQ(s.max, 1000000);
	UT_ASSERT_EQ(s.total, 500500000);
	for (int i = 0; i < RS_LAT_NR_PCT; i++) {
		uint64_t exact = (uint64_t)rs_lat_pcts[i] * 10 * 1000;

		UT_ASSERT(s.pct[i] <= exact);
		UT_ASSERT(s.pct[i] >= exact - exact / 128);
	}
	rs_latency_free(l);
	return UT_OK;
}

/* MMTests bucket edges: lower bounds inclusive, so exactly 5 ms is in [5,10). */
ANALYSIS_TEST(test_mmtests_edges, "analyzer: MMTests bucket edges")
{
	const struct rs_episode_stats *e;
	static const uint64_t lat[] = { 0, 5 * MS - 1, 5 * MS, 10 * MS, 100 * MS, 500 * MS,
					1000 * MS, 5000 * MS, 4999 * MS };
	uint64_t t = T0;

	UT_ASSERT_EQ(rs_mmt_bucket(4999999), 0);
	UT_ASSERT_EQ(rs_mmt_bucket(5000000), 1);
	UT_ASSERT_EQ(rs_mmt_bucket(9999999), 1);
	UT_ASSERT_EQ(rs_mmt_bucket(10000000), 2);
	UT_ASSERT_EQ(rs_mmt_bucket(5000000000ull), 6);
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		episode(a, t, t + lat[i], 0, 1, "a", RS_RK_DIRECT, 0);
		t += lat[i] + MS;
	}
	UT_ASSERT_EQ(finish(a), 0);
	e = eps(a, RS_RK_DIRECT);
	UT_ASSERT_EQ(e->latency.mmtests[0], 2);
	UT_ASSERT_EQ(e->latency.mmtests[1], 1);
	UT_ASSERT_EQ(e->latency.mmtests[2], 1);
	UT_ASSERT_EQ(e->latency.mmtests[3], 1);
	UT_ASSERT_EQ(e->latency.mmtests[4], 1);
	UT_ASSERT_EQ(e->latency.mmtests[5], 2);
	UT_ASSERT_EQ(e->latency.mmtests[6], 1);
	return UT_OK;
}

/* More tasks than the cap: a warning, no growth, figures of capped tasks still counted. */
UT_TEST(test_task_cap, "analyzer: task cap warns and stops growing")
{
	struct rs_analysis_opts o = { .pid = -1, .max_tasks = 4 };
	struct rs_analysis *a = new_analysis(&o);
	struct rs_lru_counts c;
	size_t n;

	UT_ASSERT(a);
	for (int pid = 1; pid <= 10; pid++) {
		begin(a, T0 + (uint64_t)pid * MS, 0, pid, "x", RS_RK_DIRECT, 0);
		isolate(a, T0 + (uint64_t)pid * MS + 1, 0, pid, "x", RS_LRU_INACTIVE_FILE, 3, 3);
		end(a, T0 + (uint64_t)pid * MS + 2, 0, pid, "x", RS_RK_DIRECT, 0);
	}
	UT_ASSERT_EQ(finish(a), 0);
	UT_ASSERT_EQ(rs_analysis_nr_tasks(a), 4);
	UT_ASSERT_EQ(rs_episodes_nr_tasks(rs_analysis_episodes_ctx(a)), 4);
	UT_ASSERT_EQ(eps(a, RS_RK_DIRECT)->count, 4);
	UT_ASSERT_EQ(rs_analysis_attrib(a)->untracked_events, 18);
	rs_analysis_lru_sum(a, -1, RS_LRU_INACTIVE_FILE, -1, -1, &c);
	UT_ASSERT_EQ(c.scanned, 30);
	n = rs_warnings_count(rs_analysis_warnings(a));
	UT_ASSERT(n >= 1);
	UT_ASSERT(strstr(rs_warnings_get(rs_analysis_warnings(a), 0, NULL), "more than 4 tasks"));
	rs_analysis_free(a);
	return UT_OK;
}

/* More buckets than the cap: widened with a warning; totals kept. */
UT_TEST(test_bucket_cap, "analyzer: bucket cap widens buckets")
{
	struct rs_analysis_opts o = { .pid = -1, .bucket_ns = 1000, .max_buckets = 50,
				      .span_first_ns = T0, .span_last_ns = T0 + 10 * MS };
	struct rs_analysis *a = new_analysis(&o);
	const struct rs_series *s;
	uint64_t sum = 0;

	UT_ASSERT(a);
	for (int i = 0; i < 10; i++) {
		isolate(a, T0 + (uint64_t)i * MS, 0, 1, "a", RS_LRU_INACTIVE_FILE, 7, 7);
		shrink_inactive(a, T0 + (uint64_t)i * MS + 1, 0, 1, "a", 0, 12, true, 7, 7);
	}
	UT_ASSERT_EQ(finish(a), 0);
	s = rs_analysis_series(a);
	UT_ASSERT(rs_series_buckets(s).len <= 50);
	UT_ASSERT(rs_series_buckets(s).width >= 10 * MS / 50);
	for (size_t i = 0; i < rs_series_buckets(s).len; i++)
		sum += rs_series_values(s, RS_TS_SCANNED_IF)[i];
	UT_ASSERT_EQ(sum, 70);
	UT_ASSERT(rs_warnings_count(rs_analysis_warnings(a)) >= 1);
	rs_analysis_free(a);
	return UT_OK;
}

/* Absurd timestamps (a corrupt text trace) widen the buckets; they never grow past the cap. */
ANALYSIS_TEST(test_absurd_timestamps, "analyzer: absurd timestamps stay bounded")
{
	const struct rs_series *s;
	uint64_t sum = 0;

	isolate(a, 1, 0, 1, "a", RS_LRU_INACTIVE_FILE, 1, 1);
	isolate(a, T0, 0, 1, "a", RS_LRU_INACTIVE_FILE, 2, 2);
	isolate(a, UINT64_MAX / 2, 0, 1, "a", RS_LRU_INACTIVE_FILE, 4, 4);
	episode(a, UINT64_MAX / 2 + 1, UINT64_MAX - 1, 0, 2, "b", RS_RK_DIRECT, 0);
	UT_ASSERT_EQ(finish(a), 0);
	s = rs_analysis_series(a);
	UT_ASSERT(rs_series_buckets(s).len <= 200);
	for (size_t i = 0; i < rs_series_buckets(s).len; i++)
		sum += rs_series_values(s, RS_TS_SCANNED_IF)[i];
	UT_ASSERT_EQ(sum, 7);
	UT_ASSERT_EQ(eps(a, RS_RK_DIRECT)->latency.total, UINT64_MAX / 2 - 1);
	return UT_OK;
}

/* Default buckets: span / 100; spans split exactly across buckets. */
UT_TEST(test_series_spans, "analyzer: spans split across buckets")
{
	struct rs_series_opts so = { .nr_metrics = 1, .t0 = 1000, .t1 = 2000 };
	struct rs_series *s = rs_series_new(&so);
	const uint64_t *v;

	UT_ASSERT(s);
	UT_ASSERT_EQ(rs_series_buckets(s).width, 11);	/* 1000 / 100 + 1: at most 100 buckets */
	rs_series_add_span(s, 0, 1005, 1031);
	rs_series_finish(s, 2000);
	UT_ASSERT_EQ(rs_series_buckets(s).len, 91);
	v = rs_series_values(s, 0);
	UT_ASSERT_EQ(v[0], 6);		/* [1005, 1011) */
	UT_ASSERT_EQ(v[1], 11);		/* [1011, 1022) */
	UT_ASSERT_EQ(v[2], 9);		/* [1022, 1031) */
	UT_ASSERT_EQ(v[3], 0);
	rs_series_free(s);
	return UT_OK;
}

/* --pid/--comm: only the matching tasks count. */
UT_TEST(test_filter, "analyzer: pid/comm filter")
{
	struct rs_analysis_opts o = { .pid = -1, .comm = "dd" };
	struct rs_analysis *a = new_analysis(&o);
	struct rs_lru_counts c;

	UT_ASSERT(a);
	begin(a, T0, 0, 1, "dd", RS_RK_DIRECT, 0);
	begin(a, T0, 1, 2, "cat", RS_RK_DIRECT, 0);
	isolate(a, T0 + 1, 0, 1, "dd", RS_LRU_INACTIVE_FILE, 10, 10);
	isolate(a, T0 + 1, 1, 2, "cat", RS_LRU_INACTIVE_FILE, 20, 20);
	end(a, T0 + MS, 0, 1, "dd", RS_RK_DIRECT, 0);
	end(a, T0 + 2 * MS, 1, 2, "cat", RS_RK_DIRECT, 0);
	UT_ASSERT_EQ(finish(a), 0);
	UT_ASSERT_EQ(eps(a, RS_RK_DIRECT)->count, 1);
	UT_ASSERT_EQ(eps(a, RS_RK_DIRECT)->latency.total, MS);
	rs_analysis_lru_sum(a, -1, -1, -1, -1, &c);
	UT_ASSERT_EQ(c.scanned, 10);
	rs_analysis_free(a);
	return UT_OK;
}

struct seen {
	int events, episodes, memcg;
	int end_kind, end_episode_first;
	uint64_t last_serial;
};

static int consumer_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct seen *s = arg;

	s->events++;
	if (ev->type == RS_EV_MEMCG_COUNT && ctx->kind == RS_CTX_MEMCG && ctx->task >= 0)
		s->memcg++;
	if (ev->type == RS_EV_RECLAIM_END) {
		s->end_kind = ctx->kind;
		s->end_episode_first = s->episodes == 1 && s->last_serial == ctx->serial;
	}
	return 0;
}

static void consumer_episode(void *arg, const struct rs_episode *ep)
{
	struct seen *s = arg;

	s->episodes++;
	s->last_serial = ep->serial;
}

/* A consumer sees every event with its context, and each episode before the event ending it. */
UT_TEST(test_consumer, "analyzer: consumers see events with context")
{
	struct seen s = { 0 };
	struct rs_consumer c = { .name = "t", .arg = &s, .event = consumer_event,
				 .episode = consumer_episode };
	struct rs_analysis_opts o = { .pid = -1, .consumers = &c, .nr_consumers = 1 };
	struct rs_analysis *a = new_analysis(&o);
	struct rs_event m = base(RS_EV_MEMCG_COUNT, T0 + 2, 0, 8, "w");

	UT_ASSERT(a);
	begin(a, T0, 0, 8, "w", RS_RK_MEMCG, 0);
	m.memcg.item = 29;
	m.memcg.val = 32;
	rs_analysis_feed(a, &m);
	end(a, T0 + 3, 0, 8, "w", RS_RK_MEMCG, 32);
	UT_ASSERT_EQ(finish(a), 0);
	UT_ASSERT_EQ(s.events, 3);
	UT_ASSERT_EQ(s.memcg, 1);
	UT_ASSERT_EQ(s.episodes, 1);
	UT_ASSERT_EQ(s.end_kind, RS_CTX_MEMCG);
	UT_ASSERT(s.end_episode_first);
	rs_analysis_free(a);
	return UT_OK;
}

/*
 * A real recording, when present: the analysis agrees with the loader's own event counts and
 * its breakdowns add up (tests/e2e/analyze.sh checks the sums against trace-cmd report).
 */
UT_TEST(test_fixture_memcg_stream, "analyzer: memcg-stream fixture")
{
	struct rs_analysis_opts o = { .pid = -1 };
	const struct rs_episode_stats *e;
	const struct rs_attrib_stats *at;
	const struct rs_source *src;
	struct rs_lru_counts c, n;
	struct rs_analysis *a;
	struct rs_error err;
	uint64_t tasks = 0, incomplete = 0;
	FILE *f = fopen(FIXTURE("memcg-stream.dat"), "r");

	if (!f)
		return UT_SKIP;
	fclose(f);
	UT_ASSERT_EQ(rs_analysis_run(FIXTURE("memcg-stream.dat"), &o, &a, &err), 0);
	src = rs_analysis_source(a);
	e = eps(a, RS_RK_MEMCG);
	at = rs_analysis_attrib(a);
	UT_ASSERT(e->count > 0);
	for (int s = 1; s < RS_EP_NR_STATUS; s++)
		incomplete += e->status[s];
	/* every begin and every end is in exactly one episode */
	UT_ASSERT_EQ(e->count + e->status[RS_EP_CUT_END] + e->status[RS_EP_MISSED_END],
		     ut_event_count(src, "mm_vmscan_memcg_reclaim_begin"));
	UT_ASSERT_EQ(e->count + e->status[RS_EP_CUT_START] + e->status[RS_EP_UNMATCHED_END],
		     ut_event_count(src, "mm_vmscan_memcg_reclaim_end"));
	UT_ASSERT_EQ(at->isolates_completed + at->isolates_uncompleted,
		     ut_event_count(src, "mm_vmscan_lru_isolate"));
	rs_analysis_lru_sum(a, -1, -1, -1, -1, &c);
	UT_ASSERT_EQ(c.isolates, ut_event_count(src, "mm_vmscan_lru_isolate"));
	UT_ASSERT_EQ(c.inactive_shrinks, ut_event_count(src, "mm_vmscan_lru_shrink_inactive"));
	UT_ASSERT(c.scanned > 0);
	/* node 0 and the unknown node hold everything on this one-node machine */
	rs_analysis_lru_sum(a, 1, -1, -1, -1, &n);
	rs_analysis_lru_sum(a, 0, -1, -1, -1, &c);
	rs_lru_counts_add(&n, &c);
	rs_analysis_lru_sum(a, -1, -1, -1, -1, &c);
	UT_ASSERT_EQ(n.scanned, c.scanned);
	UT_ASSERT_EQ(n.reclaimed, c.reclaimed);
	for (int i = 0; i < rs_analysis_nr_tasks(a); i++)
		tasks += rs_analysis_task(a, i)->scanned;
	UT_ASSERT_EQ(tasks, c.scanned);
	UT_ASSERT_EQ(e->latency.count, e->count);
	UT_ASSERT(e->latency.min <= e->latency.pct[4] && e->latency.pct[4] <= e->latency.max);
	rs_analysis_free(a);
	return UT_OK;
}
