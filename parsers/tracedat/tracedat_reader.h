/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of the trace.dat backend, shared by its files only, each declaring under its own
 * heading what it defines. Calls go one way: tracedat.c (open, event formats, which stream) ->
 * tracedat_parallel.c (the stream with decode threads) -> tracedat_stream.c (reading a CPU's
 * records, the single-threaded stream, opening handles) -> tracedat_format.c (the format
 * table, decoding a record) and tracedat_skip.c.
 * struct tracedat is read-only once rs_tracedat_open() returns, except what a stream owns (the
 * counts, the main handle and its name cache): decode threads read the format table and use
 * handles of their own, since a libtracecmd handle is not thread-safe.
 */
#ifndef TRACEDAT_IMPL_H
#define TRACEDAT_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>

#include "rs_normalize.h"
#include "../source_state.h"
#include "tracedat_chunks.h"

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
int tracecmd_long_size(struct tracecmd_input *handle);
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);

#define TRACEDAT_OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

/*
 * libtracecmd 1.3.1 keeps every decompressed chunk of a compressed (v7) trace in memory: its
 * free_zpage() looks a page up with `map <= cache->map && map > cache->map + size`, which
 * never holds, so no chunk is freed, and it walks the whole list of chunks to find that out
 * each time a page is released, which makes reading quadratic (fixed in libtracecmd 1.5.0 and
 * 1.5.1). A 54 MB trace of 27 M events peaked at 830 MB and read at a third of the speed of a
 * small one. We bound both: after this many bytes of pages were mapped through one handle, it
 * is closed and opened again, and each CPU is put back at its next unread record with
 * tracecmd_set_cursor(). Each reopen cost ~85 ms of CPU when the file's kallsyms were parsed
 * again (no longer: tracedat_skip.c) and each mapped page a walk of the list, so the
 * budget balances the two: on that trace analyze took 7.3 s of CPU with 32 MB, 6.0 s with 48,
 * 5.9 s with 64, 5.8 s with 96 and 6.7 s with 128 (bench/README.md). Decode threads each have
 * a handle and share the budget (tracedat_parallel.c). A build may set it (-D), which tests
 * use to reopen often. Since our own reader takes the pages of compressed CPU data
 * (tracedat_chunks.c, td->zown), libtracecmd maps them only where it is left the data (an
 * unusual layout, RS_ZCHUNKS=0) or a CPU is read record by record.
 */
#ifndef RS_ZCACHE_BUDGET
#define RS_ZCACHE_BUDGET (48ull << 20)
#endif

#define RS_STR_MAX 4096		/* longest string field we copy (paths, marker text) */

/* The texts of the stream's warnings; tracedat_parallel.c formats them ahead of time. */
#define TRACEDAT_WARN_BACKWARDS "CPU %d: timestamps go backwards (first at %llu ns); events " \
				"kept in file order"
#define TRACEDAT_WARN_SHORT	"%s:%s: record at offset %llu is shorter than its format; skipped"
#define TRACEDAT_WARN_LOOP	"CPU %d: libtracecmd went back from the record at offset %llu " \
				"to an earlier one (corrupt ring-buffer data); the rest of " \
				"this CPU's data was not read"
#define TRACEDAT_WARN_CHUNK	"%s: CPU %d: compressed event data at offset %llu: %s; the " \
				"rest of this CPU's data was not read"

/* How one slot is read from a record of one event format. */
struct slot_reader {
	int offset, size;
	bool is_str, is_signed, dynamic, relative, to_end;
};

/* One event format of the file. */
struct fmt {
	int id;
	const char *system, *name;	/* owned by libtraceevent (td->tep's) */
	uint64_t count, first_ts, last_ts;
	const struct rs_kevent *ke;	/* NULL: counted, not decoded */
	bool usable;
	uint32_t present;
	int nr_str;			/* string slots present: decode writes at most this many */
	int nr_present;
	int num_end;			/* bytes a record needs for all its number slots */
	uint8_t order[RS_MAX_SLOTS];	/* the present slots, in slot order */
	struct slot_reader rd[RS_MAX_SLOTS];
};

