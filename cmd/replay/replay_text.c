// SPDX-License-Identifier: GPL-2.0
/*
 * `replay` as text: identity first (the identity policy against the recording, per list and
 * per cgroup, with the error and the target), then every policy per list, per cgroup, rounds
 * and priorities, with the difference from the recording and the open-loop caveat; with
 * --inputs, the reconstruction and the events each part came from. docs/replay.md explains
 * every column. At most 100 columns.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "replay_output.h"
#include "report.h"
#include "text_escape.h"

#define U(v) ((unsigned long long)(v))

static const char *const short_list[RS_NR_EVICTABLE] = { "inactive_anon", "active_anon",
						     "inactive_file", "active_file" };

#define WIDTH 100

/* A line being built, printed wrapped at WIDTH columns with its continuation indent. */
struct line {
	char buf[2048];
	size_t n;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->buf + l->n, sizeof(l->buf) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += (size_t)k < sizeof(l->buf) - l->n ? (size_t)k : sizeof(l->buf) - l->n - 1;
}

/* Print the line wrapped at spaces; continuation lines start with `indent` spaces. */
static void flush(FILE *f, struct line *l, int indent)
{
	const char *p = l->buf;
	int col0 = 0;

	while (*p) {
		size_t len = strlen(p), room = (size_t)(WIDTH - col0), cut;

		if (len <= room) {
			fprintf(f, "%*s%s\n", col0, "", p);
			break;
		}
		for (cut = room; cut > 0 && p[cut] != ' '; cut--)
			;
		if (!cut)	/* one word longer than the line: break it */
			cut = room;
		fprintf(f, "%*s%.*s\n", col0, "", (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		col0 = indent;
	}
	l->n = 0;
	l->buf[0] = '\0';
}

/* One wrapped line in one call. */
static void out(FILE *f, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void out(FILE *f, int indent, const char *fmt, ...)
{
	struct line l = { .n = 0 };
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(l.buf, sizeof(l.buf), fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	l.n = strlen(l.buf);
	flush(f, &l, indent);
}

const char *rs_replay_cgroup_name(const struct rs_replay_report *r, int memcg)
{
	return r->w ? rs_world_memcg(r->w, memcg)->path : "?";
}

/* A path in `width` columns: its tail after ".." when longer (children differ at the end). */
static const char *cg_col(const char *path, int width, char *buf, size_t n)
{
	size_t len = strlen(path);

	if (len <= (size_t)width)
		return path;
	snprintf(buf, n, "..%s", path + len - (size_t)(width - 2));
	return buf;
}

static void err_text(char *buf, size_t n, uint64_t rec, double e)
{
	if (!rec)
		snprintf(buf, n, "-");
	else if (e >= 1000.0 || e <= -1000.0)	/* fits the column: +3784% */
		snprintf(buf, n, "%+.0f%%", e);
	else
		snprintf(buf, n, "%+.1f%%", e);
}

/* A sub-table's head: rows of a cgroup's or a node's lists (`who`: its column's title). */
static void sub_head(FILE *f, const char *who)
{
	fprintf(f, "  %-16s %-13s %9s %9s %7s %9s %9s %7s %s\n", who, "list", "rec scan", "scanned",
		"error", "rec recl", "reclaimed", "error", "check");
}

/* A row of a sub-table: one list of the cgroup or node `who`. */
static void sub_row(FILE *f, const char *who, int l, const struct rs_identity_list *il)
{
	char e1[16], e2[16];

	err_text(e1, sizeof(e1), il->rec_scanned, il->scanned_err);
	err_text(e2, sizeof(e2), il->rec_reclaimed, il->reclaimed_err);
	fprintf(f, "  %-16s %-13s %9llu %9llu %7s %9llu %9llu %7s %s\n", who, short_list[l],
		U(il->rec_scanned), U(il->model_scanned), e1, U(il->rec_reclaimed),
		U(il->model_reclaimed), e2, rs_identity_verdict_name(il->verdict));
}

/* Per node, the lists of the calls of one kind, under `title`; nothing when there are none. */
static void node_rows(FILE *f, const char *title, const struct rs_identity_node *nodes, int n)
{
	char who[64];

	if (n) {
		out(f, 2, "%s", title);
		sub_head(f, "node (calls)");
	}
	for (int k = 0; k < n; k++) {
		snprintf(who, sizeof(who), "%d (%llu)", nodes[k].nid, U(nodes[k].calls));
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			const struct rs_identity_list *il = &nodes[k].list[l];

			if (il->rec_scanned || il->model_scanned)
				sub_row(f, who, l, il);
		}
	}
}

/* Why lists are not claimed: per input the trace lacks, what it is and the pages concerned. */
static void gaps_text(FILE *f, const struct rs_replay_report *r)
{
	const struct rs_identity *id = r->id;

	for (int g = 0; g < RS_GAP_NR; g++) {
		char line[256];
		size_t n = 0;

		if (!(id->gap_mask & (1u << g)))
			continue;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			uint64_t all = r->rec->acct.scanned[l], in = id->gaps[0].scanned[g][l];

			if (all < RS_IDENTITY_MIN_SCANNED || !in || n >= sizeof(line))
				continue;
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %.0f%%",
					      n ? ", " : "", short_list[l],
					      100.0 * (double)in / (double)all);
		}
		out(f, 4, "  lacks %s: %s; the calls that need it scanned %s of the recorded pages",
		    rs_gap_name((enum rs_gap)g), rs_gap_missing((enum rs_gap)g),
		    n ? line : "none");
	}
}

/* (model - rec) / rec as "+1.2%", "-" without a recorded figure */
static const char *pct_text(uint64_t model, uint64_t rec)
{
	static char buf[32];

	if (!rec)
		return "-";
	snprintf(buf, sizeof(buf), "%+.1f%%", rs_replay_err_pct(model, rec));
	return buf;
}

/* Which compact_gap() the runs' order drops at, and why (include/compact_gap.h) */
static void compact_gap_text(FILE *f, const struct rs_gap_rule *g,
			     const struct rs_gap_evidence *e)
{
	const char *rule = g->capped ? "min(2 << order, 32)" : "2 << order";

	if (g->from == RS_GAP_FROM_TRACE) {
		out(f, 2, "kswapd ends: the order drops to 0 at compact_gap(order) = %s: from %llu "
		    "balance_pgdat runs that tell (begun at order > 0, reclaimed 32 to 2 << order "
		    "- 1 pages, balance_pgdat_end at order %s)", rule,
		    U(g->capped ? e->capped : e->uncapped), g->capped ? "0" : "unchanged");
		return;
	}
	if (g->from == RS_GAP_FROM_RELEASE) {
		out(f, 2, "kswapd ends: the order drops to 0 at compact_gap(order) = %s: kernel "
		    "%d.%d (capped from 7.2)%s", rule, g->major, g->minor, g->disagree
		    ? "; the trace's runs disagree" : "; no balance_pgdat run tells");
	} else {
		out(f, 2, "kswapd ends: the order drops to 0 at compact_gap(order) = %s: no kernel "
		    "release; the trace has %s", rule, e->runs ? "balance_pgdat events (7.x)"
		    : "no balance_pgdat events (before 7.x)");
	}
	if (g->disagree)
		out(f, 2, "kswapd ends: of the balance_pgdat runs that tell, %llu ended at order 0, "
		    "%llu at their order", U(e->capped), U(e->uncapped));
}

/* Where kswapd's runs end: from the zones, or the recording's (no zone_stat). */
static void kswapd_ends_text(FILE *f, const struct rs_kswapd_ends *k, const struct rs_gap_rule *g,
			     const struct rs_gap_evidence *e)
{
	if (!k->runs)
		return;
	if (!k->zone_samples) {
		out(f, 2, "kswapd ends: where each recorded run was balanced; the trace has no "
		    "zone_stat (per-zone free pages and watermarks, docs/markers.md) for "
		    "pgdat_balanced()");
		return;
	}
	out(f, 2, "kswapd ends: pgdat_balanced() on %zu zone_stat samples: %llu of %llu runs end "
	    "where the recorded run did (no check before its end balanced; the end itself "
	    "balanced in %llu), %llu end earlier, %llu have no sample around them (the recorded "
	    "end); pages freed to the derived ends %llu of %llu recorded (%s)", k->zone_samples,
	    U(k->how[RS_KEND_AT_END] + k->how[RS_KEND_NOT_EARLIER]), U(k->runs),
	    U(k->how[RS_KEND_AT_END]), U(k->how[RS_KEND_EARLY]), U(k->how[RS_KEND_RECORDED]),
	    U(k->derived_freed), U(k->rec_freed), pct_text(k->derived_freed, k->rec_freed));
	compact_gap_text(f, g, e);
	if (k->flow)
		out(f, 2, "kswapd ends: %llu of those runs from the buddy flow at every check "
		    "(zone_stat + the kmem events since, record --zone-flow); the others from the "
		    "samples around each check", U(k->flow));
	if (k->flow_lost)
		out(f, 2, "kswapd ends: %llu runs from the samples because events were lost between "
		    "a check and the zone_stat sample before it: the buddy flow since is not whole",
		    U(k->flow_lost));
	if (k->no_pcp)
		out(f, 2, "kswapd ends: the estimate lacks the per-cpu lists for %llu runs (zone_stat "
		    "without pcp= and pcp_high=): freed pages waiting there count as free",
		    U(k->no_pcp));
}

static void identity_text(FILE *f, const struct rs_replay_report *r)
{
	const struct rs_identity *id = r->id;
	char e1[16], e2[16], cgb[64];

	out(f, 2, "\nIDENTITY (%s against the recording; target: within %.0f%% on every list "
	    "with >= %d pages scanned)", id->policy->name, RS_IDENTITY_TARGET_PCT,
	    RS_IDENTITY_MIN_SCANNED);
	fprintf(f, "%-14s %11s %9s %11s %7s %11s %11s %7s %s\n", "list", "rec scanned",
		"rec taken", "scanned", "error", "rec reclaim", "reclaimed", "error", "check");
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		const struct rs_identity_list *il = &id->list[l];

		err_text(e1, sizeof(e1), il->rec_scanned, il->scanned_err);
		err_text(e2, sizeof(e2), il->rec_reclaimed, il->reclaimed_err);
		fprintf(f, "%-14s %11llu %9llu %11llu %7s %11llu %11llu %7s %s\n", short_list[l],
			U(il->rec_scanned), U(r->in->taken[l]), U(il->model_scanned), e1,
			U(il->rec_reclaimed), U(il->model_reclaimed), e2,
			rs_identity_verdict_name(il->verdict));
	}
	if (!id->per_cgroup) {
		out(f, 2, "per cgroup: not checked: %llu of %llu shrink windows name no memcg (no "
		    "memcg event matched them), so the recording counts their pages in the root "
		    "where the model puts them in the memcg it scanned", U(r->in->victim_none),
		    U(r->in->windows));
	} else {
		out(f, 2, "per cgroup (every list the recording scanned in the cgroup; checked from "
		    "%d pages):", RS_IDENTITY_MIN_SCANNED);
		sub_head(f, "cgroup");
	}
	for (int c = 0; id->per_cgroup && c < id->nr_memcg; c++) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			const struct rs_identity_list *il = rs_identity_memcg(id, c, l);

			if (!il->rec_scanned)
				continue;
			sub_row(f, cg_col(rs_replay_cgroup_name(r, c), 16, cgb, sizeof(cgb)), l, il);
		}
	}
	node_rows(f, "per node, the kswapd calls (each scans its own node; not in the counts below):",
		  id->kswapd_node, id->nr_kswapd_nodes);
	node_rows(f, "per node, the other calls (direct, memcg: each may scan every node; not in "
		  "the counts below):", id->call_node, id->nr_call_nodes);
	if (!id->claimed && !id->not_claimed)
		out(f, 2, "no list has %d pages scanned: identity not checked on this trace",
		    RS_IDENTITY_MIN_SCANNED);
	else if (id->claimed)
		out(f, 2, "%d of %d checked lists (whole trace and per cgroup) within %.0f%%%s",
		    id->within, id->claimed, RS_IDENTITY_TARGET_PCT, id->within == id->claimed ?
		    "" : " (docs/replay.md: why a list can be off)");
	if (id->not_checked)
		out(f, 2, "not checked: %d lists scanned fewer than %d pages", id->not_checked,
		    RS_IDENTITY_MIN_SCANNED);
	if (id->not_claimed) {
		out(f, 2, "NO CLAIM on %d lists: more than %.0f%% of their recorded pages were "
		    "scanned in calls that depend on inputs this trace does not record, so their "
		    "error cannot tell the model's faults from the missing inputs; identity is not "
		    "claimed for them (docs/replay.md \"Identity\"):", id->not_claimed,
		    RS_IDENTITY_TARGET_PCT);
		gaps_text(f, r);
	}
	if (id->sizes_snapshots_only)
		out(f, 2, "sizes: every list size comes from memcg_stat/node_stat snapshots alone, "
		    "one every %.0f ms (no mod_memcg_lruvec_state delta): a call sees its lists as "
		    "the last snapshot left them", (double)id->snapshot_interval_ns / 1e6);
	if (!r->folio_granularity || !r->flushed_stats)
		out(f, 6, "note: this build's world has %s%s%s: lists of large folios and memcgs "
		    "with stale stats are off (docs/replay.md)",
			r->folio_granularity ? "" : "no folio sizes",
			!r->folio_granularity && !r->flushed_stats ? " and " : "",
			r->flushed_stats ? "" : "no flushed-stats view");
	kswapd_ends_text(f, &id->kswapd, &r->in->gap, &r->in->gap_evidence);
	out(f, 2, "scanned = lru_isolate nr_scanned (as analyze) for the recording; pages the "
	    "model isolated for it");
	{
		bool same = true;

		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			same &= r->analyze[l].scanned == r->rec->acct.scanned[l];
		if (!same)
			out(f, 2, "the whole trace (analyze) scanned %llu/%llu/%llu/%llu: %llu "
			    "isolate/shrink events were outside any replayed call",
				U(r->analyze[0].scanned), U(r->analyze[1].scanned),
				U(r->analyze[2].scanned), U(r->analyze[3].scanned),
				U(r->in->out_events));
	}
}

