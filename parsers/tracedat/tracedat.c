// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat backend: libtracecmd opens the file (versions 6 and 7, compressed or not) and
 * libtraceevent describes each event's binary layout. Fields are resolved by name once per
 * event format; each record is then decoded by offset, with every read bounds-checked against
 * the record's size, because the file may come from any kernel or be corrupt.
 *
 * This file opens the trace, resolves the formats and chooses how a stream is read. Calls go
 * one way: tracedat.c -> tracedat_parallel.c (decode threads) -> tracedat_stream.c (a CPU's
 * records; the stream in one thread; opening handles) -> tracedat_format.c (the format table,
 * decoding a record) and tracedat_kallsyms.c; tracedat_reader.h declares each under its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "rs_warn.h"
#include "tracedat_reader.h"
#include "tracedat_skip.h"


/* Resolve the slots of a known event against this file's format of it. */
static void fmt_resolve(struct rs_source *src, struct fmt *f, struct tep_event *event)
{
	const struct rs_kevent *ke = f->ke;
	const char *missing;
	bool ignored = false;	/* a field found but unreadable: warned, then missing */

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
				ignored = true;
				continue;
			}
		} else {
			rd->dynamic = field->flags & TEP_FIELD_IS_DYNAMIC;
			rd->relative = field->flags & TEP_FIELD_IS_RELATIVE;
			rd->to_end = !rd->dynamic && field->size == 0;
			if (rd->dynamic && field->size != 4) {
				rs_warn(src->info.warnings, "%s:%s: dynamic field %s has size %d; "
					"ignored", ke->system, ke->name, field->name, field->size);
				ignored = true;
				continue;
			}
		}
		if (rd->offset < 0 || rd->size < 0 || rd->offset > 65536 || rd->size > 65536) {
			rs_warn(src->info.warnings, "%s:%s: field %s has offset %d and size %d, "
				"outside any record; ignored", ke->system, ke->name, field->name,
				rd->offset, rd->size);
			ignored = true;
			continue;
		}
		f->present |= 1u << i;
		f->order[f->nr_present++] = (uint8_t)i;
		rd->is_str = slot->kind == RS_SLOT_STR;
		if (rd->is_str)
			f->nr_str++;
		else if (rd->offset + rd->size > f->num_end)
			f->num_end = rd->offset + rd->size;
	}
	missing = rs_kevent_missing(ke, f->present);
	f->usable = !missing;
	if (missing)
		rs_warn(src->info.warnings, "%s:%s has no %sfield '%s' in this trace's format%s; "
			"these events are counted but not analysed", ke->system, ke->name,
			ignored ? "usable " : "", missing, event->flags & TEP_EVENT_FL_FAILED ?
			" (libtraceevent could not parse the format)" : "");
}

/* read[cpu]: the `read events:` statistic, or STATS_NONE for a CPU without statistics */
#define STATS_NONE	UINT64_MAX

static void parse_cpustats(struct rs_source *src, const char *stats, uint64_t *read)
{
	int cpu = -1;

	while (stats && *stats) {
		unsigned long long v;
		int c;

		if (sscanf(stats, "CPU: %d", &c) == 1) {
			cpu = c;
			if (cpu >= 0 && cpu < src->info.cpus)
				read[cpu] = 0;
		} else if (cpu >= 0 && cpu < src->info.cpus &&
			   sscanf(stats, "read events: %llu", &v) == 1)
			read[cpu] = v;
		else if (cpu >= 0 && cpu < src->info.cpus && sscanf(stats, "overrun: %llu", &v) == 1)
			src->loss[cpu].overrun = v;
		else if (cpu >= 0 && cpu < src->info.cpus &&
			 sscanf(stats, "dropped events: %llu", &v) == 1)
			src->loss[cpu].dropped = v;
		else if (cpu >= 0 && cpu < src->info.cpus && sscanf(stats, "entries: %llu", &v) == 1)
			src->loss[cpu].buffered_at_stats = v;
		stats = strchr(stats, '\n');
		if (stats)
			stats++;
	}
}

