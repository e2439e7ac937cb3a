// SPDX-License-Identifier: GPL-2.0
/*
 * The shared loading stage (include/analysis.h): resolves each event's reclaim context through
 * the episodes module, accumulates the analysis, and hands (event, context) to the consumers.
 *
 * Hot path: one switch on the event type, one task lookup (cached by pid), array indexing.
 * No allocation per event and no string comparison: tasks, node blocks and shrinkers are
 * allocated on first sight, and memcg counter events (most of a trace) are skipped outright
 * unless a consumer wants them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_state.h"
#include "memcg_attrib.h"
#include "rs_cmp.h"
#include "rs_grow.h"
#include "rs_warn.h"
#include "trace_source.h"

static const char *const ts_names[RS_TS_NR] = {
	[RS_TS_SCANNED_IA] = "scanned_inactive_anon",
	[RS_TS_SCANNED_AA] = "scanned_active_anon",
	[RS_TS_SCANNED_IF] = "scanned_inactive_file",
	[RS_TS_SCANNED_AF] = "scanned_active_file",
	[RS_TS_RECLAIMED_ANON] = "reclaimed_anon",
	[RS_TS_RECLAIMED_FILE] = "reclaimed_file",
	[RS_TS_SCANNED_CTX + RS_CTX_DIRECT] = "scanned_direct",
	[RS_TS_SCANNED_CTX + RS_CTX_MEMCG] = "scanned_memcg",
	[RS_TS_SCANNED_CTX + RS_CTX_SOFTLIMIT] = "scanned_softlimit",
	[RS_TS_SCANNED_CTX + RS_CTX_NODE] = "scanned_node",
	[RS_TS_SCANNED_CTX + RS_CTX_KSWAPD] = "scanned_kswapd",
	[RS_TS_SCANNED_CTX + RS_CTX_OTHER] = "scanned_other",
	[RS_TS_RECLAIMED_CTX + RS_CTX_DIRECT] = "reclaimed_direct",
	[RS_TS_RECLAIMED_CTX + RS_CTX_MEMCG] = "reclaimed_memcg",
	[RS_TS_RECLAIMED_CTX + RS_CTX_SOFTLIMIT] = "reclaimed_softlimit",
	[RS_TS_RECLAIMED_CTX + RS_CTX_NODE] = "reclaimed_node",
	[RS_TS_RECLAIMED_CTX + RS_CTX_KSWAPD] = "reclaimed_kswapd",
	[RS_TS_RECLAIMED_CTX + RS_CTX_OTHER] = "reclaimed_other",
	[RS_TS_ACTIVATED] = "activated",
	[RS_TS_DEACTIVATED] = "deactivated",
	[RS_TS_WRITE] = "write_folios",
	[RS_TS_EPISODES + RS_RK_DIRECT] = "episodes_direct",
	[RS_TS_EPISODES + RS_RK_MEMCG] = "episodes_memcg",
	[RS_TS_EPISODES + RS_RK_SOFTLIMIT] = "episodes_softlimit",
	[RS_TS_EPISODES + RS_RK_NODE] = "episodes_node",
	[RS_TS_STALL_NS + RS_RK_DIRECT] = "stall_ns_direct",
	[RS_TS_STALL_NS + RS_RK_MEMCG] = "stall_ns_memcg",
	[RS_TS_STALL_NS + RS_RK_SOFTLIMIT] = "stall_ns_softlimit",
	[RS_TS_STALL_NS + RS_RK_NODE] = "stall_ns_node",
	[RS_TS_KSWAPD_WAKES] = "kswapd_wakes",
	[RS_TS_KSWAPD_AWAKE_NS] = "kswapd_awake_ns",
	[RS_TS_SLAB_FREED] = "slab_freed",
	[RS_TS_SLAB_NS] = "slab_ns",
	[RS_TS_THROTTLED] = "throttled",
	[RS_TS_THROTTLED_US] = "throttled_us",
	[RS_TS_OOM] = "oom_kills",
};

const char *rs_ts_metric_name(int m)
{
	return m >= 0 && m < RS_TS_NR && ts_names[m] ? ts_names[m] : "unknown";
}

const char *rs_throttle_reason_name(int reason)
{
	static const char *const names[RS_NR_THROTTLE_REASONS] = {
		"writeback", "isolated", "noprogress", "congested", "other"
	};

	return reason >= 0 && reason < RS_NR_THROTTLE_REASONS ? names[reason] : "other";
}

/*
 * The kernel stores `1U << enum vmscan_throttle_state` (TP_fast_assign), so a raw 1 is
 * WRITEBACK: the slot is the bit's index. None, several bits or an unknown bit: "other".
 */
int rs_throttle_reason_slot(int raw)
{
	for (int r = 0; r < RS_NR_THROTTLE_REASONS - 1; r++)
		if (raw == 1 << r)
			return r;
	return RS_NR_THROTTLE_REASONS - 1;
}

