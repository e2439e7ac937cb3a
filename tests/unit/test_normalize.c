// SPDX-License-Identifier: GPL-2.0
/* The field-set table and normalization, independent of any file format. */
#include "rs_normalize.h"
#include "unit.h"

static const struct rs_kevent *ke_of(const char *name)
{
	return rs_kevent_get(rs_kevent_find("vmscan", name));
}

/* slot index whose names include `name`, or -1 */
static int slot_of(const struct rs_kevent *ke, const char *name)
{
	for (int i = 0; i < ke->nr_slots; i++)
		if (rs_slot_name_matches(&ke->slots[i], name))
			return i;
	return -1;
}

static void set(struct rs_slotvals *v, const struct rs_kevent *ke, const char *name, uint64_t n)
{
	int i = slot_of(ke, name);

	if (i >= 0) {
		v->num[i] = n;
		v->present |= 1u << i;
	}
}

/* A field of a recorded event and its value; a list ends with a NULL name. */
struct fv {
	const char *name;
	uint64_t n;
};

/* The event the kernel's fields make: only the listed ones present. */
static void normalize_fields(const struct rs_kevent *ke, const struct fv *f, struct rs_event *ev)
{
	struct rs_slotvals v = { 0 };

	for (; f->name; f++)
		set(&v, ke, f->name, f->n);
	rs_normalize(ke, &v, ev);
}

UT_TEST(test_aliases, "normalize: slot aliases across eras")
{
	const struct rs_kevent *ke = ke_of("mm_vmscan_lru_isolate");

	UT_ASSERT(ke);
	/* 4.8-5.7 classzone_idx, 5.8+ highest_zoneidx, print format "classzone" */
	UT_ASSERT(slot_of(ke, "classzone_idx") >= 0);
	UT_ASSERT_EQ(slot_of(ke, "highest_zoneidx"), slot_of(ke, "classzone"));
	UT_ASSERT_EQ(slot_of(ke, "nr_scan"), -1);	/* no prefix matching */
	ke = ke_of("mm_vmscan_lru_shrink_inactive");
	UT_ASSERT_EQ(slot_of(ke, "nr_activate0"), slot_of(ke, "nr_activate_anon"));
	UT_ASSERT_EQ(slot_of(ke, "reclaim_flags"), slot_of(ke, "flags"));
	UT_ASSERT(rs_kevent_find(NULL, "count_memcg_events") >= 0);
	UT_ASSERT(rs_kevent_find("vmscan", "count_memcg_events") < 0);
	UT_ASSERT(rs_kevent_find(NULL, "mm_vmscan_writepage") >= 0);	/* pre-6.x name */
	return UT_OK;
}

UT_TEST(test_required, "normalize: required fields")
{
	const struct rs_kevent *ke = ke_of("mm_vmscan_lru_isolate");
	struct rs_slotvals v = { 0 };

	set(&v, ke, "nr_taken", 1);
	UT_ASSERT_STR(rs_kevent_missing(ke, v.present), "nr_scanned");
	set(&v, ke, "nr_scanned", 1);
	UT_ASSERT(rs_kevent_missing(ke, v.present) == NULL);
	return UT_OK;
}

