// SPDX-License-Identifier: GPL-2.0
/* The episode log's bounds (include/episode_log.h) and latency quantiles (include/latency.h). */
#include <stdlib.h>

#include "analysis.h"
#include "episode_log.h"
#include "latency.h"
#include "unit.h"

/* Full logs keep every stall at least min_ns long, longest first, never more than the cap. */
UT_TEST(test_stall_log_bound, "episode log: a full stall log keeps every stall from min_ns")
{
	struct rs_episode_log *l = rs_episode_log_new(8, 0);
	const struct rs_stall *s;
	uint64_t min, want = 0, longest = 0;
	size_t n;

	UT_ASSERT(l);
	for (int i = 0; i < 100; i++) {
		struct rs_stall st = { .begin_ts = 1000 + (uint64_t)i,
				       .ns = (uint64_t)(i * 37 % 101), .pid = i };

		UT_ASSERT(rs_episode_log_add_stall(l, &st));
	}
	rs_episode_log_finish(l);
	n = rs_episode_log_stalls(l, &s);
	min = rs_episode_log_min_ns(l);
	UT_ASSERT(min > 0);
	UT_ASSERT(n <= 8);
	UT_ASSERT_EQ(rs_episode_log_stalls_seen(l), 100);
	/* the oracle: the inputs of at least min_ns, counted again */
	for (int i = 0; i < 100; i++) {
		want += (uint64_t)(i * 37 % 101) >= min;
		if ((uint64_t)(i * 37 % 101) > longest)
			longest = (uint64_t)(i * 37 % 101);
	}
	UT_ASSERT_EQ(n, want);
	for (size_t i = 1; i < n; i++)
		UT_ASSERT(s[i - 1].ns >= s[i].ns);
	UT_ASSERT_EQ(s[0].ns, longest);		/* the longest is never dropped */
	rs_episode_log_free(l);
	return UT_OK;
}

/* Under the cap nothing is dropped or joined. */
UT_TEST(test_stall_log_whole, "episode log: under the cap every stall and period")
{
	struct rs_episode_log *l = rs_episode_log_new(0, 0);
	const struct rs_stall *s;
	const struct rs_awake *p;

	for (int i = 0; i < 1000; i++) {
		struct rs_stall st = { .begin_ts = (uint64_t)i, .ns = 5 };
		struct rs_awake a = { .begin_ts = (uint64_t)i * 10,
				      .end_ts = (uint64_t)i * 10 + 3 };

		UT_ASSERT(rs_episode_log_add_stall(l, &st));
		UT_ASSERT(rs_episode_log_add_awake(l, &a));
	}
	rs_episode_log_finish(l);
	UT_ASSERT_EQ(rs_episode_log_stalls(l, &s), 1000);
	UT_ASSERT_EQ(rs_episode_log_min_ns(l), 0);
	UT_ASSERT_EQ(rs_episode_log_periods(l, &p), 1000);
	UT_ASSERT_EQ(rs_episode_log_join_gap_ns(l), 0);
	UT_ASSERT_EQ(p[999].begin_ts, 9990);
	rs_episode_log_free(l);
	return UT_OK;
}

