// SPDX-License-Identifier: GPL-2.0
/*
 * models/: hand-computed scenarios per policy. Every expected number is derived in the comment
 * above its check from the kernel code the model stands for (see each model's opening comment).
 * Worlds are built by hand: one node unless said, values set at ts 0 and never changed, so every
 * invocation sees the same lists (open-loop) and only the policy's own state evolves.
 */
#include <stdlib.h>
#include <string.h>

#include "../../models/policy.h"
#include "replay_identity.h"
#include "unit.h"

/* ---- world builder ---- */

struct tw {
	struct rs_world *w;
	struct rs_error err;
	uint64_t next_ts;
	struct rs_replay_result *r;	/* tw_run()'s last, freed by tw_free() unless handed on */
};

static int tw_new_opts(struct tw *t, const struct rs_world_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->next_ts = 1000;
	t->w = rs_world_new(o, &t->err);
	if (!t->w)
		return -1;
	return rs_world_add_memcg(t->w, &(struct rs_memcg_desc){ .path = "/", .parent = -1 },
				  &t->err);
}

static int tw_new(struct tw *t, int nodes, bool v1, int swappiness)
{
	struct rs_world_opts o = { .nr_nodes = nodes, .vm_swappiness = swappiness,
				   .cgroup_v1 = v1 };

	return tw_new_opts(t, &o);
}

static int tw_cg(struct tw *t, int parent, const char *path)
{
	return rs_world_add_memcg(t->w, &(struct rs_memcg_desc){ .id = 100 + (uint64_t)parent,
				  .path = path, .parent = parent }, &t->err);
}

static void tw_set(struct tw *t, int field, int memcg, int nid, int lru, int64_t v)
{
	struct rs_world_update u = {
		.ts = 0, .field = (uint8_t)field, .op = RS_WOP_SET, .src = RS_WSRC_SYNTH,
		.lru = (uint8_t)lru, .memcg = memcg, .nid = nid, .value = v,
	};

	if (rs_world_add_update(t->w, &u, &t->err))
		fprintf(stderr, "  tw_set: %s\n", t->err.msg);
}

static void tw_lists(struct tw *t, int memcg, int nid, int64_t ia, int64_t aa, int64_t inf,
		     int64_t af)
{
	tw_set(t, RS_WF_LRU, memcg, nid, RS_LRU_INACTIVE_ANON, ia);
	tw_set(t, RS_WF_LRU, memcg, nid, RS_LRU_ACTIVE_ANON, aa);
	tw_set(t, RS_WF_LRU, memcg, nid, RS_LRU_INACTIVE_FILE, inf);
	tw_set(t, RS_WF_LRU, memcg, nid, RS_LRU_ACTIVE_FILE, af);
}

static void tw_usage(struct tw *t, int memcg, int64_t usage, int64_t soft)
{
	tw_set(t, RS_WF_USAGE, memcg, -1, 0, usage);
	tw_set(t, RS_WF_SOFT_LIMIT, memcg, -1, 0, soft);
}

static void tw_node(struct tw *t, int nid, int64_t free, int64_t high)
{
	tw_set(t, RS_WF_NODE_FREE, -1, nid, 0, free);
	tw_set(t, RS_WF_NODE_WMARK_HIGH, -1, nid, 0, high);
}

/* An inactive list's observed reclaimability: reclaimed and activated out of scanned. */
static void tw_rate(struct tw *t, int memcg, int nid, int lru, uint64_t scanned,
		    uint64_t reclaimed, uint64_t activated)
{
	struct rs_obs o = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .memcg = memcg, .nid = nid,
			    .lru = lru, .pages = { .scanned = scanned, .reclaimed = reclaimed,
						  .activated = activated } };

	if (rs_world_add_obs(t->w, &o, &t->err))
		fprintf(stderr, "  tw_rate: %s\n", t->err.msg);
}

static void tw_call(struct tw *t, enum rs_call_ctx ctx, int nid, int target, uint64_t nr)
{
	struct rs_reclaim_call c = {
		.ts = t->next_ts, .ts_end = t->next_ts + 10, .ctx = ctx, .nid = nid,
		.target = target, .may_swap = true, .nr_to_reclaim = nr,
	};

	t->next_ts += 1000;
	if (rs_world_add_call(t->w, &c, &t->err))
		fprintf(stderr, "  tw_call: %s\n", t->err.msg);
}

/* Replay one policy on the finalized world, keeping every call's outcome (as t->r). */
static struct rs_replay_result *tw_run(struct tw *t, const char *policy)
{
	const struct rs_policy_ops *ops = rs_policy_find(policy);
	struct rs_replay_opts o = { .keep_calls = true };

	rs_replay_results_free(t->r, 1);
	t->r = NULL;
	if (!ops)
		return NULL;
	if (rs_replay_run(t->w, &ops, 1, &o, &t->r, &t->err)) {
		fprintf(stderr, "  %s: %s\n", policy, t->err.msg);
		return NULL;
	}
	return t->r;
}

static int tw_final(struct tw *t)
{
	if (rs_world_finalize(t->w, &t->err)) {
		fprintf(stderr, "  finalize: %s\n", t->err.msg);
		return -1;
	}
	return 0;
}

/* Finalize the world and replay one policy: NULL when either fails. */
static struct rs_replay_result *tw_replay(struct tw *t, const char *policy)
{
	return tw_final(t) ? NULL : tw_run(t, policy);
}

/*
 * Adds call c (NULL: none), finalizes and replays mainline, then frees the world: the replay,
 * which is the caller's to free; NULL when a step fails.
 */
static struct rs_replay_result *tw_mainline(struct tw *t, const struct rs_reclaim_call *c)
{
	struct rs_replay_result *r = NULL;

	if (!c || rs_world_add_call(t->w, c, &t->err) == 0)
		r = tw_replay(t, "mainline");
	rs_world_free(t->w);
	t->w = NULL;
	t->r = NULL;	/* handed on: tw_free() leaves it alone */
	return r;
}

/* The inactive file pages a replay scanned and reclaimed, and the lowest priority it reached. */
#define ASSERT_FILE(r, sc, rc, prio) do { \
	UT_ASSERT_EQ((r)->acct.scanned[RS_LRU_INACTIVE_FILE], sc); \
	UT_ASSERT_EQ((r)->acct.reclaimed[RS_LRU_INACTIVE_FILE], rc); \
	UT_ASSERT_EQ((r)->prio_lowest, prio); \
} while (0)

/* One limit call of memcg m wanting nr pages, replayed with mainline on the finalized world. */
static struct rs_replay_result *tw_limit_mainline(struct tw *t, int m, uint64_t nr)
{
	tw_call(t, RS_CALL_MEMCG, -1, m, nr);
	return tw_replay(t, "mainline");
}

/* Frees the world and the last replay, and empties t: it may be built again, or freed twice. */
static void tw_free(struct tw *t)
{
	rs_replay_results_free(t->r, 1);
	rs_world_free(t->w);
	memset(t, 0, sizeof(*t));
}

/* A test of a world t, built by the test (tw_new() and the like) and freed after it. */
#define TW_TEST(fn, desc) UT_TEST_OWN(fn, desc, struct tw, t, tw_free)

/* ---- split LRU: the +1 ---- */

/*
 * One node, root memcg only, swap on, vm_swappiness 0, free 100000 and high watermark 1000
 * (so file + free > pages_high). Lists: IA 2000, AA 0, IF 163840, AF 0; IA and IF reclaim every
 * page they scan (observed 100 of 100). 32 direct reclaim calls of 32 pages.
 *
 * get_scan_ratio at every call: recent_scanned/rotated anon {0, 0} -> ap = (0+1)*(0+1)/(0+1) = 1;
 * file: fp = (200-0+1)*(rs1+1)/(0+1) >= 201 -> pct[0] = 100*1/(1+fp+1) = 0, pct[1] = 100.
 * (rs1 reaches 32 x 41 = 1312 < file/4 = 40960: no halving.)
 * Priority 12: IA (2000 >> 12) * 0 / 100 = 0; IF (163840 >> 12) * 100 / 100 = 40; AA, AF 0.
 *
 * splitlru (plus 0): nr_scan IF += 40 -> 40 >= 32 -> scan 40 (32 + 8), reclaimed 40 >= 32: the
 *   call stops at priority 12. IA, AA, AF accumulate 0 forever: never scanned.
 *   32 calls: IF 32 x 40 = 1280 scanned and reclaimed, anon 0, swapped 0.
 * splitlru-plus1: IF += 40 + 1 = 41 -> scan 41 per call. IA, AA, AF += 1 per call and reach 32
 *   at call 32: IA scans 32 inactive anon; AA's batch of 32 falls through to the inactive anon
 *   list because inactive anon is not low (1968 x ratio < 0 is false), scanning 32 more; AF's
 *   32 find an empty list. Call 32: IA 64 scanned, 64 reclaimed = 64 swapped out.
 *   32 calls: IF 32 x 41 = 1312, IA 64 (all in the 32nd call), swapped 64.
 */
static int build_plus1_world_swap(struct tw *t, int64_t swap_free)
{
	if (tw_new(t, 1, false, 0) < 0)
		return -1;
	tw_lists(t, 0, 0, 2000, 0, 163840, 0);
	tw_node(t, 0, 100000, 1000);
	tw_set(t, RS_WF_SWAP_FREE, -1, -1, 0, swap_free);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_ANON, 100, 100, 0);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_FILE, 100, 100, 0);
	for (int i = 0; i < 32; i++)
		tw_call(t, RS_CALL_DIRECT, 0, -1, 32);
	return tw_final(t);
}

static int build_plus1_world(struct tw *t)
{
	return build_plus1_world_swap(t, 100000);
}

/*
 * build_plus1_world() replayed with policy (t->r): inactive file scanned and reclaimed
 * inf_scanned, inactive anon ia scanned and as many swapped out, the active lists never.
 */
static int plus1_check(struct tw *t, const char *policy, long long inf_scanned, long long ia)
{
	struct rs_replay_result *r;

	UT_ASSERT(build_plus1_world(t) == 0);
	r = tw_run(t, policy);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], inf_scanned);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_FILE], inf_scanned);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], ia);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_ACTIVE_ANON], 0);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_ACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->acct.swapped_out, ia);
	return UT_OK;
}

TW_TEST(test_splitlru_plus1_crosses, "models/splitlru-plus1: zero-scan list crosses 32 at call 32")
{
	struct rs_replay_result *r;

	UT_ASSERT_EQ(plus1_check(t, "splitlru-plus1", 32 * 41, 64), UT_OK);
	r = t->r;
	/* nothing before the 32nd call, everything in it */
	UT_ASSERT_EQ(r->nr_calls_kept, 32);
	for (int i = 0; i < 31; i++)
		UT_ASSERT_EQ(r->call[i].acct.scanned[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(r->call[31].acct.scanned[RS_LRU_INACTIVE_ANON], 64);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_INACTIVE_FILE], 41);
	/* every call stopped at priority 12, one pass each */
	UT_ASSERT_EQ(r->prio_lowest, 12);
	UT_ASSERT_EQ(r->rounds, 32);
	return UT_OK;
}

TW_TEST(test_splitlru_never_scans_zero_list, "models/splitlru: zero-scan list never scanned")
{
	UT_ASSERT_EQ(plus1_check(t, "splitlru", 32 * 40, 0), UT_OK);
	for (int i = 0; i < 32; i++)
		UT_ASSERT_EQ(t->r->call[i].acct.scanned[RS_LRU_INACTIVE_FILE], 40);
	return UT_OK;
}

/*
 * build_plus1_world() with no swap space (swap_free 0, as the recorder's `swap total=0 free=0`
 * says on a machine without a swap device): get_scan_ratio() gives {0, 100}, as swappiness 0
 * did, so the +1 still brings IA to 32 at call 32: 64 inactive anon pages scanned. But
 * shrink_page_list() cannot add_to_swap() them and takes each to activate_locked: 0 reclaimed,
 * 0 swapped out, 64 moved to the active anon list, though the recording observed IA reclaiming
 * 100 of 100. The claims have nothing to extrapolate: the recording scanned 0 inactive anon
 * pages, the policy 64, all of them without swap.
 */
TW_TEST(test_splitlru_plus1_no_swap, "models/splitlru-plus1: anon scanned without swap frees nothing")
{
	struct rs_replay_result *r, rec = { 0 };
	struct rs_policy_claims pc;

	UT_ASSERT(build_plus1_world_swap(t, 0) == 0);
	r = tw_run(t, "splitlru-plus1");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 32 * 41);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_FILE], 32 * 41);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], 64);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(r->acct.swapped_out, 0);
	UT_ASSERT_EQ(r->acct.scanned_no_swap, 64);
	UT_ASSERT_EQ(r->memcg[0].swapped_out, 0);
	UT_ASSERT_EQ(r->memcg[0].reclaimed[RS_LRU_INACTIVE_ANON], 0);
	rs_policy_claims(&rec, r, 0, &pc);
	UT_ASSERT(!pc.reclaimed[RS_LRU_INACTIVE_ANON].extrapolated);
	UT_ASSERT(!pc.swapped.unknown);
	return UT_OK;
}

/* Both policies side by side in one run give the same numbers as alone. */
TW_TEST(test_replay_side_by_side, "models/replay: policies side by side")
{
	const struct rs_policy_ops *ops[2];
	struct rs_replay_result *r = NULL;

	UT_ASSERT(build_plus1_world(t) == 0);
	UT_ASSERT_EQ(rs_policy_parse("splitlru-plus1,splitlru", ops, 2, &t->err), 2);
	UT_ASSERT(rs_replay_run(t->w, ops, 2, NULL, &r, &t->err) == 0);
	UT_ASSERT_EQ(r[0].acct.scanned[RS_LRU_INACTIVE_ANON], 64);
	UT_ASSERT_EQ(r[1].acct.scanned[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(r[0].acct.scanned[RS_LRU_INACTIVE_FILE], 1312);
	UT_ASSERT_EQ(r[1].acct.scanned[RS_LRU_INACTIVE_FILE], 1280);
	UT_ASSERT_EQ(r[0].memcg[0].swapped_out, 64);
	UT_ASSERT(r[0].call == NULL);
	rs_replay_results_free(r, 2);
	return UT_OK;
}

/*
 * 2.6.28 get_scan_ratio(), swappiness 60, anon 1000, file 3000, free 10000, pages_high 100:
 *  recent_scanned {100, 400}, recent_rotated {50, 100}: no halving (100 <= 1000/4, 400 <= 750);
 *   ap = 61 x 101 / 51 = 6161 / 51 = 120; fp = 141 x 401 / 101 = 56541 / 101 = 559;
 *   pct[0] = 100 x 120 / (120 + 559 + 1) = 12000 / 680 = 17; pct[1] = 83.
 *  recent_scanned[0] = 300 > 1000/4: halved to 150, rotated 50 -> 25:
 *   ap = 61 x 151 / 26 = 9211 / 26 = 354; pct[0] = 35400 / (354 + 559 + 1) = 35400 / 914 = 38.
 *  no swap: {0, 100}; file + free = 3000 + 100 <= 3100: {100, 0}.
 */
UT_TEST(test_get_scan_ratio, "models/splitlru: get_scan_ratio and halving")
{
	struct rs_reclaim_stat rs = { { 100, 400 }, { 50, 100 } };
	uint64_t pct[2];

	rs_splitlru_scan_ratio(&rs, 1000, 3000, 10000, 100, true, 60, pct);
	UT_ASSERT_EQ(pct[0], 17);
	UT_ASSERT_EQ(pct[1], 83);
	UT_ASSERT_EQ(rs.recent_scanned[0], 100);

	rs = (struct rs_reclaim_stat){ { 300, 400 }, { 50, 100 } };
	rs_splitlru_scan_ratio(&rs, 1000, 3000, 10000, 100, true, 60, pct);
	UT_ASSERT_EQ(rs.recent_scanned[0], 150);
	UT_ASSERT_EQ(rs.recent_rotated[0], 25);
	UT_ASSERT_EQ(rs.recent_scanned[1], 400);
	UT_ASSERT_EQ(pct[0], 38);
	UT_ASSERT_EQ(pct[1], 62);

	rs_splitlru_scan_ratio(&rs, 1000, 3000, 10000, 100, false, 60, pct);
	UT_ASSERT_EQ(pct[0], 0);
	UT_ASSERT_EQ(pct[1], 100);
	rs_splitlru_scan_ratio(&rs, 1000, 3000, 100, 3100, true, 60, pct);
	UT_ASSERT_EQ(pct[0], 100);
	UT_ASSERT_EQ(pct[1], 0);
	return UT_OK;
}

/* ---- mainline get_scan_count ---- */

/*
 * Lists IA 4000, AA 8000, IF 12000, AF 2000 at priority 2 (>> 2: 1000, 2000, 3000, 500),
 * swappiness 60, anon_cost 100, file_cost 300:
 *  total = 400; anon = 400 + 100 = 500; file = 400 + 300 = 700; total = 1200;
 *  ap = 60 x 1201 / 501 = 72060 / 501 = 143; fp = 140 x 1201 / 701 = 168140 / 701 = 239;
 *  denominator 382: IA 1000 x 143 / 382 = 374; AA 2000 x 143 / 382 = 748;
 *  IF 3000 x 239 / 382 = 1876; AF 500 x 239 / 382 = 312.
 * Global reclaim at swappiness 0: ap = 0, fp = 200 x 1201 / 701 = 342: IA 0, AA 0, IF 3000,
 * AF 500 (FRACT, all file). Offline memcg at priority 12: >> 12 gives IA 0, AA 1, IF 2, AF 0;
 * zeros become min(size, 32) = 32; FRACT rounds up: IA 32 x 143 / 382 = 11.98 -> 12,
 * AA 1 x 143 / 382 -> 1, IF 2 x 239 / 382 = 1.25 -> 2, AF 32 x 239 / 382 = 20.02 -> 21.
 * The same online: IA 0, AA 0, IF 478 / 382 = 1, AF 0.
 */
UT_TEST(test_mainline_scan_count, "models/mainline: get_scan_count balances")
{
	struct rs_gsc_in in = {
		.size = { 4000, 8000, 12000, 2000 }, .priority = 2, .swappiness = 60,
		.may_swap = true, .swap_ok = true, .online = true,
		.anon_cost = 100, .file_cost = 300,
	};
	uint64_t nr[4];

	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FRACT);
	UT_ASSERT_EQ(nr[0], 374);
	UT_ASSERT_EQ(nr[1], 748);
	UT_ASSERT_EQ(nr[2], 1876);
	UT_ASSERT_EQ(nr[3], 312);

	/* no swap: file only, whole (size >> priority) */
	in.swap_ok = false;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FILE);
	UT_ASSERT(nr[0] == 0 && nr[1] == 0 && nr[2] == 3000 && nr[3] == 500);
	in.swap_ok = true;
	in.may_swap = false;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FILE);
	in.may_swap = true;

	/* memcg reclaim with swappiness 0: file only */
	in.cgroup_reclaim = true;
	in.swappiness = 0;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FILE);
	UT_ASSERT(nr[0] == 0 && nr[1] == 0 && nr[2] == 3000 && nr[3] == 500);
	/* global reclaim with swappiness 0 still goes through FRACT */
	in.cgroup_reclaim = false;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FRACT);
	UT_ASSERT(nr[0] == 0 && nr[1] == 0 && nr[2] == 3000 && nr[3] == 500);
	in.swappiness = 60;

	/* priority 0 with swappiness: EQUAL, whole lists */
	in.priority = 0;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_EQUAL);
	UT_ASSERT(nr[0] == 4000 && nr[1] == 8000 && nr[2] == 12000 && nr[3] == 2000);
	in.priority = 2;

	/* cache_trim_mode: file only; file_is_tiny (checked first): anon only */
	in.cache_trim_mode = true;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FILE);
	in.file_is_tiny = true;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_ANON);
	UT_ASSERT(nr[0] == 1000 && nr[1] == 2000 && nr[2] == 0 && nr[3] == 0);
	in.cache_trim_mode = in.file_is_tiny = false;

	/* offline memcg: at least 32 per list, rounded up */
	in.priority = 12;
	in.online = false;
	UT_ASSERT_EQ(rs_mainline_scan_count(&in, nr), RS_SCAN_FRACT);
	UT_ASSERT(nr[0] == 12 && nr[1] == 1 && nr[2] == 2 && nr[3] == 21);
	in.online = true;
	rs_mainline_scan_count(&in, nr);
	UT_ASSERT(nr[0] == 0 && nr[1] == 0 && nr[2] == 1 && nr[3] == 0);
	return UT_OK;
}

