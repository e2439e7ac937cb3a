// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat stream with decode threads (rs_source_opts.threads >= 2: the calling thread
 * merges and runs the callback, threads - 1 decode, or threads where libtracecmd decompresses,
 * see .nworkers), giving the callback the same events, warnings and counts, in the same
 * order, as the single-threaded stream (tracedat_stream.c).
 *
 * Each CPU's data is cut into segments of ring-buffer pages. Worker threads, each with a
 * libtracecmd handle of its own (a handle is not thread-safe), take segments and decode their
 * records into batches of normalized events, strings copied into the batch. The calling thread
 * merges the CPUs by (timestamp, CPU) exactly as the single-threaded heap does, resolves comms
 * and shrinker names, decodes recorder markers (rs_markers_decode keeps state) and calls the
 * callback. Segments rather than whole CPUs are the unit of work because one CPU often holds
 * most of a trace (79% of the benchmark's), which would leave the other worker idle.
 *
 * Order. A CPU's entries reach the merge in file order, each keyed by its record's (ts, cpu),
 * so the merge pops them where the single-threaded heap pops their records. Records the callback
 * never sees are left out, except where one could hold its CPU back: before a record with an
 * earlier timestamp (a PE_MARK keeps its place), and at to_ns. Warnings travel in the stream as
 * PE_WARN entries so they land in the warning list where the single-threaded stream puts them;
 * the backwards-timestamp check of a segment's first record, whose predecessor another worker
 * read, is made by the merge (pentry.check).
 *
 * Scheduling and memory. A worker takes first the next segment of a CPU whose merge is waiting
 * for it, else the next segment of the CPU decoded least far in time, as long as fewer than
 * PAR_AHEAD segments per worker are decoded and not yet merged. The merge, rather than wait for
 * a segment a worker decodes, decodes the one a worker would take next (advance()). Workers
 * never wait in the middle of a segment, and the merge never waits for a segment nobody may
 * take, so the stream cannot deadlock; memory is bounded by the segments in flight, whatever
 * the trace's size (~12 MB with two workers). A worker reopens its handle (RS_ZCACHE_BUDGET)
 * between segments, never while the merge may be waiting for the segment it holds.
 *
 * What it buys depends on the machine: the merge and the analysis behind the callback stay on
 * one thread (bench/README.md has the measurements).
 *
 * A CPU whose records end early (a chunk or page that cannot be read, libtracecmd going back:
 * the single-threaded cursor stops there) ends at that segment, its cut: later segments
 * already decoded are dropped, and the merge warns where the single-threaded stream does.
 *
 * Counts (full streams) are kept per segment and added as the merge passes it, so that a
 * dropped segment's records count no more than the single-threaded stream reads them; an event
 * name's first and last times are its earliest and latest, which both streams compute
 * (tracedat_count) rather than the times of its first and last record in stream order, which
 * differ only on a trace whose timestamps go backwards.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_grow.h"
#include "rs_heap.h"
#include "rs_warn.h"

#include "tracedat_reader.h"

#define PAR_BATCH	(128u << 10)	/* entry bytes a batch: ~2,000 events */
#define PAR_ARENA	(64u << 10)	/* string bytes a batch */
#define PAR_WARN_MAX	512		/* a warning's text, as rs_warn() keeps it */
#define PAR_CHUNK_PAGES	10		/* trace-cmd compresses 10 pages a chunk (trace-output.c) */
#define PAR_SEG_PAGES	40		/* pages a segment at most: ~5,000 events, ~1 MB of entries */
#define PAR_SEG_MIN	16		/* segments a worker, at least, on a small trace */
#define PAR_AHEAD	8		/* segments decoded ahead of the merge, per worker */
#define PAR_PREFETCH	256		/* bytes of entries the merge fetches ahead */
#define PAR_PREFETCH_W	512		/* bytes of entries a worker claims ahead */
#define DECODE_ROOM	(16ul << 20)	/* a decode thread's batches and chunk buffers */

enum pe_kind {
	PE_EVENT,			/* ev for the callback */
	PE_LOST,			/* RS_EV_LOST: loss accounting, then the callback */
	PE_WARN,			/* text is a warning, at this point of the stream */
	PE_MARK,			/* the place of a record the callback does not see */
};

/* The union of struct rs_event, which an entry carries only as much of as its type uses. */
#define EV_UNION_OFF	offsetof(struct rs_event, kswapd)
#define EV_UNION_SIZE	(sizeof(struct rs_event) - EV_UNION_OFF)

/*
 * An entry of a batch, followed by len bytes: the part of the event's union its type uses
 * (PE_LOST: the count; PE_WARN: the text's address in the batch's arena). A memcg counter
 * event, most of a trace, takes one cache line rather than the three of a struct rs_event:
 * the merge reads each entry on another core than the one that wrote it, and that first look
 * was two thirds of the merge's time.
 */
struct pentry {
	uint64_t ts, offset;		/* ts and cpu: the merge key, for every kind */
	int32_t cpu, pid;
	uint32_t have;
	int32_t type;			/* enum rs_ev_type */
	uint16_t len;
	uint8_t kind;
	bool check;			/* a segment's first record: the merge compares its time */
	uint32_t pad;
};

#define ENTRY_MAX	(sizeof(struct pentry) + EV_UNION_SIZE)

struct batch {
	struct batch *next;
	size_t used, pos, last;		/* bytes of e filled and merged; the last entry's */
	size_t aused;			/* bytes of arena */
	uint8_t e[PAR_BATCH] __attribute__((aligned(64)));
	char arena[PAR_ARENA];
};

enum seg_state { SEG_NEW, SEG_BUSY, SEG_DONE };

/* A segment's records of one format (full streams): the merge adds them to the format's. */
struct segcount {
	int idx;			/* into td->fmts; nr_fmts: unknown */
	uint64_t count, first, last;
};

struct seg {
	int cpu, index;			/* index: among its CPU's segments */
	uint64_t start, end;		/* pages [start, end), as libtracecmd's offsets */
	enum seg_state state;
	struct batch *head, *tail;	/* decoded, not yet merged */
	bool any;			/* it had a record >= from_ns: last_ts is the last one's */
	uint64_t last_ts;
	const char *zfail;		/* it ended on a chunk or page that cannot be read */
	uint64_t zfail_offset;
	bool dropped;			/* past its CPU's end: its batches go back to the pool */
	/* what it read, counted once the merge passes it (full streams) */
	struct segcount *cnt;
	int nr_cnt;
	uint64_t nrec, first_ts, last_rec_ts;
};

struct pcpu {
	struct seg *segs;
	int nsegs;
	int next;			/* first segment not handed out */
	int cur;			/* the segment the merge reads (changed under the lock) */
	int cut;			/* segments after this one are past to_ns or the CPU's
					 * readable end; INT32_MAX: none */
	uint64_t frontier;		/* latest time decoded on this CPU */
	/* the merge's */
	struct batch *b;		/* batch being merged, off its segment's list */
	struct pentry *head;		/* the CPU's next entry */
	uint64_t last_ts;		/* last record's time before segment cur */
	const char *first_fail;		/* its first record could not be read (plan()) */
	uint64_t first_fail_offset;
};

struct par;

struct worker {
	struct par *p;
	pthread_t thread;
	bool started;
	struct tracedat_reader rd;
	struct tracedat_cursor cur;
	bool have_cursor;
	int *slot;			/* [nr_fmts + 1]: index into cnt, or -1 */
	struct segcount *cnt;		/* the segment's counts, by format, as they come */
	int nr_cnt;
	size_t cap_cnt;
	struct rs_error err;
};

struct par {
	struct rs_source *src;
	struct tracedat *td;
	uint64_t from, to;
	bool full;
	int ncpus, nworkers;
	uint64_t budget;		/* a worker's RS_ZCACHE_BUDGET share */
	struct pcpu *cpus;
	struct worker *workers;		/* [nworkers + 1]: the last is the caller's (advance()) */
	pthread_mutex_t lock;
	pthread_cond_t work;		/* workers: a segment may be taken, or stop */
	pthread_cond_t ready;		/* the merge: a batch or a segment's end */
	int outstanding;		/* segments handed out and not merged to their end */
	uint64_t nrec, first_ts, last_ts;	/* of the segments merged (full streams) */
	int ahead;
	bool stop, failed;
	struct rs_error err;		/* the first worker's failure */
	struct batch *pool;		/* batches to reuse */
};

/* ---- workers ---- */

static struct batch *batch_get(struct par *p)
{
	struct batch *b;

	pthread_mutex_lock(&p->lock);
	b = p->pool;
	if (b)
		p->pool = b->next;
	pthread_mutex_unlock(&p->lock);
	if (!b)
		b = malloc(sizeof(*b));
	if (b) {
		b->next = NULL;
		b->used = b->pos = b->last = 0;
		b->aused = 0;
	}
	return b;
}

static void fail(struct par *p, struct rs_error *err)
{
	pthread_mutex_lock(&p->lock);
	if (!p->failed) {
		p->failed = true;
		p->err = *err;
	}
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_cond_broadcast(&p->ready);
	pthread_mutex_unlock(&p->lock);
}

/* Hand b to the merge. False when the stream is stopping. */
static bool publish(struct par *p, struct seg *s, struct batch *b)
{
	bool stop;

	pthread_mutex_lock(&p->lock);
	stop = p->stop;
	if (!stop && b->used && !s->dropped) {
		uint64_t ts = ((const struct pentry *)(b->e + b->last))->ts;

		if (s->tail)
			s->tail->next = b;
		else
			s->head = b;
		s->tail = b;
		if (ts > p->cpus[s->cpu].frontier)
			p->cpus[s->cpu].frontier = ts;
		b = NULL;
		pthread_cond_signal(&p->ready);
	}
	if (b) {
		b->next = p->pool;
		p->pool = b;
	}
	pthread_mutex_unlock(&p->lock);
	return !stop;
}

/*
 * Decoding one segment: the batch being filled and the state the order rules need, in the
 * worker's own memory (seg and par are shared: writing them per record costs more than the
 * decoding, in cache-line transfers).
 */
struct segrun {
	struct worker *w;
	struct seg *s;
	struct tracedat *td;
	struct batch *b;
	uint64_t from, to;
	bool full;
	int cpu;
	bool first;			/* no record >= from_ns yet */
	uint64_t prev_ts;		/* of the last record >= from_ns */
	bool pending;			/* the last record has no entry: it may need a mark */
	uint64_t pending_ts, pending_off;
	uint64_t nrec, first_ts, last_ts;	/* records >= from_ns */
};

/* room() when the batch is full: hand it over and take another. */
static bool room_next(struct segrun *sr)
{
	struct par *p = sr->w->p;

	if (sr->b && !publish(p, sr->s, sr->b)) {
		sr->b = NULL;
		return false;
	}
	sr->b = batch_get(p);
	if (!sr->b) {
		rs_error_set(&sr->w->err, "%s: out of memory", p->src->path);
		fail(p, &sr->w->err);
		return false;
	}
	return true;
}

/*
 * Room for a record's entries and strings in the batch; false on failure or stop. In line:
 * asked once a record, and as a call it was 23 instructions of each (callgrind, bench.dat).
 */
static inline bool room(struct segrun *sr, size_t bytes)
{
	if (sr->b && sr->b->used + 4 * ENTRY_MAX <= PAR_BATCH && sr->b->aused + bytes <= PAR_ARENA)
		return true;
	return room_next(sr);
}

/* Bytes of the union an event of this type uses (a multiple of 8, as the union's members). */
static size_t union_len(enum rs_ev_type type)
{
	const struct rs_event *ev = NULL;

	switch (type) {
	case RS_EV_KSWAPD_SLEEP:
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_WAKEUP_KSWAPD:
		return sizeof(ev->kswapd);
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
		return sizeof(ev->reclaim);
	case RS_EV_LRU_ISOLATE:
		return sizeof(ev->isolate);
	case RS_EV_SHRINK_ACTIVE:
		return sizeof(ev->active);
	case RS_EV_WRITE_FOLIO:
		return sizeof(ev->write);
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
		return sizeof(ev->slab);
	case RS_EV_THROTTLED:
		return sizeof(ev->throttled);
	case RS_EV_MEMCG_COUNT:
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
		return sizeof(ev->memcg);
	case RS_EV_MEMCG_FLUSH:
		return sizeof(ev->flush);
	case RS_EV_CGROUP:
	case RS_EV_CGROUP_ATTACH:
		return sizeof(ev->cgroup);
	case RS_EV_FORK:
	case RS_EV_EXEC:
	case RS_EV_EXIT:
		return sizeof(ev->task);
	case RS_EV_OOM_VICTIM:
		return sizeof(ev->oom);
	case RS_EV_FILEMAP_DELETE:
	case RS_EV_FILEMAP_ADD:
		return sizeof(ev->filemap);
	case RS_EV_BUDDY:
		return sizeof(ev->buddy);
	case RS_EV_MARKER:
		return sizeof(ev->marker);
	case RS_EV_LOST:
		return sizeof(ev->lost);
	default:
		return EV_UNION_SIZE;
	}
}

/*
 * len bytes of an event's union, copied as UNION_SMALL or EV_UNION_SIZE bytes: two copies of
 * constant size. A memcg counter event (most of a trace) uses 24 bytes of the 160: the whole
 * union was 20 instructions an event on each side (callgrind) and wrote and read the next
 * entries' cache lines.
 */
#define UNION_SMALL	32

static inline void union_copy(void *dst, const void *src, size_t len)
{
	if (len <= UNION_SMALL)
		memcpy(dst, src, UNION_SMALL);
	else
		memcpy(dst, src, EV_UNION_SIZE);
}

/*
 * Claim the cache line at p for writing. A batch comes back from the merge with its lines in
 * the merging core's cache: each first store to one waited for that core to give it up, one
 * line at a time, which made the decode thread's store to an entry 84% of run_segment's time
 * and the thread 3x slower when it ran on the other CPU than the merge (perf, bench.dat).
 * prefetcht0, what __builtin_prefetch(p, 1) is without -mprfchw, fetches the line shared and
 * leaves the store to wait all the same; PREFETCHW asks for it to own.
 */
static inline void prefetch_w(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1);
#endif
}