static void prio_text(char *buf, size_t n, int first, int lowest)
{
	if (lowest < 0)
		snprintf(buf, n, "-");
	else if (first >= 0)
		snprintf(buf, n, "%d..%d", first, lowest);
	else
		snprintf(buf, n, "%d", lowest);
}

/* The first line of a listed call: when and where its begin event is, who ran it and for what. */
static void call_head(FILE *f, const struct rs_replay_report *r, size_t i)
{
	const struct rs_identity_call *ic = &r->calls->call[i];
	const struct rs_reclaim_call *c = ic->call;
	const char *comm = r->call_comm ? r->call_comm[i] : "";
	struct line l = { .n = 0 };

	add(&l, "%4zu  %.6f s (offset %llu): %s, pid %d%s%s, ", i + 1, rs_ns_to_s(c->ts),
	    U(c->ev_offset), rs_call_ctx_name(c->ctx), c->pid, *comm ? " " : "", rs_esc(comm));
	if (c->nid >= 0)
		add(&l, "node %d, ", c->nid);
	else
		add(&l, "any node, ");
	add(&l, "order %d, ", c->order);
	if (c->ctx == RS_CALL_MEMCG && c->target >= 0)
		add(&l, "memcg %s, ", rs_esc(rs_replay_cgroup_name(r, c->target)));
	add(&l, "wants %llu pages", U(c->nr_to_reclaim));
	flush(f, &l, 6);
}

