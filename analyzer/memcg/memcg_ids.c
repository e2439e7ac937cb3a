// SPDX-License-Identifier: GPL-2.0
/*
 * Memcg identity for the loading stage (include/memcg_attrib.h): memcg id -> path, and
 * task -> memcg.
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

#include "memcg_ids.h"
#include "rs_grow.h"
#include "rs_warn.h"

/* ---- paths ---- */

static size_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return rs_u64map_hash(h);
}

int rs_memcgs_find_path(const struct rs_memcgs *m, const char *path)
{
	if (!path || !m->path_nslots)
		return -1;
	for (size_t s = hash_str(path) & (m->path_nslots - 1); m->path_slots[s];
	     s = (s + 1) & (m->path_nslots - 1)) {
		int i = m->path_slots[s] - 1;

		if (m->rows[i].path && !strcmp(m->rows[i].path, path))
			return i;
	}
	return -1;
}

/* Make `path` lead to row i (the newest row of a path wins). */
static void path_index(struct rs_memcgs *m, int i)
{
	const char *path = m->rows[i].path;
	size_t s;

	if (!path)
		return;
	if ((m->path_used + 1) * 2 > m->path_nslots) {
		size_t n = m->path_nslots ? m->path_nslots : 256;
		int *slots;

		while ((size_t)(m->nr + 1) * 4 > n)
			n *= 2;
		slots = calloc(n, sizeof(*slots));
		if (!slots) {
			m->oom = true;
			return;
		}
		free(m->path_slots);
		m->path_slots = slots;
		m->path_nslots = n;
		m->path_used = 0;
		/* rebuild from every row (stale slots of renamed rows go); later rows of the
		   same path replace earlier ones */
		for (int r = 0; r < m->nr; r++) {
			if (r == i || !m->rows[r].path)
				continue;
			for (s = hash_str(m->rows[r].path) & (n - 1); slots[s];
			     s = (s + 1) & (n - 1))
				if (!strcmp(m->rows[slots[s] - 1].path, m->rows[r].path))
					break;
			if (!slots[s])
				m->path_used++;
			slots[s] = r + 1;
		}
	}
	for (s = hash_str(path) & (m->path_nslots - 1); m->path_slots[s];
	     s = (s + 1) & (m->path_nslots - 1)) {
		const char *p = m->rows[m->path_slots[s] - 1].path;

		if (p && !strcmp(p, path))
			break;
	}
	if (!m->path_slots[s])
		m->path_used++;
	m->path_slots[s] = i + 1;
}

/*
 * A renamed row leaves a stale slot under its old path: lookups compare the current path, so
 * the stale slot never matches; it is dropped at the next rebuild.
 */
static int set_path(struct rs_memcgs *m, int i, const char *path)
{
	char *p = strdup(path);

	if (!p) {
		m->oom = true;
		return -1;
	}
	free(m->paths[i]);
	m->paths[i] = p;
	m->rows[i].path = p;
	path_index(m, i);
	return 0;
}

/* ---- rows ---- */

static int new_row(struct rs_memcgs *m, uint64_t id, const char *path)
{
	struct rs_memcg *c;
	int i;

	if (rs_grow_rows(&m->cap, m->nr, 64, (const struct rs_grow_array[]){
			{ (void **)&m->rows, sizeof(*m->rows) },
			{ (void **)&m->paths, sizeof(*m->paths) } }, 2)) {
		m->oom = true;
		return -1;
	}
	i = m->nr++;
	c = &m->rows[i];
	memset(c, 0, sizeof(*c));
	m->paths[i] = NULL;
	c->id = id;
	c->level = -1;
	m->gen++;
	if (path)
		set_path(m, i, path);
	if (id && rs_u64map_put(&m->by_id, id + 1, i) < 0)
		m->oom = true;
	return i;
}

/* Room for one more real cgroup row? Otherwise the overflow row, with one warning. */
static bool room(struct rs_memcgs *m)
{
	size_t max = m->o.max_memcgs ? m->o.max_memcgs : RS_MEMCG_MAX_DEFAULT;
	size_t real = (size_t)m->nr - (m->overflow_row >= 0) - (m->unknown_row >= 0);

	if (real < max)
		return true;
	if (!m->facts.capped)
		rs_warn(m->o.warnings, "more than %zu cgroups: the rest are counted together in the "
			"row \"(other cgroups)\" (raise --max-cgroups)", max);
	m->facts.capped = true;
	return false;
}

static int overflow_row(struct rs_memcgs *m)
{
	if (m->overflow_row < 0) {
		m->overflow_row = new_row(m, 0, NULL);
		if (m->overflow_row >= 0)
			m->rows[m->overflow_row].flags |= RS_CGF_OVERFLOW;
	}
	return m->overflow_row;
}

int rs_memcgs_unknown_row(struct rs_memcgs *m)
{
	if (m->unknown_row < 0) {
		m->unknown_row = new_row(m, 0, NULL);
		if (m->unknown_row >= 0)
			m->rows[m->unknown_row].flags |= RS_CGF_UNKNOWN_TASKS;
	}
	return m->unknown_row;
}

