// SPDX-License-Identifier: GPL-2.0
/*
 * The replay world: a memcg tree, lruvecs, node and swap values that follow the recording
 * through time-ordered updates, the reclaimability each list showed, and the pressure (calls).
 *
 * Values are kept in flat arrays indexed by lruvec = memcg * nr_nodes + nid, allocated once at
 * rs_world_finalize() when the tree is complete. The clock only moves forward between
 * rs_world_rewind() calls, so applying updates is one pass over a sorted array per replay.
 */
#include <stdlib.h>
#include <string.h>

#include "kswapd_end.h"
#include "replay.h"
#include "rs_cmp.h"
#include "rs_grow.h"
#include "rs_search.h"
#include "zone_balance.h"

static bool is_active_list(int lru)
{
	return lru == RS_LRU_ACTIVE_ANON || lru == RS_LRU_ACTIVE_FILE;
}

static bool is_file_list(int lru)
{
	return lru >= RS_LRU_INACTIVE_FILE;
}

struct wmemcg {
	struct rs_memcg_info info;
	/* as the updates left it; st.swappiness the memcg's own, -1: not recorded */
	struct rs_memcg_state st;
	bool sizes;		/* RS_WF_LRU updates */
	bool node_lists;	/* rs_world_set_node_lists() */
};

struct wupdate {
	struct rs_world_update u;
	size_t seq;		/* insertion order: ties in ts keep it */
};

/* Summed observations of one list (inactive or active fields, by list). */
struct obs_sum {
	struct rs_scan_pages pages;
	uint64_t folio_w;	/* sum of folio x pages */
	/* two classes (rs_obs.folio_one): pages isolated, those in folios of folio_one pages */
	uint64_t one_pages, one_big;
	uint32_t folio_one;	/* 0: no window has two classes; UINT32_MAX: sizes differ */
};

/*
 * The flushed-stats view of one memcg after each instant that changed it (a stats flush of it
 * or of an ancestor, its memory.stat read), in time order: per node its list stats as
 * lruvec_page_state() reads them (hierarchical) and its subtree's workingset_activate, -1 where
 * no flush set it. A reclaim reads that view as of its own moment, which can be past the call's
 * start: a flush lands while a call runs, and a call's snapshot_refaults() is taken at its end.
 */
#define VIEW_W (RS_NR_EVICTABLE + 2)

struct wview {
	uint64_t *ts;
	int64_t *val;		/* [entry][nid][VIEW_W] */
	size_t n, cap;
};

/* One request size a window saw: rs_obs_req without the sizes it did not see. */
struct wreq {
	uint32_t q;		/* nr_requested - 1 */
	uint32_t isolates;
	uint64_t scanned;
};

struct rs_world {
	struct rs_world_opts opts;
	struct rs_world_info info;
	bool finalized;

	struct wmemcg *memcg;
	size_t cap_memcg;
	int *pre_to_memcg;

	struct wupdate *upd;
	size_t cap_upd, cursor;

	struct rs_obs *obs;
	size_t cap_obs;
	size_t *obs_start, *obs_count;	/* [lruvec][list] into obs, sorted by ts_start */
	struct rs_obs *pobs;		/* one-priority windows, sorted by cmp_pobs */
	size_t nr_pobs, cap_pobs;
	struct rs_obs_step *steps;	/* their shrinks (rs_obs.steps_at) */
	size_t nr_steps, cap_steps;
	struct wreq *req;		/* the request sizes windows saw (rs_obs.req_at) */
	size_t nr_req, cap_req;
	struct obs_sum *node_sum;	/* [nid][list] */
	struct obs_sum all_sum[RS_NR_EVICTABLE];

	struct rs_reclaim_call *calls;
	size_t cap_calls;

	struct rs_zone_sample *zs;	/* by node, then time (sorted at finalize) */
	size_t cap_zs;
	size_t *zs_start;		/* [nid + 1]: node nid's samples are zs[start[nid]..] */

	/* current values */
	uint64_t now, generation;
	int64_t *lru;			/* [lruvec][list] */
	int64_t *stat;			/* [lruvec][list] own flushed list stats; -1 unset */
	int64_t *hstat;			/* [lruvec][list] hierarchical (v2); -1 unset */
	int64_t *ws;			/* [lruvec][2 fields][2 types] */
	int64_t *wsf;			/* [lruvec][2 types] flushed subtree activate, -1 unset */
	struct wview *view;		/* [memcg]: stat and wsf through time (built once) */
	struct rs_node_state *node;	/* [nid] */
	uint64_t swap_free;
};

const char rs_replay_open_loop_caveat[] =
	"open-loop replay: list sizes follow the recording between invocations and pages reclaimed "
	"= pages scanned x the reclaimability the recording observed; refaults and IO the "
	"alternative policy would have caused are not in the trace";

static const char *const wfield_names[RS_WF_NR] = {
	[RS_WF_LRU] = "lru", [RS_WF_USAGE] = "usage", [RS_WF_LIMIT] = "limit",
	[RS_WF_SOFT_LIMIT] = "soft_limit", [RS_WF_SWAPPINESS] = "swappiness",
	[RS_WF_ONLINE] = "online", [RS_WF_WS_ACTIVATE] = "workingset_activate",
	[RS_WF_WS_RESTORE] = "workingset_restore", [RS_WF_NODE_FREE] = "node_free",
	[RS_WF_NODE_WMARK_HIGH] = "node_wmark_high", [RS_WF_NODE_MANAGED] = "node_managed",
	[RS_WF_SWAP_FREE] = "swap_free", [RS_WF_LRU_STAT] = "lru_stat",
	[RS_WF_WS_FLUSH] = "stats_flush", [RS_WF_MEMORY_MIN] = "memory_min",
	[RS_WF_MEMORY_LOW] = "memory_low", [RS_WF_SWAP_MAX] = "swap_max",
	[RS_WF_SWAP_USAGE] = "swap_usage",
};

static const char *const wsrc_names[RS_WSRC_NR] = {
	[RS_WSRC_SNAPSHOT] = "snapshot", [RS_WSRC_DELTA] = "delta", [RS_WSRC_IMPLIED] = "implied",
	[RS_WSRC_CGROUP] = "cgroup", [RS_WSRC_HEADER] = "header", [RS_WSRC_SYNTH] = "synthetic",
};

static const char *const ctx_names[RS_CALL_NR] = {
	[RS_CALL_KSWAPD] = "kswapd", [RS_CALL_DIRECT] = "direct", [RS_CALL_MEMCG] = "memcg",
	[RS_CALL_NODE] = "node",
};

static const char *const rate_src_names[RS_RATE_SRC_NR] = {
	[RS_RATE_WINDOW] = "window", [RS_RATE_NODE_LIST] = "node-list",
	[RS_RATE_ALL_LIST] = "all-lists", [RS_RATE_ASSUMED] = "assumed",
};

const char *rs_wfield_name(enum rs_wfield f)
{
	return f < RS_WF_NR ? wfield_names[f] : "?";
}

const char *rs_wsrc_name(enum rs_wsrc s)
{
	return s < RS_WSRC_NR ? wsrc_names[s] : "?";
}

const char *rs_call_ctx_name(enum rs_call_ctx c)
{
	return c < RS_CALL_NR ? ctx_names[c] : "?";
}

const char *rs_rate_src_name(enum rs_rate_src s)
{
	return s < RS_RATE_SRC_NR ? rate_src_names[s] : "?";
}

static int grow(void **p, size_t *cap, size_t need, size_t elem, struct rs_error *err)
{
	return rs_grow(p, cap, need, elem, 16, 0) ? rs_error_set(err, "out of memory") : 0;
}

struct rs_world *rs_world_new(const struct rs_world_opts *opts, struct rs_error *err)
{
	struct rs_world *w;

