// SPDX-License-Identifier: GPL-2.0
/*
 * `analyze` text report: at most 100 columns, a unit on every number (in the column headers
 * or next to the value). Sections follow docs/analyze.md. Figures that do not fit their column
 * are shortened with k/M/G/T suffixes (powers of 1000); --json always has them exact.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cmd_text_heading.h"
#include "kswapd_health.h"
#include "mglru_gens.h"
#include "analyze_output.h"
#include "report.h"
#include "rs_warn.h"
#include "series.h"
#include "trace_source.h"
#include "text_escape.h"

#define SPARK_W 60

struct out {
	FILE *f;
	const struct rs_analysis *a;
	double secs;
	bool utf8;
	bool mglru;		/* trace.mglru: the reports speak MGLRU */
	bool untraced;		/* MGLRU before 6.7: no isolate or shrink event at all */
	uint64_t isolates_empty;
};

/* An unsigned count in at most `w` characters. */
static const char *cnt(char *buf, int w, uint64_t v)
{
	static const char sfx[] = "kMGTPE";
	double d = (double)v;
	int i = -1;

	snprintf(buf, 32, "%" PRIu64, v);
	if ((int)strlen(buf) <= w)
		return buf;
	do {
		d /= 1000.0;
		i++;
		snprintf(buf, 32, "%.1f%c", d, sfx[i]);
	} while ((int)strlen(buf) > w && i < 5);
	return buf;
}

/* A real in at most `w` characters with `prec` decimals, dropping decimals to fit. */
static const char *real(char *buf, int w, int prec, double v)
{
	for (int p = prec; p >= 0; p--) {
		snprintf(buf, 40, "%.*f", p, v);
		if ((int)strlen(buf) <= w)
			return buf;
	}
	return cnt(buf, w, v > 0 ? (uint64_t)v : 0);
}

