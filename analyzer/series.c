// SPDX-License-Identifier: GPL-2.0
/* Time buckets of additive metrics, bounded by a bucket cap (see include/series.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rs_warn.h"
#include "series.h"

#define SERIES_GROW_WIDTH	1000000ull	/* 1 ms: first width when the span is unknown */

uint64_t rs_buckets_width(uint64_t t0, uint64_t t1, uint64_t width, size_t target, size_t max,
			  bool *grows)
{
	*grows = false;
	if (!width) {
		if (t1 > t0) {
			/* span / width < target: the last event falls in bucket target - 1 */
			width = (t1 - t0) / target + 1;
		} else {
			width = SERIES_GROW_WIDTH;
			*grows = true;
		}
	}
	/* a known span far larger than the cap allows: widen now rather than merge 30 times */
	if (t1 > t0)
		while ((t1 - t0) / width >= max)
			width *= 2;
	return width;
}

struct rs_series {
	int nr_metrics;
	uint64_t t0, width;
	bool t0_set;
	bool auto_width;		/* width chosen by us: keep the length near target */
	size_t target, max_buckets;
	size_t len, cap;		/* buckets in use, allocated per metric */
	uint64_t **v;			/* [nr_metrics][cap] */
	struct rs_warnings *warnings;
	bool warned;
	bool failed;			/* a resize failed: no more values (rs_series_failed) */
};

struct rs_series *rs_series_new(const struct rs_series_opts *o)
{
	struct rs_series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->nr_metrics = o->nr_metrics;
	s->target = o->target ? o->target : RS_BUCKETS_TARGET;
	s->max_buckets = o->max_buckets ? o->max_buckets : RS_BUCKETS_MAX;
	if (s->max_buckets < 2)
		s->max_buckets = 2;
	s->warnings = o->warnings;
	s->t0 = o->t0;
	s->t0_set = o->t1 != 0;
	s->width = rs_buckets_width(o->t0, o->t1, o->width, s->target, s->max_buckets,
				    &s->auto_width);
	if (s->width != o->width && o->width && s->warnings) {
		rs_warn(s->warnings, "more than %zu time buckets: buckets widened (see "
			"analysis.bucket_s)", s->max_buckets);
		s->warned = true;
	}
	s->v = calloc(s->nr_metrics ? s->nr_metrics : 1, sizeof(*s->v));
	if (!s->v) {
		free(s);
		return NULL;
	}
	return s;
}

void rs_series_free(struct rs_series *s)
{
	if (!s)
		return;
	for (int m = 0; m < s->nr_metrics; m++)
		free(s->v[m]);
	free(s->v);
	free(s);
}

/* Merge adjacent pairs: the width doubles, every total stays. */
static void merge_pairs(struct rs_series *s)
{
	size_t n = (s->len + 1) / 2;

	for (int m = 0; m < s->nr_metrics; m++) {
		uint64_t *v = s->v[m];

		for (size_t i = 0; i < n; i++)
			v[i] = v[2 * i] + (2 * i + 1 < s->len ? v[2 * i + 1] : 0);
		memset(v + n, 0, (s->cap - n) * sizeof(*v));
	}
	s->len = n;
	s->width *= 2;
}

/* Make bucket `idx` exist; false when memory ran out (the value is then dropped). */
static bool reserve(struct rs_series *s, uint64_t *idx)
{
	if (s->failed)
		return false;
	while (rs_buckets_must_merge(*idx, s->target, s->max_buckets, s->auto_width)) {
		if (!s->auto_width && !s->warned && s->warnings) {
			rs_warn(s->warnings, "more than %zu time buckets: buckets widened (see "
				"analysis.bucket_s)", s->max_buckets);
			s->warned = true;
		}
		merge_pairs(s);
		*idx /= 2;
	}
	if (*idx >= s->cap) {
		size_t cap = s->cap ? s->cap : 64;

		while (cap <= *idx)
			cap *= 2;
		if (cap > s->max_buckets)
			cap = s->max_buckets;
		for (int m = 0; m < s->nr_metrics; m++) {
			uint64_t *n = realloc(s->v[m], cap * sizeof(*n));

			if (!n) {
				/* once: a retry on every later event took 100x longer to fail */
				s->failed = true;
				return false;
			}
			memset(n + s->cap, 0, (cap - s->cap) * sizeof(*n));
			s->v[m] = n;
		}
		s->cap = cap;
	}
	if (*idx >= s->len)
		s->len = *idx + 1;
	return true;
}

static uint64_t index_of(struct rs_series *s, uint64_t ts)
{
	if (!s->t0_set) {
		s->t0 = ts;
		s->t0_set = true;
	}
	return ts <= s->t0 ? 0 : (ts - s->t0) / s->width;
}

void rs_series_add(struct rs_series *s, int metric, uint64_t ts, uint64_t v)
{
	uint64_t idx = index_of(s, ts);

	if (metric < 0 || metric >= s->nr_metrics || !reserve(s, &idx))
		return;
	s->v[metric][idx] += v;
}

void rs_series_add_span(struct rs_series *s, int metric, uint64_t from, uint64_t to)
{
	uint64_t first, last;

	if (metric < 0 || metric >= s->nr_metrics || to <= from)
		return;
	(void)index_of(s, from);
	if (from < s->t0)
		from = s->t0;
	if (to <= from)
		return;
	/* reserve the last bucket first: merging changes the width */
	last = (to - 1 - s->t0) / s->width;
	if (!reserve(s, &last))
		return;
	first = (from - s->t0) / s->width;
	for (uint64_t i = first; i <= last; i++) {
		uint64_t b0 = s->t0 + i * s->width;

		s->v[metric][i] += rs_span_overlap(from, to, b0, b0 + s->width);
	}
}

void rs_series_finish(struct rs_series *s, uint64_t end)
{
	uint64_t idx;

	if (!s->t0_set)
		return;
	idx = index_of(s, end);
	reserve(s, &idx);
}

bool rs_series_failed(const struct rs_series *s)
{
	return s->failed;
}

struct rs_buckets rs_series_buckets(const struct rs_series *s)
{
	return (struct rs_buckets){ .t0 = s->t0, .width = s->width, .len = s->len };
}

const uint64_t *rs_series_values(const struct rs_series *s, int metric)
{
	if (metric < 0 || metric >= s->nr_metrics || !s->len)
		return NULL;
	return s->v[metric];
}