	if (!opts || opts->nr_nodes < 1 || opts->nr_nodes > 1024) {
		rs_error_set(err, "world: nr_nodes must be 1..1024");
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	w->opts = *opts;
	w->info.nr_nodes = opts->nr_nodes;
	w->info.vm_swappiness = opts->vm_swappiness;
	w->info.cgroup_v1 = opts->cgroup_v1;
	w->info.mglru = opts->mglru;
	w->info.compact_gap_uncapped = opts->compact_gap_uncapped;
	return w;
}

void rs_world_free(struct rs_world *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->info.nr_memcg; i++)
		free((char *)w->memcg[i].info.path);
	for (size_t i = 0; i < w->info.nr_calls; i++) {
		free((void *)w->calls[i].rec.memcg);
		free((void *)w->calls[i].rec.isolate_ts);
		free((void *)w->calls[i].rec.inflight);
		free((void *)w->calls[i].rec.checks);
	}
	free(w->zs);
	free(w->zs_start);
	free(w->memcg);
	free(w->pre_to_memcg);
	free(w->upd);
	free(w->obs);
	free(w->pobs);
	free(w->steps);
	free(w->req);
	free(w->obs_start);
	free(w->obs_count);
	free(w->node_sum);
	free(w->calls);
	free(w->lru);
	free(w->stat);
	free(w->hstat);
	free(w->ws);
	free(w->wsf);
	for (int i = 0; w->view && i < w->info.nr_memcg; i++) {
		free(w->view[i].ts);
		free(w->view[i].val);
	}
	free(w->view);
	free(w->node);
	free(w);
}

static int check_open(struct rs_world *w, struct rs_error *err)
{
	if (w->finalized)
		return rs_error_set(err, "world: already finalized");
	return 0;
}

int rs_world_add_memcg(struct rs_world *w, const struct rs_memcg_desc *d, struct rs_error *err)
{
	struct wmemcg *m;
	int idx = w->info.nr_memcg;

	if (check_open(w, err))
		return -1;
	if (idx == 0 && d->parent != -1)
		return rs_error_set(err, "world: the first memcg must be the root (parent -1)");
	if (idx > 0 && (d->parent < 0 || d->parent >= idx))
		return rs_error_set(err, "world: memcg %s: parent %d must be added before it",
				    d->path ? d->path : "?", d->parent);
	if (grow((void **)&w->memcg, &w->cap_memcg, (size_t)idx + 1, sizeof(*w->memcg), err))
		return -1;
	m = &w->memcg[idx];
	memset(m, 0, sizeof(*m));
	m->info.id = d->id;
	m->info.path = strdup(d->path ? d->path : "?");
	if (!m->info.path)
		return rs_error_set(err, "out of memory");
	m->info.parent = d->parent;
	m->info.depth = idx ? w->memcg[d->parent].info.depth + 1 : 0;
	w->info.nr_memcg++;
	return idx;
}

static bool field_per_lruvec(int f)
{
	return f == RS_WF_LRU || f == RS_WF_WS_ACTIVATE || f == RS_WF_WS_RESTORE ||
	       f == RS_WF_LRU_STAT;
}

static bool field_per_memcg(int f)
{
	return (f >= RS_WF_USAGE && f <= RS_WF_ONLINE) || f == RS_WF_WS_FLUSH ||
	       (f >= RS_WF_MEMORY_MIN && f <= RS_WF_SWAP_USAGE);
}

static bool field_per_node(int f)
{
	return f >= RS_WF_NODE_FREE && f <= RS_WF_NODE_MANAGED;
}

int rs_world_add_update(struct rs_world *w, const struct rs_world_update *u, struct rs_error *err)
{
	size_t n = w->info.nr_updates;

	if (check_open(w, err))
		return -1;
	if (u->field >= RS_WF_NR || u->op > RS_WOP_ADD || u->src >= RS_WSRC_NR)
		return rs_error_set(err, "world: bad update (field %u op %u src %u)", u->field,
				    u->op, u->src);
	if (u->op == RS_WOP_ADD && (u->field == RS_WF_LIMIT || u->field == RS_WF_SOFT_LIMIT ||
				    u->field == RS_WF_SWAPPINESS || u->field == RS_WF_ONLINE ||
				    u->field == RS_WF_NODE_WMARK_HIGH ||
				    u->field == RS_WF_NODE_MANAGED ||
				    u->field == RS_WF_LRU_STAT || u->field == RS_WF_MEMORY_MIN ||
				    u->field == RS_WF_MEMORY_LOW || u->field == RS_WF_SWAP_MAX))
		return rs_error_set(err, "world: %s can only be set", rs_wfield_name(u->field));
	if ((field_per_lruvec(u->field) || field_per_node(u->field)) &&
	    (u->nid < 0 || u->nid >= w->info.nr_nodes))
		return rs_error_set(err, "world: %s update for node %d of %d",
				    rs_wfield_name(u->field), u->nid, w->info.nr_nodes);
	if ((field_per_lruvec(u->field) || field_per_memcg(u->field)) && u->memcg < 0)
		return rs_error_set(err, "world: %s update without a memcg",
				    rs_wfield_name(u->field));
	if ((u->field == RS_WF_LRU || u->field == RS_WF_LRU_STAT) && u->lru >= RS_NR_EVICTABLE)
		return rs_error_set(err, "world: lru %u is not an evictable list", u->lru);
	if ((u->field == RS_WF_WS_ACTIVATE || u->field == RS_WF_WS_RESTORE) && u->lru > 1)
		return rs_error_set(err, "world: workingset type %u is not 0 (anon) or 1 (file)",
				    u->lru);
	if (grow((void **)&w->upd, &w->cap_upd, n + 1, sizeof(*w->upd), err))
		return -1;
	w->upd[n].u = *u;
	w->upd[n].seq = n;
	w->info.nr_updates++;
	if (u->field == RS_WF_LRU)
		w->info.have_sizes = true;
	if (u->field == RS_WF_LRU && u->memcg > 0)
		w->info.memcg_sizes = true;
	if (u->field == RS_WF_WS_ACTIVATE || u->field == RS_WF_WS_RESTORE)
		w->info.have_refaults = true;
	if (u->field == RS_WF_WS_FLUSH)
		w->info.have_ws_flush = true;
	return 0;
}

/*
 * The world's copy of window o's request histogram into its pool, and d (the stored window) at
 * it. Sizes without isolates are left out: no reader looks at their pages scanned.
 */
static int keep_req(struct rs_world *w, struct rs_obs *d, const struct rs_obs *o,
		    struct rs_error *err)
{
	uint32_t n = 0;

	d->req = NULL;
	d->req_at = w->nr_req;
	d->nreq = 0;
	if (!o->req)
		return 0;
	for (int q = 0; q < RS_SWAP_CLUSTER_MAX; q++)
		n += o->req->isolates[q] != 0;
	if (!n)
		return 0;
	if (grow((void **)&w->req, &w->cap_req, w->nr_req + n, sizeof(*w->req), err))
		return -1;
	for (int q = 0; q < RS_SWAP_CLUSTER_MAX; q++)
		if (o->req->isolates[q])
			w->req[w->nr_req++] = (struct wreq){ .q = (uint32_t)q,
							     .isolates = o->req->isolates[q],
							     .scanned = o->req->scanned[q] };
	d->nreq = n;
	return 0;
}

int rs_world_add_obs(struct rs_world *w, const struct rs_obs *o, struct rs_error *err)
{
	size_t n = w->info.nr_obs;

	if (check_open(w, err))
		return -1;
	if (o->nid < 0 || o->nid >= w->info.nr_nodes || o->lru < 0 || o->lru >= RS_NR_EVICTABLE ||
	    o->memcg < 0)
		return rs_error_set(err, "world: observation for memcg %d node %d lru %d",
				    o->memcg, o->nid, o->lru);
	if (o->one_prio) {
		if (o->prio < 0 || o->prio > RS_DEF_PRIORITY)
			return rs_error_set(err, "world: observation at priority %d", o->prio);
		if (grow((void **)&w->pobs, &w->cap_pobs, w->nr_pobs + 1, sizeof(*w->pobs), err))
			return -1;
		w->pobs[w->nr_pobs] = *o;
		if (keep_req(w, &w->pobs[w->nr_pobs], o, err))
			return -1;
		w->pobs[w->nr_pobs].steps = NULL;
		w->pobs[w->nr_pobs].nsteps = 0;
		if (o->steps && o->nsteps && !is_active_list(o->lru)) {
			if (grow((void **)&w->steps, &w->cap_steps, w->nr_steps + o->nsteps,
				 sizeof(*w->steps), err))
				return -1;
			memcpy(&w->steps[w->nr_steps], o->steps, o->nsteps * sizeof(*o->steps));
			w->pobs[w->nr_pobs].steps_at = w->nr_steps;
			w->pobs[w->nr_pobs].nsteps = o->nsteps;
			w->nr_steps += o->nsteps;
		}
		w->nr_pobs++;
		return 0;
	}
	if (grow((void **)&w->obs, &w->cap_obs, n + 1, sizeof(*w->obs), err))
		return -1;
	w->obs[n] = *o;
	if (keep_req(w, &w->obs[n], o, err))
		return -1;
	w->info.nr_obs++;
	return 0;
}

