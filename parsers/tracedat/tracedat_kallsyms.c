// SPDX-License-Identifier: GPL-2.0
/*
 * The file's kallsyms, for shrinker names only, parsed into a tep of their own rather than the
 * first handle's. libtraceevent's parse (tep_parse_kallsyms(), a sscanf per line, then a sort
 * on the first look-up) is 0.45 G instructions for the 5.4 MB kallsyms of a 6.18 trace: a
 * tenth of analyzing its 2.19 M events, and all of it on the thread that then merges and
 * analyses. The first handle keeps the text instead of parsing it (tracedat_skip.c,
 * TRACEDAT_KEEP_KALLSYMS); it is parsed on a thread of its own while the trace is read when
 * the stream has threads to spare (or the TUI must not pay it on a key), else when a name is
 * first wanted, and never when the file has no shrinker event format. Names are the same:
 * the same text through the same library call, looked up with tep_find_function().
 */
#include <stdlib.h>

#include "tracedat_reader.h"

static void *parse(void *arg)
{
	struct tracedat_ksyms *k = arg;

	k->tep = tep_alloc();
	if (k->tep && k->text) {
		tep_parse_kallsyms(k->tep, k->text);
		tep_find_function(k->tep, 0);	/* sorts them, once */
	}
	free(k->text);
	k->text = NULL;
	return NULL;
}

void tracedat_ksyms_init(struct tracedat_ksyms *k, char *text)
{
	k->text = text;
	k->tep = NULL;
	k->ready = k->running = false;
}

void tracedat_ksyms_start(struct tracedat_ksyms *k)
{
	if (!k->ready && !k->running && !pthread_create(&k->thread, NULL, parse, k))
		k->running = true;
}

void tracedat_ksyms_wait(struct tracedat_ksyms *k)
{
	if (!k->running)
		return;
	pthread_join(k->thread, NULL);
	k->running = false;
	k->ready = true;
}

struct tep_handle *tracedat_ksyms_tep(struct tracedat_ksyms *k)
{
	tracedat_ksyms_wait(k);
	if (!k->ready) {
		parse(k);
		k->ready = true;
	}
	return k->tep;
}

void tracedat_ksyms_free(struct tracedat_ksyms *k)
{
	tracedat_ksyms_wait(k);
	free(k->text);
	if (k->tep)
		tep_free(k->tep);
	k->text = NULL;
	k->tep = NULL;
	k->ready = false;
}
