/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay: re-evaluate reclaim policies against the pressure a trace recorded.
 *
 * A *world* is what the policies look at: per-node, per-memcg lruvecs with their LRU list sizes,
 * the memcg tree with usage, limits, soft limits and swappiness, free pages and watermarks per
 * node, the zone_stat samples per node (kswapd's end, include/kswapd_end.h), free swap, and the
 * reclaimability each list showed in the recording. Its values follow
 * the recorded evolution: a time-ordered list of updates (snapshots set a value, lruvec deltas
 * add to it). The *pressure* is the time-ordered list of reclaim invocations the recording made
 * (struct rs_reclaim_call), each with what the recording did in it, for the identity check.
 *
 * A *policy* (struct rs_policy_ops, one file per policy in models/) is asked, invocation by
 * invocation, how much it would scan from each list of each lruvec. It keeps its own state
 * across invocations (scan accumulators, recent scanned/rotated, anon/file cost, iterator
 * positions). The replay is open-loop: between invocations the world follows the recording, not
 * the policy; within an invocation a policy works on a scratch copy that its own scanning
 * changes. Pages reclaimed = pages scanned x the reclaimability the recording observed on that
 * list (docs/models.md). Refaults an alternative policy would have caused are not in the trace.
 *
 * Units: pages, nanoseconds of the trace clock. Lifetime: rs_world_new() -> rs_world_add_*()
 * -> rs_world_finalize() -> rs_replay_run() (any number of times) -> rs_world_free().
 */
#ifndef RS_REPLAY_H
#define RS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs_error.h"
#include "rs_event.h"
#include "zone_balance.h"	/* struct rs_zone_flow */

/*
 * The evictable lists, numbered as enum rs_lru 0..3. Not analysis.h's RS_NR_LISTS (6: with
 * unevictable and "unknown"): the replay's arrays hold the lists reclaim scans, and a file may
 * include both headers.
 */
#define RS_NR_EVICTABLE		4
#define RS_DEF_PRIORITY		12	/* DEF_PRIORITY */
#define RS_SWAP_CLUSTER_MAX	32	/* SWAP_CLUSTER_MAX */
#define RS_UNLIMITED		UINT64_MAX	/* limit / soft limit not set */

/* ---------------------------------------------------------------------------------------- */
/* The world                                                                                */

struct rs_world;	/* opaque */

struct rs_world_opts {
	int nr_nodes;		/* >= 1 */
	int vm_swappiness;	/* /proc/sys/vm/swappiness of the recording */
	bool cgroup_v1;		/* cgroup v1 memcg: soft limits, per-memcg swappiness */
	bool mglru;		/* the recorded kernel ran MGLRU (lru_gen) */
	/* compact_gap() = 2 << order (before 7.2, include/compact_gap.h); else min(it, 32) */
	bool compact_gap_uncapped;
};

struct rs_memcg_desc {
	uint64_t id;		/* cgroup id (inode of its directory); 0 when unknown */
	const char *path;	/* copied; "/" for the root */
	int parent;		/* index of the parent; -1 only for the root (added first) */
};

/* What a world value is and where it came from (printed by `replay --inputs`). */
enum rs_wfield {
	RS_WF_LRU,		/* list size of lruvec (memcg, nid), list .lru */
	RS_WF_USAGE,		/* memcg usage (hierarchical, memory.usage_in_bytes), pages */
	RS_WF_LIMIT,		/* memcg hard limit, pages; RS_UNLIMITED */
	RS_WF_SOFT_LIMIT,	/* memcg soft limit (v1), pages; RS_UNLIMITED */
	RS_WF_SWAPPINESS,	/* memcg swappiness; -1 = vm_swappiness */
	RS_WF_ONLINE,		/* memcg online (1) or offline after rmdir (0) */
	RS_WF_WS_ACTIVATE,	/* workingset_activate_{anon,file} of a lruvec, .lru 0/1 */
	RS_WF_WS_RESTORE,	/* workingset_restore_{anon,file} of a lruvec, .lru 0/1 */
	RS_WF_NODE_FREE,	/* node free pages */
	RS_WF_NODE_WMARK_HIGH,	/* node high watermark, summed over its zones */
	RS_WF_NODE_MANAGED,	/* node managed pages (old inactive_ratio); 0 = estimate */
	RS_WF_SWAP_FREE,	/* free swap pages, whole system */
	/*
	 * List size as the memcg stats last flushed it, what memory.stat showed: v2 the memcg's
	 * subtree (lruvec_page_state() reads that), v1 its own pages.
	 */
	RS_WF_LRU_STAT,
	/*
	 * The memcg's stats were flushed (css_rstat_flush(): its subtree; reading memory.stat
	 * does it when enough updates are pending): from then until the next flush
	 * lruvec_page_state() of the memcg and of every descendant reads the workingset counters
	 * and the lists (hierarchical: a memcg's counts include its subtree's as they were at
	 * its own or an ancestor's last flush) as they were here. Value 1 (a memcg_flush_stats
	 * event that flushed, e.g. the periodic flush of the root): the list stats of the subtree
	 * become its lists; 0 (a memory.stat read in a trace without flush events): the
	 * workingset counters only, the read's RS_WF_LRU_STAT sets the lists.
	 */
	RS_WF_WS_FLUSH,
	/*
	 * cgroup v2 settings reclaim obeys that no event shows (memcg_stat min=, low=, swap_max=,
	 * swap=; pages): memory.min and memory.low (mem_cgroup_calculate_protection(): a memcg
	 * below its effective protection is skipped, one above it scanned in proportion), and
	 * memory.swap.max (RS_UNLIMITED: max) with memory.swap.current, whose difference over the
	 * memcg and its ancestors is mem_cgroup_get_nr_swap_pages(): none left, no anon reclaim
	 */
	RS_WF_MEMORY_MIN,
	RS_WF_MEMORY_LOW,
	RS_WF_SWAP_MAX,
	RS_WF_SWAP_USAGE,
	RS_WF_NR
};

enum rs_wop { RS_WOP_SET, RS_WOP_ADD };

enum rs_wsrc {
	RS_WSRC_SNAPSHOT,	/* memcg_stat / node_stat marker */
	RS_WSRC_DELTA,		/* memcg:mod_memcg_lruvec_state and friends */
	RS_WSRC_IMPLIED,	/* lru_isolate nr_requested at priority p: ~ nr_requested << p */
	RS_WSRC_CGROUP,		/* cgroup_mkdir / rmdir / cgroup_map marker */
	RS_WSRC_HEADER,		/* reclaimscope_begin marker, record options */
	RS_WSRC_SYNTH,		/* made up by the caller (tests, defaults) */
	RS_WSRC_NR
};

struct rs_world_update {
	uint64_t ts;
	uint8_t field;		/* enum rs_wfield */
	uint8_t op;		/* enum rs_wop; ADD below 0 clamps to 0 and is counted */
	uint8_t src;		/* enum rs_wsrc */
	uint8_t lru;		/* RS_WF_LRU: 0..3; RS_WF_WS_*: 0 anon, 1 file */
	int32_t memcg;		/* memcg index; -1 for node and global fields */
	int32_t nid;		/* node; -1 for memcg-wide and global fields */
	int64_t value;
	uint64_t ev_offset;	/* file offset of the event it came from; 0 when none */
};

/*
 * What scanning a list did to its pages. Inactive lists fill scanned..pageout
 * (lru_shrink_inactive: nr_scanned, nr_reclaimed, nr_activate0/1; pageout: the pages of the
 * folios write_folio wrote, as nr_pageout counts them);
 * active lists fill taken..referenced (lru_shrink_active: nr_taken, nr_deactivated,
 * nr_referenced). A window of the recording, the windows the world sums per list and the
 * replay report's totals are all this one set of counters.
 */
struct rs_scan_pages {
	uint64_t scanned, reclaimed, activated, pageout;	/* inactive lists */
	uint64_t taken, deactivated, referenced;		/* active lists */
};

/* sum += p, counter by counter */
void rs_scan_pages_add(struct rs_scan_pages *sum, const struct rs_scan_pages *p);

/*
 * What scanning a list showed in the recording, summed over a time window: the model multiplies
 * its own scan by these fractions.
 */
struct rs_obs {
	uint64_t ts_start, ts_end;
	int memcg, nid, lru;
	struct rs_scan_pages pages;
	uint32_t folio;		/* pages per folio the window's isolates showed; 0: unknown (1) */
	/*
	 * A list of single pages and folios of one size (order-0 anon pages and PMD THPs): that
	 * size, and of the pages its isolates scanned (folio_scanned) those in such folios
	 * (folio_big). 0: not such a list (`folio` describes it).
	 */
	uint32_t folio_one;
	uint64_t folio_scanned, folio_big;
	/*
	 * The window's isolates by request (NULL: none). On a list of folios of several sizes the
	 * pages one request takes depend on its size: one 64..512-page folio for any request under
	 * 64, several small folios and the big one that crossed the request for 32. The world
	 * keeps only the request sizes seen, in a pool of its own (req_at, and nreq beside nsteps
	 * where it costs no padding: their place there): a full table was 384 of the 528 bytes of
	 * each of its windows, one per call x victim x list and again per priority, and a window
	 * sees a few request sizes.
	 */
	const struct rs_obs_req *req;
	size_t req_at;
	/*
	 * false: the whole call (every priority). true: only its passes at `prio`, kept apart
	 * from the whole-call windows; rs_world_rates() prefers it for a model pass at `prio`.
	 */
	bool one_prio;
	int prio;
	/*
	 * one_prio windows of an inactive list: the pass's shrinks in order (NULL: not known).
	 * Where in a pass its pages were freed: anon written to swap early is freed late, once
	 * the writeback completes, and a folio under read IO is freed at once when it is done.
	 * The world keeps its own copy (steps_at: its place there).
	 */
	const struct rs_obs_step *steps;
	uint32_t nsteps, nreq;
	size_t steps_at;
};

/* Isolates by request ([nr_requested - 1], 1..SWAP_CLUSTER_MAX) and the pages they scanned. */
struct rs_obs_req {
	uint32_t isolates[RS_SWAP_CLUSTER_MAX];
	uint64_t scanned[RS_SWAP_CLUSTER_MAX];
};

/* One shrink_inactive_list() of a recorded pass, in the order the pass ran them. */
struct rs_obs_step {
	uint32_t scanned, reclaimed;
};

/* A fraction of the pages scanned, in units of 1/2^32. */
#define RS_RATE_ONE	(UINT64_C(1) << 32)

enum rs_rate_src {
	RS_RATE_WINDOW,		/* this lruvec's list, the window nearest the invocation */
	RS_RATE_NODE_LIST,	/* this list over all memcgs of the node, whole trace */
	RS_RATE_ALL_LIST,	/* this list over all lruvecs, whole trace */
	RS_RATE_ASSUMED,	/* never observed: every scanned page is taken (docs/models.md) */
	RS_RATE_SRC_NR
};

struct rs_rates {
	uint64_t reclaim, activate, pageout;	/* inactive list */
	uint64_t deactivate, referenced;	/* active list; kept active = ONE - deactivate */
	uint32_t folio;				/* pages per folio, >= 1 */
	/*
	 * The share of the list's folios that have `folio` pages, the rest having one page each:
	 * RS_RATE_ONE for a list of `folio`-page folios (the average of the recording's).
	 */
	uint64_t folio_share;
	enum rs_rate_src src;
};

/* Reclaim contexts of the pressure. Soft-limit reclaim is part of a kswapd or direct call. */
enum rs_call_ctx {
	RS_CALL_KSWAPD,		/* one kswapd run on a node: wake -> sleep */
	RS_CALL_DIRECT,		/* global direct reclaim: try_to_free_pages() */
	RS_CALL_MEMCG,		/* limit/high reclaim: try_to_free_mem_cgroup_pages() */
	RS_CALL_NODE,		/* node_reclaim() (zone_reclaim_mode) */
	RS_CALL_NR
};

/* Per-memcg, per-list counts (recorded in a call, or a policy's totals). */
struct rs_memcg_lists {
	int memcg;
	int nid;		/* the node of these pages (one entry per memcg and node) */
	uint64_t scanned[RS_NR_EVICTABLE], reclaimed[RS_NR_EVICTABLE];
};

/* What the recording did in one invocation (for identity and the "recorded" column). */
struct rs_recorded {
	bool have;			/* the trace has this call's shrink events */
	int prio_first, prio_lowest;	/* -1 when unknown */
	uint32_t rounds;		/* shrink passes: distinct (priority, node) seen */
	uint32_t nodes;			/* distinct nodes its (non-soft) shrink events named */
	/*
	 * Time of the last shrink event at each priority (soft-limit passes aside) until the call
	 * first went back to a higher priority (a retry), 0 where it ran no pass that scanned:
	 * when each pass ended, for the stats a model's pass reads (a stats flush during a call
	 * is seen by the passes after it).
	 */
	uint64_t prio_end[RS_DEF_PRIORITY + 1];
	/*
	 * The same passes' prepare_scan_control(), 0 where not known: the reclaimer's last
	 * memcg_flush_stats (7.x: one in each prepare_scan_control(), flushing or not) before the
	 * pass's first lru_isolate and after the previous pass's last shrink. It comes after that
	 * pass's shrink_slab(): the 7.2 zswap trace's kswapd run at 105.062 s ended priority 12's
	 * shrinks at 105.0630 s, flushed the root for priority 11 at 105.0715 s and isolated at
	 * 105.0824 s.
	 */
	uint64_t prio_begin[RS_DEF_PRIORITY + 1];
	/*
	 * kswapd: when its balance_pgdat() returned, 0 when the trace does not say (no 7.x
	 * mm_vmscan_balance_pgdat_end). The call runs on to the next kswapd_wake or kswapd_sleep,
	 * 100 ms or more later (kswapd_try_to_sleep()'s short nap), while balance_pgdat() took its
	 * snapshot_refaults() as it returned.
	 */
	uint64_t run_end;
	uint64_t scanned[RS_NR_EVICTABLE], reclaimed[RS_NR_EVICTABLE];
	uint64_t nr_reclaimed;		/* *_reclaim_end nr_reclaimed */
	uint64_t soft_scanned, soft_reclaimed;	/* inside memcg_softlimit_reclaim_begin/end */
	/*
	 * Batches shrink_inactive_list() gave up without scanning: too_many_isolated() held, the
	 * task slept (mm_vmscan_throttled, reason ISOLATED), held again, and the call returned 0
	 * (RS_GAP_ISOLATED). Told by the task's next reclaim event after the throttle not being
	 * an lru_isolate of an inactive list (a throttle it passed is followed by its isolate). A
	 * lower bound: a refused batch followed at once by the other type's inactive batch reads
	 * as passed.
	 */
	uint32_t isolate_refused;
	/*
	 * Pages its isolations passed over (lru_isolate nr_skipped): folios of zones above the
	 * call's reclaim index, counted in nr_scanned and left on the list (RS_GAP_ZONE_LISTS)
	 */
	uint64_t skipped;
	const struct rs_memcg_lists *memcg;	/* per victim; copied by rs_world_add_call */
	size_t nr_memcg;
	/*
	 * Time of each of its lru_isolate events, in order (soft-limit passes included; copied by
	 * rs_world_add_call): calls that overlap are replayed interleaved, each model isolation
	 * at the time of the recorded one of the same rank (models/replay.c).
	 */
	const uint64_t *isolate_ts;
	size_t nr_isolate;
	/*
	 * Its isolations that took pages, each from its lru_isolate to the shrink event that put
	 * the survivors back (copied by rs_world_add_call): the pages off the lists meanwhile.
	 */
	const struct rs_inflight *inflight;
	size_t nr_inflight;
	/*
	 * kswapd: the moments balance_pgdat() checked pgdat_balanced(), in order (copied by
	 * rs_world_add_call): the run's start, the end of every pass but the last, and the run's
	 * end when it ran a pass (the check that said balanced); none when it is not known.
	 */
	const struct rs_kswapd_check *checks;
	size_t nr_checks;
};

/*
 * One recorded isolation's pages off the LRU: isolate_lru_folios() at `begin` took pages of list
 * `lru` of world memcg `memcg` on node `nid`; shrink_inactive_list() or shrink_active_list() put
 * back what it did not free at `end` (its shrink event): `back` pages onto `lru`, `moved` onto
 * the other list of its type (lru ^ 1: activated, or deactivated). The freed ones never return.
 */
struct rs_inflight {
	uint64_t begin, end;
	uint64_t back, moved;
	int memcg;
	int nid;
	int lru;
};

/* One pgdat_balanced() check of a recorded kswapd run. */
struct rs_kswapd_check {
	uint64_t ts;
	uint64_t reclaimed;		/* by the run before it */
	uint64_t node_reclaimed;	/* on the run's node, every context, trace start to ts */
	struct rs_zone_flow flow;	/* the node's buddy flow at ts (record --zone-flow) */
};

struct rs_reclaim_call {
	uint64_t ts, ts_end;
	enum rs_call_ctx ctx;
	int nid;		/* kswapd/node: the node; direct/memcg: preferred node, -1 any */
	int target;		/* RS_CALL_MEMCG: memcg index of the reclaim root; else -1 */
	int order;
	int zoneidx;		/* kswapd: highest_zoneidx of the run (kswapd_wake) ... */
	bool zoneidx_known;	/* ... when the trace gave it */
	uint64_t gfp_flags;	/* 0 when unknown */
	bool may_swap;		/* memcg reclaim: MEMCG_RECLAIM_MAY_SWAP; true elsewhere */
	/*
	 * Memcg reclaim that no charge of the task asked for: its reclaim root (the kernel's 7.1+
	 * memcg_id) is neither the task's memcg nor above it, as when a task of another cgroup
	 * writes memory.reclaim. Its nr_to_reclaim follows the amount written, which no event
	 * shows (RS_GAP_PROACTIVE).
	 */
	bool proactive;
	uint64_t nr_to_reclaim;	/* pages wanted (docs/models.md: how each context gets it) */
	/*
	 * Direct reclaim for a costly order (reclaim/compaction): shrink_node() goes on at the
	 * same priority while should_continue_reclaim() says compaction is not ready yet, a per
	 * zone test the trace cannot make. Where the recorded call stopped: one past what it had
	 * freed before its last shrink_node() round; 0: no such round (a model does not go on).
	 */
	uint64_t compact_goal;
	int pid;
	uint64_t ev_offset;	/* the begin event */
	struct rs_recorded rec;
};

struct rs_world_info {
	int nr_nodes, nr_memcg;
	int vm_swappiness;
	bool cgroup_v1, mglru;
	bool compact_gap_uncapped;	/* rs_world_opts */
	bool have_sizes;	/* some RS_WF_LRU update exists */
	bool memcg_sizes;	/* some RS_WF_LRU update of a memcg below the root */
	/*
	 * two or more nodes, and a memcg below the root has RS_WF_LRU updates without
	 * rs_world_set_node_lists(): its lists are held on node 0 (RS_GAP_NODE_LISTS)
	 */
	bool node_lists_missing;
	bool have_refaults;	/* some RS_WF_WS_* update exists */
	bool have_ws_flush;	/* some RS_WF_WS_FLUSH update exists */
	size_t nr_zone_samples;	/* rs_world_add_zone_sample() */
	size_t nr_calls, nr_updates, nr_obs;
	uint64_t clamped;	/* ADD updates that would have gone below 0, last run */
};

/* Static facts about a memcg, valid after rs_world_finalize(). */
struct rs_memcg_info {
	uint64_t id;
	const char *path;
	int parent, depth;
	int pre;		/* position in the pre-order walk (children in creation order) */
	int pre_end;		/* one past the last position of its subtree */
};

/* Values of a memcg at the world's current time. */
struct rs_memcg_state {
	uint64_t usage, limit, soft_limit;
	uint64_t memory_min, memory_low;	/* 0: none (or not recorded) */
	uint64_t swap_max, swap_usage;		/* RS_UNLIMITED, 0: none or not recorded */
	int swappiness;		/* resolved: the memcg's own (v1) or vm_swappiness */
	bool online;
};

struct rs_node_state {
	uint64_t free, wmark_high, managed;
};

struct rs_world *rs_world_new(const struct rs_world_opts *opts, struct rs_error *err);
void rs_world_free(struct rs_world *w);

/* Add a memcg; returns its index (the root is 0) or -1 with err set. Parents before children. */
int rs_world_add_memcg(struct rs_world *w, const struct rs_memcg_desc *d, struct rs_error *err);
/*
 * Memcg `memcg`'s lists are placed per node by its updates (memory.numa_stat): with two or
 * more nodes, only memcgs with sizes and without this raise RS_GAP_NODE_LISTS.
 */
void rs_world_set_node_lists(struct rs_world *w, int memcg);
int rs_world_add_update(struct rs_world *w, const struct rs_world_update *u,
			struct rs_error *err);
int rs_world_add_obs(struct rs_world *w, const struct rs_obs *o, struct rs_error *err);
int rs_world_add_call(struct rs_world *w, const struct rs_reclaim_call *c, struct rs_error *err);
struct rs_zone_sample;
/* A node's zones at one moment (zone_stat markers, include/zone_balance.h); copied. */
int rs_world_add_zone_sample(struct rs_world *w, const struct rs_zone_sample *s,
			     struct rs_error *err);

/* Sort and check everything added; nothing can be added afterwards. */
int rs_world_finalize(struct rs_world *w, struct rs_error *err);

/* Readers; valid after rs_world_finalize(). */
const struct rs_world_info *rs_world_info(const struct rs_world *w);
const struct rs_memcg_info *rs_world_memcg(const struct rs_world *w, int memcg);
/* The memcg index at a pre-order position. */
int rs_world_memcg_at(const struct rs_world *w, int pre);
int rs_world_find_memcg(const struct rs_world *w, uint64_t id);	/* -1 when absent */
const struct rs_reclaim_call *rs_world_call(const struct rs_world *w, size_t i);
const struct rs_world_update *rs_world_update_at(const struct rs_world *w, size_t i);
/* The zone samples of node nid in time order; *n their count (0: none). */
const struct rs_zone_sample *rs_world_zone_samples(const struct rs_world *w, int nid, size_t *n);
const char *rs_wfield_name(enum rs_wfield f);
const char *rs_wsrc_name(enum rs_wsrc s);
const char *rs_call_ctx_name(enum rs_call_ctx c);
const char *rs_rate_src_name(enum rs_rate_src s);

/* Current values (the world's clock is moved by rs_world_rewind/advance). */
uint64_t rs_world_lru(const struct rs_world *w, int memcg, int nid, int lru);
/*
 * The flushed-stats view of a memcg's list, hierarchical (lruvec_page_state()): v2 as its last
 * flush or memory.stat read left it, v1 its subtree's own stats summed; its subtree's lists when
 * never flushed.
 */
uint64_t rs_world_lru_stat(const struct rs_world *w, int memcg, int nid, int lru);
/*
 * The same view as of time `ts`, before or after the world's clock: the flushes of the trace up
 * to ts (a reclaim pass reads the stats as of its own moment, and flushes land while a call
 * runs). Never flushed by then: the subtree's lists now.
 */
uint64_t rs_world_lru_stat_at(const struct rs_world *w, int memcg, int nid, int lru, uint64_t ts);
void rs_world_memcg_state(const struct rs_world *w, int memcg, struct rs_memcg_state *out);
void rs_world_node(const struct rs_world *w, int nid, struct rs_node_state *out);
uint64_t rs_world_swap_free(const struct rs_world *w);
uint64_t rs_world_ws(const struct rs_world *w, enum rs_wfield f, int memcg, int nid, int file);
/*
 * workingset_activate_{anon,file} summed over the memcg's subtree, as lruvec_page_state() reads
 * it: as of the last RS_WF_WS_FLUSH of the memcg or an ancestor; the current sum when the world
 * has no flush.
 */
uint64_t rs_world_ws_flushed(const struct rs_world *w, int memcg, int nid, int file);
/* The same as of time `ts` (rs_world_lru_stat_at()); no flush by then: the current sum. */
uint64_t rs_world_ws_flushed_at(const struct rs_world *w, int memcg, int nid, int file,
				uint64_t ts);
/*
 * Reclaimability of a list now: the recorded call's window nearest in time; with prio >= 0 and
 * that call's passes at prio recorded on the list, those passes' window alone (a kswapd run
 * down to priority 2 reclaims differently at 12 than at 2). prio -1: the whole call.
 */
void rs_world_rates(const struct rs_world *w, int memcg, int nid, int lru, int prio,
		    struct rs_rates *out);
/*
 * The same as of time `now` (a call's start): calls replayed interleaved keep the windows they
 * would have read alone while the world's clock moves on to the next call's start.
 */
void rs_world_rates_at(const struct rs_world *w, int memcg, int nid, int lru, int prio,
		       uint64_t now, struct rs_rates *out);
/*
 * Pages the isolates of `req` pages took on average in the window rs_world_rates_at() uses at
 * `now` for this list and priority (its own lruvec's window only), 32.32 fixed point; 0 when
 * that window had no isolate of that request.
 */
uint64_t rs_world_isolate_mean(const struct rs_world *w, int memcg, int nid, int lru, int prio,
			       uint64_t now, uint64_t req);
/*
 * Pages the recorded pass at `prio` of the call starting at `now` reclaimed from this list over
 * its pages scanned [pos, pos + n), 32.32 fixed point: its shrinks in order, each freeing its
 * pages evenly over what it scanned; past the pass's last shrink at the pass's own rate. false
 * when that call (starting at `now`: not the nearest call) ran no pass there with its shrinks
 * known (rs_obs.steps).
 */
bool rs_world_pass_reclaim(const struct rs_world *w, int memcg, int nid, int lru, int prio,
			   uint64_t now, uint64_t pos, uint64_t n, uint64_t *out);
/*
 * Pages the isolates of the recorded pass at `prio` of the call starting at `now` asked for on
 * this list (the sum of their nr_requested: the pass's scan target, less what a stop cut off);
 * 0 when that call ran no pass there.
 */
uint64_t rs_world_pass_requested(const struct rs_world *w, int memcg, int nid, int lru, int prio,
				 uint64_t now);
/* The call starting at `now` ran a pass at `prio` on this lruvec that scanned some list. */
bool rs_world_pass_seen(const struct rs_world *w, int memcg, int nid, int prio, uint64_t now);
uint64_t rs_world_now(const struct rs_world *w);
/* Changes whenever the world's values may have (each advance or rewind): for caches. */
uint64_t rs_world_generation(const struct rs_world *w);

/* Back to the state before any update; then apply every update with ts <= `ts`, in order. */
void rs_world_rewind(struct rs_world *w);
void rs_world_advance(struct rs_world *w, uint64_t ts);

/*
 * Inputs that identity (mainline against the recording) needs and a trace can lack. A call that
 * depends on one the world lacks cannot be reproduced but by chance; identity is claimed only
 * for the lists whose recorded scanning happened outside such calls to within the target.
 */
enum rs_gap {
	RS_GAP_WMARK,		/* kswapd calls; no recorded wmark_high (inferred bound only) */
	RS_GAP_SIZES,		/* every call; no lruvec deltas: sizes are snapshots only */
	RS_GAP_SOFT_TREE,	/* global calls, v1, a soft limit set: the soft-limit tree's keys */
	/*
	 * kswapd calls whose end pgdat_balanced() on the recorded zones places elsewhere than the
	 * recorded run's (include/kswapd_end.h): a free-page count between samples
	 */
	RS_GAP_KSWAPD_END,
	/*
	 * proactive memcg calls (rs_reclaim_call.proactive): memory_reclaim() sets each call's
	 * nr_to_reclaim from the amount written to memory.reclaim and what earlier calls freed
	 */
	RS_GAP_PROACTIVE,
	/*
	 * every call, in a world of two or more nodes where a memcg other than the root has LRU
	 * sizes and no lists per node (rs_world_set_node_lists(): memory.numa_stat in its
	 * snapshots): memory.stat and mod_memcg_lruvec_state carry no node, so the world holds such
	 * a memcg's lists on node 0 (and the root's own lists, node_stat less them, wrong on every
	 * node), while every reclaim context scans each node's lruvec >> priority
	 */
	RS_GAP_NODE_LISTS,
	/*
	 * direct calls of a world of two or more nodes whose recorded shrinks named fewer nodes
	 * than it has: the allocation's nodemask (mempolicy MPOL_BIND, cpusets) or zones ready for
	 * compaction kept the others out, and neither is in the trace
	 */
	RS_GAP_NODEMASK,
	/*
	 * direct and memcg calls in which too_many_isolated() gave batches up (rs_recorded.
	 * isolate_refused): it compares the node's isolated and inactive pages at each batch
	 */
	RS_GAP_ISOLATED,
	/*
	 * calls with a memcg below their reclaim root whose memory.min or memory.low is set (in
	 * any snapshot), each memcg between them set too (else its effective protection is 0):
	 * mem_cgroup_calculate_protection() skips it below its protection and scales its scan
	 * down above it (get_scan_count()), from usage at the moment; not modelled
	 */
	RS_GAP_PROTECTION,
	/*
	 * calls with a memcg in their reclaim root's subtree, or above it, whose memory.swap.max
	 * is set above 0: mem_cgroup_get_nr_swap_pages() (swap.max - swap.current, over the
	 * ancestors) decides whether its anon lists are scanned at all, and swap.current is
	 * sampled every interval only (swap.max 0 is modelled: rs_sim_memcg_swap_ok())
	 */
	RS_GAP_SWAP_MAX,
	/*
	 * calls whose isolations skipped pages (rs_recorded.skipped): isolate_lru_folios() passes
	 * over folios of zones above the reclaim index (a kswapd run balancing ZONE_DMA, an
	 * allocation that may not use the higher zones), counts them in nr_scanned and leaves
	 * them on the list; how many it meets follows each list's pages per zone, which no memcg
	 * source splits (the models merge a node's zones)
	 */
	RS_GAP_ZONE_LISTS,
	RS_GAP_NR
};

/* Recorded pages scanned, per list, in the calls that lack each input and any of them. */
struct rs_gap_pages {
	uint64_t scanned[RS_GAP_NR][RS_NR_EVICTABLE];
	uint64_t any[RS_NR_EVICTABLE];
};

/*
 * Which inputs the world lacks (a mask of 1 << enum rs_gap) and, in out[0] (whole trace) and
 * out[1 + memcg] (per victim memcg), the recorded pages scanned in the calls they concern.
 * out has 1 + nr_memcg entries, filled by the call. Valid after rs_world_finalize().
 */
unsigned int rs_world_identity_gaps(const struct rs_world *w, struct rs_gap_pages *out);
/* The same, and each call's own mask in call_lacks[nr_calls] (caller's array). */
unsigned int rs_world_identity_gaps_calls(const struct rs_world *w, struct rs_gap_pages *out,
					  unsigned int *call_lacks);
const char *rs_gap_name(enum rs_gap g);		/* "watermarks", ... */
const char *rs_gap_missing(enum rs_gap g);	/* what the trace would need, one line */

/* ---------------------------------------------------------------------------------------- */
/* Policies                                                                                 */

/*
 * What a policy (or the recording) scanned and reclaimed, per list: in one memcg, in one
 * invocation, or over a whole run. One set of counters, so each level sums the one below it.
 */
struct rs_reclaim_acct {
	uint64_t scanned[RS_NR_EVICTABLE], reclaimed[RS_NR_EVICTABLE];
	uint64_t swapped_out;			/* anon reclaimed = pages swapped out */
	uint64_t soft_scanned, soft_reclaimed;	/* the part taken by soft-limit passes */
	/*
	 * inactive anon pages scanned with no swap space (the world's swap_free 0): reclaimed
	 * 0 by the kernel's rule, not by a rate, so never an extrapolation
	 */
	uint64_t scanned_no_swap;
};

/* What a policy did in one invocation. */
struct rs_call_outcome {
	struct rs_reclaim_acct acct;
	uint64_t reclaimed_by_src[RS_RATE_SRC_NR];	/* which reclaimability produced it */
	uint32_t rounds;			/* shrink passes: one per node per priority */
	int prio_lowest;			/* lowest priority a pass ran at; -1: none ran */
	struct rs_reclaim_acct *memcg;		/* [nr_memcg], owned and zeroed by the driver */
	struct rs_reclaim_acct *node;		/* [nr_nodes], the same; NULL with one node */
};

struct rs_policy_ops {
	const char *name;		/* "mainline", "splitlru-plus1", ... */
	const char *stands_for;		/* kernel version and code, one line */
	const char *approximates;	/* the main approximation, one line, for the output */
	/*
	 * The policy stands for the recorded kernel: replayed on the recording it must give it
	 * back (identity, include/replay_identity.h). One policy of the registry has it.
	 */
	bool recorded_kernel;
	/*
	 * Its soft-limit passes stand for the recorded kernel's (cgroup v1 memcg1_soft_limit_
	 * reclaim() is 3.10's tree walk; mainline runs it over the 6.x shrink_lruvec()): their
	 * figures are shown only when they reproduce the recording's
	 * (include/replay_identity.h).
	 */
	bool recorded_soft_passes;
	/*
	 * Allocate per-run state for this world. May refuse a world it cannot describe (returns -1
	 * with the reason in err), e.g. mainline on an MGLRU recording.
	 */
	int (*init)(const struct rs_world *w, void **state, struct rs_error *err);
	/* One invocation: fill `out` (already zeroed). The world is at call->ts. */
	int (*invoke)(void *state, const struct rs_world *w, const struct rs_reclaim_call *call,
		      struct rs_call_outcome *out, struct rs_error *err);
	void (*free)(void *state);
};

/* models/registry.c: every policy, in the order `replay --help` lists them. */
size_t rs_policy_all(const struct rs_policy_ops *const **out);
const struct rs_policy_ops *rs_policy_find(const char *name);
/*
 * Parse "a,b,c" into out[0..max-1]; "all" (or NULL) is every policy in the registry's order.
 * Returns the count, or -1 with err naming the bad item and listing the valid names (empty
 * items and duplicates are errors too).
 */
int rs_policy_parse(const char *list, const struct rs_policy_ops **out, int max,
		    struct rs_error *err);

/* ---------------------------------------------------------------------------------------- */
/* Running                                                                                  */

struct rs_replay_opts {
	bool keep_calls;	/* keep every call's outcome (without per-memcg detail) */
};

/* Totals of one policy over the whole pressure; the recording has the same shape. */
struct rs_replay_result {
	const struct rs_policy_ops *policy;	/* NULL for the recording */
	uint64_t calls;
	uint64_t calls_short;			/* ended with less than nr_to_reclaim */
	uint64_t rounds;
	struct rs_reclaim_acct acct;
	uint64_t reclaimed_by_src[RS_RATE_SRC_NR];
	int prio_lowest;			/* -1 when no pass ran */
	uint64_t calls_at_prio[RS_DEF_PRIORITY + 1];	/* calls by lowest priority */
	int nr_memcg;
	struct rs_reclaim_acct *memcg;		/* [nr_memcg] */
	/*
	 * [nr_nodes] with two or more nodes (else NULL): per node, the calls other than kswapd's
	 * (direct, memcg, node reclaim), which may scan every node; kswapd's scan their own
	 */
	int nr_nodes;
	struct rs_reclaim_acct *node;
	size_t nr_calls_kept;
	struct rs_call_outcome *call;		/* [nr_calls_kept]; .memcg, .node NULL */
};

/*
 * Replay every call of the world through each of the n policies, side by side (the world is
 * advanced once per call and shared). On success *out is an array of n results, freed with
 * rs_replay_results_free(). Refuses a world without LRU sizes. Returns 0 or -1 with err set
 * (err names the policy that failed).
 */
int rs_replay_run(struct rs_world *w, const struct rs_policy_ops *const *pol, int n,
		  const struct rs_replay_opts *opts, struct rs_replay_result **out,
		  struct rs_error *err);

/* The recording's own totals from the calls' struct rs_recorded; freed like a result of 1. */
int rs_replay_recorded(const struct rs_world *w, struct rs_replay_result **out,
		       struct rs_error *err);

void rs_replay_results_free(struct rs_replay_result *res, int n);

/* The caveat every counterfactual prints. */
extern const char rs_replay_open_loop_caveat[];

#endif
