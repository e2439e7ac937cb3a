// SPDX-License-Identifier: GPL-2.0
/*
 * Which memcg a shrink event took its pages from, and the reclaim root of each episode
 * (include/memcg_attrib.h; shared/NOTES.md sections 3 and 9).
 *
 * Inside shrink_inactive_list() one task emits, in this order (6.13+): mm_vmscan_lru_isolate;
 * mod_memcg_lruvec_state(lru, -n) per zone; the PGSCAN_<reclaimer> counter (nr_scanned);
 * write_folio, activation and swap-out counters; putback mod_memcg_lruvec_state(+n); the
 * PGSTEAL_<reclaimer> counter (nr_reclaimed); mm_vmscan_lru_shrink_inactive.
 * shrink_active_list() emits lru_isolate, PGREFILL (nr_scanned), PGDEACTIVATE (nr_deactivate),
 * then mm_vmscan_lru_shrink_active. Every counter names the lruvec's memcg: the victim. Up to
 * 7.0 the counters are count_memcg_events; on 7.x PGSCAN_*, PGSTEAL_* and PGREFILL are
 * node-stat items and arrive as mod_memcg_lruvec_state, told by their names in the recorder's
 * node_stat_items marker (PGDEACTIVATE stays a vm event).
 *
 * So per task (common_pid: reclaim sleeps and migrates CPUs, tasks interleave on a CPU) an
 * isolate opens a window; the task's counters land in it: the first MC_WIN_HEAD (the scan side
 * comes first) and the latest MC_WIN_TAIL (the steal side comes last), plus the memcg of the
 * first LRU decrement. The shrink event closes it:
 *
 *   exact     the first scan-side counter whose value is the isolate's nr_scanned and the
 *             latest steal-side one after it whose value is nr_reclaimed (nr_deactivated)
 *             name the same memcg;
 *   fallback  only one side matched (that memcg), or both in different memcgs (the steal
 *             side's), or none matched but an LRU decrement names one;
 *   unmatched nothing names one.
 *
 * MGLRU (7.x) counts in scan_folios(), before its lru_isolate event: PGSCAN_<reclaimer> with
 * what it isolated (nr_taken; nr_scanned adds the folios it sorted to younger generations,
 * counted as PGREFILL), and PGSTEAL after the shrink event: such a window matches on the scan
 * side alone, by nr_taken when no scan counter equals nr_scanned.
 *
 * Without item names the classes are unknown and any count_memcg_events of the task may match
 * by value alone, in the same order. An isolate that took nothing has no shrink event
 * (shrink_*_list returns early, after PGSCAN): its window is closed by the task's next isolate
 * (or a shrink event of the other list kind) and matched on the scan side alone.
 *
 * Roots: the begin event's memcg_id where the kernel has it (7.1+: the memcg whose limit is
 * reclaimed, 0 for global reclaim); otherwise the lowest common ancestor of the victims an
 * episode took pages from, on their paths, as the shrink events are matched.
 */
#include <stdlib.h>
#include <string.h>

#include "ep_slots.h"
#include "memcg_ids.h"
#include "rs_grow.h"

const char *rs_cg_reason_name(int r)
{
	static const char *const n[RS_CGR_NR] = {
		[RS_CGR_SCAN_ONLY] = "scan_only",
		[RS_CGR_STEAL_ONLY] = "steal_only",
		[RS_CGR_DISAGREE] = "disagree",
		[RS_CGR_LRU_DELTA] = "lru_delta",
		[RS_CGR_MEMCG_ID_LEAF] = "memcg_id_leaf",
		[RS_CGR_NO_ISOLATE] = "no_isolate",
		[RS_CGR_NO_MATCH] = "no_match",
		[RS_CGR_NO_MEMCG_EVENT] = "no_memcg_event",
		[RS_CGR_UNTRACKED_TASK] = "untracked_task",
	};

	return r >= 0 && r < RS_CGR_NR ? n[r] : "unknown";
}

/* ---- item names ---- */

static const char *const reclaim_exact[] = {
	"pgrefill", "pgactivate", "pgdeactivate", "pglazyfree", "pglazyfreed", "pswpin",
	"pswpout", "swpin_zero", "swpout_zero", "zswpin", "zswpout", "zswpwb", "pgrotated",
};
static const char *const reclaim_prefix[] = {
	"pgscan_", "pgsteal_", "pgdemote_", "workingset_", "thp_swpout",
};
static const char *const reclaimer[] = { "kswapd", "direct", "khugepaged", "proactive" };
/* the classes told by one name: the matching's active-list pair, and the swap counters the
   consumers read (refaults' swap-ins, replay's swap-out evidence) */