/* The world's own copy of a call's recorded array: NULL for none; *ok false when out of memory. */
static void *dup_rec(const void *src, size_t n, size_t size, bool *ok)
{
	void *p;

	if (!n)
		return NULL;
	p = malloc(n * size);
	if (!p) {
		*ok = false;
		return NULL;
	}
	return memcpy(p, src, n * size);
}

int rs_world_add_call(struct rs_world *w, const struct rs_reclaim_call *c, struct rs_error *err)
{
	size_t n = w->info.nr_calls;
	struct rs_reclaim_call *dst;
	bool ok = true;

	if (check_open(w, err))
		return -1;
	if (c->ctx >= RS_CALL_NR)
		return rs_error_set(err, "world: bad call context %d", c->ctx);
	if (c->nid >= w->info.nr_nodes || c->nid < -1)
		return rs_error_set(err, "world: call on node %d of %d", c->nid, w->info.nr_nodes);
	if ((c->ctx == RS_CALL_KSWAPD || c->ctx == RS_CALL_NODE) && c->nid < 0)
		return rs_error_set(err, "world: %s call without a node", rs_call_ctx_name(c->ctx));
	if (c->ctx == RS_CALL_MEMCG && c->target < 0)
		return rs_error_set(err, "world: memcg call without a target memcg");
	if (grow((void **)&w->calls, &w->cap_calls, n + 1, sizeof(*w->calls), err))
		return -1;
	dst = &w->calls[n];
	*dst = *c;
	dst->rec.memcg = dup_rec(c->rec.memcg, c->rec.nr_memcg, sizeof(*c->rec.memcg), &ok);
	dst->rec.isolate_ts = dup_rec(c->rec.isolate_ts, c->rec.nr_isolate,
				      sizeof(*c->rec.isolate_ts), &ok);
	dst->rec.checks = dup_rec(c->rec.checks, c->rec.nr_checks, sizeof(*c->rec.checks), &ok);
	dst->rec.inflight = dup_rec(c->rec.inflight, c->rec.nr_inflight, sizeof(*c->rec.inflight),
				    &ok);
	if (!ok) {
		free((void *)dst->rec.memcg);
		free((void *)dst->rec.isolate_ts);
		free((void *)dst->rec.checks);
		free((void *)dst->rec.inflight);
		dst->rec.memcg = NULL;
		dst->rec.isolate_ts = NULL;
		dst->rec.checks = NULL;
		dst->rec.inflight = NULL;
		return rs_error_set(err, "out of memory");
	}
	w->info.nr_calls++;
	return 0;
}

int rs_world_add_zone_sample(struct rs_world *w, const struct rs_zone_sample *zs,
			     struct rs_error *err)
{
	size_t n = w->info.nr_zone_samples;

	if (check_open(w, err))
		return -1;
	if (zs->nid < 0 || zs->nid >= w->info.nr_nodes)
		return rs_error_set(err, "world: zone sample of node %d of %d", zs->nid,
				    w->info.nr_nodes);
	if (zs->nr_zones < 0 || zs->nr_zones > RS_ZONE_MAX)
		return rs_error_set(err, "world: zone sample with %d zones", zs->nr_zones);
	if (grow((void **)&w->zs, &w->cap_zs, n + 1, sizeof(*w->zs), err))
		return -1;
	w->zs[n] = *zs;
	w->info.nr_zone_samples++;
	return 0;
}

static int cmp_zs(const void *a, const void *b)
{
	const struct rs_zone_sample *x = a, *y = b;

	return RS_CMP(x->nid, y->nid) ?: RS_CMP(x->ts, y->ts);
}

/* Samples by node and time; a stable order for equal times is not needed (one per moment). */
static int finalize_zone_samples(struct rs_world *w, struct rs_error *err)
{
	size_t n = w->info.nr_zone_samples;

	w->zs_start = calloc((size_t)w->info.nr_nodes + 1, sizeof(*w->zs_start));
	if (!w->zs_start)
		return rs_error_set(err, "out of memory");
	if (n)
		qsort(w->zs, n, sizeof(*w->zs), cmp_zs);
	for (int nid = 0, i = 0; nid <= w->info.nr_nodes; nid++) {
		while ((size_t)i < n && w->zs[i].nid < nid)
			i++;
		w->zs_start[nid] = (size_t)i;
	}
	return 0;
}

const struct rs_zone_sample *rs_world_zone_samples(const struct rs_world *w, int nid, size_t *n)
{
	*n = 0;
	if (!w->zs_start || nid < 0 || nid >= w->info.nr_nodes)
		return NULL;
	*n = w->zs_start[nid + 1] - w->zs_start[nid];
	return *n ? &w->zs[w->zs_start[nid]] : NULL;
}

static int cmp_upd(const void *a, const void *b)
{
	const struct wupdate *x = a, *y = b;

	return RS_CMP(x->u.ts, y->u.ts) ?: RS_CMP(x->seq, y->seq);
}

static int cmp_obs(const void *a, const void *b)
{
	const struct rs_obs *x = a, *y = b;

	return RS_CMP(x->memcg, y->memcg) ?: RS_CMP(x->nid, y->nid) ?: RS_CMP(x->lru, y->lru) ?:
	       RS_CMP(x->ts_start, y->ts_start);
}

/* One-priority windows: by list and call (ts_start, ts_end), then priority. */
static int cmp_pobs(const void *a, const void *b)
{
	const struct rs_obs *x = a, *y = b;

	return cmp_obs(a, b) ?: RS_CMP(x->ts_end, y->ts_end) ?: RS_CMP(x->prio, y->prio);
}

static void sort_calls(struct rs_world *w)
{
	/* insertion sort keeps equal timestamps in order; calls arrive almost sorted */
	for (size_t i = 1; i < w->info.nr_calls; i++) {
		struct rs_reclaim_call c = w->calls[i];
		size_t j = i;

		while (j > 0 && w->calls[j - 1].ts > c.ts) {
			w->calls[j] = w->calls[j - 1];
			j--;
		}
		w->calls[j] = c;
	}
}

void rs_scan_pages_add(struct rs_scan_pages *sum, const struct rs_scan_pages *p)
{
	sum->scanned += p->scanned;
	sum->reclaimed += p->reclaimed;
	sum->activated += p->activated;
	sum->pageout += p->pageout;
	sum->taken += p->taken;
	sum->deactivated += p->deactivated;
	sum->referenced += p->referenced;
}

/* The pages a scan of list lru went through: taken from an active list, scanned on another. */
static uint64_t pages_seen(const struct rs_scan_pages *p, int lru)
{
	return is_active_list(lru) ? p->taken : p->scanned;
}

static bool obs_counts(const struct rs_obs *o)
{
	return pages_seen(&o->pages, o->lru) > 0;
}

static void sum_obs(struct obs_sum *s, const struct rs_obs *o)
{
	rs_scan_pages_add(&s->pages, &o->pages);
	s->folio_w += (uint64_t)(o->folio ? o->folio : 1) * pages_seen(&o->pages, o->lru);
	if (o->folio_one > 1) {
		s->one_pages += o->folio_scanned;
		s->one_big += o->folio_big;
		s->folio_one = !s->folio_one || s->folio_one == o->folio_one ? o->folio_one
									   : UINT32_MAX;
	} else if (o->folio > 1) {
		s->folio_one = UINT32_MAX;	/* a window of multi-page folios only */
	}
}

