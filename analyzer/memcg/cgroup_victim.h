/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The victim side: pages by victim, memcg counters, LRU deltas, the matrix (cgroup_victim.c).
 */
#ifndef RS_CGROUP_VICTIM_H
#define RS_CGROUP_VICTIM_H

#include "cgroups_state.h"

void cg_on_isolate(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_shrink(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_count(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
void cg_on_lruvec(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx);
/* A window that closed without a shrink event (nothing taken), its outcome `v`. */
void cg_isolate_only(struct rs_cgroups *cg, struct cg_rtask *rt, const struct rs_victim *v);

#endif
