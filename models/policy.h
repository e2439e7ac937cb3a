/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of models/: the machinery every policy file shares (models/engine.c), the soft-limit
 * tree walk of 3.10 and of cgroup v1 today (models/softlimit_walk.c), and the two kernel-era cores
 * that a pair of policies share: 2.6.28 split LRU (models/splitlru_core.c, policies splitlru
 * and splitlru-plus1) and 3.10 (models/v310_core.c, policies softlimit-tree and
 * softlimit-rework). Callers of replay.h never see this header; the unit tests do.
 */
#ifndef RS_MODEL_IMPL_H
#define RS_MODEL_IMPL_H

#include "replay.h"

static inline bool rs_lru_is_file(int lru)
{
	return lru >= RS_LRU_INACTIVE_FILE;
}

static inline bool rs_lru_is_active(int lru)
{
	return lru == RS_LRU_ACTIVE_ANON || lru == RS_LRU_ACTIVE_FILE;
}

static inline uint64_t rs_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t rs_max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* int_sqrt() of the kernel: the largest r with r * r <= x. */
uint64_t rs_int_sqrt(uint64_t x);

/*
 * Persistent per-policy engine state: the rounding carries that make "scanned x rate" exact over
 * a run (a 97% list scanned 32 at a time must not lose a page per batch), and the scratch
 * buffers of the invocation in progress. Lruvec index = memcg * nr_nodes + nid.
 */
struct rs_lrusim {
	const struct rs_world *w;
	int nr_memcg, nr_nodes;
	uint64_t *carry;	/* [lruvec][list][3] fractional pages, in 1/2^32 */
	int64_t *size;		/* [lruvec][list] working sizes, the lruvec's own pages */
	int64_t *hsize;		/* [lruvec][list] the same summed over the memcg's subtree */
	int64_t *usage;		/* [memcg] working usage (hierarchical) */
	int64_t *freep;		/* [nid] free pages + what this invocation reclaimed there */
	uint64_t *share;	/* [memcg] rs_sim_shrink_merged() scratch: pages per hit */
	int *hit;		/* [memcg] the memcgs that got pages, in pre-order */
	uint32_t *phase;	/* [lruvec][list] rs_sim_shrink_merged() sampling phase */
	struct rs_rates *rates;	/* [lruvec][list] rs_world_rates() cache */
	uint64_t *rates_gen, *rates_ts;	/* the key: world generation, call start */
	int *parent, *pre, *pre_end, *at;	/* the tree, copied from the world */
	/* the running calls' recorded isolations still off the lists (rs_sim_begin()) */
	struct rs_inflight *putback;
	size_t nputback, capputback;
};

int rs_lrusim_init(struct rs_lrusim *ls, const struct rs_world *w, struct rs_error *err);
void rs_lrusim_free(struct rs_lrusim *ls);

/* One invocation in progress. */
struct rs_sim {
	struct rs_lrusim *ls;
	const struct rs_world *w;
	const struct rs_reclaim_call *call;
	struct rs_call_outcome *out;
	bool soft;		/* scans are counted as soft-limit reclaim too */
	bool deactivate_all;	/* 2.6.28 shrink_active_list(): all taken go inactive */
	int prio;		/* the pass's priority for rs_world_rates(); -1: whole calls */
	uint64_t view_ts;	/* the moment whose flushed stats the pass reads (call start) */
	/*
	 * A shrink_lruvec() pass in progress on (memcg, nid) at `prio` >= 0 whose inactive lists
	 * free their pages where the recorded pass did (rs_world_pass_reclaim()): pages it has
	 * scanned per list. NULL: at the window's rate.
	 */
	struct rs_sim_pass *pass;
	uint64_t reclaimed;	/* this invocation so far */
	uint64_t scanned;
};

struct rs_sim_pass {
	int memcg, nid;
	uint64_t pos[RS_NR_EVICTABLE];	/* pages it has scanned */
};

/* Copy the world's current values into the scratch and start accounting into `out`. */
void rs_sim_begin(struct rs_sim *s, struct rs_lrusim *ls, const struct rs_world *w,
		  const struct rs_reclaim_call *call, struct rs_call_outcome *out);

static inline int rs_lruvec(const struct rs_sim *s, int memcg, int nid)
{
	return memcg * s->ls->nr_nodes + nid;
}

/* Working size of a list: the lruvec's own pages, or summed over the memcg's subtree. */
static inline uint64_t rs_sim_size(const struct rs_sim *s, int memcg, int nid, int lru)
{
	int64_t v = s->ls->size[rs_lruvec(s, memcg, nid) * RS_NR_EVICTABLE + lru];

	return v > 0 ? (uint64_t)v : 0;
}

