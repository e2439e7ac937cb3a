// SPDX-License-Identifier: GPL-2.0
/*
 * Latency distributions: exact samples up to a bound, then a log-linear histogram.
 *
 * The histogram keeps values below 256 ns exactly and above that 128 sub-buckets per power of
 * two (HdrHistogram's layout with 7 bits of mantissa), so a reported percentile is the lower
 * edge of a bucket at most 1/128 below the true sample. It is only used past the bound
 * (2 Mi episodes of one kind by default), which real traces rarely reach.
 */
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "rs_grow.h"
#include "rs_sort.h"

const int rs_lat_pcts[RS_LAT_NR_PCT] = { 1, 5, 10, 25, 50, 75, 90, 95, 99 };
const unsigned int rs_mmt_lower_ms[RS_MMT_NR] = { 0, 5, 10, 100, 500, 1000, 5000 };

#define HIST_SUB	128
#define HIST_SLOTS	(HIST_SUB * 58)		/* shift up to 56: idx < 128 * 58 */

struct rs_latency {
	size_t max_samples;
	uint64_t *samples;
	size_t nr, cap;
	bool sorted;
	uint64_t *hist;			/* [HIST_SLOTS], once the samples overflowed */
	uint64_t count, min, max, total;
	uint64_t mmtests[RS_MMT_NR];
};

int rs_mmt_bucket(uint64_t ns)
{
	int b = 0;

	for (int i = 1; i < RS_MMT_NR; i++)
		if (ns >= (uint64_t)rs_mmt_lower_ms[i] * 1000000ull)
			b = i;
	return b;
}

static unsigned int hist_index(uint64_t v)
{
	int msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned int)v;
	msb = 63 - __builtin_clzll(v);
	shift = msb - 7;
	return (unsigned int)(HIST_SUB * shift + (v >> shift));
}

static uint64_t hist_lower(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(idx - HIST_SUB * shift) << shift;
}

struct rs_latency *rs_latency_new(size_t max_samples)
{
	struct rs_latency *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->max_samples = max_samples ? max_samples : RS_LAT_SAMPLES_DEFAULT;
	l->sorted = true;
	return l;
}

void rs_latency_free(struct rs_latency *l)
{
	if (!l)
		return;
	free(l->samples);
	free(l->hist);
	free(l);
}

/* Move every exact sample into the histogram; false when even that cannot be allocated. */
static bool to_histogram(struct rs_latency *l)
{
	l->hist = calloc(HIST_SLOTS, sizeof(*l->hist));
	if (!l->hist)
		return false;
	for (size_t i = 0; i < l->nr; i++)
		l->hist[hist_index(l->samples[i])]++;
	RS_GROW_RELEASE(l->samples, l->nr, l->cap);
	return true;
}

void rs_latency_add(struct rs_latency *l, uint64_t ns)
{
	if (!l->count || ns < l->min)
		l->min = ns;
	if (ns > l->max)
		l->max = ns;
	l->count++;
	l->total += ns;
	l->mmtests[rs_mmt_bucket(ns)]++;
	if (l->hist) {
		l->hist[hist_index(ns)]++;
		return;
	}
	if (rs_grow((void **)&l->samples, &l->cap, l->nr + 1, sizeof(*l->samples), 256,
		    l->max_samples)) {
		/* over the bound, or no memory: the histogram takes over */
		if (to_histogram(l))
			l->hist[hist_index(ns)]++;
		/* else: the sample stays in count/min/max/total/mmtests only */
		return;
	}
	l->samples[l->nr++] = ns;
	l->sorted = false;
}

uint64_t rs_percentile_nearest_rank(const uint64_t *sorted, size_t n, int p)
{
	uint64_t r;

	if (!n)
		return 0;
	r = ((uint64_t)p * n + 99) / 100;
	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return sorted[r - 1];
}

static uint64_t hist_percentile(const struct rs_latency *l, uint64_t hist_n, int p)
{
	uint64_t r = ((uint64_t)p * hist_n + 99) / 100, cum = 0, v = l->max;

	if (r < 1)
		r = 1;
	for (unsigned int i = 0; i < HIST_SLOTS; i++) {
		cum += l->hist[i];
		if (cum >= r) {
			v = hist_lower(i);
			break;
		}
	}
	if (v < l->min)
		v = l->min;
	if (v > l->max)
		v = l->max;
	return v;
}

void rs_latency_summary(struct rs_latency *l, struct rs_latency_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->count = l->count;
	s->min = l->min;
	s->max = l->max;
	s->total = l->total;
	s->mean = l->count ? (double)l->total / (double)l->count : 0;
	memcpy(s->mmtests, l->mmtests, sizeof(s->mmtests));
	if (l->hist) {
		uint64_t hist_n = 0;

		for (unsigned int i = 0; i < HIST_SLOTS; i++)
			hist_n += l->hist[i];
		s->approximate = true;
		for (int i = 0; i < RS_LAT_NR_PCT; i++)
			s->pct[i] = hist_n ? hist_percentile(l, hist_n, rs_lat_pcts[i]) : 0;
		return;
	}
	if (!l->sorted) {
		rs_sort_u64(l->samples, l->nr);
		l->sorted = true;
	}
	/* samples dropped for lack of memory (count > nr) make these approximate too */
	s->approximate = l->nr != l->count;
	for (int i = 0; i < RS_LAT_NR_PCT; i++)
		s->pct[i] = rs_percentile_nearest_rank(l->samples, l->nr, rs_lat_pcts[i]);
}

size_t rs_latency_quantiles(const struct rs_latency *l, uint64_t *x, size_t n)
{
	uint64_t hist_n = 0, cum = 0;
	unsigned int slot = 0;

	if (!n || !l->count)
		return 0;
	if (!l->hist) {
		if (!l->sorted || !l->nr)
			return 0;
		for (size_t i = 0; i < n; i++) {
			/* ceil((i + 1) * nr / n) in 128 bits: nr may be large */
			unsigned __int128 r = ((unsigned __int128)(i + 1) * l->nr + n - 1) / n;

			x[i] = l->samples[(r < 1 ? 1 : r > l->nr ? l->nr : (size_t)r) - 1];
		}
		return n;
	}
	for (unsigned int i = 0; i < HIST_SLOTS; i++)
		hist_n += l->hist[i];
	if (!hist_n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned __int128 r = ((unsigned __int128)(i + 1) * hist_n + n - 1) / n;

		while (slot < HIST_SLOTS && cum + l->hist[slot] < r)
			cum += l->hist[slot++];
		x[i] = slot < HIST_SLOTS ? hist_lower(slot) : l->max;
		if (x[i] < l->min)
			x[i] = l->min;
		if (x[i] > l->max)
			x[i] = l->max;
	}
	return n;
}
