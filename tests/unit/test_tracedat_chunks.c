// SPDX-License-Identifier: GPL-2.0
/*
 * The chunk table of a v7 trace.dat's compressed CPU data (parsers/tracedat/tracedat_chunks.c):
 * tables written here as trace-cmd writes them (count4, then zsize4 rsize4 data per chunk,
 * zstd or zlib), read back page by page against the bytes compressed; and corrupt tables
 * (absurd counts, sizes past the data, chunks of part of a page, a header that lies about the
 * uncompressed size, bytes that are no zstd frame), each refused with its reason. Each table
 * is read both through the file descriptor and from the file mapped (as the trace.dat backend
 * reads it), which must agree.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "../../parsers/tracedat/tracedat_chunks.h"
#include "unit.h"
#include "ut_bytes.h"

#define PS 4096u

/* A file of: pad bytes, then a table built by the calls below. */
struct tfile {
	FILE *f;
	int fd;
	uint64_t table;		/* offset of the count */
	bool big;
};

static void put32(struct tfile *t, uint32_t v)
{
	ut_put32(t->f, t->big, v);
}

static bool tfile_open(struct tfile *t, uint32_t pad, uint32_t count, bool big)
{
	t->f = tmpfile();
	if (!t->f)
		return false;
	t->fd = fileno(t->f);
	t->big = big;
	for (uint32_t i = 0; i < pad; i++)
		fputc(0xee, t->f);
	t->table = pad;
	put32(t, count);
	return true;
}

/* page i of the test data: every byte is i */
static void fill(uint8_t *buf, uint32_t first_page, uint32_t pages)
{
	for (uint32_t p = 0; p < pages; p++)
		memset(buf + (size_t)p * PS, (int)(first_page + p), PS);
}

/* A chunk of pages [first, first + pages) compressed; rsize_claim 0: the true size. */
static void chunk(struct tfile *t, enum tracedat_codec codec, uint32_t first, uint32_t pages,
		  uint32_t rsize_claim)
{
	size_t n = (size_t)pages * PS, cap = ZSTD_compressBound(n) + compressBound(n);
	uint8_t *raw = malloc(n), *z = malloc(cap);
	size_t zn;

	fill(raw, first, pages);
	if (codec == TRACEDAT_CODEC_ZSTD) {
		zn = ZSTD_compress(z, cap, raw, n, 3);
	} else {
		uLongf zl = cap;

		compress2(z, &zl, raw, n, 6);
		zn = zl;
	}
	put32(t, (uint32_t)zn);
	put32(t, rsize_claim ? rsize_claim : (uint32_t)n);
	fwrite(z, 1, zn, t->f);
	free(raw);
	free(z);
}

static uint64_t tfile_done(struct tfile *t)
{
	fflush(t->f);
	return (uint64_t)lseek(t->fd, 0, SEEK_END);
}

/* Load the table at t->table with the size the buffer option would give: all but the count. */
static int load(struct tfile *t, struct tracedat_chunks *c, const char **why)
{
	uint64_t size = tfile_done(t);

	return tracedat_chunks_load(t->fd, size, t->table, size - t->table - 4, PS, t->big, c,
				    why);
}

/* The same from the file mapped (*map, *len: to munmap), read in place. */
static int load_mapped(struct tfile *t, struct tracedat_chunks *c, const char **why, void **map,
		       size_t *len)
{
	uint64_t size = tfile_done(t);

	*len = size ? size : 1;
	*map = mmap(NULL, *len, PROT_READ, MAP_SHARED, t->fd, 0);
	if (*map == MAP_FAILED)
		return -2;
	return tracedat_chunks_load_mapped(*map, size, t->table, size - t->table - 4, PS, t->big,
					   c, why);
}

