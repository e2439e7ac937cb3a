// SPDX-License-Identifier: GPL-2.0
/*
 * The text loader (parsers/text/textlog.c) on hand-written traces whose sums are known: one per
 * kernel era's field set (tests/fixtures/text/synthetic-*.txt), garbage, and files made here.
 */
#include <stdlib.h>
#include <unistd.h>

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
	char str[2][160];
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
	struct saved *s;

	if (c->n >= MAX_SAVED)
		return -100;
	s = &c->s[c->n++];
	s->ev = *ev;
	snprintf(s->comm, sizeof(s->comm), "%s", ev->comm ? ev->comm : "(null)");
	switch (ev->type) {
	case RS_EV_MARKER:
		copy_str(s->str[0], ev->marker);
		break;
	case RS_EV_META:
		copy_str(s->str[0], ev->meta.kind);
		copy_str(s->str[1], ev->meta.text);
		break;
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
		copy_str(s->str[0], ev->slab.shrink_name);
		break;
	case RS_EV_CGROUP:
	case RS_EV_CGROUP_ATTACH:
		copy_str(s->str[0], ev->cgroup.path);
		copy_str(s->str[1], ev->cgroup.comm);
		break;
	case RS_EV_FORK:
	case RS_EV_EXEC:
	case RS_EV_EXIT:
		copy_str(s->str[0], ev->type == RS_EV_EXEC ? ev->task.filename : ev->task.comm);
		copy_str(s->str[1], ev->task.child_comm);
		break;
	case RS_EV_OOM_VICTIM:
		copy_str(s->str[0], ev->oom.comm);
		break;
	default:
		break;
	}
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

/* lru_shrink_inactive sums, split by the RECLAIM_WB_FILE flag */
static void inactive_sums(const struct collect *c, uint64_t scanned[2], uint64_t reclaimed[2],
			  uint64_t act_anon[2], uint64_t act_file[2])
{
	for (int f = 0; f < 2; f++)
		scanned[f] = reclaimed[f] = act_anon[f] = act_file[f] = 0;
	for (int i = 0; i < c->n; i++) {
		const struct rs_event *ev = &c->s[i].ev;
		int f;

		if (ev->type != RS_EV_SHRINK_INACTIVE)
			continue;
		f = !!(ev->inactive.reclaim_flags & 0x2);
		scanned[f] += ev->inactive.nr_scanned;
		reclaimed[f] += ev->inactive.nr_reclaimed;
		act_anon[f] += ev->inactive.nr_activate_anon;
		act_file[f] += ev->inactive.nr_activate_file;
	}
}

/* lru_isolate nr_scanned by list (lru known) */
static void isolate_by_lru(const struct collect *c, uint64_t scanned[RS_LRU_NR])
{
	memset(scanned, 0, RS_LRU_NR * sizeof(*scanned));
	for (int i = 0; i < c->n; i++) {
		const struct rs_event *ev = &c->s[i].ev;

		if (ev->type == RS_EV_LRU_ISOLATE && (ev->have & RS_HAVE_LRU))
			scanned[ev->isolate.lru] += ev->isolate.nr_scanned;
	}
}

