/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Soft limits and LRU sizes from the recorder's memcg_stat snapshots (cgroup_snap.c).
 */
#ifndef RS_CGROUP_SNAP_H
#define RS_CGROUP_SNAP_H

#include "cgroups_state.h"

int cg_soft_state(const struct rs_cgroups *cg, const struct rs_cgroup *c);
void cg_on_snapshot(struct rs_cgroups *cg, const struct rs_event *ev, int row);
void cg_anchor_lru(struct rs_cgroups *cg, int row);

#endif
