/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtracecmd's chunk tables read from our mapping of the file (tracedat_ztable.c).
 */
#ifndef TRACEDAT_ZTABLE_H
#define TRACEDAT_ZTABLE_H

#include <stddef.h>
#include <sys/types.h>

struct tep_handle;
struct tracecmd_compression;
struct tracecmd_msg_handle;

/* libtracecmd 1.3.1's (trace-cmd-private.h), which it exports but does not install. */
struct tracecmd_compress_chunk {
	unsigned int size;
	unsigned int zsize;
	unsigned long long zoffset;
	unsigned long long offset;
};

struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version,
						     int fd, struct tep_handle *tep,
						     struct tracecmd_msg_handle *msg_handle);
void tracecmd_compress_destroy(struct tracecmd_compression *handle);

int tracecmd_load_chunks_info(struct tracecmd_compression *handle,
			      struct tracecmd_compress_chunk **chunks_info);

/*
 * The file the calling thread's next tracecmd_open() reads, mapped whole (len bytes at map,
 * the file of device dev and inode ino): its chunk tables are then read from there rather
 * than by two read()s and two lseek()s a chunk. NULL: none (after the open).
 */
void tracedat_ztable_set(const void *map, size_t len, dev_t dev, ino_t ino);

/* Tables this thread read from a mapping so far (tests). */
unsigned long tracedat_ztable_hits(void);

#endif
