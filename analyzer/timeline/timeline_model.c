// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline model (include/timeline_model.h): view geometry, cursor and markers, lanes and
 * sub-lanes, metric, grouping and filter, stall jumps. No curses and no I/O. The binning and
 * the statistics are in timeline_bin.c.
 *
 * Invariants kept by every action: cols >= 1, cw >= 1, the window [t0, t0 + cols cw) lies
 * inside the extent or contains it, the cursor lies inside the window and the extent, and
 * rows_dirty / cells_dirty say what tl_model_update() must recompute.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_cmp.h"
#include "rs_grow.h"
#include "rs_search.h"
#include "timeline_model_state.h"

static const char *const metric_names[TL_M_NR] = {
	"scanned", "reclaimed", "efficiency", "stall time"
};
static const char *const group_names[TL_G_NR] = { "task", "trigger cgroup", "victim cgroup" };
#define NONE { -1 }
#define CTX(k) { TL_S_CTX_TIME + (k), TL_S_CTX_SCAN + (k), -1 }

/* Every lane, in screen order (enum tl_lane). */
static const struct tl_lane_def lanes[TL_L_NR] = {
	[TL_L_IA] = { "inactive_anon", "IA", TL_K_ANON, -1, -1, NONE },
	[TL_L_AA] = { "active_anon", "AA", TL_K_ANON, -1, -1, NONE },
	[TL_L_IF] = { "inactive_file", "IF", TL_K_FILE, -1, -1, NONE },
	[TL_L_AF] = { "active_file", "AF", TL_K_FILE, -1, -1, NONE },
	[TL_L_RECLAIMED] = { "reclaimed", "recl", TL_K_OTHER, TL_SCALE_RATE, -1, NONE },
	[TL_L_EFFICIENCY] = { "efficiency", "eff", TL_K_OTHER, TL_SCALE_FRACTION, -1,
			      { TL_S_BASE + RS_LRU_INACTIVE_ANON, TL_S_BASE + RS_LRU_INACTIVE_FILE,
				-1 } },
	[TL_L_KSWAPD] = { "kswapd", "kswpd", TL_K_KSWAPD, -1, -1, CTX(RS_CTX_KSWAPD) },
	[TL_L_DIRECT] = { "direct", "dir", TL_K_STALL, -1, -1, { TL_S_CTX_TIME + RS_CTX_DIRECT, -1 } },
	[TL_L_MEMCG] = { "memcg", "memcg", TL_K_STALL, -1, -1, { TL_S_CTX_TIME + RS_CTX_MEMCG, -1 } },
	[TL_L_SOFTLIMIT] = { "softlimit", "soft", TL_K_STALL, -1, -1,
			     { TL_S_CTX_TIME + RS_CTX_SOFTLIMIT, -1 } },
	[TL_L_NODE] = { "node", "node", TL_K_STALL, -1, -1, { TL_S_CTX_TIME + RS_CTX_NODE, -1 } },
	[TL_L_PRIORITY] = { "priority", "prio", TL_K_OTHER, TL_SCALE_PRIORITY, -1, { TL_S_PRIO, -1 } },
	[TL_L_WRITE] = { "write", "write", TL_K_OTHER, TL_SCALE_RATE, TL_S_WRITE, { TL_S_WRITE, -1 } },
	[TL_L_THROTTLE] = { "throttle", "throt", TL_K_OTHER, TL_SCALE_FRACTION, -1,
			    { TL_S_THROTTLE, -1 } },
	[TL_L_REFAULT] = { "refaults", "refl", TL_K_FILE, TL_SCALE_RATE, TL_S_REFAULT,
			   { TL_S_REFAULT, -1 } },
	[TL_L_THRASH] = { "thrashing", "thrsh", TL_K_FILE, TL_SCALE_RATE, TL_S_QUICK,
			  { TL_S_QUICK, -1 } },
	[TL_L_MARKS] = { "marks", "marks", TL_K_MARK, TL_SCALE_MARK, -1,
			 { TL_S_OOM, TL_S_LOST, TL_S_KFAIL, TL_S_KCLEAR } },
};

