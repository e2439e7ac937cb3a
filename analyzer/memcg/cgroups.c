// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup reclaim attribution (include/cgroups.h, docs/cgroups.md): the consumer.
 *
 * Trigger side: each reclaim episode (analysis.h's episode callback) belongs to the cgroup its
 * task was in at the episode's begin (cgroup_ids.c); kswapd's reclaim belongs to no cgroup and
 * is its own trigger. Victim side: count_memcg_events sums per memcg id and item, exactly as
 * the trace has them, and the pages of each shrink event given to the memcg its counters name
 * (cgroup_match.c), by context and list; the matrix crosses the two. Soft limits and LRU sizes
 * come from the recorder's memcg_stat snapshots and mod_memcg_lruvec_state deltas.
 *
 * Hot path (memcg counters and LRU deltas, most of a 6.13+ trace): one id lookup, array adds.
 * Allocation happens per cgroup, per task, per matrix cell and per bucket growth, never per
 * event.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup_rows.h"
#include "cgroup_series.h"
#include "cgroup_snap.h"
#include "cgroup_trigger.h"
#include "cgroup_victim.h"
#include "ep_slots.h"
#include "rs_cmp.h"
#include "rs_warn.h"
#include "series.h"
#include "trace_source.h"

const char *rs_cg_soft_state_name(int s)
{
	static const char *const n[RS_CG_SOFT_NR] = { "over", "under", "unknown" };

	return s >= 0 && s < RS_CG_SOFT_NR ? n[s] : "unknown";
}

static void on_meta(struct rs_cgroups *cg, const struct rs_event *ev)
{
	char v[32];

	if (!ev->meta.kind || strcmp(ev->meta.kind, "begin") || !ev->meta.text)
		return;
	if (rs_meta_value(ev->meta.text, "page_size", v, sizeof(v))) {
		unsigned long long ps = strtoull(v, NULL, 10);

		if (ps >= 512 && ps <= (1ull << 30))
			cg->page_size = ps;
	}
	if (rs_meta_value(ev->meta.text, "cgroup", v, sizeof(v)))
		cg->hierarchy = !strcmp(v, "v2") ? "v2" : !strcmp(v, "v1") ? "v1" : NULL;
}

/* ---- the consumer ---- */

/* 7.1+ shrink_slab of a memcg: paired per task as the analysis pairs them (start, then the
   end of the same shrinker function). */
static void on_slab(struct rs_cgroups *cg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct cg_rtask *rt = cg_rtask(cg, ctx->task, ev->pid);
	struct rs_cgroup *c = &cg->cgs[ctx->memcg->named];

	c->active = true;
	if (ev->type == RS_EV_SLAB_START) {
		if (rt) {
			rt->slab_open = true;
			rt->slab_ts = ev->ts;
			rt->slab_fn = ev->slab.shrink_fn;
		}
		return;
	}
	if (rt && rt->slab_open && rt->slab_fn == ev->slab.shrink_fn) {
		c->slab_calls++;
		c->slab_ns += ev->ts > rt->slab_ts ? ev->ts - rt->slab_ts : 0;
	}
	if (rt)
		rt->slab_open = false;
	c->slab_freed += ev->slab.retval > 0 ? (uint64_t)ev->slab.retval : 0;
}

static int on_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct rs_cgroups *cg = arg;
	struct cg_rtask *rt;

	if (cg->mc_gen != rs_memcgs_generation(cg->mc))
		cg_sync(cg);
	if (cg->nr_pend)
		cg_flush_pending(cg, ctx);
	if (ev->ts > cg->last_ts)
		cg->last_ts = ev->ts;
	if (ctx->task >= 0 && (ctx->outer == RS_CTX_KSWAPD || ctx->kind == RS_CTX_KSWAPD) &&
	    (rt = cg_rtask(cg, ctx->task, ev->pid)))
		rt->kswapd = true;
	switch (ev->type) {
	case RS_EV_MEMCG_COUNT:
		cg_on_count(cg, ev, ctx);
		break;
	case RS_EV_MEMCG_LRUVEC:
		cg_on_lruvec(cg, ev, ctx);
		break;
	case RS_EV_LRU_ISOLATE:
		cg_on_isolate(cg, ev, ctx);
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
		cg_on_shrink(cg, ev, ctx);
		break;
	case RS_EV_RECLAIM_BEGIN:
		rt = cg_rtask(cg, ctx->task, ev->pid);
		if (rt && ctx->began) {
			int *trig = &rt->ep_trig[ep_slot_take(rt->ep_serial, CG_TASK_EPS,
							      ctx->serial)];

			*trig = rt->kswapd ? RS_CG_KSWAPD : cg_task_row(cg, ev->pid);
			if (ctx->selected && ev->reclaim.kind == RS_RK_MEMCG && *trig >= 0)
				cg_ts_add(cg, *trig, RS_CG_TS_TRIGGER_EPISODES, ev->ts, 1);
		}
		break;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_KSWAPD_SLEEP:
		rt = cg_rtask(cg, ctx->task, ev->pid);
		if (rt)
			rt->kswapd = true;
		break;
	case RS_EV_THROTTLED:
		if (ctx->selected) {
			int row = cg_task_row(cg, ev->pid);

			if (row >= 0) {
				cg->cgs[row].throttled++;
				cg->cgs[row].throttled_us += ev->throttled.usec_delayed > 0 ?
					(uint64_t)ev->throttled.usec_delayed : 0;
				cg->cgs[row].active = true;
			}
		}
		break;
	case RS_EV_OOM_VICTIM:
		if (ctx->selected) {
			int by = cg_task_row(cg, ev->pid), victim = cg_task_row(cg, ev->oom.pid);

			if (by >= 0) {
				cg->cgs[by].oom_kills++;
				cg->cgs[by].active = true;
			}
			if (victim >= 0) {
				cg->cgs[victim].oom_killed++;
				cg->cgs[victim].active = true;
			}
		}
		break;
	case RS_EV_SNAP_MEMCG:
		cg_on_snapshot(cg, ev, ctx->memcg->named);
		break;
	case RS_EV_META:
		on_meta(cg, ev);
		break;
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
		if (ctx->memcg->named >= 0 && ctx->selected)
			on_slab(cg, ev, ctx);
		break;
	default:
		break;
	}
	if (ctx->task >= 0 && ctx->task < cg->nr_rt && cg->rt[ctx->task].known)
		cg->rt[ctx->task].selected = ctx->selected;
	return 0;
}