/* A full period log joins periods of one kswapd across gaps, never across kswapds. */
UT_TEST(test_awake_join, "episode log: a full period log joins across gaps")
{
	struct rs_episode_log *l = rs_episode_log_new(0, 8);
	struct rs_awake in[40];
	const struct rs_awake *p;
	uint64_t gap;
	size_t n;

	for (int i = 0; i < 40; i++) {
		/* kswapd i % 2: 2 us awake every 10 us */
		in[i] = (struct rs_awake){ .begin_ts = (uint64_t)i * 10000,
					   .end_ts = (uint64_t)i * 10000 + 2000, .kswapd = i % 2 };
		UT_ASSERT(rs_episode_log_add_awake(l, &in[i]));
	}
	rs_episode_log_finish(l);
	n = rs_episode_log_periods(l, &p);
	gap = rs_episode_log_join_gap_ns(l);
	UT_ASSERT(n <= 8);
	UT_ASSERT(n >= 2);
	UT_ASSERT(gap > 0);
	for (size_t i = 0; i < n; i++)
		/* one kswapd's periods: no two closer than the gap */
		for (size_t j = i + 1; j < n; j++)
			if (p[j].kswapd == p[i].kswapd)
				UT_ASSERT(p[j].begin_ts >= p[i].end_ts + gap ||
					  p[i].begin_ts >= p[j].end_ts + gap);
	/* every period given lies inside one logged period of its own kswapd */
	for (int i = 0; i < 40; i++) {
		bool inside = false;

		for (size_t j = 0; j < n; j++)
			inside |= p[j].kswapd == in[i].kswapd && p[j].begin_ts <= in[i].begin_ts &&
				  p[j].end_ts >= in[i].end_ts;
		UT_ASSERT(inside);
	}
	rs_episode_log_free(l);
	return UT_OK;
}

/* Quantiles are nearest-rank; from the histogram they are within 1/128 below. */
UT_TEST(test_latency_quantiles, "latency: quantiles exact and from the histogram")
{
	struct rs_latency *ex = rs_latency_new(0), *hi = rs_latency_new(16);
	struct rs_latency_summary s;
	uint64_t x[10];

	for (uint64_t v = 1; v <= 1000; v++) {
		rs_latency_add(ex, v * 1000);
		rs_latency_add(hi, v * 1000);
	}
	rs_latency_summary(ex, &s);
	rs_latency_summary(hi, &s);
	UT_ASSERT(s.approximate);
	UT_ASSERT_EQ(rs_latency_quantiles(ex, x, 10), 10);
	for (int i = 0; i < 10; i++)
		UT_ASSERT_EQ(x[i], (uint64_t)(i + 1) * 100 * 1000);
	UT_ASSERT_EQ(rs_latency_quantiles(hi, x, 10), 10);
	for (int i = 0; i < 10; i++) {
		uint64_t want = (uint64_t)(i + 1) * 100 * 1000;

		UT_ASSERT(x[i] <= want && x[i] >= want - want / 128);
	}
	rs_latency_free(ex);
	rs_latency_free(hi);
	return UT_OK;
}

/* On a real trace the log holds every complete episode the analysis counted. */
UT_TEST(test_analysis_log, "episode log: the analysis logs every complete episode")
{
	struct rs_analysis_opts o = { .pid = -1, .threads = 1, .keep_episodes = true };
	struct rs_error err = { "" };
	struct rs_analysis *a;
	const struct rs_stall *s;
	uint64_t count = 0, in_kind[RS_RK_NR] = { 0 };
	size_t n;

	UT_ASSERT(rs_analysis_run(FIXTURE("contention.dat"), &o, &a, &err) == 0);
	n = rs_episode_log_stalls(rs_analysis_episode_log(a), &s);
	for (int k = 0; k < RS_RK_NR; k++)
		count += rs_analysis_episode_stats(a, k)->count;
	UT_ASSERT(count > 0);
	UT_ASSERT_EQ(n, count);
	for (size_t i = 0; i < n; i++)
		in_kind[s[i].kind]++;
	for (int k = 0; k < RS_RK_NR; k++)
		UT_ASSERT_EQ(in_kind[k], rs_analysis_episode_stats(a, k)->count);
	UT_ASSERT_EQ(s[0].ns, rs_analysis_episode_stats(a, RS_RK_MEMCG)->latency.max);
	rs_analysis_free(a);
	o.keep_episodes = false;
	UT_ASSERT(rs_analysis_run(FIXTURE("contention.dat"), &o, &a, &err) == 0);
	UT_ASSERT(!rs_analysis_episode_log(a));
	rs_analysis_free(a);
	return UT_OK;
}