static const struct {
	const char *name;
	uint8_t cls;
} exact_class[] = {
	{ "pgrefill", RS_MIC_REFILL }, { "pgdeactivate", RS_MIC_DEACT },
	{ "pswpin", RS_MIC_PSWPIN }, { "pswpout", RS_MIC_PSWPOUT },
};

static int classify(const char *name, bool *reclaim)
{
	*reclaim = false;
	for (size_t i = 0; i < sizeof(reclaim_exact) / sizeof(reclaim_exact[0]); i++)
		if (!strcmp(name, reclaim_exact[i]))
			*reclaim = true;
	for (size_t i = 0; i < sizeof(reclaim_prefix) / sizeof(reclaim_prefix[0]); i++)
		if (!strncmp(name, reclaim_prefix[i], strlen(reclaim_prefix[i])))
			*reclaim = true;
	for (size_t i = 0; i < sizeof(exact_class) / sizeof(exact_class[0]); i++)
		if (!strcmp(name, exact_class[i].name))
			return exact_class[i].cls;
	for (size_t i = 0; i < sizeof(reclaimer) / sizeof(reclaimer[0]); i++) {
		/* the per-reclaimer counters only: pgscan_anon/file count the same pages again */
		if (!strncmp(name, "pgscan_", 7) && !strcmp(name + 7, reclaimer[i]))
			return RS_MIC_SCAN;
		if (!strncmp(name, "pgsteal_", 8) && !strcmp(name + 8, reclaimer[i]))
			return RS_MIC_STEAL;
	}
	return RS_MIC_OTHER;
}

static void mc_items_init(struct rs_memcgs *m)
{
	memset(m->item_cls, RS_MIC_UNNAMED, sizeof(m->item_cls));
	memset(m->node_cls, RS_MIC_OTHER, sizeof(m->node_cls));
	memset(m->lru_of_item, -1, sizeof(m->lru_of_item));
	for (int l = 0; l < RS_LRU_NR; l++)
		m->lru_of_item[l] = (int8_t)l;		/* until node_stat_items says otherwise */
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static char **copy_names(struct rs_memcgs *m, const struct rs_ev_items *it, int n, int *nr)
{
	char **names = calloc((size_t)(n ? n : 1), sizeof(*names));

	*nr = 0;
	if (!names) {
		m->oom = true;
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		names[i] = strdup(it->names[i] ? it->names[i] : "");
		if (!names[i]) {
			m->oom = true;
			break;
		}
		*nr = i + 1;
	}
	return names;
}

static void mc_item_names(struct rs_memcgs *m, const struct rs_ev_items *it)
{
	static const char *const lru_names[RS_LRU_NR] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
		"nr_unevictable"
	};
	int n = it->count < RS_MEMCG_MAX_ITEMS ? it->count : RS_MEMCG_MAX_ITEMS;
	bool unused;

	if (n < 0)
		n = 0;
	if (it->which == RS_ITEMS_NODE_STAT) {
		free_names(m->node_names, m->nr_node_names);
		m->node_names = copy_names(m, it, n, &m->nr_node_names);
		memset(m->lru_of_item, -1, sizeof(m->lru_of_item));
		memset(m->node_cls, RS_MIC_OTHER, sizeof(m->node_cls));
		memset(m->node_moved, 0, sizeof(m->node_moved));
		for (int i = 0; i < m->nr_node_names; i++) {
			const char *s = m->node_names[i];
			int c;

			for (int l = 0; l < RS_LRU_NR; l++)
				if (!strcmp(s, lru_names[l]))
					m->lru_of_item[i] = (int8_t)l;
			c = *s ? classify(s, &unused) : RS_MIC_OTHER;
			m->node_moved[i] = !strncmp(s, "pgscan_", 7) || !strncmp(s, "pgsteal_", 8) ||
					   !strcmp(s, "pgrefill");
			/* 7.x: pgscan_*, pgsteal_*, pgrefill are node-stat items */
			if (c == RS_MIC_SCAN || c == RS_MIC_STEAL || c == RS_MIC_REFILL)
				m->node_cls[i] = (uint8_t)c;
		}
		m->facts.lru_names = true;
		return;
	}
	if (it->which != RS_ITEMS_VM_EVENT)
		return;
	free_names(m->item_names, m->nr_item_names);
	m->item_names = copy_names(m, it, n, &m->nr_item_names);
	m->facts.item_names = m->nr_item_names > 0;
	memset(m->item_cls, RS_MIC_OTHER, sizeof(m->item_cls));
	memset(m->item_reclaim, 0, sizeof(m->item_reclaim));
	for (int i = 0; i < m->nr_item_names; i++) {
		const char *s = m->item_names[i];

		m->item_cls[i] = *s ? (uint8_t)classify(s, &m->item_reclaim[i]) : RS_MIC_OTHER;
	}
}