UT_TEST(test_3x, "textlog: 3.x field set, trace-cmd report")
{
	static struct collect c;
	uint64_t sc[2], rc[2], aa[2], af[2], file_scanned[2] = { 0, 0 };
	const struct rs_trace_info *ti;
	const struct saved *s;
	struct rs_source *src;

	memset(&c, 0, sizeof(c));
	src = open_ok(TEXT("synthetic-3x.txt"));
	UT_ASSERT(src);
	ti = rs_source_info(src);
	UT_ASSERT_STR(ti->format, "text");
	UT_ASSERT_EQ(ti->cpus, 2);
	UT_ASSERT_STR(ti->kernel, "3.16.0-synthetic");	/* from the begin marker */
	UT_ASSERT_EQ(ti->loss[0].missed, 12);			/* CPU:0 [12 EVENTS DROPPED] */
	UT_ASSERT_EQ(ti->loss[1].missed, 0);
	UT_ASSERT_EQ(ti->loss[1].missed_unknown, 1);		/* CPU:1 [EVENTS DROPPED] */
	UT_ASSERT_EQ(stream_all(src, &c), 0);

	UT_ASSERT_EQ(ti->events, 24);		/* every event line, decoded or not */
	/* less 2 lacking nr_scanned, plus 2 losses (sched_switch is decoded: it names tasks) */
	UT_ASSERT_EQ(c.n, 24);
	UT_ASSERT_EQ(ti->first_ts, 100000100000ull);
	UT_ASSERT_EQ(ti->last_ts, 100700000000ull);
	UT_ASSERT_EQ(warned(src, "without field 'nr_scanned'"), 2);
	UT_ASSERT_EQ(ut_event_count(src, "mm_vmscan_lru_shrink_inactive"), 6);
	UT_ASSERT_EQ(ut_event_count(src, "sched_switch"), 1);
	UT_ASSERT_EQ(ut_event_count(src, "print"), 1);
	UT_ASSERT_EQ(ut_event_count(src, "mm_vmscan_memcg_isolate"), 1);

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
	UT_ASSERT_EQ(nth(&c, RS_EV_LRU_ISOLATE, 1)->ev.isolate.nr_taken, 30);

	/* old shrink_inactive: zid, no detail, no activation counts */
	inactive_sums(&c, sc, rc, aa, af);
	UT_ASSERT_EQ(sc[1], 84);
	UT_ASSERT_EQ(rc[1], 75);
	UT_ASSERT_EQ(sc[0], 17);
	UT_ASSERT_EQ(rc[0], 5);
	s = nth(&c, RS_EV_SHRINK_INACTIVE, 0);
	UT_ASSERT(s->ev.have & RS_HAVE_ZID);
	UT_ASSERT(!(s->ev.have & (RS_HAVE_SHRINK_DETAIL | RS_HAVE_ACTIVATE_SPLIT)));
	UT_ASSERT_EQ(s->ev.inactive.zid, 2);
	UT_ASSERT_EQ(s->ev.inactive.priority, 12);
	UT_ASSERT_EQ(s->ev.inactive.reclaim_flags, 0x2 | 0x8);

	/* the head: a comm with a space, pid, CPU, time in ns, line number */
	UT_ASSERT_STR(s->comm, "Web Content");
	UT_ASSERT_EQ(s->ev.pid, 3100);
	UT_ASSERT_EQ(s->ev.cpu, 1);
	UT_ASSERT_EQ(s->ev.ts, 100200030000ull);
	UT_ASSERT_EQ(s->ev.offset, 9);

	s = nth(&c, RS_EV_RECLAIM_BEGIN, 0);
	UT_ASSERT_EQ(s->ev.reclaim.kind, RS_RK_DIRECT);
	UT_ASSERT(!(s->ev.have & RS_HAVE_GFP));		/* symbolic: absent, not guessed */
	UT_ASSERT(s->ev.have & RS_HAVE_ORDER);
	UT_ASSERT_EQ(nth(&c, RS_EV_RECLAIM_END, 0)->ev.reclaim.nr_reclaimed, 30);

	/* writepage: decimal pfn in 3.x */
	s = nth(&c, RS_EV_WRITE_FOLIO, 0);
	UT_ASSERT_EQ(s->ev.write.pfn, 703284);
	UT_ASSERT_EQ(s->ev.write.reclaim_flags, 0x2 | 0x8);
	UT_ASSERT_EQ(nth(&c, RS_EV_WRITE_FOLIO, 1)->ev.write.reclaim_flags, 0x1 | 0x8);

	/* 3.x shrink_slab: unhashed pointer without 0x, no nid, no priority */
	s = nth(&c, RS_EV_SLAB_START, 0);
	UT_ASSERT_STR(s->str[0], "super_cache_scan");
	UT_ASSERT_EQ(s->ev.slab.shrinker, 0xffff88003d3a9000ull);
	UT_ASSERT_EQ(s->ev.slab.nid, -1);
	UT_ASSERT_EQ(s->ev.slab.priority, -1);
	UT_ASSERT_EQ(s->ev.slab.nr_objects_to_shrink, 0);
	UT_ASSERT_EQ(s->ev.slab.cache_items, 112);
	UT_ASSERT_EQ(s->ev.slab.delta, 1);
	UT_ASSERT_EQ(s->ev.slab.total_scan, 1);
	s = nth(&c, RS_EV_SLAB_END, 0);
	UT_ASSERT_EQ(s->ev.slab.unused_scan, 0);
	UT_ASSERT_EQ(s->ev.slab.new_scan, 1);
	UT_ASSERT_EQ(s->ev.slab.total_scan, 1);
	UT_ASSERT_EQ(s->ev.slab.retval, 0);

	/* kswapd_wake 2.6.36-4.7 has no zid; wakeup_kswapd has */
	s = nth(&c, RS_EV_KSWAPD_WAKE, 0);
	UT_ASSERT(!(s->ev.have & RS_HAVE_ZID));
	UT_ASSERT(nth(&c, RS_EV_WAKEUP_KSWAPD, 0)->ev.have & RS_HAVE_ZID);

	/* strings with blanks survive: a value runs to the next key= */
	UT_ASSERT_STR(nth(&c, RS_EV_EXEC, 0)->str[0], "/usr/bin/my prog");
	s = nth(&c, RS_EV_EXIT, 0);
	UT_ASSERT_STR(s->str[0], "my prog");
	UT_ASSERT_STR(s->comm, "my prog");
	UT_ASSERT_EQ(s->ev.task.pid, 2202);
	s = nth(&c, RS_EV_FORK, 0);
	UT_ASSERT_EQ(s->ev.task.pid, 2201);
	UT_ASSERT_EQ(s->ev.task.child_pid, 2202);
	UT_ASSERT_STR(s->str[1], "bash");

	s = nth(&c, RS_EV_META, 0);
	UT_ASSERT(s);
	UT_ASSERT_STR(s->str[0], "begin");

	/* losses go out before the next event of their CPU, at its time, even a skipped one */
	UT_ASSERT_EQ(nr_of_type(&c, RS_EV_LOST), 2);
	s = nth(&c, RS_EV_LOST, 0);
	UT_ASSERT_EQ(s->ev.cpu, 0);
	UT_ASSERT_EQ(s->ev.lost, 12);
	UT_ASSERT_EQ(s->ev.ts, 100300100000ull);
	UT_ASSERT_EQ(s->ev.offset, 13);		/* the LOST line */
	UT_ASSERT_EQ(s->ev.pid, -1);
	UT_ASSERT(s > nth(&c, RS_EV_SHRINK_INACTIVE, 1) && s < nth(&c, RS_EV_LRU_ISOLATE, 2));
	s = nth(&c, RS_EV_LOST, 1);
	UT_ASSERT_EQ(s->ev.cpu, 1);
	UT_ASSERT_EQ(s->ev.lost, -1);
	UT_ASSERT_EQ(s->ev.ts, 100400000000ull);
	rs_source_close(src);
	return UT_OK;
}

