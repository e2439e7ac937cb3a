// SPDX-License-Identifier: GPL-2.0
/*
 * The world built at the end of the stream from what analyzer/replay/replay_input.c and
 * analyzer/replay/replay_calls.c gathered (docs/replay.md says where each value comes from):
 *
 *  - memcgs: the root, every memcg with list sizes (snapshots or deltas), their ancestors by
 *    path; siblings in id order (cgroup ids grow with creation, the kernel's walk order).
 *    Victims without sizes (memcgs the recorder did not snapshot) count in the root, whose own
 *    lists (node - tracked memcgs) hold their pages.
 *  - sizes: deltas anchored by the median of (snapshot - deltas so far), or snapshots; the
 *    root's own lists from node_stat; where neither exists, the first lru_isolate of a list in
 *    a call: nr_requested << priority (a lower bound, source `implied`).
 *  - calls: targets, pages wanted, per-victim recorded counts, and one reclaimability window
 *    per (call, memcg, list) with what that call saw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcg_attrib.h"
#include "replay_build.h"
#include "replay_calls.h"
#include "replay_memcgs.h"
#include "replay_report.h"
#include "rs_cmp.h"
#include "rs_grow.h"
#include "rs_search.h"

/* Victims merged by world memcg, with their request histograms in full (rs_obs). */
struct victim_sum {
	struct ri_victim v;
	struct rs_obs_req req[RS_NR_EVICTABLE];
};

struct wb {			/* build state */
	struct rs_replay_input *ri;
	struct rs_world *w;
	int *order;		/* entries in the world, sorted; [nw] */
	int nw;
	int *w_of;		/* entry -> world index (0: root / folded) */
	int64_t (*offset)[RS_NR_EVICTABLE];	/* entry -> delta offset */
	struct rs_ri_memcg *rm;	/* report rows, [world memcgs] */
	int nrm;
	uint64_t *w_limit;	/* world memcg -> latest hard limit */
	uint64_t *w_id;
	int *w_parent;
	int *w_depth;
	struct v2snaps *v2;	/* cgroup v2: [world memcg] its (hierarchical) snapshots */
	struct nsplit *ns;	/* two or more nodes: [world memcg] its lists by node */
	bool ns_all;		/* every world memcg with sizes has them by node */
	int64_t *v2_own;	/* cgroup v2: [world memcg][list] constant own lists, -1 none */
	struct rs_memcg_lists *ml;	/* scratch for one call */
	struct victim_sum *mv;		/* scratch: victims merged by world memcg */
	struct rs_obs_step *st;		/* scratch: one pass window's shrinks */
	size_t capst;
};

static bool has_sizes(const struct ri_memcg *m)
{
	return m->flags & (RI_MF_SNAP | RI_MF_DELTA);
}

static bool is_root_path(const char *p)
{
	return p && !strcmp(p, "/");
}

static int depth_of(const char *p)
{
	int d = 0;

	if (!p || is_root_path(p))
		return 0;
	for (; *p; p++)
		d += *p == '/';
	return d;
}

/*
 * Delta offsets: 0 for a memcg made inside the trace; its snapshot from before its first
 * delta; else its first (snapshot - deltas so far). Every later snapshot re-anchors the sizes
 * (replay_input.c anchor(), which needs the offset as soon as that first snapshot is read).
 */
static void offsets(struct wb *b)
{
	struct rs_replay_input *ri = b->ri;

	for (int e = 0; e < ri->nmc; e++) {
		const struct ri_memcg *m = &ri->mc[e];

		if (!(m->flags & RI_MF_DELTA) || (m->flags & RI_MF_MKDIR))
			continue;
		if (m->have_pre) {
			memcpy(b->offset[e], m->pre, sizeof(m->pre));
			continue;
		}
		if (m->nsamp)
			memcpy(b->offset[e], m->samp[0], sizeof(m->samp[0]));
	}
}

static int cmp_entry(const void *pa, const void *pb, void *arg)
{
	const struct rs_replay_input *ri = arg;
	int ea = *(const int *)pa, eb = *(const int *)pb;
	const struct rs_memcg *a = ri_memcg_id(ri, ea), *b = ri_memcg_id(ri, eb);
	int da = depth_of(a->path), db = depth_of(b->path);

	if (da != db)
		return da < db ? -1 : 1;
	/* siblings in creation order: cgroup ids (inode numbers) grow with it */
	if (a->id != b->id)
		return a->id && (!b->id || a->id < b->id) ? -1 : 1;
	return RS_CMP(ea, eb);	/* rows: first seen */
}

/* A world memcg added so far with this path, or -1. */
static int world_by_path(const struct wb *b, const char *path, int nwm)
{
	for (int w = 1; w < nwm; w++)
		if (!strcmp(rs_world_memcg(b->w, w)->path, path))
			return w;
	return -1;
}

static struct rs_ri_memcg *row_new(struct wb *b, int world, uint64_t id)
{
	struct rs_ri_memcg *r = &b->rm[b->nrm++];

	memset(r, 0, sizeof(*r));
	r->world = world;
	r->id = id;
	r->path = rs_world_memcg(b->w, world)->path;
	r->limit = r->soft_limit = RS_UNLIMITED;
	r->swappiness = -1;
	return r;
}

/* Add the memcgs: root, tracked ones by depth, synthetic ancestors for path gaps. */
static int add_memcgs(struct wb *b, struct rs_error *err)
{
	struct rs_replay_input *ri = b->ri;
	int n = 0, root_e = -1, nwm = 0;
	char name[64];

	b->order = calloc((size_t)ri->nmc + 1, sizeof(int));
	b->w_of = calloc((size_t)ri->nmc + 1, sizeof(int));
	/* world memcgs: at most every entry, its ancestors (depth <= 64 each), the root */
	b->rm = calloc((size_t)ri->nmc * 2 + 66, sizeof(*b->rm));
	b->w_limit = calloc((size_t)ri->nmc * 2 + 66, sizeof(uint64_t));
	b->w_id = calloc((size_t)ri->nmc * 2 + 66, sizeof(uint64_t));
	b->w_parent = calloc((size_t)ri->nmc * 2 + 66, sizeof(int));
	b->w_depth = calloc((size_t)ri->nmc * 2 + 66, sizeof(int));
	if (!b->order || !b->w_of || !b->rm || !b->w_limit || !b->w_id || !b->w_parent ||
	    !b->w_depth)
		return rs_error_set(err, "out of memory");
	for (int e = 0; e < ri->nmc; e++) {
		const struct rs_memcg *id = ri_memcg_id(ri, ri_memcg_row(ri, e));

		if (!id)
			continue;
		if (is_root_path(id->path) || id->id == 1) {
			if (root_e < 0 && (is_root_path(id->path) || !id->path))
				root_e = e;
			continue;
		}
		if (has_sizes(&ri->mc[e]))
			b->order[n++] = e;
	}
	qsort_r(b->order, (size_t)n, sizeof(int), cmp_entry, ri);

	b->w_id[0] = root_e >= 0 ? ri_memcg_id(ri, root_e)->id : 1;
	if (rs_world_add_memcg(b->w, &(struct rs_memcg_desc){ .id = b->w_id[0], .path = "/",
							     .parent = -1 }, err) < 0)
		return -1;
	b->w_limit[0] = RS_UNLIMITED;
	b->w_parent[0] = -1;
	row_new(b, 0, b->w_id[0]);
	nwm = 1;
	for (int e = 0; e < ri->nmc; e++)
		b->w_of[e] = 0;
	for (int k = 0; k < n; k++) {
		struct ri_memcg *m = &ri->mc[b->order[k]];
		const struct rs_memcg *id = ri_memcg_id(ri, b->order[k]);
		const char *path = id->path;
		int parent = 0, idx;
		struct rs_ri_memcg *r;

		if (!path) {
			snprintf(name, sizeof(name), "id:%llu", (unsigned long long)id->id);
			path = name;
		} else {
			/* every proper ancestor by path, top-down: tracked, else synthetic */
			for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
				char *anc = strndup(path, (size_t)(p - path));
				int w;

				if (!anc)
					return rs_error_set(err, "out of memory");
				w = world_by_path(b, anc, nwm);
				if (w < 0) {
					/* an ancestor without sizes: its id if an event named it */
					const struct rs_memcg *a = ri_memcg_id(ri,
						rs_memcgs_find_path(ri->memcgs, anc));
					uint64_t aid = a ? a->id : 0;

					w = rs_world_add_memcg(b->w, &(struct rs_memcg_desc){
						.id = aid, .path = anc, .parent = parent }, err);
					if (w < 0) {
						free(anc);
						return -1;
					}
					b->w_limit[w] = RS_UNLIMITED;
					b->w_id[w] = aid;
					b->w_parent[w] = parent;
					b->w_depth[w] = b->w_depth[parent] + 1;
					row_new(b, w, aid);
					nwm++;
				}
				free(anc);
				parent = w;
			}
		}
		idx = rs_world_add_memcg(b->w, &(struct rs_memcg_desc){ .id = id->id, .path = path,
								       .parent = parent }, err);
		if (idx < 0)
			return -1;
		nwm++;
		b->w_of[b->order[k]] = idx;
		m->world = idx;
		b->w_limit[idx] = m->limit;
		b->w_id[idx] = id->id;
		b->w_parent[idx] = parent;
		b->w_depth[idx] = b->w_depth[parent] + 1;
		r = row_new(b, idx, id->id);
		r->mkdir = m->flags & RI_MF_MKDIR;
		r->rmdir = m->flags & RI_MF_RMDIR;
		r->snap = m->snap;
		r->delta = m->delta;
		r->ws = m->ws;
		r->sizes_from_deltas = m->flags & RI_MF_DELTA;
		r->offset_from_mkdir = r->sizes_from_deltas && (m->flags & RI_MF_MKDIR);
		r->offset_assumed = r->sizes_from_deltas && !r->offset_from_mkdir && !m->nsamp;
		r->offset_from_first = r->sizes_from_deltas && !r->offset_from_mkdir && m->have_pre;
		r->have_usage = m->have_usage;
		r->usage_first = m->usage_first;
		r->usage_last = m->usage;
		r->usage_max = m->usage_max;
		r->limit = m->limit;
		r->soft_limit = m->soft;
		r->swappiness = m->swappiness;
		r->soft_over = m->soft_over;
		b->ri->rep.v2_min_seen += m->have_min;
		b->ri->rep.v2_low_seen += m->have_low;
		b->ri->rep.v2_swap_seen += m->have_swap;
		b->ri->rep.v2_protected += m->ever_protected;
		b->ri->rep.v2_swap_limited += m->ever_swap_limited;
		if (r->sizes_from_deltas) {
			memcpy(r->offset, b->offset[b->order[k]], sizeof(r->offset));
			r->disagree_n = m->nsamp;
			r->anchors = m->anchors;
			for (uint32_t s = 0; s < m->nsamp; s++) {
				for (int l = 0; l < RS_NR_EVICTABLE; l++) {
					int64_t d = m->samp[s][l] - r->offset[l];
					uint64_t a = (uint64_t)(d < 0 ? -d : d);

					if (a > r->disagree_max[l])
						r->disagree_max[l] = a;
				}
			}
		}
	}
	b->nw = n;
	/* memcgs folded into the root: victims without sizes */
	for (int e = 0; e < ri->nmc; e++)
		if (!b->w_of[e] && (ri->mc[e].flags & RI_MF_VICTIM) && e != root_e)
			b->rm[0].folded++;
	return 0;
}

