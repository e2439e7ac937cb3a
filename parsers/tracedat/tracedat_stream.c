// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a trace.dat: opening libtracecmd handles, a cursor per CPU over their pages or over
 * our reader's of a compressed trace (tracedat_chunks.c: one decompressed chunk per cursor),
 * and the single-threaded stream, which merges the CPUs' records by (timestamp, CPU) with a
 * heap of cursors, decodes them and hands them to the callback in that order. Memory does not
 * grow with the trace: one page per CPU is mapped at a time (libtracecmd's chunk cache aside,
 * see RS_ZCACHE_BUDGET).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_warn.h"
#include "tracedat_reader.h"
#include "tracedat_skip.h"
#include "tracedat_ztable.h"

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
struct tracecmd_input *tracedat_open_handle(struct rs_source *src, unsigned int skip,
					    struct rs_error *err)
{
	const struct tracedat *td = src->priv;
	struct tracecmd_input *h;

	tracedat_parse_set(skip | TRACEDAT_CUT_FORMATS);
	if (td->zmap)
		tracedat_ztable_set(td->zmap, td->zmap_len, td->zdev, td->zino);
	h = tracecmd_open_head(src->path, TRACEDAT_OPEN_FLAGS);
	if (!h) {
		rs_error_set(err, "%s: libtracecmd cannot read this trace.dat: truncated, corrupt, "
			     "or an unsupported file version", src->path);
	} else if (tracecmd_init_data(h) < 0) {
		park(h);
		h = NULL;
		rs_error_set(err, "%s: libtracecmd cannot read the event data of this trace.dat: "
			     "corrupt ring-buffer pages", src->path);
	}
	tracedat_ztable_set(NULL, 0, 0, 0);
	tracedat_parse_set(0);
	return h;
}

/*
 * libtraceevent 1.7.1 parses event formats with a static buffer (arg_eval()), so two handles
 * must not be opened at once; decode threads open and reopen theirs during a stream.
 */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

struct tracecmd_input *tracedat_reader_open(struct rs_source *src, bool formats,
					    struct rs_error *err)
{
	struct tracecmd_input *h;

	pthread_mutex_lock(&open_lock);
	h = tracedat_open_handle(src, TRACEDAT_NO_KALLSYMS | (formats ? 0 : TRACEDAT_NO_FORMATS),
				 err);
	pthread_mutex_unlock(&open_lock);
	return h;
}

int tracedat_cursor_init(struct tracedat_cursor *c, struct tracedat *td, int cpu)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->limit = UINT64_MAX;
	c->kbuf = kbuffer_alloc(td->kb_long, td->kb_endian);
	if (!c->kbuf)
		return -1;
	if (td->kb_old_format)
		kbuffer_set_old_format(c->kbuf);
	/* without the page of the CPU's last record, only libtracecmd knows where its data end */
	c->per_record = !td->cpu_span || !td->cpu_span[cpu].last_page;
	return 0;
}

void tracedat_cursor_drop(struct tracedat_cursor *c)
{
	if (c->page_rec)
		tracecmd_free_record(c->page_rec);
	c->page_rec = NULL;
	c->paged = false;
}

void tracedat_cursor_destroy(struct tracedat_cursor *c)
{
	tracedat_cursor_drop(c);
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	c->kbuf = NULL;
	tracedat_zpage_free(&c->z);
}

#define KB_PADDING	29		/* kbuffer.h KBUFFER_TYPE_* */
#define KB_TIME_EXTEND	30
#define KB_TIME_STAMP	31
#define KB_TS_SHIFT	27
#define KB_TS_MSB	(0xf8ULL << 56)

