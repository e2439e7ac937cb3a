// SPDX-License-Identifier: GPL-2.0
/*
 * The replay driver: walks the pressure once, moving the world to each call's start, and asks
 * every policy in turn what it would have done; sums the outcomes per policy, per list and per
 * memcg. The policies never see each other: each keeps its own state, and the world is
 * read-only while they run, so side by side equals one at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"

static int result_init(struct rs_replay_result *r, const struct rs_policy_ops *ops,
		       const struct rs_world_info *wi, bool keep_calls, struct rs_error *err)
{
	memset(r, 0, sizeof(*r));
	r->policy = ops;
	r->prio_lowest = -1;
	r->nr_memcg = wi->nr_memcg;
	r->memcg = calloc((size_t)wi->nr_memcg, sizeof(*r->memcg));
	if (!r->memcg)
		return rs_error_set(err, "out of memory");
	if (keep_calls && wi->nr_calls) {
		r->call = calloc(wi->nr_calls, sizeof(*r->call));
		if (!r->call)
			return rs_error_set(err, "out of memory");
	}
	return 0;
}

void rs_replay_results_free(struct rs_replay_result *res, int n)
{
	if (!res)
		return;
	for (int i = 0; i < n; i++) {
		free(res[i].memcg);
		free(res[i].call);
	}
	free(res);
}

static void note_prio(struct rs_replay_result *r, int prio)
{
	if (prio < 0 || prio > RS_DEF_PRIORITY)
		return;
	r->calls_at_prio[prio]++;
	if (r->prio_lowest < 0 || prio < r->prio_lowest)
		r->prio_lowest = prio;
}

static uint64_t wanted(const struct rs_reclaim_call *c)
{
	if (c->ctx == RS_CALL_KSWAPD)
		return c->nr_to_reclaim;
	return c->nr_to_reclaim > RS_SWAP_CLUSTER_MAX ? c->nr_to_reclaim : RS_SWAP_CLUSTER_MAX;
}

/* total += a, counter by counter */
static void acct_add(struct rs_reclaim_acct *total, const struct rs_reclaim_acct *a)
{
	for (int l = 0; l < RS_NR_EVICTABLE; l++) {
		total->scanned[l] += a->scanned[l];
		total->reclaimed[l] += a->reclaimed[l];
	}
	total->swapped_out += a->swapped_out;
	total->soft_scanned += a->soft_scanned;
	total->soft_reclaimed += a->soft_reclaimed;
}

static void add_outcome(struct rs_replay_result *r, const struct rs_call_outcome *o,
			const struct rs_reclaim_call *c, bool keep)
{
	uint64_t got = 0;

	r->calls++;
	r->rounds += o->rounds;
	acct_add(&r->acct, &o->acct);
	for (int l = 0; l < RS_NR_EVICTABLE; l++)
		got += o->acct.reclaimed[l];
	for (int k = 0; k < RS_RATE_SRC_NR; k++)
		r->reclaimed_by_src[k] += o->reclaimed_by_src[k];
	if (got < wanted(c))
		r->calls_short++;
	note_prio(r, o->prio_lowest);
	for (int m = 0; m < r->nr_memcg; m++)
		acct_add(&r->memcg[m], &o->memcg[m]);
	if (keep) {
		r->call[r->nr_calls_kept] = *o;
		r->call[r->nr_calls_kept++].memcg = NULL;
	}
}

