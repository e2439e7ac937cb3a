// SPDX-License-Identifier: GPL-2.0
/* The ranked table of what changed (diff_rank.h); definitions in docs/diff.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_rank.h"
#include "rs_cmp.h"
#include "rs_event.h"
#include "rs_grow.h"

#define THRESHOLD_DEFAULT 10.0

struct rs_ranking {
	struct rs_rank_row *rows;
	size_t nr, cap, changed;
	double threshold;
	double victims_exact_pct[RS_NR_SIDES];	/* cgroup attribution: pages matched exactly */
	bool victims_skipped;
};

/* Below this share of exactly attributed pages on a side, per-cgroup victim figures compare
 * the attribution, not the kernels. */
#define VICTIM_EXACT_MIN_PCT 90.0

struct entry {
	const char *group;
	const char *label;
	const char *metric;
	enum rs_rank_unit unit;
};

/* A list's scanned pages: its label and its figure in analyze --json, from one name */
#define SCANNED(list)								\
	{ "scan balance", "scanned " #list, "summary.scan.scanned." #list, RS_UNIT_PAGES }

/* The catalogue, in the order rows of equal score are shown. */
static const struct entry catalogue[] = {
	{ "stalls", "worst stall", "summary.worst_stall.latency_us", RS_UNIT_US },
	{ "stalls", "OOM kills", "oom.kills", RS_UNIT_COUNT },
	{ "stalls", "throttled", "throttled.count", RS_UNIT_COUNT },
	{ "scan balance", "scanned anon", "summary.scan.scanned_anon", RS_UNIT_PAGES },
	{ "scan balance", "scanned file", "summary.scan.scanned_file", RS_UNIT_PAGES },
	{ "scan balance", "anon share of scanned", "summary.scan.anon_pct", RS_UNIT_PCT },
	SCANNED(inactive_anon), SCANNED(active_anon), SCANNED(inactive_file), SCANNED(active_file),
	{ "scan balance", "priority (mean; move)", "summary.priority.share_pct.", RS_UNIT_DIST },
	{ "reclaim efficiency", "efficiency", "summary.scan.efficiency_pct", RS_UNIT_PCT },
	{ "reclaim efficiency", "efficiency anon", "summary.scan.efficiency_anon_pct",
	  RS_UNIT_PCT },
	{ "reclaim efficiency", "efficiency file", "summary.scan.efficiency_file_pct",
	  RS_UNIT_PCT },
	{ "reclaim efficiency", "reclaimed", "summary.scan.reclaimed", RS_UNIT_PAGES },
	{ "reclaim efficiency", "reclaimed anon", "summary.scan.reclaimed_anon", RS_UNIT_PAGES },
	{ "reclaim efficiency", "reclaimed file", "summary.scan.reclaimed_file", RS_UNIT_PAGES },
	{ "IO", "swap-out", "summary.io.swap_out_folios", RS_UNIT_FOLIOS },
	{ "IO", "file written by reclaim", "summary.io.file_written_folios", RS_UNIT_FOLIOS },
	{ "IO", "written sync", "summary.io.write_sync_folios", RS_UNIT_FOLIOS },
	{ "IO", "dirty seen", "summary.io.dirty_pages", RS_UNIT_PAGES },
	{ "IO", "under writeback seen", "summary.io.writeback_pages", RS_UNIT_PAGES },
	{ "IO", "immediate reclaim seen", "summary.io.immediate_pages", RS_UNIT_PAGES },
	{ "kswapd", "awake (with cut periods)", "summary.kswapd.awake_total_s", RS_UNIT_S },
	{ "kswapd", "awake share", "summary.kswapd.awake_pct", RS_UNIT_PCT },
	{ "kswapd", "wakes", "summary.kswapd.wakes", RS_UNIT_COUNT },
	{ "kswapd", "sleeps", "summary.kswapd.sleeps", RS_UNIT_COUNT },
	{ "kswapd", "re-wakes", "summary.kswapd.rewakes", RS_UNIT_COUNT },
	{ "kswapd", "reclaim failures", "summary.kswapd.reclaim_fail", RS_UNIT_COUNT },
	{ "kswapd", "nodes made hopeless", "summary.kswapd.hopeless", RS_UNIT_COUNT },
	{ "kswapd", "kswapd scanned", "summary.kswapd.scanned", RS_UNIT_PAGES },
	{ "kswapd", "kswapd reclaimed", "summary.kswapd.reclaimed", RS_UNIT_PAGES },
	{ "kswapd", "wakeup_kswapd requests", "wakeup_kswapd.count", RS_UNIT_COUNT },
	/* docs/refaults.md: what evicting cost */
	{ "refaults", "file pages back", "summary.refaults.refaulted_pages", RS_UNIT_PAGES },
	{ "refaults", "back, of evicted", "summary.refaults.refaulted_pct", RS_UNIT_PCT },
	{ "refaults", "back within 1 s", "summary.refaults.within_1s_pct", RS_UNIT_PCT },
	{ "refaults", "file pages evicted", "summary.refaults.evicted_pages", RS_UNIT_PAGES },
	{ "refaults", "thrashing (longest memcg)", "summary.refaults.thrashing_s", RS_UNIT_S },
	{ "refaults", "swap-ins (pswpin)", "summary.refaults.swapin_pages", RS_UNIT_PAGES },
};
#undef SCANNED

/* Per-cgroup figures: cgroups[PATH] + suffix. */
static const struct entry cgroup_entries[] = {
	{ "victim", "reclaimed from it", ".victim.reclaimed", RS_UNIT_PAGES },
	{ "victim", "scanned from it", ".victim.scanned", RS_UNIT_PAGES },
	{ NULL, "its tasks stalled", ".trigger.stalled_us", RS_UNIT_US },
	/* the trigger's own figures are its memcg (limit/high) reclaim's */
	{ NULL, "memcg episodes", ".trigger.episodes", RS_UNIT_COUNT },
	{ NULL, "memcg p99", ".trigger.latency_us.p99", RS_UNIT_US },
	{ NULL, "memcg max", ".trigger.latency_us.max", RS_UNIT_US },
	{ NULL, "direct p99", ".trigger.direct.latency_us.p99", RS_UNIT_US },
	{ NULL, "direct max", ".trigger.direct.latency_us.max", RS_UNIT_US },
};

const char *rs_rank_unit_name(enum rs_rank_unit u)
{
	static const char *const names[] = { "pages", "folios", "count", "us", "s", "%",
					     "priority", "distribution" };

	return u <= RS_UNIT_DIST ? names[u] : "?";
}

/* Moves smaller than this are noise, whatever their percentage. */
static double floor_of(enum rs_rank_unit u)
{
	switch (u) {
	case RS_UNIT_PAGES:
	case RS_UNIT_FOLIOS:
		return 64;
	case RS_UNIT_COUNT:
		return 2;
	case RS_UNIT_US:
		return 100;
	case RS_UNIT_S:
		return 1e-4;
	case RS_UNIT_PCT:
	case RS_UNIT_DIST:
		return 1;
	default:
		return 0.1;
	}
}

static struct rs_rank_row *add_row(struct rs_ranking *r)
{
	if (RS_GROW(r->rows, r->cap, r->nr + 1, 64))
		return NULL;
	memset(&r->rows[r->nr], 0, sizeof(r->rows[0]));
	return &r->rows[r->nr++];
}

/* Score and filter one row whose base, new and (for ratios) d are set. */
static void judge(struct rs_ranking *r, struct rs_rank_row *w, const struct rs_rank_opts *o)
{
	double fl = floor_of(w->unit), diff = fabs(w->new - w->base);
	bool big;

	switch (w->unit) {
	case RS_UNIT_PCT:
		w->move = w->new - w->base;
		w->score = diff / 10.0;
		big = diff >= r->threshold / 2;
		break;
	case RS_UNIT_DIST:
		w->score = w->move / 10.0;
		diff = w->move;
		big = diff >= r->threshold / 2;
		break;
	default:
		w->move = w->d ? w->d->change_pct : NAN;
		w->score = fabs(log2((w->new + fl) / (w->base + fl)));
		big = isnan(w->move) || fabs(w->move) >= r->threshold;
		break;
	}
	if (w->base < 0 || w->new < 0)
		w->score = 0;
	w->changed = o->all || (diff >= fl && big &&
				(!w->d || !w->d->welch.valid || w->d->significant));
	r->changed += w->changed;
}

static int add_metric(struct rs_ranking *r, const struct rs_compare *c, const char *group,
		      const char *label, const char *metric, enum rs_rank_unit unit,
		      const struct rs_rank_opts *o)
{
	const struct rs_metric_diff *d = rs_compare_find(c, metric);
	struct rs_rank_row *w;

	if (!d)
		return 0;
	w = add_row(r);
	if (!w)
		return -1;
	snprintf(w->group, sizeof(w->group), "%s", group);
	snprintf(w->label, sizeof(w->label), "%s", label);
	w->metric = d->name;
	w->unit = unit;
	w->d = d;
	w->base = d->side[RS_SIDE_BASE].avg;
	w->new = d->side[RS_SIDE_NEW].avg;
	judge(r, w, o);
	return 0;
}

/* The priority distribution: total variation distance of the mean shares, in points. */
static int add_priority(struct rs_ranking *r, const struct rs_compare *c, const struct entry *e,
			const struct rs_rank_opts *o)
{
	double dist = 0, mean[RS_NR_SIDES] = { 0, 0 }, tot[RS_NR_SIDES] = { 0, 0 };
	struct rs_rank_row *w;
	int seen = 0;

	for (int p = 0; p <= 12; p++) {
		char name[96];
		const struct rs_metric_diff *d;

		snprintf(name, sizeof(name), "%s%d", e->metric, p);
		d = rs_compare_find(c, name);
		if (!d)
			continue;
		seen++;
		dist += fabs(d->side[RS_SIDE_NEW].avg - d->side[RS_SIDE_BASE].avg);
		for (int s = 0; s < RS_NR_SIDES; s++) {
			mean[s] += p * d->side[s].avg;
			tot[s] += d->side[s].avg;
		}
	}
	if (seen < 13 || tot[0] <= 0 || tot[1] <= 0)
		return 0;
	w = add_row(r);
	if (!w)
		return -1;
	snprintf(w->group, sizeof(w->group), "%s", e->group);
	snprintf(w->label, sizeof(w->label), "%s", e->label);
	w->metric = e->metric;
	w->unit = RS_UNIT_DIST;
	w->base = mean[0] / tot[0];
	w->new = mean[1] / tot[1];
	w->move = dist / 2;
	judge(r, w, o);
	return 0;
}

static int add_cgroups(struct rs_ranking *r, const struct rs_compare *c,
		       const struct rs_rank_opts *o)
{
	const struct rs_metric_diff *ex = rs_compare_find(c, "cgroup_attribution.reclaimed_exact_pct");

	for (int s = 0; s < RS_NR_SIDES; s++) {
		r->victims_exact_pct[s] = ex ? ex->side[s].avg : NAN;
		if (ex && r->victims_exact_pct[s] < VICTIM_EXACT_MIN_PCT)
			r->victims_skipped = true;
	}
	for (size_t i = 0; i < rs_compare_nr_metrics(c); i++) {
		const char *name = rs_compare_metric(c, i)->name, *end;
		size_t n = strlen(name);

		if (strncmp(name, "cgroups[", 8))
			continue;
		for (size_t k = 0; k < sizeof(cgroup_entries) / sizeof(cgroup_entries[0]); k++) {
			const struct entry *e = &cgroup_entries[k];
			size_t sl = strlen(e->metric);
			char group[96];

			if (n <= sl + 9 || strcmp(name + n - sl, e->metric))
				continue;
			if (e->group && r->victims_skipped)
				continue;
			end = name + n - sl;
			if (end[-1] != ']')
				continue;
			snprintf(group, sizeof(group), "cgroup %.*s", (int)(end - 1 - (name + 8)),
				 name + 8);
			if (add_metric(r, c, group, e->label, name, e->unit, o) < 0)
				return -1;
		}
	}
	return 0;
}

struct keyed {
	struct rs_rank_row row;
	double gscore;		/* the group's largest score among shown rows */
	size_t gfirst;		/* the group's first catalogue position */
	size_t pos;
};

static int cmp_group(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	return strcmp(a->row.group, b->row.group) ?: RS_CMP(a->pos, b->pos);
}

static int cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	/* the scores are doubles, tested as such: RS_CMP() would take a NaN for a tie */
	if (a->gscore != b->gscore)
		return a->gscore < b->gscore ? 1 : -1;
	if (a->gfirst != b->gfirst)
		return a->gfirst < b->gfirst ? -1 : 1;
	if (a->row.changed != b->row.changed)
		return a->row.changed ? -1 : 1;
	if (a->row.score != b->row.score)
		return a->row.score < b->row.score ? 1 : -1;
	return RS_CMP(a->pos, b->pos);
}