/*
 * pid -> comm and shrinker function address -> name, direct-mapped. tep_data_comm_from_pid()
 * is a bsearch of the file's saved cmdlines with a compare function libtraceevent 1.7.1 ships
 * unoptimized (-O0): 23% of a stream's time before this cache; tep_find_function() costs ~8,000
 * instructions a call. The strings belong to the tep the cache was filled from: reset it
 * (memset 0) when that changes.
 */
#define TRACEDAT_COMMS 1024
#define TRACEDAT_FNS 64
struct name_cache {
	int pid[TRACEDAT_COMMS];
	const char *comm[TRACEDAT_COMMS];	/* NULL: empty slot */
	uint64_t fn_addr[TRACEDAT_FNS];
	const char *fn_name[TRACEDAT_FNS];	/* may be NULL: no symbol */
	bool fn_valid[TRACEDAT_FNS];
};

/* a function of the kallsyms: libtraceevent's struct func_map, laid out alike */
struct tracedat_ksym {
	unsigned long long addr;
	char *func;
	char *mod;
};

/*
 * The file's kallsyms, parsed apart (tracedat_kallsyms.c): on a thread of their own, or when
 * first wanted. Used by one thread at a time, the stream's (and the thread, until joined).
 */
struct tracedat_ksyms {
	char *text;			/* libtracecmd's, until parsed; NULL: none, or parsed */
	/* once ready: their functions, by address, then { 0 } (names in buf); nr 0: none */
	struct tracedat_ksym *map;
	size_t nr;
	char *buf;
	struct tep_handle *tep;		/* or libtraceevent's, of a text with another line */
	pthread_t thread;
	bool running, ready;
	/* the thread that reads them from the file itself (tracedat_ksyms_early()) */
	bool early_started, has_lock, read;
	int fd;				/* the thread's: it closes it */
	uint64_t at;
	bool z, big;
	enum tracedat_codec codec;
	char *early;			/* the text it read and parses; NULL: none */
	pthread_mutex_t lock;		/* read and early, until the text is read */
	pthread_cond_t cond;
};

struct tracedat {
	struct tracecmd_input *handle;	/* the main handle: opening, single-threaded streams */
	struct tep_handle *tep;		/* the first main handle's, kept (tep_ref) for the
					 * source's life: formats, comms */
	struct tracedat_ksyms ksyms;	/* shrinker names */
	struct fmt *fmts;		/* sorted by id */
	int nr_fmts;
	const char **format_names;	/* info.format_names */
	struct fmt **by_id;		/* direct map for ids < by_id_len */
	int by_id_len;
	struct fmt unknown;		/* records whose event id has no format */
	bool compressed;		/* chunks leak in libtracecmd: tracedat_reader_reopen() */
	uint64_t page_size, mapped;	/* bytes of pages mapped since the handle was opened */
	struct td_cpu_span {
		uint64_t first_page;	/* page of the CPU's first record */
		uint64_t first_ts;	/* time of that record */
		uint64_t last_page;	/* page of the CPU's last record; 0: unknown */
		uint64_t last_ts;	/* time of that record */
	} *cpu_span;			/* [cpus] */
	uint64_t data_bytes;		/* of ring-buffer pages, uncompressed where known */
	/* common_type and common_pid, read in place when the file has the host's byte order */
	bool direct_common;
	int type_offset, type_size, pid_offset, pid_size;
	/* how libtracecmd sets up its kbuffers, for ours (tracedat_stream.c) */
	enum kbuffer_long_size kb_long;
	enum kbuffer_endian kb_endian;
	bool kb_old_format;
	bool kb_walk;			/* pages in the layout struct page_walk reads */
	/*
	 * Compressed CPU data read by us (tracedat_chunks.c) rather than through libtracecmd's
	 * chunk cache: set at open when the file's layout allows (tracedat.c, own_setup()).
	 * Cursors that read a page at a time (not per_record) then take their pages from here.
	 */
	bool zown;
	int zfd, zcpus;			/* the file, for pread() by any thread */
	enum tracedat_codec zcodec;
	struct tracedat_chunks *zt;	/* [cpus]: each CPU's chunk table */
	uint64_t *zbase;		/* [cpus]: libtracecmd's offset of the CPU's first page */
	void *zmap;			/* the file, mapped read-only: v6 pages zt[] read, v7
					 * chunks, libtracecmd's chunk tables (own_map()) */
	size_t zmap_len;
	dev_t zdev;			/* the mapped file's */
	ino_t zino;
	struct name_cache names;	/* of tep */
	char strbuf[RS_MAX_SLOTS * RS_STR_MAX];
};

