// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint field sets across kernel eras (shared/NOTES.md §2, include/trace/events/vmscan.h of
 * 2.6.36 .. 7.1) and their normalization. Features are detected by field presence, never by
 * kernel version: distributions backport. The second and later names of a slot are the names
 * the print format uses, which is what text traces (`trace-cmd report`, ftrace's `trace`) show.
 */
#include <string.h>

#include "rs_normalize.h"

#define N(names) { names, RS_SLOT_NUM, false }
#define NR(names) { names, RS_SLOT_NUM, true }
#define S(names) { names, RS_SLOT_STR, false }
#define SR(names) { names, RS_SLOT_STR, true }

/* Slot order inside each table is what rs_normalize() indexes; keep them in step. */
enum { KS_NID };
static const struct rs_slot kswapd_sleep_slots[] = { NR("nid") };

enum { KW_NID, KW_ZID, KW_ORDER, KW_GFP };
static const struct rs_slot kswapd_wake_slots[] = {
	NR("nid"), N("zid"), N("order"), N("gfp_flags"),
};

enum { RB_ORDER, RB_GFP, RB_MEMCG, RB_NID };
static const struct rs_slot reclaim_begin_slots[] = {
	N("order"), N("gfp_flags"), N("memcg_id"), N("nid"),
};

enum { RE_RECLAIMED, RE_MEMCG };
static const struct rs_slot reclaim_end_slots[] = { NR("nr_reclaimed"), N("memcg_id") };

enum { LI_NID, LI_ZID, LI_ORDER, LI_REQ, LI_SCANNED, LI_SKIPPED, LI_TAKEN, LI_LRU, LI_FILE,
	LI_MODE };
static const struct rs_slot isolate_slots[] = {
	N("nid"), N("highest_zoneidx|classzone_idx|classzone"), N("order"),
	N("nr_requested"), NR("nr_scanned"), N("nr_skipped"), NR("nr_taken"),
	N("lru"), N("file"), N("isolate_mode"),
};

enum { SI_NID, SI_ZID, SI_SCANNED, SI_RECLAIMED, SI_DIRTY, SI_WRITEBACK, SI_CONGESTED,
	SI_IMMEDIATE, SI_ACT0, SI_ACT1, SI_ACT, SI_REFKEEP, SI_UNMAPFAIL, SI_PRIO, SI_FLAGS };
static const struct rs_slot shrink_inactive_slots[] = {
	N("nid"), N("zid"), NR("nr_scanned"), NR("nr_reclaimed"), N("nr_dirty"),
	N("nr_writeback"), N("nr_congested"), N("nr_immediate"),
	N("nr_activate0|nr_activate_anon"), N("nr_activate1|nr_activate_file"),
	N("nr_activate"), N("nr_ref_keep"), N("nr_unmap_fail"), N("priority"),
	N("reclaim_flags|flags"),
};

enum { SA_NID, SA_TAKEN, SA_ACTIVE, SA_DEACT, SA_REF, SA_PRIO, SA_FLAGS };
static const struct rs_slot shrink_active_slots[] = {
	N("nid"), NR("nr_taken"), N("nr_active"), N("nr_deactivated"), N("nr_referenced"),
	N("priority"), N("reclaim_flags|flags"),
};

enum { WF_PFN, WF_FLAGS };
static const struct rs_slot write_slots[] = { N("pfn"), N("reclaim_flags|flags") };

enum { SS_SHR, SS_FN, SS_NID, SS_OBJS, SS_ITEMS, SS_DELTA, SS_TOTAL, SS_PRIO, SS_MEMCG };
static const struct rs_slot slab_start_slots[] = {
	N("shr"), N("shrink"), N("nid"), N("nr_objects_to_shrink"), N("cache_items"),
	N("delta"), N("total_scan"), N("priority"), N("memcg_id"),
};

enum { SE_SHR, SE_FN, SE_NID, SE_UNUSED, SE_NEW, SE_RET, SE_TOTAL, SE_MEMCG };
static const struct rs_slot slab_end_slots[] = {
	N("shr"), N("shrink"), N("nid"), N("unused_scan"), N("new_scan"), N("retval"),
	N("total_scan"), N("memcg_id"),
};

enum { TH_NID, TH_TIMEOUT, TH_DELAYED, TH_REASON };
static const struct rs_slot throttled_slots[] = {
	N("nid"), N("usec_timeout"), N("usec_delayed|usect_delayed"), N("reason"),
};

enum { BP_NID, BP_ORDER, BP_ZID, BP_RECLAIMED };
static const struct rs_slot balance_slots[] = {
	NR("nid"), N("order"), N("highest_zoneidx"), N("nr_reclaimed"),
};

enum { KF_NID, KF_FAILURES };
static const struct rs_slot kswapd_fail_slots[] = { NR("nid"), NR("failures") };

enum { KH_NID, KH_REASON };
static const struct rs_slot clear_hopeless_slots[] = { NR("nid"), N("reason") };

enum { MC_ID, MC_ITEM, MC_VAL };
static const struct rs_slot memcg_slots[] = { NR("id|memcg_id"), NR("item"), NR("val") };

enum { MF_ID, MF_UPDATES, MF_FORCE, MF_NEEDS };
static const struct rs_slot flush_slots[] = {
	NR("id|memcg_id"), N("stats_updates"), N("force"), N("needs_flush"),
};

enum { CG_ROOT, CG_LEVEL, CG_ID, CG_PATH };
static const struct rs_slot cgroup_slots[] = {
	N("root"), N("level"), NR("id"), S("path"),
};

enum { CA_ROOT, CA_ID, CA_LEVEL, CA_PATH, CA_PID, CA_COMM };
static const struct rs_slot attach_slots[] = {
	N("dst_root"), NR("dst_id"), N("dst_level"), S("dst_path"), NR("pid"), S("comm"),
};

enum { FK_PCOMM, FK_PPID, FK_CCOMM, FK_CPID };
static const struct rs_slot fork_slots[] = {
	S("parent_comm|comm"), NR("parent_pid|pid"), S("child_comm"), NR("child_pid"),
};

enum { SW_PCOMM, SW_PPID, SW_NCOMM, SW_NPID };
static const struct rs_slot switch_slots[] = {
	S("prev_comm"), NR("prev_pid"), S("next_comm"), NR("next_pid"),
};

enum { WK_COMM, WK_PID };
static const struct rs_slot wakeup_slots[] = { S("comm"), NR("pid") };

enum { EX_FILE, EX_PID };
static const struct rs_slot exec_slots[] = { S("filename"), NR("pid") };

enum { XT_COMM, XT_PID };
static const struct rs_slot exit_slots[] = { S("comm"), NR("pid") };

enum { OV_PID, OV_COMM, OV_TOTAL, OV_ANON, OV_FILE, OV_SHMEM };
static const struct rs_slot oom_victim_slots[] = {
	NR("pid"), S("comm"), N("total_vm|total-vm"), N("anon_rss|anon-rss"),
	N("file_rss|file-rss"), N("shmem_rss|shmem-rss"),
};

/* Binary names only: the printed form ("dev 8:1 ino 1a pfn=0x.. ofs=BYTES") differs in units. */
enum { FM_DEV, FM_INO, FM_INDEX, FM_PFN, FM_ORDER };
static const struct rs_slot filemap_slots[] = {
	NR("s_dev"), NR("i_ino"), NR("index"), N("pfn"), N("order"),
};

/* kmem's page events: pfn and order are all the flow needs (migratetype: not used) */
enum { BD_PFN, BD_ORDER };
static const struct rs_slot buddy_slots[] = { NR("pfn"), NR("order") };

enum { PR_BUF };
static const struct rs_slot print_slots[] = { SR("buf") };

#define KE(sys, nm, t, sub, slots) { sys, nm, t, sub, slots, sizeof(slots) / sizeof(slots[0]) }

static const struct rs_kevent kevents[] = {
	KE("vmscan", "mm_vmscan_kswapd_sleep", RS_EV_KSWAPD_SLEEP, 0, kswapd_sleep_slots),
	KE("vmscan", "mm_vmscan_kswapd_wake", RS_EV_KSWAPD_WAKE, 0, kswapd_wake_slots),
	KE("vmscan", "mm_vmscan_wakeup_kswapd", RS_EV_WAKEUP_KSWAPD, 0, kswapd_wake_slots),
	KE("vmscan", "mm_vmscan_balance_pgdat_begin", RS_EV_BALANCE_BEGIN, 0, balance_slots),
	KE("vmscan", "mm_vmscan_balance_pgdat_end", RS_EV_BALANCE_END, 0, balance_slots),
	KE("vmscan", "mm_vmscan_kswapd_reclaim_fail", RS_EV_KSWAPD_FAIL, 0, kswapd_fail_slots),
	KE("vmscan", "mm_vmscan_kswapd_clear_hopeless", RS_EV_KSWAPD_CLEAR_HOPELESS, 0,
	   clear_hopeless_slots),
	KE("vmscan", "mm_vmscan_direct_reclaim_begin", RS_EV_RECLAIM_BEGIN, RS_RK_DIRECT,
	   reclaim_begin_slots),
	KE("vmscan", "mm_vmscan_direct_reclaim_end", RS_EV_RECLAIM_END, RS_RK_DIRECT,
	   reclaim_end_slots),
	KE("vmscan", "mm_vmscan_memcg_reclaim_begin", RS_EV_RECLAIM_BEGIN, RS_RK_MEMCG,
	   reclaim_begin_slots),
	KE("vmscan", "mm_vmscan_memcg_reclaim_end", RS_EV_RECLAIM_END, RS_RK_MEMCG,
	   reclaim_end_slots),
	KE("vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", RS_EV_RECLAIM_BEGIN,
	   RS_RK_SOFTLIMIT, reclaim_begin_slots),
	KE("vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", RS_EV_RECLAIM_END,
	   RS_RK_SOFTLIMIT, reclaim_end_slots),
	KE("vmscan", "mm_vmscan_node_reclaim_begin", RS_EV_RECLAIM_BEGIN, RS_RK_NODE,
	   reclaim_begin_slots),
	KE("vmscan", "mm_vmscan_node_reclaim_end", RS_EV_RECLAIM_END, RS_RK_NODE,
	   reclaim_end_slots),
	KE("vmscan", "mm_vmscan_lru_isolate", RS_EV_LRU_ISOLATE, 0, isolate_slots),
	KE("vmscan", "mm_vmscan_memcg_isolate", RS_EV_LRU_ISOLATE, 0, isolate_slots),
	KE("vmscan", "mm_vmscan_lru_shrink_inactive", RS_EV_SHRINK_INACTIVE, 0,
	   shrink_inactive_slots),
	KE("vmscan", "mm_vmscan_reclaim_pages", RS_EV_RECLAIM_PAGES, 0, shrink_inactive_slots),
	KE("vmscan", "mm_vmscan_lru_shrink_active", RS_EV_SHRINK_ACTIVE, 0, shrink_active_slots),
	KE("vmscan", "mm_vmscan_write_folio", RS_EV_WRITE_FOLIO, 0, write_slots),
	KE("vmscan", "mm_vmscan_writepage", RS_EV_WRITE_FOLIO, 0, write_slots),
	KE("vmscan", "mm_shrink_slab_start", RS_EV_SLAB_START, 0, slab_start_slots),
	KE("vmscan", "mm_shrink_slab_end", RS_EV_SLAB_END, 0, slab_end_slots),
	KE("vmscan", "mm_vmscan_throttled", RS_EV_THROTTLED, 0, throttled_slots),
	KE("memcg", "count_memcg_events", RS_EV_MEMCG_COUNT, 0, memcg_slots),
	KE("memcg", "mod_memcg_lruvec_state", RS_EV_MEMCG_LRUVEC, 0, memcg_slots),
	KE("memcg", "mod_memcg_state", RS_EV_MEMCG_STATE, 0, memcg_slots),
	KE("memcg", "memcg_flush_stats", RS_EV_MEMCG_FLUSH, 0, flush_slots),
	KE("cgroup", "cgroup_mkdir", RS_EV_CGROUP, RS_CG_MKDIR, cgroup_slots),
	KE("cgroup", "cgroup_rmdir", RS_EV_CGROUP, RS_CG_RMDIR, cgroup_slots),
	KE("cgroup", "cgroup_rename", RS_EV_CGROUP, RS_CG_RENAME, cgroup_slots),
	KE("cgroup", "cgroup_release", RS_EV_CGROUP, RS_CG_RELEASE, cgroup_slots),
	KE("cgroup", "cgroup_attach_task", RS_EV_CGROUP_ATTACH, 0, attach_slots),
	KE("cgroup", "cgroup_transfer_tasks", RS_EV_CGROUP_ATTACH, 0, attach_slots),
	KE("sched", "sched_process_fork", RS_EV_FORK, 0, fork_slots),
	KE("sched", "sched_process_exec", RS_EV_EXEC, 0, exec_slots),
	KE("sched", "sched_process_exit", RS_EV_EXIT, 0, exit_slots),
	KE("sched", "sched_switch", RS_EV_SCHED_NAME, 0, switch_slots),
	KE("sched", "sched_wakeup", RS_EV_SCHED_NAME, 1, wakeup_slots),
	KE("sched", "sched_wakeup_new", RS_EV_SCHED_NAME, 1, wakeup_slots),
	KE("oom", "mark_victim", RS_EV_OOM_VICTIM, 0, oom_victim_slots),
	KE("filemap", "mm_filemap_delete_from_page_cache", RS_EV_FILEMAP_DELETE, 0,
	   filemap_slots),
	KE("filemap", "mm_filemap_add_to_page_cache", RS_EV_FILEMAP_ADD, 0, filemap_slots),
	KE("kmem", "mm_page_alloc_zone_locked", RS_EV_BUDDY, RS_BUDDY_ALLOC, buddy_slots),
	KE("kmem", "mm_page_pcpu_drain", RS_EV_BUDDY, RS_BUDDY_DRAIN, buddy_slots),
	KE("kmem", "mm_page_free", RS_EV_BUDDY, RS_BUDDY_FREE, buddy_slots),
	KE("ftrace", "print", RS_EV_MARKER, 0, print_slots),
};

#define NR_KEVENTS ((int)(sizeof(kevents) / sizeof(kevents[0])))

int rs_kevent_count(void)
{
	return NR_KEVENTS;
}

const struct rs_kevent *rs_kevent_get(int i)
{
	return i >= 0 && i < NR_KEVENTS ? &kevents[i] : NULL;
}

int rs_kevent_find(const char *system, const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < NR_KEVENTS; i++) {
		if (strcmp(kevents[i].name, name))
			continue;
		if (system && strcmp(kevents[i].system, system))
			continue;
		return i;
	}
	return -1;
}

