/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Identity: the policy that stands for the recorded kernel (rs_policy_ops.recorded_kernel)
 * replayed on the recording must give back its per-list scanned and reclaimed pages, whole
 * trace and per cgroup. This module decides, per list, whether identity is claimed and met:
 * lists with fewer than RS_IDENTITY_MIN_SCANNED recorded pages scanned are not checked; lists
 * most of whose pages were scanned in calls that lack an input of the trace
 * (rs_world_identity_gaps()) are NO CLAIM with the inputs named; the rest are within the target
 * or OFF. Per cgroup only when the trace names the victims of its shrinks. The outputs only
 * print the verdict (cmd/replay/).
 */
#ifndef RS_REPLAY_IDENTITY_H
#define RS_REPLAY_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "kswapd_end.h"
#include "replay.h"

#define RS_IDENTITY_TARGET_PCT	5.0	/* identity target: within 5% ... */
#define RS_IDENTITY_MIN_SCANNED	1000	/* ... on every list with at least this many scanned */

enum rs_id_verdict {
	RS_ID_NONE,		/* nothing scanned by the recording */
	RS_ID_NOT_CHECKED,	/* fewer than RS_IDENTITY_MIN_SCANNED pages scanned */
	RS_ID_NO_CLAIM,		/* checked, but the trace lacks an input its calls needed */
	RS_ID_OK,		/* within the target */
	RS_ID_OFF,		/* claimed and outside the target: a model fault */
};

/* Identity of one list (whole trace or one cgroup). */
struct rs_identity_list {
	uint64_t rec_scanned, rec_reclaimed, model_scanned, model_reclaimed;
	double scanned_err, reclaimed_err;	/* percent; meaningful when rec > 0 */
	bool checked;				/* rec_scanned >= RS_IDENTITY_MIN_SCANNED */
	bool reclaimed_checked;			/* and rec_reclaimed >= the same */
	bool within;				/* checked and every checked error within target */
	/*
	 * Inputs the trace lacks (1 << enum rs_gap) for calls that scanned more than the target
	 * share of this list's recorded pages: their error is printed but identity is not
	 * claimed.
	 */
	unsigned int lacks;
	bool claimed;				/* checked and lacks nothing */
	enum rs_id_verdict verdict;
};

/* Inputs of the verdict that the world does not carry. */
struct rs_identity_opts {
	/*
	 * The trace names the memcg of its shrinks (victims matched from memcg events). Without
	 * it every recorded page counts in the root while the model puts it in the memcg it
	 * scanned: per-cgroup identity is not checked.
	 */
	bool victims_known;
};

/*
 * One node's kswapd calls (a world of two or more nodes): each kswapd scans its own node alone,
 * so its calls' recorded and modelled pages are that node's, checked as a list is.
 */
struct rs_identity_node {
	int nid;
	uint64_t calls;
	struct rs_identity_list list[RS_NR_EVICTABLE];
};

struct rs_identity {
	const struct rs_policy_ops *policy;
	struct rs_identity_list list[RS_NR_EVICTABLE];	/* whole trace */
	int nr_memcg;
	struct rs_identity_list *memcg;		/* [nr_memcg * RS_NR_EVICTABLE]; NULL when !per_cgroup */
	bool per_cgroup;			/* victims known: per-cgroup rows checked */
	unsigned int gap_mask;			/* rs_world_identity_gaps() */
	struct rs_gap_pages *gaps;		/* [1 + nr_memcg] */
	/* Counts over the whole-trace and per-cgroup rows. */
	int claimed, within, not_claimed, not_checked, off;
	/*
	 * LRU sizes came only from snapshots (no lruvec delta): the typical interval between two
	 * snapshots of a memcg's lists, ns; 0 when deltas exist or there is no snapshot.
	 */
	bool sizes_snapshots_only;
	uint64_t snapshot_interval_ns;
	/*
	 * Where kswapd's runs end (include/kswapd_end.h): from pgdat_balanced() on the zone_stat
	 * samples where the trace has them; runs whose derived end is not the recorded one lack
	 * RS_GAP_KSWAPD_END, so their lists are judged only when those runs scanned little of them.
	 */
	struct rs_kswapd_ends kswapd;
	/*
	 * Per node, the kswapd calls (two or more nodes, and every call's outcome kept): in nid
	 * order, nodes without a kswapd call left out. Not in the counts above.
	 */
	struct rs_identity_node *kswapd_node;
	int nr_kswapd_nodes;
	/*
	 * Per node, the other calls (direct, memcg, node reclaim; two or more nodes): a call may
	 * scan every node, so its recorded pages are put on the nodes its shrink events named
	 * and the model's on the nodes it scanned. Nodes without such pages left out; not in the
	 * counts above either.
	 */
	struct rs_identity_node *call_node;
	int nr_call_nodes;
};

/* One list's errors and verdict; gp NULL: the trace lacks nothing for it. */
void rs_identity_list(uint64_t rec_scanned, uint64_t rec_reclaimed, uint64_t model_scanned,
		      uint64_t model_reclaimed, const struct rs_gap_pages *gp, int lru,
		      struct rs_identity_list *out);

/*
 * The whole verdict of `model` (a result of the policy standing for the recorded kernel)
 * against `rec` (rs_replay_recorded()). Returns 0, or -1 with err set (out of memory); free
 * with rs_identity_free().
 */