/* inactive_is_low(): ratio 1 below 1 GB; 2,000,000 pages = 7 GB -> int_sqrt(70) = 8. */
UT_TEST(test_inactive_is_low, "models/mainline: inactive_is_low")
{
	UT_ASSERT(rs_inactive_is_low(100, 300));
	UT_ASSERT(!rs_inactive_is_low(300, 300));
	UT_ASSERT_EQ(rs_int_sqrt(70), 8);
	UT_ASSERT(!rs_inactive_is_low(1000000, 1000000));	/* 8e6 < 1e6: no */
	UT_ASSERT(rs_inactive_is_low(100000, 1900000));		/* 800000 < 1.9e6 */
	return UT_OK;
}

/*
 * mainline direct reclaim, root only, no swap, IF 131072 reclaiming everything, free 100000,
 * high 100: prepare_scan_control: inactive file 131072 is not low against active 0 and no
 * refaults -> no DEACTIVATE_FILE; 131072 >> 12 = 32 -> cache_trim_mode; SCAN_FILE: IF 32.
 * Global direct at DEF_PRIORITY scans the whole batch: 32 scanned, 32 reclaimed, done at 12.
 */
TW_TEST(test_mainline_direct, "models/mainline: direct reclaim in cache_trim_mode")
{
	struct rs_replay_result *r;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_lists(t, 0, 0, 0, 0, 131072, 0);
	tw_node(t, 0, 100000, 100);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	tw_call(t, RS_CALL_DIRECT, 0, -1, 32);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	ASSERT_FILE(r, 32, 32, 12);
	UT_ASSERT_EQ(r->rounds, 1);
	UT_ASSERT_EQ(r->reclaimed_by_src[RS_RATE_WINDOW], 32);
	return UT_OK;
}

/*
 * should_continue_reclaim(): direct reclaim for a costly order goes round again at the same
 * priority until compaction is ready, which the call's compact_goal stands for (where the
 * recorded call stopped). Root only, no swap, IF 122880 reclaiming everything, 32 wanted,
 * goal 100:
 *  order 9: prio 12 round 1: 122880 >> 12 = 30 (< 32, but the round freed pages, 30 < 100 and
 *    the inactive list holds more than compact_gap = 1024): again; 122850 >> 12 = 29 -> 59;
 *    122821 >> 12 = 29 -> 88; 122792 >> 12 = 29 -> 117 >= 100: stop. 117 >= 32: done at 12,
 *    one shrink pass (rounds count priorities).
 *  order 0 (no reclaim/compaction), or order 9 with goal 0: 30 at 12; at 11 122850 >> 11 = 59,
 *    a batch of 32 reaches 32 and the cut (no anon) stops: 62, lowest priority 11.
 */
static struct rs_replay_result *compact_run(int order, uint64_t goal)
{
	struct rs_reclaim_call c = {
		.ts = 1000, .ts_end = 1010, .ctx = RS_CALL_DIRECT, .nid = 0, .target = -1,
		.order = order, .may_swap = true, .nr_to_reclaim = 32, .compact_goal = goal,
	};
	struct tw t;

	if (tw_new(&t, 1, false, 60) < 0)
		return NULL;
	tw_lists(&t, 0, 0, 0, 0, 122880, 0);
	tw_node(&t, 0, 100000, 100);
	tw_rate(&t, 0, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	return tw_mainline(&t, &c);
}

UT_TEST(test_mainline_compact_rounds, "models/mainline: costly-order rounds until compaction")
{
	struct rs_replay_result *r;

	r = compact_run(9, 100);
	UT_ASSERT(r);
	ASSERT_FILE(r, 117, 117, 12);
	UT_ASSERT_EQ(r->rounds, 1);
	rs_replay_results_free(r, 1);

	r = compact_run(0, 100);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 62);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	rs_replay_results_free(r, 1);

	r = compact_run(9, 0);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 62);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/*
 * should_continue_reclaim() compares the inactive lists with the recorded kernel's
 * compact_gap(): "return inactive_lru_pages > pages_for_compaction", pages_for_compaction =
 * compact_gap(sc->order) = 2UL << 9 = 1,024 on 6.x, min(1,024, COMPACT_CLUSTER_MAX) = 32 on 7.2.
 * Root only, no swap (SCAN_FILE), IF 1,000 reclaiming everything, one direct call of order 9
 * wanting 32, compaction not ready until 40 pages (compact_goal). Priorities 12..10 ask
 * 1,000 >> p = 0 pages: a round that frees nothing is not repeated.
 *  7.2 (capped): prio 9 asks 1,000 >> 9 = 1, frees it; 999 > 32: again, 999 >> 9 = 1; ... each
 *    round frees 1 and the list stays above 32 (960 at the end), until 40 >= compact_goal;
 *    40 >= 32 wanted: done at priority 9. 40 scanned and reclaimed.
 *  6.x (uncapped): prio 9 frees 1, 999 <= 1,024: no second round. Prio 8: 999 >> 8 = 3 (4);
 *    7: 996 >> 7 = 7 (11); 6: 989 >> 6 = 15 (26); 5: 974 >> 5 = 30 (56 >= 32): done at 5,
 *    56 scanned and reclaimed.
 */
static struct rs_replay_result *gap_run(bool uncapped)
{
	struct rs_world_opts o = { .nr_nodes = 1, .vm_swappiness = 60,
				   .compact_gap_uncapped = uncapped };
	struct rs_reclaim_call c = {
		.ts = 1000, .ts_end = 1010, .ctx = RS_CALL_DIRECT, .nid = 0, .target = -1,
		.order = 9, .may_swap = true, .nr_to_reclaim = 32, .compact_goal = 40,
	};
	struct tw t;

	if (tw_new_opts(&t, &o) < 0)
		return NULL;
	tw_lists(&t, 0, 0, 0, 0, 1000, 0);
	tw_node(&t, 0, 100000, 100);
	tw_rate(&t, 0, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	return tw_mainline(&t, &c);
}

/*
 * kswapd_shrink_node() drops the run's order once it reclaimed compact_gap(order) pages:
 * "if (sc->order && sc->nr_reclaimed >= compact_gap(sc->order)) sc->order = 0;", and
 * balance_pgdat()'s memcg1_soft_limit_reclaim(pgdat, sc.order, ...) reclaims nothing at an
 * order above 0. cgroup v1, no swap, root with /A: usage 2,000 over a soft limit of 1,000,
 * IF 409,600 reclaiming everything; high watermark 1,000 (every pass asks 1,000 and scans
 * less: the priority drops each pass); one order-9 kswapd run that must free 300.
 *  7.2 (capped): prio 12: soft reclaim 0 (order 9); A 409,600 >> 12 = 100, 100 >= 32: order 0.
 *    prio 11: soft reclaim of A, excess 2,000 - 100 - 1,000 = 900: walks of one 32-page batch
 *    at priority 0 until 900 >> 2 = 225 (8 walks: 256); then A 409,244 >> 11 = 199. 555 >= 300
 *    ends the run at the top of priority 10: A 555 scanned, 256 of them soft.
 *  6.x (uncapped): the order stays 9 (698 < 2 << 9 = 1,024 at the end): no soft reclaim;
 *    100, 409,500 >> 11 = 199 (299 < 300), 409,301 >> 10 = 399: A 698, lowest priority 10.
 */
static struct rs_replay_result *gap_kswapd_run(bool uncapped)
{
	struct rs_world_opts o = { .nr_nodes = 1, .vm_swappiness = 60, .cgroup_v1 = true,
				   .compact_gap_uncapped = uncapped };
	struct rs_reclaim_call c = {
		.ts = 1000, .ts_end = 1010, .ctx = RS_CALL_KSWAPD, .nid = 0, .target = -1,
		.order = 9, .may_swap = true, .nr_to_reclaim = 300,
	};
	struct tw t;
	int a;

	if (tw_new_opts(&t, &o) < 0)
		return NULL;
	a = tw_cg(&t, 0, "/A");
	tw_usage(&t, 0, 2000, (int64_t)RS_UNLIMITED);
	tw_usage(&t, a, 2000, 1000);
	tw_lists(&t, a, 0, 0, 0, 409600, 0);
	tw_node(&t, 0, 500, 1000);
	tw_rate(&t, a, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	return tw_mainline(&t, &c);
}

UT_TEST(test_mainline_compact_gap, "models/mainline: the rounds stop at the kernel's compact_gap()")
{
	/* kswapd's run, capped and not: /A's pages scanned, its soft limit pass, the priority */
	static const struct {
		bool uncapped;
		long long scanned, soft_reclaimed, prio_lowest;
	} ks[] = { { false, 555, 256, 11 }, { true, 698, 0, 10 } };
	struct rs_replay_result *r;

	r = gap_run(false);
	UT_ASSERT(r);
	ASSERT_FILE(r, 40, 40, 9);
	rs_replay_results_free(r, 1);

	r = gap_run(true);
	UT_ASSERT(r);
	ASSERT_FILE(r, 56, 56, 5);
	rs_replay_results_free(r, 1);

	for (int i = 0; i < 2; i++) {
		r = gap_kswapd_run(ks[i].uncapped);
		UT_ASSERT(r);
		UT_ASSERT_EQ(r->memcg[1].scanned[RS_LRU_INACTIVE_FILE], ks[i].scanned);
		UT_ASSERT_EQ(r->memcg[1].soft_reclaimed, ks[i].soft_reclaimed);
		UT_ASSERT_EQ(r->prio_lowest, ks[i].prio_lowest);
		rs_replay_results_free(r, 1);
	}
	return UT_OK;
}

/*
 * mainline limit reclaim of A with children A1, A2, each IF 41000 (>> 12 = 10; after 10 are
 * taken 40990 >> 11 = 20: the invocation's own scans shrink its working copy), no swap,
 * everything reclaimable, 32 wanted, two calls. The walk is partial and resumes where the
 * previous one stopped (one shared iterator per root and node):
 *  call 1, prio 12: A 10, A1 10, A2 10 = 30 < 32, end of walk;
 *          prio 11: restart at A: 20 -> 50 >= 32, stop at A.
 *  call 2, prio 12: resume after A: A1 10, A2 10 = 20, end;
 *          prio 11: A 20 -> 40, stop.
 *  Totals: A 10 + 20 + 20 = 50, A1 20, A2 20; lowest priority 11.
 */
TW_TEST(test_mainline_memcg_walk, "models/mainline: partial memcg walks resume")
{
	struct rs_replay_result *r;
	int a, a1, a2;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	a = tw_cg(t, 0, "/A");
	a1 = tw_cg(t, a, "/A/1");
	a2 = tw_cg(t, a, "/A/2");
	UT_ASSERT(a == 1 && a1 == 2 && a2 == 3);
	for (int m = a; m <= a2; m++) {
		tw_lists(t, m, 0, 0, 0, 41000, 0);
		tw_rate(t, m, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	}
	tw_node(t, 0, 100000, 100);
	tw_call(t, RS_CALL_MEMCG, -1, a, 32);
	tw_call(t, RS_CALL_MEMCG, -1, a, 32);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->memcg[a].scanned[RS_LRU_INACTIVE_FILE], 50);
	UT_ASSERT_EQ(r->memcg[a1].scanned[RS_LRU_INACTIVE_FILE], 20);
	UT_ASSERT_EQ(r->memcg[a2].scanned[RS_LRU_INACTIVE_FILE], 20);
	UT_ASSERT_EQ(r->call[0].acct.reclaimed[RS_LRU_INACTIVE_FILE], 50);
	UT_ASSERT_EQ(r->call[1].acct.reclaimed[RS_LRU_INACTIVE_FILE], 40);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	return UT_OK;
}

/*
 * Two memcg calls of /A, 32 wanted each, on one list: IF 64 pages that reclaim every page
 * scanned (no swap: SCAN_FILE; no active pages). Alone, a call scans size >> priority per pass
 * from priority 12 (nothing until 6) and the open-loop world gives the next call the 64 pages
 * again:
 *   p6: 64 >> 6 = 1 (63 left, 1 freed); p5: 63 >> 5 = 1 (62, 2); p4: 62 >> 4 = 3 (59, 5);
 *   p3: 59 >> 3 = 7 (52, 12); p2: 52 >> 2 = 13 (39, 25); p1: 39 >> 1 = 19 (20, 44 >= 32).
 *   44 pages each.
 * Overlapping (call 2 begins at 1001 while call 1, begun at 1000, has not isolated yet; the
 * recorded isolations alternate, call 1's at 1002, 1004, ..., call 2's at 1003, 1005, ...),
 * they take turns on the one list. Each pass computes its targets from the list as it is when
 * the pass begins and isolates min(target, what is left) (isolate_lru_folios()):
 *   p6: both computed 64 >> 6 = 1 before either isolated: 1 (63) and 1 (62);
 *   p5: 63 >> 5 = 1 (61) and 62 >> 5 = 1 (60); p4: 61 >> 4 = 3 (57) and 60 >> 4 = 3 (54);
 *   p3: 57 >> 3 = 7 (47) and 54 >> 3 = 6 (41); p2: 47 >> 2 = 11 (30) and 41 >> 2 = 10 (20);
 *   p1: 30 >> 1 = 15 (5): call 1 has 1+1+3+7+11+15 = 38 >= 32 and ends; call 2 wanted
 *   20 >> 1 = 10 and finds 5 (0 left): 1+1+3+6+10+5 = 26; p0: 0 >> 0 = 0. 38 + 26 = 64, the
 *   whole list, where one after the other they scanned 88.
 */
static void tw_isolating_call(struct tw *t, int a, uint64_t ts, uint64_t first)
{
	uint64_t iso[20];
	struct rs_reclaim_call c = {
		.ts = ts, .ts_end = ts + 100, .ctx = RS_CALL_MEMCG, .nid = 0, .target = a,
		.may_swap = true, .nr_to_reclaim = 32,
		.rec = { .have = true, .isolate_ts = iso, .nr_isolate = 20 },
	};

	for (int i = 0; i < 20; i++)
		iso[i] = first + 2 * (uint64_t)i;
	if (rs_world_add_call(t->w, &c, &t->err))
		fprintf(stderr, "  tw_isolating_call: %s\n", t->err.msg);
}

/*
 * The world of calls that share one list: /A's 64 inactive file pages, each reclaimed when
 * scanned, on a node with free pages to spare. /A's index, or -1.
 */
static int list64_world(struct tw *t)
{
	int a;

	if (tw_new(t, 1, false, 60) < 0)
		return -1;
	a = tw_cg(t, 0, "/A");
	tw_lists(t, a, 0, 0, 0, 64, 0);
	tw_rate(t, a, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	tw_node(t, 0, 100000, 100);
	return a;
}

static struct rs_replay_result *overlap_run(bool overlap)
{
	struct tw t;
	int a;

	a = list64_world(&t);
	if (a < 0)
		return NULL;
	tw_isolating_call(&t, a, 1000, 1002);
	if (overlap)
		tw_isolating_call(&t, a, 1001, 1003);
	else
		tw_isolating_call(&t, a, 2000, 2002);
	return tw_mainline(&t, NULL);
}

UT_TEST(test_mainline_overlap, "models/replay: overlapping calls share the list they isolate from")
{
	struct rs_replay_result *r = overlap_run(true);

	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_INACTIVE_FILE], 38);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_INACTIVE_FILE], 26);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 64);
	UT_ASSERT_EQ(r->calls_short, 1);
	rs_replay_results_free(r, 1);
	r = overlap_run(false);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_INACTIVE_FILE], 44);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_INACTIVE_FILE], 44);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/*
 * mainline kswapd, root only, no swap, IF 409600 reclaiming everything, the run must free 300.
 * High watermark 1000: kswapd_shrink_node() asks max(1000, 32) = 1000 per pass; the lruvec never
 * reaches 1000, so no cut, and since scanned < 1000 the priority drops every pass:
 *  prio 12: 409600 >> 12 = 100; prio 11: 409500 >> 11 = 199 (299 < 300);
 *  prio 10: 409301 >> 10 = 399 -> 698; balanced at the top of the next pass.
 * High watermark 50: asks 50 per pass. At priority 12, IF 100: batch 32 (32 < 50), batch 32
 * (64 >= 50): the proportional cut (kswapd gets it too) finds no anon left and stops the lruvec
 * at 64. Scanned 64 >= 50: the priority stays 12. Each pass takes 64 (working IF shrinks by
 * 64, >> 12 stays 99): 64, 128, 192, 256, 320 >= 300 after 5 passes, all at priority 12.
 */
