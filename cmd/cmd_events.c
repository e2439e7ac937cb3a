// SPDX-License-Identifier: GPL-2.0
/* reclaimscope events: what is in a trace, before any analysis. */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_args.h"
#include "report.h"
#include "trace_source.h"

static int count_only(const struct rs_event *ev, void *ctx)
{
	(void)ev;
	(void)ctx;
	return 0;
}

/* What the options set; the parser stores each (the table's fields). */
struct events_args {
	bool json;
};

static const struct rs_cmd_opt events_opts[] = {
	RS_OPT_BOOL("json", struct events_args, json, "print the inventory as JSON (sorted keys)"),
	RS_THREADS_OPT,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(events,
	.summary = "list the events of a trace: counts, times, CPUs, losses");

static int cmd_events(int argc, char **argv)
{
	struct rs_source_opts sopts = { .threads = rs_threads_auto() };
	struct events_args opt = { 0 };
	struct rs_cmd_args args = { .threads = &sopts.threads, .opts = &opt };
	struct rs_source *src = NULL;
	struct rs_error err = { "" };
	int ret;

	if (rs_cmd_parse(&rs_cmd_events, argc, argv, "", &args))
		return RS_EXIT_USAGE;	/* reported */
	sopts.progress = isatty(STDERR_FILENO);
	if (rs_source_open(argv[optind], &sopts, &src, &err) < 0)
		return rs_cmd_fail("events", RS_EXIT_INPUT, "%s", err.msg);
	if (rs_source_stream(src, 0, UINT64_MAX, count_only, NULL, &err) < 0) {
		ret = rs_cmd_fail("events", RS_EXIT_INPUT, "%s", err.msg);
		goto out;
	}
	if (opt.json) {
		json_t *root = json_pack("{s:o}", "trace", rs_report_trace_json(src));

		ret = rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
	} else {
		rs_report_trace_text(stdout, src, 1);
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("events", ret);
out:
	rs_source_close(src);
	return ret;
}
