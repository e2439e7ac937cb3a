// SPDX-License-Identifier: GPL-2.0
/*
 * One kallsyms parse per trace. Every tracecmd_open() of a file parses its kallsyms into the
 * handle's tep (libtracecmd calls libtraceevent's tep_parse_kallsyms(), a sscanf per line:
 * ~85 ms for a full kallsyms), and libtracecmd 1.3.1 offers no way to open a handle without
 * it (tracecmd_read_headers() ignores its state argument on v7 files). The reader needs the
 * names once: shrinker functions are looked up in the first handle's tep, which the source
 * keeps (tracedat.c). The handles opened after it, decode threads' and the reopens that bound
 * libtracecmd's chunk cache (RS_ZCACHE_BUDGET), skip the parse: this definition takes the
 * place of libtraceevent's for libtracecmd's call (the executable's symbols come first) and
 * hands over to it unless the calling thread opens such a handle. Were libtracecmd to call
 * something else, every handle would simply parse its kallsyms again.
 */
#include <dlfcn.h>
#include <stdbool.h>

#include "tracedat_reader.h"

static __thread bool skip_kallsyms;

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

void tracedat_skip_kallsyms(bool skip)
{
	skip_kallsyms = skip;
}
