// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline model's binning (include/timeline_model.h): index buckets or re-read events onto
 * screen columns, row cells by metric, and the statistics of a time range. No curses, no I/O.
 *
 * Columns of series are kept in `cb` (series-major: cb[s * cols + c]); a bucket is spread over
 * the columns it overlaps in proportion (its count goes whole to the first, so a mark is drawn
 * once). Span lanes take their time from the index's series, or from the span list when the
 * figures must be exact (sub-lanes, and below the finest bucket).
 */
#include <stdlib.h>
#include <string.h>

#include "rs_cmp.h"
#include "rs_grow.h"
#include "series.h"
#include "timeline_model_state.h"

/* ---- binning ---- */

static bool raw_wanted(const struct tl_model *m)
{
	return m->cw < tl_index_width(m->ix, 0);
}

static bool raw_matches(const struct tl_model *m)
{
	return m->raw_valid && m->raw_t0 == m->t0 && m->raw_cw == m->cw &&
	       m->raw_cols == m->cols;
}

bool tl_model_needs_range(struct tl_model *m, uint64_t *t0, uint64_t *t1)
{
	if (!raw_wanted(m) || raw_matches(m))
		return false;
	tl_model_window(m, t0, t1);
	return true;
}

static int cmp_cspan(const void *a, const void *b)
{
	const struct cspan *x = a, *y = b;

	return RS_CMP(x->pid, y->pid) ?: RS_CMP(x->begin, y->begin);
}


const struct tl_span *tlm_spans_end(const struct tl_model *m)
{
	const struct tl_span *sp = tl_index_spans(m->ix);

	return sp ? sp + tl_index_nspans(m->ix) : NULL;
}

const struct tl_span *tlm_spans_from(const struct tl_model *m, uint64_t t0)
{
	const struct tl_span *sp = tl_index_spans(m->ix);
	size_t n = tl_index_nspans(m->ix);
	uint64_t back = tl_index_max_span(m->ix);

	if (!sp || !n)
		return NULL;
	if (!tl_index_spans_sorted(m->ix))
		return sp;
	/* a span overlapping t0 began at most max_span before it */
	return sp + tlm_upper_bound(sp, n, t0 > back ? t0 - back - 1 : 0);
}

void tl_model_raw_begin(struct tl_model *m)
{
	uint64_t t0 = m->t0, t1 = m->t0 + window_ns(m);

	m->raw_busy = true;
	m->raw_valid = false;
	m->raw_t0 = m->t0;
	m->raw_cw = m->cw;
	m->raw_cols = m->cols;
	m->raw_events = 0;
	if (m->raw)
		memset(m->raw, 0, (size_t)TL_S_NR * (size_t)m->cols * sizeof(*m->raw));
	m->nrs = 0;
	FOR_SPANS_IN(m, t0, t1, s) {
		if (RS_GROW(m->rs, m->cap_rs, m->nrs + 1, 256))
			break;
		m->rs[m->nrs++] = (struct cspan){ s->pid, s->kind, s->begin, s->end };
	}
	if (m->nrs > 1)
		qsort(m->rs, m->nrs, sizeof(*m->rs), cmp_cspan);
}

int tl_model_context_at(const struct tl_model *m, int pid, uint64_t ts)
{
	size_t lo = 0, hi = m->nrs;
	int kind = -1;
	uint32_t task;
	const struct tl_task *t;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->rs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the innermost: the latest begin among this pid's spans covering ts */
	for (size_t i = lo; i < m->nrs && m->rs[i].pid == pid && m->rs[i].begin <= ts; i++)
		if (ts <= m->rs[i].end && (kind < 0 || m->rs[i].kind != RS_CTX_KSWAPD))
			kind = m->rs[i].kind;
	if (kind >= 0)
		return kind;
	task = tl_index_task_of_pid(m->ix, pid);
	t = tl_index_task(m->ix, task);
	return t && t->kswapd ? RS_CTX_KSWAPD : RS_CTX_OTHER;
}

