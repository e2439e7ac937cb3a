// SPDX-License-Identifier: GPL-2.0
/* reclaimscope plot: figures of reclaim from one trace, or several compared (docs/plot.md). */
#include <cairo.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "cgroups.h"
#include "cmd.h"
#include "cmd_args.h"
#include "cmd_outfile.h"
#include "plot_cairo.h"
#include "plot_draw.h"
#include "refaults.h"
#include "rs_warn.h"
#include "trace_source.h"

#define MAX_TRACES 8

enum { O_WHAT = 256 };

/* What the options set; the parser stores all but --what (the table's fields). */
struct plot_args {
	const char *output, *labels;
};

static const struct rs_cmd_opt plot_opts[] = {
	RS_OPT_STRING_SHORT('o', "output", struct plot_args, output, "FILE",
			    "write FILE.svg or FILE.png (default: the first trace's name, .svg)",
			    .synopsis = "[-o FILE.svg|FILE.png]"),
	RS_OPT_ARG("what", O_WHAT, "LIST",
		"figures, comma-separated: scan, stalls, latency, kswapd, cgroups, refaults, all"),
	RS_OPT_STRING("labels", struct plot_args, labels, "A,B...",
		      "names of the traces in the legends (default: base,new for two; file names)"),
	RS_ANALYSIS_OPTS,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(plot,
	.summary = "figures of reclaim as SVG or PNG; two or more traces compared",
	.operands = { 1, INT_MAX, "TRACE..." });

struct plot_run {
	struct plot_trace t[MAX_TRACES];
	struct rs_analysis *a[MAX_TRACES];
	struct rs_cgroups *cg[MAX_TRACES];
	struct rs_refaults *rf[MAX_TRACES];
	struct rs_source *src[MAX_TRACES];
	char *labels[MAX_TRACES];
	int n;
};

static void plot_run_free(struct plot_run *r)
{
	for (int i = 0; i < r->n; i++) {
		rs_refaults_free(r->rf[i]);
		rs_cgroups_free(r->cg[i]);
		rs_analysis_free(r->a[i]);
		rs_source_close(r->src[i]);
		free(r->labels[i]);
	}
}

static cairo_status_t write_out(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
		CAIRO_STATUS_WRITE_ERROR;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

/* Draw onto the output file; 0, or -1 with a message in err. */
static int render(struct rs_outfile *out, bool png, const struct plot_run *r, unsigned int mask,
		  char *err, size_t n)
{
	double h = plot_height(r->t, r->n, mask);
	cairo_surface_t *s;
	cairo_status_t st;
	cairo_t *cr;

	if (png)
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)PLOT_WIDTH, (int)h);
	else
		s = cairo_svg_surface_create_for_stream(write_out, out->f, PLOT_WIDTH, h);
	cr = cairo_create(s);
	plot_draw(cr, r->t, r->n, mask);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && png)
		st = cairo_surface_write_to_png_stream(s, write_out, out->f);
	cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(err, n, "drawing %s failed: %s", out->path, cairo_status_to_string(st));
		return -1;
	}
	return 0;
}

/* The label of trace i: --labels, else base/new for two traces, else the file name. */
static char *trace_label(const char *labels, int i, int n, const char *path)
{
	char *copy, *b, *l;

	if (labels) {
		const char *p = labels;

		for (int k = 0; k < i && p; k++) {
			p = strchr(p, ',');
			if (p)
				p++;
		}
		if (p && *p && *p != ',')
			return strndup(p, strcspn(p, ","));
	}
	if (n == 2)
		return strdup(i ? "new" : "base");
	copy = strdup(path);
	if (!copy)
		return NULL;
	b = basename(copy);
	l = strdup(b);
	free(copy);
	return l;
}

/* FILE.svg in the current directory, named after the trace. */
static char *default_output(const char *trace)
{
	char *copy = strdup(trace), *b, *dot, *out = NULL;

	if (!copy)
		return NULL;
	b = basename(copy);
	dot = strrchr(b, '.');
	if (dot && dot != b)
		*dot = 0;
	if (asprintf(&out, "%s.svg", b) < 0)
		out = NULL;
	free(copy);
	return out;
}