/*
 * The CPUs the header counts (its CPUCOUNT) that the file holds no data for. trace-cmd v7 lists
 * only the CPUs that wrote data, so a CPU whose statistics say it read no event was idle; one
 * whose statistics say it read events lost them (a file cut or edited), and one without
 * statistics may have (trace-cmd records them for every CPU).
 */
static void check_cpu_data(struct rs_source *src, struct tracedat *td, const uint64_t *read)
{
	int with_data = 0, lost = 0, unknown = 0, first_lost = -1, first_unknown = -1;
	unsigned long long events = 0;

	for (int c = 0; c < src->info.cpus; c++) {
		if (tracedat_cpu_has_data(td, c)) {
			with_data++;
		} else if (read[c] == STATS_NONE) {
			if (!unknown++)
				first_unknown = c;
		} else if (read[c]) {
			if (!lost++)
				first_lost = c;
			events += read[c];
		}
	}
	if (lost)
		rs_warn(src->info.warnings, "%s: the header names %d CPUs, the file holds data for "
			"%d: %d CPU(s) without data (CPU %d first) read %llu events by the recorder's "
			"statistics, which are missing", src->path, src->info.cpus, with_data, lost,
			first_lost, events);
	if (unknown)
		rs_warn(src->info.warnings, "%s: the header names %d CPUs, the file holds data for "
			"%d: %d CPU(s) without data (CPU %d first) have no statistics saying they were "
			"idle; their events may be missing", src->path, src->info.cpus, with_data,
			unknown, first_unknown);
}

static bool common_field(struct tep_event *e, const char *name, int *offset, int *size)
{
	struct tep_format_field *field = e ? tep_find_common_field(e, name) : NULL;

	if (!field || field->offset < 0 || field->offset > 64 ||
	    (field->size != 1 && field->size != 2 && field->size != 4 && field->size != 8))
		return false;
	*offset = field->offset;
	*size = field->size;
	return true;
}

/*
 * Where common_type and common_pid are, so the stream reads them in place, as
 * tep_data_type() and tep_data_pid() do from the same first event's format but for two calls
 * into libtraceevent per record (byte-swapped files keep the library's reads); and the
 * ring-buffer page layout, as libtracecmd's init_cpu_data() reads it.
 */