void tl_model_raw_event(struct tl_model *m, const struct rs_event *ev)
{
	struct tl_add adds[TL_MAX_ADDS];
	uint64_t c;
	int n;

	if (!m->raw_busy || !m->raw || ev->ts < m->raw_t0)
		return;
	c = (ev->ts - m->raw_t0) / m->raw_cw;
	if (c >= (uint64_t)m->raw_cols)
		return;
	n = tl_classify(ev, ev->pid >= 0 ? tl_model_context_at(m, ev->pid, ev->ts) :
			RS_CTX_OTHER, adds);
	for (int i = 0; i < n; i++) {
		struct colb *b = &m->raw[(size_t)adds[i].series * (size_t)m->cols + c];

		b->sum += (double)adds[i].v;
		if (adds[i].v > b->max)
			b->max = adds[i].v > UINT32_MAX ? UINT32_MAX : (uint32_t)adds[i].v;
		b->cnt++;
	}
	m->raw_events++;
}

/* Span times of every kind into the raw columns (exact, from the span list). */
static void raw_span_times(struct tl_model *m)
{
	uint64_t t0 = m->raw_t0, t1 = m->raw_t0 + m->raw_cw * (uint64_t)m->raw_cols;

	FOR_SPANS_IN(m, t0, t1, s) {
		uint64_t lo = s->begin > t0 ? s->begin : t0, hi = s->end < t1 ? s->end : t1;
		uint32_t dur_us = (uint32_t)((s->end - s->begin) / 1000 > UINT32_MAX ?
			UINT32_MAX : (s->end - s->begin) / 1000);
		int c = (int)((lo - t0) / m->raw_cw);
		struct colb *row;

		if (s->kind >= RS_CTX_NR || (s->end <= t0 && s->end > s->begin))
			continue;
		row = &m->raw[(size_t)(TL_S_CTX_TIME + s->kind) * (size_t)m->cols];
		if (s->begin >= t0 && c < m->cols)
			row[c].cnt++;
		do {
			uint64_t ce = t0 + (uint64_t)(c + 1) * m->raw_cw;
			uint64_t part = (hi < ce ? hi : ce) - lo;

			if (c >= m->cols)
				break;
			row[c].sum += (double)part;
			if (dur_us > row[c].max)
				row[c].max = dur_us;
			if (!(s->begin >= t0) && !row[c].cnt)
				row[c].cnt = 1;
			lo += part;
			c++;
		} while (lo < hi);
	}
}

void tl_model_raw_end(struct tl_model *m)
{
	if (!m->raw_busy)
		return;
	m->raw_busy = false;
	raw_span_times(m);
	m->raw_valid = true;
	m->cells_dirty = true;
}

uint64_t tl_model_raw_events(const struct tl_model *m)
{
	return m->raw_events;
}

static int pick_level(const struct tl_model *m)
{
	int levels = tl_index_levels(m->ix), l = 0;

	while (l + 1 < levels && tl_index_width(m->ix, l + 1) <= m->cw)
		l++;
	return l;
}

/* Spread the buckets of `level` over the columns (proportional sums). */
static void bin_index(struct tl_model *m, int level)
{
	uint64_t T0 = tl_index_t0(m->ix), w = tl_index_width(m->ix, level);
	uint64_t t0 = m->t0, t1 = m->t0 + window_ns(m);
	size_t b0, b1 = tl_buckets_in(T0, w, tl_index_nbuckets(m->ix, level), t0, t1, &b0);

	memset(m->cb, 0, (size_t)TL_S_NR * (size_t)m->cols * sizeof(*m->cb));
	for (size_t b = b0; b < b1; b++) {
		uint64_t bs = T0 + (uint64_t)b * w, be = bs + w;
		uint64_t lo = bs > t0 ? bs : t0, hi = be < t1 ? be : t1;
		const struct tl_bucket *bk = tl_index_bucket(m->ix, level, b, 0);
		int c;

		if (!bk || hi <= lo)
			continue;
		c = (int)((lo - t0) / m->cw);
		/* counts go whole to the first column: a mark is drawn once */
		for (bool first = true; lo < hi && c < m->cols; first = false) {
			uint64_t ce = t0 + (uint64_t)(c + 1) * m->cw;
			uint64_t ph = hi < ce ? hi : ce;
			double frac = (double)(ph - lo) / (double)w;

			for (int s = 0; s < TL_S_NR; s++) {
				struct colb *d;

				if (!bk[s].cnt && !bk[s].sum)
					continue;
				d = &m->cb[(size_t)s * (size_t)m->cols + (size_t)c];
				d->sum += (double)bk[s].sum * frac;
				if (bk[s].max > d->max)
					d->max = bk[s].max;
				if (first)
					d->cnt += bk[s].cnt;
			}
			lo = ph;
			c++;
		}
	}
}