int rs_memcgs_find_id(const struct rs_memcgs *m, uint64_t id)
{
	return rs_u64map_get(&m->by_id, id + 1);
}

int mc_of_id(struct rs_memcgs *m, uint64_t id)
{
	int i;

	/*
	 * Counter events come in runs of one cgroup: the last id found, unless a row was made
	 * since (new_row() bumps gen; by_id changes an id's row only there), saves the hash
	 * look-up (5.3 M calls, 37 instructions each, on the bench trace).
	 */
	if (m->hot_row1 && m->hot_id == id && m->hot_gen == m->gen)
		return m->hot_row1 - 1;
	i = rs_memcgs_find_id(m, id);
	if (i >= 0) {
		m->hot_id = id;
		m->hot_gen = m->gen;
		m->hot_row1 = i + 1;
		return i;
	}
	if (!room(m))
		return overflow_row(m);
	/*
	 * The root of a cgroup hierarchy has id 1 (its kernfs root's inode): "/", which no
	 * event of a plain trace-cmd recording names (the 7.2 multi trace's slab shrinks of
	 * memcg_id 1 printed as "id:1").
	 */
	i = new_row(m, id, id == RS_MEMCG_ROOT_ID ? "/" : NULL);
	return i >= 0 ? i : overflow_row(m);
}

int mc_learn(struct rs_memcgs *m, uint64_t id, const char *path, unsigned int flag)
{
	int i = id ? rs_memcgs_find_id(m, id) : -1, j;

	if (path && !*path)
		path = NULL;
	if (i >= 0) {
		struct rs_memcg *c = &m->rows[i];

		if (path && (!c->path || strcmp(c->path, path))) {
			if (flag == RS_CGF_MKDIR && (c->flags & RS_CGF_RMDIR)) {
				/* the inode number came back for a new cgroup */
				c->flags |= RS_CGF_REUSED;
				if (!room(m))
					return overflow_row(m);
				i = new_row(m, id, path);
				if (i < 0)
					return -1;
			} else {
				if (c->path && flag == RS_CGF_RENAME)
					c->flags |= RS_CGF_RENAME;
				set_path(m, i, path);
			}
		}
		m->rows[i].flags |= flag;
		return i;
	}
	j = rs_memcgs_find_path(m, path);
	if (j >= 0 && (!id || !m->rows[j].id)) {
		if (id) {
			m->rows[j].id = id;
			if (rs_u64map_put(&m->by_id, id + 1, j) < 0)
				m->oom = true;
		}
		m->rows[j].flags |= flag;
		return j;
	}
	if (!id && !path)
		return -1;
	if (!room(m))
		return overflow_row(m);
	i = new_row(m, id, path);
	if (i >= 0)
		m->rows[i].flags |= flag;
	return i;
}

static bool accept_root(struct rs_memcgs *m, int root, uint64_t id, const char *path)
{
	int i;

	if (m->mem_root >= 0)
		return root == m->mem_root;
	i = id ? rs_memcgs_find_id(m, id) : -1;
	if (i >= 0 && path && m->rows[i].path && !strcmp(m->rows[i].path, path) &&
	    (m->rows[i].flags & (RS_CGF_MAP | RS_CGF_SNAPSHOT))) {
		m->mem_root = root;
		return true;
	}
	i = rs_memcgs_find_path(m, path);
	if (i >= 0 && !m->rows[i].id && (m->rows[i].flags & RS_CGF_SNAPSHOT)) {
		m->mem_root = root;
		return true;
	}
	if (root >= 0 && root < 32)
		m->roots_seen_mask |= 1u << root;
	if (!m->warned_roots && __builtin_popcount(m->roots_seen_mask) > 1) {
		rs_warn(m->o.warnings, "cgroup events of several hierarchies, none of them known "
			"to be the memory controller's (no cgroup_map marker agrees): task -> "
			"cgroup may mix hierarchies");
		m->warned_roots = true;
	}
	return true;
}

/* ---- tasks ---- */

int rs_memcgs_task(const struct rs_memcgs *m, int pid)
{
	return pid < 0 ? -1 : rs_u64map_get(&m->tasks, (uint64_t)pid + 1);
}

static void task_set(struct rs_memcgs *m, int pid, int row)
{
	if (pid < 0 || row < 0)
		return;
	m->task_gen++;
	if (rs_u64map_put(&m->tasks, (uint64_t)pid + 1, row) < 0 && !m->warned_tasks) {
		rs_warn(m->o.warnings, "more than %zu tasks with a known cgroup: further tasks' "
			"reclaim is triggered by \"(unknown)\" (raise --max-tasks)",
			m->tasks.max_used);
		m->warned_tasks = true;
	}
}

