// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs side of `record`: which events to ask trace-cmd for, knowing when its tracing is
 * live, and putting tracefs back as we found it.
 *
 * `trace-cmd record` disables every event, clears every event filter and turns off
 * options/function-trace when it starts, and with -k (needed on this machine, see
 * docs/record.md) leaves its own events, filters and tracing_on=0 behind when it stops. So the
 * whole state that it touches is saved before and written back after: tracing_on,
 * current_tracer, trace_clock, buffer_size_kb (we ask for bigger buffers), options/ and every
 * event's enable and filter. Reading ~3500
 * small files takes tens of milliseconds, which is cheap next to losing a user's set-up.
 */
#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record_private.h"
#include "rs_grow.h"

#define TFILE_MAX	8192	/* longest value saved (filters are at most a page) */

static int tpath(struct rec *r, char *buf, size_t len, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", r->tracing_dir, rel);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * Reduce a file's content to what writing it back sets: trace_clock lists every clock with the
 * selected one in brackets; a filter with a parse error reads as the filter and an error report.
 */
static int canonical(const char *rel, char *val)
{
	char *x;

	/* "7 (expanded: 1408)": not allocated yet; 1408 is what it would be */
	if (!strcmp(rel, "buffer_size_kb") && (x = strstr(val, "expanded: "))) {
		size_t n = strcspn(x + 10, ")");

		memmove(val, x + 10, n);
		val[n] = '\0';
		return 0;
	}
	if (!strcmp(rel, "trace_clock")) {
		char *o = strchr(val, '['), *c = o ? strchr(o, ']') : NULL;

		if (!o || !c)
			return -1;
		*c = '\0';
		memmove(val, o + 1, (size_t)(c - o));
	} else {
		char *nl = strchr(val, '\n');

		if (nl)
			*nl = '\0';
	}
	return 0;
}

/* Save one file; a file that cannot be read (not in this kernel) is skipped. */
static int save_one(struct rec *r, struct rec_tracefs_state *st, const char *rel)
{
	char path[PATH_MAX];
	char val[TFILE_MAX];
	struct rec_tfile *f;

	if (tpath(r, path, sizeof(path), rel) || rec_read_file(path, val, sizeof(val)) ||
	    canonical(rel, val))
		return 0;
	if (RS_GROW(st->files, st->cap, st->nr + 1, 1024))
		return -1;
	f = &st->files[st->nr];
	f->rel = strdup(rel);
	f->val = strdup(val);
	if (!f->rel || !f->val) {
		free(f->rel);
		free(f->val);
		return -1;
	}
	st->nr++;
	return 0;
}

/* Save every regular file of dir `rel` (options/), or `leaf` of each subdir of each subdir. */
static int save_dir(struct rec *r, struct rec_tracefs_state *st, const char *rel)
{
	char path[PATH_MAX], sub[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	if (tpath(r, path, sizeof(path), rel))
		return 0;
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, d->d_name) >= (int)sizeof(sub))
			continue;
		ret = save_one(r, st, sub);
	}
	closedir(dir);
	return ret;
}

static int save_events(struct rec *r, struct rec_tracefs_state *st)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct dirent *s, *e;
	DIR *sys, *ev;
	int ret = 0;

	if (tpath(r, path, sizeof(path), "events"))
		return -1;
	sys = opendir(path);
	if (!sys)
		return -1;
	while (!ret && (s = readdir(sys))) {
		if (s->d_name[0] == '.' || s->d_type == DT_REG)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", r->tracing_dir, s->d_name);
		ev = opendir(path);
		if (!ev)
			continue;
		while (!ret && (e = readdir(ev))) {
			if (e->d_name[0] == '.' || e->d_type == DT_REG)
				continue;
			snprintf(rel, sizeof(rel), "events/%s/%s/enable", s->d_name, e->d_name);
			ret = save_one(r, st, rel);
			snprintf(rel, sizeof(rel), "events/%s/%s/filter", s->d_name, e->d_name);
			if (!ret)
				ret = save_one(r, st, rel);
		}
		closedir(ev);
	}
	closedir(sys);
	return ret;
}

