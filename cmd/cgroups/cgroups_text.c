// SPDX-License-Identifier: GPL-2.0
/*
 * The per-cgroup attribution as text (docs/cgroups.md "Text report"): attribution summary,
 * trigger side, victim side, who made whom pay, soft limits, LRU sizes. At most 100 columns;
 * long paths keep their tail ("...rs_parent/rs_a"). Tables list the cgroups that have a figure
 * in them, up to --top rows each, largest first; JSON has every row.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroups.h"
#include "cgroups_output.h"
#include "cmd_text_heading.h"
#include "report.h"
#include "rs_warn.h"
#include "trace_source.h"
#include "text_escape.h"

#define PATH_W 24

static const char *name(const struct rs_cgroups *cg, int i, char *buf, size_t w)
{
	char tmp[48];

	return rs_text_tail(rs_esc(rs_cgroups_name(cg, i, tmp, sizeof(tmp))), buf, w);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* Rows sorted by a key, largest first, ties by name order. */
struct order {
	int row;
	uint64_t key;
	int rank;
};

static int order_cmp(const void *x, const void *y)
{
	const struct order *a = x, *b = y;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->rank - b->rank;
}

typedef uint64_t (*key_fn)(const struct rs_cgroups *cg, const struct rs_cgroup *c);

static int rows_by(const struct rs_cgroups *cg, key_fn key, struct order **out)
{
	const int *sorted;
	int n = rs_cgroups_sorted(cg, &sorted), m = 0;
	struct order *o = calloc((size_t)n + 1, sizeof(*o));

	*out = o;
	if (!o)
		return 0;
	for (int i = 0; i < n; i++) {
		uint64_t k = key(cg, rs_cgroups_get(cg, sorted[i]));

		if (k)
			o[m++] = (struct order){ sorted[i], k, i };
	}
	qsort(o, (size_t)m, sizeof(*o), order_cmp);
	return m;
}

static void more(FILE *f, int shown, int total)
{
	if (total > shown)
		fprintf(f, "(%d more; --top N shows more, --json shows all)\n", total - shown);
}

/*
 * A section's title, then its rows by key (largest first) into *n; NULL when no row has a key,
 * with the line that says so printed.
 */
static struct order *section_rows(FILE *f, const struct rs_cgroups *cg, key_fn key,
				  const char *title, const char *none, int *n)
{
	struct order *o;

	*n = rows_by(cg, key, &o);
	fprintf(f, "\n%s\n", title);
	if (*n)
		return o;
	fprintf(f, "%s\n", none);
	free(o);
	return NULL;
}

static uint64_t trig_key(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	uint64_t k = 0;

	for (int x = 0; x < RS_RK_NR; x++)
		for (int s = 0; s < RS_EP_NR_STATUS; s++)
			k += c->trig[x].status[s];
	return k || c->throttled || c->oom_kills ? c->stalled_ns + k + 1 : 0;
}

/*
 * A percentile in the 7 columns of its field: seconds-long memcg stalls (a 6.1 guest's
 * khugepaged: p99 12137.293 ms) would push the row past 100 columns.
 */
static void pct_ms(char *buf, size_t len, double v)
{
	snprintf(buf, len, v < 1000 ? "%.3f" : v < 100000 ? "%.1f" : "%.0f", v);
}

static const struct rs_text_col trigger_cols[] = {
	{ -PATH_W, "", "cgroup" }, { 6, "memcg", "epis." }, { 9, "stall", "ms" },
	{ 7, "p50", "ms" }, { 7, "p99", "ms" }, { 9, "reclaimed", "pages" },
	{ 6, "direct", "epis." }, { 9, "stall", "ms" }, { 5, "soft", "epis." }, { 4, "thr", "" },
	{ 3, "oom", "" },
};

