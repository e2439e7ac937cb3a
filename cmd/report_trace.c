// SPDX-License-Identifier: GPL-2.0
/* The `trace` section: what file, which kernel, which events, what was lost, what we warn of. */
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "report.h"
#include "rs_warn.h"
#include "text_escape.h"
#include "trace_source.h"

json_t *rs_json_real(double v)
{
	return json_real(isfinite(v) ? v : 0.0);
}

void rs_json_add_u64(json_t *o, const void *base, const struct rs_json_u64 *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const uint64_t *v = (const uint64_t *)((const char *)base + f[i].off);

		json_object_set_new(o, f[i].name, json_integer((json_int_t)*v));
	}
}

static uint64_t total_missed(const struct rs_trace_info *ti)
{
	uint64_t sum = 0;

	for (int c = 0; c < ti->cpus; c++)
		sum += rs_cpu_lost(&ti->loss[c]);
	return sum;
}

json_t *rs_report_trace_json(const struct rs_source *src)
{
	const struct rs_trace_info *ti = rs_source_info(src);
	const struct rs_event_count *counts;
	size_t n = rs_source_event_counts(src, &counts);
	json_t *t = json_object(), *by_name = json_object(), *times = json_object();
	json_t *loss = json_array(), *warn = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *old = json_object_get(by_name, counts[i].name);
		json_int_t prev = old ? json_integer_value(old) : 0;

		json_object_set_new(by_name, counts[i].name,
				    json_integer(prev + (json_int_t)counts[i].count));
		json_object_set_new(times, counts[i].name,
				    json_pack("{s:o,s:o}",
					      "first_s", rs_json_real(rs_ns_to_s(counts[i].first_ts)),
					      "last_s", rs_json_real(rs_ns_to_s(counts[i].last_ts))));
	}
	for (int c = 0; c < ti->cpus; c++)
		json_array_append_new(loss, json_pack("{s:i,s:I,s:I,s:I,s:I,s:I,s:I}", "cpu", c,
			"lost", (json_int_t)rs_cpu_lost(&ti->loss[c]),
			"buffered_at_stats", (json_int_t)ti->loss[c].buffered_at_stats,
			"missed", (json_int_t)ti->loss[c].missed,
			"missed_unknown", (json_int_t)ti->loss[c].missed_unknown,
			"overrun", (json_int_t)ti->loss[c].overrun,
			"dropped", (json_int_t)ti->loss[c].dropped));
	for (size_t i = 0; i < rs_warnings_count(ti->warnings); i++) {
		unsigned long times_seen;
		const char *w = rs_warnings_get(ti->warnings, i, &times_seen);

		json_array_append_new(warn, times_seen > 1 ?
			json_sprintf("%s (%lu times)", w, times_seen) : json_string(w));
	}
	json_object_set_new(t, "path", json_string(ti->path));
	json_object_set_new(t, "format", json_string(ti->format ? ti->format : "unknown"));
	json_object_set_new(t, "kernel", json_string(ti->kernel ? ti->kernel : "unknown"));
	json_object_set_new(t, "cpus", json_integer(ti->cpus));
	json_object_set_new(t, "events", json_integer((json_int_t)ti->events));
	json_object_set_new(t, "events_by_name", by_name);
	json_object_set_new(t, "event_times", times);
	if (ti->formats_known) {
		json_t *fmts = json_array();

		for (size_t i = 0; i < ti->nr_format_names; i++)
			json_array_append_new(fmts, json_string(ti->format_names[i]));
		json_object_set_new(t, "event_formats", fmts);
	}
	json_object_set_new(t, "first_s", rs_json_real(rs_ns_to_s(ti->first_ts)));
	json_object_set_new(t, "last_s", rs_json_real(rs_ns_to_s(ti->last_ts)));
	json_object_set_new(t, "duration_s",
			    rs_json_real(rs_ns_to_s(ti->last_ts - ti->first_ts)));
	json_object_set_new(t, "missed_events", json_integer((json_int_t)total_missed(ti)));
	json_object_set_new(t, "missed_by_cpu", loss);
	json_object_set_new(t, "warnings", warn);
	json_object_set_new(t, "mglru", ti->mglru < 0 ? json_null() : json_boolean(ti->mglru));
	json_object_set_new(t, "eviction_traced", json_boolean(!ti->eviction_untraced));
	json_object_set_new(t, "mglru_evidence",
			    ti->mglru_how ? json_string(ti->mglru_how) : json_null());
	return t;
}

