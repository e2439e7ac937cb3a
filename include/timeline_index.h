/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timeline's multi-resolution index, built in the analysis pass (analysis.h consumer).
 *
 * Series: additive counters of the reclaim events (scan per LRU list, reclaim, per context,
 * priority, write IO, throttling, OOM, lost events; tl_classify() says which event adds what)
 * in time buckets. Level 0 has at most `max_buckets` buckets over the trace's span (finest
 * width span / max_buckets, at least TL_MIN_WIDTH_NS); each coarser level merges 4 buckets
 * (sum and count add, max takes the max), down to a level of at most 16 buckets. When the
 * span is not known before the pass (text traces), level 0 starts at TL_MIN_WIDTH_NS and
 * merges pairs whenever an event falls past its end. Coarser levels are built by
 * tl_index_finish(); before that only level 0 exists (the TUI draws while the pass runs).
 * Below level 0's width the TUI re-reads the time range from the trace (trace_source.h):
 * buckets keep no record offsets, since rs_source_stream() seeks per CPU by timestamp.
 *
 * Spans: every closed reclaim episode and kswapd awake period, as an interval with its task,
 * trigger cgroup (the task's), victim cgroups (count_memcg_events pgscan_* / pgsteal_* inside
 * it) and its own scanned / reclaimed pages. Sorted by begin after finish. At most
 * `max_spans`: past the cap the shorter half is dropped and only episodes longer than the
 * new floor are kept (the series still count every episode; tl_index_dropped() says how many).
 *
 * Memory: series x buckets x 4/3 x 16 bytes (46 x 16384 -> about 16 MB), plus 48 bytes a span
 * and 16 a victim, never per event. Per event: a handful of array increments.
 *
 * Lifetime: tl_index_new() -> tl_index_consumer() registered with the analysis (or
 * tl_index_event()/tl_index_episode() by hand) -> tl_index_finish() -> readers ->
 * tl_index_free(). Not thread-safe: a caller reading while the pass runs must serialize.
 */
#ifndef TIMELINE_INDEX_H
#define TIMELINE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "episodes.h"
#include "rs_error.h"
#include "rs_event.h"


enum tl_series {
	TL_S_SCAN = 0,			/* + list (IA, AA, IF, AF): lru_isolate nr_scanned */
	TL_S_RECL = TL_S_SCAN + 4,	/* + list: inactive: shrink_inactive nr_reclaimed;
					   active: shrink_active nr_deactivated */
	TL_S_BASE = TL_S_RECL + 4,	/* + list: denominator of efficiency: shrink_inactive
					   nr_scanned; shrink_active nr_taken */
	TL_S_SSCAN = TL_S_BASE + 4,	/* + list: nr_scanned in a stall (direct..node) */
	TL_S_CTX_SCAN = TL_S_SSCAN + 4,	/* + ctx: lru_isolate nr_scanned */
	TL_S_CTX_RECL = TL_S_CTX_SCAN + RS_CTX_NR,	/* + ctx: shrink_inactive/reclaim_pages
							   nr_reclaimed */
	TL_S_CTX_BASE = TL_S_CTX_RECL + RS_CTX_NR,	/* + ctx: their nr_scanned */
	TL_S_CTX_TIME = TL_S_CTX_BASE + RS_CTX_NR,	/* + ctx: ns inside episodes of that kind
							   (kswapd: awake); max = longest, us */
	TL_S_PRIO = TL_S_CTX_TIME + RS_CTX_NR,	/* max = 13 - lowest priority (0: none) */
	TL_S_WRITE,			/* write_folio / writepage: folios */
	TL_S_THROTTLE,			/* throttled: sum = usec_delayed, cnt = events */
	TL_S_OOM,			/* oom:mark_victim */
	TL_S_LOST,			/* RS_EV_LOST: events lost (1 when unknown) */
	TL_S_KFAIL,			/* 7.x mm_vmscan_kswapd_reclaim_fail: a kswapd run failed */
	TL_S_KCLEAR,			/* 7.x mm_vmscan_kswapd_clear_hopeless */
	TL_S_REFAULT,			/* pages refaulted (tl_index_refault, refaults.h) */
	TL_S_QUICK,			/* of them, back within the thrash distance */
	TL_S_EVENTS,			/* every event */
	TL_S_NR
};