static void section_trigger(FILE *f, const struct rs_cgroups *cg, int top)
{
	struct order *o;
	int n, shown = 0;
	char b[PATH_W + 1];

	o = section_rows(f, cg, trig_key, "TRIGGER SIDE (reclaim episodes entered by the cgroup's "
			 "tasks; stall = episode time)", "no episodes of tasks with a known cgroup",
			 &n);
	if (!o)
		return;
	RS_TEXT_HEADING(f, trigger_cols);
	for (int i = 0; i < n && shown < top; i++, shown++) {
		const struct rs_cgroup *c = rs_cgroups_get(cg, o[i].row);
		const struct rs_cg_trigger *m = &c->trig[RS_RK_MEMCG], *d = &c->trig[RS_RK_DIRECT];
		int p50 = 4, p99 = 8;	/* indices of 50 and 99 in rs_lat_pcts */

		char q50[16] = "-", q99[16] = "-";

		/* percentiles of no episode are absent, not 0.000 */
		if (m->latency.count) {
			pct_ms(q50, sizeof(q50), ms(m->latency.pct[p50]));
			pct_ms(q99, sizeof(q99), ms(m->latency.pct[p99]));
		}
		fprintf(f, "%-*s %6" PRIu64 " %9.3f %7s %7s %9" PRIu64 " %6" PRIu64 " %9.3f %5"
			PRIu64 " %4" PRIu64 " %3" PRIu64 "\n",
			PATH_W, name(cg, o[i].row, b, PATH_W), m->episodes, ms(m->ns), q50, q99,
			m->reclaimed, d->episodes, ms(d->ns), c->trig[RS_RK_SOFTLIMIT].episodes,
			c->throttled, c->oom_kills);
	}
	more(f, shown, n);
	free(o);
}

/*
 * By target episodes, the table's first figure, then slab calls: their sum let 150 leaves of a
 * thousand slab calls each and no episode push their 15 parents, targeted 400-900 times each,
 * out of the top 20 (the sweep3 manycg recording)
 */
static uint64_t target_key(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	uint64_t calls = c->slab_calls < UINT32_MAX ? c->slab_calls : UINT32_MAX;

	return (c->target_episodes << 32) | calls;
}

static const struct rs_text_col targets_cols[] = {
	{ -PATH_W, "", "cgroup" }, { 12, "target of", "episodes" }, { 10, "slab", "calls" },
	{ 10, "slab", "ms" }, { 10, "slab", "freed" },
};

/* 7.1+: memcg_id of reclaim and of shrink_slab. Absent before 7.1: not printed at all. */
static void section_targets(FILE *f, const struct rs_cgroups *cg, int top)
{
	bool tg = rs_cgroups_facts(cg)->kernel_roots, sl = rs_cgroups_facts(cg)->slab_memcgs;
	struct order *o;
	int n, shown = 0;
	char b[PATH_W + 1];

	if (!tg && !sl)
		return;
	o = section_rows(f, cg, target_key, "TARGETS (7.1+ memcg_id: the memcg whose limit a memcg "
			 "reclaim episode reclaims, and whose slab shrink_slab shrinks)",
			 "no memcg reclaim episode and no shrink_slab of a memcg", &n);
	if (!o)
		return;
	RS_TEXT_HEADING(f, targets_cols);
	for (int i = 0; i < n && shown < top; i++, shown++) {
		const struct rs_cgroup *c = rs_cgroups_get(cg, o[i].row);
		char t[24] = "-", sc[24] = "-", sm[24] = "-", sf[24] = "-";

		if (tg)
			snprintf(t, sizeof(t), "%" PRIu64, c->target_episodes);
		if (sl) {
			snprintf(sc, sizeof(sc), "%" PRIu64, c->slab_calls);
			snprintf(sm, sizeof(sm), "%.3f", ms(c->slab_ns));
			snprintf(sf, sizeof(sf), "%" PRIu64, c->slab_freed);
		}
		fprintf(f, "%-*s %12s %10s %10s %10s\n", PATH_W, name(cg, o[i].row, b, PATH_W), t,
			sc, sm, sf);
	}
	more(f, shown, n);
	free(o);
}

static uint64_t victim_total(const struct rs_cgroup *c, int ctx, bool reclaimed)
{
	uint64_t v = 0;

	for (int x = 0; x < RS_CTX_NR; x++) {
		if (ctx >= 0 && x != ctx)
			continue;
		for (int l = 0; l < RS_LRU_NR; l++)
			v += reclaimed ? c->pages[x][l].reclaimed :
			     c->pages[x][l].scanned + c->pages[x][l].isolate_only_scanned;
	}
	return v;
}

static uint64_t victim_key(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	uint64_t s = victim_total(c, -1, false);

	return s || c->exact || c->fallback ? victim_total(c, -1, true) + 1 : 0;
}

