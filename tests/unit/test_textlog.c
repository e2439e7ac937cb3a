// SPDX-License-Identifier: GPL-2.0
/*
 * The text loader (parsers/text/textlog.c) on hand-written traces whose sums are known: one per
 * kernel era's field set (tests/fixtures/text/synthetic-*.txt), garbage, and files made here.
 */
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include "../event_strings.h"
#include "rs_warn.h"
#include "trace_source.h"
#include "unit.h"
#include "ut_events.h"

#define TEXT(name) FIXTURE("text/" name)
#define MAX_SAVED 64

/* An event as the callback saw it, with its strings copied (they die with the callback). */
struct saved {
	struct rs_event ev;
	char comm[64];
	char str[RS_EV_MAX_STRINGS][160];	/* rs_event_strings()'s */
};

struct collect {
	int n;
	int stop_at;			/* return 7 at this event (1-based); 0: never */
	struct saved s[MAX_SAVED];
};

static void copy_str(char *dst, const char *src)
{
	snprintf(dst, 160, "%s", src ? src : "(null)");
}

static int collect_cb(const struct rs_event *ev, void *ctx)
{
	struct collect *c = ctx;
	const char *str[RS_EV_MAX_STRINGS];
	struct saved *s;
	int n;

	if (c->n >= MAX_SAVED)
		return -100;
	s = &c->s[c->n++];
	s->ev = *ev;
	snprintf(s->comm, sizeof(s->comm), "%s", ev->comm ? ev->comm : "(null)");
	n = rs_event_strings(ev, str);
	for (int i = 0; i < n; i++)
		copy_str(s->str[i], str[i]);
	return c->n == c->stop_at ? 7 : 0;
}

static struct rs_source *open_ok(const char *path)
{
	struct rs_error err = { "" };
	struct rs_source *src = NULL;

	if (rs_source_open(path, NULL, &src, &err) < 0) {
		fprintf(stderr, "  %s: %s\n", path, err.msg);
		return NULL;
	}
	return src;
}

static int stream_all(struct rs_source *src, struct collect *c)
{
	struct rs_error err = { "" };
	int ret;

	ret = rs_source_stream(src, 0, UINT64_MAX, collect_cb, c, &err);
	if (ret < 0)
		fprintf(stderr, "  stream: %s\n", err.msg);
	return ret;
}

/* How often a warning containing `needle` was raised; 0 when never. */
static unsigned long warned(struct rs_source *src, const char *needle)
{
	const struct rs_trace_info *ti = rs_source_info(src);
	unsigned long times, sum = 0;

	for (size_t i = 0; i < rs_warnings_count(ti->warnings); i++) {
		const char *w = rs_warnings_get(ti->warnings, i, &times);

		if (strstr(w, needle))
			sum += times;
	}
	return sum;
}

static int nr_of_type(const struct collect *c, enum rs_ev_type t)
{
	int n = 0;

	for (int i = 0; i < c->n; i++)
		n += c->s[i].ev.type == t;
	return n;
}

/* i-th (0-based) saved event of a type, or NULL */
static const struct saved *nth(const struct collect *c, enum rs_ev_type t, int i)
{
	for (int k = 0; k < c->n; k++)
		if (c->s[k].ev.type == t && !i--)
			return &c->s[k];
	return NULL;
}

/*
 * One figure of one decoded event: the nth (0-based) event of a type, and a field of it, its
 * `have` bits, or one of its strings. An era's test lists them in a table (its fixture's lines,
 * read by hand) and check_wants() checks them row by row, naming the row that fails.
 */
enum want_kind { W_INT, W_HAVE, W_STR };

struct want {
	enum rs_ev_type type;
	int nth;
	const char *what;
	enum want_kind kind;
	size_t off, size;		/* W_INT, W_STR: where in struct saved */
	long long v;			/* W_INT: the value; W_HAVE: bits that must be set */
	unsigned int clear;		/* W_HAVE: bits that must not be */
	const char *str;		/* W_STR */
};

#define SAVED_SIZEOF(m) sizeof(((struct saved *)0)->m)
#define W_EQ(t, i, m, val) { t, i, #m, W_INT, offsetof(struct saved, ev.m), SAVED_SIZEOF(ev.m), \
			     .v = (long long)(val) }
#define W_HAVE(t, i, set, clr) { t, i, "have", W_HAVE, .v = (set), .clear = (clr) }
#define W_STR(t, i, m, s) { t, i, #m, W_STR, offsetof(struct saved, m), .str = (s) }

/* A W_INT row's field, as an unsigned number of its own size; a negative want is compared so. */
static uint64_t field_bits(const struct saved *s, const struct want *w, uint64_t *want)
{
	uint64_t v = 0, mask = w->size < 8 ? (1ull << (8 * w->size)) - 1 : ~0ull;

	memcpy(&v, (const char *)s + w->off, w->size);	/* little-endian: the low bytes */
	*want = (uint64_t)w->v & mask;
	return v;
}

