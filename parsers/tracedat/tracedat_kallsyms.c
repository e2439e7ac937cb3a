// SPDX-License-Identifier: GPL-2.0
/*
 * The file's kallsyms, for shrinker names only, parsed into a tep of their own rather than the
 * first handle's. libtraceevent's parse (tep_parse_kallsyms(), a sscanf per line, then a sort
 * on the first look-up) is 0.45 G instructions for the 5.4 MB kallsyms of a 6.18 trace: a
 * tenth of analyzing its 2.19 M events, and all of it on the thread that then merges and
 * analyses. The first handle keeps the text instead of parsing it (tracedat_skip.c,
 * TRACEDAT_KEEP_KALLSYMS). With a CPU to spare (or for the TUI, whose keys must not pay it) a
 * thread of its own reads the text from the file where the check found it, as libtracecmd
 * reads it (read_proc_kallsyms(), from a decompressed block on v7), and parses it while
 * libtracecmd opens the file and the trace is read: started after libtracecmd's open, the
 * parse was still running at the first shrinker event and the merging thread waited 40-130 ms
 * for it (analyze --threads 2 of global-dev.dat and the bench trace). Its text must be the one
 * libtracecmd hands over (tracedat_ksyms_settle()), or it is dropped and that one is parsed.
 * Without a thread, the text is parsed when a name is first wanted, and never when the file has
 * no shrinker event format. Names are the same: the same text through the same library call,
 * looked up with tep_find_function().
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_heap.h"
#include "tracedat_reader.h"

/* what a thread's parse allocates: ~12 MB for a 5.4 MB kallsyms (150 k symbols), and its copy */
#define KSYMS_ROOM	(32ul << 20)

static void parse(struct tracedat_ksyms *k, const char *text)
{
	k->tep = tep_alloc();
	if (k->tep && text) {
		tep_parse_kallsyms(k->tep, text);
		tep_find_function(k->tep, 0);	/* sorts them, once */
	}
}

static void *parse_thread(void *arg)
{
	struct tracedat_ksyms *k = arg;

	pthread_setname_np(pthread_self(), "rs-kallsyms");	/* for top and perf */
	rs_heap_thread(KSYMS_ROOM);
	parse(k, k->text);
	return NULL;
}

static uint32_t u32_at(const uint8_t *b, bool big)
{
	return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3] :
		     (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* size4 + text at p (n bytes there): the text, NUL-terminated, or NULL (none, or no room) */
static char *sized_text(const uint8_t *p, uint64_t n, bool big)
{
	uint32_t size;
	char *text;

	if (n < 4 || !(size = u32_at(p, big)) || size > n - 4 || !(text = malloc(size + 1ull)))
		return NULL;
	memcpy(text, p + 4, size);
	text[size] = '\0';
	return text;
}

/* The text as libtracecmd reads it: size4 + text, in a compressed block when k->z. */
static char *read_text(const struct tracedat_ksyms *k)
{
	struct tracedat_zpage z = { 0 };
	struct tracedat_chunk ch = { .zoff = k->at + 8 };
	struct tracedat_chunks t = { .c = &ch, .n = 1 };
	const char *why = NULL;
	const uint8_t *out;
	uint8_t h[8];
	char *text = NULL;

	if (pread(k->fd, h, sizeof(h), (off_t)k->at) != (ssize_t)sizeof(h))
		return NULL;
	if (!k->z) {
		uint32_t size = u32_at(h, k->big);

		if (!size || !(text = malloc(size + 1ull)))
			return NULL;
		if (pread(k->fd, text, size, (off_t)(k->at + 4)) != (ssize_t)size) {
			free(text);
			return NULL;
		}
		text[size] = '\0';
		return text;
	}
	/* the check bounded both sizes (MAX_SECTION_RSIZE, the file) */
	ch.zsize = u32_at(h, k->big);
	ch.rsize = u32_at(h + 4, k->big);
	t.total = t.max_rsize = ch.rsize;
	t.max_zsize = ch.zsize;
	out = ch.rsize ? tracedat_zpage_get(&z, &t, k->fd, k->codec, 0, &why) : NULL;
	if (out)
		text = sized_text(out, ch.rsize, k->big);
	tracedat_zpage_free(&z);
	return text;
}

static void *early_thread(void *arg)
{
	struct tracedat_ksyms *k = arg;
	char *text;

	pthread_setname_np(pthread_self(), "rs-kallsyms");
	rs_heap_thread(KSYMS_ROOM);
	text = read_text(k);
	close(k->fd);
	pthread_mutex_lock(&k->lock);
	k->early = text;
	k->read = true;
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
	parse(k, text);
	return NULL;
}

void tracedat_ksyms_early(struct tracedat_ksyms *k, int fd, uint64_t at, bool z, bool big,
			  enum tracedat_codec codec)
{
	memset(k, 0, sizeof(*k));
	k->fd = fd;
	k->at = at;
	k->z = z;
	k->big = big;
	k->codec = codec;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->cond, NULL);
	k->has_lock = true;
	if (!pthread_create(&k->thread, NULL, early_thread, k))
		k->running = k->early_started = true;
	else
		close(fd);
}

void tracedat_ksyms_init(struct tracedat_ksyms *k, char *text)
{
	bool same;

	if (!k->early_started) {
		k->text = text;
		k->tep = NULL;
		k->ready = k->running = false;
		return;
	}
	pthread_mutex_lock(&k->lock);
	while (!k->read)
		pthread_cond_wait(&k->cond, &k->lock);
	pthread_mutex_unlock(&k->lock);
	/* what tep_parse_kallsyms() reads of each: up to the first NUL */
	same = k->early ? text && !strcmp(k->early, text) : !text;
	if (same) {
		free(text);
		return;
	}
	pthread_join(k->thread, NULL);		/* another text: libtracecmd's is the one */
	if (k->tep)
		tep_free(k->tep);
	free(k->early);
	k->early = NULL;
	k->tep = NULL;
	k->running = false;
	k->text = text;
}

void tracedat_ksyms_start(struct tracedat_ksyms *k)
{
	if (!k->ready && !k->running && !pthread_create(&k->thread, NULL, parse_thread, k))
		k->running = true;
}

void tracedat_ksyms_wait(struct tracedat_ksyms *k)
{
	if (!k->running)
		return;
	pthread_join(k->thread, NULL);
	k->running = false;
	k->ready = true;
	free(k->text);
	free(k->early);
	k->text = k->early = NULL;
}

struct tep_handle *tracedat_ksyms_tep(struct tracedat_ksyms *k)
{
	tracedat_ksyms_wait(k);
	if (!k->ready) {
		parse(k, k->text);
		free(k->text);
		k->text = NULL;
		k->ready = true;
	}
	return k->tep;
}

void tracedat_ksyms_free(struct tracedat_ksyms *k)
{
	tracedat_ksyms_wait(k);
	free(k->text);
	free(k->early);
	if (k->tep)
		tep_free(k->tep);
	if (k->has_lock) {
		pthread_mutex_destroy(&k->lock);
		pthread_cond_destroy(&k->cond);
	}
	memset(k, 0, sizeof(*k));
}
