/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency distributions of reclaim episodes: exact while the samples fit a bound, then a
 * log-linear histogram (relative error under 1/128) with the summary flagged approximate.
 * Count, min, max, total, mean and the MMTests buckets stay exact either way.
 *
 * Percentiles are nearest-rank: the p-th percentile of n sorted samples x[1..n] is x[r] with
 * r = ceil(p * n / 100) (r = 1 when that is 0). docs/json.md states the same.
 *
 * Lifetime: rs_latency_new() -> rs_latency_add()... -> rs_latency_summary() (any number of
 * times; it sorts once) -> rs_latency_free(). Memory: 8 bytes a sample up to the bound, then
 * one fixed histogram (~59 KB).
 */
#ifndef RS_LATENCY_H
#define RS_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_LAT_SAMPLES_DEFAULT	(2u << 20)	/* exact samples kept per distribution */

/* Percentiles reported, in percent. */
#define RS_LAT_NR_PCT 9
extern const int rs_lat_pcts[RS_LAT_NR_PCT];		/* 1 5 10 25 50 75 90 95 99 */

/* MMTests buckets, ms: [0,5) [5,10) [10,100) [100,500) [500,1000) [1000,5000) [5000,inf) */
#define RS_MMT_NR 7
extern const unsigned int rs_mmt_lower_ms[RS_MMT_NR];	/* 0 5 10 100 500 1000 5000 */
/* Bucket of a latency in ns: the last whose lower bound is <= ns (5 ms exactly: [5,10)). */
int rs_mmt_bucket(uint64_t ns);

struct rs_latency_summary {
	uint64_t count;
	uint64_t min, max, total;	/* ns, exact; min = max = 0 when count is 0 */
	double mean;			/* ns */
	uint64_t pct[RS_LAT_NR_PCT];	/* ns, nearest rank; approximate when `approximate` */
	uint64_t mmtests[RS_MMT_NR];	/* samples per MMTests bucket */
	bool approximate;		/* over the sample bound: percentiles from the histogram */
};

struct rs_latency;

/* max_samples 0 means RS_LAT_SAMPLES_DEFAULT. NULL when out of memory. */
struct rs_latency *rs_latency_new(size_t max_samples);
void rs_latency_free(struct rs_latency *l);

/* Add one sample (ns). Never fails: when memory runs out it switches to the histogram. */
void rs_latency_add(struct rs_latency *l, uint64_t ns);

/* Fill *s. Sorts the exact samples the first time after an add. */
void rs_latency_summary(struct rs_latency *l, struct rs_latency_summary *s);

/*
 * The distribution as n quantiles, for a CDF: x[i] is the nearest-rank value at fraction
 * (i + 1) / n (rank ceil((i + 1) * count / n)), from the histogram past the sample bound. Call
 * after rs_latency_summary(). Returns n, or 0 when there are no samples (or n is 0).
 */
size_t rs_latency_quantiles(const struct rs_latency *l, uint64_t *x, size_t n);

/* Nearest-rank percentile of sorted samples x[0..n-1]; p in percent (0 < p <= 100). */
uint64_t rs_percentile_nearest_rank(const uint64_t *sorted, size_t n, int p);

#endif
