/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded list of distinct warnings about a trace. Each distinct text is kept once with a count,
 * so "event X lacks field Y" said a million times costs one entry. Owned by whoever created it.
 */
#ifndef RS_WARN_H
#define RS_WARN_H

#include <stdbool.h>
#include <stddef.h>

struct rs_warnings;

struct rs_warnings *rs_warnings_new(void);
void rs_warnings_free(struct rs_warnings *w);

/* Add a warning (printf format); repeated texts only bump their count. */
void rs_warn(struct rs_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* rs_warn() the first time only (a cap reached): sets *warned, then says nothing more. */
void rs_warn_once(struct rs_warnings *w, bool *warned, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

size_t rs_warnings_count(const struct rs_warnings *w);
/* i-th distinct warning, in order first seen; *times gets how often it was raised. */
const char *rs_warnings_get(const struct rs_warnings *w, size_t i, unsigned long *times);

#endif
