// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope: the command table and dispatch (git.c style). Each command lives in its own
 * file with its option table (struct rs_cmd); this table only lists them.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "replay.h"
#include "report.h"
#include "rs_heap.h"
#include "rs_error.h"

static const struct rs_cmd *const commands[] = {
	&rs_cmd_record,
	&rs_cmd_events,
	&rs_cmd_analyze,
	&rs_cmd_cgroups,
	&rs_cmd_replay,
	&rs_cmd_tui,
	&rs_cmd_diff,
	&rs_cmd_plot,
	&rs_cmd_export,
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct rs_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: reclaimscope COMMAND [options] [FILE]\n"
		   "       reclaimscope --version | --help | COMMAND --help\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nExit status: 0 success, 1 bad or unreadable input, 2 usage error.\n"
		   "See reclaimscope(1) and reclaimscope-COMMAND(1).\n");
}

/*
 * Hidden options for the build and the shell completion: --man-page [COMMAND],
 * --list-commands, --list-options COMMAND, --list-policies. Returns -1 when arg is none.
 */
static int hidden_option(int argc, char **argv)
{
	const char *arg = argv[1];
	const struct rs_cmd *c = argc > 2 ? find_command(argv[2]) : NULL;

	if (!strcmp(arg, "--man-page")) {
		if (argc > 2 && !c)
			return rs_cmd_fail(NULL, RS_EXIT_USAGE, "'%s' is not a command", argv[2]);
		if (c)
			rs_cmd_man_page(c, stdout);
		else
			rs_cmd_man_page_main(stdout, commands, NR_COMMANDS);
	} else if (!strcmp(arg, "--list-commands")) {
		for (size_t i = 0; i < NR_COMMANDS; i++)
			printf("%s\n", commands[i]->name);
	} else if (!strcmp(arg, "--list-options")) {
		if (!c)
			return rs_cmd_fail(NULL, RS_EXIT_USAGE, "--list-options wants a command");
		for (const struct rs_cmd_opt *o = c->opts; o->name; o++)
			/* an optional value is attached (--calls=N): the bare name completes */
			printf("--%s%s\n", o->name, o->has_arg == required_argument ? "=" : "");
		printf("--help\n");
	} else if (!strcmp(arg, "--list-policies")) {
		const struct rs_policy_ops *const *pol;
		size_t n = rs_policy_all(&pol);

		for (size_t i = 0; i < n; i++)
			printf("%s\n", pol[i]->name);
		printf("all\n");
	} else {
		return -1;
	}
	return rs_cmd_finish_stdout(NULL, RS_EXIT_OK);
}

int main(int argc, char **argv)
{
	const struct rs_cmd *c;
	int ret;

	/* A closed pipe is a write error (EPIPE) rs_cmd_finish_stdout() handles, not a death. */
	signal(SIGPIPE, SIG_IGN);
	rs_heap_setup();	/* before the readers allocate (parsers/rs_heap.c) */
	rs_report_json_watch();
	if (argc < 2) {
		usage(stderr);
		return RS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		c = argc > 2 ? find_command(argv[2]) : NULL;
		if (c)
			return rs_cmd_finish_stdout(NULL, rs_cmd_usage(c, stdout));
		usage(stdout);
		return rs_cmd_finish_stdout(NULL, RS_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("reclaimscope %s\n", RS_VERSION);
		return rs_cmd_finish_stdout(NULL, RS_EXIT_OK);
	}
	ret = hidden_option(argc, argv);
	if (ret >= 0)
		return ret;
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "reclaimscope: '%s' is not a command\n\n", argv[1]);
		usage(stderr);
		return RS_EXIT_USAGE;
	}
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return rs_cmd_finish_stdout(c->name, rs_cmd_usage(c, stdout));
	return c->fn(argc - 1, argv + 1);
}
