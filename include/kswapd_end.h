/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a kswapd run ends, from the world's zone samples (models/kswapd_end.c): balance_pgdat()
 * checks pgdat_balanced() at the top of every priority-loop iteration and ends the run at the
 * first that says balanced. The checks' moments are the recorded run's (rs_recorded.checks);
 * the free pages at each come from the zone_stat samples around it (include/zone_balance.h).
 *
 * Two uses:
 *  - identity: the policy standing for the recorded kernel reclaims what the recording did, so
 *    its run ends at the derived end of the recorded reclaim: rs_kswapd_end() gives the pages
 *    the run frees before that check (its `want`), the same as the recorded end's where the
 *    two agree;
 *  - counterfactual policies: rs_kswapd_balanced() at a policy's own check, with its own reclaim
 *    in place of the run's recorded reclaim, so a policy that frees more per pass can end
 *    earlier; otherwise it ends once it freed what the recorded run had freed before its last
 *    pass (the recorded end: rs_sim_kswapd_want()), later when its reclaim is slower.
 * Without zone samples around a run (traces before zone_stat, plain trace-cmd recordings) the
 * run ends where the recorded one was balanced, as before (RS_KEND_RECORDED).
 */
#ifndef RS_KSWAPD_END_H
#define RS_KSWAPD_END_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"

/*
 * The derived end is the first check the estimate finds balanced before the recorded end, else
 * the recorded end: the recording has no check after it. Between samples the estimate runs low
 * there (on k72-global-pcp it finds the recorded end itself balanced in 8 of 191 runs); from the
 * buddy flow (record --zone-flow) it finds 163 of k72-global-flow's 163, and a check before the
 * end must clear the mark by the counter's lag (models/kswapd_end.c; docs/models.md).
 * The first check of a run is never its end: the kernel woke kswapd because it was not
 * balanced.
 */
enum rs_kend_how {
	RS_KEND_RECORDED,	/* no zone samples around the run: where the recorded run was balanced */
	RS_KEND_AT_END,		/* derived: the estimate is balanced at the recorded end */
	RS_KEND_NOT_EARLIER,	/* derived: no check before the recorded end is balanced */
	RS_KEND_EARLY,		/* derived: a check before the recorded end is balanced */
	RS_KEND_NR
};

const char *rs_kend_how_name(enum rs_kend_how h);

struct rs_kswapd_end {
	enum rs_kend_how how;
	size_t check;		/* the derived end: the check the run ends at */
	size_t recorded;	/* the recorded end: the run's last check */
	uint64_t want;		/* what the run frees before it ends (rs_reclaim_call.nr_to_reclaim) */
	uint64_t freed;		/* recorded reclaim up to the derived end */
	uint64_t rec_freed;	/* the recorded run's */
	bool pcp_known;		/* the zone reclaim lands in had its per-cpu lists recorded */
	bool flow;		/* every check from the buddy flow (record --zone-flow) */
	bool flow_lost;		/* not: events were lost between a check and its sample */
};

/* How the run of kswapd call c ends when its reclaim is the recording's. */
void rs_kswapd_end(const struct rs_world *w, const struct rs_reclaim_call *c,
		   struct rs_kswapd_end *out);

/*
 * A policy's own run of call c: pgdat_balanced() at its check after `passes` shrink passes
 * (at the moment of the recorded run's check of that rank, the last one past the recorded
 * end) with `reclaimed` pages reclaimed by the run: 1 balanced, 0 not, -1 when the zones
 * cannot say (no zone samples around the run). The estimate runs low at the recorded ends
 * (docs/models.md), so a caller ends the run on 1 or where the recorded run did
 * (rs_sim_kswapd_balanced()): the zones end a run earlier, a policy's slower reclaim later.
 */
int rs_kswapd_balanced(const struct rs_world *w, const struct rs_reclaim_call *c, size_t passes,
		       uint64_t reclaimed);

/* Over every kswapd call of the world: how often the derived end is the recorded one. */
struct rs_kswapd_ends {
	size_t zone_samples;	/* 0: the trace has no zone_stat; every run is RECORDED */
	uint64_t runs;		/* kswapd calls */
	uint64_t all_freed;	/* what every kswapd call reclaimed in the recording */
	uint64_t how[RS_KEND_NR];
	uint64_t flow;		/* derived runs decided by the buddy flow at every check */
	uint64_t no_pcp;	/* other derived runs whose main zone lacked per-cpu counts */
	uint64_t flow_lost;	/* derived runs off the flow because events were lost */
	uint64_t rec_freed;	/* derived runs (all but RECORDED): recorded pages freed */
	uint64_t derived_freed;	/* ... and freed up to the derived end */
	bool gap_uncapped;	/* the world's compact_gap() was 2 << order */
};

void rs_kswapd_ends(const struct rs_world *w, struct rs_kswapd_ends *out);

#endif