/* The world memcg of memcg row e: 0 (the root) when folded there or none. */
static int world_of_row(const struct wb *b, int e)
{
	return e >= 0 && e < b->ri->nmc ? b->w_of[e] : 0;
}

/*
 * The call's isolations whose pages the world's lists lack while they are off them: those of a
 * memcg whose sizes follow its lruvec deltas (the isolation's delta takes them off, the
 * putback's brings back what survived); a list from snapshots or node_stat is as of its last
 * sample. Memcg rows become world indices; returns how many are kept (once per call).
 */
static size_t inflight_to_world(const struct wb *b, struct ri_call *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ninfl; i++) {
		const struct ri_memcg *m = ri_memcg_at(b->ri, c->infl[i].memcg);
		int w = world_of_row(b, c->infl[i].memcg);

		if (!m || !(m->flags & RI_MF_DELTA) || w <= 0)
			continue;
		c->infl[n] = c->infl[i];
		c->infl[n++].memcg = w;
	}
	c->ninfl = n;
	return n;
}

static int lca(const struct wb *b, int x, int y)
{
	while (b->w_depth[x] > b->w_depth[y])
		x = b->w_parent[x];
	while (b->w_depth[y] > b->w_depth[x])
		y = b->w_parent[y];
	while (x != y) {
		x = b->w_parent[x];
		y = b->w_parent[y];
	}
	return x;
}

static int limited_ancestor(const struct wb *b, int m)
{
	for (int x = m; x > 0; x = b->w_parent[x])
		if (b->w_limit[x] != RS_UNLIMITED)
			return x;
	return -1;
}

/* The world memcg of the call's task (the loading stage's task memcg at its start), -1. */
static int task_world(const struct wb *b, const struct ri_call *c)
{
	return c->task_row >= 0 ? world_of_row(b, c->task_row) : -1;
}

static int header_world(const struct wb *b)
{
	const char *p = b->ri->header_cgroup;

	if (!p)
		return -1;
	for (int w = 1; w < b->nrm; w++)
		if (!strcmp(rs_world_memcg(b->w, w)->path, p))
			return w;
	return -1;
}

static int call_target(struct wb *b, const struct ri_call *c)
{
	int t = task_world(b, c), l = -1, lim;

	/* the kernel says it (7.1+ memcg_id), when that memcg is in the world */
	if (world_of_row(b, c->root_row) > 0) {
		b->ri->rep.target_src[RS_RI_TGT_KERNEL]++;
		return world_of_row(b, c->root_row);
	}
	/* victims with sizes of their own (an unattributed or folded one says nothing) */
	for (uint32_t i = 0; i < c->nv; i++) {
		int w = world_of_row(b, c->v[i].memcg);

		if (w > 0)
			l = l < 0 ? w : lca(b, l, w);
	}
	if (l >= 0) {
		if (t >= 0)
			l = lca(b, l, t);
		lim = limited_ancestor(b, l);
		b->ri->rep.target_src[lim >= 0 && lim != l ? RS_RI_TGT_LIMITED
						       : RS_RI_TGT_VICTIMS]++;
		return lim >= 0 ? lim : l;
	}
	if (t >= 0) {
		lim = limited_ancestor(b, t);
		b->ri->rep.target_src[RS_RI_TGT_TASK]++;
		return lim >= 0 ? lim : t;
	}
	t = header_world(b);
	if (t >= 0) {
		b->ri->rep.target_src[RS_RI_TGT_HEADER]++;
		return t;
	}
	b->ri->rep.target_src[RS_RI_TGT_ROOT]++;
	return 0;
}

/* Path a is path b or above it ("/" is above every path). */
static bool path_at_or_above(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return true;
	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/*
 * A memcg call no charge of its task asked for: the kernel's reclaim root (7.1+ memcg_id) is
 * neither the task's memcg nor above it. A charge reclaims the charged memcg or an ancestor
 * whose limit failed it, and the charged memcg is the task's but for a swap-in's (told by the
 * pswpin after the call: on_swapin()); a write to memory.reclaim (or
 * memory.max/memory.high, which reclaim the same way for an amount of their own) reclaims the
 * file's memcg from whichever task wrote it. Such a call's nr_to_reclaim follows the amount
 * written (memory_reclaim() asks each try_to_free_mem_cgroup_pages() call for a share of what
 * remains of it), which no event shows. The begin event's gfp_flags cannot tell it:
 * try_to_free_mem_cgroup_pages() ORs GFP_HIGHUSER_MOVABLE's placement bits into memory.reclaim's
 * GFP_KERNEL, and the 7.2 proactive trace's calls of both kinds read 0x100cca. Not told: a write
 * from the memcg itself or below it, a task whose memcg the trace does not say, and kernels
 * before 7.1 (no memcg_id: the target is inferred from the task and its victims).
 */
static bool call_proactive(const struct rs_replay_input *ri, const struct ri_call *c)
{
	const struct rs_memcg *root = ri_memcg_id(ri, c->root_row);
	const struct rs_memcg *task = ri_memcg_id(ri, c->task_row);
	const struct rs_memcg *swapin = ri_memcg_id(ri, c->swapin_row);

	if (!root || !task || !root->path || !task->path)
		return false;
	/* a swap-in charged to the root's subtree right after: a charge (on_swapin()) */
	if (swapin && swapin->path && path_at_or_above(root->path, swapin->path))
		return false;
	return !path_at_or_above(root->path, task->path);
}

/*
 * Pages a memcg call wanted: the kernel's goal, max(charge, 32) (try_to_free_mem_cgroup_pages();
 * a v1 limit charge is one folio: 32 << k pages once the folio has 32 or more). The charge is not
 * in the trace; the goal is the one 32 << k the recording is consistent with: above the call's
 * total at the end of every shrink_lruvec() pass but the last and above a one-type pass's own
 * reclaimed at the end of every loop iteration but its last (the kernel would have stopped
 * there), at most what it freed and at most what a pass cut short had reclaimed when it met
 * the goal (pass_cut()); the largest such one. The pages freed past it (up to a
 * loop iteration: with 512-page folios hundreds of pages) are the model's to reproduce, not an
 * input: a call wanting what it freed would make every call that stopped on a priority
 * boundary look like one that needed the next priority (anon-stream-swap: 41 freed, goal 32,
 * the model at 39 after priority 8 went on to priority 7 and 81 pages). When no 32 << k fits
 * (memory.high or proactive reclaim ask other amounts), the call wants what it freed; under 32,
 * SWAP_CLUSTER_MAX. --inputs counts each case.
 */
static uint64_t memcg_want(struct rs_replay_input *ri, const struct ri_call *c, uint64_t got)
{
	uint64_t goal = 0, any = 0;

	if (got < RS_SWAP_CLUSTER_MAX) {
		ri->rep.want_src[RS_RI_WANT_MIN]++;
		return RS_SWAP_CLUSTER_MAX;
	}
	/*
	 * A call that went down to a lower priority after the last page it freed never met its
	 * goal: do_try_to_free_pages() lowers the priority only while nr_reclaimed <
	 * nr_to_reclaim, so the goal was above the final total (n1-memcg-high, 146.177 s: 192 freed
	 * by priority 8, nothing at 7..0, 48,814 pages scanned). Wanting what it freed, the model
	 * stopped where the kernel first had it. The least 32 << k above the total: the amount is
	 * not in the trace (memory.high asks for the pages charged over it), only that the call
	 * fell short of it. (Not a later pass at the same priority: the anon aging at the end of
	 * shrink_lruvec() reads as one.)
	 */
	if (c->gain_prio1 && c->low_prio1 < c->gain_prio1 && got <= c->total) {
		for (goal = RS_SWAP_CLUSTER_MAX; goal && goal <= c->total; goal <<= 1)
			;
		if (goal) {
			ri->rep.want_src[RS_RI_WANT_CHARGE]++;
			return goal;
		}
	}
	for (uint64_t x = RS_SWAP_CLUSTER_MAX; x <= got && x; x <<= 1) {
		if (x <= c->want_lo)
			continue;
		any = x;
		if (!c->want_hi || x <= c->want_hi)
			goal = x;
	}
	/* a cut no charge size fits (the pass stopped early for another cause) bounds nothing */
	if (!goal)
		goal = any;
	if (goal) {
		ri->rep.want_src[RS_RI_WANT_CHARGE]++;
		ri->rep.goal_overshoot += got - goal;
		return goal;
	}
	ri->rep.want_src[RS_RI_WANT_RECLAIMED]++;
	return got;
}

/*
 * Victims of a call (arr: ri_call.v, or its pass windows ri_call.pv) merged by world memcg,
 * node and priority (several ids can count in the root).
 */
static int merge_victims(struct wb *b, const struct ri_call *c, const struct ri_victim *arr,
			 uint32_t nv, int nr_nodes)
{
	int n = 0;

	for (uint32_t i = 0; i < nv; i++) {
		const struct ri_victim *v = &arr[i];
		int w = world_of_row(b, v->memcg), nid = v->nid < nr_nodes ? v->nid : 0, k;
		struct victim_sum *ds;
		struct ri_victim *d;

		if (v->memcg >= 0 && v->prio < 0)
			b->rm[w].victim_events++;
		for (k = 0; k < n; k++)
			if (b->mv[k].v.memcg == w && b->mv[k].v.nid == nid &&
			    b->mv[k].v.prio == v->prio)
				break;
		ds = &b->mv[k];
		d = &ds->v;
		if (k == n) {
			memset(ds, 0, sizeof(*ds));
			d->memcg = w;	/* the world index from here on */
			d->nid = nid;
			d->prio = v->prio;
			n++;
		}
		for (uint32_t q = v->req; q != RI_NO_REQ; q = c->req[q].next) {
			const struct ri_req *r = &c->req[q];

			ds->req[r->lru].isolates[r->req] += r->isolates;
			ds->req[r->lru].scanned[r->req] += r->scanned;
		}
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			d->scanned[l] += v->scanned[l];
			d->folio_w[l] += v->folio_w[l];
			d->folio_big[l] += v->folio_big[l];
			d->folio_size[l] = ri_folio_size_merge(d->folio_size[l], v->folio_size[l]);
			d->taken[l] += v->taken[l];
			d->reclaimed[l] += v->reclaimed[l];
			if (v->implied[l] > d->implied[l]) {
				d->implied[l] = v->implied[l];
				d->implied_off[l] = v->implied_off[l];
			}
		}
		for (int t = 0; t < 2; t++) {
			d->in_scanned[t] += v->in_scanned[t];
			d->activated[t] += v->activated[t];
			d->pageout[t] += v->pageout[t];
			d->a_taken[t] += v->a_taken[t];
			d->a_deact[t] += v->a_deact[t];
			d->a_ref[t] += v->a_ref[t];
		}
	}
	return n;
}

