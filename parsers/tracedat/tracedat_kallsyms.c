// SPDX-License-Identifier: GPL-2.0
/*
 * The file's kallsyms, for shrinker names only, parsed apart from the first handle's tep.
 * libtraceevent's parse (tep_parse_kallsyms(): a sscanf and three mallocs per line, then a sort
 * on the first look-up) is 0.45 G instructions for the 5.4 MB kallsyms of a 6.18 trace, a
 * tenth of analyzing its 2.19 M events, and under ASan a third of a whole analyze of a
 * fixture (the sanitizer round of make check runs ~850 of them). So the lines the kernel writes
 * ("ADDR T NAME", "ADDR T NAME\t[MODULE]") are read here into one table, names left in the text,
 * and looked up as libtraceevent looks them up: its struct func_map laid out alike,
 * filled in the order its list hands them over (the last line first), sorted by the same qsort()
 * on the address alone and searched by the same bsearch() for the entry holding the address.
 * The same entries in the same order through the same library calls: the same name for every
 * address, duplicates included (several names at one address: whichever bsearch() meets). A
 * text with any other line (not one the kernel writes) goes to tep_parse_kallsyms() whole,
 * which may stop at a line it cannot read: kept as it was. The table points into the text
 * itself, which it then owns (no copy of 5 MB under ASan), and a name is ended in place when
 * first looked up: the early thread's text is read unchanged by tracedat_ksyms_init()'s compare
 * while that thread parses it.
 *
 * The first handle keeps the text instead of parsing it (tracedat_skip.c,
 * TRACEDAT_KEEP_KALLSYMS). With a CPU to spare (or for the TUI, whose keys must not pay it) a
 * thread of its own reads the text from the file where the check found it, as libtracecmd
 * reads it (read_proc_kallsyms(), from a decompressed block on v7), and parses it while
 * libtracecmd opens the file and the trace is read: started after libtracecmd's open, the
 * parse was still running at the first shrinker event and the merging thread waited 40-130 ms
 * for it (analyze --threads 2 of global-dev.dat and the bench trace). Its text must be the one
 * libtracecmd hands over (tracedat_ksyms_settle()), or it is dropped and that one is parsed.
 * Without a thread, the text is parsed when a name is first wanted, and never when the file has
 * no shrinker event format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rs_cmp.h"
#include "rs_heap.h"
#include "tracedat_reader.h"

/* what a thread's parse allocates: 24 bytes a line (the text is the table's) */
#define KSYMS_ROOM	(32ul << 20)

/* libtraceevent's func_cmp(): by address alone */
static int ksym_order(const void *a, const void *b)
{
	const struct tracedat_ksym *x = a, *y = b;

	return RS_CMP(x->addr, y->addr);
}

/*
 * libtraceevent's func_bcmp(): the entry at the address, or the one below it whose next is
 * above it (the entry past the last is { 0 }, so no address above the last entry matches it)
 */
static int ksym_within(const void *key, const void *entry)
{
	const struct tracedat_ksym *x = key, *y = entry;

	if (x->addr == y->addr || (x->addr > y->addr && x->addr < y[1].addr))
		return 0;
	return x->addr < y->addr ? -1 : 1;
}

static bool graph(char c)
{
	return c > ' ' && c < 0x7f;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The line p..e (no newline in it) as the kernel writes it: 1 to 16 hex digits, a space, the
 * type, a space, the name, then nothing or a tab and "[MODULE]", all of them printable ASCII
 * but the separators. For such a line (and only such) libtraceevent's
 * sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") reads this address, type and name (up to the
 * first byte not printable: ksym_name() ends it there). The text is not written to (the module
 * is not ended: nothing reads it). False: another line.
 */
static bool ksym_line(char *p, char *e, struct tracedat_ksym *s, char *type)
{
	unsigned long long addr = 0;
	char *q = p, *m;
	int d;

	while (q < e && q - p < 16 && (d = hex(*q)) >= 0) {
		addr = addr << 4 | (unsigned int)d;
		q++;
	}
	if (q == p || e - q < 4 || q[0] != ' ' || !graph(q[1]) || q[2] != ' ' || !graph(q[3]))
		return false;
	*type = q[1];
	s->addr = addr;
	s->func = q += 3;
	s->mod = NULL;
	while (q < e && graph(*q))
		q++;
	if (q < e) {
		if (e - q < 3 || q[0] != '\t' || q[1] != '[')
			return false;
		for (m = q + 2; m < e && graph(*m); m++)
			;
		if (m == q + 2 || m != e)
			return false;
		s->mod = q + 2;
	}
	return true;
}