int rs_replay_run(struct rs_world *w, const struct rs_policy_ops *const *pol, int n,
		  const struct rs_replay_opts *opts, struct rs_replay_result **out,
		  struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	bool keep = opts && opts->keep_calls;
	struct rs_replay_result *res = NULL;
	struct rs_reclaim_acct *acct = NULL;
	void **state = NULL;
	int ret = -1, inited = 0;

	if (!wi->have_sizes)
		return rs_error_set(err, "no LRU sizes: the trace has no memcg_stat/node_stat "
				    "snapshots or lruvec deltas, so no policy can be replayed");
	if (n < 1)
		return rs_error_set(err, "no policy to replay");
	res = calloc((size_t)n, sizeof(*res));
	state = calloc((size_t)n, sizeof(*state));
	acct = calloc((size_t)wi->nr_memcg, sizeof(*acct));
	if (!res || !state || !acct) {
		rs_error_set(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (result_init(&res[i], pol[i], wi, keep, err))
			goto out;
	for (; inited < n; inited++) {
		if (pol[inited]->init(w, &state[inited], err)) {
			rs_error_prefix(err, "%s: ", pol[inited]->name);
			goto out;
		}
	}
	rs_world_rewind(w);
	for (size_t k = 0; k < wi->nr_calls; k++) {
		const struct rs_reclaim_call *c = rs_world_call(w, k);

		rs_world_advance(w, c->ts);
		for (int i = 0; i < n; i++) {
			struct rs_call_outcome o;

			memset(&o, 0, sizeof(o));
			memset(acct, 0, (size_t)wi->nr_memcg * sizeof(*acct));
			o.memcg = acct;
			if (pol[i]->invoke(state[i], w, c, &o, err)) {
				rs_error_prefix(err, "%s: call %zu at %llu ns: ", pol[i]->name, k,
						(unsigned long long)c->ts);
				goto out;
			}
			add_outcome(&res[i], &o, c, keep);
		}
	}
	*out = res;
	res = NULL;
	ret = 0;
out:
	for (int i = 0; i < inited; i++)
		pol[i]->free(state[i]);
	free(state);
	free(acct);
	rs_replay_results_free(res, n);
	return ret;
}

int rs_replay_recorded(const struct rs_world *w, struct rs_replay_result **out,
		       struct rs_error *err)
{
	const struct rs_world_info *wi = rs_world_info(w);
	struct rs_replay_result *r = calloc(1, sizeof(*r));
	struct rs_reclaim_acct *acct = calloc((size_t)wi->nr_memcg + 1, sizeof(*acct));

	if (!r || !acct) {
		free(r);
		free(acct);
		return rs_error_set(err, "out of memory");
	}
	if (result_init(r, NULL, wi, false, err)) {
		rs_replay_results_free(r, 1);
		free(acct);
		return -1;
	}
	/* each recorded call as the outcome a policy would give, tallied the same way */
	for (size_t k = 0; k < wi->nr_calls; k++) {
		const struct rs_reclaim_call *c = rs_world_call(w, k);
		const struct rs_recorded *rec = &c->rec;
		struct rs_call_outcome o = {
			.acct = { .swapped_out = rec->reclaimed[RS_LRU_INACTIVE_ANON] +
						 rec->reclaimed[RS_LRU_ACTIVE_ANON],
				  .soft_scanned = rec->soft_scanned,
				  .soft_reclaimed = rec->soft_reclaimed },
			.rounds = rec->rounds, .prio_lowest = rec->prio_lowest, .memcg = acct,
		};

		if (!rec->have)
			continue;
		memcpy(o.acct.scanned, rec->scanned, sizeof(o.acct.scanned));
		memcpy(o.acct.reclaimed, rec->reclaimed, sizeof(o.acct.reclaimed));
		for (size_t j = 0; j < rec->nr_memcg; j++) {
			const struct rs_memcg_lists *ml = &rec->memcg[j];
			struct rs_reclaim_acct *t = &acct[ml->memcg];

			for (int l = 0; l < RS_NR_EVICTABLE; l++) {
				t->scanned[l] += ml->scanned[l];
				t->reclaimed[l] += ml->reclaimed[l];
			}
			t->swapped_out += ml->reclaimed[RS_LRU_INACTIVE_ANON] +
					  ml->reclaimed[RS_LRU_ACTIVE_ANON];
		}
		add_outcome(r, &o, c, false);
		for (size_t j = 0; j < rec->nr_memcg; j++)
			memset(&acct[rec->memcg[j].memcg], 0, sizeof(*acct));
	}
	free(acct);
	*out = r;
	return 0;
}
