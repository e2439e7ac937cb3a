/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the process's heap is set up for reading big traces: memory freed is kept for reuse, and
 * the heap's memory is advised for transparent huge pages (parsers/rs_heap.c says why).
 */
#ifndef RS_HEAP_H
#define RS_HEAP_H

#include <stddef.h>

/* At the start of main(), before anything is allocated that matters. */
void rs_heap_setup(void);

/* A thread that allocates much (the kallsyms parse): bytes of its arena advised the same. */
void rs_heap_thread(size_t bytes);

#endif
