// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd's end from the recorded zones (include/kswapd_end.h): Linux 7.2 balance_pgdat() checks
 * pgdat_balanced(pgdat, sc.order, highest_zoneidx) before each pass and ends the run at the
 * first check that is balanced; kswapd_shrink_node() drops sc.order to 0 once the run has
 * reclaimed compact_gap(order) pages, which 7.2 caps at COMPACT_CLUSTER_MAX = 32 (below; 6.x does
 * not: the world says which, include/compact_gap.h). The check's free pages are estimated from
 * the zone_stat samples around it (models/zone_balance.c): the node's reclaim since the sample
 * before it is the recorded reclaim of every context up to the check, with the run's own
 * replaced by the policy's.
 *
 * What it cannot know: watermark boosting (nr_boost_reclaim; the samples between runs show the
 * watermarks unboosted), a run that ended with its priority run out rather than balanced (its
 * last check is taken as balanced in the recording), the buffer_heads_over_limit case.
 */
#include <string.h>

#include "compact_gap.h"
#include "kswapd_end.h"
#include "rs_search.h"
#include "zone_balance.h"

static const char *const how_names[RS_KEND_NR] = {
	[RS_KEND_RECORDED] = "recorded", [RS_KEND_AT_END] = "at_end",
	[RS_KEND_NOT_EARLIER] = "not_earlier", [RS_KEND_EARLY] = "early",
};

const char *rs_kend_how_name(enum rs_kend_how h)
{
	return h < RS_KEND_NR ? how_names[h] : "?";
}

/* The samples around t: the last at or before it and the first after it. */
static bool around(const struct rs_zone_sample *zs, size_t n, uint64_t t,
		   const struct rs_zone_sample **s, const struct rs_zone_sample **s2)
{
	size_t lo = RS_UPPER_BOUND(zs, n, ts, t);

	if (!lo || lo >= n)
		return false;
	*s = &zs[lo - 1];
	*s2 = &zs[lo];
	return true;
}

/* highest_zoneidx of the run; unknown: the highest zone the samples have */
static int run_zoneidx(const struct rs_reclaim_call *c, const struct rs_zone_sample *s)
{
	if (c->zoneidx_known && c->zoneidx >= 0 && c->zoneidx < RS_ZONE_MAX)
		return c->zoneidx;
	return s->nr_zones > 0 ? s->nr_zones - 1 : 0;
}

/*
 * pgdat_balanced() at check k of the recorded run with `reclaimed` pages reclaimed by the run
 * (the recording's own at identity); -1 without samples around it. est (NULL: not wanted): how
 * the zones were estimated. band: from the buddy flow, a zone must clear its mark by the
 * counter's lag (below); not for the recorded end itself, whose check the recording says was
 * balanced.
 */
static int check_at(const struct rs_world *w, const struct rs_reclaim_call *c, size_t k,
		    uint64_t reclaimed, struct rs_kswapd_end *est, bool band)
{
	const struct rs_kswapd_check *ck = &c->rec.checks[k];
	const struct rs_zone_sample *zs, *s, *s2;
	struct rs_zone_est_info info;
	int64_t free[RS_ZONE_MAX], since;
	size_t n;
	int order = c->order, hz;

	zs = rs_world_zone_samples(w, c->nid, &n);
	if (!zs || !around(zs, n, ck->ts, &s, &s2))
		return -1;
	hz = run_zoneidx(c, s);
	/*
	 * The buddy flow where the trace has it (record --zone-flow): the sample plus what the
	 * kmem events moved since, the policy's reclaim beyond the run's recorded reclaim on top.
	 * Else (or lost events between) every context's reclaim since the sample, the run's own
	 * as the policy's, and the allocations spread between the samples.
	 */
	if (!rs_zone_flow_estimate(s, &ck->flow, (int64_t)reclaimed - (int64_t)ck->reclaimed, free,
				   &info)) {
		since = (int64_t)(ck->node_reclaimed - s->reclaimed) - (int64_t)ck->reclaimed +
			(int64_t)reclaimed;
		rs_zone_estimate(s, s2, ck->ts, since, hz, free, &info);
	}
	if (est) {
		est->pcp_known = info.pcp_known;
		est->flow = info.flow;
		/* the flow is whole only without loss marks between the sample and the check */
		est->flow_lost = !info.flow && s->flow.ok && ck->flow.ok &&
				 ck->flow.lost != s->flow.lost;
	}
	/*
	 * The run's first check follows the kernel's own "not balanced" by microseconds:
	 * wakeup_kswapd() wakes kswapd only when pgdat_balanced() is false (or a watermark is
	 * boosted, and then the run reclaims the boost whatever the check says), and kswapd()
	 * runs balance_pgdat() again only when prepare_kswapd_sleep()'s pgdat_balanced() is false.
	 * No recorded run ends there (none of the 7.2 guest traces' 191 + 245 + 330 runs freed
	 * nothing); the estimate, from samples up to 860 ms away, can say otherwise.
	 */
	if (!k)
		return 0;
	if (order < 0 || order >= RS_ZONE_ORDERS)
		order = 0;
	/*
	 * kswapd_shrink_node() (mm/vmscan.c) after each shrink_node() pass:
	 *	if (sc->order && sc->nr_reclaimed >= compact_gap(sc->order))
	 *		sc->order = 0;
	 * the recorded kernel's compact_gap() (capped from 7.2, include/compact_gap.h). It is the
	 * only change to sc.order in balance_pgdat(). The 7.2 traces agree: every order-9 run that
	 * reclaimed 32 pages or more reports order=0 at mm_vmscan_balance_pgdat_end, the one that
	 * reclaimed fewer (zf-final2) order=9.
	 */
	if (order && reclaimed >= rs_compact_gap(w, order))
		order = 0;
	/*
	 * The flow counts the free pages exactly; the kernel's check reads NR_FREE_PAGES's global
	 * counter, which lags by the per-CPU diffs not yet folded into it: up to each CPU's
	 * stat_threshold, while kswapd runs calculate_pressure_threshold() = max(1, (low - min) /
	 * online CPUs), at most low - min over the CPUs (no percpu_drift_mark on the 7.2 guest's
	 * zones: zone_watermark_ok_safe() reads the counter). A check before the recorded end, or
	 * a policy's, ends a run only when the zone clears its mark by more than that: within it
	 * the kernel could have seen either (on four guest traces, DMA 3-47 pages past 854 ended
	 * 10 runs early that the kernel went on with).
	 */
	if (info.flow && band)
		for (int i = 0; i < s->nr_zones && i < RS_ZONE_MAX; i++)
			free[i] -= (int64_t)(s->zone[i].wmark_low - s->zone[i].wmark_min);
	return rs_pgdat_balanced(s, free, order, hz);
}