/* Every page of the table reads back as fill() wrote it. */
static int pages_ok(struct tfile *t, struct tracedat_chunks *c, enum tracedat_codec codec)
{
	struct tracedat_zpage z = { 0 };
	const char *why = NULL;

	for (uint64_t p = 0; p < c->total / PS; p++) {
		const uint8_t *page = tracedat_zpage_get(&z, c, t->fd, codec, p * PS, &why);

		UT_ASSERT(page != NULL);
		UT_ASSERT_EQ(page[0], p);
		UT_ASSERT_EQ(page[PS - 1], p);
	}
	/* backwards too: a jump to an earlier chunk */
	UT_ASSERT_EQ(tracedat_zpage_get(&z, c, t->fd, codec, 0, &why)[17], 0);
	UT_ASSERT(tracedat_zpage_get(&z, c, t->fd, codec, c->total, &why) == NULL);
	UT_ASSERT_STR(why, "the page lies outside the compressed data");
	tracedat_zpage_free(&z);
	return UT_OK;
}

static int test_good(enum tracedat_codec codec, bool big)
{
	struct tracedat_chunks c;
	const char *why = NULL;
	struct tfile t;
	int r;

	UT_ASSERT(tfile_open(&t, 100, 3, big));
	chunk(&t, codec, 0, 10, 0);
	chunk(&t, codec, 10, 10, 0);
	chunk(&t, codec, 20, 3, 0);
	UT_ASSERT_EQ(load(&t, &c, &why), 0);
	UT_ASSERT_EQ(c.n, 3);
	UT_ASSERT_EQ(c.total, 23 * PS);
	UT_ASSERT_EQ(c.c[0].zoff, 100 + 4 + 8);
	UT_ASSERT_EQ(c.c[1].virt, 10 * PS);
	UT_ASSERT_EQ(c.c[2].virt, 20 * PS);
	UT_ASSERT_EQ(c.c[2].zoff, c.c[1].zoff + c.c[1].zsize + 8);
	UT_ASSERT_EQ(c.max_rsize, 10 * PS);
	UT_ASSERT_EQ(tracedat_chunks_find(&c, 0, -1), 0);
	UT_ASSERT_EQ(tracedat_chunks_find(&c, 10 * PS - 1, 0), 0);
	UT_ASSERT_EQ(tracedat_chunks_find(&c, 10 * PS, 0), 1);
	UT_ASSERT_EQ(tracedat_chunks_find(&c, 22 * PS, 0), 2);
	UT_ASSERT_EQ(tracedat_chunks_find(&c, 23 * PS, 1), -1);
	r = pages_ok(&t, &c, codec);
	if (r == UT_OK) {
		/* mapped: the same table, and pages read with no file descriptor at all */
		struct tracedat_chunks m;
		struct tfile nofd = t;
		size_t len;
		void *map;

		UT_ASSERT_EQ(load_mapped(&t, &m, &why, &map, &len), 0);
		UT_ASSERT(m.file == map);
		UT_ASSERT_EQ(m.n, c.n);
		UT_ASSERT_EQ(m.total, c.total);
		for (uint32_t i = 0; i < c.n; i++) {
			UT_ASSERT_EQ(m.c[i].zoff, c.c[i].zoff);
			UT_ASSERT_EQ(m.c[i].zsize, c.c[i].zsize);
			UT_ASSERT_EQ(m.c[i].rsize, c.c[i].rsize);
		}
		nofd.fd = -1;
		r = pages_ok(&nofd, &m, codec);
		tracedat_chunks_free(&m);
		munmap(map, len);
	}
	tracedat_chunks_free(&c);
	fclose(t.f);
	return r;
}

UT_TEST(test_zstd, "tracedat chunks: zstd table reads back page by page")
{
	return test_good(TRACEDAT_CODEC_ZSTD, false);
}

UT_TEST(test_zlib, "tracedat chunks: zlib table reads back page by page")
{
	return test_good(TRACEDAT_CODEC_ZLIB, false);
}

UT_TEST(test_big_endian, "tracedat chunks: big-endian table")
{
	return test_good(TRACEDAT_CODEC_ZSTD, true);
}

/* A table loaded, and the page cache that reads it: the fixture of the tests of one table. */
struct zfx {
	struct tfile t;
	struct tracedat_chunks c;
	struct tracedat_zpage z;
	const char *why;
};

