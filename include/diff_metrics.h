/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics of one analysis: every numeric figure of an `analyze --json` document, named by
 * its JSON path, flattened into a list sorted by name so two analyses can be matched figure by
 * figure. The naming scheme (docs/diff.md "Metric names"):
 *
 *   object members    a.b.c                        lru.inactive_file.scanned
 *   keyed array items a[LABEL].b                   cgroups[/rs_a].victim.pgscan_direct
 *
 * An array is walked only when every item is an object carrying one of the key members, tried
 * in this order: "path", "name", "comm" (string: LABEL is the value; a comm that repeats in the
 * array becomes COMM/PID when the items have a "pid"), then "pid", "cpu", "nid", "order"
 * (integer: LABEL is KEY=VALUE, e.g. missed_by_cpu[cpu=0]). A label that still repeats gets
 * "#2", "#3"... in array order. Other arrays (time series, lists of numbers) are not metrics.
 *
 * Skipped: non-numeric leaves (strings, booleans, null); identifiers, addresses and time stamps
 * (members named id, pid, tid, ts, fn, addr, first_s, last_s, start_s, end_s, from_s, to_s, or
 * ending in _id, _pid, _ts or _addr, and the key member of a keyed item); the time-series
 * members event_times, series, timeline, time_series.
 *
 * Added: trace.events_by_name.NAME = 0 for each NAME of trace.event_formats (traced) that has
 * no count there (none fired).
 *
 * Values: integers as they are; reals rounded to the 10 significant digits saved JSON keeps, so
 * a trace and its saved analysis flatten to the same numbers.
 */
#ifndef RS_DIFF_METRICS_H
#define RS_DIFF_METRICS_H

#include <stddef.h>

#include <jansson.h>

#include "rs_error.h"

struct rs_metric {
	char *name;
	double value;
};

/* Opaque; owns its names. */
struct rs_metric_set;

/*
 * Flatten the analysis document `root` (borrowed, must be an object). On success *out is a new
 * set the caller frees with rs_metric_set_free(). Returns 0, or -1 with err set.
 */
int rs_metric_set_from_json(const json_t *root, struct rs_metric_set **out,
			    struct rs_error *err);

size_t rs_metric_set_count(const struct rs_metric_set *set);
/* The i-th metric in name order (strcmp); valid until the set is freed. */
const struct rs_metric *rs_metric_set_at(const struct rs_metric_set *set, size_t i);
/* Index of the first metric whose name is >= the first `len` bytes of `prefix`. */
size_t rs_metric_set_lower_bound(const struct rs_metric_set *set, const char *prefix, size_t len);
/* The metric called `name`, or NULL. */
const struct rs_metric *rs_metric_set_find(const struct rs_metric_set *set, const char *name);

void rs_metric_set_free(struct rs_metric_set *set);

#endif
