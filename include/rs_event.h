/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Normalized reclaim events: what every parser produces and every consumer reads.
 *
 * A parser reads the kernel's fields by name (their sets differ between kernel eras, see
 * docs/events.md) and fills one struct rs_event per record it understands. Fields the recorded
 * kernel does not have are marked absent in `have` (RS_HAVE_*) rather than guessed. Numbers
 * are pages unless named otherwise; times are nanoseconds of the trace clock.
 *
 * Strings (comm, paths, marker text) point into parser-owned memory and are valid only for the
 * duration of the callback that receives the event: copy what you keep.
 */
#ifndef RS_EVENT_H
#define RS_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rs_ev_type {
	RS_EV_KSWAPD_SLEEP,		/* vmscan:mm_vmscan_kswapd_sleep */
	RS_EV_KSWAPD_WAKE,		/* vmscan:mm_vmscan_kswapd_wake */
	RS_EV_WAKEUP_KSWAPD,		/* vmscan:mm_vmscan_wakeup_kswapd (a waker asks) */
	RS_EV_RECLAIM_BEGIN,		/* *_reclaim_begin, kind in .reclaim.kind */
	RS_EV_RECLAIM_END,		/* *_reclaim_end */
	RS_EV_LRU_ISOLATE,		/* mm_vmscan_lru_isolate (and old mm_vmscan_memcg_isolate) */
	RS_EV_SHRINK_INACTIVE,		/* mm_vmscan_lru_shrink_inactive */
	RS_EV_SHRINK_ACTIVE,		/* mm_vmscan_lru_shrink_active */
	RS_EV_RECLAIM_PAGES,		/* mm_vmscan_reclaim_pages (proactive/madvise reclaim) */
	RS_EV_WRITE_FOLIO,		/* mm_vmscan_write_folio, or mm_vmscan_writepage */
	RS_EV_SLAB_START,		/* mm_shrink_slab_start */
	RS_EV_SLAB_END,			/* mm_shrink_slab_end */
	RS_EV_THROTTLED,		/* mm_vmscan_throttled */
	RS_EV_MEMCG_COUNT,		/* memcg:count_memcg_events */
	RS_EV_MEMCG_LRUVEC,		/* memcg:mod_memcg_lruvec_state */
	RS_EV_MEMCG_STATE,		/* memcg:mod_memcg_state */
	RS_EV_CGROUP,			/* cgroup:cgroup_{mkdir,rmdir,rename,release} */
	RS_EV_CGROUP_ATTACH,		/* cgroup:cgroup_attach_task / cgroup_transfer_tasks */
	RS_EV_FORK,			/* sched:sched_process_fork */
	RS_EV_EXEC,			/* sched:sched_process_exec */
	RS_EV_EXIT,			/* sched:sched_process_exit */
	RS_EV_OOM_VICTIM,		/* oom:mark_victim */
	RS_EV_FILEMAP_DELETE,		/* filemap:mm_filemap_delete_from_page_cache */
	RS_EV_FILEMAP_ADD,		/* filemap:mm_filemap_add_to_page_cache */
	RS_EV_MARKER,			/* ftrace:print that is not a recorder marker */
	RS_EV_META,			/* recorder marker: reclaimscope_begin/scenario_begin ... */
	RS_EV_ITEM_NAMES,		/* recorder marker: names of an enum's items */
	RS_EV_CGROUP_MAP,		/* recorder marker: cgroup id -> path at record start */
	RS_EV_TASK_CGROUP,		/* recorder marker: pid -> cgroup at record start */
	RS_EV_SNAP_MEMCG,		/* recorder marker: per-cgroup snapshot */
	RS_EV_SNAP_NODE,		/* recorder marker: per-node snapshot */
	RS_EV_LOST,			/* the ring buffer lost events on .cpu before this point */
	RS_EV_BALANCE_BEGIN,		/* vmscan:mm_vmscan_balance_pgdat_begin (7.x: a kswapd run) */
	RS_EV_BALANCE_END,		/* vmscan:mm_vmscan_balance_pgdat_end */
	RS_EV_KSWAPD_FAIL,		/* vmscan:mm_vmscan_kswapd_reclaim_fail (7.x) */
	RS_EV_KSWAPD_CLEAR_HOPELESS,	/* vmscan:mm_vmscan_kswapd_clear_hopeless (7.x) */
	RS_EV_SCHED_NAME,		/* sched:sched_switch / sched_wakeup*: task names (.task) */
	RS_EV_MEMCG_FLUSH,		/* memcg:memcg_flush_stats (6.13+): a stats flush asked */
	RS_EV_SNAP_ZONE,		/* recorder marker: per-zone snapshot (zone_stat) */
	RS_EV_BUDDY,			/* kmem: a block onto or off the buddy lists (.buddy) */
	RS_EV_NR_TYPES
};

