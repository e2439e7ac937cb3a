// SPDX-License-Identifier: GPL-2.0
/*
 * The plot's panels (plot_draw.h): each reads finished results of every trace and draws one
 * figure; with two or more traces the traces share the axes and differ by line style or marker.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "episode_log.h"
#include "plot_axes.h"
#include "plot_draw.h"
#include "rs_grow.h"
#include "series.h"

#define MARGIN_L	96.0		/* room for the y tick labels and the y axis label */
#define MARGIN_R	24.0
#define TITLE_H		34.0		/* panel title line above the frames */
#define FRAME_H		240.0
#define AXIS_H		46.0		/* x tick labels and x axis label below a frame */
#define PANEL_GAP	18.0
#define WORST_MARKED	5		/* longest stalls labelled per trace */
#define CDF_POINTS	512		/* quantiles drawn per latency distribution */
#define TOP_CGROUPS	7		/* cgroups with their own colour; the rest is "other" */
#define KSWAPD_ROW_H	30.0

struct panel {
	const char *name;		/* --what value */
	const char *title;
	double (*height)(cairo_t *cr, const struct plot_trace *t, int n);
	void (*draw)(cairo_t *cr, double y, const struct plot_trace *t, int n);
};

/* ---- reading helpers: where a trace's time starts, bucket rates ---- */

static uint64_t trace_t0(const struct plot_trace *t)
{
	return rs_series_buckets(rs_analysis_series(t->a)).t0;
}

/* Seconds from the trace's first bucket to its last analysed event. */
static double trace_span_s(const struct plot_trace *t)
{
	uint64_t t0 = trace_t0(t), last = rs_analysis_last_ts(t->a);

	return last > t0 ? (double)(last - t0) / 1e9 : 0;
}

static double max_span_s(const struct plot_trace *t, int n)
{
	double m = 0;

	for (int i = 0; i < n; i++)
		if (trace_span_s(&t[i]) > m)
			m = trace_span_s(&t[i]);
	return m > 0 ? m : 1e-3;
}

static struct plot_axis time_axis(const struct plot_trace *t, int n)
{
	struct plot_axis a = { .lo = 0, .hi = max_span_s(t, n), .unit = PLOT_UNIT_SECONDS,
			       .label = n > 1 ? "time since each trace's start (s)" :
					"time since the trace's start (s)" };

	plot_axis_nice(&a);
	return a;
}

static const char *kind_name(int kind)
{
	return rs_ctx_name(kind);
}

/* Colours of the reclaim contexts, the same in every panel. */
static int kind_color(int kind)
{
	switch (kind) {
	case RS_CTX_DIRECT:
		return 1;
	case RS_CTX_MEMCG:
		return 0;
	case RS_CTX_SOFTLIMIT:
		return 4;
	case RS_CTX_NODE:
		return 2;
	case RS_CTX_KSWAPD:
		return 3;
	default:
		return 6;
	}
}

static void panel_title(cairo_t *cr, double y, const char *title)
{
	cairo_set_source_rgb(cr, 0, 0, 0);
	plot_text(cr, MARGIN_L - 60, y + 20, PLOT_FONT_SIZE + 2, true, 0, title);
}

/* Legend entries telling the traces apart (only with two or more). */
static int trace_entries(const struct plot_trace *t, int n, bool markers,
			 struct plot_legend_entry *e)
{
	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++) {
		e[i].sample = markers ? PLOT_SAMPLE_DOT : PLOT_SAMPLE_LINE;
		e[i].color = -1;
		e[i].dash = i;
		e[i].marker = i;
		snprintf(e[i].text, sizeof(e[i].text), "%s", t[i].label);
	}
	return n;
}

/* ---- scan and reclaim per list over time ---- */

struct series_def {
	int metric;			/* enum rs_ts_metric */
	const char *name;
	int color;
};

static const struct series_def scan_series[] = {
	{ RS_TS_SCANNED_IA, "inactive_anon", 0 },
	{ RS_TS_SCANNED_AA, "active_anon", 5 },
	{ RS_TS_SCANNED_IF, "inactive_file", 1 },
	{ RS_TS_SCANNED_AF, "active_file", 3 },
}, mglru_scan_series[] = {
	/* what MGLRU's lru_isolate calls inactive is the oldest generation of the type */
	{ RS_TS_SCANNED_IA, "anon", 0 },
	{ RS_TS_SCANNED_IF, "file", 1 },
}, reclaim_series[] = {
	{ RS_TS_RECLAIMED_ANON, "anon (inactive_anon)", 0 },
	{ RS_TS_RECLAIMED_FILE, "file (inactive_file)", 1 },
};

/*
 * Bucket counts v[bk.len] (the scan panel's series, the refault panel's): the larger of peak
 * and their largest rate per second.
 */
static double rate_peak(double peak, const uint64_t *v, struct rs_buckets bk)
{
	double w = (double)bk.width / 1e9;

	for (size_t b = 0; v && w > 0 && b < bk.len; b++)
		if (v[b] / w > peak)
			peak = v[b] / w;
	return peak;
}

/* The same counts as a line of rates through the bucket midpoints, bucket 0 at off seconds. */
static void rate_line(cairo_t *cr, const struct plot_frame *f, const uint64_t *v,
		      struct rs_buckets bk, double off)
{
	double w = (double)bk.width / 1e9;

	if (!v || !(w > 0))
		return;
	for (size_t b = 0; b < bk.len; b++) {
		double x = plot_px(f, off + ((double)b + 0.5) * w), y = plot_py(f, v[b] / w);

		if (b)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
	}
	cairo_stroke(cr);
}