bool rs_slot_name_matches(const struct rs_slot *slot, const char *name)
{
	size_t len = strlen(name);
	const char *p = slot->names;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == len && !memcmp(p, name, n))
			return true;
		if (!bar)
			break;
		p = bar + 1;
	}
	return false;
}

const char *rs_kevent_missing(const struct rs_kevent *ke, uint32_t present)
{
	static __thread char first[64];

	for (int i = 0; i < ke->nr_slots; i++) {
		if (ke->slots[i].required && !(present & (1u << i))) {
			const char *bar = strchr(ke->slots[i].names, '|');
			size_t n = bar ? (size_t)(bar - ke->slots[i].names) :
					 strlen(ke->slots[i].names);

			if (n >= sizeof(first))
				n = sizeof(first) - 1;
			memcpy(first, ke->slots[i].names, n);
			first[n] = '\0';
			return first;
		}
	}
	return NULL;
}

static inline bool has(const struct rs_slotvals *v, int slot)
{
	return v->present & (1u << slot);
}

/* Numeric slot, or `def` when the kernel lacks the field. */
static inline uint64_t num(const struct rs_slotvals *v, int slot, uint64_t def)
{
	return has(v, slot) ? v->num[slot] : def;
}

static inline int inum(const struct rs_slotvals *v, int slot, int def)
{
	return has(v, slot) ? (int)(int64_t)v->num[slot] : def;
}