void rs_replay_calls_text(FILE *f, const struct rs_replay_report *r)
{
	const struct rs_identity_calls *ic = r->calls;
	const char *name = r->res[r->identity].policy->name;
	struct line l = { .n = 0 };
	char pr[24], share[24];

	if (ic->nr == ic->nr_calls)
		add(&l, "\nCALLS (%s against the recording, call by call: all %zu calls, those "
		    "whose pages scanned differ most first", name, ic->nr_calls);
	else
		add(&l, "\nCALLS (%s against the recording, call by call: the %zu of %zu calls "
		    "whose pages scanned differ most", name, ic->nr, ic->nr_calls);
	add(&l, "; |diff| = |%s - recorded| summed over the lists; priorities first..lowest; "
	    "each call's begin event by its time, as trace-cmd report prints it, and file offset)",
	    name);
	flush(f, &l, 2);
	fprintf(f, "%14s %8s %7s %9s %9s %9s %9s %10s %8s\n", "", "priority", "rounds",
		"scan IA", "scan AA", "scan IF", "scan AF", "reclaimed", "|diff|");
	for (size_t i = 0; i < ic->nr; i++) {
		const struct rs_identity_call *x = &ic->call[i];
		const struct rs_recorded *rec = &x->call->rec;
		const struct rs_call_outcome *o = x->model;

		call_head(f, r, i);
		if (rec->have) {
			prio_text(pr, sizeof(pr), rec->prio_first, rec->prio_lowest);
			fprintf(f, "      %-8s %8s %7u %9llu %9llu %9llu %9llu %10llu\n", "recorded",
				pr, rec->rounds, U(x->rec_scanned[0]), U(x->rec_scanned[1]),
				U(x->rec_scanned[2]), U(x->rec_scanned[3]),
				U(x->rec_reclaimed[0] + x->rec_reclaimed[1] +
				  x->rec_reclaimed[2] + x->rec_reclaimed[3]));
		} else {
			fprintf(f, "      recorded: no shrink event in the trace (nothing "
				"scanned, as in the totals)\n");
		}
		prio_text(pr, sizeof(pr), -1, o->prio_lowest);
		fprintf(f, "      %-8.8s %8s %7u %9llu %9llu %9llu %9llu %10llu %8llu\n", name, pr,
			o->rounds, U(o->acct.scanned[0]), U(o->acct.scanned[1]),
			U(o->acct.scanned[2]), U(o->acct.scanned[3]),
			U(o->acct.reclaimed[0] + o->acct.reclaimed[1] + o->acct.reclaimed[2] +
			  o->acct.reclaimed[3]), U(x->diff));
		/* soft-limit passes run no priority of the call's own: say what they took */
		if ((rec->have && rec->soft_scanned) || o->acct.soft_scanned)
			fprintf(f, "      of which soft-limit passes scanned %llu recorded, %llu %s\n",
				U(rec->have ? rec->soft_scanned : 0), U(o->acct.soft_scanned), name);
	}
	add(&l, "the %zu listed calls hold, of the error in pages scanned (%s - recorded over every "
	    "call):", ic->nr, name);
	for (int k = 0; k < RS_NR_EVICTABLE; k++) {
		double pct = ic->total_diff[k] ? 100.0 * (double)ic->listed_diff[k] /
						 (double)ic->total_diff[k] : 0.0;

		share[0] = '\0';
		if (ic->total_diff[k])	/* no "-0%" when none of it is listed */
			snprintf(share, sizeof(share), " (%.0f%%)",
				 pct > -0.5 && pct < 0.5 ? 0.0 : pct);
		add(&l, " %s %+lld of %+lld%s%s", short_list[k], (long long)ic->listed_diff[k],
		    (long long)ic->total_diff[k], share, k + 1 < RS_NR_EVICTABLE ? "," : "");
	}
	flush(f, &l, 2);
}