static int kswapd_run(uint64_t high, struct rs_replay_result **out)
{
	struct tw t;

	if (tw_new(&t, 1, false, 60) < 0)
		return -1;
	tw_lists(&t, 0, 0, 0, 0, 409600, 0);
	tw_node(&t, 0, 500, (int64_t)high);
	tw_rate(&t, 0, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	tw_call(&t, RS_CALL_KSWAPD, 0, -1, 300);
	if (tw_final(&t))
		return -1;
	*out = tw_run(&t, "mainline");
	rs_world_free(t.w);
	return *out ? 0 : -1;
}

UT_TEST(test_mainline_kswapd, "models/mainline: kswapd priority and proportional cut")
{
	struct rs_replay_result *r;

	UT_ASSERT(kswapd_run(1000, &r) == 0);
	ASSERT_FILE(r, 698, 698, 10);
	UT_ASSERT_EQ(r->rounds, 3);
	rs_replay_results_free(r, 1);

	UT_ASSERT(kswapd_run(50, &r) == 0);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_FILE], 320);
	UT_ASSERT_EQ(r->prio_lowest, 12);
	UT_ASSERT_EQ(r->rounds, 5);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/*
 * The anon aging of shrink_lruvec() and kswapd_age_node() is shrink_active_list(32) on active
 * anon, whose isolate_lru_folios() takes whole folios like every other: on a list of 512-page
 * THPs (the 7.2 memory.high trace: "nr_requested=32 nr_scanned=512 lru=active_anon") each
 * aging deactivates 512 pages, not 32.
 * One memcg (or the root, for kswapd), swap on, IA 1000, AA 4000 (inactive_is_low: under 1 GB
 * the ratio is 1, 1000 < 4000), IF 100000 reclaiming everything, AF 0; AA's window shows
 * 512-page folios, all deactivated. File is not low and IF >> 12 > 0: cache_trim_mode, so the
 * main loop scans IF only and the anon pages come from the aging alone.
 *  memcg call, 32 wanted: prio 12: IF 100000 >> 12 = 24 reclaimed, then aging 512;
 *    prio 11: IF 99976 >> 11 = 48, a batch of 32 reaches 32 (56 in the call), the cut finds no
 *    anon to scale and stops; aging 512. AA 1024, IF 56 (64 with 32-page agings).
 *  kswapd run wanting 50, high watermark 1000: prio 12: kswapd_age_node() 512, IF 409600 >> 12
 *    = 100 in four batches (under 1000: no cut), aging 512; 100 >= 50 ends the run. AA 1024,
 *    IF 100.
 */
static struct rs_replay_result *aging_run(bool kswapd)
{
	struct rs_obs aa = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .nid = 0,
			     .lru = RS_LRU_ACTIVE_ANON, .pages = { .taken = 512, .deactivated = 512 },
			     .folio = 512 };
	struct rs_replay_result *r = NULL;
	struct tw t;
	int m = 0;

	if (tw_new(&t, 1, false, 60) < 0)
		return NULL;
	if (!kswapd)
		m = tw_cg(&t, 0, "/A");
	tw_lists(&t, m, 0, 1000, 4000, kswapd ? 409600 : 100000, 0);
	tw_node(&t, 0, 500, 1000);
	tw_set(&t, RS_WF_SWAP_FREE, -1, -1, 0, 100000);
	tw_rate(&t, m, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	aa.memcg = m;
	if (rs_world_add_obs(t.w, &aa, &t.err) == 0) {
		if (kswapd)
			tw_call(&t, RS_CALL_KSWAPD, 0, -1, 50);
		else
			tw_call(&t, RS_CALL_MEMCG, -1, m, 32);
		if (tw_final(&t) == 0)
			r = tw_run(&t, "mainline");
	}
	rs_world_free(t.w);
	return r;
}

UT_TEST(test_mainline_aging_folios, "models/mainline: anon aging takes whole folios")
{
	struct rs_replay_result *r = aging_run(false);

	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_ACTIVE_ANON], 1024);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 56);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	rs_replay_results_free(r, 1);

	r = aging_run(true);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_ACTIVE_ANON], 1024);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 100);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], 0);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/*
 * A list that is not empty holds at least one whole folio. The lruvec deltas miss a few pages
 * (docs/replay.md: up to 26 inactive file pages between two snapshots on the 6.18 host), so
 * a list of 512-page folios can read 492 pages when a folio is on it; the kernel took the
 * folio (a2s-4 anon-2stream-small, the call at 735.115 s: "nr_requested=1 nr_scanned=512" at
 * priority 9, 512 reclaimed, done) where the model took 492, stayed 20 pages short of the
 * 512 wanted and went down to priority 0, whose SCAN_EQUAL scanned all 16,611 inactive anon
 * pages (+72.7% on the trace's inactive anon).
 * /A (cgroup v1), no swap (SCAN_FILE), IA 0, AA 0, IF 492, AF 0; IF's window shows 512-page
 * folios, all reclaimed. One memcg call wanting 512: priorities 12..9 ask 492 >> p = 0 pages;
 * priority 8 asks 1, which takes one whole folio: the list is raised to one folio (512), 512
 * taken and reclaimed, done at priority 8. Taking min(512, 492) instead reclaims 492 and the
 * call runs down to priority 0 on an empty list.
 */
/*
 * /A (cgroup v1) with inactive file pages only, inf of them, and o a window of that list (its
 * memcg set to /A), on a node with 500 pages free and high watermark 1000. 0, or -1.
 */
static int a_obs_world(struct tw *t, int swappiness, int64_t inf, struct rs_obs *o)
{
	if (tw_new(t, 1, true, swappiness) < 0)
		return -1;
	o->memcg = tw_cg(t, 0, "/A");
	if (o->memcg <= 0)
		return -1;
	tw_lists(t, o->memcg, 0, 0, 0, inf, 0);
	tw_node(t, 0, 500, 1000);
	return rs_world_add_obs(t->w, o, &t->err) ? -1 : 0;
}

TW_TEST(test_mainline_whole_folio, "models/mainline: a non-empty list holds a whole folio")
{
	struct rs_obs f = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .nid = 0,
			    .lru = RS_LRU_INACTIVE_FILE,
			    .pages = { .scanned = 512, .reclaimed = 512 }, .folio = 512 };
	struct rs_replay_result *r;

	UT_ASSERT(a_obs_world(t, 30, 492, &f) == 0);
	r = tw_limit_mainline(t, f.memcg, 512);
	UT_ASSERT(r);
	ASSERT_FILE(r, 512, 512, 8);
	UT_ASSERT_EQ(r->calls_short, 0);
	return UT_OK;
}

/*
 * A direct or limit reclaim pass frees its pages where the recorded pass did, and at priority 0
 * scans the list as the recorded pass found it. The kernel stops a call once its reclaim meets
 * the goal; the pages a pass frees are not spread evenly over it (anon written to swap early
 * is freed once the writeback completes; a file folio under read IO is freed when it is
 * done): a2s-1's call at 452.510 s scanned 61,440 file pages at priorities 12..1 and freed
 * none, then freed a 512-page folio in the 14th batch at priority 0; at the call's average
 * rate the model met its goal passes early, or (each pass must meet the goal by itself) not
 * at all, and scanned the whole anon list at priority 0 (+140% on the trace).
 * /A (cgroup v1), no swap (SCAN_FILE), IF 250 pages of single pages (the world: the kernel's
 * list held 256, the deltas missed 6), nothing else; one limit call wanting 32. Recorded:
 * priorities 8..1 scanned 1, 2, 4, 8, 16, 32, 64, 128 pages (batches of up to 32) and freed
 * none; priority 0 asked for and scanned 8 batches of 32 (the whole list) and freed 32 in
 * the last one: 511 scanned, 32 reclaimed.
 *  Model: priorities 12..9 ask 250 >> p = 0; 8..1 ask 0, 1, 3, 7, 15, 31, 62, 125 = 244
 *  pages and free none (their passes freed none); priority 0 scans the list as the pass found
 *  it, 256 (its requests), and frees 32 in the batch of pages 224..256: 500 scanned, 32
 *  reclaimed, priority 0, no call short of its goal. At the call's rate (32 / 511, as before)
 *  the passes free pages all the way down, the list shrinks under them and the priority-0
 *  pass, which must meet the goal by itself, runs out of list: 474 scanned, 30 freed, the call
 *  short. Freeing where the recorded pass did but on the list as the world read it (250): the
 *  last batch is pages 224..250, 26 freed, 494 scanned, short.
 */
TW_TEST(test_mainline_pass_reclaim, "models/mainline: a pass frees where the recorded pass did")
{
	static const struct rs_obs_step p0[8] = { { 32, 0 }, { 32, 0 }, { 32, 0 }, { 32, 0 },
						  { 32, 0 }, { 32, 0 }, { 32, 0 }, { 32, 32 } };
	struct rs_obs_step none[4] = { { 0, 0 } };
	struct rs_obs_req req = { 0 };
	struct rs_obs o = { .ts_start = 1000, .ts_end = 1010, .nid = 0,
			    .lru = RS_LRU_INACTIVE_FILE,
			    .pages = { .scanned = 511, .reclaimed = 32 }, .req = &req };
	struct rs_replay_result *r;

	UT_ASSERT(a_obs_world(t, 60, 250, &o) == 0);
	o.one_prio = true;
	for (int p = 8; p >= 1; p--) {
		uint64_t n = UINT64_C(1) << (8 - p);
		uint32_t k = 0;

		memset(&req, 0, sizeof(req));
		for (uint64_t left = n; left; k++) {
			uint64_t b = left < 32 ? left : 32;

			none[k] = (struct rs_obs_step){ .scanned = (uint32_t)b };
			req.isolates[b - 1]++;
			req.scanned[b - 1] += b;
			left -= b;
		}
		o.prio = p;
		o.pages = (struct rs_scan_pages){ .scanned = n };
		o.steps = none;
		o.nsteps = k;
		UT_ASSERT(rs_world_add_obs(t->w, &o, &t->err) == 0);
	}
	memset(&req, 0, sizeof(req));
	req.isolates[31] = 8;
	req.scanned[31] = 256;
	o.prio = 0;
	o.pages = (struct rs_scan_pages){ .scanned = 256, .reclaimed = 32 };
	o.steps = p0;
	o.nsteps = 8;
	UT_ASSERT(rs_world_add_obs(t->w, &o, &t->err) == 0);
	r = tw_limit_mainline(t, o.memcg, 32);
	UT_ASSERT(r);
	ASSERT_FILE(r, 500, 32, 0);
	UT_ASSERT_EQ(r->calls_short, 0);
	return UT_OK;
}

/* A pass window of the call at 1000..1010 on an inactive list reclaiming every page. */
static int tw_pass(struct tw *t, int memcg, int lru, int prio, uint32_t pages)
{
	struct rs_obs_step st = { .scanned = pages, .reclaimed = pages };
	struct rs_obs_req req = { 0 };
	struct rs_obs o = { .ts_start = 1000, .ts_end = 1010, .memcg = memcg, .nid = 0,
			    .lru = lru, .pages = { .scanned = pages, .reclaimed = pages },
			    .one_prio = prio >= 0, .prio = prio, .steps = &st, .nsteps = 1,
			    .req = &req };

	if (pages <= RS_SWAP_CLUSTER_MAX) {
		req.isolates[pages - 1] = 1;
		req.scanned[pages - 1] = pages;
	}
	return rs_world_add_obs(t->w, &o, &t->err);
}

/*
 * The world of the two walk tests below: /P (no pages) with children /P/A and /P/B (cgroup
 * v1, no swap: SCAN_FILE), IF 41000 each, every page reclaimable; one limit call on /P
 * wanting 32 from ts 1000 to 1010.
 */
static int walk_world(struct tw *t, int *p, int *a, int *b)
{
	if (tw_new(t, 1, true, 60))
		return -1;
	*p = tw_cg(t, 0, "/P");
	*a = tw_cg(t, *p, "/P/A");
	*b = tw_cg(t, *p, "/P/B");
	if (!(*p > 0 && *a > *p && *b > *a))
		return -1;
	tw_lists(t, *a, 0, 0, 0, 41000, 0);
	tw_lists(t, *b, 0, 0, 0, 41000, 0);
	tw_node(t, 0, 500, 1000);
	return 0;
}

/* A recorded pass window of the walk tests' call: of /P/B or /P/A, priority (-1: none), pages. */
struct walk_pass {
	bool b;
	int prio;
	uint32_t pages;
};

/* A priority the walk tests' call recorded, and when it ended. */
struct walk_prio {
	int prio;
	uint64_t end;
};

/*
 * The limit call of walk_world() on /P from 1000 to 1010 wanting 32, with its recorded pass
 * windows and its first and lowest priority (prio[0], prio[1]), replayed with mainline: A and B
 * scanned (and reclaimed: every page is reclaimable) and the lowest priority.
 */
static int walk_check(struct tw *t, const struct walk_pass *w, size_t n,
		      const struct walk_prio prio[2], long long scanned_a, long long scanned_b,
		      int prio_lowest)
{
	struct rs_reclaim_call c = { .ts = 1000, .ts_end = 1010, .ctx = RS_CALL_MEMCG, .nid = -1,
				     .may_swap = true, .nr_to_reclaim = 32,
				     .rec = { .prio_first = prio[0].prio,
					      .prio_lowest = prio[1].prio } };
	struct rs_replay_result *r;
	int p, a, b;

	UT_ASSERT(walk_world(t, &p, &a, &b) == 0);
	for (size_t i = 0; i < n; i++)
		UT_ASSERT(tw_pass(t, w[i].b ? b : a, RS_LRU_INACTIVE_FILE, w[i].prio,
				  w[i].pages) == 0);
	for (int i = 0; i < 2; i++)
		c.rec.prio_end[prio[i].prio] = prio[i].end;
	c.target = p;
	UT_ASSERT(rs_world_add_call(t->w, &c, &t->err) == 0);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT(r->memcg);
	UT_ASSERT_EQ(r->memcg[a].scanned[RS_LRU_INACTIVE_FILE], scanned_a);
	UT_ASSERT_EQ(r->memcg[b].scanned[RS_LRU_INACTIVE_FILE], scanned_b);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_FILE], scanned_a + scanned_b);
	UT_ASSERT_EQ(r->prio_lowest, prio_lowest);
	return UT_OK;
}

/*
 * A partial walk visits what the recorded pass at that priority visited. Tasks reclaiming one
 * root share its reclaim iterator, and each walk skips the memcgs another task's walk took (7.2
 * cgroup-children, 17.339 s: at priority 3 the call found only rs_a, the other task was in
 * rs_b). /P (no pages) with children /P/A and /P/B (cgroup v1, no swap: SCAN_FILE), IF 41000
 * each, every page reclaimable; one limit call on /P wanting 32. Recorded: priority 12 scanned
 * 10 pages of A (B was the other task's), priority 11 20 of A and 20 of B.
 *  Model: priority 12 walks P, A (41000 >> 12 = 10 reclaimed), B skipped: 10; priority 11
 *  restarts at P: A 40990 >> 11 = 20 (30, under 32), B 41000 >> 11 = 20: 50, done. A 30, B 20
 *  scanned. Visiting B at 12 (at the call's rate for B, no pass of its own there) frees 20 by
 *  then and meets the goal in A at 11: A 30, B 10.
 */
