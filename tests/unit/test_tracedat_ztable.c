// SPDX-License-Identifier: GPL-2.0
/*
 * libtracecmd's chunk tables read from our mapping (parsers/tracedat/tracedat_ztable.c), held
 * to libtracecmd 1.3.1's own tracecmd_load_chunks_info() on the same bytes: tables written as
 * trace-cmd writes them (count4, then zsize4 rsize4 and zsize bytes per chunk), good and
 * corrupt, each read once through a compression handle registered with the mapping (ours)
 * and once through one that is not (libtracecmd's, the oracle): the same return value, the
 * same entries and the descriptor left at the same position.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "../../parsers/tracedat/tracedat_ztable.h"

/* Built against a libtracecmd of another struct (Makefile), libtracecmd reads every table. */
#ifdef RS_TRACECMD_CHUNK_ABI
#define INTERPOSED true
#else
#define INTERPOSED false
#endif
#include "unit.h"
#include "ut_bytes.h"

struct zfile {
	FILE *f;
	bool big;
};

static void put32(struct zfile *z, uint32_t v)
{
	ut_put32(z->f, z->big, v);
}

/* A chunk header and zsize bytes of (uncompressed-looking) data. */
static void chunk(struct zfile *z, uint32_t zsize, uint32_t rsize)
{
	put32(z, zsize);
	put32(z, rsize);
	for (uint32_t i = 0; i < zsize; i++)
		fputc((int)(i * 7), z->f);
}

struct result {
	int ret;
	struct tracecmd_compress_chunk *c;
	off_t pos;
};

/* The table at 'at' of z's file, through a handle registered with a mapping of map_len bytes. */
static int load(struct zfile *z, off_t at, size_t map_len, bool mapped, struct result *r)
{
	int fd = fileno(z->f);
	struct tep_handle *tep = tep_alloc();
	struct tracecmd_compression *comp;
	void *map = NULL;
	struct stat st;

	fflush(z->f);
	if (!tep || fstat(fd, &st))
		return -1;
	tep_set_file_bigendian(tep, z->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (mapped) {
		map = mmap(NULL, map_len, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			return -1;
		tracedat_ztable_set(map, map_len, st.st_dev, st.st_ino);
	}
	comp = tracecmd_compress_alloc("zstd", NULL, fd, tep, NULL);
	r->c = NULL;
	r->ret = -3;
	if (comp && lseek(fd, at, SEEK_SET) == at) {
		r->ret = tracecmd_load_chunks_info(comp, &r->c);
		r->pos = lseek(fd, 0, SEEK_CUR);
	}
	tracedat_ztable_set(NULL, 0, 0, 0);
	if (comp)
		tracecmd_compress_destroy(comp);
	if (map)
		munmap(map, map_len);
	tep_free(tep);
	return comp ? 0 : -1;
}

/*
 * Ours against libtracecmd's: *n the number of chunks read, or -1 (both failed alike);
 * *mapped whether ours read the mapping rather than leaving the table to libtracecmd.
 */
static int same(struct zfile *z, off_t at, size_t map_len, int *n, bool *mapped)
{
	struct result ours, theirs;

	unsigned long hits = tracedat_ztable_hits();

	UT_ASSERT_EQ(load(z, at, map_len, true, &ours), 0);
	*mapped = tracedat_ztable_hits() > hits;
	UT_ASSERT_EQ(load(z, at, map_len, false, &theirs), 0);
	UT_ASSERT_EQ(tracedat_ztable_hits(), hits + *mapped);
	UT_ASSERT_EQ(ours.ret, theirs.ret);
	UT_ASSERT_EQ(ours.pos, theirs.pos);
	UT_ASSERT_EQ(ours.c == NULL, theirs.c == NULL);
	for (int i = 0; ours.c && i < ours.ret; i++) {
		UT_ASSERT_EQ(ours.c[i].size, theirs.c[i].size);
		UT_ASSERT_EQ(ours.c[i].zsize, theirs.c[i].zsize);
		UT_ASSERT_EQ(ours.c[i].zoffset, theirs.c[i].zoffset);
		UT_ASSERT_EQ(ours.c[i].offset, theirs.c[i].offset);
	}
	free(ours.c);
	free(theirs.c);
	*n = ours.ret;
	return UT_OK;
}

static size_t file_len(struct zfile *z)
{
	fflush(z->f);
	return (size_t)ftell(z->f);
}

static int good(bool big)
{
	struct zfile z = { tmpfile(), big };
	int n = -9;
	bool m;

	UT_ASSERT(z.f);
	fwrite("padding!", 1, 8, z.f);
	put32(&z, 3);
	chunk(&z, 10, 4096);
	chunk(&z, 1, 40960);
	chunk(&z, 300, 8192);
	UT_ASSERT_EQ(same(&z, 8, file_len(&z), &n, &m), UT_OK);
	UT_ASSERT_EQ(n, 3);
	UT_ASSERT_EQ(m, INTERPOSED);
	fclose(z.f);
	return UT_OK;
}

UT_TEST(test_ztable_good, "tracedat ztable: a table reads as libtracecmd reads it")
{
	return good(false);
}

UT_TEST(test_ztable_big, "tracedat ztable: a big-endian table too")
{
	return good(true);
}

UT_TEST(test_ztable_corrupt, "tracedat ztable: empty, short and cut tables fail alike")
{
	struct zfile z = { tmpfile(), false };
	size_t len;
	int n = -9;
	bool m;

	UT_ASSERT(z.f);
	put32(&z, 0);				/* at 0: no chunks */
	put32(&z, 2);				/* at 4: two claimed, one present, then half a header */
	chunk(&z, 5, 4096);
	put32(&z, 7);
	len = file_len(&z);
	UT_ASSERT_EQ(same(&z, 0, len, &n, &m), UT_OK);
	UT_ASSERT_EQ(n, 0);
	UT_ASSERT_EQ(m, INTERPOSED);
	/* where the mapping cannot tell, libtracecmd's function reads the file */
	UT_ASSERT_EQ(same(&z, 4, len, &n, &m), UT_OK);
	UT_ASSERT_EQ(n, -1);
	UT_ASSERT(!m);
	/* the count cut by the file's end; the position past it */
	UT_ASSERT_EQ(same(&z, (off_t)len - 2, len, &n, &m), UT_OK);
	UT_ASSERT_EQ(n, -1);
	UT_ASSERT_EQ(same(&z, (off_t)len + 100, len, &n, &m), UT_OK);
	UT_ASSERT_EQ(n, -1);
	fclose(z.f);
	return UT_OK;
}

UT_TEST(test_ztable_past_map, "tracedat ztable: a table past the mapping is libtracecmd's")
{
	struct zfile z = { tmpfile(), false };
	int n = -9;
	bool m;

	UT_ASSERT(z.f);
	put32(&z, 2);
	chunk(&z, 5000, 4096);
	chunk(&z, 7, 4096);
	/* the mapping ends inside the second chunk's header: the file has it all */
	UT_ASSERT_EQ(same(&z, 0, 4 + 8 + 5000 + 2, &n, &m), UT_OK);
	UT_ASSERT_EQ(n, 2);
	UT_ASSERT(!m);
	fclose(z.f);
	return UT_OK;
}