static struct pentry *entry(struct segrun *sr, enum pe_kind kind, uint64_t ts, uint64_t offset,
			    size_t len)
{
	struct pentry *e = (struct pentry *)(sr->b->e + sr->b->used);

	prefetch_w(sr->b->e + sr->b->used + PAR_PREFETCH_W);
	e->ts = ts;
	e->offset = offset;
	e->cpu = sr->cpu;
	e->pid = -1;
	e->have = 0;
	e->type = 0;
	e->len = (uint16_t)len;
	e->kind = kind;
	e->check = false;
	sr->b->last = sr->b->used;
	sr->b->used += sizeof(*e) + len;
	return e;
}

static void warn_entry(struct segrun *sr, uint64_t ts, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void warn_entry(struct segrun *sr, uint64_t ts, uint64_t offset, const char *fmt, ...)
{
	struct pentry *e = entry(sr, PE_WARN, ts, offset, sizeof(char *));
	char *text = sr->b->arena + sr->b->aused;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, PAR_WARN_MAX, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	sr->b->aused += (size_t)(n < PAR_WARN_MAX ? n : PAR_WARN_MAX - 1) + 1;
	memcpy(e + 1, &text, sizeof(text));
}

/* One record of the segment; false when the segment ends here (to_ns, failure, stop). */
static bool segment_record(struct segrun *sr, const struct tep_record *rec)
{
	struct worker *w = sr->w;
	struct tracedat *td = sr->td;
	int cpu = sr->cpu;
	bool check = false;
	struct rs_event ev;
	struct pentry *e;
	struct fmt *f;
	size_t n0, used;
	int idx;

	if (rec->ts < sr->from)
		return true;		/* skipped, as the single-threaded stream does */
	f = !rs_past_end(rec->ts, sr->to) ? tracedat_fmt_find(td, tracedat_record_type(td, w->rd.tep, rec)) :
			       NULL;
	if (!room(sr, (f && f->ke ? (size_t)f->nr_str * RS_STR_MAX : 0) + 2 * PAR_WARN_MAX))
		return false;
	/* the last record, left out, was later than this one: it keeps its place */
	if (sr->pending && rec->ts < sr->pending_ts)
		entry(sr, PE_MARK, sr->pending_ts, sr->pending_off, 0);
	sr->pending = false;
	n0 = sr->b->used;
	if (rs_past_end(rec->ts, sr->to)) {
		struct par *p = w->p;

		/* the merge stops at the CPU's first record from to_ns on */
		e = entry(sr, PE_MARK, rec->ts, rec->offset, 0);
		e->check = sr->first;
		pthread_mutex_lock(&p->lock);
		if (p->cpus[cpu].cut > sr->s->index)
			p->cpus[cpu].cut = sr->s->index;
		pthread_mutex_unlock(&p->lock);
		return false;
	}
	if (sr->first)
		check = true;
	else if (rec->ts < sr->prev_ts)
		warn_entry(sr, rec->ts, rec->offset, TRACEDAT_WARN_BACKWARDS, cpu,
			   (unsigned long long)rec->ts);
	sr->first = false;
	sr->prev_ts = rec->ts;
	if (rec->missed_events) {
		int64_t lost = rec->missed_events > 0 ? rec->missed_events : -1;

		e = entry(sr, PE_LOST, rec->ts, rec->offset, sizeof(lost));
		e->type = RS_EV_LOST;
		memcpy(e + 1, &lost, sizeof(lost));
	}
	if (!sr->nrec++ || rec->ts < sr->first_ts)
		sr->first_ts = rec->ts;
	if (rec->ts > sr->last_ts)
		sr->last_ts = rec->ts;
	if (sr->full) {
		struct segcount *c;

		idx = f ? (int)(f - td->fmts) : td->nr_fmts;
		if (w->slot[idx] < 0) {
			if (RS_GROW(w->cnt, w->cap_cnt, (size_t)w->nr_cnt + 1, 16) < 0) {
				rs_error_set(&w->err, "%s: out of memory", w->p->src->path);
				fail(w->p, &w->err);
				return false;
			}
			w->slot[idx] = w->nr_cnt;
			w->cnt[w->nr_cnt++] = (struct segcount){ .idx = idx };
		}
		c = &w->cnt[w->slot[idx]];
		tracedat_count(&c->count, &c->first, &c->last, rec->ts);
	}
	if (f && f->ke && f->usable) {
		if (tracedat_decode(f, rec, &ev, sr->b->arena + sr->b->aused, &used)) {
			size_t len = union_len(ev.type);

			sr->b->aused += used;
			e = entry(sr, PE_EVENT, rec->ts, rec->offset, len);
			e->pid = tracedat_record_pid(td, w->rd.tep, rec);
			e->have = ev.have;
			e->type = (int32_t)ev.type;
			/*
			 * Of constant size, not len bytes: a constant copy is a few vector
			 * moves where a variable one was `rep movsq`, 28% of the decode
			 * thread (perf annotate). room() keeps ENTRY_MAX free.
			 */
			union_copy(e + 1, (const uint8_t *)&ev + EV_UNION_OFF, len);
		} else {
			warn_entry(sr, rec->ts, rec->offset, TRACEDAT_WARN_SHORT, f->ke->system,
				   f->ke->name, (unsigned long long)rec->offset);
		}
	}
	if (sr->b->used == n0) {
		if (check) {
			entry(sr, PE_MARK, rec->ts, rec->offset, 0);
		} else {
			sr->pending = true;
			sr->pending_ts = rec->ts;
			sr->pending_off = rec->offset;
		}
	}
	((struct pentry *)(sr->b->e + n0))->check = check;
	return true;
}

/*
 * The worker's libtracecmd handle, opened on first need (false: it cannot be, and the stream
 * fails). Segments our chunk reader reads (td->zown) need none, unless the common fields are
 * read through libtraceevent (!direct_common), whose tep must then be the worker's own, with
 * the file's event formats parsed again (a sixth of a one-thread read of a v7 trace; as much
 * as the decoding of a 2 M-event v6 trace). Otherwise a handle skips the formats
 * (tracedat_skip.c) and rd.tep stays td->tep, which decoding then does not use.
 */
static bool worker_handle(struct worker *w, bool need)
{
	struct par *p = w->p;

	if (w->rd.handle || !need)
		return true;
	w->rd.handle = tracedat_reader_open(p->src, !p->td->direct_common, &w->err);
	if (!w->rd.handle) {
		rs_error_prefix(&w->err, "decode thread: ");
		fail(p, &w->err);
		return false;
	}
	if (!p->td->direct_common)
		w->rd.tep = tracecmd_get_tep(w->rd.handle);
	return true;
}

/* Decode segment s into batches for the merge. */
static void run_segment(struct worker *w, struct seg *s)
{
	struct par *p = w->p;
	struct tracedat_cursor *c = &w->cur;
	struct segrun sr = {
		.w = w, .s = s, .td = p->td, .from = p->from, .to = p->to, .full = p->full,
		.cpu = s->cpu, .first = true,
	};
	int more;

	c->cpu = s->cpu;
	c->limit = s->end;
	c->per_record = !p->td->cpu_span[s->cpu].last_page;
	if (!worker_handle(w, !p->td->zown || c->per_record || !p->td->direct_common))
		return;
	more = tracedat_cursor_seek(&w->rd, c, s->start);
	while (more == 1) {
		if (!segment_record(&sr, &c->rec))
			break;
		more = tracedat_cursor_next(&w->rd, c);
		if (!more && c->looped && room(&sr, PAR_WARN_MAX))
			warn_entry(&sr, c->rec.ts, c->loop_offset, TRACEDAT_WARN_LOOP, c->cpu,
				   (unsigned long long)c->loop_offset);
		/* reopens wait for the segment's end (worker_main), unless a segment is huge */
		if (more == 1 && tracedat_reader_full(&w->rd, 2 * p->budget) &&
		    tracedat_reader_reopen(&w->rd, &c, 1, &w->err) < 0) {
			fail(p, &w->err);
			break;
		}
	}
	if (c->zfail || c->looped) {
		/*
		 * The CPU's records end here, as the single-threaded cursor's do: none of its
		 * later segments is merged, and the merge says why where that cursor does,
		 * after the last record (advance()).
		 */
		s->zfail = c->zfail;
		s->zfail_offset = c->zfail_offset;
		pthread_mutex_lock(&p->lock);
		if (p->cpus[s->cpu].cut > s->index)
			p->cpus[s->cpu].cut = s->index;
		pthread_mutex_unlock(&p->lock);
	}
	tracedat_cursor_drop(c);
	if (sr.b && sr.pending && room(&sr, 0))
		entry(&sr, PE_MARK, sr.pending_ts, sr.pending_off, 0);
	s->any = !sr.first;		/* read by the merge once the segment is done */
	s->last_ts = sr.prev_ts;
	s->nrec = sr.nrec;
	s->first_ts = sr.first_ts;
	s->last_rec_ts = sr.last_ts;
	for (int i = 0; i < w->nr_cnt; i++)
		w->slot[w->cnt[i].idx] = -1;
	s->cnt = w->cnt;		/* the segment's now; the next one starts a list */
	s->nr_cnt = w->nr_cnt;
	w->cnt = NULL;
	w->nr_cnt = 0;
	w->cap_cnt = 0;
	if (sr.b)
		publish(p, s, sr.b);
}

/* The segment to decode next (under the lock), or NULL. */
static struct seg *pick(struct par *p)
{
	struct pcpu *best = NULL;
	bool best_urgent = false;

	for (int i = 0; i < p->ncpus; i++) {
		struct pcpu *pc = &p->cpus[i];
		bool urgent;

		if (pc->next >= pc->nsegs || pc->next > pc->cut)
			continue;
		urgent = pc->next == pc->cur;
		if (!urgent && (best_urgent || p->outstanding >= p->ahead))
			continue;
		if (!best || (urgent && !best_urgent) || pc->frontier < best->frontier) {
			best = pc;
			best_urgent = urgent;
		}
	}
	if (!best)
		return NULL;
	p->outstanding++;
	best->segs[best->next].state = SEG_BUSY;
	return &best->segs[best->next++];
}

/* A segment past its CPU's end, decoded: its batches go back (under the lock). */
static void release(struct par *p, struct seg *s)
{
	struct batch *b;

	while ((b = s->head)) {
		s->head = b->next;
		b->next = p->pool;
		p->pool = b;
	}
	s->tail = NULL;
	free(s->cnt);
	s->cnt = NULL;
	p->outstanding--;
	pthread_cond_broadcast(&p->work);
}

/* Segment s is merged to its end (under the lock): its records count. */
static void count_segment(struct par *p, struct seg *s)
{
	struct tracedat *td = p->td;

	for (int i = 0; i < s->nr_cnt; i++) {
		const struct segcount *c = &s->cnt[i];
		struct fmt *f = c->idx < td->nr_fmts ? &td->fmts[c->idx] : &td->unknown;

		if (!f->count || c->first < f->first_ts)
			f->first_ts = c->first;
		if (!f->count || c->last > f->last_ts)
			f->last_ts = c->last;
		f->count += c->count;
	}
	if (s->nrec && (!p->nrec || s->first_ts < p->first_ts))
		p->first_ts = s->first_ts;
	if (s->nrec && s->last_rec_ts > p->last_ts)
		p->last_ts = s->last_rec_ts;
	p->nrec += s->nrec;
	free(s->cnt);
	s->cnt = NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	struct seg *s = NULL;

	pthread_setname_np(pthread_self(), "rs-decode");	/* for top and perf */
	rs_heap_thread(DECODE_ROOM);
	w->rd.tep = p->td->tep;
	if (!worker_handle(w, !p->td->zown || !p->td->direct_common))
		return NULL;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (!p->stop && !(s = pick(p)))
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_mutex_unlock(&p->lock);
		run_segment(w, s);
		pthread_mutex_lock(&p->lock);
		s->state = SEG_DONE;
		if (s->dropped)
			release(p, s);
		pthread_cond_broadcast(&p->ready);
		pthread_mutex_unlock(&p->lock);
		/*
		 * Between segments, so that the ~85 ms of a reopen never hold up a segment the
		 * merge waits for: the other workers take it meanwhile.
		 */
		if (tracedat_reader_full(&w->rd, p->budget) &&
		    tracedat_reader_reopen(&w->rd, NULL, 0, &w->err) < 0) {
			fail(p, &w->err);
			break;
		}
	}
	tracedat_cursor_drop(&w->cur);
	if (w->rd.handle)
		tracecmd_close(w->rd.handle);
	w->rd.handle = NULL;
	return NULL;
}

