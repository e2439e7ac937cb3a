// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline's multi-resolution index (include/timeline_index.h).
 *
 * Level 0 is one array, bucket-major (all series of a bucket together), because the events
 * of a trace come in time order: an event touches one bucket's few series, and a run of
 * events stays on the same cache lines. The bucket of the previous event is kept, so the
 * hot path divides only when time moves to another bucket. Spans are appended as episodes
 * close and sorted once at the end; episode scan / reclaim / victim figures are summed in a
 * small per-task stack of accumulators keyed by the episode serial the context carries.
 */
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>
#include <stdio.h>

#include "memcg_attrib.h"
#include "rs_cmp.h"
#include "rs_grow.h"
#include "rs_sort.h"
#include "series.h"
#include "timeline_index.h"
#include "u64map.h"

#define ACC_DEPTH (RS_EPISODES_MAX_DEPTH + 1)	/* reclaim nesting + a kswapd period */

struct acc {
	uint64_t serial;		/* 0: free */
	uint64_t scanned, reclaimed;
	uint32_t vcg[TL_SPAN_VICTIMS];
	uint64_t vscan[TL_SPAN_VICTIMS], vrecl[TL_SPAN_VICTIMS];
	uint8_t nv;
	bool more;
};

struct task_priv {
	const char *comm_ptr;
	struct acc *acc;		/* [ACC_DEPTH], allocated on first use */
};

struct tl_index {
	struct tl_index_opts o;
	bool span_known, finished, have_ts, oom;
	bool mglru;			/* tl_index_set_mglru() */
	uint64_t t0, w0;
	size_t cap0;			/* level 0 buckets allocated */
	size_t used0;			/* level 0 buckets in use (last touched + 1) */
	struct tl_bucket *lv[TL_MAX_LEVELS];
	size_t nb[TL_MAX_LEVELS];
	int nr_levels;
	struct tl_bucket total[TL_S_NR];
	/* the bucket of the last event */
	size_t cur_b;
	uint64_t cur_start, cur_end;

	uint64_t events, first_ts, last_ts;

	struct tl_span *spans;
	size_t nspans, cap_spans;
	struct tl_victim *victims;
	size_t nvictims, cap_victims;
	bool sorted;
	uint64_t max_span, dropped, floor;

	struct tl_task *tasks;
	struct task_priv *tpriv;
	int ntasks, cap_tasks;
	struct rs_u64map pid_task;	/* pid + 1 -> task */

	const struct rs_memcgs *mc;	/* the loading stage's memcgs (cgroup indices), while
					   the analysis runs; its names are copied at the finish */
	char **cgname;			/* [ncg] after the finish, row order */
	uint64_t *cgid;
	int ncg;
};

/* ---- classification ---- */

static int list_of_isolate(const struct rs_event *ev)
{
	if ((ev->have & RS_HAVE_LRU) && ev->isolate.lru >= 0 && ev->isolate.lru < 4)
		return ev->isolate.lru;
	/* 3.5-4.10: only `file`; shrink_inactive isolates are by far the most */
	if (ev->have & RS_HAVE_FILE)
		return ev->isolate.file ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON;
	return -1;
}

static bool is_stall(int ctx_kind)
{
	return ctx_kind >= RS_CTX_DIRECT && ctx_kind <= RS_CTX_NODE;
}

/*
 * A shrink event's list (inactive or active by the event, anon or file by its flags; enum rs_lru
 * is the kernel's order): the pages it reclaimed (inactive) or deactivated (active) of those it
 * scanned or took, and its priority where the event has one, as 1 (lowest pressure) to 13.
 */
static int add_shrink(const struct rs_event *ev, unsigned int flags, uint64_t done, uint64_t of,
		      int prio, struct tl_add *out, int n)
{
	int l = ((flags & RS_RECLAIM_WB_FILE) ? RS_LRU_INACTIVE_FILE : RS_LRU_INACTIVE_ANON) +
		(ev->type == RS_EV_SHRINK_ACTIVE);

	out[n++] = (struct tl_add){ TL_S_RECL + l, done };
	out[n++] = (struct tl_add){ TL_S_BASE + l, of };
	if ((ev->have & RS_HAVE_PRIORITY) && prio >= 0 && prio <= RS_PRIO_DEF)
		out[n++] = (struct tl_add){ TL_S_PRIO, (uint64_t)(RS_PRIO_DEF + 1 - prio) };
	return n;
}