static inline const struct colb *CB(const struct tl_model *m, int s, int c)
{
	return &m->cb[(size_t)s * (size_t)m->cols + (size_t)c];
}

/* Cells of a lane row from the series columns. */
static void lane_cells(struct tl_model *m, struct tl_row *r, struct tl_cell *cl)
{
	double secs = (double)m->cw / 1e9, num_all = 0, den_all = 0;
	int lane = r->lane;

	r->max = 0;
	r->sum = 0;
	for (int c = 0; c < m->cols; c++) {
		struct tl_cell *x = &cl[c];
		int s = -1, s2 = -1, d = -1, d2 = -1;
		double num = 0, den = 0;

		memset(x, 0, sizeof(*x));
		switch (lane) {
		case TL_L_IA: case TL_L_AA: case TL_L_IF: case TL_L_AF:
			switch (m->metric) {
			case TL_M_SCANNED: s = TL_S_SCAN + lane; break;
			case TL_M_RECLAIMED: s = TL_S_RECL + lane; break;
			case TL_M_EFFICIENCY: s = TL_S_RECL + lane; d = TL_S_BASE + lane; break;
			default: s = TL_S_SSCAN + lane; break;
			}
			break;
		case TL_L_RECLAIMED:
			s = TL_S_RECL + RS_LRU_INACTIVE_ANON;
			s2 = TL_S_RECL + RS_LRU_INACTIVE_FILE;
			break;
		case TL_L_EFFICIENCY:
			s = TL_S_RECL + RS_LRU_INACTIVE_ANON;
			s2 = TL_S_RECL + RS_LRU_INACTIVE_FILE;
			d = TL_S_BASE + RS_LRU_INACTIVE_ANON;
			d2 = TL_S_BASE + RS_LRU_INACTIVE_FILE;
			break;
		case TL_L_KSWAPD: case TL_L_DIRECT: case TL_L_MEMCG: case TL_L_SOFTLIMIT:
		case TL_L_NODE: {
			int k = lane_ctx(lane);
			const struct colb *t = CB(m, TL_S_CTX_TIME + k, c);

			x->cover = t->sum / (double)m->cw;
			x->max = t->max;
			if (t->cnt || t->sum > 0)
				x->flags |= TL_CELL_DATA;
			switch (m->metric) {
			case TL_M_SCANNED: s = TL_S_CTX_SCAN + k; break;
			case TL_M_RECLAIMED: s = TL_S_CTX_RECL + k; break;
			case TL_M_EFFICIENCY: s = TL_S_CTX_RECL + k; d = TL_S_CTX_BASE + k; break;
			default: break;
			}
			if (m->metric == TL_M_STALL) {
				x->v = x->cover;
				r->sum += t->sum;
				if (x->v > r->max)
					r->max = x->v;
				continue;
			}
			break;
		}
		case TL_L_PRIORITY: {
			const struct colb *p = CB(m, TL_S_PRIO, c);

			x->v = p->max;
			x->max = p->max;
			if (p->max)
				x->flags |= TL_CELL_DATA;
			if (x->v > r->max)
				r->max = x->v;
			continue;
		}

		case TL_L_THROTTLE: {
			const struct colb *t = CB(m, TL_S_THROTTLE, c);

			x->v = t->sum * 1000.0 / (double)m->cw;
			x->max = t->max;
			if (t->cnt || t->sum > 0)
				x->flags |= TL_CELL_DATA | TL_CELL_THROT;
			r->sum += (double)t->cnt;
			if (x->v > r->max)
				r->max = x->v;
			continue;
		}
		case TL_L_MARKS:
			if (CB(m, TL_S_OOM, c)->cnt)
				x->flags |= TL_CELL_OOM | TL_CELL_DATA;
			if (CB(m, TL_S_LOST, c)->cnt)
				x->flags |= TL_CELL_LOST | TL_CELL_DATA;
			if (CB(m, TL_S_KFAIL, c)->cnt)
				x->flags |= TL_CELL_KFAIL | TL_CELL_DATA;
			if (CB(m, TL_S_KCLEAR, c)->cnt)
				x->flags |= TL_CELL_KCLEAR | TL_CELL_DATA;
			r->sum += CB(m, TL_S_OOM, c)->cnt;
			continue;
		default:
			/* a rate lane of one series (tl_lane_def) */
			s = tl_lane_def(r->lane)->series;
			if (s < 0)
				continue;
			break;
		}
		if (s >= 0) {
			num = CB(m, s, c)->sum + (s2 >= 0 ? CB(m, s2, c)->sum : 0);
			x->max = CB(m, s, c)->max;
			if (CB(m, s, c)->cnt || num > 0 || (s2 >= 0 && CB(m, s2, c)->cnt))
				x->flags |= TL_CELL_DATA;
		}
		if (d >= 0) {
			den = CB(m, d, c)->sum + (d2 >= 0 ? CB(m, d2, c)->sum : 0);
			num_all += num;
			den_all += den;
			x->flags = den > 0 ? (x->flags | TL_CELL_DATA) : (x->flags & ~TL_CELL_DATA);
			x->v = den > 0 ? num / den : 0;
		} else {
			x->v = num / secs;
			r->sum += num;
		}
		if (x->v > r->max)
			r->max = x->v;
	}
	if (r->scale == TL_SCALE_FRACTION && (lane == TL_L_EFFICIENCY ||
					      m->metric == TL_M_EFFICIENCY))
		r->sum = den_all > 0 ? num_all / den_all : 0;
}

