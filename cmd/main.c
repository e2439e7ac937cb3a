// SPDX-License-Identifier: GPL-2.0
/* reclaimscope: the command table and dispatch (git.c style). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rs_error.h"

static const struct rs_cmd commands[] = {
	{ "record", cmd_record, "record a reclaim trace (trace-cmd) with the markers we read",
	  "reclaimscope record [-o FILE] [--cgroup PATH [--limit BYTES] [--soft-limit BYTES]]\n"
	  "                    [--own-memcgs] [--keep-cgroup] [--watch PATH]... [--interval MS]\n"
	  "                    [-e SYSTEM[:EVENT]]... [--all-memcg-items] [--buffer-kb KB]\n"
	  "                    [--file-version 6|7] [--duration S] [-- COMMAND [ARG...]]" },
	{ "events", cmd_events, "list the events of a trace: counts, times, CPUs, losses",
	  "reclaimscope events [--json] [--threads N] FILE" },
	{ "analyze", cmd_analyze,
	  "per-LRU scan pressure, reclaim episodes, stalls, kswapd, over time",
	  "reclaimscope analyze FILE [--json] [--summary] [--with-cgroups] [--bucket MS]\n"
	  "                     [--from S] [--to S] [--pid N] [--comm NAME] [--top N]\n"
	  "                     [--max-tasks N] [--max-buckets N] [--threads N]" },
	{ "cgroups", cmd_cgroups, "per-cgroup reclaim: who entered it, whose pages it took",
	  "reclaimscope cgroups FILE [--json] [--bucket MS] [--from S] [--to S] [--top N]\n"
	  "                     [--max-cgroups N] [--max-tasks N] [--max-buckets N]\n"
	  "                     [--threads N]" },
	{ "replay", cmd_replay, "replay the recorded pressure through alternative reclaim policies",
	  "reclaimscope replay FILE [--policy NAME,NAME...|all] [--inputs] [--json]\n"
	  "                    [--max-calls N] [--threads N]" },
	{ "tui", cmd_tui, "browse a trace on a timeline: scan, stalls, kswapd, cgroups, zoom",
	  "reclaimscope tui [--metric scanned|reclaimed|efficiency|stall] [--threshold MS] FILE" },
	{ "diff", cmd_diff, "compare kernels: min/max/avg/std of every metric, Welch's t-test",
	  "reclaimscope diff [--json] [--only-changed PCT] [--labels BASE,NEW] [--alpha A] A B\n"
	  "       reclaimscope diff [options] --base A1 A2... --new B1 B2..." },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct rs_cmd *rs_cmd_find(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int rs_cmd_fail(const char *cmd, int code, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "reclaimscope: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int rs_cmd_usage(const char *cmd, FILE *f)
{
	const struct rs_cmd *c = rs_cmd_find(cmd);

	if (c)
		fprintf(f, "usage: %s\n\n%s.\nSee docs/%s.md for every option and output field.\n",
			c->usage, c->summary, c->name);
	return f == stderr ? RS_EXIT_USAGE : RS_EXIT_OK;
}

int rs_cmd_finish_stdout(const char *cmd, int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;

		return rs_cmd_fail(cmd, RS_EXIT_INPUT, "error writing output: %s",
				   e ? strerror(e) : "write failed");
	}
	return code;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: reclaimscope COMMAND [options] [FILE]\n"
		   "       reclaimscope --version | --help | COMMAND --help\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nExit status: 0 success, 1 bad or unreadable input, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	const struct rs_cmd *c;

	/* A closed pipe must be a write error we report, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return RS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && rs_cmd_find(argv[2]))
			return rs_cmd_finish_stdout(NULL, rs_cmd_usage(argv[2], stdout));
		usage(stdout);
		return rs_cmd_finish_stdout(NULL, RS_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("reclaimscope %s\n", RS_VERSION);
		return rs_cmd_finish_stdout(NULL, RS_EXIT_OK);
	}
	c = rs_cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "reclaimscope: '%s' is not a command\n\n", argv[1]);
		usage(stderr);
		return RS_EXIT_USAGE;
	}
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return rs_cmd_finish_stdout(c->name, rs_cmd_usage(c->name, stdout));
	return c->fn(argc - 1, argv + 1);
}