int rec_tracefs_save(struct rec *r, struct rec_tracefs_state *st, struct rs_error *err)
{
	memset(st, 0, sizeof(*st));
	/* Events first, tracing_on last: restore walks the list in order. */
	if (save_events(r, st) || save_dir(r, st, "options") ||
	    save_one(r, st, "current_tracer") || save_one(r, st, "trace_clock") ||
	    save_one(r, st, "buffer_size_kb") || save_one(r, st, "buffer_percent") ||
	    save_one(r, st, "tracing_on")) {
		rec_tracefs_state_free(st);
		return rs_error_set(err, "cannot save the tracefs state under %s: %s",
				    r->tracing_dir, strerror(errno ? errno : ENOMEM));
	}
	return 0;
}

static int is_filter(const char *rel)
{
	size_t n = strlen(rel);

	return n > 7 && !strcmp(rel + n - 7, "/filter");
}

int rec_tracefs_restore(struct rec *r, struct rec_tracefs_state *st, struct rs_error *err)
{
	char path[PATH_MAX], cur[TFILE_MAX];
	int failed = 0;

	for (size_t i = 0; i < st->nr; i++) {
		struct rec_tfile *f = &st->files[i];
		const char *val = f->val;

		if (tpath(r, path, sizeof(path), f->rel) || rec_read_file(path, cur, sizeof(cur)) ||
		    canonical(f->rel, cur) || !strcmp(cur, val))
			continue;
		if (is_filter(f->rel) && !strcmp(val, "none"))
			val = "0";	/* writing "0" clears a filter */
		if (rec_write_file(path, val)) {
			if (!failed)
				rs_error_set(err, "cannot restore %s to '%s': %s", path, val,
					     strerror(errno));
			failed++;
		}
	}
	return failed;
}

void rec_tracefs_state_free(struct rec_tracefs_state *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		free(st->files[i].rel);
		free(st->files[i].val);
	}
	free(st->files);
	memset(st, 0, sizeof(*st));
}

/* "sys", "sys:event" or "sys/event"; patterns are left for trace-cmd to judge. */
int rec_event_exists(struct rec *r, const char *spec)
{
	char rel[PATH_MAX], path[PATH_MAX];
	struct stat sb;

	if (strpbrk(spec, "*?["))
		return 1;
	if (snprintf(rel, sizeof(rel), "events/%s", spec) >= (int)sizeof(rel))
		return 0;
	for (char *c = rel; *c; c++)
		if (*c == ':')
			*c = '/';
	return !tpath(r, path, sizeof(path), rel) && !stat(path, &sb) && S_ISDIR(sb.st_mode);
}

struct argv_buf {
	char **v;
	size_t n, cap;
	int oom;
};

static void arg(struct argv_buf *a, const char *s)
{
	if (a->oom)
		return;
	if (RS_GROW(a->v, a->cap, a->n + 2, 64)) {	/* the argument and the NULL after it */
		a->oom = 1;
		return;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n]) {
		a->oom = 1;
		return;
	}
	a->v[++a->n] = NULL;
}

static void arg_event(struct rec *r, struct argv_buf *a, const char *sys, const char *ev)
{
	char spec[256];

	snprintf(spec, sizeof(spec), "%s%s%s", sys, ev ? ":" : "", ev ? ev : "");
	if (!rec_event_exists(r, spec))
		return;
	arg(a, "-e");
	arg(a, spec);
}

static const char *const cgroup_events[] = {
	"cgroup_mkdir", "cgroup_rmdir", "cgroup_rename", "cgroup_release",
	"cgroup_attach_task", "cgroup_transfer_tasks",
};

static const char *const sched_events[] = {
	"sched_process_fork", "sched_process_exec", "sched_process_exit",
};

