/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared loading stage: one pass over a trace that resolves every event's reclaim context
 * (episodes.h) and accumulates what `analyze` reports, while handing each event with its
 * context to registered consumers (per-cgroup attribution, replay, ...). analyze, cgroups,
 * replay, diff and the TUI all start here.
 *
 *   rs_analysis_run(path, opts, &a, err)      open, stream (opts' range), finish; a owns the source
 *   rs_analysis_open() -> rs_analysis_stream()   the same in two steps, for a caller that needs
 *                                              the analysis or its source before the stream
 *   rs_analysis_new(opts) -> rs_analysis_feed(a, ev)... -> rs_analysis_finish(a)   (tests, by hand)
 *   readers below -> rs_analysis_free(a)
 *
 * What each figure means and which event field it sums: docs/analyze.md and docs/json.md.
 * Memory is bounded by tasks x buckets (caps in the options), never by events.
 */
#ifndef RS_ANALYSIS_H
#define RS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "episode_log.h"
#include "episodes.h"
#include "latency.h"
#include "rs_error.h"
#include "rs_event.h"

struct rs_analysis;
struct rs_memcgs;
struct rs_source;
struct rs_warnings;

/*
 * A consumer sees every event after its context is resolved. Events that do not change reclaim
 * state (memcg counters, cgroup events, markers, sched events) get the context their task is in
 * (rs_episodes_context: task -1 when the task has no reclaim event yet). For an episode's end
 * the context is that episode. episode() is called for every episode as it closes, complete
 * or not (rs_episode.status), before event() of the event that closed it; at the end of the
 * stream for those still open. start() runs once when the analysis is made, before any event.
 * Any callback may be NULL. Both carry the memcg attribution the loading stage resolved
 * (rs_ctx.memcg, rs_episode.root: memcg_attrib.h).
 */
struct rs_consumer {
	const char *name;
	void *arg;
	/* once, at the end of rs_analysis_new(): the analysis' options, span and buckets */
	void (*start)(void *arg, const struct rs_analysis *a);
	int (*event)(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx);
	void (*episode)(void *arg, const struct rs_episode *ep);
	int (*finish)(void *arg, struct rs_error *err);
};

#define RS_ANALYSIS_MAX_CONSUMERS	8
#define RS_ANALYSIS_MAX_NODES		64	/* default node cap; others count as "unknown" */

struct rs_analysis_opts {
	uint64_t from_ns, to_ns;	/* range on the trace clock; 0 and 0 (or UINT64_MAX): all */
	uint64_t bucket_ns;		/* time-bucket width; 0: span / 100 */
	int pid;			/* analyze only this task; -1 (not 0!): every task */
	const char *comm;		/* analyze only tasks of this comm; NULL: every task */
	size_t max_tasks;		/* 0: RS_EPISODES_MAX_TASKS */
	size_t max_buckets;		/* 0: 100000 */
	size_t max_samples;		/* exact latencies a kind; 0: RS_LAT_SAMPLES_DEFAULT */
	int max_nodes;			/* 0: RS_ANALYSIS_MAX_NODES */
	bool progress;			/* run/open: progress on stderr (caller checks tty) */
	bool keep_episodes;		/* keep each stall and awake period (episode_log.h) */
	size_t max_logged;		/* stalls and periods kept each; 0: episode_log.h's */
	int threads;			/* rs_analysis_run: rs_source_opts.threads */
	const struct rs_consumer *consumers;
	int nr_consumers;
	/* rs_analysis_new only (run takes them from the source): */
	struct rs_warnings *warnings;	/* where warnings go; NULL: a list the analysis owns */
	uint64_t span_first_ns, span_last_ns;	/* expected span for the buckets; 0: learnt */
	/*
	 * Event types (1 << enum rs_ev_type) the trace cannot hold: a trace.dat lists the formats
	 * of its kernel's recorded events, so a type without a format is absent, not zero (6.1
	 * has no memcg:* events). 0 for text traces: they show only what happened.
	 */
	uint64_t absent_types;
};

/* The trace's kernel has no format for event type t (rs_analysis_opts.absent_types). */
static inline bool rs_analysis_opts_lack(const struct rs_analysis_opts *o, enum rs_ev_type t)
{
	return t < 64 && (o->absent_types & (1ull << t));
}

/* Priorities: 0..12 (DEF_PRIORITY), then one slot for "unknown". */
#define RS_PRIO_DEF		12
#define RS_PRIO_UNKNOWN		13
#define RS_NR_PRIO		14

/* Lists: enum rs_lru, then one slot for "unknown" (old kernels' uncompleted isolates). */
#define RS_LIST_UNKNOWN		RS_LRU_NR
#define RS_NR_LISTS		(RS_LRU_NR + 1)

/* Orders 0..11 by value, then one slot for larger or unknown orders. */
#define RS_NR_ORDER		13

/* Counters of one (node, list, context, priority) cell. Pages unless named. */
struct rs_lru_counts {
	/* mm_vmscan_lru_isolate */
	uint64_t isolates;		/* events */
	uint64_t requested, scanned, skipped, taken;
	/* mm_vmscan_lru_shrink_inactive (inactive lists, by reclaim_flags FILE/ANON) */
	uint64_t inactive_shrinks;	/* events */
	uint64_t inactive_scanned;	/* its nr_scanned */
	uint64_t reclaimed, activate_anon, activate_file, ref_keep, unmap_fail;
	uint64_t dirty, writeback, congested, immediate;
	/* mm_vmscan_lru_shrink_active (active lists, by reclaim_flags FILE/ANON) */
	uint64_t active_shrinks;	/* events */
	/* nr_taken, nr_active, nr_deactivated, nr_referenced */
	uint64_t active_taken, active_kept, deactivated, referenced;
	/* mm_vmscan_write_folio (folios, not pages), by reclaim_flags */
	uint64_t write_anon, write_file, write_sync, write_async;
};

void rs_lru_counts_add(struct rs_lru_counts *dst, const struct rs_lru_counts *src);

/* Per episode kind (RS_CTX_DIRECT..RS_CTX_NODE, and RS_CTX_KSWAPD for awake periods). */
struct rs_episode_stats {
	uint64_t count;			/* complete: begin and end seen; in `latency` */
	uint64_t reclaimed;		/* sum of nr_reclaimed of complete episodes */
	uint64_t status[RS_EP_NR_STATUS];	/* every episode by status (status[0] == count) */
	uint64_t reclaimed_unpaired;	/* nr_reclaimed of ends without a begin */
	uint64_t broken_by_lost_events;	/* any status, open while events were lost */
	uint64_t begun_by_order[RS_NR_ORDER];	/* episodes with a begin, by its order */
	uint64_t by_parent[RS_CTX_NR];	/* complete ones by the context they began in */
	uint64_t by_parent_ns[RS_CTX_NR];
	uint64_t partial_ns;		/* time of cut episodes inside the trace (not in latency) */
	struct rs_latency_summary latency;	/* complete episodes, ns */
	/*
	 * The longest complete episode a task stalled in (not run by kswapd; the first of
	 * equals): how long, who and when. For RS_CTX_KSWAPD: the longest awake period.
	 */
	bool stall_max_valid;
	uint64_t stall_max_ns;
	int stall_max_pid;
	int stall_max_task;		/* dense task index (rs_analysis_task_comm) */
	uint64_t stall_max_begin_ts;
};

/* kswapd per-instance figures (the scanning is in its task row). */
struct rs_kswapd_stats {
	uint64_t wakes;			/* kswapd_wake starting an awake period */
	uint64_t rewakes;		/* kswapd_wake while already awake */
	uint64_t sleeps;		/* kswapd_sleep */
	uint64_t wakes_by_order[RS_NR_ORDER], rewakes_by_order[RS_NR_ORDER];
	uint64_t periods;		/* complete wake..sleep periods */
	uint64_t awake_ns;		/* their total */
	uint64_t awake_cut_ns;		/* awake time of periods cut by the trace's start or end */
	uint64_t unmatched_sleeps;	/* sleep while asleep: a wake was lost */
	int nid;			/* from its events; -1 unknown */
};

/* Per task (pid): the corrected and extended trace-vmscan-postprocess.pl table. */
struct rs_task_stats {
	int pid;
	char comm[16];
	bool kswapd;
	uint64_t episodes[RS_RK_NR];	/* complete episodes by kind */
	uint64_t incomplete[RS_RK_NR];	/* cut, unmatched or missed-end ones */
	uint64_t episode_ns[RS_RK_NR];	/* their latency total (complete) */
	uint64_t episode_reclaimed[RS_RK_NR];
	uint32_t begun_by_order[RS_RK_NR][RS_NR_ORDER];
	uint64_t stalled_ns;		/* complete episodes not inside another and not in kswapd */
	uint64_t wakeup_kswapd;		/* mm_vmscan_wakeup_kswapd emitted by this task */
	uint32_t wakeup_by_order[RS_NR_ORDER];
	uint64_t scanned, scanned_inactive, taken;	/* lru_isolate: all lists, inactive lists */
	uint64_t reclaimed;		/* lru_shrink_inactive nr_reclaimed */
	uint64_t write_sync, write_async, write_anon, write_file;	/* folios */
	uint64_t slab_calls, slab_ns, slab_freed;
	uint64_t throttled, throttled_us;
	int kswapd_idx;			/* index for rs_analysis_kswapd(), -1 */
	bool active;			/* has any reclaim figure */
};

struct rs_slab_stats {
	uint64_t calls;			/* start/end pairs */
	uint64_t ns;			/* time between them */
	uint64_t freed;			/* shrink_slab_end.retval */
	uint64_t to_scan;		/* shrink_slab_start.total_scan */
};

struct rs_shrinker_stats {
	uint64_t fn;			/* shrink_slab_start.shrink (function address) */
	char name[48];			/* its symbol, or the address in hex */
	struct rs_slab_stats s;
};

/*
 * Throttle reasons by enum vmscan_throttle_state (writeback 0 .. congested 3); the trace holds
 * `1 << reason`, which rs_throttle_reason_slot() turns back into the slot.
 */
#define RS_NR_THROTTLE_REASONS	5	/* writeback, isolated, noprogress, congested, other */

struct rs_throttle_stats {
	uint64_t count[RS_NR_THROTTLE_REASONS];
	uint64_t delayed_us[RS_NR_THROTTLE_REASONS];
	uint64_t timeout_us[RS_NR_THROTTLE_REASONS];
	uint64_t by_ctx[RS_CTX_NR];
};
const char *rs_throttle_reason_name(int reason);
int rs_throttle_reason_slot(int raw);

struct rs_oom_kill {
	uint64_t ts;
	int pid;
	char comm[16];			/* the victim's when recorded, else "" */
	int by_pid;			/* the task that emitted mark_victim */
	char by_comm[16];
};
#define RS_MAX_OOM_LISTED 256

/* Attribution bookkeeping: what could not be attributed exactly, and why. */
struct rs_attrib_stats {
	uint64_t isolates_completed;	/* node/priority taken from the next shrink event */
	uint64_t isolates_uncompleted;	/* committed with node and priority "unknown" */
	uint64_t uncompleted_scanned;	/* their nr_scanned */
	uint64_t shrinks_without_isolate;
	uint64_t writes_without_isolate;
	uint64_t slab_ends_without_start;
	uint64_t slab_starts_unfinished;
	uint64_t lost_event_records;	/* RS_EV_LOST records */
	uint64_t lost_events;		/* their counts (-1 unknown ones excluded) */
	uint64_t untracked_events;	/* tasks beyond the cap */
	uint64_t nest_overflows;
	uint64_t node_out_of_range;
	uint64_t priority_out_of_range;
};

/* Time series metrics (rs_analysis_series). */
enum rs_ts_metric {
	RS_TS_SCANNED_IA, RS_TS_SCANNED_AA, RS_TS_SCANNED_IF, RS_TS_SCANNED_AF,
	RS_TS_RECLAIMED_ANON, RS_TS_RECLAIMED_FILE,
	RS_TS_SCANNED_CTX,				/* + ctx: isolate nr_scanned */
	RS_TS_RECLAIMED_CTX = RS_TS_SCANNED_CTX + RS_CTX_NR,	/* + ctx */
	RS_TS_ACTIVATED = RS_TS_RECLAIMED_CTX + RS_CTX_NR,
	RS_TS_DEACTIVATED,
	RS_TS_WRITE,
	RS_TS_EPISODES,					/* + kind: episodes begun */
	RS_TS_STALL_NS = RS_TS_EPISODES + RS_RK_NR,	/* + kind: episode time in bucket */
	RS_TS_KSWAPD_WAKES = RS_TS_STALL_NS + RS_RK_NR,
	RS_TS_KSWAPD_AWAKE_NS,
	RS_TS_SLAB_FREED, RS_TS_SLAB_NS,
	RS_TS_THROTTLED, RS_TS_THROTTLED_US,
	RS_TS_OOM,
	RS_TS_NR
};
/* JSON name of a metric ("scanned_inactive_anon", "stall_ns_direct", ...). */
const char *rs_ts_metric_name(int m);

struct rs_analysis;

int rs_analysis_run(const char *path, const struct rs_analysis_opts *o, struct rs_analysis **out,
		    struct rs_error *err);
/* Open the trace and make the analysis (owning the source; buckets sized from its span). */
int rs_analysis_open(const char *path, const struct rs_analysis_opts *o, struct rs_analysis **out,
		     struct rs_error *err);
/* Stream the options' range through the analysis and finish it. 0, or -1 with err set. */
int rs_analysis_stream(struct rs_analysis *a, struct rs_error *err);

struct rs_analysis *rs_analysis_new(const struct rs_analysis_opts *o, struct rs_error *err);
/* Feed one event (time order). Returns 0, or a consumer's non-zero return. */
int rs_analysis_feed(struct rs_analysis *a, const struct rs_event *ev);
/* Close open state at the end of the stream; call once. Returns 0 or -1 with err set. */
int rs_analysis_finish(struct rs_analysis *a, struct rs_error *err);
void rs_analysis_free(struct rs_analysis *a);

/* Readers (after finish). */
struct rs_source *rs_analysis_source(const struct rs_analysis *a);	/* run/open only, or NULL */
struct rs_warnings *rs_analysis_warnings(const struct rs_analysis *a);
const struct rs_analysis_opts *rs_analysis_opts(const struct rs_analysis *a);
const struct rs_episodes *rs_analysis_episodes_ctx(const struct rs_analysis *a);
/* The memcg attribution every consumer's events carry (memcg_attrib.h): identity, victims. */
struct rs_memcgs *rs_analysis_memcgs(const struct rs_analysis *a);
/* First and last event time analysed (ns), and the events analysed. */
uint64_t rs_analysis_first_ts(const struct rs_analysis *a);
uint64_t rs_analysis_last_ts(const struct rs_analysis *a);
uint64_t rs_analysis_events(const struct rs_analysis *a);

/* Node slots: 0 is "unknown", slot i > 0 is nid i - 1. */
int rs_analysis_nr_node_slots(const struct rs_analysis *a);
bool rs_analysis_node_used(const struct rs_analysis *a, int slot);
/* Sum of cells; -1 for node slot, list, ctx or prio means all. */
void rs_analysis_lru_sum(const struct rs_analysis *a, int node_slot, int list, int ctx, int prio,
			 struct rs_lru_counts *out);
/* mm_vmscan_reclaim_pages (proactive reclaim) by context, in the inactive_* fields. */
const struct rs_lru_counts *rs_analysis_reclaim_pages(const struct rs_analysis *a, int ctx);

const struct rs_episode_stats *rs_analysis_episode_stats(const struct rs_analysis *a, int kind);

int rs_analysis_nr_tasks(const struct rs_analysis *a);
const struct rs_task_stats *rs_analysis_task(const struct rs_analysis *a, int i);
/* The comm of dense task index i (also of tasks without a row), "" when unknown. */
const char *rs_analysis_task_comm(const struct rs_analysis *a, int i);
int rs_analysis_nr_kswapd(const struct rs_analysis *a);
/* kswapd runs and health per node from the 7.x events (kswapd_health.h). */
struct rs_kswapd_health;
const struct rs_kswapd_health *rs_analysis_kswapd_health(const struct rs_analysis *a);
/* MGLRU generations from the recorder's lru_gen markers (mglru_gens.h). */
struct rs_mglru_gens;
const struct rs_mglru_gens *rs_analysis_mglru_gens(const struct rs_analysis *a);
const struct rs_kswapd_stats *rs_analysis_kswapd(const struct rs_analysis *a, int i);
/* The task row of the i-th kswapd. */
const struct rs_task_stats *rs_analysis_kswapd_task(const struct rs_analysis *a, int i);

uint64_t rs_analysis_wakeup_kswapd(const struct rs_analysis *a, uint64_t by_order[RS_NR_ORDER]);
/*
 * wakeup_kswapd requests for node nid's kswapd (the event's nid); nid -1: those of no node or
 * of a node at or past the cap (rs_analysis_max_nodes()).
 */
uint64_t rs_analysis_wakeup_kswapd_node(const struct rs_analysis *a, int nid);
int rs_analysis_max_nodes(const struct rs_analysis *a);

const struct rs_slab_stats *rs_analysis_slab(const struct rs_analysis *a, int ctx);
/* Slab shrinking in every reclaim context together: rs_analysis_slab()'s figures summed. */
struct rs_slab_stats rs_analysis_slab_total(const struct rs_analysis *a);
int rs_analysis_nr_shrinkers(const struct rs_analysis *a);
/*
 * The rs_analysis_nr_shrinkers() shrinkers, most time first, then by name: pointers into the
 * analysis, in an array the caller frees. NULL when out of memory.
 */
const struct rs_shrinker_stats **rs_analysis_shrinkers_by_time(const struct rs_analysis *a);

const struct rs_throttle_stats *rs_analysis_throttle(const struct rs_analysis *a);
uint64_t rs_analysis_oom_kills(const struct rs_analysis *a);
int rs_analysis_nr_oom_listed(const struct rs_analysis *a);
const struct rs_oom_kill *rs_analysis_oom(const struct rs_analysis *a, int i);

const struct rs_attrib_stats *rs_analysis_attrib(const struct rs_analysis *a);

/*
 * Counters the recorded kernel lacks: RS_HAVE_* bits of lru_shrink_inactive/reclaim_pages
 * (RS_HAVE_ACTIVATE .. RS_HAVE_IMMEDIATE) and lru_isolate (RS_HAVE_SKIPPED) that none of the
 * events of their type had, while some of those events were analysed. Outputs print these as
 * absent ("-", null), never as a measured 0.
 */
#define RS_LACK_FIELDS	(RS_HAVE_ACTIVATE | RS_HAVE_REF_KEEP | RS_HAVE_UNMAP_FAIL | \
			 RS_HAVE_DIRTY | RS_HAVE_WRITEBACK | RS_HAVE_CONGESTED | \
			 RS_HAVE_IMMEDIATE | RS_HAVE_SKIPPED)
unsigned int rs_analysis_lacks(const struct rs_analysis *a);
const struct rs_series *rs_analysis_series(const struct rs_analysis *a);

/*
 * Latency distribution of complete episodes of `kind` (or RS_CTX_KSWAPD awake periods) as n
 * quantiles, ns (rs_latency_quantiles()). Returns n, or 0 when there are none.
 */
size_t rs_analysis_latency_quantiles(const struct rs_analysis *a, int kind, uint64_t *x, size_t n);

/* Each complete episode of selected tasks and each awake period; NULL without keep_episodes. */
const struct rs_episode_log *rs_analysis_episode_log(const struct rs_analysis *a);

#endif
