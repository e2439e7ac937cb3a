// SPDX-License-Identifier: GPL-2.0
/*
 * The refault consumer (include/refaults.h): evictions from the filemap deletions that run
 * inside reclaim, refaults from the adds that bring evicted pages back, swap-ins from the
 * memcg counters. The eviction table is evicted.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evicted.h"
#include "findings.h"
#include "memcg_attrib.h"
#include "refaults.h"
#include "rs_grow.h"
#include "rs_warn.h"
#include "series.h"

const uint64_t rs_rf_within_ns[RS_RF_NR_WITHIN] = { 1000000000ull, 10000000000ull };
const uint64_t rs_rf_dist_lower_ns[RS_RF_NR_DIST] = {
	0, 10000000ull, 100000000ull, 1000000000ull, 10000000000ull, 60000000000ull,
};

/* info.flags: the eviction is at least rs_rf_within_ns[w] before the span's end */
#define OBSERVABLE(w)	(1u << (w))

int rs_rf_dist_bucket(uint64_t ns)
{
	int b = 0;

	while (b + 1 < RS_RF_NR_DIST && ns >= rs_rf_dist_lower_ns[b + 1])
		b++;
	return b;
}

const char *rs_rf_list_name(int list)
{
	if (list == RS_RF_LIST_SLAB)
		return "slab";
	if (list >= 0 && list < RS_LRU_NR)
		return rs_lru_name(list);
	return "unknown";
}

const char *rs_rf_ts_name(int m)
{
	static const char *const names[RS_RF_TS_NR] = {
		"evicted_pages", "refaulted_pages", "quick_refaulted_pages", "swapin_pages",
	};

	return m >= 0 && m < RS_RF_TS_NR ? names[m] : "unknown";
}

/* What this module follows of a reclaiming task (by the episodes' dense task index). */
struct rf_task {
	bool window;			/* an lru_isolate without its shrink event yet */
	int8_t lru;			/* that isolate's list, -1 unknown */
	int slab;			/* inside shrink_slab start..end */
	uint64_t victim;		/* first memcg named by the task inside the window */
	uint64_t ep_serial;		/* episode of ep_rec */
	int32_t ep_rec;			/* its rs_rf_episode, -1 none */
};

/*
 * A deletion outside any reclaim episode, waiting for its task to say what it was: proactive
 * reclaim (DAMON's pageout, MADV_PAGEOUT, memory.reclaim without an episode) deletes folios in
 * shrink_folio_list() and only then emits mm_vmscan_reclaim_pages; truncate and unlink emit
 * nothing of the kind.
 */
struct rf_pending {
	int pid;
	uint32_t dev;
	uint8_t order;
	uint64_t ino, index, ts, memcg;
};

#define RF_PENDING_MAX		(1u << 20)	/* held deletions, all tasks */
#define RF_PENDING_TASKS	64		/* tasks with held deletions */
#define RF_PEND_HASH		256		/* buckets of pend_in, a power of two */

struct rs_refaults {
	struct rs_refaults_opts o;
	struct rs_warnings *warnings;
	const struct rs_analysis *a;
	struct rf_evicted *tab;
	struct rs_rf_totals tot;
	struct rs_latency *dist;
	const struct rs_memcgs *memcgs;	/* the loading stage's, for paths */
	uint64_t span_end;		/* 0: unknown, the shares are then absent */
	bool recorded;
	bool warned_full, warned_cgroups, warned_episodes;
	bool no_memcg_counts;		/* the kernel has no count_memcg_events (before 6.13) */

	struct rs_rf_cgroup *cg;
	int nr_cg;
	int32_t *cg_hash;		/* open addressing on id, [2 * RS_RF_MAX_CGROUPS] */
	int nr_series;

	struct rf_task *task;
	int nr_task;

	struct rs_series *series;

	struct rs_rf_episode *ep;
	size_t nr_ep, cap_ep;

	struct rf_pending *pend;
	size_t nr_pend, cap_pend;
	int pend_pid[RF_PENDING_TASKS];	/* tasks with held deletions, oldest first */
	int nr_pend_pid;
	/*
	 * How many of pend_pid fall in each bucket of pid % RF_PEND_HASH (at most
	 * RF_PENDING_TASKS): every event asks whether its task holds deletions, and a trace
	 * that keeps the list full (64 tasks that unlinked files) made the scan of pend_pid
	 * 18% of a one-thread analyze (callgrind, bench.dat); an empty bucket answers no.
	 */
	uint8_t pend_in[RF_PEND_HASH];

