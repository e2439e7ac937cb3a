// SPDX-License-Identifier: GPL-2.0
/*
 * `analyze --json`: the analysis as one JSON document. docs/json.md documents every member and
 * the event field it comes from. Integers are exact sums of event fields; times in `_us` are
 * integers rounded to the nearest microsecond from exact nanoseconds, times in `_s` are reals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cgroups_output.h"
#include "kswapd_health.h"
#include "mglru_gens.h"
#include "analyze_output.h"
#include "refaults_output.h"
#include "report.h"
#include "series.h"
#include "trace_source.h"

#define JI(v) json_integer((json_int_t)(v))
/* a page count of the isolate/shrink events: null where the kernel traced none (MGLRU < 6.7) */
#define JP(untraced, v) ((untraced) ? json_null() : JI(v))

static double window_s(const struct rs_analysis *a)
{
	uint64_t t0 = rs_analysis_first_ts(a), t1 = rs_analysis_last_ts(a);
	const struct rs_analysis_opts *o = rs_analysis_opts(a);

	if (o->from_ns && o->from_ns < t0)
		t0 = o->from_ns;
	return t1 > t0 ? rs_ns_to_s(t1 - t0) : 0.0;
}

static double rate(uint64_t v, double s)
{
	return s > 0 ? (double)v / s : 0.0;
}

static const char *prio_key(int p, char *buf, size_t n)
{
	if (p == RS_PRIO_UNKNOWN)
		return "unknown";
	snprintf(buf, n, "%d", p);
	return buf;
}

static const char *order_key(int o, char *buf, size_t n)
{
	if (o == RS_NR_ORDER - 1)
		return "other";
	snprintf(buf, n, "%d", o);
	return buf;
}

static const char *list_name(int l)
{
	return l == RS_LIST_UNKNOWN ? "unknown" : rs_lru_name(l);
}

static bool counts_zero(const struct rs_lru_counts *c)
{
	static const struct rs_lru_counts zero;

	return !memcmp(c, &zero, sizeof(zero));
}

/* A counter, or null when the recorded kernel lacks its field (rs_analysis_lacks). */
static json_t *opt_int(uint64_t v, unsigned int lack, unsigned int have_bit)
{
	return (lack & have_bit) ? json_null() : JI(v);
}

/* The counters of a cell sum; which ones depends on the list's side. */
static json_t *counts_json(const struct rs_lru_counts *c, int list, double secs,
			   unsigned int lack)
{
	json_t *o = json_object();
	bool inactive = list == RS_LRU_INACTIVE_ANON || list == RS_LRU_INACTIVE_FILE ||
			list < 0 || list == RS_LIST_UNKNOWN;
	bool active = list == RS_LRU_ACTIVE_ANON || list == RS_LRU_ACTIVE_FILE || list < 0 ||
		      list == RS_LIST_UNKNOWN;

	json_object_set_new(o, "isolates", JI(c->isolates));
	json_object_set_new(o, "requested", JI(c->requested));
	json_object_set_new(o, "scanned", JI(c->scanned));
	json_object_set_new(o, "skipped", opt_int(c->skipped, lack, RS_HAVE_SKIPPED));
	json_object_set_new(o, "taken", JI(c->taken));
	json_object_set_new(o, "velocity_pages_s", rs_json_real(rate(c->scanned, secs)));
	if (inactive) {
		json_object_set_new(o, "shrink_inactive_events", JI(c->inactive_shrinks));
		json_object_set_new(o, "shrink_inactive_scanned", JI(c->inactive_scanned));
		json_object_set_new(o, "reclaimed", JI(c->reclaimed));
		json_object_set_new(o, "efficiency_pct",
				    rs_json_real(rs_pct(c->reclaimed, c->scanned)));
		json_object_set_new(o, "activated", opt_int(c->activate_anon + c->activate_file,
							    lack, RS_HAVE_ACTIVATE));
		json_object_set_new(o, "activated_anon",
				    opt_int(c->activate_anon, lack, RS_HAVE_ACTIVATE));
		json_object_set_new(o, "activated_file",
				    opt_int(c->activate_file, lack, RS_HAVE_ACTIVATE));
		json_object_set_new(o, "kept_referenced", opt_int(c->ref_keep, lack,
								  RS_HAVE_REF_KEEP));
		json_object_set_new(o, "unmap_failed", opt_int(c->unmap_fail, lack,
							       RS_HAVE_UNMAP_FAIL));
		json_object_set_new(o, "dirty", opt_int(c->dirty, lack, RS_HAVE_DIRTY));
		json_object_set_new(o, "writeback", opt_int(c->writeback, lack,
							    RS_HAVE_WRITEBACK));
		json_object_set_new(o, "congested", opt_int(c->congested, lack,
							    RS_HAVE_CONGESTED));
		json_object_set_new(o, "immediate", opt_int(c->immediate, lack,
							    RS_HAVE_IMMEDIATE));
		json_object_set_new(o, "write_folios", JI(c->write_anon + c->write_file));
		json_object_set_new(o, "write_anon", JI(c->write_anon));
		json_object_set_new(o, "write_file", JI(c->write_file));
		json_object_set_new(o, "write_sync", JI(c->write_sync));
		json_object_set_new(o, "write_async", JI(c->write_async));
	}
	if (active) {
		json_object_set_new(o, "shrink_active_events", JI(c->active_shrinks));
		json_object_set_new(o, "active_taken", JI(c->active_taken));
		json_object_set_new(o, "kept_active", JI(c->active_kept));
		json_object_set_new(o, "deactivated", JI(c->deactivated));
		json_object_set_new(o, "referenced", JI(c->referenced));
	}
	return o;
}

