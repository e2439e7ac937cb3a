// SPDX-License-Identifier: GPL-2.0
/*
 * export --format jsonl: one JSON object a line (sorted keys), with host, trace and kernel on
 * every row so that many machines' exports load into one table (docs/export.md):
 *
 *   "type": "episode"        one per reclaim episode, any status (as analyze counts them)
 *   "type": "kswapd_awake"   one per kswapd awake period
 *   "type": "bucket"         one per time bucket of analyze's timeline, every series
 *   "type": "cgroup_bucket"  one per time bucket of each cgroup with a series
 *
 * Times are integer nanoseconds on the trace clock (_ns), exact.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "report.h"
#include "series.h"

#define JI(v) json_integer((json_int_t)(v))

struct jw {
	FILE *f;
	const struct export_input *in;
	uint64_t rows;
	bool failed;
};

static json_t *row_new(const struct jw *w, const char *type)
{
	const struct rs_trace_info *ti = w->in->info;

	return json_pack("{s:s,s:o,s:s,s:s}", "type", type,
			 "host", ti->host ? json_string(ti->host) : json_null(),
			 "trace", ti->path, "kernel", ti->kernel ? ti->kernel : "unknown");
}

static void row_put(struct jw *w, json_t *row)
{
	if (!row || json_dumpf(row, w->f, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII) < 0)
		w->failed = true;
	else
		fputc('\n', w->f);
	json_decref(row);
	w->rows++;
}

static json_t *int_or_null(bool known, int64_t v)
{
	return known ? JI(v) : json_null();
}

static void episode_row(struct jw *w, const struct rs_episode *ep)
{
	const struct rs_task_info *ti = rs_episodes_task(rs_analysis_episodes_ctx(w->in->a),
							 ep->task);
	bool kswapd = ep->kind == RS_CTX_KSWAPD;
	json_t *row = row_new(w, kswapd ? "kswapd_awake" : "episode");
	bool whole = ep->status == RS_EP_COMPLETE;

	if (!row) {
		w->failed = true;
		return;
	}
	json_object_set_new(row, "kind", json_string(rs_ctx_name(ep->kind)));
	json_object_set_new(row, "status", json_string(rs_ep_status_name(ep->status)));
	json_object_set_new(row, "pid", JI(ep->pid));
	json_object_set_new(row, "comm", ti ? json_string(ti->comm) : json_null());
	/* begin_ts 0 is "not seen": it began before the trace, or its begin was lost */
	json_object_set_new(row, "begin_ns", int_or_null(ep->begin_ts != 0, (int64_t)ep->begin_ts));
	json_object_set_new(row, "end_ns", JI(ep->end_ts));
	json_object_set_new(row, "duration_ns", int_or_null(whole, (int64_t)(ep->end_ts -
								     ep->begin_ts)));
	json_object_set_new(row, "order", int_or_null(ep->order >= 0, ep->order));
	json_object_set_new(row, "nid", int_or_null(ep->nid >= 0, ep->nid));
	json_object_set_new(row, "broken_by_lost_events", json_boolean(ep->broken));
	if (kswapd) {
		json_object_set_new(row, "rewakes", JI(ep->rewakes));
	} else {
		json_object_set_new(row, "parent", json_string(rs_ctx_name(ep->parent)));
		json_object_set_new(row, "nr_reclaimed", JI(ep->nr_reclaimed));
		json_object_set_new(row, "memcg_id", int_or_null(ep->memcg_id != 0,
								 (int64_t)ep->memcg_id));
	}
	row_put(w, row);
}

static void bucket_rows(struct jw *w)
{
	const struct rs_series *s = rs_analysis_series(w->in->a);
	const struct rs_buckets bk = rs_series_buckets(s);

	for (size_t b = 0; b < bk.len; b++) {
		json_t *row = row_new(w, "bucket");

		if (!row) {
			w->failed = true;
			return;
		}
		json_object_set_new(row, "bucket", JI(b));
		json_object_set_new(row, "start_ns", JI(bk.t0 + b * bk.width));
		json_object_set_new(row, "bucket_ns", JI(bk.width));
		for (int m = 0; m < RS_TS_NR; m++)
			json_object_set_new(row, rs_ts_metric_name(m),
					    JI(rs_series_values(s, m)[b]));
		row_put(w, row);
	}
}

