/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_cgroups, shared by analyzer/memcg/cgroups.c (the consumer: trigger, victim,
 * soft limits, LRU sizes, readers), cgroup_ids.c (identity: ids, paths, hierarchies, tasks),
 * cgroup_match.c (shrink event <-> memcg counter matching) and cgroup_series.c (time buckets).
 * Nothing outside analyzer/ includes this.
 */
#ifndef RS_CGROUPS_IMPL_H
#define RS_CGROUPS_IMPL_H

#include "cgroups.h"

struct rs_warnings;
struct rs_latency;

/* u64 key -> int map, open addressing, growing to a cap. Key 0 is "empty". */
struct cg_map {
	uint64_t *keys;
	int *vals;
	size_t slots, used;		/* slots: power of two */
	size_t max_used;		/* cap on entries */
};

int cg_map_get(const struct cg_map *m, uint64_t key);	/* -1 when absent */
/* Insert or replace; -1 when the cap is reached or memory ran out. */
int cg_map_put(struct cg_map *m, uint64_t key, int val);
void cg_map_free(struct cg_map *m);

/* Classes of count_memcg_events items, from their names. */
enum cg_item_class {
	CG_CLS_UNNAMED,			/* no names in the trace: values alone decide */
	CG_CLS_OTHER,
	CG_CLS_SCAN,			/* pgscan_{kswapd,direct,khugepaged,proactive} */
	CG_CLS_STEAL,			/* pgsteal_{kswapd,direct,khugepaged,proactive} */
	CG_CLS_REFILL,			/* pgrefill: shrink_active_list's nr_scanned */
	CG_CLS_DEACT,			/* pgdeactivate: shrink_active_list's nr_deactivate */
};

/* One count_memcg_events of a task inside its isolate..shrink window. */
struct cg_cnt {
	int cg;				/* cgroup index */
	uint8_t cls;			/* enum cg_item_class */
	uint32_t seq;			/* position in the window */
	int64_t val;
};

#define CG_WIN_HEAD 4			/* the first counters after the isolate (scan side) */
#define CG_WIN_TAIL 8			/* the latest ones (steal side) */

/* What a task's lru_isolate opened: the counters and LRU decrements until its shrink event. */
struct cg_window {
	bool open;
	int8_t lru;			/* enum rs_lru, -1 unknown */
	uint8_t ctx;			/* enum rs_ctx_kind of the isolate */
	bool selected;
	int trig;			/* trigger (cgroup index, RS_CG_KSWAPD) at the isolate */
	uint64_t ts, serial;		/* isolate time, episode serial of its context */
	uint64_t nr_scanned, nr_taken;
	uint32_t ncount;		/* counters seen */
	struct cg_cnt head[CG_WIN_HEAD];
	struct cg_cnt tail[CG_WIN_TAIL];	/* ring: tail[(ncount - 1) % CG_WIN_TAIL] newest */
	int lruvec_cg;			/* memcg of the first LRU decrement, -1 */
	bool any_memcg;			/* any memcg event of the task in the window */
};

/* The result of matching one window. */
struct cg_match {
	int victim;			/* cgroup index, or RS_CG_UNATTRIBUTED */
	bool exact;
	int reason;			/* enum rs_cg_reason when not exact */
};

/*
 * Match a closing window. `active`: shrink_active_list (PGREFILL / PGDEACTIVATE) else
 * shrink_inactive_list (PGSCAN_* / PGSTEAL_*). `have_steal` false: the isolate had no shrink
 * event, only the scan side can match.
 */
void cg_match_window(const struct cg_window *w, bool active, uint64_t scan_val, bool have_steal,
		     uint64_t steal_val, struct cg_match *m);