/*
 * static void name(type **h, int n, int i): sift h[i] down a binary min-heap of n ordered by
 * less(a, b). The stream's CPU cursors and the parallel merge's CPU queues each get an
 * instance with their comparison inlined (the merge's hottest loop).
 */
#define TRACEDAT_HEAP_DOWN(name, type, less)					\
static void name(type **h, int n, int i)					\
{										\
	for (;;) {								\
		int l = 2 * i + 1, r = l + 1, m = i;				\
		type *t;							\
										\
		if (l < n && less(h[l], h[m]))					\
			m = l;							\
		if (r < n && less(h[r], h[m]))					\
			m = r;							\
		if (m == i)							\
			return;							\
		t = h[i];							\
		h[i] = h[m];							\
		h[m] = t;							\
		i = m;								\
	}									\
}

/* ---- the format table and decoding (tracedat_format.c) ---- */

/* Sort td->fmts by id, for tracedat_fmt_search(). */
void tracedat_fmt_sort(struct tracedat *td);
/* The format of an event id; NULL when the file has none. */
struct fmt *tracedat_fmt_search(const struct tracedat *td, int id);

static inline struct fmt *tracedat_fmt_find(const struct tracedat *td, int id)
{
	if (id >= 0 && id < td->by_id_len)
		return td->by_id[id];
	return tracedat_fmt_search(td, id);
}

/* The count of one record; first and last are the earliest and latest time, in any order. */
static inline void tracedat_count(uint64_t *count, uint64_t *first, uint64_t *last,
				  uint64_t ts)
{
	if (!(*count)++) {
		*first = *last = ts;
		return;
	}
	if (ts < *first)
		*first = ts;
	if (ts > *last)
		*last = ts;
}

static inline uint64_t tracedat_read_uint(const uint8_t *p, int size)
{
	switch (size) {
	case 1:
		return *p;
	case 2: {
		uint16_t v;

		__builtin_memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;

		__builtin_memcpy(&v, p, 4);
		return v;
	}
	default: {
		uint64_t v;

		__builtin_memcpy(&v, p, 8);
		return v;
	}
	}
}

/* tep_data_type() without its two calls into libtraceevent; -1 for a record too short. */
static inline int tracedat_record_type(const struct tracedat *td, struct tep_handle *tep,
				       const struct tep_record *rec)
{
	if (!td->direct_common)
		return rec->size >= 2 ? tep_data_type(tep, (struct tep_record *)rec) : -1;
	if (rec->size < td->type_offset + td->type_size)
		return -1;
	return (int)tracedat_read_uint((const uint8_t *)rec->data + td->type_offset,
				       td->type_size);
}

/* tep_data_pid() likewise; only called for records that decoded, so long enough. */
static inline int tracedat_record_pid(const struct tracedat *td, struct tep_handle *tep,
				      const struct tep_record *rec)
{
	if (!td->direct_common || rec->size < td->pid_offset + td->pid_size)
		return tep_data_pid(tep, (struct tep_record *)rec);
	return (int)tracedat_read_uint((const uint8_t *)rec->data + td->pid_offset,
				       td->pid_size);
}

static inline const char *tracedat_comm(struct name_cache *nc, struct tep_handle *tep, int pid)
{
	unsigned int i = (unsigned int)pid % TRACEDAT_COMMS;

	if (!nc->comm[i] || nc->pid[i] != pid) {
		nc->comm[i] = tep_data_comm_from_pid(tep, pid);
		nc->pid[i] = pid;
	}
	return nc->comm[i];
}

/* ---- the file's kallsyms (tracedat_kallsyms.c) ---- */

/*
 * Read the kallsyms from fd (taken) at, as libtracecmd will, and parse them, on a thread of
 * their own from now on; k is zeroed first. Then tracedat_ksyms_init() with libtracecmd's.
 */
void tracedat_ksyms_early(struct tracedat_ksyms *k, int fd, uint64_t at, bool z, bool big,
			  enum tracedat_codec codec);
