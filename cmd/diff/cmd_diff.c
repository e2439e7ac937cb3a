// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope diff: compare the analyses of two kernels (or two sets of runs), in the form of
 * the comparison tables kernel MM threads post ("base: min: X max: Y avg: Z std: S runs: N").
 * Inputs are traces or saved `analyze --json` outputs, mixed at will. docs/diff.md.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis.h"
#include "analyze_output.h"
#include "cgroups.h"
#include "refaults.h"
#include "cmd.h"
#include "cmd_args.h"
#include "compare.h"
#include "diff_output.h"
#include "diff_rank.h"
#include "report.h"
#include "rs_file.h"
#include "trace_source.h"

enum diff_format { FMT_TABLE, FMT_SEED, FMT_MMTESTS };

struct diff_opts {
	bool json;
	enum diff_format format;
	struct rs_rank_opts rank;	/* --all, --threshold */
	double only_changed;		/* < 0: show every metric */
	double alpha;
	char *labels[RS_NR_SIDES];	/* from --labels, else NULL */
	const char **inputs[RS_NR_SIDES];
	size_t nr_inputs[RS_NR_SIDES];
	int threads;			/* --threads: reading each trace input */
};

/* Progress is worth showing from this size on (as `analyze` does). */
#define PROGRESS_MIN_BYTES (64ll << 20)

/*
 * The analysis of a trace file, exactly as `reclaimscope analyze --json FILE` prints it (whole
 * trace, default options), so a trace and its saved analysis compare equal.
 */
static json_t *analysis_json_of_trace(const char *path, int threads, struct rs_error *err)
{
	struct rs_analysis_opts ao = { .pid = -1, .threads = threads };
	struct rs_cgroups_opts co = { 0 };
	struct rs_refaults_opts ro = { 0 };
	struct rs_analyzed r;
	struct stat st;
	json_t *j;

	ao.progress = isatty(STDERR_FILENO) && !stat(path, &st) &&
		      st.st_size >= PROGRESS_MIN_BYTES;
	if (rs_analyzed_run(path, &ao, &co, &ro, &r, err) < 0) {
		/* name the file once */
		if (strncmp(err->msg, path, strlen(path)))
			rs_error_prefix(err, "%s: ", path);
		return NULL;
	}
	j = rs_analyzed_json(&r);
	rs_analyzed_free(&r);
	if (!j)
		rs_error_set(err, "%s: out of memory", path);
	return j;
}

/*
 * Load one input: a saved analysis (a JSON object with a "trace" object) or a trace. Sets
 * *input to "analysis" or "trace". Returns a new reference, or NULL with err set.
 */
static json_t *load_input(const char *path, int threads, const char **input,
			  struct rs_error *err)
{
	json_error_t jerr;
	json_t *root;
	struct stat st;
	FILE *f;
	int ch, fd, bom = 0;