int rs_identity_compute(const struct rs_world *w, const struct rs_replay_result *rec,
			const struct rs_replay_result *model, const struct rs_identity_opts *o,
			struct rs_identity *out, struct rs_error *err);
void rs_identity_free(struct rs_identity *id);

/* Row of a memcg's list, NULL when per-cgroup identity is not checked. */
const struct rs_identity_list *rs_identity_memcg(const struct rs_identity *id, int memcg,
						 int lru);

/* "ok", "OFF", "NO CLAIM", "not checked", "" (nothing scanned). */
const char *rs_identity_verdict_name(enum rs_id_verdict v);

/* ---------------------------------------------------------------------------------------- */
/* Identity call by call (replay --calls)                                                   */

/*
 * One reclaim call of the policy standing for the recorded kernel against the recording: where
 * the two part. A call the trace has no shrink event of (rec.have false) counts as having
 * scanned nothing, as in the totals (rs_replay_recorded()).
 */
struct rs_identity_call {
	size_t index;				/* the world's call, in time order */
	const struct rs_reclaim_call *call;	/* what was recorded of it */
	const struct rs_call_outcome *model;	/* what the policy did in it */
	uint64_t rec_scanned[RS_NR_EVICTABLE], rec_reclaimed[RS_NR_EVICTABLE];
	int64_t scanned_diff[RS_NR_EVICTABLE];	/* model - recorded */
	/*
	 * The sum of |scanned_diff| over the lists, the rank: a call that scans the wrong list
	 * ranks by what it scanned wrongly, though its total may match.
	 */
	uint64_t diff;
};

struct rs_identity_calls {
	size_t nr_calls;			/* calls replayed */
	size_t nr;				/* listed */
	/* [nr]: the nr calls with the largest diff, largest first; equal ones in time order */
	struct rs_identity_call *call;
	/* model - recorded pages scanned per list: over the listed calls, over every call */
	int64_t listed_diff[RS_NR_EVICTABLE], total_diff[RS_NR_EVICTABLE];
};

/*
 * The `top` calls (0: every call) of `model` (a result of the policy standing for the recorded
 * kernel, replayed over w with keep_calls) that differ most from the recording. Returns 0, or -1
 * with err set (no per-call outcomes kept, out of memory); free with rs_identity_calls_free().
 */
int rs_identity_calls(const struct rs_world *w, const struct rs_replay_result *model, size_t top,
		      struct rs_identity_calls *out, struct rs_error *err);
void rs_identity_calls_free(struct rs_identity_calls *ic);

/* ---------------------------------------------------------------------------------------- */
/* What a policy's figures can claim beyond identity                                       */

#define RS_SOFT_TARGET_PCT	10.0	/* soft-limit passes reproduced within 10% ... */

/*
 * Pages reclaimed from a list a policy scanned far more than the recording did: the rate comes
 * from the recording's small sample (scanned n, reclaimed r of that list in the replayed
 * calls). Up to RS_EXTRAP_MAX_FACTOR x the sample, the 95% Wilson interval of r / n times the
 * pages scanned; beyond it, or with fewer than RS_EXTRAP_MIN_SAMPLE pages sampled, unknown:
 * pages deeper in a list than the kernel ever went need not look like its tail.
 */
#define RS_EXTRAP_FACTOR	2	/* a range from 2 x the sample */
#define RS_EXTRAP_MAX_FACTOR	10
#define RS_EXTRAP_MIN_SAMPLE	32

struct rs_reclaim_range {
	bool extrapolated;	/* scanned > RS_EXTRAP_FACTOR x the sample */
	bool unknown;		/* extrapolated too far: no range */
	uint64_t lo, hi;	/* 95% range of the pages reclaimed (when !unknown) */
	uint64_t sample;	/* the recording's pages scanned on that list */
};

struct rs_policy_claims {
	struct rs_reclaim_range reclaimed[RS_NR_EVICTABLE];	/* inactive lists only */
	struct rs_reclaim_range swapped;			/* = inactive anon's */
	/*
	 * Soft-limit passes. For the policy that stands for the recorded kernel's soft-limit
	 * passes (rs_policy_ops.recorded_soft_passes) on a trace whose kernel ran them: shown only
	 * when it reproduces them within RS_SOFT_TARGET_PCT, else no soft-limit figure is printed
	 * and soft_lacks names the inputs the trace lacks (1 << enum rs_gap).
	 */
	bool soft_checked;	/* the recording has soft-limit passes and this policy stands for them */
	bool soft_shown;	/* its soft-limit figures may be printed */
	double soft_err;	/* percent, scanned */
	unsigned int soft_lacks;
};

/* Claims of policy result `p` against the recording `rec`; gap_mask from rs_identity. */
void rs_policy_claims(const struct rs_replay_result *rec, const struct rs_replay_result *p,
		      unsigned int gap_mask, struct rs_policy_claims *out);
/* The 95% Wilson interval of r / n, in units of 1/2^32 (RS_RATE_ONE); n > 0. */
void rs_wilson95(uint64_t r, uint64_t n, uint64_t *lo, uint64_t *hi);

/* Index of the policy that stands for the recorded kernel among pol[0..n-1], -1 when none. */
int rs_policy_identity_index(const struct rs_policy_ops *const *pol, int n);

/* Error in percent of `model` against `rec` (0 when rec is 0). */
double rs_replay_err_pct(uint64_t model, uint64_t rec);

#endif