static void resolve_layout(struct tracedat *td, struct tep_event *first)
{
	const uint16_t one = 1;
	bool host_big = *(const uint8_t *)&one == 0;

	td->direct_common = tep_is_file_bigendian(td->tep) == host_big &&
			    common_field(first, "common_type", &td->type_offset, &td->type_size) &&
			    common_field(first, "common_pid", &td->pid_offset, &td->pid_size);
	td->kb_long = tracecmd_long_size(td->handle) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	td->kb_endian = tep_is_file_bigendian(td->tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;
	td->kb_old_format = tep_is_old_format(td->tep);
	td->kb_walk = !td->kb_old_format && tep_is_file_bigendian(td->tep) == host_big && !host_big;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of the traced events (rs_trace_info.format_names), before fmts is sorted. */
static int format_names(struct rs_source *src, struct tracedat *td)
{
	size_t n = 0, w = 1;

	td->format_names = calloc(td->nr_fmts ? td->nr_fmts : 1, sizeof(*td->format_names));
	if (!td->format_names)
		return -1;
	for (int i = 0; i < td->nr_fmts; i++)
		if (!td->fmts[i].system || strcmp(td->fmts[i].system, "ftrace"))
			td->format_names[n++] = td->fmts[i].name;
	qsort(td->format_names, n, sizeof(*td->format_names), cmp_name);
	/* one name in two systems is one name to events_by_name */
	for (size_t i = 1; i < n; i++)
		if (strcmp(td->format_names[i], td->format_names[w - 1]))
			td->format_names[w++] = td->format_names[i];
	src->info.format_names = td->format_names;
	src->info.nr_format_names = n ? w : 0;
	return 0;
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
		if (f->ke) {
			fmt_resolve(src, f, e);
			if (f->ke->type < 64)
				src->info.format_types |= 1ull << f->ke->type;
		}
		if (e->id > max_id)
			max_id = e->id;
		td->nr_fmts++;
	}
	src->info.formats_known = true;
	if (format_names(src, td) < 0)
		return rs_error_set(err, "%s: out of memory", src->path);
	tracedat_fmt_sort(td);
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
	/* tep_data_type() and tep_data_pid() read every record at these, unchecked */
	for (int i = 0; n && i < 2; i++) {
		const char *name = i ? "common_pid" : "common_type";
		struct tep_format_field *cf = tep_find_common_field(events[0], name);
		int off, size;

		if (cf && !common_field(events[0], name, &off, &size))
			return rs_error_set(err, "%s: corrupt trace.dat: the format of %s:%s puts "
					    "%s at offset %d, size %d, outside any record",
					    src->path, events[0]->system, events[0]->name, name,
					    cf->offset, cf->size);
	}
	resolve_layout(td, n ? events[0] : NULL);
	return 0;
}

/*
 * tracecmd_cpus() is the largest CPU count the file names (its CPUCOUNT option, e.g. all CPUs
 * of a `trace-cmd record -M` run), which can exceed the per-CPU table the data fill; and
 * tracecmd_read_cpu_last() indexes that table unchecked. The file size of a CPU is the one
 * bounds-checked look at it.
 */
bool tracedat_cpu_has_data(struct tracedat *td, int cpu)
{
	return tracecmd_get_cpu_file_size(td->handle, cpu) > 0;
}

/* Publish the per-format counts (fmt.count...) as the source's counts by name. */
static void publish_counts(struct rs_source *src, struct tracedat *td)
{
	rs_source_counts_reset(src);
	for (int i = 0; i <= td->nr_fmts; i++) {
		struct fmt *f = i < td->nr_fmts ? &td->fmts[i] : &td->unknown;

		if (f->count && !rs_source_count_add(src, f->system, f->name, f->count,
						     f->first_ts, f->last_ts))
			return;
	}
	rs_source_counts_finish(src);
}

static void own_free(struct tracedat *td)
{
	for (int c = 0; td->zt && c < td->zcpus; c++)
		tracedat_chunks_free(&td->zt[c]);
	free(td->zt);
	free(td->zbase);
	td->zt = NULL;
	td->zbase = NULL;
	if (td->zmap)
		munmap(td->zmap, td->zmap_len);
	td->zmap = NULL;
	if (td->zfd >= 0)
		close(td->zfd);
	td->zfd = -1;
	td->zown = false;
}

static void tracedat_close(struct rs_source *src)
{
	struct tracedat *td = src->priv;

	if (!td)
		return;
	if (td->handle)
		tracecmd_close(td->handle);
	if (td->tep)
		tep_unref(td->tep);
	tracedat_ksyms_free(&td->ksyms);
	free(td->fmts);
	free(td->format_names);
	free(td->by_id);
	free(td->cpu_span);
	own_free(td);
	free(td);
	src->priv = NULL;
}

/* Validate the container before libtracecmd trusts it (tracedat_check.c). */
static int check_file(struct rs_source *src, struct rs_tracedat_layout *layout,
		      struct rs_error *err)
{
	int fd = open(src->path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return rs_error_set(err, "%s: cannot open: %s", src->path, strerror(errno));
	ret = rs_tracedat_check(fd, src->path, layout, err);
	close(fd);
	return ret;
}

/*
 * The file, opened and mapped read-only (td->zfd, zmap) where its CPU data may be ours to read
 * (own_setup()), before libtracecmd opens it: libtracecmd's chunk tables are then read from
 * the mapping too (tracedat_ztable.c, tracedat_open_handle()). Compressed data are read from
 * it as well: a pread() a chunk header and another a chunk were 12 k syscalls on the bench
 * trace (6 k chunks), 9% of a read's CPU time on this VM, where a syscall costs ~4 us; the
 * mapping faults 16 pages at a time. Without a mapping, compressed data are read by pread().
 */
static void own_map(struct rs_source *src, struct tracedat *td,
		    const struct rs_tracedat_layout *lay)
{
	struct stat st;
	void *map;

	if (!lay->zcpu && !lay->rawcpu)
		return;
	td->zfd = open(src->path, O_RDONLY | O_CLOEXEC);
	if (td->zfd < 0 || !lay->file_size || fstat(td->zfd, &st) ||
	    (uint64_t)st.st_size < lay->file_size)
		return;
	map = mmap(NULL, lay->file_size, PROT_READ, MAP_SHARED, td->zfd, 0);
	if (map == MAP_FAILED)
		return;
	td->zmap = map;
	td->zmap_len = lay->file_size;
	td->zdev = st.st_dev;
	td->zino = st.st_ino;
}

/*
 * Read the CPU data ourselves (td->zown) when the file is laid out as our reader knows: the
 * top buffer's CPUs in order, no option by which libtracecmd changes the pages' timestamps
 * (DATE, OFFSET, TIME_SHIFT, TSC2NSEC), and each CPU's size what libtracecmd found.
 * Compressed (v7, zstd or zlib) its pages are numbered as libtracecmd numbers them
 * (init_cpu_zpage(): from one page in, each CPU's after the previous one's, rounded up to a
 * page) and decompressed a chunk at a time (tracedat_chunks.c). Uncompressed (v6) they are read
 * in place from one read-only mapping of the file, at their file offsets, libtracecmd's too:
 * libtracecmd maps a page per record it hands out and keeps each handle's mappings, so each
 * decode thread opened a handle of its own and mapped the pages it read again (two threads
 * peaked at 180 MB of RSS on an 89 MB file), and the cursor took a malloc'ed record from it
 * for every page. cpu_span() then checks that both see the same first records. RS_ZCHUNKS=0
 * leaves the data to libtracecmd (bench/, tests/e2e/zchunks.sh).
 */
static void own_setup(struct rs_source *src, struct tracedat *td,
		      const struct rs_tracedat_layout *lay, int cpus)
{
	const char *env = getenv("RS_ZCHUNKS");
	uint64_t ps = td->page_size, next = ps;

	if ((!lay->zcpu && !lay->rawcpu) || lay->ts_options || lay->nr_cpus > (uint32_t)cpus ||
	    lay->page_size != ps || (env && !strcmp(env, "0"))) {
		/* libtracecmd reads the data; its reopens' chunk tables still come from zmap */
		if (!lay->zcpu)
			own_free(td);
		return;
	}
	if (lay->rawcpu)
		td->zcodec = TRACEDAT_CODEC_NONE;
	else if (!strcmp(lay->zname, "zstd"))
		td->zcodec = TRACEDAT_CODEC_ZSTD;
	else if (!strcmp(lay->zname, "zlib"))
		td->zcodec = TRACEDAT_CODEC_ZLIB;
	else
		return;
	td->zcpus = cpus;
	td->zt = calloc(cpus ? cpus : 1, sizeof(*td->zt));
	td->zbase = calloc(cpus ? cpus : 1, sizeof(*td->zbase));
	if (td->zfd < 0 || !td->zt || !td->zbase)
		goto fail;
	if (lay->rawcpu && !td->zmap)
		goto fail;
	for (uint32_t i = 0; i < lay->nr_cpus; i++) {
		const struct rs_tracedat_cpu_range *cr = &lay->cpus[i];
		struct tracedat_chunks *t = &td->zt[i];
		const char *why;

		if (cr->cpu != i)
			goto fail;
		if (!cr->size)
			continue;
		if (lay->rawcpu) {
			/* the check: page aligned, inside the file */
			if (cr->size % ps || cr->size > UINT32_MAX)
				goto fail;
			t->c = malloc(sizeof(*t->c));
			if (!t->c)
				goto fail;
			*t->c = (struct tracedat_chunk){ .zoff = cr->offset, .zsize = (uint32_t)cr->size,
							 .rsize = (uint32_t)cr->size };
			t->n = 1;
			t->total = t->max_zsize = t->max_rsize = (uint32_t)cr->size;
			t->raw = (const uint8_t *)td->zmap + cr->offset;
			td->zbase[i] = cr->offset;
		} else if (td->zmap ? tracedat_chunks_load_mapped(td->zmap, lay->file_size,
								  cr->offset, cr->size, (uint32_t)ps,
								  lay->big_endian, t, &why) < 0 :
				      tracedat_chunks_load(td->zfd, lay->file_size, cr->offset,
							   cr->size, (uint32_t)ps, lay->big_endian,
							   t, &why) < 0) {
			goto fail;
		}
		if ((uint64_t)tracecmd_get_cpu_file_size(td->handle, (int)i) != t->total)
			goto fail;
		if (!lay->rawcpu) {
			td->zbase[i] = next;
			next = (next + t->total + ps - 1) & ~(ps - 1);
		}
	}
	td->zown = true;
	return;
fail:
	own_free(td);
}

/*
 * Leave the compressed CPU data to libtracecmd: rs_tracedat_check() checked the pages of
 * each CPU's first chunk only (what tracecmd_init_data() reads), so the rest are checked
 * now, before libtracecmd reads them. -1 with err set when one is corrupt.
 */
static int own_fallback(struct rs_source *src, struct tracedat *td,
			const struct rs_tracedat_layout *lay, struct rs_error *err)
{
	int fd, ret;

	own_free(td);
	if (!lay->zcpu)
		return 0;
	fd = open(src->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rs_error_set(err, "%s: cannot open: %s", src->path, strerror(errno));
	ret = rs_tracedat_check_zpages(fd, src->path, lay, err);
	close(fd);
	return ret;
}

/*
 * The CPU's first record as our reader finds it, into *off and *ts. 1; or 0 where libtracecmd
 * must not be asked: no record, a page that cannot be read, or a first record past the first
 * chunk (libtracecmd would read unchecked pages to find it).
 */
static int own_first_record(struct rs_source *src, struct tracedat *td, int cpu, uint64_t *off,
			    uint64_t *ts)
{
	struct tracedat_reader r = {
		.src = src, .td = td, .handle = td->handle, .tep = td->tep, .is_main = true,
	};
	const struct tracedat_chunks *t = &td->zt[cpu];
	struct tracedat_cursor c;
	int ret = 0;

	if (!t->n || tracedat_cursor_init(&c, td, cpu) < 0)
		return 0;
	c.per_record = false;
	if (tracedat_cursor_seek(&r, &c, td->zbase[cpu]) == 1 &&
	    c.rec.offset - td->zbase[cpu] < t->c[0].rsize) {
		*off = c.rec.offset;
		*ts = c.rec.ts;
		ret = 1;
	}
	tracedat_cursor_destroy(&c);
	return ret;
}

/*
 * The CPUs a stream uses: as many as asked, or with --threads auto (opts.threads < 0: up to
 * -opts.threads CPUs) decode threads only where they can help; the file's kallsyms get a thread
 * of their own either way (open_data()), which is a plain gain (its parse overlaps the read).
 * Decode threads take decoding off the thread that merges and analyses, at the price of handing
 * every event to it from another core. On 2 CPUs that price was once higher than the gain (0.97
 * against 0.69 s as v7, 0.82 against 0.55 s as v6); since a decoder claims its batch's lines
 * ahead (e038ffb) and the merge decodes the next segment itself rather than wait (bbaa9f7), two
 * threads are the faster on 2 CPUs: the bench trace (8.06 M events, bench/README.md), quiet
 * machine (load 0.5), 8 alternating runs, median wall 0.47 against 0.63 s as v7 (zstd), 6 runs
 * 0.44 against 0.80 s as v6, at ~0.3 s more CPU. So auto uses decode threads from 2 CPUs on, for
 * a trace with AUTO_MIN_BYTES of ring-buffer pages or more (below which they cost more than they
 * save: 0.19 s either way at 12 MB of pages, 0.45 -> 0.39 s of critical path at 60 MB).
 * RS_AUTO_MIN=BYTES sets the bound and RS_AUTO_CPUS=N the CPUs from which decode threads are
 * used (tests).
 */
#define AUTO_MIN_BYTES (32ull << 20)
#define AUTO_MIN_CPUS 2

static int stream_cpus(const struct rs_source *src, const struct tracedat *td)
{
	const char *env = getenv("RS_AUTO_MIN"), *env_cpus = getenv("RS_AUTO_CPUS");
	uint64_t min = env ? strtoull(env, NULL, 0) : AUTO_MIN_BYTES;
	int min_cpus = env_cpus ? atoi(env_cpus) : AUTO_MIN_CPUS;

	if (src->opts.threads >= 0)
		return src->opts.threads;
	if (-src->opts.threads < min_cpus)
		return 1;
	return td->data_bytes >= min ? -src->opts.threads : 1;
}

/*
 * rs_source_ops.stream: with decode threads on two CPUs or more, else in one thread; a full
 * stream that ended well publishes its counts by format.
 */
static int stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		  void *ctx, struct rs_error *err)
{
	int cpus = stream_cpus(src, src->priv);
	int ret = cpus >= 2 ? tracedat_stream_parallel(src, cpus, from_ns, to_ns, fn, ctx, err)
			    : tracedat_stream(src, from_ns, to_ns, fn, ctx, err);

	tracedat_ksyms_wait(&((struct tracedat *)src->priv)->ksyms);

	if (!ret && from_ns == 0 && to_ns == UINT64_MAX)
		publish_counts(src, src->priv);
	return ret;
}

static const struct rs_source_ops tracedat_ops = {
	.stream = stream,
	.close = tracedat_close,
};

/*
 * The page and time of a CPU's last record (td->cpu_span[cpu].last_page/_ts; the page stays 0 when
 * none is found). tracecmd_read_cpu_last() walks the last page with kbuffer, which goes round for
 * ever on an event whose length field is negative (a fuzzed 61 KB file hung it); our cursor takes
 * one record at a time and stops where libtracecmd goes back. Pages are tried from the end of the
 * CPU's data back to its first record's page, as libtracecmd does (a page can hold only padding).
 * The data end is counted from the first record's page: libtracecmd does not say where a CPU's data
 * start, and pages past the end belong to no CPU or another one. -1: out of memory.
 */
#define CPU_LAST_MAX_PAGES 4096		/* pages tried back from a CPU's end */

static int cpu_last_record(struct rs_source *src, struct tracedat *td, int cpu)
{
	struct tracedat_reader r = {
		.src = src, .td = td, .handle = td->handle, .tep = td->tep,
		.mapped = td->mapped, .is_main = true,
	};
	uint64_t ps = td->page_size, first = td->cpu_span[cpu].first_page, tries = 0;
	off_t size = tracecmd_get_cpu_file_size(td->handle, cpu);
	struct tracedat_cursor c;
	uint64_t page;
	int ret;

	if (size <= 0 || tracedat_cursor_init(&c, td, cpu) < 0)
		return size <= 0 ? 0 : -1;
	page = (first + (uint64_t)size - 1) & ~(ps - 1);
	for (;; page -= ps) {
		struct tep_record *rec = NULL;
		int found = -1;

		if (td->zown) {
			/* our reader, the same pages: libtracecmd's are unchecked past chunk 0 */
			c.per_record = false;
			c.limit = page + ps;
			for (int more = tracedat_cursor_seek(&r, &c, page); more == 1;
			     more = tracedat_cursor_next(&r, &c)) {
				td->cpu_span[cpu].last_page = page;
				td->cpu_span[cpu].last_ts = c.rec.ts;
			}
			if (c.zfail)
				break;
		} else {
			rec = tracecmd_read_at(td->handle, page, &found);
		}
		if (rec)
			tracecmd_free_record(rec);
		if (rec && found == cpu) {
			c.per_record = true;	/* libtracecmd's timestamps, one record at a time */
			c.limit = page + ps;
			for (int more = tracedat_cursor_seek(&r, &c, page); more == 1;
			     more = tracedat_cursor_next(&r, &c)) {
				td->cpu_span[cpu].last_page = page;
				td->cpu_span[cpu].last_ts = c.rec.ts;
			}
		}
		/*
		 * A real CPU ends in a few pages of padding at most; a file claiming gigabytes
		 * past its records is not searched page by page (the stream then asks
		 * libtracecmd where the data end, record by record: cursor per_record).
		 */
		if (td->cpu_span[cpu].last_page || page <= first || ++tries >= CPU_LAST_MAX_PAGES)
			break;
	}
	ret = td->zown && c.zfail ? 1 : 0;
	tracedat_cursor_destroy(&c);
	td->mapped = r.mapped;
	return ret;
}

/*
 * The CPUs' first and last records (td->cpu_span) and the trace's time span, for progress and for
 * consumers that size buckets before streaming. With our reader (td->zown) libtracecmd is asked for
 * each CPU's first record only where ours found it in the first chunk, and must find the same. 0;
 * 1: our reader cannot be used (leave the data to libtracecmd and start again); -1: out of memory.
 */
static int cpu_span(struct rs_source *src, struct tracedat *td, int cpus)
{
	src->info.first_ts = UINT64_MAX;
	src->info.last_ts = 0;
	for (int c = 0; c < cpus; c++) {
		uint64_t off = 0, ts = 0;
		struct tep_record *r;
		int ret;

		td->cpu_span[c] = (struct td_cpu_span){ 0 };
		if (!tracedat_cpu_has_data(td, c))
			continue;
		if (td->zown && !own_first_record(src, td, c, &off, &ts))
			return 1;
		r = tracecmd_read_cpu_first(td->handle, c);
		if (td->zown && (!r || r->offset != off || r->ts != ts)) {
			if (r)
				tracecmd_free_record(r);
			return 1;
		}
		if (!r)
			continue;
		if (r->ts < src->info.first_ts)
			src->info.first_ts = r->ts;
		td->cpu_span[c].first_page = r->offset & ~(td->page_size - 1);
		td->cpu_span[c].first_ts = r->ts;
		tracecmd_free_record(r);
		ret = cpu_last_record(src, td, c);
		if (ret)
			return ret;
		/* without it the stream asks libtracecmd for every record (per_record) */
		if (td->zown && !td->cpu_span[c].last_page)
			return 1;
		if (td->cpu_span[c].last_page && td->cpu_span[c].last_ts > src->info.last_ts)
			src->info.last_ts = td->cpu_span[c].last_ts;
	}
	if (src->info.first_ts == UINT64_MAX)
		src->info.first_ts = 0;
	return 0;
}

/*
 * With a CPU to spare, the kallsyms are read and parsed on a thread of their own from now on,
 * while libtracecmd opens the file (tracedat_kallsyms.c), where the file has shrinker events.
 */
static void ksyms_early(struct rs_source *src, struct tracedat *td,
			const struct rs_tracedat_layout *lay)
{
	enum tracedat_codec codec = TRACEDAT_CODEC_NONE;
	int fd;

	if (!lay->shrinkers || !lay->ksyms_at ||
	    !(src->opts.threads >= 2 || src->opts.threads <= -2 || src->opts.warm))
		return;
	if (lay->ksyms_z && !strcmp(lay->zname, "zstd"))
		codec = TRACEDAT_CODEC_ZSTD;
	else if (lay->ksyms_z && !strcmp(lay->zname, "zlib"))
		codec = TRACEDAT_CODEC_ZLIB;
	else if (lay->ksyms_z)
		return;
	fd = open(src->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		tracedat_ksyms_early(&td->ksyms, fd, lay->ksyms_at, lay->ksyms_z, lay->big_endian,
				     codec);
}

/* rs_tracedat_open() once the container is checked. */
static int open_data(struct rs_source *src, struct tracedat *td,
		     const struct rs_tracedat_layout *layout, struct rs_error *err)
{
	const char *zname = NULL, *zver = NULL, *uname;
	uint64_t *cpu_read;
	bool shrinks = false, matched;
	char *text;
	char fmtbuf[128];
	int cpus, ret;

	ksyms_early(src, td, layout);
	own_map(src, td, layout);
	if (td->ksyms.early_started)
		tracedat_kallsyms_match(tracedat_ksyms_same, &td->ksyms);
	td->handle = tracedat_open_handle(src, TRACEDAT_KEEP_KALLSYMS, err);
	text = tracedat_kallsyms_take(&matched);
	tracedat_ksyms_init(&td->ksyms, text, matched);
	if (!td->handle)
		return -1;
	td->tep = tracecmd_get_tep(td->handle);
	if (!td->tep)
		return rs_error_set(err, "%s: no event formats in the file", src->path);
	/* the one tep with the file's kallsyms: it outlives the handle (reopens) */
	tep_ref(td->tep);
	cpus = tracecmd_cpus(td->handle);
	if (rs_source_set_cpus(src, cpus, err) < 0)
		return -1;
	uname = tracecmd_get_uname(td->handle);
	if (uname) {
		/* "Linux HOST RELEASE ARCH": the release is the third word */
		char sys[64], host[256], rel[256];

		if (sscanf(uname, "%63s %255s %255s", sys, host, rel) == 3) {
			rs_source_set_kernel(src, rel);
			rs_source_set_host(src, host);
		}
	}
	tracecmd_get_file_compress_proto(td->handle, &zname, &zver);
	td->compressed = zname && strcmp(zname, "none");
	td->page_size = tracecmd_page_size(td->handle) > 0 ? tracecmd_page_size(td->handle) : 4096;
	td->cpu_span = calloc(cpus ? cpus : 1, sizeof(*td->cpu_span));
	if (!td->cpu_span)
		return rs_error_set(err, "%s: out of memory", src->path);
	if (td->compressed)
		snprintf(fmtbuf, sizeof(fmtbuf), "trace.dat v%lu (%s)",
			 tracecmd_get_in_file_version(td->handle), zname);
	else
		snprintf(fmtbuf, sizeof(fmtbuf), "trace.dat v%lu",
			 tracecmd_get_in_file_version(td->handle));
	src->format = strdup(fmtbuf);
	src->info.format = src->format ? src->format : "trace.dat";
	cpu_read = malloc((cpus ? cpus : 1) * sizeof(*cpu_read));
	if (!cpu_read)
		return rs_error_set(err, "%s: out of memory", src->path);
	for (int c = 0; c < cpus; c++)
		cpu_read[c] = STATS_NONE;
	parse_cpustats(src, tracecmd_get_cpustats(td->handle), cpu_read);
	check_cpu_data(src, td, cpu_read);
	free(cpu_read);
	if (build_formats(src, td, err) < 0)
		return -1;
	/*
	 * Shrinker names, when the file has shrinker events: parsed on a thread of their own
	 * while a stream with threads to spare reads, or while the TUI draws (a key that
	 * re-reads a column must not pay ~100 ms), else on the first name wanted.
	 */
	for (int f = 0; f < td->nr_fmts && !shrinks; f++) {
		const struct rs_kevent *ke = td->fmts[f].ke;

		shrinks = ke && td->fmts[f].usable &&
			  (ke->type == RS_EV_SLAB_START || ke->type == RS_EV_SLAB_END);
	}
	if (!shrinks)
		tracedat_ksyms_free(&td->ksyms);
	else if (src->opts.threads >= 2 || src->opts.threads <= -2 || src->opts.warm)
		tracedat_ksyms_start(&td->ksyms);
	own_setup(src, td, layout, cpus);
	ret = td->zown ? cpu_span(src, td, cpus) : 1;
	if (ret == 1) {
		if (own_fallback(src, td, layout, err) < 0)
			return -1;
		ret = cpu_span(src, td, cpus);
	}
	if (ret < 0)
		return rs_error_set(err, "%s: out of memory", src->path);
	for (int c = 0; c < cpus; c++) {
		off_t size = tracecmd_get_cpu_file_size(td->handle, c);

		td->data_bytes += td->zown && c < td->zcpus ? td->zt[c].total :
				  size > 0 ? (uint64_t)size : 0;
	}
	return 0;
}

int rs_tracedat_open(struct rs_source *src, struct rs_error *err)
{
	struct rs_tracedat_layout layout;
	struct tracedat *td;
	int ret;

	td = calloc(1, sizeof(*td));
	if (!td)
		return rs_error_set(err, "%s: out of memory", src->path);
	td->zfd = -1;
	src->priv = td;
	src->ops = &tracedat_ops;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (check_file(src, &layout, err) < 0) {
		free(layout.cpus);
		return -1;
	}
	ret = open_data(src, td, &layout, err);
	free(layout.cpus);
	return ret;
}