	fd = rs_file_open(path, true, err);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !(f = fdopen(fd, "rb"))) {
		rs_error_set(err, "%s: cannot read: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	errno = 0;
	ch = getc(f);
	/* a UTF-8 byte-order mark before JSON (editors on some systems write one) */
	if (ch == 0xef && getc(f) == 0xbb && getc(f) == 0xbf) {
		bom = 3;
		ch = getc(f);
	}
	while (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
		ch = getc(f);
	if (ch == EOF) {
		int e = ferror(f) ? errno : 0;

		fclose(f);
		if (e)
			rs_error_set(err, "%s: cannot read: %s", path, strerror(e));
		else
			rs_error_set(err, "%s: empty%s, neither a trace nor an analysis", path,
				     S_ISFIFO(st.st_mode) ? " pipe (no writer)" : " file");
		return NULL;
	}
	if (ch != '{') {
		fclose(f);
		if (!S_ISREG(st.st_mode)) {
			rs_error_set(err, "%s: a pipe that is not a saved analysis (JSON): a trace "
				     "is read more than once and must be a regular file", path);
			return NULL;
		}
		*input = "trace";
		return analysis_json_of_trace(path, threads, err);
	}
	if (S_ISREG(st.st_mode)) {
		rewind(f);
		for (int i = 0; i < bom; i++)
			(void)getc(f);
	} else {
		/* a pipe cannot rewind: the '{' read goes back, the blanks before it do not matter */
		ungetc(ch, f);
	}
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!root) {
		rs_error_set(err, "%s: not valid JSON (line %d, column %d: %s)", path, jerr.line,
			     jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(root) || !json_is_object(json_object_get(root, "trace"))) {
		json_decref(root);
		rs_error_set(err, "%s: JSON without a \"trace\" object: not the output of "
			     "`reclaimscope analyze --json`", path);
		return NULL;
	}
	*input = "analysis";
	return root;
}

/* A label from a file name: the base name without its last extension. */
static char *label_of(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	base = base && base[1] ? base + 1 : path;
	dot = strrchr(base, '.');
	if (dot && dot != base)
		return strndup(base, (size_t)(dot - base));
	return strdup(base);
}

/* A number >= 0 with an optional '%'; *pct says whether it had one (NULL: ignored). */
static int parse_num_pct(const char *s, double *out, bool *pct)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (pct)
		*pct = false;
	if (end != s && *end == '%') {
		end++;
		if (pct)
			*pct = true;
	}
	return end == s || *end || errno || !isfinite(*out) || *out < 0 ? -1 : 0;
}

static int parse_pct(const char *s, double *out)
{
	return parse_num_pct(s, out, NULL);
}

/* --alpha: a probability; "0.5%" is 0.005, not 0.5 */
static int parse_alpha(const char *s, double *out)
{
	bool pct;

	if (parse_num_pct(s, out, &pct) < 0)
		return -1;
	if (pct)
		*out /= 100.0;
	return *out > 0 && *out < 1 ? 0 : -1;
}

static int add_input(struct diff_opts *o, int side, const char *path)
{
	const char **v = realloc(o->inputs[side], (o->nr_inputs[side] + 1) * sizeof(*v));

	if (!v)
		return -1;
	v[o->nr_inputs[side]++] = path;
	o->inputs[side] = v;
	return 0;
}

enum { OPT_ONLY_CHANGED = 256, OPT_LABELS, OPT_ALPHA, OPT_BASE, OPT_NEW, OPT_THRESHOLD,
       OPT_FORMAT };

static const struct rs_cmd_opt diff_opts[] = {
	RS_OPT_BOOL("json", struct diff_opts, json, "print the comparison as JSON (sorted keys)"),
	RS_OPT_ARG("format", OPT_FORMAT, "FORM",
		   "table (default: what changed), mmtests, or seed (every metric)",
		   .synopsis = "[--format table|mmtests|seed]"),
	RS_OPT_ARG("threshold", OPT_THRESHOLD, "PCT",
		   "rank only figures that moved by PCT percent or more (default 10)"),
	RS_OPT_BOOL("all", struct diff_opts, rank.all, "rank every figure, moved or not"),
	RS_OPT_ARG("only-changed", OPT_ONLY_CHANGED, "PCT",
		   "show only metrics whose mean changed by at least PCT percent"),
	RS_OPT_ARG("labels", OPT_LABELS, "BASE,NEW",
		   "names of the two sides (default: from the file names)"),
	RS_OPT_ARG("alpha", OPT_ALPHA, "A",
		   "significance level of Welch's t-test (default 0.05)"),
	/* the second form's */
	RS_OPT_FLAG("base", OPT_BASE, "the files that follow are runs of the base",
		    .synopsis = ""),
	RS_OPT_FLAG("new", OPT_NEW, "the files that follow are runs of the new side",
		    .synopsis = ""),
	RS_THREADS_OPT,
	RS_CMD_OPT_END,
};

RS_CMD_DEFINE(diff,
	.summary = "compare kernels: what changed, ranked, with Welch's t-test",
	.forms = "[options] --base A1 A2... --new B1 B2...",
	/* A B, or the files after --base and --new: parse_args() counts them */
	.operands = { .name = "A B" });

/* Returns RS_EXIT_OK, or the exit status of a usage error (already reported). */
static int parse_args(int argc, char **argv, struct diff_opts *o)
{
	/* --json and --all are stored, --threads taken */
	struct rs_cmd_args args = { .threads = &o->threads, .opts = o };
	const char *loose[2];
	size_t nr_loose = 0;
	int mode = -1;		/* -1: plain A B; else the side --base/--new files go to */
	bool sides = false;
	char *comma;
	int c;

	optind = 1;
	/* "-": every non-option comes back in order as 1, so files follow --base / --new. */
	while ((c = rs_cmd_getopt(&rs_cmd_diff, argc, argv, "-", &args)) != -1) {
		switch (c) {
		case OPT_THRESHOLD:
			if (parse_pct(optarg, &o->rank.threshold_pct) < 0)
				return rs_cmd_fail("diff", RS_EXIT_USAGE, "--threshold '%s': want a "
						   "percentage >= 0", optarg);
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "table"))
				o->format = FMT_TABLE;
			else if (!strcmp(optarg, "seed"))
				o->format = FMT_SEED;
			else if (!strcmp(optarg, "mmtests"))
				o->format = FMT_MMTESTS;
			else
				return rs_cmd_fail("diff", RS_EXIT_USAGE, "--format '%s': want "
						   "table, seed or mmtests", optarg);
			break;
		case OPT_ONLY_CHANGED:
			if (parse_pct(optarg, &o->only_changed) < 0)
				return rs_cmd_fail("diff", RS_EXIT_USAGE, "--only-changed '%s': "
						   "want a percentage >= 0", optarg);
			break;
		case OPT_ALPHA:
			if (parse_alpha(optarg, &o->alpha) < 0)
				return rs_cmd_fail("diff", RS_EXIT_USAGE, "--alpha '%s': want a "
						   "number between 0 and 1, e.g. 0.05 (or 5%%)",
						   optarg);
			break;
		case OPT_LABELS:
			comma = strchr(optarg, ',');
			if (!comma || comma == optarg || !comma[1])
				return rs_cmd_fail("diff", RS_EXIT_USAGE, "--labels '%s': want "
						   "BASE,NEW", optarg);
			free(o->labels[0]);
			free(o->labels[1]);
			o->labels[0] = strndup(optarg, (size_t)(comma - optarg));
			o->labels[1] = strdup(comma + 1);
			if (!o->labels[0] || !o->labels[1])
				return rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
			break;
		case OPT_BASE:
		case OPT_NEW:
			mode = c == OPT_BASE ? RS_SIDE_BASE : RS_SIDE_NEW;
			sides = true;
			break;
		case 1:
			if (mode < 0) {
				if (nr_loose == 2)
					return rs_cmd_usage(&rs_cmd_diff, stderr);
				loose[nr_loose++] = optarg;
			} else if (add_input(o, mode, optarg) < 0) {
				return rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
			}
			break;
		default:
			return RS_EXIT_USAGE;	/* reported */
		}
	}
	/* after "--": the rest are files too */
	for (; optind < argc; optind++) {
		if (mode < 0) {
			if (nr_loose == 2)
				return rs_cmd_usage(&rs_cmd_diff, stderr);
			loose[nr_loose++] = argv[optind];
		} else if (add_input(o, mode, argv[optind]) < 0) {
			return rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
		}
	}
	if (sides) {
		if (nr_loose)
			return rs_cmd_fail("diff", RS_EXIT_USAGE, "'%s': files go after --base or "
					   "--new", loose[0]);
		if (!o->nr_inputs[RS_SIDE_BASE] || !o->nr_inputs[RS_SIDE_NEW])
			return rs_cmd_fail("diff", RS_EXIT_USAGE, "--base and --new each need at "
					   "least one file");
		return RS_EXIT_OK;
	}
	if (nr_loose != 2)
		return rs_cmd_usage(&rs_cmd_diff, stderr);
	if (add_input(o, RS_SIDE_BASE, loose[0]) < 0 || add_input(o, RS_SIDE_NEW, loose[1]) < 0)
		return rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
	return RS_EXIT_OK;
}