/* ---- the merge ---- */

/*
 * The CPU's records end with segment s, its cut (under the lock): say why where the
 * single-threaded stream does, and let go of the segments decoded past it.
 */
static void end_cpu(struct par *p, struct pcpu *pc, const struct seg *s)
{
	if (s->zfail)
		rs_warn(p->src->info.warnings, TRACEDAT_WARN_CHUNK, p->src->path, s->cpu,
			(unsigned long long)s->zfail_offset, s->zfail);
	for (int j = pc->cur; j < pc->next; j++) {
		pc->segs[j].dropped = true;
		if (pc->segs[j].state == SEG_DONE)
			release(p, &pc->segs[j]);
	}
}

/* The caller decodes segment s, handed out to it (under the lock, released meanwhile). */
static void caller_run(struct par *p, struct seg *s)
{
	struct worker *w = &p->workers[p->nworkers];

	pthread_mutex_unlock(&p->lock);
	run_segment(w, s);
	if (tracedat_reader_full(&w->rd, p->budget) &&
	    tracedat_reader_reopen(&w->rd, NULL, 0, &w->err) < 0)
		fail(p, &w->err);
	pthread_mutex_lock(&p->lock);
	s->state = SEG_DONE;
	if (s->dropped)
		release(p, s);
}

/*
 * The merge needs segment s and no decode thread took it (under the lock): the caller decodes
 * it, as a decode thread would. Waiting for one costs a wake-up and, on a busy machine, the
 * time until the scheduler runs it, while the thread that analyses is the critical path; with
 * every thread busy, the caller reads as a single thread would.
 */