/* LRU reclaim proper: a reclaim call's begin and end, and the scanning of lists inside it. */
static inline bool rs_ev_lru_reclaim(enum rs_ev_type type)
{
	switch (type) {
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_RECLAIM_END:
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
	case RS_EV_RECLAIM_PAGES:
		return true;
	default:
		return false;
	}
}

/* Reclaim contexts as the kernel names its tracepoints. */
enum rs_reclaim_kind {
	RS_RK_DIRECT,			/* mm_vmscan_direct_reclaim_* (global direct reclaim) */
	RS_RK_MEMCG,			/* mm_vmscan_memcg_reclaim_* (memcg limit / high reclaim) */
	RS_RK_SOFTLIMIT,		/* mm_vmscan_memcg_softlimit_reclaim_* (cgroup v1) */
	RS_RK_NODE,			/* mm_vmscan_node_reclaim_* (zone_reclaim_mode) */
	RS_RK_NR
};

/* LRU lists, numbered as the kernel's enum lru_list and the lru_isolate `lru` field. */
enum rs_lru {
	RS_LRU_INACTIVE_ANON,
	RS_LRU_ACTIVE_ANON,
	RS_LRU_INACTIVE_FILE,
	RS_LRU_ACTIVE_FILE,
	RS_LRU_UNEVICTABLE,
	RS_LRU_NR
};

/* include/trace/events/vmscan.h reclaim_flags */
#define RS_RECLAIM_WB_ANON	0x0001u
#define RS_RECLAIM_WB_FILE	0x0002u
#define RS_RECLAIM_WB_MIXED	0x0010u
#define RS_RECLAIM_WB_SYNC	0x0004u
#define RS_RECLAIM_WB_ASYNC	0x0008u

/* Bits of rs_event.have: optional fields present in this kernel's format. */
#define RS_HAVE_NID		(1u << 0)
#define RS_HAVE_ZID		(1u << 1)	/* zone index: zid, classzone_idx, highest_zoneidx */
#define RS_HAVE_LRU		(1u << 2)	/* lru_isolate.lru */
#define RS_HAVE_FILE		(1u << 3)	/* lru_isolate.file (3.3-4.10) */
#define RS_HAVE_ACTIVATE_SPLIT	(1u << 4)	/* nr_activate0/1, else one nr_activate */
#define RS_HAVE_SHRINK_DETAIL	(1u << 5)	/* nr_dirty..nr_unmap_fail (4.11+) */
#define RS_HAVE_MEMCG_ID	(1u << 6)	/* 7.1+ reclaim begin/end, shrink_slab memcg_id */
#define RS_HAVE_GFP		(1u << 7)
#define RS_HAVE_SKIPPED		(1u << 8)	/* lru_isolate.nr_skipped (4.11+) */
#define RS_HAVE_PRIORITY	(1u << 9)
#define RS_HAVE_ISOLATE_MODE	(1u << 10)
#define RS_HAVE_ORDER		(1u << 11)
#define RS_HAVE_PFN		(1u << 12)	/* write_folio.pfn (formats with only the struct
						   page pointer have none) */
/* lru_shrink_inactive / reclaim_pages counters one by one (2.6.37-4.10 have none of them) */
#define RS_HAVE_ACTIVATE	(1u << 16)	/* nr_activate, or nr_activate0/1 */
#define RS_HAVE_REF_KEEP	(1u << 17)
#define RS_HAVE_UNMAP_FAIL	(1u << 18)
#define RS_HAVE_DIRTY		(1u << 19)
#define RS_HAVE_WRITEBACK	(1u << 20)
#define RS_HAVE_CONGESTED	(1u << 21)
#define RS_HAVE_IMMEDIATE	(1u << 22)

struct rs_ev_kswapd {
	int nid, zid, order;
	uint64_t gfp_flags;
};

/* balance_pgdat begin/end: one kswapd run over a node (7.x) */
struct rs_ev_balance {
	int nid, order, zid;		/* zid: highest_zoneidx */
	uint64_t nr_reclaimed;		/* end */
};