TW_TEST(test_mainline_recorded_walk, "models/mainline: a walk visits what the recorded pass did")
{
	static const struct walk_pass w[] = {
		{ false, -1, 30 }, { true, -1, 20 }, { false, 12, 10 }, { false, 11, 20 },
		{ true, 11, 20 },
	};
	static const struct walk_prio prio[2] = { { 12, 1003 }, { 11, 1008 } };

	return walk_check(t, w, sizeof(w) / sizeof(w[0]), prio, 30, 20, 11);
}

/*
 * A priority the recorded descent went through without scanning is one where the walk visits
 * nothing (another task's walk had completed the round, or took the memcgs first: kids-reread-
 * tight, 27034.123 s, nothing at priority 12, rs_b's file at 11, where the model took rs_c's
 * at 12). /P with /P/A and /P/B as above (IF 41000 each, every page reclaimable, no swap), one
 * limit call on /P wanting 32. Recorded: nothing at priority 12, B 20 at 11, A 32 at 10 (52).
 *  Model: priority 12 visits none; 11 visits B: 41000 >> 11 = 20 (20); 10 visits A: 41000 >>
 *  10 = 40, the first batch of 32 meets the goal and the cut ends the pass (52). A 32, B 20,
 *  as recorded. Walking every memcg at 12: A 10, B 10 (20), then B 20 at 11 (40, done): A 10,
 *  B 30.
 */
TW_TEST(test_mainline_recorded_walk_none, "models/mainline: no walk where the descent scanned none")
{
	static const struct walk_pass w[] = {
		{ false, -1, 32 }, { true, -1, 20 }, { true, 11, 20 }, { false, 10, 32 },
	};
	static const struct walk_prio prio[2] = { { 11, 1004 }, { 10, 1008 } };

	return walk_check(t, w, sizeof(w) / sizeof(w[0]), prio, 32, 20, 10);
}

/*
 * A request takes what the window's isolates of that request size took, not the window's
 * folio average. The average is weighted by pages, so a few big folios dominate it: a
 * kids-reread call (1297.925 s) took one 64-page folio at priority 12, single pages at 11..8
 * and a 512-page folio at 7 (817 pages, average ~415); the model took ~400 pages for its
 * 2-page request at priority 12, met the 512 wanted at 11 and never reached the anon scans
 * of priorities 10..7 (174 inactive anon pages recorded, 7 modelled).
 * /A (cgroup v1), no swap, IF 10000 reclaiming everything, nothing else. IF's window: folio
 * average 400, but every isolate of 1..32 pages took exactly its request (single pages). One
 * call wanting 32: requests of 10000 >> p = 2, 4, 9, 19 at priorities 12..9 take 2, 4, 9, 19
 * pages (34 >= 32 after priority 9). With the average: 400 pages at priority 12.
 */
TW_TEST(test_mainline_isolate_by_request, "models/mainline: a request takes what its size took")
{
	struct rs_obs f = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .nid = 0,
			    .lru = RS_LRU_INACTIVE_FILE,
			    .pages = { .scanned = 5000, .reclaimed = 5000 },
			    .folio = 400 };
	struct rs_obs_req req = { 0 };
	struct rs_replay_result *r;

	for (int q = 0; q < RS_SWAP_CLUSTER_MAX; q++) {
		req.isolates[q] = 2;
		req.scanned[q] = 2 * (uint64_t)(q + 1);
	}
	f.req = &req;
	UT_ASSERT(a_obs_world(t, 60, 10000, &f) == 0);
	r = tw_limit_mainline(t, f.memcg, 32);
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 34);
	UT_ASSERT_EQ(r->prio_lowest, 9);
	return UT_OK;
}

/*
 * A cgroup v2 world with /A holding the lists given, free 500 and high watermark 1000, its
 * inactive file reclaiming every page and `active` (an active list) deactivating every page:
 * /A's index, or -1.
 */
static int tw_memcg_a(struct tw *t, int64_t ia, int64_t aa, int64_t inf, int64_t af, int active)
{
	struct rs_obs o = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .nid = 0, .lru = active,
			    .pages = { .taken = 100, .deactivated = 100 } };

	if (tw_new(t, 1, false, 60) < 0)
		return -1;
	o.memcg = tw_cg(t, 0, "/A");
	tw_lists(t, o.memcg, 0, ia, aa, inf, af);
	tw_node(t, 0, 500, 1000);
	tw_rate(t, o.memcg, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	return rs_world_add_obs(t->w, &o, &t->err) ? -1 : o.memcg;
}

/* A recorded memcg call of /A: [ts, end], 32 wanted, its passes at 12 and 11 ending then. */
static void tw_timed_call(struct tw *t, int a, uint64_t ts, uint64_t end, uint64_t end12,
			  uint64_t end11)
{
	struct rs_reclaim_call c = {
		.ts = ts, .ts_end = end, .ctx = RS_CALL_MEMCG, .nid = 0, .target = a,
		.may_swap = true, .nr_to_reclaim = 32,
		.rec = { .have = true, .prio_first = 12, .prio_lowest = 11, .rounds = 2 },
	};

	c.rec.prio_end[12] = end12;
	c.rec.prio_end[11] = end11;
	if (rs_world_add_call(t->w, &c, &t->err))
		fprintf(stderr, "  tw_timed_call: %s\n", t->err.msg);
}

static void tw_at(struct tw *t, uint64_t ts, int field, int op, int memcg, int lru, int64_t v)
{
	struct rs_world_update u = {
		.ts = ts, .field = (uint8_t)field, .op = (uint8_t)op, .src = RS_WSRC_SYNTH,
		.lru = (uint8_t)lru, .memcg = memcg, .nid = field == RS_WF_WS_FLUSH ? -1 : 0,
		.value = v,
	};

	if (rs_world_add_update(t->w, &u, &t->err))
		fprintf(stderr, "  tw_at: %s\n", t->err.msg);
}

/*
 * A recorded isolation still off the list when another call starts. /A IF 64 reclaiming every
 * page scanned; call 1 at 1000 (isolations at 1002, 1004, ...), call 2 at 1003 (1005, 1007,
 * ...), both wanting more than the list holds, so that between them they scan every page on it.
 * In the recording call 1's isolation at 1002 took 16 pages and put them back at 1006 (the
 * world: -16 at 1002, +16 at 1006). Call 1's model scans 64 >> 6 = 1 page at 1002 (priority
 * 6); call 2's start copies the world at 1003 into the lists the calls share (open loop: the
 * page is there again): 48 pages, though call 1's model has put its own isolation back at once.
 * The 16 return at 1006, when the recorded shrink put them back, and the calls scan the 64
 * pages between them: 1 + 64 = 65. Without that the 16 were lost to both: 1 + 48 = 49.
 */
static struct rs_replay_result *inflight_run(void)
{
	struct rs_inflight f = {
		.begin = 1002, .end = 1006, .back = 16, .lru = RS_LRU_INACTIVE_FILE,
	};
	uint64_t iso1[20], iso2[20];
	struct rs_reclaim_call c[2] = {
		{ .ts = 1000, .ts_end = 1100, .ctx = RS_CALL_MEMCG, .nid = 0, .may_swap = true,
		  .nr_to_reclaim = 1000,
		  .rec = { .have = true, .isolate_ts = iso1, .nr_isolate = 20 } },
		{ .ts = 1003, .ts_end = 1100, .ctx = RS_CALL_MEMCG, .nid = 0, .may_swap = true,
		  .nr_to_reclaim = 1000,
		  .rec = { .have = true, .isolate_ts = iso2, .nr_isolate = 20 } },
	};
	struct tw t;
	int a;

	a = list64_world(&t);
	if (a < 0)
		return NULL;
	for (int i = 0; i < 20; i++) {
		iso1[i] = 1002 + 2 * (uint64_t)i;
		iso2[i] = 1005 + 2 * (uint64_t)i;
	}
	f.memcg = a;
	c[0].target = c[1].target = a;
	tw_at(&t, 1002, RS_WF_LRU, RS_WOP_ADD, a, RS_LRU_INACTIVE_FILE, -16);
	tw_at(&t, 1006, RS_WF_LRU, RS_WOP_ADD, a, RS_LRU_INACTIVE_FILE, 16);
	c[0].rec.inflight = &f;
	c[0].rec.nr_inflight = 1;
	for (int i = 0; i < 2; i++)
		if (rs_world_add_call(t.w, &c[i], &t.err))
			fprintf(stderr, "  inflight_run: %s\n", t.err.msg);
	return tw_mainline(&t, NULL);
}

UT_TEST(test_replay_inflight, "models/replay: a running call's isolated pages come back")
{
	struct rs_replay_result *r = inflight_run();

	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_INACTIVE_FILE] +
		     r->call[1].acct.scanned[RS_LRU_INACTIVE_FILE], 1 + 64);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/*
 * A pass reads the flushed stats as of its own moment. Cgroup v2, /A with swap on, IA 1000,
 * AA 4000, IF 100000 reclaiming everything, AF 0; the stats read IA 4000 and AA 1000 until a
 * memory.stat read at 1005 shows IA 1000 and AA 4000 (inactive anon low). One call at 1000 (to
 * 1100) whose recorded pass at priority 12 ended at 1010 and at 11 at 1020. File not low and
 * IF >> 12 > 0: cache_trim_mode, IF only in the main loop. Priority 12 reads at 1000 (not low):
 * 24 IF pages; its aging reads as of the start of priority 11 (1010): low, 32 AA pages; priority
 * 11 (IF 48: 32 reach the goal) ages again as of 1020: 64 AA pages. Every read at the call's
 * start: none (the 7.2 memory.high call at 19.271 s: 1,536 AA pages recorded, 0 modelled).
 */
TW_TEST(test_mainline_stats_in_call, "models/mainline: a flush in a call, seen by later passes")
{
	struct rs_replay_result *r;
	int a = tw_memcg_a(t, 1000, 4000, 100000, 0, RS_LRU_ACTIVE_ANON);

	UT_ASSERT(a > 0);
	tw_set(t, RS_WF_SWAP_FREE, -1, -1, 0, 100000);
	tw_at(t, 0, RS_WF_LRU_STAT, RS_WOP_SET, a, RS_LRU_INACTIVE_ANON, 4000);
	tw_at(t, 0, RS_WF_LRU_STAT, RS_WOP_SET, a, RS_LRU_ACTIVE_ANON, 1000);
	tw_at(t, 0, RS_WF_LRU_STAT, RS_WOP_SET, a, RS_LRU_INACTIVE_FILE, 100000);
	tw_at(t, 1005, RS_WF_LRU_STAT, RS_WOP_SET, a, RS_LRU_INACTIVE_ANON, 1000);
	tw_at(t, 1005, RS_WF_LRU_STAT, RS_WOP_SET, a, RS_LRU_ACTIVE_ANON, 4000);
	tw_timed_call(t, a, 1000, 1100, 1010, 1020);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_ACTIVE_ANON], 64);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 56);
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], 0);
	return UT_OK;
}

/*
 * The file refaults of the two snapshot tests' /A: 10 activations, flushed at 0; 5 more at
 * `rise`, flushed at `flush` (until then the stats still read 10).
 */
static void tw_file_refaults(struct tw *t, int a, uint64_t rise, uint64_t flush)
{
	tw_at(t, 0, RS_WF_WS_ACTIVATE, RS_WOP_SET, a, 1, 10);
	tw_at(t, 0, RS_WF_WS_FLUSH, RS_WOP_SET, a, 0, 1);
	tw_at(t, rise, RS_WF_WS_ACTIVATE, RS_WOP_ADD, a, 1, 5);
	tw_at(t, flush, RS_WF_WS_FLUSH, RS_WOP_SET, a, 0, 1);
}

/*
 * snapshot_refaults() is taken when a call ends, and a call compares with the snapshot of the
 * last call that ended before its pass. Cgroup v2, /A without swap: IF 100000 reclaiming
 * everything, AF 10000 deactivating everything (file not low). /A's file refaults read 10
 * (flushed at 0), then 15 after a flush at 500. Call 0 [100, 200] takes the first snapshot
 * (10): nothing changed, cache_trim_mode, no AF. Call 1 [1000, 3000] sees 15 against 10:
 * deactivate file, no cache_trim_mode: priority 12 IF 24 and AF 10000 >> 12 = 2, priority 11 IF
 * 32 (56 >= 32) and AF 4: 6 AF pages. Call 2 [2000, 2500] begins while call 1 runs: the
 * snapshot is still call 0's, 15 against 10 again: 6 AF pages (a snapshot taken at call 1's
 * start: 0; the 7.2 cgroup-children trace's two reclaimers of /rs_parent).
 */
TW_TEST(test_mainline_snapshot_at_end, "models/mainline: refault snapshots count from the end")
{
	struct rs_replay_result *r;
	int a = tw_memcg_a(t, 0, 0, 100000, 10000, RS_LRU_ACTIVE_FILE);

	UT_ASSERT(a > 0);
	tw_file_refaults(t, a, 400, 500);
	tw_timed_call(t, a, 100, 200, 0, 0);
	tw_timed_call(t, a, 1000, 3000, 0, 0);
	tw_timed_call(t, a, 2000, 2500, 0, 0);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_ACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_ACTIVE_FILE], 6);
	UT_ASSERT_EQ(r->call[2].acct.scanned[RS_LRU_ACTIVE_FILE], 6);
	UT_ASSERT_EQ(r->call[2].acct.scanned[RS_LRU_INACTIVE_FILE], 56);
	return UT_OK;
}

/*
 * prepare_scan_control() reads the stats at its own flush, which comes after the previous
 * pass's shrink_slab(): the recorded pass's flush (rs_recorded.prio_begin). As
 * test_mainline_snapshot_at_end's /A; call 0 [100, 200] takes the snapshot 10. /A's file
 * refaults reach 15 at 1015 and a flush at 1020 shows them. Call 1 [1000, 3000]: priority 12
 * ended at 1010 (reads at 1000: 10, cache_trim_mode, IF 24), priority 11's flush at 1030
 * (reads 15 against 10, deactivate file: AF 10000 >> 11 = 4, IF 32 of 48 meet the goal).
 * Read as of priority 12's end (1010): no change, AF 0 (the 7.2 zswap trace's kswapd runs:
 * the root's flush 8.5 ms after priority 12's last shrink).
 */
TW_TEST(test_mainline_scan_control_at_isolate,
	"models/mainline: a pass reads the stats its own flush left")
{
	struct rs_replay_result *r;
	int a = tw_memcg_a(t, 0, 0, 100000, 10000, RS_LRU_ACTIVE_FILE);
	struct rs_reclaim_call c = {
		.ts = 1000, .ts_end = 3000, .ctx = RS_CALL_MEMCG, .nid = 0, .target = a,
		.may_swap = true, .nr_to_reclaim = 32,
		.rec = { .have = true, .prio_first = 12, .prio_lowest = 11, .rounds = 2 },
	};

	UT_ASSERT(a > 0);
	tw_file_refaults(t, a, 1015, 1020);
	tw_timed_call(t, a, 100, 200, 0, 0);
	c.rec.prio_end[12] = 1010;
	c.rec.prio_begin[12] = 1002;
	c.rec.prio_end[11] = 1040;
	c.rec.prio_begin[11] = 1030;
	UT_ASSERT(rs_world_add_call(t->w, &c, &t->err) == 0);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_ACTIVE_FILE], 4);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_INACTIVE_FILE], 24 + 32);
	return UT_OK;
}

/*
 * kswapd's snapshot_refaults() is taken when balance_pgdat() returns (rs_recorded.run_end),
 * not at the next wake that ends the call. Cgroup v2, no swap, the root's own lists IF 100000
 * reclaiming everything and AF 10000 deactivating everything; its file refaults read 10, then
 * 15 after a flush at 1500. Run 0 [1000, 2000] returned at 1100 (snapshot 10); run 1 [2000,
 * 2100] sees 15 against 10: deactivate file, AF 10000 >> 12 + 10000 >> 11 = 6 (IF 24 + 48 in
 * each run: kswapd stops at the top of a priority). Snapshotting at 2000 (after the
 * flush): no change, cache_trim_mode, AF 0 (the 7.2 zswap trace, the run at 106.036 s).
 */
TW_TEST(test_mainline_kswapd_snapshot_at_return,
	"models/mainline: kswapd's refault snapshot when balance_pgdat() returns")
{
	struct rs_replay_result *r;
	struct rs_obs o = { .ts_start = 0, .ts_end = UINT64_MAX / 2, .nid = 0,
			    .lru = RS_LRU_ACTIVE_FILE,
			    .pages = { .taken = 100, .deactivated = 100 } };
	struct rs_reclaim_call c[2] = {
		{ .ts = 1000, .ts_end = 2000, .ctx = RS_CALL_KSWAPD, .nid = 0, .target = -1,
		  .may_swap = true, .nr_to_reclaim = 32, .rec = { .run_end = 1100 } },
		{ .ts = 2000, .ts_end = 2100, .ctx = RS_CALL_KSWAPD, .nid = 0, .target = -1,
		  .may_swap = true, .nr_to_reclaim = 32 },
	};

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_lists(t, 0, 0, 0, 0, 100000, 10000);
	tw_node(t, 0, 500, 1000);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	UT_ASSERT(rs_world_add_obs(t->w, &o, &t->err) == 0);
	tw_at(t, 0, RS_WF_WS_ACTIVATE, RS_WOP_SET, 0, 1, 10);
	tw_at(t, 0, RS_WF_WS_FLUSH, RS_WOP_SET, 0, 0, 1);
	tw_at(t, 1400, RS_WF_WS_ACTIVATE, RS_WOP_ADD, 0, 1, 5);
	tw_at(t, 1500, RS_WF_WS_FLUSH, RS_WOP_SET, 0, 0, 1);
	for (int i = 0; i < 2; i++)
		UT_ASSERT(rs_world_add_call(t->w, &c[i], &t->err) == 0);
	r = tw_replay(t, "mainline");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_ACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_ACTIVE_FILE], 2 + 4);
	UT_ASSERT_EQ(r->call[0].acct.scanned[RS_LRU_INACTIVE_FILE], 24 + 48);
	UT_ASSERT_EQ(r->call[1].acct.scanned[RS_LRU_INACTIVE_FILE], 24 + 48);
	return UT_OK;
}

