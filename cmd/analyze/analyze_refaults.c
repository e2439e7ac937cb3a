// SPDX-License-Identifier: GPL-2.0
/*
 * Refaults in analyze's output (include/refaults_output.h): the `refaults` JSON object and the
 * text section. Only reads results. What the trace cannot tell is null in JSON, "-" in text.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups.h"
#include "refaults.h"
#include "refaults_output.h"
#include "report.h"
#include "text_escape.h"

#define JI(v) json_integer((json_int_t)(v))

static const char *const within_names[RS_RF_NR_WITHIN] = { "1s", "10s" };
static const char *const dist_names[RS_RF_NR_DIST] = {
	"0-10ms", "10-100ms", "100ms-1s", "1-10s", "10-60s", "60s+",
};

static json_t *share_json(uint64_t part, uint64_t whole)
{
	return whole ? rs_json_real((double)part / (double)whole) : json_null();
}

static json_t *counts_json(const struct rs_rf_counts *c)
{
	json_t *o = json_object(), *w = json_object(), *d = json_object();

	json_object_set_new(o, "evicted_folios", JI(c->evicted_folios));
	json_object_set_new(o, "evicted_pages", JI(c->evicted_pages));
	json_object_set_new(o, "refaulted_pages", JI(c->refaulted_pages));
	json_object_set_new(o, "refaulted_share", share_json(c->refaulted_pages,
							     c->evicted_pages));
	for (int i = 0; i < RS_RF_NR_WITHIN; i++) {
		json_t *x = json_object();

		json_object_set_new(x, "observable_pages", JI(c->observable_pages[i]));
		json_object_set_new(x, "refaulted_pages", JI(c->refaulted_within_pages[i]));
		json_object_set_new(x, "share", share_json(c->refaulted_within_pages[i],
							   c->observable_pages[i]));
		json_object_set_new(w, within_names[i], x);
	}
	json_object_set_new(o, "within", w);
	for (int i = 0; i < RS_RF_NR_DIST; i++)
		json_object_set_new(d, dist_names[i], JI(c->dist_pages[i]));
	json_object_set_new(o, "distance_buckets_pages", d);
	return o;
}

static json_t *series_json(const struct rs_refaults *rf, int i)
{
	size_t len = rs_refaults_buckets(rf).len;
	json_t *o = json_object();

	for (int m = 0; m < RS_RF_TS_NR; m++) {
		const uint64_t *v = rs_refaults_series(rf, i, m);
		json_t *a = json_array();

		for (size_t b = 0; v && b < len; b++)
			json_array_append_new(a, JI(v[b]));
		json_object_set_new(o, rs_rf_ts_name(m), v ? a : (json_decref(a), json_null()));
	}
	return o;
}

static json_t *cgroup_json(const struct rs_refaults *rf, int i, const struct rs_cgroups *cg)
{
	const struct rs_rf_cgroup *c = rs_refaults_cgroup(rf, i);
	const struct rs_rf_totals *t = rs_refaults_totals(rf);
	json_t *o = json_object(), *ws = json_object(), *th = json_array();
	char buf[32];

	json_object_set_new(o, "id", JI(c->id));
	/* always a string: diff matches the items by path (docs/diff.md) */
	json_object_set_new(o, "path", json_string(rs_refaults_path(rf, c->id, buf, sizeof(buf))));
	json_object_set_new(o, "victim", counts_json(&c->victim));
	json_object_set_new(o, "faulted_back_folios", JI(c->faulted_folios));
	json_object_set_new(o, "faulted_back_pages", JI(c->faulted_pages));
	json_object_set_new(o, "swapin_pages", t->pswpin_named ? JI(c->swapins) : json_null());
	for (int w = 0; w < RS_WS_NR; w++)
		json_object_set_new(ws, rs_ws_item_name(w), c->ws_first[w] >= 0 ?
				    JI(c->ws_last[w] - c->ws_first[w]) : json_null());
	json_object_set_new(o, "snapshot_delta", ws);
	json_object_set_new(o, "snapshots", JI(c->snapshots));
	for (int k = 0; k < c->nr_thrash; k++) {
		json_t *x = json_object();

		json_object_set_new(x, "from_s", rs_json_real(rs_ns_to_s(c->thrash[k].from_ns)));
		json_object_set_new(x, "to_s", rs_json_real(rs_ns_to_s(c->thrash[k].to_ns)));
		json_object_set_new(x, "quick_refaulted_pages", JI(c->thrash[k].quick_pages));
		json_object_set_new(x, "evicted_pages", JI(c->thrash[k].evicted_pages));
		json_array_append_new(th, x);
	}
	json_object_set_new(o, "thrashing", th);
	json_object_set_new(o, "thrashing_s", rs_json_real(rs_ns_to_s(c->thrash_ns)));
	json_object_set_new(o, "series", c->series >= 0 ? series_json(rf, i) : json_null());
	return o;
}

