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
#include "report.h"
#include "trace_source.h"

#define PROGRESS_MIN_BYTES (64ll << 20)

/* A non-negative decimal with up to `digits` fractional digits, scaled exactly. */
static int parse_decimal(const char *s, uint64_t scale, int digits, uint64_t *out)
{
	uint64_t ip = 0, fp = 0;
	int d = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (d < digits) {
				fp = fp * 10 + (uint64_t)(*p - '0');
				d++;
			}
	if (*p || p == s)
		return -1;
	for (; d < digits; d++)
		fp *= 10;
	if (ip > (UINT64_MAX - fp) / scale)
		return -1;
	*out = ip * scale + fp;
	return 0;
}

static int parse_count(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cmd_cgroups(int argc, char **argv)
{
	enum { O_JSON = 256, O_BUCKET, O_FROM, O_TO, O_TOP, O_MAX_CGROUPS, O_MAX_TASKS,
	       O_MAX_BUCKETS };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "bucket", required_argument, NULL, O_BUCKET },
		{ "from", required_argument, NULL, O_FROM },
		{ "to", required_argument, NULL, O_TO },
		{ "top", required_argument, NULL, O_TOP },
		{ "max-cgroups", required_argument, NULL, O_MAX_CGROUPS },
		{ "max-tasks", required_argument, NULL, O_MAX_TASKS },
		{ "max-buckets", required_argument, NULL, O_MAX_BUCKETS },
		{ NULL, 0, NULL, 0 },
	};
	struct rs_analysis_opts ao = { .pid = -1 };
	struct rs_cgroups_opts co = { 0 };
	struct rs_cgroups_text_opts to = { 0 };
	struct rs_error err = { "" };
	struct rs_analysis *a;
	struct rs_cgroups *cg;
	struct rs_source *src;
	bool json = false;
	struct stat st;
	long long v;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_JSON:
			json = true;
			break;
		case O_BUCKET:
			if (parse_decimal(optarg, 1000000ull, 6, &ao.bucket_ns) || !ao.bucket_ns)
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--bucket wants a "
						   "positive number of milliseconds, not '%s'",
						   optarg);
			break;
		case O_FROM:
		case O_TO:
			if (parse_decimal(optarg, 1000000000ull, 9, c == O_FROM ? &ao.from_ns :
					  &ao.to_ns))
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--%s wants "
						   "seconds on the trace clock, not '%s'",
						   c == O_FROM ? "from" : "to", optarg);
			break;
		case O_TOP:
			if (parse_count(optarg, 1, 1000000, &v))
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--top wants a count, "
						   "not '%s'", optarg);
			to.top = (int)v;
			break;
		case O_MAX_CGROUPS:
		case O_MAX_TASKS:
		case O_MAX_BUCKETS:
			if (parse_count(optarg, 1, 1ll << 26, &v))
				return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--%s wants a count "
						   "from 1 to %lld, not '%s'",
						   c == O_MAX_CGROUPS ? "max-cgroups" :
						   c == O_MAX_TASKS ? "max-tasks" : "max-buckets",
						   1ll << 26, optarg);
			if (c == O_MAX_CGROUPS)
				co.max_cgroups = (size_t)v;
			else if (c == O_MAX_TASKS)
				ao.max_tasks = (size_t)v;
			else
				ao.max_buckets = (size_t)v;
			break;
		default:
			return rs_cmd_usage("cgroups", stderr);
		}
	}
	if (optind != argc - 1)
		return rs_cmd_usage("cgroups", stderr);
	if (ao.to_ns && ao.to_ns <= ao.from_ns)
		return rs_cmd_fail("cgroups", RS_EXIT_USAGE, "--to must be after --from");
	to.range = ao.from_ns || ao.to_ns;
	ao.progress = isatty(STDERR_FILENO) && !stat(argv[optind], &st) &&
		      st.st_size >= PROGRESS_MIN_BYTES;
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