/*
 * The shrinks of pass window d on list lru in the order the call ran them (victims merged by
 * world memcg: several rows counting in the root interleave in time order). Returns how many,
 * in b->st; -1 out of memory.
 */
static long pass_steps(struct wb *b, const struct ri_call *c, const struct ri_victim *d, int lru,
		       int nr_nodes)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nsteps; i++) {
		const struct ri_step *x = &c->steps[i];

		if (x->lru != lru || x->prio != d->prio ||
		    (x->nid < nr_nodes ? x->nid : 0) != d->nid ||
		    world_of_row(b, x->memcg) != d->memcg)
			continue;
		if (RS_GROW(b->st, b->capst, n + 1, 64))
			return -1;
		b->st[n++] = x->st;
	}
	return (long)n;
}

static int add_obs(struct wb *b, const struct ri_call *c, const struct victim_sum *ds,
		   int nr_nodes, struct rs_error *err)
{
	const struct ri_victim *d = &ds->v;

	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		int t = l >= RS_LRU_INACTIVE_FILE;
		bool active = l == RS_LRU_ACTIVE_ANON || l == RS_LRU_ACTIVE_FILE;
		struct rs_obs o = { .ts_start = c->c.ts, .ts_end = c->c.ts_end, .memcg = d->memcg,
				    .nid = d->nid, .lru = l, .one_prio = d->prio >= 0,
				    .prio = d->prio };
		struct rs_ri_obs_sum *s = &b->ri->rep.obs[l];

		if (active) {
			if (!d->a_taken[t])
				continue;
			o.pages.taken = d->a_taken[t];
			o.pages.deactivated = d->a_deact[t];
			o.pages.referenced = d->a_ref[t];
		} else {
			if (!d->in_scanned[t])
				continue;
			o.pages.scanned = d->in_scanned[t];
			o.pages.reclaimed = d->reclaimed[l];
			o.pages.activated = d->activated[t];
			o.pages.pageout = d->pageout[t];
			if (o.one_prio) {
				long k = pass_steps(b, c, d, l, nr_nodes);

				if (k < 0)
					return rs_error_set(err, "out of memory");
				o.steps = b->st;
				o.nsteps = (uint32_t)k;
			}
		}
		if (d->scanned[l])
			o.folio = (uint32_t)((d->folio_w[l] + d->scanned[l] / 2) / d->scanned[l]);
		o.req = &ds->req[l];	/* the world keeps its own, compact copy */
		/* single pages and folios of one size: the two classes (rs_obs.folio_one) */
		if (d->folio_big[l] && d->folio_size[l] != UINT32_MAX &&
		    d->scanned[l] > d->folio_big[l]) {
			o.folio_one = d->folio_size[l];
			o.folio_big = d->folio_big[l];
			o.folio_scanned = d->scanned[l];
		}
		if (rs_world_add_obs(b->w, &o, err))
			return -1;
		if (o.one_prio)
			continue;	/* a part of a window counted already */
		s->windows++;
		rs_scan_pages_add(&s->pages, &o.pages);
	}
	return 0;
}

/* An lruvec with no size from snapshots, deltas or node_stat. */
static bool size_unknown(const struct wb *b, int w)
{
	if (w == 0)
		return !b->ri->nroot;
	return false;	/* every other world memcg has snapshots or deltas */
}


/* zone_stat samples, per node (kswapd's end: include/kswapd_end.h) */
static int add_zone_samples(struct rs_replay_input *ri, struct rs_world *w, struct rs_error *err)
{
	for (size_t i = 0; i < ri->nzs; i++) {
		struct rs_zone_sample *s = &ri->zs[i], *p[2] = { NULL, NULL };

		/* the node's two samples before it: the buddy flow's base (zone_balance.h) */
		for (size_t j = i; j-- > 0 && !p[1];)
			if (ri->zs[j].nid == s->nid)
				p[p[0] ? 1 : 0] = &ri->zs[j];
		rs_zone_flow_base(s, p[0], p[1]);
		if (s->nid < ri->rep.nr_nodes && rs_world_add_zone_sample(w, s, err))
			return -1;
	}
	return 0;
}

/*
 * No watermark in node_stat (older recorders): a lower bound from kswapd's passes. kswapd's
 * shrink_lruvec() stops a one-type pass once it reclaimed nr_to_reclaim = sum of max(high
 * watermark, 32) over the zones (kswapd_shrink_node()); an iteration followed by another was
 * below it.
 */
static int infer_wmark(struct wb *b, int nr_nodes, struct rs_error *err)
{
	struct rs_replay_input *ri = b->ri;
	uint64_t lo = 0, off = 0, n = 0;

	if (ri->rep.have_wmark)
		return 0;
	for (size_t i = 0; i < ri->ncall; i++) {
		const struct ri_call *c = &ri->call[i];

		if (c->ctx != RS_CALL_KSWAPD || !c->iter_lo)
			continue;
		n++;
		if (c->iter_lo > lo) {
			lo = c->iter_lo;
			off = c->c.ev_offset;
		}
	}
	if (!lo)
		return 0;
	ri->rep.wmark_inferred = lo + 1;
	ri->rep.wmark_inferred_calls = n;
	ri->rep.wmark_inferred_offset = off;
	for (int nid = 0; nid < nr_nodes; nid++) {
		struct rs_world_update u = { .ts = 0, .field = RS_WF_NODE_WMARK_HIGH,
					     .op = RS_WOP_SET, .src = RS_WSRC_IMPLIED, .memcg = -1,
					     .nid = nid, .value = (int64_t)(lo + 1), .ev_offset = off };

		if (rs_world_add_update(b->w, &u, err))
			return -1;
	}
	ri_warn(ri, "no node watermarks in the trace (node_stat wmark_high): kswapd's "
		"nr_to_reclaim (the node's high watermarks) inferred from %llu kswapd runs as at "
		"least %llu pages",
		(unsigned long long)n, (unsigned long long)(lo + 1));
	return 0;
}