/* The largest bucket rate of some series over every trace, in pages/s. */
static double series_peak(const struct plot_trace *t, int n, const int *metrics, int nm)
{
	double peak = 0;

	for (int i = 0; i < n; i++) {
		const struct rs_series *s = rs_analysis_series(t[i].a);

		for (int m = 0; m < nm; m++)
			peak = rate_peak(peak, rs_series_values(s, metrics[m]),
					 rs_series_buckets(s));
	}
	return peak;
}

/* One series as a line through the bucket midpoints, as a rate. */
static void series_line(cairo_t *cr, const struct plot_frame *f, const struct plot_trace *t,
			int metric)
{
	const struct rs_series *s = rs_analysis_series(t->a);

	rate_line(cr, f, rs_series_values(s, metric), rs_series_buckets(s), 0);
}

static double scan_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	return TITLE_H + FRAME_H + AXIS_H + 44 + 19.0 * (n > 1 ? (n + 1) / 2 : 0) + PANEL_GAP;
}

static void scan_frame(cairo_t *cr, struct plot_frame *f, const struct plot_trace *t, int n,
		       const struct series_def *ser, int ns, const char *ylabel,
		       const char *empty)
{
	int metrics[8];

	for (int i = 0; i < ns; i++)
		metrics[i] = ser[i].metric;
	f->xa = time_axis(t, n);
	f->ya = (struct plot_axis){ .lo = 0, .hi = series_peak(t, n, metrics, ns),
				    .unit = PLOT_UNIT_PLAIN, .label = ylabel };
	bool none = f->ya.hi == 0;

	plot_axis_nice(&f->ya);
	plot_frame_draw(cr, f);
	if (none) {
		plot_frame_note(cr, f, empty);
		return;
	}
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	cairo_set_line_width(cr, 1.8);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int i = 0; i < n; i++) {
		plot_dash(cr, i);
		for (int m = 0; m < ns; m++) {
			plot_color(cr, ser[m].color, 0.95);
			series_line(cr, f, &t[i], ser[m].metric);
		}
	}
	cairo_restore(cr);
}

/*
 * MGLRU has no active lists: when every trace is MGLRU (trace.mglru, as analyze and the TUI
 * name the lists) the scan panel draws anon and file. A classic or undecided trace among them
 * keeps the four lists.
 */
static bool all_mglru(const struct plot_trace *t, int n)
{
	for (int i = 0; i < n; i++)
		if (!t[i].info || t[i].info->mglru <= 0)
			return false;
	return n > 0;
}

static void scan_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	const double gap = 100, fw = (PLOT_WIDTH - MARGIN_L - MARGIN_R - gap) * 0.58;
	struct plot_frame f = { .x = MARGIN_L, .y = y + TITLE_H, .w = fw, .h = FRAME_H };
	struct plot_frame g = { .x = MARGIN_L + fw + gap, .y = y + TITLE_H,
				.w = PLOT_WIDTH - MARGIN_L - MARGIN_R - gap - fw, .h = FRAME_H };
	bool mglru = all_mglru(t, n);
	const struct series_def *scan = mglru ? mglru_scan_series : scan_series;
	int nscan = mglru ? 2 : 4;
	struct plot_legend_entry e[16];
	int ne = 0;

	panel_title(cr, y, mglru ? "LRU scanning and reclaim per type (lru_isolate nr_scanned, "
		    "lru_shrink_inactive nr_reclaimed)" : "LRU scanning and reclaim per list "
		    "(lru_isolate nr_scanned, lru_shrink_inactive nr_reclaimed)");
	scan_frame(cr, &f, t, n, scan, nscan, "scanned (pages/s)", "nothing scanned");
	scan_frame(cr, &g, t, n, reclaim_series, 2, "reclaimed (pages/s)", "nothing reclaimed");
	for (int m = 0; m < nscan; m++) {
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_LINE,
						    .color = scan[m].color };
		snprintf(e[ne++].text, sizeof(e[0].text), "%s", scan[m].name);
	}
	plot_legend(cr, f.x, y + TITLE_H + FRAME_H + AXIS_H - 4, f.w, e, ne);
	ne = 0;
	for (int m = 0; m < 2; m++) {
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_LINE,
						    .color = reclaim_series[m].color };
		snprintf(e[ne++].text, sizeof(e[0].text), "%s", m ? "file" : "anon");
	}
	ne += trace_entries(t, n, false, e + ne);
	plot_legend(cr, g.x, y + TITLE_H + FRAME_H + AXIS_H - 4, g.w, e, ne);
}

/* ---- stalls over time, the worst marked ---- */

static double stalls_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	return TITLE_H + FRAME_H + AXIS_H + 44 + 60 * n + PANEL_GAP;
}

static const char *task_comm(const struct rs_analysis *a, int pid)
{
	for (int i = 0; i < rs_analysis_nr_tasks(a); i++)
		if (rs_analysis_task(a, i)->pid == pid)
			return rs_analysis_task(a, i)->comm;
	return "?";
}

/* A dashed vertical line at each OOM kill (the first RS_MAX_OOM_LISTED of each trace). */
static void oom_lines(cairo_t *cr, const struct plot_frame *f, const struct plot_trace *t, int n)
{
	static const double dash[] = { 4, 3 };
	bool any = false;

	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.8, 0, 0);
	cairo_set_line_width(cr, 1.6);
	cairo_set_dash(cr, dash, 2, 0);
	for (int i = 0; i < n; i++) {
		double t0 = (double)trace_t0(&t[i]);

		for (int k = 0; k < rs_analysis_nr_oom_listed(t[i].a); k++) {
			double x = plot_px(f, ((double)rs_analysis_oom(t[i].a, k)->ts - t0) / 1e9);

			cairo_move_to(cr, x, f->y);
			cairo_line_to(cr, x, f->y + f->h);
			cairo_stroke(cr);
			plot_text(cr, x + 3, f->y + 12, PLOT_FONT_SIZE - 2, false, 0,
				  any ? "OOM" : "OOM kill");
			any = true;
		}
	}
	cairo_restore(cr);
}