static void mc_items_free(struct rs_memcgs *m)
{
	free_names(m->item_names, m->nr_item_names);
	free_names(m->node_names, m->nr_node_names);
}

/* ---- windows ---- */

static struct mc_task *task_of(struct rs_memcgs *m, int task, bool create)
{
	if (task < 0)
		return NULL;
	if (task < m->nr_t)
		return &m->t[task];	/* without a call: once an event, per memcg event */
	if (!create)
		return NULL;
	if (rs_grow_rows(&m->nr_t, task, 64, (const struct rs_grow_array[]){
			{ (void **)&m->t, sizeof(*m->t) } }, 1)) {
		m->oom = true;
		return NULL;
	}
	return &m->t[task];
}

static void window_open(struct mc_window *w, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	memset(&w->w, 0, sizeof(w->w));
	w->open = true;
	w->w.lru = (ev->have & RS_HAVE_LRU) && ev->isolate.lru >= 0 &&
		   ev->isolate.lru < RS_LRU_NR ? ev->isolate.lru : -1;
	w->w.ctx = ctx->kind;
	w->w.selected = ctx->selected;
	w->w.ts = ev->ts;
	w->w.serial = ctx->serial;
	w->w.nr_requested = ev->isolate.nr_requested;
	w->w.nr_scanned = ev->isolate.nr_scanned;
	w->w.nr_taken = ev->isolate.nr_taken;
	w->w.row = -1;
	w->w.had_isolate = true;
	w->ncount = 0;
	w->lruvec_row = -1;
	w->any_memcg = false;
}

static void window_count(struct mc_window *w, int row, int cls, int64_t val);

/* A counter of a task with no window open: kept when it is a scan-side one (MGLRU's order). */
static void pre_count(struct mc_task *t, int row, int cls, int64_t val)
{
	if (cls != RS_MIC_SCAN && cls != RS_MIC_REFILL)
		return;
	if (t->npre == MC_PRE) {
		memmove(t->pre, t->pre + 1, (MC_PRE - 1) * sizeof(t->pre[0]));
		t->npre--;
	}
	t->pre[t->npre++] = (struct mc_cnt){ .row = row, .cls = (uint8_t)cls, .val = val };
}

static void window_count(struct mc_window *w, int row, int cls, int64_t val)
{
	struct mc_cnt c = { .row = row, .cls = (uint8_t)cls, .seq = w->ncount, .val = val };

	w->any_memcg = true;
	if (w->ncount < MC_WIN_HEAD)
		w->head[w->ncount] = c;
	w->tail[w->ncount % MC_WIN_TAIL] = c;
	w->ncount++;
}

static bool class_ok(int cls, int want)
{
	return cls == RS_MIC_UNNAMED || cls == want;
}

static bool is_active_list(int l)
{
	return l == RS_LRU_ACTIVE_ANON || l == RS_LRU_ACTIVE_FILE;
}

/*
 * Match a window. `active`: shrink_active_list (PGREFILL / PGDEACTIVATE) else
 * shrink_inactive_list (PGSCAN_* / PGSTEAL_*). `have_steal` false: the isolate had no shrink
 * event, only the scan side can match.
 */
