// SPDX-License-Identifier: GPL-2.0
/*
 * A pass over the offsets and sizes of a trace.dat before libtracecmd sees it.
 *
 * libtracecmd 3.1.6 trusts the file: it allocates whatever a size field says before reading
 * (a corrupt event-format size is a multi-gigabyte malloc), follows option chains without
 * noticing loops, strdup()s option strings that have no NUL, writes before a zero-sized
 * buffer (CPUSTAT), dereferences a NULL hook, and on a file whose CPU data lie past its end
 * (a trace cut short by a full disk) it crashes in tracecmd_close(). libtraceevent reads past
 * a ring-buffer page whose header claims more than the page holds, and dereferences NULL on a
 * print format naming a field the event lacks. Each check below stands for one of those
 * places (trace-input.c of trace-cmd 3.1.6, kbuffer-parse.c and event-parse.c of libtraceevent
 * 1.7.1, named per check); a file that passes can still be garbage, but garbage the libraries
 * answer with an error.
 *
 * This is not a parser: event formats, kallsyms, cmdlines and event records stay the
 * libraries'. We walk the container the way libtracecmd does, checking every size against
 * what is left of the file; we look into format texts only for REC->name, and into ring-buffer
 * pages only at their 16-byte headers. The file is read through one read-only mapping where it
 * can be mapped (else pread): a pread per page header, chunk header and string byte was 61 k
 * syscalls for the bench trace as v6 (244 MB) and 12 k as v7, at ~4 us each on the 2-CPU VM
 * of bench/README.md; the mapping faults 16 page-cache pages at a time. Compressed v7 header
 * sections holding formats are decompressed (zstd or zlib, as the file says) to walk them too,
 * and so are the chunks of compressed event data, one at a time, for their page headers; the
 * other compressed sections (kallsyms, printk, cmdlines) get their block sizes checked and
 * only their start decompressed, for the size of the text it gives. The trace.dat backend
 * reads compressed event data itself (tracedat_chunks.c) and asks for each CPU's first chunk
 * only (rs_tracedat_layout), checking the pages it reads; where it leaves them to libtracecmd it
 * checks them all first (rs_tracedat_check_zpages()).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>
#include <traceevent/event-parse.h>

#include "../source_state.h"
#include "tracedat_skip.h"

/* Option and section ids (enum tracecmd_option_id, trace-cmd-private.h), stable since v6. */
enum {
	OPT_DONE, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK, OPT_UNAME, OPT_HOOK,
	OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION, OPT_PROCMAPS, OPT_TRACEID, OPT_TIME_SHIFT,
	OPT_GUEST, OPT_TSC2NSEC, OPT_STRINGS, OPT_HEADER_INFO, OPT_FTRACE_EVENTS,
	OPT_EVENT_FORMATS, OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES, OPT_BUFFER_TEXT,
};
#define SEC_FL_COMPRESS		1

/* The commit word of a ring-buffer page header (kbuffer-parse.c) */
#define KB_MISSING_EVENTS	(1ull << 31)
#define KB_MISSING_STORED	(1ull << 30)	/* the lost count follows the events */
#define KB_COMMIT_MASK		((1ull << 27) - 1)

#define MAX_CPUS		65536		/* as rs_source_set_cpus() */
#define MAX_OPTION_SIZE		(64u << 20)	/* an option we read whole to check it */
#define MAX_SECTION_RSIZE	(256u << 20)	/* uncompressed header section (kallsyms ~10 MB) */
#define MAX_CHUNK_RSIZE		(16u << 20)	/* trace-cmd writes 10 pages per chunk */
#define MAX_OPTION_SECTIONS	64		/* option sections chained by DONE */
#define MAX_STRING		4096		/* names in the container: systems, buffers */
#define MAX_FORMAT		(1 << 20)	/* one event format (the largest are ~10 KB) */

/* libtraceevent's print-format parser state across formats (see check_format_text()) */
struct format_scan {
	bool flag_pending;	/* a __print_flags/__print_symbolic whose lookup is still to come:
				   the next REC-> in text order (exact for any format the library
				   parses through) */
	bool flag_maybe;	/* ... or may be, if the library gave up on a format before reaching
				   the REC-> that cleared flag_pending: cleared only where the library
				   surely reaches a field (see check_format_text()) */
};

struct fmt_store {
	char *buf;
	size_t len, cap;
	/* the test parse (formats_survive()), started once the formats are read */
	pid_t pid;			/* its child; 0: none running */
	int fd;				/* the child's answer */
	size_t parsed;			/* len when it was forked */
};

struct rd {
	int fd;
	const uint8_t *file;	/* the file, mapped (size bytes), read instead of fd; or NULL */
	const uint8_t *mem;	/* a decompressed section, read instead of file when set */
	const char *path;
	uint64_t size;		/* of the file */
	uint64_t pos;
	uint64_t end;		/* of the part being walked (a section), <= size */
	bool big;		/* file byte order */
	bool v7, compressed;
	char zname[64];
	uint32_t page_size;
	unsigned int long_size;	/* 4 or 8 */
	uint32_t cpus;		/* v6: cpu count; latest CPUCOUNT option */
	bool trace_clock;	/* v6: a TRACECLOCK option makes the library read one more field */
	bool top_latency;	/* the top buffer holds latency-tracer text, not events */
	bool have_top;
	uint64_t top_offset;
	ZSTD_DCtx *zctx;
	uint64_t opt_seen[MAX_OPTION_SECTIONS];
	int nr_opt_seen;
	struct format_scan formats;	/* libtraceevent's parser state across formats */
	/* every event format text, as a 4-byte length then the text: parsed once more by
	   libtraceevent in a child process (formats_survive()); shared by the readers of
	   decompressed sections, which are copies of this struct */
	struct fmt_store *store;
	struct rs_tracedat_layout *layout;	/* what the caller wants to know; may be NULL */
	struct rs_error *err;
};

#define U(x) ((unsigned long long)(x))

static int bad(struct rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct rd *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rs_error_set(r->err, "%s: corrupt or truncated trace.dat: %s", r->path, msg);
}

static uint64_t left(const struct rd *r)
{
	return r->pos < r->end ? r->end - r->pos : 0;
}

static int get(struct rd *r, void *buf, uint64_t n, const char *what)
{
	const uint8_t *in = r->mem ? r->mem : r->file;	/* a section, else the mapped file */
	ssize_t got;

	if (n > left(r))
		return bad(r, "%s needs %llu bytes at offset %llu, past the end", what, U(n), U(r->pos));
	if (in) {
		memcpy(buf, in + r->pos, n);
		r->pos += n;
		return 0;
	}
	got = pread(r->fd, buf, n, (off_t)r->pos);
	if (got < 0)
		return rs_error_set(r->err, "%s: cannot read: %s", r->path, strerror(errno));
	if ((uint64_t)got != n)
		return bad(r, "%s: file shrank while reading (%lld of %llu bytes)", what,
			   (long long)got, U(n));
	r->pos += n;
	return 0;
}