static bool any_reclaim_item(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	for (int i = 0; i < c->nr_items; i++)
		if (c->items[i] && (!rs_memcgs_facts(cg->mc)->item_names ||
				    rs_cgroups_item_is_reclaim(cg, i)))
			return true;
	return false;
}

static int name_cmp(const struct rs_cgroups *cg, int a, int b)
{
	char x[64], y[64];

	return strcmp(rs_cgroups_name(cg, a, x, sizeof(x)), rs_cgroups_name(cg, b, y, sizeof(y))) ?:
	       RS_CMP(cg->cgs[a].memcg.id, cg->cgs[b].memcg.id) ?: RS_CMP(a, b);
}

/* Insertion sort by name: a few thousand rows at most, once. */
static void sort_rows(struct rs_cgroups *cg)
{
	free(cg->sorted);
	cg->sorted = malloc((size_t)(cg->nr ? cg->nr : 1) * sizeof(int));
	if (!cg->sorted) {
		cg->oom = true;
		return;
	}
	for (int i = 0; i < cg->nr; i++) {
		int j = i;

		while (j > 0 && name_cmp(cg, cg->sorted[j - 1], i) > 0) {
			cg->sorted[j] = cg->sorted[j - 1];
			j--;
		}
		cg->sorted[j] = i;
	}
}