	/* the add being matched */
	uint64_t add_ts;
	int add_cg;
	uint64_t add_pages;
};

#define CG_HASH_SIZE	(2 * RS_RF_MAX_CGROUPS)

static struct rs_series *make_series(struct rs_refaults *rf, uint64_t t0, uint64_t t1,
				     uint64_t width, size_t max_buckets)
{
	struct rs_series_opts so = {
		.nr_metrics = (RS_RF_SERIES_CGROUPS + 1) * RS_RF_TS_NR,	/* + the totals */
		.t0 = t0, .t1 = t1, .width = width, .max_buckets = max_buckets,
		.warnings = rf->warnings,
	};

	return rs_series_new(&so);
}

struct rs_refaults *rs_refaults_new(const struct rs_refaults_opts *o, struct rs_error *err)
{
	struct rs_refaults *rf = calloc(1, sizeof(*rf));

	if (!rf)
		goto oom;
	rf->o = *o;
	if (!rf->o.max_evicted)
		rf->o.max_evicted = RS_RF_MAX_EVICTED_DEFAULT;
	if (!rf->o.thrash_distance_ns)
		rf->o.thrash_distance_ns = RS_RF_THRASH_DISTANCE_DEFAULT;
	rf->warnings = o->warnings;
	rf->tot.max_evicted = rf->o.max_evicted;
	rf->tab = rf_evicted_new(rf->o.max_evicted);
	rf->dist = rs_latency_new(0);
	rf->cg_hash = malloc(CG_HASH_SIZE * sizeof(*rf->cg_hash));
	if (!rf->tab || !rf->dist || !rf->cg_hash)
		goto oom;
	for (int i = 0; i < CG_HASH_SIZE; i++)
		rf->cg_hash[i] = -1;
	rf->series = make_series(rf, 0, 0, 0, 0);	/* bind replaces it */
	if (!rf->series)
		goto oom;
	return rf;
oom:
	rs_refaults_free(rf);
	rs_error_set(err, "out of memory");
	return NULL;
}

void rs_refaults_free(struct rs_refaults *rf)
{
	if (!rf)
		return;
	rf_evicted_free(rf->tab);
	rs_latency_free(rf->dist);
	for (int i = 0; i < rf->nr_cg; i++)
		free(rf->cg[i].thrash);
	free(rf->cg);
	free(rf->cg_hash);
	free(rf->task);
	rs_series_free(rf->series);
	free(rf->ep);
	free(rf->pend);
	free(rf);
}

void rs_refaults_bind(struct rs_refaults *rf, const struct rs_analysis *a)
{
	const struct rs_analysis_opts *ao = rs_analysis_opts(a);
	const struct rs_buckets bk = rs_series_buckets(rs_analysis_series(a));

	rf->a = a;
	rf->no_memcg_counts = rs_analysis_opts_lack(ao, RS_EV_MEMCG_COUNT);
	if (!rf->warnings)
		rf->warnings = rs_analysis_warnings(a);
	rf->span_end = ao->span_last_ns;
	if (ao->to_ns && ao->to_ns != UINT64_MAX && ao->to_ns < rf->span_end)
		rf->span_end = ao->to_ns;
	rs_series_free(rf->series);
	rf->series = make_series(rf, bk.t0, rf->span_end > bk.t0 ? rf->span_end : 0, bk.width,
				 ao->max_buckets);
}

