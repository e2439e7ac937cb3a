// SPDX-License-Identifier: GPL-2.0
/*
 * The identity verdict (include/replay_identity.h): per list, whole trace and per cgroup,
 * whether the policy standing for the recorded kernel is claimed to reproduce the recording
 * and whether it does. docs/replay.md "Identity" explains each verdict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rs_cmp.h"
#include "replay_identity.h"

double rs_replay_err_pct(uint64_t model, uint64_t rec)
{
	return rec ? 100.0 * ((double)model - (double)rec) / (double)rec : 0.0;
}

static bool in_target_pct(double e, double pct)
{
	return e <= pct && e >= -pct;
}

static bool in_target(double e)
{
	return in_target_pct(e, RS_IDENTITY_TARGET_PCT);
}

void rs_identity_list(uint64_t rs, uint64_t rr, uint64_t ms, uint64_t mr,
		      const struct rs_gap_pages *gp, int lru, struct rs_identity_list *out)
{
	memset(out, 0, sizeof(*out));
	out->rec_scanned = rs;
	out->rec_reclaimed = rr;
	out->model_scanned = ms;
	out->model_reclaimed = mr;
	out->scanned_err = rs_replay_err_pct(ms, rs);
	out->reclaimed_err = rs_replay_err_pct(mr, rr);
	out->checked = rs >= RS_IDENTITY_MIN_SCANNED;
	out->reclaimed_checked = out->checked && rr >= RS_IDENTITY_MIN_SCANNED;
	out->within = out->checked && in_target(out->scanned_err) &&
		      (!out->reclaimed_checked || in_target(out->reclaimed_err));
	/* the calls lacking an input alone could move the list past the target */
	for (int g = 0; gp && g < RS_GAP_NR; g++)
		if ((double)gp->scanned[g][lru] * 100.0 > RS_IDENTITY_TARGET_PCT * (double)rs)
			out->lacks |= 1u << g;
	out->claimed = out->checked && !out->lacks;
	if (!rs)
		out->verdict = RS_ID_NONE;
	else if (!out->checked)
		out->verdict = RS_ID_NOT_CHECKED;
	else if (!out->claimed)
		out->verdict = RS_ID_NO_CLAIM;
	else
		out->verdict = out->within ? RS_ID_OK : RS_ID_OFF;
}

static void count(struct rs_identity *id, const struct rs_identity_list *il)
{
	id->claimed += il->claimed;
	id->within += il->claimed && il->within;
	id->off += il->verdict == RS_ID_OFF;
	id->not_claimed += il->verdict == RS_ID_NO_CLAIM;
	id->not_checked += il->verdict == RS_ID_NOT_CHECKED;
}

/*
 * Whether the lists' sizes come from snapshots alone, and how far apart those are: the memcg
 * with the most LRU snapshots gives (last - first) / (distinct times - 1).
 */
static void snapshot_interval(const struct rs_world *w, struct rs_identity *id)
{
	const struct rs_world_info *wi = rs_world_info(w);
	uint64_t *first, *last, *n;
	uint64_t best = 0;

	id->sizes_snapshots_only = false;
	id->snapshot_interval_ns = 0;
	for (size_t i = 0; i < wi->nr_updates; i++) {
		const struct rs_world_update *u = rs_world_update_at(w, i);

		if (u->field == RS_WF_LRU && u->src == RS_WSRC_DELTA)
			return;
	}
	first = calloc((size_t)wi->nr_memcg + 1, sizeof(*first));
	last = calloc((size_t)wi->nr_memcg + 1, sizeof(*last));
	n = calloc((size_t)wi->nr_memcg + 1, sizeof(*n));
	if (!first || !last || !n)
		goto out;
	for (size_t i = 0; i < wi->nr_updates; i++) {
		const struct rs_world_update *u = rs_world_update_at(w, i);
		size_t m;

		if (u->field != RS_WF_LRU || u->src != RS_WSRC_SNAPSHOT)
			continue;
		id->sizes_snapshots_only = true;
		m = u->memcg < 0 ? (size_t)wi->nr_memcg : (size_t)u->memcg;
		if (n[m] && u->ts == last[m])
			continue;
		if (!n[m])
			first[m] = u->ts;
		last[m] = u->ts;
		n[m]++;
	}
	for (size_t m = 0; m <= (size_t)wi->nr_memcg; m++) {
		if (n[m] > best && n[m] >= 2) {
			best = n[m];
			id->snapshot_interval_ns = (last[m] - first[m]) / (n[m] - 1);
		}
	}
out:
	free(first);
	free(last);
	free(n);
}

