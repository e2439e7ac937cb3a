/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay input reconstructed from a trace: the world (memcg tree, list sizes per lruvec
 * over time, usage and limits, node free pages and watermarks, swap, refault counters, the
 * reclaimability each list showed) and the pressure (one struct rs_reclaim_call per reclaim
 * invocation, with what the recording did in it), as include/replay.h defines them.
 *
 * It is a consumer of the shared loading stage (analysis.h): every event arrives with its
 * resolved reclaim context. What it takes from which event, and every inference it makes, is in
 * docs/replay.md; `replay --inputs` prints the report below.
 *
 *   rs_replay_input_build(path, opts, &b, err)     open, stream, build: the usual entry point
 *   or by hand: rs_replay_input_new() -> rs_replay_input_consumer() into the analysis options
 *     -> rs_analysis_new()/feed()/finish() -> rs_replay_input_world() -> readers -> _free()
 *
 * Memory: calls are capped (opts.max_calls, a warning says how many were left out); lruvec
 * deltas are coalesced into one update per lruvec list between two reclaim invocations (the
 * world is read only at invocation starts, so this is exact for the replay); snapshot samples
 * kept for the delta offsets are decimated past 4096 per memcg. Nothing else grows with events.
 *
 * Ownership: the builder owns the world it returns (rs_replay_input_world) and the report;
 * rs_replay_input_free() frees both. rs_replay_input_build() hands back the analysis too
 * (struct rs_replay_build), which the caller frees with rs_replay_build_free().
 */
#ifndef RS_REPLAY_INPUT_H
#define RS_REPLAY_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compact_gap.h"
#include "replay.h"
#include "rs_error.h"

struct rs_analysis;
struct rs_analysis_opts;
struct rs_consumer;

#define RS_RI_MAX_CALLS		(1u << 20)	/* default call cap */
#define RS_RI_SWAP_UNKNOWN	(UINT64_C(1) << 40)	/* free swap when only "on" is known */

struct rs_replay_input_opts {
	size_t max_calls;	/* 0: RS_RI_MAX_CALLS */
	size_t max_tasks;	/* 0: RS_EPISODES_MAX_TASKS */
};

/* Events that gave a value: how many, and the first and last of them (ts, file offset). */
struct rs_ri_source {
	uint64_t events;
	uint64_t first_ts, first_offset;
	uint64_t last_ts, last_offset;
};

/* How the swap state was established. */
enum rs_ri_swap {
	RS_RI_SWAP_OFF,		/* no evidence of swap: anon is never scanned */
	RS_RI_SWAP_INFERRED,	/* on: anon lists scanned, anon write_folio or pswpout seen */
	RS_RI_SWAP_MARKER,	/* `swap total=KB free=KB` markers */
};

/* How a memcg call's target (reclaim root) was found. */
enum rs_ri_target_src {
	RS_RI_TGT_KERNEL,	/* the begin event's memcg_id (7.1+): the kernel's reclaim root */
	RS_RI_TGT_VICTIMS,	/* lowest common ancestor of the task's memcg and the victims */
	RS_RI_TGT_LIMITED,	/* ... then its nearest ancestor with a hard limit */
	RS_RI_TGT_TASK,		/* no victims: the task's memcg (or its nearest limited one) */
	RS_RI_TGT_HEADER,	/* neither: the recorder's --cgroup */
	RS_RI_TGT_ROOT,		/* nothing known: the root */
	RS_RI_TGT_NR
};
const char *rs_ri_target_src_name(int s);

/*
 * A memcg call's nr_to_reclaim is what the recorded call freed, at least SWAP_CLUSTER_MAX
 * (docs/replay.md says why not the kernel's goal); the goal, max(charge, 32), is reported when
 * a charge size 32 << k fits what the recording shows.
 */
enum rs_ri_want_src {
	RS_RI_WANT_CHARGE,	/* freed >= 32, and a goal 32 << k fits the recording */
	RS_RI_WANT_RECLAIMED,	/* freed >= 32, no 32 << k fits (memory.high, proactive) */
	RS_RI_WANT_MIN,		/* freed < 32: SWAP_CLUSTER_MAX */
	RS_RI_WANT_NR
};
const char *rs_ri_want_src_name(int s);

