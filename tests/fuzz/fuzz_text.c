// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the text-trace loader (parsers/text/textlog.c). The loader is chosen by the
 * file's first bytes, so inputs that start like a trace.dat are left to fuzz_tracedat.c.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 3 && !memcmp(data, "\027\010\104", 3))
		return -1;	/* libFuzzer: do not add to the corpus */
	return fuzz_run(data, size);
}