/* kswapd's health on a node (7.x): a run that reclaimed nothing, or the failures cleared */
enum rs_hopeless_reason {		/* enum kswapd_clear_hopeless_reason */
	RS_HOPELESS_OTHER,
	RS_HOPELESS_KSWAPD,		/* kswapd itself reclaimed */
	RS_HOPELESS_DIRECT,		/* direct reclaim reclaimed */
	RS_HOPELESS_PCP,		/* pages freed to the per-cpu lists */
	RS_HOPELESS_NR
};

struct rs_ev_kswapd_health {
	int nid;
	int failures;			/* reclaim_fail: kswapd_failures after this run */
	int reason;			/* clear_hopeless: enum rs_hopeless_reason, -1 unknown */
};

struct rs_ev_reclaim {
	enum rs_reclaim_kind kind;
	int order;			/* begin */
	int nid;			/* node reclaim begin */
	uint64_t gfp_flags;		/* begin */
	uint64_t nr_reclaimed;		/* end */
	uint64_t memcg_id;		/* 7.1+, when RS_HAVE_MEMCG_ID */
};

struct rs_ev_isolate {
	int nid;			/* only very old kernels; else from the shrink event */
	int zid;			/* classzone_idx / highest_zoneidx */
	int order;
	int lru;			/* enum rs_lru, -1 when only `file` is known */
	int file;			/* 0/1 when RS_HAVE_FILE */
	int isolate_mode;
	uint64_t nr_requested, nr_scanned, nr_skipped, nr_taken;
};

/* lru_shrink_inactive and reclaim_pages share this shape. */
struct rs_ev_shrink_inactive {
	int nid, zid, priority;
	unsigned int reclaim_flags;
	uint64_t nr_scanned, nr_reclaimed;
	uint64_t nr_dirty, nr_writeback, nr_congested, nr_immediate;
	uint64_t nr_activate_anon, nr_activate_file;	/* old single nr_activate goes to the
							   type the flags name */
	uint64_t nr_ref_keep, nr_unmap_fail;
};

struct rs_ev_shrink_active {
	int nid, priority;
	unsigned int reclaim_flags;
	uint64_t nr_taken, nr_active, nr_deactivated, nr_referenced;
};

struct rs_ev_write {
	uint64_t pfn;
	unsigned int reclaim_flags;
};

struct rs_ev_slab {
	uint64_t shrinker;		/* struct shrinker * */
	uint64_t shrink_fn;		/* function address */
	const char *shrink_name;	/* symbol of shrink_fn, or NULL */
	int nid, priority;		/* priority: start only */
	int64_t nr_objects_to_shrink;	/* start */
	uint64_t cache_items, delta;	/* start */
	int64_t total_scan;
	int64_t unused_scan, new_scan;	/* end */
	int retval;			/* end: objects freed by the last call */
	uint64_t memcg_id;		/* 7.1+, when RS_HAVE_MEMCG_ID: the memcg whose slab
					   objects are shrunk (0: the root / not memcg aware) */
};

struct rs_ev_throttled {
	int nid, usec_timeout, usec_delayed;
	int reason;			/* as stored: 1 << enum vmscan_throttle_state */
};

struct rs_ev_memcg {
	uint64_t id;			/* cgroup id = inode of the memcg's directory */
	int item;			/* raw enum value of the recorded kernel */
	int64_t val;
};

/*
 * __mem_cgroup_flush_stats() of memcg `id`: it flushed the memcg's subtree (css_rstat_flush)
 * when `force` (the periodic flusher) or `needs_flush` (more updates pending than the
 * threshold); otherwise the stats stayed as the last flush left them.
 */
struct rs_ev_memcg_flush {
	uint64_t id;
	int64_t stats_updates;
	bool force, needs_flush;
};

enum rs_cgroup_op { RS_CG_MKDIR, RS_CG_RMDIR, RS_CG_RENAME, RS_CG_RELEASE };

struct rs_ev_cgroup {
	enum rs_cgroup_op op;		/* RS_EV_CGROUP only */
	int root, level;
	uint64_t id;
	const char *path;
	int pid;			/* attach: the task moved */
	const char *comm;		/* attach */
};

struct rs_ev_task {
	/* sched_switch: prev in pid/comm, next in child_pid/child_comm; wakeup: the woken task */
	int pid;			/* fork: parent; exec/exit: the task */
	int child_pid;			/* fork */
	const char *comm;		/* fork: parent; exit: task */
	const char *child_comm;		/* fork */
	const char *filename;		/* exec */
};