static void stalls_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	struct plot_frame f = { .x = MARGIN_L, .y = y + TITLE_H,
				.w = PLOT_WIDTH - MARGIN_L - MARGIN_R, .h = FRAME_H };
	struct plot_legend_entry e[16];
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned char *seen;
	size_t total = 0;
	double ny = f.y + f.h + AXIS_H + 40;
	int ne = 0;
	char b1[32], b2[32];

	panel_title(cr, y, "Reclaim stalls: each complete episode at its begin, by duration");
	for (int i = 0; i < n; i++) {
		const struct rs_stall *s;
		size_t k = rs_episode_log_stalls(rs_analysis_episode_log(t[i].a), &s);

		for (size_t j = 0; j < k; j++) {
			if (s[j].ns < lo)
				lo = s[j].ns;
			if (s[j].ns > hi)
				hi = s[j].ns;
		}
		total += k;
	}
	f.xa = time_axis(t, n);
	/* no episode, no range: an axis of made-up decades would read as data */
	f.ya = (struct plot_axis){ .lo = total ? (double)lo : 1, .hi = (double)hi, .log = true,
				   .unit = PLOT_UNIT_NS_TIME, .hide = !total,
				   .label = "stall: end - begin, log scale" };
	plot_axis_nice(&f.ya);
	plot_frame_draw(cr, &f);
	oom_lines(cr, &f, t, n);
	if (!total) {
		plot_frame_note(cr, &f, "no complete reclaim episodes");
		return;
	}
	/* one marker per pixel and series is enough: a dense trace must not make a huge SVG */
	seen = calloc((size_t)(f.w + 1) * (size_t)(f.h + 1), 1);
	cairo_save(cr);
	cairo_rectangle(cr, f.x - 4, f.y - 4, f.w + 8, f.h + 8);
	cairo_clip(cr);
	for (int i = 0; i < n; i++) {
		const struct rs_episode_log *l = rs_analysis_episode_log(t[i].a);
		const struct rs_stall *s;
		size_t k = rs_episode_log_stalls(l, &s);
		double t0 = (double)trace_t0(&t[i]);

		for (int kind = 0; kind < RS_RK_NR; kind++) {
			if (seen)
				memset(seen, 0, (size_t)(f.w + 1) * (size_t)(f.h + 1));
			plot_color(cr, kind_color(kind), 0.7);
			cairo_set_line_width(cr, 1.5);
			for (size_t j = 0; j < k; j++) {
				double x, yy;
				size_t cell;

				if (s[j].kind != kind)
					continue;
				x = plot_px(&f, ((double)s[j].begin_ts - t0) / 1e9);
				yy = plot_py(&f, (double)s[j].ns);
				cell = (size_t)(yy - f.y + 0.5) * (size_t)(f.w + 1) +
				       (size_t)(x - f.x + 0.5);
				if (seen && x >= f.x && yy >= f.y && x <= f.x + f.w &&
				    yy <= f.y + f.h) {
					if (seen[cell])
						continue;
					seen[cell] = 1;
				}
				/* crosses are strokes: a little larger to weigh as much as a dot */
				plot_marker(cr, i, x, yy, i % 4 == 1 ? 3.4 : 2.6);
				if (i % 4 == 1)
					cairo_stroke(cr);
				else
					cairo_fill(cr);
			}
		}
	}
	cairo_restore(cr);
	free(seen);
	/* the worst of each trace: a numbered ring, and who it was in the lines below */
	for (int i = 0; i < n; i++) {
		const struct rs_stall *s;
		size_t k = rs_episode_log_stalls(rs_analysis_episode_log(t[i].a), &s);
		double t0 = (double)trace_t0(&t[i]);

		for (size_t j = 0; j < k && j < WORST_MARKED; j++) {
			double x = plot_px(&f, ((double)s[j].begin_ts - t0) / 1e9);
			double yy = plot_py(&f, (double)s[j].ns);
			char lab[16];

			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_set_line_width(cr, 1.4);
			cairo_set_dash(cr, NULL, 0, 0);
			cairo_new_sub_path(cr);
			cairo_arc(cr, x, yy, 6.5, 0, 2 * M_PI);
			cairo_stroke(cr);
			snprintf(lab, sizeof(lab), "%zu", (size_t)i * WORST_MARKED + j + 1);
			/* staggered, so that the numbers of stalls close together stay legible */
			plot_text(cr, x + 3 + 6.0 * (double)(j % 3),
				  yy - 9 - 11.0 * (double)(j % 2), PLOT_FONT_SIZE - 2, true, 0,
				  lab);
		}
	}
	for (int kind = 0; kind < RS_RK_NR; kind++) {
		uint64_t c = 0;

		for (int i = 0; i < n; i++)
			c += rs_analysis_episode_stats(t[i].a, kind)->count;
		if (!c)
			continue;
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_DOT,
						    .color = kind_color(kind) };
		snprintf(e[ne++].text, sizeof(e[0].text), "%s reclaim", kind_name(kind));
	}
	ne += trace_entries(t, n, true, e + ne);
	e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_DOT, .color = -1, .marker = 4 };
	snprintf(e[ne++].text, sizeof(e[0].text), "ring: the %d longest%s", WORST_MARKED,
		 n > 1 ? " of each trace" : "");
	for (int i = 0; i < n; i++) {
		if (!rs_analysis_nr_oom_listed(t[i].a))
			continue;
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_NONE };
		snprintf(e[ne++].text, sizeof(e[0].text),
			 "red dashes: OOM kills (oom:mark_victim)");
		break;
	}
	plot_legend(cr, MARGIN_L, f.y + f.h + AXIS_H - 4, f.w, e, ne);
	for (int i = 0; i < n; i++) {
		const struct rs_episode_log *l = rs_analysis_episode_log(t[i].a);
		const struct rs_stall *s;
		size_t k = rs_episode_log_stalls(l, &s);
		double t0 = (double)trace_t0(&t[i]);
		struct plot_legend_entry w[WORST_MARKED];
		int nw = 0;
		char line[256];

		for (size_t j = 0; j < k && j < WORST_MARKED; j++, nw++) {
			w[nw].sample = PLOT_SAMPLE_NONE;
			/* "base 1: dd 1234, direct 12 ms at 3.2 s", "2: ..." */
			snprintf(w[nw].text, sizeof(w[nw].text), "%s%s%zu: %s %d, %s %s at %.3f s",
				 n > 1 && !j ? t[i].label : "", n > 1 && !j ? " " : "",
				 (size_t)i * WORST_MARKED + j + 1, task_comm(t[i].a, s[j].pid),
				 s[j].pid, kind_name(s[j].kind),
				 plot_fmt(b1, sizeof(b1), (double)s[j].ns, PLOT_UNIT_NS_TIME),
				 ((double)s[j].begin_ts - t0) / 1e9);
		}
		ny += plot_legend(cr, MARGIN_L - 6, ny - 13, f.w, w, nw) - 8 + 3;
		cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);

		if (rs_episode_log_min_ns(l))
			snprintf(line, sizeof(line), "%s%s%zu of %" PRIu64 " stalls kept: every "
				 "one of at least %s (the log is bounded)", n > 1 ? t[i].label : "",
				 n > 1 ? ": " : "", k, rs_episode_log_stalls_seen(l),
				 plot_fmt(b2, sizeof(b2), (double)rs_episode_log_min_ns(l),
					  PLOT_UNIT_NS_TIME));
		else
			snprintf(line, sizeof(line), "%s%s%zu complete episodes", n > 1 ?
				 t[i].label : "", n > 1 ? ": " : "", k);
		plot_text(cr, MARGIN_L - 6, ny, PLOT_FONT_SIZE - 1, false, 0, line);
		ny += 20;
	}
}