static int check_wants(const struct collect *c, const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++, w++) {
		const struct saved *s = nth(c, w->type, w->nth);
		uint64_t bits, want;
		const char *got;
		bool ok;

		if (!s) {
			fprintf(stderr, "  want %zu: no event %d of type %d\n", i, w->nth, w->type);
			return UT_FAIL;
		}
		switch (w->kind) {
		case W_INT:
			bits = field_bits(s, w, &want);
			ok = bits == want;
			if (!ok)
				fprintf(stderr, "  want %zu: event %d of type %d: %s == %" PRIu64
					", expected %lld\n", i, w->nth, w->type, w->what, bits, w->v);
			break;
		case W_HAVE:
			ok = (s->ev.have & w->v) == (unsigned long long)w->v && !(s->ev.have & w->clear);
			if (!ok)
				fprintf(stderr, "  want %zu: event %d of type %d: have 0x%x, expected "
					"0x%llx set and 0x%x clear\n", i, w->nth, w->type, s->ev.have,
					w->v, w->clear);
			break;
		default:
			got = (const char *)s + w->off;
			ok = !strcmp(got, w->str);
			if (!ok)
				fprintf(stderr, "  want %zu: event %d of type %d: %s == \"%s\", expected "
					"\"%s\"\n", i, w->nth, w->type, w->what, got, w->str);
			break;
		}
		if (!ok)
			return UT_FAIL;
	}
	return UT_OK;
}

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What a hand-written trace of one kernel era gives as a whole: its header, how many events,
 * its span, warnings and event counts, and the page sums of its reclaim events, by hand over
 * its lines; then the table of figures of single events. Each era's test loads it with
 * load_era(), which checks all of it, and checks what the table cannot say.
 */
struct era {
	const char *file;
	int cpus;
	const char *kernel;
	uint64_t events;		/* every event line, decoded or not */
	int n;				/* what the callback saw: decoded events and losses */
	int loss_cpu;			/* the loss the header's scan finds, the same after */
	uint64_t loss;
	uint64_t first_ts, last_ts;	/* the span; 0: not checked */
	int warnings;			/* warnings raised in all; -1: not checked */
	struct {
		const char *text;	/* a warning containing it, raised `times` */
		unsigned long times;
	} warned[2];
	struct {
		const char *event;	/* the loader counted it `n` times */
		uint64_t n;
	} counted[4];
	/* lru_shrink_inactive, by its RECLAIM_WB_FILE flag (anon 0, file 1) */
	uint64_t scanned[2], reclaimed[2], act_anon[2], act_file[2];
	uint64_t isolated[RS_LRU_NR];	/* lru_isolate nr_scanned by list, where the list is known */
	const struct want *wants;
	size_t nr_wants;
};

static int check_sums(const struct collect *c, const struct era *e)
{
	uint64_t sum[4][2] = { { 0 } }, lru[RS_LRU_NR] = { 0 };
	const uint64_t *want[4] = { e->scanned, e->reclaimed, e->act_anon, e->act_file };

	for (int i = 0; i < c->n; i++) {
		const struct rs_event *ev = &c->s[i].ev;
		int f = !!(ev->inactive.reclaim_flags & 0x2);

		if (ev->type == RS_EV_LRU_ISOLATE && (ev->have & RS_HAVE_LRU))
			lru[ev->isolate.lru] += ev->isolate.nr_scanned;
		if (ev->type != RS_EV_SHRINK_INACTIVE)
			continue;
		sum[0][f] += ev->inactive.nr_scanned;
		sum[1][f] += ev->inactive.nr_reclaimed;
		sum[2][f] += ev->inactive.nr_activate_anon;
		sum[3][f] += ev->inactive.nr_activate_file;
	}
	for (int k = 0; k < 4; k++)
		for (int f = 0; f < 2; f++)
			if (sum[k][f] != want[k][f]) {
				fprintf(stderr, "  shrink_inactive sum %d of %s: %" PRIu64 ", expected %"
					PRIu64 "\n", k, f ? "file" : "anon", sum[k][f], want[k][f]);
				return UT_FAIL;
			}
	for (int l = 0; l < RS_LRU_NR; l++)
		UT_ASSERT_EQ(lru[l], e->isolated[l]);
	return UT_OK;
}

/* Open and stream an era's file into c, and check what every era says. */
static int load_era(const struct era *e, struct collect *c, struct rs_source **src)
{
	const struct rs_trace_info *ti;

	memset(c, 0, sizeof(*c));
	*src = open_ok(e->file);
	UT_ASSERT(*src);
	ti = rs_source_info(*src);
	UT_ASSERT_EQ(ti->cpus, e->cpus);
	UT_ASSERT_STR(ti->kernel, e->kernel);
	UT_ASSERT_EQ(ti->loss[e->loss_cpu].missed, e->loss);
	UT_ASSERT_EQ(stream_all(*src, c), 0);
	UT_ASSERT_EQ(ti->events, e->events);
	UT_ASSERT_EQ(c->n, e->n);
	UT_ASSERT_EQ(ti->loss[e->loss_cpu].missed, e->loss);
	if (e->first_ts)
		UT_ASSERT_EQ(ti->first_ts, e->first_ts);
	if (e->last_ts)
		UT_ASSERT_EQ(ti->last_ts, e->last_ts);
	if (e->warnings >= 0)
		UT_ASSERT_EQ(rs_warnings_count(ti->warnings), e->warnings);
	for (size_t i = 0; i < ARRAY_LEN(e->warned) && e->warned[i].text; i++)
		UT_ASSERT_EQ(warned(*src, e->warned[i].text), e->warned[i].times);
	for (size_t i = 0; i < ARRAY_LEN(e->counted) && e->counted[i].event; i++)
		UT_ASSERT_EQ(ut_event_count(*src, e->counted[i].event), e->counted[i].n);
	UT_ASSERT_EQ(check_sums(c, e), UT_OK);
	return check_wants(c, e->wants, e->nr_wants);
}

