/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drawing helpers of the plot (private to cmd/plot/): frames with linear or log axes, nice
 * ticks with units, colours and dashes, legends and text. Pure cairo; knows nothing of traces.
 */
#ifndef RS_PLOT_AXES_H
#define RS_PLOT_AXES_H

#include <cairo.h>
#include <stdbool.h>
#include <stdint.h>

/* How tick labels of an axis are written. */
enum plot_unit {
	PLOT_UNIT_PLAIN,		/* 1.5k, 2M */
	PLOT_UNIT_SECONDS,		/* values are s: 0.5, 10 */
	PLOT_UNIT_NS_TIME,		/* values are ns, written 10 us, 1 ms, 2 s */
	PLOT_UNIT_PCT,			/* 0..100 % */
};

struct plot_axis {
	double lo, hi;
	bool log;			/* decades; lo and hi > 0 */
	enum plot_unit unit;
	const char *label;		/* with its unit, e.g. "pages/s" */
	bool hide;			/* no ticks, grid or labels (rows of bars) */
};

struct plot_frame {
	double x, y, w, h;		/* the plotting area, device units */
	struct plot_axis xa, ya;
};

#define PLOT_FONT		"DejaVu Sans"
#define PLOT_FONT_SIZE		13.0
#define PLOT_NR_COLORS		8
#define PLOT_NR_DASHES		4

/* Okabe-Ito colours (colour-blind safe, distinct in grey print by their order of darkness). */
void plot_color(cairo_t *cr, int i, double alpha);
/* Line style of the i-th trace: solid, dashed, dotted, dash-dot. */
void plot_dash(cairo_t *cr, int i);
const char *plot_dash_name(int i);

double plot_px(const struct plot_frame *f, double v);
double plot_py(const struct plot_frame *f, double v);
/* Is v inside the axis range (log axes: > 0)? */
bool plot_x_in(const struct plot_frame *f, double v);

/* Widen an axis to nice bounds (linear: 0..nice max; log: whole decades). */
void plot_axis_nice(struct plot_axis *a);

/* Frame, grid, ticks, tick labels and axis labels. */
void plot_frame_draw(cairo_t *cr, const struct plot_frame *f);
/* A note centred in the frame (e.g. "no kswapd activity"). */
void plot_frame_note(cairo_t *cr, const struct plot_frame *f, const char *text);

/* Text at (x, y): align 0 left, 0.5 centre, 1 right; y is the baseline. */
void plot_text(cairo_t *cr, double x, double y, double size, bool bold, double align,
	       const char *text);
double plot_text_width(cairo_t *cr, double size, bool bold, const char *text);

/* Format v with the unit (buf of n bytes); returns buf. */
const char *plot_fmt(char *buf, size_t n, double v, enum plot_unit u);

/*
 * A legend laid out in rows from (x, y) over width w: each entry is a sample (colour, dash,
 * marker or box) and a text. Returns the height used.
 */
enum plot_sample { PLOT_SAMPLE_LINE, PLOT_SAMPLE_BOX, PLOT_SAMPLE_DOT, PLOT_SAMPLE_NONE };
struct plot_legend_entry {
	enum plot_sample sample;
	int color;			/* -1: black */
	int dash;			/* trace line style */
	int marker;			/* PLOT_SAMPLE_DOT: plot_marker() shape; 4: a ring */
	char text[160];
};
double plot_legend(cairo_t *cr, double x, double y, double w,
		   const struct plot_legend_entry *e, int n);

/* Marker shape i (circle, cross, square, triangle) of radius r at (x, y), stroked or filled. */
void plot_marker(cairo_t *cr, int shape, double x, double y, double r);

#endif
