// SPDX-License-Identifier: GPL-2.0
/*
 * pngcheck FILE.png: decode a PNG with cairo's loader (libpng) and print
 * "WIDTH HEIGHT COLOURS NONWHITE_PERMILLE": its size, how many distinct colours it has (up to
 * 1000) and how much of it is not white, so that a test can tell a real figure from a blank or
 * broken one. Exit 1 when the file does not decode.
 */
#include <cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_COLOURS 1000

int main(int argc, char **argv)
{
	static uint32_t colours[MAX_COLOURS];
	cairo_surface_t *s;
	int w, h, stride, n = 0;
	unsigned long long nonwhite = 0;
	const unsigned char *data;

	if (argc != 2) {
		fprintf(stderr, "usage: pngcheck FILE.png\n");
		return 2;
	}
	s = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pngcheck: %s: %s\n", argv[1],
			cairo_status_to_string(cairo_surface_status(s)));
		return 1;
	}
	cairo_surface_flush(s);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	data = cairo_image_surface_get_data(s);
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			uint32_t px;
			int i;

			memcpy(&px, data + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
			px &= 0xffffff;
			if (px != 0xffffff)
				nonwhite++;
			for (i = 0; i < n && colours[i] != px; i++)
				;
			if (i == n && n < MAX_COLOURS)
				colours[n++] = px;
		}
	}
	printf("%d %d %d %llu\n", w, h, n, w && h ? nonwhite * 1000 / ((unsigned long long)w * h)
	       : 0);
	cairo_surface_destroy(s);
	return 0;
}