/* One bucket of one series. */
struct tl_bucket {
	uint64_t sum;
	uint32_t max;			/* largest single value (saturates) */
	uint32_t cnt;			/* events (spans: episodes begun) */
};

/* One (series, value) contribution of an event. */
struct tl_add {
	int series;
	uint64_t v;
};
#define TL_MAX_ADDS 8

/*
 * What an event adds, in context `ctx_kind` (enum rs_ctx_kind): fills out[], returns the
 * count. The index and the TUI's range re-reads both use it, so figures agree at any zoom.
 */
int tl_classify(const struct rs_event *ev, int ctx_kind, struct tl_add out[TL_MAX_ADDS]);

/* Span flags */
#define TL_SPAN_BROKEN		0x01	/* events were lost while it was open */
#define TL_SPAN_MORE_VICTIMS	0x02	/* more victims than TL_SPAN_VICTIMS were seen */

#define TL_SPAN_VICTIMS		4

struct tl_span {
	uint64_t begin, end;		/* ns; begin = trace start when cut at the start */
	int32_t pid;
	uint32_t task;			/* tl_index_task() */
	uint32_t trigger;		/* cgroup (tl_index_cgroup_name) of the task at the end;
					   0 unknown; TL_CG_KSWAPD for a kswapd task */
	uint32_t target;		/* 7.1+: the memcg whose limit it reclaims (the kernel's
					   memcg_id, the walk's root); 0 unknown or global */
	uint32_t scanned, reclaimed;	/* pages, by its own lru_isolate / shrink events
					   (innermost episode only); reclaimed falls back to the
					   end event's nr_reclaimed */
	uint32_t victim_off;		/* first of nr_victims in tl_index_victims() */
	uint8_t nr_victims;
	uint8_t kind;			/* enum rs_ctx_kind: a reclaim kind or RS_CTX_KSWAPD */
	uint8_t status;			/* enum rs_ep_status */
	uint8_t flags;			/* TL_SPAN_* */
};

struct tl_victim {
	uint32_t cg;			/* cgroup index */
	uint32_t scanned, reclaimed;	/* inactive lists' shrink events (and isolates that took
					   nothing) whose victim the loading stage matched */
};

struct tl_task {
	int pid;
	char comm[16];
	bool kswapd;
};

struct tl_index_opts {
	uint64_t span_first, span_last;	/* expected span (0, 0: unknown) */
	size_t max_buckets;		/* level 0; 0: TL_DEFAULT_BUCKETS */
	size_t max_spans;		/* 0: TL_DEFAULT_SPANS */
};

#define TL_DEFAULT_BUCKETS	16384
#define TL_DEFAULT_SPANS	(1u << 20)
#define TL_MIN_WIDTH_NS		100	/* finest bucket never narrower */
#define TL_MAX_LEVELS		12
#define TL_LEVEL_FACTOR		4

struct tl_index;

struct tl_index *tl_index_new(const struct tl_index_opts *o, struct rs_error *err);
void tl_index_free(struct tl_index *ix);

/* A consumer for rs_analysis_opts.consumers (arg = ix; finish = tl_index_finish). */
void tl_index_consumer(struct tl_index *ix, struct rs_consumer *out);
int tl_index_event(struct tl_index *ix, const struct rs_event *ev, const struct rs_ctx *ctx);
void tl_index_episode(struct tl_index *ix, const struct rs_episode *ep);
/* Build the coarser levels, sort the spans. Idempotent. Returns 0, or -1 (out of memory). */
int tl_index_finish(struct tl_index *ix, struct rs_error *err);