/* ---- text output ---- */

/* "%.2f" that never prints "-0.00". */
static void put_num(FILE *f, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.2f", v);
	fputs(strcmp(buf, "-0.00") ? buf : "0.00", f);
}

static void put_pct(FILE *f, double pct)
{
	char buf[64];

	if (isnan(pct)) {
		fputs(" [n/a]", f);
		return;
	}
	snprintf(buf, sizeof(buf), "%.1f", pct);
	fprintf(f, " [%s%%]", strcmp(buf, "-0.0") ? buf : "0.0");
}

/* One seed-form line: "LABEL: min: X [P%] max: Y [P%] avg: Z [P%] std: S runs: N". */
static void put_side(FILE *f, const char *label, const struct rs_metric_diff *d, int side)
{
	const struct rs_summary *s = &d->side[side];

	fprintf(f, "%s: min: ", label);
	put_num(f, s->min);
	if (side == RS_SIDE_NEW)
		put_pct(f, d->pct_min);
	fputs(" max: ", f);
	put_num(f, s->max);
	if (side == RS_SIDE_NEW)
		put_pct(f, d->pct_max);
	fputs(" avg: ", f);
	put_num(f, s->avg);
	if (side == RS_SIDE_NEW)
		put_pct(f, d->pct_avg);
	fputs(" std: ", f);
	put_num(f, s->std);
	fprintf(f, " runs: %zu\n", s->n);
}