/* The row of a memcg id, made on first sight; -1 past the cap. */
static int cg_of(struct rs_refaults *rf, uint64_t id)
{
	size_t h = (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (CG_HASH_SIZE - 1);
	struct rs_rf_cgroup *c;

	while (rf->cg_hash[h] >= 0) {
		if (rf->cg[rf->cg_hash[h]].id == id)
			return rf->cg_hash[h];
		h = (h + 1) & (CG_HASH_SIZE - 1);
	}
	if (rf->nr_cg >= RS_RF_MAX_CGROUPS) {
		rs_warn_once(rf->warnings, &rf->warned_cgroups, "refaults: more than %d memcgs; "
			     "the others are not listed per cgroup", RS_RF_MAX_CGROUPS);
		return -1;
	}
	if (!(rf->nr_cg & (rf->nr_cg - 1)) || !rf->cg) {
		size_t n = rf->nr_cg ? 2 * (size_t)rf->nr_cg : 16;
		struct rs_rf_cgroup *g = realloc(rf->cg, n * sizeof(*g));

		if (!g)
			return -1;
		rf->cg = g;
	}
	c = &rf->cg[rf->nr_cg];
	memset(c, 0, sizeof(*c));
	c->id = id;
	for (int w = 0; w < RS_WS_NR; w++)
		c->ws_first[w] = c->ws_last[w] = -1;
	c->series = rf->nr_series < RS_RF_SERIES_CGROUPS ? rf->nr_series++ : -1;
	rf->cg_hash[h] = rf->nr_cg;
	return rf->nr_cg++;
}

/* Into the memcg's series (when it has one) and the totals (every memcg, id 0 included). */
static void series_add(struct rs_refaults *rf, int cg, int metric, uint64_t ts, uint64_t v)
{
	if (!rf->series)
		return;
	rs_series_add(rf->series, RS_RF_SERIES_CGROUPS * RS_RF_TS_NR + metric, ts, v);
	if (cg >= 0 && rf->cg[cg].series >= 0)
		rs_series_add(rf->series, rf->cg[cg].series * RS_RF_TS_NR + metric, ts, v);
}

static struct rf_task *task_of(struct rs_refaults *rf, int task)
{
	if (task < 0)
		return NULL;
	if (task >= rf->nr_task) {
		int n = task < 64 ? 128 : 2 * task;
		struct rf_task *t = realloc(rf->task, (size_t)n * sizeof(*t));

		if (!t)
			return NULL;
		for (int i = rf->nr_task; i < n; i++) {
			memset(&t[i], 0, sizeof(t[i]));
			t[i].lru = -1;
			t[i].ep_rec = -1;
		}
		rf->task = t;
		rf->nr_task = n;
	}
	return &rf->task[task];
}

/* The per-episode record of the task's current episode, made on its first eviction. */
static int32_t episode_rec(struct rs_refaults *rf, struct rf_task *t, const struct rs_ctx *ctx,
			   const struct rs_event *ev)
{
	struct rs_rf_episode *e;

	if (!t || !ctx->serial)
		return -1;
	if (t->ep_rec >= 0 && t->ep_serial == ctx->serial)
		return t->ep_rec;
	if (rf->nr_ep >= RS_RF_MAX_EPISODES) {
		rs_warn_once(rf->warnings, &rf->warned_episodes, "refaults: more than %u reclaim "
			     "episodes evicted file pages; later ones have no per-episode record",
			     RS_RF_MAX_EPISODES);
		return -1;
	}
	if (RS_GROW(rf->ep, rf->cap_ep, rf->nr_ep + 1, 256))
		return -1;
	e = &rf->ep[rf->nr_ep];
	memset(e, 0, sizeof(*e));
	e->serial = ctx->serial;
	e->ctx = (uint8_t)ctx->kind;
	e->pid = ev->pid;
	e->first_ts = ev->ts;
	t->ep_serial = ctx->serial;
	t->ep_rec = (int32_t)rf->nr_ep;
	return (int32_t)rf->nr_ep++;
}

static void count_evict(struct rs_rf_counts *c, uint64_t pages, unsigned int flags)
{
	c->evicted_folios++;
	c->evicted_pages += pages;
	for (int w = 0; w < RS_RF_NR_WITHIN; w++)
		if (flags & OBSERVABLE(w))
			c->observable_pages[w] += pages;
}

static void count_refault(struct rs_rf_counts *c, uint64_t pages, uint64_t dist,
			  unsigned int flags)
{
	c->refaulted_pages += pages;
	for (int w = 0; w < RS_RF_NR_WITHIN; w++)
		if ((flags & OBSERVABLE(w)) && dist <= rs_rf_within_ns[w])
			c->refaulted_within_pages[w] += pages;
	c->dist_pages[rs_rf_dist_bucket(dist)] += pages;
}

static int list_slot(int list)
{
	return list >= 0 && list < RS_RF_NR_LISTS ? list : RS_RF_LIST_UNKNOWN;
}

/* A piece of an eviction added back: a refault. */
static void on_refault(void *arg, const struct rf_evict_info *in, uint64_t pages)
{
	struct rs_refaults *rf = arg;
	struct rs_rf_totals *t = &rf->tot;
	uint64_t dist = rf->add_ts > in->ts ? rf->add_ts - in->ts : 0;
	int list = list_slot(in->list), ctx = in->ctx < RS_CTX_NR ? in->ctx : RS_CTX_OTHER;
	int vcg = cg_of(rf, in->memcg);

	rf->add_pages += pages;
	count_refault(&t->all, pages, dist, in->flags);
	count_refault(&t->by_ctx[ctx], pages, dist, in->flags);
	count_refault(&t->by_list[list], pages, dist, in->flags);
	count_refault(&t->by_ctx_list[ctx][list], pages, dist, in->flags);
	if (vcg >= 0)
		count_refault(&rf->cg[vcg].victim, pages, dist, in->flags);
	series_add(rf, vcg, RS_RF_TS_REFAULTED, rf->add_ts, pages);
	if (rf->o.refault_hook)
		rf->o.refault_hook(rf->o.hook_arg, rf->add_ts, pages, dist);
	if (dist <= rf->o.thrash_distance_ns)
		series_add(rf, vcg, RS_RF_TS_QUICK, rf->add_ts, pages);
	for (uint64_t i = 0; i < pages; i++)
		rs_latency_add(rf->dist, dist);
	if (in->ep && in->ep <= rf->nr_ep) {
		struct rs_rf_episode *e = &rf->ep[in->ep - 1];

		e->refaulted_pages[list] += pages;
		if (dist <= rs_rf_within_ns[RS_RF_WITHIN_1S])
			e->refaulted_1s_pages[list] += pages;
	}
}

static void on_stale(void *arg, const struct rf_evict_info *in, uint64_t pages)
{
	struct rs_refaults *rf = arg;

	rf->tot.stale_pages += pages;
}

static void on_forget(void *arg, const struct rf_evict_info *in, uint64_t pages)
{
	struct rs_refaults *rf = arg;

	rf->tot.forgotten_ranges++;
	rf->tot.forgotten_pages += pages;
	rs_warn_once(rf->warnings, &rf->warned_full, "refaults: the eviction table is full "
		     "(--max-evicted %zu ranges); the oldest evictions are forgotten from %.6f s on, "
		     "so refault counts are lower bounds", rf->o.max_evicted,
		     (double)rf->add_ts / 1e9);
	rf->tot.table_full = true;
}

static bool is_eviction(const struct rs_ctx *ctx)
{
	switch (ctx->kind) {
	case RS_CTX_DIRECT:
	case RS_CTX_MEMCG:
	case RS_CTX_SOFTLIMIT:
	case RS_CTX_NODE:
	case RS_CTX_KSWAPD:
		return ctx->task >= 0;
	default:
		return false;
	}
}

/* Account an eviction and put it in the table. tk may be NULL (a task not followed). */
static void evict(struct rs_refaults *rf, const struct rs_ev_filemap *fm, uint64_t ts,
		  int ctx_kind, struct rf_evict_info *in, int32_t rec)
{
	uint64_t pages = 1ull << fm->order;
	struct rs_rf_totals *t = &rf->tot;
	int list, vcg;

	for (int w = 0; w < RS_RF_NR_WITHIN; w++)
		if (rf->span_end && ts + rs_rf_within_ns[w] <= rf->span_end)
			in->flags |= OBSERVABLE(w);
	in->ts = ts;
	in->ctx = (uint8_t)ctx_kind;
	in->ep = rec >= 0 ? (uint32_t)rec + 1 : 0;
	rf->add_ts = ts;
	/* evicted pages still in the table were added back unseen: not refaults of this one */
	rf_evicted_take(rf->tab, (uint32_t)fm->dev, fm->ino, fm->index, fm->order, on_stale,
			on_forget, rf);
	rf_evicted_put(rf->tab, (uint32_t)fm->dev, fm->ino, fm->index, fm->order, in, on_forget,
		       rf);
	list = list_slot(in->list);
	vcg = cg_of(rf, in->memcg);
	count_evict(&t->all, pages, in->flags);
	count_evict(&t->by_ctx[ctx_kind], pages, in->flags);
	count_evict(&t->by_list[list], pages, in->flags);
	count_evict(&t->by_ctx_list[ctx_kind][list], pages, in->flags);
	if (vcg >= 0)
		count_evict(&rf->cg[vcg].victim, pages, in->flags);
	series_add(rf, vcg, RS_RF_TS_EVICTED, ts, pages);
	if (rec >= 0)
		rf->ep[rec].evicted_pages[list] += pages;
}

static inline uint8_t *pend_bucket(struct rs_refaults *rf, int pid)
{
	return &rf->pend_in[(unsigned int)pid & (RF_PEND_HASH - 1)];
}

static void pend_task_add(struct rs_refaults *rf, int pid)
{
	rf->pend_pid[rf->nr_pend_pid++] = pid;
	(*pend_bucket(rf, pid))++;
}

static int pend_task(struct rs_refaults *rf, int pid)
{
	if (!*pend_bucket(rf, pid))
		return -1;
	for (int i = 0; i < rf->nr_pend_pid; i++)
		if (rf->pend_pid[i] == pid)
			return i;
	return -1;
}

/* Settle the held deletions of task pid: proactive evictions, or not reclaim at all. */
static void pend_resolve(struct rs_refaults *rf, int pid, bool reclaim)
{
	size_t o = 0;
	int k = pend_task(rf, pid);

	if (k < 0)
		return;
	for (size_t i = 0; i < rf->nr_pend; i++) {
		struct rf_pending *p = &rf->pend[i];

		if (p->pid != pid) {
			rf->pend[o++] = *p;
			continue;
		}
		if (reclaim) {
			struct rs_ev_filemap fm = { .dev = p->dev, .ino = p->ino,
						    .index = p->index, .order = p->order };
			struct rf_evict_info in = { .list = -1, .memcg = p->memcg };

			rf->tot.proactive_deletes++;
			evict(rf, &fm, p->ts, RS_CTX_OTHER, &in, -1);
		} else {
			rf->tot.other_deletes++;
			rf->tot.other_delete_pages += 1ull << p->order;
		}
	}
	rf->nr_pend = o;
	memmove(&rf->pend_pid[k], &rf->pend_pid[k + 1],
		(size_t)(rf->nr_pend_pid - k - 1) * sizeof(rf->pend_pid[0]));
	rf->nr_pend_pid--;
	(*pend_bucket(rf, pid))--;
}

static void pend_add(struct rs_refaults *rf, const struct rs_event *ev)
{
	struct rf_pending *p;

	if (pend_task(rf, ev->pid) < 0) {
		if (rf->nr_pend_pid == RF_PENDING_TASKS)
			pend_resolve(rf, rf->pend_pid[0], false);
		pend_task_add(rf, ev->pid);
	}
	if (rf->nr_pend == RF_PENDING_MAX) {
		rf->tot.unresolved_overflows++;
		pend_resolve(rf, rf->pend_pid[0], false);
		if (pend_task(rf, ev->pid) < 0)
			pend_task_add(rf, ev->pid);
	}
	if (RS_GROW(rf->pend, rf->cap_pend, rf->nr_pend + 1, 256)) {
		rf->tot.other_deletes++;
		rf->tot.other_delete_pages += 1ull << ev->filemap.order;
		return;
	}
	p = &rf->pend[rf->nr_pend++];
	p->pid = ev->pid;
	p->dev = (uint32_t)ev->filemap.dev;
	p->ino = ev->filemap.ino;
	p->index = ev->filemap.index;
	p->order = (uint8_t)ev->filemap.order;
	p->ts = ev->ts;
	p->memcg = 0;
}

/* The memcg a held deletion was charged to: the task's next memcg event (its stat update). */
static void pend_memcg(struct rs_refaults *rf, const struct rs_event *ev)
{
	for (size_t i = rf->nr_pend; i-- > 0;) {
		if (rf->pend[i].pid != ev->pid)
			continue;
		if (!rf->pend[i].memcg)
			rf->pend[i].memcg = ev->memcg.id;
		return;
	}
}

static void on_delete(struct rs_refaults *rf, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	const struct rs_ev_filemap *fm = &ev->filemap;
	struct rf_evict_info in = { .list = -1 };
	struct rf_task *tk;

	rf->tot.deletes++;
	rf->tot.delete_pages += 1ull << fm->order;
	if (!is_eviction(ctx)) {
		if (ev->pid >= 0)
			pend_add(rf, ev);
		else {
			rf->tot.other_deletes++;
			rf->tot.other_delete_pages += 1ull << fm->order;
		}
		return;
	}
	tk = task_of(rf, ctx->task);
	if (tk && tk->window) {
		in.list = tk->lru;
		in.memcg = tk->victim;
	} else if (tk && tk->slab) {
		in.list = RS_RF_LIST_SLAB;
	}
	evict(rf, fm, ev->ts, ctx->kind, &in, episode_rec(rf, tk, ctx, ev));
}

static void on_add(struct rs_refaults *rf, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	const struct rs_memcg_ctx *mc = ctx->memcg;
	const struct rs_memcg *row;
	const struct rs_ev_filemap *fm = &ev->filemap;
	uint64_t id;

	rf->tot.adds++;
	rf->tot.add_pages += 1ull << fm->order;
	rf->add_ts = ev->ts;
	rf->add_pages = 0;
	rf_evicted_take(rf->tab, (uint32_t)fm->dev, fm->ino, fm->index, fm->order, on_refault,
			on_forget, rf);
	if (!rf->add_pages)
		return;
	rf->tot.refaulted_folios++;
	row = mc && mc->task >= 0 ? rs_memcgs_get(mc->memcgs, mc->task) : NULL;
	id = row ? row->id : 0;
	rf->add_cg = cg_of(rf, id);
	if (rf->add_cg >= 0) {
		rf->cg[rf->add_cg].faulted_folios++;
		rf->cg[rf->add_cg].faulted_pages += rf->add_pages;
	}
}

static void on_snapshot(struct rs_refaults *rf, const struct rs_ev_snap_memcg *s)
{
	int i;
	bool any = false;

	for (int w = 0; w < RS_WS_NR; w++)
		any |= s->ws[w] >= 0;
	if (!any || !s->id)
		return;
	i = cg_of(rf, s->id);
	if (i < 0)
		return;
	rf->cg[i].snapshots++;
	for (int w = 0; w < RS_WS_NR; w++) {
		if (s->ws[w] < 0)
			continue;
		if (rf->cg[i].ws_first[w] < 0)
			rf->cg[i].ws_first[w] = s->ws[w];
		rf->cg[i].ws_last[w] = s->ws[w];
	}
}

/* The first memcg a task names after its lru_isolate owns the lruvec being shrunk. */
static void note_victim(struct rs_refaults *rf, const struct rs_event *ev,
			const struct rs_ctx *ctx)
{
	struct rf_task *t = ctx->task >= 0 && ctx->task < rf->nr_task ? &rf->task[ctx->task] :
			    NULL;

	if (t && t->window && !t->victim)
		t->victim = ev->memcg.id;
}

/* Does this event of a task with held deletions settle them as not reclaim? */
static bool settles(enum rs_ev_type type)
{
	switch (type) {
	case RS_EV_FILEMAP_ADD:
	case RS_EV_EXIT:
	case RS_EV_EXEC:
	case RS_EV_FORK:
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
	case RS_EV_CGROUP_ATTACH:
		return true;
	default:
		return false;
	}
}

static int on_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct rs_refaults *rf = arg;
	struct rf_task *t;

	if (ctx->memcg && !rf->memcgs)
		rf->memcgs = ctx->memcg->memcgs;
	if (rf->nr_pend_pid && ev->pid >= 0 && pend_task(rf, ev->pid) >= 0) {
		if (ev->type == RS_EV_RECLAIM_PAGES)
			pend_resolve(rf, ev->pid, true);
		else if (settles(ev->type))
			pend_resolve(rf, ev->pid, false);
		else if (ev->type == RS_EV_MEMCG_LRUVEC || ev->type == RS_EV_MEMCG_STATE ||
			 ev->type == RS_EV_MEMCG_COUNT)
			pend_memcg(rf, ev);
	}
	switch (ev->type) {
	case RS_EV_FILEMAP_DELETE:
		rf->recorded = true;
		on_delete(rf, ev, ctx);
		break;
	case RS_EV_FILEMAP_ADD:
		rf->recorded = true;
		on_add(rf, ev, ctx);
		break;
	case RS_EV_LRU_ISOLATE:
		t = task_of(rf, ctx->task);
		if (t) {
			t->window = true;
			t->lru = (int8_t)(ev->isolate.lru >= 0 ? ev->isolate.lru : -1);
			t->victim = 0;
		}
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
		t = task_of(rf, ctx->task);
		if (t)
			t->window = false;
		break;
	case RS_EV_SLAB_START:
		t = task_of(rf, ctx->task);
		if (t)
			t->slab = 1;
		break;
	case RS_EV_SLAB_END:
		t = task_of(rf, ctx->task);
		if (t)
			t->slab = 0;
		break;
	case RS_EV_MEMCG_COUNT:
		/* the item is told by the loading stage's names (rs_memcg_ctx.item_class) */
		if (ctx->memcg && ctx->memcg->item_class == RS_MIC_PSWPIN && ev->memcg.val > 0) {
			int i = cg_of(rf, ev->memcg.id);

			rf->tot.swapins += (uint64_t)ev->memcg.val;
			rf->tot.swapin_events++;
			if (i >= 0) {
				rf->cg[i].swapins += (uint64_t)ev->memcg.val;
				rf->cg[i].swapin_events++;
			}
			series_add(rf, i, RS_RF_TS_SWAPIN, ev->ts, (uint64_t)ev->memcg.val);
		}
		note_victim(rf, ev, ctx);
		break;
	case RS_EV_MEMCG_LRUVEC:
		note_victim(rf, ev, ctx);
		break;
	case RS_EV_SNAP_MEMCG:
		on_snapshot(rf, &ev->snap_memcg);
		break;
	default:
		break;
	}
	return 0;
}

