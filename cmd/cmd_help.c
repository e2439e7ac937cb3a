// SPDX-License-Identifier: GPL-2.0
/*
 * What the command table says about itself: the getopt table, `COMMAND --help` and the man
 * pages, all from struct rs_cmd, so the parser, the help and the manual cannot drift apart.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_args.h"
#include "rs_error.h"

#define MAX_OPTS 64

/* getopt_long's val of the stored option at index i that has none of its own */
#define STORED_VAL	1024

static int val_of(const struct rs_cmd *cmd, size_t i)
{
	const struct rs_cmd_opt *o = &cmd->opts[i];

	return o->store && !o->val ? STORED_VAL + (int)i : o->val;
}

/* The option whose val is c, or NULL. */
static const struct rs_cmd_opt *opt_of(const struct rs_cmd *cmd, int c)
{
	for (size_t i = 0; cmd->opts[i].name; i++)
		if (val_of(cmd, i) == c)
			return &cmd->opts[i];
	return NULL;
}

/* A stored option's value into its field of opts (count: the value count_opt() took). */
static void store_opt(const struct rs_cmd_opt *o, void *opts, long long count)
{
	char *field = (char *)opts + o->off;
	int32_t i32 = (int32_t)count;
	uint64_t u64 = (uint64_t)count;

	switch (o->store) {
	case RS_STORE_TRUE:
		*(bool *)field = true;
		break;
	case RS_STORE_STRING:
		*(const char **)field = optarg;
		break;
	default:
		/* an int, a size_t or a uint64_t (RS_OPT_UINT checks): sizes tell them apart */
		if (o->size == sizeof(i32))
			memcpy(field, &i32, sizeof(i32));
		else
			memcpy(field, &u64, sizeof(u64));
	}
}

/* A count option's value into *count; RS_EXIT_USAGE (reported) when out of its range. */
static int count_opt(const struct rs_cmd *cmd, const struct rs_cmd_opt *o, long long *count)
{
	if (!rs_arg_count(optarg, o->min, o->max, count))
		return RS_EXIT_OK;
	if (o->wants)
		return rs_cmd_fail(cmd->name, RS_EXIT_USAGE, "--%s wants %s, not '%s'", o->name,
				   o->wants, optarg);
	return rs_cmd_fail(cmd->name, RS_EXIT_USAGE, "--%s wants a count from %lld to %lld, "
			   "not '%s'", o->name, o->min, o->max, optarg);
}

/* What a command takes after its options: its table's operands, or one FILE where it names none */
static const struct rs_cmd_operands *operands(const struct rs_cmd *cmd)
{
	static const struct rs_cmd_operands one_file = { 1, 1, "FILE" };

	return cmd->operands.name ? &cmd->operands : &one_file;
}

static bool operands_ok(const struct rs_cmd *cmd, int argc)
{
	const struct rs_cmd_operands *op = operands(cmd);
	int n = argc - optind;

	return !op->max || (n >= op->min && n <= op->max);
}

int rs_cmd_getopt(const struct rs_cmd *cmd, int argc, char **argv, const char *optstring,
		  struct rs_cmd_args *args)
{
	/* rebuilt on every call: a command parses its arguments once, and tables are short */
	static struct option longopts[MAX_OPTS + 1];
	bool own_errors = optstring[strspn(optstring, "+-")] == ':';
	const struct rs_cmd_opt *o;
	size_t n = 0;
	int c, ret;

	for (o = cmd->opts; o->name && n < MAX_OPTS; o++, n++)
		longopts[n] = (struct option){ o->name, o->has_arg, NULL, val_of(cmd, n) };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	for (;;) {
		c = getopt_long(argc, argv, optstring, longopts, NULL);
		if (c == -1) {
			if (operands_ok(cmd, argc))
				return -1;
			rs_cmd_usage(cmd, stderr);
			return RS_CMD_BAD_VALUE;
		}
		if ((c == '?' || c == ':') && !own_errors) {
			rs_cmd_usage(cmd, stderr);
			return RS_CMD_BAD_VALUE;
		}
		o = opt_of(cmd, c);
		if (!o || !args)
			return c;
		ret = o->max > 0 ? count_opt(cmd, o, &args->count) : RS_EXIT_OK;
		if (!ret && o->store && args->opts)
			store_opt(o, args->opts, args->count);
		else if (!ret && c == RS_OPT_THREADS && args->threads)
			ret = rs_threads_opt(cmd, optarg, args->threads);
		else if (!ret && c >= RS_OPT_BUCKET && args->ao)
			ret = rs_analysis_opt(cmd, c, optarg, args->count, args->ao);
		else if (!ret)
			return c;
		if (ret)
			return RS_CMD_BAD_VALUE;
	}
}

