/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One escaping rule for every string from a trace that reaches a terminal (text reports, error
 * messages, the TUI): task names, kernel releases, cgroup paths, shrinker names and marker text
 * may hold any byte, and a crafted trace must not clear the screen, set the window title, move
 * the cursor or hide lines. C0 controls (newline and tab included), DEL and the UTF-8 encoded C1
 * controls (U+0080..U+009F: 0x9b is a CSI on some terminals) become "\xHH" (C1: "\u0080");
 * everything else, valid UTF-8 included, is kept. JSON escapes on its own.
 */
#ifndef TEXT_ESCAPE_H
#define TEXT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Escape s into buf (n bytes, always terminated; cut at a character boundary). Returns buf. */
char *rs_escape(char *buf, size_t n, const char *s);

/*
 * The same into one of a few rotating thread-local buffers of RS_ESC_MAX bytes, for use as a
 * printf argument (at most RS_ESC_SLOTS in one call). NULL gives "(null)".
 */
#define RS_ESC_MAX	512
#define RS_ESC_SLOTS	8
const char *rs_esc(const char *s);

/* Write len bytes of s to f with the same escapes, newlines kept (a whole report's line). */
void rs_escape_write(FILE *f, const char *s, size_t len);

/*
 * s if it fits w columns, else its last w - 3 bytes after "..." in buf (w + 1 bytes): a long
 * cgroup path keeps the tail that tells it apart ("...rs_parent/rs_a").
 */
const char *rs_text_tail(const char *s, char *buf, size_t w);

#endif