/* A count, or "-" when the recorded kernel lacks its field (rs_analysis_lacks). */
static const char *opt_cnt(char *buf, int w, uint64_t v, unsigned int lack, unsigned int bit)
{
	return (lack & bit) ? "-" : cnt(buf, w, v);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static const char *list_name(int l)
{
	return l == RS_LIST_UNKNOWN ? "unknown" : rs_lru_name(l);
}

/* Under MGLRU the "inactive" list lru_isolate names is the oldest generation of a type. */
static const char *list_label(const struct out *o, int l)
{
	if (o->mglru && l == RS_LRU_INACTIVE_ANON)
		return "anon";
	if (o->mglru && l == RS_LRU_INACTIVE_FILE)
		return "file";
	return list_name(l);
}

static bool mglru_skip(const struct out *o, int l)
{
	return o->mglru && (l == RS_LRU_ACTIVE_ANON || l == RS_LRU_ACTIVE_FILE);
}

static bool is_inactive(int l)
{
	return l == RS_LRU_INACTIVE_ANON || l == RS_LRU_INACTIVE_FILE || l == RS_LIST_UNKNOWN;
}

static void heading(struct out *o, const char *title)
{
	fprintf(o->f, "\n%s\n", title);
}

static void lru_row(struct out *o, const char *node, int list, const char *ctx,
		    const struct rs_lru_counts *c)
{
	char b[6][48];

	fprintf(o->f, "%-4s %-13s %-9s %11s %11s %11s %6s %12s %9s\n", node, list_label(o, list),
		ctx,
		cnt(b[0], 11, c->scanned), cnt(b[1], 11, c->taken),
		is_inactive(list) ? cnt(b[2], 11, c->reclaimed) : "-",
		is_inactive(list) && c->scanned ?
		real(b[3], 6, 1, rs_pct(c->reclaimed, c->scanned)) : "-",
		real(b[4], 12, 1, o->secs > 0 ? (double)c->scanned / o->secs : 0),
		cnt(b[5], 9, c->write_anon + c->write_file));
}

/* Generations over time from the recorder's lru_gen markers (aging the events do not show). */
static void mglru_gens_lines(struct out *o)
{
	const struct rs_mglru_gens *g = rs_analysis_mglru_gens(o->a);
	char esc[RS_GENS_CG_LEN * 4];

	if (!g->nr)
		return;
	fprintf(o->f, "generations (the recorder's lru_gen snapshots; seq numbers rise as the "
		"kernel ages and evicts):\n");
	for (int i = 0; i < g->nr && i < 8; i++) {
		const struct rs_gens_series *s = &g->s[i];
		uint64_t mn = s->nr_last ? s->last[0].seq : 0;
		uint64_t mx = s->nr_last ? s->last[s->nr_last - 1].seq : 0;

		fprintf(o->f, "  %s node %d: %" PRIu64 " snapshots; max_seq %" PRIu64 " -> %"
			PRIu64 " (%" PRIu64 " generations made), min_seq %" PRIu64 " -> %" PRIu64
			" (%" PRIu64 " evicted whole)\n", rs_escape(esc, sizeof(esc), s->cg),
			s->nid, s->snapshots, s->first_max_seq, mx, mx >= s->first_max_seq ?
			mx - s->first_max_seq : 0, s->first_min_seq, mn,
			mn >= s->first_min_seq ? mn - s->first_min_seq : 0);
		fprintf(o->f, "    last, oldest first (seq:age ms:anon:file pages):");
		for (int j = 0; j < s->nr_last; j++)
			fprintf(o->f, " %" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64,
				s->last[j].seq, s->last[j].age_ms, s->last[j].anon,
				s->last[j].file);
		fputc('\n', o->f);
	}
	if (g->nr > 8)
		fprintf(o->f, "  ... %d more memcg/node series in the JSON\n", g->nr - 8);
}

/*
 * Whether a node's row has anything to show. shrink_inactive_list() returns before its
 * tracepoint when the isolation took nothing, so such an isolate never learns its node: on
 * node ? it counts only with pages, else its row would be all zeros.
 */
static bool lru_row_shown(const struct rs_lru_counts *c, bool node_known)
{
	bool isolated = node_known ? c->isolates : c->scanned || c->taken;

	return isolated || c->inactive_shrinks || c->active_shrinks || c->write_anon ||
	       c->write_file;
}

static const struct rs_text_col lru_cols[] = {
	{ -4, "", "node" }, { -13, "", "list" }, { -9, "", "context" },
	{ 11, "scanned", "pages" }, { 11, "taken", "pages" }, { 11, "reclaimed", "pages" },
	{ 6, "eff.", "%" }, { 12, "velocity", "pages/s" }, { 9, "written", "folios" },
};

static void section_lru(struct out *o)
{
	const struct rs_analysis *a = o->a;
	int unknown_rows = 0;
	char node[16];

	if (o->untraced && o->mglru) {
		static const char note[] = "not traced: reclaim ran, and this kernel's MGLRU "
			"emitted no lru_isolate nor lru_shrink_inactive (MGLRU reuses them from "
			"6.7 on): pages scanned and reclaimed per type, their outcomes, the scan "
			"balance and the priorities are unknown, not 0.";

		heading(o, "EVICTION BY TYPE (MGLRU)");
		rs_report_put_wrapped(o->f, note, sizeof(note) - 1);
		mglru_gens_lines(o);
		return;
	}
	if (o->untraced) {
		static const char note[] = "not in the trace: reclaim ran (kswapd woke, or an "
			"episode began) and the trace has no lru_isolate nor lru_shrink_inactive: "
			"MGLRU before 6.7 emits neither, and nothing here tells which LRU ran (a "
			"plain trace-cmd recording has no marker), or they were not recorded. Pages "
			"scanned and reclaimed per list, their outcomes, the scan balance and the "
			"priorities are unknown, not 0.";

		heading(o, "EVICTION (lru_isolate, lru_shrink_inactive)");
		rs_report_put_wrapped(o->f, note, sizeof(note) - 1);
		return;
	}
	if (o->mglru)
		heading(o, "EVICTION BY TYPE (MGLRU: lru_isolate of the oldest generation, "
			   "lru_shrink_inactive of evict_folios(), write_folio; efficiency = "
			   "reclaimed / scanned)");
	else
		heading(o, "LRU SCAN PRESSURE (lru_isolate, lru_shrink_inactive, write_folio; "
			   "efficiency = reclaimed / scanned)");
	RS_TEXT_HEADING(o->f, lru_cols);
	for (int l = 0; l < RS_NR_LISTS; l++) {
		struct rs_lru_counts c;

		rs_analysis_lru_sum(a, -1, l, -1, -1, &c);
		if (l >= RS_LRU_UNEVICTABLE && !c.isolates && !c.inactive_shrinks &&
		    !c.write_anon && !c.write_file)
			continue;
		if (mglru_skip(o, l) && !c.isolates && !c.active_shrinks)
			continue;
		lru_row(o, "all", l, "all", &c);
		for (int n = 0; n < rs_analysis_nr_node_slots(a); n++) {
			if (!rs_analysis_node_used(a, n))
				continue;
			if (n)
				snprintf(node, sizeof(node), "%d", n - 1);
			for (int x = 0; x < RS_CTX_NR; x++) {
				rs_analysis_lru_sum(a, n, l, x, -1, &c);
				if (!lru_row_shown(&c, n))
					continue;
				lru_row(o, n ? node : "?", l, rs_ctx_name(x), &c);
				unknown_rows += !n;
			}
		}
	}
	if (unknown_rows)
		fprintf(o->f, "node ? = not known: an isolate with no shrink event after it, or a "
			"write outside one\n");
	if (o->mglru) {
		char line[600];
		int n = snprintf(line, sizeof(line), "MGLRU evicts by type (anon, file) from the "
				 "oldest generation, which lru_isolate names as that type's "
				 "inactive list; there are no active lists. Aging (folios moving to "
				 "younger generations) emits no event: not traced. %" PRIu64
				 " lru_isolate took no page: scan_folios() moved every folio it "
				 "looked at to a younger generation (referenced, or being written) "
				 "instead of isolating it.", o->isolates_empty);

		rs_report_put_wrapped(o->f, line, n < (int)sizeof(line) ? (size_t)n :
				      sizeof(line) - 1);
	}
	mglru_gens_lines(o);
}

static void section_rotation(struct out *o)
{
	unsigned int lack = rs_analysis_lacks(o->a);
	char b[8][48];

	if (o->mglru)
		heading(o, "EVICTION OUTCOMES BY TYPE (MGLRU: lru_shrink_inactive of "
			   "evict_folios(), pages; written: write_folio sync/async, folios)");
	else
		heading(o, "INACTIVE LISTS (lru_shrink_inactive, pages; written: write_folio "
			   "sync/async, folios)");
	fprintf(o->f, "%-14s %10s %9s %10s %8s %9s %9s %9s %13s\n", "list", "activated",
		"kept-ref", "unmap-fail", "dirty", "writeback", "congested", "immediate",
		"written s/as");
	for (int l = 0; l < RS_NR_LISTS; l++) {
		struct rs_lru_counts c;
		char sa[40];

		if (!is_inactive(l))
			continue;
		rs_analysis_lru_sum(o->a, -1, l, -1, -1, &c);
		if (l == RS_LIST_UNKNOWN && !c.inactive_shrinks && !c.write_anon && !c.write_file)
			continue;
		snprintf(sa, sizeof(sa), "%s/%s", cnt(b[6], 6, c.write_sync),
			 cnt(b[7], 7, c.write_async));
		fprintf(o->f, "%-14s %10s %9s %10s %8s %9s %9s %9s %13s\n", list_label(o, l),
			opt_cnt(b[0], 10, c.activate_anon + c.activate_file, lack,
				RS_HAVE_ACTIVATE),
			opt_cnt(b[1], 9, c.ref_keep, lack, RS_HAVE_REF_KEEP),
			opt_cnt(b[2], 10, c.unmap_fail, lack, RS_HAVE_UNMAP_FAIL),
			opt_cnt(b[3], 8, c.dirty, lack, RS_HAVE_DIRTY),
			opt_cnt(b[4], 9, c.writeback, lack, RS_HAVE_WRITEBACK),
			opt_cnt(b[5], 9, c.congested, lack, RS_HAVE_CONGESTED),
			opt_cnt(b[6], 9, c.immediate, lack, RS_HAVE_IMMEDIATE), sa);
	}
	if (lack & (RS_LACK_FIELDS & ~RS_HAVE_SKIPPED))
		fprintf(o->f, "- = not traced by this kernel (no lru_shrink_inactive field for it)\n");
	if (o->mglru) {
		heading(o, "ACTIVE LISTS: none under MGLRU (generations instead; their aging is not "
			   "traced)");
		return;
	}
	heading(o, "ACTIVE LISTS (lru_shrink_active, pages)");
	fprintf(o->f, "%-14s %12s %12s %12s %12s\n", "list", "taken", "kept-active", "deactivated",
		"referenced");
	for (int l = RS_LRU_ACTIVE_ANON; l <= RS_LRU_ACTIVE_FILE; l += 2) {
		struct rs_lru_counts c;

		rs_analysis_lru_sum(o->a, -1, l, -1, -1, &c);
		fprintf(o->f, "%-14s %12s %12s %12s %12s\n", list_name(l),
			cnt(b[0], 12, c.active_taken), cnt(b[1], 12, c.active_kept),
			cnt(b[2], 12, c.deactivated), cnt(b[3], 12, c.referenced));
	}
}

static void balance_row(struct out *o, const char *name, int ctx)
{
	struct rs_lru_counts l[RS_NR_LISTS];
	uint64_t anon, file, inact, recl;
	char b[7][48];

	for (int i = 0; i < RS_NR_LISTS; i++)
		rs_analysis_lru_sum(o->a, -1, i, ctx, -1, &l[i]);
	anon = l[RS_LRU_INACTIVE_ANON].scanned + l[RS_LRU_ACTIVE_ANON].scanned;
	file = l[RS_LRU_INACTIVE_FILE].scanned + l[RS_LRU_ACTIVE_FILE].scanned;
	inact = l[RS_LRU_INACTIVE_ANON].scanned + l[RS_LRU_INACTIVE_FILE].scanned;
	recl = l[RS_LRU_INACTIVE_ANON].reclaimed + l[RS_LRU_INACTIVE_FILE].reclaimed;
	if (!anon && !file && ctx >= 0)
		return;
	fprintf(o->f, "%-10s %12s %7s %7s %12s %12s %7s %14s\n", name, cnt(b[0], 12, anon + file),
		real(b[1], 7, 1, rs_pct(anon, anon + file)),
		real(b[2], 7, 1, rs_pct(file, anon + file)),
		cnt(b[3], 12, inact), cnt(b[4], 12, recl), real(b[5], 7, 1, rs_pct(recl, inact)),
		real(b[6], 14, 1, o->secs > 0 ? (double)(anon + file) / o->secs : 0));
}

/*
 * reclaim_pages() (MADV_PAGEOUT, DAMON) isolates with no lru_isolate and reports no list nor
 * priority: its pages are in none of the rows above, and without this row the text would not
 * show them at all (on a madvise-heavy trace a fifth of all reclaim).
 */
static void reclaim_pages_row(struct out *o)
{
	struct rs_lru_counts sum = { 0 };
	char b[4][48];

	for (int x = 0; x < RS_CTX_NR; x++)
		rs_lru_counts_add(&sum, rs_analysis_reclaim_pages(o->a, x));
	if (!sum.inactive_shrinks)
		return;
	fprintf(o->f, "%-13s %9s %7s %7s %12s %12s %7s %14s\n", "reclaim_pages",
		cnt(b[0], 9, sum.inactive_scanned), "-", "-", "-", cnt(b[1], 12, sum.reclaimed),
		real(b[2], 7, 1, rs_pct(sum.reclaimed, sum.inactive_scanned)),
		real(b[3], 14, 1, o->secs > 0 ? (double)sum.inactive_scanned / o->secs : 0));
	fprintf(o->f, "reclaim_pages = %" PRIu64 " mm_vmscan_reclaim_pages (MADV_PAGEOUT, DAMON), "
		"not in the rows above\n", sum.inactive_shrinks);
}

static const struct rs_text_col balance_cols[] = {
	{ -10, "", "context" }, { 12, "scanned", "pages" }, { 7, "anon", "%" }, { 7, "file", "%" },
	{ 12, "inactive", "pages" }, { 12, "reclaimed", "pages" }, { 7, "eff.", "%" },
	{ 14, "velocity", "pages/s" },
};

static void section_balance(struct out *o)
{
	heading(o, "SCAN BALANCE BY CONTEXT (efficiency = reclaimed / inactive scanned, as "
		   "MMTests)");
	RS_TEXT_HEADING(o->f, balance_cols);
	balance_row(o, "all", -1);
	for (int x = 0; x < RS_CTX_NR; x++)
		balance_row(o, rs_ctx_name(x), x);
	reclaim_pages_row(o);
}

static void section_priority(struct out *o)
{
	heading(o, "PRIORITY (share of each row's scanned pages by reclaim priority, %; "
		   "? = unknown)");
	fprintf(o->f, "%-24s", "list / context");
	for (int p = RS_PRIO_DEF; p >= 0; p--)
		fprintf(o->f, " %4d", p);
	fprintf(o->f, " %4s\n", "?");
	for (int l = 0; l < RS_NR_LISTS; l++) {
		for (int x = -1; x < RS_CTX_NR; x++) {
			struct rs_lru_counts t, c;
			char label[40], b[16];

			rs_analysis_lru_sum(o->a, -1, l, x, -1, &t);
			if (!t.scanned)
				continue;
			snprintf(label, sizeof(label), "%s %s", list_label(o, l),
				 x < 0 ? "all" : rs_ctx_name(x));
			fprintf(o->f, "%-24s", label);
			for (int i = 0; i < RS_NR_PRIO; i++) {
				int p = i < RS_NR_PRIO - 1 ? RS_PRIO_DEF - i : RS_PRIO_UNKNOWN;
				double v;

				rs_analysis_lru_sum(o->a, -1, l, x, p, &c);
				v = rs_pct(c.scanned, t.scanned);
				if (!c.scanned)
					fprintf(o->f, " %4s", ".");
				else if (v < 0.5)
					fprintf(o->f, " %4s", "<1");
				else
					fprintf(o->f, " %4s", real(b, 4, 0, v));
			}
			fputc('\n', o->f);
		}
	}
}

typedef const char *(*kind_cell_fn)(char *buf, const struct rs_latency_summary *l, int i);

static const char *pct_cell(char *buf, const struct rs_latency_summary *l, int i)
{
	return real(buf, 8, 3, ms(l->pct[i]));
}

static const char *mmtests_cell(char *buf, const struct rs_latency_summary *l, int i)
{
	return cnt(buf, 9, l->mmtests[i]);
}

/* A row per reclaim kind that had episodes: its name, then n cells `w` wide. */
static void kind_rows(struct out *o, int n, int w, kind_cell_fn cell)
{
	char b[48];

	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_episode_stats *e = rs_analysis_episode_stats(o->a, k);

		if (!e->count)
			continue;
		fprintf(o->f, "%-10s", rs_reclaim_kind_name(k));
		for (int i = 0; i < n; i++)
			fprintf(o->f, " %*s", w, cell(b, &e->latency, i));
		fputc('\n', o->f);
	}
}