/* Groups by their largest move, rows by theirs: O(n log n) with thousands of cgroups. */
static int sort_rows(struct rs_ranking *r)
{
	struct keyed *k = calloc(r->nr ? r->nr : 1, sizeof(*k));

	if (!k)
		return -1;
	for (size_t i = 0; i < r->nr; i++) {
		k[i].row = r->rows[i];
		k[i].pos = i;
	}
	qsort(k, r->nr, sizeof(*k), cmp_group);
	for (size_t i = 0, j; i < r->nr; i = j) {
		double best = 0;

		for (j = i; j < r->nr && !strcmp(k[j].row.group, k[i].row.group); j++)
			if (k[j].row.changed && k[j].row.score > best)
				best = k[j].row.score;
		for (size_t m = i; m < j; m++) {
			k[m].gscore = best;
			k[m].gfirst = k[i].pos;		/* sorted by pos within the group */
		}
	}
	qsort(k, r->nr, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < r->nr; i++)
		r->rows[i] = k[i].row;
	free(k);
	return 0;
}

struct rs_ranking *rs_ranking_new(const struct rs_compare *c, const struct rs_rank_opts *o)
{
	struct rs_ranking *r = calloc(1, sizeof(*r));
	size_t n = sizeof(catalogue) / sizeof(catalogue[0]);