#undef NONE
#undef CTX

const struct tl_lane_def *tl_lane_def(int lane)
{
	return lane >= 0 && lane < TL_L_NR ? &lanes[lane] : NULL;
}

const char *tl_metric_name(int metric)
{
	return metric >= 0 && metric < TL_M_NR ? metric_names[metric] : "?";
}

const char *tl_group_name(int group)
{
	return group >= 0 && group < TL_G_NR ? group_names[group] : "?";
}

const char *tl_lane_name(int lane)
{
	return lane >= 0 && lane < TL_L_NR ? lanes[lane].name : "?";
}

/* MGLRU's lists are generations of a type: lru_isolate names the oldest as "inactive". */
static const char *mglru_lane_name(const struct tl_model *m, int lane)
{
	if (!tl_index_mglru(m->ix))
		return NULL;
	return lane == TL_L_IA ? "anon" : lane == TL_L_IF ? "file" : NULL;
}

const char *tl_model_lane_name(const struct tl_model *m, int lane)
{
	const char *n = mglru_lane_name(m, lane);

	return n ? n : tl_lane_name(lane);
}

const char *tl_model_lane_short(const struct tl_model *m, int lane)
{
	const char *n = mglru_lane_name(m, lane);

	return n ? n : lane >= 0 && lane < TL_L_NR ? lanes[lane].short_name : "?";
}
/* ---- geometry ---- */

uint64_t tlm_cw_all(const struct tl_model *m)
{
	uint64_t span = m->end - m->first;
	uint64_t cw = (span + (uint64_t)m->cols - 1) / (uint64_t)m->cols;

	return cw ? cw : 1;
}

void tlm_refresh_extent(struct tl_model *m)
{
	uint64_t first, last;

	tl_index_span(m->ix, &first, &last);
	if (last < first)
		last = first;
	m->first = first;
	m->end = last + 1;
	if (m->end - m->first < (uint64_t)m->cols)
		m->end = m->first + (uint64_t)m->cols;
}

void tlm_clamp_view(struct tl_model *m)
{
	uint64_t w, lo, hi;

	if (m->cw < 1)
		m->cw = 1;
	if (m->cw > tlm_cw_all(m))
		m->cw = tlm_cw_all(m);
	w = window_ns(m);
	if (w >= m->end - m->first) {
		lo = m->end > w ? m->end - w : 0;
		hi = m->first;
	} else {
		lo = m->first;
		hi = m->end - w;
	}
	if (m->t0 < lo)
		m->t0 = lo;
	if (m->t0 > hi)
		m->t0 = hi;
	if (m->cursor < m->t0)
		m->cursor = m->t0;
	if (m->cursor >= m->t0 + w)
		m->cursor = m->t0 + w - 1;
	if (m->cursor < m->first)
		m->cursor = m->first;
	if (m->cursor >= m->end)
		m->cursor = m->end - 1;
	m->view_all = m->t0 <= m->first && m->t0 + w >= m->end;
	m->cells_dirty = true;
}

void tl_model_set_columns(struct tl_model *m, int cols)
{
	int col;

	if (cols < 1)
		cols = 1;
	if (cols > TL_MAX_COLS)
		cols = TL_MAX_COLS;
	if (cols == m->cols)
		return;
	col = tl_model_cursor_col(m);
	m->cols = cols;
	free(m->cb);
	free(m->raw);
	m->cb = calloc((size_t)TL_S_NR * (size_t)cols, sizeof(*m->cb));
	m->raw = calloc((size_t)TL_S_NR * (size_t)cols, sizeof(*m->raw));
	m->raw_valid = false;
	m->cells_cap = 0;		/* reallocate the cells */
	tlm_refresh_extent(m);
	if (m->view_all) {
		m->cw = tlm_cw_all(m);
		m->t0 = m->first;
	} else if (col >= cols) {
		m->t0 = m->cursor - (uint64_t)(cols - 1) * m->cw;
	}
	tlm_clamp_view(m);
	m->rows_dirty = true;
}