int tl_classify(const struct rs_event *ev, int ck, struct tl_add out[TL_MAX_ADDS])
{
	int n = 0, l;

	if (ck < 0 || ck >= RS_CTX_NR)
		ck = RS_CTX_OTHER;
	out[n++] = (struct tl_add){ TL_S_EVENTS, 1 };
	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
		l = list_of_isolate(ev);
		if (l >= 0) {
			out[n++] = (struct tl_add){ TL_S_SCAN + l, ev->isolate.nr_scanned };
			if (is_stall(ck))
				out[n++] = (struct tl_add){ TL_S_SSCAN + l,
							    ev->isolate.nr_scanned };
		}
		out[n++] = (struct tl_add){ TL_S_CTX_SCAN + ck, ev->isolate.nr_scanned };
		break;
	case RS_EV_SHRINK_INACTIVE:
		n = add_shrink(ev, ev->inactive.reclaim_flags, ev->inactive.nr_reclaimed,
			       ev->inactive.nr_scanned, ev->inactive.priority, out, n);
		/* fall through */
	case RS_EV_RECLAIM_PAGES:
		out[n++] = (struct tl_add){ TL_S_CTX_RECL + ck, ev->inactive.nr_reclaimed };
		out[n++] = (struct tl_add){ TL_S_CTX_BASE + ck, ev->inactive.nr_scanned };
		break;
	case RS_EV_SHRINK_ACTIVE:
		n = add_shrink(ev, ev->active.reclaim_flags, ev->active.nr_deactivated,
			       ev->active.nr_taken, ev->active.priority, out, n);
		break;
	case RS_EV_WRITE_FOLIO:
		out[n++] = (struct tl_add){ TL_S_WRITE, 1 };
		break;
	case RS_EV_THROTTLED:
		out[n++] = (struct tl_add){ TL_S_THROTTLE, ev->throttled.usec_delayed > 0 ?
					    (uint64_t)ev->throttled.usec_delayed : 0 };
		break;
	case RS_EV_OOM_VICTIM:
		out[n++] = (struct tl_add){ TL_S_OOM, 1 };
		break;
	case RS_EV_LOST:
		out[n++] = (struct tl_add){ TL_S_LOST, ev->lost > 0 ? (uint64_t)ev->lost : 1 };
		break;
	case RS_EV_KSWAPD_FAIL:
		out[n++] = (struct tl_add){ TL_S_KFAIL, 1 };
		break;
	case RS_EV_KSWAPD_CLEAR_HOPELESS:
		out[n++] = (struct tl_add){ TL_S_KCLEAR, 1 };
		break;
	default:
		break;
	}
	return n;
}

/* ---- buckets ---- */

static inline void bucket_add(struct tl_bucket *b, uint64_t v)
{
	b->sum += v;
	if (v > b->max)
		b->max = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	b->cnt++;
}

static inline struct tl_bucket *cell0(struct tl_index *ix, size_t b, int s)
{
	return &ix->lv[0][b * TL_S_NR + (size_t)s];
}

static void merge_into(struct tl_bucket *dst, const struct tl_bucket *src)
{
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->cnt += src->cnt;
}

/* Halve level 0's resolution: merge bucket pairs (the span turned out longer). */
static void fold(struct tl_index *ix)
{
	size_t half = ix->cap0 / 2;

	for (size_t i = 0; i < half; i++) {
		struct tl_bucket *d = cell0(ix, i, 0);
		const struct tl_bucket *a = cell0(ix, 2 * i, 0), *b = cell0(ix, 2 * i + 1, 0);

		for (int s = 0; s < TL_S_NR; s++) {
			struct tl_bucket m = a[s];

			merge_into(&m, &b[s]);
			d[s] = m;
		}
	}
	memset(cell0(ix, half, 0), 0, (ix->cap0 - half) * TL_S_NR * sizeof(struct tl_bucket));
	ix->w0 *= 2;
	ix->used0 = (ix->used0 + 1) / 2;
	ix->cur_end = ix->cur_start = 0;	/* recompute the cached bucket */
}

