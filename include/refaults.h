/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Refaults (docs/refaults.md): what evicting cost. A consumer of the loading stage
 * (analysis.h) that joins the page cache's own events, filemap:mm_filemap_delete_from_page_cache
 * and mm_filemap_add_to_page_cache (s_dev, i_ino, index, order), with the reclaim running on
 * the deleting task:
 *
 * - a deletion by a task inside a reclaim episode (direct, memcg, softlimit, node) or by
 *   kswapd is an eviction; the list is that of the task's pending lru_isolate (or "slab" inside
 *   a shrink_slab call: the inode shrinker drops page cache), the memcg the pages were charged
 *   to is the one named by the task's first memcg event after that isolate;
 * - a deletion outside any episode is held until its task says what it was: its next
 *   mm_vmscan_reclaim_pages makes it a proactive eviction (DAMON, MADV_PAGEOUT: context
 *   "other"); an add, exit, exec, fork, cgroup move or reclaim event of the task, or the end,
 *   makes it a deletion not by reclaim (truncate, unlink, invalidation), counted apart and
 *   never matched;
 * - an add of a range holding evicted pages is a refault of those pages; the refault distance
 *   is the time between the two events. Counts are exact, in folios (add events) and pages.
 *
 * Anon: swap-ins per cgroup over time from count_memcg_events(pswpin), and the memcg_stat
 * snapshots' workingset_* / pswpin counters (the kernel's own refault counts).
 *
 * The adder's memcg is the loading stage's (rs_ctx.memcg->task, memcg_attrib.h).
 *
 *   rs_refaults_new(opts) -> rs_refaults_consumer() into rs_analysis_opts.consumers
 *     (its start callback binds it to the analysis) -> the analysis runs (its finish callback
 *     closes the tables) -> readers -> rs_refaults_free()
 *
 * Memory: the eviction table (max_evicted ranges, the oldest forgotten with a warning),
 * cgroups (capped), tasks and time buckets; nothing grows with the number of events.
 */
#ifndef RS_REFAULTS_H
#define RS_REFAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "latency.h"
#include "rs_error.h"
#include "series.h"

#define RS_RF_MAX_EVICTED_DEFAULT	(1u << 20)	/* ranges in the eviction table */
#define RS_RF_MAX_CGROUPS		4096
#define RS_RF_SERIES_CGROUPS		64	/* cgroups with time series (first seen) */
#define RS_RF_THRASH_DISTANCE_DEFAULT	1000000000ull	/* 1 s */
#define RS_RF_THRASH_MIN_PAGES		32	/* quick refaults in a bucket: thrashing */

/* Lists of an eviction: enum rs_lru, then these. */
#define RS_RF_LIST_SLAB		RS_LRU_NR	/* inside shrink_slab (inode shrinker) */
#define RS_RF_LIST_UNKNOWN	(RS_LRU_NR + 1)	/* no pending isolate on the task */
#define RS_RF_NR_LISTS		(RS_LRU_NR + 2)
const char *rs_rf_list_name(int list);	/* rs_lru_name(), "slab", "unknown" */

/* Observation windows of the "refaulted within" shares. */
enum { RS_RF_WITHIN_1S, RS_RF_WITHIN_10S, RS_RF_NR_WITHIN };
extern const uint64_t rs_rf_within_ns[RS_RF_NR_WITHIN];

/* Refault distance buckets: [0,10ms) [10ms,100ms) [100ms,1s) [1s,10s) [10s,60s) [60s,inf) */
#define RS_RF_NR_DIST 6
extern const uint64_t rs_rf_dist_lower_ns[RS_RF_NR_DIST];
int rs_rf_dist_bucket(uint64_t ns);

