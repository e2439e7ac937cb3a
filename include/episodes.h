/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim context per task: which reclaim episode each task is in at each event.
 *
 * Episodes are the kernel's begin/end tracepoint pairs (direct, memcg, memcg_softlimit and node
 * reclaim), paired per task (common_pid: a task may migrate CPUs mid-episode, and tasks
 * interleave on a CPU), and kswapd's awake periods, from mm_vmscan_kswapd_wake to
 * mm_vmscan_kswapd_sleep of the kswapd task. Episodes nest: in cgroup v1, soft-limit reclaim
 * runs inside kswapd's balancing or inside direct reclaim; the innermost open episode is the
 * context of an event, and the outer one stays open (its duration includes the inner one's).
 *
 * kswapd tasks are the tasks that emit kswapd_wake/kswapd_sleep, or whose comm is kswapd<N>.
 * Everything a kswapd task does is in context "kswapd" unless a soft-limit episode is open.
 * Events of other tasks outside any episode are in context "other" (e.g. proactive reclaim,
 * mm_vmscan_reclaim_pages from MADV_PAGEOUT or DAMON).
 *
 * Episodes the trace does not show whole are reported with their status, never dropped:
 * RS_EP_CUT_START (an end whose task had no earlier begin or end of that kind: it began before
 * the trace or range), RS_EP_CUT_END (still open at the end), RS_EP_UNMATCHED_END (an end
 * without a begin later on: the begin was lost), RS_EP_MISSED_END (a begin of a kind already
 * open, or an outer end, closed it: its end was lost). Any episode open while the ring buffer
 * lost events (RS_EV_LOST, on any CPU) is flagged `broken`.
 *
 * Lifetime: rs_episodes_new() -> rs_episodes_feed() per event, in time order ->
 * rs_episodes_finish() -> readers -> rs_episodes_free(). All state is in the struct.
 */
#ifndef RS_EPISODES_H
#define RS_EPISODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs_event.h"

struct rs_warnings;
struct rs_memcg_ctx;
struct rs_memcg_root;

/* Reclaim contexts. The first four equal enum rs_reclaim_kind. */
enum rs_ctx_kind {
	RS_CTX_DIRECT = RS_RK_DIRECT,
	RS_CTX_MEMCG = RS_RK_MEMCG,
	RS_CTX_SOFTLIMIT = RS_RK_SOFTLIMIT,
	RS_CTX_NODE = RS_RK_NODE,
	RS_CTX_KSWAPD,
	RS_CTX_OTHER,
	RS_CTX_NR
};

/* "direct", "memcg", "softlimit", "node", "kswapd", "other" */
const char *rs_ctx_name(int kind);

enum rs_ep_status {
	RS_EP_COMPLETE,
	RS_EP_CUT_START,
	RS_EP_CUT_END,
	RS_EP_UNMATCHED_END,
	RS_EP_MISSED_END,
	RS_EP_NR_STATUS
};

/* "complete", "cut_start", "cut_end", "unmatched_end", "missed_end" */
const char *rs_ep_status_name(int status);

/* A closed episode, as handed to the episode callback (valid during the call). */
struct rs_episode {
	enum rs_ctx_kind kind;		/* a reclaim kind, or RS_CTX_KSWAPD for an awake period */
	enum rs_ep_status status;
	enum rs_ctx_kind parent;	/* context it began in: kswapd, direct, ..., other */
	int pid;
	int task;			/* dense task index (rs_episodes_task) */
	uint64_t serial;		/* unique per rs_episodes, > 0 */
	uint64_t begin_ts;		/* 0 when not seen (RS_EP_CUT_START, RS_EP_UNMATCHED_END) */
	uint64_t end_ts;		/* the end event; for CUT_END / MISSED_END the event that
					   closed it (trace end, or the next begin / outer end) */
	int order;			/* begin's order (kswapd: the first wake's), -1 unknown */
	int nid;			/* node reclaim begin, kswapd_wake; -1 unknown */
	uint64_t memcg_id;		/* 7.1+ begin/end memcg_id, 0 unknown */
	uint64_t nr_reclaimed;		/* the end's nr_reclaimed, 0 when no end was seen */
	uint32_t rewakes;		/* kswapd: wake events after the first in this period */
	bool broken;			/* events were lost while it was open */
	const struct rs_memcg_root *root;	/* the analysis' consumers: its reclaim root
						   (memcg_attrib.h); NULL elsewhere */
};

/* The context of one event. */
struct rs_ctx {
	enum rs_ctx_kind kind;		/* innermost open episode; kswapd; or other */
	enum rs_ctx_kind outer;		/* outermost (== kind when not nested) */
	int depth;			/* open reclaim episodes (not kswapd's awake period) */
	int task;			/* dense task index, -1 when the task table is full */
	bool selected;			/* the task passes the pid/comm filter */
	bool began;			/* this event began the innermost episode / kswapd period */
	bool rewake;			/* kswapd_wake while already awake */
	/*
	 * lru_shrink_inactive repeating the task's previous one (MGLRU's evict_folios() retry,
	 * episodes.c shrink_retry()): its nr_scanned was counted there
	 */
	bool shrink_retry;
	/*
	 * A kswapd's node (its kswapd_wake/sleep events, else its name): where its isolates
	 * that no shrink event follows (the kernel took nothing and returned) scanned; -1 for
	 * other tasks, whose node only the shrink event names
	 */
	int kswapd_nid;
	uint64_t serial;		/* innermost episode's serial; 0 for "other" */
	uint64_t start_ts;		/* its begin; 0 when unknown (cut at start) */
	const struct rs_memcg_ctx *memcg;	/* the analysis' consumers: memcg attribution
						   (memcg_attrib.h); NULL elsewhere */
};

struct rs_task_info {
	int pid;
	char comm[16];			/* TASK_COMM_LEN; the latest comm seen for the pid */
	bool kswapd;
	bool selected;			/* passes the pid/comm filter */
};

typedef void (*rs_episode_fn)(const struct rs_episode *ep, void *arg);

struct rs_episodes_opts {
	size_t max_tasks;		/* 0: RS_EPISODES_MAX_TASKS */
	int filter_pid;			/* -1: any */
	const char *filter_comm;	/* NULL: any */
	struct rs_warnings *warnings;	/* may be NULL */
	rs_episode_fn on_episode;	/* called for every episode as it closes */
	void *arg;
};

#define RS_EPISODES_MAX_TASKS	65536
#define RS_EPISODES_MAX_DEPTH	4	/* nesting kept per task; deeper begins close the top */

struct rs_episodes;

struct rs_episodes *rs_episodes_new(const struct rs_episodes_opts *o);
void rs_episodes_free(struct rs_episodes *e);

/*
 * Account one event and resolve its context into *ctx. Episodes the event closes are passed
 * to on_episode before this returns. For an end event the context is the episode it ends;
 * for RS_EV_LOST (no task) the context is "other" with task -1. Feed every vmscan, oom and
 * RS_EV_LOST event; events that change no reclaim state (memcg counters, cgroup, sched,
 * markers) may be fed or looked up with rs_episodes_context() instead: the results are the
 * same, except that feeding creates the task.
 */
void rs_episodes_feed(struct rs_episodes *e, const struct rs_event *ev, struct rs_ctx *ctx);

/* Events only a running reclaimer emits (not memcg counters, which any task emits). */
static inline bool rs_episodes_reclaim_work(enum rs_ev_type type)
{
	switch (type) {
	case RS_EV_WRITE_FOLIO:
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
	case RS_EV_THROTTLED:
		return true;
	default:
		return rs_ev_lru_reclaim(type);
	}
}

/*
 * Must an event of this type go through rs_episodes_feed() (it may change reclaim state)?
 * In line: the analysis asks for every event.
 */
static inline bool rs_episodes_wants(enum rs_ev_type type)
{
	switch (type) {
	case RS_EV_KSWAPD_SLEEP:
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_WAKEUP_KSWAPD:
	case RS_EV_OOM_VICTIM:
	case RS_EV_LOST:
		return true;
	default:
		return rs_episodes_reclaim_work(type);
	}
}

/*
 * The context task `pid` is in now, without feeding an event (task -1 if never seen). Not a
 * const lookup: the task found is kept in front of the others for the next event (rs_pidmap).
 */
void rs_episodes_context(struct rs_episodes *e, int pid, struct rs_ctx *ctx);

/* Close every open episode and kswapd period as cut by the end, at `end_ts`. */
void rs_episodes_finish(struct rs_episodes *e, uint64_t end_ts);

int rs_episodes_nr_tasks(const struct rs_episodes *e);
const struct rs_task_info *rs_episodes_task(const struct rs_episodes *e, int task);

/* Events of tasks beyond max_tasks (their context is "other", task -1). */
uint64_t rs_episodes_untracked(const struct rs_episodes *e);
/* Begins that closed the top of a full nesting stack. */
uint64_t rs_episodes_nest_overflows(const struct rs_episodes *e);

#endif