/*
 * text as tep_parse_kallsyms() reads it (lines split at newlines, empty ones skipped) into
 * k->map, which then owns the text (k->buf), or false when a line is not one the kernel writes
 */
static bool ksym_table(struct tracedat_ksyms *k, char *text)
{
	size_t len = strlen(text), lines = 1, n = 0;
	char *p, *end = text + len, *nl;

	for (const char *c = text; (c = memchr(c, '\n', len - (size_t)(c - text))); c++)
		lines++;
	k->map = malloc((lines + 1) * sizeof(*k->map));
	if (!k->map)
		return false;
	for (p = text; p < end; p = nl + 1) {
		char type;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl == p)
			continue;
		if (!ksym_line(p, nl, &k->map[n], &type))
			return false;
		/* libtraceevent's filter: ARM's "$a" mapping symbols, x86-64's per-CPU offsets */
		if (k->map[n].func[0] != '$' && type != 'A' && type != 'a')
			n++;
	}
	/* libtraceevent pushes each function on a list and fills its table from the head */
	for (size_t i = 0; i < n / 2; i++) {
		struct tracedat_ksym t = k->map[i];

		k->map[i] = k->map[n - 1 - i];
		k->map[n - 1 - i] = t;
	}
	qsort(k->map, n, sizeof(*k->map), ksym_order);
	k->map[n] = (struct tracedat_ksym){ 0 };
	k->nr = n;
	k->buf = text;
	return true;
}

static void ksym_table_free(struct tracedat_ksyms *k)
{
	free(k->map);
	free(k->buf);
	k->map = NULL;
	k->buf = NULL;
	k->nr = 0;
}

/* text (malloc'ed) into the table, which then owns it (true), or into libtraceevent's tep */
static bool parse(struct tracedat_ksyms *k, char *text)
{
	if (!text)
		return false;
	if (ksym_table(k, text))
		return true;
	ksym_table_free(k);
	k->tep = tep_alloc();
	if (k->tep) {
		tep_parse_kallsyms(k->tep, text);
		tep_find_function(k->tep, 0);	/* sorts them, once */
	}
	return false;
}

static void *parse_thread(void *arg)
{
	struct tracedat_ksyms *k = arg;

	pthread_setname_np(pthread_self(), "rs-kallsyms");	/* for top and perf */
	rs_heap_thread(KSYMS_ROOM);
	if (parse(k, k->text))
		k->text = NULL;
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

bool tracedat_ksyms_same(void *arg, const char *text)
{
	struct tracedat_ksyms *k = arg;

	/* as tracedat_ksyms_init() would, a little sooner (the read started before the open) */
	pthread_mutex_lock(&k->lock);
	while (!k->read)
		pthread_cond_wait(&k->cond, &k->lock);
	pthread_mutex_unlock(&k->lock);
	/* the thread only reads its text once read (the table ends names after the join) */
	return k->early && text && !strcmp(k->early, text);
}

void tracedat_ksyms_init(struct tracedat_ksyms *k, char *text, bool matched)
{
	bool same;

	if (!k->early_started) {
		k->text = text;
		k->tep = NULL;
		ksym_table_free(k);
		k->ready = k->running = false;
		return;
	}
	if (matched)		/* libtracecmd's was the thread's (tracedat_ksyms_same()) */
		return;
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
	if (k->early == k->buf)
		k->early = NULL;		/* the table's */
	ksym_table_free(k);
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
	if (k->early != k->buf)
		free(k->early);			/* else the table's */
	k->text = k->early = NULL;
}

const char *tracedat_ksyms_name(struct tracedat_ksyms *k, uint64_t addr)
{
	struct tracedat_ksym key = { .addr = addr }, *s;
	char *e;

	tracedat_ksyms_wait(k);
	if (!k->ready) {
		if (!parse(k, k->text))
			free(k->text);
		k->text = NULL;
		k->ready = true;
	}
	if (k->tep)
		return tep_find_function(k->tep, addr);
	s = k->nr ? bsearch(&key, k->map, k->nr, sizeof(*k->map), ksym_within) : NULL;
	if (!s)
		return NULL;
	/* the name ends at the first byte not printable (a newline, a tab, the text's end) */
	for (e = s->func; graph(*e); e++)
		;
	*e = '\0';
	return s->func;
}

void tracedat_ksyms_free(struct tracedat_ksyms *k)
{
	tracedat_ksyms_wait(k);
	free(k->text);
	if (k->early != k->buf)
		free(k->early);
	if (k->tep)
		tep_free(k->tep);
	ksym_table_free(k);
	if (k->has_lock) {
		pthread_mutex_destroy(&k->lock);
		pthread_cond_destroy(&k->cond);
	}
	memset(k, 0, sizeof(*k));
}
