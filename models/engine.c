// SPDX-License-Identifier: GPL-2.0
/*
 * The machinery every model shares: a scratch copy of the world for the invocation in progress,
 * shrink_inactive_list()/shrink_active_list() on it, and the accounting into the outcome.
 *
 * What a scan does is not simulated page by page: scanning n pages of a list takes min(n, list
 * size) pages; of those, the fractions the recording observed on that list (world rates) are
 * reclaimed, activated or deactivated, and the rest go back where they came from. Fractions are
 * applied with a per-policy, per-list rounding carry so that the totals are the exact rounding
 * of sum(scanned x rate) however small the batches are.
 */
#include <stdlib.h>
#include <string.h>

#include "kswapd_end.h"
#include "policy.h"
#include "rs_grow.h"

uint64_t rs_int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = UINT64_C(1) << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* 6.x inactive_is_low(); assumes 4 KiB pages (PAGE_SHIFT 12). */
bool rs_inactive_is_low(uint64_t inactive, uint64_t active)
{
	uint64_t gb = (inactive + active) >> (30 - 12);
	uint64_t ratio = gb ? rs_int_sqrt(10 * gb) : 1;

	return inactive * ratio < active;
}

/*
 * The simulation's arrays, each of n zeroed elements, in one list that both allocates them
 * (alloc: false when any allocation failed; the others are still made, for the free) and
 * frees them, so that an array added is one entry and cannot be left out of either.
 */
static bool lrusim_arrays(struct rs_lrusim *ls, bool alloc)
{
	size_t nm = (size_t)ls->nr_memcg, nn = (size_t)ls->nr_nodes;
	size_t nl = nm * nn * RS_NR_EVICTABLE;	/* [lruvec][list] */
#define LS_ARRAY(f, count) { (void **)&ls->f, (count), sizeof(*ls->f) }
	const struct {
		void **p;
		size_t n, elem;
	} a[] = {
		LS_ARRAY(carry, nl * 3), LS_ARRAY(size, nl), LS_ARRAY(hsize, nl),
		LS_ARRAY(usage, nm), LS_ARRAY(freep, nn), LS_ARRAY(share, nm), LS_ARRAY(hit, nm),
		LS_ARRAY(phase, nl), LS_ARRAY(rates, nl), LS_ARRAY(rates_gen, nl),
		LS_ARRAY(rates_ts, nl), LS_ARRAY(parent, nm), LS_ARRAY(pre, nm),
		LS_ARRAY(pre_end, nm), LS_ARRAY(at, nm),
	};
#undef LS_ARRAY
	bool ok = true;

	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		if (!alloc) {
			free(*a[i].p);
			continue;
		}
		*a[i].p = calloc(a[i].n, a[i].elem);
		ok = ok && *a[i].p;
	}
	return ok;
}

int rs_lrusim_init(struct rs_lrusim *ls, const struct rs_world *w, struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	size_t nlv = (size_t)wi->nr_memcg * (size_t)wi->nr_nodes;

	memset(ls, 0, sizeof(*ls));
	ls->w = w;
	ls->nr_memcg = wi->nr_memcg;
	ls->nr_nodes = wi->nr_nodes;
	if (!lrusim_arrays(ls, true)) {
		rs_lrusim_free(ls);
		return rs_error_set(err, "out of memory");
	}
	for (int m = 0; m < wi->nr_memcg; m++) {
		const struct rs_memcg_info *mi = rs_world_memcg(w, m);

		ls->parent[m] = mi->parent;
		ls->pre[m] = mi->pre;
		ls->pre_end[m] = mi->pre_end;
		ls->at[m] = rs_world_memcg_at(w, m);
	}
	/*
	 * Start every carry at one half: the running total is then the nearest integer to
	 * sum(scanned x rate), so an exact product (3200 x 97/100 = 3104) is not lost to the
	 * truncation of the 32.32 rate.
	 */
	for (size_t i = 0; i < nlv * RS_NR_EVICTABLE * 3; i++)
		ls->carry[i] = RS_RATE_ONE / 2;
	return 0;
}