/* ---- latency distribution per context ---- */

static double latency_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	int lines = 0;

	for (int i = 0; i < n; i++)
		for (int k = 0; k < RS_RK_NR; k++)
			lines += rs_analysis_episode_stats(t[i].a, k)->count > 0;
	return TITLE_H + FRAME_H + AXIS_H + 26 + 19.0 * (lines ? lines : 1) + PANEL_GAP;
}

/* The stall latencies of reclaim kind k in a trace; NULL when it has no complete episode. */
static const struct rs_latency_summary *kind_latency(const struct plot_trace *t, int k)
{
	const struct rs_latency_summary *ls = &rs_analysis_episode_stats(t->a, k)->latency;

	return ls->count ? ls : NULL;
}

static void latency_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	struct plot_frame f = { .x = MARGIN_L, .y = y + TITLE_H,
				.w = PLOT_WIDTH - MARGIN_L - MARGIN_R, .h = FRAME_H };
	static uint64_t q[CDF_POINTS];
	struct plot_legend_entry e;
	double lo = INFINITY, hi = 0, ly = f.y + f.h + AXIS_H - 4;
	char b[4][32];

	panel_title(cr, y, "Reclaim stall latency: share of complete episodes at most this long "
		    "(CDF)");
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < RS_RK_NR; k++) {
			const struct rs_latency_summary *ls = kind_latency(&t[i], k);

			if (!ls)
				continue;
			if ((double)ls->min < lo)
				lo = (double)ls->min;
			if ((double)ls->max > hi)
				hi = (double)ls->max;
		}
	}
	f.xa = (struct plot_axis){ .lo = lo > 0 && lo < INFINITY ? lo : 1, .hi = hi, .log = true,
				   .unit = PLOT_UNIT_NS_TIME, .hide = !(hi > 0),
				   .label = "stall (end - begin), log scale" };
	f.ya = (struct plot_axis){ .lo = 0, .hi = 100, .unit = PLOT_UNIT_PCT,
				   .label = "episodes at most that long (%)" };
	plot_axis_nice(&f.xa);
	plot_frame_draw(cr, &f);
	if (!(hi > 0)) {
		plot_frame_note(cr, &f, "no complete reclaim episodes");
		return;
	}
	cairo_save(cr);
	cairo_rectangle(cr, f.x, f.y - 2, f.w, f.h + 4);
	cairo_clip(cr);
	cairo_set_line_width(cr, 2);
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < RS_RK_NR; k++) {
			size_t m = rs_analysis_latency_quantiles(t[i].a, k, q, CDF_POINTS);

			if (!m)
				continue;
			plot_color(cr, kind_color(k), 1);
			plot_dash(cr, i);
			/* a staircase: the share jumps at each quantile */
			cairo_move_to(cr, plot_px(&f, q[0] ? (double)q[0] : f.xa.lo),
				      plot_py(&f, 0));
			for (size_t j = 0; j < m; j++) {
				double x = plot_px(&f, q[j] ? (double)q[j] : f.xa.lo);
				double share = 100.0 / (double)m;

				cairo_line_to(cr, x, plot_py(&f, share * (double)j));
				cairo_line_to(cr, x, plot_py(&f, share * (double)(j + 1)));
			}
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);
	/* one legend row per line, with the numbers a reader quotes */
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < RS_RK_NR; k++) {
			const struct rs_latency_summary *ls = kind_latency(&t[i], k);

			if (!ls)
				continue;
			e = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_LINE,
							.color = kind_color(k), .dash = i };
			snprintf(e.text, sizeof(e.text), "%s%s%s reclaim: %" PRIu64 " episodes, "
				 "p50 %s, p90 %s, p99 %s, max %s%s", n > 1 ? t[i].label : "",
				 n > 1 ? ", " : "", kind_name(k), ls->count,
				 plot_fmt(b[0], 32, (double)ls->pct[4], PLOT_UNIT_NS_TIME),
				 plot_fmt(b[1], 32, (double)ls->pct[6], PLOT_UNIT_NS_TIME),
				 plot_fmt(b[2], 32, (double)ls->pct[8], PLOT_UNIT_NS_TIME),
				 plot_fmt(b[3], 32, (double)ls->max, PLOT_UNIT_NS_TIME),
				 ls->approximate ? " (percentiles approximate)" : "");
			ly += plot_legend(cr, MARGIN_L, ly, f.w, &e, 1) - 8 + 3;
		}
	}
}