static void caller_decodes(struct par *p, struct seg *s)
{
	s->state = SEG_BUSY;
	p->cpus[s->cpu].next++;
	p->outstanding++;
	caller_run(p, s);
}

/* Point pc->head at the next entry of the batch being merged; false at its end. */
static inline bool advance_in_batch(struct pcpu *pc)
{
	if (!pc->b || pc->b->pos >= pc->b->used)
		return false;
	/* a worker wrote the entries on another core: fetch them ahead of need */
	__builtin_prefetch(pc->b->e + pc->b->pos + PAR_PREFETCH);
	__builtin_prefetch(pc->b->e + pc->b->pos + PAR_PREFETCH + 64);
	pc->head = (struct pentry *)(pc->b->e + pc->b->pos);
	return true;
}

/* Point pc->head at the CPU's next entry. 1, 0 at its end, -1 when the stream failed. */
static int advance(struct par *p, struct pcpu *pc)
{
	for (;;) {
		struct seg *s;

		if (advance_in_batch(pc))
			return 1;
		pthread_mutex_lock(&p->lock);
		if (pc->b) {
			pc->b->next = p->pool;
			p->pool = pc->b;
			pc->b = NULL;
		}
		for (;;) {
			if (p->failed) {
				pthread_mutex_unlock(&p->lock);
				return -1;
			}
			if (pc->cur >= pc->nsegs) {
				pthread_mutex_unlock(&p->lock);
				return 0;
			}
			s = &pc->segs[pc->cur];
			if (s->head) {
				pc->b = s->head;
				s->head = pc->b->next;
				if (!s->head)
					s->tail = NULL;
				break;
			}
			if (s->state == SEG_DONE) {
				if (s->any)
					pc->last_ts = s->last_ts;
				count_segment(p, s);
				pc->cur++;
				p->outstanding--;
				pthread_cond_broadcast(&p->work);
				if (pc->cur > pc->cut) {
					end_cpu(p, pc, s);
					pthread_mutex_unlock(&p->lock);
					return 0;
				}
				continue;
			}
			if (s->state == SEG_NEW && pc->next == pc->cur) {
				caller_decodes(p, s);
				continue;
			}
			/*
			 * A decode thread is on s: rather than wait for its next batch, decode the
			 * segment a decode thread would take next. The caller and one decoder
			 * take about as long for the same events (bench.dat: 0.35-0.39 s of CPU
			 * each), so the merge caught up with the decoder and waited for each of its
			 * batches, ~1,000 times, a fifth of the caller's time; now that time
			 * decodes, and the decoder stays ahead.
			 */
			if ((s = pick(p))) {
				caller_run(p, s);
				continue;
			}
			pthread_cond_wait(&p->ready, &p->lock);
		}
		pthread_mutex_unlock(&p->lock);
	}
}

