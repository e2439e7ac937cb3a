// SPDX-License-Identifier: GPL-2.0
/* Frames, axes, ticks, legends and text for the plot (plot_axes.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_axes.h"

static const double colors[PLOT_NR_COLORS][3] = {
	{ 0x00 / 255., 0x72 / 255., 0xB2 / 255. },	/* blue */
	{ 0xD5 / 255., 0x5E / 255., 0x00 / 255. },	/* vermillion */
	{ 0x00 / 255., 0x9E / 255., 0x73 / 255. },	/* bluish green */
	{ 0xE6 / 255., 0x9F / 255., 0x00 / 255. },	/* orange */
	{ 0xCC / 255., 0x79 / 255., 0xA7 / 255. },	/* reddish purple */
	{ 0x56 / 255., 0xB4 / 255., 0xE9 / 255. },	/* sky blue */
	{ 0x66 / 255., 0x66 / 255., 0x66 / 255. },	/* grey */
	{ 0xF0 / 255., 0xE4 / 255., 0x42 / 255. },	/* yellow */
};

void plot_color(cairo_t *cr, int i, double alpha)
{
	if (i < 0) {
		cairo_set_source_rgba(cr, 0, 0, 0, alpha);
		return;
	}
	i %= PLOT_NR_COLORS;
	cairo_set_source_rgba(cr, colors[i][0], colors[i][1], colors[i][2], alpha);
}

void plot_dash(cairo_t *cr, int i)
{
	static const double dashed[] = { 7, 4 }, dotted[] = { 1.5, 3 };
	static const double dashdot[] = { 7, 3, 1.5, 3 };

	switch (i % PLOT_NR_DASHES) {
	case 0:
		cairo_set_dash(cr, NULL, 0, 0);
		break;
	case 1:
		cairo_set_dash(cr, dashed, 2, 0);
		break;
	case 2:
		cairo_set_dash(cr, dotted, 2, 0);
		break;
	default:
		cairo_set_dash(cr, dashdot, 4, 0);
		break;
	}
}

const char *plot_dash_name(int i)
{
	static const char *const names[PLOT_NR_DASHES] = { "solid", "dashed", "dotted",
							   "dash-dot" };

	return names[i % PLOT_NR_DASHES];
}

static double axis_pos(const struct plot_axis *a, double v)
{
	if (a->log) {
		double l = log10(a->lo), h = log10(a->hi);

		return v > 0 ? (log10(v) - l) / (h - l) : -1;
	}
	return (v - a->lo) / (a->hi - a->lo);
}

double plot_px(const struct plot_frame *f, double v)
{
	return f->x + axis_pos(&f->xa, v) * f->w;
}

double plot_py(const struct plot_frame *f, double v)
{
	return f->y + f->h - axis_pos(&f->ya, v) * f->h;
}

bool plot_x_in(const struct plot_frame *f, double v)
{
	if (f->xa.log && v <= 0)
		return false;
	return v >= f->xa.lo && v <= f->xa.hi;
}