static void diff_text(char *buf, size_t n, uint64_t v, uint64_t rec)
{
	snprintf(buf, n, "%+lld", (long long)v - (long long)rec);
}

/* Pages reclaimed from lists scanned far past the recording's sample: a range, or unknown. */
static void ranges_text(FILE *f, const struct rs_reclaim_acct *p,
			const struct rs_policy_claims *pc)
{
	if (p->scanned_no_swap)
		out(f, 4, "  inactive_anon: %llu of its pages scanned with no swap space: none "
		    "reclaimed (add_to_swap() fails, the kernel activates them)",
		    U(p->scanned_no_swap));
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		const struct rs_reclaim_range *g = &pc->reclaimed[l];

		if (!g->extrapolated)
			continue;
		if (g->unknown)
			out(f, 4, "  %s reclaimed: unknown: %llu pages scanned where the recording "
			    "scanned %llu (its reclaimability says nothing of pages that deep in the "
			    "list)%s", short_list[l], U(p->scanned[l]), U(g->sample),
			    l == RS_LRU_INACTIVE_ANON ? "; anon swapped out likewise" : "");
		else
			out(f, 4, "  %s reclaimed %llu, 95%% range %llu..%llu: extrapolated from the "
			    "recording's %llu pages scanned to %llu%s", short_list[l],
			    U(p->reclaimed[l]), U(g->lo), U(g->hi), U(g->sample), U(p->scanned[l]),
			    l == RS_LRU_INACTIVE_ANON ? "; anon swapped out likewise" : "");
	}
}

