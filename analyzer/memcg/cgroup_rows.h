/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows and tasks of the per-cgroup attribution (cgroup_rows.c).
 */
#ifndef RS_CGROUP_ROWS_H
#define RS_CGROUP_ROWS_H

#include "cgroups_state.h"

/* A row per memcg row of the loading stage, identity copied (after new rows or identity
   changes); false when out of memory. */
bool cg_sync(struct rs_cgroups *cg);
struct cg_rtask *cg_rtask(struct rs_cgroups *cg, int task, int pid);
/* The row a task's reclaim is charged to as trigger: its cgroup, or "(unknown)". */
int cg_task_row(struct rs_cgroups *cg, int pid);
/* The row of the parent of row's path; -1 for "/", an unknown path or a parent with no row. */
int cg_parent_row(struct rs_cgroups *cg, int row);

#endif