/* Per memcg of the world. Pages unless named. */
struct rs_ri_memcg {
	int world;			/* index in the world */
	uint64_t id;			/* cgroup id, 0 unknown */
	const char *path;		/* "/" for the root; "id:N" when no event named it */
	bool mkdir, rmdir;		/* created / removed inside the trace */
	struct rs_ri_source snap;	/* memcg_stat markers */
	struct rs_ri_source delta;	/* mod_memcg_lruvec_state on the LRU items */
	struct rs_ri_source ws;		/* mod_memcg_lruvec_state on workingset_* items */
	struct rs_ri_source implied;	/* sizes implied by lru_isolate (no other source) */
	struct rs_ri_source node;	/* root only: node_stat (own lists = node - children) */
	bool sizes_from_deltas;		/* sizes = offset + deltas (snapshots only checked) */
	bool offset_from_mkdir;		/* created in the trace: the offset is 0 */
	bool offset_assumed;		/* no mkdir and no snapshot: 0 assumed */
	bool offset_from_first;		/* a snapshot from before the first delta */
	int64_t offset[RS_NR_EVICTABLE];	/* delta-anchored: pages before the first delta */
	uint64_t disagree_n;		/* snapshots compared with offset + deltas */
	uint64_t disagree_max[RS_NR_EVICTABLE];	/* max |snapshot - (offset + deltas)|: drift */
	uint64_t anchors;		/* snapshots that re-anchored the sizes (drift != 0) */
	int64_t first_lru[RS_NR_EVICTABLE];	/* world values, first */
	int64_t last_lru[RS_NR_EVICTABLE];	/* and last */
	uint64_t max_lru[RS_NR_EVICTABLE];
	bool have_usage;
	uint64_t usage_first, usage_last, usage_max;
	uint64_t limit, soft_limit;	/* latest; RS_UNLIMITED */
	int swappiness;			/* latest memory.swappiness, -1 not recorded */
	uint64_t soft_over;		/* snapshots with usage > soft limit */
	uint64_t folded;		/* root: victim memcg ids without sizes counted here */
	uint64_t victim_events;		/* shrink/isolate windows attributed to it */
	uint64_t target_calls;		/* memcg calls with it as the reclaim root */
};

/* The reclaimability the calls observed, per list, over the trace (struct rs_obs summed). */
struct rs_ri_obs_sum {
	uint64_t windows;		/* (call, memcg) windows that saw the list */
	struct rs_scan_pages pages;
};

struct rs_ri_report {
	/* header: reclaimscope_begin / scenario_begin */
	const char *header;		/* the marker's tag, NULL when absent */
	uint64_t header_offset;
	int nr_nodes;
	bool nodes_assumed;		/* no nodes= and no nid seen: node 0 assumed */
	int vm_swappiness;
	bool swappiness_assumed;	/* not recorded: 60 */
	bool cgroup_v1;
	const char *cgroup_src;		/* "header", "soft= in memcg_stat", "assumed v2" */
	bool mglru;
	unsigned int mglru_mask;	/* /sys/kernel/mm/lru_gen/enabled as recorded */
	const char *mglru_shape;	/* MGLRU told by the trace's own events (trace.mglru) */
	/*
	 * Nothing tells MGLRU from the classic LRU (trace.mglru null: no marker, and 6.1's MGLRU
	 * emits no lru_isolate): why, in the source's words; NULL when told. mglru is then false
	 * only as the models' default, never a reading, so the reports say unknown.
	 */
	const char *mglru_unknown;
	/* compact_gap() of the recorded kernel: the 7.x runs that tell, the rule chosen */
	struct rs_gap_evidence gap_evidence;
	struct rs_gap_rule gap;
	uint64_t page_size;

	/* calls */
	uint64_t calls[RS_CALL_NR];
	struct rs_ri_source call_src[RS_CALL_NR];	/* begin events (kswapd: kswapd_wake) */
	uint64_t calls_cut_start;	/* began before the trace (first event was inside) */
	uint64_t calls_cut_end;		/* still open at the end */
	uint64_t calls_dropped;		/* over the cap: not replayed */
	uint64_t calls_without_scan;	/* no lru_isolate inside */
	uint64_t soft_episodes;		/* memcg_softlimit_reclaim pairs inside calls */
	uint64_t target_src[RS_RI_TGT_NR];
	uint64_t proactive_calls;	/* memcg calls from outside their root (rs_reclaim_call) */
	uint64_t want_src[RS_RI_WANT_NR];
	uint64_t goal_overshoot;	/* memcg calls: freed - largest fitting goal, summed */
	uint64_t kswapd_want;		/* sum of kswapd calls' pages wanted */
	uint64_t kswapd_overshoot;	/* what kswapd runs freed past them */

	/* recorded totals: inside calls (what identity compares) and outside any call */
	uint64_t scanned[RS_NR_EVICTABLE], taken[RS_NR_EVICTABLE], reclaimed[RS_NR_EVICTABLE];
	uint64_t soft_scanned, soft_reclaimed;
	uint64_t out_scanned[RS_NR_EVICTABLE], out_reclaimed[RS_NR_EVICTABLE];
	uint64_t out_events;		/* isolate/shrink events outside any call */

	/* victim attribution of isolate..shrink windows (NOTES section 3) */
	uint64_t windows;		/* lru_isolate events inside calls */
	uint64_t victim_exact;		/* scan and steal counters agree */
	uint64_t victim_scan, victim_steal, victim_lruvec;	/* one side only */
	uint64_t victim_leaf;		/* no memcg event: a 7.1+ memcg_id with none below it */
	uint64_t victim_none;		/* no memcg event matched: counted in the root */
	bool item_names;		/* vm_event_items names were in the trace */