bool tl_index_finished(const struct tl_index *ix);
/*
 * The trace ran MGLRU (the source's verdict after its full stream, as analyze reads it: set
 * before tl_index_finish()). Its lru_isolate names the oldest generation of a type as that
 * type's inactive list and there are no active lists: the model names the lanes by type.
 */
void tl_index_set_mglru(struct tl_index *ix, bool mglru);
bool tl_index_mglru(const struct tl_index *ix);
/* Events seen, and the first / last event time (0 when none). */
uint64_t tl_index_events(const struct tl_index *ix);
/*
 * Refaulted pages at ts (the refaults consumer's hook, called while the event at ts is being
 * indexed); quick: back within the thrash distance. The index's series only: a range re-read
 * below the finest bucket has no history to join, so the refault lanes show the buckets.
 */
void tl_index_refault(struct tl_index *ix, uint64_t ts, uint64_t pages, bool quick);
uint64_t tl_index_first_ts(const struct tl_index *ix);
uint64_t tl_index_last_ts(const struct tl_index *ix);
/* The span to show: the expected one while the pass runs, else first..last. */
void tl_index_span(const struct tl_index *ix, uint64_t *first, uint64_t *last);

/* Levels: 0 finest. t0 is the start of bucket 0 on every level. */
int tl_index_levels(const struct tl_index *ix);
uint64_t tl_index_t0(const struct tl_index *ix);
uint64_t tl_index_width(const struct tl_index *ix, int level);
size_t tl_index_nbuckets(const struct tl_index *ix, int level);	/* buckets in use */
/*
 * The buckets of width w from T0, nb of them, that meet the window [t0, t1): *b0 up to the
 * returned end (empty when the end is not above *b0).
 */
size_t tl_buckets_in(uint64_t T0, uint64_t w, size_t nb, uint64_t t0, uint64_t t1, size_t *b0);
/* Bucket b of series s on a level; NULL when out of range. */
const struct tl_bucket *tl_index_bucket(const struct tl_index *ix, int level, size_t b, int s);
/* Whole-trace totals of a series (level 0 summed as events come). */
const struct tl_bucket *tl_index_total(const struct tl_index *ix, int s);

/* Spans: sorted by begin once finished; before that, in closing order. */
size_t tl_index_nspans(const struct tl_index *ix);
const struct tl_span *tl_index_spans(const struct tl_index *ix);
const struct tl_victim *tl_index_victims(const struct tl_index *ix);
bool tl_index_spans_sorted(const struct tl_index *ix);
uint64_t tl_index_max_span(const struct tl_index *ix);	/* longest kept span, ns */
uint64_t tl_index_dropped(const struct tl_index *ix);	/* spans not kept (cap) */
uint64_t tl_index_span_floor(const struct tl_index *ix);	/* shorter ones are not kept */

int tl_index_ntasks(const struct tl_index *ix);
const struct tl_task *tl_index_task(const struct tl_index *ix, uint32_t task);
/* The task of pid (UINT32_MAX when never seen in a reclaim event). */
uint32_t tl_index_task_of_pid(const struct tl_index *ix, int pid);

/*
 * Cgroups, by index: 0 unknown, TL_CG_KSWAPD for kswapd's reclaim (its own cgroup means
 * nothing as a trigger), TL_CG_ROW0 + row for the loading stage's memcg rows
 * (memcg_attrib.h). tl_index_cgroups() is one past the highest index.
 */
#define TL_CG_KSWAPD		1u
#define TL_CG_ROW0		2u
uint32_t tl_index_cgroups(const struct tl_index *ix);
/* Path, "id:N" when only the id is known, "(kswapd)", "?" for 0. Valid until the next call
   of a few more (id names rotate through small buffers). */
const char *tl_index_cgroup_name(const struct tl_index *ix, uint32_t cg);
uint64_t tl_index_cgroup_id(const struct tl_index *ix, uint32_t cg);

#endif