static inline uint64_t rs_sim_hsize(const struct rs_sim *s, int memcg, int nid, int lru)
{
	int64_t v = s->ls->hsize[rs_lruvec(s, memcg, nid) * RS_NR_EVICTABLE + lru];

	return v > 0 ? (uint64_t)v : 0;
}

/* Node totals of a list = the root memcg's subtree sum. */
static inline uint64_t rs_sim_node_size(const struct rs_sim *s, int nid, int lru)
{
	return rs_sim_hsize(s, 0, nid, lru);
}

/*
 * A list that is not empty holds at least one whole folio: raise a size below `folio` pages to
 * it (the lruvec deltas miss a few pages, docs/replay.md; a 492-page list of 512-page folios
 * is one folio).
 */
void rs_sim_whole_folio(struct rs_sim *s, int memcg, int nid, int lru, uint64_t folio);

/* Raise a list to at least `pages` for the invocation (rs_sim_whole_folio() likewise). */
void rs_sim_at_least(struct rs_sim *s, int memcg, int nid, int lru, uint64_t pages);

uint64_t rs_sim_usage(const struct rs_sim *s, int memcg);
/* usage - soft limit, 0 when under it or unlimited (res_counter_soft_limit_excess). */
uint64_t rs_sim_soft_excess(const struct rs_sim *s, int memcg);
uint64_t rs_sim_free(const struct rs_sim *s, int nid);
bool rs_sim_swap_ok(const struct rs_sim *s);
/*
 * The same for one memcg's lruvecs (can_reclaim_anon_pages(memcg), 6.x+): swap free, and
 * mem_cgroup_get_nr_swap_pages() > 0, i.e. no memcg from it up to (not including) the root
 * whose memory.swap.max is used up. The world's swap.current comes from snapshots: exact only
 * for memory.swap.max 0 (identity is not claimed for the calls a larger one concerns,
 * RS_GAP_SWAP_MAX).
 */
bool rs_sim_memcg_swap_ok(const struct rs_sim *s, int memcg);
int rs_sim_swappiness(const struct rs_sim *s, int memcg);
/* The memcg has file pages, or anon pages and swap, on node nid (-1: any node). */
bool rs_sim_reclaimable(const struct rs_sim *s, int memcg, int nid);

/*
 * An isolation (isolate_lru_folios()) is about to happen in the invocation in progress: the
 * replay driver may run other calls that overlapped it in the recording first (models/
 * replay.c). Nothing outside the driver.
 */
uint64_t rs_replay_isolation(void);

/*
 * The isolations the other calls of the invocation's policy still running had in progress at
 * `ts` in the recording (rs_recorded.inflight: pages isolated, not yet put back), each passed to
 * fn. Nothing outside the driver (no call runs beside the caller).
 */
void rs_replay_inflight(const struct rs_reclaim_call *self, uint64_t ts,
			void (*fn)(void *arg, const struct rs_inflight *f), void *arg);

/*
 * shrink_inactive_list() / shrink_active_list() on one lruvec, counted into the outcome; each
 * is one isolation (rs_replay_isolation()).
 */
struct rs_shrink {
	uint64_t taken;		/* = scanned: isolate never takes more than the list holds */
	uint64_t reclaimed;	/* inactive */
	uint64_t activated;	/* inactive: back to the active list */
	uint64_t pageout;	/* inactive: written for reclaim (anon: to swap) */
	uint64_t deactivated;	/* active: moved to the inactive list */
	uint64_t referenced;	/* active: referenced (old kernels count these as rotated) */
	uint64_t kept_active;	/* active: rotated back onto the active list */
};

void rs_sim_shrink_inactive(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			    struct rs_shrink *r);
void rs_sim_shrink_active(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			  struct rs_shrink *r);

/*
 * Shrink a node-wide list as one LRU (2.6.28 had no per-memcg LRU for global reclaim): the n
 * pages are taken from the memcgs of the subtree of `root` in proportion to their share of the
 * list, each with its own reclaimability. The split puts n evenly spaced points on the list
 * (the memcgs' segments end to end, in pre-order) and counts the points in each segment; the
 * points' phase moves by 2^32 / golden ratio every call, so over a run every memcg gets its
 * proportional share to within a few pages, without a bias to any position.
 */
void rs_sim_shrink_merged(struct rs_sim *s, int root, int nid, int lru, uint64_t n,
			  struct rs_shrink *r);