static size_t bucket_of(struct tl_index *ix, uint64_t ts)
{
	uint64_t b;

	if (ts >= ix->cur_start && ts < ix->cur_end)
		return ix->cur_b;
	if (ts < ix->t0)
		ts = ix->t0;
	b = (ts - ix->t0) / ix->w0;
	while (b >= ix->cap0) {
		fold(ix);
		b = (ts - ix->t0) / ix->w0;
	}
	ix->cur_b = (size_t)b;
	ix->cur_start = ix->t0 + b * ix->w0;
	ix->cur_end = ix->cur_start + ix->w0;
	if (ix->cur_b + 1 > ix->used0)
		ix->used0 = ix->cur_b + 1;
	return ix->cur_b;
}

static void set_origin(struct tl_index *ix, uint64_t ts)
{
	if (ix->have_ts)
		return;
	ix->have_ts = true;
	if (!ix->span_known)
		ix->t0 = ts;
}

/* ---- tasks ---- */

static struct tl_task *task_get(struct tl_index *ix, int task, const struct rs_event *ev)
{
	struct tl_task *t;

	if (task < 0)
		return NULL;
	if (task >= ix->cap_tasks) {
		int old = ix->cap_tasks;

		if (rs_grow_rows(&ix->cap_tasks, task, 64, (const struct rs_grow_array[]){
				{ (void **)&ix->tasks, sizeof(*ix->tasks) },
				{ (void **)&ix->tpriv, sizeof(*ix->tpriv) } }, 2)) {
			ix->oom = true;
			return NULL;
		}
		for (int i = old; i < ix->cap_tasks; i++)
			ix->tasks[i].pid = -1;
	}
	t = &ix->tasks[task];
	if (task >= ix->ntasks)
		ix->ntasks = task + 1;
	if (ev && t->pid != ev->pid && ev->pid >= 0) {
		t->pid = ev->pid;
		rs_u64map_put(&ix->pid_task, (uint64_t)ev->pid + 1, task);
	}
	if (ev && ev->comm && ix->tpriv[task].comm_ptr != ev->comm) {
		ix->tpriv[task].comm_ptr = ev->comm;
		strncpy(t->comm, ev->comm, sizeof(t->comm) - 1);
		t->comm[sizeof(t->comm) - 1] = '\0';
	}
	return t;
}

static struct acc *acc_find(struct tl_index *ix, int task, uint64_t serial, bool create)
{
	struct task_priv *tp;
	struct acc *free_slot = NULL;

