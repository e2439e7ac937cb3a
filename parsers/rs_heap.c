// SPDX-License-Identifier: GPL-2.0
/*
 * The heap of a process that reads a big trace. Two costs of glibc's defaults showed in perf:
 *
 * - It maps a block from 128 KiB (a threshold it raises up to 32 MiB) and trims the heap past
 *   128 KiB free, so the sections decompressed by the check and again by libtracecmd, the
 *   radix sort's buffer and the batches each had their pages faulted in anew (global-dev:
 *   11.8 k -> 9.2 k page faults with memory kept for reuse).
 * - A fresh 4 KiB page costs a fault and clear_page(), a quarter of the merging thread's time
 *   and of the kallsyms thread's on this VM. Advised for transparent huge pages (which distros
 *   give only where madvise()d by default: "madvise" in /sys/kernel/mm/transparent_hugepage/
 *   enabled), the heap faults 2 MiB at a time: 9.2 k -> 1.9 k faults, and CPU time of one
 *   thread 0.49 -> 0.37 s (global-dev), 0.43 -> 0.29 s (the bench trace); glibc's own
 *   glibc.malloc.hugetlb=1 tunable does the same, but only from the environment.
 *
 * So a region of the heap is grown, advised and freed before the readers allocate: glibc keeps
 * it (the trim threshold) and hands it out again. Only address space is taken up front; RSS
 * grows by the 2 MiB pages touched (+2-4 MB at the peak).
 *
 * Not under AddressSanitizer: malloc is then its allocator, which ignores mallopt() and puts a
 * freed block in quarantine, never to hand it out again. A room there only costs: poisoning the
 * shadow of the main one's 64 MiB took 4.1 k page faults, 80-100 ms of every process of the
 * sanitizer build (0.25 -> 0.14 s for `--version`), and each decode thread paid for its 16 MiB.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "rs_heap.h"

#if defined(__SANITIZE_ADDRESS__)	/* gcc */
#define RS_HEAP_ASAN	1
#elif defined(__has_feature)		/* clang (the fuzz harnesses) */
#if __has_feature(address_sanitizer)
#define RS_HEAP_ASAN	1
#endif
#endif

#define HUGE_PAGE	(2ul << 20)
#define MAIN_ROOM	(64ul << 20)	/* the main arena's: all a read of a 2 M-event trace uses */

void rs_heap_thread(size_t bytes)
{
	uint8_t *p;
	uintptr_t a, e;

#ifdef RS_HEAP_ASAN
	return;
#endif
	p = malloc(bytes);
	if (!p)
		return;
	a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	e = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
	if (e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
	free(p);
}

void rs_heap_setup(void)
{
#ifdef RS_HEAP_ASAN
	return;
#endif
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	rs_heap_thread(MAIN_ROOM);
}