void rs_lrusim_free(struct rs_lrusim *ls)
{
	free(ls->putback);
	lrusim_arrays(ls, false);
	memset(ls, 0, sizeof(*ls));
}

/* A running call's recorded isolation in progress at the new call's start: put back at its end. */
static void note_putback(void *arg, const struct rs_inflight *f)
{
	struct rs_lrusim *ls = arg;

	if (f->memcg < 0 || f->memcg >= ls->nr_memcg || f->nid < 0 || f->nid >= ls->nr_nodes ||
	    f->lru < 0 || f->lru >= RS_NR_EVICTABLE || (!f->back && !f->moved))
		return;
	if (!RS_GROW(ls->putback, ls->capputback, ls->nputback + 1, 8))
		ls->putback[ls->nputback++] = *f;
}

static void move(struct rs_sim *s, int memcg, int nid, int lru, int64_t delta);

/*
 * The recorded shrinks that put their survivors back by `now` (the isolation about to happen):
 * onto the lists the running calls share, as the world had them from then on.
 */
static void putbacks(struct rs_sim *s, uint64_t now)
{
	struct rs_lrusim *ls = s->ls;
	size_t n = 0;

	for (size_t i = 0; i < ls->nputback; i++) {
		const struct rs_inflight *f = &ls->putback[i];

		if (f->end > now) {
			ls->putback[n++] = *f;
			continue;
		}
		move(s, f->memcg, f->nid, f->lru, (int64_t)f->back);
		move(s, f->memcg, f->nid, f->lru ^ 1, (int64_t)f->moved);
	}
	ls->nputback = n;
}

void rs_sim_begin(struct rs_sim *s, struct rs_lrusim *ls, const struct rs_world *w,
		  const struct rs_reclaim_call *call, struct rs_call_outcome *out)
{
	int nm = ls->nr_memcg, nn = ls->nr_nodes;

	memset(s, 0, sizeof(*s));
	s->ls = ls;
	s->w = w;
	s->call = call;
	s->out = out;
	s->prio = -1;
	s->view_ts = call->ts;
	out->prio_lowest = -1;
	for (int m = 0; m < nm; m++) {
		struct rs_memcg_state st;

		for (int nid = 0; nid < nn; nid++)
			for (int l = 0; l < RS_NR_EVICTABLE; l++)
				ls->size[((size_t)m * nn + nid) * RS_NR_EVICTABLE + l] =
					(int64_t)rs_world_lru(w, m, nid, l);
		rs_world_memcg_state(w, m, &st);
		ls->usage[m] = (int64_t)st.usage;
	}
	/*
	 * The lists are the recording's again (open loop): without the pages the calls still
	 * running had isolated there, which their shrinks put back later. The models' own
	 * isolations of those calls have put theirs back at once, so the recorded ones return
	 * at their shrink's time (putbacks(), before each isolation). zf-new3 (7.2 multi):
	 * kswapd woke at 33.236 s while /rs_c's memory.high call had a 512-page anon THP under
	 * writeback off the list (isolated 33.2238, back 33.2491); the call's model read inactive
	 * anon 512 short from priority 10 on, asked 64 pages at priority 5 where the kernel asked
	 * 69, missed the third THP that freed the goal there and went on to priority 4 (+2,048
	 * inactive anon pages scanned). Added back at the start instead, the THP a call of
	 * k72-cgroup-children held from 14.900 s to 14.912 s went to the one that began at
	 * 14.905 s, which the kernel's could not isolate (+512 inactive anon, +512 freed).
	 */
	ls->nputback = 0;
	rs_replay_inflight(call, call->ts, note_putback, ls);
	memcpy(ls->hsize, ls->size, (size_t)nm * nn * RS_NR_EVICTABLE * sizeof(int64_t));
	/* children come after their parent in pre-order: sum backwards */
	for (int pre = nm - 1; pre > 0; pre--) {
		int m = ls->at[pre], p = ls->parent[m];

		for (int i = 0; i < nn * RS_NR_EVICTABLE; i++)
			ls->hsize[(size_t)p * nn * RS_NR_EVICTABLE + i] +=
				ls->hsize[(size_t)m * nn * RS_NR_EVICTABLE + i];
	}
	for (int nid = 0; nid < nn; nid++) {
		struct rs_node_state ns;

		rs_world_node(w, nid, &ns);
		ls->freep[nid] = (int64_t)ns.free;
	}
}