static inline uint32_t walk_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * kbuffer's __next_event(): to the next data event; its curr reaches size at the end. Unlike
 * kbuffer, it never reads a header word past size (a corrupt page's last event), and size is
 * at most what the page holds (load_page).
 */
static void walk_next(struct page_walk *w)
{
	for (;;) {
		const uint8_t *ptr;
		uint32_t hdr, type_len;
		uint64_t delta;
		int length;

		w->curr = w->next;
		if (w->next >= w->size || w->size - w->next < 4) {
			w->curr = w->size;
			return;
		}
		ptr = w->data + w->curr;
		hdr = walk_u32(ptr);
		ptr += 4;
		type_len = hdr & 31;
		delta = hdr >> 5;
		if ((type_len == 0 || type_len >= KB_PADDING) && w->size - w->curr < 8) {
			w->curr = w->size;	/* its second word would be past the data */
			return;
		}
		switch (type_len) {
		case KB_PADDING:
			length = (int)walk_u32(ptr);
			break;
		case KB_TIME_STAMP:
		case KB_TIME_EXTEND: {
			uint64_t msb = type_len == KB_TIME_STAMP ? w->ts & KB_TS_MSB : 0;
			uint64_t extend = walk_u32(ptr);

			ptr += 4;
			delta = ((extend << KB_TS_SHIFT) + delta) | msb;
			length = 0;
			break;
		}
		case 0:
			length = (int)walk_u32(ptr) - 4;
			length = (length + 3) & ~3;
			ptr += 4;
			break;
		default:
			length = (int)type_len * 4;
			break;
		}
		if (length < 0) {		/* kbuffer would go back and round for ever */
			w->curr = w->size;
			return;
		}
		/*
		 * A data event whose bytes run past the page's data (a corrupt length): its reader
		 * would read past the page, where the next page or nothing is mapped (fuzzing,
		 * 2026-12-03). The page ends here.
		 */
		if (type_len < KB_PADDING && (uint32_t)(ptr - w->data) + (uint64_t)length > w->size) {
			w->curr = w->size;
			return;
		}
		if (type_len == KB_TIME_STAMP)
			w->ts = delta;
		else
			w->ts += delta;
		w->index = (uint32_t)(ptr - w->data);
		w->next = w->index + (uint32_t)length;
		if (type_len < KB_PADDING)
			return;
	}
}

/*
 * The kbuffer is over page, at the record just read: step past it and, in the layout our walk
 * reads, hand the rest of the page from the kbuffer to the walk.
 */
static void walk_start(struct tracedat_cursor *c, const struct tracedat *td, const void *page)
{
	void *data = kbuffer_next_event(c->kbuf, NULL);

	if (!td->kb_walk)
		return;
	c->walk.start = td->kb_long == KBUFFER_LSIZE_8 ? 16 : 12;
	c->walk.data = (const uint8_t *)page + c->walk.start;
	c->walk.size = (uint32_t)kbuffer_subbuffer_size(c->kbuf);
	if (c->walk.size > td->page_size - c->walk.start)
		c->walk.size = (uint32_t)(td->page_size - c->walk.start);
	c->walk.curr = (uint32_t)kbuffer_curr_index(c->kbuf);
	c->walk.ts = kbuffer_timestamp(c->kbuf);
	c->walk.index = data ? (uint32_t)((const uint8_t *)data - c->walk.data) : 0;
	c->walk.next = c->walk.index + (uint32_t)kbuffer_event_size(c->kbuf);
}

/*
 * Put our kbuffer over the page of rec, just after it, as libtracecmd's own kbuffer is. False
 * when the rest of the page must come from libtracecmd: the page does not read the same, or
 * libtracecmd corrects the timestamps (then for good: per_record).
 */
static bool load_page(struct tracedat_reader *r, struct tracedat_cursor *c,
		      const struct tep_record *rec)
{
	void *page = tracecmd_record_page(r->handle, (struct tep_record *)rec);
	unsigned long long ts = 0;
	void *data;

	if (!page || kbuffer_load_subbuffer(c->kbuf, page) < 0 ||
	    kbuffer_subbuffer_size(c->kbuf) > (int)r->td->page_size)
		return false;
	data = kbuffer_read_event(c->kbuf, &ts);
	/* bounded: kbuffer goes round for ever on a negative event length (corrupt page) */
	for (uint64_t n = 0; data && c->page_off + kbuffer_curr_offset(c->kbuf) < rec->offset;
	     n++) {
		if (n > r->td->page_size / 4)
			return false;
		data = kbuffer_next_event(c->kbuf, &ts);
	}
	if (data != rec->data || c->page_off + kbuffer_curr_offset(c->kbuf) != rec->offset)
		return false;
	if (ts != rec->ts) {
		c->per_record = true;
		return false;
	}
	walk_start(c, r->td, page);
	return true;
}

/* Make rec, from libtracecmd, the cursor's record. */
static void take(struct tracedat_reader *r, struct tracedat_cursor *c, struct tep_record *rec)
{
	uint64_t page_off = rec->offset & ~(r->td->page_size - 1);
	bool new_page = !c->page_rec || page_off != c->page_off;

	if (c->page_rec)
		tracecmd_free_record(c->page_rec);
	c->page_rec = rec;
	c->rec = *rec;
	c->page_off = page_off;
	if (new_page) {
		r->mapped += r->td->page_size;
		c->paged = !c->per_record && load_page(r, c, rec);
	}
}

/* Take rec unless it lies at the cursor's limit or beyond. 1, or 0 (rec freed). */
static int take_below_limit(struct tracedat_reader *r, struct tracedat_cursor *c,
			    struct tep_record *rec)
{
	if (!rec || rec->offset >= c->limit) {
		if (rec)
			tracecmd_free_record(rec);
		tracedat_cursor_drop(c);
		return 0;
	}
	take(r, c, rec);
	return 1;
}

/* ---- pages from our chunk reader (td->zown), libtracecmd's offsets and records ---- */

static inline bool own(const struct tracedat_reader *r, const struct tracedat_cursor *c)
{
	return r->td->zown && !c->per_record;
}

/*
 * The commit word of a page header, which kbuffer_load_subbuffer() trusts (it reads the lost
 * events count at data + commit). rs_tracedat_check() checks the pages of each CPU's first
 * chunk only when our reader reads the data: this check is what keeps it safe on the rest.
 */
static bool page_header_ok(const struct tracedat *td, const uint8_t *page)
{
	unsigned int ls = td->kb_long == KBUFFER_LSIZE_8 ? 8 : 4;
	uint64_t flags = 0, room = td->page_size - 8 - ls;

	for (unsigned int i = 0; i < ls; i++) {
		unsigned int byte = td->kb_endian == KBUFFER_ENDIAN_BIG ? i : ls - 1 - i;

		flags = flags << 8 | page[8 + byte];
	}
	if ((flags & (1ull << 31)) && (flags & (1ull << 30)))	/* the count is stored */
		room -= ls;
	return (flags & ((1ull << 27) - 1)) <= room;
}

/*
 * Decompress the page at libtracecmd's offset page into the cursor's kbuffer (*pagep: its
 * bytes). 0: loaded; -2: past the CPU's data; -1: the chunk or page cannot be read (c->zfail).
 */
static int own_page_load(struct tracedat *td, struct tracedat_cursor *c, uint64_t page,
			 const uint8_t **pagep)
{
	const struct tracedat_chunks *t = &td->zt[c->cpu];
	uint64_t base = td->zbase[c->cpu];
	const char *why = NULL;
	const uint8_t *p;

	c->paged = false;
	if (page < base || page - base >= t->total)
		return -2;
	p = tracedat_zpage_get(&c->z, t, td->zfd, td->zcodec, page - base, &why);
	if (p && (!page_header_ok(td, p) || kbuffer_load_subbuffer(c->kbuf, (void *)p) < 0 ||
		  kbuffer_subbuffer_size(c->kbuf) > (int)td->page_size))
		why = "a ring-buffer page claims more than it holds";
	if (!p || why) {
		c->zfail = why;
		c->zfail_offset = page;
		return -1;
	}
	*pagep = p;
	return 0;
}

/*
 * Load the page at libtracecmd's offset page and take its first record, as
 * tracecmd_peek_data() would (update_page_info(), kbuffer_read_event()). 1: a record; 0: the
 * page has none; -2: past the CPU's data; -1: the chunk or page cannot be read (c->zfail).
 */
static int own_load(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t page)
{
	struct tracedat *td = r->td;
	unsigned long long ts;
	const uint8_t *p;
	void *data;
	int ret = own_page_load(td, c, page, &p);

	if (ret < 0)
		return ret;
	data = kbuffer_read_event(c->kbuf, &ts);
	if (!data)
		return 0;
	c->page_off = page;
	c->rec.ts = ts;
	c->rec.cpu = c->cpu;
	c->rec.data = data;
	c->rec.offset = page + (uint64_t)kbuffer_curr_offset(c->kbuf);
	c->rec.size = kbuffer_event_size(c->kbuf);
	c->rec.record_size = kbuffer_curr_size(c->kbuf);
	c->rec.missed_events = kbuffer_missed_events(c->kbuf);
	walk_start(c, td, p);
	c->paged = true;
	return 1;
}

/*
 * The first record on the page at offset page or a later one, never past the page of the
 * CPU's last record (tracecmd_read_at(), whose records of an empty page are the next page's).
 */
static int own_page_from(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t page)
{
	const struct tracedat *td = r->td;
	uint64_t last = td->cpu_span[c->cpu].last_page;

	/* at open, before the last page is known (tracedat.c): the end of the data */
	if (!last)
		last = td->zbase[c->cpu] + td->zt[c->cpu].total - td->page_size;
	for (;; page += td->page_size) {
		int ret;

		if (page > last || page >= c->limit)
			break;
		ret = own_load(r, c, page);
		if (ret == 1 && c->rec.offset < c->limit)
			return 1;
		if (ret != 0)
			break;
	}
	c->paged = false;
	return 0;
}

/* tracecmd_set_cursor() and tracecmd_read_data(): the first record at or after offset. */
static int own_seek(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t offset)
{
	tracedat_cursor_drop(c);
	c->looped = false;
	c->zfail = NULL;
	if (own_page_from(r, c, offset & ~(r->td->page_size - 1)) != 1)
		return 0;
	while (c->rec.offset < offset)
		if (tracedat_cursor_next(r, c) != 1)
			return 0;
	return 1;
}

/*
 * The time of the page at offset page, as update_page_info() sets it (the page header's);
 * false when the page cannot be read, as get_page() fails.
 */
static bool own_page_ts(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t page,
			uint64_t *ts)
{
	const uint8_t *p;

	if (own_page_load(r->td, c, page, &p) < 0)
		return false;
	*ts = kbuffer_timestamp(c->kbuf);
	return true;
}

/*
 * The page a stream from from_ns starts reading the CPU at: libtracecmd 1.3.1's
 * tracecmd_set_cpu_to_timestamp() step for step (a binary search on the pages' times, then a
 * page back), from where tracecmd_read_cpu_first() leaves the CPU (on its first record's page,
 * at that record's time), so that a range reads the records libtracecmd's search would give
 * it, also when timestamps go backwards. UINT64_MAX where libtracecmd finds no page.
 */
static uint64_t own_search(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t from)
{
	const struct tracedat *td = r->td;
	uint64_t ps = td->page_size, base = td->zbase[c->cpu], cur = td->cpu_span[c->cpu].first_page;
	uint64_t ts, start, end, next;

	if (td->cpu_span[c->cpu].first_ts == from)
		return cur;
	if (!own_page_ts(r, c, cur, &ts))
		return UINT64_MAX;
	if (ts < from) {
		start = cur;
		end = base + td->zt[c->cpu].total - ps;	/* the last page: whole pages */
		next = end;
	} else {
		end = cur;
		start = base;
		next = start;
	}
	while (start < end) {
		if (next != cur) {
			if (!own_page_ts(r, c, next, &ts))
				return UINT64_MAX;
			cur = next;
		}
		if (ts == from)
			break;
		if (ts < from)
			start = next;
		else
			end = next;
		next = (start + (end - start) / 2) & ~(ps - 1);
		if (next == start)
			start = next += ps;
	}
	if (ts >= from && cur > base) {
		cur -= ps;
		if (!own_page_ts(r, c, cur, &ts))
			return UINT64_MAX;
	}
	return cur;
}

/* The CPU's first record, or the one a stream from from_ns starts at. */
static int own_first(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t from_ns)
{
	uint64_t page;

	tracedat_cursor_drop(c);
	c->looped = false;
	c->zfail = NULL;
	if (!r->td->zt[c->cpu].total)
		return 0;
	if (!from_ns)
		return own_seek(r, c, r->td->cpu_span[c->cpu].first_page);
	page = own_search(r, c, from_ns);
	return page == UINT64_MAX ? 0 : own_page_from(r, c, page);
}

int tracedat_cursor_first(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t from_ns)
{
	struct tep_record *rec;

	if (own(r, c))
		return own_first(r, c, from_ns);
	tracedat_cursor_drop(c);
	c->looped = false;
	if (tracecmd_get_cpu_file_size(r->handle, c->cpu) <= 0)	/* see tracedat_cpu_has_data */
		return 0;
	rec = tracecmd_read_cpu_first(r->handle, c->cpu);
	/*
	 * libtracecmd 3.1.6 re-runs its per-CPU set-up when tracecmd_set_cpu_to_timestamp() finds
	 * no current page, as after a stream has read a CPU to its end; on a compressed v7 file
	 * that set-up then reads a chunk count from a virtual offset (calloc of gigabytes) and it
	 * leaks the page table every time. Reading the first record above maps a page again, so
	 * the search below starts from it.
	 */
	if (rec && from_ns) {
		tracecmd_free_record(rec);
		rec = NULL;
		if (tracecmd_set_cpu_to_timestamp(r->handle, c->cpu, from_ns) == 0)
			rec = tracecmd_read_data(r->handle, c->cpu);
	}
	return take_below_limit(r, c, rec);
}

int tracedat_cursor_seek(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t offset)
{
	struct tep_record *rec = NULL;

	if (own(r, c))
		return own_seek(r, c, offset);
	tracedat_cursor_drop(c);
	c->looped = false;
	if (tracecmd_set_cursor(r->handle, c->cpu, offset) == 0)
		rec = tracecmd_read_data(r->handle, c->cpu);
	return take_below_limit(r, c, rec);
}

int tracedat_cursor_next(struct tracedat_reader *r, struct tracedat_cursor *c)
{
	uint64_t next;
	int cpu = -1;

	if (c->paged && r->td->kb_walk) {
		struct page_walk *w = &c->walk;

		if (w->curr < w->size) {
			/* kbuffer_read_event() and what tracecmd_peek_data() fills from it */
			c->rec.ts = w->ts;
			c->rec.data = (void *)(w->data + w->index);
			c->rec.offset = c->page_off + w->start + w->curr;
			c->rec.size = (int)(w->next - w->index);
			c->rec.record_size = (int)(w->next - w->curr);
			c->rec.missed_events = 0;	/* only a page's first event has them */
			walk_next(w);
			return 1;
		}
	} else if (c->paged) {
		unsigned long long ts;
		void *data = kbuffer_read_event(c->kbuf, &ts);

		if (data) {
			/* what tracecmd_peek_data() fills, from the same kbuffer calls */
			c->rec.ts = ts;
			c->rec.data = data;
			c->rec.offset = c->page_off + kbuffer_curr_offset(c->kbuf);
			c->rec.size = kbuffer_event_size(c->kbuf);
			c->rec.record_size = kbuffer_curr_size(c->kbuf);
			c->rec.missed_events = kbuffer_missed_events(c->kbuf);
			kbuffer_next_event(c->kbuf, NULL);
			return 1;
		}
	}
	if (own(r, c))
		return c->paged ? own_page_from(r, c, c->page_off + r->td->page_size) : 0;
	if (c->paged) {
		/*
		 * The page is read: the first record of the next one through libtracecmd, which
		 * maps (or decompresses) it. Never past the page of the CPU's last record, where
		 * tracecmd_read_at() would find another CPU's data.
		 */
		next = c->page_off + r->td->page_size;
		if (next > r->td->cpu_span[c->cpu].last_page || next >= c->limit) {
			tracedat_cursor_drop(c);
			return 0;
		}
		{
			struct tep_record *rec = tracecmd_read_at(r->handle, next, &cpu);

			if (rec && cpu != c->cpu) {
				tracecmd_free_record(rec);
				rec = NULL;
			}
			return take_below_limit(r, c, rec);
		}
	}
	{
		/*
		 * A CPU's records lie in file order. libtracecmd 1.3.1 can be made to read a
		 * corrupt page again and again (a fuzzed 61 KB file gave trace-cmd report
		 * millions of records): a record at or before the last one ends the CPU.
		 */
		bool had = c->page_rec != NULL;
		uint64_t prev = c->rec.offset;
		struct tep_record *rec = tracecmd_read_data(r->handle, c->cpu);

		if (rec && had && rec->offset <= prev) {
			tracecmd_free_record(rec);
			tracedat_cursor_drop(c);
			c->looped = true;
			c->loop_offset = prev;
			return 0;
		}
		return take_below_limit(r, c, rec);
	}
}

int tracedat_reader_reopen(struct tracedat_reader *r, struct tracedat_cursor **cursors, int n,
			   struct rs_error *err)
{
	struct tracedat *td = r->td;
	uint64_t *at = calloc(n ? n : 1, sizeof(*at));
	int i;

	if (!at) {
		for (i = 0; i < n; i++)
			tracedat_cursor_drop(cursors[i]);
		return rs_error_set(err, "%s: out of memory", r->src->path);
	}
	for (i = 0; i < n; i++) {
		at[i] = cursors[i]->rec.offset;
		tracedat_cursor_drop(cursors[i]);
	}
	tracecmd_close(r->handle);
	r->mapped = 0;
	r->handle = tracedat_reader_open(r->src, !td->direct_common, err);
	r->tep = r->handle && !td->direct_common ? tracecmd_get_tep(r->handle) : td->tep;
	if (r->is_main)
		td->handle = r->handle;	/* names stay td->tep's, the first handle's */
	if (!r->handle) {
		free(at);
		return rs_error_prefix(err, "reopening to free decompressed data: ");
	}
	for (i = 0; i < n; i++) {
		if (tracedat_cursor_seek(r, cursors[i], at[i]) != 1 ||
		    cursors[i]->rec.offset != at[i]) {
			rs_error_set(err, "%s: CPU %d: cannot find the record at offset %llu again "
				     "after reopening the file", r->src->path, cursors[i]->cpu,
				     (unsigned long long)at[i]);
			for (int j = 0; j <= i; j++)
				tracedat_cursor_drop(cursors[j]);
			free(at);
			return -1;
		}
	}
	free(at);
	return 0;
}

void tracedat_progress(struct rs_source *src, uint64_t ts)
{
	uint64_t first = src->info.first_ts, last = src->info.last_ts;
	double pct = last > first ? 100.0 * (double)(ts - first) / (double)(last - first) : 100;

	fprintf(stderr, "\rreading %s: %5.1f%%", src->path, pct > 100 ? 100 : pct);
}

/* Min-heap of CPU cursors, keyed by their record's (ts, cpu). */
static bool cursor_less(const struct tracedat_cursor *a, const struct tracedat_cursor *b)
{
	return a->rec.ts < b->rec.ts || (a->rec.ts == b->rec.ts && a->cpu < b->cpu);
}

TRACEDAT_HEAP_DOWN(heap_down, struct tracedat_cursor, cursor_less)

/* A cursor our chunk reader stopped (c->zfail): the CPU's records end there. */
static void warn_chunk_fail(struct rs_source *src, const struct tracedat_cursor *c)
{
	if (c->zfail)
		rs_warn(src->info.warnings, TRACEDAT_WARN_CHUNK, src->path, c->cpu,
			(unsigned long long)c->zfail_offset, c->zfail);
}

/* The loss of one record, as RS_EV_LOST; consumers must know state may be broken from here. */
static void lost_event(struct rs_event *ev, const struct tep_record *rec, int cpu)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = RS_EV_LOST;
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->pid = -1;
	ev->comm = "<lost>";
	ev->offset = rec->offset;
	ev->lost = rec->missed_events > 0 ? rec->missed_events : -1;
}