	if (!r)
		return NULL;
	r->threshold = o->threshold_pct >= 0 ? o->threshold_pct : THRESHOLD_DEFAULT;
	for (size_t i = 0; i < n; i++) {
		const struct entry *e = &catalogue[i];
		int ret;

		if (e->unit == RS_UNIT_DIST)
			ret = add_priority(r, c, e, o);
		else
			ret = add_metric(r, c, e->group, e->label, e->metric, e->unit, o);
		if (ret < 0)
			goto oom;
		/* the stall kinds right after the worst stall, named as analyze --json keys them */
		for (int k = 0; i == 0 && k < RS_RK_NR; k++) {
			static const struct { const char *what, *suffix; enum rs_rank_unit u; } f[] = {
				{ "episodes", "count", RS_UNIT_COUNT },
				{ "stall total", "total_us", RS_UNIT_US },
				{ "p99", "p99_us", RS_UNIT_US },
				{ "max", "max_us", RS_UNIT_US },
			};
			const char *kind = rs_reclaim_kind_name(k);

			for (size_t j = 0; j < sizeof(f) / sizeof(f[0]); j++) {
				char label[64], metric[96];

				snprintf(label, sizeof(label), "%s %s", kind, f[j].what);
				snprintf(metric, sizeof(metric), "summary.stalls.%s.%s", kind,
					 f[j].suffix);
				if (add_metric(r, c, "stalls", label, metric, f[j].u, o) < 0)
					goto oom;
			}
		}
	}
	if (add_cgroups(r, c, o) < 0 || sort_rows(r) < 0)
		goto oom;
	return r;
oom:
	rs_ranking_free(r);
	return NULL;
}

