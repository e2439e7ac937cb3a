// SPDX-License-Identifier: GPL-2.0
/*
 * Text trace backend: traces shared as text, either `trace-cmd report` output (also with -l,
 * -t, -R or --ts-diff) or ftrace's own `trace` / `trace_pipe` files, any kernel era. Each event
 * line is split into its head (comm, pid, CPU, timestamp, event name) and its printed fields;
 * the fields are matched to the slots of rs_normalize.h by the print-format names listed there,
 * so this loader understands the same field sets as the trace.dat one (tracedat.c).
 *
 * The file is read line by line through one fixed buffer, so memory does not grow with the
 * trace; lines longer than TL_LINE_MAX are skipped. A pre-scan at open finds the CPU count,
 * time span, losses, kernel release and garbage; each stream re-reads the file.
 *
 * Line grammar (leading blanks ignored):
 *   COMM-PID [(TGID)] [CPU] [FLAGS] SECS[.FRAC]: [(+DIFF)] EVENT: FIELDS
 *   COMM-PID CPUFLAGS SECS.FRAC: EVENT: FIELDS                       (trace-cmd report -l)
 * and header lines: `cpus=N`, `version = N`, `CPU N is empty`, `CPU:N [LOST M EVENTS]`,
 * `CPU:N [M EVENTS DROPPED]`, `# ... #P:N`, `# kernel: RELEASE`, `Linux HOST RELEASE ...`.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rs_normalize.h"
#include "rs_warn.h"
#include "../source_state.h"

#define TL_LINE_MAX	(64 * 1024)	/* no real trace line comes near this */
#define TL_BUF_SIZE	(2 * TL_LINE_MAX)	/* a whole line always fits after compaction */
#define TL_HEAD_SCAN	96		/* comm (<= 15 bytes), pid, tgid and padding fit */
#define TL_NAME_MAX	128
#define TL_MAX_PAIRS	48		/* printed fields per event we look at */
#define TL_KEY_MAX	32		/* longer keys match no slot */
#define TL_HASH_SIZE	8192		/* power of two, > 2 * RS_MAX_EVENT_NAMES */
#define TL_WARN_LINES	5		/* garbage lines warned about one by one */
#define TL_MAX_CPUS	8192		/* the kernel's NR_CPUS limit; more is garbage */
#define NSEC_PER_SEC	1000000000ull

/* How a slot's printed value is read. */
enum vkind { VK_NUM, VK_STR, VK_LRU, VK_RFLAGS, VK_THROTTLE, VK_PTR };

/*
 * Last key -> slot resolution per field position of one known event: a stable print format
 * then costs one strcmp per field instead of matching every alias.
 */
struct key_cache {
	char key[TL_MAX_PAIRS][TL_KEY_MAX];
	signed char slot[TL_MAX_PAIRS];
	unsigned char vk[TL_MAX_PAIRS];
};

/*
 * A "CPU:N [LOST M EVENTS]" line not yet delivered: like the trace.dat loader, the RS_EV_LOST
 * event goes out just before the next event of that CPU, with its time.
 */
struct pending_lost {
	bool set;
	int64_t lost;			/* -1: count unknown */
	uint64_t lineno;
};

/* One event name seen in the file. */
struct tl_name {
	char *name;
	int kevent;			/* rs_kevent index, -1: counted only */
	uint64_t count, first_ts, last_ts;
};

struct line_reader {
	FILE *f;
	char *buf;			/* TL_BUF_SIZE + 1 */
	size_t pos, end;
	bool eof;
	uint64_t lineno;
	uint64_t consumed;		/* bytes, for progress */
};

struct textlog {
	FILE *f;			/* open from rs_textlog_open to close: streams rewind it */
	char *buf;
	uint64_t size;			/* file size, for progress */
	bool sorted;			/* timestamps never go backwards: a range can stop early */
	struct tl_name *names[TL_HASH_SIZE];
	int nr_names;
	struct key_cache *kc;		/* [rs_kevent_count()] */
	struct pending_lost *pending;	/* [info.cpus] */
};

/* Head of an event line; strings point into the line. */
struct tl_head {
	char *comm;
	int pid, cpu;
	uint64_t ts;
	const char *name;
	char *body;
};

struct pair {
	const char *key;
	char *val;
};

enum line_kind { L_BLANK, L_HEADER, L_EVENT, L_GARBAGE };

enum hdr_kind { H_NONE, H_CPUS, H_LOST, H_KERNEL };

struct hdr {
	enum hdr_kind kind;
	bool recognized;		/* a line only trace texts have */
	int cpu, cpus;
	int64_t lost;			/* -1: "events lost" without a count */
	const char *kernel;
};

/* ---- reading lines with bounded memory ---- */

static void lr_init(struct line_reader *lr, FILE *f, char *buf)
{
	memset(lr, 0, sizeof(*lr));
	lr->f = f;
	lr->buf = buf;
}

/*
 * Next line, NUL-terminated in the buffer, without its newline. Returns 1 with *line set (NULL
 * when the line was longer than TL_LINE_MAX and skipped), 0 at end of file, -1 on a read error.
 */