/* Sub-lane cells (and the selected-span flag on span lanes) from the span list. */
static void span_cells(struct tl_model *m)
{
	uint64_t t0 = m->t0, t1 = m->t0 + window_ns(m);
	double secs = (double)m->cw / 1e9;
	int lane_row[TL_L_NR];

	for (int l = 0; l < TL_L_NR; l++)
		lane_row[l] = -1;
	for (int i = 0; i < m->nrows; i++)
		if (m->rows[i].sub < 0)
			lane_row[m->rows[i].lane] = i;
	memset(m->tpages, 0, (size_t)m->nrows * (size_t)m->cols * sizeof(*m->tpages));
	FOR_SPANS_IN(m, t0, t1, s) {
		int lane = ctx_lane(s->kind), row = -1, sel = 0;
		uint64_t lo, hi, key, dur = span_dur(s);
		int c;

		if (lane < 0 || (s->end <= t0 && dur) || s->end < t0)
			continue;
		key = tlm_span_key(m, s);
		if (m->keyrow[lane - TL_L_KSWAPD] && key < m->nkeys)
			row = m->keyrow[lane - TL_L_KSWAPD][key];
		if (m->sel_valid && s->begin == m->sel.begin && s->end == m->sel.end &&
		    s->pid == m->sel.pid && s->kind == m->sel.kind)
			sel = 1;
		if (row < 0 && !sel)
			continue;
		if (row >= 0 && m->filter[0] && !tlm_span_match(m, s))
			row = -1;
		lo = s->begin > t0 ? s->begin : t0;
		hi = s->end < t1 ? s->end : t1;
		c = (int)((lo - t0) / m->cw);
		do {
			uint64_t ce = t0 + (uint64_t)(c + 1) * m->cw;
			uint64_t part = (hi < ce ? hi : ce) - lo;
			double share = dur ? (double)part / (double)dur : 1.0;

			if (c >= m->cols)
				break;
			if (row >= 0) {
				size_t i = (size_t)row * (size_t)m->cols + (size_t)c;

				m->cells[i].cover += (double)part / (double)m->cw;
				m->cells[i].flags |= TL_CELL_DATA;
				m->tpages[i].scanned += s->scanned * share;
				m->tpages[i].reclaimed += s->reclaimed * share;
				if (dur / 1000 > m->cells[i].max)
					m->cells[i].max = (uint32_t)(dur / 1000 > UINT32_MAX ?
								     UINT32_MAX : dur / 1000);
				if (sel)
					m->cells[i].flags |= TL_CELL_SEL;
			}
			if (sel && lane_row[lane] >= 0)
				m->cells[(size_t)lane_row[lane] * (size_t)m->cols +
					 (size_t)c].flags |= TL_CELL_SEL;
			lo += part;
			c++;
		} while (lo < hi);
	}
	for (int i = 0; i < m->nrows; i++) {
		struct tl_row *r = &m->rows[i];

		if (r->sub < 0)
			continue;
		r->max = 0;
		r->sum = 0;
		for (int c = 0; c < m->cols; c++) {
			size_t k = (size_t)i * (size_t)m->cols + (size_t)c;
			struct tl_cell *x = &m->cells[k];
			const struct tl_cell_pages *p = &m->tpages[k];

			switch (m->metric) {
			case TL_M_SCANNED:
				x->v = p->scanned / secs;
				r->sum += p->scanned;
				break;
			case TL_M_RECLAIMED:
				x->v = p->reclaimed / secs;
				r->sum += p->reclaimed;
				break;
			case TL_M_EFFICIENCY:
				x->v = p->scanned > 0 ? p->reclaimed / p->scanned : 0;
				break;
			default:
				x->v = x->cover;
				r->sum += x->cover * (double)m->cw;
				break;
			}
			if (x->v > r->max)
				r->max = x->v;
		}
	}
}