static const uint8_t *zget(struct zfx *x, enum tracedat_codec codec, uint64_t off)
{
	return tracedat_zpage_get(&x->z, &x->c, x->t.fd, codec, off, &x->why);
}

static void zfx_close(struct zfx *x)
{
	tracedat_zpage_free(&x->z);
	tracedat_chunks_free(&x->c);
	if (x->t.f)
		fclose(x->t.f);
}

/* A test of one table x (x->t opened by the test), freed after it whatever it returns. */
#define ZFX_TEST(fn, desc) UT_TEST_OWN(fn, desc, struct zfx, x, zfx_close)

ZFX_TEST(test_empty, "tracedat chunks: no chunks")
{
	UT_ASSERT(tfile_open(&x->t, 0, 0, false));
	UT_ASSERT_EQ(load(&x->t, &x->c, &x->why), 0);
	UT_ASSERT_EQ(x->c.n, 0);
	UT_ASSERT_EQ(x->c.total, 0);
	UT_ASSERT_EQ(tracedat_chunks_find(&x->c, 0, -1), -1);
	return UT_OK;
}

/* A table that must be refused with reason want; extra: bytes after it. */
static int refused(struct tfile *t, const char *want)
{
	struct tracedat_chunks c;
	const char *why = NULL;
	int r = load(t, &c, &why), rm;
	const char *why_m = NULL;
	size_t len;
	void *map;

	rm = load_mapped(t, &c, &why_m, &map, &len);
	if (rm != -2)
		munmap(map, len);
	fclose(t->f);
	UT_ASSERT_EQ(r, -1);
	UT_ASSERT_STR(why, want);
	UT_ASSERT_EQ(rm, -1);
	UT_ASSERT_STR(why_m, want);
	UT_ASSERT(c.c == NULL && c.n == 0 && c.total == 0);
	return UT_OK;
}

/*
 * Tables the loader must refuse (kunit's parameterised tests): count chunks claimed after pad
 * bytes, nr_chunks good one-page zstd chunks (the last claiming rsize_claim uncompressed
 * bytes; 0: the truth), raw header words, then tail's bytes.
 */
static const struct refusal {
	const char *what;
	uint32_t pad, count;
	uint32_t nr_chunks, rsize_claim;
	uint32_t nr_words, word[2];
	const char *tail;
	const char *want;
} refusals[] = {
	/* 4 G chunks claimed, one present: refused before any allocation for them */
	{ "absurd count", 8, 0xffffffffu, 1, 0, 0, { 0 }, NULL,
	  "the chunk count does not fit in the data" },
	/* 3 claimed, 2 present, then 4 bytes: half of a third header */
	{ "count above the chunks present", 0, 3, 2, 0, 1, { 1 }, NULL,
	  "a chunk header lies past the end of the data" },
	/* the header claims more compressed bytes than the file has */
	{ "truncated chunk", 0, 1, 0, 0, 2, { 5000, PS }, "zzzz",
	  "a chunk's compressed size is 0 or runs past the end of the data" },
	{ "chunk of part of a page", 0, 1, 1, PS + 1, 0, { 0 }, NULL,
	  "a chunk does not uncompress to whole pages" },
	{ "chunk above 16 MiB", 0, 1, 1, TRACEDAT_CHUNK_RSIZE_MAX + PS, 0, { 0 }, NULL,
	  "a chunk does not uncompress to whole pages" },
	{ "zero compressed size", 0, 1, 0, 0, 2, { 0, PS }, NULL,
	  "a chunk's compressed size is 0 or runs past the end of the data" },
};

UT_TEST(test_refusals, "tracedat chunks: bad tables refused, each with its reason")
{
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		struct tfile t;

		UT_ASSERT(tfile_open(&t, r->pad, r->count, false));
		for (uint32_t k = 0; k < r->nr_chunks; k++)
			chunk(&t, TRACEDAT_CODEC_ZSTD, k, 1,
			      k + 1 == r->nr_chunks ? r->rsize_claim : 0);
		for (uint32_t k = 0; k < r->nr_words; k++)
			put32(&t, r->word[k]);
		if (r->tail)
			fwrite(r->tail, 1, strlen(r->tail), t.f);
		if (refused(&t, r->want) != UT_OK) {
			fprintf(stderr, "  in the case %s\n", r->what);
			return UT_FAIL;
		}
	}
	return UT_OK;
}

