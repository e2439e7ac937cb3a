// SPDX-License-Identifier: GPL-2.0
/* Number, time and event formatting for the TUI (no curses). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

void tui_fmt_ts(char *buf, size_t n, uint64_t ns, int decimals)
{
	uint64_t div = 1;

	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	for (int i = decimals; i < 9; i++)
		div *= 10;
	if (!decimals)
		snprintf(buf, n, "%" PRIu64, ns / UINT64_C(1000000000));
	else
		snprintf(buf, n, "%" PRIu64 ".%0*" PRIu64, ns / UINT64_C(1000000000), decimals,
			 (ns % UINT64_C(1000000000)) / div);
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

static const char *lru_short(int lru)
{
	static const char *const n[] = { "IA", "AA", "IF", "AF", "unevictable" };

	return lru >= 0 && lru < 5 ? n[lru] : "?";
}

void tui_fmt_event(char *buf, size_t n, const struct rs_event *ev)
{
	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
		if (ev->have & RS_HAVE_LRU)
			snprintf(buf, n, "lru_isolate %s scanned=%" PRIu64 " taken=%" PRIu64,
				 lru_short(ev->isolate.lru), ev->isolate.nr_scanned,
				 ev->isolate.nr_taken);
		else
			snprintf(buf, n, "lru_isolate file=%d scanned=%" PRIu64 " taken=%" PRIu64,
				 ev->isolate.file, ev->isolate.nr_scanned, ev->isolate.nr_taken);
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_RECLAIM_PAGES:
		snprintf(buf, n, "%s %s scanned=%" PRIu64 " reclaimed=%" PRIu64 " prio=%d",
			 ev->type == RS_EV_RECLAIM_PAGES ? "reclaim_pages" : "shrink_inactive",
			 (ev->inactive.reclaim_flags & RS_RECLAIM_WB_FILE) ? "file" : "anon",
			 ev->inactive.nr_scanned, ev->inactive.nr_reclaimed,
			 ev->inactive.priority);
		break;
	case RS_EV_SHRINK_ACTIVE:
		snprintf(buf, n, "shrink_active %s taken=%" PRIu64 " deactivated=%" PRIu64
			 " prio=%d", (ev->active.reclaim_flags & RS_RECLAIM_WB_FILE) ? "file" :
			 "anon", ev->active.nr_taken, ev->active.nr_deactivated,
			 ev->active.priority);
		break;
	case RS_EV_RECLAIM_BEGIN:
		snprintf(buf, n, "%s_reclaim_begin order=%d",
			 rs_reclaim_kind_name(ev->reclaim.kind), ev->reclaim.order);
		break;
	case RS_EV_RECLAIM_END:
		snprintf(buf, n, "%s_reclaim_end reclaimed=%" PRIu64,
			 rs_reclaim_kind_name(ev->reclaim.kind), ev->reclaim.nr_reclaimed);
		break;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_WAKEUP_KSWAPD:
		snprintf(buf, n, "%s nid=%d order=%d", ev->type == RS_EV_KSWAPD_WAKE ?
			 "kswapd_wake" : "wakeup_kswapd", ev->kswapd.nid, ev->kswapd.order);
		break;
	case RS_EV_WRITE_FOLIO:
		snprintf(buf, n, "write_folio %s %s",
			 (ev->write.reclaim_flags & RS_RECLAIM_WB_FILE) ? "file" : "anon",
			 (ev->write.reclaim_flags & RS_RECLAIM_WB_SYNC) ? "sync" : "async");
		break;
	case RS_EV_THROTTLED:
		snprintf(buf, n, "throttled reason=%d delayed=%dus", ev->throttled.reason,
			 ev->throttled.usec_delayed);
		break;
	case RS_EV_MEMCG_COUNT:
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
		snprintf(buf, n, "%s memcg=%" PRIu64 " item=%d val=%" PRId64,
			 rs_ev_type_name(ev->type), ev->memcg.id, ev->memcg.item, ev->memcg.val);
		break;
	case RS_EV_OOM_VICTIM:
		snprintf(buf, n, "oom_victim pid=%d%s%s", ev->oom.pid, ev->oom.comm ? " " : "",
			 ev->oom.comm ? ev->oom.comm : "");
		break;
	case RS_EV_LOST:
		if (ev->lost > 0)
			snprintf(buf, n, "LOST %" PRId64 " events", ev->lost);
		else
			snprintf(buf, n, "LOST events (count unknown)");
		break;
	case RS_EV_SLAB_START:
		snprintf(buf, n, "shrink_slab_start %s", ev->slab.shrink_name ?
			 ev->slab.shrink_name : "?");
		break;
	case RS_EV_SLAB_END:
		snprintf(buf, n, "shrink_slab_end freed=%d", ev->slab.retval);
		break;
	default:
		snprintf(buf, n, "%s", rs_ev_type_name(ev->type));
		break;
	}
}

bool tui_event_listed(const struct rs_event *ev)
{
	switch (ev->type) {
	case RS_EV_MEMCG_COUNT:		/* counters: most of a trace, e shows them */
	case RS_EV_MEMCG_LRUVEC:
	case RS_EV_MEMCG_STATE:
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
		return false;
	default:
		return true;
	}
}

void tui_layout(int width, int height, struct tui_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->too_small = width < 20 || height < 6;
	l->label_w = width >= 120 ? 18 : width >= 80 ? 13 : width >= 60 ? 11 : 7;
	l->plot_x = l->label_w;
	l->plot_w = width - l->label_w;
	if (l->plot_w < 1)
		l->plot_w = 1;
	l->lanes_y = 3;
	l->status_y = height - 1;
	l->details_h = height >= 30 ? 8 : height >= 20 ? 6 : 0;
	l->details_y = l->status_y - l->details_h;
	l->lanes_h = l->details_y - l->lanes_y;
	if (l->lanes_h < 1) {
		l->lanes_h = 0;
		l->too_small = true;
	}
}

void tui_details_range(const struct tui_state *st, uint64_t *t0, uint64_t *t1, bool *marked)
{
	*marked = tl_model_marked_range(st->m, t0, t1);
	if (!*marked)
		tl_model_cursor_range(st->m, t0, t1);
}