/* Pre-order with children in index (= creation) order, as css_next_descendant_pre() walks. */
static int build_preorder(struct rs_world *w, struct rs_error *err)
{
	int ret = -1;
	int n = w->info.nr_memcg, pos = 0;
	int *next_child = calloc((size_t)n, sizeof(int));
	int *first = calloc((size_t)n, sizeof(int)), *sib = calloc((size_t)n, sizeof(int));
	int *st = calloc((size_t)n + 1, sizeof(int));
	int top = 0;

	if (!next_child || !first || !sib || !st) {
		rs_error_set(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++)
		first[i] = sib[i] = -1;
	/* children lists in creation order: walk backwards, push to the front */
	for (int i = n - 1; i > 0; i--) {
		int p = w->memcg[i].info.parent;

		sib[i] = first[p];
		first[p] = i;
	}
	st[top++] = 0;
	while (top) {
		int m = st[--top];

		w->memcg[m].info.pre = pos;
		w->pre_to_memcg[pos++] = m;
		/* push children so the first child is popped first */
		{
			int cnt = 0;

			for (int c = first[m]; c >= 0; c = sib[c])
				next_child[cnt++] = c;
			while (cnt)
				st[top++] = next_child[--cnt];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		int m = w->pre_to_memcg[i];
		int end = i + 1;

		for (int c = first[m]; c >= 0; c = sib[c])
			if (w->memcg[c].info.pre_end > end)
				end = w->memcg[c].info.pre_end;
		w->memcg[m].info.pre_end = end;
	}
	ret = 0;
out:
	free(next_child);
	free(first);
	free(sib);
	free(st);
	return ret;
}

static int build_views(struct rs_world *w, struct rs_error *err);

int rs_world_finalize(struct rs_world *w, struct rs_error *err)
{
	int nm, nn = w->info.nr_nodes;
	size_t nlv;

	if (check_open(w, err))
		return -1;
	if (w->info.nr_memcg == 0) {
		struct rs_memcg_desc root = { .id = 0, .path = "/", .parent = -1 };

		if (rs_world_add_memcg(w, &root, err) < 0)
			return -1;
	}
	nm = w->info.nr_memcg;
	nlv = (size_t)nm * (size_t)nn;
	for (size_t i = 0; i < w->info.nr_updates; i++) {
		const struct rs_world_update *u = &w->upd[i].u;

		if (u->memcg >= nm)
			return rs_error_set(err, "world: update for memcg %d of %d", u->memcg, nm);
		if (u->field == RS_WF_LRU && u->memcg > 0)
			w->memcg[u->memcg].sizes = true;
	}
	/* a memcg's lists with no node named: every node's lruvec but node 0's is unknown */
	for (int m = 1; m < nm && nn > 1; m++)
		if (w->memcg[m].sizes && !w->memcg[m].node_lists)
			w->info.node_lists_missing = true;
	for (size_t i = 0; i < w->info.nr_obs; i++)
		if (w->obs[i].memcg >= nm)
			return rs_error_set(err, "world: observation for memcg %d of %d",
					    w->obs[i].memcg, nm);
	for (size_t i = 0; i < w->nr_pobs; i++)
		if (w->pobs[i].memcg >= nm)
			return rs_error_set(err, "world: observation for memcg %d of %d",
					    w->pobs[i].memcg, nm);
	for (size_t i = 0; i < w->info.nr_calls; i++) {
		const struct rs_reclaim_call *c = &w->calls[i];

		if (c->target >= nm)
			return rs_error_set(err, "world: call for memcg %d of %d", c->target, nm);
		for (size_t j = 0; j < c->rec.nr_memcg; j++)
			if (c->rec.memcg[j].memcg < 0 || c->rec.memcg[j].memcg >= nm)
				return rs_error_set(err, "world: recorded memcg %d of %d",
						    c->rec.memcg[j].memcg, nm);
	}

	w->pre_to_memcg = calloc((size_t)nm, sizeof(int));
	w->obs_start = calloc(nlv * RS_NR_EVICTABLE, sizeof(size_t));
	w->obs_count = calloc(nlv * RS_NR_EVICTABLE, sizeof(size_t));
	w->node_sum = calloc((size_t)nn * RS_NR_EVICTABLE, sizeof(*w->node_sum));
	w->lru = calloc(nlv * RS_NR_EVICTABLE, sizeof(int64_t));
	w->stat = calloc(nlv * RS_NR_EVICTABLE, sizeof(int64_t));
	w->hstat = calloc(nlv * RS_NR_EVICTABLE, sizeof(int64_t));
	w->ws = calloc(nlv * 4, sizeof(int64_t));
	w->wsf = calloc(nlv * 2, sizeof(int64_t));
	w->node = calloc((size_t)nn, sizeof(*w->node));
	w->view = calloc((size_t)nm, sizeof(*w->view));
	if (!w->pre_to_memcg || !w->obs_start || !w->obs_count || !w->node_sum || !w->lru ||
	    !w->stat || !w->hstat || !w->ws || !w->wsf || !w->node || !w->view)
		return rs_error_set(err, "out of memory");
	if (build_preorder(w, err) || finalize_zone_samples(w, err))
		return -1;

	if (w->info.nr_updates)
		qsort(w->upd, w->info.nr_updates, sizeof(*w->upd), cmp_upd);
	sort_calls(w);

	/* keep only observations that saw pages, sorted per list by time */
	{
		size_t k = 0;

		for (size_t i = 0; i < w->info.nr_obs; i++)
			if (obs_counts(&w->obs[i]))
				w->obs[k++] = w->obs[i];
		w->info.nr_obs = k;
	}
	if (w->info.nr_obs)
		qsort(w->obs, w->info.nr_obs, sizeof(*w->obs), cmp_obs);
	{
		size_t k = 0;

		for (size_t i = 0; i < w->nr_pobs; i++)
			if (obs_counts(&w->pobs[i]))
				w->pobs[k++] = w->pobs[i];
		w->nr_pobs = k;
	}
	if (w->nr_pobs)
		qsort(w->pobs, w->nr_pobs, sizeof(*w->pobs), cmp_pobs);
	for (size_t i = 0; i < w->info.nr_obs; i++) {
		const struct rs_obs *o = &w->obs[i];
		size_t idx = ((size_t)o->memcg * nn + o->nid) * RS_NR_EVICTABLE + o->lru;

		if (!w->obs_count[idx])
			w->obs_start[idx] = i;
		w->obs_count[idx]++;
		sum_obs(&w->node_sum[o->nid * RS_NR_EVICTABLE + o->lru], o);
		sum_obs(&w->all_sum[o->lru], o);
	}
	w->finalized = true;
	if (build_views(w, err))
		return -1;
	rs_world_rewind(w);
	return 0;
}

const struct rs_world_info *rs_world_info(const struct rs_world *w)
{
	return &w->info;
}

const struct rs_memcg_info *rs_world_memcg(const struct rs_world *w, int memcg)
{
	return &w->memcg[memcg].info;
}

int rs_world_memcg_at(const struct rs_world *w, int pre)
{
	return w->pre_to_memcg[pre];
}

int rs_world_find_memcg(const struct rs_world *w, uint64_t id)
{
	for (int i = 0; i < w->info.nr_memcg; i++)
		if (w->memcg[i].info.id == id)
			return i;
	return -1;
}

const struct rs_reclaim_call *rs_world_call(const struct rs_world *w, size_t i)
{
	return i < w->info.nr_calls ? &w->calls[i] : NULL;
}

const struct rs_world_update *rs_world_update_at(const struct rs_world *w, size_t i)
{
	return i < w->info.nr_updates ? &w->upd[i].u : NULL;
}

void rs_world_set_node_lists(struct rs_world *w, int memcg)
{
	if (memcg > 0 && memcg < w->info.nr_memcg)
		w->memcg[memcg].node_lists = true;
}

static size_t lv(const struct rs_world *w, int memcg, int nid)
{
	return (size_t)memcg * (size_t)w->info.nr_nodes + (size_t)nid;
}

static const char *const gap_names[RS_GAP_NR] = {
	[RS_GAP_WMARK] = "watermarks", [RS_GAP_SIZES] = "lruvec deltas",
	[RS_GAP_SOFT_TREE] = "soft-limit tree", [RS_GAP_KSWAPD_END] = "zone free pages",
	[RS_GAP_PROACTIVE] = "memory.reclaim request", [RS_GAP_NODE_LISTS] = "per-node memcg lists",
	[RS_GAP_NODEMASK] = "allowed nodes",
	[RS_GAP_ISOLATED] = "isolated pages",
	[RS_GAP_PROTECTION] = "memory.low/min", [RS_GAP_SWAP_MAX] = "memory.swap.max",
	[RS_GAP_ZONE_LISTS] = "per-zone lists",
};

static const char *const gap_missing[RS_GAP_NR] = {
	[RS_GAP_WMARK] = "node_stat wmark_min/low/high (and the boost): kswapd's nr_to_reclaim per "
			 "pass and when pgdat_balanced() ends a run",
	[RS_GAP_SIZES] = "memcg:mod_memcg_lruvec_state (LRU items): every lruvec's size at each "
			 "call, which every reclaim context scans >> priority; the sizes come from "
			 "snapshots alone",
	[RS_GAP_SOFT_TREE] = "the soft-limit RB tree's keys: memcg1_update_tree() refreshes a "
			     "memcg's excess every 1,024 charge events per CPU; no event shows "
			     "them",
	[RS_GAP_KSWAPD_END] = "each zone's free pages at kswapd's checks: pgdat_balanced() on the "
			      "zone_stat samples around them ends these runs before the recording "
			      "did (a sample at each kswapd wake and sleep would place them)",
	[RS_GAP_PROACTIVE] = "the amount written to memory.reclaim, which sets each call's "
			     "nr_to_reclaim: the kernel's loop asks each try_to_free_mem_cgroup_pages() "
			     "call for a share of what remains of it, so a call's goal follows what "
			     "the earlier calls of the same write freed",
	[RS_GAP_NODE_LISTS] = "each memcg's LRU sizes per node (memory.numa_stat, which record "
			      "writes as memcg_numa on cgroup v2; memory.stat and "
			      "mod_memcg_lruvec_state carry no node): every reclaim context scans "
			      "each node's lruvec >> priority, and the replay holds the lists of a "
			      "memcg without them on node 0",
	[RS_GAP_NODEMASK] = "the nodes a direct reclaim's allocation may use (its mempolicy nodemask, "
			    "cpuset) and which zones compaction_ready() skipped: the recorded call "
			    "shrank fewer nodes than the machine has, while the replay's "
			    "shrink_zones() walks every node of the zonelist",
	[RS_GAP_ISOLATED] = "the node's isolated and inactive pages at each batch: "
			    "too_many_isolated() made shrink_inactive_list() give batches of these "
			    "calls up after a throttle (mm_vmscan_throttled ISOLATED, no lru_isolate "
			    "after it); which of a model's batches it would refuse follows counts no "
			    "event carries",
	[RS_GAP_PROTECTION] = "each protected memcg's usage at every visit, and a model of "
			      "protection: memory.min/memory.low is set below these calls' reclaim "
			      "root (memcg_stat min=/low=), and mem_cgroup_calculate_protection() "
			      "skips a memcg below it or scans it in proportion above it "
			      "(get_scan_count()) from usage the snapshots give every interval "
			      "only; the models scan it unprotected",
	[RS_GAP_SWAP_MAX] = "each memcg's swap left at each call: memory.swap.max is set above 0 "
			    "in or above these calls' reclaim root (memcg_stat swap_max=), and "
			    "mem_cgroup_get_nr_swap_pages() (swap.max - swap.current over the "
			    "ancestors) decides whether a memcg's anon lists are scanned at all; "
			    "swap.current is sampled every interval only (a swap.max of 0 is "
			    "modelled: no anon reclaim)",
	[RS_GAP_ZONE_LISTS] = "each lruvec's pages per zone: these calls' isolations skipped "
			      "folios of zones above their reclaim index (lru_isolate nr_skipped), "
			      "which isolate_lru_folios() counts in nr_scanned and leaves on the "
			      "list; how many a batch meets follows where the list's pages are, "
			      "which memory.stat and mod_memcg_lruvec_state do not split by zone, "
			      "and the models merge a node's zones",
};

const char *rs_gap_name(enum rs_gap g)
{
	return g < RS_GAP_NR ? gap_names[g] : "?";
}

const char *rs_gap_missing(enum rs_gap g)
{
	return g < RS_GAP_NR ? gap_missing[g] : "?";
}

/*
 * What the world lacks is read from its updates: a recorded (snapshot) high watermark, any
 * lruvec delta, any soft limit set. A kswapd call without a recorded watermark runs on the
 * bound the reconstruction inferred and stops on what the recorded run freed; a call without
 * deltas scans every lruvec >> priority from sizes up to a snapshot interval old
 * (global-dev.dat: dd moves ~100k pages/s; a memcg call is no different: anon-stream-swap
 * without its deltas is +3784% on inactive anon); a global call on cgroup v1 with a soft
 * limit set runs memcg1_soft_limit_reclaim(), whose choice of memcg (and whether it runs at
 * all) follows keys the trace never shows. A proactive memcg call (memory.reclaim) wants a
 * share of an amount no event shows; the model can only be handed what the call freed (the
 * 7.2 proactive trace, so replayed: active file +21.2%, inactive anon +7.4%). With two or more
 * nodes, a memcg below the root with sizes of its own has them on node 0 only unless its
 * snapshots carried memory.numa_stat (rs_world_set_node_lists()): every call scans lruvecs whose
 * per-node sizes the world lacks (a 2-node 7.2 memcg-high recording: inactive file +13885%, the
 * 1-node one +2.0%; with numa_stat -1.5%). A direct call that
 * shrank fewer nodes than the machine has was kept from the others by its nodemask (mempolicy,
 * cpuset) or by zones ready for compaction, neither in the trace (a 2-node recording whose
 * tasks are bound to a node each: direct reclaim +72% scanned, the kswapd calls -0.2/-0.4%).
 */
unsigned int rs_world_identity_gaps(const struct rs_world *w, struct rs_gap_pages *out)
{
	return rs_world_identity_gaps_calls(w, out, NULL);
}

unsigned int rs_world_identity_gaps_calls(const struct rs_world *w, struct rs_gap_pages *out,
					  unsigned int *call_lacks)
{
	bool wmark = false, deltas = false, soft = false;
	bool node_lists = w->info.node_lists_missing;
	unsigned int mask = 0;
	/* per memcg: 1 protection set, 2 swap.max set; 4 a root whose calls lack protection,
	 * 8 swap.max set in its subtree */
	uint8_t *set = calloc((size_t)w->info.nr_memcg + 1, 1);

	memset(out, 0, (1 + (size_t)w->info.nr_memcg) * sizeof(*out));
	for (size_t i = 0; i < w->info.nr_updates; i++) {
		const struct rs_world_update *u = &w->upd[i].u;

		if (set && u->value > 0 && (u->field == RS_WF_MEMORY_MIN ||
					    u->field == RS_WF_MEMORY_LOW))
			set[u->memcg] |= 1;
		/* 0 is modelled (no swap ever: rs_sim_memcg_swap_ok()); more, only as sampled */
		if (set && u->field == RS_WF_SWAP_MAX && u->value > 0 &&
		    (uint64_t)u->value != RS_UNLIMITED)
			set[u->memcg] |= 2;

		if (u->field == RS_WF_NODE_WMARK_HIGH && u->src == RS_WSRC_SNAPSHOT)
			wmark = true;
		if (u->field == RS_WF_LRU && u->src == RS_WSRC_DELTA)
			deltas = true;
		if (u->field == RS_WF_SOFT_LIMIT && (uint64_t)u->value != RS_UNLIMITED)
			soft = true;
	}
	for (int m = 1; set && m < w->info.nr_memcg; m++) {
		int p = w->memcg[m].info.parent;

		/*
		 * A protected memcg has effective protection under a reclaim root R only when
		 * every memcg between them is protected too (effective_protection() scales by the
		 * parent's, 0 for an unprotected parent): R is its parent, or above it through
		 * protected memcgs.
		 */
		if (set[m] & 1)
			for (int x = p; x >= 0; x = w->memcg[x].info.parent) {
				set[x] |= 4;
				if (!x || !(set[x] & 1))
					break;
			}
		if (set[m] & 2)
			for (int x = m; x >= 0; x = x ? w->memcg[x].info.parent : -1)
				set[x] |= 8;
	}
	for (size_t i = 0; i < w->info.nr_calls; i++) {
		const struct rs_reclaim_call *c = &w->calls[i];
		bool global = c->ctx == RS_CALL_KSWAPD || c->ctx == RS_CALL_DIRECT;
		int root = c->ctx == RS_CALL_MEMCG && c->target > 0 ? c->target : 0;
		unsigned int lacks = 0;

		if (set && (set[root] & 4))
			lacks |= 1u << RS_GAP_PROTECTION;
		if (set && (set[root] & 8))
			lacks |= 1u << RS_GAP_SWAP_MAX;
		for (int x = root; set && x > 0 && !(lacks & (1u << RS_GAP_SWAP_MAX));
		     x = w->memcg[x].info.parent)
			if (set[x] & 2)
				lacks |= 1u << RS_GAP_SWAP_MAX;

		if (c->ctx == RS_CALL_KSWAPD && !wmark)
			lacks |= 1u << RS_GAP_WMARK;
		if (!deltas)
			lacks |= 1u << RS_GAP_SIZES;
		if (global && w->info.cgroup_v1 && soft)
			lacks |= 1u << RS_GAP_SOFT_TREE;
		if (c->ctx == RS_CALL_MEMCG && c->proactive)
			lacks |= 1u << RS_GAP_PROACTIVE;
		if (c->rec.isolate_refused)
			lacks |= 1u << RS_GAP_ISOLATED;
		if (c->rec.skipped)
			lacks |= 1u << RS_GAP_ZONE_LISTS;
		if (node_lists)
			lacks |= 1u << RS_GAP_NODE_LISTS;
		if (c->ctx == RS_CALL_DIRECT && w->info.nr_nodes > 1 &&
		    c->rec.nodes < (uint32_t)w->info.nr_nodes)
			lacks |= 1u << RS_GAP_NODEMASK;
		if (c->ctx == RS_CALL_KSWAPD && w->info.nr_zone_samples) {
			struct rs_kswapd_end e;

			rs_kswapd_end(w, c, &e);
			if (e.how == RS_KEND_EARLY)
				lacks |= 1u << RS_GAP_KSWAPD_END;
		}
		if (call_lacks)
			call_lacks[i] = lacks;
		if (!lacks || !c->rec.have)
			continue;
		mask |= lacks;
		for (int g = 0; g < RS_GAP_NR; g++) {
			if (!(lacks & (1u << g)))
				continue;
			for (int l = 0; l < RS_NR_EVICTABLE; l++)
				out[0].scanned[g][l] += c->rec.scanned[l];
			for (size_t k = 0; k < c->rec.nr_memcg; k++)
				for (int l = 0; l < RS_NR_EVICTABLE; l++)
					out[1 + c->rec.memcg[k].memcg].scanned[g][l] +=
						c->rec.memcg[k].scanned[l];
		}
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			out[0].any[l] += c->rec.scanned[l];
		for (size_t k = 0; k < c->rec.nr_memcg; k++)
			for (int l = 0; l < RS_NR_EVICTABLE; l++)
				out[1 + c->rec.memcg[k].memcg].any[l] += c->rec.memcg[k].scanned[l];
	}
	free(set);
	return mask;
}

uint64_t rs_world_lru(const struct rs_world *w, int memcg, int nid, int lru)
{
	int64_t v = w->lru[lv(w, memcg, nid) * RS_NR_EVICTABLE + lru];

	return v > 0 ? (uint64_t)v : 0;
}

/* The view of `memcg` as of `ts` (its last change at or before ts), NULL before the first. */
static const int64_t *view_at(const struct rs_world *w, int memcg, uint64_t ts)
{
	const struct wview *v = &w->view[memcg];
	size_t lo = rs_upper_bound_u64(v->ts, v->n, sizeof(*v->ts), 0, ts);

	return lo ? &v->val[(lo - 1) * (size_t)w->info.nr_nodes * VIEW_W] : NULL;
}

uint64_t rs_world_lru_stat_at(const struct rs_world *w, int memcg, int nid, int lru, uint64_t ts)
{
	const int64_t *v = view_at(w, memcg, ts);
	const struct wmemcg *m = &w->memcg[memcg];
	uint64_t sum = 0;

	if (v)
		return (uint64_t)v[nid * VIEW_W + lru];
	/* never flushed: the lists */
	for (int pre = m->info.pre; pre < m->info.pre_end; pre++)
		sum += rs_world_lru(w, w->pre_to_memcg[pre], nid, lru);
	return sum;
}

uint64_t rs_world_lru_stat(const struct rs_world *w, int memcg, int nid, int lru)
{
	return rs_world_lru_stat_at(w, memcg, nid, lru, w->now);
}

void rs_world_memcg_state(const struct rs_world *w, int memcg, struct rs_memcg_state *out)
{
	const struct wmemcg *m = &w->memcg[memcg];

	*out = m->st;
	/*
	 * mem_cgroup_swappiness(): the root and, on cgroup v2, every group use vm_swappiness;
	 * v1 groups have memory.swappiness.
	 */
	if (memcg == 0 || !w->info.cgroup_v1 || m->st.swappiness < 0)
		out->swappiness = w->info.vm_swappiness;
}

void rs_world_node(const struct rs_world *w, int nid, struct rs_node_state *out)
{
	*out = w->node[nid];
}

uint64_t rs_world_swap_free(const struct rs_world *w)
{
	return w->swap_free;
}

uint64_t rs_world_ws(const struct rs_world *w, enum rs_wfield f, int memcg, int nid, int file)
{
	int k = (f == RS_WF_WS_RESTORE ? 2 : 0) + (file ? 1 : 0);
	int64_t v = w->ws[lv(w, memcg, nid) * 4 + k];

	return v > 0 ? (uint64_t)v : 0;
}

/* Current workingset_activate of a type summed over the memcg's subtree on node nid. */
static uint64_t ws_subtree(const struct rs_world *w, int memcg, int nid, int file)
{
	uint64_t sum = 0;
	const struct wmemcg *m = &w->memcg[memcg];

	for (int pre = m->info.pre; pre < m->info.pre_end; pre++)
		sum += rs_world_ws(w, RS_WF_WS_ACTIVATE, w->pre_to_memcg[pre], nid, file);
	return sum;
}

uint64_t rs_world_ws_flushed_at(const struct rs_world *w, int memcg, int nid, int file,
				uint64_t ts)
{
	const int64_t *v = view_at(w, memcg, ts);
	int k = nid * VIEW_W + RS_NR_EVICTABLE + (file ? 1 : 0);

	return v && v[k] >= 0 ? (uint64_t)v[k] : ws_subtree(w, memcg, nid, file);
}

uint64_t rs_world_ws_flushed(const struct rs_world *w, int memcg, int nid, int file)
{
	return rs_world_ws_flushed_at(w, memcg, nid, file, w->now);
}

/* The lists of memcg's subtree summed, on node nid. */
static int64_t lists_subtree(const struct rs_world *w, int memcg, int nid, int lru)
{
	const struct wmemcg *m = &w->memcg[memcg];
	int64_t sum = 0;

	for (int pre = m->info.pre; pre < m->info.pre_end; pre++) {
		int64_t v = w->lru[lv(w, w->pre_to_memcg[pre], nid) * RS_NR_EVICTABLE + lru];

		sum += v > 0 ? v : 0;
	}
	return sum;
}

/*
 * css_rstat_flush() of a memcg brings its subtree's stats up to date, each memcg's
 * hierarchical counts included; ancestors keep what their own last flush left (the deltas wait
 * in their pending counters: the 7.2 memory.high trace's /rs_high read 5,701 inactive against
 * 6,660 active anon pages after its child's flush had it at 8,265 against 3,584). `lists`: a
 * memcg_flush_stats event, after which the list stats are the lists; a memory.stat read sets
 * them from what it showed instead (RS_WF_LRU_STAT).
 */
static void ws_flush(struct rs_world *w, int memcg, bool lists)
{
	const struct wmemcg *m = &w->memcg[memcg];

	for (int pre = m->info.pre; pre < m->info.pre_end; pre++) {
		int d = w->pre_to_memcg[pre];

		for (int nid = 0; nid < w->info.nr_nodes; nid++) {
			size_t i = lv(w, d, nid);

			for (int t = 0; t < 2; t++)
				w->wsf[i * 2 + t] = (int64_t)ws_subtree(w, d, nid, t);
			if (!lists)
				continue;
			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				w->stat[i * RS_NR_EVICTABLE + l] = w->lru[i * RS_NR_EVICTABLE + l];
				w->hstat[i * RS_NR_EVICTABLE + l] = lists_subtree(w, d, nid, l);
			}
		}
	}
}

uint64_t rs_world_now(const struct rs_world *w)
{
	return w->now;
}

uint64_t rs_world_generation(const struct rs_world *w)
{
	return w->generation;
}

static uint64_t frac(uint64_t num, uint64_t den)
{
	if (!den)
		return 0;
	if (num >= den)
		return RS_RATE_ONE;
	/* num < den < 2^64; num << 32 may overflow: split */
	if (num < (UINT64_C(1) << 31))
		return (num << 32) / den;
	return (uint64_t)(((__uint128_t)num << 32) / den);
}

static void rates_from(const struct obs_sum *s, int lru, enum rs_rate_src src,
		       struct rs_rates *out)
{
	const struct rs_scan_pages *p = &s->pages;
	uint64_t pages = pages_seen(p, lru);

	memset(out, 0, sizeof(*out));
	out->src = src;
	out->folio = pages ? (uint32_t)((s->folio_w + pages / 2) / pages) : 1;
	if (!out->folio)
		out->folio = 1;
	out->folio_share = RS_RATE_ONE;
	/*
	 * Single pages and F-page folios: big / F folios of F pages and (pages - big) of one,
	 * when every window summed has these two classes with the same F.
	 */
	if (s->folio_one > 1 && s->folio_one != UINT32_MAX && s->one_pages > s->one_big) {
		out->folio = s->folio_one;
		out->folio_share = frac(s->one_big,
					s->one_big + (s->one_pages - s->one_big) * s->folio_one);
	}
	if (is_active_list(lru)) {
		out->deactivate = frac(p->deactivated, p->taken);
		out->referenced = frac(p->referenced, p->taken);
	} else {
		out->reclaim = frac(p->reclaimed, p->scanned);
		out->activate = frac(p->activated, p->scanned);
		if (out->reclaim + out->activate > RS_RATE_ONE)
			out->activate = RS_RATE_ONE - out->reclaim;
		out->pageout = frac(p->pageout, p->scanned);
	}
}

static void obs_to_sum(const struct rs_obs *o, struct obs_sum *s)
{
	memset(s, 0, sizeof(*s));
	sum_obs(s, o);
}

/* The call's passes at `prio` on the list of window `o`, or NULL when none were recorded. */
static const struct rs_obs *prio_window(const struct rs_world *w, const struct rs_obs *o, int prio)
{
	struct rs_obs key = *o;

	if (prio < 0 || !w->nr_pobs)
		return NULL;
	key.prio = prio;
	return bsearch(&key, w->pobs, w->nr_pobs, sizeof(*w->pobs), cmp_pobs);
}

/*
 * The window of list `idx` for a pass at `prio` now: the call's passes at that priority when
 * recorded, else the window containing now, else the nearest one; NULL when the list has none.
 */
static const struct rs_obs *window_of(const struct rs_world *w, size_t idx, int prio,
				     uint64_t now)
{
	size_t n = w->obs_count[idx];
	const struct rs_obs *o, *near, *pass;
	size_t lo;

	if (!n)
		return NULL;
	o = &w->obs[w->obs_start[idx]];
	lo = RS_UPPER_BOUND(o, n, ts_start, now);	/* the first window with ts_start > now */
	if (lo == 0) {
		near = &o[0];
	} else if (lo == n || now <= o[lo - 1].ts_end) {
		near = &o[lo - 1];
	} else {
		/* between two windows: the nearer one */
		uint64_t after = o[lo].ts_start - now;
		uint64_t before = now - o[lo - 1].ts_end;

		near = &o[before <= after ? lo - 1 : lo];
	}
	pass = prio_window(w, near, prio);
	return pass ? pass : near;
}

uint64_t rs_world_isolate_mean(const struct rs_world *w, int memcg, int nid, int lru, int prio,
			       uint64_t now, uint64_t req)
{
	const struct rs_obs *o = window_of(w, lv(w, memcg, nid) * RS_NR_EVICTABLE + lru, prio, now);

	if (!o || !req || req > RS_SWAP_CLUSTER_MAX)
		return 0;
	for (uint32_t i = 0; i < o->nreq; i++) {
		const struct wreq *r = &w->req[o->req_at + i];

		if (r->q == req - 1)
			return (uint64_t)(((__uint128_t)r->scanned << 32) / r->isolates);
	}
	return 0;
}

/*
 * The call's own pass at prio on (memcg, nid)'s list: its one-priority window starting at the
 * call's start, not the nearest call's (window_of()'s fallback when it has none there); NULL
 * when there is none.
 */
static const struct rs_obs *own_pass(const struct rs_world *w, int memcg, int nid, int lru,
				     int prio, uint64_t now)
{
	const struct rs_obs *o;

	if (prio < 0)
		return NULL;
	o = window_of(w, lv(w, memcg, nid) * RS_NR_EVICTABLE + lru, prio, now);
	return o && o->one_prio && o->prio == prio && o->ts_start == now ? o : NULL;
}

bool rs_world_pass_reclaim(const struct rs_world *w, int memcg, int nid, int lru, int prio,
			   uint64_t now, uint64_t pos, uint64_t n, uint64_t *out)
{
	const struct rs_obs *o;
	const struct rs_obs_step *st;
	__uint128_t sum = 0;
	uint64_t at = 0, end = pos + n;

	*out = 0;
	if (is_active_list(lru))
		return false;
	o = own_pass(w, memcg, nid, lru, prio, now);
	if (!o || !o->nsteps)
		return false;
	st = &w->steps[o->steps_at];
	/* each shrink frees its pages evenly over the pages it scanned */
	for (uint32_t i = 0; i < o->nsteps && at < end; i++) {
		uint64_t lo = at, hi = at + st[i].scanned;

		at = hi;
		if (hi <= pos || !st[i].scanned)
			continue;
		if (lo < pos)
			lo = pos;
		if (hi > end)
			hi = end;
		sum += ((__uint128_t)st[i].reclaimed * (hi - lo) << 32) / st[i].scanned;
	}
	/* past the recorded pass: its own rate */
	if (end > at && o->pages.scanned) {
		uint64_t from = pos > at ? pos : at;

		sum += ((__uint128_t)o->pages.reclaimed * (end - from) << 32) / o->pages.scanned;
	}
	*out = (uint64_t)sum;
	return true;
}

uint64_t rs_world_pass_requested(const struct rs_world *w, int memcg, int nid, int lru, int prio,
				 uint64_t now)
{
	const struct rs_obs *o = own_pass(w, memcg, nid, lru, prio, now);
	uint64_t sum = 0;

	if (!o)
		return 0;
	for (uint32_t i = 0; i < o->nreq; i++)
		sum += (uint64_t)(w->req[o->req_at + i].q + 1) * w->req[o->req_at + i].isolates;
	return sum;
}

bool rs_world_pass_seen(const struct rs_world *w, int memcg, int nid, int prio, uint64_t now)
{
	for (int lru = 0; lru < RS_NR_EVICTABLE; lru++)
		if (own_pass(w, memcg, nid, lru, prio, now))
			return true;
	return false;
}

void rs_world_rates(const struct rs_world *w, int memcg, int nid, int lru, int prio,
		    struct rs_rates *out)
{
	rs_world_rates_at(w, memcg, nid, lru, prio, w->now, out);
}

void rs_world_rates_at(const struct rs_world *w, int memcg, int nid, int lru, int prio,
		       uint64_t now, struct rs_rates *out)
{
	const struct rs_obs *win = window_of(w, lv(w, memcg, nid) * RS_NR_EVICTABLE + lru, prio,
					     now);
	const struct obs_sum *ns = &w->node_sum[nid * RS_NR_EVICTABLE + lru];
	struct obs_sum s;

	if (win) {
		obs_to_sum(win, &s);
		rates_from(&s, lru, RS_RATE_WINDOW, out);
		return;
	}
	if (pages_seen(&ns->pages, lru)) {
		rates_from(ns, lru, RS_RATE_NODE_LIST, out);
		return;
	}
	ns = &w->all_sum[lru];
	if (pages_seen(&ns->pages, lru)) {
		rates_from(ns, lru, RS_RATE_ALL_LIST, out);
		return;
	}
	/*
	 * Never observed: assume every scanned page can be taken (inactive: reclaimed, anon
	 * written to swap; active: deactivated). An upper bound, counted apart in the results.
	 */
	memset(out, 0, sizeof(*out));
	out->src = RS_RATE_ASSUMED;
	out->folio = 1;
	out->folio_share = RS_RATE_ONE;
	if (is_active_list(lru)) {
		out->deactivate = RS_RATE_ONE;
	} else {
		out->reclaim = RS_RATE_ONE;
		out->pageout = is_file_list(lru) ? 0 : RS_RATE_ONE;
	}
}

void rs_world_rewind(struct rs_world *w)
{
	size_t nlv = (size_t)w->info.nr_memcg * (size_t)w->info.nr_nodes;

	w->now = 0;
	w->cursor = 0;
	w->generation++;
	w->info.clamped = 0;
	memset(w->lru, 0, nlv * RS_NR_EVICTABLE * sizeof(int64_t));
	for (size_t i = 0; i < nlv * RS_NR_EVICTABLE; i++)
		w->stat[i] = w->hstat[i] = -1;
	memset(w->ws, 0, nlv * 4 * sizeof(int64_t));
	for (size_t i = 0; i < nlv * 2; i++)
		w->wsf[i] = -1;
	memset(w->node, 0, (size_t)w->info.nr_nodes * sizeof(*w->node));
	w->swap_free = 0;
	for (int i = 0; i < w->info.nr_memcg; i++)
		w->memcg[i].st = (struct rs_memcg_state){
			.limit = RS_UNLIMITED, .soft_limit = RS_UNLIMITED, .swap_max = RS_UNLIMITED,
			.swappiness = -1, .online = true,
		};
}

static void apply_i64(struct rs_world *w, int64_t *v, const struct rs_world_update *u)
{
	if (u->op == RS_WOP_SET) {
		*v = u->value;
		return;
	}
	*v += u->value;
	if (*v < 0) {
		*v = 0;
		w->info.clamped++;
	}
}

static void apply_u64(struct rs_world *w, uint64_t *v, const struct rs_world_update *u)
{
	int64_t x = (int64_t)*v;

	if (u->op == RS_WOP_SET) {
		*v = (uint64_t)u->value;
		return;
	}
	x += u->value;
	if (x < 0) {
		x = 0;
		w->info.clamped++;
	}
	*v = (uint64_t)x;
}

static void apply(struct rs_world *w, const struct rs_world_update *u)
{
	struct wmemcg *m = u->memcg >= 0 ? &w->memcg[u->memcg] : NULL;

	switch (u->field) {
	case RS_WF_LRU:
		apply_i64(w, &w->lru[lv(w, u->memcg, u->nid) * RS_NR_EVICTABLE + u->lru], u);
		break;
	case RS_WF_LRU_STAT:
		/* what memory.stat showed: v2 counts the subtree, v1 the memcg's own */
		(w->info.cgroup_v1 ? w->stat : w->hstat)[lv(w, u->memcg, u->nid) *
							    RS_NR_EVICTABLE + u->lru] =
			u->value < 0 ? 0 : u->value;
		break;
	case RS_WF_WS_ACTIVATE:
	case RS_WF_WS_RESTORE:
		apply_i64(w, &w->ws[lv(w, u->memcg, u->nid) * 4 +
				    (u->field == RS_WF_WS_RESTORE ? 2 : 0) + (u->lru ? 1 : 0)], u);
		break;
	case RS_WF_USAGE:
		apply_u64(w, &m->st.usage, u);
		break;
	case RS_WF_LIMIT:
		m->st.limit = (uint64_t)u->value;
		break;
	case RS_WF_SOFT_LIMIT:
		m->st.soft_limit = (uint64_t)u->value;
		break;
	case RS_WF_MEMORY_MIN:
		m->st.memory_min = (uint64_t)u->value;
		break;
	case RS_WF_MEMORY_LOW:
		m->st.memory_low = (uint64_t)u->value;
		break;
	case RS_WF_SWAP_MAX:
		m->st.swap_max = (uint64_t)u->value;
		break;
	case RS_WF_SWAP_USAGE:
		apply_u64(w, &m->st.swap_usage, u);
		break;
	case RS_WF_SWAPPINESS:
		m->st.swappiness = (int)u->value;
		break;
	case RS_WF_ONLINE:
		m->st.online = u->value != 0;
		break;
	case RS_WF_NODE_FREE:
		apply_u64(w, &w->node[u->nid].free, u);
		break;
	case RS_WF_NODE_WMARK_HIGH:
		w->node[u->nid].wmark_high = (uint64_t)u->value;
		break;
	case RS_WF_NODE_MANAGED:
		w->node[u->nid].managed = (uint64_t)u->value;
		break;
	case RS_WF_SWAP_FREE:
		apply_u64(w, &w->swap_free, u);
		break;
	case RS_WF_WS_FLUSH:
		ws_flush(w, u->memcg, u->value == 1);
		break;
	}
}

/* v1: the own list stats of memcg's subtree summed (one never set: its lists). */
static int64_t own_stats_subtree(const struct rs_world *w, int memcg, int nid, int lru)
{
	const struct wmemcg *m = &w->memcg[memcg];
	int64_t sum = 0;

	for (int pre = m->info.pre; pre < m->info.pre_end; pre++) {
		size_t i = lv(w, w->pre_to_memcg[pre], nid) * RS_NR_EVICTABLE + lru;

		sum += w->stat[i] >= 0 ? w->stat[i] : (w->lru[i] > 0 ? w->lru[i] : 0);
	}
	return sum;
}

/*
 * Record memcg m's flushed view as the world is now (one entry per instant: the last one wins):
 * per node its hierarchical list stats (v2: as its last flush or memory.stat read left them; v1:
 * the own stats of its subtree summed), and its subtree's workingset_activate as flushed.
 */
static int view_push(struct rs_world *w, int m, uint64_t ts)
{
	struct wview *v = &w->view[m];
	int nn = w->info.nr_nodes;
	int64_t *e;

	if (!v->n || v->ts[v->n - 1] != ts) {
		size_t cap_ts = v->cap, cap_val = v->cap;	/* one capacity: they grow alike */

		if (rs_grow((void **)&v->ts, &cap_ts, v->n + 1, sizeof(*v->ts), 16, 0) ||
		    rs_grow((void **)&v->val, &cap_val, v->n + 1,
			    (size_t)nn * VIEW_W * sizeof(*v->val), 16, 0))
			return -1;
		v->cap = cap_ts;
		v->ts[v->n++] = ts;
	}
	e = &v->val[(v->n - 1) * (size_t)nn * VIEW_W];
	for (int nid = 0; nid < nn; nid++) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			int64_t h = w->hstat[lv(w, m, nid) * RS_NR_EVICTABLE + l];

			if (w->info.cgroup_v1)
				e[nid * VIEW_W + l] = own_stats_subtree(w, m, nid, l);
			else
				e[nid * VIEW_W + l] = h >= 0 ? h : lists_subtree(w, m, nid, l);
		}
		memcpy(&e[nid * VIEW_W + RS_NR_EVICTABLE], &w->wsf[lv(w, m, nid) * 2],
		       2 * sizeof(*e));
	}
	return 0;
}

