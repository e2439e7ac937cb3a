/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim invocations and what each took (replay_calls.c).
 */
#ifndef RS_REPLAY_CALLS_H
#define RS_REPLAY_CALLS_H

#include "replay_input_state.h"

void ri_calls_event(struct rs_replay_input *ri, const struct rs_event *ev, const struct rs_ctx *ctx,
		    struct ri_task *t);
/*
 * A memcg_flush_stats of task t at ts (7.x emits one in each prepare_scan_control(), flushing
 * or not): the flush a pass's first isolation follows (rs_recorded.prio_begin).
 */
void ri_calls_flush(struct rs_replay_input *ri, struct ri_task *t, uint64_t ts);
/* A 7.x balance_pgdat_end of kswapd task t at ts: its open run returned (rs_recorded.run_end). */
void ri_calls_run_end(struct rs_replay_input *ri, struct ri_task *t, uint64_t ts);
void ri_calls_finish(struct rs_replay_input *ri);
void ri_call_free(struct ri_call *c);
/* The one size of a window's multi-page folios: 0 none yet, UINT32_MAX more than one. */
uint32_t ri_folio_size_merge(uint32_t a, uint32_t b);

#endif
