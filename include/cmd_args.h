/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option values shared by the commands that read a trace (analyze, cgroups, events, replay):
 * the same option is spelt, bounded and reported the same way everywhere.
 */
#ifndef RS_CMD_ARGS_H
#define RS_CMD_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"

struct rs_analysis_opts;

/* --threads: threads reading and analysing a trace.dat (the output is the same with any) */
#define RS_MAX_THREADS 64

/*
 * A non-negative decimal with up to scale_digits fractional digits, scaled exactly (no binary
 * floating point): "755.213566" with scale 1e9 gives 755213566000. 0, or -1 if s is not one.
 */
int rs_arg_decimal(const char *s, uint64_t scale, int scale_digits, uint64_t *out);

/* A decimal integer in [min, max]. 0, or -1 if s is not one. */
int rs_arg_count(const char *s, long long min, long long max, long long *out);

/* getopt_long codes of the options below, clear of any command's own (< 512). */
enum {
	RS_OPT_BUCKET = 512,
	RS_OPT_FROM,
	RS_OPT_TO,
	RS_OPT_MAX_TASKS,
	RS_OPT_MAX_BUCKETS,
	RS_OPT_THREADS,
};

/* --threads, with its help line */
#define RS_THREADS_OPT								\
	RS_OPT_ARG("threads", RS_OPT_THREADS, "N",				\
		   "CPUs reading a trace.dat, or auto (default: up to the CPUs): same output")

/* The options of a command that analyses a range of a trace into time buckets. */
#define RS_ANALYSIS_OPTS							\
	RS_OPT_ARG("bucket", RS_OPT_BUCKET, "MS",				\
		   "width of the over-time buckets in milliseconds (default: ~100 buckets)"), \
	RS_OPT_ARG("from", RS_OPT_FROM, "S",					\
		   "start at S seconds on the trace clock, as trace-cmd report prints it"), \
	RS_OPT_ARG("to", RS_OPT_TO, "S", "stop at S seconds on the trace clock"),	\
	RS_OPT_COUNT("max-tasks", RS_OPT_MAX_TASKS, "N", 1, 1ll << 26, NULL,	\
		     "keep at most N tasks in the per-task tables (the rest are summed)"), \
	RS_OPT_COUNT("max-buckets", RS_OPT_MAX_BUCKETS, "N", 1, 1ll << 26, NULL,	\
		     "keep at most N time buckets (wider buckets past that)"),	\
	RS_THREADS_OPT

/*
 * rs_cmd_getopt()'s for the options above: take one of RS_ANALYSIS_OPTS (count: a count
 * option's value) into ao, or --threads into threads ("auto" is rs_threads_auto()).
 * RS_EXIT_OK, or RS_EXIT_USAGE for a bad value (reported as the command cmd's).
 */
int rs_analysis_opt(const struct rs_cmd *cmd, int c, const char *arg, long long count,
		    struct rs_analysis_opts *ao);
int rs_threads_opt(const struct rs_cmd *cmd, const char *arg, int *threads);

/*
 * --threads' default, auto: up to the CPUs this process may run on (its affinity mask, else
 * the CPUs online), from 1 to RS_MAX_THREADS, negated (rs_source_opts.threads: the reader
 * chooses how many of them a trace is worth).
 */
int rs_threads_auto(void);

/*
 * Where the options of a command that analyses a trace start: every task (pid -1, not 0) and
 * --threads auto. Its own initial values follow: { RS_ANALYSIS_OPTS_DEFAULT, .keep_episodes =
 * true }.
 */
#define RS_ANALYSIS_OPTS_DEFAULT .pid = -1, .threads = rs_threads_auto()

/*
 * After parsing, before the analysis of the trace at path: the checks of the options together
 * (--to after --from, caps that fit in memory), and ao->progress for path (rs_cmd_show_progress;
 * path NULL: the caller sets it for each of its traces). RS_EXIT_OK, or RS_EXIT_USAGE
 * (reported).
 */
int rs_analysis_opts_finish(const char *cmd, struct rs_analysis_opts *ao, const char *path);

/*
 * After the analysis: did the options select anything? A --from/--to range with no event in
 * it, or a --pid/--comm that matches no task with reclaim events, is reported (as cmd's, with
 * the trace's span and the tasks it has) and gives RS_EXIT_INPUT; else RS_EXIT_OK.
 */
struct rs_analysis;
struct rs_source;
int rs_analysis_selection_check(const char *cmd, const struct rs_analysis *a,
				const struct rs_source *src);

/* Is the file big enough for a progress indicator (and is stderr a terminal)? */
bool rs_cmd_show_progress(const char *path);

#endif