void cg_window_open(struct cg_window *w, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_window_count(struct cg_window *w, int cg, int cls, int64_t val);

/* An episode of a task still open, as this module sees it. */
#define CG_EP_VICTIMS 8
struct cg_open_ep {
	uint64_t serial;		/* 0: free slot */
	int kind;			/* enum rs_reclaim_kind */
	int trig;			/* cgroup index of the task at its begin, -1 unknown */
	int v0;				/* first victim, -1 none */
	uint16_t lca_len;		/* common path prefix of the victims (bytes of v0's path) */
	bool lca_unknown;		/* a victim without a known path */
	int nv;
	int victims[CG_EP_VICTIMS];
	bool victims_overflow;
};

#define CG_TASK_EPS 8

/* Per task of the episodes module (dense index). */
struct cg_rtask {
	int pid;
	bool kswapd, selected, known;
	struct cg_window w;
	struct cg_open_ep eps[CG_TASK_EPS];
};

/* Per cgroup, beside the public struct rs_cgroup. */
struct cg_priv {
	char *path;			/* owned; rs_cgroup.path points here */
	struct rs_latency *lat[RS_RK_NR];
	int64_t *ts;			/* [RS_CG_TS_NR][ts_cap], metric-major, or NULL */
	size_t ts_cap;
	int prev_state;			/* soft state at the previous snapshot */
	bool mkdir_in_range;		/* its cgroup_mkdir is in the analysed range: the LRU
					   deltas start from empty */
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

	/* identity (cgroup_ids.c) */
	struct rs_cgroup *cgs;
	struct cg_priv *priv;
	int nr, cap;
	struct cg_map by_id;		/* id + 1 -> index */
	int *path_slots;		/* path hash -> index + 1 */
	size_t path_nslots, path_used;	/* slots, occupied ones (stale included) */
	int overflow_row, unknown_row;	/* -1 until needed */
	bool capped;
	int mem_root;			/* hierarchy id of the memory controller, -1 unknown */
	uint32_t roots_seen_mask;	/* hierarchies seen while mem_root was unknown (< 32) */
	bool warned_roots;
	const char *hierarchy;		/* "v1", "v2", NULL */
	uint64_t page_size;
	int *sorted;			/* for rs_cgroups_sorted */

	/* pid -> cgroup index */
	struct cg_map tasks_cg;
	bool warned_tasks;

	/* reclaiming tasks (episodes' task index) */
	struct cg_rtask *rt;
	int nr_rt;

	/* names */
	char **item_names;		/* count_memcg_events items */
	int nr_item_names;
	uint8_t item_cls[RS_CG_MAX_ITEMS];
	bool item_reclaim[RS_CG_MAX_ITEMS];
	int8_t lru_of_item[RS_CG_MAX_ITEMS];	/* mod_memcg_lruvec_state item -> list, -1 */
	bool have_lru_names;
	bool warned_item_range;

	/* matrix */
	struct rs_cg_cell *cells;
	int nr_cells, cap_cells;
	struct cg_map by_cell;
	bool warned_cells;

	struct rs_cg_attrib at;
	struct cg_grid grid;

	/* episodes closed before the event that closed them (handled with its context) */
	struct rs_episode pend[CG_EP_PENDING];
	int nr_pend;

	bool prefeeding;		/* identity events before --from (rs_cgroups_prefeed) */
	uint64_t shrink_events, count_events, lruvec_events;
	uint64_t last_ts;
	bool finished, oom;
};

/* cgroup_ids.c */
int cg_new_row(struct rs_cgroups *cg, uint64_t id, const char *path);
int cg_find_id(const struct rs_cgroups *cg, uint64_t id);
int cg_find_path(const struct rs_cgroups *cg, const char *path);
/* The row of a memcg id seen in an event: created unnamed when new (or the overflow row). */
int cg_of_id(struct rs_cgroups *cg, uint64_t id);
/* Learn id <-> path (either may be 0/NULL); returns the row or -1. */
int cg_learn(struct rs_cgroups *cg, uint64_t id, const char *path, unsigned int flag);
bool cg_accept_root(struct rs_cgroups *cg, int root, uint64_t id, const char *path);
void cg_identity_event(struct rs_cgroups *cg, const struct rs_event *ev);
int cg_task_get(const struct rs_cgroups *cg, int pid);
void cg_task_set(struct rs_cgroups *cg, int pid, int row);
int cg_unknown_row(struct rs_cgroups *cg);
void cg_ids_free(struct rs_cgroups *cg);

/* cgroup_trigger.c */
struct cg_rtask *cg_rtask(struct rs_cgroups *cg, int task, int pid);
struct cg_open_ep *cg_ep_find(struct cg_rtask *rt, uint64_t serial);
struct cg_open_ep *cg_ep_add(struct cg_rtask *rt, uint64_t serial);
/* The row a task's reclaim is charged to as trigger: its cgroup, or "(unknown)". */
int cg_task_row(struct rs_cgroups *cg, int pid);
void cg_ep_victim(struct rs_cgroups *cg, struct cg_open_ep *e, int victim);
void cg_flush_pending(struct rs_cgroups *cg, const struct rs_ctx *ctx);
void cg_on_episode(void *arg, const struct rs_episode *ep);

/* cgroup_victim.c */
void cg_on_isolate(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_shrink(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_count(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_lruvec(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_close_without_shrink(struct rs_cgroups *cg, struct cg_rtask *rt);

/* cgroup_snap.c */
int cg_soft_state(const struct rs_cgroups *cg, const struct rs_cgroup *c);
void cg_on_snapshot(struct rs_cgroups *cg, const struct rs_event *ev);
void cg_anchor_lru(struct rs_cgroups *cg, int row);

/* cgroup_series.c */
void cg_grid_init(struct cg_grid *g, uint64_t t0, uint64_t t1, uint64_t width, size_t max);
void cg_ts_add(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v);
void cg_ts_set_last(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v);
void cg_ts_add_span(struct rs_cgroups *cg, int row, int metric, uint64_t from, uint64_t to);
void cg_ts_finish(struct rs_cgroups *cg, uint64_t end);

#endif
