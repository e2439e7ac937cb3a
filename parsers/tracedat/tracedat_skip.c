// SPDX-License-Identifier: GPL-2.0
/*
 * What our handles leave libtraceevent to parse of a file. Every tracecmd_open() parses the
 * file's kallsyms into the handle's tep (libtracecmd calls libtraceevent's
 * tep_parse_kallsyms(), a sscanf per line: ~85 ms for a full kallsyms) and every event format
 * in it (tep_parse_event(): a 6.18 trace holds ~2,300, and libtraceevent 1.7.1, built without
 * optimization, takes 0.7 G instructions for them, as much as decoding 2 M events), and
 * libtracecmd 1.3.1 offers no way to open a handle without either (tracecmd_read_headers()
 * ignores its state argument on v7 files). These definitions take the place of
 * libtraceevent's for libtracecmd's calls (the executable's symbols come first) and hand over
 * to it with less to do, as the calling thread's flags say:
 * - of a format we do not decode, only the name, ID and common fields, cut before the
 *   event's own fields and print format (0.70 G -> 0.24 G instructions on that trace): we
 *   count its records by name and read common_type and common_pid, no more; libtraceevent
 *   keeps the event, marked failed (TEP_EVENT_FL_FAILED), which matters only for printing;
 * - the first handle keeps the kallsyms text, parsed apart (tracedat_kallsyms.c);
 * - the handles opened after the first (decode threads', the reopens that bound
 *   libtracecmd's chunk cache, RS_ZCACHE_BUDGET) skip the kallsyms, since shrinker names are
 *   looked up in the first handle's tep, which the source keeps (tracedat.c), and skip the
 *   formats too when records are read through the format table alone (td->direct_common):
 *   libtracecmd reads ring-buffer pages without them (its only look-up,
 *   tracecmd_ftrace_overrides(), runs with plugins, which we never load).
 * Were libtracecmd to call something else, every handle would simply parse it all again.
 *
 * One more stands in for libtracecmd's own: tracecmd_parse_trace_clock(), for a leak (below).
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "rs_normalize.h"
#include "tracedat_skip.h"

static __thread unsigned int parse_flags;
static __thread char *kept_kallsyms;
static __thread bool kept_matched;
static __thread bool (*kallsyms_same)(void *arg, const char *text);
static __thread void *kallsyms_same_arg;

/* s at p, within end */
static bool at(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* past the line at p; NULL when it does not end in a newline */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : NULL;
}

size_t tracedat_format_name(const char *buf, unsigned long size, char *name, size_t room)
{
	const char *end = buf + size, *p = buf + 6;
	size_t len = 0;

	/* "name: NAME\n", NAME a word (else libtraceevent may read another) */
	if (!at(buf, end, "name: "))
		return 0;
	while (p + len < end && (p[len] == '_' || (p[len] >= 'a' && p[len] <= 'z') ||
				 (p[len] >= 'A' && p[len] <= 'Z') || (p[len] >= '0' && p[len] <= '9')))
		len++;
	if (!len || len >= room || p + len == end || p[len] != '\n')
		return 0;
	memcpy(name, p, len);
	name[len] = '\0';
	return 6 + len + 1;
}

unsigned long tracedat_format_len(const char *buf, unsigned long size)
{
	const char *end = buf + size, *p;
	size_t line = 0;
	char nm[128];
	int fields = 0;

	/* "name: NAME\nID: N\nformat:\n" */
	line = tracedat_format_name(buf, size, nm, sizeof(nm));
	if (!line || rs_kevent_find(NULL, nm) >= 0)
		return size;
	p = buf + line;
	if (!at(p, end, "ID: ") || !(p = next_line(p, end)) || !at(p, end, "format:\n"))
		return size;
	p += 8;
	/* the common fields, then the blank line that ends them */
	while (at(p, end, "\tfield:") && (p = next_line(p, end)))
		fields++;
	if (!p || !fields || p == end || *p != '\n')
		return size;
	return (unsigned long)(p + 1 - buf);
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms);

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*parse)(struct tep_handle *, const char *);

	if (parse_flags & TRACEDAT_NO_KALLSYMS)
		return 0;
	if (parse_flags & TRACEDAT_KEEP_KALLSYMS) {
		free(kept_kallsyms);
		kept_kallsyms = NULL;
		/* the text read already (tracedat_kallsyms_match()): no copy of 5 MB to compare */
		kept_matched = kallsyms_same && kallsyms_same(kallsyms_same_arg, kallsyms);
		kallsyms_same = NULL;
		if (kept_matched)
			return 0;
		kept_kallsyms = strdup(kallsyms);	/* libtracecmd frees its buffer */
		return kept_kallsyms ? 0 : -1;
	}
	if (!parse)
		parse = (int (*)(struct tep_handle *, const char *))dlsym(RTLD_NEXT,
									 "tep_parse_kallsyms");
	return parse ? parse(tep, kallsyms) : -1;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static enum tep_errno (*parse)(struct tep_handle *, const char *, unsigned long,
				       const char *);

	if (parse_flags & TRACEDAT_NO_FORMATS)
		return 0;
	if (parse_flags & TRACEDAT_CUT_FORMATS)
		size = tracedat_format_len(buf, size);
	if (!parse)
		parse = (enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
					    const char *))dlsym(RTLD_NEXT, "tep_parse_event");
	return parse ? parse(tep, buf, size, sys) : TEP_ERRNO__MEM_ALLOC_FAILED;
}

void tracedat_kallsyms_match(bool (*same)(void *arg, const char *text), void *arg)
{
	kallsyms_same = same;
	kallsyms_same_arg = arg;
}

char *tracedat_kallsyms_take(bool *matched)
{
	char *text = kept_kallsyms;

	*matched = kept_matched;
	kept_kallsyms = NULL;
	kept_matched = false;
	kallsyms_same = NULL;
	return text;
}

/*
 * libtracecmd 3.1.6 leaks the trace clock's name of every v6 file recorded with a trace clock:
 * it reads the clock twice (the TRACECLOCK option, then the trace_clock text after the
 * flyrecord section) and extract_trace_clock() overwrites the handle's copy without freeing
 * the first (trace-input.c). Both reads go through the exported tracecmd_parse_trace_clock(),
 * which libtracecmd calls through its PLT, so this takes its place like the two above: it
 * hands over to libtracecmd's and frees the name the handle held before, once the handle no
 * longer holds it. Besides the leak itself, each process of make check's sanitizer round that
 * opened a v6 file paid LeakSanitizer's symbolizer at exit to match it against a suppression
 * (~0.15 CPU seconds; 129 processes).
 */
/* libtracecmd's, exported but not in its installed headers */
void tracecmd_parse_trace_clock(struct tracecmd_input *handle, char *file, int size);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);

void tracecmd_parse_trace_clock(struct tracecmd_input *handle, char *file, int size)
{
	static void (*parse)(struct tracecmd_input *, char *, int);
	const char *before = tracecmd_get_trace_clock(handle);

	if (!parse)
		parse = (void (*)(struct tracecmd_input *, char *, int))dlsym(RTLD_NEXT,
							"tracecmd_parse_trace_clock");
	if (!parse)
		return;
	parse(handle, file, size);
	if (before && tracecmd_get_trace_clock(handle) != before)
		free((char *)before);
}

void tracedat_parse_set(unsigned int flags)
{
	parse_flags = flags;
}