UT_TEST(test_4x, "textlog: 4.14 field set, ns timestamps")
{
	static struct collect c;
	uint64_t sc[2], rc[2], aa[2], af[2], lru[RS_LRU_NR];
	const struct rs_trace_info *ti;
	const struct saved *s;
	struct rs_source *src;

	memset(&c, 0, sizeof(c));
	src = open_ok(TEXT("synthetic-4x.txt"));
	UT_ASSERT(src);
	ti = rs_source_info(src);
	UT_ASSERT_EQ(ti->cpus, 4);
	UT_ASSERT_STR(ti->kernel, "4.14.0-synthetic");	/* the older scenario_begin marker */
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(ti->events, 22);
	UT_ASSERT_EQ(c.n, 22);
	UT_ASSERT_EQ(rs_warnings_count(ti->warnings), 0);
	/* nine decimals: exact ns */
	UT_ASSERT_EQ(c.s[0].ev.ts, 2000000000100ull);
	UT_ASSERT_EQ(ti->first_ts, 2000000000100ull);
	UT_ASSERT_EQ(nth(&c, RS_EV_KSWAPD_WAKE, 0)->ev.ts, 2000100000500ull);

	/* 4.11-6.6 lru_isolate: symbolic lru, skipped, isolate_mode, classzone */
	isolate_by_lru(&c, lru);
	UT_ASSERT_EQ(lru[RS_LRU_INACTIVE_FILE], 64);
	UT_ASSERT_EQ(lru[RS_LRU_ACTIVE_FILE], 40);
	UT_ASSERT_EQ(lru[RS_LRU_INACTIVE_ANON], 16);
	UT_ASSERT_EQ(lru[RS_LRU_ACTIVE_ANON], 0);
	s = nth(&c, RS_EV_LRU_ISOLATE, 1);
	UT_ASSERT(s->ev.have & RS_HAVE_LRU);
	UT_ASSERT(s->ev.have & RS_HAVE_SKIPPED);
	UT_ASSERT(s->ev.have & RS_HAVE_ZID);
	UT_ASSERT(!(s->ev.have & RS_HAVE_FILE));
	UT_ASSERT_EQ(s->ev.isolate.nr_skipped, 8);
	UT_ASSERT_EQ(s->ev.isolate.zid, 2);
	UT_ASSERT_EQ(nth(&c, RS_EV_LRU_ISOLATE, 3)->ev.isolate.zid, 3);

	/* one nr_activate goes to the type the flags name */
	inactive_sums(&c, sc, rc, aa, af);
	UT_ASSERT_EQ(sc[1], 64);
	UT_ASSERT_EQ(rc[1], 62);
	UT_ASSERT_EQ(sc[0], 16);
	UT_ASSERT_EQ(rc[0], 6);
	UT_ASSERT_EQ(af[1], 2);
	UT_ASSERT_EQ(aa[1], 0);
	UT_ASSERT_EQ(aa[0], 4);
	UT_ASSERT_EQ(af[0], 0);
	s = nth(&c, RS_EV_SHRINK_INACTIVE, 1);
	UT_ASSERT(s->ev.have & RS_HAVE_SHRINK_DETAIL);
	UT_ASSERT(!(s->ev.have & (RS_HAVE_ACTIVATE_SPLIT | RS_HAVE_ZID)));
	UT_ASSERT_EQ(s->ev.inactive.nr_writeback, 1);
	UT_ASSERT_EQ(s->ev.inactive.nr_ref_keep, 2);
	UT_ASSERT_EQ(s->ev.inactive.nr_unmap_fail, 1);

	s = nth(&c, RS_EV_SHRINK_ACTIVE, 0);
	UT_ASSERT_EQ(s->ev.active.nr_taken, 32);
	UT_ASSERT_EQ(s->ev.active.nr_deactivated, 22);
	UT_ASSERT_EQ(s->ev.active.nr_referenced, 10);
	UT_ASSERT_EQ(s->ev.active.reclaim_flags, 0x2 | 0x8);

	/* gfp_flags: numeric present, symbolic absent */
	s = nth(&c, RS_EV_RECLAIM_BEGIN, 0);
	UT_ASSERT_EQ(s->ev.reclaim.kind, RS_RK_MEMCG);
	UT_ASSERT(!(s->ev.have & RS_HAVE_GFP));
	s = nth(&c, RS_EV_RECLAIM_BEGIN, 1);
	UT_ASSERT_EQ(s->ev.reclaim.kind, RS_RK_DIRECT);
	UT_ASSERT(s->ev.have & RS_HAVE_GFP);
	UT_ASSERT_EQ(s->ev.reclaim.gfp_flags, 0x14200ca);
	UT_ASSERT_EQ(s->ev.reclaim.order, 2);
	UT_ASSERT_STR(s->comm, "stress-ng-vm");		/* dashes in the comm */
	UT_ASSERT_EQ(s->ev.pid, 5100);
	UT_ASSERT_EQ(s->ev.cpu, 3);
	UT_ASSERT_EQ(nth(&c, RS_EV_RECLAIM_END, 0)->ev.reclaim.nr_reclaimed, 32);

	s = nth(&c, RS_EV_SLAB_START, 0);
	UT_ASSERT_EQ(s->ev.slab.shrinker, 0xffff8800b8e2c8c0ull);
	UT_ASSERT_EQ(s->ev.slab.nid, 0);
	UT_ASSERT_EQ(s->ev.slab.nr_objects_to_shrink, 12);
	UT_ASSERT_EQ(s->ev.slab.cache_items, 1024);
	UT_ASSERT_EQ(s->ev.slab.delta, 8);
	UT_ASSERT_EQ(s->ev.slab.total_scan, 20);
	UT_ASSERT_EQ(s->ev.slab.priority, 12);
	s = nth(&c, RS_EV_SLAB_END, 0);
	UT_ASSERT_EQ(s->ev.slab.unused_scan, 12);
	UT_ASSERT_EQ(s->ev.slab.retval, 20);

	s = nth(&c, RS_EV_CGROUP, 0);
	UT_ASSERT_EQ(s->ev.cgroup.op, RS_CG_MKDIR);
	UT_ASSERT_EQ(s->ev.cgroup.id, 42);
	UT_ASSERT_STR(s->str[0], "/rs_x");
	s = nth(&c, RS_EV_CGROUP_ATTACH, 0);
	UT_ASSERT_EQ(s->ev.cgroup.pid, 5000);
	UT_ASSERT_STR(s->str[1], "memhog");
	s = nth(&c, RS_EV_OOM_VICTIM, 0);
	UT_ASSERT_EQ(s->ev.oom.pid, 5000);
	UT_ASSERT_STR(s->str[0], "(null)");	/* old mark_victim: pid only */
	rs_source_close(src);
	return UT_OK;
}