void rs_kswapd_end(const struct rs_world *w, const struct rs_reclaim_call *c,
		   struct rs_kswapd_end *out)
{
	const struct rs_kswapd_check *ck = c->rec.checks;
	size_t n = c->rec.nr_checks;

	memset(out, 0, sizeof(*out));
	out->how = RS_KEND_RECORDED;
	out->want = c->nr_to_reclaim;
	if (c->ctx != RS_CALL_KSWAPD || !n)
		return;
	out->recorded = n - 1;
	out->rec_freed = ck[n - 1].reclaimed;
	out->freed = out->rec_freed;
	out->flow = true;
	for (size_t k = 0; k < n; k++) {
		struct rs_kswapd_end est = { 0 };
		int r = check_at(w, c, k, ck[k].reclaimed, &est, k + 1 < n);

		if (r < 0) {
			out->how = RS_KEND_RECORDED;
			out->pcp_known = false;
			out->flow = false;
			out->flow_lost = false;
			return;
		}
		out->pcp_known = est.pcp_known;
		out->flow &= est.flow;
		out->flow_lost |= est.flow_lost;
		if (!r)
			continue;
		out->check = k;
		out->freed = ck[k].reclaimed;
		if (k == n - 1) {
			out->how = RS_KEND_AT_END;
			return;
		}
		out->how = RS_KEND_EARLY;
		/* a model run stops at its first check with more than the run had freed here */
		out->want = ck[k].reclaimed && k ? ck[k - 1].reclaimed + 1 : 0;
		return;
	}
	out->how = RS_KEND_NOT_EARLIER;
	out->check = n - 1;
}

int rs_kswapd_balanced(const struct rs_world *w, const struct rs_reclaim_call *c, size_t passes,
		       uint64_t reclaimed)
{
	size_t n = c->rec.nr_checks;

	if (c->ctx != RS_CALL_KSWAPD || !n)
		return -1;
	return check_at(w, c, passes < n ? passes : n - 1, reclaimed, NULL, true);
}

void rs_kswapd_ends(const struct rs_world *w, struct rs_kswapd_ends *out)
{
	const struct rs_world_info *wi = rs_world_info(w);

	memset(out, 0, sizeof(*out));
	out->zone_samples = wi->nr_zone_samples;
	out->gap_uncapped = wi->compact_gap_uncapped;
	for (size_t i = 0; i < wi->nr_calls; i++) {
		const struct rs_reclaim_call *c = rs_world_call(w, i);
		struct rs_kswapd_end e;

		if (c->ctx != RS_CALL_KSWAPD)
			continue;
		out->runs++;
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			out->all_freed += c->rec.reclaimed[l];
		rs_kswapd_end(w, c, &e);
		out->how[e.how]++;
		if (e.how == RS_KEND_RECORDED)
			continue;
		if (e.flow)
			out->flow++;
		else if (e.flow_lost)
			out->flow_lost++;
		if (!e.flow && !e.pcp_known)
			out->no_pcp++;
		out->rec_freed += e.rec_freed;
		out->derived_freed += e.freed;
	}
}