static const struct rs_text_col episodes_cols[] = {
	{ -10, "", "kind" }, { 7, "count", "" }, { 11, "reclaimed", "pages" }, { 8, "min", "ms" },
	{ 8, "p50", "ms" }, { 8, "p90", "ms" }, { 8, "p99", "ms" }, { 8, "max", "ms" },
	{ 8, "mean", "ms" }, { 10, "total", "ms" },
};

static void section_episodes(struct out *o)
{
	bool any = false;
	char b[12][48];

	heading(o, "RECLAIM EPISODES (complete: begin and end seen; latency = end - begin)");
	RS_TEXT_HEADING(o->f, episodes_cols);
	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_episode_stats *e = rs_analysis_episode_stats(o->a, k);
		const struct rs_latency_summary *l = &e->latency;

		fprintf(o->f, "%-10s %7s %11s", rs_reclaim_kind_name(k), cnt(b[0], 7, e->count),
			cnt(b[1], 11, e->reclaimed));
		if (!e->count) {
			fprintf(o->f, " %8s %8s %8s %8s %8s %8s %10s\n", "-", "-", "-", "-", "-",
				"-", "-");
			continue;
		}
		any = true;
		fprintf(o->f, " %8s %8s %8s %8s %8s %8s %10s%s\n", real(b[2], 8, 3, ms(l->min)),
			real(b[3], 8, 3, ms(l->pct[4])), real(b[4], 8, 3, ms(l->pct[6])),
			real(b[5], 8, 3, ms(l->pct[8])), real(b[6], 8, 3, ms(l->max)),
			real(b[7], 8, 3, l->mean / 1e6), real(b[8], 10, 2, ms(l->total)),
			l->approximate ? " ~" : "");
	}
	if (any) {
		fprintf(o->f, "\n%-10s", "percentile");
		for (int i = 0; i < RS_LAT_NR_PCT; i++) {
			char k[8];

			snprintf(k, sizeof(k), "p%d", rs_lat_pcts[i]);
			fprintf(o->f, " %8s", k);
		}
		fprintf(o->f, "  (ms)\n");
		kind_rows(o, RS_LAT_NR_PCT, 8, pct_cell);
		fprintf(o->f, "\n%-10s %9s %9s %9s %9s %9s %9s %9s\n", "MMTests", "[0,5)",
			"[5,10)", "[10,100)", "[100,500)", "[500,1k)", "[1k,5k)", "[5k,inf)");
		fprintf(o->f, "%-10s %9s %9s %9s %9s %9s %9s %9s  (ms: episodes)\n", "buckets", "",
			"", "", "", "", "", "");
		kind_rows(o, RS_MMT_NR, 9, mmtests_cell);
	}
	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_episode_stats *e = rs_analysis_episode_stats(o->a, k);
		uint64_t inc = 0;

		for (int s = 1; s < RS_EP_NR_STATUS; s++)
			inc += e->status[s];
		if (inc || e->broken_by_lost_events)
			fprintf(o->f, "%s: not in the latencies: %" PRIu64 " cut at start, %" PRIu64
				" cut at end (%.3f ms inside the trace), %" PRIu64 " ends without "
				"begin, %" PRIu64 " begins without end; %" PRIu64 " pages by "
				"unpaired ends; %" PRIu64 " open while events were lost\n",
				rs_reclaim_kind_name(k), e->status[RS_EP_CUT_START],
				e->status[RS_EP_CUT_END], ms(e->partial_ns),
				e->status[RS_EP_UNMATCHED_END], e->status[RS_EP_MISSED_END],
				e->reclaimed_unpaired, e->broken_by_lost_events);
		for (int p = 0; p < RS_CTX_NR && k == RS_RK_SOFTLIMIT; p++)
			if (e->by_parent[p])
				fprintf(o->f, "softlimit inside %s: %" PRIu64 " episodes, "
					"%.3f ms\n", rs_ctx_name(p), e->by_parent[p],
					ms(e->by_parent_ns[p]));
	}
}

