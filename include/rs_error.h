/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reporting for library code: parsers/, analyzer/ and models/ return a negative code and
 * fill a struct rs_error; only the command layer prints it and chooses the exit status.
 */
#ifndef RS_ERROR_H
#define RS_ERROR_H

#include <stdarg.h>

/* Exit codes shared by every command. */
enum rs_exit {
	RS_EXIT_OK = 0,
	RS_EXIT_INPUT = 1,	/* bad or unreadable input, or an output error */
	RS_EXIT_USAGE = 2,	/* bad command line */
};

struct rs_error {
	char msg[1024];
};

/* Set the message (printf format). Returns -1 so callers can `return rs_error_set(...)`. */
int rs_error_set(struct rs_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix the existing message with more context ("file: " ...). Returns -1. */
int rs_error_prefix(struct rs_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
