// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU told from a trace's shape and the recorder's marker (parsers/lru_shape.c), and the
 * 6.1-era MGLRU whose reclaim emits no lru_isolate or lru_shrink_inactive at all: its
 * eviction is not traced, which the verdict must say rather than report lists of 0 pages.
 */
#include <string.h>

#include "../../parsers/lru_shape.h"
#include "unit.h"

static void see(struct rs_lru_shape *s, enum rs_ev_type type, const char *meta_text)
{
	struct rs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	if (type == RS_EV_META) {
		ev.meta.kind = "begin";
		ev.meta.text = meta_text;
	}
	if (type == RS_EV_LRU_ISOLATE) {
		ev.isolate.nr_requested = 4096;	/* MGLRU's batch */
		ev.isolate.nr_taken = 64;
		ev.isolate.lru = RS_LRU_INACTIVE_FILE;
		ev.have = RS_HAVE_LRU;
	}
	rs_lru_shape_see(s, &ev);
}

UT_TEST(test_lru_shape_untraced, "lru_shape: MGLRU before 6.7 reclaims without events")
{
	struct rs_lru_shape s;
	char how[512];
	int v;

	/* 6.1, MGLRU on: the marker, kswapd woke, no isolate or shrink event came */
	rs_lru_shape_reset(&s);
	see(&s, RS_EV_META, "mglru=0x0007 cgroup_path=/");
	for (int i = 0; i < 3; i++)
		see(&s, RS_EV_KSWAPD_WAKE, NULL);
	v = rs_lru_shape_verdict(&s, how, sizeof(how));
	UT_ASSERT_EQ(v, 1);
	UT_ASSERT(rs_lru_shape_untraced(&s, v));
	UT_ASSERT(strstr(how, "3 kswapd wakes and reclaim begins") != NULL);
	UT_ASSERT(strstr(how, "does not trace its scanning and eviction") != NULL);

	/* 6.7+ MGLRU: its isolates are there, eviction traced */
	see(&s, RS_EV_LRU_ISOLATE, NULL);
	v = rs_lru_shape_verdict(&s, how, sizeof(how));
	UT_ASSERT_EQ(v, 1);
	UT_ASSERT(!rs_lru_shape_untraced(&s, v));

	/* MGLRU and no reclaim at all: nothing was missed */
	rs_lru_shape_reset(&s);
	see(&s, RS_EV_META, "mglru=0x0007");
	v = rs_lru_shape_verdict(&s, how, sizeof(how));
	UT_ASSERT_EQ(v, 1);
	UT_ASSERT(!rs_lru_shape_untraced(&s, v));
	UT_ASSERT(strstr(how, "does not trace") == NULL);

	/* the classic LRU with no scanning event is never "untraced" */
	rs_lru_shape_reset(&s);
	see(&s, RS_EV_META, "mglru=0x0000");
	see(&s, RS_EV_RECLAIM_BEGIN, NULL);
	v = rs_lru_shape_verdict(&s, how, sizeof(how));
	UT_ASSERT_EQ(v, 0);
	UT_ASSERT(!rs_lru_shape_untraced(&s, v));
	return UT_OK;
}

static void see_small(struct rs_lru_shape *s, uint64_t requested, bool mode)
{
	struct rs_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = RS_EV_LRU_ISOLATE;
	ev.isolate.nr_requested = requested;
	ev.isolate.nr_scanned = requested;
	ev.isolate.nr_taken = requested;
	ev.isolate.lru = RS_LRU_INACTIVE_FILE;
	ev.have = RS_HAVE_LRU | (mode ? RS_HAVE_ISOLATE_MODE : 0);
	rs_lru_shape_see(s, &ev);
}

UT_TEST(test_lru_shape_small_isolates, "lru_shape: small isolates tell the LRU only before 6.7")
{
	/* 7.2 MGLRU memcg reclaim recorded with plain trace-cmd: its requests (k7.2, -m on) */
	static const uint64_t mglru72[] = { 2, 5, 11, 23 };
	struct rs_lru_shape s;
	char how[512];

	/* 6.1 plain trace-cmd, file-only pressure: lru_isolate has isolate_mode */
	rs_lru_shape_reset(&s);
	for (int i = 0; i < 4; i++)
		see_small(&s, 32, true);
	UT_ASSERT_EQ(rs_lru_shape_verdict(&s, how, sizeof(how)), 0);
	UT_ASSERT(strstr(how, "isolate_mode") != NULL);

	/* 6.7+ (no isolate_mode), small inactive isolates only, no marker: either LRU */
	rs_lru_shape_reset(&s);
	for (size_t i = 0; i < sizeof(mglru72) / sizeof(mglru72[0]); i++)
		see_small(&s, mglru72[i], false);
	UT_ASSERT_EQ(rs_lru_shape_verdict(&s, how, sizeof(how)), -1);
	UT_ASSERT(strstr(how, "nothing tells") != NULL);

	/* one isolate of the old format among them is not enough */
	see_small(&s, 32, true);
	UT_ASSERT_EQ(rs_lru_shape_verdict(&s, how, sizeof(how)), -1);

	/* the marker or a batch above 32 still tells */
	see_small(&s, 64, false);
	UT_ASSERT_EQ(rs_lru_shape_verdict(&s, how, sizeof(how)), 1);
	rs_lru_shape_reset(&s);
	see(&s, RS_EV_META, "mglru=0x0000");
	see_small(&s, 5, false);
	UT_ASSERT_EQ(rs_lru_shape_verdict(&s, how, sizeof(how)), 0);
	return UT_OK;
}

UT_TEST(test_lru_shape_wants, "lru_shape: the types it counts are the types it wants")
{
	for (int t = 0; t < RS_EV_NR_TYPES; t++) {
		struct rs_lru_shape s, zero;

		rs_lru_shape_reset(&s);
		rs_lru_shape_reset(&zero);
		see(&s, (enum rs_ev_type)t, "mglru=0x0007");
		if (rs_lru_shape_wants((enum rs_ev_type)t) != !!memcmp(&s, &zero, sizeof(s))) {
			fprintf(stderr, "  type %d: wanted %d, counted %d\n", t,
				rs_lru_shape_wants((enum rs_ev_type)t), !!memcmp(&s, &zero, sizeof(s)));
			return UT_FAIL;
		}
	}
	return UT_OK;
}