static void window_match(const struct mc_window *w, bool active, uint64_t scan_val,
			 bool have_steal, uint64_t steal_val, struct rs_victim *v)
{
	int want_scan = active ? RS_MIC_REFILL : RS_MIC_SCAN;
	int want_steal = active ? RS_MIC_DEACT : RS_MIC_STEAL;
	const struct mc_cnt *scan = NULL, *steal = NULL;
	uint32_t nhead = w->ncount < MC_WIN_HEAD ? w->ncount : MC_WIN_HEAD;
	uint32_t ntail = w->ncount < MC_WIN_TAIL ? w->ncount : MC_WIN_TAIL;

	v->valid = true;
	v->row = -1;
	v->how = RS_VICTIM_UNKNOWN;
	for (uint32_t i = 0; i < nhead; i++) {
		if (class_ok(w->head[i].cls, want_scan) && w->head[i].val >= 0 &&
		    (uint64_t)w->head[i].val == scan_val) {
			scan = &w->head[i];
			break;
		}
	}
	for (uint32_t i = 0; !scan && !active && i < nhead; i++) {
		if (w->head[i].cls == RS_MIC_SCAN && w->head[i].val >= 0 &&
		    (uint64_t)w->head[i].val == w->w.nr_taken) {
			scan = &w->head[i];	/* MGLRU's PGSCAN: what it isolated */
			break;
		}
	}
	for (uint32_t k = 0; have_steal && k < ntail; k++) {
		const struct mc_cnt *c = &w->tail[(w->ncount - 1 - k) % MC_WIN_TAIL];

		if (scan && c->seq <= scan->seq)
			break;
		if (class_ok(c->cls, want_steal) && c->val >= 0 && (uint64_t)c->val == steal_val) {
			steal = c;
			break;
		}
	}
	if (scan && (steal || !have_steal)) {
		if (!steal || steal->row == scan->row) {
			v->row = scan->row;
			v->how = RS_VICTIM_EXACT;
			return;
		}
		v->row = steal->row;
		v->how = RS_VICTIM_FALLBACK;
		v->reason = RS_CGR_DISAGREE;
		return;
	}
	v->how = RS_VICTIM_FALLBACK;
	if (scan) {
		v->row = scan->row;
		v->reason = RS_CGR_SCAN_ONLY;
		return;
	}
	if (steal) {
		v->row = steal->row;
		v->reason = RS_CGR_STEAL_ONLY;
		return;
	}
	if (w->lruvec_row >= 0) {
		v->row = w->lruvec_row;
		v->reason = RS_CGR_LRU_DELTA;
		return;
	}
	v->how = RS_VICTIM_UNKNOWN;
	v->reason = w->any_memcg ? RS_CGR_NO_MATCH : RS_CGR_NO_MEMCG_EVENT;
}

static void match_isolate_only(const struct mc_window *w, struct rs_victim *v)
{
	*v = w->w;
	window_match(w, w->w.lru >= 0 && is_active_list(w->w.lru), w->w.nr_scanned, false, 0, v);
	v->isolate_only = true;
}

/*
 * A window of a 7.1+ limit reclaim call with no memcg event in it (nothing names its victim)
 * took its pages from the call's memcg when that memcg provably has no memcg below it
 * (mc_lone_memcg(), told at the call's begin).
 */
static void lone_victim(const struct mc_window *w, struct rs_victim *v)
{
	if (w->lone < 0 || v->how != RS_VICTIM_UNKNOWN || v->reason != RS_CGR_NO_MEMCG_EVENT ||
	    v->ctx != RS_CTX_MEMCG)
		return;
	v->row = w->lone;
	v->how = RS_VICTIM_FALLBACK;
	v->reason = RS_CGR_MEMCG_ID_LEAF;
}

/* The lone memcg of the task's episode `serial` (mc_ep.lone), -1: none or no such episode. */
static int ep_lone(const struct mc_task *t, uint64_t serial)
{
	int slot = ep_slot_find(t->ep_serial, MC_TASK_EPS, serial);

	return slot < 0 ? -1 : t->eps[slot].lone;
}

bool rs_memcgs_open_window(const struct rs_memcgs *m, int task, struct rs_victim *out)
{
	if (task < 0 || task >= m->nr_t || !m->t[task].win.open)
		return false;
	match_isolate_only(&m->t[task].win, out);
	lone_victim(&m->t[task].win, out);
	return true;
}

/* ---- episodes and roots ---- */

static struct mc_ep *ep_find(struct mc_task *t, uint64_t serial)
{
	int i = t ? ep_slot_find(t->ep_serial, MC_TASK_EPS, serial) : -1;

	return i < 0 ? NULL : &t->eps[i];
}

