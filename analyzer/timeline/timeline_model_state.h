/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of the timeline model, shared by analyzer/timeline/timeline_model.c (view, cursor, lanes,
 * filter, stalls) and analyzer/timeline/timeline_bin.c (binning, range re-reads, statistics).
 * Calls go one way: timeline_bin.c -> timeline_model.c (the tlm_* below). Nothing outside those
 * two files includes this.
 */
#ifndef TIMELINE_MODEL_IMPL_H
#define TIMELINE_MODEL_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "timeline_model.h"

struct colb {
	double sum;
	uint32_t max;
	uint32_t cnt;
};

/* A span reduced to what context resolution needs. */
struct cspan {
	int pid;
	uint8_t kind;
	uint64_t begin, end;
};

#define NR_SPAN_LANES (TL_L_NODE - TL_L_KSWAPD + 1)

struct tl_model {
	const struct tl_index *ix;
	int cols;
	uint64_t t0, cw;
	uint64_t first, end;		/* extent [first, end) */
	bool view_all;
	uint64_t cursor;
	bool mark_set[2];
	uint64_t mark[2];
	int metric, group;
	char filter[64];
	bool lane_hidden[TL_L_NR];	/* hidden by the user */
	bool show_all;
	bool expanded[TL_L_NR];
	uint64_t threshold;
	bool sel_valid;
	struct tl_span sel;

	/* rows */
	struct tl_row *rows;
	int nrows, cap_rows;
	struct tl_cell *cells;		/* [nrows * cols] */
	struct tl_cell_pages {		/* sub-lane scratch [nrows * cols] */
		double scanned, reclaimed;
	} *tpages;
	int cells_cap;			/* rows the cell arrays hold */
	int sel_row;
	int sel_lane, sel_sub;
	uint32_t sel_key;
	int32_t *keyrow[NR_SPAN_LANES];	/* key -> row, -1 */
	size_t nkeys;
	bool *tmatch, *cmatch;		/* filter match by task / cgroup */
	size_t ntmatch, ncmatch;

	/* binning */
	struct colb *cb;		/* [TL_S_NR * cols] */
	int level;
	bool rows_dirty, cells_dirty;
	uint64_t seen_events;
	size_t seen_spans;
	bool seen_finished;

	/* raw columns of the last range re-read */
	bool raw_valid, raw_busy;
	uint64_t raw_t0, raw_cw, raw_events;
	int raw_cols;
	struct colb *raw;
	struct cspan *rs;
	size_t nrs, cap_rs;
};

static inline bool span_lane(int lane)
{
	return lane >= TL_L_KSWAPD && lane <= TL_L_NODE;
}

static inline int lane_ctx(int lane)
{
	static const int k[NR_SPAN_LANES] = {
		RS_CTX_KSWAPD, RS_CTX_DIRECT, RS_CTX_MEMCG, RS_CTX_SOFTLIMIT, RS_CTX_NODE
	};
	return k[lane - TL_L_KSWAPD];
}

static inline int ctx_lane(int kind)
{
	switch (kind) {
	case RS_CTX_KSWAPD: return TL_L_KSWAPD;
	case RS_CTX_DIRECT: return TL_L_DIRECT;
	case RS_CTX_MEMCG: return TL_L_MEMCG;
	case RS_CTX_SOFTLIMIT: return TL_L_SOFTLIMIT;
	case RS_CTX_NODE: return TL_L_NODE;
	default: return -1;
	}
}

static inline bool stall_kind(int kind)
{
	return kind >= RS_CTX_DIRECT && kind <= RS_CTX_NODE;
}

static inline uint64_t span_dur(const struct tl_span *s)
{
	return s->end - s->begin;
}

static inline uint64_t window_ns(const struct tl_model *m)
{
	return m->cw * (uint64_t)m->cols;
}

/* timeline_model.c */
uint64_t tlm_cw_all(const struct tl_model *m);
void tlm_refresh_extent(struct tl_model *m);
void tlm_clamp_view(struct tl_model *m);
void tlm_rebuild_rows(struct tl_model *m);
bool tlm_ensure_cells(struct tl_model *m);
bool tlm_span_match(const struct tl_model *m, const struct tl_span *s);
uint64_t tlm_span_key(const struct tl_model *m, const struct tl_span *s);
/* First span with begin > ts (spans sorted by begin). */
size_t tlm_upper_bound(const struct tl_span *sp, size_t n, uint64_t ts);

/* timeline_bin.c */
const struct tl_span *tlm_spans_end(const struct tl_model *m);
const struct tl_span *tlm_spans_from(const struct tl_model *m, uint64_t t0);
/* Visit the spans overlapping [t0, t1): binary search when sorted, else all. */
#define FOR_SPANS_IN(m, t0, t1, s) \
	for (const struct tl_span *s = tlm_spans_from((m), (t0)), *s##_end = tlm_spans_end(m); \
	     s && s < s##_end && (!tl_index_spans_sorted((m)->ix) || s->begin < (t1)); s++) \
		if (s->end >= (t0) && s->begin < (t1))

#endif
