/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Our reader of a v7 trace.dat's compressed per-CPU event data (tracedat_chunks.c): the
 * chunk table of one CPU, and one decompressed chunk at a time. libtracecmd keeps the
 * container (headers, options, formats, kallsyms); the stream takes a compressed CPU's
 * ring-buffer pages from here instead of through libtracecmd's chunk cache, which 1.3.1 never
 * frees (tracedat_reader.h, RS_ZCACHE_BUDGET).
 */
#ifndef TRACEDAT_CHUNKS_H
#define TRACEDAT_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACEDAT_CHUNK_RSIZE_MAX	(16u << 20)	/* trace-cmd writes 10 pages a chunk */

enum tracedat_codec { TRACEDAT_CODEC_NONE, TRACEDAT_CODEC_ZSTD, TRACEDAT_CODEC_ZLIB };

/* One compressed chunk: zsize bytes at file offset zoff uncompress to rsize bytes at virt. */
struct tracedat_chunk {
	uint64_t zoff, virt;
	uint32_t zsize, rsize;
};

/* A CPU's chunk table, as tracecmd_load_chunks_info() reads it (trace-compress.c). */
struct tracedat_chunks {
	struct tracedat_chunk *c;
	uint32_t n;
	uint32_t max_zsize, max_rsize;
	uint64_t total;			/* uncompressed bytes: the sum of rsize */
	const uint8_t *raw;		/* uncompressed data (v6), mapped: c is its one chunk */
	const uint8_t *file;		/* the whole file, mapped: chunks are read from it in
					 * place (tracedat_chunks_load_mapped()); NULL: pread() */
};

/*
 * Read the chunk table of the CPU data at offset of fd: count4, then count times zsize4
 * rsize4 and zsize bytes. size is the CPU's data size from the buffer option, which trace-cmd
 * writes without the count; file_size bounds everything read. Each chunk must uncompress to a
 * whole number of pages, at most TRACEDAT_CHUNK_RSIZE_MAX. 0, or -1 with *why set to a static
 * text (the table is then empty): memory grows with the chunks found, not the count claimed.
 */
int tracedat_chunks_load(int fd, uint64_t file_size, uint64_t offset, uint64_t size,
			 uint32_t page_size, bool big_endian, struct tracedat_chunks *t,
			 const char **why);
/*
 * The same from the file mapped whole (file_size bytes at file), which the table then keeps:
 * tracedat_zpage_get() decompresses its chunks in place rather than reading them from fd.
 * The mapping must outlive the table; the file must not shrink meanwhile (SIGBUS).
 */
int tracedat_chunks_load_mapped(const uint8_t *file, uint64_t file_size, uint64_t offset,
				uint64_t size, uint32_t page_size, bool big_endian,
				struct tracedat_chunks *t, const char **why);
void tracedat_chunks_free(struct tracedat_chunks *t);

/* The chunk holding uncompressed offset virt, or -1. hint: the index to try first. */
int64_t tracedat_chunks_find(const struct tracedat_chunks *t, uint64_t virt, int64_t hint);

/* One decompressed chunk and the buffers and context that made it: zero-initialise. */
struct tracedat_zpage {
	const struct tracedat_chunks *t;	/* the table cur indexes */
	int64_t cur;				/* chunk in out; -1 (or t unset): none */
	uint8_t *in, *out;
	size_t in_cap, out_cap;
	void *zctx;				/* ZSTD_DCtx */
};

/*
 * The page at uncompressed offset virt (a multiple of the page size) of table t, or NULL with
 * *why set: not in the table, unreadable, not decompressing to the size the table says, out
 * of memory. The page stays valid until the next call with another chunk or table; on a raw
 * table (t->raw) it is the mapped data, read in place, valid as long as the mapping.
 */
const uint8_t *tracedat_zpage_get(struct tracedat_zpage *z, const struct tracedat_chunks *t,
				  int fd, enum tracedat_codec codec, uint64_t virt,
				  const char **why);
void tracedat_zpage_free(struct tracedat_zpage *z);

#endif