UT_TEST(test_5x_ftrace, "textlog: 5.x field set, ftrace trace file")
{
	static struct collect c;
	uint64_t sc[2], rc[2], aa[2], af[2], lru[RS_LRU_NR];
	const struct rs_trace_info *ti;
	const struct saved *s;
	struct rs_source *src;

	memset(&c, 0, sizeof(c));
	src = open_ok(TEXT("synthetic-5x.txt"));
	UT_ASSERT(src);
	ti = rs_source_info(src);
	UT_ASSERT_EQ(ti->cpus, 4);		/* #P:4 */
	UT_ASSERT_STR(ti->kernel, "5.10.0-synthetic");
	UT_ASSERT_EQ(ti->loss[3].missed, 42);	/* CPU:3 [LOST 42 EVENTS] */
	UT_ASSERT_EQ(warned(src, "timestamps go backwards"), 1);
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(ti->events, 20);
	UT_ASSERT_EQ(c.n, 19);			/* 18 events and one loss */
	UT_ASSERT_EQ(nth(&c, RS_EV_LOST, 0)->ev.lost, 42);
	UT_ASSERT_EQ(nth(&c, RS_EV_LOST, 0)->ev.cpu, 3);
	UT_ASSERT_EQ(nth(&c, RS_EV_LOST, 0)->ev.ts, 3000200000000ull);
	UT_ASSERT_EQ(ut_event_count(src, "print"), 1);	/* ftrace says tracing_mark_write */
	UT_ASSERT_EQ(ut_event_count(src, "function"), 1);
	UT_ASSERT_EQ(ut_event_count(src, "irq_handler_entry"), 1);
	UT_ASSERT_EQ(ti->loss[3].missed, 42);		/* the same after a full stream */

	isolate_by_lru(&c, lru);
	UT_ASSERT_EQ(lru[RS_LRU_INACTIVE_FILE], 32);
	UT_ASSERT_EQ(lru[RS_LRU_INACTIVE_ANON], 24);
	UT_ASSERT_EQ(lru[RS_LRU_ACTIVE_FILE], 32);
	inactive_sums(&c, sc, rc, aa, af);
	UT_ASSERT_EQ(sc[1], 32);
	UT_ASSERT_EQ(rc[1], 28);
	UT_ASSERT_EQ(af[1], 3);
	UT_ASSERT_EQ(sc[0], 24);
	UT_ASSERT_EQ(rc[0], 20);
	UT_ASSERT_EQ(aa[0], 4);
	s = nth(&c, RS_EV_SHRINK_INACTIVE, 0);
	UT_ASSERT(s->ev.have & RS_HAVE_ACTIVATE_SPLIT);
	UT_ASSERT(s->ev.have & RS_HAVE_SHRINK_DETAIL);
	UT_ASSERT_EQ(s->ev.inactive.nr_ref_keep, 1);

	/* irq-flags column of 4 and 5 characters; 6 decimals */
	s = nth(&c, RS_EV_LRU_ISOLATE, 0);
	UT_ASSERT_STR(s->comm, "kswapd0");
	UT_ASSERT_EQ(s->ev.pid, 50);
	UT_ASSERT_EQ(s->ev.ts, 3000100020000ull);
	UT_ASSERT_EQ(nth(&c, RS_EV_LRU_ISOLATE, 1)->ev.ts, 3000100040000ull);
	UT_ASSERT_EQ(nth(&c, RS_EV_WRITE_FOLIO, 0)->ev.write.pfn, 0x7bccc);

	/* record-tgid column */
	s = nth(&c, RS_EV_RECLAIM_BEGIN, 0);
	UT_ASSERT_STR(s->comm, "dd");
	UT_ASSERT_EQ(s->ev.pid, 6100);
	UT_ASSERT_EQ(s->ev.cpu, 3);
	UT_ASSERT_EQ(nth(&c, RS_EV_THROTTLED, 0)->ev.throttled.reason, 1);
	UT_ASSERT_EQ(nth(&c, RS_EV_THROTTLED, 0)->ev.throttled.usec_delayed, 20000);

	/* the kernel's hashed %p has no 0x; %pS adds /size */
	s = nth(&c, RS_EV_SLAB_END, 0);
	UT_ASSERT_EQ(s->ev.slab.shrinker, 0xa1b2c3d4ull);
	UT_ASSERT_STR(s->str[0], "super_cache_scan");
	UT_ASSERT_EQ(s->ev.slab.new_scan, 162);
	UT_ASSERT_EQ(s->ev.slab.retval, 17);

	/* no flags column (trace_pipe with irq-info off), then a step back in time: file order */
	s = nth(&c, RS_EV_KSWAPD_SLEEP, 0);
	UT_ASSERT_EQ(s->ev.ts, 3000400000000ull);
	UT_ASSERT_EQ(nth(&c, RS_EV_KSWAPD_SLEEP, 1)->ev.ts, 3000390000000ull);
	UT_ASSERT_EQ(ti->last_ts, 3000700000000ull);

	/* 6.x mark_victim: "total-vm=NkB", "file-rss:NkB" */
	s = nth(&c, RS_EV_OOM_VICTIM, 0);
	UT_ASSERT_EQ(s->ev.oom.pid, 6000);
	UT_ASSERT_STR(s->str[0], "memhog");
	UT_ASSERT_EQ(s->ev.oom.total_vm, 1048576);
	UT_ASSERT_EQ(s->ev.oom.anon_rss, 524288);
	UT_ASSERT_EQ(s->ev.oom.file_rss, 1024);
	UT_ASSERT_EQ(s->ev.oom.shmem_rss, 0);
	rs_source_close(src);
	return UT_OK;
}