bool rs_analysis_task_row(struct rs_analysis *a, int task)
{
	const struct rs_task_info *ti;

	if (task < 0)
		return false;
	if (rs_grow_rows(&a->cap_tasks, task, 256, (const struct rs_grow_array[]){
			{ (void **)&a->tasks, sizeof(*a->tasks) },
			{ (void **)&a->tpriv, sizeof(*a->tpriv) } }, 2)) {
		a->oom = true;
		return false;
	}
	while (a->nr_tasks <= task) {
		struct rs_task_stats *t = &a->tasks[a->nr_tasks];

		ti = rs_episodes_task(a->eps, a->nr_tasks);
		t->pid = ti ? ti->pid : -1;
		t->kswapd_idx = -1;
		a->nr_tasks++;
	}
	return true;
}

/* The kswapd row of a task, created on first sight; NULL when out of memory. */
static struct rs_kswapd_stats *kswapd_row(struct rs_analysis *a, int task)
{
	struct rs_task_stats *t = &a->tasks[task];

	if (t->kswapd_idx >= 0)
		return &a->ks[t->kswapd_idx];
	if (rs_grow_rows(&a->cap_ks, a->nr_ks, 8, (const struct rs_grow_array[]){
			{ (void **)&a->ks, sizeof(*a->ks) },
			{ (void **)&a->ks_task, sizeof(*a->ks_task) } }, 2)) {
		a->oom = true;
		return NULL;
	}
	memset(&a->ks[a->nr_ks], 0, sizeof(a->ks[0]));
	a->ks[a->nr_ks].nid = -1;
	a->ks_task[a->nr_ks] = task;
	t->kswapd_idx = a->nr_ks++;
	return &a->ks[t->kswapd_idx];
}

/* Add the part of [from, to) inside the window to a series metric (cut episodes start at t0). */
static void span(struct rs_analysis *a, int metric, uint64_t from, uint64_t to)
{
	rs_series_add_span(a->series, metric, from ? from : a->t0, to);
}

static void on_reclaim_episode(struct rs_analysis *a, const struct rs_episode *ep,
			       struct rs_task_stats *t)
{
	struct rs_episode_stats *es = &a->ep[ep->kind];
	uint64_t from = ep->begin_ts ? ep->begin_ts : a->t0;
	uint64_t dur = ep->end_ts > from ? ep->end_ts - from : 0;

	es->status[ep->status]++;
	if (ep->broken)
		es->broken_by_lost_events++;
	switch (ep->status) {
	case RS_EP_COMPLETE:
		dur = ep->end_ts - ep->begin_ts;
		es->count++;
		es->reclaimed += ep->nr_reclaimed;
		es->by_parent[ep->parent]++;
		es->by_parent_ns[ep->parent] += dur;
		rs_latency_add(a->lat[ep->kind], dur);
		if (ep->parent != RS_CTX_KSWAPD && (!es->stall_max_valid || dur > es->stall_max_ns)) {
			es->stall_max_valid = true;
			es->stall_max_ns = dur;
			es->stall_max_pid = ep->pid;
			es->stall_max_task = ep->task;
			es->stall_max_begin_ts = ep->begin_ts;
		}
		if (a->log) {
			struct rs_stall st = { .begin_ts = ep->begin_ts, .ns = dur, .pid = ep->pid,
					       .kind = (uint8_t)ep->kind,
					       .parent = (uint8_t)ep->parent };

			if (!rs_episode_log_add_stall(a->log, &st))
				a->oom = true;
		}
		if (t) {
			t->episodes[ep->kind]++;
			t->episode_ns[ep->kind] += dur;
			t->episode_reclaimed[ep->kind] += ep->nr_reclaimed;
			if (ep->parent == RS_CTX_OTHER)
				t->stalled_ns += dur;
		}
		break;
	case RS_EP_CUT_START:
	case RS_EP_UNMATCHED_END:
		es->reclaimed_unpaired += ep->nr_reclaimed;
		if (ep->status == RS_EP_CUT_START)
			es->partial_ns += dur;
		if (t)
			t->incomplete[ep->kind]++;
		break;
	case RS_EP_CUT_END:
		es->partial_ns += dur;
		if (t)
			t->incomplete[ep->kind]++;
		break;
	default:		/* missed end: its duration is unknown */
		if (t)
			t->incomplete[ep->kind]++;
		break;
	}
	if (ep->status == RS_EP_COMPLETE || ep->status == RS_EP_CUT_START ||
	    ep->status == RS_EP_CUT_END)
		span(a, RS_TS_STALL_NS + ep->kind, ep->begin_ts, ep->end_ts);
	if (t)
		t->active = true;
}

static void on_kswapd_period(struct rs_analysis *a, const struct rs_episode *ep,
			     struct rs_kswapd_stats *k)
{
	struct rs_episode_stats *es = &a->ep[RS_CTX_KSWAPD];
	uint64_t from = ep->begin_ts ? ep->begin_ts : a->t0;
	uint64_t dur = ep->end_ts > from ? ep->end_ts - from : 0;