static int by_id(const void *x, const void *y)
{
	const struct rs_rf_cgroup *a = *(const struct rs_rf_cgroup *const *)x;
	const struct rs_rf_cgroup *b = *(const struct rs_rf_cgroup *const *)y;

	return (a->id > b->id) - (a->id < b->id);
}

/* Cgroup indices sorted by id (deterministic output); caller frees. */
static int *sorted_cgroups(const struct rs_refaults *rf, int *n)
{
	int nr = rs_refaults_nr_cgroups(rf);
	const struct rs_rf_cgroup **p = calloc(nr ? (size_t)nr : 1, sizeof(*p));
	int *idx = calloc(nr ? (size_t)nr : 1, sizeof(*idx));

	*n = 0;
	if (!p || !idx) {
		free(p);
		free(idx);
		return NULL;
	}
	for (int i = 0; i < nr; i++)
		p[i] = rs_refaults_cgroup(rf, i);
	qsort(p, (size_t)nr, sizeof(*p), by_id);
	for (int i = 0; i < nr; i++)
		idx[i] = rs_refaults_find(rf, p[i]->id);
	free(p);
	*n = nr;
	return idx;
}

static json_t *file_json(struct rs_refaults *rf)
{
	const struct rs_rf_totals *t = rs_refaults_totals(rf);
	struct rs_latency_summary d;
	json_t *o = json_object(), *ctx = json_object(), *lists = json_object(), *x, *dist;

	rs_refaults_distance(rf, &d);
	json_object_set_new(o, "folios", JI(t->refaulted_folios));
	json_object_set_new(o, "pages", JI(t->all.refaulted_pages));
	json_object_set_new(o, "reclaim", counts_json(&t->all));
	for (int c = 0; c < RS_CTX_NR; c++) {
		json_t *l;

		if (!t->by_ctx[c].evicted_folios)
			continue;
		l = json_object();
		x = counts_json(&t->by_ctx[c]);
		for (int k = 0; k < RS_RF_NR_LISTS; k++)
			if (t->by_ctx_list[c][k].evicted_folios)
				json_object_set_new(l, rs_rf_list_name(k),
						    counts_json(&t->by_ctx_list[c][k]));
		json_object_set_new(x, "by_list", l);
		json_object_set_new(ctx, rs_ctx_name(c), x);
	}
	json_object_set_new(o, "by_context", ctx);
	for (int k = 0; k < RS_RF_NR_LISTS; k++)
		if (t->by_list[k].evicted_folios)
			json_object_set_new(lists, rs_rf_list_name(k), counts_json(&t->by_list[k]));
	json_object_set_new(o, "by_list", lists);
	dist = rs_latency_json(&d);
	json_object_set_new(dist, "count_pages", JI(d.count));
	json_object_set_new(dist, "approximate", json_boolean(d.approximate));
	json_object_set_new(o, "distance_us", d.count ? dist : (json_decref(dist), json_null()));
	x = json_object();
	json_object_set_new(x, "folios", JI(t->adds));
	json_object_set_new(x, "pages", JI(t->add_pages));
	json_object_set_new(o, "added", x);
	x = json_object();
	json_object_set_new(x, "folios", JI(t->deletes));
	json_object_set_new(x, "pages", JI(t->delete_pages));
	json_object_set_new(o, "deleted", x);
	x = json_object();
	json_object_set_new(x, "folios", JI(t->other_deletes));
	json_object_set_new(x, "pages", JI(t->other_delete_pages));
	json_object_set_new(o, "deleted_not_by_reclaim", x);
	json_object_set_new(o, "stale_pages", JI(t->stale_pages));
	json_object_set_new(o, "pending_pages", JI(t->pending_pages));
	x = json_object();
	json_object_set_new(x, "max_ranges", JI(t->max_evicted));
	json_object_set_new(x, "peak_ranges", JI(t->table_peak));
	json_object_set_new(x, "forgotten_ranges", JI(t->forgotten_ranges));
	json_object_set_new(x, "forgotten_pages", JI(t->forgotten_pages));
	json_object_set_new(o, "eviction_table", x);
	json_object_set_new(o, "complete", json_boolean(!t->table_full));
	return o;
}

