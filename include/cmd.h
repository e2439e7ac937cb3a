/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command front ends. Each takes the arguments after the command name (argv[0] is the command)
 * and returns the process exit status (enum rs_exit). Only this layer prints errors.
 */
#ifndef RS_CMD_H
#define RS_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * One option of a command. The parser (rs_cmd_getopt), `COMMAND --help`, the man page and the
 * shell completion all read this table, so they cannot drift apart.
 */
struct rs_cmd_opt {
	const char *name;	/* long name, without the dashes */
	int short_name;		/* 'o' for -o, or 0 */
	/*
	 * no_argument, required_argument or optional_argument (getopt.h): an optional value
	 * follows an '=' (--calls=N), and help shows it so ("--calls[=N]")
	 */
	int has_arg;
	int val;		/* what rs_cmd_getopt() returns for it */
	const char *arg;	/* the value's name in help ("FILE"), NULL when it takes none */
	const char *help;	/* one line, no final period */
	/*
	 * A count option (RS_OPT_COUNT) when max > 0: rs_cmd_getopt() takes the value as a
	 * decimal in [min, max], or reports "--NAME wants WANTS, not 'VALUE'" (WANTS NULL: "a
	 * count from MIN to MAX")
	 */
	long long min, max;
	const char *wants;
	/*
	 * Where the parser puts the value itself (perf's OPT_BOOLEAN, OPT_STRING, OPT_UINTEGER):
	 * a field at `off` in the command's option struct (rs_cmd_args.opts), `size` bytes wide.
	 * rs_cmd_getopt() does not return such an option to the command.
	 */
	enum { RS_STORE_NONE, RS_STORE_TRUE, RS_STORE_STRING, RS_STORE_COUNT } store;
	size_t off, size;
	/*
	 * How the synopsis' first form shows it (rs_cmd.synopsis NULL): NULL in brackets with
	 * its value's name ("[--top N]", "[-o FILE]", "[--calls[=N]]"); "" not at all (another
	 * form does); else this text, for what the table does not say: the values spelled out,
	 * a required option ("--format perfetto|jsonl")
	 */
	const char *synopsis;
};

/*
 * Table entries (perf's OPT_*): a flag, an option with a value (RS_OPT_SHORT: also -c), a count
 * the parser checks. Each of these and the stored ones below takes more members after its
 * help: RS_OPT_ARG(..., "help", .synopsis = "--format perfetto|jsonl").
 */
#define RS_OPT_FLAG(n, v, h, ...)						\
	{ .name = n, .has_arg = no_argument, .val = v, .help = h, __VA_ARGS__ }
#define RS_OPT_ARG(n, v, a, h, ...)						\
	{ .name = n, .has_arg = required_argument, .val = v, .arg = a, .help = h, __VA_ARGS__ }
#define RS_OPT_SHORT(c, n, a, h, ...)						\
	{ .name = n, .short_name = c, .has_arg = required_argument, .val = c, .arg = a,	\
	  .help = h, __VA_ARGS__ }
#define RS_OPT_COUNT(n, v, a, lo, hi, w, h, ...)				\
	{ .name = n, .has_arg = required_argument, .val = v, .arg = a, .help = h,	\
	  .min = lo, .max = hi, .wants = w, __VA_ARGS__ }
#define RS_CMD_OPT_END		{ .name = NULL }

/*
 * Entries the parser stores into field f of the command's option struct T: true into a bool,
 * the value into a const char *, a count (checked as RS_OPT_COUNT's) into an int, a size_t or
 * a uint64_t. The field's type is checked at build time.
 */
#define RS_OPT_FIELD_(T, f, type_ok)						\
	.off = offsetof(T, f) + sizeof(struct { int _ : (type_ok) ? 1 : -1; }) * 0,	\
	.size = sizeof(((T *)0)->f)
#define RS_OPT_IS_(T, f, type)							\
	__builtin_types_compatible_p(__typeof__(((T *)0)->f), type)
#define RS_OPT_BOOL(n, T, f, h, ...)						\
	{ .name = n, .has_arg = no_argument, .help = h, .store = RS_STORE_TRUE,	\
	  RS_OPT_FIELD_(T, f, RS_OPT_IS_(T, f, bool)), __VA_ARGS__ }
#define RS_OPT_STRING(n, T, f, a, h, ...)					\
	{ .name = n, .has_arg = required_argument, .arg = a, .help = h,		\
	  .store = RS_STORE_STRING, RS_OPT_FIELD_(T, f, RS_OPT_IS_(T, f, const char *)),	\
	  __VA_ARGS__ }
#define RS_OPT_STRING_SHORT(c, n, T, f, a, h, ...)				\
	{ .name = n, .short_name = c, .has_arg = required_argument, .val = c, .arg = a,	\
	  .help = h, .store = RS_STORE_STRING,					\
	  RS_OPT_FIELD_(T, f, RS_OPT_IS_(T, f, const char *)), __VA_ARGS__ }
#define RS_OPT_UINT(n, T, f, a, lo, hi, w, h, ...)				\
	{ .name = n, .has_arg = required_argument, .arg = a, .help = h,		\
	  .min = lo, .max = hi, .wants = w, .store = RS_STORE_COUNT,		\
	  RS_OPT_FIELD_(T, f, RS_OPT_IS_(T, f, int) || RS_OPT_IS_(T, f, size_t) ||	\
			      RS_OPT_IS_(T, f, uint64_t)), __VA_ARGS__ }