uint64_t rs_sim_usage(const struct rs_sim *s, int memcg)
{
	int64_t v = s->ls->usage[memcg];

	return v > 0 ? (uint64_t)v : 0;
}

uint64_t rs_sim_soft_excess(const struct rs_sim *s, int memcg)
{
	struct rs_memcg_state st;
	uint64_t usage = rs_sim_usage(s, memcg);

	rs_world_memcg_state(s->w, memcg, &st);
	return usage > st.soft_limit ? usage - st.soft_limit : 0;
}

uint64_t rs_sim_free(const struct rs_sim *s, int nid)
{
	int64_t v = s->ls->freep[nid];

	return v > 0 ? (uint64_t)v : 0;
}

bool rs_sim_swap_ok(const struct rs_sim *s)
{
	return rs_world_swap_free(s->w) > 0;
}

bool rs_sim_memcg_swap_ok(const struct rs_sim *s, int memcg)
{
	struct rs_memcg_state st;

	if (!rs_sim_swap_ok(s))
		return false;
	for (int m = memcg; m > 0; m = rs_world_memcg(s->w, m)->parent) {
		rs_world_memcg_state(s->w, m, &st);
		if (st.swap_max != RS_UNLIMITED && st.swap_usage >= st.swap_max)
			return false;
	}
	return true;
}

int rs_sim_swappiness(const struct rs_sim *s, int memcg)
{
	struct rs_memcg_state st;

	rs_world_memcg_state(s->w, memcg, &st);
	return st.swappiness;
}

bool rs_sim_reclaimable(const struct rs_sim *s, int memcg, int nid)
{
	for (int n = 0; n < s->ls->nr_nodes; n++) {
		if (nid >= 0 && n != nid)
			continue;
		if (rs_sim_size(s, memcg, n, RS_LRU_INACTIVE_FILE) ||
		    rs_sim_size(s, memcg, n, RS_LRU_ACTIVE_FILE))
			return true;
		if (rs_sim_swap_ok(s) && (rs_sim_size(s, memcg, n, RS_LRU_INACTIVE_ANON) ||
					  rs_sim_size(s, memcg, n, RS_LRU_ACTIVE_ANON)))
			return true;
	}
	return false;
}

/* Pages moved into (delta > 0) or out of a list: the lruvec and every ancestor's sum. */
static void move(struct rs_sim *s, int memcg, int nid, int lru, int64_t delta)
{
	int nn = s->ls->nr_nodes;

	s->ls->size[((size_t)memcg * nn + nid) * RS_NR_EVICTABLE + lru] += delta;
	for (int m = memcg; m >= 0; m = s->ls->parent[m])
		s->ls->hsize[((size_t)m * nn + nid) * RS_NR_EVICTABLE + lru] += delta;
}

void rs_sim_whole_folio(struct rs_sim *s, int memcg, int nid, int lru, uint64_t folio)
{
	uint64_t size = rs_sim_size(s, memcg, nid, lru);

	if (size && size < folio)
		move(s, memcg, nid, lru, (int64_t)(folio - size));
}

void rs_sim_at_least(struct rs_sim *s, int memcg, int nid, int lru, uint64_t pages)
{
	uint64_t size = rs_sim_size(s, memcg, nid, lru);

	if (size < pages)
		move(s, memcg, nid, lru, (int64_t)(pages - size));
}

static uint64_t *carry(struct rs_sim *s, int memcg, int nid, int lru, int kind)
{
	return &s->ls->carry[(((size_t)memcg * s->ls->nr_nodes + nid) * RS_NR_EVICTABLE + lru) * 3 +
			     kind];
}