int tl_model_columns(const struct tl_model *m)
{
	return m->cols;
}

void tl_model_window(const struct tl_model *m, uint64_t *t0, uint64_t *t1)
{
	*t0 = m->t0;
	*t1 = m->t0 + window_ns(m);
}

uint64_t tl_model_col_width(const struct tl_model *m)
{
	return m->cw;
}

uint64_t tl_model_col_ts(const struct tl_model *m, int col)
{
	return m->t0 + (uint64_t)col * m->cw;
}

void tl_model_extent(const struct tl_model *m, uint64_t *first, uint64_t *end)
{
	*first = m->first;
	*end = m->end;
}

void tl_model_zoom_all(struct tl_model *m)
{
	m->cw = tlm_cw_all(m);
	m->t0 = m->first;
	tlm_clamp_view(m);
}

void tl_model_zoom(struct tl_model *m, int steps)
{
	for (; steps != 0; steps += steps > 0 ? -1 : 1) {
		uint64_t off = m->cursor - m->t0, col = off / m->cw, within = off % m->cw;
		uint64_t ncw = steps > 0 ? m->cw / 2 : m->cw * 2;
		uint64_t back;

		if (ncw < 1)
			ncw = 1;
		if (ncw > tlm_cw_all(m))
			ncw = tlm_cw_all(m);
		if (ncw == m->cw)
			break;
		back = col * ncw + (uint64_t)((double)within * (double)ncw / (double)m->cw);
		m->cw = ncw;
		m->t0 = m->cursor > back ? m->cursor - back : 0;
		tlm_clamp_view(m);
	}
}

void tl_model_zoom_range(struct tl_model *m, uint64_t a, uint64_t b)
{
	if (b <= a)
		b = a + 1;
	m->cw = (b - a + (uint64_t)m->cols - 1) / (uint64_t)m->cols;
	m->t0 = a;
	tlm_clamp_view(m);
}

void tl_model_pan(struct tl_model *m, int cols)
{
	uint64_t d = (uint64_t)(cols < 0 ? -(int64_t)cols : cols) * m->cw;

	if (cols < 0) {
		m->t0 = m->t0 > d ? m->t0 - d : 0;
		m->cursor = m->cursor > d ? m->cursor - d : 0;
	} else {
		m->t0 += d;
		m->cursor += d;
	}
	tlm_clamp_view(m);
}

/* ---- cursor and markers ---- */

void tl_model_cursor_move(struct tl_model *m, int cols)
{
	uint64_t d = (uint64_t)(cols < 0 ? -(int64_t)cols : cols) * m->cw;
	uint64_t w = window_ns(m);

	if (cols < 0)
		m->cursor = m->cursor - m->first > d ? m->cursor - d : m->first;
	else
		m->cursor = m->end - 1 - m->cursor > d ? m->cursor + d : m->end - 1;
	if (m->cursor < m->t0)
		m->t0 = m->t0 - ((m->t0 - m->cursor + m->cw - 1) / m->cw) * m->cw;
	else if (m->cursor >= m->t0 + w)
		m->t0 += ((m->cursor - (m->t0 + w)) / m->cw + 1) * m->cw;
	tlm_clamp_view(m);
}

void tl_model_cursor_set(struct tl_model *m, uint64_t ts)
{
	uint64_t w = window_ns(m);

	m->cursor = ts;
	if (ts < m->t0 || ts >= m->t0 + w)
		m->t0 = ts > w / 2 ? ts - w / 2 : 0;
	tlm_clamp_view(m);
	m->cursor = ts < m->first ? m->first : ts >= m->end ? m->end - 1 : ts;
	if (m->cursor < m->t0 || m->cursor >= m->t0 + w)
		tlm_clamp_view(m);
}