/* Evictions and what came back of them, for one slice (all, a context, a list, a cgroup). */
struct rs_rf_counts {
	uint64_t evicted_folios, evicted_pages;	/* deleted by reclaim */
	uint64_t refaulted_pages;		/* of those, added back in the trace */
	/* pages evicted at least rs_rf_within_ns[w] before the end of the analysed span, and
	   those of them added back within that time: the share is exact, not cut by the end */
	uint64_t observable_pages[RS_RF_NR_WITHIN];
	uint64_t refaulted_within_pages[RS_RF_NR_WITHIN];
	uint64_t dist_pages[RS_RF_NR_DIST];	/* refaulted pages by distance */
};

/* A run of time buckets in which a cgroup's pages came back within the thrash distance. */
struct rs_rf_thrash {
	uint64_t from_ns, to_ns;		/* bucket bounds on the trace clock */
	uint64_t quick_pages;			/* refaulted within the distance, in the run */
	uint64_t evicted_pages;			/* evicted from the cgroup in the run */
};

struct rs_rf_cgroup {
	uint64_t id;				/* memcg id (cgroup inode); 0 unknown */
	struct rs_rf_counts victim;		/* its pages: evicted, and come back */
	uint64_t faulted_folios, faulted_pages;	/* refaults its tasks added (adder) */
	uint64_t swapins;			/* count_memcg_events(pswpin) sum, pages */
	uint64_t swapin_events;
	/* memcg_stat snapshot counters: first and last value, -1 when never recorded */
	int64_t ws_first[RS_WS_NR], ws_last[RS_WS_NR];
	uint64_t snapshots;
	int nr_thrash;
	struct rs_rf_thrash *thrash;		/* merged runs, in time order */
	uint64_t thrash_ns;			/* their total length */
	int series;				/* its series slot, -1 when none */
};

/* Per-cgroup series metrics (pages per bucket). */
enum rs_rf_ts { RS_RF_TS_EVICTED, RS_RF_TS_REFAULTED, RS_RF_TS_QUICK, RS_RF_TS_SWAPIN,
		RS_RF_TS_NR };
const char *rs_rf_ts_name(int m);	/* "evicted_pages", ... */

/*
 * For replay (models/): per reclaim episode (the analysis' episode serial), the file pages it
 * evicted per list and how many of them came back in the trace (and within 1 s). A policy's
 * replay that would have evicted fewer pages of a list in that episode can bound the refaults
 * it avoids by these; which pages it would have kept instead is not in any trace.
 */
struct rs_rf_episode {
	uint64_t serial;			/* rs_ctx.serial / rs_episode.serial */
	uint8_t ctx;				/* enum rs_ctx_kind */
	int pid;				/* the reclaiming task */
	uint64_t first_ts;			/* its first eviction */
	uint64_t evicted_pages[RS_RF_NR_LISTS];
	uint64_t refaulted_pages[RS_RF_NR_LISTS];
	uint64_t refaulted_1s_pages[RS_RF_NR_LISTS];
};
#define RS_RF_MAX_EPISODES	(1u << 20)

struct rs_refaults_opts {
	size_t max_evicted;		/* ranges; 0: RS_RF_MAX_EVICTED_DEFAULT */
	uint64_t thrash_distance_ns;	/* 0: RS_RF_THRASH_DISTANCE_DEFAULT */
	struct rs_warnings *warnings;	/* NULL: the analysis' (rs_refaults_bind) */
	/* called at each refault (the add event's time, the pages that came back, their
	   refault distance): the browser's refault lanes; NULL for none */
	void (*refault_hook)(void *arg, uint64_t ts, uint64_t pages, uint64_t distance_ns);
	void *hook_arg;
};

struct rs_refaults;

struct rs_refaults *rs_refaults_new(const struct rs_refaults_opts *o, struct rs_error *err);
void rs_refaults_free(struct rs_refaults *rf);
void rs_refaults_consumer(struct rs_refaults *rf, struct rs_consumer *out);
/* Share the analysis' span (for the shares), time buckets and warnings; the consumer's start
   callback does it. */
void rs_refaults_bind(struct rs_refaults *rf, const struct rs_analysis *a);

struct rs_cgroups;
struct rs_cgroups_opts;
struct rs_source;

