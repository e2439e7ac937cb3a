// SPDX-License-Identifier: GPL-2.0
/*
 * export --format perfetto: the Trace Event Format (the JSON of chrome://tracing, which
 * ui.perfetto.dev imports). docs/export.md lists every event; the layout:
 *
 *   pid 1 "reclaiming tasks": a thread per task (tid = its pid) with an X slice per reclaim
 *         episode (soft-limit passes nest inside direct reclaim or kswapd's awake slice), kswapd
 *         awake periods as X slices on the kswapd's own thread, i instants for throttling, OOM
 *         kills (global) and ends whose begin was lost
 *   pid 2 "LRU lists": C counters per list, pages scanned and reclaimed per time bucket
 *   pid 3 "victim cgroups": C counters per cgroup, its pages scanned and reclaimed per bucket
 *
 * Times: ts and dur in microseconds with three decimals, exact from the nanosecond trace clock.
 * Every object has its keys sorted; traceEvents comes first so that it can be written in one
 * pass.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "series.h"

#define PID_TASKS	1
#define PID_LRU		2
#define PID_CGROUPS	3

struct pw {
	FILE *f;
	uint64_t events;
};

/* Microseconds with three decimals: exact, and what ts/dur want. */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static void next(struct pw *w)
{
	fputs(w->events++ ? ",\n" : "\n", w->f);
}

/* The tail of every event: "ph", "pid", "tid", "ts" (sorted, after args/cat/dur/name/s). */
static void tail(struct pw *w, char ph, int pid, int tid, uint64_t ts_ns)
{
	fprintf(w->f, "\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"ts\":", ph, pid, tid);
	put_us(w->f, ts_ns);
	fputc('}', w->f);
}

static void metadata(struct pw *w, const char *what, int pid, int tid, const char *name)
{
	next(w);
	fputs("{\"args\":{\"name\":", w->f);
	export_json_str(w->f, name);
	fprintf(w->f, "},\"name\":\"%s\",", what);
	tail(w, 'M', pid, tid, 0);
}

static const char *slice_name(int kind)
{
	static const char *const names[RS_CTX_NR] = {
		[RS_CTX_DIRECT] = "direct reclaim", [RS_CTX_MEMCG] = "memcg reclaim",
		[RS_CTX_SOFTLIMIT] = "softlimit reclaim", [RS_CTX_NODE] = "node reclaim",
		[RS_CTX_KSWAPD] = "kswapd awake", [RS_CTX_OTHER] = "other",
	};

	return kind >= 0 && kind < RS_CTX_NR ? names[kind] : "reclaim";
}

/* args of an episode, keys sorted */
static void episode_args(FILE *f, const struct rs_episode *ep)
{
	fprintf(f, "{\"broken_by_lost_events\":%s", ep->broken ? "true" : "false");
	if (ep->kind != RS_CTX_KSWAPD && ep->memcg_id)
		fprintf(f, ",\"memcg_id\":%" PRIu64, ep->memcg_id);
	if (ep->nid >= 0)
		fprintf(f, ",\"nid\":%d", ep->nid);
	if (ep->kind != RS_CTX_KSWAPD)
		fprintf(f, ",\"nr_reclaimed\":%" PRIu64, ep->nr_reclaimed);
	if (ep->order >= 0)
		fprintf(f, ",\"order\":%d", ep->order);
	if (ep->kind != RS_CTX_KSWAPD)
		fprintf(f, ",\"parent\":\"%s\"", rs_ctx_name(ep->parent));
	else
		fprintf(f, ",\"rewakes\":%" PRIu32, ep->rewakes);
	fprintf(f, ",\"status\":\"%s\"}", rs_ep_status_name(ep->status));
}

static void episode_event(struct pw *w, const struct rs_episode *ep, uint64_t t0)
{
	uint64_t begin = ep->begin_ts ? ep->begin_ts : t0;

	next(w);
	fputs("{\"args\":", w->f);
	episode_args(w->f, ep);
	if (ep->status == RS_EP_UNMATCHED_END) {
		/* the begin was lost: an instant at the end, not a slice of made-up length */
		fprintf(w->f, ",\"cat\":\"reclaim\",\"name\":\"%s end without begin\",\"s\":\"t\",",
			slice_name(ep->kind));
		tail(w, 'i', PID_TASKS, ep->pid, ep->end_ts);
		return;
	}
	fputs(",\"cat\":\"reclaim\",\"dur\":", w->f);
	put_us(w->f, ep->end_ts > begin ? ep->end_ts - begin : 0);
	fprintf(w->f, ",\"name\":\"%s\",", slice_name(ep->kind));
	tail(w, 'X', PID_TASKS, ep->pid, begin);
}

