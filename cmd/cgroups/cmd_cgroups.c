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

int cmd_cgroups(int argc, char **argv)
{
	enum { O_JSON = 256, O_TOP, O_MAX_CGROUPS };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "top", required_argument, NULL, O_TOP },
		{ "max-cgroups", required_argument, NULL, O_MAX_CGROUPS },
		RS_ANALYSIS_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct rs_analysis_opts ao = { .pid = -1, .threads = 1 };
	struct rs_cgroups_opts co = { 0 };
	struct rs_cgroups_text_opts to = { 0 };
	struct rs_error err = { "" };
	struct rs_analysis *a;
	struct rs_cgroups *cg;
	struct rs_source *src;
	bool json = false;
	long long v;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_JSON:
			json = true;
			break;
		case O_TOP:
			if (rs_arg_count(optarg, 1, 1000000, &v))
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--top wants a count, "
						   "not '%s'", optarg);
			to.top = (int)v;
			break;
		case O_MAX_CGROUPS:
			if (rs_arg_count(optarg, 1, 1ll << 26, &v))
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--max-cgroups wants a "
						   "count from 1 to %lld, not '%s'", 1ll << 26,
						   optarg);
			co.max_cgroups = (size_t)v;
			break;
		default:
			ret = rs_analysis_opt("cgroups", c, optarg, &ao);
			if (ret < 0)
				return rs_cmd_usage("cgroups", stderr);
			if (ret)
				return ret;
			break;
		}
	}
	if (optind != argc - 1)
		return rs_cmd_usage("cgroups", stderr);
	ret = rs_analysis_opts_check("cgroups", &ao);
	if (ret)
		return ret;
	to.range = ao.from_ns || ao.to_ns;
	ao.progress = rs_cmd_show_progress(argv[optind]);
	if (rs_cgroups_analysis_run(argv[optind], &ao, &co, &a, &cg, &src, &err) < 0)
		return rs_cmd_fail("cgroups", RS_EXIT_INPUT, "%s", err.msg);
	if (json) {
		json_t *root = json_object();

		if (!root || (json_object_set_new(root, "trace", rs_report_trace_json(src)),
			      rs_cgroups_json_add(root, cg) < 0)) {
			json_decref(root);
			ret = rs_cmd_fail("cgroups", RS_EXIT_INPUT, "out of memory");
		} else {
			ret = rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
		}
	} else {
		rs_cgroups_text_report(stdout, src, cg, &to);
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("cgroups", ret);
	rs_cgroups_free(cg);
	rs_analysis_free(a);
	rs_source_close(src);
	return ret;
}