/* A folio leaving or entering the page cache: one file range of 1 << order pages. */
struct rs_ev_filemap {
	uint64_t dev;			/* s_dev as the kernel encodes it: major << 20 | minor */
	uint64_t ino;			/* i_ino */
	uint64_t index;			/* page index of the folio's first page in the file */
	uint64_t pfn;
	int order;			/* folio order; 0 when the kernel lacks the field */
};

/*
 * The buddy allocator's kmem events (record --zone-flow): a block of 1 << order pages at pfn
 * taken off the buddy lists (kmem:mm_page_alloc_zone_locked), given back by a per-cpu list
 * (kmem:mm_page_pcpu_drain), or freed (kmem:mm_page_free: straight to the buddy lists only at
 * an order the per-cpu lists never hold; the consumer decides, docs/markers.md "zone_flow").
 */
enum rs_buddy_kind { RS_BUDDY_ALLOC, RS_BUDDY_DRAIN, RS_BUDDY_FREE };
struct rs_ev_buddy {
	uint64_t pfn;
	int order;			/* 0..RS_ORDER_MAX (rs_normalize.h) */
	int kind;			/* enum rs_buddy_kind */
};

struct rs_ev_oom {
	int pid;
	const char *comm;		/* when the kernel records it, else NULL */
	uint64_t total_vm, anon_rss, file_rss, shmem_rss;	/* kB, when recorded */
};

/* Recorder metadata; keys and values as written in the marker, see docs/record.md. */
struct rs_ev_meta {
	const char *kind;		/* "begin", "end" */
	const char *text;		/* the whole marker after its tag: key=value ... */
};

enum rs_item_enum {
	RS_ITEMS_VM_EVENT,		/* enum vm_event_item: count_memcg_events.item */
	RS_ITEMS_NODE_STAT,		/* enum node_stat_item: mod_memcg_lruvec_state.item */
	RS_ITEMS_MEMCG_STAT,		/* enum memcg_stat_item: mod_memcg_state.item */
};

struct rs_ev_items {
	enum rs_item_enum which;
	int count;
	const char *const *names;	/* names[i] is item value i */
};

struct rs_ev_cgroup_map {
	uint64_t id;
	const char *path;
};

struct rs_ev_task_cgroup {
	int pid;
	uint64_t id;			/* 0 when only the path is known */
	const char *path;
};

/* memory.stat refault and swap counters a snapshot may carry (counts, not bytes). */
enum rs_ws_item {
	RS_WS_REFAULT_ANON,		/* workingset_refault_anon */
	RS_WS_REFAULT_FILE,		/* workingset_refault_file */
	RS_WS_ACTIVATE_ANON,		/* workingset_activate_anon (v2) */
	RS_WS_ACTIVATE_FILE,
	RS_WS_RESTORE_ANON,		/* workingset_restore_anon (v2) */
	RS_WS_RESTORE_FILE,
	RS_WS_NODERECLAIM,		/* workingset_nodereclaim (v2) */
	RS_WS_PSWPIN,			/* pswpin (v2 memory.stat, recent kernels) */
	RS_WS_PSWPOUT,
	RS_WS_NR
};
const char *rs_ws_item_name(int item);		/* the memory.stat key */

#define RS_SNAP_NODES	4	/* nodes a memcg_stat's numa_* lists are read for */

/* Per-cgroup snapshot. Sizes in bytes, as memory.stat and memory.usage_in_bytes give them. */
struct rs_ev_snap_memcg {
	uint64_t id;			/* 0 when not recorded */
	const char *path;
	uint64_t usage, limit, soft_limit;
	/*
	 * v2 memory.low and memory.min (have_min: the snapshot has min=, which recorders before
	 * 2026-12-03 did not write; low= they did), memory.swap.max and memory.swap.current
	 * (have_swap: the snapshot has swap_max=; absent on v1, older recorders, swap accounting
	 * off). Bytes; a field not had is 0 and means nothing.
	 */
	uint64_t low, min, swap_max, swap;
	bool have_low, have_min, have_swap;
	uint64_t lru_bytes[RS_LRU_NR];
	int swappiness;			/* -1 when not recorded */
	int64_t ws[RS_WS_NR];		/* -1 when the snapshot lacks the counter */
	/*
	 * memory.numa_stat (cgroup v2, two or more nodes): each node's lists, bytes, as
	 * lruvec_page_state() of the memcg on that node (its subtree, like memory.stat).
	 * numa_nodes: bit n set when node n is in every evictable list's numa_* key; 0: the
	 * marker has none (one node, v1, an older recorder, or a node past RS_SNAP_NODES).
	 */
	uint32_t numa_nodes;
	uint64_t numa_bytes[RS_SNAP_NODES][RS_LRU_NR];
	/*
	 * The same for workingset_activate_anon, _file, workingset_restore_anon, _file (counts):
	 * numa_ws_nodes as numa_nodes, over the four.
	 */
	uint32_t numa_ws_nodes;
	uint64_t numa_ws[RS_SNAP_NODES][4];
};