/* A call's recorded pages s of list l, counted under each gap it lacks and as lacking any. */
static void gap_add(struct rs_gap_pages *gp, unsigned int lacks, int l, uint64_t s)
{
	for (int g = 0; g < RS_GAP_NR; g++)
		if (lacks & (1u << g))
			gp->scanned[g][l] += s;
	if (lacks)
		gp->any[l] += s;
}

/*
 * Identity node by node over the kswapd calls: the whole-trace sums can hide one node's excess
 * behind the other's shortfall. Recorded pages as rs_replay_recorded() counts them (a call
 * without shrink events scanned nothing); what a node's calls lack is their own gaps.
 */
static int kswapd_nodes(const struct rs_world *w, const struct rs_replay_result *model,
			const unsigned int *lacks, struct rs_identity *out)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct {
		uint64_t rs[RS_NR_EVICTABLE], rr[RS_NR_EVICTABLE];
		uint64_t ms[RS_NR_EVICTABLE], mr[RS_NR_EVICTABLE];
		uint64_t calls;
		struct rs_gap_pages gp;
	} *n;
	int k = 0;

	if (wi->nr_nodes < 2 || !model->call || !wi->nr_calls)
		return 0;
	n = calloc((size_t)wi->nr_nodes, sizeof(*n));
	if (!n)
		goto out_nomem;
	for (size_t i = 0; i < wi->nr_calls; i++) {
		const struct rs_reclaim_call *c = rs_world_call(w, i);
		const struct rs_call_outcome *o = &model->call[i];

		if (c->ctx != RS_CALL_KSWAPD || c->nid < 0 || c->nid >= wi->nr_nodes)
			continue;
		n[c->nid].calls++;
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			uint64_t s = c->rec.have ? c->rec.scanned[l] : 0;

			n[c->nid].rs[l] += s;
			n[c->nid].rr[l] += c->rec.have ? c->rec.reclaimed[l] : 0;
			n[c->nid].ms[l] += o->acct.scanned[l];
			n[c->nid].mr[l] += o->acct.reclaimed[l];
			gap_add(&n[c->nid].gp, lacks[i], l, s);
		}
	}
	for (int nid = 0; nid < wi->nr_nodes; nid++)
		out->nr_kswapd_nodes += n[nid].calls > 0;
	out->kswapd_node = calloc((size_t)out->nr_kswapd_nodes + 1, sizeof(*out->kswapd_node));
	if (!out->kswapd_node)
		goto out_nomem;
	for (int nid = 0; nid < wi->nr_nodes; nid++) {
		struct rs_identity_node *x;

		if (!n[nid].calls)
			continue;
		x = &out->kswapd_node[k++];
		x->nid = nid;
		x->calls = n[nid].calls;
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			rs_identity_list(n[nid].rs[l], n[nid].rr[l], n[nid].ms[l], n[nid].mr[l],
					 &n[nid].gp, l, &x->list[l]);
	}
	free(n);
	return 0;
out_nomem:
	free(n);
	out->nr_kswapd_nodes = 0;
	return -1;
}

/*
 * Identity node by node over the calls other than kswapd's (direct, memcg, node reclaim): a
 * limit reclaim shrinks every node's lruvec of its memcgs, and the whole-trace sums can hide one
 * node's excess behind the other's shortfall as kswapd's can. A node's recorded pages are those
 * the calls' shrink events named it for; what it lacks is the gaps of the calls that scanned it.
 */