static int task_cmp(const void *x, const void *y)
{
	const struct rs_task_stats *a = *(const struct rs_task_stats *const *)x;
	const struct rs_task_stats *b = *(const struct rs_task_stats *const *)y;

	if (a->stalled_ns != b->stalled_ns)
		return a->stalled_ns < b->stalled_ns ? 1 : -1;
	if (a->scanned != b->scanned)
		return a->scanned < b->scanned ? 1 : -1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* " direct 9:12 0:3" for the non-zero orders of one counter set; appended to line. */
static void orders_append(char *line, size_t n, const char *what, const uint32_t *v)
{
	size_t len = strlen(line);
	bool first = true;

	for (int i = 0; i < RS_NR_ORDER; i++) {
		if (!v[i])
			continue;
		if (i == RS_NR_ORDER - 1)
			snprintf(line + len, n - len, "%s%s other:%u", first ? "  " : "",
				 first ? what : "", v[i]);
		else
			snprintf(line + len, n - len, "%s%s %d:%u", first ? "  " : "",
				 first ? what : "", i, v[i]);
		len = strlen(line);
		first = false;
	}
}

static const struct rs_text_col tasks_cols[] = {
	{ -7, "", "pid" }, { -15, "", "comm" }, { 6, "direct", "" }, { 6, "memcg", "" },
	{ 6, "soft", "" }, { 5, "node", "" }, { 6, "wakeup", "kswapd" }, { 9, "scanned", "pages" },
	{ 9, "reclaimed", "pages" }, { 11, "write s/as", "folios" }, { 9, "stalled", "ms" },
};

static void section_tasks(struct out *o, int top)
{
	int n = rs_analysis_nr_tasks(o->a), m = 0;
	const struct rs_task_stats **v = calloc(n ? n : 1, sizeof(*v));
	char b[10][48];

	if (!v)
		return;
	for (int i = 0; i < n; i++)
		if (rs_analysis_task(o->a, i)->active)
			v[m++] = rs_analysis_task(o->a, i);
	qsort(v, m, sizeof(*v), task_cmp);
	fprintf(o->f, "\nTASKS (%d with reclaim activity%s; by time stalled; stalled = complete "
		"episodes not nested%s)\n", m, m > top ? ", top rows only: --json has all" : "",
		o->untraced ? "; pages scanned and reclaimed not traced" : "");
	RS_TEXT_HEADING(o->f, tasks_cols);
	for (int i = 0; i < m && i < top; i++) {
		const struct rs_task_stats *t = v[i];
		char line[256] = "", io[40];

		snprintf(io, sizeof(io), "%s/%s", cnt(b[7], 4, t->write_sync),
			 cnt(b[8], 6, t->write_async));
		fprintf(o->f, "%-7d %-15s %6s %6s %6s %5s %6s %9s %9s %11s %9s\n", t->pid,
			rs_esc(t->comm), cnt(b[0], 6, t->episodes[RS_RK_DIRECT]),
			cnt(b[1], 6, t->episodes[RS_RK_MEMCG]),
			cnt(b[2], 6, t->episodes[RS_RK_SOFTLIMIT]),
			cnt(b[3], 5, t->episodes[RS_RK_NODE]), cnt(b[4], 6, t->wakeup_kswapd),
			o->untraced ? "-" : cnt(b[5], 9, t->scanned),
			o->untraced ? "-" : cnt(b[6], 9, t->reclaimed), io,
			real(b[9], 9, 3, ms(t->stalled_ns)));
		for (int k = 0; k < RS_RK_NR; k++)
			orders_append(line, sizeof(line), rs_reclaim_kind_name(k),
				      t->begun_by_order[k]);
		orders_append(line, sizeof(line), "wakeup", t->wakeup_by_order);
		if (*line)
			fprintf(o->f, "%-7s orders:%.*s\n", "", 84, line + 1);
	}
	free(v);
}

/* The 7.x kswapd events: runs with their own reclaimed pages, failures, hopeless, clears. */
static void kswapd_health_lines(struct out *o)
{
	const struct rs_kswapd_health *h = rs_analysis_kswapd_health(o->a);

	if (!h->seen)
		return;		/* before 7.x, or kswapd never ran */
	for (int i = 0; i < h->nr_nodes; i++) {
		const struct rs_kswapd_node_health *n = &h->nodes[i];
		int shown = 0;

		fprintf(o->f, "node %d: %" PRIu64 " balance_pgdat runs (%.3f s), reclaimed %" PRIu64
			" pages, %" PRIu64 " runs reclaimed nothing", n->nid, n->runs,
			rs_ns_to_s(n->run_ns), n->reclaimed, n->runs_reclaimed_nothing);
		if (n->runs_unfinished || n->runs_ended_unbegun)
			fprintf(o->f, " (%" PRIu64 " cut by the trace)",
				n->runs_unfinished + n->runs_ended_unbegun);
		fprintf(o->f, "\n  health: %" PRIu64 " reclaim_fail (failures up to %d; hopeless at "
			"%d), hopeless %" PRIu64 " times for %.3f s, %" PRIu64 " clear_hopeless",
			n->reclaim_fail, n->max_failures, RS_KSWAPD_MAX_FAILURES, n->hopeless,
			rs_ns_to_s(n->hopeless_ns), n->clears);
		for (int r = 0; r <= RS_HOPELESS_NR; r++)
			if (n->clears_by_reason[r])
				fprintf(o->f, "%s %s %" PRIu64, shown++ ? "," : ":",
					r < RS_HOPELESS_NR ? rs_hopeless_reason_name(r) : "unknown",
					n->clears_by_reason[r]);
		fputc('\n', o->f);
		for (int j = 0, lines = 0; j < n->nr_timeline && lines < 8; j++) {
			const struct rs_health_entry *e = &n->timeline[j];

			if (e->kind == RS_HEALTH_FAIL)
				continue;
			lines++;
			if (e->kind == RS_HEALTH_HOPELESS)
				fprintf(o->f, "  %12.6f s  hopeless: %d runs in a row reclaimed "
					"nothing\n", rs_ns_to_s(e->ts), e->value);
			else
				fprintf(o->f, "  %12.6f s  cleared by %s after %d failures\n",
					rs_ns_to_s(e->ts), rs_hopeless_reason_name(e->value),
					e->failures_before);
		}
	}
}

static void section_kswapd(struct out *o)
{
	const struct rs_episode_stats *e = rs_analysis_episode_stats(o->a, RS_CTX_KSWAPD);
	uint64_t by[RS_NR_ORDER];
	uint64_t n = rs_analysis_wakeup_kswapd(o->a, by);

	heading(o, "KSWAPD (awake = kswapd_wake .. kswapd_sleep; re-wake = kswapd_wake while "
		   "awake)");
	for (int i = 0; i < rs_analysis_nr_kswapd(o->a); i++) {
		const struct rs_kswapd_stats *k = rs_analysis_kswapd(o->a, i);
		const struct rs_task_stats *t = rs_analysis_kswapd_task(o->a, i);
		char line[256] = "";
		uint32_t w[RS_NR_ORDER], r[RS_NR_ORDER];

		/* awake is all of it: complete periods and the parts of cut ones in the trace */
		fprintf(o->f, "%s (pid %d, node %d): %" PRIu64 " wakes, %" PRIu64 " re-wakes, %"
			PRIu64 " sleeps\n", rs_esc(t->comm), t->pid, k->nid, k->wakes, k->rewakes,
			k->sleeps);
		fprintf(o->f, "  awake %.3f s: %.3f s in %" PRIu64 " complete periods, %.3f s in "
			"periods cut by the trace's start or end\n",
			rs_ns_to_s(k->awake_ns + k->awake_cut_ns), rs_ns_to_s(k->awake_ns),
			k->periods, rs_ns_to_s(k->awake_cut_ns));
		if (o->untraced)
			fprintf(o->f, "  scanned and reclaimed: not traced (%s); wrote %"
				PRIu64 " sync + %" PRIu64 " async folios\n",
				o->mglru ? "MGLRU before 6.7" : "no lru_isolate in the trace",
				t->write_sync, t->write_async);
		else
			fprintf(o->f, "  scanned %" PRIu64 " pages (%" PRIu64 " inactive), reclaimed %"
				PRIu64 " pages (%.1f%%), wrote %" PRIu64 " sync + %" PRIu64
				" async folios\n", t->scanned, t->scanned_inactive, t->reclaimed,
				rs_pct(t->reclaimed, t->scanned_inactive), t->write_sync,
				t->write_async);
		for (int j = 0; j < RS_NR_ORDER; j++) {
			w[j] = (uint32_t)k->wakes_by_order[j];
			r[j] = (uint32_t)k->rewakes_by_order[j];
		}
		orders_append(line, sizeof(line), "wakes", w);
		orders_append(line, sizeof(line), "re-wakes", r);
		if (*line)
			fprintf(o->f, "  orders:%.*s\n", 90, line + 1);
		if (k->unmatched_sleeps)
			fprintf(o->f, "  %" PRIu64 " sleeps without a wake (wake lost)\n",
				k->unmatched_sleeps);
	}
	if (!rs_analysis_nr_kswapd(o->a))
		fprintf(o->f, "no kswapd activity\n");
	kswapd_health_lines(o);
	if (e->count)
		fprintf(o->f, "awake periods: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, "
			"max %.3f ms%s\n",
			ms(e->latency.pct[4]), ms(e->latency.pct[6]), ms(e->latency.pct[8]),
			ms(e->latency.max), e->latency.approximate ? " (approximate)" : "");
	fprintf(o->f, "wakeup_kswapd requests: %" PRIu64, n);
	for (int j = 0; j < RS_NR_ORDER; j++)
		if (by[j] && j == RS_NR_ORDER - 1)
			fprintf(o->f, ", order other: %" PRIu64, by[j]);
		else if (by[j])
			fprintf(o->f, ", order %d: %" PRIu64, j, by[j]);
	fputc('\n', o->f);
	/* two or more nodes: whose kswapd they woke */
	if (n && rs_analysis_wakeup_kswapd_node(o->a, -1) + rs_analysis_wakeup_kswapd_node(o->a, 0) <
	    n) {
		const char *sep = " ";

		fprintf(o->f, "  by node:");
		for (int nid = 0; nid < rs_analysis_max_nodes(o->a); nid++) {
			if (!rs_analysis_wakeup_kswapd_node(o->a, nid))
				continue;
			fprintf(o->f, "%s%d: %" PRIu64, sep, nid,
				rs_analysis_wakeup_kswapd_node(o->a, nid));
			sep = ", ";
		}
		if (rs_analysis_wakeup_kswapd_node(o->a, -1))
			fprintf(o->f, "%sunknown: %" PRIu64, sep,
				rs_analysis_wakeup_kswapd_node(o->a, -1));
		fputc('\n', o->f);
	}
}

static void section_slab(struct out *o)
{
	struct rs_slab_stats sum = rs_analysis_slab_total(o->a);
	int n = rs_analysis_nr_shrinkers(o->a);
	const struct rs_shrinker_stats **v = rs_analysis_shrinkers_by_time(o->a);
	char b[4][48];

	heading(o, "SLAB SHRINKING (mm_shrink_slab_start .. _end; freed = shrink_slab_end.retval)");
	fprintf(o->f, "%-34s %10s %12s %14s %14s\n", "context / shrinker", "calls", "time ms",
		"freed objects", "to scan objects");
	for (int x = 0; x < RS_CTX_NR; x++) {
		const struct rs_slab_stats *s = rs_analysis_slab(o->a, x);

		if (s->calls || s->freed)
			fprintf(o->f, "%-34s %10s %12s %14s %14s\n", rs_ctx_name(x),
				cnt(b[0], 10, s->calls), real(b[1], 12, 3, ms(s->ns)),
				cnt(b[2], 14, s->freed), cnt(b[3], 14, s->to_scan));
	}
	fprintf(o->f, "%-34s %10s %12s %14s %14s\n", "all", cnt(b[0], 10, sum.calls),
		real(b[1], 12, 3, ms(sum.ns)), cnt(b[2], 14, sum.freed),
		cnt(b[3], 14, sum.to_scan));
	if (!v)
		return;
	for (int i = 0; i < n && i < 8; i++)
		fprintf(o->f, "  %-32.32s %10s %12s %14s %14s\n", rs_esc(v[i]->name),
			cnt(b[0], 10, v[i]->s.calls), real(b[1], 12, 3, ms(v[i]->s.ns)),
			cnt(b[2], 14, v[i]->s.freed), cnt(b[3], 14, v[i]->s.to_scan));
	free(v);
}

static void section_throttle_oom(struct out *o)
{
	const struct rs_throttle_stats *t = rs_analysis_throttle(o->a);
	uint64_t n = 0;

	heading(o, "THROTTLING (mm_vmscan_throttled) AND OOM KILLS (oom:mark_victim)");
	for (int r = 0; r < RS_NR_THROTTLE_REASONS; r++) {
		if (!t->count[r])
			continue;
		n += t->count[r];
		fprintf(o->f, "throttled %-10s %8" PRIu64 " times, %12.3f ms delayed, %12.3f ms "
			"timeout\n", rs_throttle_reason_name(r), t->count[r],
			(double)t->delayed_us[r] / 1000.0, (double)t->timeout_us[r] / 1000.0);
	}
	if (!n)
		fprintf(o->f, "no reclaim throttling\n");
	fprintf(o->f, "OOM kills: %" PRIu64 "\n", rs_analysis_oom_kills(o->a));
	for (int i = 0; i < rs_analysis_nr_oom_listed(o->a) && i < 10; i++) {
		const struct rs_oom_kill *k = rs_analysis_oom(o->a, i);

		fprintf(o->f, "  %.6f s  victim pid %d %s, by %s-%d\n", rs_ns_to_s(k->ts), k->pid,
			rs_esc(k->comm), rs_esc(k->by_comm), k->by_pid);
	}
}

/* One series line: label, sparkline, peak. `scale` turns a bucket sum into the unit shown. */
struct spark {
	const char *label;
	int m[4];			/* metrics summed, -1 ends */
	int den[3];			/* efficiency: divided by these metrics' sum, -1 ends */
	const char *unit;
	int kind;			/* 0 rate per s, 1 time fraction, 2 percent of den */
};

static void spark_line(struct out *o, const struct spark *sp)
{
	static const char *const utf[9] = {
		" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"
	};
	static const char ascii[9] = " .:-=+*##";
	const struct rs_series *s = rs_analysis_series(o->a);
	const struct rs_buckets bk = rs_series_buckets(s);
	size_t n = bk.len, w = n < SPARK_W ? n : SPARK_W;
	double width_s = rs_ns_to_s(bk.width), col[SPARK_W], peak = 0;
	char b[48];

	if (!n)
		return;
	for (size_t j = 0; j < w; j++) {
		size_t from = j * n / w, to = (j + 1) * n / w;
		double num = 0, den = 0;

		for (size_t i = from; i < to; i++) {
			for (int k = 0; k < 4 && sp->m[k] >= 0; k++)
				num += (double)rs_series_values(s, sp->m[k])[i];
			for (int k = 0; k < 3 && sp->den[k] >= 0; k++)
				den += (double)rs_series_values(s, sp->den[k])[i];
		}
		if (sp->kind == 2)
			col[j] = den > 0 ? 100.0 * num / den : 0;
		else if (sp->kind == 1)
			col[j] = num / ((double)(to - from) * width_s * 1e9);
		else
			col[j] = num / ((double)(to - from) * width_s);
		if (col[j] > peak)
			peak = col[j];
	}
	if (peak <= 0)
		return;
	fprintf(o->f, "%-16s ", sp->label);
	for (size_t j = 0; j < w; j++) {
		int lvl = col[j] > 0 ? (int)(col[j] / peak * 8.0 + 0.999) : 0;

		if (lvl > 8)
			lvl = 8;
		if (lvl < 0)
			lvl = 0;
		if (o->utf8)
			fputs(utf[lvl], o->f);
		else
			fputc(ascii[lvl], o->f);
	}
	for (size_t j = w; j < SPARK_W; j++)
		fputc(' ', o->f);
	fprintf(o->f, " peak %s %s\n", real(b, 7, sp->kind == 0 ? 1 : 2, peak), sp->unit);
}

static void section_timeline(struct out *o)
{
	static const struct spark lines[] = {
		{ "scanned", { RS_TS_SCANNED_IA, RS_TS_SCANNED_AA, RS_TS_SCANNED_IF,
			       RS_TS_SCANNED_AF }, { -1 }, "pages/s", 0 },
		{ "scanned anon", { RS_TS_SCANNED_IA, RS_TS_SCANNED_AA, -1 }, { -1 }, "pages/s",
		  0 },
		{ "scanned file", { RS_TS_SCANNED_IF, RS_TS_SCANNED_AF, -1 }, { -1 }, "pages/s",
		  0 },
		{ "reclaimed", { RS_TS_RECLAIMED_ANON, RS_TS_RECLAIMED_FILE, -1 }, { -1 },
		  "pages/s", 0 },
		{ "efficiency", { RS_TS_RECLAIMED_ANON, RS_TS_RECLAIMED_FILE, -1 },
		  { RS_TS_SCANNED_IA, RS_TS_SCANNED_IF, -1 }, "%", 2 },
		{ "scanned kswapd", { RS_TS_SCANNED_CTX + RS_CTX_KSWAPD, -1 }, { -1 }, "pages/s",
		  0 },
		{ "scanned direct", { RS_TS_SCANNED_CTX + RS_CTX_DIRECT, -1 }, { -1 }, "pages/s",
		  0 },
		{ "scanned memcg", { RS_TS_SCANNED_CTX + RS_CTX_MEMCG, -1 }, { -1 }, "pages/s", 0 },
		{ "scanned softlim", { RS_TS_SCANNED_CTX + RS_CTX_SOFTLIMIT, -1 }, { -1 },
		  "pages/s", 0 },
		{ "direct stall", { RS_TS_STALL_NS + RS_RK_DIRECT, -1 }, { -1 }, "tasks", 1 },
		{ "memcg stall", { RS_TS_STALL_NS + RS_RK_MEMCG, -1 }, { -1 }, "tasks", 1 },
		{ "softlimit stall", { RS_TS_STALL_NS + RS_RK_SOFTLIMIT, -1 }, { -1 }, "tasks", 1 },
		{ "node stall", { RS_TS_STALL_NS + RS_RK_NODE, -1 }, { -1 }, "tasks", 1 },
		{ "kswapd awake", { RS_TS_KSWAPD_AWAKE_NS, -1 }, { -1 }, "kswapds", 1 },
		{ "kswapd wakes", { RS_TS_KSWAPD_WAKES, -1 }, { -1 }, "wakes/s", 0 },
		{ "written", { RS_TS_WRITE, -1 }, { -1 }, "folios/s", 0 },
		{ "activated", { RS_TS_ACTIVATED, -1 }, { -1 }, "pages/s", 0 },
		{ "deactivated", { RS_TS_DEACTIVATED, -1 }, { -1 }, "pages/s", 0 },
		{ "slab freed", { RS_TS_SLAB_FREED, -1 }, { -1 }, "objects/s", 0 },
		{ "throttled", { RS_TS_THROTTLED, -1 }, { -1 }, "events/s", 0 },
		{ "oom kills", { RS_TS_OOM, -1 }, { -1 }, "kills/s", 0 },
	};
	const struct rs_series *s = rs_analysis_series(o->a);
	const struct rs_buckets bk = rs_series_buckets(s);
	size_t n = bk.len;

	fprintf(o->f, "\nOVER TIME (%zu buckets of %.6f s from %.6f s; each line scaled to its "
		"own peak)\n", n, rs_ns_to_s(bk.width), rs_ns_to_s(bk.t0));
	if (n > SPARK_W)
		fprintf(o->f, "(%zu buckets shown in %d columns; --json has every bucket)\n", n,
			SPARK_W);
	fprintf(o->f, "stall lines: average tasks in that episode kind; kswapd awake: average "
		"kswapds awake\n");
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		spark_line(o, &lines[i]);
}

static void section_attrib(struct out *o)
{
	const struct rs_attrib_stats *at = rs_analysis_attrib(o->a);

	heading(o, "ATTRIBUTION (how events were matched; docs/analyze.md)");
	fprintf(o->f, "lru_isolate: %" PRIu64 " completed by the task's next shrink event, %"
		PRIu64 " not (%" PRIu64 " pages scanned; priority unknown, node unknown outside "
		"kswapd)\n",
		at->isolates_completed, at->isolates_uncompleted, at->uncompleted_scanned);
	fprintf(o->f, "shrink events without isolate: %" PRIu64 "; write_folio outside an "
		"isolate: %" PRIu64 "; unpaired slab: %" PRIu64 " ends, %" PRIu64 " starts\n",
		at->shrinks_without_isolate, at->writes_without_isolate,
		at->slab_ends_without_start, at->slab_starts_unfinished);
	if (at->lost_event_records || at->untracked_events || at->nest_overflows ||
	    at->node_out_of_range || at->priority_out_of_range)
		fprintf(o->f, "lost: %" PRIu64 " records (%" PRIu64 " events); untracked task "
			"events %" PRIu64 "; nesting overflows %" PRIu64 "; node/priority out of "
			"range %" PRIu64 "/%" PRIu64 "\n", at->lost_event_records, at->lost_events,
			at->untracked_events, at->nest_overflows, at->node_out_of_range,
			at->priority_out_of_range);
}

/*
 * The trace header for a range: the loader counts events and losses on full reads only, so
 * say what is known (file, kernel, span, warnings) rather than print zero counts.
 */

static void report(FILE *f, const struct rs_analysis *a, const struct rs_source *src,
		   const struct rs_text_opts *opts)
{
	const struct rs_analysis_opts *ao = rs_analysis_opts(a);
	uint64_t t0 = rs_analysis_first_ts(a), t1 = rs_analysis_last_ts(a);
	struct out o = { .f = f, .a = a, .utf8 = opts && opts->utf8 };
	const struct rs_trace_info *ti = src ? rs_source_info(src) : NULL;

	o.mglru = ti && ti->mglru > 0;
	o.isolates_empty = ti ? ti->isolates_empty : 0;
	o.untraced = ti && ti->eviction_untraced;
	int top = opts && opts->top_tasks > 0 ? opts->top_tasks : 20;

	if (ao->from_ns && ao->from_ns < t0)
		t0 = ao->from_ns;
	o.secs = t1 > t0 ? rs_ns_to_s(t1 - t0) : 0;
	if (src && (ao->from_ns || ao->to_ns != UINT64_MAX))
		rs_report_range_text(f, src);
	else if (src)
		rs_report_trace_text(f, src, 0);
	fprintf(f, "analysed  %.6f s .. %.6f s (%.3f s), %" PRIu64 " events of known kinds",
		rs_ns_to_s(t0), rs_ns_to_s(t1), o.secs, rs_analysis_events(a));
	if (ao->pid >= 0 || ao->comm) {
		fprintf(f, "; only tasks with");
		if (ao->pid >= 0)
			fprintf(f, " pid %d", ao->pid);
		if (ao->comm)
			fprintf(f, "%s comm %s", ao->pid >= 0 ? " and" : "", rs_esc(ao->comm));
	}
	fputc('\n', f);
	if (opts && opts->findings)
		rs_findings_text(f, opts->findings, opts->with_cgroups);
	if (opts && opts->summary_only)
		return;
	section_lru(&o);
	if (!o.untraced) {
		section_rotation(&o);
		section_balance(&o);
		section_priority(&o);
	}
	section_episodes(&o);
	section_tasks(&o, top);
	section_kswapd(&o);
	section_slab(&o);
	section_throttle_oom(&o);
	section_timeline(&o);
	section_attrib(&o);
}

void rs_analysis_text(FILE *f, const struct rs_analysis *a, const struct rs_source *src,
		      const struct rs_text_opts *opts)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);

	if (!m) {
		report(f, a, src, opts);	/* unwrapped rather than nothing */
		return;
	}
	report(m, a, src, opts);
	if (fclose(m) != 0) {
		free(buf);
		report(f, a, src, opts);
		return;
	}
	rs_report_put_wrapped_lines(f, buf, size);
	free(buf);
}
