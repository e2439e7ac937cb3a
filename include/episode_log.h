/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Episode log: complete reclaim episodes (stalls) and kswapd awake periods one by one, kept by
 * the analysis when a view draws each of them (plot; rs_analysis_opts.keep_episodes). The
 * analysis' other results only count and sum; this keeps when and how long.
 *
 * Bounded, never by events: at most max_stalls stalls. When the log is full the shorter half is
 * dropped, and from then on only stalls at least as long as the shortest kept one are logged:
 * the log then holds every stall of at least rs_episode_log_min_ns() (the longest are never
 * lost). At most max_periods awake periods: when full, periods of one kswapd separated by less
 * than a gap are joined into one, the gap doubling until half the log is free
 * (rs_episode_log_join_gap_ns(); 0 while every period is its own).
 *
 * Lifetime: rs_episode_log_new() -> rs_episode_log_add_*()... -> rs_episode_log_finish() ->
 * readers -> rs_episode_log_free(). The analysis owns the one it keeps.
 */
#ifndef RS_EPISODE_LOG_H
#define RS_EPISODE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_EPLOG_STALLS_DEFAULT		(1u << 20)
#define RS_EPLOG_PERIODS_DEFAULT	(1u << 18)

/* One complete reclaim episode. */
struct rs_stall {
	uint64_t begin_ts;		/* ns, trace clock */
	uint64_t ns;			/* end - begin */
	int pid;
	uint8_t kind;			/* enum rs_reclaim_kind (== rs_ctx_kind) */
	uint8_t parent;			/* context it began in (RS_CTX_OTHER: not nested) */
};

/* One kswapd awake period (or several joined, see above). */
struct rs_awake {
	uint64_t begin_ts, end_ts;	/* ns; one cut by the window starts or ends at its edge */
	int kswapd;			/* rs_analysis_kswapd() index */
	bool cut;			/* begins or ends at the window's edge, not wake/sleep */
};

struct rs_episode_log;

/* 0 for either cap: its default. NULL when out of memory. */
struct rs_episode_log *rs_episode_log_new(size_t max_stalls, size_t max_periods);
void rs_episode_log_free(struct rs_episode_log *l);

/* false when memory ran out (the stall or period is then not logged, and counted dropped). */
bool rs_episode_log_add_stall(struct rs_episode_log *l, const struct rs_stall *s);
bool rs_episode_log_add_awake(struct rs_episode_log *l, const struct rs_awake *p);

/* Sort: stalls longest first (ties: earlier first), periods by begin. Call once, at the end. */
void rs_episode_log_finish(struct rs_episode_log *l);

/* Readers (after finish). */
size_t rs_episode_log_stalls(const struct rs_episode_log *l, const struct rs_stall **out);
uint64_t rs_episode_log_stalls_seen(const struct rs_episode_log *l);	/* logged or not */
uint64_t rs_episode_log_min_ns(const struct rs_episode_log *l);	/* 0: every stall is kept */
size_t rs_episode_log_periods(const struct rs_episode_log *l, const struct rs_awake **out);
uint64_t rs_episode_log_join_gap_ns(const struct rs_episode_log *l);

#endif
