/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time buckets of the per-cgroup series (cgroup_series.c; the readers are in cgroups.h).
 */
#ifndef RS_CGROUP_SERIES_H
#define RS_CGROUP_SERIES_H

#include "cgroups_state.h"

void cg_grid_init(struct cg_grid *g, uint64_t t0, uint64_t t1, uint64_t width, size_t max);
void cg_ts_add(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v);
void cg_ts_set_last(struct rs_cgroups *cg, int row, int metric, uint64_t ts, int64_t v);
void cg_ts_add_span(struct rs_cgroups *cg, int row, int metric, uint64_t from, uint64_t to);
void cg_ts_finish(struct rs_cgroups *cg, uint64_t end);

#endif