static inline const char *str(const struct rs_slotvals *v, int slot)
{
	return has(v, slot) ? v->str[slot] : NULL;
}

static void normalize_isolate(const struct rs_slotvals *v, struct rs_event *ev)
{
	struct rs_ev_isolate *is = &ev->isolate;

	is->nid = inum(v, LI_NID, -1);
	is->zid = inum(v, LI_ZID, -1);
	is->order = inum(v, LI_ORDER, 0);
	is->nr_requested = num(v, LI_REQ, 0);
	is->nr_scanned = num(v, LI_SCANNED, 0);
	is->nr_skipped = num(v, LI_SKIPPED, 0);
	is->nr_taken = num(v, LI_TAKEN, 0);
	is->file = inum(v, LI_FILE, -1);
	is->isolate_mode = inum(v, LI_MODE, 0);
	is->lru = -1;
	if (has(v, LI_LRU)) {
		uint64_t lru = v->num[LI_LRU];

		/* Out-of-range list numbers are treated as unknown, not indexed. */
		if (lru < RS_LRU_NR) {
			is->lru = (int)lru;
			ev->have |= RS_HAVE_LRU;
		}
	}
	if (has(v, LI_NID))
		ev->have |= RS_HAVE_NID;
	if (has(v, LI_ZID))
		ev->have |= RS_HAVE_ZID;
	if (has(v, LI_FILE))
		ev->have |= RS_HAVE_FILE;
	if (has(v, LI_SKIPPED))
		ev->have |= RS_HAVE_SKIPPED;
	if (has(v, LI_MODE))
		ev->have |= RS_HAVE_ISOLATE_MODE;
	if (has(v, LI_ORDER))
		ev->have |= RS_HAVE_ORDER;
}

