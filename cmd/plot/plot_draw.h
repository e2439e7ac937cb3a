/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plot's figures (docs/plot.md): a view over finished analysis results, like the TUI. It
 * reads the results of one or more traces and draws panels on a cairo context; it computes
 * nothing the analysis does not (rates are a bucket's total over its width). The same drawing
 * serves SVG and PNG surfaces (cmd_plot.c makes them).
 *
 * A new figure (refaults, say) is one entry in the panel table of plot_draw.c and, when it needs
 * results the analysis does not have yet, one more member in struct plot_trace.
 */
#ifndef RS_PLOT_DRAW_H
#define RS_PLOT_DRAW_H

#include <cairo.h>
#include <stddef.h>

#include "analysis.h"
#include "cgroups.h"
#include "refaults.h"
#include "trace_source.h"

/* One trace's finished results, as the plot reads them (nothing here is owned). */
struct plot_trace {
	const char *label;			/* "base", "new", or the file name */
	const struct rs_trace_info *info;
	const struct rs_analysis *a;		/* made with keep_episodes */
	const struct rs_cgroups *cg;		/* per-cgroup victims; NULL: not analysed */
	const struct rs_refaults *rf;		/* refaults (docs/refaults.md); NULL: none */
};

#define PLOT_WIDTH	1100.0		/* device units: pt in SVG, px in PNG */

/* Parse a comma-separated --what list into a panel mask; -1 and *bad the unknown name. */
int plot_what_parse(const char *list, unsigned int *mask, char *bad, size_t n);
/* "scan, stalls, latency, kswapd, cgroups, refaults" */
const char *plot_what_names(void);
unsigned int plot_what_all(void);

/* Height of the page for these panels and traces. */
double plot_height(const struct plot_trace *t, int n, unsigned int mask);
/* Draw the page (white background, title, the panels in table order). */
void plot_draw(cairo_t *cr, const struct plot_trace *t, int n, unsigned int mask);

#endif
