// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the kallsyms table (parsers/tracedat/tracedat_kallsyms.c), differential:
 * the input, as a kallsyms text, is looked up through tracedat_ksyms_name() and, the oracle,
 * through libtraceevent's tep_parse_kallsyms() and tep_find_function(); every address the text
 * names, one below and one above, 0 and the top addresses must give the same name, or none in
 * both. A difference aborts.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "../../parsers/tracedat/tracedat_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_at(struct tracedat_ksyms *k, struct tep_handle *lib, unsigned long long addr)
{
	const char *ours = tracedat_ksyms_name(k, addr);
	const char *theirs = tep_find_function(lib, addr);

	if ((ours || theirs) && (!ours || !theirs || strcmp(ours, theirs)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *mine;
	struct tracedat_ksyms k;
	struct tep_handle *lib;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	mine = strdup(text);
	lib = tep_alloc();
	if (mine && lib) {
		memset(&k, 0, sizeof(k));
		tracedat_ksyms_init(&k, mine, false);	/* taken: parsed at the first name wanted */
		mine = NULL;
		tep_parse_kallsyms(lib, text);
		for (unsigned long long i = 0; i < 3; i++)
			same_at(&k, lib, i ? ~0ull - (i - 1) : 0);
		for (const char *p = text; *p; ) {
			unsigned long long addr = strtoull(p, NULL, 16);

			same_at(&k, lib, addr - 1);
			same_at(&k, lib, addr);
			same_at(&k, lib, addr + 1);
			p = strchrnul(p, '\n');
			if (*p)
				p++;
		}
		tracedat_ksyms_free(&k);
	}
	if (lib)
		tep_free(lib);
	free(mine);
	free(text);
	return 0;
}