static void on_pending(void *arg, const struct rf_evict_info *in, uint64_t pages)
{
	struct rs_refaults *rf = arg;

	rf->tot.pending_pages += pages;
}

/* Runs of buckets with at least RS_RF_THRASH_MIN_PAGES quick refaults, per cgroup. */
static void find_thrash(struct rs_refaults *rf)
{
	const struct rs_buckets bk = rs_refaults_buckets(rf);
	const uint64_t t0 = bk.t0, w = bk.width;
	const size_t len = bk.len;

	for (int i = 0; i < rf->nr_cg; i++) {
		struct rs_rf_cgroup *c = &rf->cg[i];
		const uint64_t *q, *ev;
		struct rs_rf_thrash *run = NULL;

		if (c->series < 0 || !len)
			continue;
		q = rs_series_values(rf->series, c->series * RS_RF_TS_NR + RS_RF_TS_QUICK);
		ev = rs_series_values(rf->series, c->series * RS_RF_TS_NR + RS_RF_TS_EVICTED);
		for (size_t b = 0; b < len; b++) {
			if (q[b] < RS_RF_THRASH_MIN_PAGES) {
				run = NULL;
				continue;
			}
			if (!run) {
				size_t sz = (size_t)(c->nr_thrash + 1) * sizeof(*run);
				struct rs_rf_thrash *p = realloc(c->thrash, sz);

				if (!p)
					break;
				c->thrash = p;
				run = &c->thrash[c->nr_thrash++];
				run->from_ns = t0 + b * w;
				run->quick_pages = run->evicted_pages = 0;
			}
			run->to_ns = t0 + (b + 1) * w;
			run->quick_pages += q[b];
			run->evicted_pages += ev[b];
			c->thrash_ns += w;
		}
	}
}

