// SPDX-License-Identifier: GPL-2.0
/* The findings of an analysis (findings.h): read from results, nothing recounted. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "cgroups.h"
#include "findings.h"
#include "kswapd_health.h"
#include "rs_warn.h"
#include "trace_source.h"

static double pct_or_nan(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

static void findings_kswapd(const struct rs_analysis *a, struct rs_findings *f)
{
	f->kswapds = rs_analysis_nr_kswapd(a);
	for (int i = 0; i < f->kswapds; i++) {
		const struct rs_kswapd_stats *k = rs_analysis_kswapd(a, i);
		const struct rs_task_stats *t = rs_analysis_kswapd_task(a, i);

		f->awake_ns += k->awake_ns;
		f->awake_cut_ns += k->awake_cut_ns;
		f->wakes += k->wakes;
		f->rewakes += k->rewakes;
		f->sleeps += k->sleeps;
		f->unmatched_sleeps += k->unmatched_sleeps;
		if (t) {
			f->kswapd_scanned += t->scanned;
			f->kswapd_reclaimed += t->reclaimed;
		}
	}
	f->awake_pct = f->kswapds && f->span_s > 0 ?
		100.0 * ((double)(f->awake_ns + f->awake_cut_ns) / 1e9) /
		(f->span_s * f->kswapds) : NAN;
}

static void findings_scan(const struct rs_analysis *a, struct rs_findings *f)
{
	struct rs_lru_counts c;
	uint64_t known = 0;
	double wsum = 0;

	for (int l = 0; l < RS_NR_LISTS; l++) {
		rs_analysis_lru_sum(a, -1, l, -1, -1, &c);
		if (l < RS_LRU_NR)
			f->scanned[l] = c.scanned;
		f->swap_out += c.write_anon;
		f->file_written += c.write_file;
		f->write_sync += c.write_sync;
		f->write_async += c.write_async;
		f->dirty += c.dirty;
		f->writeback += c.writeback;
		f->immediate += c.immediate;
	}
	f->scanned_anon = f->scanned[RS_LRU_INACTIVE_ANON] + f->scanned[RS_LRU_ACTIVE_ANON];
	f->scanned_file = f->scanned[RS_LRU_INACTIVE_FILE] + f->scanned[RS_LRU_ACTIVE_FILE];
	f->scanned_inactive = f->scanned[RS_LRU_INACTIVE_ANON] + f->scanned[RS_LRU_INACTIVE_FILE];
	rs_analysis_lru_sum(a, -1, RS_LRU_INACTIVE_ANON, -1, -1, &c);
	f->reclaimed_anon = c.reclaimed;
	rs_analysis_lru_sum(a, -1, RS_LRU_INACTIVE_FILE, -1, -1, &c);
	f->reclaimed_file = c.reclaimed;
	f->anon_pct = pct_or_nan(f->scanned_anon, f->scanned_anon + f->scanned_file);
	f->efficiency_pct = pct_or_nan(f->reclaimed_anon + f->reclaimed_file, f->scanned_inactive);
	f->efficiency_anon_pct = pct_or_nan(f->reclaimed_anon, f->scanned[RS_LRU_INACTIVE_ANON]);
	f->efficiency_file_pct = pct_or_nan(f->reclaimed_file, f->scanned[RS_LRU_INACTIVE_FILE]);
	for (int p = 0; p < RS_NR_PRIO; p++) {
		rs_analysis_lru_sum(a, -1, -1, -1, p, &c);
		f->by_prio[p] = c.scanned;
		if (p != RS_PRIO_UNKNOWN) {
			known += c.scanned;
			wsum += (double)p * (double)c.scanned;
		}
	}
	f->prio_mean = known ? wsum / (double)known : NAN;
}

/* Cgroup row i becomes the one of the most pages when it has more than the one so far. */
static void keep_most(struct rs_findings_cgroup *most, uint64_t pages, uint64_t scanned,
		      const struct rs_cgroups *cg, int i)
{
	char buf[32];

	if (!pages || (most->valid && pages <= most->pages))
		return;
	most->valid = true;
	most->pages = pages;
	most->scanned = scanned;
	snprintf(most->name, sizeof(most->name), "%s", rs_cgroups_name(cg, i, buf, sizeof(buf)));
}