static json_t *prio_hist_json(const struct rs_analysis *a, int node, int list, int ctx)
{
	json_t *h = json_object();
	char k[16];

	for (int p = 0; p < RS_NR_PRIO; p++) {
		struct rs_lru_counts c;

		rs_analysis_lru_sum(a, node, list, ctx, p, &c);
		if (c.scanned || c.isolates)
			json_object_set_new(h, prio_key(p, k, sizeof(k)), JI(c.scanned));
	}
	return h;
}

static json_t *list_json(const struct rs_analysis *a, int list, double secs)
{
	struct rs_lru_counts c;
	json_t *o, *by_ctx = json_object(), *by_node = json_object(), *by_prio = json_object();
	char k[16];

	rs_analysis_lru_sum(a, -1, list, -1, -1, &c);
	o = counts_json(&c, list, secs, rs_analysis_lacks(a));
	json_object_set_new(o, "scanned_by_priority", prio_hist_json(a, -1, list, -1));
	for (int x = 0; x < RS_CTX_NR; x++) {
		json_t *cj;

		rs_analysis_lru_sum(a, -1, list, x, -1, &c);
		if (counts_zero(&c))
			continue;
		cj = counts_json(&c, list, secs, rs_analysis_lacks(a));
		json_object_set_new(cj, "scanned_by_priority", prio_hist_json(a, -1, list, x));
		json_object_set_new(by_ctx, rs_ctx_name(x), cj);
	}
	for (int n = 0; n < rs_analysis_nr_node_slots(a); n++) {
		json_t *nj, *nctx;

		if (!rs_analysis_node_used(a, n))
			continue;
		rs_analysis_lru_sum(a, n, list, -1, -1, &c);
		if (counts_zero(&c))
			continue;
		nj = counts_json(&c, list, secs, rs_analysis_lacks(a));
		nctx = json_object();
		for (int x = 0; x < RS_CTX_NR; x++) {
			struct rs_lru_counts cx;

			rs_analysis_lru_sum(a, n, list, x, -1, &cx);
			if (!counts_zero(&cx))
				json_object_set_new(nctx, rs_ctx_name(x),
						    counts_json(&cx, list, secs, rs_analysis_lacks(a)));
		}
		json_object_set_new(nj, "by_context", nctx);
		if (n)
			snprintf(k, sizeof(k), "%d", n - 1);
		json_object_set_new(by_node, n ? k : "unknown", nj);
	}
	for (int p = 0; p < RS_NR_PRIO; p++) {
		rs_analysis_lru_sum(a, -1, list, -1, p, &c);
		if (!counts_zero(&c))
			json_object_set_new(by_prio, prio_key(p, k, sizeof(k)),
					    counts_json(&c, list, secs, rs_analysis_lacks(a)));
	}
	json_object_set_new(o, "by_context", by_ctx);
	json_object_set_new(o, "by_node", by_node);
	json_object_set_new(o, "by_priority", by_prio);
	return o;
}

static json_t *lru_json(const struct rs_analysis *a, double secs)
{
	json_t *o = json_object();

	for (int l = 0; l < RS_NR_LISTS; l++) {
		struct rs_lru_counts c;

		rs_analysis_lru_sum(a, -1, l, -1, -1, &c);
		/* the four lists always; unevictable and unknown only when they occur */
		if (l >= RS_LRU_UNEVICTABLE && counts_zero(&c))
			continue;
		json_object_set_new(o, list_name(l), list_json(a, l, secs));
	}
	return o;
}