static struct mc_ep *ep_add(struct mc_task *t, uint64_t serial)
{
	struct mc_ep *e = &t->eps[ep_slot_take(t->ep_serial, MC_TASK_EPS, serial)];

	memset(e, 0, sizeof(*e));
	e->lone = -1;
	e->root.row = -1;
	e->root.how = RS_ROOT_NONE;
	return e;
}

/* Length of the common path prefix of p[0..lp) and q at a component boundary ("/" is 0). */
static uint16_t lca_len(const char *p, size_t lp, const char *q)
{
	size_t lq = strcmp(q, "/") ? strlen(q) : 0, c = 0;

	while (c < lp && c < lq && p[c] == q[c])
		c++;
	while (c > 0 && !((c == lp || p[c] == '/') && (c == lq || q[c] == '/')))
		c--;
	return (uint16_t)(c > UINT16_MAX ? UINT16_MAX : c);
}

/* A victim of an episode: the inferred root narrows to the common ancestor. */
static void ep_victim(struct rs_memcgs *m, struct mc_ep *e, int victim)
{
	struct rs_memcg_root *r = &e->root;
	const char *p = m->rows[victim].path;
	int i;

	if (!e->kernel_root) {
		if (r->how == RS_ROOT_UNKNOWN_PATH) {
			/* stays unknown */
		} else if (!p) {
			r->how = RS_ROOT_UNKNOWN_PATH;
		} else if (r->how == RS_ROOT_NONE) {
			r->how = RS_ROOT_INFERRED;
			r->row = victim;
			r->len = strcmp(p, "/") ? lca_len(p, strlen(p), p) : 0;
		} else {
			r->len = lca_len(m->rows[r->row].path, r->len, p);
		}
	}
	for (i = 0; i < r->nr_victims; i++)
		if (r->victims[i] == victim)
			return;
	if (r->nr_victims < RS_MEMCG_EP_VICTIMS)
		r->victims[r->nr_victims++] = victim;
	else
		r->victims_overflow = true;
}

/* What a closed window took goes to its episode's victims (for the inferred root). */
static void credit_episode(struct rs_memcgs *m, struct mc_task *t, const struct rs_victim *v,
			   int ctx, uint64_t serial)
{
	struct mc_ep *e;

	if (v->row < 0 || ctx >= RS_CTX_KSWAPD)
		return;
	if (v->isolate_only && v->how != RS_VICTIM_EXACT)
		return;		/* nothing taken: only a matched scan is worth keeping */
	e = ep_find(t, serial);
	if (e)
		ep_victim(m, e, v->row);
}

const struct rs_memcg_root *rs_memcgs_episode(struct rs_memcgs *m, const struct rs_episode *ep)
{
	struct mc_task *t = task_of(m, ep->task, false);
	int slot = t ? ep_slot_find(t->ep_serial, MC_TASK_EPS, ep->serial) : -1;
	struct mc_ep *e = slot >= 0 ? &t->eps[slot] : NULL;
	struct rs_memcg_root *r = &m->closing_root;

	memset(r, 0, sizeof(*r));
	r->row = -1;
	if (e) {
		*r = e->root;
		t->ep_serial[slot] = 0;
	}
	if (ep->kind >= RS_CTX_KSWAPD) {
		r->how = RS_ROOT_NONE;
		r->row = -1;
	} else if ((e && e->kernel_root) || (m->facts.kernel_roots && ep->memcg_id)) {
		r->how = RS_ROOT_KERNEL;
		r->row = ep->memcg_id ? mc_of_id(m, ep->memcg_id) : -1;
		r->len = 0;
	}
	return r;
}

/* ---- events ---- */

/* The counter at position seq of a window, NULL when it is kept neither in head nor in tail. */
static const struct mc_cnt *window_at(const struct mc_window *w, uint32_t seq)
{
	if (seq >= w->ncount)
		return NULL;
	if (seq < MC_WIN_HEAD)
		return &w->head[seq];
	if (w->ncount - seq <= MC_WIN_TAIL)
		return &w->tail[seq % MC_WIN_TAIL];
	return NULL;
}

/*
 * MGLRU counts an isolate's scan side before its lru_isolate event, and isolate_folios() tries
 * the other type when scan_folios() took nothing: that second type's counters then come while
 * the first isolate's window is still open, and landed in it. On the 7.2 multi trace with
 * MGLRU on, 1,004 of 2,451 shrink events had no memcg counter (an anon isolate of 512 pages
 * right after a file isolate of 0: "pgscan_direct 512" counted in the file window), and the
 * victims of 30% of the pages scanned were not told. The scan-side counters that came after
 * the one the closing window matched as its own go to the pre-isolate counters of the next.
 * The classic LRU counts after its isolate: nothing of the next isolate's is in the window.
 */