static void normalize_shrink_inactive(const struct rs_slotvals *v, struct rs_event *ev)
{
	struct rs_ev_shrink_inactive *si = &ev->inactive;

	si->nid = inum(v, SI_NID, -1);
	si->zid = inum(v, SI_ZID, -1);
	si->nr_scanned = num(v, SI_SCANNED, 0);
	si->nr_reclaimed = num(v, SI_RECLAIMED, 0);
	si->nr_dirty = num(v, SI_DIRTY, 0);
	si->nr_writeback = num(v, SI_WRITEBACK, 0);
	si->nr_congested = num(v, SI_CONGESTED, 0);
	si->nr_immediate = num(v, SI_IMMEDIATE, 0);
	si->nr_ref_keep = num(v, SI_REFKEEP, 0);
	si->nr_unmap_fail = num(v, SI_UNMAPFAIL, 0);
	si->priority = inum(v, SI_PRIO, -1);
	si->reclaim_flags = (unsigned int)num(v, SI_FLAGS, 0);
	si->nr_activate_anon = si->nr_activate_file = 0;
	if (has(v, SI_ACT0) || has(v, SI_ACT1)) {
		si->nr_activate_anon = num(v, SI_ACT0, 0);
		si->nr_activate_file = num(v, SI_ACT1, 0);
		ev->have |= RS_HAVE_ACTIVATE_SPLIT;
	} else if (has(v, SI_ACT)) {
		/* 4.11-5.1: one count, of the list type being shrunk */
		if (si->reclaim_flags & RS_RECLAIM_WB_FILE)
			si->nr_activate_file = v->num[SI_ACT];
		else
			si->nr_activate_anon = v->num[SI_ACT];
	}
	if (has(v, SI_DIRTY))
		ev->have |= RS_HAVE_SHRINK_DETAIL;
	ev->have |= (has(v, SI_ACT0) || has(v, SI_ACT1) || has(v, SI_ACT) ? RS_HAVE_ACTIVATE : 0) |
		    (has(v, SI_REFKEEP) ? RS_HAVE_REF_KEEP : 0) |
		    (has(v, SI_UNMAPFAIL) ? RS_HAVE_UNMAP_FAIL : 0) |
		    (has(v, SI_DIRTY) ? RS_HAVE_DIRTY : 0) |
		    (has(v, SI_WRITEBACK) ? RS_HAVE_WRITEBACK : 0) |
		    (has(v, SI_CONGESTED) ? RS_HAVE_CONGESTED : 0) |
		    (has(v, SI_IMMEDIATE) ? RS_HAVE_IMMEDIATE : 0);
	if (has(v, SI_NID))
		ev->have |= RS_HAVE_NID;
	if (has(v, SI_ZID))
		ev->have |= RS_HAVE_ZID;
	if (has(v, SI_PRIO))
		ev->have |= RS_HAVE_PRIORITY;
}

static void normalize_slab(const struct rs_slotvals *v, struct rs_event *ev, bool start)
{
	struct rs_ev_slab *sl = &ev->slab;

	if (start) {
		sl->shrinker = num(v, SS_SHR, 0);
		sl->shrink_fn = num(v, SS_FN, 0);
		sl->nid = inum(v, SS_NID, -1);
		sl->nr_objects_to_shrink = (int64_t)num(v, SS_OBJS, 0);
		sl->cache_items = num(v, SS_ITEMS, 0);
		sl->delta = num(v, SS_DELTA, 0);
		sl->total_scan = (int64_t)num(v, SS_TOTAL, 0);
		sl->priority = inum(v, SS_PRIO, -1);
		sl->memcg_id = num(v, SS_MEMCG, 0);
		ev->have |= has(v, SS_MEMCG) ? RS_HAVE_MEMCG_ID : 0;
	} else {
		sl->shrinker = num(v, SE_SHR, 0);
		sl->shrink_fn = num(v, SE_FN, 0);
		sl->nid = inum(v, SE_NID, -1);
		sl->unused_scan = (int64_t)num(v, SE_UNUSED, 0);
		sl->new_scan = (int64_t)num(v, SE_NEW, 0);
		sl->retval = inum(v, SE_RET, 0);
		sl->total_scan = (int64_t)num(v, SE_TOTAL, 0);
		sl->priority = -1;
		sl->memcg_id = num(v, SE_MEMCG, 0);
		ev->have |= has(v, SE_MEMCG) ? RS_HAVE_MEMCG_ID : 0;
	}
}

