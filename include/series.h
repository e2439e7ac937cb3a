/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time series: a fixed set of additive metrics counted in equal time buckets. Memory is
 * metrics x buckets, never events: when the buckets would exceed their cap, adjacent pairs are
 * merged (the width doubles) and a warning says so. With no known span (a text trace, or events
 * fed by hand) the width starts at 1 ms and doubles whenever the series passes 2 x `target`
 * buckets, so it ends with target..2 x target buckets.
 *
 * Lifetime: rs_series_new() -> rs_series_add()/rs_series_add_span()... -> rs_series_finish()
 * -> readers -> rs_series_free().
 */
#ifndef RS_SERIES_H
#define RS_SERIES_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct rs_warnings;
struct rs_series;

struct rs_series_opts {
	int nr_metrics;
	uint64_t t0;			/* start of bucket 0, ns; with t1 == 0, the first add's */
	uint64_t t1;			/* expected end, ns; 0 when unknown */
	uint64_t width;			/* bucket, ns; 0: (t1 - t0) / target + 1, or 1 ms growing */
	size_t target;			/* buckets wanted when width is 0 (default 100) */
	size_t max_buckets;		/* cap (default 100000) */
	struct rs_warnings *warnings;	/* where the widening warning goes; may be NULL */
};

struct rs_series *rs_series_new(const struct rs_series_opts *o);
void rs_series_free(struct rs_series *s);

/* Add v to `metric` in the bucket of ts (ts before t0 counts in bucket 0). */
void rs_series_add(struct rs_series *s, int metric, uint64_t ts, uint64_t v);
/* Add to `metric` the ns of [from, to) that fall in each bucket (stall time, awake time). */
void rs_series_add_span(struct rs_series *s, int metric, uint64_t from, uint64_t to);

/*
 * The ns of the span [from, to) that fall in [lo, hi): what a span adds to a bucket, or to a
 * window, it crosses (0 when they do not meet). Every per-bucket span time (this series, the
 * cgroup grid, the browser's index and its binning) cuts spans this one way.
 */
static inline uint64_t rs_span_overlap(uint64_t from, uint64_t to, uint64_t lo, uint64_t hi)
{
	if (from > lo)
		lo = from;
	if (to < hi)
		hi = to;
	return hi > lo ? hi - lo : 0;
}

/* Extend the series to cover `end` (trailing empty buckets included). */
void rs_series_finish(struct rs_series *s, uint64_t end);

/*
 * Did growing the buckets fail for want of memory? Then the series stopped taking values at
 * that moment (it does not retry on every later value) and the caller must fail.
 */
bool rs_series_failed(const struct rs_series *s);

/*
 * Where a series' buckets lie: bucket b, below len, covers [t0 + b x width, t0 + (b + 1) x
 * width). The analysis', the cgroups' and the refaults' series all say it so.
 */
struct rs_buckets {
	uint64_t t0;		/* start of bucket 0, ns */
	uint64_t width;		/* ns */
	size_t len;
};

struct rs_buckets rs_series_buckets(const struct rs_series *s);

/*
 * The bucket rules of every series on the trace's time (this one, the cgroups' grid), so that
 * their buckets meet: with a known span [t0, t1) the width is `width`, or span / target + 1
 * when 0, doubled until the span fits in max buckets; with no span it is `width`, or 1 ms when
 * 0 and then growing (*grows set): the buckets are merged in pairs (the width doubles) when a
 * bucket past max, or past 2 x target while growing, is wanted.
 */
#define RS_BUCKETS_TARGET	100		/* rs_series_opts.target's default */
#define RS_BUCKETS_MAX		100000		/* rs_series_opts.max_buckets' default */
uint64_t rs_buckets_width(uint64_t t0, uint64_t t1, uint64_t width, size_t target, size_t max,
			  bool *grows);

static inline bool rs_buckets_must_merge(uint64_t idx, size_t target, size_t max, bool grows)
{
	return idx >= max || (grows && idx >= 2 * target);
}
/* Values of one metric, [rs_series_buckets().len] (NULL when the length is 0). */
const uint64_t *rs_series_values(const struct rs_series *s, int metric);

#endif