static uint64_t from_file(const struct rd *r, const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[r->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int num(struct rd *r, int n, uint64_t *v, const char *what)
{
	uint8_t b[8];

	if (get(r, b, n, what) < 0)
		return -1;
	*v = from_file(r, b, n);
	return 0;
}

static int skip(struct rd *r, uint64_t n, const char *what)
{
	if (n > left(r))
		return bad(r, "%s claims %llu bytes, only %llu left", what, U(n), U(left(r)));
	r->pos += n;
	return 0;
}

/* A NUL-terminated string of at most max bytes (read_string() has no limit of its own). */
static int string(struct rd *r, char *out, size_t max, const char *what)
{
	size_t n = 0;

	for (;;) {
		char c;

		if (get(r, &c, 1, what) < 0)
			return -1;
		if (n + 1 >= max)
			return bad(r, "%s is not a string of under %zu bytes (offset %llu)", what,
				   max, U(r->pos));
		out[n++] = c;
		if (!c)
			return 0;
	}
}

/* size8 + data; read_header_files(), read_data_and_size() malloc the size first. */
static int sized8(struct rd *r, const char *what)
{
	uint64_t n;

	return num(r, 8, &n, what) < 0 ? -1 : skip(r, n, what);
}

static int sized4(struct rd *r, const char *what)
{
	uint64_t n;

	return num(r, 4, &n, what) < 0 ? -1 : skip(r, n, what);
}

/* read_header_files() */
static int check_header_info(struct rd *r)
{
	char tag[13];

	if (get(r, tag, 12, "header_page tag") < 0)
		return -1;
	if (memcmp(tag, "header_page", 12))
		return bad(r, "header_page missing at offset %llu", U(r->pos - 12));
	if (sized8(r, "header_page") < 0 || get(r, tag, 13, "header_event tag") < 0)
		return -1;
	if (memcmp(tag, "header_event", 13))
		return bad(r, "header_event missing at offset %llu", U(r->pos - 13));
	return sized8(r, "header_event");
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * libtraceevent 1.7.1 (and 1.8.4) process_entry(): the REC->name that comes right after
 * __print_flags( or __print_symbolic( is looked up as a field and dereferenced: a name that is
 * no field of the event is a NULL dereference. Which REC-> gets looked up is a static flag set
 * at the function name and cleared at the next REC-> the parser reaches, in that event or, when
 * the parser gave up on the rest of a format in between, in a later one.
 *
 * Kernels 7.1+ print the caller's pid and an in-irq mark in nine reclaim events with
 * REC->ent.pid and REC->common_flags: "ent" (struct trace_entry, whose members are the common_*
 * fields) is no field, but it is never the one looked up there, and the library only fails to
 * print such events (every field still reads by name). So a REC->name must name a field,
 * except REC->ent.MEMBER of struct trace_entry outside the flag's reach. Two states follow the
 * library's flag: flag_pending, cleared by the next REC-> in text order, which must then name a
 * field (kernel formats put casts, shifts and masks in between: "__print_flags((unsigned
 * long)REC->flags", "__print_symbolic((((REC->ioprio) >> 13)"); and flag_maybe, for a format
 * the library could give up on in between, cleared only by a field reached through nothing but
 * "(" from the function name, or by the first REC-> of a later format. REC->ent is refused
 * while either is set; a file is refused when it ends with flag_pending (the next file read
 * would meet it).
 */

static bool word_at(const char *p, const char *start, const char *end, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(end - p) >= n && !memcmp(p, w, n) && (p == start || !ident_char(p[-1])) &&
	       (p + n == end || !ident_char(p[n]));
}

static bool is_entry_member(const char *id, size_t len)
{
	static const char *const members[] = { "type", "flags", "preempt_count", "pid" };

	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		if (strlen(members[i]) == len && !memcmp(members[i], id, len))
			return true;
	return false;
}

static int check_format_text(struct rd *r, struct format_scan *fs, const char *text, uint64_t n)
{
	const char *end = text + n, *p = text, *fmt, *after_fn = NULL;
	char names[256][64];
	bool first_rec = true;
	int nr = 0;

	/* "field:TYPE NAME[N];" lines, up to "print fmt:" */
	fmt = memmem(text, n, "print fmt:", 10);
	if (!fmt)
		return 0;		/* the library rejects it by itself */
	while ((p = memmem(p, (size_t)(fmt - p), "field:", 6))) {
		const char *semi = memchr(p, ';', (size_t)(fmt - p)), *q;
		size_t len;

		if (!semi)
			break;
		/*
		 * event_read_fields() leaves the field without a name when a '[' is not closed
		 * before the ';' ("char[ name;"), and the first lookup by name (__get_str(),
		 * tep_find_field()) strcmp()s that NULL: brackets must pair, as the kernel's do.
		 */
		for (const char *b = p, *ob = NULL; b < semi; b++) {
			if (*b == '[' && ob)
				return bad(r, "event format at offset %llu has a field with nested '['",
					   U(r->pos - n));
			if (*b == '[')
				ob = b;
			else if (*b == ']' && !ob)
				return bad(r, "event format at offset %llu has a field with ']' before "
					   "'['", U(r->pos - n));
			else if (*b == ']')
				ob = NULL;
			if (b + 1 == semi && ob)
				return bad(r, "event format at offset %llu has a field whose '[' is "
					   "not closed", U(r->pos - n));
		}
		q = semi;
		if (q > p && q[-1] == ']')	/* NAME[N] */
			while (q > p && *q != '[')
				q--;
		len = 0;
		while (q > p && ident_char(q[-1])) {
			q--;
			len++;
		}
		if (nr == (int)(sizeof(names) / sizeof(names[0])))
			return 0;	/* no kernel event has that many; do not guess */
		if (len && len < sizeof(names[0])) {
			memcpy(names[nr], q, len);
			names[nr++][len] = '\0';
		}
		p = semi + 1;
	}
	for (p = fmt + 10; p < end; ) {
		const char *id;
		size_t len = 0;
		bool found = false, direct;

		if (word_at(p, fmt, end, "__print_flags") || word_at(p, fmt, end, "__print_symbolic")) {
			fs->flag_pending = true;
			fs->flag_maybe = true;
			p += p[8] == 'f' ? 13 : 16;
			after_fn = p;
			continue;
		}
		if ((size_t)(end - p) < 5 || memcmp(p, "REC->", 5) ||
		    (p > fmt && ident_char(p[-1]))) {
			p++;
			continue;
		}
		/* reached from the function name through nothing but "(" and blanks */
		direct = after_fn != NULL;
		for (const char *q = after_fn; direct && q < p; q++)
			direct = *q == '(' || *q == ' ' || *q == '\t' || *q == '\n';
		after_fn = NULL;
		id = p + 5;
		while (id + len < end && ident_char(id[len]))
			len++;
		for (int i = 0; i < nr && !found; i++)
			found = strlen(names[i]) == len && !memcmp(names[i], id, len);
		p = id + len;
		if (found) {
			fs->flag_pending = false;
			if (direct || first_rec)
				fs->flag_maybe = false;
			first_rec = false;
			continue;
		}
		first_rec = false;
		if (len == 3 && !memcmp(id, "ent", 3) && p < end && *p == '.' && !fs->flag_pending &&
		    !fs->flag_maybe) {
			const char *m = p + 1;
			size_t mlen = 0;

			while (m + mlen < end && ident_char(m[mlen]))
				mlen++;
			if (is_entry_member(m, mlen)) {
				p = m + mlen;
				continue;
			}
		}
		return bad(r, "event format at offset %llu prints REC->%.*s, which is not one of "
			   "its fields%s", U(r->pos - n), (int)(len > 64 ? 64 : len), id,
			   fs->flag_pending || fs->flag_maybe ? " (where libtraceevent may look it up)" :
			   "");
	}
	return 0;
}

/* size8 + event format text (read_ftrace_file(), read_event_file()) */
static int format(struct rd *r, const char *what)
{
	uint64_t n, cut;
	char *text;
	int ret;

	if (num(r, 8, &n, what) < 0)
		return -1;
	if (n > left(r))
		return bad(r, "%s claims %llu bytes, only %llu left", what, U(n), U(left(r)));
	if (n > MAX_FORMAT)
		return bad(r, "%s of %llu bytes (limit %d)", what, U(n), MAX_FORMAT);
	text = malloc(n ? n : 1);
	if (!text)
		return rs_error_set(r->err, "%s: out of memory", r->path);
	ret = get(r, text, n, what);
	if (!ret && r->layout) {
		char name[32];

		if (tracedat_format_name(text, n, name, sizeof(name)) &&
		    (!strcmp(name, "mm_shrink_slab_start") || !strcmp(name, "mm_shrink_slab_end")))
			r->layout->shrinkers = true;
	}
	/*
	 * Of an event we do not decode, libtraceevent parses only the name, ID and common
	 * fields (tracedat_skip.h), never its print format: that format's REC-> names are
	 * checked all the same, but the library's flag does not pass through it.
	 */
	cut = ret ? n : tracedat_format_len(text, n);
	if (!ret) {
		struct format_scan scratch = r->formats;

		ret = check_format_text(r, cut < n ? &scratch : &r->formats, text, n);
	}
	if (!ret && r->store->len + 4 + n > r->store->cap) {
		size_t cap = (r->store->len + 4 + n) * 2;
		char *b = realloc(r->store->buf, cap);

		if (!b) {
			free(text);
			return rs_error_set(r->err, "%s: out of memory", r->path);
		}
		r->store->buf = b;
		r->store->cap = cap;
	}
	if (!ret) {
		uint32_t len = (uint32_t)cut;	/* what the reader's handles parse */

		memcpy(r->store->buf + r->store->len, &len, 4);
		memcpy(r->store->buf + r->store->len + 4, text, cut);
		r->store->len += 4 + cut;
	}
	free(text);
	return ret;
}

/*
 * Read the test parse's one-byte answer (none: it crashed). False when it gives none within
 * CHILD_ANSWER_MS: a child forked from a threaded process (the browser's loader) can block for
 * ever on a lock another thread held at the fork (seen: ASan's allocator), and a parse that
 * hangs is no crash; the caller must not wait on it for ever.
 */
#define CHILD_ANSWER_MS 10000
static bool child_answers(int fd, char *done)
{
	struct timespec t0, t;
	long waited = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (waited < CHILD_ANSWER_MS) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, (int)(CHILD_ANSWER_MS - waited));

		if (n > 0) {
			while (read(fd, done, 1) < 0 && errno == EINTR)
				;
			return true;
		}
		if (n < 0 && errno != EINTR)
			return false;
		clock_gettime(CLOCK_MONOTONIC, &t);
		waited = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
	}
	return false;
}

/*
 * The checks above cover the ways libtraceevent's format parser is known to crash; a hostile
 * format finds others (a fuzzed ternary inside a __print_flags table: a NULL dereference deep
 * in the parser). So the formats are parsed once by libtraceevent in a child process first: a
 * format that kills the child is refused here instead of killing the command. One fork and a
 * parse of the formats alone (no kallsyms, no records), as much of each as the reader's
 * handles parse (tracedat_format_len()), per trace opened.
 *
 * The child is started as soon as the event formats are read (test_parse_start()) and its
 * answer awaited at the end of the check (formats_survive()): the rest of the check (the
 * kallsyms' size, every CPU's chunk table and first chunk, or a v6 file's page headers) runs
 * meanwhile on the other CPU, where the parse was 8-10 ms on the calling thread's critical
 * path before the file is opened (bench.dat, two threads). Formats read after the fork (a
 * file laid out otherwise) get a parse of all of them at the end.
 */
static void test_parse_start(struct rd *r)
{
	struct fmt_store *st = r->store;
	int fds[2];
	pid_t pid;

	if (!st || st->pid || !st->len || pipe(fds) < 0)
		return;		/* running, nothing to parse, or cannot tell (the checks stand) */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
		struct tep_handle *tep;
		int null = open("/dev/null", O_WRONLY);

		/* the library's and a sanitizer's words about the crash are not ours to print */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		/* a crash just ends the child: no sanitizer's or libFuzzer's handler runs (the
		   fuzzer's wrote the parent's input as a crash artifact of its own) */
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		close(fds[0]);
		tep = tep_alloc();
		for (size_t off = 0; tep && off + 4 <= st->len; ) {
			uint32_t len;

			memcpy(&len, st->buf + off, 4);
			tep_parse_event(tep, st->buf + off + 4, len, "check");
			off += 4 + (size_t)len;
		}
		tep_free(tep);
		/* survived: say so before exiting (an exit status can be a sanitizer's or a
		   leak checker's, a crash's or not) */
		if (write(fds[1], "y", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	st->pid = pid;
	st->fd = fds[0];
	st->parsed = st->len;
}

/* The running test parse's answer: true when it survived (or cannot tell), then none runs. */
static bool test_parse_end(struct fmt_store *st)
{
	int status = 0;
	char done = 0;

	if (!st->pid)
		return true;
	if (!child_answers(st->fd, &done)) {
		/* cannot tell: the checks above stand, and the formats are parsed in-process */
		kill(st->pid, SIGKILL);
		done = 'y';
	}
	close(st->fd);
	while (waitpid(st->pid, &status, 0) < 0 && errno == EINTR)
		;
	st->pid = 0;
	return done == 'y';
}

/* The check failed: the test parse's answer is not wanted. */
static void test_parse_abandon(struct fmt_store *st)
{
	if (!st->pid)
		return;
	kill(st->pid, SIGKILL);
	close(st->fd);
	while (waitpid(st->pid, NULL, 0) < 0 && errno == EINTR)
		;
	st->pid = 0;
}

static int formats_survive(struct rd *r)
{
	struct fmt_store *st = r->store;

	/* formats came after the fork: parse them all (a crash is a crash all the same) */
	if (st->pid && st->parsed != st->len && !test_parse_end(st))
		return bad(r, "its event formats crash libtraceevent's format parser (in a test "
			   "parse)");
	if (!st->pid)
		test_parse_start(r);
	if (!test_parse_end(st))
		return bad(r, "its event formats crash libtraceevent's format parser (in a test "
			   "parse)");
	return 0;
}

/* read_ftrace_files(): count4, then count x (size8 + format text) */
static int check_ftrace_events(struct rd *r)
{
	uint64_t count;

	if (num(r, 4, &count, "ftrace format count") < 0)
		return -1;
	if (count > left(r) / 8)
		return bad(r, "ftrace format count %llu does not fit in %llu bytes", U(count),
			   U(left(r)));
	for (uint64_t i = 0; i < count; i++)
		if (format(r, "ftrace event format") < 0)
			return -1;
	return 0;
}

/* read_event_files(): systems4, then per system: name, count4, count x (size8 + format) */
static int check_event_formats(struct rd *r)
{
	char name[MAX_STRING];
	uint64_t systems, count;

	if (num(r, 4, &systems, "event system count") < 0)
		return -1;
	if (systems > left(r) / 5)
		return bad(r, "event system count %llu does not fit in %llu bytes", U(systems),
			   U(left(r)));
	for (uint64_t s = 0; s < systems; s++) {
		if (string(r, name, sizeof(name), "event system name") < 0 ||
		    num(r, 4, &count, "event format count") < 0)
			return -1;
		if (count > left(r) / 8)
			return bad(r, "event format count %llu does not fit in %llu bytes",
				   U(count), U(left(r)));
		for (uint64_t i = 0; i < count; i++)
			if (format(r, "event format") < 0)
				return -1;
	}
	return 0;
}

/* read_proc_kallsyms(): size4 + text, whose place the layout keeps (uncompressed) */
static int check_kallsyms(struct rd *r)
{
	if (r->layout && !r->mem) {
		r->layout->ksyms_at = r->pos;
		r->layout->ksyms_z = false;
	}
	return sized4(r, "kallsyms");
}

static int check_content(struct rd *r, int id)
{
	switch (id) {
	case OPT_HEADER_INFO:
		return check_header_info(r);
	case OPT_FTRACE_EVENTS:
		return check_ftrace_events(r);
	case OPT_EVENT_FORMATS:
		return check_event_formats(r);
	case OPT_KALLSYMS:
		return check_kallsyms(r);
	case OPT_PRINTK:
		return sized4(r, "printk formats");	/* read_ftrace_printk() */
	case OPT_CMDLINES:
		return sized8(r, "saved cmdlines");	/* read_and_parse_cmdlines() */
	default:
		return 0;
	}
}

/*
 * The block header of a compressed section or of the latency data: tracecmd_uncompress_block()
 * mallocs max(compressed, uncompressed) before reading.
 */
static int check_zblock_sizes(struct rd *r, uint64_t csize, uint64_t rsize, const char *what)
{
	if (rsize > MAX_SECTION_RSIZE)
		return bad(r, "%s says it uncompresses to %llu bytes (limit %llu)", what,
			   U(rsize), U(MAX_SECTION_RSIZE));
	return skip(r, csize, what);
}

static int check_zblock(struct rd *r, const char *what)
{
	uint64_t csize, rsize;

	if (num(r, 4, &csize, what) < 0 || num(r, 4, &rsize, what) < 0)
		return -1;
	return check_zblock_sizes(r, csize, rsize, what);
}

/* One zstd or zlib block (trace-compress-zstd.c, trace-compress-zlib.c): exactly rsize out. */
static bool decompress(struct rd *r, const uint8_t *in, uint64_t csize, uint8_t *out,
		       uint64_t rsize)
{
	if (!strcmp(r->zname, "zstd")) {
		size_t got;

		/* one context for all chunks: creating one per 40 KB chunk doubles the cost */
		if (!r->zctx)
			r->zctx = ZSTD_createDCtx();
		if (!r->zctx)
			return false;
		got = ZSTD_decompressDCtx(r->zctx, out, rsize, in, csize);

		return !ZSTD_isError(got) && got == rsize;
	} else {
		uLongf got = rsize;

		return uncompress(out, &got, in, csize) == Z_OK && got == rsize;
	}
}

/* The first n (<= 8) bytes that csize bytes of one zstd or zlib block uncompress to. */
static bool decompress_head(struct rd *r, const uint8_t *in, uint64_t csize, uint8_t *out,
			    size_t n)
{
	if (!strcmp(r->zname, "zstd")) {
		ZSTD_inBuffer ib = { in, csize, 0 };
		ZSTD_outBuffer ob = { out, n, 0 };

		if (!r->zctx)
			r->zctx = ZSTD_createDCtx();
		if (!r->zctx)
			return false;
		ZSTD_DCtx_reset(r->zctx, ZSTD_reset_session_only);
		while (ob.pos < n) {
			size_t before = ib.pos + ob.pos;

			if (ZSTD_isError(ZSTD_decompressStream(r->zctx, &ob, &ib)) ||
			    ib.pos + ob.pos == before)
				break;
		}
		ZSTD_DCtx_reset(r->zctx, ZSTD_reset_session_only);
		return ob.pos == n;
	} else {
		z_stream zs = { 0 };
		int ret = Z_OK;

		zs.next_in = (Bytef *)in;
		zs.avail_in = csize > UINT32_MAX ? UINT32_MAX : (uInt)csize;
		zs.next_out = out;
		zs.avail_out = (uInt)n;
		if (inflateInit(&zs) != Z_OK)
			return false;
		while (zs.avail_out && ret == Z_OK)
			ret = inflate(&zs, Z_SYNC_FLUSH);
		inflateEnd(&zs);
		return !zs.avail_out;
	}
}

/*
 * kallsyms, printk formats and cmdlines, compressed: their text follows its size (n bytes),
 * which the library mallocs plus one before it reads the text (read_proc_kallsyms(),
 * read_ftrace_printk(), read_and_parse_cmdlines()): a fuzzed 10 KB file had it ask for 7 TB.
 * Only the start of the block is uncompressed, for that size, held against the rsize bytes of
 * the whole. The block's csize bytes are at offset at; r->pos is left after them.
 */
static int check_zsized(struct rd *r, uint64_t at, uint64_t csize, uint64_t rsize, size_t n,
			const char *what)
{
	uint8_t head[8], *buf = NULL;
	const uint8_t *in = NULL;
	uint64_t size, end = r->pos;
	int ret = -1;

	if (rsize < n)
		return bad(r, "compressed %s: %llu bytes hold no size", what, U(rsize));
	if (r->file && !r->mem) {
		in = r->file + at;
	} else {
		buf = malloc(csize ? csize : 1);
		if (!buf)
			return rs_error_set(r->err, "%s: out of memory", r->path);
		r->pos = at;
		if (get(r, buf, csize, what) < 0)
			goto out;
		in = buf;
	}
	if (!decompress_head(r, in, csize, head, n)) {
		bad(r, "compressed %s at %llu does not decompress", what, U(at));
		goto out;
	}
	size = from_file(r, head, (int)n);
	if (size > rsize - n) {
		bad(r, "compressed %s claims %llu bytes, only %llu follow", what, U(size),
		    U(rsize - n));
		goto out;
	}
	ret = 0;
out:
	r->pos = end;
	free(buf);
	return ret;
}

/*
 * A compressed header section: its block header, then the contents walked like an
 * uncompressed section's, from memory (trace-cmd compresses a whole section as one zstd or
 * zlib block).
 */
static int check_zsection(struct rd *r, int id)
{
	uint64_t csize, rsize, at;
	uint8_t *in = NULL, *out = NULL;
	struct rd m;
	int ret = -1;

	if (num(r, 4, &csize, "compressed section") < 0 ||
	    num(r, 4, &rsize, "compressed section") < 0)
		return -1;
	at = r->pos;
	if (check_zblock_sizes(r, csize, rsize, "compressed section") < 0)
		return -1;
	if (id == OPT_KALLSYMS && r->layout) {
		r->layout->ksyms_at = at - 8;	/* the block */
		r->layout->ksyms_z = true;
	}
	if (id == OPT_KALLSYMS)
		return check_zsized(r, at, csize, rsize, 4, "kallsyms");
	if (id == OPT_PRINTK)
		return check_zsized(r, at, csize, rsize, 4, "printk formats");
	if (id == OPT_CMDLINES)
		return check_zsized(r, at, csize, rsize, 8, "saved cmdlines");
	if (id != OPT_HEADER_INFO && id != OPT_FTRACE_EVENTS && id != OPT_EVENT_FORMATS)
		return 0;
	in = malloc(csize ? csize : 1);
	out = malloc(rsize ? rsize : 1);
	if (!in || !out) {
		rs_error_set(r->err, "%s: out of memory", r->path);
		goto out;
	}
	r->pos = at;
	if (get(r, in, csize, "compressed section") < 0)
		goto out;
	if (!decompress(r, in, csize, out, rsize)) {
		bad(r, "compressed section at %llu does not decompress", U(at));
		goto out;
	}
	m = *r;
	m.mem = out;
	m.pos = 0;
	m.size = m.end = rsize;
	ret = check_content(&m, id);
	r->zctx = m.zctx;
out:
	free(in);
	free(out);
	return ret;
}

/* Section header (read_section_header()): id2 flags2 description4 size8. */
static int section_header(struct rd *r, uint64_t *id, uint64_t *flags, uint64_t *size)
{
	uint64_t desc;

	if (num(r, 2, id, "section header") < 0 || num(r, 2, flags, "section header") < 0 ||
	    num(r, 4, &desc, "section header") < 0 || num(r, 8, size, "section header") < 0)
		return -1;
	return 0;
}

/* A header section that an option of a v7 file points at (handle_section()). */
static int check_section(struct rd *r, int want, uint64_t offset)
{
	uint64_t id, flags, size, end = r->end;
	int ret;

	if (offset >= r->size)
		return bad(r, "header section offset %llu is past the end (%llu)", U(offset),
			   U(r->size));
	r->pos = offset;
	r->end = r->size;
	if (section_header(r, &id, &flags, &size) < 0)
		return -1;
	if ((int)id != want)
		return bad(r, "header section at %llu has id %llu", U(offset), U(id));
	if (size > left(r))
		return bad(r, "header section claims %llu bytes, %llu left", U(size), U(left(r)));
	r->end = r->pos + size;
	if ((flags & SEC_FL_COMPRESS) && r->compressed)
		ret = check_zsection(r, want);
	else
		ret = check_content(r, want);
	if (!ret && want == OPT_EVENT_FORMATS)
		test_parse_start(r);
	r->end = end;
	return ret;
}

static bool has_nul(const uint8_t *p, uint64_t n)
{
	return memchr(p, 0, n) != NULL;
}

/* A count4 at *pos (read past) of elements of size bytes, which must fit in p[*pos..n). */
static bool count_fits(const struct rd *r, const uint8_t *p, uint64_t n, uint64_t *pos,
		       uint64_t size, uint64_t *count)
{
	if (n - *pos < 4)
		return false;
	*count = from_file(r, p + *pos, 4);
	*pos += 4;
	return *count <= (n - *pos) / size;
}

/*
 * TIME_SHIFT: trace id8, flags4, then tsync_cpu_offsets_load(): cpu count4, per CPU a sample
 * count4 and 3 x 8 bytes per sample. Its reads are bounded; its callocs by those counts are not.
 */
static bool time_shift_ok(const struct rd *r, const uint8_t *p, uint64_t n)
{
	uint64_t cpus, pos = 12, samples, total = 0;

	if (n < 16)
		return true;		/* the library ignores it */
	if (!count_fits(r, p, n, &pos, 4, &cpus))
		return false;
	for (uint64_t i = 0; i < cpus; i++) {
		if (!count_fits(r, p, n, &pos, 24, &samples))
			return false;
		pos += samples * 24;
		total += samples;
	}
	/* optional fraction bits: 8 bytes per sample */
	return pos == n || n - pos >= total * 8;
}

/* trace_guest_load(): name, trace id8, vcpus4, vcpus x (cpu4 pid4) with 0 <= cpu < vcpus. */
static bool guest_ok(const struct rd *r, const uint8_t *p, uint64_t n)
{
	const uint8_t *nul = memchr(p, 0, n);
	uint64_t pos, vcpus;

	if (!nul)
		return false;
	pos = (uint64_t)(nul - p) + 1;
	if (n - pos < 12)
		return true;		/* the library gives up before allocating */
	vcpus = from_file(r, p + pos + 8, 4);
	pos += 12;
	if (vcpus > (n - pos) / 8)
		return false;
	for (uint64_t i = 0; i < vcpus; i++, pos += 8) {
		int32_t cpu = (int32_t)from_file(r, p + pos, 4);

		if (cpu < 0 || (uint64_t)cpu >= vcpus)
			return false;	/* the library only checks the upper bound */
	}
	return true;
}

/*
 * PROCMAPS: handle_options() looks at buf[size - 1] (size unsigned: 4 GiB past a 0-byte
 * buffer), then trace_pid_map_load() reads "pid nr_maps name" and nr_maps lines, calloc(nr_maps)
 * first.
 */
static bool procmaps_ok(const uint8_t *p, uint64_t n)
{
	unsigned int pid, nr;
	uint64_t lines = 0;

	if (n == 0)
		return false;		/* buf[size - 1] with an unsigned size of 0 */
	if (p[n - 1] != '\0')
		return true;		/* the library skips it */
	if (sscanf((const char *)p, "%x %x", &pid, &nr) != 2)
		return true;
	for (uint64_t i = 0; i < n; i++)
		lines += p[i] == '\n';
	return nr <= lines;
}

/*
 * Every ring-buffer page header of one CPU's uncompressed data. kbuffer_load_subbuffer()
 * (libtraceevent) reads the lost-event count at data + commit before anyone checks commit
 * against the page size, so one corrupt page makes it read up to 128 MiB past the page.
 * The commit word is a long of the recording kernel (the library takes its width from the
 * header_page format, which agrees with the file header's long size in any real file).
 */
static int check_page(struct rd *r, int cpu, uint64_t at, const uint8_t *h, bool in_chunk)
{
	uint64_t flags = from_file(r, h + 8, r->long_size);
	uint64_t commit = flags & KB_COMMIT_MASK;
	uint64_t room = r->page_size - 8 - r->long_size;

	if ((flags & KB_MISSING_EVENTS) && (flags & KB_MISSING_STORED))
		room -= r->long_size;
	if (commit > room)
		return bad(r, "CPU %d page at %s%llu claims %llu bytes of events (page size %u)",
			   cpu, in_chunk ? "uncompressed offset " : "offset ", U(at), U(commit),
			   r->page_size);
	return 0;
}

static int check_pages(struct rd *r, int cpu, uint64_t offset, uint64_t size)
{
	for (uint64_t at = offset; at < offset + size; at += r->page_size) {
		uint8_t h[16];

		if (r->file && at + sizeof(h) <= r->size)
			memcpy(h, r->file + at, sizeof(h));
		else if (pread(r->fd, h, sizeof(h), (off_t)at) != (ssize_t)sizeof(h))
			return bad(r, "CPU %d page at offset %llu cannot be read", cpu, U(at));
		if (check_page(r, cpu, at, h, false) < 0)
			return -1;
	}
	return 0;
}

/*
 * The v7 per-CPU data of a compressed buffer: count4, count x (zsize4 rsize4 data). Each chunk
 * is decompressed, one at a time, to check its page headers as check_pages() does for
 * uncompressed data: zstd costs about a tenth of what decoding the events then costs. With
 * first_only, only the first chunk's pages are (libtracecmd's tracecmd_init_data() reads the
 * first page of each CPU) and the rest only sized: the caller's own reader checks each page it
 * reads, or it calls rs_tracedat_check_zpages() before libtracecmd reads further.
 */
static int check_chunks(struct rd *r, uint64_t offset, uint64_t size, int cpu, bool first_only)
{
	uint64_t count, zsize, rsize, end = r->end, virt = 0, in_cap = 0, out_cap = 0;
	uint8_t *in = NULL, *out = NULL;
	char what[48];
	int ret = -1;

	snprintf(what, sizeof(what), "CPU %d compressed data", cpu);

	/* the chunk count precedes the size the buffer option gives */
	r->pos = offset;
	r->end = size + 4 > r->size - offset ? r->size : offset + size + 4;
	if (num(r, 4, &count, what) < 0)
		goto out;
	if (count > left(r) / 8) {
		bad(r, "%s: %llu chunks do not fit in %llu bytes", what, U(count),
		    U(left(r)));
		goto out;
	}
	for (uint64_t i = 0; i < count; i++) {
		if (num(r, 4, &zsize, what) < 0 || num(r, 4, &rsize, what) < 0)
			goto out;
		if (rsize > MAX_CHUNK_RSIZE || rsize % r->page_size) {
			bad(r, "%s: a chunk uncompresses to %llu bytes (page size %u)", what,
			    U(rsize), r->page_size);
			goto out;
		}
		if (zsize > left(r)) {
			skip(r, zsize, what);
			goto out;
		}
		if (zsize > in_cap || rsize > out_cap) {
			free(in);
			free(out);
			in_cap = zsize > in_cap ? zsize : in_cap;
			out_cap = rsize > out_cap ? rsize : out_cap;
			in = malloc(in_cap ? in_cap : 1);
			out = malloc(out_cap ? out_cap : 1);
			if (!in || !out) {
				rs_error_set(r->err, "%s: out of memory", r->path);
				goto out;
			}
		}
		if (first_only && i) {
			if (skip(r, zsize, what) < 0)
				goto out;
			continue;
		}
		if (get(r, in, zsize, what) < 0)
			goto out;
		if (!decompress(r, in, zsize, out, rsize)) {
			bad(r, "%s: the chunk at offset %llu does not decompress", what,
			    U(r->pos - zsize));
			goto out;
		}
		for (uint64_t p = 0; p < rsize; p += r->page_size, virt += r->page_size)
			if (check_page(r, cpu, virt, out + p, true) < 0)
				goto out;
	}
	ret = 0;
out:
	r->end = end;
	free(in);
	free(out);
	return ret;
}

/* One CPU's data range (read_cpu_data(), init_buffer_cpu_data(); they add without overflow). */
static int check_cpu_range(struct rd *r, int cpu, uint64_t offset, uint64_t size)
{
	if (!size)
		return 0;
	if (offset > r->size || size > r->size - offset)
		return rs_error_set(r->err, "%s: truncated trace.dat: CPU %d data end at %llu, "
				    "the file has %llu bytes", r->path, cpu,
				    (unsigned long long)offset + size,
				    (unsigned long long)r->size);
	if (offset & (r->page_size - 1))
		return bad(r, "CPU %d data offset %llu is not page aligned (page size %u)", cpu,
			   U(offset), r->page_size);
	return 0;
}

/* handle_buffer_option(): offset8, name, (v7) clock, (BUFFER) page size4, cpus4, cpus x 20. */
static int check_buffer(struct rd *r, int id, const uint8_t *p, uint64_t n)
{
	uint64_t pos = 8, offset, cpus;
	const uint8_t *nul;
	bool top;

	if (n < 9 || !(nul = memchr(p + 8, 0, n - 8)))
		return bad(r, "buffer option of %llu bytes has no name", U(n));
	offset = from_file(r, p, 8);
	top = nul == p + 8;
	pos = (uint64_t)(nul - p) + 1;
	if (offset >= r->size)
		return bad(r, "buffer offset %llu is past the end (%llu)", U(offset), U(r->size));
	if (!r->v7)
		return 0;
	if (!(nul = memchr(p + pos, 0, n - pos)))
		return bad(r, "buffer option of %llu bytes has no clock", U(n));
	pos = (uint64_t)(nul - p) + 1;
	if (top) {
		r->have_top = true;
		r->top_offset = offset;
		r->top_latency = id == OPT_BUFFER_TEXT;
	}
	if (id == OPT_BUFFER_TEXT)
		return 0;
	if (n - pos < 8)
		return bad(r, "buffer option of %llu bytes is short", U(n));
	if (from_file(r, p + pos, 4) != r->page_size)
		return bad(r, "buffer page size %llu differs from the file's %u",
			   U(from_file(r, p + pos, 4)), r->page_size);
	cpus = from_file(r, p + pos + 4, 4);
	pos += 8;
	if (cpus > MAX_CPUS || cpus > (n - pos) / 20)
		return bad(r, "buffer CPU count %llu does not fit in %llu bytes", U(cpus),
			   U(n - pos));
	for (uint64_t i = 0; i < cpus; i++, pos += 20) {
		uint64_t cpu = from_file(r, p + pos, 4);

		/* calloc(max cpu + 1) in the library */
		if (cpu >= MAX_CPUS)
			return bad(r, "buffer CPU number %llu (limit %d)", U(cpu), MAX_CPUS);
		if (top && check_cpu_range(r, (int)cpu, from_file(r, p + pos + 4, 8),
					   from_file(r, p + pos + 12, 8)) < 0)
			return -1;
	}
	return 0;
}

/*
 * The checks handle_options() needs on one option's payload. 1: the payload names a v7 section
 * at *section, for the caller to check once it has freed the payload (check_options()).
 */
static int check_option(struct rd *r, int id, const uint8_t *p, uint64_t n, uint64_t *next,
			uint64_t *section)
{
	switch (id) {
	case OPT_DATE:
	case OPT_OFFSET:		/* strtoll() */
	case OPT_UNAME:
	case OPT_VERSION:		/* strdup() */
	case OPT_TRACECLOCK:		/* strtok_r() */
		/*
		 * trace-cmd 2.x wrote it empty, a flag for the clock after the flyrecord data;
		 * libtracecmd 3.1.6 then runs strtok_r() on a 0-byte buffer. That reads a few
		 * bytes of heap, never writes; refusing every 2.x trace would be worse.
		 */
		if (id == OPT_TRACECLOCK && n == 0) {
			r->trace_clock = true;
			return 0;
		}
		if (r->layout && (id == OPT_DATE || id == OPT_OFFSET))
			r->layout->ts_options = true;
		if (!has_nul(p, n))
			return bad(r, "option %s of %llu bytes is not a string",
				   id == OPT_DATE ? "DATE" : id == OPT_OFFSET ? "OFFSET" :
				   id == OPT_UNAME ? "UNAME" : id == OPT_VERSION ? "VERSION" :
				   "TRACECLOCK", U(n));
		if (id == OPT_TRACECLOCK)
			r->trace_clock = true;
		return 0;
	case OPT_CPUSTAT:		/* buf[size - 1] = '\n' */
		return n ? 0 : bad(r, "CPUSTAT option is empty");
	case OPT_HOOK:
		/* tracecmd_create_event_hook() prints to stdout and may return NULL */
		return rs_error_set(r->err, "%s: trace.dat has a trace-cmd hook option (record "
				    "-H), which libtracecmd cannot read safely", r->path);
	case OPT_CPUCOUNT:
		if (n < 4)
			return bad(r, "CPUCOUNT option of %llu bytes", U(n));
		r->cpus = (uint32_t)from_file(r, p, 4);
		if (r->cpus > MAX_CPUS)
			return bad(r, "CPU count %u (limit %d)", r->cpus, MAX_CPUS);
		return 0;
	case OPT_PROCMAPS:
		return procmaps_ok(p, n) ? 0 :
			bad(r, "PROCMAPS option of %llu bytes is inconsistent", U(n));
	case OPT_TSC2NSEC:
		if (r->layout)
			r->layout->ts_options = true;
		return 0;
	case OPT_TIME_SHIFT:
		if (r->layout)
			r->layout->ts_options = true;
		return time_shift_ok(r, p, n) ? 0 :
			bad(r, "TIME_SHIFT option of %llu bytes is inconsistent", U(n));
	case OPT_GUEST:
		return guest_ok(r, p, n) ? 0 :
			bad(r, "GUEST option of %llu bytes is inconsistent", U(n));
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		return check_buffer(r, id, p, n);
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES:
		if (n < 8 || !r->v7)
			return 0;	/* ignored by the library */
		*section = from_file(r, p, 8);
		return 1;
	case OPT_DONE:
		if (!r->v7)
			return 0;
		if (n < 8)
			return bad(r, "DONE option of %llu bytes", U(n));
		*next = from_file(r, p, 8);
		return 0;
	default:
		return 0;
	}
}

/*
 * One list of options (handle_options()): id2 size4 payload, until DONE. In v6 DONE has no
 * size; in v7 it carries the offset of the next option section (0: none).
 */
static int check_options(struct rd *r, uint64_t *next)
{
	uint8_t *buf = NULL;
	uint64_t id, n;
	int ret = -1;

	*next = 0;
	for (;;) {
		uint64_t resume, section = 0;
		int is_section;

		if (num(r, 2, &id, "option id") < 0)
			goto out;
		if (!r->v7 && id == OPT_DONE)
			break;
		if (num(r, 4, &n, "option size") < 0)
			goto out;
		if (n > left(r)) {
			bad(r, "option %llu claims %llu bytes, past the end", U(id), U(n));
			goto out;
		}
		if (n > MAX_OPTION_SIZE) {
			bad(r, "option %llu of %llu bytes", U(id), U(n));
			goto out;
		}
		free(buf);
		buf = malloc(n ? n : 1);
		if (!buf) {
			rs_error_set(r->err, "%s: out of memory", r->path);
			goto out;
		}
		if (get(r, buf, n, "option") < 0)
			goto out;
		resume = r->pos;
		is_section = check_option(r, (int)id, buf, n, next, &section);
		if (is_section < 0)
			goto out;
		/*
		 * The event formats' section starts the formats' test parse, a forked child that
		 * _exit()s: a block only this frame points to would be lost in it (valgrind
		 * reports it), so the payload goes first.
		 */
		free(buf);
		buf = NULL;
		if (is_section && check_section(r, (int)id, section) < 0)
			goto out;
		r->pos = resume;	/* section checks move it */
		if (id == OPT_DONE)
			break;
	}
	ret = 0;
out:
	free(buf);
	return ret;
}

/* v7: the chain of option sections from the header's offset. */
static int check_v7_options(struct rd *r, uint64_t offset)
{
	while (offset) {
		uint64_t id, flags, size;

		if (offset >= r->size)
			return bad(r, "options offset %llu is past the end (%llu)", U(offset),
				   U(r->size));
		for (int i = 0; i < r->nr_opt_seen; i++)
			if (r->opt_seen[i] == offset)
				return bad(r, "options chain loops back to offset %llu",
					   U(offset));
		if (r->nr_opt_seen == MAX_OPTION_SECTIONS)
			return bad(r, "more than %d options sections",
				   MAX_OPTION_SECTIONS);
		r->opt_seen[r->nr_opt_seen++] = offset;
		r->pos = offset;
		r->end = r->size;
		if (section_header(r, &id, &flags, &size) < 0)
			return -1;
		if (id != OPT_DONE)
			return bad(r, "options section at %llu has id %llu", U(offset), U(id));
		/* no trace-cmd writes them compressed; we could not check one */
		if (flags & SEC_FL_COMPRESS)
			return bad(r, "options section at %llu is compressed",
				   U(offset));
		if (check_options(r, &offset) < 0)
			return -1;
	}
	return 0;
}

/* v7: the top buffer's data section (init_buffer_cpu_data()) and, compressed, its chunks. */
static int check_v7_data(struct rd *r, const uint8_t *opt, uint64_t n)
{
	uint64_t id, flags, size, pos, cpus;
	const uint8_t *nul;

	if (!r->have_top)
		return 0;
	if (r->top_latency)
		return rs_error_set(r->err, "%s: trace.dat holds latency-tracer output, not "
				    "events", r->path);
	r->pos = r->top_offset;
	r->end = r->size;
	if (section_header(r, &id, &flags, &size) < 0)
		return -1;
	/* the library would look for chunks without a decompressor, fail, then crash closing */
	if ((flags & SEC_FL_COMPRESS) && !r->compressed)
		return bad(r, "compressed CPU data in a file without compression");
	/* walk the top buffer option again for the per-CPU ranges */
	nul = memchr(opt + 8, 0, n - 8);
	nul = memchr(nul + 1, 0, n - (uint64_t)(nul + 1 - opt));
	pos = (uint64_t)(nul - opt) + 1;
	cpus = from_file(r, opt + pos + 4, 4);
	pos += 8;
	if (r->layout && (flags & SEC_FL_COMPRESS)) {
		r->layout->cpus = calloc(cpus ? cpus : 1, sizeof(*r->layout->cpus));
		if (!r->layout->cpus)
			return rs_error_set(r->err, "%s: out of memory", r->path);
		r->layout->nr_cpus = (uint32_t)cpus;
		r->layout->zcpu = true;
		r->layout->page_size = r->page_size;
		r->layout->long_size = r->long_size;
		r->layout->file_size = r->size;
	}
	for (uint64_t i = 0; i < cpus; i++, pos += 20) {
		uint64_t off = from_file(r, opt + pos + 4, 8), sz = from_file(r, opt + pos + 12, 8);
		int cpu = (int)from_file(r, opt + pos, 4);

		if (r->layout && r->layout->cpus)
			r->layout->cpus[i] = (struct rs_tracedat_cpu_range){
				.cpu = (uint32_t)cpu, .offset = off, .size = sz,
			};
		if (!sz)
			continue;
		if (flags & SEC_FL_COMPRESS ? check_chunks(r, off, sz, cpu, r->layout != NULL) < 0 :
		    check_pages(r, cpu, off, sz) < 0)
			return -1;
	}
	return 0;
}

/*
 * v7 again, to find the top buffer option for check_v7_data(): the checks above have
 * already proved every option sound, so this walk only looks.
 */
static int find_top_buffer(struct rd *r, uint64_t offset, uint8_t **opt, uint64_t *len)
{
	int sections = 0;

	*opt = NULL;
	while (offset && sections++ < MAX_OPTION_SECTIONS) {
		uint64_t id, flags, size, n;

		r->pos = offset;
		r->end = r->size;
		offset = 0;
		if (section_header(r, &id, &flags, &size) < 0)
			return -1;
		for (;;) {
			uint8_t *p;

			if (num(r, 2, &id, "option id") < 0 || num(r, 4, &n, "option size") < 0)
				return -1;
			p = malloc(n ? n : 1);
			if (!p)
				return rs_error_set(r->err, "%s: out of memory", r->path);
			if (get(r, p, n, "option") < 0) {
				free(p);
				return -1;
			}
			if (id == OPT_BUFFER && n > 8 && p[8] == '\0') {
				free(*opt);
				*opt = p;
				*len = n;
			} else {
				if (id == OPT_DONE)
					offset = from_file(r, p, 8);
				free(p);
			}
			if (id == OPT_DONE)
				break;
		}
	}
	return 0;
}

static int check_v7(struct rd *r)
{
	char *zname = r->zname, zver[64];
	uint64_t options, id, flags, size;
	uint8_t *top = NULL;
	uint64_t top_len = 0;
	int ret;

	if (string(r, zname, sizeof(r->zname), "compression name") < 0 ||
	    string(r, zver, sizeof(zver), "compression version") < 0 ||
	    num(r, 8, &options, "options offset") < 0)
		return -1;
	r->compressed = strcmp(zname, "none") != 0;
	if (r->layout)
		snprintf(r->layout->zname, sizeof(r->layout->zname), "%s", zname);
	/* tracecmd_alloc_fd() leaks its descriptor when it cannot decompress */
	if (r->compressed && strcmp(zname, "zstd") && strcmp(zname, "zlib"))
		return rs_error_set(r->err, "%s: trace.dat compression '%s' is not supported",
				    r->path, zname);
	/*
	 * read_metadata_strings() walks every section header from here on, reallocating its
	 * string table by the size of each "strings" section.
	 */
	while (left(r) >= 16) {
		uint64_t at = r->pos;

		if (section_header(r, &id, &flags, &size) < 0)
			return -1;
		if (size > left(r) && id == OPT_STRINGS)
			return bad(r, "strings section claims %llu bytes, %llu left", U(size),
				   U(left(r)));
		if (size > left(r))
			break;		/* the library stops here too */
		if (id == OPT_STRINGS && (flags & SEC_FL_COMPRESS)) {
			if (check_zblock(r, "compressed strings") < 0)
				return -1;
		}
		r->pos = at + 16 + size;
	}
	r->end = r->size;
	if (check_v7_options(r, options) < 0)
		return -1;
	if (!r->have_top)
		return 0;
	if (find_top_buffer(r, options, &top, &top_len) < 0)
		return -1;
	ret = top ? check_v7_data(r, top, top_len) : 0;
	free(top);
	return ret;
}

static int check_v6(struct rd *r)
{
	uint64_t cpus, next;
	char type[10];

	if (check_header_info(r) < 0 || check_ftrace_events(r) < 0 ||
	    check_event_formats(r) < 0)
		return -1;
	test_parse_start(r);
	if (check_kallsyms(r) < 0 ||
	    sized4(r, "printk formats") < 0 || sized8(r, "saved cmdlines") < 0 ||
	    num(r, 4, &cpus, "CPU count") < 0)
		return -1;
	/* read_cpus(): calloc of a CPU table per CPU; each CPU has 16 bytes of flyrecord */
	if (cpus > MAX_CPUS || cpus > left(r) / 16)
		return bad(r, "CPU count %llu does not fit in %llu bytes", U(cpus), U(left(r)));
	r->cpus = (uint32_t)cpus;
	if (get(r, type, 10, "options or data tag") < 0)
		return -1;
	if (!strncmp(type, "options", 7)) {
		if (check_options(r, &next) < 0 || get(r, type, 10, "data tag") < 0)
			return -1;
	}
	if (!strncmp(type, "latency", 7))
		return rs_error_set(r->err, "%s: trace.dat holds latency-tracer output, not "
				    "events", r->path);
	if (strncmp(type, "flyrecord", 9))
		return bad(r, "data tag at offset %llu is neither flyrecord nor latency",
			   U(r->pos - 10));
	/* read_cpu_data(): a CPUCOUNT option may have changed the count */
	if (r->cpus > left(r) / 16)
		return bad(r, "CPU count %u does not fit in %llu bytes", r->cpus,
			   U(left(r)));
	if (r->layout) {
		r->layout->cpus = calloc(r->cpus ? r->cpus : 1, sizeof(*r->layout->cpus));
		if (!r->layout->cpus)
			return rs_error_set(r->err, "%s: out of memory", r->path);
		r->layout->nr_cpus = r->cpus;
		r->layout->rawcpu = true;
		r->layout->page_size = r->page_size;
		r->layout->long_size = r->long_size;
		r->layout->file_size = r->size;
	}
	for (uint32_t c = 0; c < r->cpus; c++) {
		uint64_t offset, size;

		if (num(r, 8, &offset, "CPU data offset") < 0 ||
		    num(r, 8, &size, "CPU data size") < 0 ||
		    check_cpu_range(r, (int)c, offset, size) < 0 ||
		    check_pages(r, (int)c, offset, size) < 0)
			return -1;
		if (r->layout)
			r->layout->cpus[c] = (struct rs_tracedat_cpu_range){
				.cpu = c, .offset = offset, .size = size,
			};
	}
	/* init_data_v6(): with a TRACECLOCK option, the clock text follows (size8 + text) */
	if (r->trace_clock)
		return sized8(r, "trace clock");
	return 0;
}

int rs_tracedat_check_zpages(int fd, const char *path, const struct rs_tracedat_layout *layout,
			     struct rs_error *err)
{
	struct rd r = {
		.fd = fd, .path = path, .size = layout->file_size, .end = layout->file_size,
		.big = layout->big_endian, .v7 = true, .compressed = true,
		.page_size = layout->page_size, .long_size = layout->long_size, .err = err,
	};
	int ret = 0;

	snprintf(r.zname, sizeof(r.zname), "%s", layout->zname);
	for (uint32_t i = 0; i < layout->nr_cpus && !ret; i++) {
		const struct rs_tracedat_cpu_range *c = &layout->cpus[i];

		if (c->size)
			ret = check_chunks(&r, c->offset, c->size, (int)c->cpu, false);
	}
	ZSTD_freeDCtx(r.zctx);
	return ret;
}

/* rs_tracedat_check() of the file r reads */
static int check_file(struct rd *r, struct rs_tracedat_layout *layout)
{
	uint8_t magic[10], hdr[2];
	char version[16];
	uint64_t page_size;

	if (get(r, magic, sizeof(magic), "magic") < 0 ||
	    string(r, version, sizeof(version), "file version") < 0)
		return -1;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return rs_error_set(r->err, "%s: trace.dat file version '%s' is not supported "
				    "(6 and 7 are)", r->path, version);
	r->v7 = version[0] == '7';
	if (get(r, hdr, 2, "byte order and long size") < 0)
		return -1;
	if (hdr[0] > 1 || (hdr[1] != 4 && hdr[1] != 8))
		return bad(r, "header: byte order %d, long size %d", hdr[0], hdr[1]);
	r->big = hdr[0];
	r->long_size = hdr[1];
	if (layout)
		layout->big_endian = r->big;
	if (num(r, 4, &page_size, "page size") < 0)
		return -1;
	/* divides offsets and sizes everywhere: a power of two of sane size */
	if (page_size < 4096 || page_size > (16u << 20) || (page_size & (page_size - 1)))
		return bad(r, "page size %llu is not a power of two in 4 KiB..16 MiB",
			   U(page_size));
	r->page_size = (uint32_t)page_size;
	return r->v7 ? check_v7(r) : check_v6(r);
}

int rs_tracedat_check(int fd, const char *path, struct rs_tracedat_layout *layout,
		      struct rs_error *err)
{
	struct fmt_store store = { 0 };
	struct rd r = { .fd = fd, .path = path, .store = &store, .layout = layout, .err = err };
	struct stat st;
	int ret;

	if (layout)
		memset(layout, 0, sizeof(*layout));
	if (fstat(fd, &st) < 0)
		return rs_error_set(err, "%s: cannot stat: %s", path, strerror(errno));
	r.size = r.end = (uint64_t)st.st_size;
	if (r.size) {
		void *map = mmap(NULL, r.size, PROT_READ, MAP_SHARED, fd, 0);

		r.file = map != MAP_FAILED ? map : NULL;
	}
	ret = check_file(&r, layout);
	if (!ret)
		ret = formats_survive(&r);
	test_parse_abandon(&store);
	free(store.buf);
	/* the library's flag outlives the file: the next file read would meet it */
	if (!ret && r.formats.flag_pending)
		ret = bad(&r, "a __print_flags or __print_symbolic in the last event formats is not "
			  "followed by a field");
	ZSTD_freeDCtx(r.zctx);
	if (r.file)
		munmap((void *)r.file, r.size);
	return ret;
}