/* p: the policy's totals, rc: the recording's */
static void soft_text(FILE *f, const struct rs_reclaim_acct *p, const struct rs_reclaim_acct *rc,
		      const struct rs_policy_claims *pc)
{
	char line[512];
	size_t n = 0;

	if (pc->soft_shown) {
		out(f, 4, "  soft-limit passes scanned %llu reclaimed %llu (recorded %llu / %llu)%s",
		    U(p->soft_scanned), U(p->soft_reclaimed), U(rc->soft_scanned),
		    U(rc->soft_reclaimed), pc->soft_checked ? ": within 10% of the recording's" :
		    "");
		return;
	}
	line[0] = '\0';
	for (int g = 0; g < RS_GAP_NR; g++)
		if ((pc->soft_lacks & (1u << g)) && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s (%s)", n ? "; " : "",
					      rs_gap_name((enum rs_gap)g),
					      rs_gap_missing((enum rs_gap)g));
	out(f, 4, "  soft-limit passes: no figure. This model stands for the recorded kernel's "
	    "soft-limit passes (recorded %llu pages scanned, %llu reclaimed) and is %+.0f%% off "
	    "them (target %.0f%%); %s%s", U(rc->soft_scanned), U(rc->soft_reclaimed), pc->soft_err,
	    RS_SOFT_TARGET_PCT, n ? "the trace lacks: " : "the trace has every input the model "
	    "reads: the model's fault (docs/models.md)", line);
}

static void policy_text(FILE *f, const struct rs_replay_report *r, const struct rs_replay_result *p,
			const struct rs_policy_claims *pc)
{
	const struct rs_replay_result *rc = r->rec;
	const struct rs_reclaim_acct *pt = &p->acct, *rt = &rc->acct;	/* totals */
	char d1[24], d2[24], d3[24], cgb[64];
	uint64_t rs = 0, rr = 0, ms = 0, mr = 0;

	out(f, 2, "\n%s: %s", p->policy->name, p->policy->stands_for);
	out(f, 4, "  approximates: %s", p->policy->approximates);
	fprintf(f, "  %-14s %11s %11s %11s %11s\n", "list", "scanned", "diff", "reclaimed",
		"diff");
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		diff_text(d1, sizeof(d1), pt->scanned[l], rt->scanned[l]);
		diff_text(d2, sizeof(d2), pt->reclaimed[l], rt->reclaimed[l]);
		snprintf(d3, sizeof(d3), "%llu", U(pt->reclaimed[l]));
		if (pc->reclaimed[l].unknown)	/* no figure: extrapolated too far */
			snprintf(d2, sizeof(d2), "-");
		fprintf(f, "  %-14s %11llu %11s %11s %11s\n", short_list[l], U(pt->scanned[l]), d1,
			pc->reclaimed[l].unknown ? "unknown" : d3, d2);
		rs += rt->scanned[l];
		rr += rt->reclaimed[l];
		ms += pt->scanned[l];
		mr += pt->reclaimed[l];
	}
	diff_text(d1, sizeof(d1), ms, rs);
	diff_text(d2, sizeof(d2), mr, rr);
	fprintf(f, "  %-14s %11llu %11s %11llu %11s\n", "all", U(ms), d1, U(mr), d2);
	ranges_text(f, pt, pc);
	diff_text(d1, sizeof(d1), pt->swapped_out, rt->swapped_out);
	if (pc->swapped.unknown)
		out(f, 4, "  anon swapped out: unknown (extrapolated too far, above)");
	else if (pc->swapped.extrapolated)
		out(f, 4, "  anon swapped out %llu..%llu (95%%; %llu at the recording's rate)",
		    U(pc->swapped.lo), U(pc->swapped.hi), U(pt->swapped_out));
	else
		out(f, 4, "  anon swapped out %llu (%s)", U(pt->swapped_out), d1);
	soft_text(f, pt, rt, pc);
	out(f, 4, "  rounds %llu (recorded %llu), lowest priority %d (recorded %d), calls short "
	    "of their goal %llu of %llu", U(p->rounds), U(rc->rounds), p->prio_lowest,
	    rc->prio_lowest, U(p->calls_short), U(p->calls));
	fprintf(f, "  calls by lowest priority:");
	for (int k = RS_DEF_PRIORITY; k >= 0; k--)
		if (p->calls_at_prio[k])
			fprintf(f, " %d:%llu", k, U(p->calls_at_prio[k]));
	fprintf(f, "\n  reclaimed by reclaimability source:");
	for (int k = 0; k < RS_RATE_SRC_NR; k++)
		fprintf(f, " %s %llu", rs_rate_src_name(k), U(p->reclaimed_by_src[k]));
	fprintf(f, "\n  %-24s %9s %9s %9s %9s %10s %9s %9s\n", "cgroup", "scan IA", "scan AA",
		"scan IF", "scan AF", "reclaimed", "swapped", "soft scan");
	for (int c = 0; c < p->nr_memcg; c++) {
		const struct rs_reclaim_acct *a = &p->memcg[c], *ra = &rc->memcg[c];
		uint64_t s = 0, rs2 = 0, rec = 0;

		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			s += a->scanned[l];
			rs2 += ra->scanned[l];
			rec += a->reclaimed[l];
		}
		if (!s && !rs2)
			continue;
		snprintf(d1, sizeof(d1), "%llu", U(a->soft_scanned));
		fprintf(f, "  %-24s %9llu %9llu %9llu %9llu %10llu %9llu %9s\n",
			cg_col(rs_replay_cgroup_name(r, c), 24, cgb, sizeof(cgb)), U(a->scanned[0]),
			U(a->scanned[1]), U(a->scanned[2]), U(a->scanned[3]), U(rec),
			U(a->swapped_out), pc->soft_shown ? d1 : "-");
		fprintf(f, "  %-24s %9llu %9llu %9llu %9llu %10llu %9llu\n", "  (recorded)",
			U(ra->scanned[0]), U(ra->scanned[1]), U(ra->scanned[2]), U(ra->scanned[3]),
			U(ra->reclaimed[0] + ra->reclaimed[1] + ra->reclaimed[2] + ra->reclaimed[3]),
			U(ra->swapped_out));
	}
}