static int on_finish(void *arg, struct rs_error *err)
{
	struct rs_refaults *rf = arg;
	uint64_t end = rf->a ? rs_analysis_last_ts(rf->a) : rf->add_ts;

	while (rf->nr_pend_pid)
		pend_resolve(rf, rf->pend_pid[0], false);
	rf_evicted_each(rf->tab, on_pending, rf);
	rf->tot.table_peak = rf_evicted_peak(rf->tab);
	/*
	 * The recorder names the vm events from the kernel's own list, but swap-ins per memcg
	 * arrive only as count_memcg_events: a kernel without that event (6.1) counted none,
	 * unknown rather than 0. The names are the loading stage's latest table, those before
	 * a --from range included (rs_cgroups_prefeed()).
	 */
	rf->tot.pswpin_named = rf->a && !rf->no_memcg_counts &&
			       rs_memcgs_have_item_class(rs_analysis_memcgs(rf->a), RS_MIC_PSWPIN);
	if (rf->series)
		rs_series_finish(rf->series, end);
	find_thrash(rf);
	return 0;
}

static void on_start(void *arg, const struct rs_analysis *a)
{
	rs_refaults_bind(arg, a);
}

void rs_refaults_consumer(struct rs_refaults *rf, struct rs_consumer *out)
{
	*out = (struct rs_consumer){ .name = "refaults", .arg = rf, .start = on_start,
		.event = on_event, .finish = on_finish };
}