static int add_calls(struct wb *b, int nr_nodes, struct rs_error *err)
{
	struct rs_replay_input *ri = b->ri;
	size_t maxv = 1;

	for (size_t i = 0; i < ri->ncall; i++) {
		if (ri->call[i].nv > maxv)
			maxv = ri->call[i].nv;
		if (ri->call[i].npv > maxv)
			maxv = ri->call[i].npv;
	}
	b->mv = calloc(maxv, sizeof(*b->mv));
	b->ml = calloc(maxv, sizeof(*b->ml));
	if (!b->mv || !b->ml)
		return rs_error_set(err, "out of memory");
	for (size_t i = 0; i < ri->ncall; i++) {
		struct ri_call *c = &ri->call[i];
		struct rs_reclaim_call *rc = &c->c;
		int nmv = merge_victims(b, c, c->v, c->nv, nr_nodes);
		uint64_t got = 0;

		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			got += rc->rec.reclaimed[l];
		rc->ctx = (enum rs_call_ctx)c->ctx;
		if (rc->nid >= nr_nodes)
			rc->nid = 0;
		if ((rc->ctx == RS_CALL_KSWAPD || rc->ctx == RS_CALL_NODE) && rc->nid < 0)
			rc->nid = 0;
		/* rounds: distinct (node, priority) pairs; nodes: those with any (note_round()) */
		rc->rec.rounds = 0;
		rc->rec.nodes = (uint32_t)c->nxprio;
		for (int n = 0; n < 4; n++) {
			rc->rec.rounds += (uint32_t)__builtin_popcount(c->prio_mask[n]);
			rc->rec.nodes += c->prio_mask[n] != 0;
		}
		for (size_t n = 0; n < c->nxprio; n++)
			rc->rec.rounds += (uint32_t)__builtin_popcount(c->xprio[n].mask);
		switch (rc->ctx) {
		case RS_CALL_KSWAPD:
			/*
			 * Where the recorded run was balanced: after its last pass, not before
			 * (balance_lo); the pages freed past that are the model's to reproduce. A
			 * run that freed nothing was balanced at once (0)
			 */
			rc->nr_to_reclaim = got ? c->balance_lo + 1 : 0;
			ri->rep.kswapd_want += rc->nr_to_reclaim;
			ri->rep.kswapd_overshoot += got - (got ? c->balance_lo + 1 : 0);
			break;
		case RS_CALL_MEMCG:
			rc->nr_to_reclaim = memcg_want(ri, c, c->open || !rc->rec.nr_reclaimed
							       ? got : rc->rec.nr_reclaimed);
			rc->target = call_target(b, c);
			rc->proactive = call_proactive(ri, c);
			ri->rep.proactive_calls += rc->proactive;
			b->rm[rc->target].target_calls++;
			break;
		case RS_CALL_DIRECT:
			rc->nr_to_reclaim = RS_SWAP_CLUSTER_MAX;
			/*
			 * shrink_node() rounds of a costly-order call went on until compaction
			 * was ready: as far as the recorded call's last round (like kswapd's
			 * balance point, a per-zone test the node sums cannot make)
			 */
			rc->compact_goal = got ? c->balance_lo + 1 : 0;
			break;
		case RS_CALL_NODE:
			rc->nr_to_reclaim = UINT64_C(1) << (rc->order > 0 && rc->order < 32
							     ? rc->order : 0);
			if (rc->nr_to_reclaim < RS_SWAP_CLUSTER_MAX)
				rc->nr_to_reclaim = RS_SWAP_CLUSTER_MAX;
			break;
		default:
			rc->nr_to_reclaim = RS_SWAP_CLUSTER_MAX;
			break;
		}
		for (int k = 0; k < nmv; k++) {
			struct rs_memcg_lists *m = &b->ml[k];

			m->memcg = b->mv[k].v.memcg;
			m->nid = b->mv[k].v.nid;
			memcpy(m->scanned, b->mv[k].v.scanned, sizeof(m->scanned));
			memcpy(m->reclaimed, b->mv[k].v.reclaimed, sizeof(m->reclaimed));
			if (add_obs(b, c, &b->mv[k], nr_nodes, err))
				return -1;
			if (!size_unknown(b, m->memcg))
				continue;
			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				struct rs_world_update u = {
					.ts = rc->ts, .field = RS_WF_LRU, .op = RS_WOP_SET,
					.src = RS_WSRC_IMPLIED, .lru = (uint8_t)l,
					.memcg = m->memcg, .nid = b->mv[k].v.nid,
					.value = (int64_t)b->mv[k].v.implied[l],
					.ev_offset = b->mv[k].v.implied_off[l],
				};

				if (!b->mv[k].v.implied[l])
					continue;
				if (rs_world_add_update(b->w, &u, err))
					return -1;
				ri->rep.implied_updates++;
				ri_source_note(&b->rm[m->memcg].implied,
					       &(struct rs_event){ .ts = rc->ts,
								   .offset = u.ev_offset });
			}
		}
		/* the world copies rec.memcg */
		rc->rec.memcg = b->ml;
		rc->rec.nr_memcg = (size_t)nmv;
		rc->rec.isolate_ts = c->iso;
		rc->rec.nr_isolate = c->niso;
		rc->rec.inflight = c->infl;
		rc->rec.nr_inflight = inflight_to_world(b, c);
		rc->rec.checks = rc->ctx == RS_CALL_KSWAPD ? c->chk : NULL;
		rc->rec.nr_checks = rc->ctx == RS_CALL_KSWAPD ? c->nchk : 0;
		if (rs_world_add_call(b->w, rc, err))
			return -1;
		rc->rec.memcg = NULL;
		rc->rec.isolate_ts = NULL;
		rc->rec.nr_isolate = 0;
		rc->rec.inflight = NULL;
		rc->rec.nr_inflight = 0;
		rc->rec.checks = NULL;
		rc->rec.nr_checks = 0;
		/* the passes by priority: b->mv is free again (rec.memcg was copied) */
		nmv = merge_victims(b, c, c->pv, c->npv, nr_nodes);
		for (int k = 0; k < nmv; k++)
			if (add_obs(b, c, &b->mv[k], nr_nodes, err))
				return -1;
	}
	return 0;
}

/*
 * cgroup v2's memory.stat is hierarchical: a memcg's own lists are its snapshot minus its
 * children's (hierarchical too), each child's taken nearest in time (the recorder reads the
 * parent, then the children, a few ms apart); v1's inactive_anon etc. are the memcg's own. The
 * 7.2 guest's memory.high trace: /rs_high's snapshots counted /rs_high/rs_workload's pages twice
 * once the kernel's memcg_id made /rs_high the reclaim root.
 */
struct v2snap {
	uint64_t ts;
	int64_t v[RS_NR_EVICTABLE];
};

struct v2snaps {
	struct v2snap *s;
	size_t n, cap;
};

static int v2_collect(struct wb *b, struct v2snaps *vs)
{
	struct rs_replay_input *ri = b->ri;

	for (size_t i = 0; i < ri->nupd; i++) {
		const struct rs_world_update *u = &ri->upd[i];
		struct v2snaps *x;
		int e, w;

		if (u->memcg < 0 || u->field != RS_WF_LRU || u->src != RS_WSRC_SNAPSHOT ||
		    u->op != RS_WOP_SET)
			continue;
		e = u->memcg;
		if (e >= ri->nmc || !(w = b->w_of[e]) || w >= b->nrm)
			continue;
		x = &vs[w];
		if (!x->n || x->s[x->n - 1].ts != u->ts) {
			if (RS_GROW(x->s, x->cap, x->n + 1, 64) < 0)
				return -1;
			memset(&x->s[x->n], 0, sizeof(x->s[x->n]));
			x->s[x->n++].ts = u->ts;
		}
		x->s[x->n - 1].v[u->lru] = u->value;
	}
	return 0;
}

static int64_t v2_nearest(const struct v2snaps *x, uint64_t ts, int l)
{
	size_t lo;

	if (!x->n)
		return 0;
	lo = RS_UPPER_BOUND(x->s, x->n, ts, ts);
	lo = lo ? lo - 1 : 0;	/* the last snapshot with ts <= the parent's */
	/* lo is the last at or before ts, or the first when all are after: the nearer one */
	if (x->s[lo].ts <= ts && lo + 1 < x->n && x->s[lo + 1].ts - ts < ts - x->s[lo].ts)
		lo++;
	return x->s[lo].v[l];
}

static int64_t v2_own(const struct wb *b, const struct v2snaps *vs, int wm, int l, uint64_t ts,
		      int64_t v)
{
	int64_t own = v;

	for (int c = 1; c < b->nrm; c++)
		if (b->w_parent[c] == wm)
			own -= v2_nearest(&vs[c], ts, l);
	return own > 0 ? own : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	return RS_CMP(*(const int64_t *)a, *(const int64_t *)b);
}

/*
 * Cgroup v2: the own lists of a memcg that never had an lruvec delta of its own while the trace
 * has them (its own lists never changed: every change of a list emits one) are one constant,
 * the median over its snapshots of snapshot - children. Each difference alone is noise: the
 * parent's memory.stat and its child's are read a millisecond apart, and a reclaim deactivating
 * THPs in between moved thousands of pages (the 7.2 memory.high trace: /rs_high read with
 * 6,660 active anon pages, its only child 0.7 ms later with 3,584, and the model scanned 3,076
 * phantom pages of /rs_high, which has no task and no delta). own[w * lists + l], -1: not so.
 */
