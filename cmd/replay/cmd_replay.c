// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope replay: reconstruct the replay input from a trace (analyzer/replay_*.c), replay
 * the recorded pressure through each policy (models/), and report identity (mainline against
 * the recording), the counterfactuals and, with --inputs, what was reconstructed from which
 * events. docs/replay.md.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "cmd.h"
#include "cmd_args.h"
#include "episodes.h"
#include "refaults_replay.h"
#include "replay_output.h"
#include "replay_refaults.h"
#include "report.h"
#include "u64map.h"

#define MAX_POLICIES		16

enum { O_CALLS = 256 };

#define CALLS_DEFAULT		20	/* --calls without a count */

/* What the options set; the parser stores all but --calls (the table's fields). */
struct replay_args {
	struct rs_replay_input_opts ro;
	struct rs_replay_report rep;
	const char *policy;
	bool json;
};

static const struct rs_cmd_opt replay_opts[] = {
	RS_OPT_STRING("policy", struct replay_args, policy, "NAME,...",
		      "policies to replay, comma-separated, or all (the default)"),
	RS_OPT_BOOL("inputs", struct replay_args, rep.inputs,
		    "show the inputs reconstructed from the trace and their sources"),
	RS_OPT_BOOL("json", struct replay_args, json, "print the replay as JSON (sorted keys)"),
	{ .name = "calls", .has_arg = optional_argument, .val = O_CALLS, .arg = "N",
	  .help = "list the N calls where mainline is most off (default 20; 0 or all: every one)" },
	RS_OPT_UINT("max-calls", struct replay_args, ro.max_calls, "N", 1, 1ll << 30, NULL,
		"keep at most N reclaim invocations (default 1048576; a warning names the rest)"),
	RS_THREADS_OPT,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(replay,
	.summary = "replay the recorded pressure through alternative reclaim policies",
	/* by hand: --calls before --json, not the table's order */
	.synopsis = "[--policy NAME,NAME...|all] [--inputs] [--calls[=N|all]] [--json] "
		    "[--max-calls N]");

/* The name of the registry's policy that stands for the recorded kernel. */
static const char *recorded_kernel_name(void)
{
	const struct rs_policy_ops *const *pol;
	int n = (int)rs_policy_all(&pol);
	int i = rs_policy_identity_index(pol, n);

	return i >= 0 ? pol[i]->name : "mainline";
}

/*
 * The task name of each listed call, from the loading stage's task table (the latest comm seen
 * for its pid); "" where the table has none. An array of ic->nr pointers into the table (kept
 * by the analysis), NULL when out of memory.
 */
static const char **calls_comms(const struct rs_analysis *a, const struct rs_identity_calls *ic)
{
	const struct rs_episodes *e = rs_analysis_episodes_ctx(a);
	const char **comm = calloc(ic->nr ? ic->nr : 1, sizeof(*comm));
	struct rs_u64map pids = { 0 };
	int nr = e ? rs_episodes_nr_tasks(e) : 0;

	if (!comm)
		return NULL;
	for (int t = 0; t < nr; t++) {
		const struct rs_task_info *ti = rs_episodes_task(e, t);

		/* key pid + 1: 0 is the map's empty key and pid 0 (swapper) a real one */
		if (ti && ti->pid >= 0 && rs_u64map_put(&pids, (uint64_t)ti->pid + 1, t) < 0)
			break;
	}
	for (size_t i = 0; i < ic->nr; i++) {
		int pid = ic->call[i].call->pid;
		int t = pid >= 0 ? rs_u64map_get(&pids, (uint64_t)pid + 1) : -1;
		const struct rs_task_info *ti = t >= 0 ? rs_episodes_task(e, t) : NULL;

		comm[i] = ti ? ti->comm : "";
	}
	rs_u64map_free(&pids);
	return comm;
}

static int cmd_replay(int argc, char **argv)
{
	const struct rs_policy_ops *pol[MAX_POLICIES];
	struct rs_analysis_opts ao = { RS_ANALYSIS_OPTS_DEFAULT };
	struct replay_args opt = { .rep = { .identity = -1 } };
	struct rs_cmd_args args = { .ao = &ao, .opts = &opt };
	struct rs_replay_report *rep = &opt.rep;
	struct rs_replay_result *rec = NULL, *res = NULL;
	struct rs_identity id = { 0 };
	struct rs_policy_claims *claims = NULL;
	bool have_id = false;
	struct rs_replay_build b;
	struct rs_refaults_opts rfo = { 0 };
	struct rs_refaults *rf = NULL;
	struct rs_rf_policy *rfp = NULL;
	struct rs_consumer rfc;
	struct rs_replay_opts rpo = { .keep_calls = true };
	struct rs_error err = { "" };
	struct rs_identity_calls calls = { 0 };
	const char **call_comm = NULL;
	long long calls_top = -1;	/* --calls: how many, 0 every one; -1 not asked */
	int c, n, ret;

	optind = 1;
	while ((c = rs_cmd_getopt(&rs_cmd_replay, argc, argv, "", &args)) != -1) {
		if (c != O_CALLS)
			return RS_EXIT_USAGE;	/* reported */
		if (!optarg)
			calls_top = CALLS_DEFAULT;
		else if (!strcmp(optarg, "all"))
			calls_top = 0;
		else if (rs_arg_count(optarg, 0, 1ll << 30, &calls_top))
			return rs_cmd_fail("replay", RS_EXIT_USAGE, "--calls wants a count from 0 "
					   "to %lld or 'all' (0 and all: every call), not '%s'",
					   1ll << 30, optarg);
	}
	n = rs_policy_parse(opt.policy, pol, MAX_POLICIES, &err);
	if (n < 0)
		return rs_cmd_fail("replay", RS_EXIT_USAGE, "--policy: %s", err.msg);
	if (calls_top >= 0 && rs_policy_identity_index(pol, n) < 0)
		return rs_cmd_fail("replay", RS_EXIT_USAGE, "--calls lists the calls of the policy "
				   "that stands for the recorded kernel against the recording: add "
				   "%s to --policy", recorded_kernel_name());
	rep->calls_asked = calls_top >= 0;
	ret = rs_analysis_opts_finish("replay", &ao, argv[optind]);
	if (ret)
		return ret;

	/* the refaults ride along: refaults avoided per policy (include/refaults_replay.h) */
	rf = rs_refaults_new(&rfo, &err);
	if (!rf)
		return rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
	rs_refaults_consumer(rf, &rfc);
	ao.consumers = &rfc;
	ao.nr_consumers = 1;
	if (rs_replay_input_build(argv[optind], &ao, &opt.ro, &b, &err) < 0) {
		rs_refaults_free(rf);
		return rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
	}

	rep->src = rs_analysis_source(b.a);
	rep->ri = b.ri;
	rep->in = rs_replay_input_report(b.ri);
	rep->w = b.w;
	rep->refusal = rs_replay_input_refusal(b.ri);
	rep->folio_granularity = true;
	rep->flushed_stats = true;
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		struct rs_lru_counts lc;

		rs_analysis_lru_sum(b.a, -1, l, -1, -1, &lc);
		rep->analyze[l].scanned = lc.scanned;
		rep->analyze[l].taken = lc.taken;
		rep->analyze[l].reclaimed = lc.reclaimed;
	}
	if (rs_replay_recorded(b.w, &rec, &err) < 0) {
		ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
		goto out;
	}
	rep->rec = rec;
	if (!rep->refusal) {
		if (rs_replay_run(b.w, pol, n, &rpo, &res, &err) < 0) {
			ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
			goto out;
		}
		rep->res = res;
		rep->n = n;
		rep->identity = rs_policy_identity_index(pol, n);
		rfp = calloc((size_t)n, sizeof(*rfp));
		if (!rfp) {
			ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "out of memory");
			goto out;
		}
		for (int i = 0; i < n; i++)
			rs_refaults_replay(rf, b.w, &res[i], &rfp[i]);
	}
	if (rep->identity >= 0) {
		/* per cgroup only when (nearly) every shrink window names its memcg */
		struct rs_identity_opts io = {
			.victims_known = rep->in->victim_none * 20 <= rep->in->windows,
		};

		if (rs_identity_compute(b.w, rec, &res[rep->identity], &io, &id, &err) < 0) {
			ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
			goto out;
		}
		have_id = true;
		rep->id = &id;
		if (calls_top >= 0) {
			if (rs_identity_calls(b.w, &res[rep->identity], (size_t)calls_top, &calls,
					      &err) < 0) {
				ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "%s", err.msg);
				goto out;
			}
			call_comm = calls_comms(b.a, &calls);
			if (!call_comm) {
				ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "out of memory");
				goto out;
			}
			rep->calls = &calls;
			rep->call_comm = call_comm;
		}
	}
	if (rep->res) {
		unsigned int gap_mask = have_id ? id.gap_mask : 0;

		if (!have_id) {
			struct rs_gap_pages *g = calloc(1 + (size_t)rs_world_info(b.w)->nr_memcg,
							sizeof(*g));

			if (!g) {
				ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "out of memory");
				goto out;
			}
			gap_mask = rs_world_identity_gaps(b.w, g);
			free(g);
		}
		claims = calloc((size_t)n, sizeof(*claims));
		if (!claims) {
			ret = rs_cmd_fail("replay", RS_EXIT_INPUT, "out of memory");
			goto out;
		}
		for (int i = 0; i < n; i++)
			rs_policy_claims(rec, &res[i], gap_mask, &claims[i]);
		rep->claims = claims;
	}
	if (opt.json) {
		json_t *root = rs_replay_json(rep);

		if (root && rfp && json_object_set_new(root, "refaults",
				rs_replay_refaults_json(rf, rfp, res, n)) < 0) {
			json_decref(root);
			root = NULL;
		}
		ret = !root || rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
	} else {
		rs_replay_text(stdout, rep);
		if (rfp)
			rs_replay_refaults_text(stdout, rf, rfp, res, n);
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("replay", ret);
out:
	rs_replay_results_free(res, n);
	rs_replay_results_free(rec, 1);
	if (have_id)
		rs_identity_free(&id);
	rs_identity_calls_free(&calls);
	free(call_comm);
	free(claims);
	free(rfp);
	rs_replay_build_free(&b);
	rs_refaults_free(rf);
	return ret;
}