/* Scan summary of a context (-1: all): the anon:file balance, efficiency, velocity. */
static json_t *scan_summary_json(const struct rs_analysis *a, int ctx, double secs)
{
	struct rs_lru_counts l[RS_NR_LISTS];
	uint64_t anon, file, inactive, all;

	for (int i = 0; i < RS_NR_LISTS; i++)
		rs_analysis_lru_sum(a, -1, i, ctx, -1, &l[i]);
	anon = l[RS_LRU_INACTIVE_ANON].scanned + l[RS_LRU_ACTIVE_ANON].scanned;
	file = l[RS_LRU_INACTIVE_FILE].scanned + l[RS_LRU_ACTIVE_FILE].scanned;
	inactive = l[RS_LRU_INACTIVE_ANON].scanned + l[RS_LRU_INACTIVE_FILE].scanned;
	all = 0;
	for (int i = 0; i < RS_NR_LISTS; i++)
		all += l[i].scanned;
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o}",
		"scanned", (json_int_t)all,
		"scanned_inactive", (json_int_t)inactive,
		"scanned_anon", (json_int_t)anon,
		"scanned_file", (json_int_t)file,
		"reclaimed", (json_int_t)(l[RS_LRU_INACTIVE_ANON].reclaimed +
					 l[RS_LRU_INACTIVE_FILE].reclaimed +
					 l[RS_LIST_UNKNOWN].reclaimed),
		"anon_pct", rs_json_real(rs_pct(anon, anon + file)),
		"file_pct", rs_json_real(rs_pct(file, anon + file)),
		"efficiency_pct", rs_json_real(rs_pct(l[RS_LRU_INACTIVE_ANON].reclaimed +
						   l[RS_LRU_INACTIVE_FILE].reclaimed, inactive)),
		"velocity_pages_s", rs_json_real(rate(all, secs)),
		"velocity_inactive_pages_s", rs_json_real(rate(inactive, secs)));
}

static json_t *scan_json(const struct rs_analysis *a, double secs)
{
	json_t *o = scan_summary_json(a, -1, secs), *by = json_object();

	for (int x = 0; x < RS_CTX_NR; x++) {
		struct rs_lru_counts c;

		rs_analysis_lru_sum(a, -1, -1, x, -1, &c);
		if (!counts_zero(&c))
			json_object_set_new(by, rs_ctx_name(x), scan_summary_json(a, x, secs));
	}
	json_object_set_new(o, "by_context", by);
	return o;
}

static json_t *write_json(const struct rs_lru_counts *c)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I}",
		"folios", (json_int_t)(c->write_anon + c->write_file),
		"anon", (json_int_t)c->write_anon, "file", (json_int_t)c->write_file,
		"sync", (json_int_t)c->write_sync, "async", (json_int_t)c->write_async);
}

static json_t *writeback_json(const struct rs_analysis *a)
{
	struct rs_lru_counts c;
	json_t *o, *by = json_object();

	rs_analysis_lru_sum(a, -1, -1, -1, -1, &c);
	o = write_json(&c);
	for (int x = 0; x < RS_CTX_NR; x++) {
		rs_analysis_lru_sum(a, -1, -1, x, -1, &c);
		if (c.write_anon + c.write_file)
			json_object_set_new(by, rs_ctx_name(x), write_json(&c));
	}
	json_object_set_new(o, "by_context", by);
	return o;
}

static json_t *reclaim_pages_json(const struct rs_analysis *a, double secs)
{
	unsigned int lack = rs_analysis_lacks(a);
	struct rs_lru_counts sum = { 0 };
	json_t *o, *by = json_object();

	for (int x = 0; x < RS_CTX_NR; x++) {
		const struct rs_lru_counts *c = rs_analysis_reclaim_pages(a, x);

		rs_lru_counts_add(&sum, c);
		if (c->inactive_shrinks)
			json_object_set_new(by, rs_ctx_name(x), json_pack("{s:I,s:I,s:I}",
				"events", (json_int_t)c->inactive_shrinks,
				"scanned", (json_int_t)c->inactive_scanned,
				"reclaimed", (json_int_t)c->reclaimed));
	}
	o = json_pack("{s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
		"events", (json_int_t)sum.inactive_shrinks,
		"scanned", (json_int_t)sum.inactive_scanned,
		"reclaimed", (json_int_t)sum.reclaimed,
		"efficiency_pct", rs_json_real(rs_pct(sum.reclaimed, sum.inactive_scanned)),
		"velocity_pages_s", rs_json_real(rate(sum.inactive_scanned, secs)),
		"activated", opt_int(sum.activate_anon + sum.activate_file, lack, RS_HAVE_ACTIVATE),
		"kept_referenced", opt_int(sum.ref_keep, lack, RS_HAVE_REF_KEEP),
		"unmap_failed", opt_int(sum.unmap_fail, lack, RS_HAVE_UNMAP_FAIL),
		"dirty", opt_int(sum.dirty, lack, RS_HAVE_DIRTY),
		"writeback", opt_int(sum.writeback, lack, RS_HAVE_WRITEBACK),
		"congested", opt_int(sum.congested, lack, RS_HAVE_CONGESTED),
		"immediate", opt_int(sum.immediate, lack, RS_HAVE_IMMEDIATE));
	json_object_set_new(o, "by_context", by);
	return o;
}

static json_t *orders_json(const uint64_t *v)
{
	json_t *o = json_object();
	char k[16];

	for (int i = 0; i < RS_NR_ORDER; i++)
		if (v[i])
			json_object_set_new(o, order_key(i, k, sizeof(k)), JI(v[i]));
	return o;
}