	/* sizes */
	uint64_t memcg_snapshots, node_snapshots;
	uint64_t stats_flushes;		/* memcg_flush_stats events that flushed a tracked memcg */
	uint64_t flush_events;		/* memcg_flush_stats events, no-ops too */
	uint64_t snapshots_at_read;	/* memcg_stat timed at the recorder's read (its flush) */
	uint64_t delta_events;		/* LRU deltas applied */
	uint64_t delta_updates;		/* world updates they were coalesced into */
	uint64_t ws_events;		/* workingset_* deltas */
	uint64_t implied_updates;
	uint64_t root_clamped;		/* node - children < 0, clamped to 0 */
	bool have_wmark;		/* node_stat had watermarks */
	struct rs_ri_source wmark;
	/*
	 * zone_stat markers (per zone: what pgdat_balanced() tests). Read and reported, not used
	 * yet: kswapd's run still ends where the recorded run was balanced (docs/models.md, "kswapd's
	 * end on per-zone watermarks"). Bit i of zone_idx: zone index i was seen, any node.
	 */
	struct rs_ri_source zone;
	uint32_t zone_idx;
	/*
	 * The buddy flow (record --zone-flow; docs/models.md "kswapd ends on the buddy flow"): kmem
	 * events that moved pages of a known zone, the samples with the flow, and per zone index
	 * (summed over nodes) the net pages onto the buddy lists from each node's first such sample
	 * to its last (their zone_read moments: first_ts, last_ts of node 0's).
	 */
	struct {
		uint64_t events, samples;
		uint64_t first_ts, last_ts;
		int64_t net[RS_ZONE_MAX];
	} flow;
	/*
	 * Without them: kswapd's nr_to_reclaim (sum over the node's zones of max(high watermark,
	 * 32), boost included) is above the pass's own reclaimed at every loop iteration of a
	 * one-type pass that was followed by another; the largest such value + 1 is used.
	 */
	uint64_t wmark_inferred;	/* 0: not inferred */
	uint64_t wmark_inferred_calls;	/* kswapd calls that bounded it */
	uint64_t wmark_inferred_offset;	/* first event of the call that set it */
	bool lost;			/* the ring buffer lost events */
	uint64_t lost_events;

	/*
	 * cgroup v2 settings of memcg_stat (min=, low=, swap_max=): memcgs whose snapshots had
	 * each field (recorders before 2026-12-03 wrote low= only), and those with protection
	 * (memory.min or memory.low > 0) or a memory.swap.max set
	 */
	uint64_t v2_min_seen, v2_low_seen, v2_swap_seen, v2_protected, v2_swap_limited;

	/* swap */
	enum rs_ri_swap swap;
	uint64_t swap_anon_scanned;	/* evidence: anon pages isolated */
	uint64_t swap_anon_writes;	/* evidence: write_folio of anon folios */
	uint64_t swap_pswpout;		/* evidence: pswpout counter events */
	struct rs_ri_source swap_marker;

	/* reclaimability */
	struct rs_ri_obs_sum obs[RS_NR_EVICTABLE];

	/* per memcg of the world, in world index order */
	int nr_memcg;
	const struct rs_ri_memcg *memcg;
	uint64_t untracked_events;	/* tasks over the task cap */
	size_t world_updates, world_obs, world_calls;
};

struct rs_replay_input;

struct rs_replay_input *rs_replay_input_new(const struct rs_replay_input_opts *o,
					    struct rs_error *err);
void rs_replay_input_free(struct rs_replay_input *ri);

/* The consumer to put in rs_analysis_opts.consumers (its arg is ri). */
void rs_replay_input_consumer(struct rs_replay_input *ri, struct rs_consumer *out);

/*
 * After the analysis finished: the world, finalized, or NULL with err set (no reclaim, MGLRU
 * and missing sizes are not errors here: the world says so through rs_world_info and the
 * report; callers decide). Owned by ri. Calling it twice returns the same world.
 */
struct rs_world *rs_replay_input_world(struct rs_replay_input *ri, struct rs_error *err);
const struct rs_ri_report *rs_replay_input_report(const struct rs_replay_input *ri);
/* Warnings the reconstruction raised (printed by --inputs); i-th, NULL past the end. */
const char *rs_replay_input_warning(const struct rs_replay_input *ri, size_t i);

/* Everything a replay needs from one trace. */
struct rs_replay_build {
	struct rs_analysis *a;		/* owns the source */
	struct rs_replay_input *ri;
	struct rs_world *w;		/* owned by ri */
};

int rs_replay_input_build(const char *path, const struct rs_analysis_opts *ao,
			  const struct rs_replay_input_opts *o, struct rs_replay_build *out,
			  struct rs_error *err);
void rs_replay_build_free(struct rs_replay_build *b);

/*
 * Why a world cannot be replayed, or NULL when it can: MGLRU recordings, no LRU sizes from
 * snapshots or deltas (implied sizes alone are not enough for identity), no reclaim calls.
 */
const char *rs_replay_input_refusal(const struct rs_replay_input *ri);

struct rs_trace_info;
/* Take MGLRU as told by the trace's own events (trace_source.h) into the report and refusal. */
void rs_replay_input_lru_shape(struct rs_replay_input *ri, const struct rs_trace_info *ti);
/* The trace's kernel release (copied; NULL unknown): compact_gap()'s rule when no run tells. */
int rs_replay_input_kernel(struct rs_replay_input *ri, const char *release);

#endif