static int on_finish(void *arg, struct rs_error *err)
{
	struct rs_cgroups *cg = arg;
	const struct rs_memcgs_facts *facts = rs_memcgs_facts(cg->mc);
	int below = 0, first_below = -1;
	bool ev, lru, memcg_events;

	if (cg->finished)
		return 0;
	cg->finished = true;
	cg_flush_pending(cg, NULL);
	for (int t = 0; t < cg->nr_rt; t++) {
		struct rs_victim v;

		if (cg->rt[t].known && rs_memcgs_open_window(cg->mc, t, &v))
			cg_isolate_only(cg, &cg->rt[t], &v);
	}
	cg_sync(cg);
	for (int i = 0; i < cg->nr; i++) {
		struct rs_cgroup *c = &cg->cgs[i];

		for (int k = 0; k < RS_RK_NR; k++)
			if (cg->priv[i].lat[k])
				rs_latency_summary(cg->priv[i].lat[k], &c->trig[k].latency);
		if (any_reclaim_item(cg, c))
			c->active = true;
	}
	cg_ts_finish(cg, cg->last_ts);
	for (int i = 0; i < cg->nr; i++) {
		cg_anchor_lru(cg, i);
		if (cg->cgs[i].below_zero && cg->cgs[i].offset_from_mkdir)
			below++, first_below = first_below < 0 ? i : first_below;
	}
	if (below) {
		char buf[48];

		/*
		 * Not only lost events: with none lost (`entries: 0`), /rs_swap's inactive anon
		 * deltas of anon-stream-swap.dat sum to -896 where its last snapshot reads 21;
		 * the tracepoint does not see every LRU size change on 6.18.
		 */
		rs_warn(cg->warnings, "LRU sizes from mod_memcg_lruvec_state fall below zero in "
			"%d cgroup(s) made in the trace (first: %s): the trace lacks some LRU size "
			"changes (the tracepoint misses some even when no event was lost; or events "
			"were lost or left in the ring buffer: trace-cmd report --stat 'entries'); "
			"the recorder's snapshots are the reliable sizes; see cgroups[].lru_size",
			below, rs_cgroups_name(cg, first_below, buf, sizeof(buf)));
	}
	/* one warning for missing item names, saying what is missing because of it */
	ev = cg->at.count_events && !facts->item_names;
	lru = cg->at.lruvec_events && !facts->lru_names;
	if (ev || lru)
		rs_warn(cg->warnings, "memcg item numbers could not be named (the trace has no "
			"%s%s%s marker): %s%s%s",
			ev ? "vm_event_items" : "", ev && lru ? " or " : "",
			lru ? "node_stat_items" : "",
			ev ? "count_memcg_events counters are shown by number (cgroups[]."
			     "victim.item_<N>), reclaim counters (pgscan_*, pgsteal_*, ...) "
			     "cannot be told from others, and victims are matched by value alone" :
			     "",
			ev && lru ? "; " : "",
			lru ? "mod_memcg_lruvec_state items 0..4 are taken as the LRU lists "
			      "(enum node_stat_item order since 2.6.28) for the LRU sizes" : "");
	/*
	 * Reclaim events with memcg_id are 7.1+, whose memcg:* events exist (6.13+): they were
	 * not recorded (a plain trace-cmd record -e vmscan), and the word says how to get them.
	 * Recorded means either kind arrived: on 7.x pgscan_*, pgsteal_* and pgrefill are
	 * mod_memcg_lruvec_state items, and a trace without anon activity can have no
	 * count_memcg_events at all (the sweep4 7.2 MGLRU swapmax recording: none of them,
	 * 22,355 lruvec deltas, every shrink's victim told).
	 */
	memcg_events = cg->at.count_events || cg->at.lruvec_events;
	if (cg->at.shrinks && !memcg_events && facts->kernel_roots &&
	    cg->at.by_reason[RS_CGR_MEMCG_ID_LEAF])
		rs_warn(cg->warnings, "no memcg:count_memcg_events in the trace (not recorded: "
			"this kernel has them, its reclaim events carry memcg_id; trace-cmd record "
			"-e memcg): the victim cgroup of reclaim is told only inside limit reclaim "
			"of a memcg with no memcg below it (memcg_id_leaf), %" PRIu64 " of %" PRIu64
			" shrink events", cg->at.by_reason[RS_CGR_MEMCG_ID_LEAF], cg->at.shrinks);
	else if (cg->at.shrinks && !memcg_events && facts->kernel_roots)
		rs_warn(cg->warnings, "no memcg:count_memcg_events in the trace (not recorded: "
			"this kernel has them, its reclaim events carry memcg_id; trace-cmd record "
			"-e memcg): the victim cgroup of reclaim cannot be told");
	else if (cg->at.shrinks && !memcg_events)
		rs_warn(cg->warnings, "no memcg:count_memcg_events in the trace (a kernel before "
			"6.13, or not recorded): the victim cgroup of reclaim cannot be told");
	sort_rows(cg);
	if (cg->oom)
		return rs_error_set(err, "out of memory in the cgroup attribution");
	return 0;
}

/* ---- lifecycle ---- */

struct rs_cgroups *rs_cgroups_new(const struct rs_cgroups_opts *o, struct rs_error *err)
{
	struct rs_cgroups *cg = calloc(1, sizeof(*cg));

	if (!cg) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	cg->o = *o;
	cg->warnings = o->warnings;
	if (!cg->warnings) {
		cg->own_warnings = rs_warnings_new();
		cg->warnings = cg->own_warnings;
		if (!cg->warnings) {
			free(cg);
			rs_error_set(err, "out of memory");
			return NULL;
		}
	}
	cg->filtered = o->filtered;
	cg->page_size = 4096;
	cg->by_cell.max_used = RS_CG_MAX_CELLS;
	cg_grid_init(&cg->grid, 0, 0, o->bucket_ns, o->max_buckets);
	return cg;
}

