// SPDX-License-Identifier: GPL-2.0
/*
 * A compressed CPU's event data in a v7 trace.dat (trace-cmd's lib/trace-cmd/trace-compress.c,
 * tracecmd_compress_copy_from(), and trace-input.c, init_cpu_zpage() and read_zpage(), of
 * trace-cmd 3.1.6): a 4-byte chunk count, then each chunk as its compressed size (4 bytes),
 * its uncompressed size (4 bytes) and the compressed bytes, one zstd frame or zlib stream
 * (trace-compress-zstd.c, trace-compress-zlib.c). The uncompressed data are the CPU's
 * ring-buffer pages end to end; libtracecmd numbers them from a virtual offset of its own,
 * which the caller adds (tracedat.c).
 *
 * Every size comes from the file and is checked against it before anything is allocated or
 * read; one chunk of input and one of output are held, in buffers reused from chunk to chunk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "tracedat_chunks.h"

static uint32_t get_u32(const uint8_t *b, bool big)
{
	return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3] :
		     (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* n (4 or 8) bytes at offset at, inside the file: one or two numbers */
static bool read_u32s(int fd, const uint8_t *file, uint64_t at, bool big, uint32_t *v, int n)
{
	uint8_t b[8];

	if (file)
		memcpy(b, file + at, (size_t)n);
	else if (pread(fd, b, (size_t)n, (off_t)at) != n)
		return false;
	for (int i = 0; i < n / 4; i++)
		v[i] = get_u32(b + 4 * i, big);
	return true;
}

void tracedat_chunks_free(struct tracedat_chunks *t)
{
	free(t->c);
	memset(t, 0, sizeof(*t));
}

static int fail(struct tracedat_chunks *t, const char **why, const char *text)
{
	tracedat_chunks_free(t);
	*why = text;
	return -1;
}

static int load(int fd, const uint8_t *file, uint64_t file_size, uint64_t offset,
		uint64_t size, uint32_t page_size, bool big_endian, struct tracedat_chunks *t,
		const char **why)
{
	uint64_t end, pos, cap = 0;
	uint32_t count;

	memset(t, 0, sizeof(*t));
	if (!page_size || (page_size & (page_size - 1)))
		return fail(t, why, "the page size is not a power of two");
	if (offset > file_size || file_size - offset < 4)
		return fail(t, why, "the chunk count lies past the end of the file");
	/* the count precedes the size the buffer option gives */
	end = size > file_size - offset - 4 ? file_size : offset + 4 + size;
	if (!read_u32s(fd, file, offset, big_endian, &count, 4))
		return fail(t, why, "the chunk count cannot be read");
	pos = offset + 4;
	if (count > (end - pos) / 8)
		return fail(t, why, "the chunk count does not fit in the data");
	for (uint32_t i = 0; i < count; i++) {
		struct tracedat_chunk ch;
		uint32_t hdr[2];

		if (end - pos < 8)
			return fail(t, why, "a chunk header lies past the end of the data");
		if (!read_u32s(fd, file, pos, big_endian, hdr, 8))
			return fail(t, why, "a chunk header cannot be read");
		ch.zsize = hdr[0];
		ch.rsize = hdr[1];
		pos += 8;
		if (!ch.rsize || ch.rsize > TRACEDAT_CHUNK_RSIZE_MAX || ch.rsize % page_size)
			return fail(t, why, "a chunk does not uncompress to whole pages");
		if (!ch.zsize || ch.zsize > end - pos)
			return fail(t, why, "a chunk's compressed size is 0 or runs past the end of the data");
		ch.zoff = pos;
		ch.virt = t->total;
		pos += ch.zsize;
		if (t->n == cap) {
			uint64_t ncap = cap ? 2 * cap : 64;
			struct tracedat_chunk *c;

			if (ncap > count)
				ncap = count;
			c = realloc(t->c, ncap * sizeof(*c));
			if (!c)
				return fail(t, why, "out of memory");
			t->c = c;
			cap = ncap;
		}
		t->c[t->n++] = ch;
		t->total += ch.rsize;
		if (ch.zsize > t->max_zsize)
			t->max_zsize = ch.zsize;
		if (ch.rsize > t->max_rsize)
			t->max_rsize = ch.rsize;
	}
	t->file = file;
	return 0;
}