static void cgroup_rows(struct jw *w)
{
	const struct rs_cgroups *cg = w->in->cg;
	const struct rs_buckets bk = rs_cgroups_buckets(cg);
	char buf[256], k[48];

	for (int c = 0; c < rs_cgroups_count(cg); c++) {
		const struct rs_cgroup *g = rs_cgroups_get(cg, c);
		int64_t level[RS_LRU_NR] = { 0 };

		/* as analyze --json: cgroups with no series have none (null) */
		if (!rs_cgroups_series(cg, c, 0))
			continue;
		for (size_t b = 0; b < bk.len; b++) {
			json_t *row = row_new(w, "cgroup_bucket");
			const int64_t *v;

			if (!row) {
				w->failed = true;
				return;
			}
			json_object_set_new(row, "cgroup", json_string(rs_cgroups_name(cg, c, buf,
										  sizeof(buf))));
			json_object_set_new(row, "cgroup_id", int_or_null(g->memcg.id != 0,
									  (int64_t)g->memcg.id));
			json_object_set_new(row, "bucket", JI(b));
			json_object_set_new(row, "start_ns", JI(bk.t0 + b * bk.width));
			json_object_set_new(row, "bucket_ns", JI(bk.width));
			json_object_set_new(row, "victim_scanned",
				JI(rs_cgroups_series(cg, c, RS_CG_TS_VICTIM_SCANNED)[b]));
			json_object_set_new(row, "victim_reclaimed",
				JI(rs_cgroups_series(cg, c, RS_CG_TS_VICTIM_RECLAIMED)[b]));
			json_object_set_new(row, "trigger_episodes",
				JI(rs_cgroups_series(cg, c, RS_CG_TS_TRIGGER_EPISODES)[b]));
			json_object_set_new(row, "trigger_stall_ns",
				JI(rs_cgroups_series(cg, c, RS_CG_TS_TRIGGER_STALL_NS)[b]));
			/* LRU sizes as analyze's series: the level at the bucket's end */
			for (int l = 0; l < RS_LRU_NR; l++) {
				level[l] += rs_cgroups_series(cg, c, RS_CG_TS_LRU_DELTA + l)[b];
				snprintf(k, sizeof(k), g->anchored ? "lru_%s_pages" :
					 "lru_%s_delta_pages", rs_lru_name(l));
				json_object_set_new(row, k, JI(level[l] + (g->anchored ?
								   g->offset_pages[l] : 0)));
			}
			v = rs_cgroups_series(cg, c, RS_CG_TS_USAGE);
			json_object_set_new(row, "usage_bytes",
					    int_or_null(v && v[b] != RS_CG_TS_NONE, v ? v[b] : 0));
			v = rs_cgroups_series(cg, c, RS_CG_TS_SOFT);
			json_object_set_new(row, "soft_limit_bytes",
					    int_or_null(v && v[b] != RS_CG_TS_NONE, v ? v[b] : 0));
			row_put(w, row);
		}
	}
}

int export_jsonl_write(FILE *f, const struct export_input *in, struct export_result *res)
{
	struct jw w = { .f = f, .in = in };
	struct export_rec r;

	memset(res, 0, sizeof(*res));
	if (export_spool_rewind(in->spool) < 0)
		return -1;
	while (export_spool_next(in->spool, &r))
		if (r.type == EXPORT_EPISODE)
			episode_row(&w, &r.ep);
	if (export_spool_error(in->spool))
		return -1;
	bucket_rows(&w);
	if (in->cg)
		cgroup_rows(&w);
	res->rows = w.rows;
	return w.failed ? -1 : 0;
}