static void carry_scan_counters(struct mc_task *t)
{
	const struct mc_window *w = &t->win;
	bool active = w->w.lru >= 0 && is_active_list(w->w.lru);
	int want = active ? RS_MIC_REFILL : RS_MIC_SCAN;
	uint32_t own = UINT32_MAX;

	for (uint32_t i = 0; i < w->ncount && i < MC_WIN_HEAD; i++)
		if (class_ok(w->head[i].cls, want) && w->head[i].val >= 0 &&
		    ((uint64_t)w->head[i].val == w->w.nr_scanned ||
		     (!active && (uint64_t)w->head[i].val == w->w.nr_taken))) {
			own = i;
			break;
		}
	if (own == UINT32_MAX)
		return;
	t->npre = 0;
	for (uint32_t seq = own + 1; seq < w->ncount; seq++) {
		const struct mc_cnt *c = window_at(w, seq);

		if (c && c->cls != RS_MIC_UNNAMED && (c->cls == RS_MIC_SCAN || c->cls == RS_MIC_REFILL))
			pre_count(t, c->row, c->cls, c->val);
	}
}

static void on_isolate(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		       struct rs_memcg_ctx *out)
{
	struct mc_task *t = task_of(m, ctx->task, true);

	if (!t)
		return;
	if (t->win.open) {
		match_isolate_only(&t->win, &out->closed);
		lone_victim(&t->win, &out->closed);
		credit_episode(m, t, &out->closed, out->closed.ctx, out->closed.serial);
		carry_scan_counters(t);
	}
	window_open(&t->win, ev, ctx);
	t->win.lone = ep_lone(t, ctx->serial);
	for (int i = 0; i < t->npre; i++)
		window_count(&t->win, t->pre[i].row, t->pre[i].cls, t->pre[i].val);
	t->npre = 0;
}

static void on_shrink(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		      struct rs_memcg_ctx *out)
{
	bool active = ev->type == RS_EV_SHRINK_ACTIVE;
	struct mc_task *t = task_of(m, ctx->task, true);
	struct rs_victim *v = &out->shrink;
	struct mc_window *w;

	memset(v, 0, sizeof(*v));
	v->valid = true;
	v->row = -1;
	v->lru = -1;
	v->how = RS_VICTIM_UNKNOWN;
	v->ctx = ctx->kind;
	v->selected = ctx->selected;
	v->serial = ctx->serial;
	v->ts = ev->ts;
	if (!t) {
		v->reason = RS_CGR_UNTRACKED_TASK;
		return;
	}
	w = &t->win;
	/* an isolate of the other side of the lists is not this shrink's */
	if (w->open && w->w.lru >= 0 && is_active_list(w->w.lru) != active) {
		match_isolate_only(w, &out->closed);
		lone_victim(w, &out->closed);
		credit_episode(m, t, &out->closed, out->closed.ctx, out->closed.serial);
		w->open = false;
	}
	if (!w->open && ctx->shrink_retry && t->last.valid) {
		/*
		 * MGLRU's evict_folios() retried the batch of the task's previous shrink
		 * (episodes.c shrink_retry()): no isolate of its own, the same folios, so the
		 * same memcg, told the way that shrink's was. Its pgsteal counters come after
		 * its event, as the first one's do. Without this its reclaimed pages had no
		 * victim (no_isolate: 7 on k72-multi-mglru).
		 */
		*v = t->last;
		v->ts = ev->ts;
		v->ctx = ctx->kind;
		v->selected = ctx->selected;
		v->serial = ctx->serial;
		return;
	}
	if (!w->open) {
		v->reason = RS_CGR_NO_ISOLATE;
		t->last.valid = false;
		return;
	}
	*v = w->w;
	window_match(w, active, active ? w->w.nr_scanned : ev->inactive.nr_scanned, true,
		     active ? ev->active.nr_deactivated : ev->inactive.nr_reclaimed, v);
	lone_victim(w, v);
	w->open = false;
	t->npre = 0;
	t->last = *v;
	credit_episode(m, t, v, ctx->kind, ctx->serial);
}