/* ---- soft-limit tree (3.10) ---- */

/*
 * Root with A, B, C (in that order), swap off, free 100000, high 100. Usage / soft limit:
 * A 1300 / 1000 (excess 300), B 600 / 500 (100), C 400 / 400 (0). Lists: IF only, A 1000,
 * B 600, C 400 (all < 4096, so the normal pass at priority 12 scans 0: 1000 >> 12 = 0).
 * `rate_a` is the share of A's scanned pages reclaimed (100 of 100, or 0 of 100).
 */
/*
 * The soft-limit tests' reclaim: one direct call of 32 pages on a node whose free pages are well
 * above its high watermark (100000 over 100); then the policy replayed on the finalized world.
 */
static struct rs_replay_result *tw_soft_call(struct tw *t, const char *policy)
{
	tw_node(t, 0, 100000, 100);
	tw_call(t, RS_CALL_DIRECT, 0, -1, 32);
	return tw_replay(t, policy);
}

/* Memcg m's inactive file pages a replay scanned and reclaimed. */
#define ASSERT_MEMCG_FILE(r, m, sc, rc) do { \
	UT_ASSERT_EQ((r)->memcg[m].scanned[RS_LRU_INACTIVE_FILE], sc); \
	UT_ASSERT_EQ((r)->memcg[m].reclaimed[RS_LRU_INACTIVE_FILE], rc); \
} while (0)

static struct rs_replay_result *tree_run(struct tw *t, uint64_t rate_a, bool with_d,
					 const char *policy)
{
	int a, b, c;

	if (tw_new(t, 1, true, 60) < 0)
		return NULL;
	a = tw_cg(t, 0, "/A");
	b = tw_cg(t, 0, "/B");
	c = tw_cg(t, 0, "/C");
	tw_usage(t, 0, 2300, (int64_t)RS_UNLIMITED);
	tw_usage(t, a, 1300, 1000);
	tw_usage(t, b, 600, 500);
	tw_usage(t, c, 400, with_d ? 350 : 400);
	tw_lists(t, a, 0, 0, 0, 1000, 0);
	tw_lists(t, b, 0, 0, 0, 600, 0);
	tw_lists(t, c, 0, 0, 0, 400, 0);
	tw_rate(t, a, 0, RS_LRU_INACTIVE_FILE, 100, rate_a, 0);
	tw_rate(t, b, 0, RS_LRU_INACTIVE_FILE, 100, with_d ? 0 : 100, 0);
	tw_rate(t, c, 0, RS_LRU_INACTIVE_FILE, 100, with_d ? 0 : 100, 0);
	if (with_d) {
		int d = tw_cg(t, 0, "/D");

		tw_usage(t, d, 220, 200);
		tw_lists(t, d, 0, 0, 0, 200, 0);
		tw_rate(t, d, 0, RS_LRU_INACTIVE_FILE, 100, 0, 0);
	}
	return tw_soft_call(t, policy);
}

/*
 * The largest excessor A (300) is reclaimed at priority 0: each visit of A's subtree (A only)
 * asks 32 pages; shrink_lruvec() at priority 0 takes one batch of 32 from IF 1000 and stops
 * (32 >= 32, priority 0 < 12). Walk 1: 32; walk 2: 64 < excess >> 2 = 75, so a third walk:
 * 96 >= 75, stop. Reclaimed 96 > 0: no other group. The normal pass at priority 12 scans
 * 0 everywhere and 96 >= 32 ends the call: A 96 scanned and reclaimed (all soft), B and C 0.
 */
TW_TEST(test_tree_largest_first, "models/softlimit-tree: largest excessor at priority 0")
{
	struct rs_replay_result *r = tree_run(t, 100, false, "softlimit-tree");

	UT_ASSERT(r);
	ASSERT_MEMCG_FILE(r, 1, 96, 96);
	UT_ASSERT_EQ(r->memcg[1].soft_reclaimed, 96);
	UT_ASSERT_EQ(r->memcg[2].scanned[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->memcg[3].scanned[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->acct.soft_reclaimed, 96);
	UT_ASSERT_EQ(r->prio_lowest, 12);
	return UT_OK;
}

/*
 * A reclaims nothing (0 of 100): at priority 0 its walk never reaches 32 reclaimed, so it scans
 * all 1000 pages per walk; after 2 walks with 0 taken the pass gives up on A (2000 scanned).
 * The next largest, B (excess 100, >> 2 = 25): walk 1 32, walk 2 64 >= 25: 64 reclaimed.
 * C (excess 0) is not in the tree. The normal pass scans 0 (all lists < 4096 at priority 12).
 */
TW_TEST(test_tree_next_largest, "models/softlimit-tree: next largest when nothing reclaimed")
{
	struct rs_replay_result *r = tree_run(t, 0, false, "softlimit-tree");

	UT_ASSERT(r);
	ASSERT_MEMCG_FILE(r, 1, 2000, 0);
	ASSERT_MEMCG_FILE(r, 2, 64, 64);
	UT_ASSERT_EQ(r->memcg[3].scanned[RS_LRU_INACTIVE_FILE], 0);
	return UT_OK;
}

/*
 * Four groups in excess, A 300, B 100, C 50 (400 / 350), D 20, none reclaiming anything. A tree
 * pass makes at most 3 attempts (the largest, then at most 2 more), and each "next largest" is
 * picked after the failed group went back into the tree: A fails -> next is B (A is out while
 * it is reclaimed); B fails -> A is back in with the largest excess -> A again; loop 3 > 2:
 * stop. So A is tried twice, B once, C and D never. Each attempt walks the group twice at
 * priority 0 scanning its whole list (A 1000, B 600) and gives up with 0 reclaimed. With
 * nothing reclaimed the direct call goes through all 13 priorities, one tree pass each:
 * soft scans A 13 x 2 x 2 x 1000 = 52000, B 13 x 2 x 600 = 15600, C 0, D 0.
 */
TW_TEST(test_tree_at_most_two_more, "models/softlimit-tree: at most two more")
{
	struct rs_replay_result *r = tree_run(t, 0, true, "softlimit-tree");

	UT_ASSERT(r);
	UT_ASSERT_EQ(r->memcg[1].soft_scanned, 52000);
	UT_ASSERT_EQ(r->memcg[2].soft_scanned, 15600);
	UT_ASSERT_EQ(r->memcg[3].soft_scanned, 0);
	UT_ASSERT_EQ(r->memcg[4].soft_scanned, 0);
	UT_ASSERT_EQ(r->acct.reclaimed[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->calls_short, 1);
	UT_ASSERT_EQ(r->prio_lowest, 0);
	return UT_OK;
}

/* ---- soft-limit rework ---- */

/*
 * Root with A and B, swap off, IF 41000 each, everything reclaimable, direct reclaim of 32.
 * Per lruvec: 41000 >> 12 = 10; then 40990 >> 11 = 20; then 40970 >> 10 = 40 (the invocation's
 * working copy shrinks by what it took). Global reclaim walks every (eligible) memcg;
 * shrink_lruvec() stops after a batch once 32 are reclaimed below DEF_PRIORITY.
 */
/*
 * A memcg of a soft-limit world: its path, its parent's world index (0: the root; a memcg's
 * index is its row's plus one), usage and soft limit, and its inactive file pages, each
 * reclaimed when scanned (-1: no lists known).
 */
struct soft_cg {
	const char *path;
	int parent;
	int64_t usage, soft, file;
};

/* The cgroup v1 world of memcgs cg[0..n) replayed with policy after tw_soft_call()'s call. */
static struct rs_replay_result *soft_run(struct tw *t, const struct soft_cg *cg, int n,
					 const char *policy)
{
	if (tw_new(t, 1, true, 60) < 0)
		return NULL;
	for (int i = 0; i < n; i++)
		if (tw_cg(t, cg[i].parent, cg[i].path) != i + 1)
			return NULL;
	for (int i = 0; i < n; i++)
		tw_usage(t, i + 1, cg[i].usage, cg[i].soft);
	for (int i = 0; i < n; i++)
		if (cg[i].file >= 0)
			tw_lists(t, i + 1, 0, 0, 0, cg[i].file, 0);
	for (int i = 0; i < n; i++)
		if (cg[i].file >= 0)
			tw_rate(t, i + 1, 0, RS_LRU_INACTIVE_FILE, 10, 10, 0);
	return tw_soft_call(t, policy);
}

/* /A (usage_a of 1000, lists_a file pages) and /B (600 of 1000, 41000 file pages). */
static struct rs_replay_result *rework_run(struct tw *t, int64_t usage_a, int64_t lists_a,
					   const char *policy)
{
	const struct soft_cg cg[] = {
		{ "/A", 0, usage_a, 1000, lists_a }, { "/B", 0, 600, 1000, 41000 },
	};

	return soft_run(t, cg, 2, policy);
}

/* The inactive file pages the rework world's /A and /B scanned. */
#define ASSERT_SCANNED_AB(r, sa, sb) do { \
	UT_ASSERT_EQ((r)->memcg[1].scanned[RS_LRU_INACTIVE_FILE], sa); \
	UT_ASSERT_EQ((r)->memcg[2].scanned[RS_LRU_INACTIVE_FILE], sb); \
} while (0)

/*
 * A over its soft limit (1300 / 1000), B under (600 / 1000): the soft pass visits A only, at the
 * normal priority: prio 12 A 10; prio 11 A 20 (30 < 32); prio 10 A's first batch of 32 makes
 * 62 and stops. B scanned 0; the fallback never runs because the soft pass scanned pages.
 */
TW_TEST(test_rework_only_excess, "models/softlimit-rework: soft pass visits groups over")
{
	struct rs_replay_result *r = rework_run(t, 1300, 41000, "softlimit-rework");

	UT_ASSERT(r);
	ASSERT_SCANNED_AB(r, 62, 0);
	UT_ASSERT_EQ(r->memcg[1].soft_scanned, 62);
	UT_ASSERT_EQ(r->prio_lowest, 10);
	UT_ASSERT_EQ(r->rounds, 3);
	tw_free(t);

	/*
	 * The same world under the tree: A, the excessor (300), at priority 0 first: walks of 32
	 * until excess >> 2 = 75 -> 96; then the normal pass at priority 12 over every memcg:
	 * A (41000 - 96) >> 12 = 40904 >> 12 = 9, B 41000 >> 12 = 10. A 105, B 10.
	 */
	r = rework_run(t, 1300, 41000, "softlimit-tree");
	UT_ASSERT(r);
	UT_ASSERT_EQ(r->memcg[1].soft_scanned, 96);
	ASSERT_SCANNED_AB(r, 105, 10);
	return UT_OK;
}

/*
 * Nobody over the soft limit (A 900 / 1000): the reclaim root's subtree would be skipped, so no
 * soft pass at all (patch 6/8); every memcg is reclaimed: prio 12 A 10 B 10 (20), prio 11 A 20
 * B 20 (60 >= 32). A 30, B 30.
 */
TW_TEST(test_rework_fallback_none_over, "models/softlimit-rework: none over, all reclaimed")
{
	struct rs_replay_result *r = rework_run(t, 900, 41000, "softlimit-rework");

	UT_ASSERT(r);
	ASSERT_SCANNED_AB(r, 30, 30);
	UT_ASSERT_EQ(r->acct.soft_scanned, 0);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	return UT_OK;
}

/*
 * A over its soft limit but with no pages on the node: the soft pass visits A and scans nothing,
 * so shrink_zone() falls back to every memcg at the same priority: B 10, 20, then 32 at
 * priority 10 (62). A 0.
 */
TW_TEST(test_rework_fallback_nothing_scanned,
	"models/softlimit-rework: fallback when nothing scanned")
{
	struct rs_replay_result *r = rework_run(t, 1300, 0, "softlimit-rework");

	UT_ASSERT(r);
	ASSERT_SCANNED_AB(r, 0, 62);
	UT_ASSERT_EQ(r->memcg[2].soft_scanned, 0);
	return UT_OK;
}

/*
 * Root -> P -> C, and S under the root. P over its soft limit (2000 / 1000) with no pages of its
 * own, C under its own (1500 / 5000) with IF 41000, S under (600 / 1000) with IF 41000. C is
 * eligible through its ancestor P: prio 12 C 10, prio 11 C 20, prio 10 C 32 = 62; S 0.
 */
TW_TEST(test_rework_ancestor_over, "models/softlimit-rework: ancestor over its limit")
{
	enum { P = 1, C, S };	/* world indexes: the rows' order */
	static const struct soft_cg cg[] = {
		{ "/P", 0, 2000, 1000, -1 }, { "/P/C", P, 1500, 5000, 41000 },
		{ "/S", 0, 600, 1000, 41000 },
	};
	struct rs_replay_result *r = soft_run(t, cg, 3, "softlimit-rework");

	UT_ASSERT(r);
	UT_ASSERT_EQ(r->memcg[C].scanned[RS_LRU_INACTIVE_FILE], 62);
	UT_ASSERT_EQ(r->memcg[S].scanned[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(r->memcg[P].scanned[RS_LRU_INACTIVE_FILE], 0);
	return UT_OK;
}

/* ---- engine and world ---- */

/*
 * Rates are exact over a run: 100 batches of 32 at 97/100 reclaim 3200 x 97 / 100 = 3104, not
 * 31 per batch (3100); 3 single pages at 1/3 reclaim 1 (the carry starts at one half).
 */
TW_TEST(test_rate_rounding, "models/engine: rate rounding is exact")
{
	struct rs_lrusim ls;
	struct rs_sim s;
	struct rs_call_outcome out;
	struct rs_shrink r;
	struct rs_reclaim_call call = { .ctx = RS_CALL_DIRECT, .nid = 0, .target = -1 };
	uint64_t total = 0;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_lists(t, 0, 0, 100000, 0, 100000, 0);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_FILE, 100, 97, 0);
	tw_rate(t, 0, 0, RS_LRU_INACTIVE_ANON, 3, 1, 0);
	/* anon reclaim needs swap space (without it nothing is reclaimed: no swap test) */
	tw_set(t, RS_WF_SWAP_FREE, -1, -1, 0, 100000);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT(rs_lrusim_init(&ls, t->w, &t->err) == 0);
	rs_world_advance(t->w, 1);
	memset(&out, 0, sizeof(out));
	rs_sim_begin(&s, &ls, t->w, &call, &out);
	for (int i = 0; i < 100; i++) {
		rs_sim_shrink_inactive(&s, 0, 0, RS_LRU_INACTIVE_FILE, 32, &r);
		total += r.reclaimed;
	}
	UT_ASSERT_EQ(total, 3104);
	UT_ASSERT_EQ(out.acct.reclaimed[RS_LRU_INACTIVE_FILE], 3104);
	UT_ASSERT_EQ(rs_sim_size(&s, 0, 0, RS_LRU_INACTIVE_FILE), 100000 - 3104);
	total = 0;
	for (int i = 0; i < 3; i++) {
		rs_sim_shrink_inactive(&s, 0, 0, RS_LRU_INACTIVE_ANON, 1, &r);
		total += r.reclaimed;
	}
	UT_ASSERT_EQ(total, 1);
	UT_ASSERT_EQ(out.acct.swapped_out, 1);
	rs_lrusim_free(&ls);
	return UT_OK;
}

/*
 * Reclaimability sources: this lruvec's window, else the node's list over all memcgs, else
 * assumed (every page taken). B's IF is unobserved, A's is: B falls back to the node sum.
 */
TW_TEST(test_rate_fallback, "models/world: reclaimability fallback")
{
	struct rs_rates rt;
	int a, b;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	a = tw_cg(t, 0, "/A");
	b = tw_cg(t, 0, "/B");
	tw_lists(t, a, 0, 0, 0, 100, 0);
	tw_rate(t, a, 0, RS_LRU_INACTIVE_FILE, 4, 1, 2);
	UT_ASSERT(tw_final(t) == 0);
	rs_world_rates(t->w, a, 0, RS_LRU_INACTIVE_FILE, -1, &rt);
	UT_ASSERT_EQ(rt.src, RS_RATE_WINDOW);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE / 4);
	UT_ASSERT_EQ(rt.activate, RS_RATE_ONE / 2);
	rs_world_rates(t->w, b, 0, RS_LRU_INACTIVE_FILE, -1, &rt);
	UT_ASSERT_EQ(rt.src, RS_RATE_NODE_LIST);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE / 4);
	rs_world_rates(t->w, b, 0, RS_LRU_INACTIVE_ANON, -1, &rt);
	UT_ASSERT_EQ(rt.src, RS_RATE_ASSUMED);
	UT_ASSERT_EQ(rt.reclaim, RS_RATE_ONE);
	UT_ASSERT_EQ(rt.pageout, RS_RATE_ONE);
	rs_world_rates(t->w, b, 0, RS_LRU_ACTIVE_FILE, -1, &rt);
	UT_ASSERT_EQ(rt.deactivate, RS_RATE_ONE);
	return UT_OK;
}

/*
 * Pre-order with children in creation order, and the shared reclaim iterator: root(0) ->
 * A(1) -> A1(3); B(2). Pre-order 0, 1, 3, 2. A walk from the start: 0 1 3 2 then -1; a walk
 * stopped at 1 resumes at 3; a walk that starts at the end restarts at the root.
 */
TW_TEST(test_world_preorder_iter, "models/world: pre-order and reclaim iterator")
{
	struct rs_iter it;
	int a, b, a1, m;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	a = tw_cg(t, 0, "/A");
	b = tw_cg(t, 0, "/B");
	a1 = tw_cg(t, a, "/A/1");
	tw_lists(t, 0, 0, 1, 0, 0, 0);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT_EQ(rs_world_memcg_at(t->w, 0), 0);
	UT_ASSERT_EQ(rs_world_memcg_at(t->w, 1), a);
	UT_ASSERT_EQ(rs_world_memcg_at(t->w, 2), a1);
	UT_ASSERT_EQ(rs_world_memcg_at(t->w, 3), b);
	UT_ASSERT_EQ(rs_world_memcg(t->w, a)->pre_end, 3);
	UT_ASSERT_EQ(rs_subtree_next(t->w, a, a), a1);
	UT_ASSERT_EQ(rs_subtree_next(t->w, a, a1), -1);
	UT_ASSERT(rs_iter_init(&it, t->w, 1, &t->err) == 0);
	m = rs_iter_next(&it, t->w, 0, 0, 0, -1);
	UT_ASSERT_EQ(m, 0);
	m = rs_iter_next(&it, t->w, 0, 0, 0, m);
	UT_ASSERT_EQ(m, a);
	/* stop here; the next walk resumes after A */
	UT_ASSERT_EQ(rs_iter_next(&it, t->w, 0, 0, 0, -1), a1);
	UT_ASSERT_EQ(rs_iter_next(&it, t->w, 0, 0, 0, a1), b);
	UT_ASSERT_EQ(rs_iter_next(&it, t->w, 0, 0, 0, b), -1);
	UT_ASSERT_EQ(rs_iter_next(&it, t->w, 0, 0, 0, -1), 0);
	/* stopped at the last memcg: a new walk restarts at the root */
	*rs_iter_pos(&it, 0, 0, 0) = b;
	UT_ASSERT_EQ(rs_iter_next(&it, t->w, 0, 0, 0, -1), 0);
	rs_iter_free(&it);
	return UT_OK;
}

/* Updates apply in time order; ADD below zero clamps and is counted; no sizes -> refused. */
TW_TEST(test_world_updates, "models/world: updates, clamping, no sizes")
{
	struct rs_world_update u = { .ts = 50, .field = RS_WF_LRU, .op = RS_WOP_ADD,
				     .src = RS_WSRC_DELTA, .lru = 2, .memcg = 0, .nid = 0,
				     .value = -300 };
	const struct rs_policy_ops *ops = rs_policy_find("mainline");
	struct rs_replay_result *r = NULL;

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_set(t, RS_WF_LRU, 0, 0, 2, 200);
	UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
	u.ts = 40;
	u.value = 50;
	UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
	UT_ASSERT(tw_final(t) == 0);
	rs_world_advance(t->w, 45);
	UT_ASSERT_EQ(rs_world_lru(t->w, 0, 0, 2), 250);
	rs_world_advance(t->w, 50);
	UT_ASSERT_EQ(rs_world_lru(t->w, 0, 0, 2), 0);
	UT_ASSERT_EQ(rs_world_info(t->w)->clamped, 1);
	rs_world_rewind(t->w);
	UT_ASSERT_EQ(rs_world_lru(t->w, 0, 0, 2), 0);
	tw_free(t);

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_call(t, RS_CALL_DIRECT, 0, -1, 32);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT(rs_replay_run(t->w, &ops, 1, NULL, &r, &t->err) == -1);
	UT_ASSERT(strstr(t->err.msg, "no LRU sizes"));
	return UT_OK;
}

/* mainline refuses an MGLRU recording and says why. */
UT_TEST(test_mainline_refuses_mglru, "models/mainline: refuses MGLRU")
{
	struct rs_world_opts o = { .nr_nodes = 1, .vm_swappiness = 60, .mglru = true };
	struct rs_error err = { { 0 } };
	struct rs_world *w = rs_world_new(&o, &err);
	const struct rs_policy_ops *ops = rs_policy_find("mainline");
	struct rs_world_update u = { .field = RS_WF_LRU, .src = RS_WSRC_SYNTH, .memcg = 0,
				     .nid = 0, .value = 10 };
	struct rs_reclaim_call c = { .ts = 5, .ctx = RS_CALL_DIRECT, .nid = 0, .target = -1 };
	struct rs_replay_result *r = NULL;

	UT_ASSERT(w);
	UT_ASSERT(rs_world_add_update(w, &u, &err) == 0);
	UT_ASSERT(rs_world_add_call(w, &c, &err) == 0);
	UT_ASSERT(rs_world_finalize(w, &err) == 0);
	UT_ASSERT(rs_replay_run(w, &ops, 1, NULL, &r, &err) == -1);
	UT_ASSERT(strstr(err.msg, "mainline: "));
	UT_ASSERT(strstr(err.msg, "MGLRU"));
	rs_world_free(w);
	return UT_OK;
}

/* The recording's own totals, from the calls' recorded counts. */
TW_TEST(test_recorded_totals, "models/replay: recorded totals")
{
	struct rs_replay_result *r = NULL;
	struct rs_memcg_lists per[2] = {
		{ .memcg = 1, .scanned = { 0, 0, 40, 0 }, .reclaimed = { 0, 0, 30, 0 } },
		{ .memcg = 2, .scanned = { 8, 0, 0, 0 }, .reclaimed = { 2, 0, 0, 0 } },
	};
	struct rs_reclaim_call c = {
		.ts = 10, .ctx = RS_CALL_DIRECT, .nid = 0, .target = -1, .nr_to_reclaim = 32,
		.rec = { .have = true, .prio_first = 12, .prio_lowest = 11, .rounds = 2,
			 .scanned = { 8, 0, 40, 0 }, .reclaimed = { 2, 0, 30, 0 },
			 .memcg = per, .nr_memcg = 2 },
	};

	UT_ASSERT(tw_new(t, 1, false, 60) == 0);
	tw_cg(t, 0, "/A");
	tw_cg(t, 0, "/B");
	UT_ASSERT(rs_world_add_call(t->w, &c, &t->err) == 0);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT(rs_replay_recorded(t->w, &r, &t->err) == 0);
	UT_ASSERT_EQ(r->calls, 1);
	UT_ASSERT_EQ(r->calls_short, 0);		/* 32 reclaimed of 32 */
	UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_FILE], 40);
	UT_ASSERT_EQ(r->acct.swapped_out, 2);
	UT_ASSERT_EQ(r->memcg[1].reclaimed[RS_LRU_INACTIVE_FILE], 30);
	UT_ASSERT_EQ(r->memcg[2].swapped_out, 2);
	UT_ASSERT_EQ(r->prio_lowest, 11);
	UT_ASSERT_EQ(r->calls_at_prio[11], 1);
	rs_replay_results_free(r, 1);
	return UT_OK;
}

