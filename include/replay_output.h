/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of `replay`: the text report (docs/replay.md) and the JSON document (docs/json.md,
 * section replay). Both read one struct rs_replay_report that cmd/replay/cmd_replay.c fills; they only
 * read it. Identity (the identity policy against the recording) is computed once here
 * (rs_replay_identity) so that text and JSON say the same.
 */
#ifndef RS_REPLAY_OUTPUT_H
#define RS_REPLAY_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "replay_input.h"

struct rs_source;

#define RS_IDENTITY_TARGET_PCT	5.0	/* identity target: within 5% ... */
#define RS_IDENTITY_MIN_SCANNED	1000	/* ... on every list with at least this many scanned */

/* The recording's figures of one list as `analyze` counts them (every lru_isolate). */
struct rs_replay_analyze_list {
	uint64_t scanned, taken, reclaimed;
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
	 * claimed (rs_identity_claim()).
	 */
	unsigned int lacks;
	bool claimed;				/* checked and lacks nothing */
};

struct rs_replay_report {
	const struct rs_source *src;
	const struct rs_replay_input *ri;
	const struct rs_ri_report *in;
	const struct rs_world *w;		/* NULL when refused before a world existed */
	const char *refusal;			/* why nothing was replayed, or NULL */
	struct rs_replay_analyze_list analyze[RS_NR_EVICTABLE];	/* whole trace, as analyze */
	const struct rs_replay_result *rec;	/* the recording, from the calls */
	const struct rs_replay_result *res;	/* [n] policies, in the order asked */
	int n;
	int identity;				/* index of the identity policy (mainline), -1 */
	bool inputs;				/* --inputs */
	bool folio_granularity;			/* the build's world carries folio sizes */
	bool flushed_stats;			/* ... and the flushed-stats view */
	unsigned int gap_mask;			/* rs_world_identity_gaps() */
	const struct rs_gap_pages *gaps;	/* [1 + nr_memcg]: whole trace, per memcg */
};

/* Error in percent of `model` against `rec` (0 when rec is 0). */
double rs_replay_err_pct(uint64_t model, uint64_t rec);
void rs_identity_list(uint64_t rs, uint64_t rr, uint64_t ms, uint64_t mr,
		      struct rs_identity_list *out);
/*
 * Whether identity can be claimed for a list: not when the calls lacking an input scanned more
 * than RS_IDENTITY_TARGET_PCT of its recorded pages (they alone could move it past the target).
 * gp NULL: nothing lacks.
 */
void rs_identity_claim(struct rs_identity_list *il, const struct rs_gap_pages *gp, int lru);
/* The cgroup's path for output ("/" for the root). */
const char *rs_replay_cgroup_name(const struct rs_replay_report *r, int memcg);

/* The whole `replay --json` document; a new reference, NULL when out of memory. */
json_t *rs_replay_json(const struct rs_replay_report *r);
/* The text report, at most 100 columns wide. */
void rs_replay_text(FILE *f, const struct rs_replay_report *r);
/* The --inputs section alone (text). */
void rs_replay_inputs_text(FILE *f, const struct rs_replay_report *r);

#endif