void rs_ranking_free(struct rs_ranking *r)
{
	if (!r)
		return;
	free(r->rows);
	free(r);
}

size_t rs_ranking_count(const struct rs_ranking *r)
{
	return r->nr;
}

const struct rs_rank_row *rs_ranking_row(const struct rs_ranking *r, size_t i)
{
	return i < r->nr ? &r->rows[i] : NULL;
}

size_t rs_ranking_changed(const struct rs_ranking *r)
{
	return r->changed;
}

double rs_ranking_threshold(const struct rs_ranking *r)
{
	return r->threshold;
}

bool rs_ranking_victims_skipped(const struct rs_ranking *r, double exact_pct[RS_NR_SIDES])
{
	for (int s = 0; s < RS_NR_SIDES; s++)
		exact_pct[s] = r->victims_exact_pct[s];
	return r->victims_skipped;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rs_ranking_json(const struct rs_ranking *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->nr; i++) {
		const struct rs_rank_row *w = &r->rows[i];
		json_t *o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:b}", "rank", (int)i + 1,
				      "group", w->group, "label", w->label, "metric", w->metric,
				      "unit", rs_rank_unit_name(w->unit), "base", num_or_null(w->base),
				      "new", num_or_null(w->new), "move", num_or_null(w->move),
				      "score", num_or_null(w->score), "changed", w->changed);

		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