UT_TEST(test_garbage, "textlog: garbage lines counted and skipped")
{
	static struct collect c;
	const struct rs_trace_info *ti;
	struct rs_source *src;

	memset(&c, 0, sizeof(c));
	src = open_ok(TEXT("garbage.txt"));
	UT_ASSERT(src);
	ti = rs_source_info(src);
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
	rs_source_close(src);
	return UT_OK;
}

UT_TEST(test_range_and_stop, "textlog: time range, early stop, restream")
{
	static struct collect c;
	struct rs_error err = { "" };
	const struct rs_trace_info *ti;
	struct rs_source *src;

	memset(&c, 0, sizeof(c));
	src = open_ok(TEXT("synthetic-3x.txt"));
	UT_ASSERT(src);
	ti = rs_source_info(src);
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
	rs_source_close(src);
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
	char path[256], *big;

	/* a report of an empty trace: opens, no events, one warning */
	UT_ASSERT(tmp_file(path, sizeof(path), empty_report, sizeof(empty_report) - 1));
	src = open_ok(path);
	unlink(path);
	UT_ASSERT(src);
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(c.n, 0);
	UT_ASSERT_EQ(rs_source_info(src)->cpus, 2);
	UT_ASSERT_EQ(warned(src, "no events"), 1);
	rs_source_close(src);

	/* CRLF line ends, no newline at the end, 1 and 9 decimals */
	UT_ASSERT(tmp_file(path, sizeof(path), crlf, sizeof(crlf) - 1));
	src = open_ok(path);
	unlink(path);
	UT_ASSERT(src);
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(stream_all(src, &c), 0);
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
		path[0] = '\0';
		tmp_file(path, sizeof(path), big, total);
		free(big);
		UT_ASSERT(path[0]);
		src = open_ok(path);
		unlink(path);
		UT_ASSERT(src);
		memset(&c, 0, sizeof(c));
		UT_ASSERT_EQ(stream_all(src, &c), 0);
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
	static struct collect c;
	struct rs_source *src;
	char path[256];

	UT_ASSERT(tmp_file(path, sizeof(path), txt, sizeof(txt) - 1));
	src = open_ok(path);
	unlink(path);
	UT_ASSERT(src);
	memset(&c, 0, sizeof(c));
	UT_ASSERT_EQ(stream_all(src, &c), 0);
	UT_ASSERT_EQ(c.n, 4);
	UT_ASSERT_STR(c.s[0].comm, "record-s");
	UT_ASSERT_EQ(c.s[0].ev.pid, 16737);
	UT_ASSERT_EQ(c.s[0].ev.cpu, 1);
	UT_ASSERT_EQ(c.s[0].ev.memcg.id, 5777);
	UT_ASSERT_EQ(c.s[1].ev.memcg.item, 23);
	UT_ASSERT_EQ(c.s[2].ev.type, RS_EV_KSWAPD_SLEEP);
	UT_ASSERT_EQ(c.s[3].ev.type, RS_EV_MARKER);
	UT_ASSERT_STR(c.s[3].str[0], "hello there");
	rs_source_close(src);
	return UT_OK;
}