/* ---- kswapd awake periods ---- */

static int kswapd_rows(const struct plot_trace *t, int n)
{
	int rows = 0;

	for (int i = 0; i < n; i++)
		rows += rs_analysis_nr_kswapd(t[i].a);
	return rows;
}

static double kswapd_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	int rows = kswapd_rows(t, n);

	return TITLE_H + KSWAPD_ROW_H * (rows ? rows : 2) + 8 + AXIS_H + 10 + PANEL_GAP;
}

static void kswapd_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	int rows = kswapd_rows(t, n), row = 0;
	struct plot_frame f = { .x = MARGIN_L, .y = y + TITLE_H,
				.w = PLOT_WIDTH - MARGIN_L - MARGIN_R,
				.h = KSWAPD_ROW_H * (rows ? rows : 2) + 8 };
	char lab[200], b[32], nid[16], aw[32];

	panel_title(cr, y, "kswapd awake periods (mm_vmscan_kswapd_wake to kswapd_sleep)");
	f.xa = time_axis(t, n);
	f.ya = (struct plot_axis){ .lo = 0, .hi = 1, .hide = true };
	plot_frame_draw(cr, &f);
	if (!rows) {
		plot_frame_note(cr, &f, "no kswapd activity in the trace");
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct rs_episode_log *l = rs_analysis_episode_log(t[i].a);
		const struct rs_awake *p;
		size_t np = rs_episode_log_periods(l, &p);
		double t0 = (double)trace_t0(&t[i]), span = trace_span_s(&t[i]);

		for (int k = 0; k < rs_analysis_nr_kswapd(t[i].a); k++, row++) {
			const struct rs_kswapd_stats *ks = rs_analysis_kswapd(t[i].a, k);
			const struct rs_task_stats *ts = rs_analysis_kswapd_task(t[i].a, k);
			double ry = f.y + 4 + KSWAPD_ROW_H * row;
			double awake = (double)(ks->awake_ns + ks->awake_cut_ns) / 1e9;

			plot_color(cr, kind_color(RS_CTX_KSWAPD), 1);
			for (size_t j = 0; j < np; j++) {
				double x0, x1;

				if (p[j].kswapd != k)
					continue;
				x0 = plot_px(&f, ((double)p[j].begin_ts - t0) / 1e9);
				x1 = plot_px(&f, ((double)p[j].end_ts - t0) / 1e9);
				/* a period shorter than a pixel still shows */
				cairo_rectangle(cr, x0, ry + 14, x1 - x0 < 1 ? 1 : x1 - x0, 11);
			}
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			snprintf(lab, sizeof(lab), "%s%s%s (pid %d, node %s): %" PRIu64 " wakes, "
				 "awake %s of %s s (%.1f %%)%s", n > 1 ? t[i].label : "",
				 n > 1 ? ": " : "", ts ? ts->comm : "kswapd", ts ? ts->pid : -1,
				 ks->nid >= 0 ? (snprintf(nid, sizeof(nid), "%d", ks->nid), nid) :
				 "?",
				 ks->wakes, (snprintf(aw, sizeof(aw), "%.3g s", awake), aw),
				 plot_fmt(b, sizeof(b), span, PLOT_UNIT_SECONDS),
				 span > 0 ? 100 * awake / span : 0,
				 rs_episode_log_join_gap_ns(l) ? " (periods closer than the log's "
				 "join gap drawn as one)" : "");
			plot_text(cr, f.x + 4, ry + 11, PLOT_FONT_SIZE - 1, false, 0, lab);
		}
	}
}

/* ---- per-cgroup victim pages over time, stacked ---- */

struct cg_rank {
	char name[96];			/* rs_cgroups_name() */
	double total;
};

static int cg_rank_cmp(const void *pa, const void *pb)
{
	const struct cg_rank *a = pa, *b = pb;

	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return strcmp(a->name, b->name);
}

static double cgroups_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	return TITLE_H + FRAME_H + AXIS_H + 64 + PANEL_GAP;
}

