// SPDX-License-Identifier: GPL-2.0
/*
 * Refaults under each replayed policy (include/refaults_replay.h): a text section after the
 * replay report and a `refaults` member of `replay --json`. Only reads results.
 */
#include <inttypes.h>
#include <stdio.h>

#include "refaults_replay.h"
#include "replay_refaults.h"
#include "report.h"

#define JI(v) json_integer((json_int_t)(v))

void rs_replay_refaults_text(FILE *f, const struct rs_refaults *rf, const struct rs_rf_policy *p,
			     const struct rs_replay_result *res, int n)
{
	fprintf(f, "\nREFAULTS AVOIDED (file pages the recording evicted and got back, per call; "
		"docs/refaults.md)\n");
	if (!rs_refaults_recorded(rf)) {
		fprintf(f, "  - : no filemap events in the trace (record without --no-filemap)\n");
		return;
	}
	if (!n)
		return;
	fprintf(f, "  recorded: %" PRIu64 " inactive_file pages evicted in %" PRIu64 " calls, %"
		PRIu64 " of them back in the trace\n", p[0].evicted_pages, p[0].calls,
		p[0].refaulted_pages);
	fprintf(f, "  %-18s %12s %10s %10s  %s\n", "policy", "file evicted", "calls <", "calls >",
		"refaults avoided (pages)");
	for (int i = 0; i < n; i++)
		fprintf(f, "  %-18s %12" PRIu64 " %10" PRIu64 " %10" PRIu64 "  %" PRIu64 "..%"
			PRIu64 "%s\n", res[i].policy ? res[i].policy->name : "?", p[i].policy_pages,
			p[i].calls_fewer, p[i].calls_more, p[i].avoided_min, p[i].avoided_max,
			res[i].policy && res[i].policy->recorded_kernel ?
			"  (the recorded kernel: replay error)" : "");
	fprintf(f, "  calls <: the policy evicted fewer file pages than the recording in that "
		"call;\n  it keeps some of the recorded evictions, and between the bounds of them "
		"came back\n  (which ones it keeps is in no trace). calls >: it evicts pages the "
		"recording kept;\n  their later use is in no trace, so refaults it causes cannot "
		"be known.\n");
	if (p[0].unmatched_refaulted)
		fprintf(f, "  %" PRIu64 " refaulted pages were evicted outside any replayed call\n",
			p[0].unmatched_refaulted);
}

json_t *rs_replay_refaults_json(const struct rs_refaults *rf, const struct rs_rf_policy *p,
				const struct rs_replay_result *res, int n)
{
	json_t *o = json_object(), *pol = json_object();

	json_object_set_new(o, "recorded", json_boolean(rs_refaults_recorded(rf)));
	for (int i = 0; rs_refaults_recorded(rf) && i < n; i++) {
		json_t *x = json_object();

		json_object_set_new(x, "calls", JI(p[i].calls));
		json_object_set_new(x, "recorded_evicted_pages", JI(p[i].evicted_pages));
		json_object_set_new(x, "recorded_refaulted_pages", JI(p[i].refaulted_pages));
		json_object_set_new(x, "policy_evicted_pages", JI(p[i].policy_pages));
		json_object_set_new(x, "calls_fewer", JI(p[i].calls_fewer));
		json_object_set_new(x, "calls_more", JI(p[i].calls_more));
		json_object_set_new(x, "avoided_min_pages", JI(p[i].avoided_min));
		json_object_set_new(x, "avoided_max_pages", JI(p[i].avoided_max));
		json_object_set_new(x, "caused_pages", json_null());
		json_object_set_new(x, "unmatched_refaulted_pages", JI(p[i].unmatched_refaulted));
		json_object_set_new(pol, res[i].policy ? res[i].policy->name : "?", x);
	}
	json_object_set_new(o, "policies", rs_refaults_recorded(rf) ? pol :
			    (json_decref(pol), json_null()));
	return o;
}
