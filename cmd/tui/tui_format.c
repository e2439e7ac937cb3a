// SPDX-License-Identifier: GPL-2.0
/* Number, time and event formatting for the TUI (no curses). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

void tui_fmt_ts(char *buf, size_t n, uint64_t ns, int decimals)
{
	uint64_t div = 1, sec, frac;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	for (int i = decimals; i < 9; i++)
		div *= 10;
	/* rounded to the last digit shown, as trace-cmd report prints times */
	if (ns <= UINT64_MAX - div / 2)
		ns += div / 2;
	sec = ns / UINT64_C(1000000000);
	frac = (ns % UINT64_C(1000000000)) / div;
	if (!decimals)
		snprintf(buf, n, "%" PRIu64, sec);
	else
		snprintf(buf, n, "%" PRIu64 ".%0*" PRIu64, sec, decimals, frac);
}

void tui_fmt_dur(char *buf, size_t n, uint64_t ns)
{
	if (ns >= 10000000000ull)
		snprintf(buf, n, "%.1f s", (double)ns / 1e9);
	else if (ns >= 1000000000ull)
		snprintf(buf, n, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, n, "%.3f ms", (double)ns / 1e6);
	else if (ns >= 1000ull)
		snprintf(buf, n, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, n, "%" PRIu64 " ns", ns);
}

void tui_fmt_num(char *buf, size_t n, double v)
{
	static const char suffix[] = " kMGTP";
	int i = 0;

	if (v < 0)
		v = 0;
	if (v < 999.5) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	while (v >= 999.5 && i < 5) {
		v /= 1000;
		i++;
	}
	if (v < 9.95)
		snprintf(buf, n, "%.1f%c", v, suffix[i]);
	else
		snprintf(buf, n, "%.0f%c", v, suffix[i]);
}