	es->status[ep->status]++;
	if (ep->broken)
		es->broken_by_lost_events++;
	if (k && k->nid < 0)
		k->nid = ep->nid;
	switch (ep->status) {
	case RS_EP_COMPLETE:
		es->count++;
		rs_latency_add(a->lat[RS_CTX_KSWAPD], dur);
		if (!es->stall_max_valid || dur > es->stall_max_ns) {
			es->stall_max_valid = true;
			es->stall_max_ns = dur;
			es->stall_max_pid = ep->pid;
			es->stall_max_task = ep->task;
			es->stall_max_begin_ts = ep->begin_ts;
		}
		if (k) {
			k->periods++;
			k->awake_ns += dur;
		}
		break;
	case RS_EP_CUT_START:
	case RS_EP_CUT_END:
		es->partial_ns += dur;
		if (k)
			k->awake_cut_ns += dur;
		break;
	default:
		if (k)
			k->unmatched_sleeps++;
		return;
	}
	span(a, RS_TS_KSWAPD_AWAKE_NS, ep->begin_ts, ep->end_ts);
	if (a->log && k) {
		struct rs_awake p = { .begin_ts = from, .end_ts = ep->end_ts,
				      .kswapd = (int)(k - a->ks),
				      .cut = ep->status != RS_EP_COMPLETE };

		if (!rs_episode_log_add_awake(a->log, &p))
			a->oom = true;
	}
}

static void on_episode(const struct rs_episode *ep, void *arg)
{
	struct rs_analysis *a = arg;
	const struct rs_task_info *ti = rs_episodes_task(a->eps, ep->task);
	struct rs_task_stats *t = NULL;

	if (ti && ti->selected) {
		if (rs_analysis_task_row(a, ep->task))
			t = &a->tasks[ep->task];
		if (ep->kind == RS_CTX_KSWAPD)
			on_kswapd_period(a, ep, t ? kswapd_row(a, ep->task) : NULL);
		else
			on_reclaim_episode(a, ep, t);
	}
	if (a->nr_consumers) {
		struct rs_episode e = *ep;

		e.root = rs_memcgs_episode(a->memcgs, ep);
		for (int i = 0; i < a->nr_consumers; i++)
			if (a->consumers[i].episode)
				a->consumers[i].episode(a->consumers[i].arg, &e);
	}
}

static int shrinker_find(struct rs_analysis *a, uint64_t fn, const char *name)
{
	size_t s = (size_t)((fn >> 4) * 0x9e3779b97f4a7c15ull >> 52) & (SHRINKER_HASH - 1);
	struct rs_shrinker_stats *sh;

	for (; a->shrinker_slots[s]; s = (s + 1) & (SHRINKER_HASH - 1))
		if (a->shrinkers[a->shrinker_slots[s] - 1].fn == fn)
			return a->shrinker_slots[s] - 1;
	if (a->nr_shrinkers >= MAX_SHRINKERS) {
		rs_warn_once(a->warnings, &a->warned_shrinkers, "more than %d shrinker functions: "
			     "the rest are only in the slab totals", MAX_SHRINKERS);
		return -1;
	}
	sh = &a->shrinkers[a->nr_shrinkers];
	memset(sh, 0, sizeof(*sh));
	sh->fn = fn;
	if (name && *name)
		snprintf(sh->name, sizeof(sh->name), "%s", name);
	else
		snprintf(sh->name, sizeof(sh->name), "0x%" PRIx64, fn);
	a->shrinker_slots[s] = ++a->nr_shrinkers;
	return a->nr_shrinkers - 1;
}

static void slab_add(struct rs_slab_stats *s, uint64_t ns, uint64_t freed, int64_t to_scan,
		     bool paired)
{
	if (paired) {
		s->calls++;
		s->ns += ns;
		s->to_scan += to_scan > 0 ? (uint64_t)to_scan : 0;
	}
	s->freed += freed;
}

static void on_slab_end(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx,
			struct task_priv *tp, struct rs_task_stats *t)
{
	bool paired = tp && tp->slab_open && tp->slab_fn == ev->slab.shrink_fn;
	uint64_t freed = ev->slab.retval > 0 ? (uint64_t)ev->slab.retval : 0;
	uint64_t ns = paired && ev->ts > tp->slab_ts ? ev->ts - tp->slab_ts : 0;
	int64_t to_scan = paired ? tp->slab_to_scan : 0;
	int c = paired ? tp->slab_ctx : ctx->kind;
	int sh;

	if (!paired)
		a->at.slab_ends_without_start++;
	if (tp)
		tp->slab_open = false;
	slab_add(&a->slab[c], ns, freed, to_scan, paired);
	sh = shrinker_find(a, ev->slab.shrink_fn, ev->slab.shrink_name);
	if (sh >= 0)
		slab_add(&a->shrinkers[sh].s, ns, freed, to_scan, paired);
	rs_series_add(a->series, RS_TS_SLAB_FREED, ev->ts, freed);
	if (paired)
		span(a, RS_TS_SLAB_NS, tp->slab_ts, ev->ts);
	if (t) {
		t->slab_calls += paired;
		t->slab_ns += ns;
		t->slab_freed += freed;
		t->active = true;
	}
}

