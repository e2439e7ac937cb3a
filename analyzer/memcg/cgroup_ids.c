// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup identity: memcg id -> path, and task -> cgroup.
 *
 * A memcg event names its cgroup by id: the cgroup id, which is the inode number of the
 * cgroup's directory on the memory controller's hierarchy (shared/NOTES.md section 1). Paths
 * come from the recorder's `cgroup_map` markers (every memory cgroup at record start), from
 * cgroup_mkdir / cgroup_rename (4.13+: root, level, id, path), from cgroup_attach_task
 * (dst_id, dst_path) and, in traces of the earlier recorder, from `memcg_stat cg=/PATH`
 * snapshots that carry no id (a path-only row takes its id from the first event naming both).
 *
 * Rows are never dropped: a removed cgroup keeps its row and path (offline memcgs still hold
 * pages and get reclaimed), an id no event names keeps a row shown as `id:N`. An id made again
 * by cgroup_mkdir after its rmdir (inode reuse) gets a new row; the old one is flagged.
 *
 * On cgroup v1 every controller has its own hierarchy, and cgroup events fire for all of them
 * with ids that only mean something within one. The memory hierarchy is learnt from the first
 * cgroup event whose (id, path), or path alone for a path-only row, agrees with what the
 * markers said; from then on events of other hierarchies are ignored. Until it is known, every
 * hierarchy is accepted and a warning says so when more than one was seen.
 *
 * Tasks: the recorder's `task_cgroup` markers at start, cgroup_attach_task (and
 * cgroup_transfer_tasks) moves, and sched_process_fork (the child starts in its parent's
 * cgroup). Bounded by max_tasks pids; an exit keeps the entry (a later fork of the pid
 * replaces it).
 */
#include <stdlib.h>
#include <string.h>

#include "cgroups_state.h"
#include "rs_warn.h"

static size_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

int cg_map_get(const struct cg_map *m, uint64_t key)
{
	if (!m->slots)
		return -1;
	for (size_t s = hash64(key) & (m->slots - 1); m->keys[s]; s = (s + 1) & (m->slots - 1))
		if (m->keys[s] == key)
			return m->vals[s];
	return -1;
}