int rs_cmd_parse(const struct rs_cmd *cmd, int argc, char **argv, const char *optstring,
		 struct rs_cmd_args *args)
{
	optind = 1;
	/* every option is stored or shared: anything returned is an error, reported */
	return rs_cmd_getopt(cmd, argc, argv, optstring, args) == -1 ? RS_EXIT_OK : RS_EXIT_USAGE;
}

static int opt_label(const struct rs_cmd_opt *o, char *buf, size_t size)
{
	int len = 0;

	if (o->short_name)
		len = snprintf(buf, size, "-%c, ", o->short_name);
	if (o->arg && o->has_arg == optional_argument)
		len += snprintf(buf + len, size - (size_t)len, "--%s[=%s]", o->name, o->arg);
	else
		len += snprintf(buf + len, size - (size_t)len, "--%s%s%s", o->name,
				o->arg ? " " : "", o->arg ? o->arg : "");
	return len;
}

/* Columns of a synopsis line, "usage: reclaimscope NAME " or its indent included. */
#define SYNOPSIS_COLS	100
#define SYNOPSIS_MAX	1024

/*
 * One form of the synopsis appended to buf (at most size), wrapped to width: a line break may
 * come before an option (a word that starts with '[' or '-'); the words after one (its value,
 * the operands) stay with it, and a bracket stays whole.
 */
static void synopsis_form(char *buf, size_t size, size_t width, const char *form, size_t len)
{
	size_t used = strlen(buf), start = 0, depth = 0, col = 0;

	for (size_t i = 0; i <= len; i++) {
		bool end = i == len || (form[i] == ' ' && !depth &&
					(form[i + 1] == '[' || form[i + 1] == '-'));
		size_t n = i - start;

		if (end && n) {
			const char *sep = !col ? "" : col + 1 + n > width ? "\n  " : " ";

			used += (size_t)snprintf(buf + used, size - used, "%s%.*s", sep, (int)n,
						 form + start);
			if (used >= size)
				return;
			col = (*sep == '\n' ? 0 : col + strlen(sep)) + n;
			start = i + 1;
		} else if (i < len && form[i] == '[') {
			depth++;
		} else if (i < len && form[i] == ']' && depth) {
			depth--;
		}
	}
}

