// SPDX-License-Identifier: GPL-2.0
/* Distinct warnings with counts; bounded so hostile input cannot grow it without limit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_warn.h"

#define RS_WARNINGS_MAX 256	/* distinct texts kept; later ones only bump `dropped` */

struct rs_warning {
	char *text;
	unsigned long times;
};

struct rs_warnings {
	struct rs_warning items[RS_WARNINGS_MAX + 1];	/* +1: the "more warnings" entry */
	size_t n;
	unsigned long dropped;
};

struct rs_warnings *rs_warnings_new(void)
{
	return calloc(1, sizeof(struct rs_warnings));
}

void rs_warnings_free(struct rs_warnings *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->items[i].text);
	free(w);
}

void rs_warn(struct rs_warnings *w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!w)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->items[i].text, buf)) {
			w->items[i].times++;
			return;
		}
	}
	if (w->n >= RS_WARNINGS_MAX) {
		w->dropped++;
		return;
	}
	w->items[w->n].text = strdup(buf);
	if (!w->items[w->n].text)
		return;
	w->items[w->n++].times = 1;
}

size_t rs_warnings_count(const struct rs_warnings *w)
{
	return w ? w->n : 0;
}

const char *rs_warnings_get(const struct rs_warnings *w, size_t i, unsigned long *times)
{
	if (!w || i >= w->n)
		return NULL;
	if (times)
		*times = w->items[i].times;
	return w->items[i].text;
}