int tl_model_level(struct tl_model *m)
{
	return m->level;
}
void tl_model_update(struct tl_model *m)
{
	bool fin = tl_index_finished(m->ix);

	if (tl_index_events(m->ix) != m->seen_events || tl_index_nspans(m->ix) != m->seen_spans ||
	    fin != m->seen_finished) {
		bool all = m->view_all;

		m->seen_events = tl_index_events(m->ix);
		m->seen_spans = tl_index_nspans(m->ix);
		m->seen_finished = fin;
		tlm_refresh_extent(m);
		if (all) {
			m->cw = tlm_cw_all(m);
			m->t0 = m->first;
		}
		tlm_clamp_view(m);
		m->rows_dirty = true;
		m->raw_valid = false;	/* contexts come from the spans */
	}
	if (m->rows_dirty)
		tlm_rebuild_rows(m);
	if (!m->cells_dirty || !tlm_ensure_cells(m) || !m->cb)
		return;
	if (raw_wanted(m) && raw_matches(m)) {
		memcpy(m->cb, m->raw, (size_t)TL_S_NR * (size_t)m->cols * sizeof(*m->cb));
		m->level = -1;
	} else {
		m->level = pick_level(m);
		bin_index(m, m->level);
	}
	for (int i = 0; i < m->nrows; i++) {
		struct tl_cell *cl = &m->cells[(size_t)i * (size_t)m->cols];

		if (m->rows[i].sub < 0)
			lane_cells(m, &m->rows[i], cl);
		else
			memset(cl, 0, (size_t)m->cols * sizeof(*cl));
	}
	span_cells(m);
	m->cells_dirty = false;
}
/* ---- statistics ---- */

