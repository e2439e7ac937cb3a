// SPDX-License-Identifier: GPL-2.0
/*
 * libtracecmd's chunk tables of a compressed (v7) trace, read from our mapping of the file.
 * tracecmd_init_data() loads each CPU's table with tracecmd_load_chunks_info()
 * (trace-compress.c), which reads it from the handle's descriptor with two read()s and two
 * lseek64()s a chunk: 24.7 k syscalls on the bench trace (6 k chunks), ~4 us each on this VM,
 * the bulk of the open (0.10-0.15 s of CPU, bench/README.md) and on the critical path of every
 * thread count. As tracedat_skip.c does for libtraceevent, these definitions take the place
 * of libtracecmd's own (libtracecmd 1.3.1 calls both through its PLT, so the executable's come
 * first):
 * - tracecmd_compress_alloc() notes which compression handle reads which descriptor, and with
 *   which tep (the file's byte order), while a handle of a file we mapped is being opened
 *   (tracedat_ztable_set(), tracedat_open_handle());
 * - tracecmd_load_chunks_info() on such a handle asks the descriptor for its position (one
 *   syscall) and reads the table there from the mapping, to the same result as libtracecmd's:
 *   the count, then per chunk its file offset, compressed and uncompressed sizes and the sum of
 *   the uncompressed sizes before it, the descriptor's position unchanged (libtracecmd seeks
 *   back to where it started). Anything the mapping does not hold (a table running past it, a
 *   count that does not fit an int) is left to libtracecmd's function, from the same position,
 *   which then reads the file as it always did, so a file the mapping does not cover reads as
 *   before; so does any other compression handle (trace-cmd's output, other files).
 * The struct is libtracecmd 1.3.1's (trace-cmd-private.h, struct tracecmd_compress_chunk),
 * as its tracecmd_load_chunks_info() fills it (24 bytes an entry).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "tracedat_ztable.h"

/* The file being opened on this thread, and the compression handle reading it. */
static __thread struct {
	const uint8_t *map;
	size_t len;
	dev_t dev;
	ino_t ino;
	struct tracecmd_compression *comp;
	int fd;
	struct tep_handle *tep;
} cur;
static __thread unsigned long hits;

unsigned long tracedat_ztable_hits(void)
{
	return hits;
}

void tracedat_ztable_set(const void *map, size_t len, dev_t dev, ino_t ino)
{
	memset(&cur, 0, sizeof(cur));
	cur.map = map;
	cur.len = map ? len : 0;
	cur.dev = dev;
	cur.ino = ino;
	cur.fd = -1;
}

/*
 * Built only against the libtracecmd releases whose struct tracecmd_compress_chunk is the one
 * above (Makefile, RS_TRACECMD_CHUNK_ABI): with any other, libtracecmd reads its tables itself.
 */
#ifdef RS_TRACECMD_CHUNK_ABI
struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version,
						     int fd, struct tep_handle *tep,
						     struct tracecmd_msg_handle *msg_handle)
{
	static struct tracecmd_compression *(*real)(const char *, const char *, int,
						    struct tep_handle *,
						    struct tracecmd_msg_handle *);
	struct tracecmd_compression *c;
	struct stat st;

	if (!real)
		real = (struct tracecmd_compression *(*)(const char *, const char *, int,
							  struct tep_handle *,
							  struct tracecmd_msg_handle *))
		       dlsym(RTLD_NEXT, "tracecmd_compress_alloc");
	if (!real)
		return NULL;
	c = real(name, version, fd, tep, msg_handle);
	/* the same file as the mapping, no larger: reads past the mapping are left to libtracecmd */
	if (c && cur.map && fd >= 0 && tep && !fstat(fd, &st) && st.st_dev == cur.dev &&
	    st.st_ino == cur.ino && (uint64_t)st.st_size >= cur.len) {
		cur.comp = c;
		cur.fd = fd;
		cur.tep = tep;
	}
	return c;
}

/*
 * The table at pos of the mapping, as libtracecmd's function reads it from the descriptor at
 * pos: its return value, with *chunks_info set; -2 where the mapping cannot tell (the caller
 * then asks libtracecmd).
 */
static int table_from_map(uint64_t pos, struct tracecmd_compress_chunk **chunks_info)
{
	struct tracecmd_compress_chunk *chunks;
	unsigned long long sum = 0;
	uint32_t count;

	if (pos > cur.len || cur.len - pos < 4)
		return -2;
	count = (uint32_t)tep_read_number(cur.tep, cur.map + pos, 4);
	if (!count)
		return 0;
	if (count > INT_MAX)
		return -2;
	chunks = calloc(count, sizeof(*chunks));
	if (!chunks)
		return -2;
	pos += 4;
	for (uint32_t i = 0; i < count; i++) {
		if (pos > cur.len || cur.len - pos < 8 || pos > (uint64_t)INT64_MAX - 8 - UINT32_MAX) {
			free(chunks);
			return -2;
		}
		chunks[i].zoffset = pos;
		chunks[i].zsize = (unsigned int)tep_read_number(cur.tep, cur.map + pos, 4);
		chunks[i].offset = sum;
		chunks[i].size = (unsigned int)tep_read_number(cur.tep, cur.map + pos + 4, 4);
		sum += chunks[i].size;
		pos += 8 + (uint64_t)chunks[i].zsize;
	}
	if (chunks_info)
		*chunks_info = chunks;
	else
		free(chunks);
	return (int)count;
}

int tracecmd_load_chunks_info(struct tracecmd_compression *handle,
			      struct tracecmd_compress_chunk **chunks_info)
{
	static int (*real)(struct tracecmd_compression *, struct tracecmd_compress_chunk **);

	if (handle && handle == cur.comp) {
		off_t pos = lseek(cur.fd, 0, SEEK_CUR);
		int ret = pos >= 0 ? table_from_map((uint64_t)pos, chunks_info) : -2;

		if (ret != -2) {
			hits++;
			return ret;
		}
	}
	if (!real)
		real = (int (*)(struct tracecmd_compression *, struct tracecmd_compress_chunk **))
		       dlsym(RTLD_NEXT, "tracecmd_load_chunks_info");
	return real ? real(handle, chunks_info) : -1;
}
#endif /* RS_TRACECMD_CHUNK_ABI */