static int call_nodes(const struct rs_world *w, const struct rs_replay_result *rec,
		      const struct rs_replay_result *model, const unsigned int *lacks,
		      struct rs_identity *out)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct rs_gap_pages *gp;
	uint64_t *calls;
	int k = 0;

	if (wi->nr_nodes < 2 || !rec->node || !model->node || rec->nr_nodes != wi->nr_nodes ||
	    model->nr_nodes != wi->nr_nodes || !wi->nr_calls)
		return 0;
	gp = calloc((size_t)wi->nr_nodes, sizeof(*gp));
	calls = calloc((size_t)wi->nr_nodes, sizeof(*calls));
	if (!gp || !calls)
		goto out_nomem;
	for (size_t i = 0; i < wi->nr_calls; i++) {
		const struct rs_reclaim_call *c = rs_world_call(w, i);
		uint32_t seen = 0;

		if (c->ctx == RS_CALL_KSWAPD || !c->rec.have)
			continue;
		for (size_t j = 0; j < c->rec.nr_memcg; j++) {
			const struct rs_memcg_lists *ml = &c->rec.memcg[j];

			if (ml->nid < 0 || ml->nid >= wi->nr_nodes)
				continue;
			if (ml->nid < 32 && !(seen & (1u << ml->nid))) {
				seen |= 1u << ml->nid;
				calls[ml->nid]++;
			}
			for (int l = 0; l < RS_NR_EVICTABLE; l++)
				gap_add(&gp[ml->nid], lacks[i], l, ml->scanned[l]);
		}
	}
	for (int nid = 0; nid < wi->nr_nodes; nid++)
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			if (rec->node[nid].scanned[l] || model->node[nid].scanned[l]) {
				out->nr_call_nodes++;
				break;
			}
	out->call_node = calloc((size_t)out->nr_call_nodes + 1, sizeof(*out->call_node));
	if (!out->call_node)
		goto out_nomem;
	for (int nid = 0; nid < wi->nr_nodes && k < out->nr_call_nodes; nid++) {
		const struct rs_reclaim_acct *r = &rec->node[nid], *m = &model->node[nid];
		struct rs_identity_node *x = &out->call_node[k];
		bool any = false;

		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			any |= r->scanned[l] || m->scanned[l];
		if (!any)
			continue;
		k++;
		x->nid = nid;
		x->calls = calls[nid];
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			rs_identity_list(r->scanned[l], r->reclaimed[l], m->scanned[l],
					 m->reclaimed[l], &gp[nid], l, &x->list[l]);
	}
	free(gp);
	free(calls);
	return 0;
out_nomem:
	free(gp);
	free(calls);
	out->nr_call_nodes = 0;
	return -1;
}

int rs_identity_compute(const struct rs_world *w, const struct rs_replay_result *rec,
			const struct rs_replay_result *model, const struct rs_identity_opts *o,
			struct rs_identity *out, struct rs_error *err)
{
	int nr_memcg = rs_world_info(w)->nr_memcg;
	const struct rs_reclaim_acct *r = &rec->acct, *m = &model->acct;
	unsigned int *lacks;

	memset(out, 0, sizeof(*out));
	out->policy = model->policy;
	out->nr_memcg = nr_memcg;
	out->gaps = calloc(1 + (size_t)nr_memcg, sizeof(*out->gaps));
	/* what each call lacks, for the per-node tables: the gaps' one walk over the calls */
	lacks = calloc(rs_world_info(w)->nr_calls + 1, sizeof(*lacks));
	if (!out->gaps || !lacks) {
		free(lacks);
		rs_identity_free(out);
		return rs_error_set(err, "out of memory");
	}
	out->gap_mask = rs_world_identity_gaps_calls(w, out->gaps, lacks);
	rs_kswapd_ends(w, &out->kswapd);
	snapshot_interval(w, out);
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		rs_identity_list(r->scanned[l], r->reclaimed[l], m->scanned[l], m->reclaimed[l],
				 &out->gaps[0], l, &out->list[l]);
		count(out, &out->list[l]);
	}
	if (kswapd_nodes(w, model, lacks, out) || call_nodes(w, rec, model, lacks, out)) {
		free(lacks);
		rs_identity_free(out);
		return rs_error_set(err, "out of memory");
	}
	free(lacks);
	out->per_cgroup = o && o->victims_known && rec->nr_memcg == nr_memcg &&
			  model->nr_memcg == nr_memcg;
	if (!out->per_cgroup)
		return 0;
	out->memcg = calloc((size_t)nr_memcg * RS_NR_EVICTABLE, sizeof(*out->memcg));
	if (!out->memcg) {
		rs_identity_free(out);
		return rs_error_set(err, "out of memory");
	}
	for (int c = 0; c < nr_memcg; c++) {
		for (int l = 0; l < RS_NR_EVICTABLE; l++) {
			struct rs_identity_list *il = &out->memcg[c * RS_NR_EVICTABLE + l];

			rs_identity_list(rec->memcg[c].scanned[l], rec->memcg[c].reclaimed[l],
					 model->memcg[c].scanned[l], model->memcg[c].reclaimed[l],
					 &out->gaps[1 + c], l, il);
			count(out, il);
		}
	}
	return 0;
}