static int lr_next(struct line_reader *lr, char **line, size_t *len)
{
	bool skipping = false;

	for (;;) {
		char *start = lr->buf + lr->pos;
		size_t avail = lr->end - lr->pos, n;
		char *nl = memchr(start, '\n', avail);

		if (nl) {
			lr->pos += (size_t)(nl - start) + 1;
			lr->consumed += (size_t)(nl - start) + 1;
			lr->lineno++;
			if (skipping || (size_t)(nl - start) >= TL_LINE_MAX) {
				*line = NULL;
				*len = 0;
				return 1;
			}
			if (nl > start && nl[-1] == '\r')
				nl--;
			*nl = '\0';
			*line = start;
			*len = (size_t)(nl - start);
			return 1;
		}
		if (avail >= TL_LINE_MAX) {
			/* drop what we have of the overlong line and look for its end */
			skipping = true;
			lr->consumed += avail;
			lr->pos = lr->end = 0;
			avail = 0;
		}
		if (lr->eof) {
			if (!avail && !skipping)
				return 0;
			/* last line without a newline */
			lr->pos = lr->end;
			lr->consumed += avail;
			lr->lineno++;
			if (skipping) {
				*line = NULL;
				*len = 0;
				return 1;
			}
			if (avail && start[avail - 1] == '\r')
				avail--;
			start[avail] = '\0';
			*line = start;
			*len = avail;
			return 1;
		}
		if (lr->pos) {
			memmove(lr->buf, start, avail);
			lr->pos = 0;
			lr->end = avail;
		}
		n = fread(lr->buf + lr->end, 1, TL_BUF_SIZE - lr->end, lr->f);
		if (!n) {
			if (ferror(lr->f))
				return -1;
			lr->eof = true;
		}
		lr->end += n;
	}
}