static void put_p(FILE *f, const struct rs_welch *w)
{
	if (!w->valid)
		fputs("p=n/a", f);
	else if (w->p < 0.0001)
		fputs("p<0.0001", f);
	else
		fprintf(f, "p=%.4f", w->p);
}

static bool any_testable(const struct rs_compare *c)
{
	for (size_t i = 0; i < rs_compare_nr_metrics(c); i++)
		if (rs_compare_metric(c, i)->welch.valid)
			return true;
	return false;
}

static void put_run_line(FILE *f, const struct rs_compare *c, int side, const char *label)
{
	size_t n = rs_compare_nr_runs(c, side);

	fprintf(f, "%-9s %s: %zu run%s, kernel ", side == RS_SIDE_BASE ? "base" : "new", label,
		n, n == 1 ? "" : "s");
	for (size_t i = 0; i < rs_compare_nr_kernels(c, side); i++)
		fprintf(f, "%s%s", i ? ", " : "", rs_compare_kernel(c, side, i));
	fputs(":", f);
	for (size_t i = 0; i < n; i++) {
		const struct rs_run_info *r = rs_compare_run(c, side, i);

		fprintf(f, " %s%s", r->path, strcmp(r->input, "trace") ? "" : " (trace)");
	}
	fputc('\n', f);
}

/*
 * The shortest element (a name prefix ending before "." or "[" outside brackets) that holds
 * `name` and that the other side has nothing under: the whole subtree is one-sided. Returns
 * its length, or strlen(name) when only the figure itself is missing.
 */
static size_t missing_subtree(const struct rs_compare *c, const struct rs_left_out *lo)
{
	const char *name = lo->name;
	int depth = 0;

	for (size_t i = 0; name[i]; i++) {
		if (name[i] == ']' && depth > 0)
			depth--;
		if (depth == 0 && i > 0 && (name[i] == '.' || name[i] == '[') &&
		    !rs_compare_side_has_under(c, !lo->only_in, name, i))
			return i;
		if (name[i] == '[')
			depth++;
	}
	return strlen(name);
}

static bool under(const char *name, const char *prefix, size_t len)
{
	return !strncmp(name, prefix, len) && (name[len] == '.' || name[len] == '[');
}

static void put_left_out(FILE *f, const struct rs_compare *c, const char *const labels[])
{
	size_t n = rs_compare_nr_left_out(c);

	if (!n)
		return;
	fprintf(f, "\nleft out: %zu metric%s only one side has\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n;) {
		const struct rs_left_out *lo = rs_compare_left_out(c, i);
		size_t len = missing_subtree(c, lo), j = i + 1;

		/* Collapse a whole missing subtree (a cgroup, a task, a context) into one line. */
		while (j < n && rs_compare_left_out(c, j)->only_in == lo->only_in &&
		       under(rs_compare_left_out(c, j)->name, lo->name, len))
			j++;
		if (j - i > 1)
			fprintf(f, "  %.*s%s (%zu metrics, only in %s)\n", (int)len, lo->name,
				lo->name[len] == '[' ? "[...]" : ".*", j - i, labels[lo->only_in]);
		else
			fprintf(f, "  %s (only in %s)\n", lo->name, labels[lo->only_in]);
		i = j;
	}
}

/* The run lines and the notes on kernels and events: the head of every text form. */
/*
 * The NOTE naming the events that fired only on side s: those the other side did not trace
 * (quiet false) or traced and saw none of (quiet true). Returns whether it wrote one.
 */
static bool put_events_only(FILE *f, const struct rs_compare *c, int s, bool quiet,
			    const char *const labels[])
{
	size_t shown = 0;

	for (size_t i = 0; i < rs_compare_nr_events_only(c, s); i++) {
		if (rs_compare_event_only_quiet(c, s, i) != quiet)
			continue;
		if (!shown++)
			fprintf(f, "NOTE      events %s only in %s:", quiet ? "that fired" :
				"recorded", labels[s]);
		fprintf(f, "%s %s", shown > 1 ? "," : "", rs_compare_event_only(c, s, i));
	}
	return shown;
}