void rs_normalize(const struct rs_kevent *ke, const struct rs_slotvals *v, struct rs_event *ev)
{
	ev->type = ke->type;
	ev->have = 0;
	switch (ke->type) {
	case RS_EV_KSWAPD_SLEEP:
		ev->kswapd.nid = inum(v, KS_NID, -1);
		ev->kswapd.zid = -1;
		ev->kswapd.order = 0;
		ev->kswapd.gfp_flags = 0;
		ev->have |= RS_HAVE_NID;
		break;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_WAKEUP_KSWAPD:
		ev->kswapd.nid = inum(v, KW_NID, -1);
		ev->kswapd.zid = inum(v, KW_ZID, -1);
		ev->kswapd.order = inum(v, KW_ORDER, 0);
		ev->kswapd.gfp_flags = num(v, KW_GFP, 0);
		ev->have |= RS_HAVE_NID | (has(v, KW_ZID) ? RS_HAVE_ZID : 0) |
			    (has(v, KW_GFP) ? RS_HAVE_GFP : 0) |
			    (has(v, KW_ORDER) ? RS_HAVE_ORDER : 0);
		break;
	case RS_EV_RECLAIM_BEGIN:
		ev->reclaim.kind = (enum rs_reclaim_kind)ke->subkind;
		ev->reclaim.order = inum(v, RB_ORDER, 0);
		ev->reclaim.gfp_flags = num(v, RB_GFP, 0);
		ev->reclaim.memcg_id = num(v, RB_MEMCG, 0);
		ev->reclaim.nid = inum(v, RB_NID, -1);
		ev->reclaim.nr_reclaimed = 0;
		ev->have |= (has(v, RB_MEMCG) ? RS_HAVE_MEMCG_ID : 0) |
			    (has(v, RB_GFP) ? RS_HAVE_GFP : 0) |
			    (has(v, RB_NID) ? RS_HAVE_NID : 0) |
			    (has(v, RB_ORDER) ? RS_HAVE_ORDER : 0);
		break;
	case RS_EV_RECLAIM_END:
		ev->reclaim.kind = (enum rs_reclaim_kind)ke->subkind;
		ev->reclaim.order = 0;
		ev->reclaim.gfp_flags = 0;
		ev->reclaim.nid = -1;
		ev->reclaim.nr_reclaimed = num(v, RE_RECLAIMED, 0);
		ev->reclaim.memcg_id = num(v, RE_MEMCG, 0);
		ev->have |= has(v, RE_MEMCG) ? RS_HAVE_MEMCG_ID : 0;
		break;
	case RS_EV_LRU_ISOLATE:
		normalize_isolate(v, ev);
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_RECLAIM_PAGES:
		normalize_shrink_inactive(v, ev);
		break;
	case RS_EV_BALANCE_BEGIN:
	case RS_EV_BALANCE_END:
		ev->balance.nid = inum(v, BP_NID, -1);
		ev->balance.order = inum(v, BP_ORDER, 0);
		ev->balance.zid = inum(v, BP_ZID, -1);
		ev->balance.nr_reclaimed = num(v, BP_RECLAIMED, 0);
		ev->have |= RS_HAVE_NID | (has(v, BP_ZID) ? RS_HAVE_ZID : 0) |
			    (has(v, BP_ORDER) ? RS_HAVE_ORDER : 0);
		break;
	case RS_EV_KSWAPD_FAIL:
		ev->health.nid = inum(v, KF_NID, -1);
		ev->health.failures = inum(v, KF_FAILURES, 0);
		ev->health.reason = -1;
		ev->have |= RS_HAVE_NID;
		break;
	case RS_EV_KSWAPD_CLEAR_HOPELESS:
		ev->health.nid = inum(v, KH_NID, -1);
		ev->health.failures = 0;
		ev->health.reason = has(v, KH_REASON) && num(v, KH_REASON, 0) < RS_HOPELESS_NR ?
				    (int)num(v, KH_REASON, 0) : -1;
		ev->have |= RS_HAVE_NID;
		break;
	case RS_EV_SHRINK_ACTIVE:
		ev->active.nid = inum(v, SA_NID, -1);
		ev->active.nr_taken = num(v, SA_TAKEN, 0);
		ev->active.nr_active = num(v, SA_ACTIVE, 0);
		ev->active.nr_deactivated = num(v, SA_DEACT, 0);
		ev->active.nr_referenced = num(v, SA_REF, 0);
		ev->active.priority = inum(v, SA_PRIO, -1);
		ev->active.reclaim_flags = (unsigned int)num(v, SA_FLAGS, 0);
		ev->have |= (has(v, SA_NID) ? RS_HAVE_NID : 0) |
			    (has(v, SA_PRIO) ? RS_HAVE_PRIORITY : 0);
		break;
	case RS_EV_WRITE_FOLIO:
		ev->write.pfn = num(v, WF_PFN, 0);
		ev->write.reclaim_flags = (unsigned int)num(v, WF_FLAGS, 0);
		ev->have |= has(v, WF_PFN) ? RS_HAVE_PFN : 0;
		break;
	case RS_EV_SLAB_START:
		normalize_slab(v, ev, true);
		ev->slab.shrink_name = NULL;
		break;
	case RS_EV_SLAB_END:
		normalize_slab(v, ev, false);
		ev->slab.shrink_name = NULL;
		break;
	case RS_EV_THROTTLED:
		ev->throttled.nid = inum(v, TH_NID, -1);
		ev->throttled.usec_timeout = inum(v, TH_TIMEOUT, 0);
		ev->throttled.usec_delayed = inum(v, TH_DELAYED, 0);
		ev->throttled.reason = inum(v, TH_REASON, 0);
		break;
	case RS_EV_MEMCG_COUNT:
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
		ev->memcg.id = num(v, MC_ID, 0);
		ev->memcg.item = inum(v, MC_ITEM, -1);
		/* count_memcg_events.val is unsigned long; the lruvec/state deltas are int */
		ev->memcg.val = ke->type == RS_EV_MEMCG_COUNT ? (int64_t)num(v, MC_VAL, 0) :
			(int64_t)(int32_t)num(v, MC_VAL, 0);
		break;
	case RS_EV_MEMCG_FLUSH:
		ev->flush.id = num(v, MF_ID, 0);
		ev->flush.stats_updates = (int64_t)num(v, MF_UPDATES, 0);
		ev->flush.force = num(v, MF_FORCE, 0) != 0;
		ev->flush.needs_flush = num(v, MF_NEEDS, 0) != 0;
		break;
	case RS_EV_CGROUP:
		ev->cgroup.op = (enum rs_cgroup_op)ke->subkind;
		ev->cgroup.root = inum(v, CG_ROOT, -1);
		ev->cgroup.level = inum(v, CG_LEVEL, -1);
		ev->cgroup.id = num(v, CG_ID, 0);
		ev->cgroup.path = str(v, CG_PATH);
		ev->cgroup.pid = -1;
		ev->cgroup.comm = NULL;
		break;
	case RS_EV_CGROUP_ATTACH:
		ev->cgroup.op = RS_CG_MKDIR;
		ev->cgroup.root = inum(v, CA_ROOT, -1);
		ev->cgroup.level = inum(v, CA_LEVEL, -1);
		ev->cgroup.id = num(v, CA_ID, 0);
		ev->cgroup.path = str(v, CA_PATH);
		ev->cgroup.pid = inum(v, CA_PID, -1);
		ev->cgroup.comm = str(v, CA_COMM);
		break;
	case RS_EV_FORK:
		ev->task.comm = str(v, FK_PCOMM);
		ev->task.pid = inum(v, FK_PPID, -1);
		ev->task.child_comm = str(v, FK_CCOMM);
		ev->task.child_pid = inum(v, FK_CPID, -1);
		ev->task.filename = NULL;
		break;
	case RS_EV_EXEC:
		ev->task.filename = str(v, EX_FILE);
		ev->task.pid = inum(v, EX_PID, -1);
		ev->task.child_pid = -1;
		ev->task.comm = ev->task.child_comm = NULL;
		break;
	case RS_EV_EXIT:
		ev->task.comm = str(v, XT_COMM);
		ev->task.pid = inum(v, XT_PID, -1);
		ev->task.child_pid = -1;
		ev->task.child_comm = ev->task.filename = NULL;
		break;
	case RS_EV_SCHED_NAME:
		ev->task.filename = NULL;
		if (ke->subkind == 0) {
			ev->task.comm = str(v, SW_PCOMM);
			ev->task.pid = inum(v, SW_PPID, -1);
			ev->task.child_comm = str(v, SW_NCOMM);
			ev->task.child_pid = inum(v, SW_NPID, -1);
		} else {
			ev->task.comm = str(v, WK_COMM);
			ev->task.pid = inum(v, WK_PID, -1);
			ev->task.child_comm = NULL;
			ev->task.child_pid = -1;
		}
		break;
	case RS_EV_OOM_VICTIM:
		ev->oom.pid = inum(v, OV_PID, -1);
		ev->oom.comm = str(v, OV_COMM);
		ev->oom.total_vm = num(v, OV_TOTAL, 0);
		ev->oom.anon_rss = num(v, OV_ANON, 0);
		ev->oom.file_rss = num(v, OV_FILE, 0);
		ev->oom.shmem_rss = num(v, OV_SHMEM, 0);
		break;
	case RS_EV_FILEMAP_DELETE:
	case RS_EV_FILEMAP_ADD:
		ev->filemap.dev = num(v, FM_DEV, 0);
		ev->filemap.ino = num(v, FM_INO, 0);
		ev->filemap.index = num(v, FM_INDEX, 0);
		ev->filemap.pfn = num(v, FM_PFN, 0);
		/* larger orders cannot be a folio (corrupt input): unknown, never a huge shift */
		ev->filemap.order = inum(v, FM_ORDER, 0);
		if (ev->filemap.order < 0 || ev->filemap.order > 30)
			ev->filemap.order = 0;
		if (has(v, FM_ORDER))
			ev->have |= RS_HAVE_ORDER;
		break;
	case RS_EV_BUDDY:
		ev->buddy.pfn = num(v, BD_PFN, 0);
		ev->buddy.order = inum(v, BD_ORDER, 0);
		ev->buddy.kind = ke->subkind;
		ev->have |= RS_HAVE_ORDER;
		break;
	case RS_EV_MARKER:
		ev->marker = str(v, PR_BUF);
		break;
	default:
		break;
	}
}