/*
 * What a kswapd invocation must free where the recorded run was balanced: the call's
 * nr_to_reclaim (the pages the recorded run freed: what the allocations during it needed), or,
 * when the reconstruction left it 0, what brings the node's sampled free pages up to the high
 * watermark.
 */
uint64_t rs_sim_kswapd_want(const struct rs_sim *s);

/*
 * The same for the policy standing for the recorded kernel (its reclaim is the recording's):
 * where pgdat_balanced() on the recorded zones ends the run of the recorded reclaim
 * (include/kswapd_end.h), rs_sim_kswapd_want() without zone samples around the run.
 */
uint64_t rs_sim_kswapd_derived_want(const struct rs_sim *s);

/*
 * A counterfactual kswapd run's check: pgdat_balanced() on the recorded zones with the policy's
 * own reclaim in this invocation, at the moment of the recorded run's check after as many
 * passes (include/kswapd_end.h), or `want` reached (where the recorded run was balanced).
 */
bool rs_sim_kswapd_balanced(const struct rs_sim *s, uint64_t want);

/*
 * The i-th node of the call's zonelist (i from 0 to the node count): the call's node first
 * (node 0 when it has none), then the others in order.
 */
int rs_sim_zonelist_node(const struct rs_sim *s, int i);

/* Note a pass (shrink_zone / shrink_node) at a priority. */
void rs_sim_round(struct rs_sim *s, int priority);

/* Pre-order walk of a subtree: the memcg after `m` (-1 at the end); the first one is root. */
int rs_subtree_next(const struct rs_world *w, int root, int m);

/* The same from the invocation's copy of the tree (the hot path). */
static inline int rs_sim_next(const struct rs_sim *s, int root, int m)
{
	int pre = s->ls->pre[m] + 1;

	return pre < s->ls->pre_end[root] ? s->ls->at[pre] : -1;
}

static inline int rs_sim_parent(const struct rs_sim *s, int m)
{
	return s->ls->parent[m];
}

/*
 * The shared reclaim iterator of mem_cgroup_iter() with a reclaim cookie: each walk starts
 * after the memcg where the previous walk of the same (root, node, slot) stopped, runs to the
 * end of the subtree and returns -1 there; a walk that starts at the end restarts at the root.
 * Calls that overlap run interleaved (models/replay.c) and share the position as the kernel's
 * concurrent walkers do, at the granularity of their isolations.
 */
struct rs_iter {
	int nr_memcg, nr_nodes, nr_slots;
	int *pos;		/* [root][nid][slot], -1: at the start */
};

int rs_iter_init(struct rs_iter *it, const struct rs_world *w, int nr_slots,
		 struct rs_error *err);
void rs_iter_free(struct rs_iter *it);
/* prev = -1 starts a walk. */
int rs_iter_next(struct rs_iter *it, const struct rs_world *w, int root, int nid, int slot,
		 int prev);
/* The shared position itself, for walks that filter (the rework's mem_cgroup_iter_cond). */
int *rs_iter_pos(struct rs_iter *it, int root, int nid, int slot);

/* ---------------------------------------------------------------------------------------- */
/* Soft-limit tree: 3.10 mem_cgroup_soft_limit_reclaim(), 6.x memcg1_soft_limit_reclaim()    */

/* Reclaim one memcg's lruvec on nid at priority 0, 32 pages wanted (mem_cgroup_shrink_node). */
typedef uint64_t (*rs_soft_shrink_fn)(void *ctx, struct rs_sim *s, int memcg, int nid);

struct rs_softtree_opts {
	bool check_reclaimable;	/* 3.10 skips victims without reclaimable pages; 6.x not */
	int iter_slot;		/* slot of the reclaim iterator the walk uses */
};

/* Returns pages reclaimed; the scans are counted as soft in the outcome. */
uint64_t rs_softtree_reclaim(struct rs_sim *s, struct rs_iter *it, int nid, int order,
			     const struct rs_softtree_opts *o, rs_soft_shrink_fn fn, void *ctx);

/* ---------------------------------------------------------------------------------------- */
/* Pure scan-balance functions, exported for the unit tests                                */

/* 6.x get_scan_count() for one lruvec. */
enum rs_scan_balance { RS_SCAN_EQUAL, RS_SCAN_FRACT, RS_SCAN_ANON, RS_SCAN_FILE };

struct rs_gsc_in {
	uint64_t size[RS_NR_EVICTABLE];	/* lruvec_lru_size(): the lruvec's own pages */
	int priority, swappiness;
	bool may_swap, swap_ok, cgroup_reclaim, file_is_tiny, cache_trim_mode, online;
	uint64_t anon_cost, file_cost;	/* sc->anon_cost / file_cost (the target lruvec's) */
};