static json_t *orders32_json(const uint32_t *v)
{
	uint64_t w[RS_NR_ORDER];

	for (int i = 0; i < RS_NR_ORDER; i++)
		w[i] = v[i];
	return orders_json(w);
}

static json_t *episodes_json(const struct rs_analysis *a)
{
	json_t *o = json_object();

	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_episode_stats *e = rs_analysis_episode_stats(a, k);
		json_t *ej = json_object(), *par = json_object();

		json_object_set_new(ej, "count", JI(e->count));
		json_object_set_new(ej, "reclaimed", JI(e->reclaimed));
		for (int s = 1; s < RS_EP_NR_STATUS; s++)
			json_object_set_new(ej, rs_ep_status_name(s), JI(e->status[s]));
		json_object_set_new(ej, "reclaimed_unpaired", JI(e->reclaimed_unpaired));
		json_object_set_new(ej, "broken_by_lost_events", JI(e->broken_by_lost_events));
		json_object_set_new(ej, "partial_us", JI(rs_ns_to_us(e->partial_ns)));
		json_object_set_new(ej, "approximate", json_boolean(e->latency.approximate));
		json_object_set_new(ej, "latency_us", rs_latency_json(&e->latency));
		json_object_set_new(ej, "latency_ms_buckets", rs_mmtests_json(&e->latency));
		json_object_set_new(ej, "begun_by_order", orders_json(e->begun_by_order));
		for (int p = 0; p < RS_CTX_NR; p++)
			if (e->by_parent[p])
				json_object_set_new(par, rs_ctx_name(p), json_pack("{s:I,s:I}",
					"count", (json_int_t)e->by_parent[p],
					"total_us", (json_int_t)rs_ns_to_us(e->by_parent_ns[p])));
		json_object_set_new(ej, "by_parent", par);
		json_object_set_new(o, rs_reclaim_kind_name(k), ej);
	}
	return o;
}

static json_t *task_write_json(const struct rs_task_stats *t)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "sync", (json_int_t)t->write_sync,
			 "async", (json_int_t)t->write_async, "anon", (json_int_t)t->write_anon,
			 "file", (json_int_t)t->write_file);
}

static const char *health_kind_name(enum rs_health_kind k)
{
	return k == RS_HEALTH_FAIL ? "reclaim_fail" : k == RS_HEALTH_HOPELESS ? "hopeless" :
	       "clear_hopeless";
}

/*
 * kswapd.balance_pgdat and kswapd.reclaim_fail: null when the trace has none of the 7.x
 * kswapd events (an older kernel, or kswapd never ran), never a made-up 0.
 */
static void kswapd_health_json(json_t *o, const struct rs_analysis *a,
			       const struct rs_trace_info *ti)
{
	const struct rs_kswapd_health *h = rs_analysis_kswapd_health(a);
	json_t *runs, *fail, *rn = json_array(), *fn = json_array();
	uint64_t nruns = 0, reclaimed = 0, nothing = 0, fails = 0, hopeless = 0;
	/* a trace.dat says which events its kernel has; a text trace only what happened */
	bool has = ti->formats_known ? !!(ti->format_types & (1ull << RS_EV_BALANCE_END)) :
		   h->seen;

	if (!has) {
		json_decref(rn);
		json_decref(fn);
		json_object_set_new(o, "balance_pgdat", json_null());
		json_object_set_new(o, "reclaim_fail", json_null());
		return;
	}
	for (int i = 0; i < h->nr_nodes; i++) {
		const struct rs_kswapd_node_health *n = &h->nodes[i];
		json_t *clears = json_object(), *tl = json_array();

		nruns += n->runs;
		reclaimed += n->reclaimed;
		nothing += n->runs_reclaimed_nothing;
		fails += n->reclaim_fail;
		hopeless += n->hopeless;
		json_array_append_new(rn, json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "nid", n->nid,
			"runs", JI(n->runs), "unfinished", JI(n->runs_unfinished),
			"ended_unbegun", JI(n->runs_ended_unbegun),
			"reclaimed_nothing", JI(n->runs_reclaimed_nothing),
			"reclaimed", JI(n->reclaimed),
			"run_s", rs_json_real(rs_ns_to_s(n->run_ns))));
		for (int r = 0; r <= RS_HOPELESS_NR; r++)
			json_object_set_new(clears, r < RS_HOPELESS_NR ?
					    rs_hopeless_reason_name(r) : "unknown",
					    JI(n->clears_by_reason[r]));
		for (int j = 0; j < n->nr_timeline; j++) {
			const struct rs_health_entry *e = &n->timeline[j];
			json_t *ej = json_pack("{s:o,s:s}", "t_s", rs_json_real(rs_ns_to_s(e->ts)),
					       "event", health_kind_name(e->kind));

			if (e->kind == RS_HEALTH_CLEAR) {
				json_object_set_new(ej, "reason",
						    json_string(rs_hopeless_reason_name(e->value)));
				json_object_set_new(ej, "failures_before",
						    json_integer(e->failures_before));
			} else {
				json_object_set_new(ej, "failures", json_integer(e->value));
			}
			json_array_append_new(tl, ej);
		}
		json_array_append_new(fn, json_pack("{s:i,s:o,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			"nid", n->nid, "events", JI(n->reclaim_fail), "max_failures",
			n->max_failures, "hopeless", JI(n->hopeless),
			"hopeless_s", rs_json_real(rs_ns_to_s(n->hopeless_ns)),
			"clears", JI(n->clears), "clears_of_hopeless", JI(n->clears_of_hopeless),
			"clears_by_reason", clears, "timeline", tl,
			"timeline_dropped", JI(n->timeline_dropped)));
	}
	runs = json_pack("{s:o,s:o,s:o,s:o}", "runs", JI(nruns), "reclaimed", JI(reclaimed),
			 "reclaimed_nothing", JI(nothing), "nodes", rn);
	fail = json_pack("{s:o,s:o,s:i,s:o}", "events", JI(fails), "hopeless", JI(hopeless),
			 "max_failures_before_hopeless", RS_KSWAPD_MAX_FAILURES, "nodes", fn);
	json_object_set_new(o, "balance_pgdat", runs);
	json_object_set_new(o, "reclaim_fail", fail);
}

