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

/*
 * Print one line of prose (a warning, a note) wrapped at spaces to 100 columns, counting UTF-8
 * characters, continuation lines indented; tables are made to fit instead.
 */
void rs_report_put_wrapped(FILE *f, const char *s, size_t len);

/* Write `root` as sorted, indented JSON plus a newline to stdout; steals the reference. */
int rs_report_json_dump(json_t *root);

/* Seconds from trace nanoseconds. */
static inline double rs_ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* A real number for JSON that is never NaN or infinite (those are not valid JSON). */
json_t *rs_json_real(double v);

#endif