static double nice_step(double span)
{
	double raw = span / 5, mag, norm;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

void plot_axis_nice(struct plot_axis *a)
{
	if (a->log) {
		if (!(a->lo > 0))
			a->lo = 1;
		if (!(a->hi > a->lo))
			a->hi = a->lo * 10;
		a->lo = pow(10, floor(log10(a->lo) + 1e-9));
		a->hi = pow(10, ceil(log10(a->hi) - 1e-9));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (a->lo > 0)
		a->lo = 0;
	if (!(a->hi > a->lo))
		a->hi = a->lo + 1;
	a->hi = ceil(a->hi / nice_step(a->hi - a->lo) - 1e-9) * nice_step(a->hi - a->lo);
}

const char *plot_fmt(char *buf, size_t n, double v, enum plot_unit u)
{
	double a = fabs(v);

	switch (u) {
	case PLOT_UNIT_NS_TIME:
		if (a < 1e3)
			snprintf(buf, n, "%.3g ns", v);
		else if (a < 1e6)
			snprintf(buf, n, "%.3g \xc2\xb5s", v / 1e3);
		else if (a < 1e9)
			snprintf(buf, n, "%.3g ms", v / 1e6);
		else
			snprintf(buf, n, "%.3g s", v / 1e9);
		break;
	case PLOT_UNIT_PCT:
		snprintf(buf, n, "%.3g %%", v);
		break;
	case PLOT_UNIT_SECONDS:
		snprintf(buf, n, "%.4g", v);
		break;
	default:
		if (a >= 1e9)
			snprintf(buf, n, "%.3gG", v / 1e9);
		else if (a >= 1e6)
			snprintf(buf, n, "%.3gM", v / 1e6);
		else if (a >= 1e3)
			snprintf(buf, n, "%.3gk", v / 1e3);
		else
			snprintf(buf, n, "%.3g", v);
		break;
	}
	return buf;
}

static void set_font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double plot_text_width(cairo_t *cr, double size, bool bold, const char *text)
{
	cairo_text_extents_t te;

	set_font(cr, size, bold);
	cairo_text_extents(cr, text, &te);
	return te.x_advance;
}

void plot_text(cairo_t *cr, double x, double y, double size, bool bold, double align,
	       const char *text)
{
	double w = plot_text_width(cr, size, bold, text);

	cairo_move_to(cr, x - align * w, y);
	cairo_show_text(cr, text);
}

/* Tick values of an axis into t[max]; returns how many. */
static int ticks(const struct plot_axis *a, double *t, int max)
{
	int n = 0;

	if (a->hide)
		return 0;
	if (a->log) {
		for (double v = a->lo; v <= a->hi * 1.0001 && n < max; v *= 10)
			t[n++] = v;
		return n;
	}
	double step = nice_step(a->hi - a->lo);

	for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-6 && n < max;
	     v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

void plot_frame_draw(cairo_t *cr, const struct plot_frame *f)
{
	double t[64];
	char buf[48];
	int n;

	cairo_save(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 0.6);
	/* grid */
	cairo_set_source_rgb(cr, 0.87, 0.87, 0.87);
	n = ticks(&f->xa, t, 64);
	for (int i = 0; i < n; i++) {
		cairo_move_to(cr, plot_px(f, t[i]), f->y);
		cairo_line_to(cr, plot_px(f, t[i]), f->y + f->h);
	}
	n = ticks(&f->ya, t, 64);
	for (int i = 0; i < n; i++) {
		cairo_move_to(cr, f->x, plot_py(f, t[i]));
		cairo_line_to(cr, f->x + f->w, plot_py(f, t[i]));
	}
	cairo_stroke(cr);
	/* frame and labels */
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_stroke(cr);
	n = ticks(&f->xa, t, 64);
	for (int i = 0; i < n; i++) {
		double x = plot_px(f, t[i]);

		cairo_move_to(cr, x, f->y + f->h);
		cairo_line_to(cr, x, f->y + f->h + 4);
		cairo_stroke(cr);
		plot_text(cr, x, f->y + f->h + 17, PLOT_FONT_SIZE - 1, false, 0.5,
			  plot_fmt(buf, sizeof(buf), t[i], f->xa.unit));
	}
	n = ticks(&f->ya, t, 64);
	for (int i = 0; i < n; i++) {
		double y = plot_py(f, t[i]);

		cairo_move_to(cr, f->x - 4, y);
		cairo_line_to(cr, f->x, y);
		cairo_stroke(cr);
		plot_text(cr, f->x - 7, y + 4.5, PLOT_FONT_SIZE - 1, false, 1,
			  plot_fmt(buf, sizeof(buf), t[i], f->ya.unit));
	}
	if (f->xa.label)
		plot_text(cr, f->x + f->w / 2, f->y + f->h + 35, PLOT_FONT_SIZE, false, 0.5,
			  f->xa.label);
	if (f->ya.label) {
		cairo_save(cr);
		cairo_translate(cr, f->x - 58, f->y + f->h / 2);
		cairo_rotate(cr, -M_PI / 2);
		plot_text(cr, 0, 0, PLOT_FONT_SIZE, false, 0.5, f->ya.label);
		cairo_restore(cr);
	}
	cairo_restore(cr);
}

void plot_frame_note(cairo_t *cr, const struct plot_frame *f, const char *text)
{
	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
	plot_text(cr, f->x + f->w / 2, f->y + f->h / 2, PLOT_FONT_SIZE + 1, false, 0.5, text);
	cairo_restore(cr);
}

void plot_marker(cairo_t *cr, int shape, double x, double y, double r)
{
	switch (shape % 4) {
	case 0:
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		break;
	case 1:
		cairo_move_to(cr, x - r, y - r);
		cairo_line_to(cr, x + r, y + r);
		cairo_move_to(cr, x - r, y + r);
		cairo_line_to(cr, x + r, y - r);
		break;
	case 2:
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
		break;
	default:
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x + r * 1.1, y + r * 0.8);
		cairo_line_to(cr, x - r * 1.1, y + r * 0.8);
		cairo_close_path(cr);
		break;
	}
}

double plot_legend(cairo_t *cr, double x, double y, double w,
		   const struct plot_legend_entry *e, int n)
{
	const double row = 19, sample = 28, gap = 22;
	double cx = x, cy = y + 13;

	cairo_save(cr);
	for (int i = 0; i < n; i++) {
		double tw = plot_text_width(cr, PLOT_FONT_SIZE, false, e[i].text);

		if (e[i].sample == PLOT_SAMPLE_NONE) {
			if (cx > x && cx + tw > x + w) {
				cx = x;
				cy += row;
			}
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			plot_text(cr, cx, cy, PLOT_FONT_SIZE, false, 0, e[i].text);
			cx += tw + gap;
			continue;
		}
		if (cx > x && cx + sample + 6 + tw > x + w) {
			cx = x;
			cy += row;
		}
		plot_color(cr, e[i].color, 1);
		switch (e[i].sample) {
		case PLOT_SAMPLE_BOX:
			cairo_rectangle(cr, cx + 4, cy - 10, sample - 8, 11);
			cairo_fill(cr);
			break;
		case PLOT_SAMPLE_DOT:
			cairo_set_line_width(cr, 1.5);
			cairo_set_dash(cr, NULL, 0, 0);
			plot_marker(cr, e[i].marker, cx + sample / 2, cy - 4.5, 4);
			/* marker 4: an open ring (the worst stalls' mark) */
			if (e[i].marker % 4 == 1 || e[i].marker == 4)
				cairo_stroke(cr);
			else
				cairo_fill(cr);
			break;
		default:
			cairo_set_line_width(cr, 2.2);
			plot_dash(cr, e[i].dash);
			cairo_move_to(cr, cx, cy - 4.5);
			cairo_line_to(cr, cx + sample, cy - 4.5);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			break;
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		plot_text(cr, cx + sample + 6, cy, PLOT_FONT_SIZE, false, 0, e[i].text);
		cx += sample + 6 + tw + gap;
	}
	cairo_restore(cr);
	return cy - y + 8;
}