/* reclaim_flags as the kernel's show_reclaim_flags() prints them */
static const char *wb_flags(unsigned int f, char *buf, size_t n)
{
	static const struct { unsigned int bit; const char *name; } fl[] = {
		{ RS_RECLAIM_WB_ANON, "RECLAIM_WB_ANON" }, { RS_RECLAIM_WB_FILE, "RECLAIM_WB_FILE" },
		{ RS_RECLAIM_WB_MIXED, "RECLAIM_WB_MIXED" }, { RS_RECLAIM_WB_SYNC, "RECLAIM_WB_SYNC" },
		{ RS_RECLAIM_WB_ASYNC, "RECLAIM_WB_ASYNC" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (f & fl[i].bit)
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
						len ? "|" : "", fl[i].name);
	if (!len)
		snprintf(buf, n, "RECLAIM_WB_NONE");
	return buf;
}

static const char *reclaim_event(int kind)
{
	static const char *const names[RS_RK_NR] = {
		"mm_vmscan_direct_reclaim", "mm_vmscan_memcg_reclaim",
		"mm_vmscan_memcg_softlimit_reclaim", "mm_vmscan_node_reclaim",
	};

	return kind >= 0 && kind < RS_RK_NR ? names[kind] : "mm_vmscan_reclaim";
}

static const char *throttle_reason(int reason)
{
	switch (reason) {
	case 1: return "VMSCAN_THROTTLE_WRITEBACK";
	case 2: return "VMSCAN_THROTTLE_ISOLATED";
	case 4: return "VMSCAN_THROTTLE_NOPROGRESS";
	case 8: return "VMSCAN_THROTTLE_CONGESTED";
	default: return "?";
	}
}

static const char *memcg_event(int type)
{
	return type == RS_EV_MEMCG_COUNT ? "count_memcg_events" :
	       type == RS_EV_MEMCG_LRUVEC ? "mod_memcg_lruvec_state" : "mod_memcg_state";
}

static const char *cgroup_event(int op)
{
	static const char *const names[] = { "cgroup_mkdir", "cgroup_rmdir", "cgroup_rename",
					     "cgroup_release" };

	return op >= 0 && op <= RS_CG_RELEASE ? names[op] : "cgroup";
}

#define U(x) ((unsigned long long)(x))

void tui_items_see(struct tui_items *it, const struct rs_event *ev)
{
	if (ev->type != RS_EV_ITEM_NAMES || (unsigned int)ev->items.which > RS_ITEMS_MEMCG_STAT)
		return;
	it->names[ev->items.which] = ev->items.names;
	it->count[ev->items.which] = ev->items.count;
}

/* The item's name where the markers named it: its number means nothing across kernel builds. */
static void fmt_item(char *buf, size_t n, const struct rs_event *ev, const struct tui_items *it)
{
	enum rs_item_enum e = ev->type == RS_EV_MEMCG_COUNT ? RS_ITEMS_VM_EVENT :
			      ev->type == RS_EV_MEMCG_LRUVEC ? RS_ITEMS_NODE_STAT :
			      RS_ITEMS_MEMCG_STAT;
	int i = ev->memcg.item;

	if (it && i >= 0 && i < it->count[e] && it->names[e][i] && it->names[e][i][0])
		snprintf(buf, n, "%s", it->names[e][i]);
	else
		snprintf(buf, n, "%d", i);
}

/*
 * An event as `trace-cmd report` names it: the kernel's event name and field names, with the
 * values we read (fields a kernel era lacks are left out, as its format lacks them).
 */
/*
 * The recorder's markers, decoded by the loader: their tag and the key=value pairs the loader
 * read, by the recorder's own key names (docs/markers.md); false for any other event.
 */
static bool fmt_marker(char *buf, size_t n, const struct rs_event *ev)
{
	static const char *const items[] = { "vm_event_items", "node_stat_items",
					     "memcg_stat_items" };
	const struct rs_ev_snap_memcg *mc = &ev->snap_memcg;
	const struct rs_ev_snap_node *nd = &ev->snap_node;
	const struct rs_ev_snap_zone *z = &ev->snap_zone;

	switch (ev->type) {
	case RS_EV_META:
		snprintf(buf, n, "print: reclaimscope_%s %s", ev->meta.kind ? ev->meta.kind : "",
			 ev->meta.text ? ev->meta.text : "");
		return true;
	case RS_EV_ITEM_NAMES:
		snprintf(buf, n, "print: %s (the kernel's item names)",
			 (unsigned int)ev->items.which < 3 ? items[ev->items.which] : "items");
		return true;
	case RS_EV_CGROUP_MAP:
		snprintf(buf, n, "print: cgroup_map id=%llu path=%s", U(ev->cgroup_map.id),
			 ev->cgroup_map.path ? ev->cgroup_map.path : "");
		return true;
	case RS_EV_TASK_CGROUP:
		snprintf(buf, n, "print: task_cgroup pid=%d id=%llu path=%s", ev->task_cgroup.pid,
			 U(ev->task_cgroup.id), ev->task_cgroup.path ? ev->task_cgroup.path : "");
		return true;
	case RS_EV_SNAP_MEMCG:
		snprintf(buf, n, "print: memcg_stat cg=%s id=%llu usage=%llu limit=%llu "
			 "inactive_anon=%llu active_anon=%llu inactive_file=%llu active_file=%llu "
			 "unevictable=%llu", mc->path ? mc->path : "", U(mc->id), U(mc->usage),
			 U(mc->limit), U(mc->lru_bytes[RS_LRU_INACTIVE_ANON]),
			 U(mc->lru_bytes[RS_LRU_ACTIVE_ANON]), U(mc->lru_bytes[RS_LRU_INACTIVE_FILE]),
			 U(mc->lru_bytes[RS_LRU_ACTIVE_FILE]), U(mc->lru_bytes[RS_LRU_UNEVICTABLE]));
		return true;
	case RS_EV_SNAP_NODE:
		snprintf(buf, n, "print: node_stat nid=%d nr_free_pages=%llu nr_inactive_anon=%llu "
			 "nr_active_anon=%llu nr_inactive_file=%llu nr_active_file=%llu "
			 "nr_unevictable=%llu wmark_min=%llu wmark_low=%llu wmark_high=%llu", nd->nid,
			 U(nd->free_pages), U(nd->lru_pages[RS_LRU_INACTIVE_ANON]),
			 U(nd->lru_pages[RS_LRU_ACTIVE_ANON]), U(nd->lru_pages[RS_LRU_INACTIVE_FILE]),
			 U(nd->lru_pages[RS_LRU_ACTIVE_FILE]), U(nd->lru_pages[RS_LRU_UNEVICTABLE]),
			 U(nd->wmark_min), U(nd->wmark_low), U(nd->wmark_high));
		return true;
	case RS_EV_SNAP_ZONE:
		snprintf(buf, n, "print: zone_stat nid=%d idx=%d free=%llu min=%llu low=%llu "
			 "high=%llu managed=%llu", z->nid, z->idx, U(z->free_pages), U(z->wmark_min),
			 U(z->wmark_low), U(z->wmark_high), U(z->managed));
		return true;
	default:
		return false;
	}
}

void tui_fmt_event(char *buf, size_t n, const struct rs_event *ev, const struct tui_items *it)
{
	char fl[96];

	switch (ev->type) {
	case RS_EV_KSWAPD_SLEEP:
		snprintf(buf, n, "mm_vmscan_kswapd_sleep: nid=%d", ev->kswapd.nid);
		break;
	case RS_EV_KSWAPD_WAKE:
		snprintf(buf, n, "mm_vmscan_kswapd_wake: nid=%d zid=%d order=%d", ev->kswapd.nid,
			 ev->kswapd.zid, ev->kswapd.order);
		break;
	case RS_EV_WAKEUP_KSWAPD:
		snprintf(buf, n, "mm_vmscan_wakeup_kswapd: nid=%d zid=%d order=%d gfp_flags=%#llx",
			 ev->kswapd.nid, ev->kswapd.zid, ev->kswapd.order, U(ev->kswapd.gfp_flags));
		break;
	case RS_EV_RECLAIM_BEGIN:
		snprintf(buf, n, "%s_begin: order=%d gfp_flags=%#llx", reclaim_event(ev->reclaim.kind),
			 ev->reclaim.order, U(ev->reclaim.gfp_flags));
		if (ev->have & RS_HAVE_MEMCG_ID)
			snprintf(buf + strlen(buf), n - strlen(buf), " memcg_id=%llu",
				 U(ev->reclaim.memcg_id));
		break;
	case RS_EV_RECLAIM_END:
		snprintf(buf, n, "%s_end: nr_reclaimed=%llu", reclaim_event(ev->reclaim.kind),
			 U(ev->reclaim.nr_reclaimed));
		if (ev->have & RS_HAVE_MEMCG_ID)
			snprintf(buf + strlen(buf), n - strlen(buf), " memcg_id=%llu",
				 U(ev->reclaim.memcg_id));
		break;
	case RS_EV_LRU_ISOLATE:
		snprintf(buf, n, "mm_vmscan_lru_isolate: order=%d nr_requested=%llu nr_scanned=%llu "
			 "nr_taken=%llu lru=%s", ev->isolate.order, U(ev->isolate.nr_requested),
			 U(ev->isolate.nr_scanned), U(ev->isolate.nr_taken),
			 ev->have & RS_HAVE_LRU ? rs_lru_name(ev->isolate.lru) :
			 ev->isolate.file ? "file" : "anon");
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_RECLAIM_PAGES:
		snprintf(buf, n, "%s: nid=%d nr_scanned=%llu nr_reclaimed=%llu priority=%d flags=%s",
			 ev->type == RS_EV_RECLAIM_PAGES ? "mm_vmscan_reclaim_pages" :
			 "mm_vmscan_lru_shrink_inactive", ev->inactive.nid,
			 U(ev->inactive.nr_scanned), U(ev->inactive.nr_reclaimed),
			 ev->inactive.priority, wb_flags(ev->inactive.reclaim_flags, fl, sizeof(fl)));
		break;
	case RS_EV_SHRINK_ACTIVE:
		snprintf(buf, n, "mm_vmscan_lru_shrink_active: nid=%d nr_taken=%llu nr_active=%llu "
			 "nr_deactivated=%llu nr_referenced=%llu priority=%d flags=%s",
			 ev->active.nid, U(ev->active.nr_taken), U(ev->active.nr_active),
			 U(ev->active.nr_deactivated), U(ev->active.nr_referenced),
			 ev->active.priority, wb_flags(ev->active.reclaim_flags, fl, sizeof(fl)));
		break;
	case RS_EV_WRITE_FOLIO:
		snprintf(buf, n, "mm_vmscan_write_folio: pfn=%#llx flags=%s", U(ev->write.pfn),
			 wb_flags(ev->write.reclaim_flags, fl, sizeof(fl)));
		break;
	case RS_EV_THROTTLED:
		snprintf(buf, n, "mm_vmscan_throttled: nid=%d usec_timeout=%d usect_delayed=%d "
			 "reason=%s", ev->throttled.nid, ev->throttled.usec_timeout,
			 ev->throttled.usec_delayed, throttle_reason(ev->throttled.reason));
		break;
	case RS_EV_SLAB_START:
		snprintf(buf, n, "mm_shrink_slab_start: %s nid=%d objects_to_shrink=%lld "
			 "cache_items=%llu delta=%llu total_scan=%lld priority=%d",
			 ev->slab.shrink_name ? ev->slab.shrink_name : "?", ev->slab.nid,
			 (long long)ev->slab.nr_objects_to_shrink, U(ev->slab.cache_items),
			 U(ev->slab.delta), (long long)ev->slab.total_scan, ev->slab.priority);
		break;
	case RS_EV_SLAB_END:
		snprintf(buf, n, "mm_shrink_slab_end: %s nid=%d unused_scan=%lld new_scan=%lld "
			 "total_scan=%lld retval=%d", ev->slab.shrink_name ? ev->slab.shrink_name :
			 "?", ev->slab.nid, (long long)ev->slab.unused_scan,
			 (long long)ev->slab.new_scan, (long long)ev->slab.total_scan,
			 ev->slab.retval);
		break;
	case RS_EV_MEMCG_COUNT:
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
		fmt_item(fl, sizeof(fl), ev, it);
		snprintf(buf, n, "%s: memcg_id=%llu item=%s val=%lld", memcg_event(ev->type),
			 U(ev->memcg.id), fl, (long long)ev->memcg.val);
		break;
	case RS_EV_MEMCG_FLUSH:
		snprintf(buf, n, "memcg_flush_stats: memcg_id=%llu stats_updates=%lld force=%d "
			 "needs_flush=%d", U(ev->flush.id), (long long)ev->flush.stats_updates,
			 ev->flush.force, ev->flush.needs_flush);
		break;
	case RS_EV_CGROUP:
		snprintf(buf, n, "%s: root=%d id=%llu level=%d path=%s",
			 cgroup_event(ev->cgroup.op), ev->cgroup.root, U(ev->cgroup.id),
			 ev->cgroup.level, ev->cgroup.path ? ev->cgroup.path : "");
		break;
	case RS_EV_CGROUP_ATTACH:
		snprintf(buf, n, "cgroup_attach_task: dst_id=%llu dst_path=%s pid=%d comm=%s",
			 U(ev->cgroup.id), ev->cgroup.path ? ev->cgroup.path : "", ev->cgroup.pid,
			 ev->cgroup.comm ? ev->cgroup.comm : "");
		break;
	case RS_EV_FORK:
		snprintf(buf, n, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d",
			 ev->task.comm ? ev->task.comm : "", ev->task.pid,
			 ev->task.child_comm ? ev->task.child_comm : "", ev->task.child_pid);
		break;
	case RS_EV_EXEC:
		snprintf(buf, n, "sched_process_exec: filename=%s pid=%d",
			 ev->task.filename ? ev->task.filename : "", ev->task.pid);
		break;
	case RS_EV_EXIT:
		snprintf(buf, n, "sched_process_exit: comm=%s pid=%d",
			 ev->task.comm ? ev->task.comm : "", ev->task.pid);
		break;
	case RS_EV_OOM_VICTIM:
		snprintf(buf, n, "mark_victim: pid=%d%s%s", ev->oom.pid, ev->oom.comm ? " comm=" : "",
			 ev->oom.comm ? ev->oom.comm : "");
		break;
	case RS_EV_FILEMAP_DELETE:
	case RS_EV_FILEMAP_ADD:
		snprintf(buf, n, "%s: dev %llu:%llu ino %llx pfn=%#llx ofs=%llu order=%d",
			 ev->type == RS_EV_FILEMAP_ADD ? "mm_filemap_add_to_page_cache" :
			 "mm_filemap_delete_from_page_cache", U(ev->filemap.dev >> 20),
			 U(ev->filemap.dev & 0xfffff), U(ev->filemap.ino), U(ev->filemap.pfn),
			 U(ev->filemap.index) * 4096, ev->filemap.order);
		break;
	case RS_EV_BALANCE_BEGIN:
		snprintf(buf, n, "mm_vmscan_balance_pgdat_begin: nid=%d order=%d highest_zoneidx=%d",
			 ev->balance.nid, ev->balance.order, ev->balance.zid);
		break;
	case RS_EV_BALANCE_END:
		snprintf(buf, n, "mm_vmscan_balance_pgdat_end: nid=%d order=%d highest_zoneidx=%d "
			 "nr_reclaimed=%llu", ev->balance.nid, ev->balance.order, ev->balance.zid,
			 U(ev->balance.nr_reclaimed));
		break;
	case RS_EV_KSWAPD_FAIL:
		snprintf(buf, n, "mm_vmscan_kswapd_reclaim_fail: nid=%d failures=%d",
			 ev->health.nid, ev->health.failures);
		break;
	case RS_EV_KSWAPD_CLEAR_HOPELESS:
		snprintf(buf, n, "mm_vmscan_kswapd_clear_hopeless: nid=%d reason=%s", ev->health.nid,
			 rs_hopeless_reason_name(ev->health.reason));
		break;
	case RS_EV_MARKER:
		snprintf(buf, n, "print: %s", ev->marker ? ev->marker : "");
		break;
	case RS_EV_LOST:
		if (ev->lost > 0)
			snprintf(buf, n, "[LOST %lld EVENTS]", (long long)ev->lost);
		else
			snprintf(buf, n, "[LOST EVENTS]");
		break;
	default:
		/* the recorder's markers (ftrace print) and anything else we read */
		if (!fmt_marker(buf, n, ev))
			snprintf(buf, n, "print: reclaimscope %s", rs_ev_type_name(ev->type));
		break;
	}
}

#undef U

bool tui_event_listed(const struct rs_event *ev)
{
	switch (ev->type) {
	case RS_EV_MEMCG_COUNT:		/* counters: most of a trace, e shows them */
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
	case RS_EV_MEMCG_FLUSH:
	case RS_EV_CGROUP:
	case RS_EV_CGROUP_ATTACH:
	case RS_EV_FORK:
	case RS_EV_EXEC:
	case RS_EV_EXIT:
	case RS_EV_MARKER:
	case RS_EV_META:
	case RS_EV_ITEM_NAMES:
	case RS_EV_CGROUP_MAP:
	case RS_EV_TASK_CGROUP:
	case RS_EV_SNAP_MEMCG:
	case RS_EV_SNAP_NODE:
	case RS_EV_SNAP_ZONE:
		return false;
	default:
		return true;
	}
}

void tui_layout(const struct tui_state *st, int nrows, struct tui_layout *l)
{
	int width = st->width, height = st->height, avail, lanes;

	memset(l, 0, sizeof(*l));
	l->too_small = width < 20 || height < 6;
	/* wide enough for the kernel's list names and the figure's meaning ("max 1.2M/s") */
	l->label_w = width >= 160 ? 30 : width >= 120 ? 26 : width >= 100 ? 24 : width >= 80 ? 20 :
		     width >= 60 ? 11 :
		     7;
	l->plot_x = l->label_w;
	l->plot_w = width - l->label_w;
	if (l->plot_w < 1)
		l->plot_w = 1;
	l->lanes_y = 3;
	l->status_y = height - 1;
	l->lane_h = 1;
	if (nrows < 1)
		nrows = 1;
	if (st->list_on && height >= 20)
		l->details_h = height >= 30 ? 5 : 4;	/* the figures; events are in the list */
	else
		l->details_h = height >= 30 ? 8 : height >= 20 ? 6 : 0;
	l->details_y = l->status_y - l->details_h;
	avail = l->details_y - l->lanes_y;
	if (st->list_on && avail >= 8) {
		/* the lanes first (up to TUI_LANE_MAX_H rows each), the list the rest but at
		   least a quarter; ( and ) set its height instead */
		int list_min = avail / 4 > 6 ? avail / 4 : 6;

		if (st->list_rows) {
			list_min = st->list_rows < avail - 3 ? st->list_rows : avail - 3;
			if (list_min < 4)
				list_min = 4;
		}
		lanes = avail - list_min;
		l->lane_h = lanes / nrows;
		if (l->lane_h > TUI_LANE_MAX_H)
			l->lane_h = TUI_LANE_MAX_H;
		if (l->lane_h < 1)
			l->lane_h = 1;
		if (l->lane_h * nrows < lanes && !st->list_rows)
			lanes = l->lane_h * nrows;
		l->list_h = avail - lanes;
		l->list_y = l->lanes_y + lanes;
	} else {
		lanes = avail;
		l->lane_h = lanes / nrows;
		if (l->lane_h > TUI_LANE_MAX_H)
			l->lane_h = TUI_LANE_MAX_H;
		if (l->lane_h < 1)
			l->lane_h = 1;
	}
	l->lanes_h = lanes;
	if (l->lanes_h < 1) {
		l->lanes_h = 0;
		l->too_small = true;
	}
}

int tui_layout_lane_at(const struct tui_state *st, const struct tui_layout *l, int y)
{
	if (y < l->lanes_y || y >= l->lanes_y + l->lanes_h || l->lane_h < 1)
		return -1;
	return st->row_top + (y - l->lanes_y) / l->lane_h;
}

void tui_details_range(const struct tui_state *st, uint64_t *t0, uint64_t *t1, bool *marked)
{
	*marked = tl_model_marked_range(st->m, t0, t1);
	if (!*marked)
		tl_model_cursor_range(st->m, t0, t1);
}