/* mglru_generations: null without the recorder's lru_gen markers */
static json_t *mglru_gens_json(const struct rs_analysis *a)
{
	const struct rs_mglru_gens *g = rs_analysis_mglru_gens(a);
	json_t *arr;

	if (!g->nr)
		return json_null();
	arr = json_array();
	for (int i = 0; i < g->nr; i++) {
		const struct rs_gens_series *s = &g->s[i];
		json_t *last = json_array();

		for (int j = 0; j < s->nr_last; j++)
			json_array_append_new(last, json_pack("{s:o,s:o,s:o,s:o}",
				"seq", JI(s->last[j].seq), "age_ms", JI(s->last[j].age_ms),
				"anon", JI(s->last[j].anon), "file", JI(s->last[j].file)));
		json_array_append_new(arr, json_pack("{s:s,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			"cgroup", s->cg, "nid", s->nid, "snapshots", JI(s->snapshots),
			"first_s", rs_json_real(rs_ns_to_s(s->first_ts)),
			"last_s", rs_json_real(rs_ns_to_s(s->last_ts)),
			"first_min_seq", JI(s->first_min_seq), "first_max_seq", JI(s->first_max_seq),
			"last_min_seq", JI(s->nr_last ? s->last[0].seq : 0),
			"last_max_seq", JI(s->nr_last ? s->last[s->nr_last - 1].seq : 0),
			"max_anon", JI(s->max_anon), "max_file", JI(s->max_file), "last", last));
	}
	return arr;
}

#define KS(member) RS_JSON_U64(struct rs_kswapd_stats, #member, member)
static const struct rs_json_u64 kswapd_count_fields[] = {
	KS(wakes), KS(rewakes), KS(sleeps), KS(periods), KS(unmatched_sleeps),
};
#undef KS

/* The counts and awake times of one kswapd, or of all of them summed: the same keys. */
static void kswapd_counts_json(json_t *o, const struct rs_kswapd_stats *k)
{
	RS_JSON_ADD_U64(o, k, kswapd_count_fields);
	json_object_set_new(o, "awake_s", rs_json_real(rs_ns_to_s(k->awake_ns)));
	json_object_set_new(o, "awake_cut_s", rs_json_real(rs_ns_to_s(k->awake_cut_ns)));
	json_object_set_new(o, "awake_total_s",
			    rs_json_real(rs_ns_to_s(k->awake_ns + k->awake_cut_ns)));
}