static int64_t *v2_constant_own(const struct wb *b, const struct v2snaps *vs)
{
	const struct rs_replay_input *ri = b->ri;
	int64_t *own = malloc(((size_t)b->nrm + 1) * RS_NR_EVICTABLE * sizeof(*own));
	bool *delta = calloc((size_t)b->nrm + 1, sizeof(*delta));
	bool any = false;
	size_t maxn = 1;
	int64_t *tmp;

	if (!own || !delta) {
		free(own);
		free(delta);
		return NULL;
	}
	for (int e = 0; e < ri->nmc; e++) {
		int w = b->w_of[e];

		if ((ri->mc[e].flags & RI_MF_DELTA) && w > 0 && w < b->nrm) {
			delta[w] = true;
			any = true;
		}
	}
	for (int w = 0; w < b->nrm; w++)
		if (vs[w].n > maxn)
			maxn = vs[w].n;
	tmp = malloc(maxn * sizeof(*tmp));
	for (int w = 0; w < b->nrm && tmp; w++) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			own[(size_t)w * RS_NR_EVICTABLE + l] = -1;
			if (!any || delta[w] || !vs[w].n || w == 0)
				continue;
			for (size_t k = 0; k < vs[w].n; k++)
				tmp[k] = v2_own(b, vs, w, l, vs[w].s[k].ts, vs[w].s[k].v[l]);
			qsort(tmp, vs[w].n, sizeof(*tmp), cmp_i64);
			own[(size_t)w * RS_NR_EVICTABLE + l] = tmp[vs[w].n / 2];
		}
	}
	free(delta);
	if (!tmp) {
		free(own);
		return NULL;
	}
	free(tmp);
	return own;
}

/*
 * Cgroup v2: what on_snap_node() took off a node's lists for the memcgs without deltas so far
 * was their latest memory.stat, which on v2 counts each one's subtree: a tracked memcg below
 * one (rs_workload below `record --cgroup P`, the children a workload makes in P) went off
 * twice, and the root's own lists went below 0 and were clamped (the 7.2 multi trace: 967
 * clamps; the root's own anon 0 where node_stat less the tracked memcgs left ~2,000 inactive
 * and ~3,800 active pages, so the model's root read inactive anon above active where the
 * kernel's flushed root stats had it below, and kswapd_age_node() deactivated 2,688 anon pages
 * of the root and 0 in the model). What the world holds for each of them goes off instead: for
 * a memcg whose deltas start later its delta offset, for the others their own lists (the
 * constant own, else snapshot - children) as of their latest snapshot. pos[e]: e's place in
 * delta_order, UINT32_MAX for none.
 */
static int64_t root_own_v2(const struct wb *b, const struct ri_root_upd *r, const uint32_t *pos,
			   int l)
{
	const struct rs_replay_input *ri = b->ri;
	int64_t v = r->raw[l] + r->snap[l];

	for (int e = 0; e < ri->nmc; e++) {
		int w = b->w_of[e];
		const struct v2snaps *x;
		size_t lo;
		int64_t k;

		if (w <= 0 || w >= b->nrm || pos[e] < r->k)
			continue;
		if (ri->mc[e].flags & RI_MF_DELTA) {
			v -= b->offset[e][l];
			continue;
		}
		x = &b->v2[w];
		lo = RS_UPPER_BOUND(x->s, x->n, ts, r->ts);	/* at or before the node's: [0, lo) */
		if (!lo)
			continue;
		k = b->v2_own[(size_t)w * RS_NR_EVICTABLE + l];
		v -= k >= 0 ? k : v2_own(b, b->v2, w, l, x->s[lo - 1].ts, x->s[lo - 1].v[l]);
	}
	return v;
}

/*
 * Two or more nodes: each memcg's lists by node. memory.stat and mod_memcg_lruvec_state name
 * no node, while reclaim sizes its scan of each (node, memcg) lruvec from that lruvec's own
 * lists (get_scan_count(), lruvec_lru_size()). memory.numa_stat does name them: `record` writes
 * it on cgroup v2 as memcg_numa, which the loader joins to its memcg_stat (numa_*;
 * docs/markers.md), its subtree's lists per node. A memcg's own lists on a node are that minus
 * its children's (v2_own() per node). The updates built from memory.stat and the deltas (a
 * size per memcg) are placed per node:
 *  - a size set (a snapshot, the delta offset): split by the memcg's own shares per node in the
 *    numa_stat read of that moment (before the first read: the first read's);
 *  - a delta: split by the shares of the latest read, the fractions carried to the next one;
 *  - at each read, a memcg with deltas has its lists re-split by that read's shares (the
 *    deltas' node is unknown: between two reads they follow the earlier read's split);
 *  - a workingset counter's delta goes to the nodes whose counter grew between the reads
 *    around it (ws_shares()): prepare_scan_control() compares each node's refaults with that
 *    node's own snapshot, and lru_note_cost() charges restores to the node's lruvec;
 *  - the list stats a reclaim reads are the read's per node; the root's own lists per node are
 *    node_stat less the outermost memcgs' reads (root_own_numa()).
 * So at each read the lists per node are the read's, and between reads only the split of the
 * deltas is assumed (docs/replay.md "Nodes, MGLRU, caps"). Measured on the 7.2 two-node
 * memcg-high recording: at each read the lists had drifted from it by 16 of ~2,300 inactive
 * file pages on average. With only the lists per node (the refaults all on node 0) inactive
 * anon was +17.9%; with the counters per node +3.8%.
 */
struct nsplit {
	bool ok;			/* every read names every node */
	bool sizes;			/* a row of it has sizes (snapshots or deltas) */
	bool missing;			/* a snapshot of it without numa_stat */
	struct ri_numa *s;		/* its numa_stat reads, by time */
	size_t n, cap;
	int64_t run[RS_NR_EVICTABLE][RS_SNAP_NODES];	/* what the updates put on each node */
	double carry[RS_NR_EVICTABLE][RS_SNAP_NODES];	/* split remainders not yet put */
	bool resplit[RS_NR_EVICTABLE];		/* a read waits to re-split the list */
	uint64_t last_ts[RS_NR_EVICTABLE];	/* the latest update put on the nodes */
	uint64_t resplit_ts[RS_NR_EVICTABLE], resplit_off[RS_NR_EVICTABLE];
	int64_t off[RS_NR_EVICTABLE][RS_SNAP_NODES];	/* the delta offset by node */
	bool have_off;
	double wcarry[4][RS_SNAP_NODES];		/* workingset counters' remainders */
};

static int cmp_numa(const void *a, const void *b)
{
	return RS_CMP(((const struct ri_numa *)a)->ts, ((const struct ri_numa *)b)->ts);
}

/* The read at or before ts (the first when all are later). */
static size_t numa_at(const struct nsplit *x, uint64_t ts)
{
	size_t lo = RS_UPPER_BOUND(x->s, x->n, ts, ts);

	return lo ? lo - 1 : 0;
}

/* The read nearest ts (as v2_nearest()). */
static const struct ri_numa *numa_nearest(const struct nsplit *x, uint64_t ts)
{
	size_t lo = numa_at(x, ts);

	if (x->s[lo].ts <= ts && lo + 1 < x->n && x->s[lo + 1].ts - ts < ts - x->s[lo].ts)
		lo++;
	return &x->s[lo];
}

/* Memcg w's own list l on each node in its read k: its subtree's less its children's. */
static void numa_own(const struct wb *b, int w, size_t k, int l, int nn, int64_t *own)
{
	const struct ri_numa *r = &b->ns[w].s[k];

	for (int nid = 0; nid < nn; nid++)
		own[nid] = r->v[nid][l];
	for (int c = 1; c < b->nrm; c++) {
		const struct ri_numa *cr;

		if (b->w_parent[c] != w || !b->ns[c].n)
			continue;
		cr = numa_nearest(&b->ns[c], r->ts);
		for (int nid = 0; nid < nn; nid++)
			own[nid] -= cr->v[nid][l];
	}
	for (int nid = 0; nid < nn; nid++)
		if (own[nid] < 0)
			own[nid] = 0;
}

/* Each node's share of memcg w's list l as of ts; all on node 0 when it read empty. */
static void numa_shares(const struct wb *b, int w, int l, uint64_t ts, int nn, double *sh)
{
	const struct nsplit *x = &b->ns[w];
	size_t k = numa_at(x, ts);
	int64_t own[RS_SNAP_NODES], sum = 0, hsum = 0;

	numa_own(b, w, k, l, nn, own);
	for (int nid = 0; nid < nn; nid++) {
		sum += own[nid];
		hsum += x->s[k].v[nid][l];
	}
	for (int nid = 0; nid < nn; nid++)
		sh[nid] = sum > 0 ? (double)own[nid] / (double)sum
			: hsum > 0 ? (double)x->s[k].v[nid][l] / (double)hsum : nid == 0;
}

/*
 * Memcg w's own workingset counter k (ri_numa.ws) on each node between its reads a and z: its
 * subtree's increase less its children's, each child's between its reads nearest those.
 */
