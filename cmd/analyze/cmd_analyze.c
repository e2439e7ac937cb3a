// SPDX-License-Identifier: GPL-2.0
/* reclaimscope analyze: per-LRU scan pressure, reclaim episodes, stalls, kswapd, over time. */
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "analyze_output.h"
#include "cgroups.h"
#include "cgroups_output.h"
#include "cmd.h"
#include "cmd_args.h"
#include "findings.h"
#include "refaults.h"
#include "refaults_output.h"
#include "report.h"
#include "trace_source.h"

static bool utf8_locale(void)
{
	const char *cs;

	if (!setlocale(LC_CTYPE, ""))
		return false;
	cs = nl_langinfo(CODESET);
	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

enum { O_COMM = 256 };

/* What the options set; the parser stores all but --comm (the table's fields). */
struct analyze_args {
	struct rs_analysis_opts ao;
	struct rs_text_opts to;
	struct rs_refaults_opts ro;
	uint64_t thrash_ms;
	bool json;
};

static const struct rs_cmd_opt analyze_opts[] = {
	RS_OPT_BOOL("json", struct analyze_args, json, "print the analysis as JSON (sorted keys)"),
	RS_OPT_BOOL("summary", struct analyze_args, to.summary_only,
		    "print only the header and the SUMMARY (JSON: trace, analysis, summary)"),
	RS_OPT_BOOL("with-cgroups", struct analyze_args, to.with_cgroups,
		    "add the per-cgroup sections of reclaimscope cgroups to the text"),
	RS_OPT_UINT("pid", struct analyze_args, ao.pid, "N", 0, INT_MAX, "a pid",
		    "count only the task with this pid"),
	RS_OPT_ARG("comm", O_COMM, "NAME", "count only tasks with this name"),
	RS_OPT_UINT("top", struct analyze_args, to.top_tasks, "N", 1, 1000000, "a count",
		    "rows in the per-task tables (default 20)"),
	RS_OPT_UINT("max-evicted", struct analyze_args, ro.max_evicted, "N", 1, 1ll << 30,
		    "a count of ranges, 1..2^30",
		"refaults: keep at most N evicted ranges (default 1048576; then lower bounds)"),
	RS_OPT_UINT("thrash-distance", struct analyze_args, thrash_ms, "MS", 1, 3600000,
		    "milliseconds, 1..3600000",
		    "refaults: back within MS of eviction counts as thrashing (default 1000)"),
	RS_ANALYSIS_OPTS,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(analyze,
	.summary = "per-LRU scan pressure, reclaim episodes, stalls, kswapd, over time");

int rs_analyzed_run(const char *path, const struct rs_analysis_opts *ao,
		    const struct rs_cgroups_opts *co, const struct rs_refaults_opts *ro,
		    struct rs_analyzed *r, struct rs_error *err)
{
	if (rs_refaults_analysis_run(path, ao, co, ro, &r->a, &r->cg, &r->rf, &r->src, err) < 0)
		return -1;
	rs_findings_of(r->a, r->cg, r->src, &r->fd);
	rs_refaults_findings(r->rf, &r->fd);
	return 0;
}

static int cmd_analyze(int argc, char **argv)
{
	struct analyze_args opt = { .ao = { RS_ANALYSIS_OPTS_DEFAULT } };
	struct rs_cmd_args args = { .ao = &opt.ao, .opts = &opt };
	struct rs_text_opts *to = &opt.to;
	struct rs_cgroups_opts co = { 0 };
	struct rs_cgroups_text_opts cto = { 0 };
	struct rs_error err = { "" };
	struct rs_analyzed r;
	int c, ret;

	optind = 1;
	while ((c = rs_cmd_getopt(&rs_cmd_analyze, argc, argv, "", &args)) != -1) {
		if (c != O_COMM)
			return RS_EXIT_USAGE;	/* reported */
		/* the kernel's comm holds 15 characters: a longer name would match no task */
		if (!*optarg || strlen(optarg) > 15)
			return rs_cmd_fail("analyze", RS_EXIT_USAGE, "--comm wants a task name of "
					   "1 to 15 characters, not '%s'", optarg);
		opt.ao.comm = optarg;
	}
	opt.ro.thrash_distance_ns = opt.thrash_ms * 1000000ull;
	ret = rs_analysis_opts_finish("analyze", &opt.ao, argv[optind]);
	if (ret)
		return ret;
	if (rs_analyzed_run(argv[optind], &opt.ao, &co, &opt.ro, &r, &err) < 0)
		return rs_cmd_fail("analyze", RS_EXIT_INPUT, "%s", err.msg);
	ret = rs_analysis_selection_check("analyze", r.a, r.src);
	if (ret) {
		rs_analyzed_free(&r);
		return ret;
	}
	if (opt.json) {
		json_t *root = rs_analyzed_json(&r);

		if (root && to->summary_only) {
			/* the trace header and the summary */
			json_t *s = json_pack("{s:O,s:O,s:O}", "trace", json_object_get(root, "trace"),
					      "analysis", json_object_get(root, "analysis"),
					      "summary", json_object_get(root, "summary"));

			json_decref(root);
			root = s;
		}
		ret = rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
	} else {
		to->utf8 = utf8_locale();
		to->findings = &r.fd;
		cto.top = to->top_tasks;
		cto.mglru = rs_source_info(r.src)->mglru == 1;
		rs_analysis_text(stdout, r.a, r.src, to);
		if (to->with_cgroups && !to->summary_only)
			rs_cgroups_text(stdout, r.cg, &cto);
		if (!to->summary_only)
			rs_refaults_text(stdout, r.rf, r.cg);
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("analyze", ret);
	rs_analyzed_free(&r);
	return ret;
}

void rs_analyzed_free(struct rs_analyzed *r)
{
	rs_refaults_free(r->rf);
	rs_cgroups_free(r->cg);
	rs_analysis_free(r->a);
	rs_source_close(r->src);
}