static json_t *kswapd_json(const struct rs_analysis *a, const struct rs_trace_info *ti)
{
	const struct rs_episode_stats *e = rs_analysis_episode_stats(a, RS_CTX_KSWAPD);
	struct rs_kswapd_stats sum = { 0 };
	uint64_t scanned = 0, reclaimed = 0;
	bool untraced = ti && ti->eviction_untraced;
	json_t *o, *inst = json_array();

	for (int i = 0; i < rs_analysis_nr_kswapd(a); i++) {
		const struct rs_kswapd_stats *k = rs_analysis_kswapd(a, i);
		const struct rs_task_stats *t = rs_analysis_kswapd_task(a, i);
		json_t *kj = json_object();

		sum.wakes += k->wakes;
		sum.rewakes += k->rewakes;
		sum.sleeps += k->sleeps;
		sum.awake_ns += k->awake_ns;
		sum.awake_cut_ns += k->awake_cut_ns;
		sum.periods += k->periods;
		sum.unmatched_sleeps += k->unmatched_sleeps;
		scanned += t->scanned;
		reclaimed += t->reclaimed;
		json_object_set_new(kj, "pid", json_integer(t->pid));
		json_object_set_new(kj, "comm", json_string(t->comm));
		json_object_set_new(kj, "nid", json_integer(k->nid));
		kswapd_counts_json(kj, k);
		json_object_set_new(kj, "wakes_by_order", orders_json(k->wakes_by_order));
		json_object_set_new(kj, "rewakes_by_order", orders_json(k->rewakes_by_order));
		json_object_set_new(kj, "scanned", JP(untraced, t->scanned));
		json_object_set_new(kj, "scanned_inactive", JP(untraced, t->scanned_inactive));
		json_object_set_new(kj, "reclaimed", JP(untraced, t->reclaimed));
		json_object_set_new(kj, "efficiency_pct", untraced ? json_null() :
				    rs_json_real(rs_pct(t->reclaimed, t->scanned_inactive)));
		json_object_set_new(kj, "write", task_write_json(t));
		json_array_append_new(inst, kj);
	}
	o = json_object();
	kswapd_counts_json(o, &sum);
	json_object_set_new(o, "awake_us", JI(rs_ns_to_us(sum.awake_ns)));
	json_object_set_new(o, "broken_by_lost_events", JI(e->broken_by_lost_events));
	json_object_set_new(o, "scanned", JP(untraced, scanned));
	json_object_set_new(o, "reclaimed", JP(untraced, reclaimed));
	json_object_set_new(o, "approximate", json_boolean(e->latency.approximate));
	json_object_set_new(o, "awake_period_us", rs_latency_json(&e->latency));
	json_object_set_new(o, "instances", inst);
	kswapd_health_json(o, a, ti);
	return o;
}

static json_t *wakeup_json(const struct rs_analysis *a)
{
	uint64_t by[RS_NR_ORDER];
	uint64_t n = rs_analysis_wakeup_kswapd(a, by);
	json_t *o = json_pack("{s:I,s:o}", "count", (json_int_t)n, "by_order", orders_json(by));
	json_t *bn = json_object();

	/* by the node whose kswapd they woke ("unknown": none or past the cap); with requests */
	for (int nid = -1; n && o && nid < rs_analysis_max_nodes(a); nid++) {
		uint64_t c = rs_analysis_wakeup_kswapd_node(a, nid);
		char key[16];

		if (!c)
			continue;
		if (nid < 0)
			snprintf(key, sizeof(key), "unknown");
		else
			snprintf(key, sizeof(key), "%d", nid);
		json_object_set_new(bn, key, JI(c));
	}
	if (o && n)
		json_object_set_new(o, "by_node", bn);
	else
		json_decref(bn);
	return o;
}

static json_t *task_json(const struct rs_task_stats *t, bool untraced)
{
	json_t *o = json_object(), *eps = json_object();

	json_object_set_new(o, "pid", json_integer(t->pid));
	json_object_set_new(o, "comm", json_string(t->comm));
	json_object_set_new(o, "kswapd", json_boolean(t->kswapd));
	for (int k = 0; k < RS_RK_NR; k++) {
		if (!t->episodes[k] && !t->incomplete[k])
			continue;
		json_object_set_new(eps, rs_reclaim_kind_name(k), json_pack("{s:I,s:I,s:I,s:I,s:o}",
			"count", (json_int_t)t->episodes[k],
			"incomplete", (json_int_t)t->incomplete[k],
			"stall_us", (json_int_t)rs_ns_to_us(t->episode_ns[k]),
			"reclaimed", (json_int_t)t->episode_reclaimed[k],
			"begun_by_order", orders32_json(t->begun_by_order[k])));
	}
	json_object_set_new(o, "episodes", eps);
	json_object_set_new(o, "stalled_us", JI(rs_ns_to_us(t->stalled_ns)));
	json_object_set_new(o, "wakeup_kswapd", JI(t->wakeup_kswapd));
	json_object_set_new(o, "wakeup_kswapd_by_order", orders32_json(t->wakeup_by_order));
	json_object_set_new(o, "scanned", JP(untraced, t->scanned));
	json_object_set_new(o, "scanned_inactive", JP(untraced, t->scanned_inactive));
	json_object_set_new(o, "taken", JP(untraced, t->taken));
	json_object_set_new(o, "reclaimed", JP(untraced, t->reclaimed));
	json_object_set_new(o, "write", task_write_json(t));
	json_object_set_new(o, "slab", json_pack("{s:I,s:I,s:I}",
		"calls", (json_int_t)t->slab_calls, "time_us", (json_int_t)rs_ns_to_us(t->slab_ns),
		"freed", (json_int_t)t->slab_freed));
	json_object_set_new(o, "throttled", JI(t->throttled));
	json_object_set_new(o, "throttled_us", JI(t->throttled_us));
	return o;
}