/* the reclaimed columns by context are section_victim()'s ctxs[] */
static const struct rs_text_col victim_cols[] = {
	{ -PATH_W, "", "cgroup" }, { 9, "scanned", "all LRUs" }, { 9, "reclaimed", "pages" },
	{ 9, "kswapd", "reclaimed" }, { 9, "direct", "reclaimed" }, { 9, "memcg", "reclaimed" },
	{ 9, "softlimit", "reclaimed" }, { 6, "", "exact" }, { 6, "", "fallbk" },
};

static void section_victim(FILE *f, const struct rs_cgroups *cg, int top, bool mglru)
{
	static const int ctxs[] = { RS_CTX_KSWAPD, RS_CTX_DIRECT, RS_CTX_MEMCG, RS_CTX_SOFTLIMIT };
	struct order *o;
	int n, shown = 0;
	char b[PATH_W + 1];

	/*
	 * The two ways a shrink gets its victim (cgroups.c): the counters, or memcg_id_leaf.
	 * Within 100 columns: analyze --with-cgroups prints it unwrapped.
	 */
	o = section_rows(f, cg, victim_key, "VICTIM SIDE (pages taken from the cgroup's LRUs, by "
			 "the memcg counters per shrink or memcg_id_leaf)",
			 "no shrink event attributed to a cgroup", &n);
	if (!o)
		return;
	RS_TEXT_HEADING(f, victim_cols);
	for (int i = 0; i < n && shown < top; i++, shown++) {
		const struct rs_cgroup *c = rs_cgroups_get(cg, o[i].row);

		fprintf(f, "%-*s %9" PRIu64 " %9" PRIu64, PATH_W, name(cg, o[i].row, b, PATH_W),
			victim_total(c, -1, false), victim_total(c, -1, true));
		for (size_t x = 0; x < sizeof(ctxs) / sizeof(ctxs[0]); x++)
			fprintf(f, " %9" PRIu64, victim_total(c, ctxs[x], true));
		fprintf(f, " %6" PRIu64 " %6" PRIu64 "\n", c->exact, c->fallback);
	}
	more(f, shown, n);
	if (mglru)	/* no active list to refill: eviction scans the oldest generation */
		fprintf(f, "scanned: pages MGLRU's eviction scanned in the oldest generation "
			"(lru_isolate nr_scanned: pgscan, isolated, + pgrefill, sorted to younger "
			"generations); aging moves pages between generations untraced\n");
	else
		fprintf(f, "scanned: pages isolated from the inactive and the active lists "
			"together (pgscan + pgrefill); --json has them by list\n");
	free(o);
}

static int cell_cmp(const void *x, const void *y)
{
	const struct rs_cg_cell *a = *(const struct rs_cg_cell *const *)x;
	const struct rs_cg_cell *b = *(const struct rs_cg_cell *const *)y;

	if (a->reclaimed != b->reclaimed)
		return a->reclaimed > b->reclaimed ? -1 : 1;
	if (a->scanned != b->scanned)
		return a->scanned > b->scanned ? -1 : 1;
	if (a->trigger != b->trigger)
		return a->trigger - b->trigger;
	if (a->victim != b->victim)
		return a->victim - b->victim;
	return a->ctx - b->ctx;
}

static void section_matrix(FILE *f, const struct rs_cgroups *cg, int top)
{
	int n = rs_cgroups_nr_cells(cg), shown = 0;
	const struct rs_cg_cell **c = calloc((size_t)n + 1, sizeof(*c));
	uint64_t total = 0;
	char b1[27], b2[27];

	fprintf(f, "\nWHO MADE WHOM PAY (pages the trigger's reclaim took from the victim's "
		   "LRUs)\n");
	if (!c || !n) {
		fprintf(f, "no shrink events\n");
		free(c);
		return;
	}
	for (int i = 0; i < n; i++) {
		c[i] = rs_cgroups_cell(cg, i);
		total += c[i]->reclaimed;
	}
	qsort(c, (size_t)n, sizeof(*c), cell_cmp);
	fprintf(f, "%-26s %-26s %-9s %9s %9s %7s\n", "trigger", "victim", "context", "scanned",
		"reclaimed", "share %");
	for (int i = 0; i < n && shown < top; i++, shown++)
		fprintf(f, "%-26s %-26s %-9s %9" PRIu64 " %9" PRIu64 " %7.1f\n",
			name(cg, c[i]->trigger, b1, 26), name(cg, c[i]->victim, b2, 26),
			rs_ctx_name(c[i]->ctx), c[i]->scanned, c[i]->reclaimed,
			rs_pct(c[i]->reclaimed, total));
	more(f, shown, n);
	free(c);
}