/*
 * Take libtracecmd's text (malloc'ed, may be NULL): parsed when first wanted unless started,
 * or, after tracedat_ksyms_early(), kept parsing there when that thread read the same text
 * (matched: tracedat_ksyms_same() said so already, text NULL).
 */
void tracedat_ksyms_init(struct tracedat_ksyms *k, char *text, bool matched);
/*
 * For tracedat_kallsyms_match() while libtracecmd opens the file: whether the thread of
 * tracedat_ksyms_early() (arg: k) has read its text, and it is text.
 */
bool tracedat_ksyms_same(void *arg, const char *text);
/* Parse it now, on a thread of its own (inline on first want if none can be made). */
void tracedat_ksyms_start(struct tracedat_ksyms *k);
/*
 * The name of the function holding addr, as tep_find_function() gives it (NULL: none),
 * parsing them first or waiting for their thread.
 */
const char *tracedat_ksyms_name(struct tracedat_ksyms *k, uint64_t addr);
/*
 * Wait for the thread, if one parses: before a stream returns, so that none runs when the
 * next file's check forks (a child of a threaded process can block on a lock).
 */
void tracedat_ksyms_wait(struct tracedat_ksyms *k);
/* Free the text or the functions; the names then read as none (the file has no shrinkers). */
void tracedat_ksyms_free(struct tracedat_ksyms *k);

static inline const char *tracedat_function(struct name_cache *nc, struct tracedat_ksyms *k,
					    uint64_t addr)
{
	unsigned int i = (unsigned int)(addr >> 4) % TRACEDAT_FNS;

	if (!nc->fn_valid[i] || nc->fn_addr[i] != addr) {
		nc->fn_name[i] = tracedat_ksyms_name(k, addr);
		nc->fn_addr[i] = addr;
		nc->fn_valid[i] = true;
	}
	return nc->fn_name[i];
}

/*
 * What the serial and the parallel reader fill in of a decoded event before it goes to the
 * caller: its task's comm, a marker's fields, a shrinker's function name.
 */
static inline void tracedat_name_event(struct rs_source *src, struct tracedat *td,
				       struct rs_event *ev)
{
	ev->comm = tracedat_comm(&td->names, td->tep, ev->pid);
	if (ev->type == RS_EV_MARKER && ev->marker)
		rs_markers_decode(src, ev->marker, ev);
	else if (ev->type == RS_EV_SLAB_START || ev->type == RS_EV_SLAB_END)
		ev->slab.shrink_name = tracedat_function(&td->names, &td->ksyms, ev->slab.shrink_fn);
}

/*
 * Decode one record of a known, usable format into ev (all but ts/cpu/pid/comm/offset). String
 * fields are copied one after another into str, which has room for f->nr_str * RS_STR_MAX
 * bytes; *used says how many were taken. False when the record does not fit its format
 * (the caller warns with TRACEDAT_WARN_SHORT).
 */
bool tracedat_decode(const struct fmt *f, const struct tep_record *rec, struct rs_event *ev,
		     char *str, size_t *used);

/* ---- opening (tracedat.c) ---- */

bool tracedat_cpu_has_data(struct tracedat *td, int cpu);

/* ---- reading (tracedat_stream.c) ---- */

/*
 * tracecmd_open(), failing with err set (and a failed handle parked, see tracedat_stream.c),
 * parsing what the TRACEDAT_NO_* skip flags leave and, of the event formats we do not decode,
 * only what we use (tracedat_skip.h).
 */
struct tracecmd_input *tracedat_open_handle(struct rs_source *src, unsigned int skip,
					    struct rs_error *err);

/* A handle and what was mapped through it; the main one is td's, workers open their own. */
struct tracedat_reader {
	struct rs_source *src;
	struct tracedat *td;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	uint64_t mapped;		/* bytes of pages since the handle was opened */
	bool is_main;			/* td->handle: a reopen updates it */
};

/*
 * kbuffer_next_event()'s walk over a ring-buffer page (libtraceevent kbuffer-parse.c,
 * update_pointers()), for pages in the host's byte order and the format of Linux 2.6.31 on:
 * libtraceevent 1.7.1 is built without optimization, and its walk was 27% of reading.
 */
