// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope: the command table and dispatch (git.c style). Each command lives in its own
 * file with its option table (struct rs_cmd); this table only lists them.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "replay.h"
#include "report.h"
#include "rs_error.h"
#include "text_escape.h"

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

size_t rs_cmd_all(const struct rs_cmd *const **out)
{
	*out = commands;
	return NR_COMMANDS;
}

const struct rs_cmd *rs_cmd_find(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int rs_cmd_fail(const char *cmd, int code, const char *fmt, ...)
{
	va_list ap;

	char msg[2048];

	fflush(stdout);
	fprintf(stderr, "reclaimscope: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* messages quote paths and trace strings: no terminal control from them */
	rs_escape_write(stderr, msg, strlen(msg));
	fputc('\n', stderr);
	return code;
}

/* Has the reader of stdout gone (a pipe whose read end is closed)? */
static bool stdout_reader_gone(int e)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	struct stat st;

	if (e == EPIPE)
		return true;
	if (fstat(STDOUT_FILENO, &st) < 0 || !S_ISFIFO(st.st_mode))
		return false;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/*
 * A reader that leaves early (`| head`) is not an error of ours: whether our writes failed
 * depends only on how much fitted in the pipe before it left, so the exit status must not.
 * It is the status the command had, quietly. Other write errors (a full disk) fail with 1.
 */
int rs_cmd_finish_stdout(const char *cmd, int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;

		if (stdout_reader_gone(e))
			return code;
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
	const struct rs_cmd *c = argc > 2 ? rs_cmd_find(argv[2]) : NULL;

	if (!strcmp(arg, "--man-page")) {
		if (argc > 2 && !c)
			return rs_cmd_fail(NULL, RS_EXIT_USAGE, "'%s' is not a command", argv[2]);
		if (c)
			rs_cmd_man_page(c, stdout);
		else
			rs_cmd_man_page_main(stdout);
	} else if (!strcmp(arg, "--list-commands")) {
		for (size_t i = 0; i < NR_COMMANDS; i++)
			printf("%s\n", commands[i]->name);
	} else if (!strcmp(arg, "--list-options")) {
		if (!c)
			return rs_cmd_fail(NULL, RS_EXIT_USAGE, "--list-options wants a command");
		for (const struct rs_cmd_opt *o = c->opts; o->name; o++)
			printf("--%s%s\n", o->name, o->has_arg ? "=" : "");
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
	rs_report_json_watch();
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
	ret = hidden_option(argc, argv);
	if (ret >= 0)
		return ret;
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
