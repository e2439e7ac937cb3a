/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both fuzz harnesses do with one input: hand it to the loader exactly as a command would
 * (rs_source_open on a path, then streams), and read every byte of every event the loader
 * hands back, so a string that points outside its record, or past its NUL, is an ASan report
 * here rather than a wrong answer later.
 *
 * The input lives in a memfd reached through /proc/self/fd/N: a regular file to the loader
 * (fstat says S_ISREG, libtracecmd can open and mmap it), with no temp file left on a crash.
 */
#ifndef RS_FUZZ_COMMON_H
#define RS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../event_strings.h"
#include "rs_warn.h"
#include "trace_source.h"

struct fuzz_ctx {
	uint64_t sum;			/* keeps the reads below from being optimized away */
	uint64_t events;
	uint64_t stop_after;		/* 0: never stop early */
	uint64_t last_ts;
};

static void fuzz_touch(struct fuzz_ctx *c, const char *s)
{
	if (!s)
		return;
	c->sum += strlen(s);
	for (const char *p = s; *p; p++)
		c->sum += (unsigned char)*p;
}

static int fuzz_event(const struct rs_event *ev, void *ctx)
{
	struct fuzz_ctx *c = ctx;
	const char *str[RS_EV_MAX_STRINGS];
	int n;

	if ((unsigned int)ev->type >= RS_EV_NR_TYPES)
		abort();		/* a loader produced a type no consumer can index */
	c->sum += ev->ts + (uint64_t)ev->cpu + (uint64_t)ev->pid + ev->have;
	fuzz_touch(c, ev->comm);
	fuzz_touch(c, rs_ev_type_name(ev->type));
	n = rs_event_strings(ev, str);
	for (int i = 0; i < n; i++)
		fuzz_touch(c, str[i]);
	switch (ev->type) {
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
		fuzz_touch(c, rs_reclaim_kind_name(ev->reclaim.kind));
		break;
	case RS_EV_LRU_ISOLATE:
		fuzz_touch(c, rs_lru_name(ev->isolate.lru));
		break;
	case RS_EV_ITEM_NAMES:
		if (ev->items.count < 0 || (ev->items.count && !ev->items.names))
			abort();
		for (int i = 0; i < ev->items.count; i++) {
			if (!ev->items.names[i])
				abort();	/* the header promises no NULL names */
			fuzz_touch(c, ev->items.names[i]);
		}
		break;
	default:
		break;
	}
	c->last_ts = ev->ts;
	c->events++;
	if (c->stop_after && c->events >= c->stop_after)
		return 1;
	return 0;
}

static void fuzz_info(struct rs_source *src, struct fuzz_ctx *c)
{
	const struct rs_trace_info *info = rs_source_info(src);
	const struct rs_event_count *counts;
	size_t n = rs_source_event_counts(src, &counts);

	fuzz_touch(c, info->path);
	fuzz_touch(c, info->format);
	fuzz_touch(c, info->kernel);
	if (info->cpus < 0 || (info->cpus && !info->loss))
		abort();
	for (int i = 0; i < info->cpus; i++)
		c->sum += info->loss[i].missed + info->loss[i].overrun + info->loss[i].dropped;
	for (size_t i = 0; i < n; i++) {
		fuzz_touch(c, counts[i].system);
		fuzz_touch(c, counts[i].name);
		c->sum += counts[i].count;
	}
	for (size_t i = 0; i < rs_warnings_count(info->warnings); i++)
		fuzz_touch(c, rs_warnings_get(info->warnings, i, NULL));
}

/*
 * Run one input through open, a full stream, and a time-range stream that stops early; with
 * one or two threads (a trace.dat's parallel reader), chosen by the input's last byte.
 */
static int fuzz_run(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct rs_source_opts opts = { 0 };
	struct fuzz_ctx c = { 0 };
	const struct rs_trace_info *info;
	struct rs_source *src = NULL;
	struct rs_error err;
	uint64_t first, last;

	if (fd < 0) {
		fd = memfd_create("rs-fuzz-input", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
		perror("memfd write");
		abort();
	}
	opts.threads = size && (data[size - 1] & 1) ? 2 : 1;
	if (rs_source_open(path, &opts, &src, &err) < 0) {
		if (src || !err.msg[0])
			abort();	/* failure must leave no source and say why */
		return 0;
	}
	fuzz_info(src, &c);
	if (rs_source_stream(src, 0, UINT64_MAX, fuzz_event, &c, &err) < 0 && !err.msg[0])
		abort();
	fuzz_info(src, &c);
	info = rs_source_info(src);
	first = info->first_ts;
	last = info->last_ts;
	if (first < last) {
		c.events = 0;
		c.stop_after = 3;
		if (rs_source_stream(src, first + (last - first) / 2, last, fuzz_event, &c,
				     &err) < 0 && !err.msg[0])
			abort();
	}
	rs_source_close(src);
	/* hide c.sum from the optimizer without printing */
	__asm__ volatile("" : : "r"(c.sum));
	return 0;
}

#endif