static void instant_event(struct pw *w, const struct export_rec *r)
{
	next(w);
	if (r->type == EXPORT_OOM) {
		char name[64];

		fprintf(w->f, "{\"args\":{\"by_pid\":%d,\"victim_comm\":", r->pid);
		export_json_str(w->f, r->victim_comm[0] ? r->victim_comm : NULL);
		fprintf(w->f, ",\"victim_pid\":%d},\"cat\":\"oom\",\"name\":", r->victim_pid);
		snprintf(name, sizeof(name), "OOM kill of %s %d", r->victim_comm[0] ?
			 r->victim_comm : "pid", r->victim_pid);
		export_json_str(w->f, name);
		fputs(",\"s\":\"g\",", w->f);
	} else {
		fprintf(w->f, "{\"args\":{\"context\":\"%s\",\"reason\":\"%s\",\"usec_delayed\":%"
			PRId64 ",\"usec_timeout\":%" PRId64 "},\"cat\":\"throttle\",\"name\":"
			"\"throttled (%s)\",\"s\":\"t\",", rs_ctx_name(r->ctx),
			rs_throttle_reason_name(r->reason), r->usec_delayed, r->usec_timeout,
			rs_throttle_reason_name(r->reason));
	}
	tail(w, 'i', PID_TASKS, r->pid, r->ts);
}

/* A counter event: name, then args of value pairs (keys given sorted). */
static void counter(struct pw *w, int pid, const char *name, uint64_t ts, const char *k1,
		    int64_t v1, const char *k2, int64_t v2)
{
	next(w);
	fprintf(w->f, "{\"args\":{\"%s\":%" PRId64, k1, v1);
	if (k2)
		fprintf(w->f, ",\"%s\":%" PRId64, k2, v2);
	fputs("},\"name\":", w->f);
	export_json_str(w->f, name);
	fputc(',', w->f);
	tail(w, 'C', pid, 0, ts);
}

struct lru_counter {
	const char *name;
	int scanned, reclaimed;
};

static const struct lru_counter classic_lists[] = {
	{ "inactive_anon", RS_TS_SCANNED_IA, RS_TS_RECLAIMED_ANON },
	{ "active_anon", RS_TS_SCANNED_AA, -1 },
	{ "inactive_file", RS_TS_SCANNED_IF, RS_TS_RECLAIMED_FILE },
	{ "active_file", RS_TS_SCANNED_AF, -1 },
}, mglru_types[] = {
	/* MGLRU has no active lists; what its lru_isolate calls inactive is the oldest
	   generation of the type (analyze and the TUI name them so too) */
	{ "anon", RS_TS_SCANNED_IA, RS_TS_RECLAIMED_ANON },
	{ "file", RS_TS_SCANNED_IF, RS_TS_RECLAIMED_FILE },
};

static void lru_counters(struct pw *w, const struct rs_analysis *a, bool mglru)
{
	const struct lru_counter *lists = mglru ? mglru_types : classic_lists;
	size_t nlists = mglru ? sizeof(mglru_types) / sizeof(mglru_types[0]) :
			sizeof(classic_lists) / sizeof(classic_lists[0]);
	const struct rs_series *s = rs_analysis_series(a);
	const struct rs_buckets bk = rs_series_buckets(s);

	for (size_t l = 0; l < nlists; l++) {
		const uint64_t *sc = rs_series_values(s, lists[l].scanned);
		const uint64_t *re = lists[l].reclaimed >= 0 ?
				     rs_series_values(s, lists[l].reclaimed) : NULL;

		/* one more sample at the end, so that the last bucket has a width */
		for (size_t b = 0; sc && b <= bk.len; b++) {
			int64_t vs = b < bk.len ? (int64_t)sc[b] : 0;

			if (re)
				counter(w, PID_LRU, lists[l].name, bk.t0 + b * bk.width,
					"reclaimed_pages", b < bk.len ? (int64_t)re[b] : 0,
					"scanned_pages", vs);
			else
				counter(w, PID_LRU, lists[l].name, bk.t0 + b * bk.width,
					"scanned_pages", vs, NULL, 0);
		}
	}
}