/* Sum of series s over [a, b): raw columns when they cover it, else level 0, in proportion. */
static double range_sum(const struct tl_model *m, int s, uint64_t a, uint64_t b, uint32_t *max,
			uint64_t *res)
{
	const struct colb *src = NULL;
	uint64_t T0, w;
	size_t nb, b0, b1;
	double sum = 0;

	if (raw_matches(m) && a >= m->raw_t0 &&
	    b <= m->raw_t0 + m->raw_cw * (uint64_t)m->raw_cols) {
		src = m->raw + (size_t)s * (size_t)m->cols;
		T0 = m->raw_t0;
		w = m->raw_cw;
		nb = (size_t)m->raw_cols;
	} else {
		T0 = tl_index_t0(m->ix);
		w = tl_index_width(m->ix, 0);
		nb = tl_index_nbuckets(m->ix, 0);
	}
	if ((a >= T0 && (a - T0) % w) || (b >= T0 && (b - T0) % w))
		*res = w;
	if (b <= T0)
		return 0;
	b1 = tl_buckets_in(T0, w, nb, a, b, &b0);
	for (size_t i = b0; i < b1; i++) {
		uint64_t bs = T0 + (uint64_t)i * w, part = rs_span_overlap(bs, bs + w, a, b);
		double v;
		uint32_t mx;

		if (!part)
			continue;
		if (src) {
			v = src[i].sum;
			mx = src[i].max;
		} else {
			const struct tl_bucket *bk = tl_index_bucket(m->ix, 0, i, s);

			v = (double)bk->sum;
			mx = bk->max;
		}
		sum += v * (double)part / (double)w;
		if (mx > *max)
			*max = mx;
	}
	return sum;
}

static void top_cg(struct tl_stat_cg *top, int *n, const struct tl_stat_cg *x, bool by_scan)
{
	int i;

	for (i = 0; i < *n; i++)
		if (top[i].cg == x->cg)
			break;
	if (i == *n) {
		if (*n < TL_STATS_TOP)
			(*n)++;
		else
			return;
	}
	top[i] = *x;
	/* bubble into order */
	for (; i > 0; i--) {
		bool after = by_scan ? top[i].scanned > top[i - 1].scanned :
				       top[i].stall_ns > top[i - 1].stall_ns;

		if (!after)
			break;
		struct tl_stat_cg t = top[i];
		top[i] = top[i - 1];
		top[i - 1] = t;
	}
}