UT_TEST(test_isolate_eras, "normalize: lru_isolate 3.5-4.10 and 6.7+")
{
	/* 6.7+: lru, no isolate_mode, no nid */
	static const struct fv v67[] = {
		{ "nr_scanned", 40 }, { "nr_taken", 32 }, { "lru", 2 }, { "highest_zoneidx", 3 },
		{ NULL, 0 }
	};
	/* 3.5-4.10: file + isolate_mode, list unknown until the next event */
	static const struct fv v35[] = {
		{ "nr_scanned", 32 }, { "nr_taken", 31 }, { "file", 1 }, { "isolate_mode", 0 },
		{ NULL, 0 }
	};
	/* a list number past the kernel's enum is unknown, never an index */
	static const struct fv v35_lru99[] = {
		{ "nr_scanned", 32 }, { "nr_taken", 31 }, { "file", 1 }, { "isolate_mode", 0 },
		{ "lru", 99 }, { NULL, 0 }
	};
	const struct rs_kevent *ke = ke_of("mm_vmscan_lru_isolate");
	struct rs_event ev;

	normalize_fields(ke, v67, &ev);
	UT_ASSERT_EQ(ev.type, RS_EV_LRU_ISOLATE);
	UT_ASSERT_EQ(ev.isolate.lru, RS_LRU_INACTIVE_FILE);
	UT_ASSERT_EQ(ev.isolate.nr_scanned, 40);
	UT_ASSERT_EQ(ev.isolate.zid, 3);
	UT_ASSERT_EQ(ev.isolate.nid, -1);
	UT_ASSERT(ev.have & RS_HAVE_LRU);
	UT_ASSERT(!(ev.have & (RS_HAVE_NID | RS_HAVE_FILE | RS_HAVE_ISOLATE_MODE)));

	normalize_fields(ke, v35, &ev);
	UT_ASSERT_EQ(ev.isolate.lru, -1);
	UT_ASSERT_EQ(ev.isolate.file, 1);
	UT_ASSERT(ev.have & RS_HAVE_FILE);

	normalize_fields(ke, v35_lru99, &ev);
	UT_ASSERT_EQ(ev.isolate.lru, -1);
	UT_ASSERT(!(ev.have & RS_HAVE_LRU));
	return UT_OK;
}

UT_TEST(test_activate_eras, "normalize: nr_activate single and split")
{
	/* 4.11-5.1: one nr_activate of the list type the flags name */
	static const struct fv v411[] = {
		{ "nr_scanned", 32 }, { "nr_reclaimed", 20 }, { "nr_activate", 5 },
		{ "reclaim_flags", RS_RECLAIM_WB_FILE | RS_RECLAIM_WB_ASYNC }, { NULL, 0 }
	};
	/* 5.2+: split counts */
	static const struct fv v52[] = {
		{ "nr_scanned", 32 }, { "nr_reclaimed", 20 }, { "nr_activate0", 3 },
		{ "nr_activate1", 4 }, { "priority", 12 }, { NULL, 0 }
	};
	const struct rs_kevent *ke = ke_of("mm_vmscan_lru_shrink_inactive");
	struct rs_event ev;

	normalize_fields(ke, v411, &ev);
	UT_ASSERT_EQ(ev.inactive.nr_activate_file, 5);
	UT_ASSERT_EQ(ev.inactive.nr_activate_anon, 0);
	UT_ASSERT(!(ev.have & RS_HAVE_ACTIVATE_SPLIT));

	normalize_fields(ke, v52, &ev);
	UT_ASSERT_EQ(ev.inactive.nr_activate_anon, 3);
	UT_ASSERT_EQ(ev.inactive.nr_activate_file, 4);
	UT_ASSERT_EQ(ev.inactive.priority, 12);
	UT_ASSERT(ev.have & RS_HAVE_ACTIVATE_SPLIT);
	UT_ASSERT(ev.have & RS_HAVE_PRIORITY);
	UT_ASSERT(!(ev.have & RS_HAVE_NID));
	return UT_OK;
}

UT_TEST(test_memcg_sign, "normalize: memcg deltas are signed")
{
	const struct rs_kevent *ke = rs_kevent_get(rs_kevent_find("memcg",
								   "mod_memcg_lruvec_state"));
	struct rs_slotvals v = { 0 };
	struct rs_event ev;

	UT_ASSERT(ke);
	v.present = 7;
	v.num[0] = 5777;
	v.num[1] = 2;
	v.num[2] = (uint64_t)(int64_t)-32;	/* int field read sign-extended */
	rs_normalize(ke, &v, &ev);
	UT_ASSERT_EQ(ev.memcg.val, -32);
	v.num[2] = 0xffffffe0u;			/* same value read zero-extended */
	rs_normalize(ke, &v, &ev);
	UT_ASSERT_EQ(ev.memcg.val, -32);
	UT_ASSERT_EQ(ev.memcg.id, 5777);
	return UT_OK;
}