static bool bad_order(const struct rs_event *ev, int order)
{
	return (ev->have & RS_HAVE_ORDER) && (order < 0 || order > RS_ORDER_MAX);
}

static bool bad_nid(int nid)
{
	return nid < -1 || nid > RS_NID_MAX;
}

static bool bad_prio(int prio)
{
	return prio < -1 || prio > 12;
}

static bool bad_count(uint64_t v)
{
	return v > RS_COUNT_MAX;
}

/*
 * The check itself; with fix false it only says whether anything is wrong. A fix mends one
 * field and returns: call again for the next (each gets its warning).
 */
static int check(struct rs_event *ev, bool fix, const char **why)
{
#define FIXED(cond, field, what, set) do {				\
		if (cond) {						\
			if (!fix)					\
				return RS_NORM_FIXED;			\
			*why = what;					\
			set;						\
			return RS_NORM_FIXED;				\
		}							\
	} while (0)
#define DROP(cond, what) do {						\
		if (cond) {						\
			*why = what;					\
			return RS_NORM_DROP;				\
		}							\
	} while (0)

	switch (ev->type) {
	case RS_EV_KSWAPD_SLEEP:
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_WAKEUP_KSWAPD:
		FIXED(bad_order(ev, ev->kswapd.order), order, "kswapd order outside 0..31",
		      (ev->kswapd.order = 0, ev->have &= ~RS_HAVE_ORDER));
		FIXED(bad_nid(ev->kswapd.nid), nid, "kswapd nid outside -1..1023",
		      (ev->kswapd.nid = -1, ev->have &= ~RS_HAVE_NID));
		break;
	case RS_EV_RECLAIM_BEGIN:
		FIXED(bad_order(ev, ev->reclaim.order), order, "reclaim_begin order outside 0..31",
		      (ev->reclaim.order = 0, ev->have &= ~RS_HAVE_ORDER));
		FIXED(bad_nid(ev->reclaim.nid), nid, "node_reclaim_begin nid outside -1..1023",
		      (ev->reclaim.nid = -1, ev->have &= ~RS_HAVE_NID));
		break;
	case RS_EV_RECLAIM_END:
		DROP(bad_count(ev->reclaim.nr_reclaimed),
		     "reclaim_end nr_reclaimed is not a page count (negative or above 2^40)");
		break;
	case RS_EV_LRU_ISOLATE:
		DROP(bad_count(ev->isolate.nr_requested) || bad_count(ev->isolate.nr_scanned) ||
		     bad_count(ev->isolate.nr_skipped) || bad_count(ev->isolate.nr_taken),
		     "lru_isolate count is not a page count (negative or above 2^40)");
		FIXED(bad_order(ev, ev->isolate.order), order, "lru_isolate order outside 0..31",
		      (ev->isolate.order = 0, ev->have &= ~RS_HAVE_ORDER));
		FIXED(bad_nid(ev->isolate.nid), nid, "lru_isolate nid outside -1..1023",
		      (ev->isolate.nid = -1, ev->have &= ~RS_HAVE_NID));
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_RECLAIM_PAGES: {
		const struct rs_ev_shrink_inactive *si = &ev->inactive;

		DROP(bad_count(si->nr_scanned) || bad_count(si->nr_reclaimed) ||
		     bad_count(si->nr_dirty) || bad_count(si->nr_writeback) ||
		     bad_count(si->nr_congested) || bad_count(si->nr_immediate) ||
		     bad_count(si->nr_activate_anon) || bad_count(si->nr_activate_file) ||
		     bad_count(si->nr_ref_keep) || bad_count(si->nr_unmap_fail),
		     "lru_shrink_inactive count is not a page count (negative or above 2^40)");
		FIXED((ev->have & RS_HAVE_PRIORITY) && bad_prio(si->priority), prio,
		      "lru_shrink_inactive priority outside 0..12",
		      (ev->inactive.priority = -1, ev->have &= ~RS_HAVE_PRIORITY));
		FIXED(bad_nid(si->nid), nid, "lru_shrink_inactive nid outside -1..1023",
		      (ev->inactive.nid = -1, ev->have &= ~RS_HAVE_NID));
		break;
	}
	case RS_EV_SHRINK_ACTIVE: {
		const struct rs_ev_shrink_active *sa = &ev->active;

		DROP(bad_count(sa->nr_taken) || bad_count(sa->nr_active) ||
		     bad_count(sa->nr_deactivated) || bad_count(sa->nr_referenced),
		     "lru_shrink_active count is not a page count (negative or above 2^40)");
		FIXED((ev->have & RS_HAVE_PRIORITY) && bad_prio(sa->priority), prio,
		      "lru_shrink_active priority outside 0..12",
		      (ev->active.priority = -1, ev->have &= ~RS_HAVE_PRIORITY));
		FIXED(bad_nid(sa->nid), nid, "lru_shrink_active nid outside -1..1023",
		      (ev->active.nid = -1, ev->have &= ~RS_HAVE_NID));
		break;
	}
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
		FIXED(bad_prio(ev->slab.priority), prio, "shrink_slab priority outside 0..12",
		      ev->slab.priority = -1);
		FIXED(bad_nid(ev->slab.nid), nid, "shrink_slab nid outside -1..1023",
		      ev->slab.nid = -1);
		break;
	case RS_EV_THROTTLED:
		FIXED(bad_nid(ev->throttled.nid), nid, "throttled nid outside -1..1023",
		      ev->throttled.nid = -1);
		break;
	case RS_EV_BUDDY:
		/* a block's size is 1 << order pages: no guessed order */
		DROP(bad_order(ev, ev->buddy.order), "kmem page event order outside 0..31");
		break;
	default:
		break;
	}