/* The hierarchy and the memory controller's events that change identity. */
int mc_identity_event(struct rs_memcgs *m, const struct rs_event *ev)
{
	const struct rs_ev_cgroup *c = &ev->cgroup;
	int i = -1;

	switch (ev->type) {
	case RS_EV_CGROUP_MAP:
		i = mc_learn(m, ev->cgroup_map.id, ev->cgroup_map.path, RS_CGF_MAP);
		break;
	case RS_EV_TASK_CGROUP:
		i = mc_learn(m, ev->task_cgroup.id, ev->task_cgroup.path, 0);
		task_set(m, ev->task_cgroup.pid, i);
		break;
	case RS_EV_SNAP_MEMCG:
		i = mc_learn(m, ev->snap_memcg.id, ev->snap_memcg.path, RS_CGF_SNAPSHOT);
		break;
	case RS_EV_CGROUP:
		if (!accept_root(m, c->root, c->id, c->path))
			break;
		switch (c->op) {
		case RS_CG_MKDIR:
			i = mc_learn(m, c->id, c->path, RS_CGF_MKDIR);
			if (i >= 0) {
				m->rows[i].mkdir_ts = ev->ts;
				m->rows[i].level = c->level;
				m->rows[i].mkdir_in_range = !m->prefeeding;
			}
			break;
		case RS_CG_RENAME:
			i = mc_learn(m, c->id, c->path, RS_CGF_RENAME);
			break;
		case RS_CG_RMDIR:
		case RS_CG_RELEASE:
			i = mc_learn(m, c->id, c->path,
				     c->op == RS_CG_RMDIR ? RS_CGF_RMDIR : RS_CGF_RELEASE);
			if (i >= 0) {
				if (c->op == RS_CG_RMDIR)
					m->rows[i].rmdir_ts = ev->ts;
				if (m->rows[i].level < 0)
					m->rows[i].level = c->level;
			}
			break;
		}
		break;
	case RS_EV_CGROUP_ATTACH:
		if (!accept_root(m, c->root, c->id, c->path))
			break;
		i = mc_learn(m, c->id, c->path, RS_CGF_ATTACH);
		if (i >= 0 && m->rows[i].level < 0)
			m->rows[i].level = c->level;
		task_set(m, c->pid, i);
		break;
	case RS_EV_FORK:
		i = rs_memcgs_task(m, ev->task.pid);
		if (i >= 0)
			task_set(m, ev->task.child_pid, i);
		return -1;
	default:
		return -1;
	}
	m->gen++;	/* flags, paths, levels or times may have changed */
	return i;
}

/*
 * A limit reclaim of memcg K (7.1+ memcg_reclaim_begin's memcg_id) walks K and every memcg
 * below it, offline ones included (mem_cgroup_iter() takes css_tryget(), not _online). With no
 * memcg counter events in the trace (plain `trace-cmd record`) nothing names the victim of a
 * shrink inside the walk, but when K has no memcg below it K is the only one there is. That
 * needs a proof, not the absence of evidence (a child made before the recording has no event
 * in it):
 *
 *   - cgroup v2 (every cgroup event of the trace is of the default hierarchy, 0): a non-root
 *     cgroup with processes of its own cannot enable the memory controller for its children
 *     (cgroup v2's "no internal processes" rule, cgroup_vet_subtree_control_enable() and
 *     cgroup_migrate_vet_dst()), so while the reclaiming task is in K no child of K has a memcg
 *     of its own: their pages are K's;
 *   - the task is in K now (cgroup_attach_task, fork, task_cgroup markers), K is not the root;
 *   - no cgroup of the trace's events lies below K's path: a child that had the memory
 *     controller, was removed (offline, still holding pages the walk reclaims) and then let
 *     K take processes is the case the rule above does not cover. One removed before the
 *     recording cannot be seen; that is the limit of this proof.
 *
 * On cgroup v1 (or a hybrid mount, events of several hierarchies) a cgroup with processes can
 * have children with their own memcg: never provable there.
 */
bool mc_lone_memcg(struct rs_memcgs *m, int row, int pid)
{
	const char *p;
	size_t n;
	bool below = false;

	if (row < 0 || row >= m->nr || row == m->overflow_row || row == m->unknown_row)
		return false;
	p = m->rows[row].path;
	if (!p || !strcmp(p, "/") || m->rows[row].id == RS_MEMCG_ROOT_ID)
		return false;
	if (!(m->mem_root == 0 || (m->mem_root < 0 && m->roots_seen_mask == 1u)))
		return false;
	if (rs_memcgs_task(m, pid) != row)
		return false;
	/* every limit reclaim call asks: the rows' walk once per row until identity changes */
	if (m->below_row1 == row + 1 && m->below_gen == m->gen)
		return !m->below_any;
	n = strlen(p);
	for (int i = 0; i < m->nr && !below; i++) {
		const char *q = m->rows[i].path;

		below = i != row && q && !strncmp(q, p, n) && q[n] == '/';
	}
	m->below_row1 = row + 1;
	m->below_gen = m->gen;
	m->below_any = below;
	return !below;
}

void mc_ids_free(struct rs_memcgs *m)
{
	for (int i = 0; i < m->nr; i++)
		free(m->paths[i]);
	free(m->rows);
	free(m->paths);
	free(m->path_slots);
	rs_u64map_free(&m->by_id);
	rs_u64map_free(&m->tasks);
}
