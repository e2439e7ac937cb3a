/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_analysis, shared by analyzer/analysis.c (lifecycle, dispatch, episodes,
 * kswapd, slab, throttling, OOM) and analyzer/scan.c (per-LRU scan pressure). Nothing outside
 * analyzer/ includes this.
 */
#ifndef RS_ANALYSIS_IMPL_H
#define RS_ANALYSIS_IMPL_H

#include "kswapd_health.h"
#include "mglru_gens.h"
#include "analysis.h"
#include "series.h"

/*
 * lru_isolate carries neither node nor priority on modern kernels (nor the list's
 * active/inactive side before 4.11): it waits here for the same task's next shrink event.
 */
struct pend_isolate {
	bool valid;
	int8_t lru;			/* enum rs_lru, -1 unknown */
	int8_t file;			/* 0/1, -1 unknown */
	uint8_t ctx;
	int nid;			/* the isolate's own nid (very old kernels), else
					   kswapd's node, else -1 */
	uint64_t ts;
	uint64_t requested, scanned, skipped, taken;
	uint32_t w_anon, w_file, w_sync, w_async;	/* write_folio while pending */
};

struct task_priv {
	struct pend_isolate pend;
	bool slab_open;
	uint8_t slab_ctx;
	uint64_t slab_ts, slab_fn;
	int64_t slab_to_scan;
};

#define NAME_SLOTS 65536		/* pids named; past half full, new pids are not kept */
#define NODE_CELLS (RS_NR_LISTS * RS_CTX_NR * RS_NR_PRIO)
#define SHRINKER_HASH 4096		/* slots; at most half used */
#define MAX_SHRINKERS (SHRINKER_HASH / 2)

struct rs_analysis {
	struct rs_analysis_opts o;
	char *comm;			/* copy of o.comm */
	struct rs_source *src;		/* owned, when made by rs_analysis_run */
	struct rs_warnings *warnings;
	bool own_warnings;
	struct rs_episodes *eps;
	struct rs_memcgs *memcgs;	/* memcg attribution, for the consumers */
	struct rs_consumer consumers[RS_ANALYSIS_MAX_CONSUMERS];
	int nr_consumers;
	bool finished;
	bool oom;			/* an allocation failed: the result is incomplete */

	uint64_t t0;			/* window start: range start or first event */
	uint64_t first_ts, last_ts, events;

	/* per-LRU cells: nodes[slot][list][ctx][prio], slot 0 = unknown node */
	int max_nodes;
	struct rs_lru_counts **nodes;	/* [max_nodes + 1], each NODE_CELLS or NULL */
	struct rs_lru_counts scratch;	/* sink when a node block cannot be allocated */
	struct rs_lru_counts rp[RS_CTX_NR];	/* mm_vmscan_reclaim_pages */

	struct rs_episode_stats ep[RS_CTX_NR];	/* reclaim kinds and RS_CTX_KSWAPD */
	struct rs_latency *lat[RS_CTX_NR];

	struct rs_task_stats *tasks;	/* parallel to the episodes' task table */
	struct task_priv *tpriv;
	int nr_tasks, cap_tasks;
	struct rs_kswapd_stats *ks;
	int *ks_task;
	int nr_ks, cap_ks;

	uint64_t wakeup_kswapd, wakeup_by_order[RS_NR_ORDER];
	uint64_t *wakeup_by_node;	/* [max_nodes + 1]: slot 0 no node or past the cap */
	struct rs_slab_stats slab[RS_CTX_NR];
	struct rs_shrinker_stats *shrinkers;
	int nr_shrinkers;
	int *shrinker_slots;		/* [SHRINKER_HASH], index + 1 */
	bool warned_shrinkers, warned_nodes, warned_prio;
	struct rs_throttle_stats thr;
	uint64_t oom_kills;
	struct rs_oom_kill oom_list[RS_MAX_OOM_LISTED];
	int nr_oom;
	struct rs_attrib_stats at;
	struct rs_series *series;
	struct rs_kswapd_health *health;	/* 7.x balance_pgdat, reclaim_fail, clear_hopeless */
	struct rs_mglru_gens *gens;		/* the recorder's lru_gen markers */
	/* RS_HAVE_* bits seen on shrink_inactive/reclaim_pages and on lru_isolate events */
	unsigned int shrink_have, isolate_have;
	bool shrink_seen, isolate_seen;
	/*
	 * Task names from sched events (switch, wakeup, fork, exec, exit), for tasks whose
	 * reclaim events carry no name ("<...>": not in trace-cmd's saved cmdlines). Open
	 * addressing by pid, NAME_SLOTS at most, allocated on the first name.
	 */
	struct task_name { int pid; char comm[16]; } *names;
	size_t nr_names;
	struct rs_episode_log *log;	/* o.keep_episodes only */
};

/* Order slot of an order value (RS_NR_ORDER - 1 for large or unknown). */
static inline int order_slot(int order)
{
	return order >= 0 && order < RS_NR_ORDER - 1 ? order : RS_NR_ORDER - 1;
}

/* Make the task row `task` exist (rows are created on first sight); false when out of memory. */
bool rs_analysis_task_row(struct rs_analysis *a, int task);

/* scan.c: per-LRU handlers, called for selected tasks' events (tp NULL: no task slot). */
void rs_scan_isolate(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		     struct task_priv *tp, struct rs_task_stats *ts);
void rs_scan_shrink(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		    struct task_priv *tp, struct rs_task_stats *ts);
void rs_scan_write(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
		   struct task_priv *tp, struct rs_task_stats *ts);
void rs_scan_reclaim_pages(struct rs_analysis *a, const struct rs_event *ev,
			   const struct rs_ctx *ctx);
/* Commit a still-pending isolate as uncompleted (next isolate, trace end). */
void rs_scan_flush(struct rs_analysis *a, struct task_priv *tp, struct rs_task_stats *ts);
void rs_scan_free(struct rs_analysis *a);

#endif
