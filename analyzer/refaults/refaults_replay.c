// SPDX-License-Identifier: GPL-2.0
/* Refaults avoided by a replayed policy, bounded per call (include/refaults_replay.h). */
#include <stdlib.h>
#include <string.h>

#include "refaults_replay.h"
#include "rs_cmp.h"

struct call_key {
	int pid;
	uint64_t ts, ts_end;
	size_t idx;
};

static int by_pid_ts(const void *x, const void *y)
{
	const struct call_key *a = x, *b = y;

	return RS_CMP(a->pid, b->pid) ?: RS_CMP(a->ts, b->ts);
}

/* The call of task pid that holds time ts: the last begun at or before it, not yet ended. */
static const struct call_key *find_call(const struct call_key *k, size_t n, int pid, uint64_t ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k[mid].pid < pid || (k[mid].pid == pid && k[mid].ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || k[lo - 1].pid != pid || ts > k[lo - 1].ts_end)
		return NULL;
	return &k[lo - 1];
}

int rs_refaults_replay(const struct rs_refaults *rf, const struct rs_world *w,
		       const struct rs_replay_result *res, struct rs_rf_policy *out)
{
	size_t n = rs_world_info(w)->nr_calls, ne = rs_refaults_nr_episodes(rf);
	struct call_key *k;
	uint64_t *d, *r;

	memset(out, 0, sizeof(*out));
	if (!res->call || res->nr_calls_kept < n)
		return -1;
	k = calloc(n ? n : 1, sizeof(*k));
	d = calloc(n ? n : 1, sizeof(*d));
	r = calloc(n ? n : 1, sizeof(*r));
	if (!k || !d || !r) {
		free(k);
		free(d);
		free(r);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rs_reclaim_call *c = rs_world_call(w, i);

		k[i] = (struct call_key){ c->pid, c->ts, c->ts_end, i };
	}
	qsort(k, n, sizeof(*k), by_pid_ts);
	for (size_t e = 0; e < ne; e++) {
		const struct rs_rf_episode *ep = rs_refaults_episode(rf, e);
		const struct call_key *c = find_call(k, n, ep->pid, ep->first_ts);

		if (!c) {
			out->unmatched_refaulted += ep->refaulted_pages[RS_LRU_INACTIVE_FILE];
			continue;
		}
		d[c->idx] += ep->evicted_pages[RS_LRU_INACTIVE_FILE];
		r[c->idx] += ep->refaulted_pages[RS_LRU_INACTIVE_FILE];
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t p = res->call[i].acct.reclaimed[RS_LRU_INACTIVE_FILE];

		if (!d[i])
			continue;
		out->calls++;
		out->evicted_pages += d[i];
		out->refaulted_pages += r[i];
		out->policy_pages += p;
		if (p < d[i]) {
			uint64_t kept = d[i] - p;

			out->calls_fewer++;
			out->avoided_min += r[i] > p ? r[i] - p : 0;
			out->avoided_max += r[i] < kept ? r[i] : kept;
		} else if (p > d[i]) {
			out->calls_more++;
		}
	}
	free(k);
	free(d);
	free(r);
	return 0;
}