/*
 * The memcg events one by one, because -f applies to the -e just before it. count_memcg_events
 * is limited to the reclaim items; with --own-memcgs every memcg event is limited to our
 * cgroups, as other cgroups' page faults on a busy machine would be most of the trace, except
 * memcg_flush_stats: a flush of an ancestor (the root's periodic flush every 2 s) refreshes the
 * stats our cgroups' reclaim reads (docs/replay.md), and flushes are few.
 */
static int arg_memcg_events(struct rec *r, struct argv_buf *a, struct rs_error *err)
{
	char path[PATH_MAX];
	struct dirent **names = NULL;
	char *items = NULL, idf[48];
	int n, ret = 0;

	/* cgroup ids come from a cyclic allocator: ours and those made after it are >= */
	snprintf(idf, sizeof(idf), "id>=%llu", (unsigned long long)r->memcg_min_id);

	if (tpath(r, path, sizeof(path), "events/memcg"))
		return 0;
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		return 0;	/* kernels before 6.13 have no memcg events */
	for (int i = 0; i < n; i++) {
		const char *ev = names[i]->d_name;
		char spec[300];

		/* only event directories: a -f must follow the -e it belongs to */
		snprintf(spec, sizeof(spec), "memcg:%s", ev);
		if (ev[0] == '.' || !rec_event_exists(r, spec))
			continue;
		arg_event(r, a, "memcg", ev);
		if (!strcmp(ev, "count_memcg_events") && !r->all_memcg_items && !ret) {
			items = rec_items_memcg_filter(r, err);
			if (!items) {
				ret = -1;
				continue;
			}
		}
		if (items || (r->own_memcgs && strcmp(ev, "memcg_flush_stats"))) {
			char *f = NULL;

			if (asprintf(&f, "%s%s%s%s%s", items ? "(" : "", items ? items : "",
				     items ? ")" : "", items && r->own_memcgs ? "&&" : "",
				     r->own_memcgs ? idf : "") < 0) {
				ret = rs_error_set(err, "out of memory");
				break;
			}
			arg(a, "-f");
			arg(a, f);
			free(f);
		}
		free(items);
		items = NULL;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/*
 * The page cache's own events, for refaults (docs/refaults.md). On 6.18 and 7.x they carry
 * s_dev, i_ino, index, order and pfn but no memcg, and a deletion by reclaim runs in kswapd or
 * in whichever task reclaims, so neither a memcg nor a pid filter can keep "our cgroups' pages":
 * the only in-kernel filter is the device (--filemap-dev), which the kernel encodes as
 * major << 20 | minor.
 */
static void arg_filemap_events(struct rec *r, struct argv_buf *a)
{
	static const char *const events[] = {
		"mm_filemap_delete_from_page_cache", "mm_filemap_add_to_page_cache",
	};
	char *f = NULL;

	for (size_t k = 0; k < r->nr_filemap_devs; k++) {
		char *n = NULL;

		if (asprintf(&n, "%s%ss_dev==%llu", f ? f : "", f ? "||" : "",
			     (unsigned long long)r->filemap_devs[k]) < 0) {
			a->oom = 1;
			free(f);
			return;
		}
		free(f);
		f = n;
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		char spec[128];

		snprintf(spec, sizeof(spec), "filemap:%s", events[i]);
		if (!rec_event_exists(r, spec))
			continue;
		arg_event(r, a, "filemap", events[i]);
		if (f) {
			arg(a, "-f");
			arg(a, f);
		}
	}
	free(f);
}

/*
 * The buddy allocator's own events (--zone-flow): every change of a zone's NR_FREE_PAGES that
 * moves a block onto or off the buddy lists (Linux 7.2 mm/page_alloc.c, account_freepages()),
 * so the loader can tell a zone's free pages between two zone_stat samples (docs/markers.md
 * "zone_flow"):
 *  - mm_page_alloc_zone_locked: a block taken off the buddy lists (__rmqueue_smallest() and the
 *    fallback steal), for an allocation or a per-cpu refill (rmqueue_bulk());
 *  - mm_page_pcpu_drain: a page a per-cpu list gives back (free_pcppages_bulk());
 *  - mm_page_free of an order the per-cpu lists never hold (pcp_allowed_order(): above
 *    PAGE_ALLOC_COSTLY_ORDER 3 and not the PMD order): freed straight to the buddy lists. The
 *    frees of the other orders go to a per-cpu list and reach the buddy lists as a drain; the
 *    filter keeps them out, as they are the bulk of a streaming workload's events.
 */
static void arg_zone_flow_events(struct rec *r, struct argv_buf *a)
{
	char f[64];

	arg_event(r, a, "kmem", "mm_page_alloc_zone_locked");
	arg_event(r, a, "kmem", "mm_page_pcpu_drain");
	if (!rec_event_exists(r, "kmem:mm_page_free"))
		return;
	arg_event(r, a, "kmem", "mm_page_free");
	if (r->pmd_order > 0)
		snprintf(f, sizeof(f), "order>3&&order!=%d", r->pmd_order);
	else
		snprintf(f, sizeof(f), "order>3");
	arg(a, "-f");
	arg(a, f);
}

char **rec_trace_cmd_argv(struct rec *r, struct rs_error *err)
{
	struct argv_buf a = { 0 };
	char num[32];

	if (!rec_event_exists(r, "vmscan")) {
		rs_error_set(err, "this kernel has no vmscan tracepoints (%s/events/vmscan)",
			     r->tracing_dir);
		return NULL;
	}
	arg(&a, r->trace_cmd);
	arg(&a, "record");
	/* -d: function tracing is locked on some kernels; -k: see the top of this file. */
	arg(&a, "-d");
	arg(&a, "-k");
	arg(&a, "-q");
	if (r->buffer_kb > 0) {
		snprintf(num, sizeof(num), "%ld", r->buffer_kb);
		arg(&a, "-b");
		arg(&a, num);
	}
	arg_event(r, &a, "vmscan", NULL);
	if (arg_memcg_events(r, &a, err)) {
		rec_argv_free(a.v);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(cgroup_events) / sizeof(cgroup_events[0]); i++)
		arg_event(r, &a, "cgroup", cgroup_events[i]);
	for (size_t i = 0; i < sizeof(sched_events) / sizeof(sched_events[0]); i++)
		arg_event(r, &a, "sched", sched_events[i]);
	arg_event(r, &a, "oom", NULL);
	if (!r->no_filemap)
		arg_filemap_events(r, &a);
	if (r->zone_flow)
		arg_zone_flow_events(r, &a);
	for (size_t i = 0; i < r->nr_events; i++) {
		arg(&a, "-e");
		arg(&a, r->events[i]);
	}
	if (r->file_version) {
		snprintf(num, sizeof(num), "%d", r->file_version);
		arg(&a, "--file-version");
		arg(&a, num);
	}
	arg(&a, "-o");
	arg(&a, r->output);
	if (a.oom) {
		rec_argv_free(a.v);
		rs_error_set(err, "out of memory");
		return NULL;
	}
	return a.v;
}

void rec_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int rec_tracefs_arm(struct rec *r, struct rs_error *err)
{
	char path[PATH_MAX];

	if (tpath(r, path, sizeof(path), "events/vmscan/enable") || rec_write_file(path, "0") ||
	    tpath(r, path, sizeof(path), "tracing_on") || rec_write_file(path, "0"))
		return rs_error_set(err, "cannot write %s: %s", path, strerror(errno));
	/*
	 * trace-cmd's readers block in splice until a CPU's buffer is buffer_percent full (50
	 * by default); a CPU with little traffic then keeps most of its events in the kernel
	 * when the recording stops (a fixture lost 145k of 305k events of one CPU that way).
	 * 0 wakes the readers for every page. Kernels without the file ignore this.
	 */
	if (!tpath(r, path, sizeof(path), "buffer_percent"))
		rec_write_file(path, "0");
	return 0;
}

int rec_tracefs_live(struct rec *r)
{
	char path[PATH_MAX], v[16];

	if (tpath(r, path, sizeof(path), "events/vmscan/enable") ||
	    rec_read_file(path, v, sizeof(v)) || strcmp(v, "1"))
		return 0;
	if (tpath(r, path, sizeof(path), "tracing_on") ||
	    rec_read_file(path, v, sizeof(v)) || strcmp(v, "1"))
		return 0;
	return 1;
}

/*
 * Sum over CPUs of a per_cpu/cpuN/stats field ("entries", "bytes"), or with max the largest
 * per-CPU value.
 */
static unsigned long long cpu_stat(struct rec *r, const char *field, bool max)
{
	char path[PATH_MAX], line[128];
	unsigned long long total = 0, v;
	size_t flen = strlen(field);

	for (int cpu = 0; cpu < 8192; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", r->tracing_dir, cpu);
		f = fopen(path, "re");
		if (!f) {
			if (errno == ENOENT && cpu > 0)
				break;
			continue;
		}
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, field, flen) || line[flen] != ':')
				continue;
			v = strtoull(line + flen + 1, NULL, 10);
			total = max ? (v > total ? v : total) : total + v;
		}
		fclose(f);
	}
	return total;
}