/* The cgroups with their own colour: the largest victims over every trace. */
static int cg_top(const struct plot_trace *t, int n, struct cg_rank *top)
{
	struct cg_rank *all = NULL;
	int nr = 0, ntop = 0;
	size_t cap = 0;
	char buf[96];

	for (int i = 0; i < n; i++) {
		for (int c = 0; t[i].cg && c < rs_cgroups_count(t[i].cg); c++) {
			const int64_t *v = rs_cgroups_series(t[i].cg, c, RS_CG_TS_VICTIM_RECLAIMED);
			const char *name;
			double sum = 0;
			int j;

			for (size_t b = 0; v && b < rs_cgroups_buckets(t[i].cg).len; b++)
				sum += (double)v[b];
			if (!(sum > 0))
				continue;
			name = rs_cgroups_name(t[i].cg, c, buf, sizeof(buf));

			for (j = 0; j < nr && strcmp(all[j].name, name); j++)
				;
			if (j == nr) {
				if (RS_GROW(all, cap, (size_t)nr + 1, 32))
					break;
				all[nr] = (struct cg_rank){ .total = 0 };
				snprintf(all[nr].name, sizeof(all[nr].name), "%s", name);
				j = nr++;
			}
			all[j].total += sum;
		}
	}
	if (nr)
		qsort(all, (size_t)nr, sizeof(*all), cg_rank_cmp);
	for (; ntop < nr && ntop < TOP_CGROUPS; ntop++)
		top[ntop] = all[ntop];
	free(all);
	return ntop;
}

static int cg_top_index(const struct cg_rank *top, int ntop, const char *name)
{
	for (int j = 0; j < ntop; j++)
		if (!strcmp(top[j].name, name))
			return j;
	return ntop;		/* "other cgroups" */
}

static int cg_color(int j, int ntop)
{
	static const int colors[TOP_CGROUPS] = { 0, 1, 2, 3, 4, 5, 7 };

	return j < ntop ? colors[j] : 6;
}

/*
 * One trace's layers as rates, stacked: layer j (a top cgroup, or ntop for the rest) of bucket b
 * is at [(j + 1) * len + b], the sum of layers 0..j; row 0 is the base. NULL when out of memory.
 */
static double *cg_stack(const struct plot_trace *ti, const struct cg_rank *top, int ntop,
			double *peak)
{
	const struct rs_cgroups *cg = ti->cg;
	size_t len = cg ? rs_cgroups_buckets(cg).len : 0;
	double w = cg ? (double)rs_cgroups_buckets(cg).width / 1e9 : 1;
	double *stack = calloc((len + 1) * (size_t)(ntop + 2), sizeof(*stack));
	char buf[96];

	*peak = 0;
	for (int c = 0; stack && cg && c < rs_cgroups_count(cg); c++) {
		const int64_t *v = rs_cgroups_series(cg, c, RS_CG_TS_VICTIM_RECLAIMED);
		int j = cg_top_index(top, ntop, rs_cgroups_name(cg, c, buf, sizeof(buf)));

		for (size_t b = 0; v && b < len; b++)
			if (v[b] > 0)
				stack[(size_t)(j + 1) * len + b] += (double)v[b] / w;
	}
	for (size_t b = 0; stack && b < len; b++) {
		for (int j = 1; j <= ntop + 1; j++)
			stack[(size_t)j * len + b] += stack[(size_t)(j - 1) * len + b];
		if (stack[(size_t)(ntop + 1) * len + b] > *peak)
			*peak = stack[(size_t)(ntop + 1) * len + b];
	}
	return stack;
}

/* One trace's frame; y_hi: the axis' top, shared by the traces so that heights compare. */
static void cgroups_frame(cairo_t *cr, struct plot_frame *f, const struct plot_trace *t, int n,
			  int i, const struct cg_rank *top, int ntop, double y_hi)
{
	const struct rs_cgroups *cg = t[i].cg;
	size_t len = cg ? rs_cgroups_buckets(cg).len : 0;
	double w = cg ? (double)rs_cgroups_buckets(cg).width / 1e9 : 1;
	double off = cg ? ((double)rs_cgroups_buckets(cg).t0 - (double)trace_t0(&t[i])) / 1e9 : 0;
	double peak, *stack = cg_stack(&t[i], top, ntop, &peak);

	f->xa = time_axis(t, n);
	f->ya = (struct plot_axis){ .lo = 0, .hi = y_hi, .unit = PLOT_UNIT_PLAIN,
				    .label = "victim pages reclaimed/s" };
	plot_axis_nice(&f->ya);
	plot_frame_draw(cr, f);
	if (!stack || !(peak > 0)) {
		plot_frame_note(cr, f, cg ? "no victim pages matched to a cgroup" :
				"cgroups not analysed");
		free(stack);
		return;
	}
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	for (int j = ntop; j >= 0; j--) {
		const double *top_l = stack + (size_t)(j + 1) * len, *bot = stack + (size_t)j * len;

		/* the top edge left to right, the bottom edge back: one step per bucket */
		cairo_move_to(cr, plot_px(f, off), plot_py(f, bot[0]));
		for (size_t b = 0; b < len; b++) {
			cairo_line_to(cr, plot_px(f, off + (double)b * w), plot_py(f, top_l[b]));
			cairo_line_to(cr, plot_px(f, off + (double)(b + 1) * w),
				      plot_py(f, top_l[b]));
		}
		for (size_t b = len; b-- > 0;) {
			cairo_line_to(cr, plot_px(f, off + (double)(b + 1) * w),
				      plot_py(f, bot[b]));
			cairo_line_to(cr, plot_px(f, off + (double)b * w), plot_py(f, bot[b]));
		}
		cairo_close_path(cr);
		plot_color(cr, cg_color(j, ntop), 0.85);
		cairo_fill(cr);
	}
	cairo_restore(cr);
	if (n > 1) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		plot_text(cr, f->x + 6, f->y + 16, PLOT_FONT_SIZE, true, 0, t[i].label);
	}
	free(stack);
}