uint64_t tl_model_cursor_ts(const struct tl_model *m)
{
	return m->cursor;
}

int tl_model_cursor_col(const struct tl_model *m)
{
	if (!m->cw || m->cursor < m->t0)
		return 0;
	return (int)((m->cursor - m->t0) / m->cw);
}

void tl_model_cursor_range(const struct tl_model *m, uint64_t *t0, uint64_t *t1)
{
	*t0 = tl_model_col_ts(m, tl_model_cursor_col(m));
	*t1 = *t0 + m->cw;
}

void tl_model_set_marker(struct tl_model *m, int which)
{
	if (which < 0 || which > 1)
		return;
	m->mark_set[which] = true;
	m->mark[which] = m->cursor;
}

void tl_model_clear_markers(struct tl_model *m)
{
	m->mark_set[0] = m->mark_set[1] = false;
}

bool tl_model_marker(const struct tl_model *m, int which, uint64_t *ts)
{
	if (which < 0 || which > 1 || !m->mark_set[which])
		return false;
	*ts = m->mark[which];
	return true;
}

int tl_model_marker_col(const struct tl_model *m, int which)
{
	uint64_t ts;

	if (!tl_model_marker(m, which, &ts) || ts < m->t0 || ts >= m->t0 + window_ns(m))
		return -1;
	return (int)((ts - m->t0) / m->cw);
}

bool tl_model_marked_range(const struct tl_model *m, uint64_t *a, uint64_t *b)
{
	if (!m->mark_set[0] || !m->mark_set[1])
		return false;
	*a = m->mark[0] < m->mark[1] ? m->mark[0] : m->mark[1];
	*b = m->mark[0] < m->mark[1] ? m->mark[1] : m->mark[0];
	if (*b == *a)
		(*b)++;
	return true;
}

/* ---- metric, grouping, filter ---- */

/* A choice of the view (metric, grouping) set when in range and new: the rows follow it. */
static void set_choice(struct tl_model *m, int *choice, int v, int nr)
{
	if (v < 0 || v >= nr || v == *choice)
		return;
	*choice = v;
	m->rows_dirty = true;
}

void tl_model_set_metric(struct tl_model *m, int metric)
{
	set_choice(m, &m->metric, metric, TL_M_NR);
}

int tl_model_metric(const struct tl_model *m)
{
	return m->metric;
}

void tl_model_set_group(struct tl_model *m, int group)
{
	set_choice(m, &m->group, group, TL_G_NR);
}

int tl_model_group(const struct tl_model *m)
{
	return m->group;
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return true;
	for (; *hay; hay++) {
		size_t i;

		for (i = 0; i < n && hay[i] &&
		     tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]); i++)
			;
		if (i == n)
			return true;
	}
	return false;
}

void tl_model_task_name(const struct tl_model *m, uint32_t task, char *buf, size_t len)
{
	const struct tl_task *t = tl_index_task(m->ix, task);

	if (!t)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s:%d", t->comm[0] ? t->comm : "?", t->pid);
}

const char *tl_model_cgroup_name(const struct tl_model *m, uint32_t cg)
{
	return tl_index_cgroup_name(m->ix, cg);
}

/* Match tables of tasks and cgroups for the filter; sized to the index now. */
static void update_matches(struct tl_model *m)
{
	size_t nt = (size_t)tl_index_ntasks(m->ix);
	size_t nc = (size_t)tl_index_cgroups(m->ix);
	char name[64];

	free(m->tmatch);
	free(m->cmatch);
	m->tmatch = calloc(nt ? nt : 1, sizeof(bool));
	m->cmatch = calloc(nc, sizeof(bool));
	m->ntmatch = m->tmatch ? nt : 0;
	m->ncmatch = m->cmatch ? nc : 0;
	if (!m->filter[0])
		return;
	for (size_t i = 0; i < m->ntmatch; i++) {
		tl_model_task_name(m, (uint32_t)i, name, sizeof(name));
		m->tmatch[i] = contains_ci(name, m->filter);
	}
	for (size_t i = 1; i < m->ncmatch; i++)
		m->cmatch[i] = contains_ci(tl_model_cgroup_name(m, (uint32_t)i), m->filter);
}