static void numa_ws_inc(const struct wb *b, int w, size_t a, size_t z, int k, int nn,
			int64_t *inc)
{
	const struct nsplit *x = &b->ns[w];

	for (int nid = 0; nid < nn; nid++)
		inc[nid] = x->s[z].ws[nid][k] - x->s[a].ws[nid][k];
	for (int c = 1; c < b->nrm; c++) {
		const struct ri_numa *ca, *cz;

		if (b->w_parent[c] != w || !b->ns[c].n)
			continue;
		ca = numa_nearest(&b->ns[c], x->s[a].ts);
		cz = numa_nearest(&b->ns[c], x->s[z].ts);
		for (int nid = 0; nid < nn; nid++)
			inc[nid] -= cz->ws[nid][k] - ca->ws[nid][k];
	}
	for (int nid = 0; nid < nn; nid++)
		if (inc[nid] < 0)
			inc[nid] = 0;
}

/*
 * Each node's share of memcg w's workingset counter k for a delta at ts: the counters only grow,
 * so the nodes whose counter grew between the reads around ts are where that interval's events
 * happened (one node's alone: all of them). An interval where none grew (the deltas came just
 * before a read and were flushed after it) takes the counters' totals at its end, else node 0.
 */
static void ws_shares(const struct wb *b, int w, int k, uint64_t ts, int nn, double *sh)
{
	const struct nsplit *x = &b->ns[w];
	/* the first read at or after ts */
	size_t z = ts ? RS_UPPER_BOUND(x->s, x->n, ts, ts - 1) : 0;
	int64_t inc[RS_SNAP_NODES] = { 0 }, sum = 0;

	if (z >= x->n)
		z = x->n - 1;
	if (!z && x->n > 1)
		z = 1;
	if (z)
		numa_ws_inc(b, w, z - 1, z, k, nn, inc);
	for (int nid = 0; nid < nn; nid++)
		sum += inc[nid];
	if (!sum)
		for (int nid = 0; nid < nn; nid++)
			sum += inc[nid] = x->s[z].ws[nid][k];
	for (int nid = 0; nid < nn; nid++)
		sh[nid] = sum > 0 ? (double)inc[nid] / (double)sum : nid == 0;
}

/*
 * a split by the shares into whole pages that add up to a: each node its share's floor, the
 * pages left to the largest remainders. With carry, each node's remainder goes into its next
 * split (a stream of one-page deltas lands on every node in proportion).
 */
static void ri_node_split(int64_t a, const double *sh, int nn, double *carry, int64_t *out)
{
	double q[RS_SNAP_NODES];
	int64_t left = a;

	for (int nid = 0; nid < nn; nid++) {
		q[nid] = (double)a * sh[nid] + (carry ? carry[nid] : 0);
		out[nid] = (int64_t)floor(q[nid]);
		left -= out[nid];
	}
	while (left) {
		int best = 0;

		for (int nid = 1; nid < nn; nid++)
			if (left > 0 ? q[nid] - (double)out[nid] > q[best] - (double)out[best]
				     : q[nid] - (double)out[nid] < q[best] - (double)out[best])
				best = nid;
		out[best] += left > 0 ? 1 : -1;
		left += left > 0 ? -1 : 1;
	}
	if (carry)
		for (int nid = 0; nid < nn; nid++)
			carry[nid] = q[nid] - (double)out[nid];
}

static int ns_emit(struct wb *b, const struct rs_world_update *t, int nid, int64_t v,
		   struct rs_error *err)
{
	struct rs_world_update u = *t;

	u.nid = nid;
	u.value = v;
	return rs_world_add_update(b->w, &u, err);
}

/*
 * The read's split of what the updates so far add up to, set on every node. A set, not an add:
 * an add the world clamped at 0 (a node's list emptied by a delta split by older shares) would
 * otherwise stay off by what it lost. At the read's time, or at the latest update already put
 * (a delta flushed with the read but stamped after it): the set must come after what it counts.
 */
static int ns_resplit(struct wb *b, int w, int l, int nn, struct rs_error *err)
{
	struct nsplit *x = &b->ns[w];
	struct rs_world_update t = { .ts = x->resplit_ts[l], .field = RS_WF_LRU,
				     .op = RS_WOP_SET, .src = RS_WSRC_SNAPSHOT, .lru = (uint8_t)l,
				     .memcg = w, .ev_offset = x->resplit_off[l] };
	int64_t sum = 0, tgt[RS_SNAP_NODES];
	double sh[RS_SNAP_NODES];

	x->resplit[l] = false;
	for (int nid = 0; nid < nn; nid++)
		sum += x->run[l][nid];
	numa_shares(b, w, l, t.ts, nn, sh);
	ri_node_split(sum, sh, nn, NULL, tgt);
	if (t.ts < x->last_ts[l])
		t.ts = x->last_ts[l];
	x->last_ts[l] = t.ts;
	for (int nid = 0; nid < nn; nid++) {
		x->carry[l][nid] = 0;
		x->run[l][nid] = tgt[nid];
		if (ns_emit(b, &t, nid, tgt[nid], err))
			return -1;
	}
	return 0;
}

/* A workingset counter's delta of world memcg u->memcg (node 0) put on every node. */
static int ns_put_ws(struct wb *b, const struct rs_world_update *u, int nn, struct rs_error *err)
{
	struct nsplit *x = &b->ns[u->memcg];
	int k = (u->field == RS_WF_WS_RESTORE ? 2 : 0) + (u->lru ? 1 : 0);
	int64_t out[RS_SNAP_NODES];
	double sh[RS_SNAP_NODES];

	ws_shares(b, u->memcg, k, u->ts, nn, sh);
	ri_node_split(u->value, sh, nn, x->wcarry[k], out);
	for (int nid = 0; nid < nn; nid++)
		if (out[nid] && ns_emit(b, u, nid, out[nid], err))
			return -1;
	return 0;
}

/* An LRU update of world memcg u->memcg (its size, node 0) put on every node. */
static int ns_put(struct wb *b, const struct rs_world_update *in, int nn, struct rs_error *err)
{
	struct nsplit *x = &b->ns[in->memcg];
	struct rs_world_update v = *in, *u = &v;
	int l = u->lru;
	int64_t out[RS_SNAP_NODES];
	double sh[RS_SNAP_NODES];

	if (x->resplit[l] && !(u->op == RS_WOP_ADD && u->src == RS_WSRC_SNAPSHOT &&
			       u->ts == x->resplit_ts[l]) && ns_resplit(b, u->memcg, l, nn, err))
		return -1;
	numa_shares(b, u->memcg, l, u->ts, nn, sh);
	/* after a re-split set at a later time: it would undo this update otherwise */
	if (u->ts < x->last_ts[l])
		u->ts = x->last_ts[l];
	x->last_ts[l] = u->ts;
	if (u->op == RS_WOP_SET) {
		ri_node_split(u->value, sh, nn, NULL, out);
		for (int nid = 0; nid < nn; nid++) {
			x->run[l][nid] = out[nid];
			x->carry[l][nid] = 0;
			if (ns_emit(b, u, nid, out[nid], err))
				return -1;
		}
		return 0;
	}
	ri_node_split(u->value, sh, nn, x->carry[l], out);
	for (int nid = 0; nid < nn; nid++) {
		x->run[l][nid] += out[nid];
		if (out[nid] && ns_emit(b, u, nid, out[nid], err))
			return -1;
	}
	return 0;
}

/*
 * Which world memcgs have their lists by node: two or more nodes (at most RS_SNAP_NODES), v2,
 * every read of theirs naming every node, and every child of theirs so too (its own lists are
 * its read less its children's). Their delta offsets split by their first read.
 */
static int ns_init(struct wb *b, int nn)
{
	struct rs_replay_input *ri = b->ri;
	uint32_t all = nn < 32 ? (1u << nn) - 1 : UINT32_MAX;
	bool changed = true;

	b->ns = calloc((size_t)b->nrm + 1, sizeof(*b->ns));
	if (!b->ns)
		return -1;
	if (nn < 2 || nn > RS_SNAP_NODES || ri->rep.cgroup_v1)
		return 0;
	for (int e = 0; e < ri->nmc; e++) {
		int w = b->w_of[e];
		struct nsplit *x;

		if (w <= 0 || w >= b->nrm)
			continue;
		x = &b->ns[w];
		x->sizes |= has_sizes(&ri->mc[e]);
		x->missing |= ri->mc[e].numa_missing > 0;
		for (size_t k = 0; k < ri->mc[e].nnuma; k++) {
			if (RS_GROW(x->s, x->cap, x->n + 1, 16) < 0)
				return -1;
			x->s[x->n++] = ri->mc[e].numa[k];
		}
	}
	for (int w = 1; w < b->nrm; w++) {
		struct nsplit *x = &b->ns[w];

		if (x->n)
			qsort(x->s, x->n, sizeof(*x->s), cmp_numa);
		x->ok = x->n > 0 && !x->missing;
		for (size_t k = 0; k < x->n; k++)
			if ((x->s[k].nodes & all) != all || (x->s[k].ws_nodes & all) != all)
				x->ok = false;
	}
	while (changed) {
		changed = false;
		for (int c = 1; c < b->nrm; c++) {
			int p = b->w_parent[c];

			if (p > 0 && p < b->nrm && b->ns[p].ok && !b->ns[c].ok &&
			    (b->ns[c].n || b->ns[c].sizes)) {
				b->ns[p].ok = false;
				changed = true;
			}
		}
	}
	b->ns_all = true;
	for (int w = 1; w < b->nrm; w++)
		if (b->ns[w].sizes && !b->ns[w].ok)
			b->ns_all = false;
	for (int e = 0; e < ri->nmc; e++) {
		int w = b->w_of[e];
		struct nsplit *x = w > 0 && w < b->nrm ? &b->ns[w] : NULL;

		if (!x || !x->ok || !(ri->mc[e].flags & RI_MF_DELTA))
			continue;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			double sh[RS_SNAP_NODES];
			int64_t out[RS_SNAP_NODES];

			numa_shares(b, w, l, 0, nn, sh);
			ri_node_split(b->offset[e][l], sh, nn, NULL, out);
			for (int nid = 0; nid < nn; nid++)
				x->off[l][nid] = x->run[l][nid] = out[nid];
		}
		x->have_off = true;
	}
	return 0;
}