/* An era that says all in its tables. */
static int era_test(const struct era *e)
{
	static struct collect c;
	struct rs_source *src;
	int ret = load_era(e, &c, &src);

	rs_source_close(src);
	return ret;
}

static const struct want wants_3x[] = {
	W_EQ(RS_EV_LRU_ISOLATE, 1, isolate.nr_taken, 30),
	/* old shrink_inactive: zid, no detail, no activation counts */
	W_HAVE(RS_EV_SHRINK_INACTIVE, 0, RS_HAVE_ZID, RS_HAVE_SHRINK_DETAIL | RS_HAVE_ACTIVATE_SPLIT),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, inactive.zid, 2),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, inactive.priority, 12),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, inactive.reclaim_flags, 0x2 | 0x8),
	/* the head: a comm with a space, pid, CPU, time in ns, line number */
	W_STR(RS_EV_SHRINK_INACTIVE, 0, comm, "Web Content"),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, pid, 3100),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, cpu, 1),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, ts, 100200030000ull),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, offset, 9),
	/* gfp_flags symbolic: absent, not guessed */
	W_EQ(RS_EV_RECLAIM_BEGIN, 0, reclaim.kind, RS_RK_DIRECT),
	W_HAVE(RS_EV_RECLAIM_BEGIN, 0, RS_HAVE_ORDER, RS_HAVE_GFP),
	W_EQ(RS_EV_RECLAIM_END, 0, reclaim.nr_reclaimed, 30),
	/* writepage: decimal pfn in 3.x */
	W_EQ(RS_EV_WRITE_FOLIO, 0, write.pfn, 703284),
	W_EQ(RS_EV_WRITE_FOLIO, 0, write.reclaim_flags, 0x2 | 0x8),
	W_EQ(RS_EV_WRITE_FOLIO, 1, write.reclaim_flags, 0x1 | 0x8),
	/* 3.x shrink_slab: unhashed pointer without 0x, no nid, no priority */
	W_STR(RS_EV_SLAB_START, 0, str[0], "super_cache_scan"),
	W_EQ(RS_EV_SLAB_START, 0, slab.shrinker, 0xffff88003d3a9000ull),
	W_EQ(RS_EV_SLAB_START, 0, slab.nid, -1),
	W_EQ(RS_EV_SLAB_START, 0, slab.priority, -1),
	W_EQ(RS_EV_SLAB_START, 0, slab.nr_objects_to_shrink, 0),
	W_EQ(RS_EV_SLAB_START, 0, slab.cache_items, 112),
	W_EQ(RS_EV_SLAB_START, 0, slab.delta, 1),
	W_EQ(RS_EV_SLAB_START, 0, slab.total_scan, 1),
	W_EQ(RS_EV_SLAB_END, 0, slab.unused_scan, 0),
	W_EQ(RS_EV_SLAB_END, 0, slab.new_scan, 1),
	W_EQ(RS_EV_SLAB_END, 0, slab.total_scan, 1),
	W_EQ(RS_EV_SLAB_END, 0, slab.retval, 0),
	/* kswapd_wake 2.6.36-4.7 has no zid; wakeup_kswapd has */
	W_HAVE(RS_EV_KSWAPD_WAKE, 0, 0, RS_HAVE_ZID),
	W_HAVE(RS_EV_WAKEUP_KSWAPD, 0, RS_HAVE_ZID, 0),
	/* strings with blanks survive: a value runs to the next key= */
	W_STR(RS_EV_EXEC, 0, str[2], "/usr/bin/my prog"),
	W_STR(RS_EV_EXIT, 0, str[0], "my prog"),
	W_STR(RS_EV_EXIT, 0, comm, "my prog"),
	W_EQ(RS_EV_EXIT, 0, task.pid, 2202),
	W_EQ(RS_EV_FORK, 0, task.pid, 2201),
	W_EQ(RS_EV_FORK, 0, task.child_pid, 2202),
	W_STR(RS_EV_FORK, 0, str[1], "bash"),
	W_STR(RS_EV_META, 0, str[0], "begin"),
	/* losses go out before the next event of their CPU, at its time, even a skipped one */
	W_EQ(RS_EV_LOST, 0, cpu, 0),
	W_EQ(RS_EV_LOST, 0, lost, 12),
	W_EQ(RS_EV_LOST, 0, ts, 100300100000ull),
	W_EQ(RS_EV_LOST, 0, offset, 13),		/* the LOST line */
	W_EQ(RS_EV_LOST, 0, pid, -1),
	W_EQ(RS_EV_LOST, 1, cpu, 1),
	W_EQ(RS_EV_LOST, 1, lost, -1),
	W_EQ(RS_EV_LOST, 1, ts, 100400000000ull),
};

/* less 2 lacking nr_scanned, plus 2 losses (sched_switch is decoded: it names tasks) */
static const struct era era_3x = {
	.file = TEXT("synthetic-3x.txt"), .cpus = 2, .kernel = "3.16.0-synthetic",
	.events = 24, .n = 24, .loss_cpu = 0, .loss = 12,	/* CPU:0 [12 EVENTS DROPPED] */
	.first_ts = 100000100000ull, .last_ts = 100700000000ull,
	.warnings = -1, .warned = { { "without field 'nr_scanned'", 2 } },
	.counted = { { "mm_vmscan_lru_shrink_inactive", 6 }, { "sched_switch", 1 },
		     { "print", 1 }, { "mm_vmscan_memcg_isolate", 1 } },
	.scanned = { 17, 84 }, .reclaimed = { 5, 75 },
	.wants = wants_3x, .nr_wants = ARRAY_LEN(wants_3x),
};