static uint64_t soft_key(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	return c->soft_recorded && c->snapshots ? c->usage_max + 1 : 0;
}

static const struct rs_text_col soft_cols[] = {
	{ -PATH_W, "", "cgroup" }, { 8, "soft", "limit MB" }, { 8, "usage", "last MB" },
	{ 8, "usage", "max MB" }, { 6, "over", "time %" }, { 5, "soft", "epis." },
	{ 10, "reclaimed", "over" }, { 10, "reclaimed", "under" }, { 10, "reclaimed", "unknown" },
};

static void section_soft(FILE *f, const struct rs_cgroups *cg, int top)
{
	struct order *o;
	int n, shown = 0;
	uint64_t ps = rs_cgroups_page_size(cg);
	uint64_t unlimited = (uint64_t)(INT64_MAX / (int64_t)ps) * ps;
	char b[PATH_W + 1], soft[16];

	o = section_rows(f, cg, soft_key, "SOFT LIMITS (memcg_stat snapshots; over = usage above "
			 "the soft limit at the snapshot before)", "no snapshot with a soft limit",
			 &n);
	if (!o)
		return;
	RS_TEXT_HEADING(f, soft_cols);
	for (int i = 0; i < n && shown < top; i++, shown++) {
		const struct rs_cgroup *c = rs_cgroups_get(cg, o[i].row);

		if (c->soft_limit >= unlimited)
			snprintf(soft, sizeof(soft), "none");
		else
			snprintf(soft, sizeof(soft), "%.1f", (double)c->soft_limit / 1048576.0);
		fprintf(f, "%-*s %8s %8.1f %8.1f %6.1f %5" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n", PATH_W, name(cg, o[i].row, b, PATH_W), soft,
			(double)c->usage / 1048576.0, (double)c->usage_max / 1048576.0,
			rs_pct(c->over_ns, c->over_ns + c->under_ns), c->softlimit_episodes,
			c->taken_reclaimed[RS_CG_SOFT_OVER], c->taken_reclaimed[RS_CG_SOFT_UNDER],
			c->taken_reclaimed[RS_CG_SOFT_UNKNOWN]);
	}
	more(f, shown, n);
	free(o);
}

static uint64_t lru_key(const struct rs_cgroups *cg, const struct rs_cgroup *c)
{
	return c->anchored && c->lru_events ? c->lru_events : 0;
}

static const struct rs_text_col lru_cols[] = {
	{ -PATH_W, "", "cgroup" }, { -13, "", "list" }, { 9, "last", "snapshot" },
	{ 9, "from", "deltas" }, { 6, "", "snaps" }, { 8, "max", "|diff|" },
	{ 8, "mean", "|diff|" }, { 6, "", "steps" }, { 8, "step", "max|d|" },
};

static void section_lru(FILE *f, const struct rs_cgroups *cg, int top, bool mglru)
{
	struct order *o;
	int n, shown = 0;
	char b[PATH_W + 1];

	o = section_rows(f, cg, lru_key, "LRU SIZES (pages; from deltas: mod_memcg_lruvec_state "
			 "sums from empty at mkdir, else from the\nmedian offset to the snapshots; "
			 "|diff|: snapshot against deltas, per bucket)",
			 "no cgroup with both snapshots and LRU deltas", &n);
	if (!o)
		return;
	if (mglru)
		fprintf(f, "under MGLRU the kernel counts the folios of the two youngest generations "
			"as active (lru_gen_is_active()), the others as inactive\n");
	RS_TEXT_HEADING(f, lru_cols);
	for (int i = 0; i < n && shown < top; i++, shown++) {
		const struct rs_cgroup *c = rs_cgroups_get(cg, o[i].row);

		for (int l = 0; l < RS_LRU_NR; l++) {
			const struct rs_cg_disagree *d = &c->dis[l];

			fprintf(f, "%-*s %-13s %9" PRId64 " %9" PRId64 " %6" PRIu64 " %8" PRIu64
				" %8.1f %6" PRIu64 " %8" PRIu64 "\n", PATH_W,
				l ? "" : name(cg, o[i].row, b, PATH_W), rs_lru_name(l),
				c->last_snap_pages[l], c->offset_pages[l] + c->last_snap_delta[l],
				d->n, d->max_abs, d->n ? (double)d->sum_abs / (double)d->n : 0.0,
				d->step_n, d->step_max_abs);
		}
	}
	more(f, shown, n);
	free(o);
}

