/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command front ends. Each takes the arguments after the command name (argv[0] is the command)
 * and returns the process exit status (enum rs_exit). Only this layer prints errors.
 */
#ifndef RS_CMD_H
#define RS_CMD_H

#include <stdio.h>

struct rs_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;	/* printed by `reclaimscope CMD --help` */
};

int cmd_record(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_cgroups(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/* Usage texts kept beside their command (cmd/plot/). */
extern const char cmd_plot_usage[];

/* The table entry of a command, for its usage text. */
const struct rs_cmd *rs_cmd_find(const char *name);

/* Print "reclaimscope: CMD: message" to stderr; returns `code`. */
int rs_cmd_fail(const char *cmd, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print usage of `cmd` to `f`; returns RS_EXIT_USAGE when f is stderr, else RS_EXIT_OK. */
int rs_cmd_usage(const char *cmd, FILE *f);

/* Flush and check stdout; reports a write error (full disk, closed pipe) and returns 1. */
int rs_cmd_finish_stdout(const char *cmd, int code);

#endif
