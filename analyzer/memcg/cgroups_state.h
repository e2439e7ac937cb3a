/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_cgroups, for the files of the per-cgroup attribution. Calls go one way:
 * cgroups.c (the consumer: dispatch, lifecycle, readers) -> cgroup_trigger.c (episodes by
 * trigger cgroup), cgroup_victim.c (pages by victim, the matrix) -> cgroup_snap.c (soft
 * limits, LRU sizes) -> cgroup_series.c (time buckets), and all of them -> cgroup_rows.c (rows
 * and tasks); each has its own header. Identity and victim matching are the loading stage's
 * (memcg_attrib.h). Nothing outside analyzer/memcg/ includes this.
 */
#ifndef RS_CGROUPS_IMPL_H
#define RS_CGROUPS_IMPL_H

#include "cgroups.h"
#include "memcg_attrib.h"
#include "u64map.h"

struct rs_warnings;
struct rs_latency;


/* A task's open episodes this module keeps: their serials (ep_slots.h) and triggers. */
#define CG_TASK_EPS 8

/* Per task of the episodes module (dense index). */
struct cg_rtask {
	int pid;
	bool kswapd, selected, known;
	int win_trig;			/* trigger at its open isolate (cgroup index, RS_CG_KSWAPD) */
	bool slab_open;			/* a 7.1+ shrink_slab_start of a memcg waits for its end */
	uint64_t slab_ts, slab_fn;
	uint64_t ep_serial[CG_TASK_EPS];
	int ep_trig[CG_TASK_EPS];	/* cgroup index of the task at its begin, -1 unknown */
};

/* Per cgroup, beside the public struct rs_cgroup. */
struct cg_priv {
	struct rs_latency *lat[RS_RK_NR];
	int64_t *ts;			/* [RS_CG_TS_NR][ts_cap], metric-major, or NULL */
	size_t ts_cap;
	int prev_state;			/* soft state at the previous snapshot */
	/*
	 * cg_parent_row() as of the last cg_sync(): the row + 1 of the cgroup whose path is this
	 * one's minus its last component, -1 none, 0 not derived yet. A sync (the loading stage's
	 * rows changed: a new row, a rename, a path learnt) forgets it.
	 */
	int parent1;
};

/* Time buckets shared by every cgroup's series (series.c's rules, for int64 values). */
struct cg_grid {
	uint64_t t0, width;
	bool t0_set, auto_width, shared;
	size_t target, max_buckets, len;
	bool warned;
};

#define CG_EP_PENDING 16

struct rs_cgroups {
	struct rs_cgroups_opts o;
	struct rs_warnings *warnings;	/* o.warnings, or own_warnings */
	struct rs_warnings *own_warnings;
	bool filtered;
	uint64_t absent_types;		/* rs_analysis_opts.absent_types of the bound analysis */

	/* identity: rows are the loading stage's memcg rows (memcg_attrib.h), one for one */
	struct rs_memcgs *mc;
	uint64_t mc_gen;		/* rows synced up to this generation */
	struct rs_cgroup *cgs;
	struct cg_priv *priv;
	int nr, cap;
	const char *hierarchy;		/* "v1", "v2", NULL */
	uint64_t page_size;
	int *sorted;			/* for rs_cgroups_sorted */

	/* reclaiming tasks (episodes' task index) */
	struct cg_rtask *rt;
	int nr_rt;

	/* matrix */
	struct rs_cg_cell *cells;
	int nr_cells, cap_cells;
	struct rs_u64map by_cell;
	bool warned_cells;
	bool warned_item_range;

	struct rs_cg_attrib at;
	struct cg_grid grid;

	/* episodes closed before the event that closed them (handled with its context) */
	struct rs_episode pend[CG_EP_PENDING];
	int nr_pend;

	uint64_t shrink_events, count_events, lruvec_events;
	uint64_t last_ts;
	bool finished, oom;
};

#endif