UT_TEST(test_3x, "textlog: 3.x field set, trace-cmd report")
{
	static struct collect c;
	uint64_t file_scanned[2] = { 0, 0 };
	const struct rs_trace_info *ti;
	const struct saved *s;
	struct rs_source *src;

	UT_ASSERT_EQ(load_era(&era_3x, &c, &src), UT_OK);
	ti = rs_source_info(src);
	UT_ASSERT_STR(ti->format, "text");
	UT_ASSERT_EQ(ti->loss[1].missed, 0);
	UT_ASSERT_EQ(ti->loss[1].missed_unknown, 1);		/* CPU:1 [EVENTS DROPPED] */

	/* 3.x lru_isolate: `file`, no `lru`: the list is inferred later, never guessed here */
	UT_ASSERT_EQ(nr_of_type(&c, RS_EV_LRU_ISOLATE), 4);
	for (int i = 0; (s = nth(&c, RS_EV_LRU_ISOLATE, i)); i++) {
		UT_ASSERT(s->ev.have & RS_HAVE_FILE);
		UT_ASSERT(s->ev.have & RS_HAVE_ISOLATE_MODE);
		UT_ASSERT(!(s->ev.have & (RS_HAVE_LRU | RS_HAVE_SKIPPED | RS_HAVE_ZID)));
		UT_ASSERT_EQ(s->ev.isolate.lru, -1);
		file_scanned[s->ev.isolate.file] += s->ev.isolate.nr_scanned;
	}
	UT_ASSERT_EQ(file_scanned[1], 32 + 32 + 20);
	UT_ASSERT_EQ(file_scanned[0], 17);

	/* the CPU 0 loss goes out between the second shrink and the third isolate */
	UT_ASSERT_EQ(nr_of_type(&c, RS_EV_LOST), 2);
	s = nth(&c, RS_EV_LOST, 0);
	UT_ASSERT(s > nth(&c, RS_EV_SHRINK_INACTIVE, 1) && s < nth(&c, RS_EV_LRU_ISOLATE, 2));
	rs_source_close(src);
	return UT_OK;
}

static const struct want wants_4x[] = {
	/* nine decimals: exact ns */
	W_EQ(RS_EV_META, 0, ts, 2000000000100ull),
	W_EQ(RS_EV_KSWAPD_WAKE, 0, ts, 2000100000500ull),
	/* 4.11-6.6 lru_isolate: symbolic lru, skipped, isolate_mode, classzone */
	W_HAVE(RS_EV_LRU_ISOLATE, 1, RS_HAVE_LRU | RS_HAVE_SKIPPED | RS_HAVE_ZID, RS_HAVE_FILE),
	W_EQ(RS_EV_LRU_ISOLATE, 1, isolate.nr_skipped, 8),
	W_EQ(RS_EV_LRU_ISOLATE, 1, isolate.zid, 2),
	W_EQ(RS_EV_LRU_ISOLATE, 3, isolate.zid, 3),
	W_HAVE(RS_EV_SHRINK_INACTIVE, 1, RS_HAVE_SHRINK_DETAIL,
	       RS_HAVE_ACTIVATE_SPLIT | RS_HAVE_ZID),
	W_EQ(RS_EV_SHRINK_INACTIVE, 1, inactive.nr_writeback, 1),
	W_EQ(RS_EV_SHRINK_INACTIVE, 1, inactive.nr_ref_keep, 2),
	W_EQ(RS_EV_SHRINK_INACTIVE, 1, inactive.nr_unmap_fail, 1),
	W_EQ(RS_EV_SHRINK_ACTIVE, 0, active.nr_taken, 32),
	W_EQ(RS_EV_SHRINK_ACTIVE, 0, active.nr_deactivated, 22),
	W_EQ(RS_EV_SHRINK_ACTIVE, 0, active.nr_referenced, 10),
	W_EQ(RS_EV_SHRINK_ACTIVE, 0, active.reclaim_flags, 0x2 | 0x8),
	/* gfp_flags: numeric present, symbolic absent */
	W_EQ(RS_EV_RECLAIM_BEGIN, 0, reclaim.kind, RS_RK_MEMCG),
	W_HAVE(RS_EV_RECLAIM_BEGIN, 0, 0, RS_HAVE_GFP),
	W_EQ(RS_EV_RECLAIM_BEGIN, 1, reclaim.kind, RS_RK_DIRECT),
	W_HAVE(RS_EV_RECLAIM_BEGIN, 1, RS_HAVE_GFP, 0),
	W_EQ(RS_EV_RECLAIM_BEGIN, 1, reclaim.gfp_flags, 0x14200ca),
	W_EQ(RS_EV_RECLAIM_BEGIN, 1, reclaim.order, 2),
	W_STR(RS_EV_RECLAIM_BEGIN, 1, comm, "stress-ng-vm"),	/* dashes in the comm */
	W_EQ(RS_EV_RECLAIM_BEGIN, 1, pid, 5100),
	W_EQ(RS_EV_RECLAIM_BEGIN, 1, cpu, 3),
	W_EQ(RS_EV_RECLAIM_END, 0, reclaim.nr_reclaimed, 32),
	W_EQ(RS_EV_SLAB_START, 0, slab.shrinker, 0xffff8800b8e2c8c0ull),
	W_EQ(RS_EV_SLAB_START, 0, slab.nid, 0),
	W_EQ(RS_EV_SLAB_START, 0, slab.nr_objects_to_shrink, 12),
	W_EQ(RS_EV_SLAB_START, 0, slab.cache_items, 1024),
	W_EQ(RS_EV_SLAB_START, 0, slab.delta, 8),
	W_EQ(RS_EV_SLAB_START, 0, slab.total_scan, 20),
	W_EQ(RS_EV_SLAB_START, 0, slab.priority, 12),
	W_EQ(RS_EV_SLAB_END, 0, slab.unused_scan, 12),
	W_EQ(RS_EV_SLAB_END, 0, slab.retval, 20),
	W_EQ(RS_EV_CGROUP, 0, cgroup.op, RS_CG_MKDIR),
	W_EQ(RS_EV_CGROUP, 0, cgroup.id, 42),
	W_STR(RS_EV_CGROUP, 0, str[0], "/rs_x"),
	W_EQ(RS_EV_CGROUP_ATTACH, 0, cgroup.pid, 5000),
	W_STR(RS_EV_CGROUP_ATTACH, 0, str[1], "memhog"),
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.pid, 5000),
	W_STR(RS_EV_OOM_VICTIM, 0, str[0], "(null)"),	/* old mark_victim: pid only */
};

