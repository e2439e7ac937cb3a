/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside of struct rs_replay_input, shared by analyzer/replay/replay_input.c (the consumer: event
 * dispatch, tasks, sizes and snapshots of the loading stage's memcgs), replay_calls.c (reclaim
 * invocations and what each took from the victims the loading stage named) and replay_build.c
 * (the world built at the end). Nothing outside analyzer/replay/ includes this.
 */
#ifndef RS_REPLAY_INPUT_IMPL_H
#define RS_REPLAY_INPUT_IMPL_H

#include "analysis.h"
#include "replay.h"
#include "replay_input.h"
#include "zone_balance.h"
#include "pidmap.h"

#define RI_NO_CALL	UINT32_MAX
#define RI_MAX_SAMPLES	4096	/* snapshot - deltas samples per memcg, decimated past it */
#define RI_MAX_WARN	32
#define RI_WR_BIG	8	/* whole-folio writes kept per window (bits of a uint8_t) */

/* What the replay input knows of a memcg (the loading stage's row: memcg_attrib.h). */
enum {
	RI_MF_MKDIR = 1u << 0,		/* cgroup_mkdir inside the analysed range */
	RI_MF_RMDIR = 1u << 1,		/* cgroup_rmdir inside the analysed range */
	RI_MF_SNAP = 1u << 2,		/* memcg_stat */
	RI_MF_DELTA = 1u << 3,		/* LRU deltas */
	RI_MF_VICTIM = 1u << 4,		/* a window's victim */
};

/*
 * One memory.numa_stat read of a memcg (two or more nodes, cgroup v2), pages per node: its
 * subtree's lists on each node, as of the memory.stat read it came with (ts: that read's).
 */
struct ri_numa {
	uint64_t ts;
	uint32_t nodes;			/* bit n: node n read */
	uint32_t ws_nodes;		/* the same for ws[] */
	int64_t v[RS_SNAP_NODES][RS_NR_EVICTABLE];
	/* workingset_activate_anon, _file, workingset_restore_anon, _file (counts) */
	int64_t ws[RS_SNAP_NODES][4];
};

/*
 * The sizes and limits of one memcg, indexed by the loading stage's memcg row (its id, path
 * and ancestors are the row's: rs_memcgs_get()).
 */
struct ri_memcg {
	unsigned int flags;
	uint64_t rmdir_ts;
	uint64_t mkdir_off, rmdir_off;
	struct rs_ri_source snap, delta, ws;

	/* latest snapshot, pages */
	bool have_snap_lru;
	int64_t snap_lru[RS_NR_EVICTABLE];
	bool have_usage;
	uint64_t usage, usage_first, usage_max, limit, soft;
	int swappiness;
	uint64_t soft_over;
	bool soft_recorded;
	/* v2 protection and swap settings as last recorded, pages (RS_WF_MEMORY_MIN ...) */
	bool have_min, have_low, have_swap;
	bool ever_protected, ever_swap_limited;	/* min or low > 0; swap.max finite */
	uint64_t memory_min, memory_low, swap_max, swap_usage;

	/* lruvec deltas (node 0: mod_memcg_lruvec_state has no node) */
	int64_t cum[RS_NR_EVICTABLE];	/* applied so far */
	int64_t pend[RS_NR_EVICTABLE];	/* not yet flushed into an update */
	int64_t ws_pend[4];		/* activate anon, file; restore anon, file */
	uint64_t pend_ts, ws_ts;
	bool dirty;			/* on the dirty list */
	/* a snapshot before the first delta: the offset (nothing pending to lag behind) */
	bool have_pre;
	int64_t pre[RS_NR_EVICTABLE];
	/* snapshot - cum at each snapshot: the offset is the first when no snapshot came first */
	int64_t (*samp)[RS_NR_EVICTABLE];
	/*
	 * Re-anchoring: each snapshot after the first delta adds (snapshot - cum) - offset - corr
	 * to the sizes, so that they equal the snapshot there (the deltas can miss pages: on
	 * anon-stream-swap they end 917 below the last snapshot). corr is the sum added so far.
	 */
	int64_t corr[RS_NR_EVICTABLE];
	uint64_t anchors;
	/*
	 * The recorder's memory.stat read of this memcg: the memcg_flush_stats it caused (the
	 * recorder's pid), which the marker with the values follows, up to 170 ms later on the
	 * 7.2 guest when the recorder was not scheduled. The values are as of the read.
	 */
	bool have_read;
	int read_pid;
	uint64_t read_ts;
	int64_t read_cum[RS_NR_EVICTABLE];
	uint32_t nsamp, samp_step, samp_skip;
	/* its memory.numa_stat reads, in order (replay_build.c splits the lists by node) */
	struct ri_numa *numa;
	size_t nnuma, capnuma;
	uint32_t numa_missing;		/* snapshots without it */
	size_t read_flush2;		/* 1 + the update of its read's second flush, 0: none */