/*
 * A command, defined in its own file beside its option table (tmux's cmd-*.c): the table in
 * cmd/main.c only lists them.
 */
struct rs_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command; returns enum rs_exit */
	const char *summary;		/* one line: `reclaimscope --help` and the man page's NAME */
	/*
	 * After "reclaimscope NAME", the first form: written from the option table (each
	 * option's synopsis), then the operands' name. A command whose order or grouping the
	 * table cannot tell (record's options of --cgroup, its alternatives) writes its own
	 * options here; the help adds the shared ones its table takes (RS_ANALYSIS_OPTS,
	 * RS_THREADS_OPT) and the operands. NULL: the table's.
	 */
	const char *synopsis;
	const char *forms;		/* the other forms, a line each (split by \n), or NULL */
	/*
	 * The operands (name "TRACE", "TRACE..."), after the first form's options: rs_cmd_getopt()
	 * prints the usage when there are fewer than min or more than max after the options;
	 * { 0, 0 }: the command counts them. Left out (no name): one operand, FILE, the one
	 * trace most commands read.
	 */
	struct rs_cmd_operands {
		int min, max;
		const char *name;
	} operands;
	/*
	 * The man page's DESCRIPTION, paragraphs split by \n\n: the part of docs/NAME.md so
	 * marked, written into the build by cmd/man_description.awk (RS_CMD_DEFINE names it)
	 */
	const char *description;
	const struct rs_cmd_opt *opts;	/* ends with RS_CMD_OPT_END */
};

/*
 * Defines rs_cmd_NAME, the command NAME run by cmd_NAME() (the command's file defines it
 * below), described by docs/NAME.md, whose options are the table NAME_opts, with the rest of
 * its fields: RS_CMD_DEFINE(events, .summary = "...", ...).
 */
#define RS_CMD_DEFINE(cmdname, ...)						\
	static int cmd_##cmdname(int argc, char **argv);			\
	extern const char rs_cmd_description_##cmdname[];			\
	const struct rs_cmd rs_cmd_##cmdname = {				\
		.name = #cmdname, .fn = cmd_##cmdname,				\
		.description = rs_cmd_description_##cmdname,			\
		.opts = cmdname##_opts, __VA_ARGS__				\
	}

extern const struct rs_cmd rs_cmd_record;
extern const struct rs_cmd rs_cmd_events;
extern const struct rs_cmd rs_cmd_analyze;
extern const struct rs_cmd rs_cmd_cgroups;
extern const struct rs_cmd rs_cmd_replay;
extern const struct rs_cmd rs_cmd_diff;
extern const struct rs_cmd rs_cmd_tui;
extern const struct rs_cmd rs_cmd_plot;
extern const struct rs_cmd rs_cmd_export;

struct rs_analysis_opts;

/* What rs_cmd_getopt() fills besides getopt's optarg and optind. */
struct rs_cmd_args {
	long long count;		/* the value of the RS_OPT_COUNT option returned */
	struct rs_analysis_opts *ao;	/* where RS_ANALYSIS_OPTS go, or NULL */
	int *threads;			/* where RS_THREADS_OPT alone goes, or NULL */
	void *opts;			/* the command's option struct: RS_OPT_BOOL and the like */
};

/*
 * getopt_long() over a command's option table: the next of the command's own options, or -1
 * after the last. optstring as getopt's: "" for long options only, "+:o:e:" and the like
 * where the command takes short ones. Sets optarg/optind and, with args, args->count for a
 * count option; takes the shared options into args->ao or args->threads itself. A value out
 * of its range, an unknown option or a missing value (the usage printed) and operands out of
 * cmd->operands' min..max (likewise) are reported as cmd's and return
 * RS_CMD_BAD_VALUE; an optstring starting with ':' (after any '+' or '-') leaves unknown
 * options and missing values to the caller, as getopt does.
 */
int rs_cmd_getopt(const struct rs_cmd *cmd, int argc, char **argv, const char *optstring,
		  struct rs_cmd_args *args);

#define RS_CMD_BAD_VALUE (-2)	/* clear of -1 and of every option's val */

/*
 * All of argv's options, for a command whose options the parser stores (or takes as shared
 * ones) itself: rs_cmd_getopt() from the first argument on. RS_EXIT_OK, or RS_EXIT_USAGE
 * (reported).
 */
int rs_cmd_parse(const struct rs_cmd *cmd, int argc, char **argv, const char *optstring,
		 struct rs_cmd_args *args);

/* `reclaimscope --man-page [COMMAND]`: the man page in man(7) roff, from the table. */
void rs_cmd_man_page(const struct rs_cmd *cmd, FILE *f);
/* The main page lists cmds[0..n), the commands in the order `reclaimscope --help` lists them. */
void rs_cmd_man_page_main(FILE *f, const struct rs_cmd *const *cmds, size_t n);

/* Print "reclaimscope: CMD: message" to stderr; returns `code`. */
int rs_cmd_fail(const char *cmd, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print usage of `cmd` to `f`; returns RS_EXIT_USAGE when f is stderr, else RS_EXIT_OK. */
int rs_cmd_usage(const struct rs_cmd *cmd, FILE *f);

/* Flush and check stdout; reports a write error (full disk, closed pipe) and returns 1. */
int rs_cmd_finish_stdout(const char *cmd, int code);

#endif
