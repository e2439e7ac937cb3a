/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Refaults under a replayed policy (docs/refaults.md "Replay"): the recording's evictions and
 * refaults per reclaim call (refaults.h, per episode) set against what each policy reclaimed
 * from inactive_file in the same call (replay.h, kept call outcomes).
 *
 * In a call where the policy reclaims E_p file pages and the recording evicted D of which R
 * came back, the policy keeps D - E_p of the recorded evictions if it evicts fewer. Which ones
 * is not in any trace; whatever they are, between max(0, R - E_p) and min(R, D - E_p) of them
 * are refaults the policy avoids. A call where the policy evicts more pages than the recording
 * did evicts pages the recording kept, whose later accesses no trace shows: refaults it causes
 * cannot be known, only counted as calls.
 */
#ifndef RS_REFAULTS_REPLAY_H
#define RS_REFAULTS_REPLAY_H

#include <stdint.h>

#include "refaults.h"
#include "replay.h"

struct rs_rf_policy {
	uint64_t calls;			/* calls with recorded file evictions, matched */
	uint64_t evicted_pages;		/* recorded evictions in them (D) */
	uint64_t refaulted_pages;	/* of those, back in the trace (R) */
	uint64_t policy_pages;		/* the policy's inactive_file reclaimed in them */
	uint64_t calls_fewer, calls_more;	/* the policy evicted fewer / more than D */
	uint64_t avoided_min, avoided_max;	/* refaults avoided, bounds summed over calls */
	uint64_t unmatched_refaulted;	/* refaulted pages of episodes no call holds */
};

/*
 * res: one policy's result run with keep_calls over world w. Returns 0, or -1 when the result
 * kept no calls.
 */
int rs_refaults_replay(const struct rs_refaults *rf, const struct rs_world *w,
		       const struct rs_replay_result *res, struct rs_rf_policy *out);

#endif