bool rs_refaults_recorded(const struct rs_refaults *rf)
{
	return rf->recorded;
}

uint64_t rs_refaults_thrash_distance(const struct rs_refaults *rf)
{
	return rf->o.thrash_distance_ns;
}

const struct rs_rf_totals *rs_refaults_totals(const struct rs_refaults *rf)
{
	return &rf->tot;
}

void rs_refaults_distance(struct rs_refaults *rf, struct rs_latency_summary *out)
{
	rs_latency_summary(rf->dist, out);
}

int rs_refaults_nr_cgroups(const struct rs_refaults *rf)
{
	return rf->nr_cg;
}

const struct rs_rf_cgroup *rs_refaults_cgroup(const struct rs_refaults *rf, int i)
{
	return i >= 0 && i < rf->nr_cg ? &rf->cg[i] : NULL;
}

int rs_refaults_find(const struct rs_refaults *rf, uint64_t id)
{
	for (int i = 0; i < rf->nr_cg; i++)
		if (rf->cg[i].id == id)
			return i;
	return -1;
}

struct rs_buckets rs_refaults_buckets(const struct rs_refaults *rf)
{
	return rf->series ? rs_series_buckets(rf->series) : (struct rs_buckets){ 0 };
}

const uint64_t *rs_refaults_series(const struct rs_refaults *rf, int cgroup, int metric)
{
	if (!rf->series || cgroup < 0 || cgroup >= rf->nr_cg || rf->cg[cgroup].series < 0 ||
	    metric < 0 || metric >= RS_RF_TS_NR)
		return NULL;
	return rs_series_values(rf->series, rf->cg[cgroup].series * RS_RF_TS_NR + metric);
}

