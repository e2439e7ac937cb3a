/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What our libtracecmd handles leave libtraceevent to parse of a trace.dat (tracedat_skip.c),
 * and so what the container check's test parse of the event formats must cover
 * (tracedat_check.c).
 */
#ifndef TRACEDAT_SKIP_H
#define TRACEDAT_SKIP_H

#include <stdbool.h>
#include <stddef.h>

#define TRACEDAT_NO_KALLSYMS	(1u << 0)	/* names are looked up in the first handle's */
#define TRACEDAT_NO_FORMATS	(1u << 1)	/* records are told apart by the format table */
#define TRACEDAT_CUT_FORMATS	(1u << 2)	/* tracedat_format_len() of each format */
#define TRACEDAT_KEEP_KALLSYMS	(1u << 3)	/* not parsed: kept for tracedat_kallsyms_take() */

/* What tracecmd_open() on the calling thread parses from now on: 0 (all of it) or flags. */
void tracedat_parse_set(unsigned int flags);

/*
 * The next TRACEDAT_KEEP_KALLSYMS open on the calling thread first asks same(arg, text) of the
 * file's kallsyms text: when it says true, the text is not kept (it is one read already).
 */
void tracedat_kallsyms_match(bool (*same)(void *arg, const char *text), void *arg);

/*
 * The kallsyms text the last TRACEDAT_KEEP_KALLSYMS open kept (malloc'ed), or NULL: none, or
 * *matched, the one tracedat_kallsyms_match()'s function said it had.
 */
char *tracedat_kallsyms_take(bool *matched);

/*
 * The event name of a format text laid out as the kernel writes it ("name: NAME\n", a word of
 * fewer than room bytes), into name; the bytes of that line, or 0 when there is none such.
 */
size_t tracedat_format_name(const char *buf, unsigned long size, char *name, size_t room);

/*
 * The bytes of an event format text that libtraceevent is given to parse: all of them for an
 * event we decode (or a text not laid out as the kernel writes it); for any other, its name,
 * ID and common fields, which is all we use of it (counting its records by name, reading
 * common_type and common_pid).
 */
unsigned long tracedat_format_len(const char *buf, unsigned long size);

#endif