static void cgroup_counters(struct pw *w, const struct rs_cgroups *cg)
{
	const struct rs_buckets bk = rs_cgroups_buckets(cg);
	char buf[256], name[300];

	for (int c = 0; c < rs_cgroups_count(cg); c++) {
		const int64_t *sc = rs_cgroups_series(cg, c, RS_CG_TS_VICTIM_SCANNED);
		const int64_t *re = rs_cgroups_series(cg, c, RS_CG_TS_VICTIM_RECLAIMED);
		bool any = false;

		for (size_t b = 0; sc && re && b < bk.len; b++)
			any |= sc[b] || re[b];
		if (!any)
			continue;
		snprintf(name, sizeof(name), "%s victim pages",
			 rs_cgroups_name(cg, c, buf, sizeof(buf)));
		for (size_t b = 0; b <= bk.len; b++)
			counter(w, PID_CGROUPS, name, bk.t0 + b * bk.width, "reclaimed_pages",
				b < bk.len ? re[b] : 0, "scanned_pages", b < bk.len ? sc[b] : 0);
	}
}

int export_perfetto_write(FILE *f, const struct export_input *in, struct export_result *res)
{
	const struct rs_episodes *eps = rs_analysis_episodes_ctx(in->a);
	int nr_tasks = rs_episodes_nr_tasks(eps);
	bool *named = calloc((size_t)nr_tasks + 1, sizeof(*named));
	uint64_t t0 = rs_series_buckets(rs_analysis_series(in->a)).t0;
	struct pw w = { .f = f };
	bool mglru = in->info && in->info->mglru > 0;	/* trace.mglru, after the full stream */
	struct export_rec r;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (!named)
		return -1;
	fputs("{\"traceEvents\":[", f);
	metadata(&w, "process_name", PID_TASKS, 0, "reclaiming tasks");
	metadata(&w, "process_name", PID_LRU, 0, mglru ? "MGLRU types (pages per time bucket)" :
		 "LRU lists (pages per time bucket)");
	if (in->cg)
		metadata(&w, "process_name", PID_CGROUPS, 0, "victim cgroups (pages per time "
			 "bucket)");
	if (export_spool_rewind(in->spool) < 0)
		ret = -1;
	while (!ret && export_spool_next(in->spool, &r)) {
		int task = r.type == EXPORT_EPISODE ? r.ep.task : r.task;

		if (res->slices >= in->max_slices) {
			res->slices_dropped++;
			continue;
		}
		res->slices++;
		if (r.type == EXPORT_EPISODE)
			episode_event(&w, &r.ep, t0);
		else
			instant_event(&w, &r);
		if (task >= 0 && task < nr_tasks)
			named[task] = true;
	}
	if (export_spool_error(in->spool))
		ret = -1;
	/* a name for each thread that has an event: the comm the trace last gave its pid */
	for (int i = 0; i < nr_tasks; i++) {
		const struct rs_task_info *ti = rs_episodes_task(eps, i);

		if (named[i] && ti)
			metadata(&w, "thread_name", PID_TASKS, ti->pid, ti->comm);
	}
	free(named);
	lru_counters(&w, in->a, mglru);
	if (in->cg)
		cgroup_counters(&w, in->cg);
	fputs("\n],\"otherData\":{\"format\":", f);
	export_json_str(f, in->info->format);
	fputs(",\"generator\":\"reclaimscope " RS_VERSION "\",\"host\":", f);
	export_json_str(f, in->info->host ? in->info->host : "unknown");
	fputs(",\"kernel\":", f);
	export_json_str(f, in->info->kernel);
	fprintf(f, ",\"slices\":%" PRIu64 ",\"slices_dropped\":%" PRIu64 ",\"trace\":",
		res->slices, res->slices_dropped);
	export_json_str(f, in->info->path);
	fputs("}}\n", f);
	res->rows = w.events;
	return ret;
}