/*
 * The root's own list l on node nid with every memcg's lists by node: the node's lists less
 * the subtree of each outermost memcg that has them, as its read nearest the node's (both are
 * read in one snapshot round, a few ms apart).
 */
static int64_t root_own_numa(const struct wb *b, const struct ri_root_upd *r, int l)
{
	int64_t v = r->node[l];

	for (int w = 1; w < b->nrm; w++) {
		int a = b->w_parent[w];

		if (!b->ns[w].ok)
			continue;
		while (a > 0 && !b->ns[a].ok)
			a = b->w_parent[a];
		if (a > 0)
			continue;	/* counted in its ancestor's subtree */
		v -= numa_nearest(&b->ns[w], r->ts)->v[r->nid][l];
	}
	return v;
}

static int add_updates(struct wb *b, int nr_nodes, struct rs_error *err)
{
	struct rs_replay_input *ri = b->ri;
	struct v2snaps *vs = NULL;
	int64_t *prefix, *own_const = NULL;
	uint32_t *pos;

	if (!ri->rep.cgroup_v1) {
		vs = b->v2 = calloc((size_t)b->nrm + 1, sizeof(*vs));
		if (!vs || v2_collect(b, vs))
			return rs_error_set(err, "out of memory");
		own_const = b->v2_own = v2_constant_own(b, vs);
		if (!own_const)
			return rs_error_set(err, "out of memory");
	}
	if (ns_init(b, nr_nodes))
		return rs_error_set(err, "out of memory");
	for (size_t i = 0; i < ri->nupd; i++) {
		struct rs_world_update u = ri->upd[i];
		int64_t raw;

		if (u.nid >= nr_nodes)
			continue;
		/*
		 * A memory.stat read flushes only when enough updates are pending: with the
		 * flush events in the trace they say which reads did (memcg_flush_stats
		 * before the read: needs_flush), and the read itself refreshes nothing. The
		 * 7.2 cgroup-children trace: /rs_parent's read 5 ms after its flush took the
		 * refaults of a reclaim in between as flushed, and the next call saw them as
		 * new and deactivated 924 active file pages the kernel left alone.
		 */
		if (u.field == RS_WF_WS_FLUSH && u.src == RS_WSRC_SNAPSHOT &&
		    ri->rep.flush_events)
			continue;
		if (u.memcg >= 0) {
			int e = u.memcg < ri->nmc ? u.memcg : -1;

			/*
			 * The root memcg's own lruvec deltas (a recording without --own-memcgs:
			 * every process of a guest is in the root) move its lists between two
			 * node_stat snapshots, which set them (node - tracked memcgs).
			 */
			if (e >= 0 && !b->w_of[e] && ri_memcg_is_root(ri, e) &&
			    u.field == RS_WF_LRU && u.src == RS_WSRC_DELTA && ri->nroot) {
				u.memcg = 0;
				if (rs_world_add_update(b->w, &u, err))
					return -1;
				continue;
			}
			/* a flush of the root (the periodic one) flushes every memcg */
			if (e >= 0 && !b->w_of[e] && ri_memcg_is_root(ri, e) &&
			    u.field == RS_WF_WS_FLUSH) {
				u.memcg = 0;
				if (rs_world_add_update(b->w, &u, err))
					return -1;
				continue;
			}
			if (e < 0 || !b->w_of[e])
				continue;	/* counted in the root: its own lists hold it */
			u.memcg = b->w_of[e];
			raw = u.value;
			if (vs && u.field == RS_WF_LRU && u.src == RS_WSRC_SNAPSHOT &&
			    u.op == RS_WOP_SET && u.memcg < b->nrm) {
				int64_t k = own_const[(size_t)u.memcg * RS_NR_EVICTABLE + u.lru];

				u.value = k >= 0 ? k : v2_own(b, vs, u.memcg, u.lru, u.ts, u.value);
			}
			/*
			 * memory.stat shows the stats as last flushed: what the kernel reads then
			 * (v2: the memcg's hierarchical counts, as read; v1: its own)
			 */
			if (u.field == RS_WF_LRU && u.src == RS_WSRC_SNAPSHOT &&
			    u.op == RS_WOP_SET) {
				struct rs_world_update st = u;

				st.field = RS_WF_LRU_STAT;
				if (vs)
					st.value = raw;
				if (b->ns[u.memcg].ok) {
					/* the subtree's per node, as numa_stat read them */
					const struct nsplit *x = &b->ns[u.memcg];
					const struct ri_numa *r = &x->s[numa_at(x, u.ts)];

					for (int nid = 0; nid < nr_nodes; nid++)
						if (ns_emit(b, &st, nid, r->ts == u.ts ?
							    r->v[nid][u.lru] : nid ? 0 : raw, err))
							return -1;
				} else if (rs_world_add_update(b->w, &st, err)) {
					return -1;
				}
			}
			if (u.field == RS_WF_LRU && u.src == RS_WSRC_SNAPSHOT &&
			    u.op == RS_WOP_SET && (ri->mc[e].flags & RI_MF_DELTA)) {
				struct nsplit *x = &b->ns[u.memcg];

				/* deltas; re-anchored by ADDs (anchor()), then split anew */
				if (x->ok) {
					if (x->resplit[u.lru] &&
					    ns_resplit(b, u.memcg, u.lru, nr_nodes, err))
						return -1;
					x->resplit[u.lru] = true;
					x->resplit_ts[u.lru] = u.ts;
					x->resplit_off[u.lru] = u.ev_offset;
				}
				continue;
			}
			if (u.field == RS_WF_LRU && u.nid == 0 && b->ns[u.memcg].ok) {
				if (ns_put(b, &u, nr_nodes, err))
					return -1;
				continue;
			}
			if ((u.field == RS_WF_WS_ACTIVATE || u.field == RS_WF_WS_RESTORE) &&
			    u.nid == 0 && b->ns[u.memcg].ok) {
				if (ns_put_ws(b, &u, nr_nodes, err))
					return -1;
				continue;
			}
		}
		if (rs_world_add_update(b->w, &u, err))
			return -1;
	}
	for (int w = 1; w < b->nrm; w++) {
		if (!b->ns[w].ok)
			continue;
		rs_world_set_node_lists(b->w, w);
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			if (b->ns[w].resplit[l] && ns_resplit(b, w, l, nr_nodes, err))
				return -1;
	}
	/* delta offsets, before every delta */
	for (int k = 0; k < b->nw; k++) {
		int e = b->order[k];

		if (!(ri->mc[e].flags & RI_MF_DELTA))
			continue;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			struct rs_world_update u = {
				.ts = 0, .field = RS_WF_LRU, .op = RS_WOP_SET,
				.src = (ri->mc[e].flags & RI_MF_MKDIR) ? RS_WSRC_CGROUP
								       : RS_WSRC_SNAPSHOT,
				.lru = (uint8_t)l, .memcg = b->w_of[e], .nid = 0,
				.value = b->offset[e][l],
				.ev_offset = (ri->mc[e].flags & RI_MF_MKDIR) ? ri->mc[e].mkdir_off
									    : ri->mc[e].snap.first_offset,
			};
			const struct nsplit *x = &b->ns[b->w_of[e]];

			if (x->ok) {
				for (int nid = 0; nid < nr_nodes; nid++)
					if (ns_emit(b, &u, nid, x->off[l][nid], err))
						return -1;
				continue;
			}
			if (rs_world_add_update(b->w, &u, err))
				return -1;
		}
	}
	/* online state */
	for (int k = 0; k < b->nw; k++) {
		const struct ri_memcg *m = &ri->mc[b->order[k]];
		struct rs_world_update u = { .field = RS_WF_ONLINE, .op = RS_WOP_SET,
					     .src = RS_WSRC_CGROUP, .memcg = b->w_of[b->order[k]],
					     .nid = -1 };

		if (m->flags & RI_MF_RMDIR) {
			u.ts = m->rmdir_ts;
			u.ev_offset = m->rmdir_off;
			u.value = 0;
			if (rs_world_add_update(b->w, &u, err))
				return -1;
		}
	}
	/* the root's own lists: node - tracked memcgs, their delta offsets subtracted now */
	prefix = calloc((ri->ndelta + 1) * RS_NR_EVICTABLE, sizeof(int64_t));
	pos = malloc(((size_t)ri->nmc + 1) * sizeof(*pos));
	if (!prefix || !pos) {
		free(prefix);
		free(pos);
		return rs_error_set(err, "out of memory");
	}
	for (int e = 0; e < ri->nmc; e++)
		pos[e] = UINT32_MAX;
	for (size_t j = 0; j < ri->ndelta; j++)
		pos[ri->delta_order[j]] = (uint32_t)j;
	for (size_t j = 0; j < ri->ndelta; j++)
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			prefix[(j + 1) * RS_NR_EVICTABLE + l] = prefix[j * RS_NR_EVICTABLE + l] +
							    b->offset[ri->delta_order[j]][l];
	for (size_t i = 0; i < ri->nroot; i++) {
		const struct ri_root_upd *r = &ri->root[i];

		if (r->nid >= nr_nodes)
			continue;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			int64_t v = b->ns_all && nr_nodes > 1 ? root_own_numa(b, r, l) :
				    (vs && !r->nid ? root_own_v2(b, r, pos, l) : r->raw[l]) -
				    (r->nid ? 0 : prefix[r->k * RS_NR_EVICTABLE + l]);
			struct rs_world_update u = {
				.ts = r->ts, .field = RS_WF_LRU, .op = RS_WOP_SET,
				.src = RS_WSRC_SNAPSHOT, .lru = (uint8_t)l, .memcg = 0,
				.nid = r->nid, .value = v, .ev_offset = r->off,
			};

			if (v < 0) {
				ri->rep.root_clamped++;
				u.value = 0;
			}
			if (rs_world_add_update(b->w, &u, err)) {
				free(prefix);
				free(pos);
				return -1;
			}
		}
		ri_source_note(&b->rm[0].node, &(struct rs_event){ .ts = r->ts, .offset = r->off });
	}
	free(prefix);
	free(pos);
	if (ri->rep.root_clamped)
		ri_warn(ri, "node_stat minus the tracked memcgs' lists went below 0 %llu times "
			"(snapshots are read a few ms apart): clamped to 0",
			(unsigned long long)ri->rep.root_clamped);
	/* swap */
	if (ri->rep.swap != RS_RI_SWAP_MARKER) {
		bool on = ri->rep.swap_anon_scanned || ri->rep.swap_anon_writes ||
			  ri->rep.swap_pswpout;
		struct rs_world_update u = { .ts = 0, .field = RS_WF_SWAP_FREE, .op = RS_WOP_SET,
					     .src = RS_WSRC_SYNTH, .memcg = -1, .nid = -1,
					     .value = on ? (int64_t)RS_RI_SWAP_UNKNOWN : 0 };

		ri->rep.swap = on ? RS_RI_SWAP_INFERRED : RS_RI_SWAP_OFF;
		if (rs_world_add_update(b->w, &u, err))
			return -1;
	}
	return 0;
}