	int world;			/* world index at the end, -1: counted in the root */
};

/* A tracked task: its open call, its isolate window. */

struct ri_task {
	int pid;
	int dense;			/* the loading stage's task index (rs_ctx.task), -1 unknown */
	uint32_t call;			/* open call, RI_NO_CALL */
	/* isolate window */
	bool win;
	int8_t win_lru;
	uint8_t win_soft;
	/*
	 * the window is MGLRU's retry of the previous shrink's batch (episodes.c shrink_retry()):
	 * nothing isolated, its shrink's nr_scanned that batch's again, not a window of its own
	 */
	bool win_retry;
	uint64_t win_req, win_scanned, win_taken;
	uint64_t win_ts;		/* its lru_isolate's time */
	uint64_t flush_ts;		/* its latest memcg_flush_stats in a call, 0 none */
	uint64_t win_flush;		/* flush_ts when the window opened */
	uint32_t wr_anon, wr_file;	/* its write_folio events (folios) */
	/*
	 * Those of its writes that were whole F-page folios (replay_calls.c note_write()): head
	 * pfns, and per entry (bit i) whether a file folio and whether split (a later write of
	 * the window fell inside it)
	 */
	uint64_t wr_big[RI_WR_BIG];
	uint8_t nwr_big, wr_big_file, wr_big_split;
	bool throttled_isolated;	/* an ISOLATED throttle whose outcome its next event tells */
	/* the memcg call it ended last, until its first swap-in after it (RI_NO_CALL: none) */
	uint32_t ended_memcg_call;
	uint64_t ended_ts;
};


/* What one call did to one victim memcg. */
struct ri_victim {
	int memcg;			/* memcg row (ri_call.v, .pv; -1 unattributed); world index
					   once merged (replay_build.c) */
	int nid;
	int prio;			/* pass windows (ri_call.pv): the priority; -1 in ri_call.v */
	uint64_t scanned[RS_NR_EVICTABLE], taken[RS_NR_EVICTABLE], reclaimed[RS_NR_EVICTABLE];
	uint64_t in_scanned[2], activated[2], pageout[2];	/* inactive anon/file */
	uint64_t a_taken[2], a_deact[2], a_ref[2];		/* active anon/file */
	uint64_t folio_w[RS_NR_EVICTABLE];	/* sum of folio estimate x pages scanned */
	uint64_t folio_big[RS_NR_EVICTABLE];	/* pages scanned in folios of more than a page */
	uint32_t folio_size[RS_NR_EVICTABLE];	/* their size; UINT32_MAX: more than one */
	/*
	 * isolates by nr_requested 1..32 and the pages they scanned (rs_obs): the first of its
	 * used buckets in ri_call.req, RI_NO_REQ none. A window uses a few of the 4 x 32 (a full
	 * table was 1.5 KB of each entry, per call x victim x priority: 246 MB of the manycg
	 * recording's 370 MB, massif)
	 */
	uint32_t req;
	uint64_t implied[RS_NR_EVICTABLE];	/* first isolate: nr_requested << priority */
	uint64_t implied_off[RS_NR_EVICTABLE];
};

#define RI_NO_REQ	UINT32_MAX

/* One used bucket of a victim's request histogram (ri_victim.req), chained in ri_call.req. */
struct ri_req {
	uint32_t next;			/* the victim's next bucket, RI_NO_REQ */
	uint8_t lru, req;		/* list, nr_requested - 1 */
	uint32_t isolates;
	uint64_t scanned;
};

/* One shrink of a pass window (ri_call.pv), in the order the call ran them. */
struct ri_step {
	int memcg, nid, prio, lru;	/* memcg row, as ri_victim */
	struct rs_obs_step st;
};

/* The priorities a call's non-soft shrinks ran at on one node (ri_call.xprio). */
struct ri_node_prio {
	int nid;
	uint16_t mask;
};