static void src_add(struct line *l, const struct rs_ri_source *s)
{
	if (!s->events) {
		add(l, "none");
		return;
	}
	add(l, "%llu, first at %.6f s (offset %llu), last at %.6f s (offset %llu)", U(s->events),
	    rs_ns_to_s(s->first_ts), U(s->first_offset), rs_ns_to_s(s->last_ts),
	    U(s->last_offset));
}

static const char *lim(uint64_t v, char *buf, size_t n)
{
	if (v == RS_UNLIMITED)
		return "none";
	snprintf(buf, n, "%llu", U(v));
	return buf;
}

static void memcg_inputs(FILE *f, const struct rs_ri_memcg *m)
{
	struct line l = { .n = 0 };
	char b1[32], b2[32];

	out(f, 4, "  %s (id %llu)%s%s", rs_esc(m->path), U(m->id), m->mkdir ? ", made in the trace" : "",
	    m->rmdir ? ", removed in the trace (offline after)" : "");
	if (m->world == 0) {
		add(&l, "    own lists = node_stat - tracked memcgs: ");
		src_add(&l, &m->node);
		flush(f, &l, 6);
		out(f, 6, "    also holds %llu victim memcg ids that have no sizes of their own",
		    U(m->folded));
	} else if (m->sizes_from_deltas) {
		add(&l, "    sizes = offset + mod_memcg_lruvec_state deltas: ");
		src_add(&l, &m->delta);
		flush(f, &l, 6);
		out(f, 6, "    offset %lld/%lld/%lld/%lld pages (%s); snapshots: %llu, max "
		    "|snapshot - (offset + deltas)| %llu/%llu/%llu/%llu (deltas the trace lacks), "
		    "re-anchored at %llu of them", (long long)m->offset[0],
		    (long long)m->offset[1], (long long)m->offset[2], (long long)m->offset[3],
		    m->offset_from_mkdir ? "0: made in the trace" :
		    m->offset_assumed ? "0 assumed: no snapshot and no mkdir anchors it" :
		    m->offset_from_first ? "the snapshot from before the first delta" :
		    "the first snapshot - deltas so far", U(m->disagree_n), U(m->disagree_max[0]),
		    U(m->disagree_max[1]), U(m->disagree_max[2]), U(m->disagree_max[3]),
		    U(m->anchors));
	} else if (m->snap.events) {
		add(&l, "    sizes = memcg_stat snapshots: ");
		src_add(&l, &m->snap);
		flush(f, &l, 6);
	} else {
		out(f, 6, "    no sizes of its own (an ancestor of a tracked memcg)");
	}
	if (m->implied.events) {
		add(&l, "    implied sizes (lru_isolate nr_requested << priority): ");
		src_add(&l, &m->implied);
		flush(f, &l, 6);
	}
	if (m->ws.events) {
		add(&l, "    workingset_activate/restore deltas: ");
		src_add(&l, &m->ws);
		flush(f, &l, 6);
	}
	out(f, 6, "    lists IA/AA/IF/AF first %lld/%lld/%lld/%lld last %lld/%lld/%lld/%lld max "
	    "%llu/%llu/%llu/%llu", (long long)m->first_lru[0], (long long)m->first_lru[1],
	    (long long)m->first_lru[2], (long long)m->first_lru[3], (long long)m->last_lru[0],
	    (long long)m->last_lru[1], (long long)m->last_lru[2], (long long)m->last_lru[3],
	    U(m->max_lru[0]), U(m->max_lru[1]), U(m->max_lru[2]), U(m->max_lru[3]));
	if (m->have_usage)
		out(f, 6, "    usage first %llu last %llu max %llu; limit %s; soft limit %s (over "
		    "it in %llu of %llu snapshots); swappiness %d%s (memcg_stat)",
		    U(m->usage_first), U(m->usage_last), U(m->usage_max),
		    lim(m->limit, b1, sizeof(b1)), lim(m->soft_limit, b2, sizeof(b2)),
		    U(m->soft_over), U(m->snap.events), m->swappiness,
		    m->swappiness < 0 ? " (not recorded: vm_swappiness)" : "");
	if (m->victim_events || m->target_calls)
		out(f, 6, "    victim in %llu calls; reclaim root of %llu memcg calls",
		    U(m->victim_events), U(m->target_calls));
}

