// SPDX-License-Identifier: GPL-2.0
/*
 * `diff` text: the ranked table that leads (what changed, grouped, biggest move first) and the
 * MMTests-style table for mails. Both read the ranking (diff_rank.h); units decide the format:
 * pages, folios and counts as integers, durations in us/ms/s at 4 significant digits,
 * percentages with one decimal and their moves in points. docs/diff.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff_output.h"

bool rs_diff_identical(const struct rs_compare *c)
{
	if (rs_compare_nr_left_out(c))
		return false;
	for (size_t i = 0; i < rs_compare_nr_metrics(c); i++) {
		const struct rs_metric_diff *d = rs_compare_metric(c, i);

		for (int s = 0; s < RS_NR_SIDES; s++)
			if (d->side[s].min != d->side[!s].min || d->side[s].max != d->side[!s].max ||
			    d->side[s].avg != d->side[!s].avg || d->side[s].std != d->side[!s].std)
				return false;
	}
	return true;
}

/* The time unit for values up to `ref` microseconds: 1 (us), 1e3 (ms) or 1e6 (s). */
static double time_div(double ref_us, const char **unit)
{
	ref_us = fabs(ref_us);
	if (ref_us >= 1e6) {
		*unit = "s";
		return 1e6;
	}
	if (ref_us >= 1e3) {
		*unit = "ms";
		return 1e3;
	}
	*unit = "us";
	return 1;
}

/* 4 significant digits, never "-0". */
static void sig4(char *buf, size_t n, double v)
{
	double a = fabs(v);
	int dec = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;

	if (v == 0) {
		snprintf(buf, n, "0");
		return;
	}
	snprintf(buf, n, "%.*f", dec, v);
	if (!strcmp(buf, "-0") || !strcmp(buf, "-0.000"))
		memmove(buf, buf + 1, strlen(buf));
}

/* A value in its unit; `ref` (same unit) picks the time unit so both sides share it. */
static const char *fmt_value(char *buf, size_t n, enum rs_rank_unit u, double v, double ref)
{
	const char *unit;
	double div;
	char num[48];

	if (!isfinite(v)) {
		snprintf(buf, n, "-");
		return buf;
	}
	switch (u) {
	case RS_UNIT_US:
	case RS_UNIT_S:
		if (u == RS_UNIT_S) {
			v *= 1e6;
			ref *= 1e6;
		}
		div = time_div(ref, &unit);
		sig4(num, sizeof(num), v / div);
		snprintf(buf, n, "%s %s", num, unit);
		break;
	case RS_UNIT_PCT:
		snprintf(buf, n, "%.1f%%", v);
		break;
	case RS_UNIT_PRIO:
	case RS_UNIT_DIST:
		snprintf(buf, n, "%.2f", v);
		break;
	default:
		if (v == floor(v))
			snprintf(buf, n, "%.0f", v);
		else
			snprintf(buf, n, "%.1f", v);
		break;
	}
	return buf;
}