static bool cg_match(const struct tl_model *m, uint32_t cg)
{
	return cg < m->ncmatch && m->cmatch[cg];
}

bool tlm_span_match(const struct tl_model *m, const struct tl_span *s)
{
	const struct tl_victim *v = tl_index_victims(m->ix);

	if (!m->filter[0])
		return true;
	if (s->task < m->ntmatch && m->tmatch[s->task])
		return true;
	if (cg_match(m, s->trigger))
		return true;
	for (int i = 0; i < s->nr_victims; i++)
		if (cg_match(m, v[s->victim_off + (uint32_t)i].cg))
			return true;
	return false;
}

static uint32_t top_victim(const struct tl_model *m, const struct tl_span *s)
{
	const struct tl_victim *v = tl_index_victims(m->ix) + s->victim_off;
	uint32_t best = 0, best_scan = 0;

	for (int i = 0; i < s->nr_victims; i++) {
		if (!best || v[i].scanned > best_scan) {
			best = v[i].cg;
			best_scan = v[i].scanned;
		}
	}
	return best;
}

uint64_t tlm_span_key(const struct tl_model *m, const struct tl_span *s)
{
	switch (m->group) {
	case TL_G_TRIGGER:
		return s->trigger;
	case TL_G_VICTIM:
		return top_victim(m, s);
	default:
		return s->task;
	}
}

int tl_model_set_filter(struct tl_model *m, const char *text)
{
	int n = 0;

	snprintf(m->filter, sizeof(m->filter), "%s", text ? text : "");
	/* the rows now; the cells at the next tl_model_update() (timeline_bin.c, which calls
	   this file, never the other way) */
	tlm_rebuild_rows(m);
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].sub >= 0)
			n++;
	return n;
}

const char *tl_model_filter(const struct tl_model *m)
{
	return m->filter;
}

/* ---- lanes and rows ---- */

static bool lane_has_data(const struct tl_model *m, int lane)
{
	const int *d = lanes[lane].data;

	if (d[0] < 0)
		return true;		/* the core lanes: empty says "nothing scanned" */
	for (int i = 0; i < 4 && d[i] >= 0; i++)
		if (tl_index_total(m->ix, d[i])->cnt)
			return true;
	return false;
}

bool tl_model_lane_visible(const struct tl_model *m, int lane)
{
	if (lane < 0 || lane >= TL_L_NR)
		return false;
	/* MGLRU has no active lists: not even an empty lane for them */
	if (tl_index_mglru(m->ix) && (lane == TL_L_AA || lane == TL_L_AF))
		return false;
	if (m->show_all)
		return true;
	return !m->lane_hidden[lane] && lane_has_data(m, lane);
}

static struct tl_row *add_row(struct tl_model *m)
{
	if (rs_grow_rows(&m->cap_rows, m->nrows, 64, (const struct rs_grow_array[]){
			{ (void **)&m->rows, sizeof(*m->rows) } }, 1))
		return NULL;
	memset(&m->rows[m->nrows], 0, sizeof(m->rows[0]));
	return &m->rows[m->nrows++];
}

static enum tl_scale lane_scale(const struct tl_model *m, int lane)
{
	if (lanes[lane].scale >= 0)
		return (enum tl_scale)lanes[lane].scale;
	return m->metric == TL_M_EFFICIENCY || (m->metric == TL_M_STALL && span_lane(lane)) ?
		TL_SCALE_FRACTION : TL_SCALE_RATE;
}

struct keytot {
	uint64_t key, ns;
};

static int cmp_keytot(const void *a, const void *b)
{
	const struct keytot *x = a, *y = b;

	return RS_CMP(y->ns, x->ns) ?: RS_CMP(x->key, y->key);
}