/* one nr_activate goes to the type the flags name */
static const struct era era_4x = {
	.file = TEXT("synthetic-4x.txt"), .cpus = 4,
	.kernel = "4.14.0-synthetic",	/* the older scenario_begin marker */
	.events = 22, .n = 22,
	.first_ts = 2000000000100ull, .warnings = 0,		/* nine decimals: exact ns */
	.scanned = { 16, 64 }, .reclaimed = { 6, 62 }, .act_anon = { 4, 0 }, .act_file = { 0, 2 },
	.isolated = { [RS_LRU_INACTIVE_FILE] = 64, [RS_LRU_ACTIVE_FILE] = 40,
		      [RS_LRU_INACTIVE_ANON] = 16, [RS_LRU_ACTIVE_ANON] = 0 },
	.wants = wants_4x, .nr_wants = ARRAY_LEN(wants_4x),
};

UT_TEST(test_4x, "textlog: 4.14 field set, ns timestamps")
{
	return era_test(&era_4x);
}

static const struct want wants_5x[] = {
	W_EQ(RS_EV_LOST, 0, lost, 42),
	W_EQ(RS_EV_LOST, 0, cpu, 3),
	W_EQ(RS_EV_LOST, 0, ts, 3000200000000ull),
	W_HAVE(RS_EV_SHRINK_INACTIVE, 0, RS_HAVE_ACTIVATE_SPLIT | RS_HAVE_SHRINK_DETAIL, 0),
	W_EQ(RS_EV_SHRINK_INACTIVE, 0, inactive.nr_ref_keep, 1),
	/* irq-flags column of 4 and 5 characters; 6 decimals */
	W_STR(RS_EV_LRU_ISOLATE, 0, comm, "kswapd0"),
	W_EQ(RS_EV_LRU_ISOLATE, 0, pid, 50),
	W_EQ(RS_EV_LRU_ISOLATE, 0, ts, 3000100020000ull),
	W_EQ(RS_EV_LRU_ISOLATE, 1, ts, 3000100040000ull),
	W_EQ(RS_EV_WRITE_FOLIO, 0, write.pfn, 0x7bccc),
	/* record-tgid column */
	W_STR(RS_EV_RECLAIM_BEGIN, 0, comm, "dd"),
	W_EQ(RS_EV_RECLAIM_BEGIN, 0, pid, 6100),
	W_EQ(RS_EV_RECLAIM_BEGIN, 0, cpu, 3),
	W_EQ(RS_EV_THROTTLED, 0, throttled.reason, 1),
	W_EQ(RS_EV_THROTTLED, 0, throttled.usec_delayed, 20000),
	/* the kernel's hashed %p has no 0x; %pS adds /size */
	W_EQ(RS_EV_SLAB_END, 0, slab.shrinker, 0xa1b2c3d4ull),
	W_STR(RS_EV_SLAB_END, 0, str[0], "super_cache_scan"),
	W_EQ(RS_EV_SLAB_END, 0, slab.new_scan, 162),
	W_EQ(RS_EV_SLAB_END, 0, slab.retval, 17),
	/* no flags column (trace_pipe with irq-info off), then a step back in time: file order */
	W_EQ(RS_EV_KSWAPD_SLEEP, 0, ts, 3000400000000ull),
	W_EQ(RS_EV_KSWAPD_SLEEP, 1, ts, 3000390000000ull),
	/* 6.x mark_victim: "total-vm=NkB", "file-rss:NkB" */
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.pid, 6000),
	W_STR(RS_EV_OOM_VICTIM, 0, str[0], "memhog"),
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.total_vm, 1048576),
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.anon_rss, 524288),
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.file_rss, 1024),
	W_EQ(RS_EV_OOM_VICTIM, 0, oom.shmem_rss, 0),
};

