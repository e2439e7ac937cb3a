/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output helpers shared by the commands: the `trace` section every command prints (text and
 * JSON), JSON writing, and number formatting. They only read results.
 */
#ifndef RS_REPORT_H
#define RS_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct rs_source;

/* The `trace` object: path, format, kernel, cpus, events, events_by_name, duration_s, ... */
json_t *rs_report_trace_json(const struct rs_source *src);
/* The same as text, for the head of a report; `per_event` adds the per-event table. */
void rs_report_trace_text(FILE *f, const struct rs_source *src, int per_event);
/* The head of a report on a time range: path, format, span and warnings, no counts. */
void rs_report_range_text(FILE *f, const struct rs_source *src);

/*
 * Print one line of prose (a warning, a note) wrapped at spaces to 100 columns, counting UTF-8
 * characters, continuation lines indented; tables are made to fit instead.
 */
void rs_report_put_wrapped(FILE *f, const char *s, size_t len);
/* Every line of buf (a report written to memory first) through rs_report_put_wrapped(). */
void rs_report_put_wrapped_lines(FILE *f, const char *buf, size_t len);

/*
 * Write `root` as sorted, indented JSON plus a newline to stdout; steals the reference. Fails
 * (-1, nothing written) when root is NULL or when any allocation by jansson failed since
 * rs_report_json_watch(): builders that ignore a failed json_object_set_new() would otherwise
 * print a document with members silently missing, and exit 0.
 */
int rs_report_json_dump(json_t *root);
/* Route jansson's allocations through a wrapper that remembers a failure (once, in main). */
void rs_report_json_watch(void);

/* Seconds from trace nanoseconds. */
static inline double rs_ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* A real number for JSON that is never NaN or infinite (those are not valid JSON). */
json_t *rs_json_real(double v);

/*
 * The uint64_t counters of a struct as JSON integers, by a table of names and offsets: one
 * emitter for the reports that are flat counter sets. RS_JSON_U64() does not build when the
 * member is not a uint64_t.
 */
struct rs_json_u64 {
	const char *name;
	size_t off;
};

#define RS_JSON_U64(type, key, member)						\
	{ key, offsetof(type, member) + sizeof(struct {				\
		int : -!__builtin_types_compatible_p(__typeof__(((type *)0)->member),	\
						      uint64_t); }) }

/* Sets f[0..n)'s counters of the struct at base in the object o. */
void rs_json_add_u64(json_t *o, const void *base, const struct rs_json_u64 *f, size_t n);
/* The same for a whole table (an array, not a pointer). */
#define RS_JSON_ADD_U64(o, base, table)						\
	rs_json_add_u64(o, base, table, sizeof(table) / sizeof((table)[0]))

/* Microseconds, rounded to the nearest, from exact nanoseconds (the `_us` members). */
static inline json_int_t rs_ns_to_us(uint64_t ns)
{
	return (json_int_t)((ns + 500) / 1000);
}

/* part / whole in percent; 0 when whole is 0. */
static inline double rs_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

struct rs_latency_summary;

/* A latency summary: min, max, total, mean and percentiles (`latency_us` in docs/json.md). */
json_t *rs_latency_json(const struct rs_latency_summary *l);
/* Its MMTests buckets ("0-1", "1-3", ..., "N+" ms: `latency_ms_buckets`). */
json_t *rs_mmtests_json(const struct rs_latency_summary *l);

#endif