static void on_count(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		     struct rs_memcg_ctx *out)
{
	int item = ev->memcg.item;
	bool in_range = item >= 0 && item < RS_MEMCG_MAX_ITEMS;
	struct mc_task *t;

	out->named = mc_of_id(m, ev->memcg.id);
	out->item_class = !m->nr_item_names ? RS_MIC_UNNAMED :
			  in_range && item < m->nr_item_names ? m->item_cls[item] : RS_MIC_OTHER;
	t = task_of(m, ctx->task, false);
	if (out->named >= 0 && t && t->win.open)
		window_count(&t->win, out->named, out->item_class, ev->memcg.val);
	else if (out->named >= 0 && t)
		pre_count(t, out->named, out->item_class, ev->memcg.val);
}

static void on_lruvec(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		      struct rs_memcg_ctx *out)
{
	int item = ev->memcg.item;
	struct mc_task *t;

	if (item < 0 || item >= RS_MEMCG_MAX_ITEMS)
		return;
	out->lru = m->lru_of_item[item];
	out->item_class = m->node_cls[item];
	if (out->lru < 0 && out->item_class == RS_MIC_OTHER)
		return;
	out->named = mc_of_id(m, ev->memcg.id);
	t = task_of(m, ctx->task, false);
	if (out->named < 0 || !t)
		return;
	if (!t->win.open) {
		pre_count(t, out->named, out->item_class, ev->memcg.val);
		return;
	}
	if (out->item_class != RS_MIC_OTHER) {
		window_count(&t->win, out->named, out->item_class, ev->memcg.val);
	} else if (ev->memcg.val < 0) {
		t->win.any_memcg = true;
		if (t->win.lruvec_row < 0)
			t->win.lruvec_row = out->named;
	}
}

static void on_begin(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx)
{
	struct mc_task *t;
	struct mc_ep *e;

	if (ev->have & RS_HAVE_MEMCG_ID)
		m->facts.kernel_roots = true;
	if (!ctx->began || !(t = task_of(m, ctx->task, true)))
		return;
	e = ep_add(t, ctx->serial);
	if (ev->have & RS_HAVE_MEMCG_ID) {
		e->kernel_root = true;
		e->root.how = RS_ROOT_KERNEL;
		e->root.row = ev->reclaim.memcg_id ? mc_of_id(m, ev->reclaim.memcg_id) : -1;
		if (ctx->kind == RS_CTX_MEMCG && mc_lone_memcg(m, e->root.row, ev->pid))
			e->lone = e->root.row;
	}
}

void rs_memcgs_event(struct rs_memcgs *m, const struct rs_event *ev, const struct rs_ctx *ctx,
		     struct rs_memcg_ctx *out)
{
	struct mc_task *t;

	out->memcgs = m;
	out->task = -1;
	out->named = -1;
	out->item_class = RS_MIC_OTHER;
	out->lru = -1;
	out->closed.valid = false;
	out->shrink.valid = false;
	out->root = NULL;
	switch (ev->type) {
	case RS_EV_CGROUP_MAP:
	case RS_EV_TASK_CGROUP:
	case RS_EV_SNAP_MEMCG:
	case RS_EV_CGROUP:
	case RS_EV_CGROUP_ATTACH:
	case RS_EV_FORK:
		out->named = mc_identity_event(m, ev);
		break;
	case RS_EV_ITEM_NAMES:
		mc_item_names(m, &ev->items);
		break;
	case RS_EV_MEMCG_COUNT:
		on_count(m, ev, ctx, out);
		break;
	case RS_EV_MEMCG_LRUVEC:
		on_lruvec(m, ev, ctx, out);
		break;
	case RS_EV_LRU_ISOLATE:
		on_isolate(m, ev, ctx, out);
		break;
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_SHRINK_ACTIVE:
		on_shrink(m, ev, ctx, out);
		break;
	case RS_EV_RECLAIM_BEGIN:
		on_begin(m, ev, ctx);
		break;
	case RS_EV_RECLAIM_END:
		if (ev->have & RS_HAVE_MEMCG_ID)
			m->facts.kernel_roots = true;
		break;
	case RS_EV_SLAB_START:
	case RS_EV_SLAB_END:
		/* 7.1+: the memcg whose slab objects are shrunk (0: not memcg aware) */
		if (ev->have & RS_HAVE_MEMCG_ID) {
			m->facts.slab_memcgs = true;
			if (ev->slab.memcg_id)
				out->named = mc_of_id(m, ev->slab.memcg_id);
		}
		break;
	default:
		break;
	}
	/* the task's memcg: cached per pid until the task map changes (most events repeat a pid) */
	if (ev->pid != m->last_pid || m->last_gen != m->task_gen) {
		m->last_pid = ev->pid;
		m->last_gen = m->task_gen;
		m->last_row = rs_memcgs_task(m, ev->pid);
	}
	out->task = m->last_row;
	if (ctx->serial && (t = task_of(m, ctx->task, false))) {
		struct mc_ep *e = ep_find(t, ctx->serial);

		if (e)
			out->root = &e->root;
	}
}

