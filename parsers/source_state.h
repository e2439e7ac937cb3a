/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_source, shared by parsers/source.c and the backends (tracedat.c,
 * textlog.c) only. Commands and the analyzer see the opaque type of trace_source.h.
 */
#ifndef SOURCE_IMPL_H
#define SOURCE_IMPL_H

#include "lru_shape.h"
#include "trace_source.h"

struct rs_markers;

/* Distinct event names we count; more in a hostile text trace go to one overflow entry. */
#define RS_MAX_EVENT_NAMES 4096

/*
 * Is ts at or past a stream's end? to_ns UINT64_MAX means "no end", and a record whose
 * timestamp is exactly 2^64-1 (a corrupt or wrapped page time) is still in the stream: ending
 * there lost the rest of the file with no word (issue 21).
 */
static inline bool rs_past_end(uint64_t ts, uint64_t to_ns)
{
	return to_ns != UINT64_MAX && ts >= to_ns;
}

struct rs_source {
	const struct rs_source_ops *ops;
	void *priv;			/* the backend's */
	struct rs_source_opts opts;
	struct rs_trace_info info;
	char *path, *format, *kernel, *host;
	struct rs_cpu_loss *loss;	/* [info.cpus] */
	struct rs_event_count *counts;
	size_t nr_counts, cap_counts;
	struct rs_markers *markers;
	struct rs_lru_shape shape;	/* of the last full stream */
	struct rs_lru_shape range_shape;	/* of every range streamed (until a full one) */
	bool mglru_full;		/* info.mglru comes from a full stream */
	char mglru_how[512];
};

/* Backend constructors: fill src->ops/priv/info; return 0 or -1 with err set. */
int rs_tracedat_open(struct rs_source *src, struct rs_error *err);
int rs_textlog_open(struct rs_source *src, struct rs_error *err);

/* Where a v7 file's top buffer keeps each CPU's data, as the check found it. */
struct rs_tracedat_cpu_range {
	uint32_t cpu;
	uint64_t offset, size;
};

struct rs_tracedat_layout {
	bool zcpu;			/* v7, the top buffer's CPU data in compressed chunks */
	bool rawcpu;			/* v6, the CPU data as pages in the file, cpus[] in CPU
					 * order (every page header checked) */
	bool big_endian;
	bool ts_options;		/* DATE, OFFSET, TIME_SHIFT or TSC2NSEC: libtracecmd
					 * changes the timestamps of the pages */
	char zname[64];			/* the compression ("none" in v6) */
	uint32_t page_size, long_size;
	uint64_t file_size;
	uint32_t nr_cpus;
	struct rs_tracedat_cpu_range *cpus;	/* [nr_cpus], in the file's order; free() */
	/*
	 * Where the kallsyms are (read_proc_kallsyms(): size4 + text), for a reader that parses
	 * them apart: a compressed block (csize4 rsize4 data) holding them when ksyms_z; 0: not
	 * found. shrinkers: some event format is named mm_shrink_slab_start or _end.
	 */
	uint64_t ksyms_at;
	bool ksyms_z, shrinkers;
};

/*
 * Check the offsets and sizes of the trace.dat open on fd against the file's size, before
 * libtracecmd reads it (parsers/tracedat/tracedat_check.c says why). 0, or -1 with err set.
 * layout, when not NULL, is filled (zeroed first; free its cpus, also on failure), and then
 * when layout->zcpu the ring-buffer pages of compressed CPU data are checked in each CPU's
 * first chunk only: the caller reads the rest itself, checking each page, or calls
 * rs_tracedat_check_zpages() before libtracecmd reads them.
 */
int rs_tracedat_check(int fd, const char *path, struct rs_tracedat_layout *layout,
		      struct rs_error *err);
/* The page headers of every chunk of the compressed CPU data in layout. 0, or -1 with err. */
int rs_tracedat_check_zpages(int fd, const char *path, const struct rs_tracedat_layout *layout,
			     struct rs_error *err);

/*
 * Add n events of a name (system NULL in text traces), the first at first_ts and the last at
 * last_ts, to its count; an entry is made for a new name. Out of memory is warned about and
 * gives false: the caller stops counting.
 */
bool rs_source_count_add(struct rs_source *src, const char *system, const char *name,
			 uint64_t n, uint64_t first_ts, uint64_t last_ts);
void rs_source_counts_reset(struct rs_source *src);
/* Sort the counts by name once a full stream has finished. */
void rs_source_counts_finish(struct rs_source *src);

/* Set info.cpus and allocate the loss table. */
int rs_source_set_cpus(struct rs_source *src, int cpus, struct rs_error *err);
int rs_source_set_kernel(struct rs_source *src, const char *release);
int rs_source_set_host(struct rs_source *src, const char *host);

/*
 * Turn an ftrace:print text into the recorder's marker event when it is one (docs/markers.md);
 * otherwise ev stays RS_EV_MARKER. Strings live in the marker parser until its next call.
 */
void rs_markers_decode(struct rs_source *src, const char *text, struct rs_event *ev);

struct rs_markers *rs_markers_new(void);
void rs_markers_free(struct rs_markers *m);

#endif