static int task_pid_cmp(const void *x, const void *y)
{
	const struct rs_task_stats *a = *(const struct rs_task_stats *const *)x;
	const struct rs_task_stats *b = *(const struct rs_task_stats *const *)y;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

static json_t *tasks_json(const struct rs_analysis *a, bool untraced)
{
	int n = rs_analysis_nr_tasks(a), m = 0;
	const struct rs_task_stats **v = calloc(n ? n : 1, sizeof(*v));
	json_t *arr = json_array();

	if (!v)
		return arr;
	for (int i = 0; i < n; i++)
		if (rs_analysis_task(a, i)->active)
			v[m++] = rs_analysis_task(a, i);
	qsort(v, m, sizeof(*v), task_pid_cmp);
	for (int i = 0; i < m; i++)
		json_array_append_new(arr, task_json(v[i], untraced));
	free(v);
	return arr;
}

static json_t *slab_stats_json(const struct rs_slab_stats *s)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "calls", (json_int_t)s->calls,
			 "time_us", (json_int_t)rs_ns_to_us(s->ns), "freed", (json_int_t)s->freed,
			 "to_scan", (json_int_t)s->to_scan);
}

static json_t *slab_json(const struct rs_analysis *a)
{
	struct rs_slab_stats sum = rs_analysis_slab_total(a);
	json_t *o, *by = json_object(), *arr = json_array();
	int n = rs_analysis_nr_shrinkers(a);
	const struct rs_shrinker_stats **v = rs_analysis_shrinkers_by_time(a);

	for (int x = 0; x < RS_CTX_NR; x++) {
		const struct rs_slab_stats *s = rs_analysis_slab(a, x);

		if (s->calls || s->freed)
			json_object_set_new(by, rs_ctx_name(x), slab_stats_json(s));
	}
	o = slab_stats_json(&sum);
	if (v) {
		for (int i = 0; i < n; i++) {
			json_t *sj = slab_stats_json(&v[i]->s);

			json_object_set_new(sj, "name", json_string(v[i]->name));
			json_array_append_new(arr, sj);
		}
		free(v);
	}
	json_object_set_new(o, "by_context", by);
	json_object_set_new(o, "shrinkers", arr);
	return o;
}

static json_t *throttle_json(const struct rs_analysis *a)
{
	const struct rs_throttle_stats *t = rs_analysis_throttle(a);
	uint64_t n = 0, d = 0, to = 0;
	json_t *o, *by = json_object(), *ctx = json_object();

	for (int r = 0; r < RS_NR_THROTTLE_REASONS; r++) {
		n += t->count[r];
		d += t->delayed_us[r];
		to += t->timeout_us[r];
		if (t->count[r])
			json_object_set_new(by, rs_throttle_reason_name(r),
				json_pack("{s:I,s:I,s:I}", "count", (json_int_t)t->count[r],
				"delayed_us", (json_int_t)t->delayed_us[r],
				"timeout_us", (json_int_t)t->timeout_us[r]));
	}
	for (int x = 0; x < RS_CTX_NR; x++)
		if (t->by_ctx[x])
			json_object_set_new(ctx, rs_ctx_name(x), JI(t->by_ctx[x]));
	o = json_pack("{s:I,s:I,s:I}", "count", (json_int_t)n, "delayed_us", (json_int_t)d,
		      "timeout_us", (json_int_t)to);
	json_object_set_new(o, "by_reason", by);
	json_object_set_new(o, "by_context", ctx);
	return o;
}

static json_t *oom_json(const struct rs_analysis *a)
{
	json_t *arr = json_array();

	for (int i = 0; i < rs_analysis_nr_oom_listed(a); i++) {
		const struct rs_oom_kill *k = rs_analysis_oom(a, i);

		json_array_append_new(arr, json_pack("{s:i,s:s,s:i,s:s,s:o}", "pid", k->pid,
			"comm", k->comm, "by_pid", k->by_pid, "by_comm", k->by_comm,
			"ts", rs_json_real(rs_ns_to_s(k->ts))));
	}
	return json_pack("{s:I,s:o}", "kills", (json_int_t)rs_analysis_oom_kills(a),
			 "victims", arr);
}

static json_t *timeline_json(const struct rs_analysis *a)
{
	const struct rs_series *s = rs_analysis_series(a);
	const struct rs_buckets bk = rs_series_buckets(s);
	json_t *series = json_object();

	for (int m = 0; m < RS_TS_NR; m++) {
		const uint64_t *v = rs_series_values(s, m);
		json_t *arr = json_array();

		if (m == RS_TS_ACTIVATED && (rs_analysis_lacks(a) & RS_HAVE_ACTIVATE)) {
			/* the kernel does not trace activations: absent, not a line of zeros */
			json_decref(arr);
			json_object_set_new(series, rs_ts_metric_name(m), json_null());
			continue;
		}
		for (size_t i = 0; i < bk.len; i++)
			json_array_append_new(arr, JI(v[i]));
		json_object_set_new(series, rs_ts_metric_name(m), arr);
	}
	return json_pack("{s:o,s:o,s:I,s:o}",
		"start_s", rs_json_real(rs_ns_to_s(bk.t0)),
		"bucket_s", rs_json_real(rs_ns_to_s(bk.width)),
		"buckets", (json_int_t)bk.len,
		"series", series);
}