void rs_memcgs_prefeed(struct rs_memcgs *m, const struct rs_event *ev)
{
	m->prefeeding = true;
	switch (ev->type) {
	case RS_EV_ITEM_NAMES:
		mc_item_names(m, &ev->items);
		break;
	case RS_EV_CGROUP_MAP:
	case RS_EV_TASK_CGROUP:
	case RS_EV_SNAP_MEMCG:	/* who it is, not its figures: those belong to the range */
	case RS_EV_CGROUP:
	case RS_EV_CGROUP_ATTACH:
	case RS_EV_FORK:
		mc_identity_event(m, ev);
		break;
	default:
		break;
	}
	m->prefeeding = false;
}

/* ---- lifecycle and readers ---- */

struct rs_memcgs *rs_memcgs_new(const struct rs_memcgs_opts *o)
{
	struct rs_memcgs *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->o = *o;
	m->overflow_row = m->unknown_row = -1;
	m->mem_root = -1;
	m->last_pid = -1;
	m->last_gen = UINT64_MAX;
	m->tasks.max_used = o->max_tasks ? o->max_tasks : RS_EPISODES_MAX_TASKS;
	mc_items_init(m);
	return m;
}

void rs_memcgs_set_caps(struct rs_memcgs *m, size_t max_memcgs, size_t max_tasks)
{
	if (max_memcgs)
		m->o.max_memcgs = max_memcgs;
	if (max_tasks)
		m->tasks.max_used = max_tasks;
}

void rs_memcgs_free(struct rs_memcgs *m)
{
	if (!m)
		return;
	mc_ids_free(m);
	mc_items_free(m);
	free(m->t);
	free(m);
}

int rs_memcgs_count(const struct rs_memcgs *m)
{
	return m->nr;
}

const struct rs_memcg *rs_memcgs_get(const struct rs_memcgs *m, int row)
{
	return row >= 0 && row < m->nr ? &m->rows[row] : NULL;
}

uint64_t rs_memcgs_generation(const struct rs_memcgs *m)
{
	return m->gen;
}

const struct rs_memcgs_facts *rs_memcgs_facts(const struct rs_memcgs *m)
{
	return &m->facts;
}

size_t rs_memcgs_max(const struct rs_memcgs *m)
{
	return m->o.max_memcgs ? m->o.max_memcgs : RS_MEMCG_MAX_DEFAULT;
}

/* Item `item` of a recorder's name table (vm_event_items or node_stat_items), NULL unnamed. */
static const char *name_in(char *const *names, int nr, int item)
{
	return item >= 0 && item < nr && names[item][0] ? names[item] : NULL;
}

const char *rs_memcgs_item_name(const struct rs_memcgs *m, int item)
{
	return name_in(m->item_names, m->nr_item_names, item);
}

bool rs_memcgs_item_is_reclaim(const struct rs_memcgs *m, int item)
{
	return item >= 0 && item < m->nr_item_names && m->item_reclaim[item];
}

bool rs_memcgs_have_item_class(const struct rs_memcgs *m, int cls)
{
	for (int i = 0; i < m->nr_item_names; i++)
		if (m->item_cls[i] == cls)
			return true;
	return false;
}

const char *rs_memcgs_node_item_name(const struct rs_memcgs *m, int item)
{
	return name_in(m->node_names, m->nr_node_names, item);
}

bool rs_memcgs_node_item_was_vm_event(const struct rs_memcgs *m, int item)
{
	return item >= 0 && item < m->nr_node_names && m->node_moved[item];
}

bool rs_memcgs_oom(const struct rs_memcgs *m)
{
	return m->oom;
}