int tracedat_chunks_load(int fd, uint64_t file_size, uint64_t offset, uint64_t size,
			 uint32_t page_size, bool big_endian, struct tracedat_chunks *t,
			 const char **why)
{
	return load(fd, NULL, file_size, offset, size, page_size, big_endian, t, why);
}

int tracedat_chunks_load_mapped(const uint8_t *file, uint64_t file_size, uint64_t offset,
				uint64_t size, uint32_t page_size, bool big_endian,
				struct tracedat_chunks *t, const char **why)
{
	return load(-1, file, file_size, offset, size, page_size, big_endian, t, why);
}

int64_t tracedat_chunks_find(const struct tracedat_chunks *t, uint64_t virt, int64_t hint)
{
	int64_t lo = 0, hi = (int64_t)t->n - 1;

	/* the hint's chunk or the next one, reading on: a search only on a jump */
	for (int64_t i = hint; i >= 0 && i < (int64_t)t->n && i <= hint + 1; i++)
		if (virt >= t->c[i].virt && virt - t->c[i].virt < t->c[i].rsize)
			return i;
	while (lo <= hi) {
		int64_t mid = lo + (hi - lo) / 2;
		const struct tracedat_chunk *c = &t->c[mid];

		if (virt < c->virt)
			hi = mid - 1;
		else if (virt - c->virt >= c->rsize)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

void tracedat_zpage_free(struct tracedat_zpage *z)
{
	free(z->in);
	free(z->out);
	ZSTD_freeDCtx(z->zctx);
	memset(z, 0, sizeof(*z));
}

/* Grow *buf to hold n bytes; what it held is not kept. */
static bool reserve(uint8_t **buf, size_t *cap, size_t n)
{
	uint8_t *p;

	if (n <= *cap)
		return true;
	p = malloc(n);
	if (!p)
		return false;
	free(*buf);
	*buf = p;
	*cap = n;
	return true;
}

static bool decompress(struct tracedat_zpage *z, enum tracedat_codec codec,
		       const struct tracedat_chunk *ch, const uint8_t *in)
{
	if (codec == TRACEDAT_CODEC_ZSTD) {
		size_t got;

		if (!z->zctx)
			z->zctx = ZSTD_createDCtx();
		if (!z->zctx)
			return false;
		got = ZSTD_decompressDCtx(z->zctx, z->out, ch->rsize, in, ch->zsize);
		return !ZSTD_isError(got) && got == ch->rsize;
	}
	if (codec == TRACEDAT_CODEC_ZLIB) {
		uLongf got = ch->rsize;

		return uncompress(z->out, &got, in, ch->zsize) == Z_OK && got == ch->rsize;
	}
	return false;
}

const uint8_t *tracedat_zpage_get(struct tracedat_zpage *z, const struct tracedat_chunks *t,
				  int fd, enum tracedat_codec codec, uint64_t virt,
				  const char **why)
{
	const struct tracedat_chunk *ch;
	int64_t i;

	if (t->raw) {
		if (virt < t->total)
			return t->raw + virt;
		*why = "the page lies outside the CPU's data";
		return NULL;
	}
	if (z->t != t) {
		z->t = t;
		z->cur = -1;
	}
	i = tracedat_chunks_find(t, virt, z->cur);
	if (i < 0) {
		*why = "the page lies outside the compressed data";
		return NULL;
	}
	ch = &t->c[i];
	if (i != z->cur) {
		const uint8_t *in = t->file ? t->file + ch->zoff : NULL;

		z->cur = -1;
		if ((!in && !reserve(&z->in, &z->in_cap, ch->zsize)) ||
		    !reserve(&z->out, &z->out_cap, ch->rsize)) {
			*why = "out of memory";
			return NULL;
		}
		/* mapped: decompressed in place, no read a chunk (a syscall each, 25 k a read
		   of the bench trace, with the check's) nor copy */
		if (!in && pread(fd, z->in, ch->zsize, (off_t)ch->zoff) != (ssize_t)ch->zsize) {
			*why = "a compressed chunk cannot be read";
			return NULL;
		}
		if (!decompress(z, codec, ch, in ? in : z->in)) {
			*why = "a chunk does not decompress to the size its header gives";
			return NULL;
		}
		z->cur = i;
	}
	return z->out + (virt - ch->virt);
}