struct page_walk {
	const uint8_t *data;		/* the page's events: the page + start */
	uint32_t start;			/* the page header's size */
	uint32_t size, curr, index, next;	/* as struct kbuffer's */
	uint64_t ts;
};

/*
 * One CPU's read position and the record under it. libtracecmd hands out one malloc'ed record
 * per event (tracecmd_read_data: 45% of the instructions of reading); the cursor takes from it
 * only the first record of each ring-buffer page, which keeps the page mapped, and reads the
 * rest of the page in place, as libtracecmd would. Where libtracecmd corrects timestamps (guest
 * traces, TSC clocks, --ts-offset: its ts differs from the page's) the cursor takes every record
 * from libtracecmd.
 */
struct tracedat_cursor {
	int cpu;
	struct tep_record rec;		/* the current record; data points into its page */
	struct tep_record *page_rec;	/* libtracecmd's record that keeps that page mapped */
	struct kbuffer *kbuf;		/* over page_rec's page, after rec, when paged */
	struct page_walk walk;		/* the same, when td->kb_walk */
	uint64_t page_off;		/* of page_rec */
	uint64_t limit;			/* no page from this offset on is mapped */
	bool paged;			/* the rest of the page comes from kbuf */
	bool per_record;		/* timestamps are corrected: every record from libtracecmd */
	bool looped;			/* ended because libtracecmd went back (TRACEDAT_WARN_LOOP) */
	uint64_t loop_offset;		/* the record it went back from */
	/* pages from td's chunk reader (td->zown and not per_record), one chunk at a time */
	struct tracedat_zpage z;
	const char *zfail;		/* ended on a chunk or page that cannot be read: why */
	uint64_t zfail_offset;		/* the page's offset (TRACEDAT_WARN_CHUNK) */
};

/*
 * tracedat_open_handle(), one thread at a time (libtraceevent's parser is not reentrant),
 * without the file's kallsyms: names are looked up in td->tep (tracedat_skip.c). Without its
 * event formats too unless formats: then only td->tep can tell records apart (a reader's tep
 * is td->tep; it is the handle's only when !td->direct_common).
 */
struct tracecmd_input *tracedat_reader_open(struct rs_source *src, bool formats,
					    struct rs_error *err);

/* 0, or -1 when out of memory. The cursor is at no record. */
int tracedat_cursor_init(struct tracedat_cursor *c, struct tracedat *td, int cpu);
void tracedat_cursor_destroy(struct tracedat_cursor *c);
/* Let go of the page (before the handle closes). */
void tracedat_cursor_drop(struct tracedat_cursor *c);
/* The CPU's first record, or where a stream from from_ns starts. 1: a record, 0: none. */
int tracedat_cursor_first(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t from_ns);
/* The first record at or after offset (a page, or a record's: exact). 1, or 0: none. */
int tracedat_cursor_seek(struct tracedat_reader *r, struct tracedat_cursor *c, uint64_t offset);
/* The next record. 1, or 0 at the CPU's end or its limit. */
int tracedat_cursor_next(struct tracedat_reader *r, struct tracedat_cursor *c);

/* Has the handle mapped its budget of compressed pages (RS_ZCACHE_BUDGET)? */
static inline bool tracedat_reader_full(const struct tracedat_reader *r, uint64_t budget)
{
	return r->td->compressed && r->mapped >= budget;
}

/*
 * Close and reopen the handle to drop libtracecmd's decompressed chunks, putting each of the
 * n cursors back at its record. 0, or -1 with err set (the cursors are then at no record).
 */
int tracedat_reader_reopen(struct tracedat_reader *r, struct tracedat_cursor **cursors, int n,
			   struct rs_error *err);

void tracedat_progress(struct rs_source *src, uint64_t ts);

/* The stream in one thread (tracedat.c chooses it, and publishes a full one's counts). */
int tracedat_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		    void *ctx, struct rs_error *err);

/* ---- the stream with decode threads, on cpus CPUs (tracedat_parallel.c) ---- */
int tracedat_stream_parallel(struct rs_source *src, int cpus, uint64_t from_ns, uint64_t to_ns,
			     rs_event_fn fn, void *ctx, struct rs_error *err);

#endif