static void on_throttled(struct rs_analysis *a, const struct rs_event *ev,
			 const struct rs_ctx *ctx, struct rs_task_stats *t)
{
	const struct rs_ev_throttled *th = &ev->throttled;
	int r = rs_throttle_reason_slot(th->reason);
	uint64_t delayed = th->usec_delayed > 0 ? (uint64_t)th->usec_delayed : 0;

	a->thr.count[r]++;
	a->thr.delayed_us[r] += delayed;
	a->thr.timeout_us[r] += th->usec_timeout > 0 ? (uint64_t)th->usec_timeout : 0;
	a->thr.by_ctx[ctx->kind]++;
	rs_series_add(a->series, RS_TS_THROTTLED, ev->ts, 1);
	rs_series_add(a->series, RS_TS_THROTTLED_US, ev->ts, delayed);
	if (t) {
		t->throttled++;
		t->throttled_us += delayed;
		t->active = true;
	}
}

static void on_oom(struct rs_analysis *a, const struct rs_event *ev)
{
	a->oom_kills++;
	rs_series_add(a->series, RS_TS_OOM, ev->ts, 1);
	if (a->nr_oom < RS_MAX_OOM_LISTED) {
		struct rs_oom_kill *k = &a->oom_list[a->nr_oom++];

		memset(k, 0, sizeof(*k));
		k->ts = ev->ts;
		k->pid = ev->oom.pid;
		if (ev->oom.comm)
			snprintf(k->comm, sizeof(k->comm), "%s", ev->oom.comm);
		k->by_pid = ev->pid;
		snprintf(k->by_comm, sizeof(k->by_comm), "%s", ev->comm ? ev->comm : "");
	}
}

/* The analysis' own figures for one event of a selected task (or task -1). */
static void account(struct rs_analysis *a, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct rs_task_stats *t = NULL;
	struct task_priv *tp = NULL;
	struct rs_kswapd_stats *k;
	int o;

	if (ctx->task >= 0 && rs_analysis_task_row(a, ctx->task)) {
		t = &a->tasks[ctx->task];
		tp = &a->tpriv[ctx->task];
	}
	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
		a->isolate_have |= ev->have;
		a->isolate_seen = true;
		rs_scan_isolate(a, ev, ctx, tp, t);
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
		if (ev->type == RS_EV_SHRINK_INACTIVE) {
			a->shrink_have |= ev->have;
			a->shrink_seen = true;
		}
		rs_scan_shrink(a, ev, ctx, tp, t);
		break;
	case RS_EV_WRITE_FOLIO:
		rs_scan_write(a, ev, ctx, tp, t);
		break;
	case RS_EV_RECLAIM_PAGES:
		a->shrink_have |= ev->have;
		a->shrink_seen = true;
		rs_scan_reclaim_pages(a, ev, ctx);
		break;
	case RS_EV_RECLAIM_BEGIN:
		if ((unsigned int)ev->reclaim.kind >= RS_RK_NR)
			break;
		o = order_slot((ev->have & RS_HAVE_ORDER) ? ev->reclaim.order : -1);
		a->ep[ev->reclaim.kind].begun_by_order[o]++;
		rs_series_add(a->series, RS_TS_EPISODES + ev->reclaim.kind, ev->ts, 1);
		if (t) {
			t->begun_by_order[ev->reclaim.kind][o]++;
			t->active = true;
		}
		break;
	case RS_EV_WAKEUP_KSWAPD:
		o = order_slot((ev->have & RS_HAVE_ORDER) ? ev->kswapd.order : -1);
		a->wakeup_kswapd++;
		a->wakeup_by_order[o]++;
		/* the node whose kswapd is woken (each node has its own) */
		a->wakeup_by_node[ev->kswapd.nid >= 0 && ev->kswapd.nid < a->max_nodes ?
				  ev->kswapd.nid + 1 : 0]++;
		if (t) {
			t->wakeup_kswapd++;
			t->wakeup_by_order[o]++;
			t->active = true;
		}
		break;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_KSWAPD_SLEEP:
		if (!t || !(k = kswapd_row(a, ctx->task)))
			break;
		t->active = true;
		if (k->nid < 0)
			k->nid = ev->kswapd.nid;
		if (ev->type == RS_EV_KSWAPD_SLEEP) {
			k->sleeps++;
			break;
		}
		o = order_slot((ev->have & RS_HAVE_ORDER) ? ev->kswapd.order : -1);
		if (ctx->rewake) {
			k->rewakes++;
			k->rewakes_by_order[o]++;
		} else {
			k->wakes++;
			k->wakes_by_order[o]++;
			rs_series_add(a->series, RS_TS_KSWAPD_WAKES, ev->ts, 1);
		}
		break;
	case RS_EV_SLAB_START:
		if (!tp)
			break;
		if (tp->slab_open)
			a->at.slab_starts_unfinished++;
		tp->slab_open = true;
		tp->slab_ts = ev->ts;
		tp->slab_fn = ev->slab.shrink_fn;
		tp->slab_ctx = (uint8_t)ctx->kind;
		tp->slab_to_scan = ev->slab.total_scan;
		(void)shrinker_find(a, ev->slab.shrink_fn, ev->slab.shrink_name);
		break;
	case RS_EV_SLAB_END:
		on_slab_end(a, ev, ctx, tp, t);
		break;
	case RS_EV_THROTTLED:
		on_throttled(a, ev, ctx, t);
		break;
	case RS_EV_OOM_VICTIM:
		on_oom(a, ev);
		break;
	default:
		break;
	}
}