/*
 * rs_world_rates() as of the call's start, looked up once per list per world generation and
 * call (calls running interleaved share the cache).
 */
static const struct rs_rates *rates_of(struct rs_sim *s, int memcg, int nid, int lru)
{
	size_t i = (size_t)rs_lruvec(s, memcg, nid) * RS_NR_EVICTABLE + lru;
	/* never 0: 0 marks "not cached"; the pass's priority is part of the key */
	uint64_t gen = ((rs_world_generation(s->w) + 1) << 4) | (uint64_t)(s->prio + 1);

	if (s->ls->rates_gen[i] != gen || s->ls->rates_ts[i] != s->call->ts) {
		rs_world_rates_at(s->w, memcg, nid, lru, s->prio, s->call->ts, &s->ls->rates[i]);
		s->ls->rates_gen[i] = gen;
		s->ls->rates_ts[i] = s->call->ts;
	}
	return &s->ls->rates[i];
}

/* floor((n * rate + carry) / 2^32), keeping the remainder for the next batch. */
static uint64_t apply_rate(uint64_t n, uint64_t rate, uint64_t *c)
{
	__uint128_t t = (__uint128_t)n * rate + *c;

	*c = (uint64_t)(t & (RS_RATE_ONE - 1));
	return (uint64_t)(t >> 32);
}

static void acct_take(struct rs_reclaim_acct *a, int lru, uint64_t scanned, uint64_t reclaimed,
		      bool soft, bool no_swap)
{
	a->scanned[lru] += scanned;
	a->reclaimed[lru] += reclaimed;
	if (!rs_lru_is_file(lru))
		a->swapped_out += reclaimed;
	if (no_swap)
		a->scanned_no_swap += scanned;
	if (soft) {
		a->soft_scanned += scanned;
		a->soft_reclaimed += reclaimed;
	}
}

/* A shrink of memcg's list lru, counted into the call and into the memcg. */
static void account(struct rs_sim *s, int memcg, int nid, int lru, uint64_t scanned,
		    uint64_t reclaimed, enum rs_rate_src src, bool no_swap)
{
	struct rs_call_outcome *o = s->out;

	acct_take(&o->acct, lru, scanned, reclaimed, s->soft, no_swap);
	o->reclaimed_by_src[src] += reclaimed;
	if (o->memcg)
		acct_take(&o->memcg[memcg], lru, scanned, reclaimed, s->soft, no_swap);
	if (o->node && nid >= 0 && nid < s->ls->nr_nodes)
		acct_take(&o->node[nid], lru, scanned, reclaimed, s->soft, no_swap);
	s->scanned += scanned;
	s->reclaimed += reclaimed;
}

static void shrink_inactive(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			    struct rs_shrink *r)
{
	const struct rs_rates *rt;
	uint64_t taken = rs_min_u64(n, rs_sim_size(s, memcg, nid, lru)), rec, act;
	bool no_swap = !rs_lru_is_file(lru) && !rs_sim_swap_ok(s);

	memset(r, 0, sizeof(*r));
	if (!taken)
		return;
	rt = rates_of(s, memcg, nid, lru);
	if (no_swap) {
		/*
		 * No swap space: shrink_folio_list() (2.6.28's shrink_page_list() alike) cannot
		 * add_to_swap() an anon folio and activates it (activate_locked), whatever the
		 * recording observed of the list's reclaimability: nothing is reclaimed nor
		 * written. Policies that scan anon without swap (the +1, memcg reclaim of 2.6.2x)
		 * move the pages to the active list.
		 */
		rec = 0;
		act = taken;
		r->taken = taken;
		r->activated = act;
		move(s, memcg, nid, lru, -(int64_t)act);
		move(s, memcg, nid, lru + 1, (int64_t)act);
		account(s, memcg, nid, lru, taken, 0, rt->src, true);
		return;
	}
	if (s->pass && s->pass->memcg == memcg && s->pass->nid == nid &&
	    rs_world_pass_reclaim(s->w, memcg, nid, lru, s->prio, s->call->ts,
				  s->pass->pos[lru], taken, &rec)) {
		/* where the recorded pass freed its pages, not evenly over it */
		rec = apply_rate(1, rec, carry(s, memcg, nid, lru, 0));
		s->pass->pos[lru] += taken;
	} else {
		rec = apply_rate(taken, rt->reclaim, carry(s, memcg, nid, lru, 0));
	}
	act = apply_rate(taken, rt->activate, carry(s, memcg, nid, lru, 1));
	if (rec > taken)
		rec = taken;
	if (rec + act > taken)
		act = taken - rec;
	r->taken = taken;
	r->reclaimed = rec;
	r->activated = act;
	r->pageout = rs_min_u64(apply_rate(taken, rt->pageout, carry(s, memcg, nid, lru, 2)),
				taken);
	move(s, memcg, nid, lru, -(int64_t)(rec + act));
	if (act)
		move(s, memcg, nid, lru + 1, (int64_t)act);
	for (int m = memcg; m >= 0 && rec; m = s->ls->parent[m])
		s->ls->usage[m] -= (int64_t)rec;
	s->ls->freep[nid] += (int64_t)rec;
	account(s, memcg, nid, lru, taken, rec, rt->src, false);
}

