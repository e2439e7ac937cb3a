// SPDX-License-Identifier: GPL-2.0
/*
 * Distinct warnings with counts; bounded so hostile input cannot grow it without limit.
 * Thread-safe: a list may be shared by the threads of one stream.
 */
#include <pthread.h>
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
	pthread_mutex_t lock;
	struct rs_warning items[RS_WARNINGS_MAX + 1];	/* +1: the "more warnings" entry */
	size_t n;
	unsigned long dropped;
};

struct rs_warnings *rs_warnings_new(void)
{
	struct rs_warnings *w = calloc(1, sizeof(struct rs_warnings));

	if (w && pthread_mutex_init(&w->lock, NULL)) {
		free(w);
		return NULL;
	}
	return w;
}

void rs_warnings_free(struct rs_warnings *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->items[i].text);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

static void vwarn(struct rs_warnings *w, const char *fmt, va_list ap)
{
	char buf[512];

	if (!w)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	pthread_mutex_lock(&w->lock);
	for (size_t i = 0; i < w->n; i++) {
		if (!strcmp(w->items[i].text, buf)) {
			w->items[i].times++;
			goto out;
		}
	}
	if (w->n >= RS_WARNINGS_MAX) {
		w->dropped++;
		goto out;
	}
	w->items[w->n].text = strdup(buf);
	if (w->items[w->n].text)
		w->items[w->n++].times = 1;
out:
	pthread_mutex_unlock(&w->lock);
}

void rs_warn(struct rs_warnings *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(w, fmt, ap);
	va_end(ap);
}

void rs_warn_once(struct rs_warnings *w, bool *warned, const char *fmt, ...)
{
	va_list ap;

	if (*warned)
		return;
	*warned = true;
	va_start(ap, fmt);
	vwarn(w, fmt, ap);
	va_end(ap);
}

size_t rs_warnings_count(const struct rs_warnings *w)
{
	size_t n;

	if (!w)
		return 0;
	pthread_mutex_lock((pthread_mutex_t *)&w->lock);
	n = w->n;
	pthread_mutex_unlock((pthread_mutex_t *)&w->lock);
	return n;
}

/* The text stays valid until the list is freed: entries are only ever added. */
const char *rs_warnings_get(const struct rs_warnings *w, size_t i, unsigned long *times)
{
	const char *text = NULL;

	if (!w)
		return NULL;
	pthread_mutex_lock((pthread_mutex_t *)&w->lock);
	if (i < w->n) {
		if (times)
			*times = w->items[i].times;
		text = w->items[i].text;
	}
	pthread_mutex_unlock((pthread_mutex_t *)&w->lock);
	return text;
}
