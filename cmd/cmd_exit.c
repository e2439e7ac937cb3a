// SPDX-License-Identifier: GPL-2.0
/*
 * How a command ends: its error message on stderr, and the check of what it wrote to stdout.
 * Apart from the command table (main.c), so that the commands calling these do not call back
 * into the file that lists them.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "rs_error.h"
#include "text_escape.h"

int rs_cmd_fail(const char *cmd, int code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

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