static void shrink_active(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			  struct rs_shrink *r)
{
	const struct rs_rates *rt;
	uint64_t taken = rs_min_u64(n, rs_sim_size(s, memcg, nid, lru)), deact;

	memset(r, 0, sizeof(*r));
	if (!taken)
		return;
	rt = rates_of(s, memcg, nid, lru);
	deact = s->deactivate_all ? taken
				  : rs_min_u64(apply_rate(taken, rt->deactivate,
							  carry(s, memcg, nid, lru, 0)), taken);
	r->taken = taken;
	r->deactivated = deact;
	r->kept_active = taken - deact;
	r->referenced = rs_min_u64(apply_rate(taken, rt->referenced,
					      carry(s, memcg, nid, lru, 1)), taken);
	move(s, memcg, nid, lru, -(int64_t)deact);
	move(s, memcg, nid, lru - 1, (int64_t)deact);
	account(s, memcg, nid, lru, taken, 0, rt->src, false);
}

void rs_sim_shrink_inactive(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			    struct rs_shrink *r)
{
	putbacks(s, rs_replay_isolation());
	shrink_inactive(s, memcg, nid, lru, n, r);
}

void rs_sim_shrink_active(struct rs_sim *s, int memcg, int nid, int lru, uint64_t n,
			  struct rs_shrink *r)
{
	putbacks(s, rs_replay_isolation());
	shrink_active(s, memcg, nid, lru, n, r);
}

static void add_shrink(struct rs_shrink *a, const struct rs_shrink *b)
{
	a->taken += b->taken;
	a->reclaimed += b->reclaimed;
	a->activated += b->activated;
	a->pageout += b->pageout;
	a->deactivated += b->deactivated;
	a->referenced += b->referenced;
	a->kept_active += b->kept_active;
}

void rs_sim_shrink_merged(struct rs_sim *s, int root, int nid, int lru, uint64_t n,
			  struct rs_shrink *r)
{
	uint64_t total = rs_sim_hsize(s, root, nid, lru), take, cum = 0;
	uint32_t *phase = &s->ls->phase[(size_t)rs_lruvec(s, root, nid) * RS_NR_EVICTABLE + lru];
	uint64_t *share = s->ls->share;
	int *hit = s->ls->hit, nhit = 0;
	__uint128_t step, point;
	uint64_t i = 0;