#undef FIXED
#undef DROP
	return RS_NORM_OK;
}

int rs_normalize_check(struct rs_event *ev, const char **why)
{
	*why = NULL;
	return check(ev, true, why);
}

bool rs_normalize_suspect(const struct rs_event *ev)
{
	const char *why;

	/* with fix false nothing is written: the cast only lets one function serve both */
	return check((struct rs_event *)ev, false, &why) != RS_NORM_OK;
}

static const char *const type_names[RS_EV_NR_TYPES] = {
	[RS_EV_KSWAPD_SLEEP] = "kswapd_sleep",
	[RS_EV_KSWAPD_WAKE] = "kswapd_wake",
	[RS_EV_WAKEUP_KSWAPD] = "wakeup_kswapd",
	[RS_EV_RECLAIM_BEGIN] = "reclaim_begin",
	[RS_EV_RECLAIM_END] = "reclaim_end",
	[RS_EV_LRU_ISOLATE] = "lru_isolate",
	[RS_EV_SHRINK_INACTIVE] = "lru_shrink_inactive",
	[RS_EV_SHRINK_ACTIVE] = "lru_shrink_active",
	[RS_EV_RECLAIM_PAGES] = "reclaim_pages",
	[RS_EV_WRITE_FOLIO] = "write_folio",
	[RS_EV_SLAB_START] = "shrink_slab_start",
	[RS_EV_SLAB_END] = "shrink_slab_end",
	[RS_EV_THROTTLED] = "throttled",
	[RS_EV_MEMCG_COUNT] = "count_memcg_events",
	[RS_EV_MEMCG_LRUVEC] = "mod_memcg_lruvec_state",
	[RS_EV_MEMCG_STATE] = "mod_memcg_state",
	[RS_EV_CGROUP] = "cgroup",
	[RS_EV_CGROUP_ATTACH] = "cgroup_attach_task",
	[RS_EV_FORK] = "sched_process_fork",
	[RS_EV_EXEC] = "sched_process_exec",
	[RS_EV_EXIT] = "sched_process_exit",
	[RS_EV_OOM_VICTIM] = "mark_victim",
	[RS_EV_FILEMAP_DELETE] = "filemap_delete",
	[RS_EV_FILEMAP_ADD] = "filemap_add",
	[RS_EV_MARKER] = "print",
	[RS_EV_META] = "marker_meta",
	[RS_EV_ITEM_NAMES] = "marker_items",
	[RS_EV_CGROUP_MAP] = "marker_cgroup_map",
	[RS_EV_TASK_CGROUP] = "marker_task_cgroup",
	[RS_EV_SNAP_MEMCG] = "marker_memcg_stat",
	[RS_EV_SNAP_NODE] = "marker_node_stat",
	[RS_EV_LOST] = "lost_events",
	[RS_EV_BALANCE_BEGIN] = "balance_pgdat_begin",
	[RS_EV_BALANCE_END] = "balance_pgdat_end",
	[RS_EV_KSWAPD_FAIL] = "kswapd_reclaim_fail",
	[RS_EV_KSWAPD_CLEAR_HOPELESS] = "kswapd_clear_hopeless",
	[RS_EV_SCHED_NAME] = "sched_switch",
	[RS_EV_MEMCG_FLUSH] = "memcg_flush_stats",
	[RS_EV_SNAP_ZONE] = "marker_zone_stat",
	[RS_EV_BUDDY] = "kmem_buddy",
};

