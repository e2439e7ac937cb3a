// SPDX-License-Identifier: GPL-2.0
/* Complete reclaim episodes and kswapd awake periods one by one, bounded (episode_log.h). */
#include <stdlib.h>
#include <string.h>

#include "episode_log.h"
#include "rs_cmp.h"
#include "rs_grow.h"

#define JOIN_GAP_FIRST	1000ull		/* 1 us: the first gap tried to join periods */

struct rs_episode_log {
	size_t max_stalls, max_periods;
	struct rs_stall *stalls;
	size_t nr_stalls, cap_stalls;
	uint64_t stalls_seen;
	uint64_t min_ns;		/* every stall at least this long is in the log */
	struct rs_awake *periods;
	size_t nr_periods, cap_periods;
	uint64_t join_gap;
};

struct rs_episode_log *rs_episode_log_new(size_t max_stalls, size_t max_periods)
{
	struct rs_episode_log *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->max_stalls = max_stalls >= 2 ? max_stalls : max_stalls ? 2 : RS_EPLOG_STALLS_DEFAULT;
	l->max_periods = max_periods >= 2 ? max_periods : max_periods ? 2 :
			 RS_EPLOG_PERIODS_DEFAULT;
	return l;
}

void rs_episode_log_free(struct rs_episode_log *l)
{
	if (!l)
		return;
	free(l->stalls);
	free(l->periods);
	free(l);
}

/* Longest first; among equals the earlier first (a stable, deterministic order). */
static int stall_cmp(const void *pa, const void *pb)
{
	const struct rs_stall *a = pa, *b = pb;

	return RS_CMP(b->ns, a->ns) ?: RS_CMP(a->begin_ts, b->begin_ts) ?: RS_CMP(a->pid, b->pid);
}

/* Full: keep the stalls longer than the median; the log stays whole from median + 1 ns on. */
static void drop_shorter_half(struct rs_episode_log *l)
{
	uint64_t thr;
	size_t n = 0;

	qsort(l->stalls, l->nr_stalls, sizeof(*l->stalls), stall_cmp);
	thr = l->stalls[l->nr_stalls / 2].ns;
	while (n < l->nr_stalls && l->stalls[n].ns > thr)
		n++;
	l->nr_stalls = n;
	l->min_ns = thr + 1;
}

bool rs_episode_log_add_stall(struct rs_episode_log *l, const struct rs_stall *s)
{
	l->stalls_seen++;
	if (s->ns < l->min_ns)
		return true;
	if (l->nr_stalls == l->max_stalls) {
		drop_shorter_half(l);
		if (s->ns < l->min_ns)
			return true;
	}
	if (rs_grow((void **)&l->stalls, &l->cap_stalls, l->nr_stalls + 1, sizeof(*l->stalls), 1024,
		    l->max_stalls))
		return false;
	l->stalls[l->nr_stalls++] = *s;
	return true;
}

/* Join the periods of each kswapd closer than the gap, in place (each kswapd's stay in order). */
static bool join_periods(struct rs_episode_log *l, uint64_t gap)
{
	int max_k = 0;
	size_t *last, n = 0;

	for (size_t i = 0; i < l->nr_periods; i++)
		if (l->periods[i].kswapd > max_k)
			max_k = l->periods[i].kswapd;
	last = malloc(((size_t)max_k + 2) * sizeof(*last));
	if (!last)
		return false;
	for (int k = 0; k <= max_k + 1; k++)
		last[k] = SIZE_MAX;
	for (size_t i = 0; i < l->nr_periods; i++) {
		struct rs_awake p = l->periods[i];
		size_t k = p.kswapd >= 0 ? (size_t)p.kswapd : (size_t)max_k + 1;
		struct rs_awake *prev = last[k] != SIZE_MAX ? &l->periods[last[k]] : NULL;

		if (prev && p.begin_ts < prev->end_ts + gap) {
			if (p.end_ts > prev->end_ts)
				prev->end_ts = p.end_ts;
			prev->cut |= p.cut;
			continue;
		}
		l->periods[n] = p;
		last[k] = n++;
	}
	free(last);
	l->nr_periods = n;
	l->join_gap = gap;
	return true;
}

bool rs_episode_log_add_awake(struct rs_episode_log *l, const struct rs_awake *p)
{
	if (l->nr_periods == l->max_periods) {
		uint64_t gap = l->join_gap ? l->join_gap * 2 : JOIN_GAP_FIRST;

		/* doubling from 1 us reaches any span in 64 steps */
		while (l->nr_periods > l->max_periods / 2 && gap && join_periods(l, gap))
			gap *= 2;
		if (l->nr_periods == l->max_periods)
			return false;
	}
	if (rs_grow((void **)&l->periods, &l->cap_periods, l->nr_periods + 1, sizeof(*l->periods),
		    256, l->max_periods))
		return false;
	l->periods[l->nr_periods++] = *p;
	/* a period joins the one before it of its kswapd when the log already joins */
	if (l->join_gap) {
		size_t i = l->nr_periods - 1;

		for (size_t j = i; j-- > 0;) {
			if (l->periods[j].kswapd != p->kswapd)
				continue;
			if (p->begin_ts < l->periods[j].end_ts + l->join_gap) {
				if (p->end_ts > l->periods[j].end_ts)
					l->periods[j].end_ts = p->end_ts;
				l->periods[j].cut |= p->cut;
				l->nr_periods--;
			}
			break;
		}
	}
	return true;
}

static int awake_cmp(const void *pa, const void *pb)
{
	const struct rs_awake *a = pa, *b = pb;

	return RS_CMP(a->begin_ts, b->begin_ts) ?: RS_CMP(a->kswapd, b->kswapd);
}

void rs_episode_log_finish(struct rs_episode_log *l)
{
	if (l->nr_stalls)
		qsort(l->stalls, l->nr_stalls, sizeof(*l->stalls), stall_cmp);
	if (l->nr_periods)
		qsort(l->periods, l->nr_periods, sizeof(*l->periods), awake_cmp);
}

size_t rs_episode_log_stalls(const struct rs_episode_log *l, const struct rs_stall **out)
{
	*out = l->stalls;
	return l->nr_stalls;
}

uint64_t rs_episode_log_stalls_seen(const struct rs_episode_log *l)
{
	return l->stalls_seen;
}

uint64_t rs_episode_log_min_ns(const struct rs_episode_log *l)
{
	return l->min_ns;
}

size_t rs_episode_log_periods(const struct rs_episode_log *l, const struct rs_awake **out)
{
	*out = l->periods;
	return l->nr_periods;
}

uint64_t rs_episode_log_join_gap_ns(const struct rs_episode_log *l)
{
	return l->join_gap;
}