static const struct era era_5x = {
	.file = TEXT("synthetic-5x.txt"), .cpus = 4,		/* #P:4 */
	.kernel = "5.10.0-synthetic",
	.events = 20, .n = 19,					/* 18 events and one loss */
	.loss_cpu = 3, .loss = 42,				/* CPU:3 [LOST 42 EVENTS] */
	.last_ts = 3000700000000ull, .warnings = -1,
	.warned = { { "timestamps go backwards", 1 } },
	/* ftrace says tracing_mark_write */
	.counted = { { "print", 1 }, { "function", 1 }, { "irq_handler_entry", 1 } },
	.scanned = { 24, 32 }, .reclaimed = { 20, 28 }, .act_anon = { 4, 0 }, .act_file = { 0, 3 },
	.isolated = { [RS_LRU_INACTIVE_FILE] = 32, [RS_LRU_INACTIVE_ANON] = 24,
		      [RS_LRU_ACTIVE_FILE] = 32 },
	.wants = wants_5x, .nr_wants = ARRAY_LEN(wants_5x),
};

UT_TEST(test_5x_ftrace, "textlog: 5.x field set, ftrace trace file")
{
	return era_test(&era_5x);
}

/* A test of a trace of tests/fixtures/text/, src, opened for it and closed after it. */
#define FILE_TEST(fn, desc, name) \
	UT_TEST_WITH(fn, desc, struct rs_source *, src, open_ok(TEXT(name)), rs_source_close)

FILE_TEST(test_garbage, "textlog: garbage lines counted and skipped", "garbage.txt")
{
	static struct collect c;
	const struct rs_trace_info *ti = rs_source_info(src);

	/* the first five one by one, then the total */
	UT_ASSERT_EQ(warned(src, "not a trace event line"), 5);
	UT_ASSERT_EQ(warned(src, "line 1: not a trace event line"), 1);
	UT_ASSERT_EQ(warned(src, "line 10: not a trace event line"), 0);
	UT_ASSERT_EQ(warned(src, "9 lines in all (the first at line 1)"), 1);
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(ti->events, 4);
	UT_ASSERT_EQ(c.n, 3);
	UT_ASSERT_EQ(warned(src, "without field 'nr_scanned'"), 1);	/* nr_scanned=zz */
	UT_ASSERT_EQ(ti->cpus, 2);
	UT_ASSERT_EQ(c.s[0].ev.type, RS_EV_LRU_ISOLATE);
	UT_ASSERT_EQ(c.s[0].ev.isolate.lru, RS_LRU_ACTIVE_FILE);
	UT_ASSERT_EQ(c.s[0].ev.offset, 3);
	UT_ASSERT_EQ(c.s[2].ev.type, RS_EV_KSWAPD_SLEEP);
	UT_ASSERT_EQ(c.s[2].ev.offset, 14);
	return UT_OK;
}

FILE_TEST(test_range_and_stop, "textlog: time range, early stop, restream", "synthetic-3x.txt")
{
	static struct collect c;
	struct rs_error err = { "" };
	const struct rs_trace_info *ti = rs_source_info(src);

	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(ut_event_count(src, "mm_vmscan_lru_isolate"), 3);

	/* [100.3 s, 100.4 s): the kswapd batch, nine decoded events, a loss and sched_switch */
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(rs_source_stream(src, 100300000000ull, 100400000000ull, collect_cb, &c,
				      &err), 0);
	UT_ASSERT_EQ(c.n, 11);
	UT_ASSERT_EQ(c.s[0].ev.ts, 100300000000ull);
	UT_ASSERT_EQ(c.s[2].ev.type, RS_EV_LOST);
	UT_ASSERT_EQ(c.s[9].ev.ts, 100300310000ull);
	/* [100.4 s, end): the CPU 1 loss line precedes 100.4 s, its event is in range */
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(rs_source_stream(src, 100400000000ull, UINT64_MAX, collect_cb, &c, &err),
		     0);
	UT_ASSERT_EQ(c.n, 5);
	UT_ASSERT_EQ(c.s[0].ev.type, RS_EV_LOST);
	/* a partial stream leaves the full-stream figures alone */
	UT_ASSERT_EQ(ti->events, 24);
	UT_ASSERT_EQ(ut_event_count(src, "mm_vmscan_lru_isolate"), 3);
	UT_ASSERT_EQ(ti->loss[0].missed, 12);

	/* the callback's value stops the stream */
	memset(&c, 0, sizeof(c));
	c.stop_at = 3;
	UT_ASSERT_EQ(rs_source_stream(src, 0, UINT64_MAX, collect_cb, &c, &err), 7);
	UT_ASSERT_EQ(c.n, 3);
	UT_ASSERT_EQ(ti->events, 24);

	/* a second full stream counts the same */
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(c.n, 24);
	UT_ASSERT_EQ(ti->events, 24);
	UT_ASSERT_EQ(ut_event_count(src, "mm_vmscan_lru_shrink_inactive"), 6);
	UT_ASSERT_EQ(ti->loss[0].missed, 12);
	UT_ASSERT_EQ(ti->loss[1].missed_unknown, 1);
	return UT_OK;
}

/* Write a temporary file; returns its path in buf (unlink it), or NULL. */
static const char *tmp_file(char *buf, size_t size, const void *data, size_t len)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(buf, size, "%s/rs-textlog-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(buf);
	if (fd < 0)
		return NULL;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		unlink(buf);
		return NULL;
	}
	close(fd);
	return buf;
}