void rs_identity_free(struct rs_identity *id)
{
	free(id->memcg);
	free(id->gaps);
	free(id->kswapd_node);
	free(id->call_node);
	id->memcg = NULL;
	id->gaps = NULL;
	id->kswapd_node = NULL;
	id->nr_kswapd_nodes = 0;
	id->call_node = NULL;
	id->nr_call_nodes = 0;
}

/* ---- identity call by call ---- */

struct call_rank {
	uint64_t diff;
	size_t index;
};

/* Largest difference first; equal ones in time order, so that the listing is deterministic. */
static int rank_cmp(const void *a, const void *b)
{
	const struct call_rank *x = a, *y = b;

	return RS_CMP(y->diff, x->diff) ?: RS_CMP(x->index, y->index);
}

static void call_fill(const struct rs_world *w, const struct rs_replay_result *model, size_t k,
		      struct rs_identity_call *ic)
{
	const struct rs_reclaim_call *c = rs_world_call(w, k);
	const struct rs_call_outcome *o = &model->call[k];

	memset(ic, 0, sizeof(*ic));
	ic->index = k;
	ic->call = c;
	ic->model = o;
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		int64_t d;

		/* as rs_replay_recorded(): a call without shrink events recorded nothing */
		ic->rec_scanned[l] = c->rec.have ? c->rec.scanned[l] : 0;
		ic->rec_reclaimed[l] = c->rec.have ? c->rec.reclaimed[l] : 0;
		d = (int64_t)o->acct.scanned[l] - (int64_t)ic->rec_scanned[l];
		ic->scanned_diff[l] = d;
		ic->diff += (uint64_t)(d < 0 ? -d : d);
	}
}

int rs_identity_calls(const struct rs_world *w, const struct rs_replay_result *model, size_t top,
		      struct rs_identity_calls *out, struct rs_error *err)
{
	size_t n = rs_world_info(w)->nr_calls;
	struct call_rank *rank;

	memset(out, 0, sizeof(*out));
	out->nr_calls = n;
	if (model->nr_calls_kept != n)
		return rs_error_set(err, "%s kept %zu call outcomes of %zu: no per-call view",
				    model->policy ? model->policy->name : "the replay",
				    model->nr_calls_kept, n);
	if (!n)
		return 0;
	rank = malloc(n * sizeof(*rank));
	if (!rank)
		return rs_error_set(err, "out of memory");
	for (size_t k = 0; k < n; k++) {
		struct rs_identity_call ic;

		call_fill(w, model, k, &ic);
		rank[k] = (struct call_rank){ .diff = ic.diff, .index = k };
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			out->total_diff[l] += ic.scanned_diff[l];
	}
	qsort(rank, n, sizeof(*rank), rank_cmp);
	out->nr = top && top < n ? top : n;
	out->call = calloc(out->nr, sizeof(*out->call));
	if (!out->call) {
		free(rank);
		out->nr = 0;
		return rs_error_set(err, "out of memory");
	}
	for (size_t i = 0; i < out->nr; i++) {
		call_fill(w, model, rank[i].index, &out->call[i]);
		for (int l = 0; l < RS_NR_EVICTABLE; l++)
			out->listed_diff[l] += out->call[i].scanned_diff[l];
	}
	free(rank);
	return 0;
}

void rs_identity_calls_free(struct rs_identity_calls *ic)
{
	free(ic->call);
	ic->call = NULL;
	ic->nr = 0;
}