static void cgroups_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	const double gap = 96, all_w = PLOT_WIDTH - MARGIN_L - MARGIN_R;
	const double fw = (all_w - gap * (n - 1)) / n;
	struct plot_legend_entry e[TOP_CGROUPS + 1];
	struct cg_rank top[TOP_CGROUPS];
	int ntop = cg_top(t, n, top), ne = 0;
	bool other = false;
	double y_hi = 0;

	panel_title(cr, y, "Victim cgroups: pages reclaimed from each cgroup's LRUs, stacked "
		    "(docs/cgroups.md)");
	for (int i = 0; i < n; i++) {
		double peak;

		free(cg_stack(&t[i], top, ntop, &peak));
		if (peak > y_hi)
			y_hi = peak;
	}
	for (int i = 0; i < n; i++) {
		struct plot_frame f = { .x = MARGIN_L + i * (fw + gap), .y = y + TITLE_H, .w = fw,
					.h = FRAME_H };

		cgroups_frame(cr, &f, t, n, i, top, ntop, y_hi);
	}
	for (int j = 0; j < ntop; j++) {
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_BOX,
						    .color = cg_color(j, ntop) };
		snprintf(e[ne++].text, sizeof(e[0].text), "%s", top[j].name);
	}
	/* is anything left for "other cgroups"? */
	for (int i = 0; i < n && !other; i++)
		for (int c = 0; t[i].cg && c < rs_cgroups_count(t[i].cg) && !other; c++) {
			const int64_t *v = rs_cgroups_series(t[i].cg, c, RS_CG_TS_VICTIM_RECLAIMED);
			char buf[96];
			bool top_one = cg_top_index(top, ntop, rs_cgroups_name(t[i].cg, c, buf,
								 sizeof(buf))) < ntop;

			for (size_t b = 0; v && !top_one && b < rs_cgroups_buckets(t[i].cg).len; b++)
				if (v[b] > 0)
					other = true;
		}
	if (other) {
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_BOX, .color = 6 };
		snprintf(e[ne++].text, sizeof(e[0].text), "other cgroups");
	}
	plot_legend(cr, MARGIN_L, y + TITLE_H + FRAME_H + AXIS_H - 4, all_w, e, ne);
}

/* ---- refaults over time ---- */

static const struct series_def refault_series[] = {
	{ RS_RF_TS_EVICTED, "evicted by reclaim", 1 },
	{ RS_RF_TS_REFAULTED, "back (refaulted)", 3 },
	{ RS_RF_TS_QUICK, "back within the thrash distance", 0 },
	{ RS_RF_TS_SWAPIN, "swapped in (pswpin)", 5 },
};
#define NR_REFAULT_SERIES (int)(sizeof(refault_series) / sizeof(refault_series[0]))

static double refaults_height(cairo_t *cr, const struct plot_trace *t, int n)
{
	return TITLE_H + FRAME_H + AXIS_H + 44 + 19.0 * (n > 1 ? (n + 1) / 2 : 0) + PANEL_GAP;
}

/* One summed refault series as a line through the bucket midpoints, as a rate. */
static void refault_line(cairo_t *cr, const struct plot_frame *f, const struct plot_trace *t,
			 int metric)
{
	const struct rs_buckets bk = rs_refaults_buckets(t->rf);

	rate_line(cr, f, rs_refaults_series_all(t->rf, metric), bk,
		  (double)(bk.t0 - trace_t0(t)) / 1e9);
}

static void refaults_draw(cairo_t *cr, double y, const struct plot_trace *t, int n)
{
	struct plot_frame f = { .x = MARGIN_L, .y = y + TITLE_H,
				.w = PLOT_WIDTH - MARGIN_L - MARGIN_R, .h = FRAME_H };
	struct plot_legend_entry e[16];
	double peak = 0;
	bool any = false, swapins = false;
	int ne = 0;

	panel_title(cr, y, "Refaults: file pages evicted by reclaim and added back, swap-ins; "
		    "shaded: thrashing (docs/refaults.md)");
	for (int i = 0; i < n; i++) {
		if (!t[i].rf)
			continue;
		any |= rs_refaults_recorded(t[i].rf) || rs_refaults_totals(t[i].rf)->swapins;
		/* a kernel without count_memcg_events (6.1) counted no swap-in: no line of 0 */
		swapins |= rs_refaults_totals(t[i].rf)->pswpin_named;
		for (int m = 0; m < NR_REFAULT_SERIES; m++)
			peak = rate_peak(peak, rs_refaults_series_all(t[i].rf, refault_series[m].metric),
					 rs_refaults_buckets(t[i].rf));
	}
	f.xa = time_axis(t, n);
	f.ya = (struct plot_axis){ .lo = 0, .hi = peak, .unit = PLOT_UNIT_PLAIN,
				   .label = "pages/s" };
	plot_axis_nice(&f.ya);
	plot_frame_draw(cr, &f);
	if (!any || !(peak > 0)) {
		plot_frame_note(cr, &f, any ? "no page evicted, refaulted or swapped in" :
				"no filemap events (record without --no-filemap) and no swap-ins");
		return;
	}
	cairo_save(cr);
	cairo_rectangle(cr, f.x, f.y, f.w, f.h);
	cairo_clip(cr);
	/* thrashing intervals of every memcg, under the lines */
	for (int i = 0; i < n; i++) {
		for (int c = 0; t[i].rf && c < rs_refaults_nr_cgroups(t[i].rf); c++) {
			const struct rs_rf_cgroup *g = rs_refaults_cgroup(t[i].rf, c);

			for (int k = 0; k < g->nr_thrash; k++) {
				uint64_t t0 = trace_t0(&t[i]);
				double x0 = plot_px(&f, (double)(g->thrash[k].from_ns - t0) / 1e9);
				double x1 = plot_px(&f, (double)(g->thrash[k].to_ns - t0) / 1e9);

				plot_color(cr, 0, 0.12);
				cairo_rectangle(cr, x0, f.y, x1 - x0, f.h);
				cairo_fill(cr);
			}
		}
	}
	/* 1.7, not the scan panel's 1.8: tests/e2e/plot.sh counts each panel's lines by style */
	cairo_set_line_width(cr, 1.7);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int i = 0; i < n; i++) {
		if (!t[i].rf)
			continue;
		plot_dash(cr, i);
		for (int m = 0; m < NR_REFAULT_SERIES; m++) {
			if (refault_series[m].metric == RS_RF_TS_SWAPIN && !swapins)
				continue;
			plot_color(cr, refault_series[m].color, 0.95);
			refault_line(cr, &f, &t[i], refault_series[m].metric);
		}
	}
	cairo_restore(cr);
	for (int m = 0; m < NR_REFAULT_SERIES; m++) {
		e[ne] = (struct plot_legend_entry){ .sample = PLOT_SAMPLE_LINE,
						    .color = refault_series[m].color };
		snprintf(e[ne++].text, sizeof(e[0].text), "%s%s", refault_series[m].name,
			 refault_series[m].metric == RS_RF_TS_SWAPIN && !swapins ?
			 ": not in the trace (no count_memcg_events)" : "");
	}
	ne += trace_entries(t, n, false, e + ne);
	plot_legend(cr, f.x, y + TITLE_H + FRAME_H + AXIS_H - 4, f.w, e, ne);
}