static int cmd_plot(int argc, char **argv)
{
	struct rs_analysis_opts ao = { RS_ANALYSIS_OPTS_DEFAULT, .keep_episodes = true };
	struct plot_args opt = { 0 };
	struct rs_cmd_args args = { .ao = &ao, .opts = &opt };
	struct rs_cgroups_opts co = { 0 };
	struct rs_refaults_opts rfo = { 0 };
	struct plot_run r = { .n = 0 };
	const char *output, *labels;
	unsigned int mask = plot_what_all();
	struct rs_error err = { "" };
	struct rs_outfile out;
	char *def_out = NULL, bad[64], msg[320];
	int c, ret, ntraces;
	bool png;

	optind = 1;
	while ((c = rs_cmd_getopt(&rs_cmd_plot, argc, argv, "o:", &args)) != -1) {
		if (c != O_WHAT)
			return RS_EXIT_USAGE;	/* reported */
		if (plot_what_parse(optarg, &mask, bad, sizeof(bad)) < 0)
			return rs_cmd_fail("plot", RS_EXIT_USAGE, "--what: unknown figure '%s' "
					   "(one of %s)", bad, plot_what_names());
	}
	output = opt.output;
	labels = opt.labels;
	ntraces = argc - optind;
	if (ntraces > MAX_TRACES)
		return rs_cmd_fail("plot", RS_EXIT_USAGE, "at most %d traces in one plot",
				   MAX_TRACES);
	ret = rs_analysis_opts_finish("plot", &ao, NULL);
	if (ret)
		return ret;
	if (!output)
		output = def_out = default_output(argv[optind]);
	if (!output)
		return rs_cmd_fail("plot", RS_EXIT_INPUT, "out of memory");
	png = ends_with(output, ".png");
	if (!png && !ends_with(output, ".svg")) {
		free(def_out);
		return rs_cmd_fail("plot", RS_EXIT_USAGE, "-o wants a file name ending in .svg "
				   "or .png, not '%s'", output);
	}
	if (plot_cairo_load(msg, sizeof(msg)) < 0) {
		free(def_out);
		return rs_cmd_fail("plot", RS_EXIT_INPUT, "%s", msg);
	}
	/* every trace is analysed before the output is opened: a bad trace leaves no file */
	for (int i = 0; i < ntraces; i++) {
		const char *path = argv[optind + i];

		ao.progress = rs_cmd_show_progress(path);
		if (rs_refaults_analysis_run(path, &ao, &co, &rfo, &r.a[i], &r.cg[i], &r.rf[i],
					     &r.src[i], &err) < 0) {
			ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "%s", err.msg);
			goto out;
		}
		r.n = i + 1;
		ret = rs_analysis_selection_check("plot", r.a[i], r.src[i]);
		if (ret)
			goto out;
		if (!rs_analysis_events(r.a[i])) {
			ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "%s: no events to plot (an empty "
					  "trace, or nothing in --from/--to)", path);
			goto out;
		}
		r.labels[i] = trace_label(labels, i, ntraces, path);
		if (!r.labels[i]) {
			ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "out of memory");
			goto out;
		}
		r.t[i] = (struct plot_trace){ .label = r.labels[i],
					      .info = rs_source_info(r.src[i]),
					      .a = r.a[i], .cg = r.cg[i], .rf = r.rf[i] };
	}
	if (rs_outfile_open(&out, output) < 0) {
		ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "%s", out.err);
		goto out;
	}
	if (render(&out, png, &r, mask, msg, sizeof(msg)) < 0) {
		rs_outfile_abort(&out);
		ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "%s", msg);
		goto out;
	}
	if (rs_outfile_commit(&out) < 0) {
		ret = rs_cmd_fail("plot", RS_EXIT_INPUT, "%s", out.err);
		goto out;
	}
	for (int i = 0; i < r.n; i++) {
		const struct rs_warnings *w = rs_analysis_warnings(r.a[i]);

		for (size_t k = 0; k < rs_warnings_count(w); k++) {
			unsigned long times;

			fprintf(stderr, "reclaimscope: plot: %s: warning: %s\n",
				rs_source_info(r.src[i])->path, rs_warnings_get(w, k, &times));
		}
	}
	if (strcmp(output, "-"))
		fprintf(stderr, "reclaimscope: plot: wrote %s\n", output);
	ret = RS_EXIT_OK;
out:
	plot_run_free(&r);
	free(def_out);
	/*
	 * cairo's font caches, then fontconfig's configuration that cairo's text calls loaded (the
	 * XML files parsed once a process, never freed without FcFini()): freed so that leak
	 * checkers see only real leaks. Suppressed instead, each plot under LeakSanitizer had its
	 * leak stacks symbolised, every library's debug information read: 0.3-0.5 CPU-s a run.
	 */
	if (plot_cairo_loaded()) {
		cairo_debug_reset_static_data();
		FcFini();
	}
	return ret;
}