int rs_refaults_json_add(json_t *root, struct rs_refaults *rf, const struct rs_cgroups *cg)
{
	const struct rs_rf_totals *t = rs_refaults_totals(rf);
	const struct rs_buckets bk = rs_refaults_buckets(rf);
	json_t *o = json_object(), *anon = json_object(), *cgs = json_array();
	int n, *idx = sorted_cgroups(rf, &n);

	if (!o || !anon || !cgs || !idx) {
		json_decref(o);
		json_decref(anon);
		json_decref(cgs);
		free(idx);
		return -1;
	}
	json_object_set_new(o, "recorded", json_boolean(rs_refaults_recorded(rf)));
	json_object_set_new(o, "file", rs_refaults_recorded(rf) ? file_json(rf) : json_null());
	json_object_set_new(anon, "swapin_pages", t->pswpin_named ? JI(t->swapins) : json_null());
	json_object_set_new(anon, "swapin_events", t->pswpin_named ? JI(t->swapin_events) :
			    json_null());
	json_object_set_new(o, "anon", anon);
	json_object_set_new(o, "thrash_distance_ms",
			    JI(rs_refaults_thrash_distance(rf) / 1000000));
	json_object_set_new(o, "thrash_min_pages", JI(RS_RF_THRASH_MIN_PAGES));
	json_object_set_new(o, "bucket_s", rs_json_real(rs_ns_to_s(bk.width)));
	json_object_set_new(o, "start_s", rs_json_real(rs_ns_to_s(bk.t0)));
	for (int k = 0; k < n; k++)
		json_array_append_new(cgs, cgroup_json(rf, idx[k], cg));
	json_object_set_new(o, "cgroups", cgs);
	free(idx);
	return json_object_set_new(root, "refaults", o) ? -1 : 0;
}

/* ---- text ---- */

