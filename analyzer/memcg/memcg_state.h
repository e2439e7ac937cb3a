/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_memcgs (include/memcg_attrib.h), for memcg_match.c (item classes,
 * windows, victims, roots, lifecycle), which calls memcg_ids.c (identity: memcg_ids.h), never
 * the other way. Nothing else includes this.
 */
#ifndef RS_MEMCG_STATE_H
#define RS_MEMCG_STATE_H

#include "episodes.h"
#include "memcg_attrib.h"
#include "u64map.h"



/* One memcg counter of a task inside its isolate..shrink window. */
struct mc_cnt {
	int row;
	uint8_t cls;			/* enum rs_memcg_item_class */
	uint32_t seq;			/* position in the window */
	int64_t val;
};

#define MC_WIN_HEAD 4			/* the first counters after the isolate (scan side) */
#define MC_WIN_TAIL 8			/* the latest ones (steal side) */

struct mc_window {
	bool open;
	struct rs_victim w;		/* the isolate's figures (outcome fields unset) */
	uint32_t ncount;
	struct mc_cnt head[MC_WIN_HEAD];
	struct mc_cnt tail[MC_WIN_TAIL];	/* ring: tail[(ncount - 1) % MC_WIN_TAIL] newest */
	int lruvec_row;			/* memcg of the first LRU decrement, -1 */
	bool any_memcg;
	/*
	 * its episode's mc_ep.lone at the isolate: an isolate-only window may close after its
	 * episode has ended (and its slot gone), at the end event or the task's next isolate
	 */
	int lone;
};

/* A reclaim episode of a task still open (its serial in mc_task.ep_serial). */
#define MC_TASK_EPS 8
struct mc_ep {
	bool kernel_root;		/* the begin had memcg_id */
	int lone;			/* a limit reclaim of a memcg with no child memcg: its row
					   (mc_lone_memcg), else -1 */
	struct rs_memcg_root root;
};

/*
 * Scan-side counters of a task while no window is open: MGLRU counts PGSCAN_* and PGREFILL in
 * scan_folios() before its lru_isolate event (the classic LRU counts them after), so they seed
 * the next window. Its PGSTEAL_* comes after the shrink event, too late for the window.
 */
#define MC_PRE 4

struct mc_task {
	struct mc_window win;
	/* the victim of the task's last shrink with a window: a retry of it takes it (on_shrink) */
	struct rs_victim last;
	struct mc_cnt pre[MC_PRE];
	int npre;
	uint64_t ep_serial[MC_TASK_EPS];	/* ep_slots.h */
	struct mc_ep eps[MC_TASK_EPS];
};

struct rs_memcgs {
	struct rs_memcgs_opts o;
	bool oom;
	uint64_t gen;

	/* rows (memcg_ids.c) */
	struct rs_memcg *rows;
	char **paths;			/* owned; rows[i].path points here */
	int nr, cap;
	struct rs_u64map by_id;		/* id + 1 -> row */
	uint64_t hot_id, hot_gen;	/* mc_of_id()'s last id found, at gen */
	int hot_row1;			/* its row + 1; 0: none */
	int *path_slots;		/* path hash -> row + 1 */
	size_t path_nslots, path_used;
	int overflow_row, unknown_row;	/* -1 until needed */
	struct rs_memcgs_facts facts;	/* .capped here, the rest by memcg_match.c */
	int below_row1;			/* mc_lone_memcg()'s last row + 1 (0: none), at below_gen: */
	uint64_t below_gen;
	bool below_any;			/* a row's path lies below it */
	int mem_root;			/* hierarchy id of the memory controller, -1 unknown */
	uint32_t roots_seen_mask;
	bool warned_roots;
	bool prefeeding;
	struct rs_u64map tasks;		/* pid + 1 -> row */
	bool warned_tasks;

	/* item names (memcg_match.c) */
	char **item_names;		/* vm_event_items */
	int nr_item_names;
	uint8_t item_cls[RS_MEMCG_MAX_ITEMS];
	bool item_reclaim[RS_MEMCG_MAX_ITEMS];
	char **node_names;		/* node_stat_items */
	int nr_node_names;
	int8_t lru_of_item[RS_MEMCG_MAX_ITEMS];	/* lruvec item -> list, -1 */
	uint8_t node_cls[RS_MEMCG_MAX_ITEMS];	/* lruvec item -> class (7.x reclaim items) */
	bool node_moved[RS_MEMCG_MAX_ITEMS];	/* 7.x pgscan_* / pgsteal_* / pgrefill: vm events
						   before, node-stat items now */

	/* reclaiming tasks, by the episodes module's task index */
	struct mc_task *t;
	int nr_t;
	int last_pid, last_row;		/* the last event's task and its memcg row */
	uint64_t last_gen;		/* task_gen when last_row was looked up */
	uint64_t task_gen;		/* bumped by every change of the task map */
	struct rs_memcg_root closing_root;
};

#endif