/* ---- registry ---- */

UT_TEST(test_registry, "models/registry: names and parsing")
{
	const struct rs_policy_ops *out[8], *const *all;
	struct rs_error err = { { 0 } };
	size_t n = rs_policy_all(&all);

	UT_ASSERT_EQ(n, 5);
	for (size_t i = 0; i < n; i++) {
		UT_ASSERT(all[i]->stands_for && all[i]->approximates && all[i]->init &&
			  all[i]->invoke && all[i]->free);
		UT_ASSERT(rs_policy_find(all[i]->name) == all[i]);
	}
	UT_ASSERT_EQ(rs_policy_parse("mainline,softlimit-tree", out, 8, &err), 2);
	UT_ASSERT_STR(out[0]->name, "mainline");
	UT_ASSERT_STR(out[1]->name, "softlimit-tree");
	UT_ASSERT_EQ(rs_policy_parse("splitlru", out, 8, &err), 1);

	UT_ASSERT_EQ(rs_policy_parse("mainline,foo", out, 8, &err), -1);
	UT_ASSERT(strstr(err.msg, "unknown policy 'foo'"));
	UT_ASSERT(strstr(err.msg, "valid: mainline, splitlru-plus1, splitlru, softlimit-tree, "
			 "softlimit-rework"));
	UT_ASSERT_EQ(rs_policy_parse("mainline,", out, 8, &err), -1);
	UT_ASSERT(strstr(err.msg, "empty policy"));
	UT_ASSERT_EQ(rs_policy_parse("splitlru,splitlru", out, 8, &err), -1);
	UT_ASSERT(strstr(err.msg, "twice"));
	UT_ASSERT_EQ(rs_policy_parse("mainline,splitlru", out, 1, &err), -1);
	/* "all" is the registry's: every policy in its order; exactly one stands for the kernel */
	UT_ASSERT_EQ(rs_policy_parse("all", out, 8, &err), 5);
	UT_ASSERT(out[0] == all[0] && out[4] == all[4]);
	UT_ASSERT_EQ(rs_policy_parse(NULL, out, 8, &err), 5);
	UT_ASSERT_EQ(rs_policy_parse("all,mainline", out, 8, &err), -1);
	UT_ASSERT_EQ(rs_policy_parse("all", out, 4, &err), -1);
	UT_ASSERT_EQ(rs_policy_identity_index(all, (int)n), 0);
	for (size_t i = 1; i < n; i++)
		UT_ASSERT(!all[i]->recorded_kernel);
	return UT_OK;
}

/*
 * memory.swap.max (cgroup v2): can_reclaim_anon_pages() of a memcg is
 * mem_cgroup_get_nr_swap_pages() > 0, swap.max - swap.current over the memcg and its
 * ancestors. /p/a holds 8,000 inactive anon pages and no file, the machine 100,000 free swap
 * pages; limit reclaim of /p/a wanting 32 pages: unlimited, it scans anon; with swap.max 0 on
 * /p/a, or on /p above it, or swap.current at swap.max, get_scan_count() says SCAN_FILE and
 * nothing is scanned.
 */
TW_TEST(test_mainline_swap_max, "models/mainline: no anon reclaim where memory.swap.max is used up")
{
	for (int k = 0; k < 4; k++) {
		struct rs_replay_result *r;
		int p, a;

		UT_ASSERT(tw_new(t, 1, false, 60) >= 0);
		p = tw_cg(t, 0, "/p");
		a = tw_cg(t, p, "/p/a");
		tw_lists(t, 0, 0, 0, 0, 0, 0);
		tw_lists(t, p, 0, 0, 0, 0, 0);
		tw_lists(t, a, 0, 8000, 0, 0, 0);
		tw_node(t, 0, 1000, 5000);
		tw_set(t, RS_WF_SWAP_FREE, -1, -1, 0, 100000);
		tw_rate(t, a, 0, RS_LRU_INACTIVE_ANON, 1000, 500, 0);
		if (k == 1)
			tw_set(t, RS_WF_SWAP_MAX, a, -1, 0, 0);
		if (k == 2)
			tw_set(t, RS_WF_SWAP_MAX, p, -1, 0, 0);
		if (k == 3) {
			tw_set(t, RS_WF_SWAP_MAX, a, -1, 0, 256);
			tw_set(t, RS_WF_SWAP_USAGE, a, -1, 0, 256);
		}
		r = tw_limit_mainline(t, a, 32);
		UT_ASSERT(r != NULL);
		if (k == 0)
			UT_ASSERT(r->acct.scanned[RS_LRU_INACTIVE_ANON] > 0);
		else
			UT_ASSERT_EQ(r->acct.scanned[RS_LRU_INACTIVE_ANON], 0);
		tw_free(t);
	}
	return UT_OK;
}

/* ---- world: inputs identity needs ---- */

static void tw_upd(struct tw *t, int field, int src, int memcg, int nid, int lru, int64_t v)
{
	struct rs_world_update u = {
		.ts = 0, .field = (uint8_t)field, .op = RS_WOP_SET, .src = (uint8_t)src,
		.lru = (uint8_t)lru, .memcg = memcg, .nid = nid, .value = v,
	};

	if (rs_world_add_update(t->w, &u, &t->err))
		fprintf(stderr, "  tw_upd: %s\n", t->err.msg);
}

/* A call whose recording scanned `n` pages of `lru`, all in memcg `victim`. */
static void tw_rec_call(struct tw *t, enum rs_call_ctx ctx, int target, int victim, int lru,
			uint64_t n)
{
	struct rs_memcg_lists ml = { .memcg = victim };
	struct rs_reclaim_call c = {
		.ts = t->next_ts, .ts_end = t->next_ts + 10, .ctx = ctx, .nid = 0,
		.target = target, .may_swap = true, .nr_to_reclaim = 32,
		.rec = { .have = true, .prio_first = 12, .prio_lowest = 12, .rounds = 1,
			 .memcg = &ml, .nr_memcg = 1 },
	};

	ml.scanned[lru] = n;
	c.rec.scanned[lru] = n;
	t->next_ts += 1000;
	if (rs_world_add_call(t->w, &c, &t->err))
		fprintf(stderr, "  tw_rec_call: %s\n", t->err.msg);
}

/*
 * What identity needs and the world lacks, by call. A cgroup v1 world like global-dev.dat's
 * recording: the high watermark only inferred (IMPLIED), sizes from snapshots only (no DELTA
 * update), /a with a soft limit of 100 pages. Calls: kswapd scanning IF 1000 of /a, direct
 * scanning IA 300 of /a, memcg (limit) reclaim of /a scanning IF 5000.
 *  - watermarks: the kswapd call only: IF 1000.
 *  - the soft-limit tree: both global calls: IF 1000, IA 300.
 *  - lruvec deltas: every call (memcg reclaim scans its lruvecs >> priority too): IF 1000 +
 *    5000 = 6000, IA 300.
 * Whole trace and /a (out[1 + a]) alike; the root (out[1]) scanned nothing. Then the same calls
 * with a recorded (SNAPSHOT) watermark, one lruvec delta, and cgroup v2 (no soft-limit tree):
 * nothing lacks, every count is 0.
 */