static bool head_less(const struct pcpu *a, const struct pcpu *b)
{
	const struct pentry *x = a->head, *y = b->head;

	return x->ts < y->ts || (x->ts == y->ts && x->cpu < y->cpu);
}

TRACEDAT_HEAP_DOWN(heap_down, struct pcpu, head_less)

static int merge(struct par *p, rs_event_fn fn, void *ctx, struct rs_error *err)
{
	struct rs_source *src = p->src;
	struct tracedat *td = p->td;
	struct pcpu **heap = calloc(p->ncpus ? p->ncpus : 1, sizeof(*heap));
	struct rs_event ev;
	uint64_t seen = 0;
	int n = 0, ret = 0;

	if (!heap)
		return rs_error_set(err, "%s: out of memory", src->path);
	for (int i = 0; i < p->ncpus && !ret; i++) {
		const struct pcpu *pc = &p->cpus[i];
		int a;

		/* as the single-threaded stream, before any event: CPUs unreadable from the start */
		if (pc->first_fail)
			rs_warn(src->info.warnings, TRACEDAT_WARN_CHUNK, src->path, i,
				(unsigned long long)pc->first_fail_offset, pc->first_fail);
		a = advance(p, &p->cpus[i]);

		if (a < 0)
			ret = -1;
		else if (a)
			heap[n++] = &p->cpus[i];
	}
	for (int i = n / 2 - 1; i >= 0; i--)
		heap_down(heap, n, i);
	while (n > 0 && !ret) {
		struct pcpu *pc = heap[0];
		struct pentry *e = pc->head;
		const char *text;
		int a;

		if (rs_past_end(e->ts, p->to))
			break;
		if (e->check && e->ts < pc->last_ts)
			rs_warn(src->info.warnings, TRACEDAT_WARN_BACKWARDS, e->cpu,
				(unsigned long long)e->ts);
		switch (e->kind) {
		case PE_LOST:
			/* as the single-threaded stream's lost_event() */
			memset(&ev, 0, sizeof(ev));
			ev.type = RS_EV_LOST;
			ev.ts = e->ts;
			ev.cpu = e->cpu;
			ev.pid = -1;
			ev.comm = "<lost>";
			ev.offset = e->offset;
			memcpy(&ev.lost, e + 1, sizeof(ev.lost));
			if (p->full && ev.lost > 0)
				src->loss[ev.cpu].missed += (uint64_t)ev.lost;
			else if (p->full)
				src->loss[ev.cpu].missed_unknown++;
			ret = fn(&ev, ctx);
			break;
		case PE_EVENT:
			ev.type = (enum rs_ev_type)e->type;
			ev.ts = e->ts;
			ev.cpu = e->cpu;
			ev.pid = e->pid;
			ev.offset = e->offset;
			ev.have = e->have;
			/* as in segment_record(); bytes past e->len are unused */
			union_copy((uint8_t *)&ev + EV_UNION_OFF, e + 1, e->len);
			tracedat_name_event(src, td, &ev);
			ret = fn(&ev, ctx);
			break;
		case PE_WARN:
			memcpy(&text, e + 1, sizeof(text));
			rs_warn(src->info.warnings, "%s", text);
			break;
		default:
			break;
		}
		if (ret)
			break;
		if (src->opts.progress && !(++seen & 0xfffff))
			tracedat_progress(src, e->ts);
		pc->b->pos += sizeof(*e) + e->len;
		/*
		 * Per event, the common case in line: the next entry is in the same batch and
		 * comes before the other CPUs' heads, so the heap stays as it is (heap_down()
		 * would compare the same two children and return). advance() and heap_down()
		 * were a third of the merge's own instructions (callgrind, bench.dat).
		 */
		if (advance_in_batch(pc)) {
			if (n > 1 && (head_less(heap[1], pc) || (n > 2 && head_less(heap[2], pc))))
				heap_down(heap, n, 0);
			continue;
		}
		a = advance(p, pc);
		if (a < 0)
			ret = -1;
		else if (a == 0)
			heap[0] = heap[--n];
		if (n > 0)
			heap_down(heap, n, 0);
	}
	if (ret < 0)
		*err = p->err;
	free(heap);
	return ret;
}