/* Open `len` bytes of text as a trace (the file goes at once) and stream it all into c. */
static struct rs_source *load_text(const void *data, size_t len, struct collect *c)
{
	struct rs_source *src;
	char path[256];

	if (!tmp_file(path, sizeof(path), data, len)) {
		fprintf(stderr, "  cannot write a temporary file\n");
		return NULL;
	}
	src = open_ok(path);
	unlink(path);
	memset(c, 0, sizeof(*c));
	if (src && stream_all(src, c)) {
		rs_source_close(src);
		return NULL;
	}
	return src;
}

/* Load `len` bytes of text as a trace: it must give n events, and the table's figures. */
static int text_wants(const char *text, size_t len, int n, const struct want *w, size_t nr)
{
	static struct collect c;
	struct rs_source *src = load_text(text, len, &c);
	int ret;

	UT_ASSERT(src);
	ret = check_wants(&c, w, nr);
	rs_source_close(src);
	UT_ASSERT_EQ(c.n, n);
	return ret;
}

/* Open must fail, with a message that names the file and contains `what`. */
static int expect_refused(const char *content, size_t len, const char *what)
{
	struct rs_error err = { "" };
	struct rs_source *src = NULL;
	char path[256];
	int ret;

	UT_ASSERT(tmp_file(path, sizeof(path), content, len));
	ret = rs_source_open(path, NULL, &src, &err);
	unlink(path);
	if (ret == 0)
		rs_source_close(src);
	UT_ASSERT_EQ(ret, -1);
	UT_ASSERT(src == NULL);
	if (!strstr(err.msg, path) || !strstr(err.msg, what)) {
		fprintf(stderr, "  message: %s\n", err.msg);
		return UT_FAIL;
	}
	return UT_OK;
}

UT_TEST(test_refused, "textlog: not text traces are refused")
{
	static const char gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03";
	static const char bin[] = "cpus=2\n\x01\x02\x00\x03 binary";
	static const char *text = "hello world\nthis is not a trace\n";
	static const char *hdr_garbage = "cpus=2\nnot a trace\n";

	UT_ASSERT_EQ(expect_refused(text, strlen(text), "no trace event lines in it (text traces "
				    "must be trace-cmd report or ftrace trace format)"), UT_OK);
	UT_ASSERT_EQ(expect_refused(hdr_garbage, strlen(hdr_garbage), "no trace event lines"),
		     UT_OK);
	UT_ASSERT_EQ(expect_refused(bin, sizeof(bin) - 1, "binary"), UT_OK);
	UT_ASSERT_EQ(expect_refused(gz, sizeof(gz) - 1, "gzip"), UT_OK);
	/* '#' comments alone are not a trace either */
	UT_ASSERT_EQ(expect_refused("# hello\n", 8, "no trace event lines"), UT_OK);
	return UT_OK;
}

UT_TEST(test_odd_files, "textlog: empty report, CRLF, overlong lines")
{
	static const char empty_report[] = "cpus=2\nCPU 0 is empty\nCPU 1 is empty\n";
	static const char crlf[] =
		"cpus=1\r\n"
		"  kswapd0-45  [000]  1.5: mm_vmscan_kswapd_sleep: nid=0\r\n"
		"  kswapd0-45  [000]  2.000000001: mm_vmscan_kswapd_sleep: nid=1";
	static const char head[] = "  kswapd0-45  [000]  1.0: mm_vmscan_kswapd_sleep: nid=0\n";
	static const char tail[] = "\n  kswapd0-45  [001]  3.0: mm_vmscan_kswapd_sleep: nid=0\n";
	static struct collect c;
	struct rs_source *src;
	char *big;

	/* a report of an empty trace: opens, no events, one warning */
	src = load_text(empty_report, sizeof(empty_report) - 1, &c);
	UT_ASSERT(src);
	UT_ASSERT_EQ(c.n, 0);
	UT_ASSERT_EQ(rs_source_info(src)->cpus, 2);
	UT_ASSERT_EQ(warned(src, "no events"), 1);
	rs_source_close(src);

	/* CRLF line ends, no newline at the end, 1 and 9 decimals */
	src = load_text(crlf, sizeof(crlf) - 1, &c);
	UT_ASSERT(src);
	UT_ASSERT_EQ(c.n, 2);
	UT_ASSERT_EQ(c.s[0].ev.ts, 1500000000ull);
	UT_ASSERT_EQ(c.s[1].ev.ts, 2000000001ull);
	UT_ASSERT_EQ(c.s[1].ev.kswapd.nid, 1);
	rs_source_close(src);

	/*
	 * a line longer than the bound is skipped, the lines around it are read; 70000 bytes
	 * fit the read buffer, 300000 span several refills
	 */
	for (int k = 0; k < 2; k++) {
		size_t biglen = k ? 300000 : 70000;
		size_t total = sizeof(head) - 1 + biglen + sizeof(tail) - 1;

		big = malloc(total);
		UT_ASSERT(big);
		memcpy(big, head, sizeof(head) - 1);
		memset(big + sizeof(head) - 1, 'x', biglen);
		memcpy(big + sizeof(head) - 1 + biglen, tail, sizeof(tail) - 1);
		src = load_text(big, total, &c);
		free(big);
		UT_ASSERT(src);
		UT_ASSERT_EQ(c.n, 2);
		UT_ASSERT_EQ(c.s[1].ev.offset, 3);
		UT_ASSERT_EQ(c.s[1].ev.cpu, 1);
		UT_ASSERT_EQ(warned(src, "line 2 is longer than"), 1);
		UT_ASSERT_EQ(warned(src, "not a trace event line"), 0);
		UT_ASSERT_EQ(rs_source_info(src)->cpus, 2);
		rs_source_close(src);
	}
	return UT_OK;
}

