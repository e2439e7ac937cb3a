/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kswapd runs and health per node, from the 7.x events: balance_pgdat_begin/_end (one kswapd
 * run with its own reclaimed pages), kswapd_reclaim_fail (a run that reclaimed nothing; the
 * node's failure count) and kswapd_clear_hopeless (the count reset, and by what). After
 * MAX_RECLAIM_RETRIES (16) failures in a row kswapd is "hopeless": it is no longer woken for
 * that node until something clears it. Memory: a fixed table of nodes and a bounded timeline.
 */
#ifndef RS_KSWAPD_HEALTH_H
#define RS_KSWAPD_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#include "rs_event.h"

#define RS_KSWAPD_MAX_FAILURES	16	/* MAX_RECLAIM_RETRIES */
#define RS_HEALTH_MAX_NODES	16
#define RS_HEALTH_TIMELINE	128	/* entries kept per node; later ones are counted */

enum rs_health_kind { RS_HEALTH_FAIL, RS_HEALTH_HOPELESS, RS_HEALTH_CLEAR };

struct rs_health_entry {
	uint64_t ts;
	enum rs_health_kind kind;
	int value;			/* FAIL/HOPELESS: failures; CLEAR: reason (-1 unknown) */
	int failures_before;		/* CLEAR: the count it reset (ours, from the fails seen) */
};

struct rs_kswapd_node_health {
	int nid;
	/* balance_pgdat runs */
	uint64_t runs;			/* begin .. end pairs */
	uint64_t runs_unfinished;	/* a begin with no end (trace cut, lost events) */
	uint64_t runs_ended_unbegun;	/* an end whose begin is before the trace */
	uint64_t runs_reclaimed_nothing;
	uint64_t reclaimed;		/* sum of balance_pgdat_end.nr_reclaimed */
	uint64_t run_ns;		/* time in complete runs */
	/* health */
	uint64_t reclaim_fail;		/* kswapd_reclaim_fail events */
	int max_failures;
	uint64_t hopeless;		/* fails that reached RS_KSWAPD_MAX_FAILURES */
	uint64_t hopeless_ns;		/* from going hopeless to the clear (or trace end) */
	uint64_t clears;
	uint64_t clears_by_reason[RS_HOPELESS_NR + 1];	/* last: unknown */
	uint64_t clears_of_hopeless;	/* clears while hopeless */
	struct rs_health_entry timeline[RS_HEALTH_TIMELINE];
	int nr_timeline;
	uint64_t timeline_dropped;
	/* state */
	bool in_run, is_hopeless;
	uint64_t run_ts, hopeless_ts;
	int failures;
};

struct rs_kswapd_health {
	bool seen;			/* any of the four events: the kernel has them (7.x) */
	int nr_nodes;
	struct rs_kswapd_node_health nodes[RS_HEALTH_MAX_NODES];
	uint64_t bad_nid;		/* events of no node, or of one past the first 16 */
};

void rs_kswapd_health_init(struct rs_kswapd_health *h);
/* Feed one event (the four types above; others are ignored). */
void rs_kswapd_health_feed(struct rs_kswapd_health *h, const struct rs_event *ev);
/* At the end of the trace: open hopeless periods are counted up to end_ts. */
void rs_kswapd_health_finish(struct rs_kswapd_health *h, uint64_t end_ts);

#endif