const struct rs_identity_list *rs_identity_memcg(const struct rs_identity *id, int memcg,
						 int lru)
{
	if (!id->memcg || memcg < 0 || memcg >= id->nr_memcg)
		return NULL;
	return &id->memcg[memcg * RS_NR_EVICTABLE + lru];
}

const char *rs_identity_verdict_name(enum rs_id_verdict v)
{
	switch (v) {
	case RS_ID_NOT_CHECKED:
		return "not checked";
	case RS_ID_NO_CLAIM:
		return "NO CLAIM";
	case RS_ID_OK:
		return "ok";
	case RS_ID_OFF:
		return "OFF";
	default:
		return "";
	}
}

void rs_wilson95(uint64_t r, uint64_t n, uint64_t *lo, uint64_t *hi)
{
	const double z = 1.959964;
	double p = (double)r / (double)n, nn = (double)n;
	double den = 1.0 + z * z / nn;
	double c = (p + z * z / (2.0 * nn)) / den;
	double h = z * sqrt(p * (1.0 - p) / nn + z * z / (4.0 * nn * nn)) / den;
	double l = c - h < 0.0 ? 0.0 : c - h, u = c + h > 1.0 ? 1.0 : c + h;

	*lo = (uint64_t)(l * (double)RS_RATE_ONE);
	*hi = (uint64_t)(u * (double)RS_RATE_ONE);
}

static void reclaim_range(uint64_t sample, uint64_t sample_reclaimed, uint64_t scanned,
			  struct rs_reclaim_range *out)
{
	uint64_t lo, hi;

	memset(out, 0, sizeof(*out));
	out->sample = sample;
	if (scanned <= RS_EXTRAP_FACTOR * sample)
		return;
	out->extrapolated = true;
	if (sample < RS_EXTRAP_MIN_SAMPLE || scanned > RS_EXTRAP_MAX_FACTOR * sample) {
		out->unknown = true;
		return;
	}
	rs_wilson95(sample_reclaimed, sample, &lo, &hi);
	/* pages: scanned x rate, rounded outwards */
	out->lo = (uint64_t)((double)scanned * (double)lo / (double)RS_RATE_ONE);
	out->hi = (uint64_t)ceil((double)scanned * (double)hi / (double)RS_RATE_ONE);
}

void rs_policy_claims(const struct rs_replay_result *rec, const struct rs_replay_result *p,
		      unsigned int gap_mask, struct rs_policy_claims *out)
{
	const struct rs_reclaim_acct *r = &rec->acct, *m = &p->acct;

	memset(out, 0, sizeof(*out));
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		if (l == RS_LRU_INACTIVE_ANON || l == RS_LRU_INACTIVE_FILE)
			/* anon scanned without swap reclaimed nothing: no rate extrapolated */
			reclaim_range(r->scanned[l], r->reclaimed[l], m->scanned[l] -
				      (l == RS_LRU_INACTIVE_ANON ? m->scanned_no_swap : 0),
				      &out->reclaimed[l]);
	out->swapped = out->reclaimed[RS_LRU_INACTIVE_ANON];
	out->soft_shown = true;
	if (!p->policy || !p->policy->recorded_soft_passes || !r->soft_scanned)
		return;
	out->soft_checked = true;
	out->soft_err = rs_replay_err_pct(m->soft_scanned, r->soft_scanned);
	out->soft_shown = in_target_pct(out->soft_err, RS_SOFT_TARGET_PCT) &&
			  (r->soft_reclaimed < RS_IDENTITY_MIN_SCANNED ||
			   in_target_pct(rs_replay_err_pct(m->soft_reclaimed, r->soft_reclaimed),
					 RS_SOFT_TARGET_PCT));
	if (!out->soft_shown)
		out->soft_lacks = gap_mask & ((1u << RS_GAP_SOFT_TREE) | (1u << RS_GAP_SIZES));
}

int rs_policy_identity_index(const struct rs_policy_ops *const *pol, int n)
{
	for (int i = 0; i < n; i++)
		if (pol[i]->recorded_kernel)
			return i;
	return -1;
}