static void put_head(FILE *f, const struct rs_compare *c, const char *const labels[], bool seed)
{
	put_run_line(f, c, RS_SIDE_BASE, labels[RS_SIDE_BASE]);
	put_run_line(f, c, RS_SIDE_NEW, labels[RS_SIDE_NEW]);
	if (rs_compare_kernels_differ(c))
		fprintf(f, "NOTE      the kernels differ: compared on the metrics both have\n");
	if (rs_compare_mglru_differs(c)) {
		char unk[2][48] = { "", "" };

		/* a run whose trace tells no LRU is not "classic": say it is unknown */
		for (int s = 0; s < RS_NR_SIDES; s++)
			if (rs_compare_mglru_unknown(c, s))
				snprintf(unk[s], sizeof(unk[s]), ", %zu not known",
					 rs_compare_mglru_unknown(c, s));
		fprintf(f, "NOTE      MGLRU on one side only%s (%s: %zu of %zu runs%s, %s: %zu of "
			"%zu%s): %zu figures of the classic LRU's active lists are not comparable "
			"and not shown\n", unk[0][0] || unk[1][0] ? " or not known" : "",
			labels[RS_SIDE_BASE], rs_compare_mglru_runs(c, RS_SIDE_BASE),
			rs_compare_nr_runs(c, RS_SIDE_BASE), unk[0], labels[RS_SIDE_NEW],
			rs_compare_mglru_runs(c, RS_SIDE_NEW), rs_compare_nr_runs(c, RS_SIDE_NEW),
			unk[1], rs_compare_nr_not_comparable(c));
	}
	if (rs_compare_kswapds_differ(c)) {
		char k[2][48];

		for (int s = 0; s < RS_NR_SIDES; s++) {
			size_t lo, hi;

			rs_compare_kswapds(c, s, &lo, &hi);
			if (lo == hi)
				snprintf(k[s], sizeof(k[s]), "%zu", lo);
			else
				snprintf(k[s], sizeof(k[s]), "%zu to %zu", lo, hi);
		}
		fprintf(f, "NOTE      kswapd threads (one a node) differ: %s %s, %s %s a run; the kswapd "
			"figures sum over them\n", labels[RS_SIDE_BASE], k[0], labels[RS_SIDE_NEW], k[1]);
	}
	for (int s = 0; s < RS_NR_SIDES; s++) {
		if (put_events_only(f, c, s, false, labels))
			fprintf(f, seed ? "\n          metrics built on them cannot be compared: left "
				   "out below, or 0 on the other side\n" :
				   "\n          figures built on them are left out (--format seed "
				   "lists them) or 0 on the other side\n");
		if (put_events_only(f, c, s, true, labels))
			fprintf(f, "\n          %s traced them and none fired: figures built on "
				"them are compared, 0 there\n", labels[!s]);
	}
}

static void put_text(FILE *f, const struct rs_compare *c, const char *const labels[],
		     const struct diff_opts *o)
{
	size_t shown = 0, n = rs_compare_nr_metrics(c);
	bool testable = any_testable(c);

	for (size_t i = 0; i < n; i++)
		shown += o->only_changed < 0 || rs_metric_diff_changed(rs_compare_metric(c, i),
									 o->only_changed);
	put_head(f, c, labels, true);
	fprintf(f, "stats     over runs; std = population standard deviation; [P%%] = new as "
		   "%% of base\n");
	if (testable)
		fprintf(f, "signif.   Welch's t-test, two-sided; * = p < %g\n",
			rs_compare_alpha(c));
	else
		fprintf(f, "signif.   n/a: Welch's t-test needs 2+ runs on each side\n");
	fprintf(f, "metrics   %zu compared", n);
	if (o->only_changed >= 0)
		fprintf(f, ", %zu changed by %g%% or more", shown, o->only_changed);
	fprintf(f, ", %zu left out\n", rs_compare_nr_left_out(c));
	if (shown)
		fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct rs_metric_diff *d = rs_compare_metric(c, i);

		if (o->only_changed >= 0 && !rs_metric_diff_changed(d, o->only_changed))
			continue;
		fputs(d->name, f);
		if (testable) {
			fputs("  ", f);
			put_p(f, &d->welch);
			if (d->significant)
				fputs(" *", f);
		}
		fputc('\n', f);
		put_side(f, labels[RS_SIDE_BASE], d, RS_SIDE_BASE);
		put_side(f, labels[RS_SIDE_NEW], d, RS_SIDE_NEW);
	}
	put_left_out(f, c, labels);
}