int tracedat_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		    void *ctx, struct rs_error *err)
{
	struct tracedat *td = src->priv;
	bool full = from_ns == 0 && to_ns == UINT64_MAX;
	int cpus = src->info.cpus, n = 0, ret = 0;
	struct tracedat_cursor *cursors, **heap;
	uint64_t *last_cpu_ts, nrec = 0;
	uint64_t first = UINT64_MAX, last = 0;
	struct tracedat_reader r = {
		.src = src, .td = td, .handle = td->handle, .tep = td->tep,
		.mapped = td->mapped, .is_main = true,
	};
	struct rs_event ev;

	if (!td->handle)
		return rs_error_set(err, "%s: the trace could not be opened again", src->path);
	cursors = calloc(cpus ? cpus : 1, sizeof(*cursors));
	heap = calloc(cpus ? cpus : 1, sizeof(*heap));
	last_cpu_ts = calloc(cpus ? cpus : 1, sizeof(*last_cpu_ts));
	if (!cursors || !heap || !last_cpu_ts) {
		ret = rs_error_set(err, "%s: out of memory", src->path);
		goto out;
	}
	for (int c = 0; c < cpus; c++) {
		if (tracedat_cursor_init(&cursors[c], td, c) < 0) {
			ret = rs_error_set(err, "%s: out of memory", src->path);
			goto out;
		}
	}
	if (full) {
		for (int i = 0; i < td->nr_fmts; i++)
			td->fmts[i].count = 0;
		td->unknown.count = 0;
		for (int c = 0; c < cpus; c++)
			src->loss[c].missed = src->loss[c].missed_unknown = 0;
	}
	for (int c = 0; c < cpus; c++) {
		if (tracedat_cursor_first(&r, &cursors[c], from_ns) == 1)
			heap[n++] = &cursors[c];
		else
			warn_chunk_fail(src, &cursors[c]);
	}
	for (int i = n / 2 - 1; i >= 0; i--)
		heap_down(heap, n, i);

	while (n > 0) {
		struct tracedat_cursor *cur = heap[0];
		const struct tep_record *rec = &cur->rec;
		int cpu = cur->cpu;
		struct fmt *f;
		size_t used;
		int id;

		if (rs_past_end(rec->ts, to_ns))
			break;
		if (rec->ts < from_ns)
			goto next;
		if (rec->ts < last_cpu_ts[cpu])
			rs_warn(src->info.warnings, TRACEDAT_WARN_BACKWARDS, cpu,
				(unsigned long long)rec->ts);
		last_cpu_ts[cpu] = rec->ts;
		if (rec->missed_events) {
			if (full && rec->missed_events > 0)
				src->loss[cpu].missed += (uint64_t)rec->missed_events;
			else if (full)
				src->loss[cpu].missed_unknown++;
			lost_event(&ev, rec, cpu);
			ret = fn(&ev, ctx);
			if (ret)
				break;
		}
		nrec++;
		if (rec->ts < first)
			first = rec->ts;
		if (rec->ts > last)
			last = rec->ts;
		id = tracedat_record_type(td, r.tep, rec);
		f = tracedat_fmt_find(td, id);
		if (full) {
			struct fmt *cf = f ? f : &td->unknown;

			tracedat_count(&cf->count, &cf->first_ts, &cf->last_ts, rec->ts);
		}
		if (f && f->ke && f->usable && !tracedat_decode(f, rec, &ev, td->strbuf, &used)) {
			rs_warn(src->info.warnings, TRACEDAT_WARN_SHORT, f->ke->system, f->ke->name,
				(unsigned long long)rec->offset);
		} else if (f && f->ke && f->usable) {
			ev.ts = rec->ts;
			ev.cpu = cpu;
			ev.offset = rec->offset;
			ev.pid = tracedat_record_pid(td, r.tep, rec);
			tracedat_name_event(src, td, &ev);
			ret = fn(&ev, ctx);
			if (ret)
				break;
		}
		if (src->opts.progress && !(nrec & 0xfffff))
			tracedat_progress(src, rec->ts);
next:
		if (tracedat_cursor_next(&r, cur) == 0) {
			if (cur->looped)
				rs_warn(src->info.warnings, TRACEDAT_WARN_LOOP, cur->cpu,
					(unsigned long long)cur->loop_offset);
			warn_chunk_fail(src, cur);
			heap[0] = heap[--n];
		}
		if (tracedat_reader_full(&r, RS_ZCACHE_BUDGET) &&
		    tracedat_reader_reopen(&r, heap, n, err) < 0) {
			ret = -1;
			break;
		}
		if (n > 0)
			heap_down(heap, n, 0);
	}
	if (src->opts.progress)
		fprintf(stderr, "\r%*s\r", 40 + (int)strlen(src->path), "");
	if (full && !ret) {
		src->info.events = nrec;
		src->info.first_ts = nrec ? first : 0;
		src->info.last_ts = last;
	}
out:
	for (int c = 0; cursors && c < cpus; c++)
		tracedat_cursor_destroy(&cursors[c]);
	td->mapped = r.mapped;
	free(cursors);
	free(heap);
	free(last_cpu_ts);
	return ret;
}