#define AT(member) RS_JSON_U64(struct rs_attrib_stats, #member, member)
static const struct rs_json_u64 attrib_fields[] = {
	AT(isolates_completed), AT(isolates_uncompleted), AT(uncompleted_scanned),
	AT(shrinks_without_isolate), AT(writes_without_isolate), AT(slab_ends_without_start),
	AT(slab_starts_unfinished), AT(lost_event_records), AT(lost_events),
	AT(untracked_events), AT(nest_overflows), AT(node_out_of_range),
	AT(priority_out_of_range),
};
#undef AT

static json_t *attrib_json(const struct rs_attrib_stats *at)
{
	json_t *o = json_object();

	RS_JSON_ADD_U64(o, at, attrib_fields);
	return o;
}

static json_t *analysis_json(const struct rs_analysis *a, double secs)
{
	const struct rs_analysis_opts *o = rs_analysis_opts(a);
	const struct rs_buckets bk = rs_series_buckets(rs_analysis_series(a));
	uint64_t t0 = rs_analysis_first_ts(a);
	json_t *j = json_object();

	if (o->from_ns && o->from_ns < t0)
		t0 = o->from_ns;
	json_object_set_new(j, "from_s", rs_json_real(rs_ns_to_s(t0)));
	json_object_set_new(j, "to_s", rs_json_real(rs_ns_to_s(rs_analysis_last_ts(a))));
	json_object_set_new(j, "duration_s", rs_json_real(secs));
	json_object_set_new(j, "events", JI(rs_analysis_events(a)));
	json_object_set_new(j, "filter", json_pack("{s:o,s:o}",
		"pid", o->pid >= 0 ? json_integer(o->pid) : json_null(),
		"comm", o->comm ? json_string(o->comm) : json_null()));
	json_object_set_new(j, "bucket_s", rs_json_real(rs_ns_to_s(bk.width)));
	json_object_set_new(j, "buckets", JI(bk.len));
	json_object_set_new(j, "tasks_tracked",
			    json_integer(rs_episodes_nr_tasks(rs_analysis_episodes_ctx(a))));
	json_object_set_new(j, "limits", json_pack("{s:I,s:I,s:I,s:i}",
		"max_tasks", (json_int_t)(o->max_tasks ? o->max_tasks : RS_EPISODES_MAX_TASKS),
		"max_buckets", (json_int_t)(o->max_buckets ? o->max_buckets : 100000),
		"max_latency_samples",
		(json_int_t)(o->max_samples ? o->max_samples : RS_LAT_SAMPLES_DEFAULT),
		"max_nodes", o->max_nodes > 0 ? o->max_nodes : RS_ANALYSIS_MAX_NODES));
	json_object_set_new(j, "attribution", attrib_json(rs_analysis_attrib(a)));
	return j;
}

json_t *rs_analysis_json(const struct rs_analysis *a, const struct rs_source *src)
{
	double secs = window_s(a);
	json_t *root = json_object();

	if (!root)
		return NULL;
	if (src)
		json_object_set_new(root, "trace", rs_report_trace_json(src));
	json_object_set_new(root, "analysis", analysis_json(a, secs));
	/* an MGLRU kernel before 6.7 traced no scanning: unknown, not lists of 0 */
	json_object_set_new(root, "lru", src && rs_source_info(src)->eviction_untraced ?
			    json_null() : lru_json(a, secs));
	json_object_set_new(root, "scan", scan_json(a, secs));
	json_object_set_new(root, "writeback", writeback_json(a));
	json_object_set_new(root, "reclaim_pages", reclaim_pages_json(a, secs));
	json_object_set_new(root, "episodes", episodes_json(a));
	json_object_set_new(root, "kswapd", kswapd_json(a, rs_source_info(src)));
	json_object_set_new(root, "mglru_generations", mglru_gens_json(a));
	json_object_set_new(root, "wakeup_kswapd", wakeup_json(a));
	json_object_set_new(root, "tasks", tasks_json(a, src && rs_source_info(src)->eviction_untraced));
	json_object_set_new(root, "slab", slab_json(a));
	json_object_set_new(root, "throttled", throttle_json(a));
	json_object_set_new(root, "oom", oom_json(a));
	json_object_set_new(root, "timeline", timeline_json(a));
	return root;
}

json_t *rs_analyzed_json(struct rs_analyzed *r)
{
	json_t *root = rs_analysis_json(r->a, r->src);

	if (root && (rs_cgroups_json_add(root, r->cg) < 0 ||
		     rs_refaults_json_add(root, r->rf, r->cg) < 0 ||
		     json_object_set_new(root, "summary", rs_findings_json(&r->fd)) < 0)) {
		json_decref(root);
		root = NULL;
	}
	return root;
}
