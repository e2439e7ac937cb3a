// SPDX-License-Identifier: GPL-2.0
/*
 * The SUMMARY that opens `analyze` (and is all of `analyze --summary`), and the JSON `summary`
 * object: the findings (findings.h) printed, one line per question, each naming the section of
 * the report that has the details. At most 100 columns. docs/analyze.md "Summary".
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyze_output.h"
#include "findings.h"
#include "report.h"

#define JI(v) json_integer((json_int_t)(v))
#define TEXT_W 68		/* the line's text; the section name follows at column 83 */

/* A duration at useful precision: 4 significant digits in us, ms or s. */
const char *rs_fmt_duration(char *buf, size_t n, uint64_t ns)
{
	double v = (double)ns;
	const char *unit = "us";

	if (ns >= 1000000000ull) {
		v /= 1e9;
		unit = "s";
	} else if (ns >= 1000000ull) {
		v /= 1e6;
		unit = "ms";
	} else {
		v /= 1e3;
	}
	snprintf(buf, n, "%.*f %s", v >= 100 ? 1 : v >= 10 ? 2 : 3, v, unit);
	return buf;
}

/* A percentage with one decimal, "-" when absent (NaN). */
static const char *pct1(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f%%", v);
	return buf;
}

static void line(FILE *f, const char *label, const char *section, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line(FILE *f, const char *label, const char *section, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (section)
		fprintf(f, "%-12s %-*s %s\n", label, TEXT_W, text, section);
	else
		fprintf(f, "%-12s %s\n", label, text);
}

static uint64_t prio_range(const struct rs_findings *fd, int hi, int lo)
{
	uint64_t s = 0;

	for (int p = lo; p <= hi; p++)
		s += fd->by_prio[p];
	return s;
}

void rs_findings_text(FILE *f, const struct rs_findings *fd, bool with_cgroups)
{
	uint64_t known = prio_range(fd, RS_PRIO_DEF, 0);
	char b[6][48];
	bool any = false;

	fprintf(f, "\nSUMMARY (the details are in the section named on the right)\n");
	if (fd->worst_valid)
		line(f, "worst stall", "RECLAIM EPISODES", "%s %s, %s pid %d, at %.6f s (+%.3f s)",
		     rs_fmt_duration(b[0], 48, fd->worst_ns), rs_reclaim_kind_name(fd->worst_kind),
		     fd->worst_comm, fd->worst_pid, (double)fd->worst_begin_ts / 1e9,
		     fd->worst_offset_s);
	else
		line(f, "worst stall", "RECLAIM EPISODES", "none: no complete episode outside "
		     "kswapd");
	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_findings_stall *s = &fd->stall[k];
		char what[24];

		if (!s->count && !s->incomplete)
			continue;
		any = true;
		snprintf(what, sizeof(what), "%s", rs_reclaim_kind_name(k));
		line(f, what, "RECLAIM EPISODES", "%" PRIu64 " episode%s, %s in all, p99 %s%s, max %s%s",
		     s->count, s->count == 1 ? "" : "s", rs_fmt_duration(b[0], 48, s->total_ns),
		     s->approximate ? "~" : "",
		     s->count ? rs_fmt_duration(b[1], 48, s->p99_ns) : "-",
		     s->count ? rs_fmt_duration(b[2], 48, s->max_ns) : "-",
		     s->incomplete ? ", +incomplete" : "");
	}
	if (!any)
		line(f, "episodes", "RECLAIM EPISODES", "no direct, memcg, soft-limit or node reclaim");
	if (fd->kswapds) {
		char fail[32], of[64];

		if (fd->reclaim_fail < 0)
			snprintf(fail, sizeof(fail), "-");
		else
			snprintf(fail, sizeof(fail), "%" PRId64 " (hopeless %" PRId64 ")",
				 fd->reclaim_fail, fd->hopeless);
		/*
		 * Several kswapds (one a node): the share is of their time together, which a
		 * bare "of 73.527 s" on a 36.764 s trace hid; the line keeps to its width
		 */
		if (fd->kswapds > 1)
			snprintf(of, sizeof(of), "%d kswapds x %.3f s", fd->kswapds, fd->span_s);
		else
			snprintf(of, sizeof(of), "%.3f s", fd->span_s);
		line(f, "kswapd", "KSWAPD", "awake %s of %s: %.3f s, %.3f s %s the edges",
		     pct1(b[0], 48, fd->awake_pct), of,
		     (double)(fd->awake_ns + fd->awake_cut_ns) / 1e9,
		     (double)fd->awake_cut_ns / 1e9, fd->kswapds > 1 ? "at" : "of it cut at");
		line(f, "", NULL, "%" PRIu64 " wakes, %" PRIu64 " sleeps, %" PRIu64 " re-wakes; "
		     "reclaim failures %s", fd->wakes, fd->sleeps, fd->rewakes, fail);
	} else {
		line(f, "kswapd", "KSWAPD", "no kswapd activity");
	}
	if (fd->eviction_untraced) {
		if (fd->mglru > 0)
			line(f, "eviction", "EVICTION BY TYPE", "not traced: this kernel's MGLRU "
			     "emits no lru_isolate/shrink_inactive");
		else
			line(f, "eviction", "EVICTION", "not in the trace: reclaim ran, no "
			     "lru_isolate/shrink_inactive");
		goto cgroups;
	}
	line(f, "anon pages", "LRU SCAN PRESSURE", "scanned %" PRIu64 " (%s; active %" PRIu64 "), "
	     "reclaimed %" PRIu64 ", eff. %s", fd->scanned_anon, pct1(b[0], 48, fd->anon_pct),
	     fd->scanned[RS_LRU_ACTIVE_ANON], fd->reclaimed_anon,
	     pct1(b[1], 48, fd->efficiency_anon_pct));
	line(f, "file pages", "LRU SCAN PRESSURE", "scanned %" PRIu64 " (%s; active %" PRIu64 "), "
	     "reclaimed %" PRIu64 ", eff. %s", fd->scanned_file,
	     pct1(b[0], 48, isnan(fd->anon_pct) ? NAN : 100.0 - fd->anon_pct),
	     fd->scanned[RS_LRU_ACTIVE_FILE], fd->reclaimed_file,
	     pct1(b[1], 48, fd->efficiency_file_pct));
	line(f, "efficiency", "SCAN BALANCE", "%s: %" PRIu64 " pages reclaimed of %" PRIu64
	     " inactive scanned", pct1(b[0], 48, fd->efficiency_pct),
	     fd->reclaimed_anon + fd->reclaimed_file, fd->scanned_inactive);
	if (known)
		line(f, "priority", "PRIORITY", "mean %.1f; at 12: %s, 11-7: %s, 6-1: %s, 0: %s",
		     fd->prio_mean, pct1(b[0], 48, rs_pct(fd->by_prio[12], known)),
		     pct1(b[1], 48, rs_pct(prio_range(fd, 11, 7), known)),
		     pct1(b[2], 48, rs_pct(prio_range(fd, 6, 1), known)),
		     pct1(b[3], 48, rs_pct(fd->by_prio[0], known)));
	line(f, "IO", "INACTIVE LISTS", "swap-out %" PRIu64 ", file %" PRIu64 " folios (%" PRIu64
	     " sync); %" PRIu64 " dirty, %" PRIu64 " writeback", fd->swap_out, fd->file_written,
	     fd->write_sync, fd->dirty, fd->writeback);
	/* zswap takes swap-out in memory: write_folio cannot tell it from the device's */
	if (fd->zswpout > 0)
		line(f, "swap-out to", with_cgroups ? "VICTIM SIDE" : "cmd: cgroups", "zswap %" PRId64 " pages (zswpout), swap "
		     "device %" PRId64 " (pswpout)", fd->zswpout, fd->pswpout);
cgroups:
	if (fd->paid_most.valid && fd->paid_unknown)
		line(f, "paid most", with_cgroups ? "VICTIM SIDE" : "cmd: cgroups", "%.40s: %" PRIu64
		     " pages; %" PRIu64 " of no known cgroup", fd->paid_most.name,
		     fd->paid_most.pages, fd->paid_unknown);
	else if (fd->paid_most.valid)
		line(f, "paid most", with_cgroups ? "VICTIM SIDE" : "cmd: cgroups", "%.40s: %" PRIu64
		     " pages reclaimed from its LRUs", fd->paid_most.name, fd->paid_most.pages);
	else if (fd->paid_unknown)
		line(f, "paid most", with_cgroups ? "VICTIM SIDE" : "cmd: cgroups", "-: %" PRIu64
		     " pages reclaimed, of no known cgroup", fd->paid_unknown);
	if (fd->caused_most.valid)
		line(f, "caused most", with_cgroups ? "TRIGGER SIDE" : "cmd: cgroups", "%.40s: %"
		     PRIu64 " pages reclaimed by its tasks", fd->caused_most.name,
		     fd->caused_most.pages);
	if (fd->refaults.set && !fd->refaults.recorded)
		line(f, "refaults", "REFAULTS", "-: no filemap events in the trace");
	else if (fd->refaults.set)
		line(f, "refaults", "REFAULTS", "%" PRIu64 "%s of %" PRIu64 " evicted pages back (%s), "
		     "%s in 1 s", fd->refaults.refaulted_pages,
		     fd->refaults.lower_bound ? "+" : "", fd->refaults.evicted_pages,
		     pct1(b[0], 48, fd->refaults.evicted_pages ? rs_pct(fd->refaults.refaulted_pages,
		     fd->refaults.evicted_pages) : NAN),
		     pct1(b[1], 48, fd->refaults.observable_1s_pages ?
			  rs_pct(fd->refaults.within_1s_pages, fd->refaults.observable_1s_pages) :
			  NAN));
	if (fd->refaults.set && fd->refaults.thrash_name[0])
		line(f, "thrashing", "REFAULTS", "%.40s: %.2f s of quick refaults (the most)",
		     fd->refaults.thrash_name, fd->refaults.thrash_s);
	if (fd->lost_records || fd->lost_unknown)
		snprintf(b[4], 48, "%" PRIu64 " events lost%s", fd->lost_events,
			 fd->lost_unknown ? " (+uncounted)" : "");
	else
		snprintf(b[4], 48, "no events lost");
	line(f, "losses", "ATTRIBUTION", "%s; %" PRIu64 " episodes incomplete, %" PRIu64
	     " broken; %" PRIu64 " warning%s", b[4], fd->incomplete, fd->broken, fd->warnings,
	     fd->warnings == 1 ? "" : "s");
}