const uint64_t *rs_refaults_series_all(const struct rs_refaults *rf, int metric)
{
	if (!rf->series || metric < 0 || metric >= RS_RF_TS_NR)
		return NULL;
	return rs_series_values(rf->series, RS_RF_SERIES_CGROUPS * RS_RF_TS_NR + metric);
}

size_t rs_refaults_nr_episodes(const struct rs_refaults *rf)
{
	return rf->nr_ep;
}

const struct rs_rf_episode *rs_refaults_episode(const struct rs_refaults *rf, size_t i)
{
	return i < rf->nr_ep ? &rf->ep[i] : NULL;
}

const struct rs_rf_episode *rs_refaults_episode_find(const struct rs_refaults *rf,
						     uint64_t serial)
{
	/* records are made at an episode's first eviction, so a nested episode's record can
	   come before its parent's: search, do not assume order */
	for (size_t i = 0; i < rf->nr_ep; i++)
		if (rf->ep[i].serial == serial)
			return &rf->ep[i];
	return NULL;
}

const char *rs_refaults_path(const struct rs_refaults *rf, uint64_t id, char *buf, size_t n)
{
	int row;

	if (!id)
		return "(unknown)";
	row = rf->memcgs ? rs_memcgs_find_id(rf->memcgs, id) : -1;
	if (row >= 0 && rs_memcgs_get(rf->memcgs, row)->path)
		return rs_memcgs_get(rf->memcgs, row)->path;
	snprintf(buf, n, "id:%" PRIu64, id);
	return buf;
}