void rs_replay_inputs_text(FILE *f, const struct rs_replay_report *r)
{
	const struct rs_ri_report *in = r->in;
	struct line l = { .n = 0 };
	const char *w;

	out(f, 0, "\nRECONSTRUCTION (the replay input: what the world and the pressure were made "
	    "of, and from which events)");
	if (in->header)
		add(&l, "header     %s at offset %llu: ", in->header, U(in->header_offset));
	else
		add(&l, "header     no begin marker: ");
	add(&l, "vm swappiness %d%s, cgroup %s (%s), %d node%s%s, page size %llu, MGLRU %s ",
	    in->vm_swappiness, in->swappiness_assumed ? " (assumed)" : "",
	    in->cgroup_v1 ? "v1" : "v2", in->cgroup_src ? in->cgroup_src : "-", in->nr_nodes,
	    in->nr_nodes == 1 ? "" : "s", in->nodes_assumed ? " (node 0 assumed)" : "",
	    U(in->page_size), in->mglru_unknown ? "unknown" : in->mglru ? "on" : "off");
	/* as analyze's lru line says it: "off" here would claim what nothing in the trace tells */
	if (in->mglru_unknown)		/* its first clause: the rest is analyze's eviction note */
		add(&l, "(%.*s)", (int)strcspn(in->mglru_unknown, ";"), in->mglru_unknown);
	/* without a begin marker mglru_mask is no reading: printing it would be a made-up 0 */
	else if (in->header)
		add(&l, "(%smarker mglru=0x%04x)", in->mglru_shape ?
		    "told by the trace's events; " : "", in->mglru_mask);
	else
		add(&l, "(%sno marker)", in->mglru_shape ? "told by the trace's events; " : "");
	flush(f, &l, 11);
	add(&l, "calls      %zu replayed:", in->world_calls);
	for (int c = 0; c < RS_CALL_NR; c++) {
		add(&l, " %s %llu", rs_call_ctx_name(c), U(in->calls[c]));
		if (in->calls[c])
			add(&l, " (from %s, first at %.6f s offset %llu)",
			    c == RS_CALL_KSWAPD ? "kswapd_wake" : "*_reclaim_begin",
			    rs_ns_to_s(in->call_src[c].first_ts), U(in->call_src[c].first_offset));
		add(&l, c + 1 < RS_CALL_NR ? "," : "");
	}
	flush(f, &l, 11);
	out(f, 11, "           cut at the start %llu, cut at the end %llu, over the cap %llu, "
	    "without any lru_isolate %llu; soft-limit episodes inside %llu",
	    U(in->calls_cut_start), U(in->calls_cut_end), U(in->calls_dropped),
	    U(in->calls_without_scan), U(in->soft_episodes));
	out(f, 11, "           memcg reclaim roots: memcg_id %llu, victims' LCA %llu, its nearest "
	    "limited ancestor %llu, task's memcg %llu, header %llu, root %llu; proactive (the "
	    "root neither the task's memcg nor above it, and no swap-in of the task in the "
	    "root's subtree within 10 ms) %llu",
	    U(in->target_src[RS_RI_TGT_KERNEL]), U(in->target_src[RS_RI_TGT_VICTIMS]),
	    U(in->target_src[RS_RI_TGT_LIMITED]),
	    U(in->target_src[RS_RI_TGT_TASK]), U(in->target_src[RS_RI_TGT_HEADER]),
	    U(in->target_src[RS_RI_TGT_ROOT]), U(in->proactive_calls));
	out(f, 11, "           pages wanted: memcg calls their charge-size goal 32<<k (%llu, freed "
	    "past it %llu pages in all; %llu without a fitting goal want what they freed; %llu "
	    "under 32: 32); direct 32; kswapd where the recorded run was balanced, just past "
	    "what it had freed before its last pass (%llu in all, freed past it %llu; with "
	    "zone_stat the replay ends runs where pgdat_balanced() does: IDENTITY's kswapd ends)",
	    U(in->want_src[RS_RI_WANT_CHARGE]), U(in->goal_overshoot),
	    U(in->want_src[RS_RI_WANT_RECLAIMED]), U(in->want_src[RS_RI_WANT_MIN]),
	    U(in->kswapd_want), U(in->kswapd_overshoot));
	out(f, 11, "recorded   in calls IA/AA/IF/AF scanned %llu/%llu/%llu/%llu taken "
	    "%llu/%llu/%llu/%llu reclaimed %llu/%llu/%llu/%llu; outside any call "
	    "%llu/%llu/%llu/%llu (%llu events)", U(in->scanned[0]), U(in->scanned[1]),
	    U(in->scanned[2]), U(in->scanned[3]), U(in->taken[0]), U(in->taken[1]),
	    U(in->taken[2]), U(in->taken[3]), U(in->reclaimed[0]), U(in->reclaimed[1]),
	    U(in->reclaimed[2]), U(in->reclaimed[3]), U(in->out_scanned[0]),
	    U(in->out_scanned[1]), U(in->out_scanned[2]), U(in->out_scanned[3]),
	    U(in->out_events));
	out(f, 11, "victims    %llu isolate windows: both counters agree %llu, scan counter only "
	    "%llu, steal counter only %llu, LRU decrement %llu, memcg_id of a memcg with none "
	    "below it %llu, none (counted in the root) %llu; item names %s", U(in->windows),
	    U(in->victim_exact), U(in->victim_scan), U(in->victim_steal), U(in->victim_lruvec),
	    U(in->victim_leaf), U(in->victim_none),
	    in->item_names ? "from the trace" : "absent (values alone)");
	out(f, 11, "sizes      memcg_stat %llu (%llu as of the recorder's read before them), "
	    "node_stat %llu, LRU deltas %llu -> %llu updates, workingset deltas %llu, implied "
	    "%llu, root clamped at 0 %llu; world: %zu updates, %zu windows",
	    U(in->memcg_snapshots), U(in->snapshots_at_read), U(in->node_snapshots),
	    U(in->delta_events), U(in->delta_updates), U(in->ws_events), U(in->implied_updates),
	    U(in->root_clamped), in->world_updates, in->world_obs);
	add(&l, "watermark  ");
	if (in->have_wmark) {
		add(&l, "node_stat wmark_high: ");
		src_add(&l, &in->wmark);
	} else if (in->wmark_inferred) {
		add(&l, "not recorded; inferred >= %llu pages from %llu kswapd runs (largest at "
		    "offset %llu)", U(in->wmark_inferred), U(in->wmark_inferred_calls),
		    U(in->wmark_inferred_offset));
	} else {
		add(&l, "not recorded (kswapd asks max(0, 32) pages a pass)");
	}
	if (in->zone.events) {
		add(&l, "; per zone (zone_stat, zone indices");
		for (int i = 0; i < RS_ZONE_MAX; i++)
			if (in->zone_idx & (1u << i))
				add(&l, " %d", i);
		add(&l, "): ");
		src_add(&l, &in->zone);
		add(&l, "; kswapd ends where pgdat_balanced() on them ends it (docs/models.md)");
	}
	if (in->flow.samples)
		add(&l, "; between samples the buddy flow: %llu kmem events, %llu samples with it",
		    U(in->flow.events), U(in->flow.samples));
	flush(f, &l, 11);
	add(&l, "swap       ");
	switch (in->swap) {
	case RS_RI_SWAP_MARKER:
		add(&l, "swap markers: ");
		src_add(&l, &in->swap_marker);
		break;
	case RS_RI_SWAP_INFERRED:
		add(&l, "on (inferred: %llu anon pages isolated, %llu anon write_folio, %llu "
		    "pswpout counter events); free swap not recorded", U(in->swap_anon_scanned),
		    U(in->swap_anon_writes), U(in->swap_pswpout));
		break;
	default:
		add(&l, "off (no anon page isolated, written or counted as pswpout)");
		break;
	}
	flush(f, &l, 11);
	if (!in->cgroup_v1 && in->nr_memcg > 1) {
		/* what the memcg_stat markers say of settings no event shows (docs/replay.md) */
		add(&l, "settings   ");
		if (!in->v2_min_seen && !in->v2_swap_seen)
			add(&l, "memory.min and memory.swap.max not in the snapshots (%s): "
			    "assumed not set; ", in->v2_low_seen ? "a recorder before 2026-12-03" :
			    "no memcg_stat");
		add(&l, "memory.min or memory.low set in %llu memcgs, memory.swap.max in %llu "
		    "(memcg_stat min=, low=, swap_max=; of %llu, %llu, %llu memcgs with sizes "
		    "whose snapshots have them)", U(in->v2_protected), U(in->v2_swap_limited),
		    U(in->v2_min_seen), U(in->v2_low_seen), U(in->v2_swap_seen));
		flush(f, &l, 11);
	}
	out(f, 2, "reclaimability (one window per call and memcg: identity and counterfactuals "
	    "use the call's own, else the nearest of that list)");
	fprintf(f, "  %-13s %7s %10s %10s %9s %9s %10s %10s %10s\n", "list", "windows", "scanned",
		"reclaimed", "activated", "pageout", "taken", "deactivate", "referenced");
	for (int k = 0; k < RS_NR_EVICTABLE; k++) {
		const struct rs_ri_obs_sum *o = &in->obs[k];

		fprintf(f, "  %-13s %7llu %10llu %10llu %9llu %9llu %10llu %10llu %10llu\n",
			short_list[k], U(o->windows), U(o->pages.scanned),
			U(o->pages.reclaimed), U(o->pages.activated), U(o->pages.pageout),
			U(o->pages.taken), U(o->pages.deactivated), U(o->pages.referenced));
	}
	fprintf(f, "memcgs (pages)\n");
	for (int i = 0; i < in->nr_memcg; i++)
		memcg_inputs(f, &in->memcg[i]);
	for (size_t i = 0; (w = rs_replay_input_warning(r->ri, i)); i++)
		out(f, 9, "warning: %s", w);
}