/* ---- the line grammar ---- */

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_ident(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline char *skip_ws(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Decimal digits at p, at most max; returns the number of digits, 0 when none or too big. */
static size_t scan_uint(const char *p, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	while (is_digit(p[i])) {
		unsigned int d = (unsigned int)(p[i] - '0');

		if (v > (max - d) / 10)
			return 0;
		v = v * 10 + d;
		i++;
	}
	*out = v;
	return i;
}

/*
 * "SECS.FRAC:" to ns, exactly (1 to 9 decimals, no floating point). A timestamp without a
 * fraction is a raw clock value (ftrace's counter clocks) and is taken as it is. Returns the
 * position after the colon, or NULL.
 */
static char *scan_ts(char *p, uint64_t *ts)
{
	uint64_t secs, frac = 0;
	size_t n = scan_uint(p, UINT64_MAX, &secs);
	int nf = 0;

	if (!n)
		return NULL;
	p += n;
	if (*p == '.') {
		for (p++; is_digit(*p); p++) {
			if (nf == 9)
				return NULL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			nf++;
		}
		if (!nf)
			return NULL;
		for (; nf < 9; nf++)
			frac *= 10;
		if (secs > (UINT64_MAX - frac) / NSEC_PER_SEC)
			return NULL;
		*ts = secs * NSEC_PER_SEC + frac;
	} else {
		*ts = secs;
	}
	return *p == ':' ? p + 1 : NULL;
}

/*
 * The part after the CPU column: [FLAGS] TS: [(+DIFF)] NAME: BODY. The event name is
 * NUL-terminated in place, only on success.
 */
static bool parse_after_cpu(char *p, bool allow_flags, struct tl_head *h)
{
	char *q, *name;
	size_t n;

	p = skip_ws(p);
	q = scan_ts(p, &h->ts);
	if (!q) {
		/* the irq-flags column, "d..2." or "....": flags never start with a digit */
		char *e = p + strcspn(p, " \t");

		if (!allow_flags || e == p || e - p > 8)
			return false;
		p = skip_ws(e);
		q = scan_ts(p, &h->ts);
		if (!q)
			return false;
	}
	if (*q && *q != ' ' && *q != '\t')
		return false;
	p = skip_ws(q);
	if (p[0] == '(' && p[1] == '+') {	/* trace-cmd report --ts-diff */
		q = strchr(p, ')');
		if (!q)
			return false;
		p = skip_ws(q + 1);
	}
	name = p;
	for (n = 0; is_ident(name[n]); n++)
		;
	if (n && n < TL_NAME_MAX && name[n] == ':') {
		name[n] = '\0';
		h->name = name;
		h->body = skip_ws(name + n + 1);
		return true;
	}
	/* ftrace's function tracer: "func <-parent", no event name */
	if (n && strstr(name, " <-")) {
		h->name = "function";
		h->body = name;
		return true;
	}
	return false;
}

/* "COMM-PID [(TGID)] [CPU]..." with the '[' at b. */
static bool try_bracket(char *start, char *b, struct tl_head *h)
{
	uint64_t cpu, pid;
	char *q = b, *digits_end;
	size_t n = scan_uint(b + 1, TL_MAX_CPUS - 1, &cpu);

	if (!n || b[1 + n] != ']')
		return false;
	while (q > start && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	if (q > start && q[-1] == ')') {	/* ftrace record-tgid: "(  1234)", "(-------)" */
		char *open = q - 1;

		while (open > start && *open != '(' && q - open < 16)
			open--;
		if (*open != '(')
			return false;
		q = open;
		while (q > start && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
	}
	digits_end = q;
	while (q > start && is_digit(q[-1]))
		q--;
	if (q == digits_end || digits_end - q > 10 || q - 1 <= start || q[-1] != '-')
		return false;
	if (scan_uint(q, INT_MAX, &pid) != (size_t)(digits_end - q))
		return false;
	if (!parse_after_cpu(b + 1 + n + 1, true, h))
		return false;
	q[-1] = '\0';
	h->comm = start;
	h->pid = (int)pid;
	h->cpu = (int)cpu;
	return true;
}

/* trace-cmd report -l: "COMM-PID CPUFLAGS TS:", the '-' at d. */
static bool try_latency(char *start, char *d, struct tl_head *h)
{
	uint64_t cpu, pid;
	char *q = d + 1, *e;
	size_t n = scan_uint(q, INT_MAX, &pid);

	if (!n || d == start || (q[n] != ' ' && q[n] != '\t'))
		return false;
	q = skip_ws(q + n);
	n = scan_uint(q, TL_MAX_CPUS - 1, &cpu);
	if (!n)
		return false;
	q += n;
	e = q + strcspn(q, " \t");
	if (e == q || e - q > 8)
		return false;
	if (!parse_after_cpu(e, false, h))
		return false;
	*d = '\0';
	h->comm = start;
	h->pid = (int)pid;
	h->cpu = (int)cpu;
	return true;
}

static bool parse_event_line(char *line, struct tl_head *h)
{
	char *start = skip_ws(line);
	size_t lim = strnlen(start, TL_HEAD_SCAN);
	char *p;

	/*
	 * The comm may hold spaces, dashes and brackets: try each '[' as the CPU column, the
	 * "-PID" read leftwards from it; the first that gives a whole head wins.
	 */
	for (p = memchr(start, '[', lim); p; p = memchr(p + 1, '[', lim - (size_t)(p + 1 - start)))
		if (try_bracket(start, p, h))
			return true;
	for (p = memchr(start, '-', lim); p; p = memchr(p + 1, '-', lim - (size_t)(p + 1 - start)))
		if (try_latency(start, p, h))
			return true;
	return false;
}

static bool parse_header(char *line, struct hdr *hd)
{
	char *s = skip_ws(line);
	unsigned long long v;
	int a, end = -1;

	memset(hd, 0, sizeof(*hd));
	if (*s == '#') {
		char *p = strstr(s, "#P:");

		if (!strncmp(s, "# tracer:", 9))
			hd->recognized = true;
		if (p && sscanf(p + 3, "%d", &a) == 1 && a > 0 && a <= TL_MAX_CPUS) {
			hd->kind = H_CPUS;
			hd->cpus = a;
		} else if (!strncmp(s, "# kernel:", 9)) {
			p = skip_ws(s + 9);
			p[strcspn(p, " \t")] = '\0';
			if (*p) {
				hd->kind = H_KERNEL;
				hd->kernel = p;
			}
		}
		return true;
	}
	if (sscanf(s, "cpus=%d%n", &a, &end) == 1 && end > 0 && !s[end]) {
		hd->recognized = true;
		if (a > 0 && a <= TL_MAX_CPUS) {
			hd->kind = H_CPUS;
			hd->cpus = a;
		}
		return true;
	}
	if ((sscanf(s, "version = %d%n", &a, &end) == 1 && end > 0 && !s[end]) ||
	    (sscanf(s, "CPU %d is empty%n", &a, &end) == 1 && end > 0 && !s[end])) {
		hd->recognized = true;
		return true;
	}
	if (!strncmp(s, "CPU:", 4)) {
		/* ftrace "CPU:N [LOST M EVENTS]", trace-cmd "CPU:N [M EVENTS DROPPED]" */
		if ((sscanf(s, "CPU:%d [LOST %llu EVENTS]%n", &a, &v, &end) == 2 && end > 0) ||
		    (sscanf(s, "CPU:%d [%llu EVENTS DROPPED]%n", &a, &v, &end) == 2 && end > 0)) {
			hd->lost = v > INT64_MAX ? INT64_MAX : (int64_t)v;
		} else if ((sscanf(s, "CPU:%d [EVENTS DROPPED]%n", &a, &end) == 1 && end > 0) ||
			   (sscanf(s, "CPU:%d [LOST EVENTS]%n", &a, &end) == 1 && end > 0)) {
			hd->lost = -1;
		} else {
			return false;
		}
		if (s[end] || a < 0 || a >= TL_MAX_CPUS)
			return false;
		hd->recognized = true;
		hd->kind = H_LOST;
		hd->cpu = a;
		return true;
	}
	if (!strncmp(s, "Linux ", 6)) {
		/* trace-cmd report --uname: "Linux HOST RELEASE ARCH" */
		char *host = skip_ws(s + 6), *rel;

		rel = skip_ws(host + strcspn(host, " \t"));
		if (*host && *rel) {
			rel[strcspn(rel, " \t")] = '\0';
			hd->kind = H_KERNEL;
			hd->kernel = rel;
			return true;
		}
	}
	return false;
}

static enum line_kind classify(char *line, size_t len, struct tl_head *h, struct hdr *hd)
{
	char *s = skip_ws(line);

	/* a NUL inside the line: binary junk, whatever the rest looks like */
	if (memchr(line, '\0', len))
		return L_GARBAGE;
	if (!*s)
		return L_BLANK;
	if (parse_event_line(line, h))
		return L_EVENT;
	if (parse_header(line, hd))
		return L_HEADER;
	return L_GARBAGE;
}

/* ---- event names ---- */

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Print events: trace-cmd names them "print", ftrace's own files "tracing_mark_write". */
static const char *canonical_name(const char *name)
{
	return strcmp(name, "tracing_mark_write") ? name : "print";
}

static struct tl_name *name_get(struct rs_source *src, struct textlog *tl, const char *name)
{
	uint32_t i = name_hash(name) & (TL_HASH_SIZE - 1);
	struct tl_name *e;

	for (; tl->names[i]; i = (i + 1) & (TL_HASH_SIZE - 1))
		if (!strcmp(tl->names[i]->name, name))
			return tl->names[i];
	if (tl->nr_names >= RS_MAX_EVENT_NAMES && strcmp(name, "other"))
		return name_get(src, tl, "other");
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->name = strdup(name);
	if (!e->name) {
		free(e);
		return NULL;
	}
	e->kevent = rs_kevent_find(NULL, name);
	tl->names[i] = e;
	tl->nr_names++;
	return e;
}

static void publish_counts(struct rs_source *src, struct textlog *tl)
{
	rs_source_counts_reset(src);
	for (int i = 0; i < TL_HASH_SIZE; i++) {
		struct tl_name *e = tl->names[i];

		if (e && e->count && !rs_source_count_add(src, NULL, e->name, e->count,
							  e->first_ts, e->last_ts))
			return;
	}
	rs_source_counts_finish(src);
}

/* ---- field values ---- */

/* Decimal, negative decimal or 0x hex, up to the first blank; "kB" may follow (oom). */
static bool parse_num(const char *s, uint64_t *out)
{
	const char *p = s;
	bool neg = false;
	uint64_t v = 0;
	size_t n = 0;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		for (p += 2; n < 17; p++, n++) {
			unsigned int d;

			if (is_digit(*p))
				d = (unsigned int)(*p - '0');
			else if (*p >= 'a' && *p <= 'f')
				d = (unsigned int)(*p - 'a' + 10);
			else if (*p >= 'A' && *p <= 'F')
				d = (unsigned int)(*p - 'A' + 10);
			else
				break;
			v = v << 4 | d;
		}
		if (!n || n > 16)
			return false;
	} else {
		n = scan_uint(p, neg ? (uint64_t)INT64_MAX + 1 : UINT64_MAX, &v);
		if (!n)
			return false;
		p += n;
	}
	if (!strncmp(p, "kB", 2))
		p += 2;
	if (*p && *p != ' ' && *p != '\t')
		return false;
	*out = neg ? (uint64_t)0 - v : v;
	return true;
}

/* Hex without 0x, as the kernel's hashed %p prints it, or with it as trace-cmd does. */
static bool parse_hex(const char *s, uint64_t *out)
{
	char buf[24];

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_num(s, out);
	if (strlen(s) > 16)
		return false;
	snprintf(buf, sizeof(buf), "0x%s", s);
	return parse_num(buf, out);
}

struct sym {
	const char *name;
	uint64_t val;
};

static const struct sym lru_syms[] = {
	{ "inactive_anon", RS_LRU_INACTIVE_ANON }, { "active_anon", RS_LRU_ACTIVE_ANON },
	{ "inactive_file", RS_LRU_INACTIVE_FILE }, { "active_file", RS_LRU_ACTIVE_FILE },
	{ "unevictable", RS_LRU_UNEVICTABLE }, { NULL, 0 },
};

static const struct sym rflag_syms[] = {
	{ "RECLAIM_WB_ANON", RS_RECLAIM_WB_ANON }, { "RECLAIM_WB_FILE", RS_RECLAIM_WB_FILE },
	{ "RECLAIM_WB_MIXED", RS_RECLAIM_WB_MIXED }, { "RECLAIM_WB_SYNC", RS_RECLAIM_WB_SYNC },
	{ "RECLAIM_WB_ASYNC", RS_RECLAIM_WB_ASYNC }, { "RECLAIM_WB_NONE", 0 }, { NULL, 0 },
};

/* mm_vmscan_throttled.reason holds 1 << enum vmscan_throttle_state */
static const struct sym throttle_syms[] = {
	{ "VMSCAN_THROTTLE_WRITEBACK", 1u << 0 }, { "VMSCAN_THROTTLE_ISOLATED", 1u << 1 },
	{ "VMSCAN_THROTTLE_NOPROGRESS", 1u << 2 }, { "VMSCAN_THROTTLE_CONGESTED", 1u << 3 },
	{ "VMSCAN_THROTTLE_NONE", 0 }, { NULL, 0 },
};

static bool sym_lookup(const struct sym *t, const char *s, size_t n, uint64_t *out)
{
	for (; t->name; t++) {
		if (strlen(t->name) == n && !memcmp(t->name, s, n)) {
			*out = t->val;
			return true;
		}
	}
	return false;
}

/*
 * "A|B|0x20": known names and numbers OR'd together; unknown names are ignored, but a value
 * with nothing we know in it is absent rather than 0.
 */
static bool parse_flags(const struct sym *t, const char *s, uint64_t *out)
{
	uint64_t v = 0, bit;
	bool any = false;

	while (*s && *s != ' ' && *s != '\t') {
		size_t n = strcspn(s, "| \t");
		char part[TL_NAME_MAX];

		if (sym_lookup(t, s, n, &bit)) {
			v |= bit;
			any = true;
		} else if (n < sizeof(part)) {
			memcpy(part, s, n);
			part[n] = '\0';
			if (parse_num(part, &bit)) {
				v |= bit;
				any = true;
			}
		}
		s += n;
		if (*s == '|')
			s++;
	}
	*out = v;
	return any;
}

static bool parse_value(enum vkind vk, char *s, uint64_t *num)
{
	switch (vk) {
	case VK_LRU:
		if (sym_lookup(lru_syms, s, strcspn(s, " \t"), num))
			return true;
		return parse_num(s, num);
	case VK_RFLAGS:
		return parse_flags(rflag_syms, s, num);
	case VK_THROTTLE:
		return parse_flags(throttle_syms, s, num);
	case VK_PTR:
		return parse_hex(s, num);
	default:
		/* gfp_flags and the rest: numbers only; symbolic gfp masks stay absent */
		return parse_num(s, num);
	}
}

static enum vkind slot_vkind(const struct rs_slot *slot)
{
	if (slot->kind == RS_SLOT_STR)
		return VK_STR;
	if (rs_slot_name_matches(slot, "lru"))
		return VK_LRU;
	if (rs_slot_name_matches(slot, "reclaim_flags"))
		return VK_RFLAGS;
	if (rs_slot_name_matches(slot, "reason"))
		return VK_THROTTLE;
	if (rs_slot_name_matches(slot, "shr"))
		return VK_PTR;		/* %p: hex, without 0x when the kernel hashed it */
	return VK_NUM;
}

/*
 * Split "k=v k=v" in place. A word without '=' continues the previous value (paths and comms
 * may hold blanks); "k:v" words are pairs too (mark_victim prints "file-rss:123kB").
 */
static int split_pairs(char *p, struct pair *pairs, int max)
{
	char *val_end = NULL;
	int n = 0;

	while (*p) {
		char *tok, *end, *eq;

		p = skip_ws(p);
		if (!*p)
			break;
		tok = p;
		end = tok + strcspn(tok, " \t");
		eq = memchr(tok, '=', (size_t)(end - tok));
		if (!eq) {
			char *colon = memchr(tok, ':', (size_t)(end - tok));

			if (colon && colon + 1 < end)
				eq = colon;
		}
		if (eq && eq > tok) {
			if (n == max)
				break;
			if (val_end)
				*val_end = '\0';
			*eq = '\0';
			pairs[n].key = tok;
			pairs[n++].val = eq + 1;
			val_end = end;
		} else if (val_end) {
			val_end = end;
		}
		p = end;
	}
	if (val_end)
		*val_end = '\0';
	return n;
}

/*
 * mm_shrink_slab_start/end print phrases, not pairs:
 *   "SYM+0x0 0xSHR: nid: 0 objects to shrink 2 gfp_flags GFP_KERNEL cache items 240 delta 0
 *    total_scan 0 priority 12"  and  "... unused scan count 2 new scan count 2 total_scan 0
 *   last shrinker return val 0"; older kernels add "pgs_scanned N lru_pgs N" and lack nid.
 */
static const struct {
	const char *phrase, *key;
} slab_phrases[] = {
	{ "nid:", "nid" },
	{ "objects to shrink", "nr_objects_to_shrink" },
	{ "gfp_flags", "gfp_flags" },
	{ "pgs_scanned", NULL },
	{ "lru_pgs", NULL },
	{ "cache items", "cache_items" },
	{ "delta", "delta" },
	{ "total_scan", "total_scan" },
	{ "priority", "priority" },
	{ "unused scan count", "unused_scan" },
	{ "new scan count", "new_scan" },
	{ "last shrinker return val", "retval" },
};

static int split_slab(char *p, struct pair *pairs, int max, const char **shrink_name)
{
	char *fn, *tok;
	int n = 0;
	uint64_t dummy;

	*shrink_name = NULL;
	p = skip_ws(p);
	fn = p;
	p += strcspn(p, " \t");
	if (!*p)
		return 0;
	*p++ = '\0';
	if (parse_num(fn, &dummy)) {
		pairs[n].key = "shrink";	/* no symbol: the address */
		pairs[n++].val = fn;
	} else {
		fn[strcspn(fn, "+")] = '\0';
		*shrink_name = fn;
	}
	/* the shrinker pointer ends in ':' (a module name in brackets may come first) */
	for (;;) {
		size_t len;

		p = skip_ws(p);
		tok = p;
		len = strcspn(p, " \t");
		if (!len)
			return n;
		p += len;
		if (tok[len - 1] == ':') {
			tok[len - 1] = '\0';
			if (*p)
				p++;
			pairs[n].key = "shr";
			pairs[n++].val = tok;
			break;
		}
	}
	while (*(p = skip_ws(p)) && n < max) {
		bool matched = false;

		for (size_t i = 0; i < sizeof(slab_phrases) / sizeof(slab_phrases[0]); i++) {
			size_t len = strlen(slab_phrases[i].phrase);

			if (strncmp(p, slab_phrases[i].phrase, len) || (p[len] != ' ' &&
									 p[len] != '\t'))
				continue;
			p = skip_ws(p + len);
			tok = p;
			p += strcspn(p, " \t");
			if (*p)
				*p++ = '\0';
			if (slab_phrases[i].key) {
				pairs[n].key = slab_phrases[i].key;
				pairs[n++].val = tok;
			}
			matched = true;
			break;
		}
		if (!matched)
			p += strcspn(p, " \t");
	}
	return n;
}

/*
 * Text of a print event: "tracing_mark_write: TEXT" (trace-cmd), TEXT (ftrace, whose event
 * name was that prefix), or "ip=0x... buf=TEXT" (trace-cmd report -R).
 */
static char *print_text(const struct tl_head *h)
{
	char *b = h->body, *p;
	size_t n;

	if (strcmp(h->name, "print"))
		return b;
	if (!strncmp(b, "ip=", 3)) {
		p = strstr(b, " buf=");
		return p ? p + 5 : b;
	}
	n = strcspn(b, " \t");
	if (n && b[n - 1] == ':')
		return skip_ws(b + n);
	return b;
}

/* ---- decoding one event ---- */

static bool decode(struct rs_source *src, struct textlog *tl, const struct tl_name *nm,
		   struct tl_head *h, struct rs_event *ev)
{
	const struct rs_kevent *ke = rs_kevent_get(nm->kevent);
	struct key_cache *kc = &tl->kc[nm->kevent];
	const char *shrink_name = NULL, *missing;
	struct pair pairs[TL_MAX_PAIRS];
	struct rs_slotvals v;
	int n;

	v.present = 0;
	/*
	 * rs_normalize leaves some members of the union alone (nr_activate_* when the kernel has
	 * no activation counts): they must read 0, not the previous event's values
	 */
	memset(ev, 0, sizeof(*ev));
	if (ke->type == RS_EV_MARKER) {
		for (int i = 0; i < ke->nr_slots; i++) {
			if (ke->slots[i].kind == RS_SLOT_STR) {
				v.str[i] = print_text(h);
				v.present |= 1u << i;
				break;
			}
		}
		n = 0;
	} else if (ke->type == RS_EV_SLAB_START || ke->type == RS_EV_SLAB_END) {
		/* trace-cmd report -R prints the binary fields as pairs */
		if (!strncmp(h->body, "shr=", 4) || !strncmp(h->body, "shrink=", 7))
			n = split_pairs(h->body, pairs, TL_MAX_PAIRS);
		else
			n = split_slab(h->body, pairs, TL_MAX_PAIRS, &shrink_name);
	} else {
		n = split_pairs(h->body, pairs, TL_MAX_PAIRS);
	}
	for (int j = 0; j < n; j++) {
		int slot;

		if (strcmp(kc->key[j], pairs[j].key)) {
			size_t len = strlen(pairs[j].key);

			kc->slot[j] = -1;
			kc->key[j][0] = '\0';
			if (len >= TL_KEY_MAX)
				continue;
			for (int i = 0; i < ke->nr_slots; i++) {
				if (rs_slot_name_matches(&ke->slots[i], pairs[j].key)) {
					kc->slot[j] = (signed char)i;
					kc->vk[j] = (unsigned char)slot_vkind(&ke->slots[i]);
					break;
				}
			}
			memcpy(kc->key[j], pairs[j].key, len + 1);
		}
		slot = kc->slot[j];
		if (slot < 0 || (v.present & (1u << slot)))
			continue;
		if (kc->vk[j] == VK_STR) {
			v.str[slot] = pairs[j].val;
		} else if (!parse_value((enum vkind)kc->vk[j], pairs[j].val, &v.num[slot])) {
			continue;
		}
		v.present |= 1u << slot;
	}
	missing = rs_kevent_missing(ke, v.present);
	if (missing) {
		rs_warn(src->info.warnings, "%s: %s lines without field '%s' are counted but not "
			"analysed", src->path, nm->name, missing);
		return false;
	}
	rs_normalize(ke, &v, ev);
	ev->ts = h->ts;
	ev->cpu = h->cpu;
	ev->pid = h->pid;
	ev->comm = h->comm;
	if (ev->type == RS_EV_MARKER && ev->marker)
		rs_markers_decode(src, ev->marker, ev);
	else if (ev->type == RS_EV_SLAB_START || ev->type == RS_EV_SLAB_END)
		ev->slab.shrink_name = shrink_name;
	return true;
}

/* ---- open, stream, close ---- */

static void textlog_close(struct rs_source *src)
{
	struct textlog *tl = src->priv;

	if (!tl)
		return;
	for (int i = 0; i < TL_HASH_SIZE; i++) {
		if (tl->names[i]) {
			free(tl->names[i]->name);
			free(tl->names[i]);
		}
	}
	if (tl->f)
		fclose(tl->f);
	free(tl->kc);
	free(tl->pending);
	free(tl->buf);
	free(tl);
	src->priv = NULL;
}

static void progress(struct rs_source *src, uint64_t done, uint64_t size)
{
	double pct = size ? 100.0 * (double)done / (double)size : 100;

	fprintf(stderr, "\rreading %s: %5.1f%%", src->path, pct > 100 ? 100 : pct);
}

/* Loss counts from the text saturate rather than wrap. */
static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = *sum + v < *sum ? UINT64_MAX : *sum + v;
}

static void add_pending(struct pending_lost *p, int64_t lost, uint64_t lineno)
{
	if (!p->set) {
		p->set = true;
		p->lost = lost;
		p->lineno = lineno;
	} else if (lost >= 0) {
		p->lost = p->lost < 0 ? lost : p->lost > INT64_MAX - lost ? INT64_MAX :
			  p->lost + lost;
	}
}

static int deliver_lost(struct pending_lost *p, int cpu, uint64_t ts, rs_event_fn fn, void *ctx)
{
	struct rs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_LOST;
	ev.ts = ts;
	ev.cpu = cpu;
	ev.pid = -1;
	ev.comm = "<lost>";
	ev.offset = p->lineno;
	ev.lost = p->lost;
	p->set = false;
	return fn(&ev, ctx);
}

static int textlog_stream(struct rs_source *src, uint64_t from_ns, uint64_t to_ns,
			  rs_event_fn fn, void *ctx, struct rs_error *err)
{
	struct textlog *tl = src->priv;
	bool full = from_ns == 0 && to_ns == UINT64_MAX;
	uint64_t nrec = 0, first = UINT64_MAX, last = 0, last_read = 0;
	struct line_reader lr;
	struct rs_event ev;
	int ret = 0, r;
	size_t len;
	char *line;

	clearerr(tl->f);
	if (fseek(tl->f, 0, SEEK_SET) < 0)
		return rs_error_set(err, "%s: cannot rewind: %s", src->path, strerror(errno));
	lr_init(&lr, tl->f, tl->buf);
	memset(tl->pending, 0, (size_t)src->info.cpus * sizeof(*tl->pending));
	if (full) {
		for (int i = 0; i < TL_HASH_SIZE; i++)
			if (tl->names[i])
				tl->names[i]->count = 0;
		for (int c = 0; c < src->info.cpus; c++)
			src->loss[c].missed = src->loss[c].missed_unknown = 0;
	}
	while ((r = lr_next(&lr, &line, &len)) > 0) {
		struct tl_name *nm;
		struct tl_head h;
		struct hdr hd;

		if (src->opts.progress && !(lr.lineno & 0xfffff))
			progress(src, lr.consumed, tl->size);
		if (!line)
			continue;
		switch (classify(line, len, &h, &hd)) {
		case L_HEADER:
			if (hd.kind == H_LOST && hd.cpu < src->info.cpus) {
				add_pending(&tl->pending[hd.cpu], hd.lost, lr.lineno);
				if (full && hd.lost >= 0)
					add_sat(&src->loss[hd.cpu].missed, (uint64_t)hd.lost);
				else if (full)
					src->loss[hd.cpu].missed_unknown++;
			}
			continue;
		case L_EVENT:
			break;
		default:
			continue;
		}
		if (h.cpu >= src->info.cpus) {
			/* the pre-scan saw every CPU: the file changed under us */
			rs_warn(src->info.warnings, "%s: the file changed while being read; CPU %d "
				"lines skipped", src->path, h.cpu);
			continue;
		}
		last_read = h.ts;
		if (h.ts < from_ns || rs_past_end(h.ts, to_ns)) {
			tl->pending[h.cpu].set = false;
			if (rs_past_end(h.ts, to_ns) && tl->sorted)
				break;
			continue;
		}
		if (tl->pending[h.cpu].set) {
			ret = deliver_lost(&tl->pending[h.cpu], h.cpu, h.ts, fn, ctx);
			if (ret)
				goto out;
		}
		nrec++;
		if (h.ts < first)
			first = h.ts;
		if (h.ts > last)
			last = h.ts;
		nm = name_get(src, tl, canonical_name(h.name));
		if (!nm) {
			ret = rs_error_set(err, "%s: out of memory", src->path);
			goto out;
		}
		if (full) {
			if (!nm->count++)
				nm->first_ts = h.ts;
			nm->last_ts = h.ts;
		}
		if (nm->kevent < 0)
			continue;
		if (!decode(src, tl, nm, &h, &ev))
			continue;
		ev.offset = lr.lineno;
		ret = fn(&ev, ctx);
		if (ret)
			goto out;
	}
	if (r < 0) {
		ret = rs_error_set(err, "%s: read error at line %" PRIu64 ": %s", src->path,
				   lr.lineno + 1, strerror(errno));
		goto out;
	}
	/* losses after the last event of their CPU: at the time of the last event read */
	for (int c = 0; c < src->info.cpus && !ret; c++)
		if (tl->pending[c].set && last_read >= from_ns && !rs_past_end(last_read, to_ns))
			ret = deliver_lost(&tl->pending[c], c, last_read, fn, ctx);
	if (ret)
		goto out;
	if (full) {
		src->info.events = nrec;
		src->info.first_ts = nrec ? first : 0;
		src->info.last_ts = last;
		publish_counts(src, tl);
	}
out:
	if (src->opts.progress)
		fprintf(stderr, "\r%*s\r", 40 + (int)strlen(src->path), "");
	return ret;
}

static const struct rs_source_ops textlog_ops = {
	.stream = textlog_stream,
	.close = textlog_close,
};

/* Refuse binary files up front with a message that says what they look like. */
static int check_text(struct rs_source *src, FILE *f, struct rs_error *err)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *what;
	} packed[] = {
		{ "\x1f\x8b", 2, "gzip" }, { "\x28\xb5\x2f\xfd", 4, "zstd" },
		{ "\xfd" "7zXZ", 5, "xz" }, { "BZh", 3, "bzip2" },
	};
	unsigned char buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), f);

	if (ferror(f))
		return rs_error_set(err, "%s: cannot read: %s", src->path, strerror(errno));
	for (size_t i = 0; i < sizeof(packed) / sizeof(packed[0]); i++)
		if (n >= packed[i].len && !memcmp(buf, packed[i].magic, packed[i].len) &&
		    (packed[i].len > 3 || memchr(buf, 0, n)))
			return rs_error_set(err, "%s: a %s-compressed file; decompress it first",
					    src->path, packed[i].what);
	if (memchr(buf, 0, n))
		return rs_error_set(err, "%s: not a trace.dat and not a text trace (binary data)",
				    src->path);
	rewind(f);
	return 0;
}

