/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cairo and fontconfig, loaded when plot draws (plot_cairo.c) rather than by every command at
 * start-up: the executable is not linked with them, and their functions that plot calls are
 * defined in plot_cairo.c, each handing over to the library's own.
 */
#ifndef PLOT_CAIRO_H
#define PLOT_CAIRO_H

#include <stdbool.h>
#include <stddef.h>

/* Load the libraries and find every function plot calls: 0, or -1 with why in err. */
int plot_cairo_load(char *err, size_t n);
/* Whether plot_cairo_load() succeeded: the functions may be called. */
bool plot_cairo_loaded(void);

#endif
