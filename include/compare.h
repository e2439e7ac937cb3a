/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparison of two sets of runs (base and new), each run an analysis document: every metric
 * (diff_metrics.h) that both sides have gets min/max/avg/std per side, the new side as a
 * percentage of the base, the change of the mean, and Welch's t-test; metrics only one side
 * has are "left out" with the side that has them. Also notes kernels and recorded events that
 * differ. Definitions in docs/diff.md.
 *
 * Lifetime: rs_compare_new() -> rs_compare_add_run() per input -> rs_compare_finish() ->
 * readers and rs_compare_json() -> rs_compare_free(). All state lives in the struct.
 */
#ifndef RS_COMPARE_H
#define RS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "diff_stats.h"
#include "rs_error.h"

enum rs_side { RS_SIDE_BASE = 0, RS_SIDE_NEW = 1, RS_NR_SIDES };

#define RS_COMPARE_ALPHA_DEFAULT 0.05

/* What one input was. Strings are copies owned by the comparison. */
struct rs_run_info {
	char *path;
	char *input;		/* "trace" or "analysis" (a saved `analyze --json`) */
	char *kernel;		/* trace.kernel, or "unknown" */
	int mglru;		/* trace.mglru: 1, 0, or -1 (null: nothing told) */
};

struct rs_metric_diff {
	const char *name;
	struct rs_summary side[RS_NR_SIDES];
	/* new / base * 100 of min, max and avg, as the seeds' "[99.9%]"; NaN when base is 0 */
	double pct_min, pct_max, pct_avg;
	double change_pct;	/* (avg_new - avg_base) / |avg_base| * 100; NaN when base is 0 */
	struct rs_welch welch;	/* welch.valid is false when a side has fewer than 2 runs */
	bool significant;	/* welch.valid && welch.p < alpha */
};

struct rs_left_out {
	const char *name;
	enum rs_side only_in;	/* the side that has it */
};

struct rs_compare;

struct rs_compare *rs_compare_new(void);
void rs_compare_free(struct rs_compare *c);

/*
 * Add one run to a side. `analysis` is borrowed: it is flattened now and not kept. `path` and
 * `input` describe where it came from. Returns 0, or -1 with err set (not an object, ENOMEM).
 */
int rs_compare_add_run(struct rs_compare *c, enum rs_side side, const json_t *analysis,
		       const char *path, const char *input, struct rs_error *err);

/* Match the metrics and compute everything; `alpha` in (0, 1). Call once, after every run. */
int rs_compare_finish(struct rs_compare *c, double alpha, struct rs_error *err);

double rs_compare_alpha(const struct rs_compare *c);

size_t rs_compare_nr_runs(const struct rs_compare *c, enum rs_side side);
const struct rs_run_info *rs_compare_run(const struct rs_compare *c, enum rs_side side,
					 size_t i);

/* Metrics both sides have, sorted by name. */
size_t rs_compare_nr_metrics(const struct rs_compare *c);
const struct rs_metric_diff *rs_compare_metric(const struct rs_compare *c, size_t i);

/* The compared metric called `name` (both sides have it), or NULL. */
const struct rs_metric_diff *rs_compare_find(const struct rs_compare *c, const char *name);

/* True when |change_pct| >= pct; a change from 0 (NaN change_pct) always counts. */
bool rs_metric_diff_changed(const struct rs_metric_diff *d, double pct);

/* Metrics only one side has, sorted by name. */
size_t rs_compare_nr_left_out(const struct rs_compare *c);
const struct rs_left_out *rs_compare_left_out(const struct rs_compare *c, size_t i);

/*
 * True when some run of `side` has a metric under the element name[0..len): a metric whose
 * name starts with it followed by "." or "[". For telling a whole missing subtree from a
 * single missing figure.
 */
bool rs_compare_side_has_under(const struct rs_compare *c, enum rs_side side, const char *name,
			       size_t len);

/* Distinct kernels of a side, in input order. */
size_t rs_compare_nr_kernels(const struct rs_compare *c, enum rs_side side);
const char *rs_compare_kernel(const struct rs_compare *c, enum rs_side side, size_t i);
/* True when the two sides' sets of kernels are not the same. */
bool rs_compare_kernels_differ(const struct rs_compare *c);

/* Events (trace.events_by_name, count > 0 in any run) recorded only on `side`, sorted. */
size_t rs_compare_nr_events_only(const struct rs_compare *c, enum rs_side side);
const char *rs_compare_event_only(const struct rs_compare *c, enum rs_side side, size_t i);
/*
 * Whether the other side traced the i-th of them (every run's trace.event_formats lists it):
 * it fired only on `side`, rather than being recorded only there.
 */
bool rs_compare_event_only_quiet(const struct rs_compare *c, enum rs_side side, size_t i);

/*
 * The comparison as JSON (docs/json-diff.md). labels[side] name the sides; metrics with
 * |change_pct| < only_changed are left out of "metrics" (only_changed < 0: keep all). Returns a
 * new reference, or NULL when out of memory.
 */
json_t *rs_compare_json(const struct rs_compare *c, const char *const labels[RS_NR_SIDES],
			double only_changed);

/*
 * The sides ran different numbers of kswapd threads (nodes): each run's kswapd figures sum over
 * its kswapds (kswapd.instances), so they are not one kswapd's on both sides. min and max over
 * the side's runs.
 */
bool rs_compare_kswapds_differ(const struct rs_compare *c);
void rs_compare_kswapds(const struct rs_compare *c, enum rs_side side, size_t *min, size_t *max);

/*
 * MGLRU on one side only (every run's trace.mglru): the classic LRU's active-list figures are
 * set apart as not comparable (rather than compared as a change to or from 0).
 */
bool rs_compare_mglru_differs(const struct rs_compare *c);
size_t rs_compare_mglru_runs(const struct rs_compare *c, enum rs_side side);
/* Runs of the side whose trace could not tell MGLRU from the classic LRU (trace.mglru null). */
size_t rs_compare_mglru_unknown(const struct rs_compare *c, enum rs_side side);
size_t rs_compare_nr_not_comparable(const struct rs_compare *c);
const char *rs_compare_not_comparable(const struct rs_compare *c, size_t i);

#endif