void rs_cgroups_free(struct rs_cgroups *cg)
{
	if (!cg)
		return;
	for (int i = 0; i < cg->nr; i++) {
		for (int k = 0; k < RS_RK_NR; k++)
			rs_latency_free(cg->priv[i].lat[k]);
		free(cg->priv[i].ts);
		free(cg->cgs[i].items);
		free(cg->cgs[i].node_items);
	}
	free(cg->cgs);
	free(cg->priv);
	free(cg->rt);
	free(cg->cells);
	rs_u64map_free(&cg->by_cell);
	free(cg->sorted);
	rs_warnings_free(cg->own_warnings);
	free(cg);
}

void rs_cgroups_consumer(struct rs_cgroups *cg, struct rs_consumer *out)
{
	*out = (struct rs_consumer){ .name = "cgroups", .arg = cg, .event = on_event,
		.episode = cg_on_episode, .finish = on_finish };
}

/* Warnings raised before the analysis' list was known go there now. */
static void move_warnings(struct rs_cgroups *cg, struct rs_warnings *dst)
{
	if (!dst || dst == cg->warnings)
		return;
	if (cg->own_warnings) {
		for (size_t i = 0; i < rs_warnings_count(cg->own_warnings); i++) {
			unsigned long times;
			const char *w = rs_warnings_get(cg->own_warnings, i, &times);

			while (times--)
				rs_warn(dst, "%s", w);
		}
		rs_warnings_free(cg->own_warnings);
		cg->own_warnings = NULL;
	}
	cg->warnings = dst;
}

void rs_cgroups_bind(struct rs_cgroups *cg, const struct rs_analysis *a)
{
	const struct rs_analysis_opts *o = rs_analysis_opts(a);
	const struct rs_buckets bk = rs_series_buckets(rs_analysis_series(a));
	uint64_t t1 = o->span_last_ns > bk.t0 ? o->span_last_ns : 0;

	/* the analysis' rules with its inputs: the same t0 and width (series.c) */
	cg_grid_init(&cg->grid, bk.t0, t1, t1 ? bk.width : o->bucket_ns, o->max_buckets);
	cg->grid.shared = true;
	cg->filtered = o->pid >= 0 || o->comm;
	cg->absent_types = o->absent_types;
	cg->o.max_samples = o->max_samples;
	cg->mc = rs_analysis_memcgs(a);
	rs_memcgs_set_caps(cg->mc, cg->o.max_cgroups, o->max_tasks ? o->max_tasks : cg->o.max_tasks);
	move_warnings(cg, rs_analysis_warnings(a));
}

void rs_cgroups_attach(struct rs_cgroups *cg, const struct rs_analysis *a)
{
	move_warnings(cg, rs_analysis_warnings(a));
}

static int feed_cb(const struct rs_event *ev, void *ctx)
{
	return rs_analysis_feed(ctx, ev);
}

void rs_cgroups_prefeed(struct rs_cgroups *cg, const struct rs_event *ev)
{
	if (ev->type == RS_EV_META)
		on_meta(cg, ev);
	rs_memcgs_prefeed(cg->mc, ev);
}

static int prefeed_cb(const struct rs_event *ev, void *ctx)
{
	rs_cgroups_prefeed(ctx, ev);
	return 0;
}

int rs_cgroups_analysis_run(const char *path, const struct rs_analysis_opts *ao_in,
			    const struct rs_cgroups_opts *co_in, struct rs_analysis **out_a,
			    struct rs_cgroups **out_cg, struct rs_source **out_src,
			    struct rs_error *err)
{
	struct rs_source_opts so = { .threads = ao_in->threads, .progress = ao_in->progress };
	struct rs_consumer cons[RS_ANALYSIS_MAX_CONSUMERS];
	struct rs_analysis_opts ao = *ao_in;
	struct rs_cgroups_opts co = *co_in;
	const struct rs_trace_info *ti;
	uint64_t to = ao.to_ns ? ao.to_ns : UINT64_MAX;
	struct rs_analysis *a = NULL;
	struct rs_cgroups *cg = NULL;
	struct rs_source *src;
	int ret;

