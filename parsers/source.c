// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a trace: pick the backend by the file's first bytes; streaming and closing it. What a
 * backend fills in (its info, counts by name) is source_fill.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rs_file.h"
#include "rs_normalize.h"
#include "rs_warn.h"
#include "source_state.h"

/* trace.dat starts with "\027\010\104tracing" (trace-cmd's file magic). */
static const unsigned char tracedat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
						'g' };

static int sniff(const char *path, bool *is_tracedat, struct rs_error *err)
{
	unsigned char buf[sizeof(tracedat_magic)];
	struct stat st;
	ssize_t n;
	int fd;

	fd = rs_file_open(path, false, err);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return rs_error_set(err, "%s: cannot stat: %s", path, strerror(errno));
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return rs_error_set(err, "%s: cannot read: %s", path, strerror(errno));
	if (st.st_size == 0 && n > 0)
		return rs_error_set(err, "%s: a file whose size reads 0 but that has contents "
				    "(a /proc or /sys file?), not a trace", path);
	if (st.st_size == 0)
		return rs_error_set(err, "%s: empty file, not a trace", path);
	*is_tracedat = n >= 3 && !memcmp(buf, tracedat_magic, 3);
	if (*is_tracedat && (n < (ssize_t)sizeof(buf) || memcmp(buf, tracedat_magic, sizeof(buf))))
		return rs_error_set(err, "%s: truncated or corrupt trace.dat header (bad magic)",
				    path);
	return 0;
}

uint64_t rs_cpu_lost(const struct rs_cpu_loss *l)
{
	return (l->missed > l->overrun ? l->missed : l->overrun) + l->dropped;
}

int rs_source_open(const char *path, const struct rs_source_opts *opts, struct rs_source **out,
		   struct rs_error *err)
{
	struct rs_source *src;
	bool is_tracedat;
	int ret;

	*out = NULL;
	if (sniff(path, &is_tracedat, err) < 0)
		return -1;
	src = calloc(1, sizeof(*src));
	if (!src)
		return rs_error_set(err, "%s: out of memory", path);
	if (opts)
		src->opts = *opts;
	src->path = strdup(path);
	src->info.warnings = rs_warnings_new();
	src->markers = rs_markers_new();
	if (!src->path || !src->info.warnings || !src->markers) {
		ret = rs_error_set(err, "%s: out of memory", path);
		goto out_free;
	}
	src->info.path = src->path;
	src->info.kernel = "unknown";
	src->info.mglru = -1;
	rs_lru_shape_reset(&src->range_shape);
	ret = is_tracedat ? rs_tracedat_open(src, err) : rs_textlog_open(src, err);
	if (ret < 0)
		goto out_free;
	*out = src;
	return 0;

out_free:
	rs_source_close(src);
	return -1;
}

/*
 * What every backend's events pass on their way to the caller, for every thread count. The last
 * normalisation step: fields out of range are made unknown, events whose counts are not counts
 * are skipped, each with a warning (rs_normalize_check); the common event is passed on as it
 * is. Then the LRU's shape (lru_shape.c) sees it, in a full stream or a range.
 */
struct pass {
	struct rs_source *src;
	struct rs_lru_shape *shape;	/* NULL: the range has nothing to tell */
	rs_event_fn fn;
	void *ctx;
};

static int pass_on(const struct rs_event *ev, void *ctx)
{
	struct pass *p = ctx;
	struct rs_event fixed;
	const char *why;
	int r;

	if (rs_normalize_suspect(ev)) {
		fixed = *ev;
		/* a field a call; a fixed one is in range, so this ends (a few fields an event) */
		while ((r = rs_normalize_check(&fixed, &why)) == RS_NORM_FIXED)
			rs_warn(p->src->info.warnings, "%s: read as unknown", why);
		if (r == RS_NORM_DROP) {
			rs_warn(p->src->info.warnings, "%s: event skipped", why);
			return 0;
		}
		ev = &fixed;
	}
	if (p->shape && rs_lru_shape_wants(ev->type))
		rs_lru_shape_see(p->shape, ev);
	return p->fn(ev, p->ctx);
}

int rs_source_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		     void *ctx, struct rs_error *err)
{
	struct pass p = { .src = src, .shape = &src->shape, .fn = fn, .ctx = ctx };
	int ret;

	if (from_ns || to_ns != UINT64_MAX) {
		/* ranges tell MGLRU too (analyze --from/--to), from what every range read so
		   far showed (the markers before the range, the isolates in it); a full
		   stream's verdict is never replaced by theirs */
		p.shape = src->mglru_full ? NULL : &src->range_shape;
		ret = src->ops->stream(src, from_ns, to_ns, pass_on, &p, err);
		if (ret == 0 && p.shape) {
			int v = rs_lru_shape_verdict(&src->range_shape, src->mglru_how,
						     sizeof(src->mglru_how));
			size_t len = strlen(src->mglru_how);

			snprintf(src->mglru_how + len, sizeof(src->mglru_how) - len,
				 " (in the ranges read)");
			src->info.mglru = v;
			src->info.mglru_how = v >= 0 ? src->mglru_how : NULL;
		}
		return ret;
	}
	rs_lru_shape_reset(&src->shape);
	ret = src->ops->stream(src, from_ns, to_ns, pass_on, &p, err);
	if (ret == 0) {
		src->mglru_full = true;
		src->info.mglru = rs_lru_shape_verdict(&src->shape, src->mglru_how,
						       sizeof(src->mglru_how));
		src->info.mglru_how = src->mglru_how;
		src->info.isolates_empty = src->shape.isolates_empty;
		src->info.eviction_untraced = rs_lru_shape_untraced(&src->shape, src->info.mglru);
	}
	return ret;
}

const struct rs_trace_info *rs_source_info(const struct rs_source *src)
{
	return &src->info;
}

size_t rs_source_event_counts(const struct rs_source *src, const struct rs_event_count **out)
{
	*out = src->counts;
	return src->nr_counts;
}

void rs_source_close(struct rs_source *src)
{
	if (!src)
		return;
	if (src->ops && src->ops->close)
		src->ops->close(src);
	for (size_t i = 0; i < src->nr_counts; i++) {
		free((char *)src->counts[i].system);
		free((char *)src->counts[i].name);
	}
	free(src->counts);
	free(src->loss);
	free(src->format);
	free(src->kernel);
	free(src->host);
	free(src->path);
	rs_markers_free(src->markers);
	rs_warnings_free(src->info.warnings);
	free(src);
}