static const char *fmt_move(char *buf, size_t n, const struct rs_rank_row *w)
{
	switch (w->unit) {
	case RS_UNIT_PCT:
		snprintf(buf, n, "%+.1f pt", w->move);
		break;
	case RS_UNIT_DIST:
		snprintf(buf, n, "%.1f pt", w->move);
		break;
	default:
		if (isnan(w->move))
			snprintf(buf, n, "from 0");
		else
			snprintf(buf, n, "%+.1f%%", w->move);
		break;
	}
	if (!strncmp(buf, "-0.0", 4) && !buf[4 + strspn(buf + 4, "0")])
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

static void put_p(char *buf, size_t n, const struct rs_rank_row *w)
{
	if (!w->d || !w->d->welch.valid)
		buf[0] = 0;
	else if (w->d->welch.p < 0.0001)
		snprintf(buf, n, "p<0.0001%s", w->d->significant ? " *" : "");
	else
		snprintf(buf, n, "p=%.4f%s", w->d->welch.p, w->d->significant ? " *" : "");
}

static bool multi_run(const struct rs_compare *c)
{
	return rs_compare_nr_runs(c, RS_SIDE_BASE) > 1 && rs_compare_nr_runs(c, RS_SIDE_NEW) > 1;
}

/* One side's cell: the mean, and with several runs its std. */
static const char *cell(char *buf, size_t n, const struct rs_rank_row *w, int side, double ref,
			bool multi)
{
	char v[48], sd[48];

	fmt_value(v, sizeof(v), w->unit, side ? w->new : w->base, ref);
	if (!multi || !w->d) {
		snprintf(buf, n, "%s", v);
		return buf;
	}
	fmt_value(sd, sizeof(sd), w->unit, w->d->side[side].std, ref);
	snprintf(buf, n, "%s ±%s", v, sd);
	return buf;
}

/* One side's min..max over its runs */
static const char *range(char *buf, size_t n, const struct rs_rank_row *w, int side, double ref)
{
	char lo[48], hi[48];

	fmt_value(lo, sizeof(lo), w->unit, w->d->side[side].min, ref);
	fmt_value(hi, sizeof(hi), w->unit, w->d->side[side].max, ref);
	snprintf(buf, n, "%s..%s", lo, hi);
	return buf;
}

static void note_victims(FILE *f, const struct rs_ranking *r, const char *const labels[])
{
	double ex[RS_NR_SIDES];

	if (rs_ranking_victims_skipped(r, ex))
		fprintf(f, "(pages taken per cgroup not compared: reclaimed pages matched to a "
			"cgroup: %s %.1f%%, %s %.1f%%)\n", labels[RS_SIDE_BASE], ex[RS_SIDE_BASE],
			labels[RS_SIDE_NEW], ex[RS_SIDE_NEW]);
}

void rs_diff_table(FILE *f, const struct rs_compare *c, const struct rs_ranking *r,
		   const char *const labels[RS_NR_SIDES])
{
	bool multi = multi_run(c);
	int vw = multi ? 22 : 14, lw = multi ? 26 : 30;
	const char *group = NULL;
	size_t hidden = 0, shown = 0;

	for (size_t i = 0; i < rs_ranking_count(r); i++)
		if (!rs_ranking_row(r, i)->changed)
			hidden++;
	if (!rs_ranking_count(r)) {
		size_t moved = 0;

		for (size_t i = 0; i < rs_compare_nr_metrics(c); i++) {
			const struct rs_metric_diff *d = rs_compare_metric(c, i);

			moved += d->side[RS_SIDE_BASE].avg != d->side[RS_SIDE_NEW].avg;
		}
		fprintf(f, "no `summary` to rank (an older analyze?): %zu of %zu metrics differ; "
			"--format seed lists them\n",
			moved, rs_compare_nr_metrics(c));
		return;
	}
	if (!rs_ranking_changed(r)) {
		fprintf(f, "no figure moved by %g%% or more (percentages: %g points)%s; --all shows "
			"all %zu, --format seed every metric\n", rs_ranking_threshold(r),
			rs_ranking_threshold(r) / 2, multi ? " significantly" : "",
			rs_ranking_count(r));
		note_victims(f, r, labels);
		return;
	}
	fprintf(f, "\n%-*s %*.*s %*.*s %9s%s\n", lw + 2, "what changed (biggest move first)", vw,
		vw, labels[RS_SIDE_BASE], vw, vw, labels[RS_SIDE_NEW], "change",
		multi ? "  Welch" : "");
	for (size_t i = 0; i < rs_ranking_count(r); i++) {
		const struct rs_rank_row *w = rs_ranking_row(r, i);
		double ref = fmax(fabs(w->base), fabs(w->new));
		char b[48], n[48], m[48], p[32], label[80];

		if (!w->changed)
			continue;
		if (!group || strcmp(group, w->group)) {
			fprintf(f, "%s\n", w->group);
			group = w->group;
		}
		put_p(p, sizeof(p), w);
		snprintf(label, sizeof(label), "%s", w->label);
		fprintf(f, "  %-*.*s %*s %*s %9s%s%s\n", lw, lw, label, vw,
			cell(b, sizeof(b), w, RS_SIDE_BASE, ref, multi), vw,
			cell(n, sizeof(n), w, RS_SIDE_NEW, ref, multi),
			fmt_move(m, sizeof(m), w), *p ? "  " : "", p);
		/* several runs a side: the seeds' min and max under the mean */
		if (multi && w->d)
			fprintf(f, "  %-*s %*s %*s\n", lw, "    min..max", vw,
				range(b, sizeof(b), w, RS_SIDE_BASE, ref), vw,
				range(n, sizeof(n), w, RS_SIDE_NEW, ref));
		shown++;
	}
	note_victims(f, r, labels);
	if (hidden)
		fprintf(f, "(%zu more figures moved less than %g%% (%g points)%s: --all shows them)\n",
			hidden, rs_ranking_threshold(r), rs_ranking_threshold(r) / 2,
			multi ? " or not significantly" : "");
}

/* One MMTests row: "PREFIX LABEL (UNIT)" then each side's value, the new one with [P%]. */
static void mm_row(FILE *f, const char *prefix, const struct rs_rank_row *w, double base,
		   double new, double ref)
{
	char label[96], b[48], n[48], pc[24], unit[24] = "";
	double pct;

	if (w->unit == RS_UNIT_US || w->unit == RS_UNIT_S) {
		const char *tu;

		time_div(w->unit == RS_UNIT_S ? ref * 1e6 : ref, &tu);
		snprintf(unit, sizeof(unit), " (%s)", tu);
	} else if (w->unit == RS_UNIT_PAGES || w->unit == RS_UNIT_FOLIOS) {
		snprintf(unit, sizeof(unit), " (%s)", rs_rank_unit_name(w->unit));
	}
	if (*prefix)
		snprintf(label, sizeof(label), "%-6s %s%s", prefix, w->label, unit);
	else
		snprintf(label, sizeof(label), "%s%s", w->label, unit);
	fmt_value(b, sizeof(b), w->unit, base, ref);
	fmt_value(n, sizeof(n), w->unit, new, ref);
	/* strip the time unit from the cells: it is in the label */
	if (w->unit == RS_UNIT_US || w->unit == RS_UNIT_S) {
		*strchrnul(b, ' ') = 0;
		*strchrnul(n, ' ') = 0;
	}
	if (w->unit == RS_UNIT_PCT)
		snprintf(pc, sizeof(pc), "[%+.1fpt]", new - base);
	else if (w->unit == RS_UNIT_DIST)
		snprintf(pc, sizeof(pc), "[moved %.1fpt]", w->move);
	else if (base == 0 && new == 0)
		snprintf(pc, sizeof(pc), "[100.0%%]");
	else if (base == 0)
		snprintf(pc, sizeof(pc), "[n/a]");
	else if ((pct = new / base * 100), 1)
		snprintf(pc, sizeof(pc), "[%.1f%%]", pct);
	fprintf(f, "%-40.40s %20s %20s %s\n", label, b, n, pc);
}

void rs_diff_mmtests(FILE *f, const struct rs_compare *c, const struct rs_ranking *r,
		     const char *const labels[RS_NR_SIDES])
{
	bool multi = rs_compare_nr_runs(c, RS_SIDE_BASE) > 1 || rs_compare_nr_runs(c, RS_SIDE_NEW) > 1;
	const char *group = NULL;

	/* MMTests' two header rows: the kernels (when they differ), then the names */
	if (rs_compare_kernels_differ(c))
		fprintf(f, "%-40s %20.20s %20.20s\n", "", rs_compare_kernel(c, RS_SIDE_BASE, 0),
			rs_compare_kernel(c, RS_SIDE_NEW, 0));
	fprintf(f, "%-40s %20.20s %20.20s\n", "", labels[RS_SIDE_BASE], labels[RS_SIDE_NEW]);
	for (size_t i = 0; i < rs_ranking_count(r); i++) {
		const struct rs_rank_row *w = rs_ranking_row(r, i);
		double ref = fmax(fabs(w->base), fabs(w->new));

		if (!w->changed)
			continue;
		if (!group || strcmp(group, w->group)) {
			fprintf(f, "%s\n", w->group);
			group = w->group;
		}
		if (!multi || !w->d) {
			mm_row(f, multi ? "Amean" : "", w, w->base, w->new, ref);
			continue;
		}
		mm_row(f, "Min", w, w->d->side[0].min, w->d->side[1].min, ref);
		mm_row(f, "Max", w, w->d->side[0].max, w->d->side[1].max, ref);
		mm_row(f, "Amean", w, w->base, w->new, ref);
		mm_row(f, "Stddev", w, w->d->side[0].std, w->d->side[1].std, ref);
	}
	note_victims(f, r, labels);
}