static size_t name_slot(int pid)
{
	return (size_t)((uint32_t)pid * 2654435761u) & (NAME_SLOTS - 1);
}

/* Remember pid's name (a pointer into the event: copied). */
static void learn_name(struct rs_analysis *a, int pid, const char *comm)
{
	size_t s;

	if (pid <= 0 || !comm || !*comm || !strcmp(comm, "<...>"))
		return;
	if (!a->names) {
		a->names = calloc(NAME_SLOTS, sizeof(*a->names));
		if (!a->names)
			return;		/* names are a nicety: no failure for want of them */
	}
	for (s = name_slot(pid); a->names[s].pid; s = (s + 1) & (NAME_SLOTS - 1))
		if (a->names[s].pid == pid)
			break;
	if (!a->names[s].pid) {
		if (a->nr_names >= NAME_SLOTS / 2)
			return;
		a->names[s].pid = pid;
		a->nr_names++;
	}
	snprintf(a->names[s].comm, sizeof(a->names[s].comm), "%s", comm);
}

static const char *known_name(const struct rs_analysis *a, int pid)
{
	if (!a->names || pid <= 0)
		return NULL;
	for (size_t s = name_slot(pid); a->names[s].pid; s = (s + 1) & (NAME_SLOTS - 1))
		if (a->names[s].pid == pid)
			return a->names[s].comm;
	return NULL;
}

/* The names sched events give: fork's child, exec's new image (its basename), switch's two. */
static void learn_names(struct rs_analysis *a, const struct rs_event *ev)
{
	const char *base;

	switch (ev->type) {
	case RS_EV_FORK:
	case RS_EV_SCHED_NAME:
		learn_name(a, ev->task.pid, ev->task.comm);
		learn_name(a, ev->task.child_pid, ev->task.child_comm);
		break;
	case RS_EV_EXIT:
		learn_name(a, ev->task.pid, ev->task.comm);
		break;
	case RS_EV_EXEC:
		if (!ev->task.filename)
			break;
		base = strrchr(ev->task.filename, '/');
		learn_name(a, ev->task.pid, base ? base + 1 : ev->task.filename);
		break;
	default:
		break;
	}
}

int rs_analysis_feed(struct rs_analysis *a, const struct rs_event *ev)
{
	struct rs_ctx ctx;
	struct rs_memcg_ctx mctx;
	bool fed = rs_episodes_wants(ev->type);

	if (ev->type != RS_EV_LOST && !a->events++) {
		a->first_ts = ev->ts;
		if (!a->t0)
			a->t0 = ev->ts;
	}
	if (ev->ts > a->last_ts)
		a->last_ts = ev->ts;
	if (ev->type >= RS_EV_BALANCE_BEGIN && ev->type <= RS_EV_KSWAPD_CLEAR_HOPELESS)
		rs_kswapd_health_feed(a->health, ev);
	else if (ev->type == RS_EV_MARKER)
		rs_mglru_gens_feed(a->gens, ev->ts, ev->marker);
	if (!fed)
		learn_names(a, ev);
	if (fed) {
		rs_episodes_feed(a->eps, ev, &ctx);
		if (ev->type == RS_EV_LOST) {
			a->at.lost_event_records++;
			if (ev->lost > 0)
				a->at.lost_events += (uint64_t)ev->lost;
		} else if (ctx.selected) {
			account(a, ev, &ctx);
		}
	} else if (!a->nr_consumers) {
		return 0;
	} else if (ev->pid >= 0) {
		rs_episodes_context(a->eps, ev->pid, &ctx);
	} else {
		memset(&ctx, 0, sizeof(ctx));
		ctx.kind = ctx.outer = RS_CTX_OTHER;
		ctx.task = -1;
	}
	if (!a->nr_consumers)
		return 0;
	rs_memcgs_event(a->memcgs, ev, &ctx, &mctx);
	ctx.memcg = &mctx;
	for (int i = 0; i < a->nr_consumers; i++) {
		int ret;

		if (!a->consumers[i].event)
			continue;
		ret = a->consumers[i].event(a->consumers[i].arg, ev, &ctx);
		if (ret)
			return ret;
	}
	return 0;
}

struct rs_analysis *rs_analysis_new(const struct rs_analysis_opts *o, struct rs_error *err)
{
	struct rs_analysis *a = calloc(1, sizeof(*a));
	struct rs_episodes_opts eo = { 0 };
	struct rs_memcgs_opts mo = { 0 };
	struct rs_series_opts so = { 0 };