/* Sub-lanes of the span lanes that show them, by time in spans (desc). */
static void add_sublanes(struct tl_model *m, int lane, uint64_t *ns, bool *match, size_t nkeys)
{
	struct keytot *kt;
	size_t n = 0;
	int row0 = m->nrows - 1;

	kt = malloc((nkeys ? nkeys : 1) * sizeof(*kt));
	if (!kt)
		return;
	for (size_t k = 0; k < nkeys; k++)
		if (match[k])
			kt[n++] = (struct keytot){ k, ns[k] };
	qsort(kt, n, sizeof(*kt), cmp_keytot);
	for (size_t i = 0; i < n; i++) {
		struct tl_row *r;

		if (i >= TL_MAX_SUBLANES) {
			m->rows[row0].hidden_subs = (int)(n - i);
			break;
		}
		r = add_row(m);
		if (!r)
			break;
		r->lane = lane;
		r->sub = (int)i;
		r->key = (uint32_t)kt[i].key;
		r->scale = m->metric == TL_M_STALL || m->metric == TL_M_EFFICIENCY ?
			TL_SCALE_FRACTION : TL_SCALE_RATE;
		if (m->group == TL_G_TASK)
			tl_model_task_name(m, r->key, r->name, sizeof(r->name));
		else
			snprintf(r->name, sizeof(r->name), "%s", tl_model_cgroup_name(m, r->key));
		m->keyrow[lane - TL_L_KSWAPD][kt[i].key] = m->nrows - 1;
	}
	free(kt);
}

bool tlm_ensure_cells(struct tl_model *m)
{
	size_t n;

	if (m->nrows <= m->cells_cap && m->cells)
		return true;
	n = (size_t)(m->nrows > 16 ? m->nrows : 16) * (size_t)m->cols;
	free(m->cells);
	free(m->tpages);
	m->cells = calloc(n, sizeof(*m->cells));
	m->tpages = calloc(n, sizeof(*m->tpages));
	if (!m->cells || !m->tpages) {
		m->cells_cap = 0;
		return false;
	}
	m->cells_cap = m->nrows > 16 ? m->nrows : 16;
	return true;
}

void tlm_rebuild_rows(struct tl_model *m)
{
	const struct tl_span *sp = tl_index_spans(m->ix);
	size_t nsp = tl_index_nspans(m->ix);
	uint64_t *ns[NR_SPAN_LANES] = { 0 };
	bool *match[NR_SPAN_LANES] = { 0 };
	bool any_sub = false;
	size_t nkeys;

	update_matches(m);
	nkeys = m->group == TL_G_TASK ? (size_t)tl_index_ntasks(m->ix) :
		(size_t)tl_index_cgroups(m->ix);
	if (!nkeys)
		nkeys = 1;
	for (int l = 0; l < NR_SPAN_LANES; l++) {
		free(m->keyrow[l]);
		m->keyrow[l] = malloc(nkeys * sizeof(int32_t));
		if (m->keyrow[l])
			for (size_t k = 0; k < nkeys; k++)
				m->keyrow[l][k] = -1;
		if (m->expanded[TL_L_KSWAPD + l] || m->filter[0]) {
			ns[l] = calloc(nkeys, sizeof(uint64_t));
			match[l] = calloc(nkeys, sizeof(bool));
			any_sub = true;
		}
	}
	m->nkeys = nkeys;
	if (any_sub) {
		for (size_t i = 0; i < nsp; i++) {
			int lane = ctx_lane(sp[i].kind), l;
			uint64_t k;

			if (lane < 0)
				continue;
			l = lane - TL_L_KSWAPD;
			if (!ns[l] || !match[l])
				continue;
			k = tlm_span_key(m, &sp[i]);
			if (k >= nkeys)
				continue;
			ns[l][k] += span_dur(&sp[i]);
			if (tlm_span_match(m, &sp[i]))
				match[l][k] = true;
		}
	}
	m->nrows = 0;
	for (int lane = 0; lane < TL_L_NR; lane++) {
		struct tl_row *r;

		if (!tl_model_lane_visible(m, lane))
			continue;
		r = add_row(m);
		if (!r)
			break;
		r->lane = lane;
		r->sub = -1;
		r->scale = lane_scale(m, lane);
		snprintf(r->name, sizeof(r->name), "%s", tl_model_lane_name(m, lane));
		if (span_lane(lane)) {
			int l = lane - TL_L_KSWAPD;

			r->expandable = true;
			r->expanded = m->expanded[lane] || m->filter[0];
			if (r->expanded && ns[l] && match[l] && m->keyrow[l])
				add_sublanes(m, lane, ns[l], match[l], nkeys);
		}
	}
	for (int l = 0; l < NR_SPAN_LANES; l++) {
		free(ns[l]);
		free(match[l]);
	}
	/* keep the selection on the same lane / sub-lane */
	m->sel_row = 0;
	for (int i = 0; i < m->nrows; i++) {
		if (m->rows[i].lane == m->sel_lane &&
		    (m->rows[i].sub < 0 ? m->sel_sub < 0 :
		     m->sel_sub >= 0 && m->rows[i].key == m->sel_key)) {
			m->sel_row = i;
			break;
		}
		if (m->rows[i].lane == m->sel_lane && m->rows[i].sub < 0)
			m->sel_row = i;	/* fall back to the lane */
	}
	tlm_ensure_cells(m);
	m->rows_dirty = false;
	m->cells_dirty = true;
}

