// SPDX-License-Identifier: GPL-2.0
/* reclaimscope cgroups: per-cgroup reclaim attribution (docs/cgroups.md). */
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
#include "cgroups.h"
#include "cgroups_output.h"
#include "cmd.h"
#include "cmd_args.h"
#include "report.h"
#include "trace_source.h"

/* What the options set; the parser stores each (the table's fields). */
struct cgroups_args {
	bool json;
	struct rs_cgroups_opts co;
	struct rs_cgroups_text_opts to;
};

static const struct rs_cmd_opt cgroups_opts[] = {
	RS_OPT_BOOL("json", struct cgroups_args, json,
		    "print the attribution as JSON (sorted keys)"),
	RS_OPT_UINT("top", struct cgroups_args, to.top, "N", 1, 1000000, "a count",
		    "rows in the per-cgroup tables (default 20)"),
	RS_OPT_UINT("max-cgroups", struct cgroups_args, co.max_cgroups, "N", 1, 1ll << 26, NULL,
		    "track at most N cgroups (the rest are summed as other)"),
	RS_ANALYSIS_OPTS,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(cgroups,
	.summary = "per-cgroup reclaim: who entered it, whose pages it took");

static int cmd_cgroups(int argc, char **argv)
{
	struct rs_analysis_opts ao = { RS_ANALYSIS_OPTS_DEFAULT };
	struct cgroups_args opt = { 0 };
	struct rs_cgroups_text_opts *to = &opt.to;
	struct rs_cmd_args args = { .ao = &ao, .opts = &opt };
	struct rs_error err = { "" };
	struct rs_analysis *a;
	struct rs_cgroups *cg;
	struct rs_source *src;
	int ret;

	if (rs_cmd_parse(&rs_cmd_cgroups, argc, argv, "", &args))
		return RS_EXIT_USAGE;	/* reported */
	ret = rs_analysis_opts_finish("cgroups", &ao, argv[optind]);
	if (ret)
		return ret;
	to->range = ao.from_ns || ao.to_ns;
	if (rs_cgroups_analysis_run(argv[optind], &ao, &opt.co, &a, &cg, &src, &err) < 0)
		return rs_cmd_fail("cgroups", RS_EXIT_INPUT, "%s", err.msg);
	to->mglru = rs_source_info(src)->mglru == 1;
	ret = rs_analysis_selection_check("cgroups", a, src);
	if (ret)
		goto out_free;
	if (opt.json) {
		json_t *root = json_object();

		if (!root || (json_object_set_new(root, "trace", rs_report_trace_json(src)),
			      rs_cgroups_json_add(root, cg) < 0)) {
			json_decref(root);
			ret = rs_cmd_fail("cgroups", RS_EXIT_INPUT, "out of memory");
		} else {
			ret = rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
		}
	} else {
		rs_cgroups_text_report(stdout, src, cg, to);
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("cgroups", ret);
out_free:
	rs_cgroups_free(cg);
	rs_analysis_free(a);
	rs_source_close(src);
	return ret;
}
