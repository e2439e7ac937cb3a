/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline model behind `reclaimscope tui`: the visible window, cursor, markers, lanes,
 * metric, grouping and filter, and the binning of the index (timeline_index.h) onto screen
 * columns. No curses and no I/O here (KernelShark's libkshark-model.h plays this part): the
 * screen module draws what the readers return, and the command re-reads a time range from
 * the trace when tl_model_needs_range() asks for it.
 *
 * Geometry. The window is `cols` columns of `cw` ns each (an integer, >= 1): column c covers
 * [t0 + c cw, t0 + (c + 1) cw). Zooming halves or doubles cw around the cursor's column;
 * panning moves t0 by whole columns. The window never leaves the trace: when it is wider than
 * the trace the whole trace shows, else it stays inside it. The cursor is an exact time (a
 * jump puts it on an episode's begin); its column is where that time falls.
 *
 * Binning. With cw at least the index's finest bucket, the model takes the coarsest level
 * whose buckets are no wider than a column and spreads each bucket over the columns it
 * overlaps (sums in proportion to the overlap; max and count whole), so a redraw costs a few
 * buckets per column whatever the trace's size. Narrower columns need the events themselves:
 * tl_model_needs_range() returns the window's range, the caller streams it through
 * tl_model_raw_begin/event/end, and the columns are then exact (the same tl_classify() as
 * the index; the context of each event comes from the index's spans). Reclaim and kswapd
 * spans are binned from the span list when exact figures are needed (sub-lanes, raw mode)
 * and from the index's time series otherwise.
 *
 * Lanes (rows): per LRU list (scan rate, or by metric), reclaimed, efficiency, kswapd,
 * direct, memcg, softlimit, node reclaim (each with sub-lanes per task, trigger cgroup or
 * victim cgroup: tl_model_set_group), priority, write IO, throttling, marks (OOM, lost
 * events). Lanes with no data in the trace are hidden until tl_model_show_all().
 *
 * Lifetime: tl_model_new(ix) -> setters / actions -> tl_model_update() -> readers ...
 * -> tl_model_free(). The index must outlive the model; while it is still being built the
 * caller serializes the model's calls with the builder.
 */
#ifndef TIMELINE_MODEL_H
#define TIMELINE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "episodes.h"
#include "rs_event.h"
#include "timeline_index.h"

enum tl_metric { TL_M_SCANNED, TL_M_RECLAIMED, TL_M_EFFICIENCY, TL_M_STALL, TL_M_NR };
enum tl_group { TL_G_TASK, TL_G_TRIGGER, TL_G_VICTIM, TL_G_NR };

enum tl_lane {
	TL_L_IA, TL_L_AA, TL_L_IF, TL_L_AF,	/* per LRU list, by metric */
	TL_L_RECLAIMED,				/* shrink_inactive nr_reclaimed, pages/s */
	TL_L_EFFICIENCY,			/* reclaimed / inactive scanned */
	TL_L_KSWAPD, TL_L_DIRECT, TL_L_MEMCG, TL_L_SOFTLIMIT, TL_L_NODE,	/* span lanes */
	TL_L_PRIORITY,				/* lowest priority reached */
	TL_L_WRITE,				/* write_folio, folios/s */
	TL_L_THROTTLE,				/* mm_vmscan_throttled */
	TL_L_REFAULT,				/* file pages refaulted, pages/s */
	TL_L_THRASH,				/* of them back within 1 s, pages/s */
	TL_L_MARKS,				/* OOM kills, lost events, kswapd failures */
	TL_L_NR
};

/* What colour class a lane draws in (the screen maps it to its colours). */
enum tl_lane_kind { TL_K_ANON, TL_K_FILE, TL_K_STALL, TL_K_KSWAPD, TL_K_MARK, TL_K_OTHER };

/* How a row's values read. */
enum tl_scale {
	TL_SCALE_RATE,		/* per second; drawn relative to the row's max in view */
	TL_SCALE_FRACTION,	/* 0..1 (efficiency; stall or awake share of the column) */
	TL_SCALE_PRIORITY,	/* 0 none, else 13 - priority (13: priority 0) */
	TL_SCALE_MARK,		/* flags only */
};

/* Cell flags */
#define TL_CELL_DATA	0x01	/* a value exists (efficiency: something was scanned) */
#define TL_CELL_OOM	0x02
#define TL_CELL_LOST	0x04
#define TL_CELL_THROT	0x08
#define TL_CELL_SEL	0x10	/* the selected episode covers the column */
#define TL_CELL_KFAIL	0x20	/* 7.x: a kswapd run failed (mm_vmscan_kswapd_reclaim_fail) */
#define TL_CELL_KCLEAR	0x40	/* 7.x: kswapd's hopeless state cleared */

struct tl_cell {
	double v;		/* by the row's scale */
	double cover;		/* span lanes: share of the column inside spans (can pass 1) */
	uint32_t max;		/* largest single value in the column (series max) */
	uint8_t flags;
};

/*
 * What a lane is, one entry per lane in timeline_model.c (tl_lane_def): a simple rate lane
 * binned from one index series is its entry and nothing else; the others (the LRU lists and
 * reclaim contexts by metric, efficiency, priority, throttling, marks) are binned by name in
 * timeline_bin.c.
 */
struct tl_lane_def {
	const char *name;		/* as the kernel names it: "inactive_file", "kswapd" */
	const char *short_name;		/* in a narrow label: "IF", "kswpd" */
	enum tl_lane_kind kind;
	int scale;			/* enum tl_scale, or -1: by the metric */
	int series;			/* a rate lane of one TL_S_* series, else -1 */
	int data[4];			/* TL_S_* series whose counts say the lane has data (up to
					   4, -1 ends); none: always shown */
};
const struct tl_lane_def *tl_lane_def(int lane);

#define TL_NAME_MAX 48

struct tl_row {
	int lane;			/* enum tl_lane */
	int sub;			/* -1: the lane; else its sub-lane rank */
	uint32_t key;			/* sub-lane: task or cgroup index (0: unknown) */
	char name[TL_NAME_MAX];		/* "IA", "direct", "kswapd0:87", "/rs_parent/rs_a" */
	enum tl_scale scale;
	double max;			/* largest v in view */
	double sum;			/* rate rows: amount in view (pages, folios, events);
					   fraction rows: ns inside spans in view */
	bool expandable, expanded;
	int hidden_subs;		/* sub-lanes past TL_MAX_SUBLANES */
};

#define TL_MAX_SUBLANES 32
#define TL_MAX_COLS 1024

/* Figures of a time range: tl_model_stats(). Series figures are pages unless named. */
#define TL_STATS_TOP 5
struct tl_stat_cg {
	uint32_t cg;
	uint64_t episodes, stall_ns, scanned, reclaimed;
};
struct tl_stat_task {
	uint32_t task;
	uint64_t episodes, stall_ns;
};
struct tl_stats {
	uint64_t t0, t1;
	uint64_t res_ns;		/* series rounded to this bucket width; 0 = exact */
	double scanned[4], reclaimed[4], base[4], stall_scanned[4];	/* by list; active
					   lists: reclaimed = deactivated, base = taken */
	double ctx_scanned[RS_CTX_NR], ctx_reclaimed[RS_CTX_NR], ctx_base[RS_CTX_NR];
	double writes, throttled, throttled_us, ooms, lost, events;
	double refaulted, quick_refaulted;	/* file pages refaulted; of them within 1 s */
	int min_prio;			/* lowest priority reached, -1 none */
	/* from the spans (exact; the filter applies) */
	uint64_t episodes[RS_CTX_NR];	/* begun in the range (kswapd: awake periods) */
	uint64_t span_ns[RS_CTX_NR];	/* time inside the range */
	uint64_t worst_ns[RS_CTX_NR];	/* longest overlapping the range */
	int nr_trig, nr_vic, nr_tasks;
	struct tl_stat_cg trig[TL_STATS_TOP];	/* trigger cgroups by stall time */
	struct tl_stat_cg vic[TL_STATS_TOP];	/* victim cgroups by pages scanned */
	struct tl_stat_task tasks[TL_STATS_TOP];	/* tasks by stall time */
};

struct tl_model;

struct tl_model *tl_model_new(const struct tl_index *ix);
void tl_model_free(struct tl_model *m);
const struct tl_index *tl_model_index(const struct tl_model *m);

/* Names for the screen and docs. */
const char *tl_metric_name(int metric);		/* "scanned", "reclaimed", ... */
const char *tl_group_name(int group);		/* "task", "trigger cgroup", ... */
const char *tl_lane_name(int lane);		/* "IA", "reclaimed", "direct", ... */
/*
 * A lane's name on this trace: under MGLRU (tl_index_mglru) the list lanes are its types,
 * "anon" and "file" (the oldest generation, which lru_isolate names as the type's inactive
 * list), as analyze names them; the active-list lanes do not exist there.
 */
const char *tl_model_lane_name(const struct tl_model *m, int lane);
const char *tl_model_lane_short(const struct tl_model *m, int lane);	/* narrow labels */

/* ---- geometry and view ---- */
void tl_model_set_columns(struct tl_model *m, int cols);	/* 1..TL_MAX_COLS */
int tl_model_columns(const struct tl_model *m);
void tl_model_window(const struct tl_model *m, uint64_t *t0, uint64_t *t1);
uint64_t tl_model_col_width(const struct tl_model *m);
uint64_t tl_model_col_ts(const struct tl_model *m, int col);	/* start of a column */
void tl_model_zoom(struct tl_model *m, int steps);	/* > 0 in, < 0 out, x2 a step */
void tl_model_zoom_all(struct tl_model *m);
void tl_model_zoom_range(struct tl_model *m, uint64_t a, uint64_t b);
void tl_model_pan(struct tl_model *m, int cols);
/* The trace's extent as the model uses it: [first, end). */
void tl_model_extent(const struct tl_model *m, uint64_t *first, uint64_t *end);

/* ---- cursor and markers ---- */
void tl_model_cursor_move(struct tl_model *m, int cols);	/* pans at the edges */
void tl_model_cursor_set(struct tl_model *m, uint64_t ts);	/* pans to show it */
uint64_t tl_model_cursor_ts(const struct tl_model *m);
int tl_model_cursor_col(const struct tl_model *m);
void tl_model_cursor_range(const struct tl_model *m, uint64_t *t0, uint64_t *t1);
void tl_model_set_marker(struct tl_model *m, int which);	/* 0 = A, 1 = B: at the cursor */
void tl_model_clear_markers(struct tl_model *m);
bool tl_model_marker(const struct tl_model *m, int which, uint64_t *ts);
/* Column of a marker, or -1 when off screen or unset. */
int tl_model_marker_col(const struct tl_model *m, int which);
/* [A, B) ordered, when both are set. */
bool tl_model_marked_range(const struct tl_model *m, uint64_t *a, uint64_t *b);

/* ---- lanes, metric, grouping, filter ---- */
void tl_model_set_metric(struct tl_model *m, int metric);
int tl_model_metric(const struct tl_model *m);
void tl_model_set_group(struct tl_model *m, int group);
int tl_model_group(const struct tl_model *m);
/* Case-insensitive substring of a task's comm or pid, or of a trigger or victim cgroup's
 * path; "" or NULL clears. Span lanes then show only the matching sub-lanes, and the jumps
 * and span statistics only the matching episodes. Returns the sub-lanes that match. */
int tl_model_set_filter(struct tl_model *m, const char *text);
const char *tl_model_filter(const struct tl_model *m);
int tl_model_nrows(struct tl_model *m);
const struct tl_row *tl_model_row(struct tl_model *m, int i);
const struct tl_cell *tl_model_cells(struct tl_model *m, int i);	/* [columns] */
int tl_model_selected_row(struct tl_model *m);
void tl_model_select_row(struct tl_model *m, int delta);
bool tl_model_toggle_expand(struct tl_model *m);	/* false: the row has no sub-lanes */
void tl_model_hide_row(struct tl_model *m);		/* hides the selected row's lane */
void tl_model_show_all(struct tl_model *m);		/* empty and hidden lanes too */
bool tl_model_lane_visible(const struct tl_model *m, int lane);

/* ---- stalls (direct, memcg, softlimit and node episodes; kswapd is not a stall) ---- */
void tl_model_set_threshold(struct tl_model *m, uint64_t ns);
uint64_t tl_model_threshold(const struct tl_model *m);
/* Next (dir > 0) or previous stall at least the threshold long, from the cursor: moves the
 * cursor to its begin (panning to show it) and selects it. -1 when there is none. */
int tl_model_jump(struct tl_model *m, int dir);
/* The longest stall: selected, cursor on its begin, zoomed to twice its length. -1: none. */
int tl_model_jump_worst(struct tl_model *m);
/* The selected episode, or NULL. */
const struct tl_span *tl_model_selected_span(const struct tl_model *m);

/* ---- binning ---- */
/* Recompute what changed (rows, columns). Call before reading rows and cells. */
void tl_model_update(struct tl_model *m);
/* True when the view needs a re-read of [t0, t1) from the trace (below the finest level). */
bool tl_model_needs_range(struct tl_model *m, uint64_t *t0, uint64_t *t1);
void tl_model_raw_begin(struct tl_model *m);
void tl_model_raw_event(struct tl_model *m, const struct rs_event *ev);
void tl_model_raw_end(struct tl_model *m);
/* The level the columns come from: >= 0 an index level, -1 the events (raw). */
int tl_model_level(struct tl_model *m);
/* Events binned by the last range re-read. */
uint64_t tl_model_raw_events(const struct tl_model *m);

/* Start of the first finest bucket in [t0, t1) with reclaim activity (scanning, shrinking,
 * an episode or kswapd period beginning, write IO, throttling, OOM, lost events), no earlier
 * than t0; t1 when there is none. Where to start reading to list a range's reclaim events. */
uint64_t tl_model_first_activity(const struct tl_model *m, uint64_t t0, uint64_t t1);

/* Figures of [t0, t1). */
void tl_model_stats(struct tl_model *m, uint64_t t0, uint64_t t1, struct tl_stats *st);

/* Context of an event at a time for a range re-read: innermost span of pid covering ts
 * (enum rs_ctx_kind), kswapd for a kswapd task, else other. Valid after raw_begin. */
int tl_model_context_at(const struct tl_model *m, int pid, uint64_t ts);

/* Name of a task or cgroup of the index, as rows show them. */
void tl_model_task_name(const struct tl_model *m, uint32_t task, char *buf, size_t len);
const char *tl_model_cgroup_name(const struct tl_model *m, uint32_t cg);

#endif
