/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-cgroup reclaim attribution (docs/cgroups.md): which cgroup's tasks entered reclaim and
 * stalled in it (the trigger side), whose LRU pages were scanned and reclaimed (the victim
 * side), who made whom pay (a trigger x victim matrix), soft limits and LRU sizes over time.
 *
 * It is a consumer of the shared loading stage (analysis.h): it sees every event with its
 * resolved reclaim context. Vmscan events carry no memcg before 7.1; on 6.13+ kernels the
 * memcg:count_memcg_events counters the reclaiming task emits inside shrink_inactive_list()
 * and shrink_active_list() name the victim memcg, and their values equal the shrink event's
 * nr_scanned / nr_reclaimed (PGSCAN_* / PGSTEAL_*), or nr_scanned / nr_deactivated of the
 * active list (PGREFILL / PGDEACTIVATE). Matching is per task (common_pid), never by CPU.
 *
 *   rs_cgroups_new(opts) -> rs_cgroups_consumer() into rs_analysis_opts.consumers
 *     -> [rs_cgroups_bind(cg, a) after rs_analysis_new, before the first event]
 *     -> the analysis runs -> rs_cgroups_attach(cg, a) -> readers -> rs_cgroups_free()
 *   or rs_cgroups_analysis_run(), which does all of it for a file.
 *
 * Memory: cgroups (capped), tasks (the analysis' task cap), matrix cells (capped) and time
 * buckets (the analysis' bucket cap); nothing grows with the number of events.
 */
#ifndef RS_CGROUPS_H
#define RS_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "latency.h"
#include "memcg_attrib.h"
#include "rs_error.h"
#include "series.h"

struct rs_source;
struct rs_warnings;

#define RS_CG_MAX_DEFAULT	4096	/* cgroups tracked; more go to one "(other cgroups)" row */
#define RS_CG_MAX_CELLS		65536	/* trigger x victim x context cells of the matrix */
#define RS_CG_MAX_ROOTS		8	/* distinct reclaim roots kept per trigger cgroup */
#define RS_CG_MAX_ITEMS		4096	/* raw item numbers counted (the recorder's cap too) */

/* Who triggered reclaim, when it is not a cgroup's task (matrix rows). */
#define RS_CG_KSWAPD		(-2)	/* a kswapd thread (its own cgroup means nothing) */
/* A matrix column for shrink events whose victim could not be told. */
#define RS_CG_UNATTRIBUTED	(-1)

/* Soft-limit state of a victim when its pages were taken (the latest snapshot before). */
enum rs_cg_soft_state {
	RS_CG_SOFT_OVER,		/* usage > soft limit */
	RS_CG_SOFT_UNDER,		/* usage <= soft limit, or none set (v1 "unlimited") */
	RS_CG_SOFT_UNKNOWN,		/* no snapshot yet, or no soft limit recorded (cgroup v2) */
	RS_CG_SOFT_NR
};
const char *rs_cg_soft_state_name(int s);	/* "over", "under", "unknown" */

/* Victim pages of one (context, list) from matched shrink events. */
struct rs_cg_pages {
	uint64_t shrinks;		/* shrink events (inactive or active) */
	uint64_t scanned;		/* inactive: shrink nr_scanned; active: the isolate's */
	uint64_t reclaimed;		/* inactive: nr_reclaimed */
	uint64_t deactivated;		/* active: nr_deactivated */
	uint64_t isolate_only_scanned;	/* isolates with no shrink event (nothing taken) */
};

/* Trigger-side figures of one episode kind for the tasks of one cgroup. */
struct rs_cg_trigger {
	uint64_t episodes;		/* complete episodes (begin and end seen) */
	uint64_t status[RS_EP_NR_STATUS];	/* every closed episode by status */
	uint64_t ns;			/* total duration of the complete ones */
	uint64_t reclaimed;		/* their end's nr_reclaimed */
	uint64_t reclaimed_unpaired;	/* nr_reclaimed of ends without a begin */
	struct rs_latency_summary latency;	/* complete ones, ns (after finish) */
};

/*
 * Snapshot LRU sizes against the deltas, per list (pages). The deltas give a size up to a
 * constant: offset + (sum of deltas so far). A cgroup made in the trace starts empty (offset 0);
 * for one that existed before, the offset is the median over the snapshots (the last one of
 * each time bucket) of snapshot - deltas so far, so one stale snapshot (memory.stat lags behind
 * the counters, and a snapshot is read a few ms before its marker is written) cannot skew the
 * whole series.
 */
struct rs_cg_disagree {
	uint64_t n;			/* snapshots compared (one per bucket) */
	uint64_t max_abs, sum_abs;	/* |snapshot - (offset + deltas so far)| */
	int64_t last;			/* signed, at the last snapshot */
	uint64_t step_n;		/* intervals between consecutive snapshots */
	uint64_t step_max_abs, step_sum_abs;	/* |snapshot change - deltas in between| */
};

struct rs_cgroup {
	struct rs_memcg memcg;		/* its identity, as the loading stage resolved it; a path
					   NULL when unknown is shown as id:N */

	/* trigger side: episodes entered by its tasks, by kind (enum rs_reclaim_kind) */
	struct rs_cg_trigger trig[RS_RK_NR];
	uint64_t stalled_ns;		/* complete episodes not nested in another (as analyze) */
	uint64_t throttled, throttled_us;	/* mm_vmscan_throttled of its tasks */
	uint64_t oom_kills;		/* oom:mark_victim emitted by its tasks (it charged) */
	uint64_t oom_killed;		/* victims (mark_victim pid) that were its tasks */
	uint64_t caused_scanned[RS_CTX_NR], caused_reclaimed[RS_CTX_NR];	/* by its tasks'
					   shrink events, any victim, by context */
	int nr_roots;
	struct { int cg; uint16_t len; uint64_t episodes; } roots[RS_CG_MAX_ROOTS];
					/* reclaim roots of its memcg episodes: the first
					   `len` bytes of cgroup `cg`'s path ("/" when 0) */
	uint64_t roots_other;		/* episodes whose root did not fit */
	uint64_t roots_unknown;		/* episodes with a victim of unknown path */
	uint64_t roots_none;		/* complete memcg episodes with no matched victim */
	uint64_t roots_kernel;		/* of them: roots the kernel named (memcg_id, 7.1+) */
	uint64_t target_episodes;	/* complete memcg episodes whose memcg_id (7.1+) is this
					   cgroup: the target of its limit reclaim */
	uint64_t slab_calls, slab_ns, slab_freed;	/* 7.1+ shrink_slab of its memcg_id:
					   start/end pairs, their time, end retval sum */

	/* victim side */
	int nr_items;			/* raw item numbers counted: items[0..nr_items) */
	int64_t *items;			/* sum of count_memcg_events.val by raw item */
	uint64_t item_events;		/* count_memcg_events events */
	int nr_node_items;		/* 7.x: node-stat items that were vm events (pgscan_*,
					   pgsteal_*, pgrefill): node_items[0..nr) */
	int64_t *node_items;		/* sum of mod_memcg_lruvec_state.val by raw item */
	struct rs_cg_pages pages[RS_CTX_NR][RS_LRU_NR];
	uint64_t exact, fallback;	/* shrink events attributed to it */
	uint64_t fallback_by[RS_CGR_FIRST_UNMATCHED];
	uint64_t softlimit_episodes;	/* soft-limit episodes that took pages from it */
	uint64_t taken_scanned[RS_CG_SOFT_NR], taken_reclaimed[RS_CG_SOFT_NR];

	/* LRU sizes: mod_memcg_lruvec_state on the LRU items, and memcg_stat snapshots */
	uint64_t lru_events;
	int64_t lru_delta[RS_LRU_NR];	/* sum of val over the trace */
	int64_t lru_delta_min[RS_LRU_NR];	/* lowest lru_delta reached */
	bool anchored;			/* the deltas have an offset (mkdir or snapshots) */
	bool offset_from_mkdir;		/* made in the trace: empty at its cgroup_mkdir */
	int64_t offset_pages[RS_LRU_NR];	/* size at the trace start the deltas imply */
	bool below_zero;		/* offset + deltas went below zero: events are missing */
	int64_t last_snap_pages[RS_LRU_NR];	/* the last snapshot */
	int64_t last_snap_delta[RS_LRU_NR];	/* lru_delta then */
	struct rs_cg_disagree dis[RS_LRU_NR];

	/* soft limit and usage, from the snapshots (bytes) */
	uint64_t snapshots, snapshots_over;
	uint64_t first_snap_ts, last_snap_ts;
	uint64_t usage, usage_max, limit, soft_limit;	/* latest; limit/soft UINT64_MAX: none */
	bool soft_recorded;		/* some snapshot had soft= */
	uint64_t excess_max;		/* max(usage - soft) over snapshots */
	uint64_t over_ns, under_ns;	/* time between snapshots by the state at the first */

	bool active;			/* any figure above (rows without one are listed only
					   in JSON) */
};

/* One cell of the matrix: pages the trigger's reclaim took from the victim, in a context. */
struct rs_cg_cell {
	int trigger;			/* cgroup index, RS_CG_KSWAPD */
	int victim;			/* cgroup index, RS_CG_UNATTRIBUTED */
	int ctx;			/* enum rs_ctx_kind */
	uint64_t shrinks, scanned, reclaimed, deactivated;
};

/* Matching bookkeeping over the whole trace. */
struct rs_cg_attrib {
	uint64_t shrinks;		/* shrink_inactive + shrink_active events seen */
	uint64_t exact, fallback, unmatched;
	uint64_t by_reason[RS_CGR_NR];
	uint64_t scanned, reclaimed;	/* pages of all shrink events */
	uint64_t scanned_exact, reclaimed_exact;
	uint64_t isolates_without_shrink;	/* windows closed by another isolate or the end */
	uint64_t isolates_without_shrink_matched;
	uint64_t count_events, lruvec_events;	/* memcg events seen */
	uint64_t cells_overflow;	/* shrinks not in the matrix (cell cap) */
	uint64_t episode_victims_overflow;	/* victims past 8 per episode (soft limit) */
};

/* Time series per cgroup: values per bucket (rs_cgroups_series). */
enum rs_cg_ts {
	RS_CG_TS_LRU_DELTA,		/* + list: sum of lruvec deltas in the bucket (pages) */
	RS_CG_TS_VICTIM_SCANNED = RS_CG_TS_LRU_DELTA + RS_LRU_NR,
	RS_CG_TS_VICTIM_RECLAIMED,
	RS_CG_TS_TRIGGER_EPISODES,	/* memcg episodes (complete) begun in the bucket */
	RS_CG_TS_TRIGGER_STALL_NS,	/* their time in the bucket */
	RS_CG_TS_ADDITIVE_NR,
	/* last snapshot in the bucket, RS_CG_TS_NONE when there is none */
	RS_CG_TS_USAGE = RS_CG_TS_ADDITIVE_NR,
	RS_CG_TS_SOFT,
	RS_CG_TS_SNAP_LRU,		/* + list, pages */
	RS_CG_TS_SNAP_OFFSET = RS_CG_TS_SNAP_LRU + RS_LRU_NR,	/* + list: snapshot - deltas */
	RS_CG_TS_NR = RS_CG_TS_SNAP_OFFSET + RS_LRU_NR
};
#define RS_CG_TS_NONE INT64_MIN

struct rs_cgroups_opts {
	size_t max_cgroups;		/* 0: RS_CG_MAX_DEFAULT */
	size_t max_tasks;		/* pid -> cgroup entries; 0: RS_EPISODES_MAX_TASKS */
	size_t max_samples;		/* exact latency samples per cgroup and kind; 0: default */
	/* time buckets when not bound to an analysis (rs_cgroups_bind takes the analysis'): */
	uint64_t bucket_ns;		/* 0: 1 ms, doubling to keep 100..200 buckets */
	size_t max_buckets;		/* 0: 100000 */
	bool filtered;			/* the analysis has a pid/comm filter (ctx.selected) */
	struct rs_warnings *warnings;	/* NULL: kept until rs_cgroups_attach() */
};

struct rs_cgroups;

struct rs_cgroups *rs_cgroups_new(const struct rs_cgroups_opts *o, struct rs_error *err);
void rs_cgroups_free(struct rs_cgroups *cg);

/* The consumer to put in rs_analysis_opts.consumers (its arg is cg). */
void rs_cgroups_consumer(struct rs_cgroups *cg, struct rs_consumer *out);

/*
 * Share the analysis' time buckets, caps, filter and warnings: call after rs_analysis_new()
 * and before the first event. Without it the buckets start at the first event, 1 ms wide,
 * doubling (their width is then reported on its own).
 */
void rs_cgroups_bind(struct rs_cgroups *cg, const struct rs_analysis *a);

/*
 * Identity only (item names, page size, cgroup ids and paths, tasks' cgroups) from an event
 * before the analysed range: the recorder writes its markers at the start, so a range needs
 * them read first. rs_cgroups_analysis_run() does it for --from.
 */
void rs_cgroups_prefeed(struct rs_cgroups *cg, const struct rs_event *ev);

/* After the analysis finished: warnings kept so far go to the analysis' list. */
void rs_cgroups_attach(struct rs_cgroups *cg, const struct rs_analysis *a);

/*
 * Open `path`, run the analysis with cg as a consumer (bound; with a range, identity from the
 * events before it first), finish. On success *a, *cg and *src belong to the caller: free cg,
 * then a, then close src.
 */
int rs_cgroups_analysis_run(const char *path, const struct rs_analysis_opts *ao,
			    const struct rs_cgroups_opts *co, struct rs_analysis **a,
			    struct rs_cgroups **cg, struct rs_source **src, struct rs_error *err);

/* Readers (after the analysis finished). Indices are stable. */
int rs_cgroups_count(const struct rs_cgroups *cg);
const struct rs_cgroup *rs_cgroups_get(const struct rs_cgroups *cg, int i);
/* Path, or "id:N" when unknown, "(kswapd)", "(unattributed)" for the pseudo indices. */
const char *rs_cgroups_name(const struct rs_cgroups *cg, int i, char *buf, size_t n);
/* Indices sorted by name (then id); *out is owned by cg. */
int rs_cgroups_sorted(const struct rs_cgroups *cg, const int **out);

/* Names of mod_memcg_lruvec_state (node-stat) items: NULL when the trace did not name it. */
const char *rs_cgroups_node_item_name(const struct rs_cgroups *cg, int item);
/* Names of count_memcg_events items: NULL when the trace did not name it. */
const char *rs_cgroups_item_name(const struct rs_cgroups *cg, int item);
/*
 * The trace's kernel has no format for event type t (rs_analysis_opts.absent_types): its
 * counts are unknown, not 0 (6.1 has neither memcg:count_memcg_events nor
 * mod_memcg_lruvec_state, so nothing names the victim memcg of its reclaim).
 */
bool rs_cgroups_lacks(const struct rs_cgroups *cg, enum rs_ev_type t);
/* The item is one reclaim counts or causes (pgscan_*, pgsteal_*, pgrefill, pswpout, ...). */
bool rs_cgroups_item_is_reclaim(const struct rs_cgroups *cg, int item);

int rs_cgroups_nr_cells(const struct rs_cgroups *cg);
const struct rs_cg_cell *rs_cgroups_cell(const struct rs_cgroups *cg, int i);

const struct rs_cg_attrib *rs_cgroups_attrib(const struct rs_cgroups *cg);

/* The series' buckets and one cgroup's values [len] for a metric (NULL: none kept for it). */
struct rs_buckets rs_cgroups_buckets(const struct rs_cgroups *cg);
bool rs_cgroups_series_shared(const struct rs_cgroups *cg);	/* same as the analysis' */
const int64_t *rs_cgroups_series(const struct rs_cgroups *cg, int i, int metric);

/*
 * What the trace lets the attribution tell (the loading stage's): item names, the 7.1+
 * kernel's reclaim roots (target_episodes) and slab memcgs (slab_*), the cgroup cap hit; a
 * false one makes those figures absent.
 */
const struct rs_memcgs_facts *rs_cgroups_facts(const struct rs_cgroups *cg);

uint64_t rs_cgroups_page_size(const struct rs_cgroups *cg);
const char *rs_cgroups_hierarchy(const struct rs_cgroups *cg);	/* "v1", "v2" or NULL */
size_t rs_cgroups_max(const struct rs_cgroups *cg);

#endif