/* Appends a word to the first form in buf (n long, at most size): the new length. */
__attribute__((format(printf, 4, 5)))
static int add_word(char *buf, int n, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (n + 2 > (int)size)		/* a blank and the NUL */
		return n;
	if (n)
		buf[n++] = ' ';
	va_start(ap, fmt);
	n += vsnprintf(buf + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	return n < (int)size ? n : (int)size - 1;
}

/* How the first form shows option o (rs_cmd_opt.synopsis), appended to buf: the new length. */
static int opt_synopsis(const struct rs_cmd_opt *o, char *buf, int n, size_t size)
{
	const char *arg = o->arg ? o->arg : "", *sep = *arg ? " " : "";

	if (o->synopsis)
		return *o->synopsis ? add_word(buf, n, size, "%s", o->synopsis) : n;
	if (o->short_name)
		return add_word(buf, n, size, "[-%c%s%s]", o->short_name, sep, arg);
	if (o->has_arg == optional_argument)
		return add_word(buf, n, size, "[--%s[=%s]]", o->name, arg);
	return add_word(buf, n, size, "[--%s%s%s]", o->name, sep, arg);
}

/*
 * The synopsis as printed, a line per form (split by \n; "  " starts a continuation): the first
 * form is every option of c's table as it shows itself (opt_synopsis()), or c->synopsis and
 * then the shared options the table takes (RS_ANALYSIS_OPTS, RS_THREADS_OPT), then c's
 * operands; the other forms (c->forms) as they stand.
 */
static void synopsis(const struct rs_cmd *c, char *buf, size_t size)
{
	size_t width = SYNOPSIS_COLS - strlen("usage: reclaimscope  ") - strlen(c->name);
	const char *form, *nl;
	char first[SYNOPSIS_MAX];
	int n = 0;

	first[0] = '\0';
	if (c->synopsis)
		n = add_word(first, n, sizeof(first), "%s", c->synopsis);
	for (const struct rs_cmd_opt *o = c->opts; o->name; o++)
		if (!c->synopsis || o->val >= RS_OPT_BUCKET)
			n = opt_synopsis(o, first, n, sizeof(first));
	n = add_word(first, n, sizeof(first), "%s", operands(c)->name);
	buf[0] = '\0';
	synopsis_form(buf, size, width, first, strlen(first));
	for (form = c->forms; form; form = nl ? nl + 1 : NULL) {
		nl = strchr(form, '\n');
		strncat(buf, "\n", size - strlen(buf) - 1);
		synopsis_form(buf, size, width, form, nl ? (size_t)(nl - form) : strlen(form));
	}
}

int rs_cmd_usage(const struct rs_cmd *c, FILE *f)
{
	char syn[SYNOPSIS_MAX], label[96];
	const char *line, *nl;
	int width = 0;

	synopsis(c, syn, sizeof(syn));
	for (line = syn; line; line = nl ? nl + 1 : NULL) {
		bool cont = !strncmp(line, "  ", 2);
		int len;

		nl = strchr(line, '\n');
		len = nl ? (int)(nl - line) : (int)strlen(line);
		if (cont)	/* under the first argument of "usage: reclaimscope NAME " */
			fprintf(f, "%*s%.*s\n", (int)strlen(c->name) + 21, "", len - 2, line + 2);
		else
			fprintf(f, "%s reclaimscope %s %.*s\n",
				line == syn ? "usage:" : "      ", c->name, len, line);
	}
	fprintf(f, "\n%s.\n\noptions:\n", c->summary);
	for (const struct rs_cmd_opt *o = c->opts; o->name; o++) {
		int len = opt_label(o, label, sizeof(label));

		if (len > width)
			width = len;
	}
	for (const struct rs_cmd_opt *o = c->opts; o->name; o++) {
		opt_label(o, label, sizeof(label));
		fprintf(f, "  %-*s  %s\n", width, label, o->help);
	}
	fprintf(f, "  %-*s  %s\n\nSee reclaimscope-%s(1).\n", width, "-h, --help",
		"print this help", c->name);
	return f == stderr ? RS_EXIT_USAGE : RS_EXIT_OK;
}

/* Text in roff: a leading . or ' would be a request, a backslash an escape. */
static void roff_text(FILE *f, const char *s, size_t len)
{
	bool line_start = true;

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (line_start && (ch == '.' || ch == '\''))
			fputs("\\&", f);
		if (ch == '\\')
			fputs("\\e", f);
		else if (ch == '-')
			fputs("\\-", f);
		else
			fputc(ch, f);
		line_start = ch == '\n';
	}
}

static void roff_line(FILE *f, const char *s)
{
	roff_text(f, s, strlen(s));
	fputc('\n', f);
}

/* Paragraphs split by blank lines; a paragraph whose lines start with two spaces is verbatim. */
static void roff_paragraphs(FILE *f, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool verbatim = len > 2 && p[0] == ' ' && p[1] == ' ';

		fputs(verbatim ? ".PP\n.nf\n.RS 4\n" : ".PP\n", f);
		roff_text(f, p, len);
		fputs(verbatim ? "\n.RE\n.fi\n" : "\n", f);
		p = end ? end + 2 : NULL;
	}
}

static void man_header(FILE *f, const char *title)
{
	fprintf(f, ".\\\" Generated by `reclaimscope --man-page`; edit the command table instead.\n"
		   ".TH %s 1 \"\" \"reclaimscope %s\" \"reclaimscope manual\"\n", title, RS_VERSION);
}