/* " cpu1 120 (overrun 120, marks 118)": one CPU's loss and its kinds, when it lost any. */
static void put_cpu_loss(FILE *f, int c, const struct rs_cpu_loss *l)
{
	const char *sep = " (";

	if (!rs_cpu_lost(l))
		return;
	fprintf(f, " cpu%d %llu", c, (unsigned long long)rs_cpu_lost(l));
	if (l->missed) {
		fprintf(f, "%smissed-events marks %llu", sep, (unsigned long long)l->missed);
		sep = ", ";
	}
	if (l->overrun) {
		fprintf(f, "%soverrun %llu", sep, (unsigned long long)l->overrun);
		sep = ", ";
	}
	if (l->dropped)
		fprintf(f, "%sdropped %llu", sep, (unsigned long long)l->dropped);
	fputc(')', f);
}

/* The first two lines of a report's head: the file, its format and kernel. */
static void put_trace_lines(FILE *f, const struct rs_trace_info *ti)
{
	fprintf(f, "trace     %s\n", rs_esc(ti->path));
	fprintf(f, "format    %s, kernel %s, %d CPUs\n", ti->format ? ti->format : "unknown",
		rs_esc(ti->kernel ? ti->kernel : "unknown"), ti->cpus);
}

/* MGLRU or the classic LRU, and what told (after a full stream only). */
static void put_lru_line(FILE *f, const struct rs_trace_info *ti)
{
	char line[700];
	int n;

	if (!ti->mglru_how)
		return;
	fprintf(f, "lru       %s\n", ti->mglru > 0 ?
		"MGLRU (multi-gen LRU: generations, no active lists)" : ti->mglru == 0 ?
		"classic LRU (active and inactive lists)" : "unknown: MGLRU or classic LRU");
	n = snprintf(line, sizeof(line), "  told by: %s", ti->mglru_how);
	rs_report_put_wrapped(f, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/* The loader's warnings, one line each, after a blank line when `gap`. */
static void put_warnings(FILE *f, const struct rs_trace_info *ti, bool gap)
{
	for (size_t i = 0; i < rs_warnings_count(ti->warnings); i++) {
		unsigned long times_seen;
		const char *w = rs_warnings_get(ti->warnings, i, &times_seen);

		if (i == 0 && gap)
			fprintf(f, "\n");
		if (times_seen > 1)
			fprintf(f, "warning: %s (%lu times)\n", rs_esc(w), times_seen);
		else
			fprintf(f, "warning: %s\n", rs_esc(w));
	}
}

void rs_report_range_text(FILE *f, const struct rs_source *src)
{
	const struct rs_trace_info *ti = rs_source_info(src);

	put_trace_lines(f, ti);
	fprintf(f, "span      %.6f s .. %.6f s (%.3f s); only the range below was read, so "
		"event counts and losses of the whole trace are not shown (reclaimscope events "
		"has them)\n",
		rs_ns_to_s(ti->first_ts), rs_ns_to_s(ti->last_ts),
		rs_ns_to_s(ti->last_ts - ti->first_ts));
	put_warnings(f, ti, false);
}

/*
 * The events the file has formats for (trace-cmd wrote those of the events it traced) and no
 * record of: traced, and none fired, which the table cannot show.
 */
static void put_quiet_events(FILE *f, const struct rs_trace_info *ti,
			     const struct rs_event_count *counts, size_t n)
{
	char *buf = NULL;
	size_t len = 0, quiet = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	for (size_t i = 0; i < ti->nr_format_names; i++) {
		size_t j = 0;

		while (j < n && strcmp(counts[j].name, ti->format_names[i]))
			j++;
		if (j < n)
			continue;
		fprintf(m, "%s%s", quiet++ ? ", " : "traced, none fired: ",
			rs_esc(ti->format_names[i]));
	}
	if (fclose(m) == 0 && quiet) {
		fputc('\n', f);
		rs_report_put_wrapped(f, buf, len);
	}
	free(buf);
}

void rs_report_trace_text(FILE *f, const struct rs_source *src, int per_event)
{
	const struct rs_trace_info *ti = rs_source_info(src);
	const struct rs_event_count *counts;
	size_t n = rs_source_event_counts(src, &counts);
	uint64_t missed = total_missed(ti);

	put_trace_lines(f, ti);
	fprintf(f, "span      %.6f s .. %.6f s (%.3f s), %llu events\n",
		rs_ns_to_s(ti->first_ts), rs_ns_to_s(ti->last_ts),
		rs_ns_to_s(ti->last_ts - ti->first_ts), (unsigned long long)ti->events);
	put_lru_line(f, ti);
	if (missed) {
		fprintf(f, "LOST      %llu events lost:", (unsigned long long)missed);
		for (int c = 0; c < ti->cpus; c++)
			put_cpu_loss(f, c, &ti->loss[c]);
		fprintf(f, " (figures below undercount)\n");
	}
	for (int c = 0; c < ti->cpus; c++)
		if (ti->loss[c].missed_unknown)
			fprintf(f, "LOST      cpu%d: %llu ring-buffer pages lost events (count "
				"unknown)\n", c, (unsigned long long)ti->loss[c].missed_unknown);
	if (per_event && n) {
		fprintf(f, "\n%-44s %12s %16s %16s\n", "event", "count", "first (s)", "last (s)");
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%-44s %12llu %16.6f %16.6f\n", rs_esc(counts[i].name),
				(unsigned long long)counts[i].count, rs_ns_to_s(counts[i].first_ts),
				rs_ns_to_s(counts[i].last_ts));
	}
	if (per_event)
		put_quiet_events(f, ti, counts, n);
	put_warnings(f, ti, true);
}

static bool json_alloc_failed;
static long json_alloc_budget = -1;	/* RS_TEST_JSON_ALLOCS: fail after that many (tests) */

static void *json_watch_malloc(size_t n)
{
	void *p = json_alloc_budget == 0 ? NULL : malloc(n);

	if (json_alloc_budget > 0)
		json_alloc_budget--;
	if (!p)
		json_alloc_failed = true;
	return p;
}

void rs_report_json_watch(void)
{
	const char *t = getenv("RS_TEST_JSON_ALLOCS");

	if (t && *t)
		json_alloc_budget = strtol(t, NULL, 10);
	json_set_alloc_funcs(json_watch_malloc, free);
}

int rs_report_json_dump(json_t *root)
{
	int ret;

	if (!root || json_alloc_failed) {
		json_decref(root);
		fprintf(stderr, "reclaimscope: out of memory while building the JSON: nothing "
			"printed rather than a document with members missing\n");
		return -1;
	}
	ret = json_dumpf(root, stdout, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (ret == 0)
		fputc('\n', stdout);
	/* a failed write is reported by rs_cmd_finish_stdout(), which knows a closed pipe */
	if (ret != 0 && ferror(stdout))
		return 0;
	return ret;
}

#define TEXT_COLS 100
#define WRAP_INDENT "    "

/* Characters (not bytes) of s[0..n): UTF-8 continuation bytes do not count. */
static size_t chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Byte length of the longest prefix of s (len bytes) with at most `cols` characters. */
static size_t prefix_bytes(const char *s, size_t len, size_t cols)
{
	size_t i = 0, c = 0;

	while (i < len) {
		size_t j = i + 1;

		while (j < len && ((unsigned char)s[j] & 0xc0) == 0x80)
			j++;
		if (++c > cols)
			break;
		i = j;
	}
	return i;
}

/* Print one line, wrapped at spaces to TEXT_COLS (prose lines; tables are made to fit). */
void rs_report_put_wrapped(FILE *f, const char *s, size_t len)
{
	size_t cols = TEXT_COLS;

	while (chars(s, len) > cols) {
		size_t cut = prefix_bytes(s, len, cols), brk = cut;

		while (brk > 0 && s[brk] != ' ')
			brk--;
		if (brk == 0)
			brk = cut;	/* one long word (a path): hard break */
		rs_escape_write(f, s, brk);
		fputc('\n', f);
		while (brk < len && s[brk] == ' ')
			brk++;
		s += brk;
		len -= brk;
		fputs(WRAP_INDENT, f);
		cols = TEXT_COLS - strlen(WRAP_INDENT);
	}
	rs_escape_write(f, s, len);
	fputc('\n', f);
}

void rs_report_put_wrapped_lines(FILE *f, const char *buf, size_t len)
{
	for (const char *p = buf, *nl; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (!nl)
			nl = buf + len;
		rs_report_put_wrapped(f, p, (size_t)(nl - p));
	}
}