TW_TEST(test_world_identity_gaps, "models/world: inputs identity needs and the trace lacks")
{
	struct rs_gap_pages g[3];
	unsigned int mask;
	int a;

	UT_ASSERT(tw_new(t, 1, true, 60) >= 0);
	a = tw_cg(t, 0, "/a");
	UT_ASSERT_EQ(a, 1);
	tw_lists(t, 0, 0, 0, 0, 0, 0);
	tw_lists(t, a, 0, 1000, 0, 50000, 0);
	tw_upd(t, RS_WF_NODE_WMARK_HIGH, RS_WSRC_IMPLIED, -1, 0, 0, 28390);
	tw_usage(t, a, 2000, 100);
	tw_rec_call(t, RS_CALL_KSWAPD, -1, a, RS_LRU_INACTIVE_FILE, 1000);
	tw_rec_call(t, RS_CALL_DIRECT, -1, a, RS_LRU_INACTIVE_ANON, 300);
	tw_rec_call(t, RS_CALL_MEMCG, a, a, RS_LRU_INACTIVE_FILE, 5000);
	UT_ASSERT(tw_final(t) == 0);
	mask = rs_world_identity_gaps(t->w, g);
	UT_ASSERT_EQ(mask, (1u << RS_GAP_WMARK) | (1u << RS_GAP_SIZES) | (1u << RS_GAP_SOFT_TREE));
	for (int k = 0; k < 3; k += 2) {	/* whole trace, then /a */
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_WMARK][RS_LRU_INACTIVE_FILE], 1000);
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_WMARK][RS_LRU_INACTIVE_ANON], 0);
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_SIZES][RS_LRU_INACTIVE_FILE], 6000);
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_SIZES][RS_LRU_INACTIVE_ANON], 300);
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_SOFT_TREE][RS_LRU_INACTIVE_FILE], 1000);
		UT_ASSERT_EQ(g[k].scanned[RS_GAP_SOFT_TREE][RS_LRU_INACTIVE_ANON], 300);
		UT_ASSERT_EQ(g[k].any[RS_LRU_INACTIVE_FILE], 6000);
		UT_ASSERT_EQ(g[k].any[RS_LRU_INACTIVE_ANON], 300);
	}
	UT_ASSERT_EQ(g[1].any[RS_LRU_INACTIVE_FILE], 0);
	tw_free(t);

	UT_ASSERT(tw_new(t, 1, false, 60) >= 0);
	a = tw_cg(t, 0, "/a");
	tw_lists(t, 0, 0, 0, 0, 0, 0);
	tw_lists(t, a, 0, 1000, 0, 50000, 0);
	tw_upd(t, RS_WF_NODE_WMARK_HIGH, RS_WSRC_SNAPSHOT, -1, 0, 0, 28390);
	tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, a, 0, RS_LRU_INACTIVE_FILE, 50000);
	tw_usage(t, a, 2000, 100);
	tw_rec_call(t, RS_CALL_KSWAPD, -1, a, RS_LRU_INACTIVE_FILE, 1000);
	tw_rec_call(t, RS_CALL_DIRECT, -1, a, RS_LRU_INACTIVE_ANON, 300);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT_EQ(rs_world_identity_gaps(t->w, g), 0);
	UT_ASSERT_EQ(g[0].any[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(g[2].any[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT(!strcmp(rs_gap_name(RS_GAP_WMARK), "watermarks"));
	UT_ASSERT(strstr(rs_gap_missing(RS_GAP_SIZES), "mod_memcg_lruvec_state"));
	return UT_OK;
}

static int tw_cg_id(struct tw *t, int parent, const char *path, uint64_t id)
{
	return rs_world_add_memcg(t->w, &(struct rs_memcg_desc){ .id = id, .path = path,
				  .parent = parent }, &t->err);
}

/*
 * cgroup v2 settings no event shows, by the calls' reclaim roots. /p has /p/lo (memory.low 100
 * pages) and /p/x/y (memory.min 50, /p/x none: its effective protection under /p or the root is
 * 0, effective_protection() scaling by the parent's); /s has memory.swap.max 100 pages and a
 * child /s/c; /q memory.swap.max 0 (modelled: no anon reclaim, nothing lacks), /r
 * memory.swap.max unlimited and memory.low 0. Calls: limit reclaim of /p (IF 1000: /p/lo is
 * protected under it), of /p/x (IF 200: /p/x/y is), the direct call of the root (IA 300: no
 * protection reaches the root through /p and /p/x, but /s's swap.max is in its subtree), limit
 * reclaim of /s/c (IA 40: /s above it has swap.max), of /q and /r (IF 7, IF 9: nothing lacks).
 */
TW_TEST(test_world_identity_gaps_cgroup_v2, "models/world: memory.low/min and memory.swap.max")
{
	unsigned int lacks[6];
	struct rs_gap_pages g[10];
	int p, lo, x, y, s, c, q, r;

	UT_ASSERT(tw_new(t, 1, false, 60) >= 0);
	p = tw_cg_id(t, 0, "/p", 10);
	lo = tw_cg_id(t, p, "/p/lo", 11);
	x = tw_cg_id(t, p, "/p/x", 12);
	y = tw_cg_id(t, x, "/p/x/y", 13);
	s = tw_cg_id(t, 0, "/s", 14);
	c = tw_cg_id(t, s, "/s/c", 15);
	q = tw_cg_id(t, 0, "/q", 16);
	r = tw_cg_id(t, 0, "/r", 17);
	UT_ASSERT_EQ(r, 8);
	tw_lists(t, 0, 0, 0, 0, 0, 0);
	tw_upd(t, RS_WF_NODE_WMARK_HIGH, RS_WSRC_SNAPSHOT, -1, 0, 0, 5000);
	tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, lo, 0, RS_LRU_INACTIVE_FILE, 3000);
	tw_upd(t, RS_WF_MEMORY_LOW, RS_WSRC_SNAPSHOT, lo, -1, 0, 100);
	tw_upd(t, RS_WF_MEMORY_MIN, RS_WSRC_SNAPSHOT, lo, -1, 0, 0);
	tw_upd(t, RS_WF_MEMORY_MIN, RS_WSRC_SNAPSHOT, y, -1, 0, 50);
	tw_upd(t, RS_WF_SWAP_MAX, RS_WSRC_SNAPSHOT, s, -1, 0, 100);
	tw_upd(t, RS_WF_SWAP_USAGE, RS_WSRC_SNAPSHOT, s, -1, 0, 0);
	tw_upd(t, RS_WF_SWAP_MAX, RS_WSRC_SNAPSHOT, q, -1, 0, 0);
	tw_upd(t, RS_WF_SWAP_MAX, RS_WSRC_SNAPSHOT, r, -1, 0, (int64_t)RS_UNLIMITED);
	tw_upd(t, RS_WF_MEMORY_LOW, RS_WSRC_SNAPSHOT, r, -1, 0, 0);
	tw_rec_call(t, RS_CALL_MEMCG, p, lo, RS_LRU_INACTIVE_FILE, 1000);
	tw_rec_call(t, RS_CALL_MEMCG, x, y, RS_LRU_INACTIVE_FILE, 200);
	tw_rec_call(t, RS_CALL_DIRECT, -1, q, RS_LRU_INACTIVE_ANON, 300);
	tw_rec_call(t, RS_CALL_MEMCG, c, c, RS_LRU_INACTIVE_ANON, 40);
	tw_rec_call(t, RS_CALL_MEMCG, q, q, RS_LRU_INACTIVE_FILE, 7);
	tw_rec_call(t, RS_CALL_MEMCG, r, r, RS_LRU_INACTIVE_FILE, 9);
	UT_ASSERT(tw_final(t) == 0);
	UT_ASSERT_EQ(rs_world_identity_gaps_calls(t->w, g, lacks),
		     (1u << RS_GAP_PROTECTION) | (1u << RS_GAP_SWAP_MAX));
	UT_ASSERT_EQ(lacks[0], 1u << RS_GAP_PROTECTION);
	UT_ASSERT_EQ(lacks[1], 1u << RS_GAP_PROTECTION);
	UT_ASSERT_EQ(lacks[2], 1u << RS_GAP_SWAP_MAX);
	UT_ASSERT_EQ(lacks[3], 1u << RS_GAP_SWAP_MAX);
	UT_ASSERT_EQ(lacks[4], 0);
	UT_ASSERT_EQ(lacks[5], 0);
	UT_ASSERT_EQ(g[0].scanned[RS_GAP_PROTECTION][RS_LRU_INACTIVE_FILE], 1200);
	UT_ASSERT_EQ(g[0].scanned[RS_GAP_SWAP_MAX][RS_LRU_INACTIVE_ANON], 340);
	UT_ASSERT_EQ(g[0].any[RS_LRU_INACTIVE_FILE], 1200);
	UT_ASSERT_EQ(g[1 + lo].scanned[RS_GAP_PROTECTION][RS_LRU_INACTIVE_FILE], 1000);
	UT_ASSERT_EQ(g[1 + q].scanned[RS_GAP_SWAP_MAX][RS_LRU_INACTIVE_ANON], 300);
	UT_ASSERT_EQ(g[1 + q].any[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(g[1 + r].any[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_STR(rs_gap_name(RS_GAP_PROTECTION), "memory.low/min");
	UT_ASSERT_STR(rs_gap_name(RS_GAP_SWAP_MAX), "memory.swap.max");
	return UT_OK;
}

/*
 * Two nodes: memory.stat and mod_memcg_lruvec_state name no node, so a memcg's own sizes say
 * nothing of how its lists split between the nodes each call scans. A 2-node world where /a
 * has lists (a delta, as the recorder's traces give), a recorded watermark, cgroup v2: a
 * kswapd call (IF 700) and the memcg call of /a (IF 5000) both lack the per-node lists,
 * whole trace and /a alike: IF 5700, nothing else. The same world with the root's
 * lists alone (per node, as node_stat gives them) lacks nothing; so does one node with /a.
 */
TW_TEST(test_world_identity_gaps_nodes, "models/world: per-node memcg lists, two nodes")
{
	struct rs_gap_pages g[3];
	int a;

	for (int k = 0; k < 3; k++) {
		int nodes = k == 2 ? 1 : 2;
		bool memcg_lists = k != 1;

		UT_ASSERT(tw_new(t, nodes, false, 60) >= 0);
		a = tw_cg(t, 0, "/a");
		for (int nid = 0; nid < nodes; nid++) {
			tw_lists(t, 0, nid, 0, 0, 40000, 0);
			tw_upd(t, RS_WF_NODE_WMARK_HIGH, RS_WSRC_SNAPSHOT, -1, nid, 0, 5000);
		}
		if (memcg_lists)
			tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, a, 0, RS_LRU_INACTIVE_FILE, 30000);
		else
			tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, 0, 0, RS_LRU_INACTIVE_FILE, 40000);
		tw_rec_call(t, RS_CALL_KSWAPD, -1, a, RS_LRU_INACTIVE_FILE, 700);
		tw_rec_call(t, RS_CALL_MEMCG, a, a, RS_LRU_INACTIVE_FILE, 5000);
		UT_ASSERT(tw_final(t) == 0);
		if (k == 0) {
			UT_ASSERT_EQ(rs_world_identity_gaps(t->w, g), 1u << RS_GAP_NODE_LISTS);
			for (int i = 0; i < 3; i += 2) {
				UT_ASSERT_EQ(g[i].scanned[RS_GAP_NODE_LISTS][RS_LRU_INACTIVE_FILE],
					     5700);
				UT_ASSERT_EQ(g[i].scanned[RS_GAP_NODE_LISTS][RS_LRU_INACTIVE_ANON],
					     0);
				UT_ASSERT_EQ(g[i].any[RS_LRU_INACTIVE_FILE], 5700);
			}
			UT_ASSERT_STR(rs_gap_name(RS_GAP_NODE_LISTS), "per-node memcg lists");
			UT_ASSERT(strstr(rs_gap_missing(RS_GAP_NODE_LISTS), "memory.numa_stat"));
		} else {
			UT_ASSERT_EQ(rs_world_identity_gaps(t->w, g), 0);
			UT_ASSERT_EQ(g[0].any[RS_LRU_INACTIVE_FILE], 0);
		}
		tw_free(t);
	}
	return UT_OK;
}

/*
 * Two nodes, the root's lists alone (nothing lacks the per-node memcg lists): a direct call
 * whose shrinks named one node (IF 300: its allocation bound to that node, or the other's
 * zones ready for compaction) lacks the allowed nodes; one that shrank both (IF 200) and a
 * kswapd call (one node, its own: IF 700) do not. One node: the same one-node direct call
 * lacks nothing.
 */
TW_TEST(test_world_identity_gaps_nodemask, "models/world: a direct call's allowed nodes")
{
	struct rs_gap_pages g[2];
	struct rs_reclaim_call c = { .ctx = RS_CALL_DIRECT, .nid = -1, .target = -1,
				     .may_swap = true, .nr_to_reclaim = 32,
				     .rec = { .have = true, .prio_first = 12, .prio_lowest = 12,
					      .rounds = 1 } };

	for (int nodes = 2; nodes >= 1; nodes--) {
		UT_ASSERT(tw_new(t, nodes, false, 60) >= 0);
		for (int nid = 0; nid < nodes; nid++) {
			tw_lists(t, 0, nid, 0, 0, 40000, 0);
			tw_upd(t, RS_WF_NODE_WMARK_HIGH, RS_WSRC_SNAPSHOT, -1, nid, 0, 5000);
		}
		tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, 0, 0, RS_LRU_INACTIVE_FILE, 40000);
		c.ts = t->next_ts;
		c.ts_end = c.ts + 10;
		c.rec.nodes = 1;
		c.rec.scanned[RS_LRU_INACTIVE_FILE] = 300;
		UT_ASSERT(rs_world_add_call(t->w, &c, &t->err) == 0);
		c.ts += 1000;
		c.ts_end += 1000;
		c.rec.nodes = (uint32_t)nodes;
		c.rec.scanned[RS_LRU_INACTIVE_FILE] = 200;
		UT_ASSERT(rs_world_add_call(t->w, &c, &t->err) == 0);
		t->next_ts = c.ts + 1000;
		tw_rec_call(t, RS_CALL_KSWAPD, -1, 0, RS_LRU_INACTIVE_FILE, 700);
		UT_ASSERT(tw_final(t) == 0);
		if (nodes == 2) {
			UT_ASSERT_EQ(rs_world_identity_gaps(t->w, g), 1u << RS_GAP_NODEMASK);
			UT_ASSERT_EQ(g[0].scanned[RS_GAP_NODEMASK][RS_LRU_INACTIVE_FILE], 300);
			UT_ASSERT_EQ(g[0].any[RS_LRU_INACTIVE_FILE], 300);
			UT_ASSERT_STR(rs_gap_name(RS_GAP_NODEMASK), "allowed nodes");
		} else {
			UT_ASSERT_EQ(rs_world_identity_gaps(t->w, g), 0);
		}
		tw_free(t);
	}
	return UT_OK;
}

/*
 * The flushed view of the workingset counters (lruvec_page_state()): /p with a child /p/b. b
 * refaults 5 file pages at ts 10; /p's stats are flushed at 20 (its subtree: /p and /p/b read
 * 5); b refaults 7 more at 30: both still read 5 (mainline's may_deactivate sees no new refault
 * until a flush); b alone is flushed at 40: b reads 12, /p still 5 (the deltas wait in /p's
 * pending counters until /p is flushed). Exact subtree sums: 12 for both. A world without any
 * flush reads the exact sums.
 */
TW_TEST(test_world_ws_flush, "models/world: flushed workingset counters")
{
	struct rs_world_update u = { .op = RS_WOP_ADD, .src = RS_WSRC_DELTA, .nid = 0, .lru = 1 };
	int p, b;

	for (int pass = 0; pass < 2; pass++) {
		UT_ASSERT(tw_new(t, 1, true, 60) >= 0);
		p = tw_cg(t, 0, "/p");
		b = tw_cg(t, p, "/p/b");
		tw_lists(t, b, 0, 0, 0, 100, 100);
		u.field = RS_WF_WS_ACTIVATE;
		u.memcg = b;
		u.ts = 10;
		u.value = 5;
		UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
		u.ts = 30;
		u.value = 7;
		UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
		if (pass == 0) {
			struct rs_world_update f = { .ts = 20, .field = RS_WF_WS_FLUSH,
						     .src = RS_WSRC_SNAPSHOT, .memcg = p,
						     .nid = -1 };

			UT_ASSERT(rs_world_add_update(t->w, &f, &t->err) == 0);
			f.ts = 40;
			f.memcg = b;
			UT_ASSERT(rs_world_add_update(t->w, &f, &t->err) == 0);
		}
		UT_ASSERT(tw_final(t) == 0);
		UT_ASSERT_EQ(rs_world_info(t->w)->have_ws_flush, pass == 0);
		rs_world_rewind(t->w);
		rs_world_advance(t->w, 25);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, p, 0, 1), 5);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, b, 0, 1), 5);
		rs_world_advance(t->w, 35);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, p, 0, 1), pass == 0 ? 5 : 12);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, b, 0, 1), pass == 0 ? 5 : 12);
		rs_world_advance(t->w, 45);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, p, 0, 1), pass == 0 ? 5 : 12);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, b, 0, 1), 12);
		UT_ASSERT_EQ(rs_world_ws_flushed(t->w, p, 0, 0), 0);	/* anon: none */
		tw_free(t);
	}
	return UT_OK;
}

/*
 * The flushed list stats (lruvec_page_state(): hierarchical) as of any time, whatever the world's
 * clock. Cgroup v2, /p (no pages of its own) with a child /p/b holding IA 100. /p's subtree is
 * flushed at 10 (a memcg_flush_stats event: both read 100); /p/b gains 50 at 20 and is flushed
 * alone at 30: /p/b reads 150, /p still 100 (its counts wait for its own flush: the 7.2
 * memory.high trace's /rs_high); /p's memory.stat read at 40 shows 170 (v2: the subtree, as
 * read): /p 170. Before any flush: the lists. On cgroup v1 a read shows the memcg's own pages
 * and /p's view sums its subtree's own stats: 100 after 10, 150 after 30, 20 + 150 after 40.
 */
TW_TEST(test_world_lru_stat_at, "models/world: flushed list stats through time, hierarchical")
{
	int p, b;

	for (int v1 = 0; v1 < 2; v1++) {
		struct rs_world_update u = { .ts = 20, .field = RS_WF_LRU, .op = RS_WOP_ADD,
					     .src = RS_WSRC_DELTA, .nid = 0,
					     .lru = RS_LRU_INACTIVE_ANON, .value = 50 };
		struct rs_world_update f = { .ts = 10, .field = RS_WF_WS_FLUSH,
					     .src = RS_WSRC_DELTA, .nid = -1, .value = 1 };

		UT_ASSERT(tw_new(t, 1, v1, 60) >= 0);
		p = tw_cg(t, 0, "/p");
		b = tw_cg(t, p, "/p/b");
		tw_lists(t, p, 0, 0, 0, 0, 0);
		tw_lists(t, b, 0, 100, 0, 0, 0);
		u.memcg = b;
		UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
		f.memcg = p;
		UT_ASSERT(rs_world_add_update(t->w, &f, &t->err) == 0);
		f.ts = 30;
		f.memcg = b;
		UT_ASSERT(rs_world_add_update(t->w, &f, &t->err) == 0);
		u = (struct rs_world_update){ .ts = 40, .field = RS_WF_LRU_STAT, .op = RS_WOP_SET,
					      .src = RS_WSRC_SNAPSHOT, .memcg = p, .nid = 0,
					      .lru = RS_LRU_INACTIVE_ANON, .value = v1 ? 20 : 170 };
		UT_ASSERT(rs_world_add_update(t->w, &u, &t->err) == 0);
		UT_ASSERT(tw_final(t) == 0);
		rs_world_rewind(t->w);
		rs_world_advance(t->w, 5);
		UT_ASSERT_EQ(rs_world_lru_stat(t->w, p, 0, RS_LRU_INACTIVE_ANON), 100);
		/* the clock stays at 5: later views come from the trace's flushes */
		UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, p, 0, RS_LRU_INACTIVE_ANON, 15), 100);
		UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, b, 0, RS_LRU_INACTIVE_ANON, 25), 100);
		UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, b, 0, RS_LRU_INACTIVE_ANON, 35), 150);
		UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, p, 0, RS_LRU_INACTIVE_ANON, 35),
			     v1 ? 150 : 100);
		UT_ASSERT_EQ(rs_world_lru_stat_at(t->w, p, 0, RS_LRU_INACTIVE_ANON, 45), 170);
		rs_world_advance(t->w, 45);
		UT_ASSERT_EQ(rs_world_lru_stat(t->w, p, 0, RS_LRU_INACTIVE_ANON), 170);
		UT_ASSERT_EQ(rs_world_lru(t->w, b, 0, RS_LRU_INACTIVE_ANON), 150);
		tw_free(t);
	}
	return UT_OK;
}

