// SPDX-License-Identifier: GPL-2.0
/* reclaimscope export: a Perfetto timeline or JSON lines of a trace's reclaim (docs/export.md). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cgroups.h"
#include "cmd.h"
#include "cmd_args.h"
#include "cmd_outfile.h"
#include "export.h"
#include "rs_warn.h"
#include "trace_source.h"

#define MAX_SLICES_DEFAULT 1000000

/* What the options set; the parser stores each (the table's fields). */
struct export_args {
	struct rs_analysis_opts ao;
	struct export_input in;
	const char *output, *format;
};

static const struct rs_cmd_opt export_opts[] = {
	RS_OPT_STRING("format", struct export_args, format, "FMT",
		      "perfetto (Trace Event Format JSON) or jsonl (a JSON object a line)",
		      .synopsis = "--format perfetto|jsonl"),
	RS_OPT_STRING_SHORT('o', "output", struct export_args, output, "FILE",
			    "write FILE (- for stdout)", .synopsis = "-o FILE"),
	RS_OPT_UINT("max-slices", struct export_args, in.max_slices, "N", 1, 1ll << 40, "a count",
		    "perfetto: write at most N slices and instants (default 1000000)"),
	RS_ANALYSIS_OPTS,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(export,
	.summary = "episodes, kswapd and series as a Perfetto timeline or JSON lines",
	.operands = { 1, 1, "TRACE" });

static int cmd_export(int argc, char **argv)
{
	struct export_args opt = {
		.ao = { RS_ANALYSIS_OPTS_DEFAULT },
		.in = { .max_slices = MAX_SLICES_DEFAULT },
	};
	struct rs_cmd_args args = { .ao = &opt.ao, .opts = &opt };
	struct rs_analysis_opts *ao = &opt.ao;
	struct export_input *in = &opt.in;
	const char *format, *output;
	struct rs_cgroups_opts co = { 0 };
	struct export_result res;
	struct export_spool *spool = NULL;
	struct rs_consumer cons;
	struct rs_cgroups *cg = NULL;
	struct rs_source *src = NULL;
	struct rs_analysis *a = NULL;
	struct rs_error err = { "" };
	struct rs_outfile out;
	bool perfetto;
	int ret;

	if (rs_cmd_parse(&rs_cmd_export, argc, argv, "o:", &args))
		return RS_EXIT_USAGE;	/* reported */
	format = opt.format;
	output = opt.output;
	if (!format || (strcmp(format, "perfetto") && strcmp(format, "jsonl")))
		return rs_cmd_fail("export", RS_EXIT_USAGE, "--format wants perfetto or "
				   "jsonl%s%s%s", format ? ", not '" : "", format ? format : "",
				   format ? "'" : "");
	if (!output)
		return rs_cmd_fail("export", RS_EXIT_USAGE, "-o FILE is needed (- for stdout)");
	perfetto = !strcmp(format, "perfetto");
	ret = rs_analysis_opts_finish("export", ao, argv[optind]);
	if (ret)
		return ret;
	spool = export_spool_new();
	if (!spool)
		return rs_cmd_fail("export", RS_EXIT_INPUT, "cannot make a temporary file");
	export_spool_consumer(spool, &cons);
	ao->consumers = &cons;
	ao->nr_consumers = 1;
	/* the whole analysis first: a trace that cannot be read leaves no output file */
	if (rs_cgroups_analysis_run(argv[optind], ao, &co, &a, &cg, &src, &err) < 0) {
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "%s", err.msg);
		goto out;
	}
	ret = rs_analysis_selection_check("export", a, src);
	if (ret)
		goto out;
	if (!rs_analysis_events(a)) {
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "%s: no events to export (an empty "
				  "trace, or nothing in --from/--to)", argv[optind]);
		goto out;
	}
	if (export_spool_error(spool)) {
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "writing the temporary file: %s",
				  strerror(export_spool_error(spool)));
		goto out;
	}
	in->info = rs_source_info(src);
	in->a = a;
	in->cg = cg;
	in->spool = spool;
	if (rs_outfile_open(&out, output) < 0) {
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "%s", out.err);
		goto out;
	}
	if ((perfetto ? export_perfetto_write(out.f, in, &res) :
			export_jsonl_write(out.f, in, &res)) < 0) {
		rs_outfile_abort(&out);
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "reading back the temporary file "
				  "failed");
		goto out;
	}
	if (rs_outfile_commit(&out) < 0) {
		ret = rs_cmd_fail("export", RS_EXIT_INPUT, "%s", out.err);
		goto out;
	}
	if (res.slices_dropped)
		fprintf(stderr, "reclaimscope: export: warning: --max-slices %llu: %llu of %llu "
			"slices and instants left out (otherData.slices_dropped)\n",
			(unsigned long long)in->max_slices, (unsigned long long)res.slices_dropped,
			(unsigned long long)(res.slices + res.slices_dropped));
	ret = RS_EXIT_OK;
out:
	rs_cgroups_free(cg);
	rs_analysis_free(a);
	rs_source_close(src);
	export_spool_free(spool);
	return ret;
}