/*
 * The panels in page order. A new figure is one more row (and its --what name in docs/plot.md).
 */
static const struct panel panels[] = {
	{ "scan", "scan and reclaim per list", scan_height, scan_draw },
	{ "stalls", "stalls over time", stalls_height, stalls_draw },
	{ "latency", "stall latency CDF", latency_height, latency_draw },
	{ "kswapd", "kswapd awake periods", kswapd_height, kswapd_draw },
	{ "cgroups", "victim cgroups", cgroups_height, cgroups_draw },
	{ "refaults", "refaults and thrashing", refaults_height, refaults_draw },
};
#define NR_PANELS (int)(sizeof(panels) / sizeof(panels[0]))

int plot_what_parse(const char *list, unsigned int *mask, char *bad, size_t n)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int i;

		for (i = 0; i < NR_PANELS; i++)
			if (strlen(panels[i].name) == len && !strncmp(panels[i].name, p, len))
				break;
		if (len == 3 && !strncmp(p, "all", 3)) {
			*mask |= plot_what_all();
		} else if (i == NR_PANELS) {
			snprintf(bad, n, "%.*s", (int)len, p);
			return -1;
		} else {
			*mask |= 1u << i;
		}
		p += len;
		if (*p)
			p++;
	}
	if (!*mask) {
		snprintf(bad, n, "%s", list);
		return -1;
	}
	return 0;
}

const char *plot_what_names(void)
{
	return "scan, stalls, latency, kswapd, cgroups, refaults, all";
}

unsigned int plot_what_all(void)
{
	return (1u << NR_PANELS) - 1;
}

static double header_height(const struct plot_trace *t, int n)
{
	return 40 + 19.0 * n + 12;
}

double plot_height(const struct plot_trace *t, int n, unsigned int mask)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);
	double h = header_height(t, n);

	for (int i = 0; i < NR_PANELS; i++)
		if (mask & (1u << i))
			h += panels[i].height(cr, t, n);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return ceil(h);
}

static void header_draw(cairo_t *cr, const struct plot_trace *t, int n)
{
	struct plot_legend_entry e;

	cairo_set_source_rgb(cr, 0, 0, 0);
	plot_text(cr, MARGIN_L - 60, 28, PLOT_FONT_SIZE + 5, true, 0,
		  n > 1 ? "reclaimscope: page reclaim compared" : "reclaimscope: page reclaim");
	for (int i = 0; i < n; i++) {
		const struct rs_trace_info *in = t[i].info;

		e = (struct plot_legend_entry){ .sample = n > 1 ? PLOT_SAMPLE_LINE :
							  PLOT_SAMPLE_BOX,
						.color = n > 1 ? -1 : 7, .dash = i };
		snprintf(e.text, sizeof(e.text), "%s%s%s  (kernel %s%s%s, %.3f s analysed, %"
			 PRIu64 " events)", n > 1 ? t[i].label : "", n > 1 ? ": " : "",
			 in->path, in->kernel ? in->kernel : "unknown", in->host ? ", host " : "",
			 in->host ? in->host : "", trace_span_s(&t[i]),
			 rs_analysis_events(t[i].a));
		if (n > 1)
			plot_legend(cr, MARGIN_L - 60, 40 + 19.0 * i, PLOT_WIDTH, &e, 1);
		else
			plot_text(cr, MARGIN_L - 60, 54, PLOT_FONT_SIZE, false, 0, e.text);
	}
}

void plot_draw(cairo_t *cr, const struct plot_trace *t, int n, unsigned int mask)
{
	double y = header_height(t, n);

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	header_draw(cr, t, n);
	for (int i = 0; i < NR_PANELS; i++) {
		if (!(mask & (1u << i)))
			continue;
		cairo_save(cr);
		panels[i].draw(cr, y, t, n);
		cairo_restore(cr);
		y += panels[i].height(cr, t, n);
	}
}