void tl_model_stats(struct tl_model *m, uint64_t t0, uint64_t t1, struct tl_stats *st)
{
	size_t ncg = (size_t)tl_index_cgroups(m->ix);
	size_t nt = (size_t)tl_index_ntasks(m->ix);
	const struct tl_victim *vic = tl_index_victims(m->ix);
	struct tl_stat_cg *trig = calloc(ncg, sizeof(*trig)), *vv = calloc(ncg, sizeof(*vv));
	struct tl_stat_task *tk = calloc(nt ? nt : 1, sizeof(*tk));
	uint32_t mx = 0;

	memset(st, 0, sizeof(*st));
	if (t1 <= t0)
		t1 = t0 + 1;
	st->t0 = t0;
	st->t1 = t1;
#define SUM(s) range_sum(m, (s), t0, t1, &mx, &st->res_ns)
	for (int l = 0; l < 4; l++) {
		st->scanned[l] = SUM(TL_S_SCAN + l);
		st->reclaimed[l] = SUM(TL_S_RECL + l);
		st->base[l] = SUM(TL_S_BASE + l);
		st->stall_scanned[l] = SUM(TL_S_SSCAN + l);
	}
	for (int k = 0; k < RS_CTX_NR; k++) {
		st->ctx_scanned[k] = SUM(TL_S_CTX_SCAN + k);
		st->ctx_reclaimed[k] = SUM(TL_S_CTX_RECL + k);
		st->ctx_base[k] = SUM(TL_S_CTX_BASE + k);
	}
	st->writes = SUM(TL_S_WRITE);
	st->throttled_us = SUM(TL_S_THROTTLE);
	st->ooms = SUM(TL_S_OOM);
	st->refaulted = SUM(TL_S_REFAULT);
	st->quick_refaulted = SUM(TL_S_QUICK);
	st->lost = SUM(TL_S_LOST);
	st->events = SUM(TL_S_EVENTS);
	mx = 0;
	(void)SUM(TL_S_PRIO);
	st->min_prio = mx ? RS_PRIO_DEF + 1 - (int)mx : -1;
#undef SUM
	{
		/* throttle events: the counts, not the delays */
		size_t b0, b1 = tl_buckets_in(tl_index_t0(m->ix), tl_index_width(m->ix, 0),
					      tl_index_nbuckets(m->ix, 0), t0, t1, &b0);

		for (size_t i = b0; i < b1; i++)
			st->throttled += tl_index_bucket(m->ix, 0, i, TL_S_THROTTLE)->cnt;
	}
	FOR_SPANS_IN(m, t0, t1, s) {
		uint64_t part = rs_span_overlap(s->begin, s->end, t0, t1);

		if (s->kind >= RS_CTX_NR || !tlm_span_match(m, s))
			continue;
		if (s->begin >= t0)
			st->episodes[s->kind]++;
		st->span_ns[s->kind] += part;
		if (span_dur(s) > st->worst_ns[s->kind])
			st->worst_ns[s->kind] = span_dur(s);
		if (!stall_kind(s->kind))
			continue;
		if (trig && s->trigger < ncg) {
			trig[s->trigger].cg = s->trigger;
			trig[s->trigger].episodes += s->begin >= t0;
			trig[s->trigger].stall_ns += part;
			trig[s->trigger].scanned += s->scanned;
			trig[s->trigger].reclaimed += s->reclaimed;
		}
		if (tk && s->task < nt) {
			tk[s->task].task = s->task;
			tk[s->task].episodes += s->begin >= t0;
			tk[s->task].stall_ns += part;
		}
		for (int i = 0; vv && i < s->nr_victims; i++) {
			const struct tl_victim *v = &vic[s->victim_off + (uint32_t)i];

			if (v->cg >= ncg)
				continue;
			vv[v->cg].cg = v->cg;
			vv[v->cg].episodes++;
			vv[v->cg].stall_ns += part;
			vv[v->cg].scanned += v->scanned;
			vv[v->cg].reclaimed += v->reclaimed;
		}
	}
	for (size_t i = 0; trig && vv && i < ncg; i++) {
		if (trig[i].episodes || trig[i].stall_ns)
			top_cg(st->trig, &st->nr_trig, &trig[i], false);
		if (vv[i].episodes)
			top_cg(st->vic, &st->nr_vic, &vv[i], true);
	}
	for (size_t i = 0; tk && i < nt; i++) {
		int j;

		if (!tk[i].episodes && !tk[i].stall_ns)
			continue;
		if (st->nr_tasks < TL_STATS_TOP)
			st->tasks[st->nr_tasks++] = tk[i];
		else if (tk[i].stall_ns > st->tasks[TL_STATS_TOP - 1].stall_ns)
			st->tasks[TL_STATS_TOP - 1] = tk[i];
		else
			continue;
		for (j = st->nr_tasks - 1; j > 0 && st->tasks[j].stall_ns >
		     st->tasks[j - 1].stall_ns; j--) {
			struct tl_stat_task t = st->tasks[j];

			st->tasks[j] = st->tasks[j - 1];
			st->tasks[j - 1] = t;
		}
	}
	free(trig);
	free(vv);
	free(tk);
}

uint64_t tl_model_first_activity(const struct tl_model *m, uint64_t t0, uint64_t t1)
{
	static const int series[] = {
		TL_S_BASE + RS_LRU_ACTIVE_ANON, TL_S_BASE + RS_LRU_ACTIVE_FILE, TL_S_WRITE,
		TL_S_THROTTLE, TL_S_OOM, TL_S_LOST, TL_S_KFAIL, TL_S_KCLEAR,
	};
	uint64_t T0 = tl_index_t0(m->ix), w = tl_index_width(m->ix, 0);
	size_t b0, b1 = tl_buckets_in(T0, w, tl_index_nbuckets(m->ix, 0), t0, t1, &b0);

	for (size_t b = b0; b < b1; b++) {
		uint64_t bs = T0 + (uint64_t)b * w;

		for (int k = 0; k < RS_CTX_NR; k++) {
			const struct tl_index *ix = m->ix;

			if (tl_index_bucket(ix, 0, b, TL_S_CTX_SCAN + k)->cnt ||
			    tl_index_bucket(ix, 0, b, TL_S_CTX_BASE + k)->cnt ||
			    (k != RS_CTX_OTHER &&
			     tl_index_bucket(ix, 0, b, TL_S_CTX_TIME + k)->cnt))
				return bs > t0 ? bs : t0;
		}
		for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++)
			if (tl_index_bucket(m->ix, 0, b, series[i])->cnt)
				return bs > t0 ? bs : t0;
	}
	return t1;
}