/* Control characters of a trace-given path as '?'. */
static const char *safe(const char *s, char *buf, size_t n)
{
	size_t i = 0;

	for (; s[i] && i + 1 < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static void put_share(FILE *f, uint64_t part, uint64_t whole, int w)
{
	if (whole)
		fprintf(f, " %*.1f%%", w - 1, rs_pct(part, whole));
	else
		fprintf(f, " %*s", w, "-");
}

static const char *dur(uint64_t ns, char *buf, size_t n)
{
	if (ns < 1000000ull)
		snprintf(buf, n, "%.0f us", (double)ns / 1e3);
	else if (ns < 1000000000ull)
		snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, n, "%.2f s", (double)ns / 1e9);
	return buf;
}

static void counts_row(FILE *f, const char *name, const struct rs_rf_counts *c)
{
	fprintf(f, "  %-26s %9" PRIu64 " %10" PRIu64 " %10" PRIu64, name, c->evicted_folios,
		c->evicted_pages, c->refaulted_pages);
	put_share(f, c->refaulted_pages, c->evicted_pages, 7);
	put_share(f, c->refaulted_within_pages[0], c->observable_pages[0], 7);
	put_share(f, c->refaulted_within_pages[1], c->observable_pages[1], 7);
	fputc('\n', f);
}

void rs_refaults_text(FILE *f, struct rs_refaults *rf, const struct rs_cgroups *cg)
{
	const struct rs_rf_totals *t = rs_refaults_totals(rf);
	struct rs_latency_summary d;
	char b1[32], b2[32], b3[32], b4[32], pb[64], sb[256];
	int n, *idx;

	fprintf(f, "\nREFAULTS (file pages evicted by reclaim and added back; docs/refaults.md)\n");
	if (!rs_refaults_recorded(rf)) {
		fprintf(f, "  no filemap:mm_filemap_{delete_from,add_to}_page_cache events in this "
			"trace (record\n  without --no-filemap): file refaults cannot be told\n");
	} else {
		rs_refaults_distance(rf, &d);
		fprintf(f, "  refaulted: %" PRIu64 " folios, %" PRIu64 " pages, of %" PRIu64
			" pages evicted by reclaim (%.1f%%)%s\n", t->refaulted_folios,
			t->all.refaulted_pages, t->all.evicted_pages,
			rs_pct(t->all.refaulted_pages, t->all.evicted_pages),
			t->table_full ? "; lower bounds: the eviction table overflowed" : "");
		fprintf(f, "  within 1 s:");
		put_share(f, t->all.refaulted_within_pages[0], t->all.observable_pages[0], 6);
		fprintf(f, " of %" PRIu64 " pages evicted >= 1 s before the end;\n  within 10 s:",
			t->all.observable_pages[0]);
		put_share(f, t->all.refaulted_within_pages[1], t->all.observable_pages[1], 6);
		fprintf(f, " of %" PRIu64 " pages evicted >= 10 s before the end\n",
			t->all.observable_pages[1]);
		if (d.count)
			fprintf(f, "  distance (per page): p50 %s  p90 %s  p99 %s  max %s%s\n",
				dur(d.pct[4], b1, sizeof(b1)), dur(d.pct[6], b2, sizeof(b2)),
				dur(d.pct[8], b3, sizeof(b3)), dur(d.max, b4, sizeof(b4)),
				d.approximate ? " (approximate)" : "");
		fprintf(f, "  distance buckets (pages):");
		for (int i = 0; i < RS_RF_NR_DIST; i++)
			fprintf(f, " %s %" PRIu64, dist_names[i], t->all.dist_pages[i]);
		fprintf(f, "\n  %-26s %9s %10s %10s %7s %7s %7s\n", "evicted by (context/list)",
			"folios", "pages", "refaulted", "share", "<=1s", "<=10s");
		for (int c = 0; c < RS_CTX_NR; c++)
			for (int k = 0; k < RS_RF_NR_LISTS; k++) {
				if (!t->by_ctx_list[c][k].evicted_folios)
					continue;
				snprintf(sb, sizeof(sb), "%s/%s", rs_ctx_name(c),
					 rs_rf_list_name(k));
				counts_row(f, sb, &t->by_ctx_list[c][k]);
			}
		fprintf(f, "  deleted not by reclaim (truncate, unlink, invalidate): %" PRIu64
			" folios, %" PRIu64 " pages (never refaults)\n",
			t->other_deletes, t->other_delete_pages);
		fprintf(f, "  still evicted at the end: %" PRIu64 " pages; table peak %zu of %zu "
			"ranges", t->pending_pages, t->table_peak, t->max_evicted);
		if (t->forgotten_ranges)
			fprintf(f, "; forgot %" PRIu64 " ranges (%" PRIu64 " pages)",
				t->forgotten_ranges, t->forgotten_pages);
		if (t->stale_pages)
			fprintf(f, "; %" PRIu64 " pages evicted again unseen", t->stale_pages);
		fputc('\n', f);
	}
	idx = sorted_cgroups(rf, &n);
	if (!idx || !n) {
		free(idx);
		return;
	}
	fprintf(f, "  %-28s %9s %9s %7s %9s %9s %9s %9s\n", "cgroup (memcg)", "evicted",
		"refaulted", "<=1s", "faulted", "swapins", "ws_rf_fil", "thrash_s");
	for (int k = 0; k < n; k++) {
		const struct rs_rf_cgroup *c = rs_refaults_cgroup(rf, idx[k]);
		int64_t wsf = c->ws_first[RS_WS_REFAULT_FILE];
		const char *path = rs_refaults_path(rf, c->id, b1, sizeof(b1));

		if (!c->victim.evicted_pages && !c->faulted_pages && !c->swapins && wsf < 0)
			continue;
		fprintf(f, "  %-28s %9" PRIu64 " %9" PRIu64,
			rs_text_tail(safe(path, pb, sizeof(pb)), sb, 28), c->victim.evicted_pages,
			c->victim.refaulted_pages);
		put_share(f, c->victim.refaulted_within_pages[0], c->victim.observable_pages[0], 7);
		fprintf(f, " %9" PRIu64, c->faulted_pages);
		if (t->pswpin_named)
			fprintf(f, " %9" PRIu64, c->swapins);
		else
			fprintf(f, " %9s", "-");
		if (wsf >= 0)
			fprintf(f, " %9" PRId64, c->ws_last[RS_WS_REFAULT_FILE] - wsf);
		else
			fprintf(f, " %9s", "-");
		fprintf(f, " %9.2f\n", rs_ns_to_s(c->thrash_ns));
	}
	fprintf(f, "  evicted/refaulted: pages of that memcg; faulted: pages its tasks brought "
		"back;\n  ws_rf_fil: workingset_refault_file change in its memory.stat "
		"snapshots\n");
	for (int k = 0; k < n; k++) {
		const struct rs_rf_cgroup *c = rs_refaults_cgroup(rf, idx[k]);

		for (int r = 0; r < c->nr_thrash; r++)
			fprintf(f, "  thrashing %s %.3f-%.3f s: %" PRIu64 " pages back within %s, %"
				PRIu64 " evicted\n",
				rs_text_tail(safe(rs_refaults_path(rf, c->id, b1, sizeof(b1)), pb,
					  sizeof(pb)), sb, 28), rs_ns_to_s(c->thrash[r].from_ns),
				rs_ns_to_s(c->thrash[r].to_ns), c->thrash[r].quick_pages,
				dur(rs_refaults_thrash_distance(rf), b2, sizeof(b2)),
				c->thrash[r].evicted_pages);
	}
	free(idx);
}

void rs_refaults_summary_line(FILE *f, struct rs_refaults *rf, const struct rs_cgroups *cg)
{
	const struct rs_rf_totals *t = rs_refaults_totals(rf);
	uint64_t worst_ns = 0;
	int worst = -1;
	char b[32], pb[64];

	if (!rs_refaults_recorded(rf)) {
		fprintf(f, "refaults: - (no filemap events recorded)\n");
		return;
	}
	for (int i = 0; i < rs_refaults_nr_cgroups(rf); i++) {
		const struct rs_rf_cgroup *c = rs_refaults_cgroup(rf, i);

		if (c->thrash_ns > worst_ns) {
			worst_ns = c->thrash_ns;
			worst = i;
		}
	}
	fprintf(f, "refaults: %" PRIu64 " pages (%.1f%% of %" PRIu64 " evicted)",
		t->all.refaulted_pages, rs_pct(t->all.refaulted_pages, t->all.evicted_pages),
		t->all.evicted_pages);
	if (worst >= 0)
		fprintf(f, ", thrashing %.2f s in %s", rs_ns_to_s(worst_ns),
			safe(rs_refaults_path(rf, rs_refaults_cgroup(rf, worst)->id, b,
						sizeof(b)), pb, sizeof(pb)));
	fputc('\n', f);
}