/* Lines of other tools' dialects: trace-cmd report -l, -R, --ts-diff. */
UT_TEST(test_dialects, "textlog: report -l, -R and --ts-diff lines")
{
	static const char txt[] =
		"cpus=2\n"
		"record-s-16737   1d..1.   747.776377: count_memcg_events:   memcg_id=5777 item=0 "
		"val=1\n"
		" record-scenario-16737 [001]   747.776380: count_memcg_events:    id=5777 item=23 "
		"val=-4\n"
		" record-scenario-16737 [001]   747.776381: (+1)     mm_vmscan_kswapd_sleep: "
		"nid=0\n"
		" record-scenario-16749 [000]   747.781655: print:                 "
		"ip=tracing_mark_write buf=hello there\n";
	/* the events in file order: line 2, 3, 4, 5 */
	static const struct want wants[] = {
		W_EQ(RS_EV_MEMCG_COUNT, 0, offset, 2),
		W_STR(RS_EV_MEMCG_COUNT, 0, comm, "record-s"),
		W_EQ(RS_EV_MEMCG_COUNT, 0, pid, 16737),
		W_EQ(RS_EV_MEMCG_COUNT, 0, cpu, 1),
		W_EQ(RS_EV_MEMCG_COUNT, 0, memcg.id, 5777),
		W_EQ(RS_EV_MEMCG_COUNT, 1, offset, 3),
		W_EQ(RS_EV_MEMCG_COUNT, 1, memcg.item, 23),
		W_EQ(RS_EV_KSWAPD_SLEEP, 0, offset, 4),
		W_EQ(RS_EV_MARKER, 0, offset, 5),
		W_STR(RS_EV_MARKER, 0, str[0], "hello there"),
	};

	return text_wants(txt, sizeof(txt) - 1, 4, wants, ARRAY_LEN(wants));
}

/*
 * zone_stat (docs/markers.md): the per-zone fields pgdat_balanced() reads, as the recorder writes
 * them from /proc/zoneinfo; a zone index out of range stays a plain marker. The guest's DMA zone
 * (managed 3,840, high 48) with its lowmem_reserve[] 0,575,575,575.
 */
/* a figure of the i-th zone_stat */
#define WZ(i, m, v) W_EQ(RS_EV_SNAP_ZONE, i, snap_zone.m, v)

UT_TEST(test_zone_stat, "textlog: zone_stat marker decodes per zone")
{
	static const char txt[] =
		"cpus=1\n"
		" reclaimscope-90 [000] .....  10.000100: tracing_mark_write: zone_stat nid=0 "
		"zone=DMA idx=0 free=3412 min=24 low=30 high=36 managed=3840 free_cma=0 "
		"protection=0,575,575,575\n"
		" reclaimscope-90 [000] .....  10.000200: tracing_mark_write: zone_stat nid=0 "
		"zone=DMA32 idx=1 free=1977 min=1270 low=1587 high=1904 managed=147286 free_cma=7 "
		"protection=0,0,0,0 free_highatomic=512 reserved_highatomic=1024 pcp=700 pcp_high=2400 "
		"pcp_batch=126 "
		"blocks=4,1,2,2,2,2,1,4,4,2,752\n"
		" reclaimscope-90 [000] .....  10.000300: tracing_mark_write: zone_stat nid=0 "
		"zone=Bad idx=9 free=1 min=1 low=1 high=1 managed=1 free_cma=0 protection=0\n";
	/* the two zones, lines 2 and 3, then the bad one (line 4), a plain marker */
	static const struct want wants[] = {
		W_EQ(RS_EV_SNAP_ZONE, 0, offset, 2), W_EQ(RS_EV_SNAP_ZONE, 1, offset, 3),
		W_EQ(RS_EV_MARKER, 0, offset, 4),
		WZ(0, idx, 0), WZ(0, free_pages, 3412), WZ(0, wmark_high, 36), WZ(0, managed, 3840),
		WZ(0, nr_reserve, 4), WZ(0, lowmem_reserve[0], 0), WZ(0, lowmem_reserve[3], 575),
		/* older zone_stat (the first 7.2 guest trace): no highatomic, no buddy counts */
		WZ(0, free_highatomic, -1), WZ(0, nr_blocks, 0), WZ(0, pcp, -1),
		WZ(1, idx, 1), WZ(1, free_pages, 1977), WZ(1, free_cma, 7), WZ(1, wmark_min, 1270),
		WZ(1, wmark_low, 1587), WZ(1, wmark_high, 1904), WZ(1, lowmem_reserve[2], 0),
		WZ(1, free_highatomic, 512), WZ(1, reserved_highatomic, 1024), WZ(1, nr_blocks, 11),
		WZ(1, pcp, 700), WZ(1, pcp_high, 2400), WZ(1, pcp_batch, 126), WZ(1, blocks[0], 4),
		WZ(1, blocks[10], 752),
	};

	return text_wants(txt, sizeof(txt) - 1, 3, wants, ARRAY_LEN(wants));
}