/* ---- planning ---- */

/* Pages a segment, at most max, aligned to compressed chunks from PAR_CHUNK_PAGES on. */
static uint64_t seg_size(uint64_t pages, uint64_t max)
{
	if (pages > max)
		pages = max;
	if (pages >= PAR_CHUNK_PAGES)
		pages -= pages % PAR_CHUNK_PAGES;
	return pages ? pages : 1;
}

/*
 * Cut each CPU's pages into segments, from the page where the stream starts (from_ns) to the
 * page of its last record, at multiples of PAR_CHUNK_PAGES from its first page so that no
 * compressed chunk is decompressed by two workers. Sparser CPUs get fewer pages a segment, so
 * that segments span about the same time on every CPU: the merge needs every CPU's data up
 * to the same time, and a segment of a sparse CPU would otherwise hold back the dense one's
 * decoded segments beyond what PAR_AHEAD lets the workers decode.
 */
static int plan(struct par *p, struct rs_error *err)
{
	struct tracedat *td = p->td;
	struct tracedat_reader rd = {
		.src = p->src, .td = td, .handle = td->handle, .tep = td->tep,
		.mapped = td->mapped, .is_main = true,
	};
	uint64_t ps = td->page_size, total = 0, seg_pages;
	uint64_t *start = calloc(p->ncpus ? p->ncpus : 1, sizeof(*start));
	double *density = calloc(p->ncpus ? p->ncpus : 1, sizeof(*density)), densest = 0;
	struct tracedat_cursor c;
	int ret = 0;

	if (!start || !density || tracedat_cursor_init(&c, td, 0) < 0) {
		free(start);
		free(density);
		return rs_error_set(err, "%s: out of memory", p->src->path);
	}
	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		c.cpu = cpu;
		/* only its first record's page is wanted: from libtracecmd unless ours reads it */
		c.per_record = !td->zown || !td->cpu_span[cpu].last_page;
		start[cpu] = UINT64_MAX;
		if (tracedat_cursor_first(&rd, &c, p->from) == 1) {
			start[cpu] = c.rec.offset & ~(ps - 1);
			if (td->cpu_span[cpu].last_page >= start[cpu]) {
				uint64_t pages = (td->cpu_span[cpu].last_page - start[cpu]) / ps + 1;

				total += pages;
				uint64_t last = td->cpu_span[cpu].last_ts;

				if (last > c.rec.ts)
					density[cpu] = (double)pages / (double)(last - c.rec.ts);
				if (density[cpu] > densest)
					densest = density[cpu];
			}
		} else if (c.zfail) {
			p->cpus[cpu].first_fail = c.zfail;	/* merge() says so */
			p->cpus[cpu].first_fail_offset = c.zfail_offset;
		}
		tracedat_cursor_drop(&c);
	}
	tracedat_cursor_destroy(&c);
	td->mapped = rd.mapped;
	if (tracedat_reader_full(&rd, RS_ZCACHE_BUDGET))
		ret = tracedat_reader_reopen(&rd, NULL, 0, err);
	seg_pages = seg_size(total / ((uint64_t)p->nworkers * PAR_SEG_MIN), PAR_SEG_PAGES);
	for (int cpu = 0; cpu < p->ncpus && !ret; cpu++) {
		struct pcpu *pc = &p->cpus[cpu];
		uint64_t base = td->cpu_span[cpu].first_page, at = start[cpu], end, n;
		uint64_t seg_pages_c = densest > 0 && density[cpu] > 0 ?
				       seg_size((uint64_t)((double)seg_pages * density[cpu] / densest +
							   0.5), seg_pages) : seg_pages;

		pc->cut = INT32_MAX;
		if (at == UINT64_MAX)
			continue;
		if (!td->cpu_span[cpu].last_page || td->cpu_span[cpu].last_page < at) {
			/* where the CPU's data end is libtracecmd's secret: one segment */
			n = 1;
			end = UINT64_MAX;
		} else {
			end = td->cpu_span[cpu].last_page + ps;
			if (base > at)
				base = at;
			n = ((end - base) / ps + seg_pages_c - 1) / seg_pages_c -
			    ((at - base) / ps) / seg_pages_c;
		}
		pc->segs = calloc(n, sizeof(*pc->segs));
		if (!pc->segs) {
			ret = rs_error_set(err, "%s: out of memory", p->src->path);
			break;
		}
		for (uint64_t i = 0; i < n; i++) {
			struct seg *s = &pc->segs[i];
			uint64_t stop = base + (((at - base) / ps) / seg_pages_c + 1) * seg_pages_c * ps;

			s->cpu = cpu;
			s->index = (int)i;
			s->start = at;
			s->end = end == UINT64_MAX || stop > end ? end : stop;
			at = s->end;
		}
		pc->nsegs = (int)n;
	}
	free(start);
	free(density);
	return ret;
}