/* ---- identity verdict (models/identity.c) ---- */

/*
 * One list's verdict from its numbers alone: 999 recorded pages are not checked whatever the
 * error; 1000 with the model at 1049 (+4.9%) are within 5% (ok), at 1051 (+5.1%) OFF; the
 * reclaimed error counts only from 1000 reclaimed (2000 scanned, 900 reclaimed against 500:
 * -44% but unchecked, ok; 1000 reclaimed against 940: -6%, OFF). A gap whose calls scanned 51 of
 * 1000 pages (5.1%) makes the list NO CLAIM whatever its error; 50 (5.0%) does not. Nothing
 * scanned: no verdict.
 */
UT_TEST(test_identity_list_verdict, "models/identity: one list's verdict")
{
	struct rs_gap_pages gp;
	struct rs_identity_list il;

	memset(&gp, 0, sizeof(gp));
	rs_identity_list(999, 999, 2000, 2000, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_NOT_CHECKED);
	UT_ASSERT(!il.checked && !il.claimed);
	UT_ASSERT_STR(rs_identity_verdict_name(il.verdict), "not checked");
	rs_identity_list(1000, 0, 1049, 0, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_OK);
	rs_identity_list(1000, 0, 1051, 0, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_OFF);
	UT_ASSERT_STR(rs_identity_verdict_name(il.verdict), "OFF");
	rs_identity_list(2000, 900, 2000, 500, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_OK);
	rs_identity_list(2000, 1000, 2000, 940, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_OFF);
	gp.scanned[RS_GAP_SIZES][RS_LRU_INACTIVE_ANON] = 51;
	rs_identity_list(1000, 0, 1000, 0, &gp, RS_LRU_INACTIVE_ANON, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_NO_CLAIM);
	UT_ASSERT_EQ(il.lacks, 1u << RS_GAP_SIZES);
	UT_ASSERT_STR(rs_identity_verdict_name(il.verdict), "NO CLAIM");
	rs_identity_list(1000, 0, 1000, 0, &gp, RS_LRU_INACTIVE_FILE, &il);	/* other list */
	UT_ASSERT_EQ(il.verdict, RS_ID_OK);
	gp.scanned[RS_GAP_SIZES][RS_LRU_INACTIVE_ANON] = 50;
	rs_identity_list(1000, 0, 1000, 0, &gp, RS_LRU_INACTIVE_ANON, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_OK);
	rs_identity_list(0, 0, 12, 0, NULL, 0, &il);
	UT_ASSERT_EQ(il.verdict, RS_ID_NONE);
	return UT_OK;
}

/*
 * The whole verdict on a world: a memcg /a without lruvec deltas (sizes from SYNTH sets, so no
 * DELTA update), one memcg call scanning IF 5000 of /a; mainline's result says 5100 (+2%). The
 * call lacks the lruvec deltas (100% of the list's pages), so the whole-trace list and /a's are
 * NO CLAIM, not ok. With victims unknown there is no per-cgroup row at all. With one delta in
 * the world the same numbers are claimed and ok, per cgroup too (the root scanned nothing).
 * Identity is the policy flagged as the recorded kernel's: mainline, index 1 of the list
 * (splitlru, mainline); none in (splitlru).
 */
TW_TEST(test_identity_compute, "models/identity: verdict on a world, per cgroup only with victims")
{
	const struct rs_policy_ops *pol[2] = { rs_policy_find("splitlru"),
					       rs_policy_find("mainline") };
	struct rs_reclaim_acct racct[2], macct[2];
	struct rs_replay_result rec = { .nr_memcg = 2, .memcg = racct };
	struct rs_replay_result mod = { .policy = pol[1], .nr_memcg = 2, .memcg = macct };
	struct rs_identity_opts io = { .victims_known = false };
	struct rs_identity id;
	int a;

	memset(racct, 0, sizeof(racct));
	memset(macct, 0, sizeof(macct));
	UT_ASSERT_EQ(rs_policy_identity_index(pol, 2), 1);
	UT_ASSERT_EQ(rs_policy_identity_index(pol, 1), -1);
	rec.acct.scanned[RS_LRU_INACTIVE_FILE] = racct[1].scanned[RS_LRU_INACTIVE_FILE] = 5000;
	mod.acct.scanned[RS_LRU_INACTIVE_FILE] = macct[1].scanned[RS_LRU_INACTIVE_FILE] = 5100;
	for (int pass = 0; pass < 2; pass++) {
		UT_ASSERT(tw_new(t, 1, true, 60) >= 0);
		a = tw_cg(t, 0, "/a");
		tw_lists(t, 0, 0, 0, 0, 0, 0);
		tw_lists(t, a, 0, 1000, 0, 50000, 0);
		if (pass)
			tw_upd(t, RS_WF_LRU, RS_WSRC_DELTA, a, 0, RS_LRU_INACTIVE_FILE, 50000);
		tw_rec_call(t, RS_CALL_MEMCG, a, a, RS_LRU_INACTIVE_FILE, 5000);
		UT_ASSERT(tw_final(t) == 0);
		io.victims_known = pass;
		UT_ASSERT(rs_identity_compute(t->w, &rec, &mod, &io, &id, &t->err) == 0);
		UT_ASSERT(id.policy == pol[1]);
		if (!pass) {
			UT_ASSERT_EQ(id.list[RS_LRU_INACTIVE_FILE].verdict, RS_ID_NO_CLAIM);
			UT_ASSERT_EQ(id.gap_mask, 1u << RS_GAP_SIZES);
			UT_ASSERT(!id.per_cgroup && !rs_identity_memcg(&id, a, 0));
			UT_ASSERT_EQ(id.not_claimed, 1);
			UT_ASSERT_EQ(id.claimed, 0);
			UT_ASSERT(id.sizes_snapshots_only == false);	/* SYNTH sets, not snapshots */
		} else {
			UT_ASSERT_EQ(id.list[RS_LRU_INACTIVE_FILE].verdict, RS_ID_OK);
			UT_ASSERT(id.per_cgroup);
			UT_ASSERT_EQ(rs_identity_memcg(&id, a, RS_LRU_INACTIVE_FILE)->verdict,
				     RS_ID_OK);
			UT_ASSERT_EQ(rs_identity_memcg(&id, 0, RS_LRU_INACTIVE_FILE)->verdict,
				     RS_ID_NONE);
			UT_ASSERT_EQ(id.claimed, 2);
			UT_ASSERT_EQ(id.within, 2);
			UT_ASSERT_EQ(id.gap_mask, 0);
		}
		rs_identity_free(&id);
		tw_free(t);
	}
	return UT_OK;
}

/*
 * What a counterfactual can claim. Reclaimed pages extrapolated from the recording's sample of
 * a list: the recording scanned 1571 inactive anon pages and reclaimed none; a policy scanning
 * 3000 (<= 2 x the sample) keeps its figure; 10000 (6.4 x) gets the 95% Wilson range of 0/1571
 * times 10000: 0 .. 10000 x z^2 / (1571 + z^2) = 24.39, rounded out to 25 (z = 1.959964); 20000
 * (12.7 x, past 10 x) is unknown, and so is anything scanned on a list sampled under 32 pages.
 * 500 reclaimed of 1000 scanned, 5000 scanned: 5000 x (0.5 -+ 0.030877) = 2345.35 .. 2654.65,
 * 2345 .. 2655. Swapped out follows inactive anon. Soft-limit passes: the tree (it stands for the
 * recorded kernel's) recorded 1000 scanned, modelled 1099 (+9.9%): shown; 1101: not shown, and
 * what the trace lacks of the soft-limit inputs is named (the watermark gap is not one of them);
 * the rework's soft figures are never checked; mainline's are, as the tree's: 1101 (+10.1%) not
 * shown, lacking the lruvec deltas, 901 (-9.9%) shown; nothing recorded: shown, not checked.
 */
UT_TEST(test_policy_claims, "models/identity: extrapolated ranges and soft-limit passes")
{
	struct rs_replay_result rec, p;
	struct rs_policy_claims pc;
	uint64_t lo, hi;

	memset(&rec, 0, sizeof(rec));
	memset(&p, 0, sizeof(p));
	p.policy = rs_policy_find("splitlru");
	rec.acct.scanned[RS_LRU_INACTIVE_ANON] = 1571;
	p.acct.scanned[RS_LRU_INACTIVE_ANON] = 3000;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(!pc.reclaimed[RS_LRU_INACTIVE_ANON].extrapolated && !pc.swapped.extrapolated);
	UT_ASSERT(pc.soft_shown && !pc.soft_checked);
	p.acct.scanned[RS_LRU_INACTIVE_ANON] = 10000;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(pc.reclaimed[RS_LRU_INACTIVE_ANON].extrapolated);
	UT_ASSERT(!pc.reclaimed[RS_LRU_INACTIVE_ANON].unknown);
	UT_ASSERT_EQ(pc.reclaimed[RS_LRU_INACTIVE_ANON].lo, 0);
	UT_ASSERT_EQ(pc.reclaimed[RS_LRU_INACTIVE_ANON].hi, 25);
	UT_ASSERT_EQ(pc.swapped.hi, 25);
	UT_ASSERT_EQ(pc.reclaimed[RS_LRU_INACTIVE_ANON].sample, 1571);
	p.acct.scanned[RS_LRU_INACTIVE_ANON] = 20000;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(pc.reclaimed[RS_LRU_INACTIVE_ANON].unknown && pc.swapped.unknown);
	rec.acct.scanned[RS_LRU_INACTIVE_FILE] = 31;
	p.acct.scanned[RS_LRU_INACTIVE_FILE] = 63;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(pc.reclaimed[RS_LRU_INACTIVE_FILE].unknown);
	rec.acct.scanned[RS_LRU_INACTIVE_FILE] = 1000;
	rec.acct.reclaimed[RS_LRU_INACTIVE_FILE] = 500;
	p.acct.scanned[RS_LRU_INACTIVE_FILE] = 5000;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT_EQ(pc.reclaimed[RS_LRU_INACTIVE_FILE].lo, 2345);
	UT_ASSERT_EQ(pc.reclaimed[RS_LRU_INACTIVE_FILE].hi, 2655);
	rs_wilson95(0, 1571, &lo, &hi);
	UT_ASSERT_EQ(lo, 0);

	memset(&p, 0, sizeof(p));
	p.policy = rs_policy_find("softlimit-tree");
	UT_ASSERT(p.policy->recorded_soft_passes);
	rec.acct.soft_scanned = 1000;
	p.acct.soft_scanned = 1099;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(pc.soft_checked && pc.soft_shown);
	p.acct.soft_scanned = 1101;
	rs_policy_claims(&rec, &p, (1u << RS_GAP_WMARK) | (1u << RS_GAP_SOFT_TREE), &pc);
	UT_ASSERT(pc.soft_checked && !pc.soft_shown);
	UT_ASSERT_EQ(pc.soft_lacks, 1u << RS_GAP_SOFT_TREE);
	p.policy = rs_policy_find("softlimit-rework");
	UT_ASSERT(!p.policy->recorded_soft_passes);
	rs_policy_claims(&rec, &p, 1u << RS_GAP_SOFT_TREE, &pc);
	UT_ASSERT(!pc.soft_checked && pc.soft_shown);
	/* mainline's soft passes (6.x shrink_lruvec() under the tree walk) are checked too */
	p.policy = rs_policy_find("mainline");
	UT_ASSERT(p.policy->recorded_soft_passes);
	rs_policy_claims(&rec, &p, 1u << RS_GAP_SIZES, &pc);
	UT_ASSERT(pc.soft_checked && !pc.soft_shown);
	UT_ASSERT_EQ(pc.soft_lacks, 1u << RS_GAP_SIZES);
	p.acct.soft_scanned = 901;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(pc.soft_checked && pc.soft_shown);
	p.policy = rs_policy_find("softlimit-tree");
	rec.acct.soft_scanned = 0;
	rs_policy_claims(&rec, &p, 0, &pc);
	UT_ASSERT(!pc.soft_checked && pc.soft_shown);
	return UT_OK;
}

/*
 * Identity call by call (replay --calls). Five calls in time order, the model's outcomes made by
 * hand (no policy runs): 0 recorded IF 1000, model IF 400 (-600); 1 recorded IA 300, model IF
 * 300 instead (IA -300, IF +300: its total matches, its lists do not: 600); 2 recorded and
 * modelled IF 500 (0); 3 without any shrink event (rec.have false: it recorded nothing, as in
 * the totals), model IF 50 (+50); 4 recorded AF 100, model AF 2100 (+2000). By |diff| summed
 * over the lists: 4 (2000), 0 (600), 1 (600: equal, so after 0 in time order), 3 (50), 2 (0).
 * The top 2 hold IF -600 of -600 + 300 + 50 = -250 and AF +2000 of +2000; every call (0) holds
 * all of it. A result without per-call outcomes is refused.
 */
TW_TEST(test_identity_calls, "models/identity: calls ranked by how far the model is off")
{
	struct rs_call_outcome o[5];
	struct rs_replay_result mod = { .policy = rs_policy_find("mainline"), .nr_calls_kept = 5,
					.call = o };
	struct rs_identity_calls ic;
	static const size_t order[5] = { 4, 0, 1, 3, 2 };

	memset(o, 0, sizeof(o));
	UT_ASSERT(tw_new(t, 1, false, 60) >= 0);
	tw_lists(t, 0, 0, 1000, 0, 50000, 1000);
	tw_rec_call(t, RS_CALL_DIRECT, -1, 0, RS_LRU_INACTIVE_FILE, 1000);
	tw_rec_call(t, RS_CALL_DIRECT, -1, 0, RS_LRU_INACTIVE_ANON, 300);
	tw_rec_call(t, RS_CALL_DIRECT, -1, 0, RS_LRU_INACTIVE_FILE, 500);
	tw_call(t, RS_CALL_DIRECT, 0, -1, 32);
	tw_rec_call(t, RS_CALL_KSWAPD, -1, 0, RS_LRU_ACTIVE_FILE, 100);
	UT_ASSERT(tw_final(t) == 0);
	o[0].acct.scanned[RS_LRU_INACTIVE_FILE] = 400;
	o[1].acct.scanned[RS_LRU_INACTIVE_FILE] = 300;
	o[2].acct.scanned[RS_LRU_INACTIVE_FILE] = 500;
	o[3].acct.scanned[RS_LRU_INACTIVE_FILE] = 50;
	o[4].acct.scanned[RS_LRU_ACTIVE_FILE] = 2100;

	UT_ASSERT(rs_identity_calls(t->w, &mod, 2, &ic, &t->err) == 0);
	UT_ASSERT_EQ(ic.nr_calls, 5);
	UT_ASSERT_EQ(ic.nr, 2);
	UT_ASSERT_EQ(ic.call[0].index, 4);
	UT_ASSERT(ic.call[0].call == rs_world_call(t->w, 4) && ic.call[0].model == &o[4]);
	UT_ASSERT_EQ(ic.call[0].diff, 2000);
	UT_ASSERT_EQ(ic.call[0].rec_scanned[RS_LRU_ACTIVE_FILE], 100);
	UT_ASSERT_EQ(ic.call[1].index, 0);
	UT_ASSERT_EQ(ic.call[1].scanned_diff[RS_LRU_INACTIVE_FILE], -600);
	UT_ASSERT_EQ(ic.listed_diff[RS_LRU_INACTIVE_FILE], -600);
	UT_ASSERT_EQ(ic.listed_diff[RS_LRU_ACTIVE_FILE], 2000);
	UT_ASSERT_EQ(ic.listed_diff[RS_LRU_INACTIVE_ANON], 0);
	UT_ASSERT_EQ(ic.total_diff[RS_LRU_INACTIVE_FILE], -250);
	UT_ASSERT_EQ(ic.total_diff[RS_LRU_INACTIVE_ANON], -300);
	UT_ASSERT_EQ(ic.total_diff[RS_LRU_ACTIVE_FILE], 2000);
	rs_identity_calls_free(&ic);

	UT_ASSERT(rs_identity_calls(t->w, &mod, 0, &ic, &t->err) == 0);
	UT_ASSERT_EQ(ic.nr, 5);
	for (size_t i = 0; i < 5; i++)
		UT_ASSERT_EQ(ic.call[i].index, order[i]);
	UT_ASSERT_EQ(ic.call[2].diff, 600);
	UT_ASSERT_EQ(ic.call[2].scanned_diff[RS_LRU_INACTIVE_ANON], -300);
	UT_ASSERT_EQ(ic.call[2].scanned_diff[RS_LRU_INACTIVE_FILE], 300);
	UT_ASSERT(!ic.call[3].call->rec.have);
	UT_ASSERT_EQ(ic.call[3].rec_scanned[RS_LRU_INACTIVE_FILE], 0);
	UT_ASSERT_EQ(ic.call[3].diff, 50);
	UT_ASSERT_EQ(ic.call[4].diff, 0);
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		UT_ASSERT_EQ(ic.listed_diff[l], ic.total_diff[l]);
	rs_identity_calls_free(&ic);

	mod.nr_calls_kept = 0;
	UT_ASSERT(rs_identity_calls(t->w, &mod, 2, &ic, &t->err) < 0);
	UT_ASSERT(strstr(t->err.msg, "no per-call view"));
	return UT_OK;
}