ZFX_TEST(test_past_file, "tracedat chunks: table past the file, CPU size past it or short")
{
	uint64_t size;

	UT_ASSERT(tfile_open(&x->t, 0, 1, false));
	chunk(&x->t, TRACEDAT_CODEC_ZSTD, 0, 1, 0);
	size = tfile_done(&x->t);
	UT_ASSERT_EQ(tracedat_chunks_load(x->t.fd, size, size - 2, 100, PS, false, &x->c,
					  &x->why), -1);
	UT_ASSERT_STR(x->why, "the chunk count lies past the end of the file");
	UT_ASSERT_EQ(tracedat_chunks_load(x->t.fd, size, 1ull << 62, 100, PS, false, &x->c,
					  &x->why), -1);
	/* a CPU size above the file is cut at the file's end: the one chunk reads */
	UT_ASSERT_EQ(tracedat_chunks_load(x->t.fd, size, 0, UINT64_MAX, PS, false, &x->c,
					  &x->why), 0);
	UT_ASSERT_EQ(x->c.n, 1);
	tracedat_chunks_free(&x->c);
	/* a CPU size below the chunk: its data run past the CPU's end */
	UT_ASSERT_EQ(tracedat_chunks_load(x->t.fd, size, 0, 12, PS, false, &x->c,
					  &x->why), -1);
	UT_ASSERT_STR(x->why, "a chunk's compressed size is 0 or runs past the end of the data");
	return UT_OK;
}

/* The header says two pages; the frame holds one: refused when the chunk is read. */
ZFX_TEST(test_size_mismatch, "tracedat chunks: uncompressed size mismatch")
{
	UT_ASSERT(tfile_open(&x->t, 0, 2, false));
	chunk(&x->t, TRACEDAT_CODEC_ZSTD, 0, 1, 0);
	chunk(&x->t, TRACEDAT_CODEC_ZSTD, 1, 1, 2 * PS);
	UT_ASSERT_EQ(load(&x->t, &x->c, &x->why), 0);
	UT_ASSERT_EQ(x->c.total, 3 * PS);
	UT_ASSERT(zget(x, TRACEDAT_CODEC_ZSTD, 0) != NULL);
	UT_ASSERT(zget(x, TRACEDAT_CODEC_ZSTD, PS) == NULL);
	UT_ASSERT_STR(x->why, "a chunk does not decompress to the size its header gives");
	/* the good chunk still reads after the bad one */
	UT_ASSERT_EQ(zget(x, TRACEDAT_CODEC_ZSTD, 0)[5], 0);
	/* and the same bytes are no zlib stream */
	UT_ASSERT(zget(x, TRACEDAT_CODEC_ZLIB, 0) != NULL);
	tracedat_zpage_free(&x->z);
	UT_ASSERT(zget(x, TRACEDAT_CODEC_ZLIB, 0) == NULL);
	UT_ASSERT_STR(x->why, "a chunk does not decompress to the size its header gives");
	return UT_OK;
}

ZFX_TEST(test_garbage_frame, "tracedat chunks: bytes that are no frame")
{
	UT_ASSERT(tfile_open(&x->t, 0, 1, false));
	put32(&x->t, 16);
	put32(&x->t, PS);
	fwrite("not a zstd frame", 1, 16, x->t.f);
	UT_ASSERT_EQ(load(&x->t, &x->c, &x->why), 0);
	UT_ASSERT(zget(x, TRACEDAT_CODEC_ZSTD, 0) == NULL);
	UT_ASSERT_STR(x->why, "a chunk does not decompress to the size its header gives");
	/* a codec we do not know decompresses nothing */
	UT_ASSERT(zget(x, TRACEDAT_CODEC_NONE, 0) == NULL);
	return UT_OK;
}