	memset(r, 0, sizeof(*r));
	/* one isolation of the zone's list, whatever memcgs its pages belong to */
	putbacks(s, rs_replay_isolation());
	total = rs_sim_hsize(s, root, nid, lru);
	take = rs_min_u64(n, total);
	if (!take)
		return;
	/*
	 * Point i sits at (phase + i) x total / take, in 32.32 fixed point; the spacing is at
	 * least one page, so a memcg's segment never holds more points than pages, and all take
	 * points fall below total.
	 */
	step = ((__uint128_t)total << 32) / take;
	point = ((__uint128_t)*phase * step) >> 32;
	for (int m = root; m >= 0 && i < take; m = rs_sim_next(s, root, m)) {
		uint64_t k = 0;

		cum += rs_sim_size(s, m, nid, lru);
		while (i < take && (uint64_t)(point >> 32) < cum) {
			k++;
			i++;
			point += step;
		}
		if (k) {
			share[nhit] = k;
			hit[nhit++] = m;
		}
	}
	*phase += 0x9e3779b9u;	/* 2^32 / golden ratio: the next phase, low-discrepancy */
	for (int j = 0; j < nhit; j++) {
		struct rs_shrink one;
		int m = hit[j];

		if (rs_lru_is_active(lru))
			shrink_active(s, m, nid, lru, share[j], &one);
		else
			shrink_inactive(s, m, nid, lru, share[j], &one);
		add_shrink(r, &one);
	}
}

uint64_t rs_sim_kswapd_derived_want(const struct rs_sim *s)
{
	struct rs_kswapd_end e;

	/* where pgdat_balanced() on the recorded zones ends the run of the recorded reclaim */
	rs_kswapd_end(s->w, s->call, &e);
	return e.how != RS_KEND_RECORDED ? e.want : rs_sim_kswapd_want(s);
}

uint64_t rs_sim_kswapd_want(const struct rs_sim *s)
{
	struct rs_node_state ns;

	/* a recorded run that freed nothing was balanced at once */
	if (s->call->nr_to_reclaim || s->call->rec.have)
		return s->call->nr_to_reclaim;
	rs_world_node(s->w, s->call->nid, &ns);
	return ns.wmark_high > ns.free ? ns.wmark_high - ns.free : 0;
}

bool rs_sim_kswapd_balanced(const struct rs_sim *s, uint64_t want)
{
	int r = rs_kswapd_balanced(s->w, s->call, s->out->rounds, s->reclaimed);

	/* the zones end a run early; the recorded end stands where they do not (they run low) */
	return r > 0 || s->reclaimed >= want;
}

int rs_sim_zonelist_node(const struct rs_sim *s, int i)
{
	int first = s->call->nid >= 0 ? s->call->nid : 0;

	if (i == 0)
		return first;
	return i <= first ? i - 1 : i;
}

void rs_sim_round(struct rs_sim *s, int priority)
{
	s->out->rounds++;
	if (s->out->prio_lowest < 0 || priority < s->out->prio_lowest)
		s->out->prio_lowest = priority;
}

int rs_subtree_next(const struct rs_world *w, int root, int m)
{
	int pre = rs_world_memcg(w, m)->pre + 1;

	return pre < rs_world_memcg(w, root)->pre_end ? rs_world_memcg_at(w, pre) : -1;
}

int rs_iter_init(struct rs_iter *it, const struct rs_world *w, int nr_slots,
		 struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	size_t n = (size_t)wi->nr_memcg * wi->nr_nodes * nr_slots;

	it->nr_memcg = wi->nr_memcg;
	it->nr_nodes = wi->nr_nodes;
	it->nr_slots = nr_slots;
	it->pos = malloc(n * sizeof(int));
	if (!it->pos)
		return rs_error_set(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		it->pos[i] = -1;
	return 0;
}

void rs_iter_free(struct rs_iter *it)
{
	free(it->pos);
	it->pos = NULL;
}

int *rs_iter_pos(struct rs_iter *it, int root, int nid, int slot)
{
	return &it->pos[((size_t)root * it->nr_nodes + nid) * it->nr_slots + slot];
}

int rs_iter_next(struct rs_iter *it, const struct rs_world *w, int root, int nid, int slot,
		 int prev)
{
	int *pos = rs_iter_pos(it, root, nid, slot);
	int next;

	if (prev < 0) {
		next = *pos < 0 ? root : rs_subtree_next(w, root, *pos);
		if (next < 0)
			next = root;	/* a new walk that starts at the end restarts */
	} else {
		next = rs_subtree_next(w, root, prev);
	}
	*pos = next;
	return next;
}