const char *rs_ev_type_name(enum rs_ev_type t)
{
	return (unsigned int)t < RS_EV_NR_TYPES && type_names[t] ? type_names[t] : "unknown";
}

const char *rs_reclaim_kind_name(enum rs_reclaim_kind k)
{
	static const char *const names[RS_RK_NR] = { "direct", "memcg", "softlimit", "node" };

	return (unsigned int)k < RS_RK_NR ? names[k] : "unknown";
}

const char *rs_ws_item_name(int item)
{
	static const char *const names[RS_WS_NR] = {
		"workingset_refault_anon", "workingset_refault_file", "workingset_activate_anon",
		"workingset_activate_file", "workingset_restore_anon", "workingset_restore_file",
		"workingset_nodereclaim", "pswpin", "pswpout",
	};

	return item >= 0 && item < RS_WS_NR ? names[item] : "unknown";
}

const char *rs_hopeless_reason_name(int reason)
{
	static const char *const names[RS_HOPELESS_NR] = { "OTHER", "KSWAPD", "DIRECT", "PCP" };

	return reason >= 0 && reason < RS_HOPELESS_NR ? names[reason] : "unknown";
}

const char *rs_lru_name(int lru)
{
	static const char *const names[RS_LRU_NR] = {
		"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"
	};

	return lru >= 0 && lru < RS_LRU_NR ? names[lru] : "unknown";
}