/*
 * rs_cgroups_analysis_run() with the refaults as one more consumer. On success *a, *cg, *rf
 * and *src are the caller's: free rf and cg, then a, then close src.
 */
int rs_refaults_analysis_run(const char *path, const struct rs_analysis_opts *ao,
			     const struct rs_cgroups_opts *co, const struct rs_refaults_opts *ro,
			     struct rs_analysis **a, struct rs_cgroups **cg,
			     struct rs_refaults **rf, struct rs_source **src,
			     struct rs_error *err);

struct rs_findings;
/* Fill findings' refault block (the SUMMARY line, docs/analyze.md "Summary"). */
void rs_refaults_findings(const struct rs_refaults *rf, struct rs_findings *f);
/* Path of a memcg id from the loading stage's attribution: "(unknown)" for 0, else "id:N". */
const char *rs_refaults_path(const struct rs_refaults *rf, uint64_t id, char *buf, size_t n);

/* Readers (after the analysis finished). */
bool rs_refaults_recorded(const struct rs_refaults *rf);	/* the trace has filemap events */
uint64_t rs_refaults_thrash_distance(const struct rs_refaults *rf);

struct rs_rf_totals {
	struct rs_rf_counts all;
	struct rs_rf_counts by_ctx[RS_CTX_NR];
	struct rs_rf_counts by_list[RS_RF_NR_LISTS];
	struct rs_rf_counts by_ctx_list[RS_CTX_NR][RS_RF_NR_LISTS];
	uint64_t refaulted_folios;		/* add events holding refaulted pages */
	uint64_t adds, add_pages;		/* every add event */
	uint64_t deletes, delete_pages;		/* every delete event */
	uint64_t other_deletes, other_delete_pages;	/* not by reclaim: never matched */
	uint64_t proactive_deletes;		/* outside episodes, then mm_vmscan_reclaim_pages
						   of the task: evictions in context "other" */
	uint64_t unresolved_overflows;		/* held deletions settled early (the cap) */
	uint64_t stale_pages;			/* evicted twice without an add between (lost
						   events or an add before the trace) */
	uint64_t forgotten_ranges, forgotten_pages;	/* dropped from the full table */
	uint64_t pending_pages;			/* evicted and not back by the end */
	size_t table_peak;			/* ranges held at most */
	size_t max_evicted;
	bool table_full;			/* forgetting happened: refaults are lower bounds */
	uint64_t swapins, swapin_events;	/* all cgroups */
	bool pswpin_named;			/* the trace names the pswpin item */
};
const struct rs_rf_totals *rs_refaults_totals(const struct rs_refaults *rf);
/* Refault distance of refaulted pages (one sample a page), ns. */
void rs_refaults_distance(struct rs_refaults *rf, struct rs_latency_summary *out);

int rs_refaults_nr_cgroups(const struct rs_refaults *rf);
const struct rs_rf_cgroup *rs_refaults_cgroup(const struct rs_refaults *rf, int i);
/* Index of a memcg id, -1 when not seen. */
int rs_refaults_find(const struct rs_refaults *rf, uint64_t id);

/* The series' buckets (all 0: none) and one cgroup's values [len] for a metric; NULL: none. */
struct rs_buckets rs_refaults_buckets(const struct rs_refaults *rf);
const uint64_t *rs_refaults_series(const struct rs_refaults *rf, int cgroup, int metric);
/* The same summed over every memcg (those past the series cap and id 0 included). */
const uint64_t *rs_refaults_series_all(const struct rs_refaults *rf, int metric);

/* Per-episode eviction and refault pages (replay's interface), in order of first eviction. */
size_t rs_refaults_nr_episodes(const struct rs_refaults *rf);
const struct rs_rf_episode *rs_refaults_episode(const struct rs_refaults *rf, size_t i);
const struct rs_rf_episode *rs_refaults_episode_find(const struct rs_refaults *rf,
						     uint64_t serial);

#endif