struct ri_call {
	struct rs_reclaim_call c;	/* target -1 until the end; rec.memcg NULL */
	int8_t ctx;			/* enum rs_call_ctx; -1 until an end names it (cut) */
	bool cut_start, open;
	int task_row;			/* memcg row of the task at the call's start, -1 */
	int swapin_row;			/* memcg row its task's first swap-in after it charged, -1 */
	uint16_t prio_mask[4];		/* priorities of non-soft shrinks, nodes 0..3 */
	struct ri_node_prio *xprio;	/* the same on nodes past 3, a row each */
	size_t nxprio, capxprio;
	int last_prio;
	bool restarted;			/* went back to a higher priority: a retry */
	/*
	 * The shrink_lruvec() pass in progress (a priority on one lruvec) and its loop iteration,
	 * for the lower bound of nr_to_reclaim: a pass that was not the last ended with the call's
	 * total below it; an iteration that was not the last of a one-type pass ended with the
	 * pass's own reclaimed below it (mm/vmscan.c shrink_lruvec(), shrink_node_memcgs(),
	 * do_try_to_free_pages()).
	 */
	int pass_prio, pass_nid;
	int pass_memcg;
	uint64_t pass_local;		/* reclaimed in this pass */
	uint8_t pass_ilists;		/* inactive lists of the iteration in progress */
	uint8_t pass_prev_ilists;	/* ... and of the one before it */
	uint64_t pass_prev_local;	/* the pass's reclaimed at the end of that one */
	uint8_t pass_types;		/* inactive lists the pass scanned */
	uint8_t pass_done;		/* lists whose scan target ran out (a request < 32) */
	bool pass_open;
	uint64_t total;			/* non-soft reclaimed so far */
	uint64_t want_lo;		/* nr_to_reclaim > want_lo */
	uint64_t want_hi;		/* nr_to_reclaim <= want_hi (0: no bound) */
	/*
	 * priority + 1 (0: none) of the last shrink that freed a page, and the lowest a shrink
	 * ran at since: a lower one means do_try_to_free_pages() went on from the final total
	 */
	int gain_prio1, low_prio1;
	/*
	 * kswapd: the total at the end of every balance_pgdat() pass but the last (another
	 * priority, or the same again): pgdat_balanced() was false there, true after the last.
	 */
	uint64_t balance_lo;
	int root_row;			/* the kernel's reclaim root (7.1+ memcg_id), -1: none */
	uint64_t iter_lo;		/* the same from loop iterations alone */
	uint32_t soft_episodes;
	uint32_t windows;
	struct ri_victim *v;		/* victims (memcg, node) */
	uint32_t nv, capv;
	/*
	 * The same by priority (memcg, node, priority): the non-soft passes at each priority, for
	 * reclaimability and folio size per pass (rs_obs.one_prio).
	 */
	struct ri_victim *pv;
	uint32_t npv, cappv;
	struct ri_req *req;		/* the histogram buckets of v and pv */
	size_t nreq, capreq;
	struct ri_step *steps;		/* the pass windows' inactive shrinks (rs_obs.steps) */
	size_t nsteps, capsteps;
	uint64_t *iso;			/* times of its lru_isolate events (rs_recorded.isolate_ts) */
	size_t niso, capiso;
	/* its isolations' pages off the lists (rs_recorded.inflight; memcg: row until built) */
	struct rs_inflight *infl;
	size_t ninfl, capinfl;
	/*
	 * kswapd: its pgdat_balanced() checks (rs_recorded.checks): the start, the end of each
	 * balance pass but the last, the end of the last; last_ts/last_node: the latest shrink
	 * window's close and the node's reclaim then (where a pass that turns out the last ended)
	 */
	struct rs_kswapd_check *chk;
	size_t nchk, capchk;
	uint64_t last_ts, last_node;
	struct rs_zone_flow last_flow;	/* the node's buddy flow at last_ts */
};

/* A node snapshot: the root's own lists before the delta memcgs' offsets are known. */
struct ri_root_upd {
	uint64_t ts, off;
	int nid;
	uint32_t k;			/* memcgs with deltas then: delta_order[0..k) */
	int64_t raw[RS_NR_EVICTABLE];	/* node - (deltas so far | latest snapshot) */
	int64_t snap[RS_NR_EVICTABLE];	/* the latest-snapshot part of that sum */
	int64_t node[RS_NR_EVICTABLE];	/* the node's lists as read */
};

