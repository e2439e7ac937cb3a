// SPDX-License-Identifier: GPL-2.0
/*
 * Writing markers (docs/markers.md) through tracefs' trace_marker. Each marker is one write():
 * the kernel turns one write into one ftrace:print event, so concurrent writers (the snapshot
 * thread and the main thread) cannot interleave inside a marker.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "record_private.h"

int rec_marker_open(struct rec *r, struct rs_error *err)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/trace_marker", r->tracing_dir);
	r->marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (r->marker_fd < 0)
		return rs_error_set(err, "cannot open %s: %s", path, strerror(errno));
	return 0;
}

void rec_marker_close(struct rec *r)
{
	if (r->marker_fd >= 0)
		close(r->marker_fd);
	r->marker_fd = -1;
}

int rec_mark(struct rec *r, const char *fmt, ...)
{
	char buf[REC_MARKER_MAX + 1];
	va_list ap;
	ssize_t n;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* A cut marker would be a wrong one: drop it, and the count is reported. */
	if (len < 0 || len >= REC_MARKER_MAX || r->marker_fd < 0) {
		atomic_fetch_add(&r->markers_dropped, 1);
		return -1;
	}
	do {
		n = write(r->marker_fd, buf, (size_t)len);
	} while (n < 0 && errno == EINTR);
	if (n != len) {
		atomic_fetch_add(&r->markers_dropped, 1);
		return -1;
	}
	atomic_fetch_add(&r->markers, 1);
	return 0;
}

void rec_escape_path(const char *path, char *buf, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	if (len == 0)
		return;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f) {
			if (o + 3 >= len)
				break;
			buf[o++] = '%';
			buf[o++] = hex[*p >> 4];
			buf[o++] = hex[*p & 15];
		} else {
			if (o + 1 >= len)
				break;
			buf[o++] = (char)*p;
		}
	}
	buf[o] = '\0';
}

static long read_long(const char *path, long dflt)
{
	char buf[64];

	return rec_read_file(path, buf, sizeof(buf)) ? dflt : strtol(buf, NULL, 0);
}

int rec_write_begin(struct rec *r)
{
	char extra[REC_MARKER_MAX], esc[3 * 256];
	struct utsname u;
	long mglru;
	int n = 0;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	/* A kernel without CONFIG_LRU_GEN has no lru_gen directory: classic LRU, state 0. */
	mglru = read_long("/sys/kernel/mm/lru_gen/enabled", 0);
	extra[0] = '\0';
	if (r->cgroup) {
		unsigned long long limit, soft;

		rec_escape_path(r->cgroup, esc, sizeof(esc));
		n = snprintf(extra, sizeof(extra), " cgroup_path=%s", esc);
		/* the values in effect, which the kernel rounds to pages */
		if (!rec_cgroup_bytes(r, r->cgroup, r->mem.v2 ? "memory.max" : "memory.limit_in_bytes",
				      &limit) && n > 0 && (size_t)n < sizeof(extra))
			n += snprintf(extra + n, sizeof(extra) - (size_t)n, " limit=%llu", limit);
		if (!rec_cgroup_bytes(r, r->cgroup,
				      r->mem.v2 ? "memory.low" : "memory.soft_limit_in_bytes",
				      &soft) && n > 0 && (size_t)n < sizeof(extra))
			n += snprintf(extra + n, sizeof(extra) - (size_t)n, " soft_limit=%llu", soft);
		/* v2: the workload's leaf below cgroup_path (record_cgroup.c says why) */
		if (r->workload_cg && n > 0 && (size_t)n < sizeof(extra)) {
			rec_escape_path(r->workload_cg, esc, sizeof(esc));
			snprintf(extra + n, sizeof(extra) - (size_t)n, " workload_cgroup=%s", esc);
		}
	}
	/* the kmem events' filter (record_tracefs.c): which orders bypass the per-cpu lists */
	if (r->zone_flow && n >= 0 && (size_t)n < sizeof(extra))
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " zone_flow=1 pmd_order=%d", r->pmd_order);
	return rec_mark(r, "reclaimscope_begin version=1 kernel=%s page_size=%ld swappiness=%ld "
			"mglru=0x%04lx cgroup=%s nodes=%d interval_ms=%u%s", u.release,
			r->page_size, read_long("/proc/sys/vm/swappiness", -1), mglru,
			r->mem.v2 ? "v2" : "v1", r->nr_nodes ? r->nr_nodes : 1, r->interval_ms,
			extra);
}