void rs_refaults_findings(const struct rs_refaults *rf, struct rs_findings *f)
{
	const struct rs_rf_totals *t = &rf->tot;
	const struct rs_rf_cgroup *worst = NULL;
	char buf[32];

	memset(&f->refaults, 0, sizeof(f->refaults));
	f->refaults.set = true;
	f->refaults.recorded = rf->recorded;
	f->refaults.evicted_pages = t->all.evicted_pages;
	f->refaults.refaulted_pages = t->all.refaulted_pages;
	f->refaults.refaulted_folios = t->refaulted_folios;
	f->refaults.observable_1s_pages = t->all.observable_pages[RS_RF_WITHIN_1S];
	f->refaults.within_1s_pages = t->all.refaulted_within_pages[RS_RF_WITHIN_1S];
	f->refaults.lower_bound = t->table_full;
	f->refaults.swapins_known = t->pswpin_named;
	f->refaults.swapin_pages = t->swapins;
	for (int i = 0; i < rf->nr_cg; i++)
		if (rf->cg[i].thrash_ns && (!worst || rf->cg[i].thrash_ns > worst->thrash_ns))
			worst = &rf->cg[i];
	if (worst) {
		snprintf(f->refaults.thrash_name, sizeof(f->refaults.thrash_name), "%s",
			 rs_refaults_path(rf, worst->id, buf, sizeof(buf)));
		f->refaults.thrash_s = (double)worst->thrash_ns / 1e9;
	}
}