/* The ranked or MMTests table after the head, every line wrapped at 100 columns. */
static void put_wrapped_report(FILE *f, const struct rs_compare *c, const struct rs_ranking *r,
			       const char *const labels[], enum diff_format format)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);
	FILE *out = m ? m : f;

	put_head(out, c, labels, false);
	if (format == FMT_MMTESTS)
		rs_diff_mmtests(out, c, r, labels);
	else
		rs_diff_table(out, c, r, labels);
	if (!m || fclose(m) != 0) {
		free(buf);
		return;
	}
	rs_report_put_wrapped_lines(f, buf, size);
	free(buf);
}

/* ---- the command ---- */

static int load_side(struct rs_compare *c, const struct diff_opts *o, int side,
		     struct rs_error *err)
{
	for (size_t i = 0; i < o->nr_inputs[side]; i++) {
		const char *path = o->inputs[side][i], *input = NULL;
		json_t *a = load_input(path, o->threads, &input, err);
		int ret;

		if (!a)
			return -1;
		ret = rs_compare_add_run(c, side, a, path, input, err);
		json_decref(a);
		if (ret < 0)
			return rs_error_prefix(err, "%s: ", path);
	}
	return 0;
}

/* Labels: --labels, else the file names for A B, else "base" and "new". */
static int pick_labels(struct diff_opts *o)
{
	if (o->labels[0])
		return 0;
	if (o->nr_inputs[0] == 1 && o->nr_inputs[1] == 1) {
		o->labels[0] = label_of(o->inputs[0][0]);
		o->labels[1] = label_of(o->inputs[1][0]);
		if (!o->labels[0] || !o->labels[1])
			return -1;
		if (strcmp(o->labels[0], o->labels[1]))
			return 0;
		free(o->labels[0]);
		free(o->labels[1]);
	}
	o->labels[0] = strdup("base");
	o->labels[1] = strdup("new");
	return o->labels[0] && o->labels[1] ? 0 : -1;
}

static int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .only_changed = -1, .alpha = RS_COMPARE_ALPHA_DEFAULT,
			       .rank = { .threshold_pct = -1 }, .threads = rs_threads_auto() };
	struct rs_error err = { "" };
	struct rs_compare *c = NULL;
	struct rs_ranking *rank = NULL;
	const char *labels[RS_NR_SIDES];
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret != RS_EXIT_OK)
		goto out;
	if (pick_labels(&o) < 0) {
		ret = rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
		goto out;
	}
	labels[0] = o.labels[0];
	labels[1] = o.labels[1];
	c = rs_compare_new();
	if (!c) {
		ret = rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
		goto out;
	}
	if (load_side(c, &o, RS_SIDE_BASE, &err) < 0 || load_side(c, &o, RS_SIDE_NEW, &err) < 0 ||
	    rs_compare_finish(c, o.alpha, &err) < 0) {
		ret = rs_cmd_fail("diff", RS_EXIT_INPUT, "%s", err.msg);
		goto out_free;
	}
	rank = rs_ranking_new(c, &o.rank);
	if (!rank) {
		ret = rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
		goto out_free;
	}
	if (o.json) {
		json_t *root = rs_compare_json(c, labels, o.only_changed);

		if (root && json_object_set_new(root, "ranking", rs_ranking_json(rank)) < 0) {
			json_decref(root);
			root = NULL;
		}
		if (!root) {
			ret = rs_cmd_fail("diff", RS_EXIT_INPUT, "out of memory");
			goto out_free;
		}
		ret = rs_report_json_dump(root) ? RS_EXIT_INPUT : RS_EXIT_OK;
	} else if (o.format == FMT_SEED) {
		put_text(stdout, c, labels, &o);
		ret = RS_EXIT_OK;
	} else {
		if (rs_diff_identical(c)) {
			/* one line: nothing else to say */
			fprintf(stdout, "no difference: %s and %s have the same %zu metrics, all "
				"equal\n", labels[RS_SIDE_BASE], labels[RS_SIDE_NEW],
				rs_compare_nr_metrics(c));
		} else {
			put_wrapped_report(stdout, c, rank, labels, o.format);
		}
		ret = RS_EXIT_OK;
	}
	ret = rs_cmd_finish_stdout("diff", ret);
out_free:
	rs_ranking_free(rank);
	rs_compare_free(c);
out:
	free(o.labels[0]);
	free(o.labels[1]);
	free(o.inputs[0]);
	free(o.inputs[1]);
	return ret;
}