void rs_replay_text(FILE *f, const struct rs_replay_report *r)
{
	const struct rs_ri_report *in = r->in;
	struct line l = { .n = 0 };

	rs_report_trace_text(f, r->src, 0);
	add(&l, "replay    %zu calls (kswapd %llu, direct %llu, memcg %llu, node %llu); ",
	    in->world_calls, U(in->calls[RS_CALL_KSWAPD]), U(in->calls[RS_CALL_DIRECT]),
	    U(in->calls[RS_CALL_MEMCG]), U(in->calls[RS_CALL_NODE]));
	if (r->refusal) {
		add(&l, "not replayed");
		flush(f, &l, 10);
		if (r->inputs)
			rs_replay_inputs_text(f, r);
		out(f, 2, "\nCANNOT REPLAY: %s", r->refusal);
		return;
	}
	add(&l, "policies:");
	for (int i = 0; i < r->n; i++)
		add(&l, " %s", r->res[i].policy->name);
	flush(f, &l, 10);
	out(f, 10, "          %s", rs_replay_open_loop_caveat);
	if (r->inputs)
		rs_replay_inputs_text(f, r);
	if (r->id)
		identity_text(f, r);
	if (r->id && r->calls)
		rs_replay_calls_text(f, r);
	if (!r->id)
		fprintf(f, "\nidentity not run (add mainline to --policy)\n");
	fprintf(f, "\nPOLICIES (pages; diff = policy - recorded; the recording from the replayed "
		"calls)\n");
	for (int i = 0; i < r->n; i++)
		policy_text(f, r, &r->res[i], &r->claims[i]);
	out(f, 8, "\ncaveat: %s", rs_replay_open_loop_caveat);
}
