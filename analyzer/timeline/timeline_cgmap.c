// SPDX-License-Identifier: GPL-2.0
/*
 * Stand-in cgroup attribution for the timeline (include/timeline_cgmap.h): task -> cgroup
 * from the recorder's task_cgroup markers, cgroup_attach_task and fork inheritance; id -> path
 * from cgroup_map markers and cgroup_mkdir/rename; victim counters from vm_event_items.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline_cgmap.h"
#include "timeline_map.h"

struct cg {
	uint64_t id;
	char *path;			/* NULL until named */
	char idname[24];		/* "id:N" */
};

struct tl_cgmap {
	struct cg *cgs;			/* [0] unused */
	int nr, cap;
	struct tl_map by_id;		/* cgroup id -> index */
	struct tl_map by_pid;		/* pid -> index */
	uint8_t *item_class;		/* by vm_event item value */
	int nr_items;
};

struct tl_cgmap *tl_cgmap_new(void)
{
	return calloc(1, sizeof(struct tl_cgmap));
}

void tl_cgmap_free(struct tl_cgmap *m)
{
	if (!m)
		return;
	for (int i = 1; i <= m->nr; i++)
		free(m->cgs[i].path);
	free(m->cgs);
	tl_map_free(&m->by_id);
	tl_map_free(&m->by_pid);
	free(m->item_class);
	free(m);
}

uint32_t tl_cgmap_id(struct tl_cgmap *m, uint64_t id)
{
	uint32_t idx;

	if (!id)
		return 0;
	idx = tl_map_get(&m->by_id, id);
	if (idx)
		return idx;
	if (m->nr >= TL_CGMAP_MAX_CGROUPS)
		return 0;
	if (m->nr + 1 >= m->cap) {
		int ncap = m->cap ? m->cap * 2 : 64;
		struct cg *n = realloc(m->cgs, (size_t)ncap * sizeof(*n));

		if (!n)
			return 0;
		m->cgs = n;
		m->cap = ncap;
	}
	idx = (uint32_t)++m->nr;
	m->cgs[idx].id = id;
	m->cgs[idx].path = NULL;
	snprintf(m->cgs[idx].idname, sizeof(m->cgs[idx].idname), "id:%llu",
		 (unsigned long long)id);
	if (!tl_map_set(&m->by_id, id, idx)) {
		m->nr--;
		return 0;
	}
	return idx;
}

uint32_t tl_cgmap_named(struct tl_cgmap *m, uint64_t id, const char *path)
{
	uint32_t idx = tl_cgmap_id(m, id);
	char *p;

	if (!idx || !path || !*path)
		return idx;
	if (m->cgs[idx].path && !strcmp(m->cgs[idx].path, path))
		return idx;
	p = strdup(path);
	if (p) {
		free(m->cgs[idx].path);
		m->cgs[idx].path = p;
	}
	return idx;
}

static void learn_items(struct tl_cgmap *m, const struct rs_ev_items *it)
{
	uint8_t *c;

	if (it->which != RS_ITEMS_VM_EVENT || it->count <= 0)
		return;
	c = calloc((size_t)it->count, 1);
	if (!c)
		return;
	for (int i = 0; i < it->count; i++) {
		const char *n = it->names[i];

		/* the per-reclaimer counters only: pgscan_anon/file count the same pages again */
		if (!strcmp(n, "pgscan_kswapd") || !strcmp(n, "pgscan_direct") ||
		    !strcmp(n, "pgscan_khugepaged") || !strcmp(n, "pgscan_proactive"))
			c[i] = TL_ITEM_SCAN;
		else if (!strcmp(n, "pgsteal_kswapd") || !strcmp(n, "pgsteal_direct") ||
			 !strcmp(n, "pgsteal_khugepaged") || !strcmp(n, "pgsteal_proactive"))
			c[i] = TL_ITEM_STEAL;
	}
	free(m->item_class);
	m->item_class = c;
	m->nr_items = it->count;
}

void tl_cgmap_event(struct tl_cgmap *m, const struct rs_event *ev)
{
	uint32_t idx;

	switch (ev->type) {
	case RS_EV_CGROUP_MAP:
		tl_cgmap_named(m, ev->cgroup_map.id, ev->cgroup_map.path);
		break;
	case RS_EV_CGROUP:
		if (ev->cgroup.op == RS_CG_MKDIR || ev->cgroup.op == RS_CG_RENAME)
			tl_cgmap_named(m, ev->cgroup.id, ev->cgroup.path);
		break;
	case RS_EV_TASK_CGROUP:
		idx = tl_cgmap_named(m, ev->task_cgroup.id, ev->task_cgroup.path);
		if (idx && ev->task_cgroup.pid >= 0 && m->by_pid.used < TL_CGMAP_MAX_TASKS)
			tl_map_set(&m->by_pid, (uint64_t)ev->task_cgroup.pid, idx);
		break;
	case RS_EV_CGROUP_ATTACH:
		idx = tl_cgmap_named(m, ev->cgroup.id, ev->cgroup.path);
		if (idx && ev->cgroup.pid >= 0 && m->by_pid.used < TL_CGMAP_MAX_TASKS)
			tl_map_set(&m->by_pid, (uint64_t)ev->cgroup.pid, idx);
		break;
	case RS_EV_FORK:
		idx = ev->task.pid >= 0 ? tl_map_get(&m->by_pid, (uint64_t)ev->task.pid) : 0;
		if (idx && ev->task.child_pid >= 0 && m->by_pid.used < TL_CGMAP_MAX_TASKS)
			tl_map_set(&m->by_pid, (uint64_t)ev->task.child_pid, idx);
		break;
	case RS_EV_ITEM_NAMES:
		learn_items(m, &ev->items);
		break;
	default:
		break;
	}
}

uint32_t tl_cgmap_task(const struct tl_cgmap *m, int pid)
{
	return pid >= 0 ? tl_map_get(&m->by_pid, (uint64_t)pid) : 0;
}

enum tl_item_class tl_cgmap_item_class(const struct tl_cgmap *m, int item)
{
	return item >= 0 && item < m->nr_items ? (enum tl_item_class)m->item_class[item] :
		TL_ITEM_OTHER;
}

int tl_cgmap_count(const struct tl_cgmap *m)
{
	return m->nr;
}

uint64_t tl_cgmap_cgid(const struct tl_cgmap *m, uint32_t idx)
{
	return idx && (int)idx <= m->nr ? m->cgs[idx].id : 0;
}

const char *tl_cgmap_path(const struct tl_cgmap *m, uint32_t idx)
{
	if (!idx || (int)idx > m->nr)
		return "unknown";	/* a bare "?" reads as a path or a glitch */
	return m->cgs[idx].path ? m->cgs[idx].path : m->cgs[idx].idname;
}