int tl_model_nrows(struct tl_model *m)
{
	return m->nrows;
}

const struct tl_row *tl_model_row(struct tl_model *m, int i)
{
	return i >= 0 && i < m->nrows ? &m->rows[i] : NULL;
}

const struct tl_cell *tl_model_cells(struct tl_model *m, int i)
{
	if (i < 0 || i >= m->nrows || !m->cells || i >= m->cells_cap)
		return NULL;
	return &m->cells[(size_t)i * (size_t)m->cols];
}

static void remember_selection(struct tl_model *m)
{
	const struct tl_row *r = tl_model_row(m, m->sel_row);

	if (!r)
		return;
	m->sel_lane = r->lane;
	m->sel_sub = r->sub;
	m->sel_key = r->key;
}

int tl_model_selected_row(struct tl_model *m)
{
	return m->sel_row;
}

void tl_model_select_row(struct tl_model *m, int delta)
{
	int r = m->sel_row + delta;

	if (r >= m->nrows)
		r = m->nrows - 1;
	if (r < 0)
		r = 0;
	m->sel_row = r;
	remember_selection(m);
}

bool tl_model_toggle_expand(struct tl_model *m)
{
	const struct tl_row *r = tl_model_row(m, m->sel_row);

	if (!r || !span_lane(r->lane))
		return false;
	m->expanded[r->lane] = !r->expanded;
	m->sel_lane = r->lane;
	m->sel_sub = -1;
	m->rows_dirty = true;
	return true;
}

void tl_model_hide_row(struct tl_model *m)
{
	const struct tl_row *r = tl_model_row(m, m->sel_row);

	if (!r)
		return;
	m->lane_hidden[r->lane] = true;
	m->show_all = false;
	/* select the next visible lane */
	for (int i = m->sel_row + 1; i < m->nrows; i++) {
		if (m->rows[i].lane != r->lane) {
			m->sel_lane = m->rows[i].lane;
			m->sel_sub = m->rows[i].sub;
			m->sel_key = m->rows[i].key;
			break;
		}
	}
	m->rows_dirty = true;
}

void tl_model_show_all(struct tl_model *m)
{
	memset(m->lane_hidden, 0, sizeof(m->lane_hidden));
	m->show_all = true;
	m->rows_dirty = true;
}

/* ---- stalls ---- */

void tl_model_set_threshold(struct tl_model *m, uint64_t ns)
{
	m->threshold = ns;
}

uint64_t tl_model_threshold(const struct tl_model *m)
{
	return m->threshold;
}

