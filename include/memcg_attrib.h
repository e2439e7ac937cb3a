/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memcg attribution of the shared loading stage (analysis.h), resolved once for every command
 * (shared/NOTES.md sections 3 and 9, docs/cgroups.md "How attribution works"):
 *
 *   identity  memcg id -> path (cgroup_map markers, cgroup events, memcg_stat snapshots), the
 *             memory controller's hierarchy on cgroup v1, and task -> memcg (task_cgroup
 *             markers, cgroup_attach_task, fork inheritance). Memcgs are rows, numbered in the
 *             order they are first seen, never dropped (an id made again after its rmdir gets
 *             a new row).
 *   victim    the memcg a shrink event took its pages from: per task (common_pid), an
 *             lru_isolate opens a window that collects the task's memcg counters until its
 *             shrink event, which matches them by value (PGSCAN_* = nr_scanned and PGSTEAL_* =
 *             nr_reclaimed; PGREFILL / PGDEACTIVATE for an active list). On 6.13..7.0 the
 *             counters are count_memcg_events; on 7.x pgscan_*, pgsteal_* and pgrefill are
 *             node-stat items of mod_memcg_lruvec_state (named by the recorder's
 *             node_stat_items marker). The outcome says how the victim was told.
 *   root      the reclaim root of a reclaim episode (the memcg whose limit is reclaimed, the
 *             walk's root): the begin event's memcg_id on 7.1+ (0: global reclaim), else
 *             inferred as the lowest common ancestor of the victims the episode took pages
 *             from (a lower bound of it).
 *
 * Every event reaches the analysis' consumers with a struct rs_memcg_ctx (rs_ctx.memcg), every
 * closed episode with its root (rs_episode.root). Memory: memcgs (capped), tasks (the
 * analysis' cap), a window per reclaiming task; nothing grows with events.
 */
#ifndef RS_MEMCG_ATTRIB_H
#define RS_MEMCG_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs_event.h"

struct rs_warnings;

#define RS_MEMCG_MAX_DEFAULT	4096	/* memcgs tracked; more share one "(other cgroups)" row */
#define RS_MEMCG_MAX_ITEMS	4096	/* raw item numbers classified */

/* What named a memcg row. */
enum rs_cg_flags {
	RS_CGF_MAP = 1u << 0,		/* named by the recorder's cgroup_map */
	RS_CGF_MKDIR = 1u << 1,		/* created in the trace (cgroup_mkdir) */
	RS_CGF_RMDIR = 1u << 2,		/* removed in the trace (cgroup_rmdir): kept */
	RS_CGF_RELEASE = 1u << 3,	/* released (cgroup_release) */
	RS_CGF_RENAME = 1u << 4,	/* renamed; path is the latest */
	RS_CGF_ATTACH = 1u << 5,	/* named by cgroup_attach_task */
	RS_CGF_SNAPSHOT = 1u << 6,	/* has memcg_stat snapshots */
	RS_CGF_OVERFLOW = 1u << 7,	/* the "(other cgroups)" row past the cap */
	RS_CGF_UNKNOWN_TASKS = 1u << 8,	/* the "(unknown)" row: tasks of no known cgroup */
	RS_CGF_REUSED = 1u << 9,	/* its id was made again by a later cgroup_mkdir */
};

/* cgroup_id() of a hierarchy's root cgroup (its kernfs root's inode number): "/" */
#define RS_MEMCG_ROOT_ID 1

struct rs_memcg {
	uint64_t id;			/* cgroup id (inode); 0 unknown (old snapshot: path only) */
	const char *path;		/* NULL when unknown */
	unsigned int flags;		/* enum rs_cg_flags */
	int level;			/* from cgroup events, -1 unknown */
	uint64_t mkdir_ts, rmdir_ts;	/* 0 when not in the trace */
	bool mkdir_in_range;		/* its mkdir is in the analysed range (not prefed) */
};

/*
 * How a shrink event (or an isolate that had none) found its victim. Exact: both counters of
 * the task since its lru_isolate matched the shrink event's values in one memcg. Fallback:
 * only part matched; the reason says which and which memcg was taken. Unmatched: no victim.
 */
enum rs_cg_reason {
	RS_CGR_SCAN_ONLY,		/* fallback: the scan counter matched, the steal one not */
	RS_CGR_STEAL_ONLY,		/* fallback: the steal counter matched, the scan one not */
	RS_CGR_DISAGREE,		/* fallback: both matched, two memcgs (the steal one's) */
	RS_CGR_LRU_DELTA,		/* fallback: no counter matched; memcg of the isolation's
					   mod_memcg_lruvec_state(-n) */
	RS_CGR_MEMCG_ID_LEAF,		/* fallback: no memcg event; the 7.1+ memcg_id of the limit
					   reclaim call it is in, a memcg with no child memcg */
	RS_CGR_NO_ISOLATE,		/* unmatched: no lru_isolate of the task before it */
	RS_CGR_NO_MATCH,		/* unmatched: the task's memcg counters since its isolate
					   have other values, and no LRU decrement names one */
	RS_CGR_NO_MEMCG_EVENT,		/* unmatched: no memcg event of the task since isolate */
	RS_CGR_UNTRACKED_TASK,		/* unmatched: a task beyond the task cap */
	RS_CGR_NR
};
#define RS_CGR_FIRST_UNMATCHED RS_CGR_NO_ISOLATE
const char *rs_cg_reason_name(int r);	/* "scan_only", "steal_only", ... */

enum rs_victim_how { RS_VICTIM_EXACT, RS_VICTIM_FALLBACK, RS_VICTIM_UNKNOWN };

/* The outcome of one isolate..shrink window. */
struct rs_victim {
	bool valid;			/* a window closed here */
	enum rs_victim_how how;
	int reason;			/* enum rs_cg_reason, when not exact */
	int row;			/* memcg row, -1 none */
	/* the window: the isolate's figures and context */
	bool had_isolate;		/* false: no window (NO_ISOLATE, UNTRACKED_TASK) */
	bool isolate_only;		/* closed without a shrink event (nothing taken) */
	int lru;			/* enum rs_lru of the isolate, -1 unknown */
	int ctx;			/* enum rs_ctx_kind at the isolate */
	bool selected;			/* the isolate's task passed the pid/comm filter */
	uint64_t serial;		/* episode serial of the isolate's context */
	uint64_t ts;			/* the isolate's time */
	uint64_t nr_requested, nr_scanned, nr_taken;	/* the isolate's */
};

#define RS_MEMCG_EP_VICTIMS 8

/* Reclaim root of an episode. */
enum rs_root_how {
	RS_ROOT_NONE,			/* not a memcg episode's, or no victim matched */
	RS_ROOT_KERNEL,			/* the kernel's memcg_id (7.1+); row -1: global (id 0) */
	RS_ROOT_INFERRED,		/* lowest common ancestor of the matched victims */
	RS_ROOT_UNKNOWN_PATH,		/* inferred, but a victim had no known path */
};

struct rs_memcg_root {
	enum rs_root_how how;
	int row;			/* KERNEL: the memcg_id's row; INFERRED: the first victim */
	uint16_t len;			/* INFERRED: the root is the first len bytes of row's path
					   ("/" when 0); KERNEL: the whole path */
	int nr_victims;			/* distinct victims matched (victims[]) */
	int victims[RS_MEMCG_EP_VICTIMS];	/* rows, in the order first matched */
	bool victims_overflow;		/* more than RS_MEMCG_EP_VICTIMS */
};

/* Item classes (count_memcg_events items, and the 7.x node-stat reclaim items). */
enum rs_memcg_item_class {
	RS_MIC_UNNAMED,			/* no names in the trace: values alone decide */
	RS_MIC_OTHER,
	RS_MIC_SCAN,			/* pgscan_{kswapd,direct,khugepaged,proactive} */
	RS_MIC_STEAL,			/* pgsteal_{kswapd,direct,khugepaged,proactive} */
	RS_MIC_REFILL,			/* pgrefill: shrink_active_list's nr_scanned */
	RS_MIC_DEACT,			/* pgdeactivate: shrink_active_list's nr_deactivate */
	RS_MIC_PSWPIN,			/* pswpin: a swap-in, charged to the folio's memcg */
	RS_MIC_PSWPOUT,			/* pswpout: a swap-out of the memcg's folio */
};

struct rs_memcgs;

/* What the loading stage resolved for one event. */
struct rs_memcg_ctx {
	const struct rs_memcgs *memcgs;	/* rows and lookups (readers below) */
	int task;			/* row of the task's memcg now, -1 unknown */
	int named;			/* row a memcg counter / LRU delta / cgroup event / snapshot
					   / 7.1+ shrink_slab names, -1 */
	int item_class;			/* memcg counters: enum rs_memcg_item_class (7.x node-stat
					   reclaim items too), RS_MIC_OTHER otherwise */
	int lru;			/* mod_memcg_lruvec_state: the LRU list its item is, -1 */
	struct rs_victim closed;	/* an isolate-only window this event closed (the task's
					   next isolate, or a shrink of the other list kind) */
	struct rs_victim shrink;	/* a shrink event: its window's outcome */
	const struct rs_memcg_root *root;	/* innermost episode's root so far, or NULL */
};

struct rs_memcgs_opts {
	size_t max_memcgs;		/* 0: RS_MEMCG_MAX_DEFAULT */
	size_t max_tasks;		/* pid -> memcg entries; 0: 65536 */
	struct rs_warnings *warnings;
};

struct rs_memcgs *rs_memcgs_new(const struct rs_memcgs_opts *o);
void rs_memcgs_free(struct rs_memcgs *m);
/* Before the first event (rs_cgroups_bind passes --max-cgroups / --max-tasks). */
void rs_memcgs_set_caps(struct rs_memcgs *m, size_t max_memcgs, size_t max_tasks);

/* Identity only, from an event before the analysed range (the recorder's markers). */
void rs_memcgs_prefeed(struct rs_memcgs *m, const struct rs_event *ev);

/* Rows. Indices are stable; a row's path may change until the end (renames). */
int rs_memcgs_count(const struct rs_memcgs *m);
const struct rs_memcg *rs_memcgs_get(const struct rs_memcgs *m, int row);
/* Changes to rows since the start: bumped on every new row or identity change. */
uint64_t rs_memcgs_generation(const struct rs_memcgs *m);
int rs_memcgs_find_id(const struct rs_memcgs *m, uint64_t id);
int rs_memcgs_find_path(const struct rs_memcgs *m, const char *path);
/* The row of the memcg task `pid` is in now, -1 unknown. */
int rs_memcgs_task(const struct rs_memcgs *m, int pid);
/* The "(unknown)" row of tasks in no known memcg, made on first use (-1 out of memory). */
int rs_memcgs_unknown_row(struct rs_memcgs *m);
size_t rs_memcgs_max(const struct rs_memcgs *m);

/*
 * What the trace lets the loading stage tell, read together by the reports to say which of
 * their figures are absent (not 0) and why: at the end, or so far.
 */
struct rs_memcgs_facts {
	bool item_names;		/* vm_event_items named (count_memcg_events items) */
	bool lru_names;			/* node_stat_items named (mod_memcg_lruvec_state items) */
	bool kernel_roots;		/* 7.1+: reclaim begin/end carry memcg_id, the roots */
	bool slab_memcgs;		/* 7.1+: shrink_slab carries memcg_id */
	bool capped;			/* more memcgs than the cap: "(other cgroups)" holds them */
};
const struct rs_memcgs_facts *rs_memcgs_facts(const struct rs_memcgs *m);

/* Item names: vm_event_items (count_memcg_events) and node_stat_items (lruvec). */
const char *rs_memcgs_item_name(const struct rs_memcgs *m, int item);	/* NULL: unnamed */
bool rs_memcgs_item_is_reclaim(const struct rs_memcgs *m, int item);
/* The vm_event_items name an item of class cls (enum rs_memcg_item_class): a consumer tells a
   kernel that does not count it (unknown) from one that counted none (0). */
bool rs_memcgs_have_item_class(const struct rs_memcgs *m, int cls);
const char *rs_memcgs_node_item_name(const struct rs_memcgs *m, int item);	/* NULL */
/* 7.x: a node-stat item that was a vm event (count_memcg_events) before: pgscan_*, pgsteal_*,
   pgrefill. */
bool rs_memcgs_node_item_was_vm_event(const struct rs_memcgs *m, int item);

/*
 * The outcome of a task's still-open window (matched on the scan side alone), for a consumer
 * that closes windows at other points (episode ends, the end of the trace). false: none open.
 */
bool rs_memcgs_open_window(const struct rs_memcgs *m, int task, struct rs_victim *out);

/* Loading-stage interface (analysis.c). */
struct rs_ctx;
struct rs_episode;
void rs_memcgs_event(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		     struct rs_memcg_ctx *out);
/* An episode closed: its root (valid until the next call). */
const struct rs_memcg_root *rs_memcgs_episode(struct rs_memcgs *m, const struct rs_episode *ep);
bool rs_memcgs_oom(const struct rs_memcgs *m);

#endif
