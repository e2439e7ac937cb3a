// SPDX-License-Identifier: GPL-2.0
/*
 * analyzer/memcg/memcg_match.c: the classes the loading stage gives count_memcg_events items
 * from the recorder's vm_event_items names, as every consumer reads them (rs_memcg_ctx's
 * item_class): the matching's scan/steal/refill/deactivate and the swap counters refaults and
 * replay read. A consumer here records the class of each counter it is handed.
 */
#include <string.h>

#include "analysis.h"
#include "memcg_attrib.h"
#include "unit.h"
#include "ut_events.h"

/* Item numbers of a synthetic kernel, and one more than its table names. */
enum {
	I_PGPGIN, I_PSWPIN, I_PSWPOUT, I_PGREFILL, I_PGDEACTIVATE, I_PGSCAN_KSWAPD,
	I_PGSCAN_DIRECT, I_PGSCAN_ANON, I_PGSTEAL_PROACTIVE, I_PGSTEAL_FILE, I_NR
};

struct seen {
	int cls[I_NR + 1];
};

static int on_event(void *arg, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct seen *s = arg;

	if (ev->type == RS_EV_MEMCG_COUNT && ev->memcg.item >= 0 && ev->memcg.item <= I_NR)
		s->cls[ev->memcg.item] = ctx->memcg->item_class;
	return 0;
}

/* Every item once, counted to memcg 9 by task 5; names NULL: the trace names none. */
static int classes(const char *const *names, struct seen *s, bool *swapin_named)
{
	struct rs_consumer c = { .name = "seen", .arg = s, .event = on_event };
	struct rs_error err;
	struct rs_analysis *a = ut_analysis(&c, NULL, &err);
	struct rs_event ev;
	uint64_t ts = 1000;
	bool named;

	if (!a)
		return -1;
	for (int i = 0; i <= I_NR; i++)
		s->cls[i] = -1;
	if (names) {
		ev = ut_items(ts++, 1, "rs", RS_ITEMS_VM_EVENT, I_NR, names);
		rs_analysis_feed(a, &ev);
	}
	for (int i = 0; i <= I_NR; i++) {
		ev = ut_memcg(RS_EV_MEMCG_COUNT, ts++, 5, "w", 9, i, 1);
		rs_analysis_feed(a, &ev);
	}
	*swapin_named = rs_memcgs_have_item_class(rs_analysis_memcgs(a), RS_MIC_PSWPIN);
	/* the reports' word on the names, from the same table */
	named = rs_memcgs_facts(rs_analysis_memcgs(a))->item_names;
	rs_analysis_free(a);
	return named == (names != NULL) ? 0 : -1;
}

UT_TEST(test_item_classes, "memcg_match: vm_event item names classed once for every consumer")
{
	static const char *const names[I_NR] = {
		[I_PGPGIN] = "pgpgin", [I_PSWPIN] = "pswpin", [I_PSWPOUT] = "pswpout",
		[I_PGREFILL] = "pgrefill", [I_PGDEACTIVATE] = "pgdeactivate",
		[I_PGSCAN_KSWAPD] = "pgscan_kswapd", [I_PGSCAN_DIRECT] = "pgscan_direct",
		[I_PGSCAN_ANON] = "pgscan_anon", [I_PGSTEAL_PROACTIVE] = "pgsteal_proactive",
		[I_PGSTEAL_FILE] = "pgsteal_file",
	};
	static const int want[I_NR + 1] = {
		[I_PGPGIN] = RS_MIC_OTHER, [I_PSWPIN] = RS_MIC_PSWPIN,
		[I_PSWPOUT] = RS_MIC_PSWPOUT, [I_PGREFILL] = RS_MIC_REFILL,
		[I_PGDEACTIVATE] = RS_MIC_DEACT, [I_PGSCAN_KSWAPD] = RS_MIC_SCAN,
		[I_PGSCAN_DIRECT] = RS_MIC_SCAN,
		/* per list, not per reclaimer: the same pages again */
		[I_PGSCAN_ANON] = RS_MIC_OTHER,
		[I_PGSTEAL_PROACTIVE] = RS_MIC_STEAL, [I_PGSTEAL_FILE] = RS_MIC_OTHER,
		/* past the table: named by nothing */
		[I_NR] = RS_MIC_OTHER,
	};
	const char *without_swapin[I_NR];
	struct seen s;
	bool named;

	UT_ASSERT_EQ(classes(names, &s, &named), 0);
	for (int i = 0; i <= I_NR; i++) {
		if (s.cls[i] != want[i])
			fprintf(stderr, "  item %d (%s)\n", i, i < I_NR ? names[i] : "past the table");
		UT_ASSERT_EQ(s.cls[i], want[i]);
	}
	UT_ASSERT(named);

	/* a kernel whose table lacks pswpin: its swap-ins are not counted, and it says so */
	memcpy(without_swapin, names, sizeof(names));
	without_swapin[I_PSWPIN] = "x";
	UT_ASSERT_EQ(classes(without_swapin, &s, &named), 0);
	UT_ASSERT_EQ(s.cls[I_PSWPIN], RS_MIC_OTHER);
	UT_ASSERT_EQ(s.cls[I_PSWPOUT], RS_MIC_PSWPOUT);
	UT_ASSERT(!named);

	/* no names in the trace: values alone decide, nothing is a swap counter */
	UT_ASSERT_EQ(classes(NULL, &s, &named), 0);
	for (int i = 0; i <= I_NR; i++)
		UT_ASSERT_EQ(s.cls[i], RS_MIC_UNNAMED);
	UT_ASSERT(!named);
	return UT_OK;
}
