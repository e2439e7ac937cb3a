// SPDX-License-Identifier: GPL-2.0
/*
 * What a backend (tracedat.c, textlog.c) and the marker decoder fill in of a source
 * (source_state.h): the CPUs and their loss table, the kernel and host names, the event counts
 * by name. Below source.c, which picks the backend: calls go source.c -> backends -> here.
 */
#include <stdlib.h>
#include <string.h>

#include "rs_grow.h"
#include "rs_warn.h"
#include "source_state.h"

/* The count entry of an event name, added when new; NULL only when allocation fails. */
static struct rs_event_count *count_slot(struct rs_source *src, const char *system,
					 const char *name)
{
	struct rs_event_count *c;

	for (size_t i = 0; i < src->nr_counts; i++) {
		c = &src->counts[i];
		if (!strcmp(c->name, name) && ((!system && !c->system) ||
		    (system && c->system && !strcmp(system, c->system))))
			return c;
	}
	if (src->nr_counts >= RS_MAX_EVENT_NAMES) {
		rs_warn(src->info.warnings, "more than %d distinct event names; the rest are "
			"counted as 'other'", RS_MAX_EVENT_NAMES);
		name = "other";
		system = NULL;
		for (size_t i = 0; i < src->nr_counts; i++)
			if (!strcmp(src->counts[i].name, name) && !src->counts[i].system)
				return &src->counts[i];
	}
	if (RS_GROW(src->counts, src->cap_counts, src->nr_counts + 1, 64))
		return NULL;
	c = &src->counts[src->nr_counts];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	c->system = system ? strdup(system) : NULL;
	if (!c->name || (system && !c->system)) {
		free((char *)c->name);
		free((char *)c->system);
		return NULL;
	}
	src->nr_counts++;
	return c;
}

bool rs_source_count_add(struct rs_source *src, const char *system, const char *name,
			 uint64_t n, uint64_t first_ts, uint64_t last_ts)
{
	struct rs_event_count *c = count_slot(src, system, name);

	if (!c) {
		rs_warn(src->info.warnings, "out of memory counting events");
		return false;
	}
	if (!c->count || first_ts < c->first_ts)
		c->first_ts = first_ts;
	if (last_ts > c->last_ts)
		c->last_ts = last_ts;
	c->count += n;
	return true;
}

void rs_source_counts_reset(struct rs_source *src)
{
	for (size_t i = 0; i < src->nr_counts; i++) {
		src->counts[i].count = 0;
		src->counts[i].first_ts = src->counts[i].last_ts = 0;
	}
}

static int count_cmp(const void *a, const void *b)
{
	const struct rs_event_count *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return strcmp(x->system ? x->system : "", y->system ? y->system : "");
}

void rs_source_counts_finish(struct rs_source *src)
{
	size_t j = 0;

	/* Drop names that never occurred (formats present in the file but not recorded). */
	for (size_t i = 0; i < src->nr_counts; i++) {
		if (src->counts[i].count) {
			src->counts[j++] = src->counts[i];
		} else {
			free((char *)src->counts[i].system);
			free((char *)src->counts[i].name);
		}
	}
	src->nr_counts = j;
	if (src->nr_counts)
		qsort(src->counts, src->nr_counts, sizeof(*src->counts), count_cmp);
}

int rs_source_set_cpus(struct rs_source *src, int cpus, struct rs_error *err)
{
	if (cpus < 0 || cpus > 65536)
		return rs_error_set(err, "%s: absurd CPU count %d", src->path, cpus);
	free(src->loss);
	src->loss = calloc(cpus ? cpus : 1, sizeof(*src->loss));
	if (!src->loss)
		return rs_error_set(err, "%s: out of memory", src->path);
	src->info.cpus = cpus;
	src->info.loss = src->loss;
	return 0;
}

/* Replace an owned string of the source (own) and what the info shows of it (shown). */
static int set_owned(char **own, const char **shown, const char *s)
{
	char *d = strdup(s);

	if (!d)
		return -1;
	free(*own);
	*own = d;
	*shown = d;
	return 0;
}

int rs_source_set_host(struct rs_source *src, const char *host)
{
	return set_owned(&src->host, &src->info.host, host);
}

int rs_source_set_kernel(struct rs_source *src, const char *release)
{
	return set_owned(&src->kernel, &src->info.kernel, release);
}