/* ---- the stream ---- */

static void par_free(struct par *p)
{
	struct batch *b;

	for (int i = 0; i < p->ncpus; i++) {
		struct pcpu *pc = &p->cpus[i];

		for (int j = 0; j < pc->nsegs; j++) {
			while ((b = pc->segs[j].head)) {
				pc->segs[j].head = b->next;
				free(b);
			}
			free(pc->segs[j].cnt);
		}
		free(pc->b);
		free(pc->segs);
	}
	while ((b = p->pool)) {
		p->pool = b->next;
		free(b);
	}
	for (int i = 0; p->workers && i <= p->nworkers; i++) {
		struct worker *w = &p->workers[i];

		if (w->have_cursor)
			tracedat_cursor_destroy(&w->cur);
		free(w->slot);
		free(w->cnt);
	}
	free(p->workers);
	free(p->cpus);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->ready);
}

/* The stream's span, of the segments merged (tracedat.c publishes the formats' counts). */
static void finish_counts(struct par *p)
{
	p->src->info.events = p->nrec;
	p->src->info.first_ts = p->nrec ? p->first_ts : 0;
	p->src->info.last_ts = p->last_ts;
}

int tracedat_stream_parallel(struct rs_source *src, int cpus, uint64_t from_ns, uint64_t to_ns,
			     rs_event_fn fn, void *ctx, struct rs_error *err)
{
	struct tracedat *td = src->priv;
	struct par par = {
		.src = src, .td = td, .from = from_ns, .to = to_ns,
		.full = from_ns == 0 && to_ns == UINT64_MAX, .ncpus = src->info.cpus,
		/*
		 * threads is the CPUs to use. Where the caller's merge and analysis are a large
		 * part of the work, it counts as one of them: on an uncompressed file (~45%: on 2
		 * CPUs 1 decoder took 1.15 s, 2 decoders 1.43 s, v6 bench), and on a compressed
		 * one our chunk reader decompresses (td->zown: zstd is 12.5% of a one-thread
		 * read): one decoder keeps ahead of the caller (best of 4 at load 12, bench.dat,
		 * --threads 2: decoder 0.28-0.33 s of CPU, caller 0.55-0.63 s) and a second one
		 * only competes with the caller for the 2 CPUs (process 0.97 s of CPU with two,
		 * 0.90 s with one; the caller's CPU within the noise). Where libtracecmd
		 * decompresses (80% of the work) the caller mostly waits for the decoders: 2 took
		 * 3.00 s, 1 took 4.05 s, one thread 4.05 s (v7 bench, bench/README.md).
		 */
		.nworkers = td->compressed && !td->zown ? cpus : cpus - 1,
	};
	struct par *p = &par;
	int ret;

	if (!td->handle)
		return rs_error_set(err, "%s: the trace could not be opened again", src->path);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->ready, NULL);
	p->ahead = PAR_AHEAD * p->nworkers;
	/*
	 * The workers share one budget of decompressed chunks: with a budget each, two threads
	 * peaked at 175 MB against 76 MB for one (issue 22). Smaller budgets mean more reopens.
	 */
	p->budget = p->nworkers > 1 ? RS_ZCACHE_BUDGET / (uint64_t)p->nworkers : RS_ZCACHE_BUDGET;
	p->cpus = calloc(p->ncpus ? p->ncpus : 1, sizeof(*p->cpus));
	p->workers = calloc(p->nworkers + 1, sizeof(*p->workers));
	if (!p->cpus || !p->workers) {
		ret = rs_error_set(err, "%s: out of memory", src->path);
		goto out;
	}
	for (int i = 0; i <= p->nworkers; i++) {
		struct worker *w = &p->workers[i];

		w->p = p;
		w->rd.src = src;
		w->rd.td = td;
		w->slot = malloc((td->nr_fmts + 1) * sizeof(*w->slot));
		if (!w->slot || tracedat_cursor_init(&w->cur, td, 0) < 0) {
			ret = rs_error_set(err, "%s: out of memory", src->path);
			goto out;
		}
		memset(w->slot, 0xff, (td->nr_fmts + 1) * sizeof(*w->slot));	/* -1: none */
		w->have_cursor = true;
	}
	ret = plan(p, err);
	if (ret < 0)
		goto out;
	if (p->full) {
		for (int c = 0; c < p->ncpus; c++)
			src->loss[c].missed = src->loss[c].missed_unknown = 0;
		/* as the single-threaded stream: the merge adds each segment's (count_segment()) */
		for (int i = 0; i < td->nr_fmts; i++)
			td->fmts[i].count = 0;
		td->unknown.count = 0;
	}
	for (int i = 0; i < p->nworkers; i++) {
		struct worker *w = &p->workers[i];

		int rc = pthread_create(&w->thread, NULL, worker_main, w);

		if (rc) {
			struct rs_error e = { "" };

			rs_error_set(&e, "%s: cannot start a decode thread: %s", src->path,
				     strerror(rc));
			fail(p, &e);
			break;
		}
		w->started = true;
	}
	/* the caller decodes with the main handle, which plan() left where it is */
	p->workers[p->nworkers].rd = (struct tracedat_reader){
		.src = src, .td = td, .handle = td->handle, .tep = td->tep, .mapped = td->mapped,
		.is_main = true,
	};
	ret = merge(p, fn, ctx, err);
	td->mapped = p->workers[p->nworkers].rd.mapped;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->nworkers; i++)
		if (p->workers[i].started)
			pthread_join(p->workers[i].thread, NULL);
	if (!ret && p->failed) {
		*err = p->err;
		ret = -1;
	}
	if (src->opts.progress)
		fprintf(stderr, "\r%*s\r", 40 + (int)strlen(src->path), "");
	if (p->full && !ret)
		finish_counts(p);
out:
	par_free(p);
	return ret;
}
