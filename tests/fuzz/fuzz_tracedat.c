// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the trace.dat loader (parsers/tracedat/tracedat.c over libtracecmd). Inputs not
 * starting with the trace.dat magic would go to the text loader, which fuzz_text.c covers;
 * rejecting them keeps this corpus on the binary path.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3 || memcmp(data, "\027\010\104", 3))
		return -1;	/* libFuzzer: do not add to the corpus */
	return fuzz_run(data, size);
}