unsigned long long rec_tracefs_lost(struct rec *r)
{
	return cpu_stat(r, "overrun", false) + cpu_stat(r, "dropped events", false);
}

/*
 * The ring buffer hands readers whole pages only: the last events of a CPU, the end marker
 * among them, stay in its half-filled page until more events fill it. Fill it: write a
 * page's worth of padding markers from every CPU.
 */
#define PADS_PER_CPU	8

static void pad_pages(struct rec *r)
{
	cpu_set_t saved, one;
	char pad[REC_MARKER_MAX - 64];
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	memset(pad, '.', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return;
	for (long cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &saved))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		/* a page is 4 KiB of events: 8 markers of ~940 bytes more than fill it */
		for (int i = 0; i < PADS_PER_CPU; i++)
			rec_mark(r, "reclaimscope_pad %s", pad);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
}

/*
 * What trace-cmd cannot take (a last, half-filled page) now holds padding only: consume it
 * with read(), which, unlike trace-cmd's splice, takes partial pages, so the buffer
 * statistics the trace stores say nothing was left behind.
 */
static void discard_padding(struct rec *r)
{
	char path[PATH_MAX], page[4096];

	for (int cpu = 0; cpu < 8192; cpu++) {
		int fd;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", r->tracing_dir,
			 cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT && cpu > 0)
				break;
			continue;
		}
		for (int i = 0; i < 16 && read(fd, page, sizeof(page)) > 0; i++)
			;
		close(fd);
	}
}

unsigned long long rec_tracefs_drain(struct rec *r, int timeout_ms)
{
	char path[PATH_MAX];
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	long page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	bool drained = false;

	pad_pages(r);
	/* nothing after the padding matters: stop, then let trace-cmd take the full pages */
	if (!tpath(r, path, sizeof(path), "tracing_on"))
		rec_write_file(path, "0");
	for (int waited = 0; waited < timeout_ms; waited += 20) {
		/*
		 * less than a page left on every CPU: only the half-filled page of padding. Or
		 * no more unread events on any CPU than the padding written there: unread
		 * events are the newest, so they are padding (or came after it). "bytes" alone
		 * can stay above a page: events a filter discarded (the filemap events with
		 * --filemap-dev) still take room in the page, and then the wait ran into its
		 * timeout and the padding stayed, counted as unread.
		 */
		if (cpu_stat(r, "bytes", true) < (unsigned long long)page ||
		    cpu_stat(r, "entries", true) <= PADS_PER_CPU) {
			drained = true;
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (drained)
		discard_padding(r);
	return cpu_stat(r, "entries", false);
}