enum rs_scan_balance rs_mainline_scan_count(const struct rs_gsc_in *in,
					    uint64_t nr[RS_NR_EVICTABLE]);

/* 6.x inactive_is_low(): inactive * int_sqrt(10 * GB) < active. */
bool rs_inactive_is_low(uint64_t inactive, uint64_t active);

/* 2.6.28 get_scan_ratio(): recent scanned/rotated with the halving rule. */
struct rs_reclaim_stat {
	uint64_t recent_scanned[2], recent_rotated[2];
};

/*
 * The halving rule, 2.6.28 to 3.10 alike: a floating average, halved once the recent scans of a
 * type exceed a quarter of its lists (anon and file pages of the lruvec).
 */
void rs_reclaim_stat_decay(struct rs_reclaim_stat *rs, uint64_t anon, uint64_t file);

void rs_splitlru_scan_ratio(struct rs_reclaim_stat *rs, uint64_t anon, uint64_t file,
			    uint64_t free, uint64_t pages_high, bool swap_ok, int swappiness,
			    uint64_t pct[2]);

/* 3.10 get_scan_count(). */
struct rs_v310_gsc_in {
	uint64_t size[RS_NR_EVICTABLE];
	int priority, swappiness;
	bool may_swap, swap_ok, global, force_scan;
	uint64_t zone_free, zone_high;	/* global: file + free <= high -> anon only */
};

enum rs_scan_balance rs_v310_scan_count(const struct rs_v310_gsc_in *in,
					struct rs_reclaim_stat *rs, uint64_t nr[RS_NR_EVICTABLE]);

/* ---------------------------------------------------------------------------------------- */
/* 2.6.28 split-LRU core (models/splitlru_core.c)                                          */

/* `plus` is what shrink_zone() adds to every list's nr_scan per call: 1 in 2.6.26-rc8-mm1. */
int rs_splitlru_init(const struct rs_world *w, unsigned int plus, void **state,
		     struct rs_error *err);
int rs_splitlru_invoke(void *state, const struct rs_world *w, const struct rs_reclaim_call *call,
		       struct rs_call_outcome *out, struct rs_error *err);
void rs_splitlru_free(void *state);

/* ---------------------------------------------------------------------------------------- */
/* 3.10 core (models/v310_core.c)                                                          */

struct rs_v310;

/* scan_control of 3.10, as far as the models need it. */
struct rs_v310_sc {
	struct rs_v310 *v;
	struct rs_sim *sim;
	int target;		/* -1: global reclaim */
	bool kswapd, may_swap;
	int priority, order;
	uint64_t nr_to_reclaim, nr_reclaimed, nr_scanned;
	uint64_t want;		/* kswapd: pages this run must free (balanced when reached) */
};

/* Filter of the rework's memcg iterator (mem_cgroup_soft_reclaim_eligible). */
enum rs_filter { RS_VISIT, RS_SKIP, RS_SKIP_TREE };
typedef enum rs_filter (*rs_v310_filter_fn)(struct rs_v310_sc *sc, int memcg, int root);

/*
 * What a policy does with a zone (= node) at one priority: the soft-limit tree pass and
 * shrink_zone() for softlimit-tree, the two-pass shrink_zone() for softlimit-rework. Called by
 * do_try_to_free_pages() (direct and limit reclaim) and balance_pgdat().
 */
typedef void (*rs_v310_zone_fn)(struct rs_v310_sc *sc, int nid);

/* A policy on the 3.10 base: its state is the base (ops.invoke/free are the two below). */
int rs_v310_init(const struct rs_world *w, rs_v310_zone_fn zone, void **state,
		 struct rs_error *err);
int rs_v310_invoke(void *state, const struct rs_world *w, const struct rs_reclaim_call *call,
		   struct rs_call_outcome *out, struct rs_error *err);
void rs_v310_free(void *state);
struct rs_iter *rs_v310_iter(struct rs_v310 *v);
/* 3.10 shrink_lruvec() of one memcg on one node. */
void rs_v310_shrink_lruvec(struct rs_v310_sc *sc, int memcg, int nid);
/* 3.10 shrink_zone() walking the target's subtree; returns the memcgs visited. */
int rs_v310_shrink_zone(struct rs_v310_sc *sc, int nid, rs_v310_filter_fn filter);
/* mem_cgroup_shrink_node_zone(): one memcg at priority 0, for the soft-limit tree. */
uint64_t rs_v310_soft_shrink(void *v310, struct rs_sim *s, int memcg, int nid);

#endif
