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

/* The long options of a command that analyses a range of a trace into time buckets. */
#define RS_ANALYSIS_LONG_OPTIONS						\
	{ "bucket", required_argument, NULL, RS_OPT_BUCKET },			\
	{ "from", required_argument, NULL, RS_OPT_FROM },			\
	{ "to", required_argument, NULL, RS_OPT_TO },				\
	{ "max-tasks", required_argument, NULL, RS_OPT_MAX_TASKS },		\
	{ "max-buckets", required_argument, NULL, RS_OPT_MAX_BUCKETS },		\
	{ "threads", required_argument, NULL, RS_OPT_THREADS }

/*
 * Take one of RS_ANALYSIS_LONG_OPTIONS into ao. Returns RS_EXIT_OK when c is one and its value
 * is good, RS_EXIT_USAGE for a bad value (reported as the command cmd's), -1 when c is not one
 * of them.
 */
int rs_analysis_opt(const char *cmd, int c, const char *arg, struct rs_analysis_opts *ao);

/* --threads alone, for commands without a time range. Same returns. */
int rs_threads_opt(const char *cmd, int c, const char *arg, int *threads);

/* Checks after parsing: --to after --from. RS_EXIT_OK, or RS_EXIT_USAGE (reported). */
int rs_analysis_opts_check(const char *cmd, const struct rs_analysis_opts *ao);

/* Is the file big enough for a progress indicator (and is stderr a terminal)? */
bool rs_cmd_show_progress(const char *path);

#endif
