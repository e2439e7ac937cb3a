// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat backend: libtracecmd opens the file (versions 6 and 7, compressed or not) and
 * libtraceevent describes each event's binary layout. Fields are resolved by name once per
 * event format; each record is then decoded by offset, with every read bounds-checked against
 * the record's size, because the file may come from any kernel or be corrupt.
 *
 * Records are merged across CPUs by timestamp, reading one record per CPU at a time, so memory
 * does not grow with the trace (libtracecmd's own caching aside; see bench/README.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "rs_normalize.h"
#include "rs_warn.h"
#include "source_impl.h"

/* Exported by libtracecmd 1.3 (trace-cmd-private.h) but missing from its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);
int tracecmd_set_cpu_to_timestamp(struct tracecmd_input *handle, int cpu, unsigned long long ts);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cursor(struct tracecmd_input *handle, int cpu, unsigned long long offset);
int tracecmd_page_size(struct tracecmd_input *handle);

#define TRACEDAT_OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

/*
 * libtracecmd 1.3.1 keeps every decompressed chunk of a compressed (v7) trace in memory: its
 * free_zpage() looks a page up with `map <= cache->map && map > cache->map + size`, which
 * never holds, so no chunk is freed; and read_zpage() searches that growing list linearly for
 * each new page, which makes reading quadratic. A 54 MB trace of 27 M events peaked at 830 MB
 * and read at a third of the speed of a small one. We bound both: after this many bytes of
 * pages were mapped, the handle is closed and opened again, and each CPU is put back at its
 * next unread record with tracecmd_set_cursor() (reopen_handle()).
 */
#define RS_ZCACHE_BUDGET (96ull << 20)

#define RS_STR_MAX 4096		/* longest string field we copy (paths, marker text) */

/* How one slot is read from a record of one event format. */
struct slot_reader {
	int offset, size;
	bool is_signed, dynamic, relative, to_end;
};

/* One event format of the file. */
struct fmt {
	int id;
	const char *system, *name;	/* owned by libtraceevent */
	uint64_t count, first_ts, last_ts;
	const struct rs_kevent *ke;	/* NULL: counted, not decoded */
	bool usable;
	uint32_t present;
	struct slot_reader rd[RS_MAX_SLOTS];
};

struct tracedat {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct fmt *fmts;		/* sorted by id */
	int nr_fmts;
	struct fmt **by_id;		/* direct map for ids < by_id_len */
	int by_id_len;
	struct fmt unknown;		/* records whose event id has no format */
	bool compressed;		/* chunks leak in libtracecmd: reopen_handle() */
	uint64_t page_size, mapped;	/* bytes of pages mapped since the handle was opened */
	uint64_t *last_page;		/* [cpus]: page of the last record read */
	unsigned long long *resume;	/* [cpus]: scratch for reopen_handle() */
	char strbuf[RS_MAX_SLOTS][RS_STR_MAX];
};

static int fmt_cmp(const void *a, const void *b)
{
	const struct fmt *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static struct fmt *fmt_find(struct tracedat *td, int id)
{
	struct fmt key = { .id = id };

	if (id >= 0 && id < td->by_id_len)
		return td->by_id[id];
	return bsearch(&key, td->fmts, td->nr_fmts, sizeof(key), fmt_cmp);
}

/* Resolve the slots of a known event against this file's format of it. */
static void fmt_resolve(struct rs_source *src, struct fmt *f, struct tep_event *event)
{
	const struct rs_kevent *ke = f->ke;
	const char *missing;

	for (int i = 0; i < ke->nr_slots; i++) {
		const struct rs_slot *slot = &ke->slots[i];
		struct tep_format_field *field = NULL;
		struct slot_reader *rd = &f->rd[i];
		char name[64];
		const char *p = slot->names;

		/* try every "a|b|c" alias against the binary field names */
		while (*p && !field) {
			size_t n = strcspn(p, "|");

			if (n < sizeof(name)) {
				memcpy(name, p, n);
				name[n] = '\0';
				field = tep_find_field(event, name);
			}
			p += n;
			if (*p == '|')
				p++;
		}
		if (!field)
			continue;
		rd->offset = field->offset;
		rd->size = field->size;
		rd->is_signed = field->flags & TEP_FIELD_IS_SIGNED;
		if (slot->kind == RS_SLOT_NUM) {
			if (field->size != 1 && field->size != 2 && field->size != 4 &&
			    field->size != 8) {
				rs_warn(src->info.warnings, "%s:%s: field %s has size %d, not a "
					"number we can read; ignored", ke->system, ke->name,
					field->name, field->size);
				continue;
			}
		} else {
			rd->dynamic = field->flags & TEP_FIELD_IS_DYNAMIC;
			rd->relative = field->flags & TEP_FIELD_IS_RELATIVE;
			rd->to_end = !rd->dynamic && field->size == 0;
			if (rd->dynamic && field->size != 4) {
				rs_warn(src->info.warnings, "%s:%s: dynamic field %s has size %d; "
					"ignored", ke->system, ke->name, field->name, field->size);
				continue;
			}
		}
		if (rd->offset < 0 || rd->size < 0 || rd->offset > 65536 || rd->size > 65536) {
			rs_warn(src->info.warnings, "%s:%s: field %s has an absurd layout; ignored",
				ke->system, ke->name, field->name);
			continue;
		}
		f->present |= 1u << i;
	}
	missing = rs_kevent_missing(ke, f->present);
	f->usable = !missing;
	if (missing)
		rs_warn(src->info.warnings, "%s:%s has no field '%s' in this trace's format; "
			"these events are counted but not analysed", ke->system, ke->name, missing);
}

static uint64_t read_num(const uint8_t *p, int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

/* Copy a string field into buf (NUL-terminated, bounded); false when out of the record. */
static bool read_str(const struct slot_reader *rd, const uint8_t *data, int size, char *buf)
{
	const uint8_t *p;
	int len;

	if (rd->dynamic) {
		uint32_t loc;
		int off;

		if (rd->offset + 4 > size)
			return false;
		memcpy(&loc, data + rd->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (rd->relative)
			off += rd->offset + 4;
		if (off > size || len > size - off)
			return false;
		p = data + off;
	} else {
		if (rd->offset > size)
			return false;
		p = data + rd->offset;
		len = rd->to_end ? size - rd->offset : rd->size;
		if (len > size - rd->offset)
			return false;
	}
	if (len >= RS_STR_MAX)
		len = RS_STR_MAX - 1;
	len = (int)strnlen((const char *)p, len);
	memcpy(buf, p, len);
	/* ftrace:print text ends in the newline the writer sent */
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	return true;
}

/* Decode one known record; false when it does not fit its format (corrupt record). */
static bool decode(struct rs_source *src, struct tracedat *td, struct fmt *f,
		   struct tep_record *rec, struct rs_event *ev)
{
	struct rs_slotvals v;
	const uint8_t *data = rec->data;

	v.present = 0;
	for (int i = 0; i < f->ke->nr_slots; i++) {
		const struct slot_reader *rd = &f->rd[i];

		if (!(f->present & (1u << i)))
			continue;
		if (f->ke->slots[i].kind == RS_SLOT_NUM) {
			if (rd->offset + rd->size > rec->size)
				goto short_record;
			v.num[i] = read_num(data + rd->offset, rd->size, rd->is_signed);
		} else {
			if (!read_str(rd, data, rec->size, td->strbuf[i]))
				goto short_record;
			v.str[i] = td->strbuf[i];
		}
		v.present |= 1u << i;
	}
	rs_normalize(f->ke, &v, ev);
	return true;

short_record:
	rs_warn(src->info.warnings, "%s:%s: record at offset %llu is shorter than its format; "
		"skipped", f->ke->system, f->ke->name, (unsigned long long)rec->offset);
	return false;
}

static void parse_cpustats(struct rs_source *src, const char *stats)
{
	int cpu = -1;

	while (stats && *stats) {
		unsigned long long v;
		int c;

		if (sscanf(stats, "CPU: %d", &c) == 1)
			cpu = c;
		else if (cpu >= 0 && cpu < src->info.cpus && sscanf(stats, "overrun: %llu", &v) == 1)
			src->loss[cpu].overrun = v;
		else if (cpu >= 0 && cpu < src->info.cpus &&
			 sscanf(stats, "dropped events: %llu", &v) == 1)
			src->loss[cpu].dropped = v;
		else if (cpu >= 0 && cpu < src->info.cpus && sscanf(stats, "entries: %llu", &v) == 1)
			src->loss[cpu].unread = v;
		stats = strchr(stats, '\n');
		if (stats)
			stats++;
	}
}

static int build_formats(struct rs_source *src, struct tracedat *td, struct rs_error *err)
{
	struct tep_event **events = tep_list_events(td->tep, TEP_EVENT_SORT_ID);
	int n = 0, max_id = -1;

	if (!events)
		return rs_error_set(err, "%s: no event formats in the file", src->path);
	while (events[n])
		n++;
	td->fmts = calloc(n ? n : 1, sizeof(*td->fmts));
	if (!td->fmts)
		return rs_error_set(err, "%s: out of memory", src->path);
	for (int i = 0; i < n; i++) {
		struct tep_event *e = events[i];
		struct fmt *f = &td->fmts[td->nr_fmts];
		int k;

		if (!e->name)
			continue;
		f->id = e->id;
		f->system = e->system;
		f->name = e->name;
		k = rs_kevent_find(e->system, e->name);
		f->ke = rs_kevent_get(k);
		if (f->ke)
			fmt_resolve(src, f, e);
		if (e->id > max_id)
			max_id = e->id;
		td->nr_fmts++;
	}
	qsort(td->fmts, td->nr_fmts, sizeof(*td->fmts), fmt_cmp);
	/* Ids are small in practice; a direct map makes the per-record lookup one load. */
	if (max_id >= 0 && max_id < 65536) {
		td->by_id_len = max_id + 1;
		td->by_id = calloc(td->by_id_len, sizeof(*td->by_id));
		if (!td->by_id)
			return rs_error_set(err, "%s: out of memory", src->path);
		for (int i = 0; i < td->nr_fmts; i++)
			if (td->fmts[i].id >= 0)
				td->by_id[td->fmts[i].id] = &td->fmts[i];
	}
	td->unknown.name = "unknown";
	return 0;
}

/*
 * tracecmd_cpus() is the largest CPU count the file names (its CPUCOUNT option, e.g. all CPUs
 * of a `trace-cmd record -M` run), which can exceed the per-CPU table the data fill; and
 * tracecmd_read_cpu_last() indexes that table unchecked. The file size of a CPU is the one
 * bounds-checked look at it.
 */
static bool cpu_has_data(struct tracedat *td, int cpu)
{
	return tracecmd_get_cpu_file_size(td->handle, cpu) > 0;
}

static void count_record(struct fmt *f, uint64_t ts)
{
	if (!f->count++)
		f->first_ts = ts;
	f->last_ts = ts;
}

/* Publish the per-format counts as the source's counts by name. */
static void publish_counts(struct rs_source *src, struct tracedat *td)
{
	rs_source_counts_reset(src);
	for (int i = 0; i <= td->nr_fmts; i++) {
		struct fmt *f = i < td->nr_fmts ? &td->fmts[i] : &td->unknown;
		struct rs_event_count *c;

		if (!f->count)
			continue;
		c = rs_source_count_slot(src, f->system, f->name);
		if (!c) {
			rs_warn(src->info.warnings, "out of memory counting events");
			return;
		}
		if (!c->count || f->first_ts < c->first_ts)
			c->first_ts = f->first_ts;
		if (f->last_ts > c->last_ts)
			c->last_ts = f->last_ts;
		c->count += f->count;
	}
	rs_source_counts_finish(src);
}

static void tracedat_close(struct rs_source *src)
{
	struct tracedat *td = src->priv;

	if (!td)
		return;
	if (td->handle)
		tracecmd_close(td->handle);
	free(td->fmts);
	free(td->by_id);
	free(td->last_page);
	free(td->resume);
	free(td);
	src->priv = NULL;
}

/* Min-heap of per-CPU head records, keyed by (ts, cpu). */
struct head {
	struct tep_record *rec;
	int cpu;
};

static bool head_less(const struct head *a, const struct head *b)
{
	return a->rec->ts < b->rec->ts || (a->rec->ts == b->rec->ts && a->cpu < b->cpu);
}

static void heap_down(struct head *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		struct head t;

		if (l < n && head_less(&h[l], &h[m]))
			m = l;
		if (r < n && head_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void progress(struct rs_source *src, uint64_t ts, uint64_t first, uint64_t last)
{
	double pct = last > first ? 100.0 * (double)(ts - first) / (double)(last - first) : 100;

	fprintf(stderr, "\rreading %s: %5.1f%%", src->path, pct > 100 ? 100 : pct);
}

/* Count the page a record was read from; true when the chunk budget is used up. */
static bool page_mapped(struct tracedat *td, int cpu, const struct tep_record *rec)
{
	uint64_t page = rec->offset / td->page_size;

	if (!td->compressed || page == td->last_page[cpu])
		return false;
	td->last_page[cpu] = page;
	td->mapped += td->page_size;
	return td->mapped >= RS_ZCACHE_BUDGET;
}

/*
 * When tracecmd_init_data() fails part-way, libtracecmd 3.1.6 leaves per-CPU lists of the
 * CPUs it did not reach zeroed, and tracecmd_close() then follows a NULL list pointer (and
 * closes fd 0, from a zeroed descriptor). rs_tracedat_check() rules out the causes it can
 * see (truncated or corrupt CPU data); what remains (a corrupt compressed chunk, a corrupt
 * header_page format) is parked here, unclosed but reachable, instead of crashing. It is
 * memory we never free, once per such file; the command exits right after.
 */
#define PARKED_MAX 1024
static struct tracecmd_input *volatile parked[PARKED_MAX];	/* never read: keep the stores */
static int nr_parked;

static void park(struct tracecmd_input *handle)
{
	if (nr_parked < PARKED_MAX)
		parked[nr_parked++] = handle;
}

/*
 * tracecmd_open(), in its two steps so that a failing tracecmd_init_data() is parked rather
 * than closed (above). NULL with err set on failure.
 */
static struct tracecmd_input *open_handle(struct rs_source *src, struct rs_error *err)
{
	struct tracecmd_input *h = tracecmd_open_head(src->path, TRACEDAT_OPEN_FLAGS);

	if (!h) {
		rs_error_set(err, "%s: libtracecmd cannot read this trace.dat: truncated, corrupt, "
			     "or an unsupported file version", src->path);
		return NULL;
	}
	if (tracecmd_init_data(h) < 0) {
		park(h);
		rs_error_set(err, "%s: libtracecmd cannot read the event data of this trace.dat: "
			     "corrupt ring-buffer pages", src->path);
		return NULL;
	}
	return h;
}

/*
 * Close and reopen the handle, putting every CPU of the heap back at its unread record, so
 * libtracecmd drops its decompressed chunks (see RS_ZCACHE_BUDGET). On failure the heap is
 * empty (*n = 0) and err is set.
 */
static int reopen_handle(struct rs_source *src, struct tracedat *td, struct head *heap, int *n,
			 struct rs_error *err)
{
	int i, ret = 0;

	for (i = 0; i < *n; i++) {
		td->resume[i] = heap[i].rec->offset;
		tracecmd_free_record(heap[i].rec);
		heap[i].rec = NULL;
	}
	tracecmd_close(td->handle);
	td->handle = open_handle(src, err);
	if (!td->handle) {
		*n = 0;
		return rs_error_prefix(err, "reopening to free decompressed data: ");
	}
	td->tep = tracecmd_get_tep(td->handle);
	for (int f = 0; f < td->nr_fmts; f++) {
		struct tep_event *e = tep_find_event(td->tep, td->fmts[f].id);

		td->fmts[f].system = e ? e->system : NULL;
		td->fmts[f].name = e ? e->name : "unknown";
	}
	for (i = 0; i < *n; i++) {
		int cpu = heap[i].cpu;
		struct tep_record *r = NULL;

		if (tracecmd_set_cursor(td->handle, cpu, td->resume[i]) == 0)
			r = tracecmd_read_data(td->handle, cpu);
		if (!r || r->offset != td->resume[i]) {
			if (r)
				tracecmd_free_record(r);
			ret = rs_error_set(err, "%s: CPU %d: cannot find the record at offset %llu "
					   "again after reopening the file", src->path, cpu,
					   td->resume[i]);
			break;
		}
		heap[i].rec = r;
		td->last_page[cpu] = r->offset / td->page_size;
	}
	if (ret < 0) {
		for (int j = 0; j < i; j++)
			tracecmd_free_record(heap[j].rec);
		*n = 0;
	}
	td->mapped = 0;
	return ret;
}

static int tracedat_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns,
			   rs_event_fn fn, void *ctx, struct rs_error *err)
{
	struct tracedat *td = src->priv;
	bool full = from_ns == 0 && to_ns == UINT64_MAX;
	int cpus = src->info.cpus, n = 0, ret = 0;
	uint64_t *last_cpu_ts = NULL, nrec = 0;
	uint64_t first = UINT64_MAX, last = 0;
	struct head *heap;
	struct rs_event ev;

	heap = calloc(cpus ? cpus : 1, sizeof(*heap));
	last_cpu_ts = calloc(cpus ? cpus : 1, sizeof(*last_cpu_ts));
	if (!heap || !last_cpu_ts) {
		ret = rs_error_set(err, "%s: out of memory", src->path);
		goto out;
	}
	if (full) {
		for (int i = 0; i < td->nr_fmts; i++)
			td->fmts[i].count = 0;
		td->unknown.count = 0;
		for (int c = 0; c < cpus; c++)
			src->loss[c].missed = src->loss[c].missed_unknown = 0;
	}
	for (int c = 0; c < cpus; c++) {
		struct tep_record *r = cpu_has_data(td, c) ? tracecmd_read_cpu_first(td->handle, c) :
					 NULL;

		/*
		 * libtracecmd 3.1.6 re-runs its per-CPU set-up when tracecmd_set_cpu_to_timestamp()
		 * finds no current page, as after a stream has read a CPU to its end; on a
		 * compressed v7 file that set-up then reads a chunk count from a virtual offset
		 * (calloc of gigabytes) and it leaks the page table every time. Reading the
		 * first record above maps a page again, so the search below starts from it.
		 */
		if (r && from_ns) {
			tracecmd_free_record(r);
			r = NULL;
			if (tracecmd_set_cpu_to_timestamp(td->handle, c, from_ns) == 0)
				r = tracecmd_read_data(td->handle, c);
		}
		if (r) {
			heap[n].rec = r;
			heap[n++].cpu = c;
			page_mapped(td, c, r);
		}
	}
	for (int i = n / 2 - 1; i >= 0; i--)
		heap_down(heap, n, i);

	while (n > 0) {
		struct tep_record *rec = heap[0].rec;
		int cpu = heap[0].cpu;
		struct fmt *f = NULL;
		int id;

		if (rec->ts >= to_ns)
			break;
		if (rec->ts < from_ns)
			goto next;
		if (rec->ts < last_cpu_ts[cpu])
			rs_warn(src->info.warnings, "CPU %d: timestamps go backwards (first at "
				"%llu ns); events kept in file order", cpu,
				(unsigned long long)rec->ts);
		last_cpu_ts[cpu] = rec->ts;
		if (rec->missed_events) {
			if (full && rec->missed_events > 0)
				src->loss[cpu].missed += (uint64_t)rec->missed_events;
			else if (full)
				src->loss[cpu].missed_unknown++;
			/* consumers must know state may be broken from here on this CPU */
			memset(&ev, 0, sizeof(ev));
			ev.type = RS_EV_LOST;
			ev.ts = rec->ts;
			ev.cpu = cpu;
			ev.pid = -1;
			ev.comm = "<lost>";
			ev.offset = rec->offset;
			ev.lost = rec->missed_events > 0 ? rec->missed_events : -1;
			ret = fn(&ev, ctx);
			if (ret) {
				tracecmd_free_record(rec);
				for (int i = 1; i < n; i++)
					tracecmd_free_record(heap[i].rec);
				n = 0;
				break;
			}
		}
		nrec++;
		if (rec->ts < first)
			first = rec->ts;
		if (rec->ts > last)
			last = rec->ts;
		id = rec->size >= 2 ? tep_data_type(td->tep, rec) : -1;
		f = fmt_find(td, id);
		if (full)
			count_record(f ? f : &td->unknown, rec->ts);
		if (f && f->ke && f->usable && decode(src, td, f, rec, &ev)) {
			ev.ts = rec->ts;
			ev.cpu = cpu;
			ev.offset = rec->offset;
			ev.pid = tep_data_pid(td->tep, rec);
			ev.comm = tep_data_comm_from_pid(td->tep, ev.pid);
			if (ev.type == RS_EV_MARKER && ev.marker)
				rs_markers_decode(src, ev.marker, &ev);
			else if (ev.type == RS_EV_SLAB_START || ev.type == RS_EV_SLAB_END)
				ev.slab.shrink_name = tep_find_function(td->tep,
									ev.slab.shrink_fn);
			ret = fn(&ev, ctx);
			if (ret) {
				tracecmd_free_record(rec);
				for (int i = 1; i < n; i++)
					tracecmd_free_record(heap[i].rec);
				n = 0;
				break;
			}
		}
		if (src->opts.progress && !(nrec & 0xfffff))
			progress(src, rec->ts, src->info.first_ts, src->info.last_ts);
next:
		tracecmd_free_record(rec);
		heap[0].rec = tracecmd_read_data(td->handle, cpu);
		if (!heap[0].rec)
			heap[0] = heap[--n];
		else if (page_mapped(td, cpu, heap[0].rec) && reopen_handle(src, td, heap, &n, err))
			ret = -1;	/* n is 0 now */
		if (n > 0)
			heap_down(heap, n, 0);
	}
	for (int i = 0; i < n; i++)
		tracecmd_free_record(heap[i].rec);
	if (src->opts.progress)
		fprintf(stderr, "\r%*s\r", 40 + (int)strlen(src->path), "");
	if (full && !ret) {
		src->info.events = nrec;
		src->info.first_ts = nrec ? first : 0;
		src->info.last_ts = last;
		publish_counts(src, td);
	}
out:
	free(heap);
	free(last_cpu_ts);
	return ret;
}

/* Validate the container before libtracecmd trusts it (tracedat_check.c). */
static int check_file(struct rs_source *src, struct rs_error *err)
{
	int fd = open(src->path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return rs_error_set(err, "%s: cannot open: %s", src->path, strerror(errno));
	ret = rs_tracedat_check(fd, src->path, err);
	close(fd);
	return ret;
}

static const struct rs_source_ops tracedat_ops = {
	.stream = tracedat_stream,
	.close = tracedat_close,
};

int rs_tracedat_open(struct rs_source *src, struct rs_error *err)
{
	const char *zname = NULL, *zver = NULL, *uname;
	struct tracedat *td;
	char fmtbuf[128];
	int cpus;

	td = calloc(1, sizeof(*td));
	if (!td)
		return rs_error_set(err, "%s: out of memory", src->path);
	src->priv = td;
	src->ops = &tracedat_ops;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (check_file(src, err) < 0)
		return -1;
	td->handle = open_handle(src, err);
	if (!td->handle)
		return -1;
	td->tep = tracecmd_get_tep(td->handle);
	if (!td->tep)
		return rs_error_set(err, "%s: no event formats in the file", src->path);
	cpus = tracecmd_cpus(td->handle);
	if (rs_source_set_cpus(src, cpus, err) < 0)
		return -1;
	uname = tracecmd_get_uname(td->handle);
	if (uname) {
		/* "Linux HOST RELEASE ARCH": the release is the third word */
		char sys[64], host[256], rel[256];

		if (sscanf(uname, "%63s %255s %255s", sys, host, rel) == 3)
			rs_source_set_kernel(src, rel);
	}
	tracecmd_get_file_compress_proto(td->handle, &zname, &zver);
	td->compressed = zname && strcmp(zname, "none");
	td->page_size = tracecmd_page_size(td->handle) > 0 ? tracecmd_page_size(td->handle) : 4096;
	td->last_page = calloc(cpus ? cpus : 1, sizeof(*td->last_page));
	td->resume = calloc(cpus ? cpus : 1, sizeof(*td->resume));
	if (!td->last_page || !td->resume)
		return rs_error_set(err, "%s: out of memory", src->path);
	if (td->compressed)
		snprintf(fmtbuf, sizeof(fmtbuf), "trace.dat v%lu (%s)",
			 tracecmd_get_in_file_version(td->handle), zname);
	else
		snprintf(fmtbuf, sizeof(fmtbuf), "trace.dat v%lu",
			 tracecmd_get_in_file_version(td->handle));
	src->format = strdup(fmtbuf);
	src->info.format = src->format ? src->format : "trace.dat";
	parse_cpustats(src, tracecmd_get_cpustats(td->handle));
	if (build_formats(src, td, err) < 0)
		return -1;
	/* The time span, for progress and for consumers that size buckets before streaming. */
	src->info.first_ts = UINT64_MAX;
	for (int c = 0; c < cpus; c++) {
		struct tep_record *r;

		if (!cpu_has_data(td, c))
			continue;
		r = tracecmd_read_cpu_first(td->handle, c);
		if (r) {
			if (r->ts < src->info.first_ts)
				src->info.first_ts = r->ts;
			tracecmd_free_record(r);
		}
		r = tracecmd_read_cpu_last(td->handle, c);
		if (r) {
			if (r->ts > src->info.last_ts)
				src->info.last_ts = r->ts;
			tracecmd_free_record(r);
		}
	}
	if (src->info.first_ts == UINT64_MAX)
		src->info.first_ts = 0;
	return 0;
}