	if (task < 0 || task >= ix->cap_tasks || !serial)
		return NULL;
	tp = &ix->tpriv[task];
	if (!tp->acc) {
		if (!create)
			return NULL;
		tp->acc = calloc(ACC_DEPTH, sizeof(*tp->acc));
		if (!tp->acc) {
			ix->oom = true;
			return NULL;
		}
	}
	for (int i = 0; i < ACC_DEPTH; i++) {
		if (tp->acc[i].serial == serial)
			return &tp->acc[i];
		if (!tp->acc[i].serial && !free_slot)
			free_slot = &tp->acc[i];
	}
	if (!create)
		return NULL;
	if (!free_slot) {
		/* more open than the nesting allows: the oldest is stale (its close was lost) */
		free_slot = &tp->acc[0];
		for (int i = 1; i < ACC_DEPTH; i++)
			if (tp->acc[i].serial < free_slot->serial)
				free_slot = &tp->acc[i];
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->serial = serial;
	return free_slot;
}

static void acc_victim(struct acc *a, uint32_t cg, uint64_t scan, uint64_t recl)
{
	for (int i = 0; i < a->nv; i++) {
		if (a->vcg[i] == cg) {
			a->vscan[i] += scan;
			a->vrecl[i] += recl;
			return;
		}
	}
	if (a->nv < TL_SPAN_VICTIMS) {
		a->vcg[a->nv] = cg;
		a->vscan[a->nv] = scan;
		a->vrecl[a->nv++] = recl;
	} else {
		a->more = true;
	}
}

/* ---- events ---- */

/*
 * An isolate of an inactive list that took nothing (no shrink event) still scanned its memcg:
 * counted for the episode it was in when its scan counter matched.
 */
static void isolate_only_victim(struct tl_index *ix, const struct rs_ctx *ctx)
{
	const struct rs_victim *v = &ctx->memcg->closed;
	struct acc *a;

	if (!v->valid || v->how != RS_VICTIM_EXACT || v->row < 0 || !v->serial ||
	    (v->lru != RS_LRU_INACTIVE_ANON && v->lru != RS_LRU_INACTIVE_FILE))
		return;
	a = acc_find(ix, ctx->task, v->serial, false);
	if (a)
		acc_victim(a, TL_CG_ROW0 + (uint32_t)v->row, v->nr_scanned, 0);
}

/* Events that put their task in the task list (it reclaims) and tell whether it is a kswapd. */
static bool reclaimer_event(enum rs_ev_type t)
{
	return t == RS_EV_KSWAPD_SLEEP || t == RS_EV_KSWAPD_WAKE || rs_ev_lru_reclaim(t);
}

static inline uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

int tl_index_event(struct tl_index *ix, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct tl_add adds[TL_MAX_ADDS];
	int n, ck = ctx ? (int)ctx->kind : RS_CTX_OTHER;
	size_t b;
	struct acc *a;

	set_origin(ix, ev->ts);
	if (!ix->events++)
		ix->first_ts = ev->ts;
	if (ev->ts > ix->last_ts)
		ix->last_ts = ev->ts;
	if (ctx && ctx->memcg && !ix->finished)
		ix->mc = ctx->memcg->memcgs;
	b = bucket_of(ix, ev->ts);
	n = tl_classify(ev, ck, adds);
	for (int i = 0; i < n; i++) {
		bucket_add(cell0(ix, b, adds[i].series), adds[i].v);
		bucket_add(&ix->total[adds[i].series], adds[i].v);
	}
	if (!ctx || ctx->task < 0)
		return 0;
	if (reclaimer_event(ev->type)) {
		struct tl_task *t = task_get(ix, ctx->task, ev);

		if (t && (ctx->kind == RS_CTX_KSWAPD || ctx->outer == RS_CTX_KSWAPD ||
			  ev->type == RS_EV_KSWAPD_WAKE || ev->type == RS_EV_KSWAPD_SLEEP))
			t->kswapd = true;
	}
	if (ctx->memcg)
		isolate_only_victim(ix, ctx);
	if (!ctx->serial)
		return 0;
	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
		a = acc_find(ix, ctx->task, ctx->serial, true);
		if (a)
			a->scanned += ev->isolate.nr_scanned;
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_RECLAIM_PAGES:
		a = acc_find(ix, ctx->task, ctx->serial, true);
		if (!a)
			break;
		a->reclaimed += ev->inactive.nr_reclaimed;
		/* the victim the loading stage matched (memcg_attrib.h) */
		if (ev->type == RS_EV_SHRINK_INACTIVE && ctx->memcg &&
		    ctx->memcg->shrink.row >= 0)
			acc_victim(a, TL_CG_ROW0 + (uint32_t)ctx->memcg->shrink.row,
				   ev->inactive.nr_scanned, ev->inactive.nr_reclaimed);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- spans ---- */

/* The cap is reached: keep the longer half (the stalls worth jumping to). */
static void shed_spans(struct tl_index *ix)
{
	uint64_t *d = malloc(ix->nspans * sizeof(*d));
	struct tl_victim *nv;
	size_t k = 0, kv = 0;

	if (!d) {
		ix->oom = true;
		return;
	}
	for (size_t i = 0; i < ix->nspans; i++)
		d[i] = ix->spans[i].end - ix->spans[i].begin;
	rs_sort_u64(d, ix->nspans);
	ix->floor = d[ix->nspans / 2] + 1;
	free(d);
	nv = malloc((ix->nvictims ? ix->nvictims : 1) * sizeof(*nv));
	if (!nv) {
		ix->oom = true;
		return;
	}
	for (size_t i = 0; i < ix->nspans; i++) {
		struct tl_span s = ix->spans[i];

		if (s.end - s.begin < ix->floor) {
			ix->dropped++;
			continue;
		}
		memcpy(nv + kv, ix->victims + s.victim_off, s.nr_victims * sizeof(*nv));
		s.victim_off = (uint32_t)kv;
		kv += s.nr_victims;
		ix->spans[k++] = s;
	}
	memcpy(ix->victims, nv, kv * sizeof(*nv));
	free(nv);
	ix->nspans = k;
	ix->nvictims = kv;
}

/* Add the time of [begin, end) to series s bucket by bucket; max = duration (us). */
static void add_span_time(struct tl_index *ix, int s, uint64_t begin, uint64_t end)
{
	uint32_t dur_us = sat32((end - begin) / 1000);
	size_t b0, b1;

	b1 = bucket_of(ix, end);	/* first: it may fold */
	b0 = bucket_of(ix, begin);
	for (size_t b = b0; b <= b1; b++) {
		uint64_t bs = ix->t0 + b * ix->w0;
		struct tl_bucket *c = cell0(ix, b, s);

		c->sum += rs_span_overlap(begin, end, bs, bs + ix->w0);
		if (dur_us > c->max)
			c->max = dur_us;
		if (b == b0)
			c->cnt++;
	}
	ix->total[s].sum += end - begin;
	if (dur_us > ix->total[s].max)
		ix->total[s].max = dur_us;
	ix->total[s].cnt++;
}

void tl_index_episode(struct tl_index *ix, const struct rs_episode *ep)
{
	uint64_t begin = ep->begin_ts, end = ep->end_ts;
	struct acc *a = acc_find(ix, ep->task, ep->serial, false);
	struct tl_span *sp;
	int kind = (int)ep->kind, row;

	if (kind < 0 || kind >= RS_CTX_NR || kind == RS_CTX_OTHER)
		goto out;
	set_origin(ix, begin ? begin : end);
	if (!begin || begin < ix->first_ts)
		begin = ix->events ? ix->first_ts : end;	/* cut at the start */
	if (end < begin)
		end = begin;
	add_span_time(ix, TL_S_CTX_TIME + kind, begin, end);
	if (end - begin < ix->floor) {
		ix->dropped++;
		goto out;
	}
	if (ix->nspans >= ix->o.max_spans)
		shed_spans(ix);
	if (end - begin < ix->floor) {
		ix->dropped++;
		goto out;
	}
	if (rs_grow((void **)&ix->spans, &ix->cap_spans, ix->nspans + 1, sizeof(*ix->spans),
		    1024, ix->o.max_spans) ||
	    rs_grow((void **)&ix->victims, &ix->cap_victims, ix->nvictims + TL_SPAN_VICTIMS,
		    sizeof(*ix->victims), 1024, (size_t)ix->o.max_spans * TL_SPAN_VICTIMS)) {
		ix->oom = true;
		ix->dropped++;
		goto out;
	}
	sp = &ix->spans[ix->nspans++];
	memset(sp, 0, sizeof(*sp));
	sp->begin = begin;
	sp->end = end;
	sp->pid = ep->pid;
	sp->task = ep->task >= 0 ? (uint32_t)ep->task : UINT32_MAX;
	if (ep->task >= 0 && !task_get(ix, ep->task, NULL))
		sp->task = UINT32_MAX;
	if (sp->task != UINT32_MAX && ix->tasks[sp->task].pid < 0) {
		ix->tasks[sp->task].pid = ep->pid;
		if (ep->pid >= 0)
			rs_u64map_put(&ix->pid_task, (uint64_t)ep->pid + 1, (int)sp->task);
	}
	if (kind == RS_CTX_KSWAPD && sp->task != UINT32_MAX)
		ix->tasks[sp->task].kswapd = true;
	if (sp->task != UINT32_MAX && ix->tasks[sp->task].kswapd)
		sp->trigger = TL_CG_KSWAPD;
	else if (ix->mc && (row = rs_memcgs_task(ix->mc, ep->pid)) >= 0)
		sp->trigger = TL_CG_ROW0 + (uint32_t)row;
	/* 7.1+: the memcg whose limit the episode reclaims, from the kernel's memcg_id */
	if (ep->root && ep->root->how == RS_ROOT_KERNEL && ep->root->row >= 0)
		sp->target = TL_CG_ROW0 + (uint32_t)ep->root->row;
	sp->kind = (uint8_t)kind;
	sp->status = (uint8_t)ep->status;
	sp->flags = ep->broken ? TL_SPAN_BROKEN : 0;
	sp->victim_off = (uint32_t)ix->nvictims;
	if (a) {
		sp->scanned = sat32(a->scanned);
		sp->reclaimed = sat32(a->reclaimed);
		for (int i = 0; i < a->nv; i++)
			ix->victims[ix->nvictims++] = (struct tl_victim){
				a->vcg[i], sat32(a->vscan[i]), sat32(a->vrecl[i]) };
		sp->nr_victims = a->nv;
		if (a->more)
			sp->flags |= TL_SPAN_MORE_VICTIMS;
	}
	if (kind != RS_CTX_KSWAPD && ep->status == RS_EP_COMPLETE)
		sp->reclaimed = sat32(ep->nr_reclaimed);
	if (end - begin > ix->max_span)
		ix->max_span = end - begin;
	ix->sorted = false;
out:
	if (a)
		a->serial = 0;
}

static int cmp_span(const void *a, const void *b)
{
	const struct tl_span *x = a, *y = b;

	/* at one begin the outer (longer) first, so the innermost of a nest comes last */
	return RS_CMP(x->begin, y->begin) ?: RS_CMP(y->end, x->end) ?: RS_CMP(x->task, y->task);
}

/* The name of memcg row `row` of the live analysis: buf when it has to be made. */
static const char *row_name(const struct rs_memcgs *mc, int row, char *buf, size_t n)
{
	const struct rs_memcg *m = rs_memcgs_get(mc, row);

	if (!m)
		return "?";
	if (m->flags & RS_CGF_OVERFLOW)
		return "(other cgroups)";
	if (m->path)
		return m->path;
	snprintf(buf, n, "id:%" PRIu64, m->id);
	return buf;
}

/* The analysis (and its memcgs) may go before the index: keep the names. */
static void keep_cgroup_names(struct tl_index *ix)
{
	int n = ix->mc ? rs_memcgs_count(ix->mc) : 0;
	char buf[32];

	ix->cgname = calloc((size_t)(n ? n : 1), sizeof(*ix->cgname));
	ix->cgid = calloc((size_t)(n ? n : 1), sizeof(*ix->cgid));
	if (!ix->cgname || !ix->cgid) {
		ix->oom = true;
		return;
	}
	for (int i = 0; i < n; i++) {
		ix->cgname[i] = strdup(row_name(ix->mc, i, buf, sizeof(buf)));
		ix->cgid[i] = rs_memcgs_get(ix->mc, i)->id;
		if (!ix->cgname[i]) {
			ix->oom = true;
			return;
		}
		ix->ncg = i + 1;
	}
	ix->mc = NULL;
}

int tl_index_finish(struct tl_index *ix, struct rs_error *err)
{
	if (ix->finished)
		return 0;
	ix->finished = true;
	if (ix->have_ts && ix->used0 == 0)
		ix->used0 = 1;
	ix->nb[0] = ix->used0;
	ix->nr_levels = 1;
	while (ix->nr_levels < TL_MAX_LEVELS && ix->nb[ix->nr_levels - 1] > 16) {
		int l = ix->nr_levels;
		size_t n = (ix->nb[l - 1] + TL_LEVEL_FACTOR - 1) / TL_LEVEL_FACTOR;
		struct tl_bucket *c = calloc(n * TL_S_NR, sizeof(*c));

		if (!c) {
			ix->oom = true;
			break;
		}
		for (size_t b = 0; b < ix->nb[l - 1]; b++)
			for (int s = 0; s < TL_S_NR; s++)
				merge_into(&c[(b / TL_LEVEL_FACTOR) * TL_S_NR + (size_t)s],
					   &ix->lv[l - 1][b * TL_S_NR + (size_t)s]);
		ix->lv[l] = c;
		ix->nb[l] = n;
		ix->nr_levels++;
	}
	if (ix->nspans > 1)
		qsort(ix->spans, ix->nspans, sizeof(*ix->spans), cmp_span);
	ix->sorted = true;
	keep_cgroup_names(ix);
	if (ix->oom)
		return rs_error_set(err, "timeline index: out of memory");
	return 0;
}

/* ---- lifecycle ---- */

struct tl_index *tl_index_new(const struct tl_index_opts *o, struct rs_error *err)
{
	struct tl_index *ix = calloc(1, sizeof(*ix));

	if (!ix)
		goto oom;
	ix->o = *o;
	if (!ix->o.max_buckets)
		ix->o.max_buckets = TL_DEFAULT_BUCKETS;
	if (ix->o.max_buckets < 16)
		ix->o.max_buckets = 16;
	if (!ix->o.max_spans)
		ix->o.max_spans = TL_DEFAULT_SPANS;
	if (ix->o.max_spans < 2)
		ix->o.max_spans = 2;
	ix->cap0 = ix->o.max_buckets & ~(size_t)1;
	ix->lv[0] = calloc(ix->cap0 * TL_S_NR, sizeof(struct tl_bucket));
	if (!ix->lv[0])
		goto oom;
	ix->nr_levels = 1;
	ix->w0 = TL_MIN_WIDTH_NS;
	if (o->span_last > o->span_first) {
		uint64_t span = o->span_last - o->span_first + 1;

		ix->span_known = true;
		ix->t0 = o->span_first;
		ix->w0 = (span + ix->cap0 - 1) / ix->cap0;
		if (ix->w0 < TL_MIN_WIDTH_NS)
			ix->w0 = TL_MIN_WIDTH_NS;
	}
	return ix;
oom:
	tl_index_free(ix);
	rs_error_set(err, "timeline index: out of memory");
	return NULL;
}

void tl_index_free(struct tl_index *ix)
{
	if (!ix)
		return;
	for (int l = 0; l < TL_MAX_LEVELS; l++)
		free(ix->lv[l]);
	for (int i = 0; i < ix->cap_tasks; i++)
		free(ix->tpriv[i].acc);
	free(ix->tpriv);
	free(ix->tasks);
	free(ix->spans);
	free(ix->victims);
	for (int i = 0; i < ix->ncg; i++)
		free(ix->cgname[i]);
	free(ix->cgname);
	free(ix->cgid);
	rs_u64map_free(&ix->pid_task);
	free(ix);
}

void tl_index_refault(struct tl_index *ix, uint64_t ts, uint64_t pages, bool quick)
{
	size_t b;

	if (!ix->events)
		return;
	b = bucket_of(ix, ts);
	bucket_add(cell0(ix, b, TL_S_REFAULT), pages);
	bucket_add(&ix->total[TL_S_REFAULT], pages);
	if (quick) {
		bucket_add(cell0(ix, b, TL_S_QUICK), pages);
		bucket_add(&ix->total[TL_S_QUICK], pages);
	}
}

static int consumer_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	return tl_index_event(arg, ev, ctx);
}

static void consumer_episode(void *arg, const struct rs_episode *ep)
{
	tl_index_episode(arg, ep);
}

static int consumer_finish(void *arg, struct rs_error *err)
{
	return tl_index_finish(arg, err);
}

void tl_index_consumer(struct tl_index *ix, struct rs_consumer *out)
{
	*out = (struct rs_consumer){ .name = "timeline", .arg = ix, .event = consumer_event,
		.episode = consumer_episode, .finish = consumer_finish };
}

/* ---- readers ---- */

bool tl_index_finished(const struct tl_index *ix)
{
	return ix->finished;
}

void tl_index_set_mglru(struct tl_index *ix, bool mglru)
{
	ix->mglru = mglru;
}

bool tl_index_mglru(const struct tl_index *ix)
{
	return ix->mglru;
}

uint64_t tl_index_events(const struct tl_index *ix)
{
	return ix->events;
}

uint64_t tl_index_first_ts(const struct tl_index *ix)
{
	return ix->events ? ix->first_ts : 0;
}

uint64_t tl_index_last_ts(const struct tl_index *ix)
{
	return ix->last_ts;
}

void tl_index_span(const struct tl_index *ix, uint64_t *first, uint64_t *last)
{
	if (!ix->finished && ix->span_known) {
		*first = ix->o.span_first;
		*last = ix->o.span_last;
	} else {
		*first = tl_index_first_ts(ix);
		*last = ix->events ? ix->last_ts : 0;
	}
}

int tl_index_levels(const struct tl_index *ix)
{
	return ix->nr_levels;
}

uint64_t tl_index_t0(const struct tl_index *ix)
{
	return ix->t0;
}

uint64_t tl_index_width(const struct tl_index *ix, int level)
{
	uint64_t w = ix->w0;

	for (int l = 0; l < level; l++)
		w *= TL_LEVEL_FACTOR;
	return w;
}

size_t tl_index_nbuckets(const struct tl_index *ix, int level)
{
	if (level < 0 || level >= ix->nr_levels)
		return 0;
	return level == 0 && !ix->finished ? ix->used0 : ix->nb[level];
}

size_t tl_buckets_in(uint64_t T0, uint64_t w, size_t nb, uint64_t t0, uint64_t t1, size_t *b0)
{
	size_t b1;

	*b0 = 0;
	if (!nb || t1 <= T0)
		return 0;
	*b0 = t0 > T0 ? (size_t)((t0 - T0) / w) : 0;
	b1 = (size_t)((t1 - T0 + w - 1) / w);
	return b1 < nb ? b1 : nb;
}

const struct tl_bucket *tl_index_bucket(const struct tl_index *ix, int level, size_t b, int s)
{
	if (level < 0 || level >= ix->nr_levels || s < 0 || s >= TL_S_NR ||
	    b >= tl_index_nbuckets(ix, level))
		return NULL;
	return &ix->lv[level][b * TL_S_NR + (size_t)s];
}

const struct tl_bucket *tl_index_total(const struct tl_index *ix, int s)
{
	return s >= 0 && s < TL_S_NR ? &ix->total[s] : NULL;
}

size_t tl_index_nspans(const struct tl_index *ix)
{
	return ix->nspans;
}

const struct tl_span *tl_index_spans(const struct tl_index *ix)
{
	return ix->spans;
}

const struct tl_victim *tl_index_victims(const struct tl_index *ix)
{
	return ix->victims;
}

bool tl_index_spans_sorted(const struct tl_index *ix)
{
	return ix->sorted || ix->nspans < 2;
}

uint64_t tl_index_max_span(const struct tl_index *ix)
{
	return ix->max_span;
}

uint64_t tl_index_dropped(const struct tl_index *ix)
{
	return ix->dropped;
}

uint64_t tl_index_span_floor(const struct tl_index *ix)
{
	return ix->floor;
}

int tl_index_ntasks(const struct tl_index *ix)
{
	return ix->ntasks;
}

const struct tl_task *tl_index_task(const struct tl_index *ix, uint32_t task)
{
	return task < (uint32_t)ix->ntasks ? &ix->tasks[task] : NULL;
}

uint32_t tl_index_task_of_pid(const struct tl_index *ix, int pid)
{
	int v = pid >= 0 ? rs_u64map_get(&ix->pid_task, (uint64_t)pid + 1) : -1;

	return v >= 0 ? (uint32_t)v : UINT32_MAX;
}

uint32_t tl_index_cgroups(const struct tl_index *ix)
{
	return TL_CG_ROW0 + (uint32_t)(ix->mc ? rs_memcgs_count(ix->mc) : ix->ncg);
}

const char *tl_index_cgroup_name(const struct tl_index *ix, uint32_t cg)
{
	static char idname[4][32];	/* a few names may be in use at once (one printf) */
	static unsigned int next;

	if (cg == TL_CG_KSWAPD)
		return "(kswapd)";
	/* unknown, never a bare "?" (it reads as a path or a glitch) */
	if (cg < TL_CG_ROW0)
		return "unknown";
	if (!ix->mc)
		return (int)(cg - TL_CG_ROW0) < ix->ncg ? ix->cgname[cg - TL_CG_ROW0] : "unknown";
	return row_name(ix->mc, (int)(cg - TL_CG_ROW0), idname[next++ % 4], sizeof(idname[0]));
}

uint64_t tl_index_cgroup_id(const struct tl_index *ix, uint32_t cg)
{
	const struct rs_memcg *m;

	if (cg < TL_CG_ROW0)
		return 0;
	if (!ix->mc)
		return (int)(cg - TL_CG_ROW0) < ix->ncg ? ix->cgid[cg - TL_CG_ROW0] : 0;
	m = rs_memcgs_get(ix->mc, (int)(cg - TL_CG_ROW0));
	return m ? m->id : 0;
}