static void man_exit_status(FILE *f)
{
	fputs(".SH EXIT STATUS\n.TP\n0\nSuccess.\n.TP\n1\nBad or unreadable input, or an output "
	      "error (a full disk, a closed pipe).\n.TP\n2\nUsage error.\n", f);
}

void rs_cmd_man_page(const struct rs_cmd *c, FILE *f)
{
	char title[64], syn[SYNOPSIS_MAX];
	const char *line, *nl;

	snprintf(title, sizeof(title), "RECLAIMSCOPE-%s", c->name);
	for (char *t = title; *t; t++)
		*t = (char)(*t >= 'a' && *t <= 'z' ? *t - 'a' + 'A' : *t);
	man_header(f, title);
	fprintf(f, ".SH NAME\nreclaimscope\\-%s \\- ", c->name);
	roff_line(f, c->summary);
	fputs(".SH SYNOPSIS\n.nf\n", f);
	synopsis(c, syn, sizeof(syn));
	for (line = syn; line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (!strncmp(line, "  ", 2))
			fputs("    ", f);
		else
			fprintf(f, "\\fBreclaimscope %s\\fR ", c->name);
		roff_text(f, line, nl ? (size_t)(nl - line) : strlen(line));
		fputc('\n', f);
	}
	fputs(".fi\n.SH DESCRIPTION\n", f);
	roff_paragraphs(f, c->description);
	fputs(".SH OPTIONS\n", f);
	for (const struct rs_cmd_opt *o = c->opts; o->name; o++) {
		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", f);
		roff_text(f, o->name, strlen(o->name));
		fputs("\\fR", f);
		if (o->arg) {
			fputs(o->has_arg == optional_argument ? "[=\\fI" : " \\fI", f);
			roff_text(f, o->arg, strlen(o->arg));
			fputs(o->has_arg == optional_argument ? "\\fR]" : "\\fR", f);
		}
		fputc('\n', f);
		roff_line(f, o->help);
	}
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nPrint the options and exit.\n", f);
	man_exit_status(f);
	fputs(".SH SEE ALSO\n\\fBreclaimscope\\fR(1), \\fBtrace\\-cmd\\fR(1)\n", f);
}

void rs_cmd_man_page_main(FILE *f, const struct rs_cmd *const *cmds, size_t n)
{
	man_header(f, "RECLAIMSCOPE");
	fputs(".SH NAME\nreclaimscope \\- what Linux page reclaim did, and what another policy "
	      "would have done, from a trace\n"
	      ".SH SYNOPSIS\n.nf\n\\fBreclaimscope\\fR \\fICOMMAND\\fR [\\fIoptions\\fR] "
	      "[\\fIFILE\\fR...]\n\\fBreclaimscope\\fR \\-\\-version | \\-\\-help | "
	      "\\fICOMMAND\\fR \\-\\-help\n.fi\n", f);
	fputs(".SH DESCRIPTION\n", f);
	roff_paragraphs(f,
		"reclaimscope reads trace-cmd recordings (trace.dat file versions 6 and 7, "
		"compressed or not, and trace-cmd report or ftrace text) of the kernel's vmscan "
		"and memcg tracepoints, with cgroup, sched, oom, filemap events and the markers "
		"its own recorder writes, from kernels 2.6.36 to 7.x, classic LRU or MGLRU. It "
		"reconstructs per-LRU scan pressure, reclaim episodes and stalls, kswapd's "
		"health and per-cgroup attribution, and replays the recorded pressure through "
		"other reclaim policies.\n\n"
		"Fields a kernel lacks are reported as absent, never as zero.");
	fputs(".SH COMMANDS\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, ".TP\n\\fBreclaimscope\\-%s\\fR(1)\n", cmds[i]->name);
		roff_line(f, cmds[i]->summary);
	}
	man_exit_status(f);
	fputs(".SH SEE ALSO\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\\fBreclaimscope\\-%s\\fR(1), ", cmds[i]->name);
	fputs("\\fBtrace\\-cmd\\fR(1), \\fBtrace\\-cmd\\-record\\fR(1)\n", f);
}