static void section_summary(FILE *f, const struct rs_cgroups *cg)
{
	const struct rs_cg_attrib *at = rs_cgroups_attrib(cg);
	const struct rs_memcgs_facts *facts = rs_cgroups_facts(cg);

	fprintf(f, "\nCGROUP ATTRIBUTION (docs/cgroups.md: who entered reclaim, whose pages it "
		   "took)\n");
	fprintf(f, "shrink events  %" PRIu64 ": %" PRIu64 " matched exactly (%.1f%%), %" PRIu64
		" by fallback, %" PRIu64 " unmatched\n", at->shrinks, at->exact,
		rs_pct(at->exact, at->shrinks), at->fallback, at->unmatched);
	fprintf(f, "pages          %" PRIu64 " reclaimed, %" PRIu64 " of them matched exactly "
		"(%.1f%%)\n", at->reclaimed, at->reclaimed_exact,
		rs_pct(at->reclaimed_exact, at->reclaimed));
	for (int r = 0; r < RS_CGR_NR; r++)
		if (at->by_reason[r])
			fprintf(f, "  %-16s %" PRIu64 " shrink events\n", rs_cg_reason_name(r),
				at->by_reason[r]);
	if (at->isolates_without_shrink)
		fprintf(f, "isolates without a shrink event (nothing taken): %" PRIu64 ", %" PRIu64
			" matched\n", at->isolates_without_shrink,
			at->isolates_without_shrink_matched);
	if (rs_cgroups_lacks(cg, RS_EV_MEMCG_COUNT) && rs_cgroups_lacks(cg, RS_EV_MEMCG_LRUVEC)) {
		fprintf(f, "counters       none: the trace has no memcg:count_memcg_events nor "
			"mod_memcg_lruvec_state\n               (%s); %d cgroups%s\n",
			facts->kernel_roots ? "not recorded: this 7.1+ kernel has them, "
			"trace-cmd record -e memcg" : "a kernel before 6.13, or not recorded",
			rs_cgroups_count(cg), facts->capped ? " (cap reached)" : "");
		return;
	}
	fprintf(f, "counters       %" PRIu64 " count_memcg_events (items %s), %" PRIu64
		" mod_memcg_lruvec_state; %d cgroups%s\n", at->count_events,
		facts->item_names ? "named" : "NOT named",
		at->lruvec_events, rs_cgroups_count(cg), facts->capped ? " (cap reached)" : "");
}


/* The trace header for a range: the loader counts events on full reads only (as analyze). */
static void header(FILE *f, const struct rs_source *src, const struct rs_cgroups_text_opts *o)
{
	if (!src)
		return;
	if (o && o->range)
		rs_report_range_text(f, src);
	else
		rs_report_trace_text(f, src, 0);
}

void rs_cgroups_text_report(FILE *f, const struct rs_source *src, const struct rs_cgroups *cg,
			    const struct rs_cgroups_text_opts *o)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);

	if (!m) {		/* unwrapped, rather than nothing */
		header(f, src, o);
		rs_cgroups_text(f, cg, o);
		return;
	}
	header(m, src, o);
	rs_cgroups_text(m, cg, o);
	fclose(m);
	rs_report_put_wrapped_lines(f, buf, n);
	free(buf);
}

void rs_cgroups_text(FILE *f, const struct rs_cgroups *cg, const struct rs_cgroups_text_opts *o)
{
	int top = o && o->top > 0 ? o->top : 20;

	section_summary(f, cg);
	section_trigger(f, cg, top);
	section_targets(f, cg, top);
	section_victim(f, cg, top, o && o->mglru);
	section_matrix(f, cg, top);
	section_soft(f, cg, top);
	section_lru(f, cg, top, o && o->mglru);
}