/* World values over time per memcg, for the report (a rewind-and-advance pass). */
static void lru_ranges(struct wb *b)
{
	const struct rs_world_info *wi = rs_world_info(b->w);
	bool *seen = calloc((size_t)wi->nr_memcg, sizeof(bool));

	if (!seen)
		return;
	rs_world_rewind(b->w);
	for (size_t i = 0; i <= wi->nr_updates; i++) {
		const struct rs_world_update *u = rs_world_update_at(b->w, i);

		if (u)
			rs_world_advance(b->w, u->ts);
		if (u && u->field != RS_WF_LRU)
			continue;
		for (int m = 0; m < wi->nr_memcg && m < b->nrm; m++) {
			struct rs_ri_memcg *r = &b->rm[m];

			if (u && u->memcg != m)
				continue;
			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				uint64_t v = 0;

				for (int nid = 0; nid < wi->nr_nodes; nid++)
					v += rs_world_lru(b->w, m, nid, l);

				if (!seen[m])
					r->first_lru[l] = (int64_t)v;
				r->last_lru[l] = (int64_t)v;
				if (v > r->max_lru[l])
					r->max_lru[l] = v;
			}
			seen[m] = true;
		}
	}
	rs_world_rewind(b->w);
	free(seen);
}

static void set_refusal(struct rs_replay_input *ri)
{
	char buf[512];
	const struct rs_ri_report *r = &ri->rep;

	if (r->mglru && r->mglru_shape)
		snprintf(buf, sizeof(buf), "the recorded kernel ran MGLRU (told by the "
			 "trace: %s): the classic-LRU models (get_scan_count(), shrink_lruvec()) do "
			 "not describe it; record with /sys/kernel/mm/lru_gen/enabled at 0",
			 r->mglru_shape);
	else if (r->mglru)
		snprintf(buf, sizeof(buf), "the recorded kernel ran MGLRU (lru_gen "
			 "enabled=0x%04x in %s): the classic-LRU models (get_scan_count(), "
			 "shrink_lruvec()) do not describe it; record with "
			 "/sys/kernel/mm/lru_gen/enabled at 0",
			 r->mglru_mask, r->header ? r->header : "the header");
	else if (!r->memcg_snapshots && !r->node_snapshots && !r->delta_events)
		snprintf(buf, sizeof(buf), "no LRU sizes: the trace has no memcg_stat/node_stat "
			 "snapshots and no mod_memcg_lruvec_state deltas (record it with "
			 "`reclaimscope record`); sizes implied by lru_isolate alone cannot "
			 "reproduce the recording");
	else if (!r->world_calls)
		snprintf(buf, sizeof(buf), "no reclaim invocations in the trace: nothing to "
			 "replay");
	else
		return;
	ri->refusal = strdup(buf);
}

int ri_build_world(struct rs_replay_input *ri, struct rs_error *err)
{
	struct wb b = { .ri = ri };
	struct rs_world_opts wo;
	int ret = -1;

	ri_flush_deltas(ri);
	ri_calls_finish(ri);
	if (ri->oom)
		return rs_error_set(err, "replay input: out of memory");
	if (!ri->have_nodes) {
		ri->rep.nr_nodes = ri->max_nid + 1;
		ri->rep.nodes_assumed = ri->max_nid == 0;
	}
	if (!ri->have_cgroup_kind) {
		ri->rep.cgroup_v1 = ri->saw_soft;
		ri->rep.cgroup_src = ri->saw_soft ? "soft= in memcg_stat" : "assumed v2";
	}
	ri->rep.swappiness_assumed = !ri->have_swappiness;
	ri->rep.page_size = ri->page_size;
	if (ri->rep.lost)
		ri_warn(ri, "the ring buffer lost events: calls and sizes may miss some");

	/* compact_gap(): from the trace's own balance_pgdat runs, else its release */
	ri->rep.gap = rs_gap_choose(&ri->rep.gap_evidence, ri->kernel);
	wo = (struct rs_world_opts){ .nr_nodes = ri->rep.nr_nodes,
				     .vm_swappiness = ri->rep.vm_swappiness,
				     .cgroup_v1 = ri->rep.cgroup_v1, .mglru = ri->rep.mglru,
				     .compact_gap_uncapped = !ri->rep.gap.capped };
	b.w = rs_world_new(&wo, err);
	if (!b.w)
		return -1;
	/* every memcg row of the loading stage: the root's and its ancestors' too */
	if (ri->memcgs && rs_memcgs_count(ri->memcgs) > 0 &&
	    !ri_memcg_at(ri, rs_memcgs_count(ri->memcgs) - 1)) {
		rs_error_set(err, "out of memory");
		goto out;
	}
	b.offset = calloc((size_t)ri->nmc + 1, sizeof(*b.offset));
	if (!b.offset) {
		rs_error_set(err, "out of memory");
		goto out;
	}
	offsets(&b);
	if (add_memcgs(&b, err) || add_updates(&b, ri->rep.nr_nodes, err) ||
	    infer_wmark(&b, ri->rep.nr_nodes, err) || add_calls(&b, ri->rep.nr_nodes, err) ||
	    add_zone_samples(ri, b.w, err))
		goto out;
	if (rs_world_finalize(b.w, err))
		goto out;
	/* the root's lists are per node (node_stat less the memcgs'): only the memcgs' are not */
	if (rs_world_info(b.w)->node_lists_missing)
		ri_warn(ri, "%d nodes: memcg snapshots and lruvec deltas carry no node and are "
			"put on node 0 where the snapshot has no memory.numa_stat (numa_*)",
			ri->rep.nr_nodes);
	ri->rep.world_updates = rs_world_info(b.w)->nr_updates;
	ri->rep.world_obs = rs_world_info(b.w)->nr_obs;
	ri->rep.world_calls = rs_world_info(b.w)->nr_calls;
	lru_ranges(&b);
	ri->rep.memcg = b.rm;
	ri->rep.nr_memcg = b.nrm;
	b.rm = NULL;
	ri->world = b.w;
	b.w = NULL;
	set_refusal(ri);
	/* what is left of the stream state is not needed any more */
	for (size_t i = 0; i < ri->ncall; i++)
		ri_call_free(&ri->call[i]);
	RS_GROW_RELEASE(ri->call, ri->ncall, ri->capcall);
	RS_GROW_RELEASE(ri->upd, ri->nupd, ri->capupd);
	ret = 0;
out:
	rs_world_free(b.w);
	free(b.order);
	free(b.w_of);
	free(b.offset);
	free(b.rm);
	free(b.w_limit);
	free(b.w_id);
	if (b.v2)
		for (int i = 0; i <= b.nrm; i++)
			free(b.v2[i].s);
	free(b.v2);
	free(b.v2_own);
	if (b.ns)
		for (int i = 0; i <= b.nrm; i++)
			free(b.ns[i].s);
	free(b.ns);
	free(b.w_parent);
	free(b.w_depth);
	free(b.ml);
	free(b.mv);
	free(b.st);
	return ret;
}