/*
 * One pass over the updates, keeping each memcg's flushed view after every instant that
 * changed it (a flush of it or of an ancestor, its memory.stat snapshot): the view is taken
 * once every update of that instant is in (a snapshot's flush comes before the list stats it
 * sets). rs_world_lru_stat_at() and rs_world_ws_flushed_at() answer for any time from these;
 * the stat and wsf arrays are only this pass's working state.
 */
static int build_views(struct rs_world *w, struct rs_error *err)
{
	int nm = w->info.nr_memcg, nmarked = 0, ret = 0;
	bool *mark = calloc((size_t)nm, sizeof(*mark));
	int *marked = calloc((size_t)nm, sizeof(*marked));

	if (!mark || !marked) {
		free(mark);
		free(marked);
		return rs_error_set(err, "out of memory");
	}
	rs_world_rewind(w);
	for (size_t k = 0; k < w->info.nr_updates && !ret; k++) {
		const struct rs_world_update *u = &w->upd[k].u;

		apply(w, u);
		if (u->field == RS_WF_LRU_STAT || u->field == RS_WF_WS_FLUSH) {
			const struct wmemcg *m = &w->memcg[u->memcg];
			int end = u->field == RS_WF_WS_FLUSH ? m->info.pre_end : m->info.pre + 1;

			for (int pre = m->info.pre; pre < end; pre++) {
				int d = w->pre_to_memcg[pre];

				if (!mark[d])
					mark[marked[nmarked++] = d] = true;
			}
			/* v1: an ancestor's view sums its subtree's own stats */
			for (int a = m->info.parent; w->info.cgroup_v1 && a >= 0;
			     a = w->memcg[a].info.parent)
				if (!mark[a])
					mark[marked[nmarked++] = a] = true;
		}
		if (!nmarked || (k + 1 < w->info.nr_updates && w->upd[k + 1].u.ts == u->ts))
			continue;
		for (int j = 0; j < nmarked && !ret; j++)
			ret = view_push(w, marked[j], u->ts);
		for (int j = 0; j < nmarked; j++)
			mark[marked[j]] = false;
		nmarked = 0;
	}
	free(mark);
	free(marked);
	return ret ? rs_error_set(err, "out of memory") : 0;
}

void rs_world_advance(struct rs_world *w, uint64_t ts)
{
	while (w->cursor < w->info.nr_updates && w->upd[w->cursor].u.ts <= ts)
		apply(w, &w->upd[w->cursor++].u);
	if (ts > w->now)
		w->now = ts;
	w->generation++;
}