	if (!a) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	a->o = *o;
	a->health = calloc(1, sizeof(*a->health));
	a->gens = calloc(1, sizeof(*a->gens));
	if (!a->health || !a->gens) {
		rs_error_set(err, "out of memory");
		goto out_free;
	}
	if (a->o.to_ns == 0)
		a->o.to_ns = UINT64_MAX;
	if (o->nr_consumers > RS_ANALYSIS_MAX_CONSUMERS || o->nr_consumers < 0) {
		rs_error_set(err, "at most %d consumers", RS_ANALYSIS_MAX_CONSUMERS);
		goto out_free;
	}
	for (int i = 0; i < o->nr_consumers; i++)
		a->consumers[i] = o->consumers[i];
	a->nr_consumers = o->nr_consumers;
	a->o.consumers = a->consumers;
	if (o->comm) {
		a->comm = strdup(o->comm);
		if (!a->comm)
			goto out_oom;
		a->o.comm = a->comm;
	}
	a->warnings = o->warnings;
	if (!a->warnings) {
		a->warnings = rs_warnings_new();
		a->own_warnings = true;
		if (!a->warnings)
			goto out_oom;
	}
	a->o.warnings = a->warnings;
	a->max_nodes = o->max_nodes > 0 ? o->max_nodes : RS_ANALYSIS_MAX_NODES;
	if (a->max_nodes > 4096)
		a->max_nodes = 4096;
	a->nodes = calloc((size_t)a->max_nodes + 1, sizeof(*a->nodes));
	a->wakeup_by_node = calloc((size_t)a->max_nodes + 1, sizeof(*a->wakeup_by_node));
	a->shrinker_slots = calloc(SHRINKER_HASH, sizeof(*a->shrinker_slots));
	a->shrinkers = calloc(MAX_SHRINKERS, sizeof(*a->shrinkers));
	if (!a->nodes || !a->wakeup_by_node || !a->shrinker_slots || !a->shrinkers)
		goto out_oom;
	for (int k = 0; k < RS_CTX_NR; k++) {
		if (k == RS_CTX_OTHER)
			continue;
		a->lat[k] = rs_latency_new(o->max_samples);
		if (!a->lat[k])
			goto out_oom;
	}
	eo.max_tasks = o->max_tasks;
	eo.filter_pid = o->pid;
	eo.filter_comm = a->o.comm;
	eo.warnings = a->warnings;
	eo.on_episode = on_episode;
	eo.arg = a;
	a->eps = rs_episodes_new(&eo);
	if (!a->eps)
		goto out_oom;
	mo.max_tasks = o->max_tasks;
	mo.warnings = a->warnings;
	a->memcgs = rs_memcgs_new(&mo);
	if (!a->memcgs)
		goto out_oom;
	if (o->from_ns)
		a->t0 = o->span_first_ns > o->from_ns ? o->span_first_ns : o->from_ns;
	else
		a->t0 = o->span_first_ns;
	so.nr_metrics = RS_TS_NR;
	so.t0 = a->t0;
	so.t1 = o->span_last_ns > a->t0 ? o->span_last_ns : 0;
	so.width = o->bucket_ns;
	so.max_buckets = o->max_buckets;
	so.warnings = a->warnings;
	a->series = rs_series_new(&so);
	if (!a->series)
		goto out_oom;
	if (o->keep_episodes) {
		a->log = rs_episode_log_new(o->max_logged, o->max_logged);
		if (!a->log)
			goto out_oom;
	}
	for (int i = 0; i < a->nr_consumers; i++)
		if (a->consumers[i].start)
			a->consumers[i].start(a->consumers[i].arg, a);
	return a;

out_oom:
	rs_error_set(err, "out of memory");
out_free:
	rs_analysis_free(a);
	return NULL;
}

int rs_analysis_finish(struct rs_analysis *a, struct rs_error *err)
{
	if (a->finished)
		return 0;
	a->finished = true;
	rs_episodes_finish(a->eps, a->last_ts);
	rs_kswapd_health_finish(a->health, a->last_ts);
	if (a->health->bad_nid)
		rs_warn(a->warnings, "kswapd runs and health: %llu balance_pgdat / reclaim_fail / "
			"clear_hopeless events of nodes past the first %d (or of none) not counted",
			(unsigned long long)a->health->bad_nid, RS_HEALTH_MAX_NODES);
	for (int i = 0; i < a->nr_tasks; i++) {
		const struct rs_task_info *ti = rs_episodes_task(a->eps, i);

		if (a->tpriv[i].pend.valid)
			rs_scan_flush(a, &a->tpriv[i], &a->tasks[i]);
		if (a->tpriv[i].slab_open)
			a->at.slab_starts_unfinished++;
		if (ti) {
			const char *name = known_name(a, ti->pid);

			memcpy(a->tasks[i].comm, ti->comm, sizeof(a->tasks[i].comm));
			/* "<...>": the trace had no name with its events; a sched event may have */
			if (name && !strcmp(ti->comm, "<...>"))
				snprintf(a->tasks[i].comm, sizeof(a->tasks[i].comm), "%s", name);
			a->tasks[i].kswapd = ti->kswapd;
		}
	}
	if (a->events)
		rs_series_finish(a->series, a->last_ts);
	for (int k = 0; k < RS_CTX_NR; k++) {
		if (a->lat[k])
			rs_latency_summary(a->lat[k], &a->ep[k].latency);
	}
	if (a->log)
		rs_episode_log_finish(a->log);
	a->at.untracked_events = rs_episodes_untracked(a->eps);
	a->at.nest_overflows = rs_episodes_nest_overflows(a->eps);
	for (int i = 0; i < a->nr_consumers; i++) {
		if (a->consumers[i].finish && a->consumers[i].finish(a->consumers[i].arg, err) < 0)
			return -1;
	}
	if (a->oom || rs_memcgs_oom(a->memcgs) || rs_series_failed(a->series))
		return rs_error_set(err, "out of memory during the analysis%s",
				    rs_series_failed(a->series) ? " (time buckets: try a larger "
				    "--bucket or a smaller --max-buckets)" : "");
	return 0;
}