static int map_grow(struct cg_map *m)
{
	size_t n = m->slots ? m->slots * 2 : 256;
	uint64_t *k = calloc(n, sizeof(*k));
	int *v = calloc(n, sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < m->slots; i++) {
		size_t s;

		if (!m->keys[i])
			continue;
		for (s = hash64(m->keys[i]) & (n - 1); k[s]; s = (s + 1) & (n - 1))
			;
		k[s] = m->keys[i];
		v[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = k;
	m->vals = v;
	m->slots = n;
	return 0;
}

int cg_map_put(struct cg_map *m, uint64_t key, int val)
{
	size_t s;

	if (m->slots) {
		for (s = hash64(key) & (m->slots - 1); m->keys[s]; s = (s + 1) & (m->slots - 1)) {
			if (m->keys[s] == key) {
				m->vals[s] = val;
				return 0;
			}
		}
	}
	if (m->max_used && m->used >= m->max_used)
		return -1;
	if ((m->used + 1) * 2 > m->slots && map_grow(m) < 0)
		return -1;
	for (s = hash64(key) & (m->slots - 1); m->keys[s]; s = (s + 1) & (m->slots - 1))
		;
	m->keys[s] = key;
	m->vals[s] = val;
	m->used++;
	return 0;
}

void cg_map_free(struct cg_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- paths ---- */

static size_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return hash64(h);
}

int cg_find_path(const struct rs_cgroups *cg, const char *path)
{
	if (!path || !cg->path_nslots)
		return -1;
	for (size_t s = hash_str(path) & (cg->path_nslots - 1); cg->path_slots[s];
	     s = (s + 1) & (cg->path_nslots - 1)) {
		int i = cg->path_slots[s] - 1;

		if (cg->cgs[i].path && !strcmp(cg->cgs[i].path, path))
			return i;
	}
	return -1;
}

/* Make `path` lead to row i (the newest row of a path wins). */
static void path_index(struct rs_cgroups *cg, int i)
{
	const char *path = cg->cgs[i].path;
	size_t s;

	if (!path)
		return;
	if ((cg->path_used + 1) * 2 > cg->path_nslots) {
		size_t n = cg->path_nslots ? cg->path_nslots : 256;
		int *slots;

		while ((size_t)(cg->nr + 1) * 4 > n)
			n *= 2;
		slots = calloc(n, sizeof(*slots));
		if (!slots) {
			cg->oom = true;
			return;
		}
		free(cg->path_slots);
		cg->path_slots = slots;
		cg->path_nslots = n;
		cg->path_used = 0;
		/* rebuild from every row (stale slots of renamed rows go); later rows of the
		   same path replace earlier ones */
		for (int r = 0; r < cg->nr; r++) {
			if (r == i || !cg->cgs[r].path)
				continue;
			for (s = hash_str(cg->cgs[r].path) & (n - 1); slots[s];
			     s = (s + 1) & (n - 1))
				if (!strcmp(cg->cgs[slots[s] - 1].path, cg->cgs[r].path))
					break;
			if (!slots[s])
				cg->path_used++;
			slots[s] = r + 1;
		}
	}
	for (s = hash_str(path) & (cg->path_nslots - 1); cg->path_slots[s];
	     s = (s + 1) & (cg->path_nslots - 1)) {
		const char *p = cg->cgs[cg->path_slots[s] - 1].path;

		if (p && !strcmp(p, path))
			break;
	}
	if (!cg->path_slots[s])
		cg->path_used++;
	cg->path_slots[s] = i + 1;
}

/*
 * A renamed row leaves a stale slot under its old path: lookups compare the current path, so
 * the stale slot never matches; it is dropped at the next rebuild.
 */
static int set_path(struct rs_cgroups *cg, int i, const char *path)
{
	char *p = strdup(path);

	if (!p) {
		cg->oom = true;
		return -1;
	}
	free(cg->priv[i].path);
	cg->priv[i].path = p;
	cg->cgs[i].path = p;
	path_index(cg, i);
	return 0;
}

/* ---- rows ---- */

int cg_new_row(struct rs_cgroups *cg, uint64_t id, const char *path)
{
	struct rs_cgroup *c;
	int i;

	if (cg->nr == cg->cap) {
		int cap = cg->cap ? cg->cap * 2 : 64;
		struct rs_cgroup *n = realloc(cg->cgs, (size_t)cap * sizeof(*n));
		struct cg_priv *p;

		if (!n) {
			cg->oom = true;
			return -1;
		}
		cg->cgs = n;
		p = realloc(cg->priv, (size_t)cap * sizeof(*p));
		if (!p) {
			cg->oom = true;
			return -1;
		}
		cg->priv = p;
		cg->cap = cap;
	}
	i = cg->nr++;
	c = &cg->cgs[i];
	memset(c, 0, sizeof(*c));
	memset(&cg->priv[i], 0, sizeof(cg->priv[i]));
	cg->priv[i].prev_state = RS_CG_SOFT_UNKNOWN;
	c->id = id;
	c->level = -1;
	c->limit = c->soft_limit = UINT64_MAX;
	if (path)
		set_path(cg, i, path);
	if (id && cg_map_put(&cg->by_id, id + 1, i) < 0)
		cg->oom = true;
	return i;
}

/* Room for one more real cgroup row? Otherwise the overflow row, with one warning. */
static bool room(struct rs_cgroups *cg)
{
	size_t max = cg->o.max_cgroups ? cg->o.max_cgroups : RS_CG_MAX_DEFAULT;
	size_t real = (size_t)cg->nr - (cg->overflow_row >= 0) - (cg->unknown_row >= 0);

	if (real < max)
		return true;
	if (!cg->capped)
		rs_warn(cg->warnings, "more than %zu cgroups: the rest are counted together in the "
			"row \"(other cgroups)\" (raise --max-cgroups)", max);
	cg->capped = true;
	return false;
}

static int overflow_row(struct rs_cgroups *cg)
{
	if (cg->overflow_row < 0) {
		cg->overflow_row = cg_new_row(cg, 0, NULL);
		if (cg->overflow_row >= 0)
			cg->cgs[cg->overflow_row].flags |= RS_CGF_OVERFLOW;
	}
	return cg->overflow_row;
}

int cg_unknown_row(struct rs_cgroups *cg)
{
	if (cg->unknown_row < 0) {
		cg->unknown_row = cg_new_row(cg, 0, NULL);
		if (cg->unknown_row >= 0)
			cg->cgs[cg->unknown_row].flags |= RS_CGF_UNKNOWN_TASKS;
	}
	return cg->unknown_row;
}

int cg_find_id(const struct rs_cgroups *cg, uint64_t id)
{
	return cg_map_get(&cg->by_id, id + 1);
}

int cg_of_id(struct rs_cgroups *cg, uint64_t id)
{
	int i = cg_find_id(cg, id);

	if (i >= 0)
		return i;
	if (!room(cg))
		return overflow_row(cg);
	i = cg_new_row(cg, id, NULL);
	return i >= 0 ? i : overflow_row(cg);
}

int cg_learn(struct rs_cgroups *cg, uint64_t id, const char *path, unsigned int flag)
{
	int i = id ? cg_find_id(cg, id) : -1, j;

	if (path && !*path)
		path = NULL;
	if (i >= 0) {
		struct rs_cgroup *c = &cg->cgs[i];

		if (path && (!c->path || strcmp(c->path, path))) {
			if (flag == RS_CGF_MKDIR && (c->flags & RS_CGF_RMDIR)) {
				/* the inode number came back for a new cgroup */
				c->flags |= RS_CGF_REUSED;
				if (!room(cg))
					return overflow_row(cg);
				i = cg_new_row(cg, id, path);
				if (i < 0)
					return -1;
			} else {
				if (c->path && flag == RS_CGF_RENAME)
					c->flags |= RS_CGF_RENAME;
				set_path(cg, i, path);
			}
		}
		cg->cgs[i].flags |= flag;
		return i;
	}
	j = cg_find_path(cg, path);
	if (j >= 0 && (!id || !cg->cgs[j].id)) {
		if (id) {
			cg->cgs[j].id = id;
			if (cg_map_put(&cg->by_id, id + 1, j) < 0)
				cg->oom = true;
		}
		cg->cgs[j].flags |= flag;
		return j;
	}
	if (!id && !path)
		return -1;
	if (!room(cg))
		return overflow_row(cg);
	i = cg_new_row(cg, id, path);
	if (i >= 0)
		cg->cgs[i].flags |= flag;
	return i;
}

bool cg_accept_root(struct rs_cgroups *cg, int root, uint64_t id, const char *path)
{
	int i;

	if (cg->mem_root >= 0)
		return root == cg->mem_root;
	i = id ? cg_find_id(cg, id) : -1;
	if (i >= 0 && path && cg->cgs[i].path && !strcmp(cg->cgs[i].path, path) &&
	    (cg->cgs[i].flags & (RS_CGF_MAP | RS_CGF_SNAPSHOT))) {
		cg->mem_root = root;
		return true;
	}
	i = cg_find_path(cg, path);
	if (i >= 0 && !cg->cgs[i].id && (cg->cgs[i].flags & RS_CGF_SNAPSHOT)) {
		cg->mem_root = root;
		return true;
	}
	if (root >= 0 && root < 32)
		cg->roots_seen_mask |= 1u << root;
	if (!cg->warned_roots && __builtin_popcount(cg->roots_seen_mask) > 1) {
		rs_warn(cg->warnings, "cgroup events of several hierarchies, none of them known "
			"to be the memory controller's (no cgroup_map marker agrees): task -> "
			"cgroup may mix hierarchies");
		cg->warned_roots = true;
	}
	return true;
}

/* ---- tasks ---- */

int cg_task_get(const struct rs_cgroups *cg, int pid)
{
	return pid < 0 ? -1 : cg_map_get(&cg->tasks_cg, (uint64_t)pid + 1);
}

void cg_task_set(struct rs_cgroups *cg, int pid, int row)
{
	if (pid < 0 || row < 0)
		return;
	if (cg_map_put(&cg->tasks_cg, (uint64_t)pid + 1, row) < 0 && !cg->warned_tasks) {
		rs_warn(cg->warnings, "more than %zu tasks with a known cgroup: further tasks' "
			"reclaim is triggered by \"(unknown)\" (raise --max-tasks)",
			cg->tasks_cg.max_used);
		cg->warned_tasks = true;
	}
}

/* The hierarchy and the memory controller's events that change identity. */
void cg_identity_event(struct rs_cgroups *cg, const struct rs_event *ev)
{
	const struct rs_ev_cgroup *c = &ev->cgroup;
	int i;

	switch (ev->type) {
	case RS_EV_CGROUP_MAP:
		cg_learn(cg, ev->cgroup_map.id, ev->cgroup_map.path, RS_CGF_MAP);
		break;
	case RS_EV_TASK_CGROUP:
		i = cg_learn(cg, ev->task_cgroup.id, ev->task_cgroup.path, 0);
		cg_task_set(cg, ev->task_cgroup.pid, i);
		break;
	case RS_EV_CGROUP:
		if (!cg_accept_root(cg, c->root, c->id, c->path))
			break;
		switch (c->op) {
		case RS_CG_MKDIR:
			i = cg_learn(cg, c->id, c->path, RS_CGF_MKDIR);
			if (i >= 0) {
				cg->cgs[i].mkdir_ts = ev->ts;
				cg->cgs[i].level = c->level;
				cg->priv[i].mkdir_in_range = !cg->prefeeding;
			}
			break;
		case RS_CG_RENAME:
			cg_learn(cg, c->id, c->path, RS_CGF_RENAME);
			break;
		case RS_CG_RMDIR:
		case RS_CG_RELEASE:
			i = cg_learn(cg, c->id, c->path,
				     c->op == RS_CG_RMDIR ? RS_CGF_RMDIR : RS_CGF_RELEASE);
			if (i >= 0) {
				if (c->op == RS_CG_RMDIR)
					cg->cgs[i].rmdir_ts = ev->ts;
				if (cg->cgs[i].level < 0)
					cg->cgs[i].level = c->level;
			}
			break;
		}
		break;
	case RS_EV_CGROUP_ATTACH:
		if (!cg_accept_root(cg, c->root, c->id, c->path))
			break;
		i = cg_learn(cg, c->id, c->path, RS_CGF_ATTACH);
		if (i >= 0 && cg->cgs[i].level < 0)
			cg->cgs[i].level = c->level;
		cg_task_set(cg, c->pid, i);
		break;
	case RS_EV_FORK:
		i = cg_task_get(cg, ev->task.pid);
		if (i >= 0)
			cg_task_set(cg, ev->task.child_pid, i);
		break;
	default:
		break;
	}
}

void cg_ids_free(struct rs_cgroups *cg)
{
	for (int i = 0; i < cg->nr; i++)
		free(cg->priv[i].path);
	free(cg->cgs);
	free(cg->priv);
	free(cg->path_slots);
	cg_map_free(&cg->by_id);
	cg_map_free(&cg->tasks_cg);
}