	*out_a = NULL;
	*out_cg = NULL;
	*out_src = NULL;
	if (ao.nr_consumers >= RS_ANALYSIS_MAX_CONSUMERS)
		return rs_error_set(err, "at most %d consumers", RS_ANALYSIS_MAX_CONSUMERS - 1);
	if (rs_source_open(path, &so, &src, err) < 0)
		return -1;
	/* as rs_analysis_run() does */
	ti = rs_source_info(src);
	ao.warnings = ti->warnings;
	ao.absent_types = ti->formats_known ? ~ti->format_types : 0;
	ao.span_first_ns = ti->first_ts > ao.from_ns ? ti->first_ts : ao.from_ns;
	ao.span_last_ns = ti->last_ts < to ? ti->last_ts : to;
	if (ti->last_ts <= ti->first_ts)
		ao.span_first_ns = ao.span_last_ns = 0;
	co.warnings = ti->warnings;
	co.max_tasks = ao.max_tasks;
	co.filtered = ao.pid >= 0 || ao.comm;
	cg = rs_cgroups_new(&co, err);
	if (!cg)
		goto out_close;
	for (int i = 0; i < ao.nr_consumers; i++)
		cons[i] = ao.consumers[i];
	rs_cgroups_consumer(cg, &cons[ao.nr_consumers]);
	ao.consumers = cons;
	ao.nr_consumers++;
	a = rs_analysis_new(&ao, err);
	if (!a)
		goto out_free;
	rs_cgroups_bind(cg, a);
	/* a range: who is who comes from the markers and cgroup events before it */
	ret = ao.from_ns ? rs_source_stream(src, 0, ao.from_ns, prefeed_cb, cg, err) : 0;
	if (!ret)
		ret = rs_source_stream(src, ao.from_ns, to, feed_cb, a, err);
	if (ret > 0)
		ret = rs_error_set(err, "%s: a consumer stopped the analysis (%d)", path, ret);
	if (ret < 0 || rs_analysis_finish(a, err) < 0)
		goto out_free;
	*out_a = a;
	*out_cg = cg;
	*out_src = src;
	return 0;

out_free:
	rs_cgroups_free(cg);
	rs_analysis_free(a);
out_close:
	rs_source_close(src);
	return -1;
}

/* ---- readers ---- */

int rs_cgroups_count(const struct rs_cgroups *cg)
{
	return cg->nr;
}

const struct rs_cgroup *rs_cgroups_get(const struct rs_cgroups *cg, int i)
{
	return i >= 0 && i < cg->nr ? &cg->cgs[i] : NULL;
}

const char *rs_cgroups_name(const struct rs_cgroups *cg, int i, char *buf, size_t n)
{
	const struct rs_cgroup *c;

	if (i == RS_CG_KSWAPD)
		return "(kswapd)";
	if (i == RS_CG_UNATTRIBUTED)
		return "(unattributed)";
	c = rs_cgroups_get(cg, i);
	if (!c)
		return "(none)";
	if (c->memcg.flags & RS_CGF_OVERFLOW)
		return "(other cgroups)";
	if (c->memcg.flags & RS_CGF_UNKNOWN_TASKS)
		return "(unknown)";
	if (c->memcg.path)
		return c->memcg.path;
	snprintf(buf, n, "id:%" PRIu64, c->memcg.id);
	return buf;
}

int rs_cgroups_sorted(const struct rs_cgroups *cg, const int **out)
{
	*out = cg->sorted;
	return cg->sorted ? cg->nr : 0;
}

const char *rs_cgroups_item_name(const struct rs_cgroups *cg, int item)
{
	return rs_memcgs_item_name(cg->mc, item);
}

const char *rs_cgroups_node_item_name(const struct rs_cgroups *cg, int item)
{
	return rs_memcgs_node_item_name(cg->mc, item);
}

bool rs_cgroups_lacks(const struct rs_cgroups *cg, enum rs_ev_type t)
{
	return t < 64 && (cg->absent_types & (1ull << t));
}

bool rs_cgroups_item_is_reclaim(const struct rs_cgroups *cg, int item)
{
	return rs_memcgs_item_is_reclaim(cg->mc, item);
}

int rs_cgroups_nr_cells(const struct rs_cgroups *cg)
{
	return cg->nr_cells;
}

const struct rs_cg_cell *rs_cgroups_cell(const struct rs_cgroups *cg, int i)
{
	return i >= 0 && i < cg->nr_cells ? &cg->cells[i] : NULL;
}

const struct rs_cg_attrib *rs_cgroups_attrib(const struct rs_cgroups *cg)
{
	return &cg->at;
}

const struct rs_memcgs_facts *rs_cgroups_facts(const struct rs_cgroups *cg)
{
	return rs_memcgs_facts(cg->mc);
}

uint64_t rs_cgroups_page_size(const struct rs_cgroups *cg)
{
	return cg->page_size;
}

const char *rs_cgroups_hierarchy(const struct rs_cgroups *cg)
{
	return cg->hierarchy;
}

size_t rs_cgroups_max(const struct rs_cgroups *cg)
{
	return rs_memcgs_max(cg->mc);
}
