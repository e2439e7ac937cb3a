/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU or the classic LRU, told from the trace itself (docs/kernels.md): the events a full
 * stream passes through, and the recorder's begin marker when there is one.
 */
#ifndef RS_LRU_SHAPE_H
#define RS_LRU_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs_event.h"

struct rs_lru_shape {
	uint64_t isolates, isolates_big, max_requested;
	uint64_t isolates_active, shrink_active;
	uint64_t isolates_empty;	/* nr_taken 0 */
	uint64_t isolates_mode;		/* with an isolate_mode field: a kernel before 6.7 */
	uint64_t shrink_inactive;
	uint64_t reclaim_runs;		/* kswapd_wake and *_reclaim_begin: reclaim ran */
	bool have_marker;
	unsigned long marker;		/* mglru= of the begin marker */
};

void rs_lru_shape_reset(struct rs_lru_shape *s);
void rs_lru_shape_see(struct rs_lru_shape *s, const struct rs_event *ev);

/*
 * The types rs_lru_shape_see() counts: a caller may pass it only these (source.c, for every
 * event of a stream: the rest, memcg counters mostly, then cost no call). The unit test holds
 * the two lists to each other.
 */
static inline bool rs_lru_shape_wants(enum rs_ev_type type)
{
	switch (type) {
	case RS_EV_LRU_ISOLATE:
	case RS_EV_SHRINK_ACTIVE:
	case RS_EV_SHRINK_INACTIVE:
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_RECLAIM_BEGIN:
	case RS_EV_META:
		return true;
	default:
		return false;
	}
}
/* 1 MGLRU, 0 classic LRU, -1 nothing tells (or both shapes); how it was told in buf. */
int rs_lru_shape_verdict(const struct rs_lru_shape *s, char *buf, size_t len);
/*
 * MGLRU (verdict 1) ran reclaim and no lru_isolate or lru_shrink_inactive came: a kernel before
 * 6.7, whose MGLRU did not reuse those events. Its eviction is not traced at all. The same with
 * nothing to tell the LRU (verdict -1: no marker, no isolate): a plain trace-cmd recording of
 * such a kernel, or one without those events; their figures are unknown, not 0.
 */
bool rs_lru_shape_untraced(const struct rs_lru_shape *s, int verdict);

#endif
