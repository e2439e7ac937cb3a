// SPDX-License-Identifier: GPL-2.0
/*
 * cairo and fontconfig for plot, loaded with dlopen() when plot runs (plot_cairo.h). Linked
 * into the executable, they and the libraries they pull in (pixman, freetype, png, X11, xcb,
 * expat, brotli: 17 of its 29 shared objects) were loaded and relocated by every command
 * before main(), ~5.5 ms of each start (exec of a program linked as reclaimscope is, with and
 * without them, medians of 200 runs) on the critical path of analyze, for plot alone.
 *
 * Each function plot calls is defined here with cairo's own prototype (the headers check it)
 * and calls the library's, found once by plot_cairo_load(); none is called before that
 * succeeded (cmd_plot.c). The executable exports none of these names (no shared object it
 * links refers to them), so the libraries' own calls never land here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "plot_cairo.h"

/* The sonames of the libraries pkg-config names (cairo and fontconfig keep them stable). */
#define CAIRO_SONAME		"libcairo.so.2"
#define FONTCONFIG_SONAME	"libfontconfig.so.1"

/* FN(library, return type, name, (parameters), (arguments)); VFN for void functions */
#define PLOT_FUNCTIONS(FN, VFN) \
	FN(cairo, cairo_t *, cairo_create, (cairo_surface_t *target), (target)) \
	VFN(cairo, cairo_destroy, (cairo_t *cr), (cr)) \
	FN(cairo, cairo_status_t, cairo_status, (cairo_t *cr), (cr)) \
	FN(cairo, const char *, cairo_status_to_string, (cairo_status_t status), (status)) \
	VFN(cairo, cairo_save, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_restore, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty)) \
	VFN(cairo, cairo_rotate, (cairo_t *cr, double angle), (cr, angle)) \
	VFN(cairo, cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y)) \
	VFN(cairo, cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y)) \
	VFN(cairo, cairo_arc, (cairo_t *cr, double xc, double yc, double radius, double angle1, \
			       double angle2), (cr, xc, yc, radius, angle1, angle2)) \
	VFN(cairo, cairo_rectangle, (cairo_t *cr, double x, double y, double width, \
				     double height), (cr, x, y, width, height)) \
	VFN(cairo, cairo_new_sub_path, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_close_path, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_stroke, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_fill, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_clip, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_paint, (cairo_t *cr), (cr)) \
	VFN(cairo, cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), \
	    (cr, red, green, blue)) \
	VFN(cairo, cairo_set_source_rgba, (cairo_t *cr, double red, double green, double blue, \
					   double alpha), (cr, red, green, blue, alpha)) \
	VFN(cairo, cairo_set_line_width, (cairo_t *cr, double width), (cr, width)) \
	VFN(cairo, cairo_set_line_join, (cairo_t *cr, cairo_line_join_t line_join), \
	    (cr, line_join)) \
	VFN(cairo, cairo_set_dash, (cairo_t *cr, const double *dashes, int num_dashes, \
				    double offset), (cr, dashes, num_dashes, offset)) \
	VFN(cairo, cairo_select_font_face, (cairo_t *cr, const char *family, \
					    cairo_font_slant_t slant, \
					    cairo_font_weight_t weight), \
	    (cr, family, slant, weight)) \
	VFN(cairo, cairo_set_font_size, (cairo_t *cr, double size), (cr, size)) \
	VFN(cairo, cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8)) \
	VFN(cairo, cairo_text_extents, (cairo_t *cr, const char *utf8, \
					cairo_text_extents_t *extents), (cr, utf8, extents)) \
	FN(cairo, cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, \
								  int width, int height), \
	   (format, width, height)) \
	FN(cairo, cairo_surface_t *, cairo_svg_surface_create_for_stream, \
	   (cairo_write_func_t write_func, void *closure, double width_in_points, \
	    double height_in_points), (write_func, closure, width_in_points, height_in_points)) \
	FN(cairo, cairo_status_t, cairo_surface_write_to_png_stream, \
	   (cairo_surface_t *surface, cairo_write_func_t write_func, void *closure), \
	   (surface, write_func, closure)) \
	FN(cairo, cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface)) \
	VFN(cairo, cairo_surface_finish, (cairo_surface_t *surface), (surface)) \
	VFN(cairo, cairo_surface_destroy, (cairo_surface_t *surface), (surface)) \
	VFN(cairo, cairo_debug_reset_static_data, (void), ()) \
	VFN(fontconfig, FcFini, (void), ())

/* the library's function of each name */
#define PTR(lib, ret, name, params, args) static ret (*p_##name) params;
#define VPTR(lib, name, params, args) static void (*p_##name) params;
PLOT_FUNCTIONS(PTR, VPTR)

static bool loaded;

int plot_cairo_load(char *err, size_t n)
{
	void *cairo, *fontconfig;
	const char *missing = NULL;

	if (loaded)
		return 0;
	cairo = dlopen(CAIRO_SONAME, RTLD_NOW | RTLD_LOCAL);
	fontconfig = cairo ? dlopen(FONTCONFIG_SONAME, RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!cairo || !fontconfig) {
		snprintf(err, n, "cannot load %s: %s", cairo ? FONTCONFIG_SONAME : CAIRO_SONAME,
			 dlerror());
		return -1;
	}
#define FIND(lib, name) \
	do { \
		void *sym = dlsym(lib, #name); \
\
		memcpy(&p_##name, &sym, sizeof(sym)); \
		if (!sym && !missing) \
			missing = #name; \
	} while (0);
#define FIND_FN(lib, ret, name, params, args) FIND(lib, name)
#define FIND_VFN(lib, name, params, args) FIND(lib, name)
	PLOT_FUNCTIONS(FIND_FN, FIND_VFN)
	if (missing) {
		snprintf(err, n, "%s or %s has no %s", CAIRO_SONAME, FONTCONFIG_SONAME, missing);
		return -1;
	}
	loaded = true;
	return 0;
}

bool plot_cairo_loaded(void)
{
	return loaded;
}

/* cairo's names, handing over to the library's */
#define DEF(lib, ret, name, params, args) ret name params { return p_##name args; }
#define VDEF(lib, name, params, args) void name params { p_##name args; }
PLOT_FUNCTIONS(DEF, VDEF)