struct rs_replay_input {
	struct rs_replay_input_opts o;
	struct rs_ri_report rep;
	char *kernel;			/* the trace's release; NULL unknown */
	char *warn[RI_MAX_WARN];
	size_t nwarn;
	bool oom;
	bool built;
	struct rs_world *world;
	char *refusal;

	/* header */
	bool have_header, have_nodes, have_swappiness, have_cgroup_kind, saw_soft;
	char *header_cgroup;		/* reclaimscope_begin cgroup_path= */
	int recorder_pid;		/* the writer of memcg_stat markers, 0 before the first */
	int recorder_main_pid;		/* reclaimscope_begin's writer (record's main thread), 0 */
	uint64_t page_size;
	int max_nid;

	/* item names */
	/* mod_memcg_lruvec_state item -> workingset slot 0..3, -1 (its LRU lists are the
	   loading stage's: rs_memcg_ctx.lru) */
	int8_t *ns_ws;
	int nns;

	/* memcgs: identity is the loading stage's (rs_ctx.memcg), mc[] is indexed by its rows */
	const struct rs_memcgs *memcgs;
	struct ri_memcg *mc;
	int nmc, capmc;
	int *dirty;			/* memcgs with pending deltas */
	int ndirty, capdirty;

	/* tasks */
	struct ri_task *task;
	int ntask, captask;
	struct rs_pidmap task_by_pid;	/* pid -> index in task[], capped by ntask */

	/* world inputs, memcg as a row of mc[] */
	struct rs_world_update *upd;
	size_t nupd, capupd;
	struct ri_call *call;
	size_t ncall, capcall;

	/* node snapshots: node totals minus the tracked memcgs' lists at that moment */
	struct ri_root_upd *root;
	size_t nroot, caproot;
	int *delta_order;		/* memcgs in the order they got their first delta */
	size_t ndelta, capdelta;
	uint64_t first_ts, last_ts;

	/* per node: recorded reclaim so far and the zone_stat sample being filled */
	struct ri_node *node;
	size_t nnode, capnode;
	struct rs_zone_sample *zs;	/* every node's, in the order read */
	size_t nzs, capzs;

	/*
	 * The buddy flow (record --zone-flow; models/zone_balance.c): counters per (node, zone),
	 * summed as the kmem events stream by; the latest `zone_read` marker's moment, which the
	 * next zone_stat samples are as of; loss marks so far.
	 */
	bool zone_flow;			/* reclaimscope_begin zone_flow=1 */
	int pmd_order;			/* reclaimscope_begin pmd_order= (default 9, x86) */
	uint64_t read_ts;		/* 0: no zone_read marker yet */
	uint64_t lost_marks;
};

struct ri_node {
	uint64_t reclaimed;		/* lru_shrink_inactive nr_reclaimed, every context */
	size_t zs_cur;			/* its latest sample in zs[] (SIZE_MAX: none) */
	int zs_last_idx;		/* the zone index that sample was given last */
	/* the buddy flow: per zone, cumulative (ok: the pfn ranges are known, spanned > 0) */
	struct rs_zone_flow flow;
	uint64_t pfn_start[RS_ZONE_MAX], pfn_end[RS_ZONE_MAX];
	/* at the latest zone_read marker: the flow and the reclaim then */
	struct rs_zone_flow read_flow;
	uint64_t read_reclaimed;
	uint64_t read_ts;		/* 0: none */
	uint64_t zs_prev_ts;		/* its latest sample's moment (0: none) */
	/* its first and latest samples with the flow (the report's net pages) */
	struct rs_zone_flow flow_first, flow_last;
	uint64_t flow_first_ts, flow_last_ts;
	int bal_order;			/* order + 1 of its open balance_pgdat run; 0: none */
};

/* The node's buddy flow now (ok false without --zone-flow or the zones' pfn ranges). */
void ri_node_flow(struct rs_replay_input *ri, int nid, struct rs_zone_flow *out);

/* The node's state (grown on first use); NULL when out of memory or nid is not a node. */
struct ri_node *ri_node_get(struct rs_replay_input *ri, int nid);


/* replay_input.c: tasks */
struct ri_task *ri_task_get(struct rs_replay_input *ri, int pid, bool create);

#endif
