// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "rs_error.h"

int rs_error_set(struct rs_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int rs_error_prefix(struct rs_error *err, const char *fmt, ...)
{
	char prefix[512];
	char old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%s", prefix, old);
	return -1;
}