static void findings_cgroups(const struct rs_cgroups *cg, struct rs_findings *f)
{
	for (int i = 0; i < rs_cgroups_count(cg); i++) {
		const struct rs_cgroup *g = rs_cgroups_get(cg, i);
		uint64_t paid = 0, scanned = 0, caused = 0, cscanned = 0;

		/* the pseudo rows (tasks of no known cgroup, past the cap) are no one's cgroup */
		if (g->memcg.flags & (RS_CGF_UNKNOWN_TASKS | RS_CGF_OVERFLOW))
			continue;
		for (int x = 0; x < RS_CTX_NR; x++) {
			for (int l = 0; l < RS_LRU_NR; l++) {
				paid += g->pages[x][l].reclaimed;
				scanned += g->pages[x][l].scanned;
			}
			caused += g->caused_reclaimed[x];
			cscanned += g->caused_scanned[x];
		}
		keep_most(&f->paid_most, paid, scanned, cg, i);
		keep_most(&f->caused_most, caused, cscanned, cg, i);
	}
	/* what no cgroup is known to have paid: "most" may be wrong by that much */
	for (int i = 0; i < rs_cgroups_nr_cells(cg); i++) {
		const struct rs_cg_cell *c = rs_cgroups_cell(cg, i);

		if (c->victim == RS_CG_UNATTRIBUTED)
			f->paid_unknown += c->reclaimed;
	}
}

/* zswpout and pswpout: the memcg counters' sums over every row (each counts its own memcg) */
static void findings_swap_dest(const struct rs_cgroups *cg, struct rs_findings *f)
{
	f->zswpout = f->pswpout = -1;
	if (!cg || rs_cgroups_lacks(cg, RS_EV_MEMCG_COUNT) || !rs_cgroups_facts(cg)->item_names)
		return;
	f->zswpout = f->pswpout = 0;
	for (int i = 0; i < rs_cgroups_count(cg); i++) {
		const struct rs_cgroup *g = rs_cgroups_get(cg, i);

		for (int it = 0; it < g->nr_items; it++) {
			const char *name = rs_cgroups_item_name(cg, it);

			if (name && !strcmp(name, "zswpout"))
				f->zswpout += g->items[it];
			else if (name && !strcmp(name, "pswpout"))
				f->pswpout += g->items[it];
		}
	}
}

void rs_findings_of(const struct rs_analysis *a, const struct rs_cgroups *cg,
		    const struct rs_source *src, struct rs_findings *f)
{
	const struct rs_analysis_opts *ao = rs_analysis_opts(a);
	const struct rs_attrib_stats *at = rs_analysis_attrib(a);
	uint64_t t0 = rs_analysis_first_ts(a), t1 = rs_analysis_last_ts(a);

	memset(f, 0, sizeof(*f));
	if (ao->from_ns && ao->from_ns < t0)
		t0 = ao->from_ns;
	f->span_s = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_episode_stats *e = rs_analysis_episode_stats(a, k);
		struct rs_findings_stall *s = &f->stall[k];

		s->count = e->count;
		s->total_ns = e->latency.total;
		s->p99_ns = e->latency.pct[8];
		s->max_ns = e->latency.max;
		s->approximate = e->latency.approximate;
		for (int st = 1; st < RS_EP_NR_STATUS; st++)
			s->incomplete += e->status[st];
		f->incomplete += s->incomplete;
		f->broken += e->broken_by_lost_events;
		if (e->stall_max_valid && (!f->worst_valid || e->stall_max_ns > f->worst_ns)) {
			f->worst_valid = true;
			f->worst_kind = k;
			f->worst_ns = e->stall_max_ns;
			f->worst_pid = e->stall_max_pid;
			f->worst_begin_ts = e->stall_max_begin_ts;
			f->worst_offset_s = (double)(e->stall_max_begin_ts - t0) / 1e9;
			snprintf(f->worst_comm, sizeof(f->worst_comm), "%s",
				 rs_analysis_task_comm(a, e->stall_max_task));
		}
	}
	findings_kswapd(a, f);
	findings_scan(a, f);
	/* 7.x kswapd health: absent (-1) when the trace has none of its events */
	f->reclaim_fail = f->hopeless = -1;
	if (rs_analysis_kswapd_health(a) && rs_analysis_kswapd_health(a)->seen) {
		const struct rs_kswapd_health *h = rs_analysis_kswapd_health(a);

		f->reclaim_fail = f->hopeless = 0;
		for (int n = 0; n < h->nr_nodes; n++) {
			f->reclaim_fail += (int64_t)h->nodes[n].reclaim_fail;
			f->hopeless += (int64_t)h->nodes[n].hopeless;
		}
	}
	if (src) {
		f->eviction_untraced = rs_source_info(src)->eviction_untraced;
		f->mglru = rs_source_info(src)->mglru;
		for (int c = 0; c < rs_source_info(src)->cpus; c++)
			if (rs_source_info(src)->loss && rs_source_info(src)->loss[c].missed_unknown)
				f->lost_unknown = true;
	}
	if (cg)
		findings_cgroups(cg, f);
	findings_swap_dest(cg, f);
	f->lost_events = at->lost_events;
	f->lost_records = at->lost_event_records;
	f->warnings = rs_analysis_warnings(a) ? rs_warnings_count(rs_analysis_warnings(a)) : 0;
}