static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : rs_json_real(v);
}

json_t *rs_findings_json(const struct rs_findings *fd)
{
	json_t *o = json_object(), *stalls = json_object(), *scanned = json_object();
	json_t *share = json_object(), *w;
	uint64_t known = prio_range(fd, RS_PRIO_DEF, 0);
	char key[16];

	if (!o || !stalls || !scanned || !share)
		goto oom;
	if (fd->worst_valid)
		w = json_pack("{s:s,s:I,s:s,s:I,s:f,s:f}", "kind",
			      rs_reclaim_kind_name(fd->worst_kind), "pid", (json_int_t)fd->worst_pid,
			      "comm", fd->worst_comm, "latency_us", (json_int_t)rs_ns_to_us(fd->worst_ns),
			      "begin_s", rs_ns_to_s(fd->worst_begin_ts), "offset_s", fd->worst_offset_s);
	else
		w = json_null();
	json_object_set_new(o, "worst_stall", w);
	for (int k = 0; k < RS_RK_NR; k++) {
		const struct rs_findings_stall *s = &fd->stall[k];

		json_object_set_new(stalls, rs_reclaim_kind_name(k), json_pack(
			"{s:I,s:I,s:o,s:o,s:b,s:I}", "count", (json_int_t)s->count,
			"total_us", (json_int_t)rs_ns_to_us(s->total_ns),
			"p99_us", s->count ? JI(rs_ns_to_us(s->p99_ns)) : json_null(),
			"max_us", s->count ? JI(rs_ns_to_us(s->max_ns)) : json_null(),
			"approximate", s->approximate, "incomplete", (json_int_t)s->incomplete));
	}
	json_object_set_new(o, "stalls", stalls);
	json_object_set_new(o, "kswapd", json_pack(
		"{s:i,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:o,s:o,s:I,s:I}", "instances", fd->kswapds,
		"awake_s", rs_json_real(rs_ns_to_s(fd->awake_ns)),
		"awake_cut_s", rs_json_real(rs_ns_to_s(fd->awake_cut_ns)),
		"awake_total_s", rs_json_real(rs_ns_to_s(fd->awake_ns + fd->awake_cut_ns)),
		"awake_pct", real_or_null(fd->awake_pct), "wakes", (json_int_t)fd->wakes,
		"rewakes", (json_int_t)fd->rewakes, "sleeps", (json_int_t)fd->sleeps,
		"unmatched_sleeps", (json_int_t)fd->unmatched_sleeps,
		"reclaim_fail", fd->reclaim_fail < 0 ? json_null() : JI(fd->reclaim_fail),
		"hopeless", fd->hopeless < 0 ? json_null() : JI(fd->hopeless),
		"scanned", (json_int_t)fd->kswapd_scanned,
		"reclaimed", (json_int_t)fd->kswapd_reclaimed));
	for (int l = 0; l < RS_LRU_NR; l++)
		if (l != RS_LRU_UNEVICTABLE)
			json_object_set_new(scanned, rs_lru_name(l), JI(fd->scanned[l]));
	json_object_set_new(o, "scan", json_pack(
		"{s:o,s:I,s:I,s:I,s:o,s:I,s:I,s:I,s:o,s:o,s:o}", "scanned", scanned,
		"scanned_anon", (json_int_t)fd->scanned_anon,
		"scanned_file", (json_int_t)fd->scanned_file,
		"scanned_inactive", (json_int_t)fd->scanned_inactive,
		"anon_pct", real_or_null(fd->anon_pct),
		"reclaimed", (json_int_t)(fd->reclaimed_anon + fd->reclaimed_file),
		"reclaimed_anon", (json_int_t)fd->reclaimed_anon,
		"reclaimed_file", (json_int_t)fd->reclaimed_file,
		"efficiency_pct", real_or_null(fd->efficiency_pct),
		"efficiency_anon_pct", real_or_null(fd->efficiency_anon_pct),
		"efficiency_file_pct", real_or_null(fd->efficiency_file_pct)));
	if (fd->eviction_untraced)	/* MGLRU before 6.7: unknown, not 0 */
		json_object_set_new(o, "scan", json_null());
	for (int p = 0; p <= RS_PRIO_DEF; p++) {
		snprintf(key, sizeof(key), "%d", p);
		json_object_set_new(share, key, known ? rs_json_real(rs_pct(fd->by_prio[p], known)) :
				    json_null());
	}
	json_object_set_new(o, "priority", json_pack("{s:o,s:o,s:I}", "mean",
		real_or_null(fd->prio_mean), "share_pct", share,
		"unknown_scanned", (json_int_t)fd->by_prio[RS_PRIO_UNKNOWN]));
	json_object_set_new(o, "io", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"swap_out_folios", (json_int_t)fd->swap_out,
		"file_written_folios", (json_int_t)fd->file_written,
		"write_sync_folios", (json_int_t)fd->write_sync,
		"write_async_folios", (json_int_t)fd->write_async,
		"dirty_pages", (json_int_t)fd->dirty, "writeback_pages", (json_int_t)fd->writeback,
		"immediate_pages", (json_int_t)fd->immediate));
	json_object_set_new(json_object_get(o, "io"), "zswpout_pages",
			    fd->zswpout < 0 ? json_null() : json_integer(fd->zswpout));
	json_object_set_new(json_object_get(o, "io"), "pswpout_pages",
			    fd->pswpout < 0 ? json_null() : json_integer(fd->pswpout));
	if (fd->eviction_untraced) {
		/* lru_shrink_inactive's counts and kswapd's pages: not traced, not 0 (diff then
		   leaves them out instead of showing a fall to 0) */
		json_t *io = json_object_get(o, "io"), *k = json_object_get(o, "kswapd");

		json_object_set_new(io, "dirty_pages", json_null());
		json_object_set_new(io, "writeback_pages", json_null());
		json_object_set_new(io, "immediate_pages", json_null());
		json_object_set_new(k, "scanned", json_null());
		json_object_set_new(k, "reclaimed", json_null());
	}
	json_object_set_new(o, "cgroups", json_pack("{s:o,s:o,s:I}",
		"paid_most", fd->paid_most.valid ? json_pack("{s:s,s:I,s:I}", "path",
			fd->paid_most.name, "reclaimed", (json_int_t)fd->paid_most.pages,
			"scanned", (json_int_t)fd->paid_most.scanned) : json_null(),
		"caused_most", fd->caused_most.valid ? json_pack("{s:s,s:I,s:I}", "path",
			fd->caused_most.name, "reclaimed", (json_int_t)fd->caused_most.pages,
			"scanned", (json_int_t)fd->caused_most.scanned) : json_null(),
		"unattributed_reclaimed", (json_int_t)fd->paid_unknown));
	if (fd->refaults.set && fd->refaults.recorded) {
		json_t *r = json_object();

		json_object_set_new(r, "evicted_pages", JI(fd->refaults.evicted_pages));
		json_object_set_new(r, "refaulted_pages", JI(fd->refaults.refaulted_pages));
		json_object_set_new(r, "refaulted_folios", JI(fd->refaults.refaulted_folios));
		json_object_set_new(r, "refaulted_pct", real_or_null(fd->refaults.evicted_pages ?
			rs_pct(fd->refaults.refaulted_pages, fd->refaults.evicted_pages) : NAN));
		json_object_set_new(r, "within_1s_pct", real_or_null(
			fd->refaults.observable_1s_pages ? rs_pct(fd->refaults.within_1s_pages,
			fd->refaults.observable_1s_pages) : NAN));
		json_object_set_new(r, "lower_bound", json_boolean(fd->refaults.lower_bound));
		json_object_set_new(r, "swapin_pages", fd->refaults.swapins_known ?
				    JI(fd->refaults.swapin_pages) : json_null());
		json_object_set_new(r, "thrashing_most", fd->refaults.thrash_name[0] ?
				    json_string(fd->refaults.thrash_name) : json_null());
		json_object_set_new(r, "thrashing_s", rs_json_real(fd->refaults.thrash_s));
		json_object_set_new(o, "refaults", r);
	} else {
		json_object_set_new(o, "refaults", json_null());
	}
	json_object_set_new(o, "losses", json_pack("{s:I,s:I,s:b,s:I,s:I,s:I}",
		"lost_events", (json_int_t)fd->lost_events,
		"lost_records", (json_int_t)fd->lost_records, "lost_uncounted", fd->lost_unknown,
		"incomplete_episodes", (json_int_t)fd->incomplete,
		"broken_episodes", (json_int_t)fd->broken, "warnings", (json_int_t)fd->warnings));
	json_object_set_new(o, "span_s", rs_json_real(fd->span_s));
	return o;
oom:
	json_decref(o);
	json_decref(stalls);
	json_decref(scanned);
	json_decref(share);
	return NULL;
}
