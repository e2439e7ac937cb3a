// SPDX-License-Identifier: GPL-2.0
/*
 * Rows and tasks of the per-cgroup attribution (cgroup_rows.h): a cgroup row per memcg row of
 * the loading stage (memcg_attrib.h), its identity copied when that changes; the reclaiming
 * tasks of the analysis with the episodes they have open; a task's trigger cgroup.
 */
#include <stdlib.h>
#include <string.h>

#include "cgroup_rows.h"
#include "rs_grow.h"

bool cg_sync(struct rs_cgroups *cg)
{
	int n = rs_memcgs_count(cg->mc);

	if (n > 0 && rs_grow_rows(&cg->cap, n - 1, 64, (const struct rs_grow_array[]){
			{ (void **)&cg->cgs, sizeof(*cg->cgs) },
			{ (void **)&cg->priv, sizeof(*cg->priv) } }, 2)) {
		cg->oom = true;
		return false;
	}
	for (int i = cg->nr; i < n; i++) {
		memset(&cg->cgs[i], 0, sizeof(cg->cgs[i]));
		memset(&cg->priv[i], 0, sizeof(cg->priv[i]));
		cg->priv[i].prev_state = RS_CG_SOFT_UNKNOWN;
		cg->cgs[i].limit = cg->cgs[i].soft_limit = UINT64_MAX;
	}
	cg->nr = n;
	for (int i = 0; i < n; i++) {
		cg->cgs[i].memcg = *rs_memcgs_get(cg->mc, i);
		cg->priv[i].parent1 = 0;
	}
	cg->mc_gen = rs_memcgs_generation(cg->mc);
	return true;
}

struct cg_rtask *cg_rtask(struct rs_cgroups *cg, int task, int pid)
{
	struct cg_rtask *rt;

	if (task < 0)
		return NULL;
	if (rs_grow_rows(&cg->nr_rt, task, 64, (const struct rs_grow_array[]){
			{ (void **)&cg->rt, sizeof(*cg->rt) } }, 1)) {
		cg->oom = true;
		return NULL;
	}
	rt = &cg->rt[task];
	if (!rt->known) {
		rt->known = true;
		rt->pid = pid;
		rt->selected = !cg->filtered;
	}
	return rt;
}

/* The cgroup a task's reclaim is charged to as trigger: its cgroup, or the "(unknown)" row. */
int cg_task_row(struct rs_cgroups *cg, int pid)
{
	int i = rs_memcgs_task(cg->mc, pid);

	if (i >= 0)
		return i;
	i = rs_memcgs_unknown_row(cg->mc);
	return cg_sync(cg) ? i : -1;
}

static int parent_by_path(const struct rs_cgroups *cg, int row)
{
	const char *path = rs_memcgs_get(cg->mc, row)->path, *slash;
	char parent[4096];
	size_t len;

	if (!path || path[0] != '/' || !path[1])
		return -1;
	slash = strrchr(path, '/');
	len = slash == path ? 1 : (size_t)(slash - path);
	if (len >= sizeof(parent))
		return -1;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return rs_memcgs_find_path(cg->mc, parent);
}

/*
 * Called per ancestor per LRU delta on cgroup v2 (cgroup_victim.c), the cgroups analysis' most
 * frequent event: the path copy and lookup are done once per row between two syncs.
 */
int cg_parent_row(struct rs_cgroups *cg, int row)
{
	struct cg_priv *p = &cg->priv[row];

	if (!p->parent1) {
		int parent = parent_by_path(cg, row);

		p->parent1 = parent >= 0 ? parent + 1 : -1;
	}
	return p->parent1 > 0 ? p->parent1 - 1 : -1;
}
