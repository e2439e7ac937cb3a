// SPDX-License-Identifier: GPL-2.0
/*
 * Which memcg a shrink event took its pages from (shared/NOTES.md section 3).
 *
 * Inside shrink_inactive_list() one task emits, in this order (6.13+): mm_vmscan_lru_isolate;
 * mod_memcg_lruvec_state(lru, -n) per zone; count_memcg_events(PGSCAN_<reclaimer>, nr_scanned);
 * write_folio, activation and swap-out counters; putback mod_memcg_lruvec_state(+n);
 * count_memcg_events(PGSTEAL_<reclaimer>, nr_reclaimed); mm_vmscan_lru_shrink_inactive.
 * shrink_active_list() emits lru_isolate, PGREFILL(nr_scanned), PGDEACTIVATE(nr_deactivate),
 * then mm_vmscan_lru_shrink_active. Every counter names the lruvec's memcg: the victim.
 *
 * So per task (common_pid: reclaim sleeps and migrates CPUs, tasks interleave on a CPU) an
 * isolate opens a window; the task's counters land in it: the first CG_WIN_HEAD (the scan side
 * comes first) and the latest CG_WIN_TAIL (the steal side comes last), plus the memcg of the
 * first LRU decrement. The shrink event closes it:
 *
 *   exact     the first scan-side counter (PGSCAN_*, or PGREFILL) whose value is the isolate's
 *             nr_scanned and the latest steal-side one (PGSTEAL_*, or PGDEACTIVATE) after it
 *             whose value is nr_reclaimed (nr_deactivated) name the same memcg;
 *   fallback  only one side matched (that memcg), or both in different memcgs (the steal
 *             side's), or none matched but an LRU decrement names one;
 *   unmatched nothing names one.
 *
 * Without item names (a trace without the recorder's vm_event_items marker) the classes are
 * unknown and any counter of the task may match by value alone, in the same order: the scan
 * side is the first after the isolate, the steal side the latest before the shrink event and
 * after the scan one. An isolate that took nothing has no shrink event (shrink_*_list returns
 * early, after PGSCAN): its window is closed by the task's next isolate or the trace end and
 * matched on the scan side alone.
 */
#include <string.h>

#include "cgroups_state.h"

void cg_window_open(struct cg_window *w, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	w->open = true;
	w->lru = (ev->have & RS_HAVE_LRU) && ev->isolate.lru >= 0 && ev->isolate.lru < RS_LRU_NR ?
		 (int8_t)ev->isolate.lru : -1;
	w->ctx = (uint8_t)ctx->kind;
	w->selected = ctx->selected;
	w->ts = ev->ts;
	w->serial = ctx->serial;
	w->nr_scanned = ev->isolate.nr_scanned;
	w->nr_taken = ev->isolate.nr_taken;
	w->ncount = 0;
	w->lruvec_cg = -1;
	w->any_memcg = false;
}

void cg_window_count(struct cg_window *w, int cg, int cls, int64_t val)
{
	struct cg_cnt c = { .cg = cg, .cls = (uint8_t)cls, .seq = w->ncount, .val = val };

	w->any_memcg = true;
	if (w->ncount < CG_WIN_HEAD)
		w->head[w->ncount] = c;
	w->tail[w->ncount % CG_WIN_TAIL] = c;
	w->ncount++;
}

static bool class_ok(int cls, int want)
{
	return cls == CG_CLS_UNNAMED || cls == want;
}

void cg_match_window(const struct cg_window *w, bool active, uint64_t scan_val, bool have_steal,
		     uint64_t steal_val, struct cg_match *m)
{
	int want_scan = active ? CG_CLS_REFILL : CG_CLS_SCAN;
	int want_steal = active ? CG_CLS_DEACT : CG_CLS_STEAL;
	const struct cg_cnt *scan = NULL, *steal = NULL;
	uint32_t nhead = w->ncount < CG_WIN_HEAD ? w->ncount : CG_WIN_HEAD;
	uint32_t ntail = w->ncount < CG_WIN_TAIL ? w->ncount : CG_WIN_TAIL;

	m->victim = RS_CG_UNATTRIBUTED;
	m->exact = false;
	for (uint32_t i = 0; i < nhead; i++) {
		if (class_ok(w->head[i].cls, want_scan) && w->head[i].val >= 0 &&
		    (uint64_t)w->head[i].val == scan_val) {
			scan = &w->head[i];
			break;
		}
	}
	for (uint32_t k = 0; have_steal && k < ntail; k++) {
		const struct cg_cnt *c = &w->tail[(w->ncount - 1 - k) % CG_WIN_TAIL];

		if (scan && c->seq <= scan->seq)
			break;
		if (class_ok(c->cls, want_steal) && c->val >= 0 && (uint64_t)c->val == steal_val) {
			steal = c;
			break;
		}
	}
	if (scan && (steal || !have_steal)) {
		if (!steal || steal->cg == scan->cg) {
			m->victim = scan->cg;
			m->exact = true;
			return;
		}
		m->victim = steal->cg;
		m->reason = RS_CGR_DISAGREE;
		return;
	}
	if (scan) {
		m->victim = scan->cg;
		m->reason = RS_CGR_SCAN_ONLY;
		return;
	}
	if (steal) {
		m->victim = steal->cg;
		m->reason = RS_CGR_STEAL_ONLY;
		return;
	}
	if (w->lruvec_cg >= 0) {
		m->victim = w->lruvec_cg;
		m->reason = RS_CGR_LRU_DELTA;
		return;
	}
	m->reason = w->any_memcg ? RS_CGR_NO_MATCH : RS_CGR_NO_MEMCG_EVENT;
}
