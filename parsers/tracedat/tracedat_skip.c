// SPDX-License-Identifier: GPL-2.0
/*
 * What the handles opened after the first skip parsing: the file's kallsyms, and its event
 * formats where the reader does not use them. Every tracecmd_open() of a file parses its
 * kallsyms into the handle's tep (libtracecmd calls libtraceevent's tep_parse_kallsyms(), a
 * sscanf per line: ~85 ms for a full kallsyms) and every event format in the file
 * (tep_parse_event(), ~2,300 formats in a 6.18 trace: 0.7 G instructions, as much as the rest
 * of a 2 M-event v6 read's decoding); libtracecmd 1.3.1 offers no way to open a handle without
 * either (tracecmd_read_headers() ignores its state argument on v7 files). The reader needs
 * both once: formats resolve into the format table and shrinker functions are looked up in
 * the first handle's tep, which the source keeps (tracedat.c). The handles opened after it,
 * decode threads' and the reopens that bound libtracecmd's chunk cache (RS_ZCACHE_BUDGET),
 * skip the kallsyms, and the formats too when records are read through the format table
 * alone (td->direct_common): libtracecmd reads ring-buffer pages without them (its only
 * look-up, tracecmd_ftrace_overrides(), runs with plugins, which we never load). These
 * definitions take the place of libtraceevent's for libtracecmd's calls (the executable's
 * symbols come first) and hand over to it unless the calling thread opens such a handle.
 * Were libtracecmd to call something else, every handle would simply parse them again.
 */
#include <dlfcn.h>
#include <stdbool.h>

#include "tracedat_reader.h"

static __thread bool skip_kallsyms, skip_formats;

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms);

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*parse)(struct tep_handle *, const char *);

	if (skip_kallsyms)
		return 0;
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

	if (skip_formats)
		return 0;
	if (!parse)
		parse = (enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
					    const char *))dlsym(RTLD_NEXT, "tep_parse_event");
	return parse ? parse(tep, buf, size, sys) : TEP_ERRNO__MEM_ALLOC_FAILED;
}

void tracedat_skip_parse(bool kallsyms, bool formats)
{
	skip_kallsyms = kallsyms;
	skip_formats = formats;
}