static bool jump_candidate(const struct tl_model *m, const struct tl_span *s)
{
	return stall_kind(s->kind) && span_dur(s) >= m->threshold && tlm_span_match(m, s);
}

/* First span with begin > ts (sorted spans). */
size_t tlm_upper_bound(const struct tl_span *sp, size_t n, uint64_t ts)
{
	return RS_UPPER_BOUND(sp, n, begin, ts);
}

static void select_span(struct tl_model *m, const struct tl_span *s)
{
	m->sel = *s;
	m->sel_valid = true;
	m->cells_dirty = true;
}

int tl_model_jump(struct tl_model *m, int dir)
{
	const struct tl_span *sp = tl_index_spans(m->ix), *best = NULL;
	size_t n = tl_index_nspans(m->ix);
	uint64_t ref = m->cursor;

	if (tl_index_spans_sorted(m->ix)) {
		size_t i = tlm_upper_bound(sp, n, ref);

		if (dir > 0) {
			for (; i < n && !best; i++)
				if (jump_candidate(m, &sp[i]))
					best = &sp[i];
		} else {
			/* spans before i have begin <= ref; skip those at ref */
			while (i > 0 && !best) {
				i--;
				if (sp[i].begin < ref && jump_candidate(m, &sp[i]))
					best = &sp[i];
			}
		}
	} else {
		for (size_t i = 0; i < n; i++) {
			if (!jump_candidate(m, &sp[i]))
				continue;
			if (dir > 0 ? sp[i].begin > ref && (!best || sp[i].begin < best->begin) :
			    sp[i].begin < ref && (!best || sp[i].begin > best->begin))
				best = &sp[i];
		}
	}
	if (!best)
		return -1;
	select_span(m, best);
	tl_model_cursor_set(m, best->begin);
	return 0;
}

int tl_model_jump_worst(struct tl_model *m)
{
	const struct tl_span *sp = tl_index_spans(m->ix), *best = NULL;
	size_t n = tl_index_nspans(m->ix);
	uint64_t d;

	for (size_t i = 0; i < n; i++) {
		if (!stall_kind(sp[i].kind) || !tlm_span_match(m, &sp[i]))
			continue;
		if (!best || span_dur(&sp[i]) > span_dur(best) ||
		    (span_dur(&sp[i]) == span_dur(best) && sp[i].begin < best->begin))
			best = &sp[i];
	}
	if (!best)
		return -1;
	select_span(m, best);
	d = span_dur(best);
	tl_model_zoom_range(m, best->begin > d / 2 ? best->begin - d / 2 : 0,
			    best->end + d / 2 + 1);
	tl_model_cursor_set(m, best->begin);
	return 0;
}

const struct tl_span *tl_model_selected_span(const struct tl_model *m)
{
	return m->sel_valid ? &m->sel : NULL;
}
/* ---- lifecycle ---- */

struct tl_model *tl_model_new(const struct tl_index *ix)
{
	struct tl_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->ix = ix;
	m->cw = 1;
	m->view_all = true;
	m->threshold = 10000000;	/* 10 ms */
	m->sel_lane = TL_L_IA;
	m->sel_sub = -1;
	m->rows_dirty = true;
	m->cells_dirty = true;
	m->seen_events = UINT64_MAX;
	tl_model_set_columns(m, 80);
	if (!m->cb || !m->raw) {
		tl_model_free(m);
		return NULL;
	}
	tl_model_zoom_all(m);
	return m;
}

const struct tl_index *tl_model_index(const struct tl_model *m)
{
	return m->ix;
}

void tl_model_free(struct tl_model *m)
{
	if (!m)
		return;
	free(m->rows);
	free(m->cells);
	free(m->tpages);
	for (int l = 0; l < NR_SPAN_LANES; l++)
		free(m->keyrow[l]);
	free(m->tmatch);
	free(m->cmatch);
	free(m->cb);
	free(m->raw);
	free(m->rs);
	free(m);
}
