/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of `replay`: the text report (docs/replay.md) and the JSON document (docs/json.md,
 * section replay). Both read one struct rs_replay_report that cmd/replay/cmd_replay.c fills; they only
 * read it. The identity verdict is models/' (include/replay_identity.h), computed once by the
 * command, so that text and JSON say the same.
 */
#ifndef RS_REPLAY_OUTPUT_H
#define RS_REPLAY_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "replay_identity.h"
#include "replay_input.h"

struct rs_source;

/* The recording's figures of one list as `analyze` counts them (every lru_isolate). */
struct rs_replay_analyze_list {
	uint64_t scanned, taken, reclaimed;
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
	int identity;				/* index of the recorded kernel's policy, -1 */
	const struct rs_identity *id;		/* its verdict, NULL when identity is not run */
	const struct rs_policy_claims *claims;	/* [n]: what each policy's figures can claim */
	bool inputs;				/* --inputs */
	/*
	 * --calls: identity call by call (models/identity.c), NULL when not asked or not run;
	 * call_comm[i] the name of the task of calls->call[i], "" when the trace has none.
	 */
	const struct rs_identity_calls *calls;
	const char *const *call_comm;
	bool calls_asked;			/* --calls (JSON: null when refused) */
	bool folio_granularity;			/* the build's world carries folio sizes */
	bool flushed_stats;			/* ... and the flushed-stats view */
};

/* The cgroup's path for output ("/" for the root). */
const char *rs_replay_cgroup_name(const struct rs_replay_report *r, int memcg);

/* The whole `replay --json` document; a new reference, NULL when out of memory. */
json_t *rs_replay_json(const struct rs_replay_report *r);
/* The text report, at most 100 columns wide. */
void rs_replay_text(FILE *f, const struct rs_replay_report *r);
/* The --calls section alone (text): r->calls must be set. */
void rs_replay_calls_text(FILE *f, const struct rs_replay_report *r);
/* The --calls object (`replay.calls`), a new reference: r->calls must be set. */
json_t *rs_replay_calls_json(const struct rs_replay_report *r);
/* The --inputs section alone (text). */
void rs_replay_inputs_text(FILE *f, const struct rs_replay_report *r);

#endif