void rs_analysis_free(struct rs_analysis *a)
{
	if (!a)
		return;
	rs_scan_free(a);
	for (int k = 0; k < RS_CTX_NR; k++)
		rs_latency_free(a->lat[k]);
	rs_episodes_free(a->eps);
	rs_memcgs_free(a->memcgs);
	rs_series_free(a->series);
	free(a->health);
	free(a->gens);
	rs_episode_log_free(a->log);
	free(a->tasks);
	free(a->tpriv);
	free(a->ks);
	free(a->ks_task);
	free(a->shrinkers);
	free(a->shrinker_slots);
	free(a->wakeup_by_node);
	free(a->comm);
	free(a->names);
	if (a->own_warnings)
		rs_warnings_free(a->warnings);
	if (a->src)
		rs_source_close(a->src);
	free(a);
}

static int feed_cb(const struct rs_event *ev, void *ctx)
{
	return rs_analysis_feed(ctx, ev);
}

int rs_analysis_open(const char *path, const struct rs_analysis_opts *o, struct rs_analysis **out,
		     struct rs_error *err)
{
	struct rs_source_opts so = { .threads = o->threads, .progress = o->progress };
	const struct rs_trace_info *ti;
	struct rs_analysis_opts ao = *o;
	struct rs_source *src;
	struct rs_analysis *a;
	uint64_t to = o->to_ns ? o->to_ns : UINT64_MAX;

	*out = NULL;
	if (rs_source_open(path, &so, &src, err) < 0)
		return -1;
	/* the span is known before streaming for trace.dat: size the buckets from it */
	ti = rs_source_info(src);
	ao.warnings = ti->warnings;
	ao.absent_types = ti->formats_known ? ~ti->format_types : 0;
	ao.span_first_ns = ti->first_ts > o->from_ns ? ti->first_ts : o->from_ns;
	ao.span_last_ns = ti->last_ts < to ? ti->last_ts : to;
	if (ti->last_ts <= ti->first_ts)
		ao.span_first_ns = ao.span_last_ns = 0;	/* not known before streaming */
	a = rs_analysis_new(&ao, err);
	if (!a) {
		rs_source_close(src);
		return -1;
	}
	a->src = src;
	*out = a;
	return 0;
}

int rs_analysis_stream(struct rs_analysis *a, struct rs_error *err)
{
	int ret;

	if (!a->src)
		return rs_error_set(err, "no trace opened (rs_analysis_open)");
	ret = rs_source_stream(a->src, a->o.from_ns, a->o.to_ns, feed_cb, a, err);
	if (ret > 0)
		ret = rs_error_set(err, "%s: a consumer stopped the analysis (%d)",
				   rs_source_info(a->src)->path, ret);
	if (ret < 0)
		return -1;
	return rs_analysis_finish(a, err);
}

int rs_analysis_run(const char *path, const struct rs_analysis_opts *o, struct rs_analysis **out,
		    struct rs_error *err)
{
	struct rs_analysis *a;