/*
 * One pass over the file: CPU count, time span, losses, kernel release, and the lines that are
 * not trace lines (warned about here once, not on every stream).
 */
static int prescan(struct rs_source *src, struct textlog *tl, FILE *f, struct rs_error *err)
{
	uint64_t nev = 0, garbage = 0, overlong = 0, first = UINT64_MAX, last = 0, prev = 0;
	uint64_t first_garbage = 0;
	int max_cpu = -1, hdr_cpus = 0, ret = 0, r;
	bool recognized = false, backwards = false;
	struct rs_cpu_loss *lost;	/* by CPU number, until the CPU count is known */
	struct line_reader lr;
	size_t len;
	char *line;

	lost = calloc(TL_MAX_CPUS, sizeof(*lost));
	if (!lost)
		return rs_error_set(err, "%s: out of memory", src->path);
	lr_init(&lr, f, tl->buf);
	while ((r = lr_next(&lr, &line, &len)) > 0) {
		struct tl_head h;
		struct hdr hd;

		if (!line) {
			if (++overlong <= TL_WARN_LINES)
				rs_warn(src->info.warnings, "%s: line %" PRIu64 " is longer than "
					"%d bytes; skipped", src->path, lr.lineno, TL_LINE_MAX);
			continue;
		}
		switch (classify(line, len, &h, &hd)) {
		case L_BLANK:
			break;
		case L_HEADER:
			recognized |= hd.recognized;
			if (hd.kind == H_CPUS && hd.cpus > hdr_cpus)
				hdr_cpus = hd.cpus;
			if (hd.kind == H_KERNEL && !nev && !strcmp(src->info.kernel, "unknown"))
				rs_source_set_kernel(src, hd.kernel);
			if (hd.kind == H_LOST) {
				if (hd.lost >= 0)
					add_sat(&lost[hd.cpu].missed, (uint64_t)hd.lost);
				else
					lost[hd.cpu].missed_unknown++;
				if (hd.cpu > max_cpu)
					max_cpu = hd.cpu;
			}
			break;
		case L_EVENT:
			if (nev && h.ts < prev && !backwards) {
				backwards = true;
				rs_warn(src->info.warnings, "%s: line %" PRIu64 ": timestamps go "
					"backwards; events kept in file order", src->path,
					lr.lineno);
			}
			prev = h.ts;
			nev++;
			if (h.ts < first)
				first = h.ts;
			if (h.ts > last)
				last = h.ts;
			if (h.cpu > max_cpu)
				max_cpu = h.cpu;
			if (!strcmp(canonical_name(h.name), "print")) {
				/* only the begin marker: it names the kernel */
				char *text = print_text(&h);

				if (!strncmp(text, "reclaimscope_begin ", 19) ||
				    !strncmp(text, "scenario_begin ", 15)) {
					struct rs_event ev;

					rs_markers_decode(src, text, &ev);
				}
			}
			break;
		default:
			if (!garbage++)
				first_garbage = lr.lineno;
			if (garbage <= TL_WARN_LINES)
				rs_warn(src->info.warnings, "%s: line %" PRIu64 ": not a trace "
					"event line; skipped", src->path, lr.lineno);
			break;
		}
	}
	if (r < 0) {
		ret = rs_error_set(err, "%s: read error at line %" PRIu64 ": %s", src->path,
				   lr.lineno + 1, strerror(errno));
		goto out;
	}
	if (!nev && (garbage || overlong || !recognized)) {
		ret = rs_error_set(err, "%s: not a trace.dat and no trace event lines in it (text "
				   "traces must be trace-cmd report or ftrace trace format)",
				   src->path);
		goto out;
	}
	if (!nev)
		rs_warn(src->info.warnings, "%s: a text trace with no events in it", src->path);
	if (garbage > TL_WARN_LINES)
		rs_warn(src->info.warnings, "%s: %" PRIu64 " lines in all (the first at line %"
			PRIu64 ") are not trace event lines; skipped", src->path, garbage,
			first_garbage);
	if (overlong > TL_WARN_LINES)
		rs_warn(src->info.warnings, "%s: %" PRIu64 " lines in all are longer than %d "
			"bytes; skipped", src->path, overlong, TL_LINE_MAX);
	if (rs_source_set_cpus(src, max_cpu + 1 > hdr_cpus ? max_cpu + 1 : hdr_cpus, err) < 0) {
		ret = -1;
		goto out;
	}
	for (int c = 0; c < src->info.cpus; c++) {
		src->loss[c].missed = lost[c].missed;
		src->loss[c].missed_unknown = lost[c].missed_unknown;
	}
	tl->pending = calloc(src->info.cpus ? (size_t)src->info.cpus : 1, sizeof(*tl->pending));
	if (!tl->pending) {
		ret = rs_error_set(err, "%s: out of memory", src->path);
		goto out;
	}
	tl->sorted = !backwards;
	src->info.events = nev;
	src->info.first_ts = nev ? first : 0;
	src->info.last_ts = last;
out:
	free(lost);
	return ret;
}

int rs_textlog_open(struct rs_source *src, struct rs_error *err)
{
	struct textlog *tl;
	struct stat st;

	tl = calloc(1, sizeof(*tl));
	if (!tl)
		return rs_error_set(err, "%s: out of memory", src->path);
	src->priv = tl;
	src->ops = &textlog_ops;
	src->format = strdup("text");
	src->info.format = src->format ? src->format : "text";
	tl->buf = malloc(TL_BUF_SIZE + 1);
	tl->kc = calloc((size_t)rs_kevent_count(), sizeof(*tl->kc));
	if (!tl->buf || !tl->kc)
		return rs_error_set(err, "%s: out of memory", src->path);
	tl->f = fopen(src->path, "re");
	if (!tl->f)
		return rs_error_set(err, "%s: cannot open: %s", src->path, strerror(errno));
	if (!fstat(fileno(tl->f), &st))
		tl->size = (uint64_t)st.st_size;
	if (check_text(src, tl->f, err) < 0)
		return -1;
	return prescan(src, tl, tl->f, err);
}
