/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader every command shares: opens a trace (trace.dat through libtracecmd, or a text trace
 * as `trace-cmd report` or ftrace's `trace` file print it) and streams normalized events
 * (rs_event.h) in time order to a callback. Memory does not grow with the number of events.
 *
 * Lifetime: rs_source_open() -> rs_source_stream() (any number of times, e.g. for time ranges)
 * -> rs_source_close(). The info and warnings belong to the source.
 */
#ifndef TRACE_SOURCE_H
#define TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs_error.h"
#include "rs_event.h"

struct rs_source;
struct rs_warnings;

struct rs_source_opts {
	int threads;		/* trace.dat: CPUs to use (decode threads and the caller's,
				 * tracedat_parallel.c); 0 or 1: the calling thread only;
				 * -N (auto): up to N, decode threads from 3 CPUs for a
				 * trace big enough to gain by them (tracedat.c,
				 * stream_cpus()) */
	bool progress;		/* progress indicator on stderr (the caller checks it is a tty) */
	bool warm;		/* pay one-time lookup costs at open, not in the first stream
				 * that needs them (short range reads: the TUI) */
};

/*
 * Per-CPU loss, as the file says. Losses are the missed-events marks on ring-buffer pages, the
 * buffer statistics' overrun (events overwritten) and dropped events (rs_cpu_lost()).
 */
struct rs_cpu_loss {
	uint64_t missed;		/* sum of counted missed events in ring-buffer page headers */
	uint64_t missed_unknown;	/* pages that said "events lost" without a count */
	uint64_t overrun;		/* from the recorder's buffer stats, when present */
	uint64_t dropped;
	/*
	 * trace-cmd's `entries:` statistic: events still in the ring buffer when the statistics
	 * were taken. trace-cmd flushes them into the file afterwards: not a loss (NOTES §11).
	 */
	uint64_t buffered_at_stats;
};

/*
 * Events one CPU lost: the page marks report overruns as the reader met them, so they and the
 * overrun statistic count the same events (the larger is taken); drops are counted apart.
 */
uint64_t rs_cpu_lost(const struct rs_cpu_loss *l);

struct rs_trace_info {
	const char *path;
	const char *format;		/* "trace.dat v7 (zstd)", "trace.dat v6", "text" */
	const char *kernel;		/* release, from the file header or the recorder's marker */
	const char *host;		/* node name from the trace.dat header's uname; NULL unknown */
	int cpus;
	uint64_t first_ts, last_ts;	/* ns; set once a stream has run */
	uint64_t events;		/* records seen in the last full stream */
	const struct rs_cpu_loss *loss;	/* [cpus] */
	int mglru;			/* after a full stream: 1 MGLRU, 0 classic LRU, -1 cannot
					 * tell (lru_shape.c) */
	const char *mglru_how;		/* how that was told; NULL before a full stream */
	uint64_t isolates_empty;	/* lru_isolate that took no page (full stream) */
	bool eviction_untraced;		/* full stream: MGLRU reclaimed and emitted no isolate or
					 * shrink event (before 6.7): scan figures are unknown */
	bool formats_known;		/* trace.dat: the file lists its event formats */
	uint64_t format_types;		/* then: bit (1 << enum rs_ev_type) per type it has */
	/*
	 * Then also the names of the events it has formats for, sorted, ftrace's own left out:
	 * trace-cmd writes the formats of the events it enabled, so an event listed here and
	 * never recorded was traced and did not fire.
	 */
	const char *const *format_names;
	size_t nr_format_names;
	struct rs_warnings *warnings;
};

/* Called once per event, in time order. A non-zero return stops the stream with that value. */
typedef int (*rs_event_fn)(const struct rs_event *ev, void *ctx);

int rs_source_open(const char *path, const struct rs_source_opts *opts, struct rs_source **out,
		   struct rs_error *err);

/*
 * Stream the events with from_ns <= ts < to_ns (0 and UINT64_MAX: everything). Counts by event
 * name and first/last times are (re)computed for a full stream only. Returns 0, the callback's
 * non-zero value, or -1 with err set.
 */
int rs_source_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		     void *ctx, struct rs_error *err);

const struct rs_trace_info *rs_source_info(const struct rs_source *src);

/* Events by name as `trace-cmd report` prints them, after a full stream; sorted by name. */
struct rs_event_count {
	const char *system;		/* NULL for text traces */
	const char *name;
	uint64_t count;
	uint64_t first_ts, last_ts;
};
size_t rs_source_event_counts(const struct rs_source *src, const struct rs_event_count **out);

void rs_source_close(struct rs_source *src);

/* Backend interface (parsers/ internal): each backend implements these. */
struct rs_source_ops {
	int (*stream)(struct rs_source *src, uint64_t from_ns, uint64_t to_ns, rs_event_fn fn,
		      void *ctx, struct rs_error *err);
	void (*close)(struct rs_source *src);
};

#endif