	*out = NULL;
	if (rs_analysis_open(path, o, &a, err) < 0)
		return -1;
	if (rs_analysis_stream(a, err) < 0) {
		rs_analysis_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

struct rs_source *rs_analysis_source(const struct rs_analysis *a)
{
	return a->src;
}

struct rs_warnings *rs_analysis_warnings(const struct rs_analysis *a)
{
	return a->warnings;
}

const struct rs_analysis_opts *rs_analysis_opts(const struct rs_analysis *a)
{
	return &a->o;
}

struct rs_memcgs *rs_analysis_memcgs(const struct rs_analysis *a)
{
	return a->memcgs;
}

const struct rs_episodes *rs_analysis_episodes_ctx(const struct rs_analysis *a)
{
	return a->eps;
}

uint64_t rs_analysis_first_ts(const struct rs_analysis *a)
{
	return a->first_ts;
}

const struct rs_mglru_gens *rs_analysis_mglru_gens(const struct rs_analysis *a)
{
	return a->gens;
}

const struct rs_kswapd_health *rs_analysis_kswapd_health(const struct rs_analysis *a)
{
	return a->health;
}

uint64_t rs_analysis_last_ts(const struct rs_analysis *a)
{
	return a->last_ts;
}

uint64_t rs_analysis_events(const struct rs_analysis *a)
{
	return a->events;
}

const struct rs_episode_stats *rs_analysis_episode_stats(const struct rs_analysis *a, int kind)
{
	return kind >= 0 && kind < RS_CTX_NR && kind != RS_CTX_OTHER ? &a->ep[kind] : NULL;
}

int rs_analysis_nr_tasks(const struct rs_analysis *a)
{
	return a->nr_tasks;
}

const struct rs_task_stats *rs_analysis_task(const struct rs_analysis *a, int i)
{
	return i >= 0 && i < a->nr_tasks ? &a->tasks[i] : NULL;
}

const char *rs_analysis_task_comm(const struct rs_analysis *a, int i)
{
	const struct rs_task_info *ti = i >= 0 ? rs_episodes_task(a->eps, i) : NULL;

	return ti ? ti->comm : "";
}

int rs_analysis_nr_kswapd(const struct rs_analysis *a)
{
	return a->nr_ks;
}

const struct rs_kswapd_stats *rs_analysis_kswapd(const struct rs_analysis *a, int i)
{
	return i >= 0 && i < a->nr_ks ? &a->ks[i] : NULL;
}

const struct rs_task_stats *rs_analysis_kswapd_task(const struct rs_analysis *a, int i)
{
	return i >= 0 && i < a->nr_ks ? &a->tasks[a->ks_task[i]] : NULL;
}

uint64_t rs_analysis_wakeup_kswapd_node(const struct rs_analysis *a, int nid)
{
	if (nid < -1 || nid >= a->max_nodes)
		return 0;
	return a->wakeup_by_node[nid + 1];
}

int rs_analysis_max_nodes(const struct rs_analysis *a)
{
	return a->max_nodes;
}

uint64_t rs_analysis_wakeup_kswapd(const struct rs_analysis *a, uint64_t by_order[RS_NR_ORDER])
{
	if (by_order)
		memcpy(by_order, a->wakeup_by_order, sizeof(a->wakeup_by_order));
	return a->wakeup_kswapd;
}

const struct rs_slab_stats *rs_analysis_slab(const struct rs_analysis *a, int ctx)
{
	return ctx >= 0 && ctx < RS_CTX_NR ? &a->slab[ctx] : NULL;
}

struct rs_slab_stats rs_analysis_slab_total(const struct rs_analysis *a)
{
	struct rs_slab_stats sum = { 0 };

	for (int x = 0; x < RS_CTX_NR; x++) {
		sum.calls += a->slab[x].calls;
		sum.ns += a->slab[x].ns;
		sum.freed += a->slab[x].freed;
		sum.to_scan += a->slab[x].to_scan;
	}
	return sum;
}

int rs_analysis_nr_shrinkers(const struct rs_analysis *a)
{
	return a->nr_shrinkers;
}

static int shrinker_by_time_cmp(const void *x, const void *y)
{
	const struct rs_shrinker_stats *sa = *(const struct rs_shrinker_stats *const *)x;
	const struct rs_shrinker_stats *sb = *(const struct rs_shrinker_stats *const *)y;

	return RS_CMP(sb->s.ns, sa->s.ns) ?: strcmp(sa->name, sb->name);
}

const struct rs_shrinker_stats **rs_analysis_shrinkers_by_time(const struct rs_analysis *a)
{
	int n = a->nr_shrinkers;
	const struct rs_shrinker_stats **v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		return NULL;
	for (int i = 0; i < n; i++)
		v[i] = &a->shrinkers[i];
	qsort(v, n, sizeof(*v), shrinker_by_time_cmp);
	return v;
}

const struct rs_throttle_stats *rs_analysis_throttle(const struct rs_analysis *a)
{
	return &a->thr;
}

uint64_t rs_analysis_oom_kills(const struct rs_analysis *a)
{
	return a->oom_kills;
}

int rs_analysis_nr_oom_listed(const struct rs_analysis *a)
{
	return a->nr_oom;
}

const struct rs_oom_kill *rs_analysis_oom(const struct rs_analysis *a, int i)
{
	return i >= 0 && i < a->nr_oom ? &a->oom_list[i] : NULL;
}

const struct rs_attrib_stats *rs_analysis_attrib(const struct rs_analysis *a)
{
	return &a->at;
}

unsigned int rs_analysis_lacks(const struct rs_analysis *a)
{
	unsigned int lack = 0;

	if (a->shrink_seen)
		lack |= ~a->shrink_have & (RS_LACK_FIELDS & ~RS_HAVE_SKIPPED);
	if (a->isolate_seen && !(a->isolate_have & RS_HAVE_SKIPPED))
		lack |= RS_HAVE_SKIPPED;
	return lack;
}

size_t rs_analysis_latency_quantiles(const struct rs_analysis *a, int kind, uint64_t *x, size_t n)
{
	if (kind < 0 || kind >= RS_CTX_NR || !a->lat[kind])
		return 0;
	return rs_latency_quantiles(a->lat[kind], x, n);
}

const struct rs_episode_log *rs_analysis_episode_log(const struct rs_analysis *a)
{
	return a->log;
}

const struct rs_series *rs_analysis_series(const struct rs_analysis *a)
{
	return a->series;
}