/* Per-node snapshot, in pages as /proc/vmstat and /proc/zoneinfo give them. */
struct rs_ev_snap_node {
	int nid;
	uint64_t free_pages;
	uint64_t lru_pages[RS_LRU_NR];
	uint64_t wmark_min, wmark_low, wmark_high;	/* 0 when not recorded */
};

/*
 * Per-zone snapshot (/proc/zoneinfo, pages): what pgdat_balanced() tests per zone. The
 * watermarks include the zone's boost, as high_wmark_pages() does.
 */
#define RS_ZONE_MAX	8
#define RS_ZONE_ORDERS	16
struct rs_ev_snap_zone {
	int nid, idx;			/* idx: the zone index within the node (ZONE_DMA = 0) */
	uint64_t free_pages, free_cma;
	uint64_t wmark_min, wmark_low, wmark_high;
	uint64_t managed;
	uint64_t lowmem_reserve[RS_ZONE_MAX];	/* by highest_zoneidx; "protection:" */
	int nr_reserve;
	int64_t free_highatomic, reserved_highatomic;	/* -1 when not recorded */
	int64_t pcp, pcp_high, pcp_batch;	/* per-cpu lists, summed over CPUs; -1: none */
	uint64_t blocks[RS_ZONE_ORDERS];	/* /proc/buddyinfo: free blocks by order */
	int nr_blocks;				/* 0 when not recorded */
	uint64_t start_pfn, spanned;		/* the zone's pfn range; spanned 0: not recorded */
};

struct rs_event {
	enum rs_ev_type type;
	uint64_t ts;			/* ns */
	int cpu;
	int pid;			/* common_pid */
	const char *comm;		/* of pid, "<...>" when unknown */
	uint64_t offset;		/* file offset of the record (trace.dat), line number (text) */
	unsigned int have;		/* RS_HAVE_* */
	union {
		struct rs_ev_kswapd kswapd;
		struct rs_ev_balance balance;
		struct rs_ev_kswapd_health health;
		struct rs_ev_reclaim reclaim;
		struct rs_ev_isolate isolate;
		struct rs_ev_shrink_inactive inactive;	/* also RS_EV_RECLAIM_PAGES */
		struct rs_ev_shrink_active active;
		struct rs_ev_write write;
		struct rs_ev_slab slab;
		struct rs_ev_throttled throttled;
		struct rs_ev_memcg memcg;
		struct rs_ev_memcg_flush flush;
		struct rs_ev_cgroup cgroup;
		struct rs_ev_task task;
		struct rs_ev_oom oom;
		struct rs_ev_filemap filemap;
		struct rs_ev_buddy buddy;
		struct rs_ev_meta meta;
		struct rs_ev_items items;
		struct rs_ev_cgroup_map cgroup_map;
		struct rs_ev_task_cgroup task_cgroup;
		struct rs_ev_snap_memcg snap_memcg;
		struct rs_ev_snap_node snap_node;
		struct rs_ev_snap_zone snap_zone;
		const char *marker;	/* RS_EV_MARKER text */
		int64_t lost;		/* RS_EV_LOST: how many, -1 when the count is unknown */
	};
};

const char *rs_ev_type_name(enum rs_ev_type t);
const char *rs_reclaim_kind_name(enum rs_reclaim_kind k);	/* "direct", "memcg", ... */
const char *rs_lru_name(int lru);				/* "inactive_anon", ... */
const char *rs_hopeless_reason_name(int reason);		/* "KSWAPD", ... as the kernel */

/*
 * The value of "key=value" in a RS_EV_META text (values have no spaces), copied into buf
 * (truncated to n - 1 bytes); NULL when the key is absent.
 */
const char *rs_meta_value(const char *text, const char *key, char *buf, size_t n);

#endif
